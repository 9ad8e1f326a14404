// Table Companion's small helpers: keep what a person is typing through live updates,
// and keep the screen awake while a table is open. No inline scripts (CSP).
(function () {
  "use strict";

  function isEditing(el) {
    if (!el || !el.matches) return false;
    return el.matches("input:not([type=hidden]):not([type=submit]):not([type=button]), textarea, select");
  }

  // A field's key across a swap: its form's place on the page, its name, and which of the form's
  // fields of that name it is (a row of research[] fields, Penance I/II/III checkboxes), so that
  // a value typed in one field is never put back into another of the same name.
  function keyOf(input) {
    var form = input.form;
    var scope = form ? (form.getAttribute("action") || "") + "|" + (form.querySelector("[name=type]") || {}).value : "";
    var index = form ? Array.prototype.indexOf.call(document.querySelectorAll("#table-live form"), form) : -1;
    var same = form ? Array.prototype.filter.call(form.elements, function (el) {
      return el.name === input.name && el.type !== "hidden";
    }) : [input];
    return scope + "|" + index + "|" + input.name + "|" + same.indexOf(input);
  }

  var pending = {};
  var openState = {};

  // The live region is the same for every phone; this phone's seat is on the page's body
  // (data-seat: a player's index, or "" when watching or not chosen yet). Mark "you", open your
  // own cards, say who you are, and drop the seat chooser once a seat was chosen.
  function applySeat(root) {
    var body = document.body;
    if (!root || !body || !body.hasAttribute("data-seat")) return;
    var seat = body.getAttribute("data-seat");
    root.querySelectorAll("[data-you]").forEach(function (el) {
      el.classList.toggle("you", seat !== "" && el.getAttribute("data-you") === seat);
    });
    root.querySelectorAll("details[data-open-for]").forEach(function (d) {
      if (seat === "" ? d.hasAttribute("data-open-watching") : d.getAttribute("data-open-for") === seat) d.open = true;
    });
    // this player's own card first: a .seat-card moves to the front of its list
    if (seat !== "") {
      root.querySelectorAll('.seat-card[data-you="' + seat + '"]').forEach(function (card) {
        if (card.parentNode && card.parentNode.firstElementChild !== card) card.parentNode.insertBefore(card, card.parentNode.firstElementChild);
      });
    }
    var name = seat !== "" && root.querySelector('.players-line [data-you="' + seat + '"] .sb-name');
    root.querySelectorAll("[data-you-are]").forEach(function (el) { el.textContent = name ? name.textContent : "watching"; });
    if (body.hasAttribute("data-seat-chosen")) {
      root.querySelectorAll(".seat-chooser").forEach(function (c) { c.remove(); });
    }
  }
  document.addEventListener("DOMContentLoaded", function () { applySeat(document.getElementById("table-live")); });
  // the phone that started a calculator table lands on #invite: show it the QR code to scan
  document.addEventListener("DOMContentLoaded", function () {
    var invite = location.hash === "#invite" && document.getElementById("invite");
    if (invite && invite.tagName === "DETAILS") invite.open = true;
  });

  // The newest version of the table this page has seen: the tools' data-version. A stepper's tap
  // updates it out of band without redrawing the region (companion/web/steppers.py).
  function knownVersion() {
    var tools = document.getElementById("table-tools");
    var v = tools ? parseInt(tools.getAttribute("data-version"), 10) : NaN;
    return isNaN(v) ? null : v;
  }

  // Every form posts the newest version this page saw, not the one it was drawn with: after a
  // stepper's tap the rest of the region waits for the next poll, and a second tap meanwhile is
  // still based on what this phone has seen. Another phone's change still gets a 409.
  document.addEventListener("htmx:configRequest", function (evt) {
    var params = evt.detail.parameters;
    var known = knownVersion();
    if (known === null || !params || params["expected_version:int"] === undefined) return;
    params["expected_version:int"] = String(known);
  });

  document.addEventListener("htmx:beforeSwap", function (evt) {
    var target = evt.detail.target;
    if (!target || target.id !== "table-live") return;
    var cfg = evt.detail.requestConfig || {};
    var isPoll = (cfg.verb || "").toLowerCase() === "get";
    // A refused post (400) or one that met another phone's change (409) never wipes what was typed.
    var refused = !isPoll && evt.detail.xhr && evt.detail.xhr.status >= 400;
    // A poll sent before a tap can come back after the tap's answer: never swap in an older table.
    if (isPoll && evt.detail.xhr) {
      var found = /data-version="(\d+)"/.exec(evt.detail.xhr.responseText || "");
      var known = knownVersion();
      if (found && known !== null && parseInt(found[1], 10) < known) {
        evt.detail.shouldSwap = false;
        return;
      }
    }
    var active = document.activeElement;
    // A live update never takes the field someone is typing in: wait until they leave it.
    if (isPoll && isEditing(active) && target.contains(active)) {
      evt.detail.shouldSwap = false;
      return;
    }
    // A <details> the player opened or closed stays so (by id) when the region is replaced.
    openState = {};
    target.querySelectorAll("details[id]").forEach(function (d) { openState[d.id] = d.open; });
    // Keep values typed but not yet sent in other fields across the swap.
    pending = {};
    target.querySelectorAll("input, textarea, select").forEach(function (input) {
      if (input.type === "hidden" || input.type === "submit") return;
      var dirty = input.type === "checkbox" || input.type === "radio" ? input.checked !== input.defaultChecked : input.value !== input.defaultValue;
      if (dirty && (isPoll || refused)) pending[keyOf(input)] = input.type === "checkbox" || input.type === "radio" ? input.checked : input.value;
    });
  });

  document.addEventListener("htmx:afterSwap", function (evt) {
    if (!evt.detail.target || evt.detail.target.id !== "table-live") return;
    var live = document.getElementById("table-live");
    if (!live) return;
    applySeat(live);  // first the seat's defaults, then what the player opened or closed by hand
    Object.keys(openState).forEach(function (id) {
      var d = document.getElementById(id);
      if (d && d.tagName === "DETAILS") d.open = openState[id];
    });
    openState = {};
    live.querySelectorAll("input, textarea, select").forEach(function (input) {
      if (input.type === "hidden" || input.type === "submit") return;
      var key = keyOf(input);
      if (!(key in pending)) return;
      if (input.type === "checkbox" || input.type === "radio") input.checked = pending[key];
      else input.value = pending[key];
    });
    pending = {};
  });

  // "Share result": the phone's share sheet where it has one; else copy the text. Over plain
  // http on the LAN neither navigator.share nor navigator.clipboard exists (not a secure
  // context), so the field is selected and copied the old way, and the status says what happened.
  document.addEventListener("click", function (evt) {
    var button = evt.target.closest ? evt.target.closest("[data-share]") : null;
    if (!button) return;
    var field = document.getElementById(button.getAttribute("data-share"));
    var status = document.querySelector("[data-share-status]");
    if (!field) return;
    var text = field.value;
    function say(words) { if (status) status.textContent = words; }
    if (navigator.share) {
      navigator.share({ text: text }).then(function () { say("Shared."); }).catch(function () {});
      return;
    }
    field.focus();
    field.select();
    var copied = false;
    try { copied = document.execCommand("copy"); } catch (e) { copied = false; }
    if (copied) { say("Copied: paste it in your group's chat."); return; }
    if (navigator.clipboard) {
      navigator.clipboard.writeText(text).then(function () { say("Copied: paste it in your group's chat."); },
        function () { say("Selected: copy it with your phone's menu."); });
      return;
    }
    say("Selected: copy it with your phone's menu.");
  });

  // Keep the screen awake while a table is open (Wake Lock API where the browser has it).
  var lock = null;
  function wake() {
    if (!document.body || !document.body.classList.contains("table-page")) return;
    if (!("wakeLock" in navigator) || document.visibilityState !== "visible") return;
    navigator.wakeLock.request("screen").then(function (l) { lock = l; }).catch(function () {});
  }
  document.addEventListener("visibilitychange", wake);
  document.addEventListener("DOMContentLoaded", wake);
})();
