// The table's version as this phone knows it, as data, never read out of HTML: the page's
// <body data-version> as it was drawn, then each answer's X-Table-Version and each pushed event's
// id. `shown` is the version all of the page shows (an update brings every change up to its
// version); the newest version heard may be ahead of it: a stepper's own answer (X-Table-Partial)
// brings only its own parts. Forms post the newest version heard as their expected_version, and
// every request to the table names the version the page shows (X-Table-Has) and the parts it
// holds drawn with a refusal (X-Table-Redraw), so that the server answers with just what changed
// (companion/web/parts.py, companion/web/answers.py).
import { isWrite } from "./page.js";

var drawnAt = null, shown = null, newest = null, redraw = {};
var TABLE_PATH = /\/t\/[A-Za-z0-9_-]{1,64}\/(events|undo|live)$/;

function number(value) { var v = parseInt(value, 10); return isNaN(v) ? null : v; }

// DOMContentLoaded: the version the page was drawn at.
export function startVersions() {
  drawnAt = shown = document.body ? number(document.body.getAttribute("data-version")) : null;
}
// What a part shows when no update has drawn it since the page was (its nearest data-v, else this).
export function pageVersion() { return drawnAt; }
export function shownVersion() { return shown; }
export function latestVersion() {
  if (newest === null) return shown;
  return shown === null ? newest : Math.max(shown, newest);
}
// The page says both on its <body>, as data a test or a person can read: data-version, the
// version all of it shows; data-heard, the newest heard of.
function say(name, value) { if (document.body && value !== null) document.body.setAttribute(name, String(value)); }
export function heard(version) {
  if (version !== null) newest = newest === null ? version : Math.max(newest, version);
  say("data-heard", latestVersion());
}
// An update bringing every change up to `version` was drawn.
export function showing(version) {
  if (version !== null && (shown === null || version > shown)) shown = version;
  say("data-version", shown);
  heard(version);
}
// A version as a form's field holds it (expected_version:int), or null.
export function sentVersion(value) { return number(value); }
// What an answer's headers say: the version its parts show, and whether they are all its changes.
export function answerOf(header) {
  return { version: number(header("X-Table-Version")), partial: header("X-Table-Partial") === "1" };
}

// Parts drawn with a refusal's message: the next answer brings them again, clean.
export function drawnWithRefusal(id) { if (id) redraw[id] = true; }
export function redrawn() { redraw = {}; }

// The headers every request to the table carries (a kept write sent by send.js too).
export function versionHeaders() {
  var headers = {}, ids = Object.keys(redraw);
  if (shown !== null) headers["X-Table-Has"] = String(shown);
  if (ids.length) headers["X-Table-Redraw"] = ids.join(" ");
  return headers;
}

// htmx:configRequest: the version headers; and a write posts the newest version this phone has
// heard of, not the one the page was drawn with: after a stepper's tap, a second tap before the
// stream brings the rest is still based on what this phone has seen. Another phone's change
// still gets a 409.
export function nameVersions(evt) {
  var detail = evt.detail, path;
  try { path = new URL(detail.path, location.href).pathname; } catch (e) { return; }
  if (!TABLE_PATH.test(path)) return;
  Object.assign(detail.headers, versionHeaders());
  var latest = latestVersion();
  if (isWrite(detail.verb, detail.path) && detail.parameters && latest !== null) detail.parameters["expected_version:int"] = String(latest);
}
