// --- A form's answer never moves the page (issue 27) ------------------------------------------
// A swap puts a new tree in place of the old. Chromium's scroll anchoring held on to a node of
// the old region while htmx put the new one before it, and the page jumped by the region's
// height (a Gutenberg Save: 1,346 px); app.css turns it off on table pages. Instead, what the
// player had in hand is found again after the swap and kept where it was on the screen: the
// control just tapped (for its answer), or what sits a third of the way down the screen (a
// pushed version). Focus stays on that control, or goes to the field a refusal names.
import { tappedLast } from "./controls.js";
import { focusable, focusOn } from "./focus.js";
import { refusedField } from "./refusal.js";
import { showResultOnce } from "./result.js";
import { found, inside, spot } from "./spot.js";

var place = null;

// htmx:beforeSwap, after swap.js has said whether it swaps: note what the player has in hand.
export function notePlace(evt) {
  place = null;
  var target = evt.detail.target, live = document.getElementById("table-live");
  if (!evt.detail.shouldSwap || !inside(live, target)) return;
  var xhr = evt.detail.xhr, post = ((evt.detail.requestConfig || {}).verb || "").toLowerCase() === "post";
  var lastTapped = tappedLast();
  var tapped = post && lastTapped && inside(target, lastTapped) ? lastTapped : null;
  var active = document.activeElement !== document.body && inside(target, document.activeElement) ? document.activeElement : null;
  var seen = tapped || document.elementFromPoint(window.innerWidth / 2, window.innerHeight / 3);
  place = { anchor: spot(seen), focus: spot(tapped || active), refused: post && !!xhr && xhr.status >= 400,
            finishing: target === live && !live.hasAttribute("data-finished") };
}
function keepPlace() {
  var el = place && found(place.anchor);
  if (!el) return;
  var moved = el.getBoundingClientRect().top - place.anchor.top;
  if (Math.abs(moved) >= 1) window.scrollBy(0, moved);
}
// htmx:afterSwap, after swap.js has put back what was typed and tidied the invite.
export function keepPlaceAfterSwap() {
  if (!place) return;
  keepPlace();
  var field = place.refused ? refusedField(place.focus) : null;
  if (field) focusOn(field, true);
  else if (place.focus) focusOn(focusable(found(place.focus), place.focus.stand));
  if (place.finishing) showResultOnce(true);
  var el = found(place.anchor);  // from here on, where it is now (a refused field or the result may have been shown)
  if (el) place.anchor.top = el.getBoundingClientRect().top;
}
// htmx:afterSettle: htmx settles the new elements' classes after the swap: keep the place once
// more, then forget it.
export function keepPlaceAfterSettle() { keepPlace(); place = null; }
