// The mark on each control with a write this phone holds, in words, not only a colour:
// "sending…" a second after the tap, "not saved" once it failed, and why when given up.
// It takes no room: an outline on the button (outlines are drawn outside the layout) and a
// badge laid over the button's lower edge, so no button beside or below it moves.
import { findControl } from "./controls.js";
import { keptHere } from "./kept.js";
import { counted, word } from "./words.js";

var PENDING_MS = 1000;
var painted = false;  // some mark may be on the page (an update's morph may have taken it away since)

export function paintMarks() {
  var kept = keptHere();
  if (!kept.length && !painted) return;  // nothing to paint nor to take away: the page is not searched
  painted = false;
  document.querySelectorAll(".unsaved-mark").forEach(function (m) { m.remove(); });
  document.querySelectorAll("form.has-mark").forEach(function (f) { f.classList.remove("has-mark", "unsaved"); });
  document.querySelectorAll("[data-unsaved]").forEach(function (b) { b.removeAttribute("data-unsaved"); });
  var now = Date.now(), groups = {}, order = [], placing = [];
  kept.forEach(function (w) {
    if (!w.control) return;
    var key = JSON.stringify(w.control);
    if (!groups[key]) { groups[key] = { control: w.control, failed: 0, sending: 0, gaveUp: 0 }; order.push(key); }
    if (w.gaveUp) groups[key].gaveUp++;
    else if (w.failed) groups[key].failed++;
    else if (now - (w.at || now) >= PENDING_MS) groups[key].sending++;
  });
  order.forEach(function (key) {
    var g = groups[key], state, words;
    if (g.failed) { state = "failed"; words = g.failed > 1 ? counted("taps_not_saved", g.failed, "", "{num} taps not saved") : word("not_saved", "not saved"); }
    else if (g.sending) { state = "sending"; words = g.sending > 1 ? counted("taps_sending", g.sending, "", "{num} taps sending\u2026") : word("sending", "sending\u2026"); }
    else if (g.gaveUp) {
      state = "changed";
      words = g.gaveUp > 1 ? counted("taps_changed", g.gaveUp, "", "{num} taps not saved: the table changed, tap again")
        : word("changed", "not saved: the table changed, tap again");
    }
    else return;
    var found = findControl(g.control);
    if (!found) return;
    painted = true;
    var form = found.form, target = found.button || form;
    form.classList.add("has-mark");
    if (state !== "sending") form.classList.add("unsaved");
    target.setAttribute("data-unsaved", state);
    var mark = document.createElement("strong");
    mark.className = "unsaved-mark unsaved-" + state;
    mark.textContent = words;
    form.appendChild(mark);
    placing.push({ mark: mark, target: target, form: form });
  });
  // every mark measured, then every one placed: one layout for them all, not one for each
  placing.map(placeOf).forEach(function (p, i) { placing[i].mark.style.left = p.left; placing[i].mark.style.top = p.top; });
}
// Centred under the button, across its lower edge, and inside the screen (a mark is laid out of the
// flow, so it moves nothing the others are measured by).
function placeOf(p) {
  var box = p.form.getBoundingClientRect(), at = p.target.getBoundingClientRect();
  var width = p.mark.offsetWidth, screen = document.documentElement.clientWidth || window.innerWidth;
  var left = Math.max(4, Math.min(at.left + at.width / 2 - width / 2, screen - 4 - width));
  return { left: (left - box.left) + "px", top: (at.bottom - box.top - 12) + "px" };
}
// "sending…" once a tap has waited PENDING_MS, and again for the taps made meanwhile
var pendingTimer = null;
export function paintPendingSoon() {
  if (pendingTimer) return;
  pendingTimer = setTimeout(function () {
    pendingTimer = null;
    paintMarks();
    var now = Date.now();
    if (keptHere().some(function (w) { return !w.failed && now - (w.at || now) < PENDING_MS; })) paintPendingSoon();
  }, PENDING_MS + 20);
}
