// The banner: why writes are not saved, and how many are kept to be sent again. A bar fixed
// at the bottom of the screen (at the top when the tapped control is down there), so it never
// moves the page and never covers the control just tapped; the page's end gets its height
// as room below while it shows, so nothing is ever beneath it for good.
import { controlLast, findControl, tappedLast } from "./controls.js";
import { waitingHere } from "./kept.js";
import { counted, word } from "./words.js";

var trouble = null, troubleText = "";  // what the banner says: null, "offline" or "server" (and why)
export function troubled() { return trouble; }

function bannerWords() {
  var n = waitingHere().length;
  var taps = counted("taps_kept", n, "1 tap kept", "{num} taps kept");
  if (trouble === "offline") {
    var head = navigator.onLine === false ? word("no_connection", "No connection") : word("unreachable", "Can\u2019t reach the server");
    return n ? word("offline_kept", "{trouble}: {taps}, sent when it is back.", { trouble: head, taps: taps })
      : word("offline_stale", "{trouble}: the table shown may be out of date.", { trouble: head });
  }
  return n ? word("server_kept", "{trouble} {taps}, sent again by itself.", { trouble: troubleText, taps: taps }) : troubleText;
}
// Say `kind` of trouble ("offline", or "server" with its words), or nothing (null): the banner goes.
export function showBanner(kind, text) {
  var banner = document.getElementById("connection-banner");
  trouble = kind;
  troubleText = text || "";
  if (!banner) return;
  if (!kind) {
    banner.hidden = true;
    banner.textContent = "";
    document.body.classList.remove("banner-shown");
    return;
  }
  var appearing = banner.hidden;
  banner.textContent = bannerWords();
  banner.hidden = false;
  if (appearing) placeBanner(banner);
  else document.body.style.setProperty("--banner-room", banner.offsetHeight + "px");
}
// At the bottom, unless the control last tapped is where the bar would be: then at the top.
// It moves only as it appears and at a tap, never under a finger on its way to a button.
export function placeBanner(banner) {
  if (!banner || banner.hidden) return;
  banner.classList.remove("at-top");
  var height = banner.offsetHeight;
  var lastTapped = tappedLast();
  var tapped = lastTapped && lastTapped.isConnected ? lastTapped : (findControl(controlLast()) || {}).button;
  var at = tapped ? tapped.getBoundingClientRect() : null;
  if (at && at.bottom > window.innerHeight - height - 8 && at.top < window.innerHeight) banner.classList.add("at-top");
  document.body.style.setProperty("--banner-room", height + "px");
  document.body.classList.add("banner-shown");
}
export function refreshBanner() { if (trouble) showBanner(trouble, troubleText); }
// What a 5xx answer says, as one sentence for the banner.
export function serverWords(status, body) {
  var text = "";
  if (body) {
    try {
      var doc = new DOMParser().parseFromString(body, "text/html");
      var main = doc.querySelector("main p") || doc.body;
      text = (main ? main.textContent : body).replace(/\s+/g, " ").trim();
    } catch (e) { text = body.trim(); }
  }
  if (status === 507) text = text && text.length < 200 ? text : word("disk_full", "the server's disk is full: nothing was saved");
  else text = word("server_error", "The server could not save that (error {status}).", { status: status });
  return text.charAt(0).toUpperCase() + text.slice(1).replace(/\.?$/, ".");
}
