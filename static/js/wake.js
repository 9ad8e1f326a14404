// --- Keep the screen awake while a table is open ---------------------------------------------
// The Wake Lock API where the browser offers it. Over plain http on the LAN the page is not a
// secure context and has none, so a muted, looping, inline video plays on a table page
// (static/wake/, whose README says how they are made): the way established wake-lock
// libraries keep a screen on. Chromium counts a muted video only when it is on screen and
// covers over a fifth of the view, so it fills the view behind the page, all but transparent;
// Firefox only when it has an audio track, so the files carry a silent one. Safari grants
// nothing to a muted or looping video: an iPhone over plain http keeps its own auto-lock.
// The body's data-awake says which keeps the screen on now: "lock" or "video" (a test reads it).
import { tablePage } from "./page.js";

var lock = null, video = null;
var FILES = [["../wake/wake.webm", "video/webm"], ["../wake/wake.mp4", "video/mp4"]];  // from this module's address

function playVideo() {
  if (!video) {
    video = document.createElement("video");
    video.className = "keep-awake";
    video.muted = true;
    ["muted", "playsinline", "webkit-playsinline", "loop", "disablepictureinpicture"].forEach(function (a) { video.setAttribute(a, ""); });
    video.setAttribute("aria-hidden", "true");
    video.setAttribute("tabindex", "-1");
    FILES.forEach(function (file) {
      var source = document.createElement("source");
      source.src = new URL(file[0], import.meta.url).href;
      source.type = file[1];
      video.appendChild(source);
    });
    document.body.appendChild(video);
  }
  document.body.setAttribute("data-awake", "video");
  if (video.paused) {
    var playing = video.play();
    if (playing && playing.catch) playing.catch(function () {});
  }
}
// Started as the page opens where the browser lets a muted video play by itself (Chrome,
// Safari), else on the first tap; and again whenever the page is shown after being hidden.
export function wake() {
  if (!tablePage() || document.visibilityState !== "visible") return;
  if ("wakeLock" in navigator) {
    if (lock && !lock.released) return;
    navigator.wakeLock.request("screen").then(function (l) {
      lock = l;
      document.body.setAttribute("data-awake", "lock");
      l.addEventListener("release", function () { document.body.removeAttribute("data-awake"); });
    }).catch(playVideo);
    return;
  }
  playVideo();
}
// click, in the capture phase: the first tap, or one after the lock was released.
export function wakeOnTap() { if (!lock || lock.released) wake(); }
