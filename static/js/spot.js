// Where something was on the screen, and the same thing found again in a new live region
// (issue 27). An element is found again by its nearest id, its form there and its kind (tag and
// name); what went with the answer is stood in for by the nearest of its ancestors still drawn.

function kindOf(el) {
  return el.tagName.toLowerCase() + (el.name ? '[name="' + CSS.escape(el.name) + '"]' : "");
}
export function spot(el) {
  var holder = el && (el.id ? el : el.parentElement && el.parentElement.closest("[id]"));
  if (!holder) return null;
  var form = el.closest("form");
  var formAt = form && form !== holder && holder.contains(form) ? Array.prototype.indexOf.call(holder.querySelectorAll("form"), form) : -1;
  var scope = formAt >= 0 ? form : holder;
  var nth = el === scope ? -1 : Array.prototype.indexOf.call(scope.querySelectorAll(kindOf(el)), el);
  // its ancestors with an id, nearest first, and where each was: where the control goes with the
  // answer (a once-per-table form that becomes a summary), the nearest one left takes its place
  var up = [];
  for (var a = holder; a; a = a.parentElement && a.parentElement.closest("[id]")) up.push({ id: a.id, top: a.getBoundingClientRect().top });
  return { holder: holder.id, formAt: formAt, kind: kindOf(el), nth: nth, top: el.getBoundingClientRect().top, up: up };
}
// drawn: not display:none, nor inside a closed <details> (whose content Chromium keeps laid out,
// with boxes, but hidden by content-visibility: checkVisibility() sees that, getClientRects() not)
export function shown(el) { return !!el && (el.checkVisibility ? el.checkVisibility() : el.getClientRects().length > 0); }
// The element again after the swap, or (it went with the answer, or is hidden now) the nearest of
// its ancestors with an id still on the page, drawn: then s.top becomes that one's top before.
export function found(s) {
  if (s && s.stand && s.stand.isConnected) return s.stand;  // found so before (its top is kept since)
  var holder = s && document.getElementById(s.holder);
  if (holder) {
    var scope = (s.formAt >= 0 && holder.querySelectorAll("form")[s.formAt]) || holder;
    var el = (s.nth >= 0 && scope.querySelectorAll(s.kind)[s.nth]) || scope;
    if (shown(el)) return el;
  }
  for (var i = 0; s && i < s.up.length; i++) {
    var was = document.getElementById(s.up[i].id);
    while (was && !shown(was)) was = was.parentElement;  // inside a closed <details>: the <details>
    // where that one was, or at the screen's top if it began above (the player saw its end)
    if (was) { s.top = Math.max(s.up[i].top, 0); s.stand = was; return was; }
  }
  return null;
}
export function inside(outer, el) { return !!(el && outer && (outer === el || outer.contains(el))); }
