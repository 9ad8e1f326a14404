// A refusal drawn by an update: said once to a screen reader, and the field it names marked,
// described by the message beside it, for the focus to go to (place.js); a stepper's button keeps it.

import { tappedLast } from "./controls.js";

function headError() { return document.querySelector("#table-notice .error[data-field]"); }

// A refusal is drawn in the table's head (#table-notice) and, when it names a field on the page,
// beside that field too: only the one beside the field is an alert, so a screen reader says it
// once, where the focus goes (refusedField). The head's copy stays, read in its place, for a
// sighted player at the top.
export function oneAlert() {
  var head = document.querySelector("#table-notice .error[role=alert][data-field]");
  if (!head) return;
  var beside = Array.prototype.some.call(document.querySelectorAll("#table-live .error[role=alert][data-field]"), function (e) {
    return e !== head && e.getAttribute("data-field") === head.getAttribute("data-field");
  });
  if (beside) head.removeAttribute("role");
}

// The field a refusal names (the head's message says which: data-field, as the API's `field`),
// in the form just sent or its card; marked invalid and described by the message beside it.
export function refusedField(form) {
  var said = headError();
  if (!said || !form || !form.isConnected) return null;
  var path = said.getAttribute("data-field");
  var card = form.closest(".card") || form.parentElement;
  if (carriedByButton(form, path, card)) return null;
  var field = fieldNamed(form, path) || fieldNamed(card, path);
  if (!field) return null;
  var holder = field.closest(".card") || card;
  var beside = Array.prototype.filter.call(holder.querySelectorAll(".error[data-field]"), function (e) {
    return e.getAttribute("data-field") === path;
  })[0] || said;
  if (!beside.id) beside.id = "refusal-" + path.replace(/[^A-Za-z0-9_-]/g, "-");
  field.setAttribute("aria-invalid", "true");
  field.setAttribute("aria-describedby", ((field.getAttribute("aria-describedby") || "") + " " + beside.id).trim());
  return field;
}
// A stepper's − and + carry the value refused (data.delta:json): the refusal is about the button
// tapped, which keeps the focus (no keyboard opens) and is described by the message beside it; a
// field of the same name in the card (Gutenberg's "Fame gained") is another form's.
function carriedByButton(form, path, card) {
  // the button tapped, as taps.js noted it: Safari and Firefox on macOS do not focus a tapped button
  var tapped = tappedLast();
  if (!tapped || tapped.tagName !== "BUTTON" || !form.contains(tapped)) tapped = document.activeElement;
  if (!tapped || tapped.tagName !== "BUTTON" || !form.contains(tapped) || !tapped.name || tapped.name.replace(/:[a-z]+$/, "") !== path) return false;
  var beside = Array.prototype.filter.call(card.querySelectorAll(".error[data-field]"), function (e) {
    return e.getAttribute("data-field") === path && !e.closest("#table-notice");
  })[0];
  if (beside) {
    if (!beside.id) beside.id = "refusal-" + path.replace(/[^A-Za-z0-9_-]/g, "-");
    tapped.setAttribute("aria-describedby", beside.id);
  }
  return true;
}
// A form's field for an API path: data.fame -> data.fame:int; data.research[2] -> the third of
// data.research[]; data.specialties -> the first data.specialties.*
function fieldNamed(scope, path) {
  if (!scope) return null;
  var fields = Array.prototype.filter.call(scope.querySelectorAll("input, select, textarea"), function (f) {
    return f.type !== "hidden" && f.name && !f.disabled;
  });
  function base(f) { return f.name.replace(/:[a-z]+$/, ""); }
  var exact = fields.filter(function (f) { return base(f) === path; });
  if (exact.length) return exact[0];
  var item = /^(.*)\[(\d+)\]$/.exec(path);
  var list = item ? fields.filter(function (f) { return base(f) === item[1] + "[]"; }) : [];
  if (list.length) return list[Math.min(parseInt(item[2], 10), list.length - 1)];
  return fields.filter(function (f) { var b = base(f); return b.indexOf(path + ".") === 0 || b.indexOf(path + "[") === 0; })[0] || null;
}
