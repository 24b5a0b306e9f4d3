/* Turn timer of one table (templates/games/timer.html). Plain JS, no build step.

   A turn belongs to one player; turns go round the table from the game's starter.
   "Start turn" / "Next turn" starts the countdown of the rules' turn_seconds for the
   player whose turn it is (and first passes the turn, except the very first time). The
   bar at the bottom of the screen (always in view) holds "Record timeout for …": one tap
   posts a timeout penalty for that player (htmx, into #timer-status) and, once recorded,
   passes the turn; "Undo timeout" voids the one just recorded (a mistake). "+ Extension"
   records a time extension for the player whose turn it is and adds one turn time.
   Without a turn limit the clock counts the turn's time up instead.

   Signals: a beep (Web Audio) and a vibration at 10 seconds left and at 0, unless muted
   (remembered on the phone); a screen wake lock while the clock runs. Each is used only
   where the browser has it.

   State: whose turn, the deadline, paused or not and the last timeout are kept in
   localStorage per table and game, so a reload (or a phone that dropped the tab) carries
   on where it was: the deadline is a wall-clock time, so time kept running meanwhile.
   Keyboard: every control is a button (Space / Enter); "n" passes the turn. */
(function () {
  "use strict";

  var root = document.getElementById("timer");
  if (!root) return;
  var players = JSON.parse(document.getElementById("timer-players").textContent);
  var limit = parseInt(root.dataset.seconds, 10) || 0; // 0: no limit
  var WARN_MS = 10000;
  var stateKey = "rummitab-timer:" + root.dataset.stateKey;
  var muteKey = "rummitab-timer-muted";
  var clock = document.getElementById("timer-clock");
  var turnText = document.getElementById("timer-turn");
  var nextButton = document.getElementById("timer-next");
  var pauseButton = document.getElementById("timer-pause");
  var timeoutButton = document.getElementById("timer-timeout-button");
  var playerInput = document.getElementById("timer-player");
  var extensionInput = document.getElementById("timer-extension-player");
  var undoForm = document.getElementById("timer-undo");
  var undoInput = document.getElementById("timer-undo-penalty");
  var undoButton = document.getElementById("timer-undo-button");
  var muteButton = document.getElementById("timer-mute");
  var status = document.getElementById("timer-status");
  var orderItems = document.querySelectorAll("#timer-order li");

  var state = {
    index: 0,          // whose turn it is, in `players`
    started: false,    // has the first turn begun?
    deadline: 0,       // ms timestamp when the turn runs out (or began, without a limit)
    pausedLeft: null,  // ms left while paused
    warned: false,     // has the 10-second signal sounded this turn?
    over: false,
    undo: null         // {penalty: id, name: text} of the last timeout, while undoable
  };
  // The reader's words (static/js/words.js), else this file's English.
  function t(key, english, values) {
    return window.rummitabText ? window.rummitabText(key, english, values) : english;
  }
  var ticker = null;
  var audio = null;
  var wakeLock = null;
  var lockPending = false;

  function storage() {
    try { return window.localStorage; } catch (e) { return null; }
  }

  function save() {
    var store = storage();
    if (store) store.setItem(stateKey, JSON.stringify(state));
  }

  function load() {
    var store = storage();
    if (!store) return;
    try {
      var saved = JSON.parse(store.getItem(stateKey) || "null");
      if (saved && typeof saved.index === "number" && saved.index < players.length) {
        Object.keys(state).forEach(function (key) {
          if (key in saved) state[key] = saved[key];
        });
      }
    } catch (e) { /* a damaged entry: start afresh */ }
  }

  function muted() {
    var store = storage();
    return !!store && store.getItem(muteKey) === "1";
  }

  function showMute() {
    var isMuted = muted();
    muteButton.textContent = isMuted ? t("timer_sound_off", "Sound off") : t("timer_sound_on", "Sound on");
    muteButton.setAttribute("aria-pressed", isMuted ? "true" : "false");
  }

  // Audio may only start after a tap: the context is made on the first button press.
  function wakeAudio() {
    var Context = window.AudioContext || window.webkitAudioContext;
    if (!Context) return;
    if (!audio) {
      try { audio = new Context(); } catch (e) { audio = null; return; }
    }
    if (audio.state === "suspended" && audio.resume) audio.resume();
  }

  function beep(times) {
    if (muted()) return;
    if (navigator.vibrate) {
      try { navigator.vibrate(times > 1 ? [300, 150, 300, 150, 600] : [200]); } catch (e) { /* none */ }
    }
    if (!audio) return;
    for (var i = 0; i < times; i++) {
      var start = audio.currentTime + i * 0.35;
      var tone = audio.createOscillator();
      var gain = audio.createGain();
      tone.type = "square";
      tone.frequency.value = times > 1 ? 880 : 660;
      gain.gain.setValueAtTime(0.25, start);
      gain.gain.exponentialRampToValueAtTime(0.001, start + 0.25);
      tone.connect(gain);
      gain.connect(audio.destination);
      tone.start(start);
      tone.stop(start + 0.26);
    }
  }

  function running() { return state.started && state.pausedLeft === null && !state.over; }

  function holdScreen() {
    var wanted = running() && document.visibilityState === "visible";
    if (wanted && !wakeLock && !lockPending && navigator.wakeLock && navigator.wakeLock.request) {
      lockPending = true;
      navigator.wakeLock.request("screen").then(function (lock) {
        lockPending = false;
        wakeLock = lock;
        lock.addEventListener("release", function () { wakeLock = null; });
        if (!running()) holdScreen(); // paused meanwhile: let go at once
      }).catch(function () { lockPending = false; wakeLock = null; });
    } else if (!wanted && wakeLock) {
      wakeLock.release().catch(function () {});
      wakeLock = null;
    }
  }

  function format(ms) {
    var total = Math.max(0, Math.ceil(ms / 1000));
    var minutes = Math.floor(total / 60);
    var seconds = total % 60;
    return minutes + ":" + (seconds < 10 ? "0" : "") + seconds;
  }

  function current() { return players[state.index]; }

  function showTurn() {
    var player = current();
    turnText.textContent = state.started
      ? t("timer_turn", "Turn: {name} (seat {seat})", player)
      : t("timer_first", "Game starts with {name} (seat {seat}).", player);
    playerInput.value = player.id;
    extensionInput.value = player.id;
    timeoutButton.textContent = t("timer_timeout", "Record timeout for {name}", player);
    orderItems.forEach(function (item, i) { item.classList.toggle("current", i === state.index); });
    nextButton.textContent = state.started ? t("timer_next", "Next turn") : t("timer_start", "Start turn");
    pauseButton.disabled = !state.started;
    pauseButton.textContent = state.pausedLeft === null ? t("timer_pause", "Pause") : t("timer_resume", "Resume");
  }

  function showUndo() {
    undoForm.hidden = !state.undo;
    if (state.undo) {
      undoInput.value = state.undo.penalty;
      undoButton.textContent = t("timer_undo", "Undo timeout of {name}", state.undo);
    }
  }

  function setOver(value) {
    state.over = value;
    clock.classList.toggle("over", value);
    timeoutButton.classList.toggle("due", value);
    if (value) {
      clock.textContent = t("timer_over", "Time!");
      status.textContent = t("timer_over_for", "Time is up for {name}.", current());
    }
    holdScreen();
  }

  function tick() {
    if (!state.started || state.pausedLeft !== null) return;
    var now = Date.now();
    if (!limit) {
      clock.textContent = format(now - state.deadline);
      return;
    }
    var left = state.deadline - now;
    if (left <= 0) {
      if (!state.over) {
        setOver(true);
        beep(3);
        save();
      }
      return;
    }
    if (left <= WARN_MS && !state.warned) {
      state.warned = true;
      beep(1);
      save();
    }
    clock.textContent = format(left);
  }

  function startTicking() {
    if (!ticker) ticker = window.setInterval(tick, 200);
    tick();
  }

  function startTurn() {
    state.deadline = Date.now() + limit * 1000;
    state.pausedLeft = null;
    state.warned = false;
    setOver(false);
    showTurn();
    save();
    startTicking();
    holdScreen();
  }

  function nextTurn() {
    wakeAudio();
    if (state.started) state.index = (state.index + 1) % players.length;
    state.started = true;
    status.textContent = "";
    startTurn();
  }

  function togglePause() {
    wakeAudio();
    if (!state.started) return;
    if (state.pausedLeft === null) {
      state.pausedLeft = state.deadline - Date.now();
      status.textContent = t("timer_paused", "Paused.");
    } else {
      state.deadline = Date.now() + state.pausedLeft;
      state.pausedLeft = null;
      status.textContent = "";
    }
    showTurn();
    save();
    tick();
    holdScreen();
  }

  function extend(step) {
    if (!limit || !state.started) return;
    if (state.pausedLeft !== null) {
      state.pausedLeft = Math.max(0, state.pausedLeft + step * limit * 1000);
    } else {
      var base = state.over ? Date.now() : state.deadline;
      state.deadline = base + step * limit * 1000;
    }
    if (state.over && step > 0) setOver(false);
    state.warned = false;
    save();
    tick();
  }

  nextButton.addEventListener("click", nextTurn);
  pauseButton.addEventListener("click", togglePause);
  timeoutButton.addEventListener("click", wakeAudio);
  muteButton.addEventListener("click", function () {
    var store = storage();
    if (store) store.setItem(muteKey, muted() ? "0" : "1");
    showMute();
    wakeAudio();
  });

  // The server's answers land in #timer-status; their data attributes say what happened.
  document.body.addEventListener("htmx:afterSwap", function (event) {
    if (event.detail.target !== status) return;
    var answer = status.querySelector("[data-ok]");
    if (!answer || answer.dataset.ok !== "1") return;
    var text = answer.textContent;
    if (answer.dataset.kind === "timeout") {
      state.undo = { penalty: answer.dataset.penalty, name: current().name };
      nextTurn(); // a recorded timeout ends that player's turn
      status.textContent = text;
    } else if (answer.dataset.kind === "undo") {
      state.undo = null;
    } else if (answer.dataset.kind === "extension") {
      var count = root.querySelector('[data-extensions-of="' + answer.dataset.player + '"]');
      if (count) count.textContent = answer.dataset.used;
      extend(parseInt(answer.dataset.step, 10) || 1);
    }
    showUndo();
    save();
  });

  document.addEventListener("visibilitychange", holdScreen);

  document.addEventListener("keydown", function (event) {
    var typing = /^(INPUT|TEXTAREA|SELECT)$/.test(event.target.tagName);
    if (!typing && !event.ctrlKey && !event.metaKey && !event.altKey &&
        (event.key === "n" || event.key === "N")) {
      event.preventDefault();
      nextTurn();
    }
  });

  load();
  showMute();
  showTurn();
  showUndo();
  if (state.started) {
    clock.classList.toggle("over", state.over);
    timeoutButton.classList.toggle("due", state.over);
    if (state.pausedLeft !== null) {
      clock.textContent = format(limit ? state.pausedLeft : -state.pausedLeft);
      status.textContent = t("timer_paused", "Paused.");
    } else if (state.over) {
      clock.textContent = t("timer_over", "Time!");
      status.textContent = t("timer_over_for", "Time is up for {name}.", current());
    }
    startTicking();
    holdScreen();
  } else {
    clock.textContent = format(limit * 1000); // as the running clock shows it: 2:00
  }
})();
