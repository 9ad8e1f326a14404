// Table Companion's page script (templates/base.html loads it after htmx, before the SSE
// extension and the games' scripts). Each module does one job and exports its functions; this
// one wires them to the page's events. Where two listen to the same event, the order below is
// the order they run in, and it matters: the swap guard decides before the place is noted, what
// was typed is put back before the place is kept, the invite opens before its state is noted.
// No inline scripts (CSP).
import { noteInviteAtStart, openInviteOnArrival } from "./invite.js";
import { rereadKept, whenAnswered } from "./kept.js";
import { paintMarks } from "./marks.js";
import { keepPlaceAfterSettle, keepPlaceAfterSwap, notePlace } from "./place.js";
import { drawDeferred, holdPoll, pushed, streamClosed, streamError, streamOpen } from "./push.js";
import { oneAlert } from "./refusal.js";
import { showResultOnce } from "./result.js";
import { applySeat } from "./seat.js";
import { backOnline, sendAfterReload, unreachable } from "./send.js";
import { share } from "./share.js";
import { afterSwap, guardSwap } from "./swap.js";
import { giveWriteId, keepSent, requestAnswered, tapped } from "./taps.js";
import { postLatestVersion } from "./versions.js";
import { wake, wakeOnTap } from "./wake.js";

var on = document.addEventListener.bind(document);

// As the page opens, in this order.
[
  function () { applySeat(document.getElementById("table-live")); },
  openInviteOnArrival,
  oneAlert,
  function () { showResultOnce(false); },
  noteInviteAtStart,
  sendAfterReload,
  wake,
].forEach(function (step) { on("DOMContentLoaded", step); });

// A request: the newest version, a write's id; a write kept from the moment it leaves; the
// region's poll held back while the stream is open; a poll's or a write's answer.
on("htmx:configRequest", postLatestVersion);
on("htmx:configRequest", giveWriteId);
on("htmx:beforeRequest", holdPoll);
on("htmx:beforeRequest", keepSent);
on("htmx:afterRequest", requestAnswered);

// A new live region (htmx's own swaps and swap.js's swapRegion alike).
on("htmx:beforeSwap", guardSwap);
on("htmx:beforeSwap", notePlace);
on("htmx:afterSwap", afterSwap);
on("htmx:afterSwap", keepPlaceAfterSwap);
on("htmx:afterSettle", keepPlaceAfterSettle);
on("htmx:afterSettle", paintMarks);

// Push.
on("htmx:sseBeforeMessage", pushed);
on("htmx:sseOpen", streamOpen);
on("htmx:sseError", streamError);
on("htmx:sseClose", streamClosed);
on("focusout", drawDeferred);
whenAnswered(drawDeferred);

// Taps, the network, another tab's kept writes.
on("submit", tapped, true);
on("click", share);
on("click", wakeOnTap, true);
on("visibilitychange", wake);
window.addEventListener("online", backOnline);
window.addEventListener("offline", unreachable);
window.addEventListener("storage", function (evt) { if (rereadKept(evt)) paintMarks(); });
