// Where the focus is after an update. The parts are morphed (morph.js): the control a player
// tapped is the same node after its answer, and keeps the focus and its place on the screen
// (with nothing turned off, Chromium's scroll anchoring keeps what is on screen where it is when
// something above it changes height). Two cases need a hand:
// - a refused answer: the focus goes to the field it names (refusal.js);
// - the control went with the update (a once-per-table form that becomes a summary, a card that
//   folds): the focus goes to the nearest of its ancestors with an id still drawn (its first
//   button on the screen), never to the page's body.
import { tappedLast } from "./controls.js";
import { focusable, focusOn, shown } from "./focus.js";
import { refusedField } from "./refusal.js";

var held = null;  // { el, up: ids of its ancestors, nearest first }

// Before an update: what has the focus (or was just tapped, for its answer).
export function noteFocus(answering) {
  var active = document.activeElement;
  var el = active && active !== document.body ? active : answering ? tappedLast() : null;
  var up = [];
  for (var a = el && el.parentElement; a; a = a.parentElement) if (a.id) up.push(a.id);
  held = el ? { el: el, up: up } : null;
}

// tc:updated
export function keepFocus(evt) {
  var done = evt.detail, was = held;
  held = null;
  if (done.refused && done.from) {
    var field = refusedField(done.from.closest ? done.from.closest("form") || done.from : done.from);
    if (field) { focusOn(field, true); return; }
  }
  if (!was || (was.el.isConnected && shown(was.el))) return;
  for (var i = 0; i < was.up.length; i++) {
    var stand = document.getElementById(was.up[i]);
    while (stand && !shown(stand)) stand = stand.parentElement;  // inside a closed <details>: the <details>
    if (stand) { focusOn(focusable(stand, stand)); return; }
  }
}
