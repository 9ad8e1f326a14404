// What the player typed or opened survives a new live region: values typed but not yet sent go
// back in their fields, and a <details> opened or closed by hand stays so.
import { applySeat } from "./seat.js";

function isEditing(el) {
  if (!el || !el.matches) return false;
  return el.matches("input:not([type=hidden]):not([type=submit]):not([type=button]), textarea, select");
}
// Someone is typing in a field of the live region (a new region waits until they leave it).
export function typingInRegion() {
  var live = document.getElementById("table-live");
  return isEditing(document.activeElement) && live && live.contains(document.activeElement);
}

// A field's key across a swap: its form's place on the page, its name, and which of the form's
// fields of that name it is (a row of research[] fields, Penance I/II/III checkboxes), so that
// a value typed in one field is never put back into another of the same name.
function keyOf(input) {
  var form = input.form;
  var scope = form ? (form.getAttribute("action") || "") + "|" + (form.querySelector("[name=type]") || {}).value : "";
  var index = form ? Array.prototype.indexOf.call(document.querySelectorAll("#table-live form"), form) : -1;
  var same = form ? Array.prototype.filter.call(form.elements, function (el) {
    return el.name === input.name && el.type !== "hidden";
  }) : [input];
  return scope + "|" + index + "|" + input.name + "|" + same.indexOf(input);
}

var pending = {};
var openState = {};

// What a new live region must keep of the old one: a <details> the player opened or closed
// stays so (by id), and values typed but not yet sent (keepTyped) go back in their fields.
export function remember(target, keepTyped) {
  openState = {};
  target.querySelectorAll("details[id]").forEach(function (d) { openState[d.id] = d.open; });
  pending = {};
  target.querySelectorAll("input, textarea, select").forEach(function (input) {
    if (input.type === "hidden" || input.type === "submit") return;
    var dirty = input.type === "checkbox" || input.type === "radio" ? input.checked !== input.defaultChecked : input.value !== input.defaultValue;
    if (dirty && keepTyped) pending[keyOf(input)] = input.type === "checkbox" || input.type === "radio" ? input.checked : input.value;
  });
}
export function restore() {
  var live = document.getElementById("table-live");
  if (!live) return;
  applySeat(live);  // first the seat's defaults, then what the player opened or closed by hand
  Object.keys(openState).forEach(function (id) {
    var d = document.getElementById(id);
    if (d && d.tagName === "DETAILS") d.open = openState[id];
  });
  openState = {};
  live.querySelectorAll("input, textarea, select").forEach(function (input) {
    if (input.type === "hidden" || input.type === "submit") return;
    var key = keyOf(input);
    if (!(key in pending)) return;
    if (input.type === "checkbox" || input.type === "radio") input.checked = pending[key];
    else input.value = pending[key];
  });
  pending = {};
}
