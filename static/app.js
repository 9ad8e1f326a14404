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
  function knownVersion() { return dataVersion("table-tools"); }
  // The version an element of the page shows (its data-version), or null.
  function dataVersion(id) {
    var el = document.getElementById(id);
    var v = el ? parseInt(el.getAttribute("data-version"), 10) : NaN;
    return isNaN(v) ? null : v;
  }

  // The newest version this phone knows of: the page's, or a later one a write sent by
  // sendKept (below) was answered with before the next poll brought it to the page.
  var answeredVersion = null;
  function latestVersion() {
    var known = knownVersion();
    if (answeredVersion === null) return known;
    return known === null ? answeredVersion : Math.max(known, answeredVersion);
  }

  // Every form posts the newest version this page saw, not the one it was drawn with: after a
  // stepper's tap the rest of the region waits for the next poll, and a second tap meanwhile is
  // still based on what this phone has seen. Another phone's change still gets a 409.
  // A table write also gets its write_id here, made at the moment of the tap (see "kept writes").
  document.addEventListener("htmx:configRequest", function (evt) {
    var params = evt.detail.parameters;
    if (!params) return;
    var known = latestVersion();
    if (known !== null && params["expected_version:int"] !== undefined) params["expected_version:int"] = String(known);
    if (isWrite(evt.detail.verb, evt.detail.path) && !params.write_id) params.write_id = newWriteId();
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
      var drawn = versionIn(evt.detail.xhr.responseText);
      var known = latestVersion();
      if (drawn !== null && known !== null && drawn < known) {
        evt.detail.shouldSwap = false;
        return;
      }
    }
    // A live update never takes the field someone is typing in: wait until they leave it.
    if (isPoll && typingInRegion()) {
      evt.detail.shouldSwap = false;
      return;
    }
    remember(target, isPoll || refused);
  });

  document.addEventListener("htmx:afterSwap", function (evt) {
    if (!evt.detail.target || evt.detail.target.id !== "table-live") return;
    restore();
    tidyInvite();
    oneAlert();
  });
  document.addEventListener("DOMContentLoaded", oneAlert);
  // A refusal is drawn in the table's head and, when it names a field on the page, beside that field
  // too: only the one beside the field is an alert, so a screen reader says it once, where the focus
  // goes (refusedField). The head's copy stays, read in its place, for a sighted player at the top.
  function oneAlert() {
    var head = document.querySelector("#table-live > .table-head .error[role=alert][data-field]");
    if (!head) return;
    var beside = Array.prototype.some.call(document.querySelectorAll("#table-live .error[role=alert][data-field]"), function (e) {
      return e !== head && e.getAttribute("data-field") === head.getAttribute("data-field");
    });
    if (beside) head.removeAttribute("role");
  }

  // What a new live region must keep of the old one: a <details> the player opened or closed
  // stays so (by id), and values typed but not yet sent (keepTyped) go back in their fields.
  function remember(target, keepTyped) {
    openState = {};
    target.querySelectorAll("details[id]").forEach(function (d) { openState[d.id] = d.open; });
    pending = {};
    target.querySelectorAll("input, textarea, select").forEach(function (input) {
      if (input.type === "hidden" || input.type === "submit") return;
      var dirty = input.type === "checkbox" || input.type === "radio" ? input.checked !== input.defaultChecked : input.value !== input.defaultValue;
      if (dirty && keepTyped) pending[keyOf(input)] = input.type === "checkbox" || input.type === "radio" ? input.checked : input.value;
    });
  }
  function restore() {
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
  }
  // --- A form's answer never moves the page (issue 27) ----------------------------------------
  // A swap puts a new tree in place of the old. Chromium's scroll anchoring held on to a node of
  // the old region while htmx put the new one before it, and the page jumped by the region's
  // height (a Gutenberg Save: 1,346 px); app.css turns it off on table pages. Instead, what the
  // player had in hand is found again after the swap and kept where it was on the screen: the
  // control just tapped (for its answer), or what sits a third of the way down the screen (a
  // pushed version). Focus stays on that control, or goes to the field a refusal names. An
  // element is found again by its nearest id, its form there and its kind (tag and name).
  var place = null;
  function kindOf(el) {
    return el.tagName.toLowerCase() + (el.name ? '[name="' + CSS.escape(el.name) + '"]' : "");
  }
  function spot(el) {
    var holder = el && (el.id ? el : el.parentElement && el.parentElement.closest("[id]"));
    if (!holder) return null;
    var form = el.closest("form");
    var formAt = form && form !== holder && holder.contains(form) ? Array.prototype.indexOf.call(holder.querySelectorAll("form"), form) : -1;
    var scope = formAt >= 0 ? form : holder;
    var nth = el === scope ? -1 : Array.prototype.indexOf.call(scope.querySelectorAll(kindOf(el)), el);
    // its ancestors with an id, nearest first, and where each was: where the control goes with the
    // answer (a once-per-table form that becomes a summary), the nearest one left takes its place
    var up = [];
    for (var a = holder; a; a = a.parentElement && a.parentElement.closest("[id]")) up.push({ id: a.id, top: a.getBoundingClientRect().top });
    return { holder: holder.id, formAt: formAt, kind: kindOf(el), nth: nth, top: el.getBoundingClientRect().top, up: up };
  }
  // drawn: not display:none, nor inside a closed <details> (whose content Chromium keeps laid out,
  // with boxes, but hidden by content-visibility: checkVisibility() sees that, getClientRects() not)
  function shown(el) { return !!el && (el.checkVisibility ? el.checkVisibility() : el.getClientRects().length > 0); }
  // The element again after the swap, or (it went with the answer, or is hidden now) the nearest of
  // its ancestors with an id still on the page, drawn: then s.top becomes that one's top before.
  function found(s) {
    if (s && s.stand && s.stand.isConnected) return s.stand;  // found so before (its top is kept since)
    var holder = s && document.getElementById(s.holder);
    if (holder) {
      var scope = (s.formAt >= 0 && holder.querySelectorAll("form")[s.formAt]) || holder;
      var el = (s.nth >= 0 && scope.querySelectorAll(s.kind)[s.nth]) || scope;
      if (shown(el)) return el;
    }
    for (var i = 0; s && i < s.up.length; i++) {
      var was = document.getElementById(s.up[i].id);
      while (was && !shown(was)) was = was.parentElement;  // inside a closed <details>: the <details>
      // where that one was, or at the screen's top if it began above (the player saw its end)
      if (was) { s.top = Math.max(s.up[i].top, 0); s.stand = was; return was; }
    }
    return null;
  }
  function inside(outer, el) { return !!(el && outer && (outer === el || outer.contains(el))); }
  document.addEventListener("htmx:beforeSwap", function (evt) {
    place = null;
    var target = evt.detail.target, live = document.getElementById("table-live");
    if (!evt.detail.shouldSwap || !inside(live, target)) return;
    var xhr = evt.detail.xhr, post = ((evt.detail.requestConfig || {}).verb || "").toLowerCase() === "post";
    var tapped = post && lastTapped && inside(target, lastTapped) ? lastTapped : null;
    var active = document.activeElement !== document.body && inside(target, document.activeElement) ? document.activeElement : null;
    var seen = tapped || document.elementFromPoint(window.innerWidth / 2, window.innerHeight / 3);
    place = { anchor: spot(seen), focus: spot(tapped || active), refused: post && !!xhr && xhr.status >= 400,
              finishing: target === live && !live.hasAttribute("data-finished") };
  });
  function keepPlace() {
    var el = place && found(place.anchor);
    if (!el) return;
    var moved = el.getBoundingClientRect().top - place.anchor.top;
    if (Math.abs(moved) >= 1) window.scrollBy(0, moved);
  }
  document.addEventListener("htmx:afterSwap", function () {
    if (!place) return;
    keepPlace();
    var field = place.refused ? refusedField() : null;
    if (field) focusOn(field, true);
    else if (place.focus) focusOn(focusable(found(place.focus), place.focus.stand));
    if (place.finishing) showResultOnce(true);
    var el = found(place.anchor);  // from here on, where it is now (a refused field or the result may have been shown)
    if (el) place.anchor.top = el.getBoundingClientRect().top;
  });
  // htmx settles the new elements' classes after the swap: keep the place once more, then forget it
  document.addEventListener("htmx:afterSettle", function () { keepPlace(); place = null; });
  // What takes the focus: the control found again, or in what stands in its place (`stand`, found's
  // fallback), its first button on the screen (a <details>' summary, "Change them"), else itself.
  // Never a field: a pushed region waits while one has the focus (typingInRegion).
  function focusable(el, stand) {
    if (!el || el !== stand) return el;
    var first = Array.prototype.filter.call(el.querySelectorAll("summary, button:not([disabled]), a[href]"), function (f) {
      var box = f.getBoundingClientRect();
      return shown(f) && box.bottom > 0 && box.top < window.innerHeight;
    })[0];
    return el.matches(FOCUSABLE) ? el : first || el;
  }
  var FOCUSABLE = "a[href], button:not([disabled]), input:not([disabled]):not([type=hidden]), select:not([disabled]), textarea:not([disabled]), summary, [tabindex]";
  function focusOn(el, reveal) {
    if (!el) return;
    if (!el.matches(FOCUSABLE)) {
      el.setAttribute("tabindex", "-1");
    }
    el.focus({ preventScroll: true });
    var box = el.getBoundingClientRect();
    if (reveal && (box.top < 0 || box.bottom > window.innerHeight)) el.scrollIntoView({ block: "nearest" });
  }
  // The field a refusal names (the head's message says which: data-field, as the API's `field`),
  // in the form just sent or its card; marked invalid and described by the message beside it.
  function refusedField() {
    var said = document.querySelector("#table-live > .table-head .error[data-field]");
    var sent = found(place.focus);
    if (!said || !sent) return null;
    var path = said.getAttribute("data-field"), holder = document.getElementById(place.focus.holder);
    var field = fieldNamed(sent.closest("form"), path) || fieldNamed(holder, path);
    if (!field) return null;
    var card = field.closest(".card") || holder;
    var beside = Array.prototype.filter.call(card.querySelectorAll(".error[data-field]"), function (e) {
      return e.getAttribute("data-field") === path;
    })[0] || said;
    if (!beside.id) beside.id = "refusal-" + path.replace(/[^A-Za-z0-9_-]/g, "-");
    field.setAttribute("aria-invalid", "true");
    field.setAttribute("aria-describedby", ((field.getAttribute("aria-describedby") || "") + " " + beside.id).trim());
    return field;
  }
  // A form's field for an API path: data.fame -> data.fame:int; data.research[2] -> the third of
  // data.research[]; data.specialties -> the first data.specialties.*
  function fieldNamed(scope, path) {
    if (!scope) return null;
    var fields = Array.prototype.filter.call(scope.querySelectorAll("input, select, textarea"), function (f) {
      return f.type !== "hidden" && f.name && !f.disabled;
    });
    function base(f) { return f.name.replace(/:[a-z]+$/, ""); }
    var exact = fields.filter(function (f) { return base(f) === path; });
    if (exact.length) return exact[0];
    var item = /^(.*)\[(\d+)\]$/.exec(path);
    var list = item ? fields.filter(function (f) { return base(f) === item[1] + "[]"; }) : [];
    if (list.length) return list[Math.min(parseInt(item[2], 10), list.length - 1)];
    return fields.filter(function (f) { var b = base(f); return b.indexOf(path + ".") === 0 || b.indexOf(path + "[") === 0; })[0] || null;
  }

  // When the table's last change ends the game, every phone shows the result once, as it arrives
  // (the game's [data-result] section): never again on this phone at a later push or reload.
  var RESULT_SHOWN = "tc-result-shown";
  function showResultOnce(scroll) {
    var live = document.getElementById("table-live"), table = thisTable();
    if (!live || !table || !live.hasAttribute("data-finished")) return;
    var shown;
    try { shown = JSON.parse(localStorage.getItem(RESULT_SHOWN) || "[]"); } catch (e) { shown = []; }
    if (!Array.isArray(shown)) shown = [];
    if (shown.indexOf(table) >= 0) return;
    try { localStorage.setItem(RESULT_SHOWN, JSON.stringify(shown.concat([table]).slice(-50))); } catch (e) { /* once a page then */ }
    var result = live.querySelector("[data-result]") || document.getElementById("log-play");
    if (!scroll || !result) return;
    result.scrollIntoView({ block: "start" });
    focusOn(result);
  }
  // A page that opens on a finished table begins with it: only remember that this phone saw it.
  document.addEventListener("DOMContentLoaded", function () { showResultOnce(false); });

  // The invite (outside the region) is open while the table has no change yet, players still
  // joining; it closes on every phone at the first change, and once a calculator table's result
  // is in, it goes below the result. Done before keepPlace measures, so nothing moves.
  var inviteOpenAtStart = false;
  document.addEventListener("DOMContentLoaded", function () {
    var invite = document.getElementById("invite");
    inviteOpenAtStart = !!(invite && invite.open);
  });
  function tidyInvite() {
    var invite = document.getElementById("invite"), live = document.getElementById("table-live");
    if (!invite || !live) return;
    if (inviteOpenAtStart && dataVersion("table-live") > 0) { invite.open = false; inviteOpenAtStart = false; }
    if (live.hasAttribute("data-finished") && invite.classList.contains("invite-first")) {
      invite.classList.remove("invite-first");
      live.parentNode.insertBefore(invite, live.nextSibling);
    }
  }

  // Put a live region the page got by itself (pushed, or a kept write's answer) in place of the
  // one shown, through the same htmx:beforeSwap and htmx:afterSwap events as htmx's own swaps,
  // so that every listener keeps what it keeps (above; the games' editors, static/*/): a pushed
  // region comes as a poll's answer would (verb "get"), a kept write's as its post's (its status).
  function swapRegion(html, verb, status) {
    var live = document.getElementById("table-live");
    if (!live || !window.htmx || html.indexOf('id="table-live"') < 0) return;
    var info = { target: live, elt: live, requestConfig: { verb: verb }, shouldSwap: true, serverResponse: html,
                 xhr: verb === "get" ? null : { status: status, responseText: html } };
    if (!htmx.trigger(live, "htmx:beforeSwap", info) || !info.shouldSwap) return;
    htmx.swap(live, html, { swapStyle: "outerHTML", swapDelay: 0, settleDelay: 0 }, { eventInfo: info });
  }

  // --- Push: each new version arrives as it is written (companion/web/push.py) ----------------
  // The page's #table-push opens a stream of server-sent events through htmx's SSE extension,
  // which opens it again when it drops. Each event is the live region of a new version, drawn
  // here rather than by the extension, with the same care as a poll: never an older table than
  // this phone has seen (a tap's answer can be newer), never the one already shown, and never
  // while someone types in the region: it waits until they leave the field. While the stream
  // is not open (no EventSource, a proxy that holds it back, the server away) the region polls
  // as before; while it is open, the polls are not sent.
  var pushOpen = false;
  var deferred = null;  // a pushed region held back while someone types
  function typingInRegion() {
    var live = document.getElementById("table-live");
    return isEditing(document.activeElement) && live && live.contains(document.activeElement);
  }
  function drawPushed(html) {
    var drawn = versionIn(html);
    var shown = dataVersion("table-live"), known = latestVersion();
    if (drawn === null || (shown !== null && drawn <= shown) || (known !== null && drawn < known)) return;
    // Nor while this phone's own write is on its way: its form would leave the page before its
    // answer came, and htmx would tell no one that the write was answered.
    if (typingInRegion() || writing()) { deferred = html; return; }
    deferred = null;
    swapRegion(html, "get");
  }
  // A held-back region, once nobody types and no write is on its way (if still newer by then).
  function drawDeferred() {
    setTimeout(function () {
      if (!deferred || typingInRegion() || writing()) return;
      var html = deferred;
      deferred = null;
      drawPushed(html);
    }, 0);
  }
  document.addEventListener("htmx:sseBeforeMessage", function (evt) {
    evt.preventDefault();  // drawn here (drawPushed), not swapped by the extension
    heardStream();
    drawPushed(evt.detail && evt.detail.data);
  });
  document.addEventListener("focusout", drawDeferred);
  document.addEventListener("htmx:sseOpen", function (evt) {
    var source = evt.detail && evt.detail.source;
    if (source) source.addEventListener("alive", function (e) { heardStream(parseFloat(e.data)); });
    pushOpen = true;
    answered();
  });
  document.addEventListener("htmx:sseError", function (evt) {
    var source = evt.detail && evt.detail.source;
    pushOpen = !!(source && source.readyState === 1);
  });
  document.addEventListener("htmx:sseClose", function () { pushOpen = false; clearTimeout(silence); });
  // A stream can stay open and say nothing: a stalled server (a stopped process, a machine out
  // of memory) keeps its connections. push.py sends an "alive" event every few seconds (its
  // data says how many); when two in a row do not come, this phone says its table may be out of
  // date, with the banner a tap uses ("Can't reach the server"), and polls, which say when the
  // server answers again. Any word on the stream means it is back.
  var silence = null, aliveMs = null, silent = false;
  function heardStream(seconds) {
    if (seconds > 0) aliveMs = seconds * 1000;
    clearTimeout(silence);
    if (silent) {
      silent = false;
      pushOpen = true;
      answered();
    }
    if (aliveMs) silence = setTimeout(streamSilent, 2 * aliveMs + 1000);
  }
  function streamSilent() {
    silent = true;
    pushOpen = false;
    unreachable();
  }
  // While taps are kept, the polls go on all the same: each one that gets through says the server
  // is there and sends the kept taps at once, as it did before push (see "kept writes").
  document.addEventListener("htmx:beforeRequest", function (evt) {
    var cfg = evt.detail.requestConfig || {};
    var elt = evt.detail.elt;
    if (pushOpen && !waitingHere().length && (cfg.verb || "").toLowerCase() === "get" && elt && elt.id === "table-live") {
      evt.preventDefault();
    }
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

  // --- Kept writes: a tap is never lost in silence (issue 13) ---------------------------------
  // Every write to a table (an event form, a stepper, undo) carries a write_id made at the tap,
  // and is kept in localStorage (its address, its fields, that id) from the moment it is sent
  // until an answer comes. A tap still unanswered after a second says "sending…" on its control.
  // With no answer (no network, a time-out, the server down) or a 5xx (507: the server's disk is
  // full), the control says "not saved", a banner says why, and the write is sent again: when
  // the phone comes back online, when a poll gets through, and on a backoff timer; also after a
  // reload, which finds it still kept. The server remembers write ids, so a write whose answer
  // was lost is applied once however often it comes.
  // A kept event met by 409 (another phone played while this one could not send) is sent again
  // on the version the 409's answer carries, as every form is sent on the newest version this
  // phone has seen; after MAX_REBASES such tries it is given up and its control says so. An
  // undo is sent on the version it was tapped on, never a newer one the page drew since: that
  // would take back another phone's change. Only this phone's own writes move it on (carryUndos).
  // Any other 4xx (refused) is final: shown as ever, never sent again.
  // Writes leave one at a time: a tap made while another write of this table is on its way or
  // kept waits its turn (htmx would drop it, or send it with a version about to be stale).
  var KEPT = "tc-kept-writes";
  var WRITE_PATH = /\/t\/([A-Za-z0-9_-]{1,64})\/(events|undo)$/;
  // WRITE_TIMEOUT_MS is htmx's timeout (base.html): a busy laptop answers a tap well within 6 s,
  // and "sending…" from PENDING_MS on says the tap is in hand meanwhile, so no second tap by mistake.
  var RETRY_FIRST_MS = 1000, RETRY_MAX_MS = 30000, WRITE_TIMEOUT_MS = 6000, PENDING_MS = 1000, MAX_REBASES = 3;
  var CHANGED = "not saved: the table changed, tap again";
  var inFlight = {};  // write_id -> true while this page waits for its answer
  function writing() { return Object.keys(inFlight).length > 0; }
  var retryTimer = null, retryDelay = RETRY_FIRST_MS, offline = false, trouble = null, troubleText = "";
  var lastTapped = null, lastControl = null;  // the control of the latest tap: the banner keeps clear of it

  function tableOf(path) {
    try { var found = WRITE_PATH.exec(new URL(path, location.href).pathname); return found ? found[1] : null; }
    catch (e) { return null; }
  }
  function isWrite(verb, path) { return (verb || "").toLowerCase() === "post" && tableOf(path) !== null; }
  function thisTable() { return document.body ? document.body.getAttribute("data-table") : null; }

  function newWriteId() {
    var bytes = new Uint8Array(12);
    if (window.crypto && window.crypto.getRandomValues) window.crypto.getRandomValues(bytes);  // also over plain http
    else for (var i = 0; i < bytes.length; i++) bytes[i] = Math.floor(Math.random() * 256);
    return Array.prototype.map.call(bytes, function (b) { return ("0" + b.toString(16)).slice(-2); }).join("");
  }

  // The kept writes live in this page's memory, written through to localStorage so a reload (or
  // another tab) finds them. Storage is read at start-up and when another tab changes it, never
  // on every poll; where it refuses to hold them (full, a private window) memory still does.
  function readKept() {
    try { var list = JSON.parse(localStorage.getItem(KEPT) || "[]"); return Array.isArray(list) ? list : []; }
    catch (e) { return []; }
  }
  var kept = readKept();
  function keptWrites() { return kept.slice(); }
  function storeKept(list) {
    kept = list.slice();
    try { if (list.length) localStorage.setItem(KEPT, JSON.stringify(list)); else localStorage.removeItem(KEPT); } catch (e) { /* memory only */ }
  }
  window.addEventListener("storage", function (evt) {
    if (evt.key !== KEPT && evt.key !== null) return;
    kept = readKept();
    paintMarks();
  });
  function keep(entry) { var list = keptWrites(); list.push(entry); storeKept(list); }
  function forget(id) { storeKept(keptWrites().filter(function (w) { return w.id !== id; })); }
  function change(id, how) { storeKept(keptWrites().map(function (w) { if (w.id === id) how(w); return w; })); }
  function markFailed(id) { change(id, function (w) { w.failed = true; }); }
  // every write of this table the phone still holds: waiting to be sent, or given up (for its mark)
  function keptHere() { var table = thisTable(); return keptWrites().filter(function (w) { return w.table === table; }); }
  // the ones still to be sent
  function waitingHere() { return keptHere().filter(function (w) { return !w.gaveUp; }); }
  function busy() { return writing() || waitingHere().length > 0; }
  // A new tap is the player's answer to "tap again": the marks of writes given up go.
  function dropGivenUp() {
    var table = thisTable();
    storeKept(keptWrites().filter(function (w) { return !(w.table === table && w.gaveUp); }));
  }

  // Which control a write came from, found again after the region was drawn anew (or the page
  // reloaded): the form's id (a stepper's), else its address, event type and place among the
  // forms like it; and the button tapped in it.
  function formKey(form) {
    if (form.id) return "#" + form.id;
    var action = form.getAttribute("action") || "";
    var type = (form.querySelector("[name=type]") || {}).value || "";
    var like = Array.prototype.filter.call(document.querySelectorAll("form"), function (f) {
      return (f.getAttribute("action") || "") === action && ((f.querySelector("[name=type]") || {}).value || "") === type;
    });
    return action + "|" + type + "|" + like.indexOf(form);
  }
  function controlOf(form, button) {
    if (!form) return null;
    return { form: formKey(form), button: button && button.name ? [button.name, button.value] : null };
  }
  function findControl(control) {
    if (!control) return null;
    var form = null;
    if (control.form.charAt(0) === "#") form = document.getElementById(control.form.slice(1));
    else form = Array.prototype.filter.call(document.querySelectorAll("form"), function (f) { return formKey(f) === control.form; })[0];
    if (!form) return null;
    var button = control.button && Array.prototype.filter.call(form.querySelectorAll("button"), function (b) {
      return b.name === control.button[0] && b.value === control.button[1];
    })[0];
    // a form's only submit button stands for it (a button with no name: Undo, Rename)
    return { form: form, button: button || form.querySelector("button:not([type=button])") || null };
  }

  // The mark on each control with a write this phone holds, in words, not only a colour:
  // "sending…" a second after the tap, "not saved" once it failed, and why when given up.
  // It takes no room: an outline on the button (outlines are drawn outside the layout) and a
  // badge laid over the button's lower edge, so no button beside or below it moves.
  function paintMarks() {
    document.querySelectorAll(".unsaved-mark").forEach(function (m) { m.remove(); });
    document.querySelectorAll("form.has-mark").forEach(function (f) { f.classList.remove("has-mark", "unsaved"); });
    document.querySelectorAll("[data-unsaved]").forEach(function (b) { b.removeAttribute("data-unsaved"); });
    var now = Date.now(), groups = {}, order = [];
    keptHere().forEach(function (w) {
      if (!w.control) return;
      var key = JSON.stringify(w.control);
      if (!groups[key]) { groups[key] = { control: w.control, failed: 0, sending: 0, gaveUp: 0 }; order.push(key); }
      if (w.gaveUp) groups[key].gaveUp++;
      else if (w.failed) groups[key].failed++;
      else if (now - (w.at || now) >= PENDING_MS) groups[key].sending++;
    });
    order.forEach(function (key) {
      var g = groups[key], state, words;
      if (g.failed) { state = "failed"; words = g.failed > 1 ? g.failed + " taps not saved" : "not saved"; }
      else if (g.sending) { state = "sending"; words = g.sending > 1 ? g.sending + " taps sending\u2026" : "sending\u2026"; }
      else if (g.gaveUp) { state = "changed"; words = g.gaveUp > 1 ? g.gaveUp + " taps " + CHANGED : CHANGED; }
      else return;
      var found = findControl(g.control);
      if (!found) return;
      var form = found.form, target = found.button || form;
      form.classList.add("has-mark");
      if (state !== "sending") form.classList.add("unsaved");
      target.setAttribute("data-unsaved", state);
      var mark = document.createElement("strong");
      mark.className = "unsaved-mark unsaved-" + state;
      mark.textContent = words;
      form.appendChild(mark);
      placeMark(mark, target, form);
    });
  }
  // Centred under the button, across its lower edge, and inside the screen.
  function placeMark(mark, target, form) {
    var box = form.getBoundingClientRect(), at = target.getBoundingClientRect();
    var width = mark.offsetWidth, screen = document.documentElement.clientWidth || window.innerWidth;
    var left = at.left + at.width / 2 - width / 2;
    left = Math.max(4, Math.min(left, screen - 4 - width));
    mark.style.left = (left - box.left) + "px";
    mark.style.top = (at.bottom - box.top - 12) + "px";
  }
  // "sending…" once a tap has waited PENDING_MS, and again for the taps made meanwhile
  var pendingTimer = null;
  function paintPendingSoon() {
    if (pendingTimer) return;
    pendingTimer = setTimeout(function () {
      pendingTimer = null;
      paintMarks();
      var now = Date.now();
      if (keptHere().some(function (w) { return !w.failed && now - (w.at || now) < PENDING_MS; })) paintPendingSoon();
    }, PENDING_MS + 20);
  }

  // The banner: why writes are not saved, and how many are kept to be sent again. A bar fixed
  // at the bottom of the screen (at the top when the tapped control is down there), so it never
  // moves the page and never covers the control just tapped; the page's end gets its height
  // as room below while it shows, so nothing is ever beneath it for good.
  function bannerWords() {
    var n = waitingHere().length;
    var taps = n === 1 ? "1 tap kept" : n + " taps kept";
    if (trouble === "offline") {
      var head = navigator.onLine === false ? "No connection" : "Can\u2019t reach the server";
      return head + (n ? ": " + taps + ", sent when it is back." : ": the table shown may be out of date.");
    }
    return troubleText + (n ? " " + taps + ", sent again by itself." : "");
  }
  function say(kind, text) {
    var banner = document.getElementById("connection-banner");
    trouble = kind;
    troubleText = text || "";
    if (!banner) return;
    if (!kind) {
      banner.hidden = true;
      banner.textContent = "";
      document.body.classList.remove("banner-shown");
      return;
    }
    var appearing = banner.hidden;
    banner.textContent = bannerWords();
    banner.hidden = false;
    if (appearing) placeBanner(banner);
    else document.body.style.setProperty("--banner-room", banner.offsetHeight + "px");
  }
  // At the bottom, unless the control last tapped is where the bar would be: then at the top.
  // It moves only as it appears and at a tap, never under a finger on its way to a button.
  function placeBanner(banner) {
    if (!banner || banner.hidden) return;
    banner.classList.remove("at-top");
    var height = banner.offsetHeight;
    var tapped = lastTapped && lastTapped.isConnected ? lastTapped : (findControl(lastControl) || {}).button;
    var at = tapped ? tapped.getBoundingClientRect() : null;
    if (at && at.bottom > window.innerHeight - height - 8 && at.top < window.innerHeight) banner.classList.add("at-top");
    document.body.style.setProperty("--banner-room", height + "px");
    document.body.classList.add("banner-shown");
  }
  function refreshBanner() { if (trouble) say(trouble, troubleText); }
  function serverWords(status, body) {
    var text = "";
    if (body) {
      try {
        var doc = new DOMParser().parseFromString(body, "text/html");
        var main = doc.querySelector("main p") || doc.body;
        text = (main ? main.textContent : body).replace(/\s+/g, " ").trim();
      } catch (e) { text = body.trim(); }
    }
    if (status === 507) text = text && text.length < 200 ? text : "the server's disk is full: nothing was saved";
    else text = "The server could not save that (error " + status + ").";
    return text.charAt(0).toUpperCase() + text.slice(1).replace(/\.?$/, ".");
  }
  // No answer at all: the server cannot be reached. (Not inside say: refreshBanner says it again
  // after answered() found the server there.)
  function unreachable() { offline = true; say("offline"); }
  function failed(id, status, body) {
    markFailed(id);
    if (status === 0) unreachable();
    else say("server", serverWords(status, body));
    paintMarks();
    scheduleRetry();
  }
  // The server answered (a poll, a write, even a refusal): once nothing is left to send, the
  // banner has nothing more to say; else what is kept goes now.
  // Coming back from unreachable, the kept writes go at once; after a 5xx the backoff times them.
  function answered() {
    var wasOffline = offline;
    offline = false;
    if (!waitingHere().length) { if (trouble) say(null); return; }
    if (wasOffline) { retryDelay = RETRY_FIRST_MS; sendKept(); }
  }

  function scheduleRetry() {
    clearTimeout(retryTimer);
    retryTimer = setTimeout(function () { retryTimer = null; sendKept(); }, retryDelay);
    retryDelay = Math.min(retryDelay * 2, RETRY_MAX_MS);
  }

  // The table's version an answer carries (the live region's data-version), or null.
  function versionIn(html) {
    var found = /id="table-live" data-version="(\d+)"/.exec(html || "");
    return found ? parseInt(found[1], 10) : null;
  }
  function heard(version) {
    if (version !== null) answeredVersion = answeredVersion === null ? version : Math.max(answeredVersion, version);
  }

  function isUndo(entry) { return /\/undo$/.test(entry.url); }
  function sentVersion(value) { var v = parseInt(value, 10); return isNaN(v) ? null : v; }
  // This phone's own write, sent on version `from`, was applied: the table went from `from` to
  // from + 1 by this phone's hand, so a kept undo tapped on `from` (to take back that write, or
  // one kept after it) now goes on from + 1. Any other version is another phone's doing.
  function carryUndos(table, from, to) {
    if (from === null || to !== from + 1) return;
    storeKept(keptWrites().map(function (w) {
      if (w.table !== table || w.gaveUp || !isUndo(w)) return w;
      w.fields = w.fields.map(function (pair) {
        return pair[0] === "expected_version:int" && sentVersion(pair[1]) === from ? [pair[0], String(to)] : pair;
      });
      return w;
    }));
  }
  // The newest of the versions an answer carries (its live region's, a stepper's tools'), or null.
  function newestVersionIn(html) {
    var versions = ((html || "").match(/data-version="\d+"/g) || []).map(function (v) { return parseInt(v.slice(14), 10); });
    return versions.length ? Math.max.apply(null, versions) : null;
  }

  // Send the oldest kept write of this table, then the next, one at a time. An event goes on the
  // newest version this phone knows (as every form does), an undo on the version it was tapped on
  // (moved on only by carryUndos); its write_id is the one made at the tap.
  function sendKept() {
    if (writing()) return;
    var next = waitingHere()[0];
    if (!next) { retryDelay = RETRY_FIRST_MS; return; }
    inFlight[next.id] = true;
    var body = new URLSearchParams();
    var latest = latestVersion(), sentOn = null;
    next.fields.forEach(function (pair) {
      var value = pair[1];
      if (pair[0] === "expected_version:int") {
        if (!isUndo(next) && latest !== null) value = String(latest);
        sentOn = sentVersion(value);
      }
      body.append(pair[0], value);
    });
    var controller = window.AbortController ? new AbortController() : null;
    var timer = setTimeout(function () { if (controller) controller.abort(); }, WRITE_TIMEOUT_MS);
    fetch(next.url, { method: "POST", body: body, credentials: "same-origin", headers: { "HX-Request": "true" },
                      signal: controller ? controller.signal : undefined })
      .then(function (r) { return r.text().then(function (text) { return { status: r.status, text: text }; }); })
      .catch(function () { return { status: 0, text: "" }; })
      .then(function (answer) {
        clearTimeout(timer);
        delete inFlight[next.id];
        drawDeferred();
        if (answer.status === 0 || answer.status >= 500) { failed(next.id, answer.status, answer.text); return; }
        retryDelay = RETRY_FIRST_MS;
        if (answer.status < 400) {
          forget(next.id);
          var now = newestVersionIn(answer.text);
          heard(now);
          carryUndos(next.table, sentOn, now);
        } else if (answer.status === 409 && rebase(next, answer.text)) {
          // sent again below, on the version the answer carried
        } else if (answer.status === 409) {
          change(next.id, function (w) { w.gaveUp = true; w.failed = true; });
          heard(versionIn(answer.text));
          showRefusal(answer.text, answer.status);  // "the table changed on another phone": here it is now
        } else {
          forget(next.id);
          showRefusal(answer.text, answer.status);  // refused: as a tap's answer shows it
        }
        paintMarks();
        answered();
        sendKept();
      });
  }
  // A kept event met by 409: take the table's version from the answer, show the table as it is
  // (without "tap again": this phone is doing it), and keep the write to be sent on that version.
  function rebase(entry, html) {
    var version = versionIn(html);
    if (version === null || (entry.rebased || 0) >= MAX_REBASES || !/\/events$/.test(entry.url)) return false;
    change(entry.id, function (w) { w.rebased = (w.rebased || 0) + 1; });
    heard(version);
    if (!typingInRegion()) {
      var holder = document.createElement("template");
      holder.innerHTML = html;
      holder.content.querySelectorAll("#table-live > .table-head > .notice").forEach(function (n) { n.remove(); });
      showRefusal(holder.innerHTML, 409);
    }
    return true;
  }
  function showRefusal(html, status) { swapRegion(html, "post", status); }

  // A tap on a table's form. Note the control (the banner keeps clear of it). While another
  // write of this table is on its way or kept, keep this one too, and send it in turn.
  document.addEventListener("submit", function (evt) {
    var form = evt.target;
    var action = form && form.getAttribute ? form.getAttribute("hx-post") : null;
    if (!action || !tableOf(action)) return;
    var submitter = evt.submitter || null;
    lastTapped = submitter || form;
    lastControl = controlOf(form, submitter);
    dropGivenUp();
    placeBanner(document.getElementById("connection-banner"));
    if (!busy()) { paintMarks(); return; }
    evt.preventDefault();
    evt.stopPropagation();
    var data = new FormData(form);
    if (submitter && submitter.name) data.append(submitter.name, submitter.value);
    var fields = [];
    var latest = latestVersion();
    data.forEach(function (value, name) {
      if (typeof value !== "string") return;
      fields.push([name, name === "expected_version:int" && latest !== null ? String(latest) : value]);
    });
    var id = newWriteId();
    fields.push(["write_id", id]);
    keep({ id: id, table: tableOf(action), url: new URL(action, location.href).pathname, fields: fields,
           control: lastControl, at: Date.now(), failed: false });
    if (offline || trouble) markFailed(id);
    paintMarks();
    refreshBanner();
    paintPendingSoon();
    sendKept();
  }, true);

  // htmx sends the others: kept from the moment they leave, forgotten once answered.
  document.addEventListener("htmx:beforeRequest", function (evt) {
    var cfg = evt.detail.requestConfig || {};
    if (!isWrite(cfg.verb, cfg.path) || !cfg.formData) return;
    var id = cfg.formData.get("write_id");
    if (!id) return;
    var fields = [];
    cfg.formData.forEach(function (value, name) { if (typeof value === "string") fields.push([name, value]); });
    var trigger = cfg.triggeringEvent;
    keep({ id: id, table: tableOf(cfg.path), url: new URL(cfg.path, location.href).pathname, fields: fields,
           control: controlOf(cfg.elt && cfg.elt.closest ? cfg.elt.closest("form") : null, trigger && trigger.submitter),
           at: Date.now(), failed: false });
    inFlight[id] = true;
    paintPendingSoon();
  });
  document.addEventListener("htmx:afterRequest", function (evt) {
    var cfg = evt.detail.requestConfig || {};
    var xhr = evt.detail.xhr;
    var status = xhr ? xhr.status : 0;
    if ((cfg.verb || "").toLowerCase() === "get") {  // a poll: it says whether the server is there
      if (status === 0) unreachable();
      else if (status < 500) answered();
      return;
    }
    var id = isWrite(cfg.verb, cfg.path) && cfg.formData ? cfg.formData.get("write_id") : null;
    if (!id || !inFlight[id]) return;
    delete inFlight[id];
    drawDeferred();
    if (status === 0 || status >= 500) { failed(id, status, xhr ? xhr.responseText : ""); return; }
    forget(id);
    if (status < 300) carryUndos(tableOf(cfg.path), sentVersion(cfg.formData.get("expected_version:int")), newestVersionIn(xhr.responseText));
    paintMarks();
    answered();
    sendKept();
  });

  document.addEventListener("htmx:afterSettle", paintMarks);
  window.addEventListener("online", function () { retryDelay = RETRY_FIRST_MS; refreshBanner(); sendKept(); });
  window.addEventListener("offline", unreachable);
  // After a reload, whatever is still kept never got an answer: mark it and send it again.
  document.addEventListener("DOMContentLoaded", function () {
    if (!thisTable() || !keptHere().length) return;
    storeKept(keptWrites().map(function (w) { if (w.table === thisTable()) w.failed = true; return w; }));
    paintMarks();
    sendKept();
  });

  // --- Keep the screen awake while a table is open -------------------------------------------
  // The Wake Lock API where the browser offers it. Over plain http on the LAN the page is not a
  // secure context and has none, so a muted, looping, inline video plays on a table page
  // (static/wake/, whose README says how they are made): the way established wake-lock
  // libraries keep a screen on. Chromium counts a muted video only when it is on screen and
  // covers over a fifth of the view, so it fills the view behind the page, all but transparent;
  // Firefox only when it has an audio track, so the files carry a silent one. Safari grants
  // nothing to a muted or looping video: an iPhone over plain http keeps its own auto-lock.
  var lock = null, video = null;
  var here = document.currentScript && document.currentScript.src;
  function tablePage() { return document.body && document.body.classList.contains("table-page"); }
  function playVideo() {
    if (!here) return;
    if (!video) {
      video = document.createElement("video");
      video.className = "keep-awake";
      video.muted = true;
      ["muted", "playsinline", "webkit-playsinline", "loop", "disablepictureinpicture"].forEach(function (a) { video.setAttribute(a, ""); });
      video.setAttribute("aria-hidden", "true");
      video.setAttribute("tabindex", "-1");
      [["wake/wake.webm", "video/webm"], ["wake/wake.mp4", "video/mp4"]].forEach(function (file) {
        var source = document.createElement("source");
        source.src = new URL(file[0], here).href;
        source.type = file[1];
        video.appendChild(source);
      });
      document.body.appendChild(video);
    }
    if (video.paused) {
      var playing = video.play();
      if (playing && playing.catch) playing.catch(function () {});
    }
  }
  function wake() {
    if (!tablePage() || document.visibilityState !== "visible") return;
    if ("wakeLock" in navigator) {
      if (lock && !lock.released) return;
      navigator.wakeLock.request("screen").then(function (l) { lock = l; }).catch(playVideo);
      return;
    }
    playVideo();
  }
  // Started as the page opens where the browser lets a muted video play by itself (Chrome,
  // Safari), else on the first tap; and again whenever the page is shown after being hidden.
  document.addEventListener("visibilitychange", wake);
  document.addEventListener("DOMContentLoaded", wake);
  document.addEventListener("click", function () { if (!lock || lock.released) wake(); }, true);
})();
