// How the focus is given without moving the page, and what takes it in a part that stands in for
// a control that went (place.js).

var FOCUSABLE = "a[href], button:not([disabled]), input:not([disabled]):not([type=hidden]), select:not([disabled]), textarea:not([disabled]), summary, [tabindex]";

// drawn: not display:none, nor inside a closed <details> (whose content Chromium keeps laid out,
// with boxes, but hidden by content-visibility: checkVisibility() sees that, getClientRects() not)
export function shown(el) { return !!el && (el.checkVisibility ? el.checkVisibility() : el.getClientRects().length > 0); }

// What takes the focus in `stand`: itself if it can, else the button it marks as its main one
// (data-focus-first: the clock's "Done", never a name that would hand the turn over at a stray
// Enter), else its first button on the screen (a <details>' summary, "Change them"), else itself.
export function focusable(el, stand) {
  if (!el || el !== stand) return el;
  function onScreen(f) {
    var box = f.getBoundingClientRect();
    return shown(f) && box.bottom > 0 && box.top < window.innerHeight;
  }
  // the main button even below the screen's edge: a stray Enter then does what the part is for
  var main = Array.prototype.filter.call(el.querySelectorAll("[data-focus-first]:not([disabled])"), shown)[0];
  var first = Array.prototype.filter.call(el.querySelectorAll("summary, button:not([disabled]), a[href]"), onScreen)[0];
  return el.matches(FOCUSABLE) ? el : main || first || el;
}
export function focusOn(el, reveal) {
  if (!el) return;
  if (!el.matches(FOCUSABLE)) {
    el.setAttribute("tabindex", "-1");
  }
  el.focus({ preventScroll: true });
  if (reveal) bringIntoView(el);
}
// Bring it wholly onto the screen, by as little as it takes. The screen scrolls by whole pixels
// (Chromium rounds the offset), so scrollIntoView({block: "nearest"}) leaves an edge that falls at a
// fraction of a pixel (the page's text above is as tall as it is) up to a pixel off the screen: a
// refused field's top cut. What is still out comes in by the next whole pixel, outward.
function bringIntoView(el) {
  var box = el.getBoundingClientRect();
  if (box.top >= 0 && box.bottom <= window.innerHeight) return;
  el.scrollIntoView({ block: "nearest" });
  box = el.getBoundingClientRect();
  if (box.top < 0) window.scrollBy(0, Math.floor(box.top));
  else if (box.bottom > window.innerHeight) window.scrollBy(0, Math.ceil(box.bottom - window.innerHeight));
}
