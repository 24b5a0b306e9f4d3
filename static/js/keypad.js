/* The tile keypad of the table page (templates/games/table.html). Plain JS, no build step.

   Progressive enhancement: without this script the game form is a plain form where the
   racks are typed in the notation (R4 B10 J). With it:
   * each rack shows its tiles as coloured chips with the running rack value, and is a
     button: tapping it makes it the active rack;
   * the keypad builds the active rack: a colour (it stays selected until another is
     tapped), then a number 1-13 adds that tile; J adds a joker; ⌫ takes the last tile
     back; "Next ▸" moves to the next rack. It writes into the rack's tiles input, which
     stays editable, so typing still works and the server reads the same text;
   * the winner and the blank rack imply each other on a Rummikub end: choosing a winner
     blanks their rack, and when exactly one rack is blank its player becomes the winner
     (the server applies the same rule, scoring.game);
   * the active rack is kept in view above the keypad: when the scorekeeper moves to
     another rack, and as its chips grow, the page scrolls so that rack's chips and
     running points sit between the top of the screen and the keypad (the keypad is
     sticky at the bottom and would otherwise hide the rack it is filling);
   * a rack entered by totals ("By totals instead" open, or points typed) needs no
     keypad: while the active rack is one, the keypad is hidden;
   * the error summary at the top of a game that was not saved gets the focus, so the
     page scrolls there and a screen reader reads it. */
(function () {
  "use strict";

  var COLOURS = { B: "blue", R: "red", O: "orange", Y: "orange", K: "black" };
  // The reader's words (static/js/words.js), else this file's English.
  function t(key, english, values) {
    return window.rummitabText ? window.rummitabText(key, english, values) : english;
  }
  function tiles(count) {
    return window.rummitabCount
      ? window.rummitabCount("tiles", count === 1 ? "{count} tile" : "{count} tiles", count)
      : count + (count === 1 ? " tile" : " tiles");
  }

  var TOKEN = /^([BROYK]?)(\d{1,2})$/;

  var summary = document.querySelector(".error-summary");
  if (summary) {
    summary.focus();
    summary.scrollIntoView({ block: "start" });
  }

  var form = document.querySelector("form.entry");
  var keypad = form && form.querySelector("[data-keypad]");
  if (!keypad) return;
  var jokerPenalty = parseInt(form.dataset.jokerPenalty, 10) || 0;
  var racks = Array.prototype.map.call(form.querySelectorAll("[data-rack]"), function (el) {
    return {
      el: el,
      player: el.dataset.player,
      input: el.querySelector("[data-tiles]"),
      pick: el.querySelector("[data-rack-pick]"),
      chips: el.querySelector("[data-chips]"),
      sum: el.querySelector("[data-rack-sum]"),
      totals: el.querySelectorAll(".totals input"),
      totalsBox: el.querySelector(".totals") && el.querySelector(".totals").closest("details"),
      name: el.querySelector("[data-rack-pick]").dataset.name,
    };
  });
  var winner = form.querySelector("select[name$='-winner']");
  var forLine = keypad.querySelector("[data-keypad-for]");
  var active = 0;
  var colour = "";

  function tokens(rack) {
    return rack.input.value.split(/[\s,]+/).filter(Boolean);
  }

  function byTotals(rack) {
    return Array.prototype.some.call(rack.totals, function (input) { return input.value.trim() !== ""; });
  }

  function blank(rack) {
    return tokens(rack).length === 0 && !byTotals(rack);
  }

  function chip(token) {
    var span = document.createElement("span");
    var upper = token.toUpperCase();
    var match = TOKEN.exec(upper);
    if (upper === "J") {
      span.className = "tile tile-joker";
      span.textContent = "J";
      span.setAttribute("aria-label", t("joker", "joker"));
    } else if (match && match[1]) {
      var name = COLOURS[match[1]];
      span.className = "tile tile-" + name;
      span.textContent = (match[1] === "Y" ? "O" : match[1]) + match[2];
      span.setAttribute("aria-label", t("tile_" + name, name + " {number}", { number: match[2] }));
    } else {
      span.className = "tile";
      span.textContent = upper;
    }
    return span;
  }

  function value(rack) {
    var points = 0, jokers = 0, known = true;
    tokens(rack).forEach(function (token) {
      var upper = token.toUpperCase();
      var match = TOKEN.exec(upper);
      if (upper === "J") jokers += 1;
      else if (match && +match[2] >= 1 && +match[2] <= 13) points += +match[2];
      else known = false;
    });
    return known ? points + jokers * jokerPenalty : null;
  }

  function show(rack) {
    rack.chips.textContent = "";
    var list = tokens(rack);
    list.forEach(function (token) { rack.chips.appendChild(chip(token)); });
    var points = value(rack);
    if (byTotals(rack)) rack.sum.textContent = t("rack_by_totals", "by totals");
    else if (!list.length) {
      var alone = racks.filter(blank).length === 1 && rummikub();
      rack.sum.textContent = alone
        ? t("rack_blank_winner", "blank: the winner's rack")
        : t("rack_empty", "no tiles yet");
    }
    else if (points === null) rack.sum.textContent = t("rack_check", "check the tiles");
    else {
      rack.sum.textContent = t("rack_sum", "= {points} points ({tiles})", {
        points: points, tiles: tiles(list.length)
      });
    }
  }

  function rummikub() {
    var end = form.querySelector("input[name$='-end']:checked");
    return end && end.value === "rummikub";
  }

  // The one blank rack of a Rummikub end names the winner.
  function implyWinner() {
    if (!winner || !rummikub()) return;
    var blanks = racks.filter(blank);
    if (blanks.length === 1) winner.value = blanks[0].player;
    else if (blanks.every(function (rack) { return rack.player !== winner.value; })) {
      winner.value = ""; // the chosen winner's rack holds tiles now: not the winner
    }
  }

  // Entered by totals: no tiles to tap, so no keypad.
  function inTotals(rack) {
    return byTotals(rack) || Boolean(rack.totalsBox && rack.totalsBox.open);
  }

  function syncKeypad() {
    keypad.hidden = inTotals(racks[active]);
  }

  // Keep the active rack's chips and points between the top of the screen and the
  // keypad. Only scrolls when they are not wholly there; "instant", so each tap lands
  // where the finger is.
  var MARGIN = 8;
  function reveal() {
    if (keypad.hidden) return;
    var pick = racks[active].pick.getBoundingClientRect();
    var floor = Math.min(keypad.getBoundingClientRect().top, window.innerHeight) - MARGIN;
    if (pick.top >= MARGIN && pick.bottom <= floor) return;
    var legend = racks[active].el.getBoundingClientRect().top;
    // Show the rack from its legend when that fits above the keypad, else its chips' foot
    // just above the keypad.
    var delta = pick.bottom - legend <= floor - MARGIN ? legend - MARGIN : pick.bottom - floor;
    window.scrollBy({ top: delta, left: 0, behavior: "instant" });
  }

  function changed() {
    racks.forEach(show);
    implyWinner();
    syncKeypad();
  }

  function activate(index, quiet) {
    active = (index + racks.length) % racks.length;
    racks.forEach(function (rack, i) {
      rack.el.classList.toggle("active", i === active);
      rack.pick.setAttribute("aria-pressed", i === active ? "true" : "false");
    });
    forLine.textContent = t("tiles_for", "Tiles for {name}", { name: racks[active].name });
    syncKeypad();
    if (!quiet) reveal();
  }

  function write(rack, list) {
    rack.input.value = list.join(" ");
    // htmx and everything else listening see it as typed.
    rack.input.dispatchEvent(new Event("input", { bubbles: true }));
  }

  function setColour(letter) {
    colour = letter;
    keypad.querySelectorAll("[data-colour]").forEach(function (button) {
      button.setAttribute("aria-pressed", button.dataset.colour === letter ? "true" : "false");
    });
  }

  keypad.addEventListener("click", function (event) {
    var button = event.target.closest("button");
    if (!button) return;
    var rack = racks[active];
    var list = tokens(rack);
    if (button.dataset.colour) setColour(button.dataset.colour);
    else if (button.dataset.number) write(rack, list.concat([colour + button.dataset.number]));
    else if (button.hasAttribute("data-joker")) write(rack, list.concat(["J"]));
    else if (button.hasAttribute("data-back")) write(rack, list.slice(0, -1));
    else if (button.hasAttribute("data-next")) activate(active + 1);
    reveal();  // a new line of chips may have slid under the keypad
  });

  racks.forEach(function (rack, index) {
    rack.pick.hidden = false;
    rack.pick.addEventListener("click", function () { activate(index); });
    rack.input.addEventListener("focus", function () { activate(index); });
    rack.input.addEventListener("input", changed);
    Array.prototype.forEach.call(rack.totals, function (input) {
      input.addEventListener("input", changed);
      input.addEventListener("focus", function () { activate(index, true); });
    });
    if (rack.totalsBox) {
      rack.totalsBox.addEventListener("toggle", function () {
        if (rack.totalsBox.open) activate(index, true);
        else syncKeypad();
      });
    }
  });
  racks.forEach(show);

  if (winner) {
    winner.addEventListener("change", function () {
      var chosen = racks.filter(function (rack) { return rack.player === winner.value; })[0];
      if (!chosen || !rummikub()) return;
      write(chosen, []);
      Array.prototype.forEach.call(chosen.totals, function (input) { input.value = ""; });
      racks.forEach(show);
      if (racks[active] === chosen) activate(active + 1);
    });
  }

  // When the pool ran out the lowest rack wins: the server computes it, so no winner.
  Array.prototype.forEach.call(form.querySelectorAll("input[name$='-end']"), function (radio) {
    radio.addEventListener("change", function () {
      if (!winner) return;
      if (rummikub()) implyWinner();
      else winner.value = "";
      racks.forEach(show);
    });
  });

  keypad.hidden = false;
  // Start on the first rack that is not the chosen winner's; the page opens where its
  // address says (the game), so nothing scrolls until the scorekeeper picks a rack.
  var start = racks.findIndex(function (rack) { return !winner || rack.player !== winner.value; });
  activate(Math.max(start, 0), true);
})();
