// Where things are after an update. The parts are morphed (morph.js): the control a player
// tapped is the same node after its answer and keeps the focus, and what is on the screen stays
// the same nodes. Where a part above them changed height, Chromium's scroll anchoring keeps what is
// on screen in place, but it picks its own anchor (a card's border, the section above) and loses
// it when a whole region is morphed, so the page holds its own, as a player does:
// - the control tapped stays under the finger (for its answer: a refusal's message beside a
//   field above it grows its card); after the whole region is morphed, what sat a third of the
//   way down the screen;
// - a refused answer: the focus goes to the field it names (refusal.js);
// - the control went with the update (a once-per-table form that becomes a summary, a card that
//   folds): its nearest ancestor with an id still drawn stays where it was, and its first button
//   on the screen takes the focus, never the page's body.
import { tappedLast } from "./controls.js";
import { focusable, focusOn, shown } from "./focus.js";
import { refusedField } from "./refusal.js";

var held = null;  // { el, top, up: its ancestors with an id, nearest first, and their tops; seen, seenTop }

function top(el) { return el.getBoundingClientRect().top; }

// Before an update: what has the focus (or was just tapped, for its answer), and, for an answer
// only (the places are kept for the tapping phone alone, keepFocus), where. A push measures nothing.
// `late`: the answer comes after a push that brought its version (update.js): it keeps the tapped
// control where the push left it, and where the control went, the push already gave the focus a place.
export function noteFocus(answering, late) {
  var active = document.activeElement;
  var el = answering ? tappedLast() : null;
  if (!el || !el.isConnected) el = active && active !== document.body ? active : null;
  var up = [];
  for (var a = el && el.parentElement; a; a = a.parentElement) if (a.id) up.push({ id: a.id, top: answering ? top(a) : null });
  held = { el: el, top: el && answering ? top(el) : null, up: up, answered: !!answering, late: !!late, seen: null,
           focused: active !== document.body ? active : null };
}

// htmx:oobBeforeSwap of the whole region (update.js): what sits a third of the way down the screen.
export function noteScreen() {
  var seen = document.elementFromPoint(window.innerWidth / 2, window.innerHeight / 3);
  if (held && seen) { held.seen = seen; held.seenTop = top(seen); }
}

function keepAt(el, was) {
  var moved = top(el) - was;
  if (Math.abs(moved) >= 1) window.scrollBy(0, moved);
}

// After an update, once everything else is drawn (update.js).
export function keepFocus(done) {
  var was = held;
  held = null;
  if (!was) return;
  var lost = !!was.el && (!was.el.isConnected || (was.answered && !shown(was.el)));
  if (was.answered && was.el && !lost) keepAt(was.el, was.top);
  // small parts morphed: Chromium's scroll anchoring keeps the screen; the whole region morphed
  // (a game's end, an undo of it) may take its anchor, so the page holds what it showed
  else if (!(was.answered && lost) && was.seen && was.seen.isConnected && shown(was.seen)) keepAt(was.seen, was.seenTop);
  if (done.refused && done.from) {
    var field = refusedField(done.from.closest("form") || done.from);
    if (field) { focusOn(field, true); return; }
  }
  if (lost && !was.late) { standIn(was); return; }
  // what had the focus and is still drawn keeps it: a section the page focused (the result, a stand-in)
  // holds it by a tabindex the server never draws, which the morph takes away (and must: idiomorph
  // leaves the focused element's content as it is), and the focus with it, to the page's body
  var had = was.focused, now = document.activeElement;
  // (where the focus stayed, as after most pushes, the page's style is not brought up to date to see that)
  if (had && (!now || now === document.body) && had.isConnected && shown(had)) focusOn(had);
}

// The control went: its nearest ancestor with an id still drawn takes the focus, and, for the
// answer to its own tap, its place (where it was, or at the screen's top if it began above).
function standIn(was) {
  for (var i = 0; i < was.up.length; i++) {
    var stand = document.getElementById(was.up[i].id);
    while (stand && !shown(stand)) stand = stand.parentElement;  // inside a closed <details>: the <details>
    if (!stand) continue;
    if (was.answered) keepAt(stand, Math.max(was.up[i].top, 0));
    focusOn(focusable(stand, stand));
    return;
  }
}
