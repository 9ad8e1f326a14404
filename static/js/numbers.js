// A number field's value is selected as it takes the focus, so that the first digit typed replaces
// it: a field showing 0, tapped, had its caret before the 0, and "21" typed there was saved as 210
// (found playing issue 41). Selected at once, just after, and, where a finger or a mouse focused it,
// once more as it lifts (where a tap's caret is placed), never later than the field's blur, and never
// once a key was pressed in it: a digit typed before the late select was selected and replaced by
// the next one ("21" became "1" on a busy machine, CI at 832d9d8).
var pressedAt = 0;
var PRESS_MS = 1000;

function isNumber(el) {
  return el instanceof HTMLInputElement && (el.inputMode === "numeric" || el.type === "number") && !el.readOnly;
}
function selectAll(field) {
  try { field.select(); } catch (e) { /* a type=number field on some browsers: nothing to select */ }
}
// pointerdown (capture): a press that may focus a field
export function pressed() { pressedAt = Date.now(); }
// focusin
export function selectNumber(evt) {
  var field = evt.target;
  if (!isNumber(field) || !field.value) return;
  var typing = false;
  function again() { if (!typing && document.activeElement === field) selectAll(field); }
  function keyed() { typing = true; }
  function off() {
    field.removeEventListener("mouseup", lifted);
    field.removeEventListener("keydown", keyed);
    field.removeEventListener("input", keyed);
    field.removeEventListener("blur", off);
  }
  function lifted(up) { if (!typing) up.preventDefault(); again(); field.removeEventListener("mouseup", lifted); }
  selectAll(field);
  field.addEventListener("keydown", keyed);
  field.addEventListener("input", keyed);
  field.addEventListener("blur", off);
  setTimeout(again, 0);
  if (Date.now() - pressedAt > PRESS_MS) return;  // the keyboard or a script: no press to lift
  field.addEventListener("mouseup", lifted);
}
