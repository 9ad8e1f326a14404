// Share's image (issue 42, static/js/share.js): the address of the picture the result card shows,
// whether the phone's share sheet takes files, and the image itself, the server asked first, then
// the browser's cache, then the picture on the screen drawn again.

var DARK = "(prefers-color-scheme: dark)";

// The card's result image (the table's page, a play's record).
function shownImage(button) {
  var card = button.closest(".card");
  return card && card.querySelector(".result-image img");
}

// The image in the theme the phone shows: the very address the card's <picture> loaded (the table's
// page names the table's version in it, so the browser's cache holds it, offline too), else the
// link's own, dark where the phone is (the <picture> picks it the same way).
// Always a whole address (currentSrc is one, an href is not, and currentSrc is empty until the image's
// data came): the image prepared before the tap is found again by it.
export function imageAddress(button) {
  var shown = shownImage(button);
  if (shown && shown.currentSrc) return shown.currentSrc;
  var href = button.getAttribute("href");
  var dark = window.matchMedia && window.matchMedia(DARK).matches;
  return new URL(dark ? href + (href.indexOf("?") >= 0 ? "&" : "?") + "theme=dark" : href, location.href).href;
}

// True where the browser can hand a PNG file to the share sheet (asked with an empty one, at the tap).
export function sharesFiles() {
  if (!navigator.share || !navigator.canShare || typeof File !== "function") return false;
  try { return navigator.canShare({ files: [new File([""], "result.png", { type: "image/png" })] }); } catch (e) { return false; }
}

// The image the card shows, drawn again as a PNG (a same-origin image: the canvas may be read):
// the picture on the screen, when the network cannot give it (offline, and the browser's cache keeps
// the image under the cookies it was fetched with: a seat chosen since is another entry).
function pictureShown(button) {
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
var FETCH_MS = 8000;  // a server that holds the request and never answers: given up, as no network

// The request given up after `ms` without an answer's head (its body, once the head came, is not hurried).
function timed(options, ms) {
  if (typeof AbortController !== "function") return options;
  var stop = new AbortController();
  options.timer = setTimeout(function () { stop.abort(); }, ms || FETCH_MS);
  options.signal = stop.signal;
  return options;
}

export function fetchImage(button) {
  var address = imageAddress(button);
  var asked = timed({ credentials: "same-origin", cache: "no-cache" });
  function blobOf(answer) {
    clearTimeout(asked.timer);
    if (!answer.ok) throw { status: answer.status };
    return answer.blob();
  }
  return fetch(address, asked).then(blobOf, function () {
    // the browser's own copy answers at once or not at all
    return fetch(address, timed({ credentials: "same-origin", cache: "only-if-cached", mode: "same-origin" }, 2000)).then(blobOf)
      .catch(function () { return pictureShown(button); });
  });
}
