// Drawing what the server sends: parts of the live region (companion/web/parts.py), each morphed
// in out of band (morph.js says how). One path for all of them: a form's answer (htmx's own
// request; the forms swap nothing themselves, hx-swap="none"), a pushed event (its parts drawn by
// push.js as htmx draws them, with its events), a poll, and a kept write's answer (send.js,
// through htmx.swap). Each is an
// update: before it, whether to draw it (a push the page already shows is not); while it is
// drawn, which version it brings (morph.js keeps what shows a newer one); after it, what follows
// (the "tc:updated" event: marks, the seat, the invite, a game's own fields; then the place and
// the focus, place.js; then the result of a game it ended, result.js).
import { writing } from "./kept.js";
import { drawing, refusalComing, refusalDrawn } from "./morph.js";
import { keepFocus, noteFocus, noteScreen } from "./place.js";
import { showResultOnce } from "./result.js";
import { drawnWithRefusal, redrawn, shownVersion, showing, heard } from "./versions.js";

export var UPDATED = "tc:updated";
var current = null;  // the update being drawn: { version, partial, refused, pushed, from }

// Whether to draw an update bringing `version`; if so, it is the one being drawn until updated().
export function updating(version, how) {
  current = null;
  if (version === null) return true;  // not a table's answer (a page of its own): htmx as ever
  var shown = shownVersion();
  if (how.pushed && shown !== null && version <= shown) return false;  // nothing new
  current = { version: version, partial: !!how.partial, refused: !!how.refused, pushed: !!how.pushed, from: how.from || null,
              drawn: [] };
  // a push that beats the answer to this phone's own tap (on its way) is that tap's first answer: it
  // keeps the tapped control where it was, as the answer would have. The answer, late, brings nothing
  // new but the parts drawn with a refusal, drawn again clean: it keeps the control where the push
  // left it (the page may have moved for the push: the result of a game it ended came into view)
  var late = !how.pushed && !how.refused && shown !== null && version <= shown;
  noteFocus(how.from || (how.pushed && writing()), late);
  drawing(version, how.from);
  refusalComing(how.refused && how.from ? how.from.closest("form") : null);
  return true;
}
// htmx:oobBeforeSwap: before the whole region is morphed (a game's end), what is on the screen.
export function partComing(evt) {
  if (current && evt.detail.target && evt.detail.target.id === "table-live" && evt.detail.shouldSwap) noteScreen();
}
// htmx:oobAfterSwap: each part drawn, for what follows (the seat's marks); one drawn with a
// refusal's message is asked for again, clean.
export function partDrawn(evt) {
  var target = evt.detail.target;
  if (!current || !target) return;
  current.drawn.push(target);
  if (current.refused) drawnWithRefusal(target.id);
}
// After the update was drawn (or not: then nothing follows).
export function updated() {
  var done = current;
  current = null;
  drawing(null);
  if (!done) return;
  if (done.partial) heard(done.version);
  else showing(done.version);
  if (!done.partial && !done.refused && !done.pushed) redrawn();  // a whole answer brought them again
  refusalDrawn();  // the values refused stay, until a newer save of their row
  document.dispatchEvent(new CustomEvent(UPDATED, { detail: done }));
  keepFocus(done);  // once every listener (a game's script too) has drawn what it draws
  showResultOnce(true);  // and last, the result of a game this update ended, brought into view once
}

// Draw an answer the page got by itself (a kept write's, sent by send.js), as htmx draws its own.
export function drawAnswer(html, answer, refused) {
  var push = document.getElementById("table-push");
  if (!push || !window.htmx || !updating(answer.version, { partial: answer.partial, refused: refused })) return;
  try { window.htmx.swap(push, html, { swapStyle: "none" }); } finally { updated(); }
}
