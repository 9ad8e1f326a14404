// Sending the kept writes (kept.js), one at a time, and again until each is answered: at once
// when the server is heard again, else on a backoff timer. And what an answer means for the
// connection: the banner (banner.js) says when the server cannot be reached or could not save.
// A kept event met by 409 (another phone played while this one could not send) is sent again
// on the version the 409's answer carries, as every form is sent on the newest version this
// phone has seen; after MAX_REBASES such tries it is given up and its control says so. An
// undo is sent on the version it was tapped on, never a newer one the page drew since: that
// would take back another phone's change. Only this phone's own writes move it on (carryUndos).
// Any other 4xx (refused) is final: shown as ever, never sent again.
import { refreshBanner, serverWords, showBanner, troubled } from "./banner.js";
import { answeredWrite, carryUndos, change, forget, isUndo, keptHere, keptWrites, markFailed, sending, storeKept,
         waitingHere, writing } from "./kept.js";
import { paintMarks } from "./marks.js";
import { thisTable } from "./page.js";
import { drawAnswer } from "./update.js";
import { answerOf, heard, latestVersion, sentVersion, versionHeaders } from "./versions.js";

// WRITE_TIMEOUT_MS is htmx's timeout (base.html): a busy laptop answers a tap well within 6 s,
// and "sending…" (marks.js) says the tap is in hand meanwhile, so no second tap by mistake.
var RETRY_FIRST_MS = 1000, RETRY_MAX_MS = 30000, WRITE_TIMEOUT_MS = 6000, MAX_REBASES = 3;
var retryTimer = null, retryDelay = RETRY_FIRST_MS, offline = false;
export function isOffline() { return offline; }

// No answer at all: the server cannot be reached. (Not inside showBanner: refreshBanner says it
// again after answered() found the server there.)
export function unreachable() { offline = true; showBanner("offline"); }
export function failed(id, status, body) {
  markFailed(id);
  if (status === 0) unreachable();
  else showBanner("server", serverWords(status, body));
  paintMarks();
  scheduleRetry();
}
// The server answered (a poll, a write, even a refusal): once nothing is left to send, the
// banner has nothing more to say; else what is kept goes now.
// Coming back from unreachable, the kept writes go at once; after a 5xx the backoff times them.
export function answered() {
  var wasOffline = offline;
  offline = false;
  if (!waitingHere().length) { if (troubled()) showBanner(null); return; }
  if (wasOffline) { retryDelay = RETRY_FIRST_MS; sendKept(); }
}
function scheduleRetry() {
  clearTimeout(retryTimer);
  retryTimer = setTimeout(function () { retryTimer = null; sendKept(); }, retryDelay);
  retryDelay = Math.min(retryDelay * 2, RETRY_MAX_MS);
}
// window's online event: the phone has a network again.
export function backOnline() { retryDelay = RETRY_FIRST_MS; refreshBanner(); sendKept(); }
// DOMContentLoaded: after a reload, whatever is still kept never got an answer: mark it and send it again.
export function sendAfterReload() {
  if (!thisTable() || !keptHere().length) return;
  storeKept(keptWrites().map(function (w) { if (w.table === thisTable()) w.failed = true; return w; }));
  paintMarks();
  sendKept();
}

// Send the oldest kept write of this table, then the next, one at a time. An event goes on the
// newest version this phone knows (as every form does), an undo on the version it was tapped on
// (moved on only by carryUndos); its write_id is the one made at the tap.
export function sendKept() {
  if (writing()) return;
  var next = waitingHere()[0];
  if (!next) { retryDelay = RETRY_FIRST_MS; return; }
  sending(next.id);
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
  var headers = Object.assign({ "HX-Request": "true" }, versionHeaders());
  fetch(next.url, { method: "POST", body: body, credentials: "same-origin", headers: headers,
                    signal: controller ? controller.signal : undefined })
    .then(function (r) {
      return r.text().then(function (text) {
        return { status: r.status, text: text, said: answerOf(function (name) { return r.headers.get(name); }) };
      });
    })
    .catch(function () { return { status: 0, text: "" }; })
    .then(function (answer) {
      clearTimeout(timer);
      answeredWrite(next.id);
      if (answer.status === 0 || answer.status >= 500) { failed(next.id, answer.status, answer.text); return; }
      retryDelay = RETRY_FIRST_MS;
      if (answer.status < 400) {
        forget(next.id);
        drawAnswer(answer.text, answer.said, false);
        carryUndos(next.table, sentOn, answer.said.version);
      } else if (answer.status === 409 && rebase(next, answer)) {
        // sent again below, on the version the answer carried
      } else if (answer.status === 409) {
        change(next.id, function (w) { w.gaveUp = true; w.failed = true; });
        drawAnswer(answer.text, answer.said, true);  // "the table changed on another phone": here it is now
      } else {
        forget(next.id);
        drawAnswer(answer.text, answer.said, true);  // refused: as a tap's answer shows it
      }
      paintMarks();
      answered();
      sendKept();
    });
}
// A kept event met by 409: take the table's version from the answer, show the table as it is
// (without "tap again": this phone is doing it), and keep the write to be sent on that version.
function rebase(entry, answer) {
  var version = answer.said.version;
  if (version === null || (entry.rebased || 0) >= MAX_REBASES || !/\/events$/.test(entry.url)) return false;
  change(entry.id, function (w) { w.rebased = (w.rebased || 0) + 1; });
  heard(version);
  var holder = document.createElement("template");
  holder.innerHTML = answer.text;
  holder.content.querySelectorAll("#table-notice > .notice").forEach(function (n) { n.remove(); });
  drawAnswer(holder.innerHTML, answer.said, false);
  return true;
}
