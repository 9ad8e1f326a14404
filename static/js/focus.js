// What takes the focus after a new live region, and how it is given without moving the page.
import { shown } from "./spot.js";

var FOCUSABLE = "a[href], button:not([disabled]), input:not([disabled]):not([type=hidden]), select:not([disabled]), textarea:not([disabled]), summary, [tabindex]";

// What takes the focus: the control found again, or in what stands in its place (`stand`, found's
// fallback), its first button on the screen (a <details>' summary, "Change them"), else itself.
// Never a field: a pushed region waits while one has the focus (typingInRegion).
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
