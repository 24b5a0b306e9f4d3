/* Entry that survives bad Wi-Fi: every form marked `data-offline` (the table page's game
   forms) is sent by this script instead of the browser, so a dropped connection does
   not lose what was typed. Plain JS, no build step, on every page (base.html): a page
   opened later sends what an earlier one kept.

   Terms:
   * idempotency key — the form's hidden `idempotency_key`, filled here with a random
     UUID when empty: the server stores it with the version it creates, so the same
     submission sent twice (a retry whose first answer was lost) lands once.
   * outbox — submissions kept in localStorage ("rummitab-outbox") while the server
     cannot be reached, shown on the page as "waiting to send". They are sent again when
     the browser says it is online, when a page loads, and every few seconds meanwhile.

   * not before — a server that answers 503 (its database is away for a moment:
     config/errors.py) says with Retry-After when to ask again; the entry stays in the
     outbox exactly as when offline, and the next try waits at least that long.

   What the server answers is followed as the browser would have: a redirect (saved) is
   opened; any other answer (the form with its errors, a refusal) is shown by sending
   the same submission once more as an ordinary form post — harmless, since a saved one
   is answered from its key and an unsaved one saved nothing. */
(function () {
  "use strict";

  var OUTBOX = "rummitab-outbox";
  var RETRY_MS = 5000;
  var sending = false;
  var notBefore = 0;  // no try before this time (ms): the server's Retry-After

  function store() {
    try { return window.localStorage; } catch (e) { return null; }
  }

  function outbox() {
    var s = store();
    if (!s) return [];
    try { return JSON.parse(s.getItem(OUTBOX) || "[]") || []; } catch (e) { return []; }
  }

  function saveOutbox(items) {
    var s = store();
    if (!s) return;
    if (items.length) s.setItem(OUTBOX, JSON.stringify(items));
    else s.removeItem(OUTBOX);
  }

  // crypto.randomUUID needs a secure context; the club's LAN is plain http.
  function uuid() {
    var bytes = new Uint8Array(16);
    window.crypto.getRandomValues(bytes);
    bytes[6] = (bytes[6] & 0x0f) | 0x40;
    bytes[8] = (bytes[8] & 0x3f) | 0x80;
    var hex = Array.prototype.map.call(bytes, function (b) { return (b + 256).toString(16).slice(1); }).join("");
    return hex.slice(0, 8) + "-" + hex.slice(8, 12) + "-" + hex.slice(12, 16) + "-" +
      hex.slice(16, 20) + "-" + hex.slice(20);
  }

  // The reader's words (static/js/words.js), else this file's English.
  function t(key, english, values) {
    return window.rummitabText ? window.rummitabText(key, english, values) : english;
  }

  function labelOf(form) {
    if (form.dataset.offlineLabel) return form.dataset.offlineLabel;
    var section = form.closest("section");
    var heading = section && section.querySelector("h2, h3");
    // The heading's own text ("Game 2"), without what follows it in a <span>.
    var first = heading && heading.firstChild;
    var text = first ? first.textContent.replace(/\s+/g, " ").trim() : "";
    var title = document.querySelector("h1");
    return (text || t("outbox_entry", "Your entry")) + (title ? " (" + title.textContent.trim() + ")" : "");
  }

  function notice() {
    var box = document.getElementById("outbox");
    if (!box) {
      box = document.createElement("div");
      box.id = "outbox";
      box.className = "outbox";
      box.setAttribute("role", "status");
      box.setAttribute("aria-live", "polite");
      var main = document.getElementById("main") || document.body;
      main.insertBefore(box, main.firstChild);
    }
    return box;
  }

  function showOutbox(extra) {
    var items = outbox();
    var box = document.getElementById("outbox");
    if (!items.length && !extra) {
      if (box) box.remove();
      return;
    }
    box = notice();
    box.classList.toggle("sent", !items.length);
    box.textContent = "";
    items.forEach(function (item) {
      var line = document.createElement("p");
      line.textContent = t(
        "outbox_waiting",
        "{label}: waiting to send. It is kept on this phone and sent when the connection " +
          "returns — no need to enter it again.",
        { label: item.label }
      );
      box.appendChild(line);
    });
    if (extra) {
      var more = document.createElement("p");
      more.textContent = extra;
      box.appendChild(more);
    }
  }

  // The submission once more as an ordinary form post: the browser shows the answer.
  function postNormally(item) {
    var form = document.createElement("form");
    // setAttribute: an input named "action" shadows the form's own `action` property.
    form.setAttribute("method", "post");
    form.setAttribute("action", item.url + (item.hash || ""));
    form.hidden = true;
    new URLSearchParams(item.body).forEach(function (value, name) {
      var input = document.createElement("input");
      input.type = "hidden";
      input.name = name;
      input.value = value;
      form.appendChild(input);
    });
    document.body.appendChild(form);
    HTMLFormElement.prototype.submit.call(form);
  }

  // Resolves to "saved" (with the page to open), "answered" (show it), or "unreachable".
  // The server answers a saved form 204 + X-Location (config.middleware) for this header.
  function send(item) {
    return window.fetch(item.url, {
      method: "POST",
      body: item.body,
      headers: {
        "Content-Type": "application/x-www-form-urlencoded",
        "X-Offline-Submit": "1"
      },
      credentials: "same-origin",
      redirect: "manual"
    }).then(function (response) {
      var location = response.headers.get("X-Location") || "";
      // Signed out meanwhile: keep it; it goes once the phone is signed in again.
      if (location.indexOf("/accounts/login/") >= 0) return { outcome: "unreachable" };
      if (response.status === 204) return { outcome: "saved", url: location || item.url };
      if (response.status === 503) {
        // The database is away for a moment: kept, as offline; asked again when it says.
        var seconds = parseInt(response.headers.get("Retry-After") || "", 10);
        if (seconds > 0) notBefore = Date.now() + seconds * 1000;
        return { outcome: "unreachable" };
      }
      if (response.status >= 500) return { outcome: "unreachable" };
      return { outcome: "answered" };
    }, function () {
      return { outcome: "unreachable" };
    });
  }

  // Open the page the server sent us to. The same page with another #fragment would
  // only scroll, so it is opened without it (a fresh load) and scrolled to after.
  function openPage(url) {
    var hashAt = url.indexOf("#");
    var bare = hashAt >= 0 ? url.slice(0, hashAt) : url;
    var here = new URL(window.location.href);
    here.hash = "";
    var there = new URL(bare, window.location.href);
    if (hashAt >= 0 && there.href === here.href) {
      try { window.sessionStorage.setItem("rummitab-scroll-to", url.slice(hashAt + 1)); } catch (e) { /* none */ }
      window.location.assign(bare);
    } else {
      window.location.assign(url);
    }
  }

  function remove(key) {
    saveOutbox(outbox().filter(function (item) { return item.key !== key; }));
  }

  function keep(item) {
    var items = outbox().filter(function (other) { return other.key !== item.key; });
    items.push(item);
    saveOutbox(items);
    showOutbox();
  }

  // Send what the outbox holds, oldest first; stop at the first that cannot get through.
  function flush() {
    var items = outbox();
    if (sending || !items.length || Date.now() < notBefore) return;
    sending = true;
    var item = items[0];
    send(item).then(function (answer) {
      sending = false;
      if (answer.outcome === "unreachable") return;
      remove(item.key);
      if (answer.outcome === "answered") {
        postNormally(item);
      } else if (outbox().length) {
        showOutbox(t("outbox_sent", "{label}: sent.", { label: item.label }));
        flush();
      } else {
        openPage(answer.url);
      }
    });
  }

  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (!(form instanceof HTMLFormElement) || !form.hasAttribute("data-offline")) return;
    event.preventDefault();
    var keyInput = form.querySelector('input[name="idempotency_key"]');
    if (keyInput && !keyInput.value) keyInput.value = uuid();
    var data;
    try { data = new FormData(form, event.submitter); } catch (e) { data = new FormData(form); }
    var action = new URL(form.getAttribute("action") || "", window.location.href).href;
    var item = {
      key: keyInput ? keyInput.value : uuid(),
      url: action.split("#")[0],
      hash: action.indexOf("#") >= 0 ? action.slice(action.indexOf("#")) : "",
      body: new URLSearchParams(data).toString(),
      label: labelOf(form),
      at: Date.now()
    };
    var button = event.submitter;
    if (button) button.disabled = true;
    function queued() {
      keep(item);
      // A further entry in this form is a new submission with a key of its own.
      if (keyInput) keyInput.value = "";
      if (button) button.disabled = false;
      var box = document.getElementById("outbox");
      if (box) box.scrollIntoView({ block: "start" });
    }
    if (navigator.onLine === false) {
      queued();
      return;
    }
    send(item).then(function (answer) {
      if (answer.outcome === "unreachable") queued();
      else if (answer.outcome === "saved") openPage(answer.url);
      else postNormally(item);
    });
  });

  window.addEventListener("online", flush);
  window.setInterval(function () { if (navigator.onLine !== false) flush(); }, RETRY_MS);
  document.addEventListener("DOMContentLoaded", function () {
    var target = null;
    try {
      target = window.sessionStorage.getItem("rummitab-scroll-to");
      window.sessionStorage.removeItem("rummitab-scroll-to");
    } catch (e) { /* none */ }
    var element = target && document.getElementById(target);
    if (element) element.scrollIntoView({ block: "start" });
    showOutbox();
    if (navigator.onLine !== false) flush();
  });
})();
