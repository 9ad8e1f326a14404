// --- Push: each new version arrives as it is written (companion/web/push.py) ------------------
// The page's #table-push opens a stream of server-sent events through htmx's SSE extension,
// which opens it again when it drops. Each event is the parts a version changed, its id the
// version: drawn by the extension (hx-swap="none": the parts come out of band) unless the page
// shows that version already (update.js). While the stream is not open (no EventSource, a proxy
// that holds it back, the server away) or taps are kept to be sent, the page polls /t/ID/live,
// which answers with what changed since the version it shows; while it is open it sends nothing.
import { waitingHere } from "./kept.js";
import { answered, unreachable } from "./send.js";
import { updated, updating } from "./update.js";

var pushOpen = false;

function versionOfEvent(evt) {
  var v = parseInt(evt.detail && evt.detail.lastEventId, 10);
  return isNaN(v) ? null : v;
}
// htmx:sseBeforeMessage: draw it, or not (already shown)
export function pushed(evt) {
  heardStream();
  if (!updating(versionOfEvent(evt), { pushed: true })) evt.preventDefault();
}
// htmx:sseMessage: drawn
export function pushDrawn() { updated(); }
// htmx:sseOpen
export function streamOpen(evt) {
  var source = evt.detail && evt.detail.source;
  if (source) source.addEventListener("alive", function (e) { heardStream(parseFloat(e.data)); });
  pushOpen = true;
  answered();
}
// htmx:sseError. A stream the server refused (429 past its address's cap of streams: docs/CONTRACT.md,
// or any answer but 200) is closed for good; htmx's extension opens another later, less and less
// often (at most every 64 s), and meanwhile the page polls, whose answers say whether the server
// is there: the closed stream's silence is no sign of anything.
export function streamError(evt) {
  var source = evt.detail && evt.detail.source;
  pushOpen = !!(source && source.readyState === 1);
  if (source && source.readyState === 2) clearTimeout(silence);
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

// DOMContentLoaded: the poll, every data-poll-ms, sent only while it is needed: the stream is not
// open, or taps are kept (each poll that gets through says the server is there and sends the kept
// taps at once: send.js). Its answer is drawn as any other (update.js).
var polling = false;
export function startPolling() {
  var push = document.getElementById("table-push"), htmx = window.htmx;
  var every = push ? parseInt(push.getAttribute("data-poll-ms"), 10) : NaN;
  if (!push || !htmx || !(every > 0)) return;
  setInterval(function () {
    if (polling || (pushOpen && !waitingHere().length)) return;
    polling = true;
    htmx.ajax("GET", push.getAttribute("data-poll"), { source: push, target: push, swap: "none" })
      .finally(function () { polling = false; });
  }, every);
}
