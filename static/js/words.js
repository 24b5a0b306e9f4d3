/* The words the scripts show, in the reader's language: the page carries them as JSON
   (<script type="application/json" id="ui-text">, games/templatetags/ui_text.py), read
   on first use. Each script passes its own English as the fallback, so a page without
   the words, or a word missing, still shows English.

     rummitabText("timer_turn", "Turn: {name} (seat {seat})", {name: "Ada", seat: 2})
     rummitabCount("tiles", "{count} tiles", 3)   // a counted word: the form for 3 */
(function () {
  "use strict";
  var words = null;

  function all() {
    if (words === null) {
      var element = document.getElementById("ui-text");
      try {
        words = element ? JSON.parse(element.textContent) : {};
      } catch (e) {
        words = {};
      }
    }
    return words;
  }

  function fill(text, values) {
    return String(text).replace(/\{(\w+)\}/g, function (whole, name) {
      return values && Object.prototype.hasOwnProperty.call(values, name) ? String(values[name]) : whole;
    });
  }

  window.rummitabText = function (key, english, values) {
    var word = all()[key];
    return fill(typeof word === "string" ? word : english, values);
  };

  /* Forms are sent for counts 0 … 29; past them the form of 20 + the last digit stands
     in, which is right in the site's languages for every count a rack can hold. */
  window.rummitabCount = function (key, english, count, values) {
    var forms = all()[key];
    var form = english;
    if (Array.isArray(forms) && forms.length) {
      var at = count < forms.length ? count : 20 + (count % 10);
      form = forms[Math.min(at, forms.length - 1)];
    }
    var given = { count: count };
    for (var name in values || {}) given[name] = values[name];
    return fill(form, given);
  };
})();
