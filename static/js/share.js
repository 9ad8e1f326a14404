// "Share result": the phone's share sheet where it has one; else copy the text. Over plain
// http on the LAN neither navigator.share nor navigator.clipboard exists (not a secure
// context), so the field is selected and copied the old way, and the status says what happened.

import { word } from "./words.js";

// click, on the page: a [data-share] button shares the field it names.
export function share(evt) {
  var button = evt.target.closest ? evt.target.closest("[data-share]") : null;
  if (!button) return;
  var field = document.getElementById(button.getAttribute("data-share"));
  var status = document.querySelector("[data-share-status]");
  if (!field) return;
  var text = field.value;
  function tell(words) { if (status) status.textContent = words; }
  if (navigator.share) {
    navigator.share({ text: text }).then(function () { tell(word("shared", "Shared.")); }).catch(function () {});
    return;
  }
  field.focus();
  field.select();
  var copied = false;
  try { copied = document.execCommand("copy"); } catch (e) { copied = false; }
  if (copied) { tell(word("copied", "Copied: paste it in your group's chat.")); return; }
  if (navigator.clipboard) {
    navigator.clipboard.writeText(text).then(function () { tell(word("copied", "Copied: paste it in your group's chat.")); },
      function () { tell(word("selected", "Selected: copy it with your phone's menu.")); });
    return;
  }
  tell(word("selected", "Selected: copy it with your phone's menu."));
}
