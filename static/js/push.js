// --- Push: each new version arrives as it is written (companion/web/push.py) ------------------
// The page's #table-push opens a stream of server-sent events through htmx's SSE extension,
// which opens it again when it drops. Each event is the live region of a new version, drawn
// here rather than by the extension, with the same care as a poll: never an older table than
// this phone has seen (a tap's answer can be newer), never the one already shown, and never
// while someone types in the region: it waits until they leave the field. While the stream
// is not open (no EventSource, a proxy that holds it back, the server away) the region polls
// as before; while it is open, the polls are not sent.
import { waitingHere, writing } from "./kept.js";
import { answered, unreachable } from "./send.js";
import { swapRegion } from "./swap.js";
import { typingInRegion } from "./typed.js";
import { dataVersion, latestVersion, versionIn } from "./versions.js";

var pushOpen = false;
var deferred = null;  // a pushed region held back while someone types

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
// focusout, and a write answered: a held-back region, once nobody types and no write is on its
// way (if still newer by then).
export function drawDeferred() {
  setTimeout(function () {
    if (!deferred || typingInRegion() || writing()) return;
    var html = deferred;
    deferred = null;
    drawPushed(html);
  }, 0);
}
// htmx:sseBeforeMessage
export function pushed(evt) {
  evt.preventDefault();  // drawn here (drawPushed), not swapped by the extension
  heardStream();
  drawPushed(evt.detail && evt.detail.data);
}
// htmx:sseOpen
export function streamOpen(evt) {
  var source = evt.detail && evt.detail.source;
  if (source) source.addEventListener("alive", function (e) { heardStream(parseFloat(e.data)); });
  pushOpen = true;
  answered();
}
// htmx:sseError
export function streamError(evt) {
  var source = evt.detail && evt.detail.source;
  pushOpen = !!(source && source.readyState === 1);
}
// htmx:sseClose
export function streamClosed() { pushOpen = false; clearTimeout(silence); }

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
// htmx:beforeRequest: while the stream is open, the region's polls are not sent. While taps are
// kept, the polls go on all the same: each one that gets through says the server is there and
// sends the kept taps at once, as it did before push (kept.js).
export function holdPoll(evt) {
  var cfg = evt.detail.requestConfig || {};
  var elt = evt.detail.elt;
  if (pushOpen && !waitingHere().length && (cfg.verb || "").toLowerCase() === "get" && elt && elt.id === "table-live") {
    evt.preventDefault();
  }
}
