// "Share result" (issue 42): the result image and its text to the phone's share sheet where the
// browser can share files (Web Share, which needs HTTPS); else the image is downloaded and the
// text copied, and the status says which. Over plain http on the LAN there is neither
// navigator.share nor navigator.clipboard (not a secure context): the field is selected and
// copied the old way. Without JavaScript the button is a link that downloads the image.

import { fetchImage, imageAddress, sharesFiles } from "./shareimage.js";
import { word } from "./words.js";

// Copy the field's text: the clipboard in a secure context, else select it and copy the old way,
// the page scrolled nowhere (the field may be off the screen); once copied, the focus is back on
// `button` (Share), else the text stays selected for the phone's menu.
// Resolves true when copied, false when the text is only selected.
function copyText(field, text, button) {
  function selectAndCopy() {
    field.focus({ preventScroll: true });
    field.select();
    try { field.setSelectionRange(0, field.value.length); } catch (e) { /* select() did it */ }  // iOS: select() alone selects nothing in a readonly field
    var done = false;
    try { done = document.execCommand("copy"); } catch (e) { done = false; }
    if (done && button) button.focus({ preventScroll: true });
    return done;
  }
  if (window.isSecureContext && navigator.clipboard && navigator.clipboard.writeText) {
    return navigator.clipboard.writeText(text).then(function () { return true; }, function () { return selectAndCopy(); });
  }
  return Promise.resolve(selectAndCopy());
}

function download(blob, name) {
  var url = URL.createObjectURL(blob);
  var link = document.createElement("a");
  link.href = url;
  link.download = name;
  link.hidden = true;
  document.body.appendChild(link);
  link.click();
  link.remove();
  setTimeout(function () { URL.revokeObjectURL(url); }, 60000);
}

// The server no longer gives the image: the host deleted the play while the page was open (404).
function gone(err) { return !!err && (err.status === 404 || err.status === 410); }
function goneWords() { return word("share_gone", "This play is no longer in the archive: reload the page."); }

// The image fetched before the tap, where the phone has a share sheet for files: a browser opens the
// sheet only while the tap is fresh (its "transient activation"; iOS Safari refuses after any wait), so
// at the tap the file must be at hand. Fetched as the page opens and after each update (a new version
// of the card is a new address): a 304 where the browser holds the picture the card shows.
var prepared = { address: null, blob: null };

export function prepareShare() {
  var button = document.querySelector("[data-share]");
  if (!button || !sharesFiles()) return;
  var address = imageAddress(button);
  if (prepared.address === address) return;
  prepared = { address: address, blob: null };
  fetchImage(button).then(function (blob) { if (prepared.address === address) prepared.blob = blob; }, function () {});
}

// A share at a time (the Web Share API refuses a second while the sheet is open): a tap while one
// runs does nothing.
var sharing = false;

// click, on the page: a [data-share] button (or link) shares the field it names, with its image.
export function share(evt) {
  var button = evt.target.closest ? evt.target.closest("[data-share]") : null;
  if (!button) return;
  var field = document.getElementById(button.getAttribute("data-share"));
  if (!field) return;
  evt.preventDefault();
  if (sharing) return;
  sharing = true;
  button.setAttribute("aria-busy", "true");
  var status = document.querySelector("[data-share-status]");
  var text = field.value, title = button.getAttribute("data-share-title") || document.title;
  var name = button.getAttribute("download") || "result.png";
  function tell(words) { if (status) status.textContent = words; }
  function done() { sharing = false; button.removeAttribute("aria-busy"); }

  if (sharesFiles()) {
    var ready = prepared.address === imageAddress(button) ? prepared.blob : null;
    if (!ready) tell(word("share_getting", "Getting the image…"));
    // at once with the image fetched before the tap; else once it comes (a browser may refuse by then:
    // the fallback below still saves it and copies the text)
    (ready ? Promise.resolve(ready) : fetchImage(button)).then(function (blob) {
      var file = new File([blob], name, { type: "image/png" });
      var doc = { files: [file], text: text, title: title };
      var withImage = navigator.canShare(doc);
      if (!withImage) doc = { text: text, title: title };
      return navigator.share(doc).then(function () {
        tell(withImage ? word("shared", "Shared.")
          : word("share_no_image_shared", "The image could not be fetched (no connection?): the result was shared as text."));
      }, function (err) {
        if (err && err.name === "AbortError") { tell(""); return; }  // the player closed the share sheet
        return fallBack(blob);
      });
    }, function (err) {
      if (gone(err)) { tell(goneWords()); return; }
      // no image (offline): the text alone still goes to the share sheet
      return navigator.share({ text: text, title: title }).then(function () {
        tell(word("share_no_image_shared", "The image could not be fetched (no connection?): the result was shared as text."));
      }, function (err) {
        if (err && err.name === "AbortError") { tell(""); return; }
        return copied(null);
      });
    }).then(done, done);
    return;
  }
  // no share sheet for files: the text is copied now, at the tap (a browser copies only then), then the image saved
  var copying = copyText(field, text, button);
  tell(word("share_getting", "Getting the image…"));
  fetchImage(button).then(function (blob) { download(blob, name); return blob; }, function (err) { return gone(err) ? err : null; })
    .then(function (blob) { return copying.then(function (copied) { if (gone(blob)) tell(goneWords()); else said(blob, copied); }); })
    .then(done, done);

  function fallBack(blob) {
    return copyText(field, text, button).then(function (done) { download(blob, name); said(blob, done); });
  }
  function copied(blob) {
    return copyText(field, text, button).then(function (done) { said(blob, done); });
  }
  function said(blob, done) {
    if (blob && done) tell(word("share_saved_copied", "Image downloaded and result copied: paste them in your group's chat."));
    else if (blob) tell(word("share_saved_selected", "Image downloaded; the text is selected: copy it with your phone's menu."));
    else if (done) tell(word("share_no_image_copied", "The image could not be fetched (no connection?); the result is copied as text."));
    else tell(word("share_no_image_selected", "The image could not be fetched (no connection?); the text is selected: copy it with your phone's menu."));
  }
}

// The result's text box as tall as its text, where the browser cannot size a field to its content
// (CSS field-sizing, app.css): at the page's start and after each update (the card pushed).
export function fitShareText() {
  if (window.CSS && CSS.supports && CSS.supports("field-sizing", "content")) return;
  Array.prototype.forEach.call(document.querySelectorAll(".share-field textarea"), function (field) {
    field.style.height = "auto";
    field.style.height = field.scrollHeight + field.offsetHeight - field.clientHeight + "px";
  });
}
