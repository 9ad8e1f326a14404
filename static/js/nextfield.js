// The phone keyboard's "next" key: Enter in a field marked enterkeyhint="next" (every number field a
// form asks for, templates/macros.html `number`) moves the focus to the form's next field on the
// screen, instead of sending the form half filled (a calculator row saved with zeros). In the form's
// last field, or one whose key says "done" or "send", Enter sends the form as it always did.
import { shown } from "./focus.js";

var SKIPPED = /^(hidden|submit|button|reset|image|file)$/;

function isField(el) {
  if (el.disabled || el.readOnly) return false;
  if (el.tagName === "INPUT") return !SKIPPED.test(el.type);
  return el.tagName === "SELECT" || el.tagName === "TEXTAREA";
}

// keydown, on the page.
export function nextOnEnter(evt) {
  var field = evt.target;
  if (evt.key !== "Enter" || evt.isComposing || evt.shiftKey || evt.ctrlKey || evt.altKey || evt.metaKey) return;
  if (!field || field.tagName !== "INPUT" || (field.getAttribute("enterkeyhint") || "").toLowerCase() !== "next") return;
  var form = field.form;
  if (!form) return;
  var fields = Array.prototype.filter.call(form.elements, function (el) { return el === field || (isField(el) && shown(el)); });
  var next = fields[fields.indexOf(field) + 1];
  if (!next) return;  // the last field: Enter sends the form
  evt.preventDefault();
  next.focus();
}
