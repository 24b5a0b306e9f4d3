/* Turn timer of one table (templates/games/timer.html). Plain JS, no build step.

   A turn belongs to one player; turns go round the table from the game's starter.
   "Start turn" / "Next turn" starts the countdown of the rules' turn_seconds for the
   player whose turn it is (and first passes the turn, except the very first time). When
   the countdown runs out, "Record timeout for …" appears: one tap posts a timeout penalty
   for that player (htmx, into #timer-status) and, once recorded, passes the turn.
   Without a turn limit the clock counts the turn's time up instead.
   Keyboard: every control is a button (Space / Enter); "n" passes the turn. */
(function () {
  "use strict";

  var root = document.getElementById("timer");
  if (!root) return;
  var players = JSON.parse(document.getElementById("timer-players").textContent);
  var limit = parseInt(root.dataset.seconds, 10) || 0; // 0: no limit
  var clock = document.getElementById("timer-clock");
  var turnText = document.getElementById("timer-turn");
  var nextButton = document.getElementById("timer-next");
  var pauseButton = document.getElementById("timer-pause");
  var timeoutButton = document.getElementById("timer-timeout-button");
  var playerInput = document.getElementById("timer-player");
  var status = document.getElementById("timer-status");
  var orderItems = document.querySelectorAll("#timer-order li");

  var index = 0;          // whose turn it is, in `players`
  var started = false;    // has the first turn begun?
  var deadline = 0;       // ms timestamp when the turn runs out (or began, without a limit)
  var pausedLeft = null;  // ms left while paused
  var over = false;
  var ticker = null;

  function format(ms) {
    var total = Math.max(0, Math.ceil(ms / 1000));
    var minutes = Math.floor(total / 60);
    var seconds = total % 60;
    return minutes + ":" + (seconds < 10 ? "0" : "") + seconds;
  }

  function current() { return players[index]; }

  function showTurn() {
    turnText.textContent = "Turn: " + current().name + " (seat " + current().seat + ")";
    playerInput.value = current().id;
    timeoutButton.textContent = "Record timeout for " + current().name;
    orderItems.forEach(function (item, i) { item.classList.toggle("current", i === index); });
  }

  function setOver(value) {
    over = value;
    clock.classList.toggle("over", value);
    timeoutButton.hidden = !value;
    if (value) {
      clock.textContent = "Time!";
      status.textContent = "Time is up for " + current().name + ".";
    }
  }

  function tick() {
    if (pausedLeft !== null) return;
    var now = Date.now();
    if (!limit) {
      clock.textContent = format(now - deadline);
      return;
    }
    var left = deadline - now;
    if (left <= 0) {
      if (!over) setOver(true);
      return;
    }
    clock.textContent = format(left);
  }

  function startTurn() {
    deadline = Date.now() + limit * 1000;
    pausedLeft = null;
    pauseButton.textContent = "Pause";
    pauseButton.disabled = false;
    setOver(false);
    if (!ticker) ticker = window.setInterval(tick, 200);
    tick();
  }

  function nextTurn() {
    if (started) index = (index + 1) % players.length;
    started = true;
    nextButton.textContent = "Next turn";
    status.textContent = "";
    showTurn();
    startTurn();
  }

  function togglePause() {
    if (!started) return;
    if (pausedLeft === null) {
      pausedLeft = deadline - Date.now();
      pauseButton.textContent = "Resume";
      status.textContent = "Paused.";
    } else {
      deadline = Date.now() + pausedLeft;
      pausedLeft = null;
      pauseButton.textContent = "Pause";
      status.textContent = "";
      tick();
    }
  }

  nextButton.addEventListener("click", nextTurn);
  pauseButton.addEventListener("click", togglePause);

  // A recorded timeout ends that player's turn: pass it on.
  document.body.addEventListener("htmx:afterSwap", function (event) {
    if (event.detail.target !== status) return;
    var answer = status.querySelector("[data-ok]");
    if (answer && answer.dataset.ok === "1") {
      var text = answer.textContent;
      nextTurn();
      status.textContent = text;
    }
  });

  document.addEventListener("keydown", function (event) {
    var typing = /^(INPUT|TEXTAREA|SELECT)$/.test(event.target.tagName);
    if (!typing && !event.ctrlKey && !event.metaKey && !event.altKey &&
        (event.key === "n" || event.key === "N")) {
      event.preventDefault();
      nextTurn();
    }
  });

  showTurn();
  turnText.textContent = "Game starts with " + current().name + " (seat " + current().seat + ").";
  if (!limit) clock.textContent = "0:00";
})();
