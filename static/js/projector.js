/* The projector cycles by itself: one slide of #projector-live at a time, the next every
   data-cycle seconds (on <body>), keeping its place when the live part is refreshed.
   Every [data-ends-at] element counts down to that time (the round clock). */
(function () {
  "use strict";
  var index = 0;
  // The reader's words (static/js/words.js), else this file's English.
  function t(key, english, values) {
    return window.rummitabText ? window.rummitabText(key, english, values) : english;
  }

  function slides() {
    return Array.prototype.slice.call(document.querySelectorAll("#projector-live .slide"));
  }

  function show() {
    var all = slides();
    if (!all.length) {
      return;
    }
    index = index % all.length;
    all.forEach(function (slide, i) {
      slide.hidden = i !== index;
    });
    document.body.setAttribute("data-slide", all[index].getAttribute("data-slide"));
  }

  function pad(n) {
    return (n < 10 ? "0" : "") + n;
  }

  function tick() {
    var now = Date.now();
    document.querySelectorAll("[data-ends-at]").forEach(function (clock) {
      var left = Math.round((Date.parse(clock.getAttribute("data-ends-at")) - now) / 1000);
      if (isNaN(left)) {
        return;
      }
      if (left <= 0) {
        clock.textContent = t("clock_over", "Time");
        clock.classList.add("over");
        return;
      }
      clock.classList.remove("over");
      var hours = Math.floor(left / 3600);
      var minutes = Math.floor((left % 3600) / 60);
      var text = pad(minutes) + ":" + pad(left % 60);
      clock.textContent = hours ? hours + ":" + text : text;
    });
  }

  document.addEventListener("DOMContentLoaded", function () {
    var seconds = parseFloat(document.body.getAttribute("data-cycle")) || 15;
    show();
    tick();
    window.setInterval(function () {
      index += 1;
      show();
    }, seconds * 1000);
    window.setInterval(tick, 250);
  });
  document.addEventListener("htmx:afterSwap", function () {
    show();
    tick();
  });
})();
