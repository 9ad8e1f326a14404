// Table Companion's page script (templates/base.html loads it after htmx, before the SSE and
// idiomorph extensions and the games' scripts, all deferred). Each module does one job and
// exports its functions; this one wires them to the page's events. Where two listen to the same
// event, the order below is the order they run in.
// No inline scripts (CSP).
import { holdDone, keepTicking, noteDoneTurn, serverTime, startClock } from "./clock.js";
import { takeKeyFromLink } from "./hostkey.js";
import { noteInviteAtStart, openInviteOnArrival, tidyInvite } from "./invite.js";
import { rereadKept } from "./kept.js";
import { pickLanguage } from "./language.js";
import { paintMarks } from "./marks.js";
import { pressed, selectNumber } from "./numbers.js";
import { onlyNewer, setUpMorph } from "./morph.js";
import { nextOnEnter } from "./nextfield.js";
import { drawPushed, pollWhileNeeded, pushDrawn, pushed, startPolling, streamClosed, streamError, streamOpen } from "./push.js";
import { oneAlert } from "./refusal.js";
import { showResultOnce } from "./result.js";
import { sayChange } from "./said.js";
import { markSeat, openOwn } from "./seat.js";
import { backOnline, sendAfterReload, unreachable } from "./send.js";
import { fitShareText, prepareShare, share } from "./share.js";
import { giveWriteId, keepSent, requestAnswered, tapped } from "./taps.js";
import { UPDATED, partComing, partDrawn, updated, updating } from "./update.js";
import { answerOf, nameVersions, startVersions } from "./versions.js";
import { wake, wakeOnTap } from "./wake.js";

var on = document.addEventListener.bind(document);
function live() { return document.getElementById("table-live"); }

// As the page opens, in this order.
[
  startVersions,
  function () { setUpMorph(openOwn, drawPushed); },
  function () { openOwn(live()); markSeat(live()); },
  openInviteOnArrival,
  oneAlert,
  function () { showResultOnce(false); },
  noteInviteAtStart,
  noteDoneTurn,
  startPolling,
  sendAfterReload,
  wake,
  takeKeyFromLink,
  startClock,
  fitShareText,
  prepareShare,
].forEach(function (step) { on("DOMContentLoaded", step); });

// A request: the version headers and a write's expected_version, a write's id; a write kept from
// the moment it leaves; a poll's or a write's answer.
// The host-key link opened on the archive itself (pasted in the address bar): only its fragment changed.
window.addEventListener("hashchange", takeKeyFromLink);

on("htmx:configRequest", nameVersions);
on("htmx:configRequest", giveWriteId);
on("htmx:beforeRequest", keepSent);
on("htmx:beforeRequest", pollWhileNeeded);  // a tap kept: polls while it is

// An answer htmx draws (a form's, a poll's): an update when it names the table's version.
on("htmx:beforeSwap", function (evt) {
  var xhr = evt.detail.xhr;
  if (!evt.detail.shouldSwap || !xhr) return;
  var answer = answerOf(function (name) { return xhr.getResponseHeader(name); });
  if (answer.version === null) return;
  var how = { partial: answer.partial, refused: xhr.status >= 400, from: evt.detail.elt };
  if (!updating(answer.version, how)) evt.detail.shouldSwap = false;
});
on("htmx:afterRequest", updated);  // after the swap (nothing if no update was drawn)
on("htmx:afterRequest", requestAnswered);
on("htmx:afterRequest", serverTime);  // the turn clock's offset to the server's time
on("htmx:oobBeforeSwap", onlyNewer);
on("htmx:oobBeforeSwap", partComing);
on("htmx:oobAfterSwap", partDrawn);

// Push.
on("htmx:sseBeforeMessage", pushed);
on("htmx:sseMessage", pushDrawn);
on("htmx:sseOpen", streamOpen);
on("htmx:sseError", streamError);
on("htmx:sseClose", streamClosed);

// After every update drawn.
on(UPDATED, function (evt) { evt.detail.drawn.forEach(markSeat); });
on(UPDATED, tidyInvite);
on(UPDATED, oneAlert);
on(UPDATED, paintMarks);
on(UPDATED, sayChange);
on(UPDATED, fitShareText);  // the result's text box, pushed with the end
on(UPDATED, prepareShare);  // the image at hand before Share is tapped (a new version: a new address)
on(UPDATED, keepTicking);  // the running turn's time, at once where the morph brought the last event's
on(UPDATED, noteDoneTurn);  // a Done whose turn just changed takes no tap for a moment (a double tap)

// Taps, the network, another tab's kept writes.
on("submit", holdDone, true);  // before the tap is kept: a double tap's second half on the next turn's Done
on("submit", tapped, true);
on("submit", pollWhileNeeded, true);
on("click", share);
on("load", prepareShare, true);  // the result image came (its address is known whole only then)
on("pointerdown", pressed, true);
on("keydown", nextOnEnter);  // the keyboard's "next" key moves to the next field, the last one sends
on("focusin", selectNumber);  // a number field's value selected: the first digit typed replaces it
on("change", pickLanguage);
on("click", wakeOnTap, true);
on("visibilitychange", wake);
window.addEventListener("online", backOnline);
window.addEventListener("offline", unreachable);
window.addEventListener("storage", function (evt) { if (rereadKept(evt)) { paintMarks(); pollWhileNeeded(); } });
