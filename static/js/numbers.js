// A number field's value is selected as it takes the focus, so that the first digit typed replaces
// it: a field showing 0, tapped, had its caret before the 0, and "21" typed there was saved as 210
// (found playing issue 41). Where the phone places the caret after the focus (a tap's pointerup),
// the selection is made again then, once.
function isNumber(el) {
  return el instanceof HTMLInputElement && (el.inputMode === "numeric" || el.type === "number") && !el.readOnly;
}
function selectAll(field) {
  try { field.select(); } catch (e) { /* a type=number field on some browsers: nothing to select */ }
}
// focusin
export function selectNumber(evt) {
  var field = evt.target;
  if (!isNumber(field) || !field.value) return;
  selectAll(field);
  field.addEventListener("pointerup", function again(up) {
    field.removeEventListener("pointerup", again);
    if (document.activeElement === field) { up.preventDefault(); selectAll(field); }
  });
}
