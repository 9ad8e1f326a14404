// Which control a write came from, found again after the region was drawn anew (or the page
// reloaded): the form's id (a stepper's), else its address, event type and place among the
// forms like it; and the button tapped in it. And the control of the latest tap: the answer
// keeps it where it was (place.js), the banner keeps clear of it (banner.js).

var lastTapped = null, lastControl = null;
// A tap on a table's form (taps.js): the element tapped and its control.
export function noteTap(element, control) { lastTapped = element; lastControl = control; }
export function tappedLast() { return lastTapped; }
export function controlLast() { return lastControl; }

function formKey(form) {
  if (form.id) return "#" + form.id;
  var action = form.getAttribute("action") || "";
  var type = (form.querySelector("[name=type]") || {}).value || "";
  var like = Array.prototype.filter.call(document.querySelectorAll("form"), function (f) {
    return (f.getAttribute("action") || "") === action && ((f.querySelector("[name=type]") || {}).value || "") === type;
  });
  return action + "|" + type + "|" + like.indexOf(form);
}
export function controlOf(form, button) {
  if (!form) return null;
  return { form: formKey(form), button: button && button.name ? [button.name, button.value] : null };
}
export function findControl(control) {
  if (!control) return null;
  var form = null;
  if (control.form.charAt(0) === "#") form = document.getElementById(control.form.slice(1));
  else form = Array.prototype.filter.call(document.querySelectorAll("form"), function (f) { return formKey(f) === control.form; })[0];
  if (!form) return null;
  var button = control.button && Array.prototype.filter.call(form.querySelectorAll("button"), function (b) {
    return b.name === control.button[0] && b.value === control.button[1];
  })[0];
  // a form's only submit button stands for it (a button with no name: Undo, Rename)
  return { form: form, button: button || form.querySelector("button:not([type=button])") || null };
}
