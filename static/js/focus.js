// How the focus is given without moving the page, and what takes it in a part that stands in for
// a control that went (place.js).

var FOCUSABLE = "a[href], button:not([disabled]), input:not([disabled]):not([type=hidden]), select:not([disabled]), textarea:not([disabled]), summary, [tabindex]";

// drawn: not display:none, nor inside a closed <details> (whose content Chromium keeps laid out,
// with boxes, but hidden by content-visibility: checkVisibility() sees that, getClientRects() not)
export function shown(el) { return !!el && (el.checkVisibility ? el.checkVisibility() : el.getClientRects().length > 0); }

// What takes the focus in `stand`: itself if it can, else its first button on the screen (a
// <details>' summary, "Change them"), else itself.
export function focusable(el, stand) {
  if (!el || el !== stand) return el;
  var first = Array.prototype.filter.call(el.querySelectorAll("summary, button:not([disabled]), a[href]"), function (f) {
    var box = f.getBoundingClientRect();
    return shown(f) && box.bottom > 0 && box.top < window.innerHeight;
  })[0];
  return el.matches(FOCUSABLE) ? el : first || el;
}
export function focusOn(el, reveal) {
  if (!el) return;
  if (!el.matches(FOCUSABLE)) {
    el.setAttribute("tabindex", "-1");
  }
  el.focus({ preventScroll: true });
  var box = el.getBoundingClientRect();
  if (reveal && (box.top < 0 || box.bottom > window.innerHeight)) el.scrollIntoView({ block: "nearest" });
}
