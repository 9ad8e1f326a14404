// --- Kept writes: a tap is never lost in silence (issue 13) -----------------------------------
// Every write to a table (an event form, a stepper, undo) carries a write_id made at the tap,
// and is kept in localStorage (its address, its fields, that id) from the moment it is sent
// until an answer comes. A tap still unanswered after a second says "sending…" on its control
// (marks.js). With no answer (no network, a time-out, the server down) or a 5xx (507: the
// server's disk is full), the control says "not saved", a banner says why (banner.js), and the
// write is sent again (send.js): when the phone comes back online, when a poll gets through, and
// on a backoff timer; also after a reload, which finds it still kept. The server remembers write
// ids, so a write whose answer was lost is applied once however often it comes.
// This module holds them: which are kept, and which are on their way.
import { thisTable } from "./page.js";
import { sentVersion } from "./versions.js";

var KEPT = "tc-kept-writes";

export function isUndo(entry) { return /\/undo$/.test(entry.url); }

export function newWriteId() {
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
export function keptWrites() { return kept.slice(); }
export function storeKept(list) {
  kept = list.slice();
  try { if (list.length) localStorage.setItem(KEPT, JSON.stringify(list)); else localStorage.removeItem(KEPT); } catch (e) { /* memory only */ }
}
// window's storage event: another tab changed them. True when they were read again.
export function rereadKept(evt) {
  if (evt.key !== KEPT && evt.key !== null) return false;
  kept = readKept();
  return true;
}
export function keep(entry) { var list = keptWrites(); list.push(entry); storeKept(list); }
export function forget(id) { storeKept(keptWrites().filter(function (w) { return w.id !== id; })); }
export function change(id, how) { storeKept(keptWrites().map(function (w) { if (w.id === id) how(w); return w; })); }
export function markFailed(id) { change(id, function (w) { w.failed = true; }); }
// every write of this table the phone still holds: waiting to be sent, or given up (for its mark)
export function keptHere() { var table = thisTable(); return keptWrites().filter(function (w) { return w.table === table; }); }
// the ones still to be sent
export function waitingHere() { return keptHere().filter(function (w) { return !w.gaveUp; }); }
// A new tap is the player's answer to "tap again": the marks of writes given up go.
export function dropGivenUp() {
  var table = thisTable();
  storeKept(keptWrites().filter(function (w) { return !(w.table === table && w.gaveUp); }));
}

// This phone's own write, sent on version `from`, was applied: the table went from `from` to
// from + 1 by this phone's hand, so a kept undo tapped on `from` (to take back that write, or
// one kept after it) now goes on from + 1. Any other version is another phone's doing.
export function carryUndos(table, from, to) {
  if (from === null || to !== from + 1) return;
  storeKept(keptWrites().map(function (w) {
    if (w.table !== table || w.gaveUp || !isUndo(w)) return w;
    w.fields = w.fields.map(function (pair) {
      return pair[0] === "expected_version:int" && sentVersion(pair[1]) === from ? [pair[0], String(to)] : pair;
    });
    return w;
  }));
}

// The writes on their way: write_id -> true while this page waits for its answer. Writes leave
// one at a time: a tap made while another write of this table is on its way or kept waits its
// turn (htmx would drop it, or send it with a version about to be stale).
var inFlight = {};
export function writing() { return Object.keys(inFlight).length > 0; }
export function busy() { return writing() || waitingHere().length > 0; }
export function sending(id) { inFlight[id] = true; }
// The write's answer came (or none will): true if it was on its way.
export function answeredWrite(id) {
  if (!inFlight[id]) return false;
  delete inFlight[id];
  return true;
}
