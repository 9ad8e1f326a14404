// "Share result" (issue 42): the result image and its text to the phone's share sheet where the
// browser can share files (Web Share, which needs HTTPS); else the image is downloaded and the
// text copied, and the status says which. Over plain http on the LAN there is neither
// navigator.share nor navigator.clipboard (not a secure context): the field is selected and
// copied the old way. Without JavaScript the button is a link that downloads the image.

import { word } from "./words.js";

var DARK = "(prefers-color-scheme: dark)";

// The card's result image (the table's page, a play's record).
function shownImage(button) {
  var card = button.closest(".card");
  return card && card.querySelector(".result-image img");
}

// The image in the theme the phone shows: the very address the card's <picture> loaded (the table's
// page names the table's version in it, so the browser's cache holds it, offline too), else the
// link's own, dark where the phone is (the <picture> picks it the same way).
function imageAddress(button) {
  var shown = shownImage(button);
  if (shown && shown.currentSrc) return shown.currentSrc;
  var href = button.getAttribute("href");
  var dark = window.matchMedia && window.matchMedia(DARK).matches;
  return dark ? href + (href.indexOf("?") >= 0 ? "&" : "?") + "theme=dark" : href;
}

// True where the browser can hand a PNG file to the share sheet (asked with an empty one, at the tap).
function sharesFiles() {
  if (!navigator.share || !navigator.canShare || typeof File !== "function") return false;
  try { return navigator.canShare({ files: [new File([""], "result.png", { type: "image/png" })] }); } catch (e) { return false; }
}

// Copy the field's text: the clipboard in a secure context, else select it and copy the old way,
// the page scrolled nowhere (the field may be off the screen); once copied, the focus is back on
// `button` (Share), else the text stays selected for the phone's menu.
// Resolves true when copied, false when the text is only selected.
function copyText(field, text, button) {
  function selectAndCopy() {
    field.focus({ preventScroll: true });
    field.select();
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

// The image the card shows, drawn again as a PNG (a same-origin image: the canvas may be read):
// the picture on the screen, when the network cannot give it (offline, and the browser's cache keeps
// the image under the cookies it was fetched with: a seat chosen since is another entry).
function redrawn(button) {
  var img = shownImage(button);
  if (!img || !img.complete || !img.naturalWidth) return Promise.reject(new Error("no image shown"));
  return new Promise(function (resolve, reject) {
    var canvas = document.createElement("canvas");
    canvas.width = img.naturalWidth;
    canvas.height = img.naturalHeight;
    canvas.getContext("2d").drawImage(img, 0, 0);
    canvas.toBlob(function (blob) { if (blob) resolve(blob); else reject(new Error("not drawn")); }, "image/png");
  });
}

// The image, the server asked first (a 304 where the browser holds it: the server still says
// whether the play is in the archive); with no network, the browser's cache (the page's own image,
// kept for good under the table's version); failing that, the picture the card shows. An answer
// the server refused rejects with its status (a play deleted since: 404), unlike the network.
function fetchImage(button) {
  var address = imageAddress(button);
  function blobOf(answer) {
    if (!answer.ok) throw { status: answer.status };
    return answer.blob();
  }
  return fetch(address, { credentials: "same-origin", cache: "no-cache" }).then(blobOf, function () {
    return fetch(address, { credentials: "same-origin", cache: "only-if-cached", mode: "same-origin" }).then(blobOf)
      .catch(function () { return redrawn(button); });
  });
}

// The server no longer gives the image: the host deleted the play while the page was open (404).
function gone(err) { return !!err && (err.status === 404 || err.status === 410); }
function goneWords() { return word("share_gone", "This play is no longer in the archive: reload the page."); }

// click, on the page: a [data-share] button (or link) shares the field it names, with its image.
export function share(evt) {
  var button = evt.target.closest ? evt.target.closest("[data-share]") : null;
  if (!button) return;
  var field = document.getElementById(button.getAttribute("data-share"));
  if (!field) return;
  evt.preventDefault();
  var status = document.querySelector("[data-share-status]");
  var text = field.value, title = button.getAttribute("data-share-title") || document.title;
  var name = button.getAttribute("download") || "result.png";
  function tell(words) { if (status) status.textContent = words; }

  if (sharesFiles()) {
    tell(word("share_getting", "Getting the image…"));
    fetchImage(button).then(function (blob) {
      var file = new File([blob], name, { type: "image/png" });
      var doc = { files: [file], text: text, title: title };
      if (!navigator.canShare(doc)) doc = { text: text, title: title };
      return navigator.share(doc).then(function () { tell(word("shared", "Shared.")); }, function (err) {
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
    });
    return;
  }
  // no share sheet for files: the text is copied now, at the tap (a browser copies only then), then the image saved
  var copying = copyText(field, text, button);
  tell(word("share_getting", "Getting the image…"));
  fetchImage(button).then(function (blob) { download(blob, name); return blob; }, function (err) { return gone(err) ? err : null; })
    .then(function (blob) { return copying.then(function (done) { if (gone(blob)) tell(goneWords()); else said(blob, done); }); });

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
