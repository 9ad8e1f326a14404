// --- Push: each new version arrives as it is written (companion/web/push.py) ------------------
// The page's #table-push opens a stream of server-sent events through htmx's SSE extension,
// which opens it again when it drops. Each event is the parts a version changed, its id the
// version: drawn here (drawPushed, handed the event by the extension's swap) unless the page
// shows that version already (update.js). While the stream is not open (no EventSource, a proxy
// that holds it back, the server away) or taps are kept to be sent, the page polls /t/ID/live,
// which answers with what changed since the version it shows; while it is open it sends nothing.
import { troubled } from "./banner.js";
import { waitingHere } from "./kept.js";
import { morphInto } from "./morph.js";
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

// The event's parts drawn here, as htmx draws parts out of band, with its events (htmx:oobBeforeSwap on
// the part, htmx:oobAfterSwap on #table-push: update.js and morph.js hear the same), each morphed in by
// morph.js's swap; but not by htmx's swap, which parses the event as a whole document, copies each part
// and fires each event twice: a fifth of what a push cost a slow phone (bench/README.md, issue 39).
// The "morph" swap hands the stream's text here (morph.js); anything but parts is htmx's to draw.
export function drawPushed(text, elt) {
  var parts = elt && elt.id === "table-push" ? partsOf(text) : null;
  if (!parts) return false;
  var active = document.activeElement, start = active && active.selectionStart, end = active && active.selectionEnd;
  parts.forEach(function (young) {
    var target = document.getElementById(young.id);
    young.removeAttribute("hx-swap-oob");
    var detail = { shouldSwap: true, target: target, fragment: young };
    if (!target || !fire(target, "htmx:oobBeforeSwap", detail)) return;
    if (detail.shouldSwap) morphInto(detail.target, young);
    fire(elt, "htmx:oobAfterSwap", detail);
  });
  // as htmx does: a focused element drawn anew with the same id takes the focus again
  var again = active && !active.isConnected && active.id && document.getElementById(active.id);
  if (again) {
    if (start && again.setSelectionRange) { try { again.setSelectionRange(start, end); } catch (e) { /* a field with no caret */ } }
    again.focus({ preventScroll: true });
  }
  return true;
}
// The parts (elements with an id, hx-swap-oob="morph") the text holds, or null if it holds anything else.
function partsOf(text) {
  var holder = document.createElement("template"), parts = [];
  holder.innerHTML = text;
  for (var node = holder.content.firstChild; node; node = node.nextSibling) {
    if (node.nodeType === 1 && node.id && node.getAttribute("hx-swap-oob") === "morph") parts.push(node);
    else if (node.nodeType !== 3 || node.nodeValue.trim()) return null;
  }
  return parts;
}
function fire(el, name, detail) {
  detail.elt = el;
  return el.dispatchEvent(new CustomEvent(name, { bubbles: true, cancelable: true, composed: true, detail: detail }));
}
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
  pollWhileNeeded();
}
// htmx:sseClose
export function streamClosed() { pushOpen = false; clearTimeout(silence); pollWhileNeeded(); }

// A stream can stay open and say nothing: a stalled server (a stopped process, a machine out
// of memory) keeps its connections. push.py sends an "alive" event every few seconds (its
// data says how many); when two in a row do not come, this phone says its table may be out of
// date, with the banner a tap uses ("Can't reach the server"), and polls, which say when the
// server answers again. Any word on the stream means it is back.
var silence = null, aliveMs = null, silent = false;
function heardStream(seconds) {
  if (seconds > 0) aliveMs = seconds * 1000;
  clearTimeout(silence);
  // silent, or said unreachable while the stream went on (the phone's network came back, its stream
  // held): a word on the stream says the server is there, so the banner goes (send.js answered)
  if (silent || (troubled() === "offline" && navigator.onLine !== false)) {
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
  pollWhileNeeded();
}

// The poll, every data-poll-ms, sent only while it is needed: the stream is not open, or taps are
// kept (each poll that gets through says the server is there and sends the kept taps at once:
// send.js). Its answer is drawn as any other (update.js). Its timer runs only while the poll is
// needed, from the moment it may be (the page's start, the stream's loss, a tap kept): an idle
// phone with its stream open runs no timer at all (one every 0.75 s cost a slow phone 2 ms each).
var polling = false, pollTimer = null, pollEvery = 0;
function needed() { return !pushOpen || waitingHere().length > 0; }
// DOMContentLoaded
export function startPolling() {
  var push = document.getElementById("table-push");
  pollEvery = push ? parseInt(push.getAttribute("data-poll-ms"), 10) : NaN;
  pollWhileNeeded();
}
// Also on a tap kept (main.js) and another tab's kept taps.
export function pollWhileNeeded() {
  var push = document.getElementById("table-push"), htmx = window.htmx;
  if (pollTimer || !push || !htmx || !(pollEvery > 0) || !needed()) return;
  pollTimer = setTimeout(function () {
    pollTimer = null;
    if (!needed()) return;
    if (!polling) {
      polling = true;
      htmx.ajax("GET", push.getAttribute("data-poll"), { source: push, target: push, swap: "none" })
        .finally(function () { polling = false; });
    }
    pollWhileNeeded();
  }, pollEvery);
}
