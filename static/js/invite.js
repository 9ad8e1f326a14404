// The invite (the QR code, outside the live region): open on the phone that started a calculator
// table, open while the table has no change yet, players still joining; it closes on every phone
// at the first change, and once a calculator table's result is in, it goes below the result.
import { tappedLast } from "./controls.js";
import { shownVersion } from "./versions.js";

// DOMContentLoaded: the phone that started a calculator table lands on #invite: show it the QR
// code to scan.
export function openInviteOnArrival() {
  var invite = location.hash === "#invite" && document.getElementById("invite");
  if (invite && invite.tagName === "DETAILS") invite.open = true;
}

// DOMContentLoaded, after openInviteOnArrival: whether the page opened with the invite open.
var inviteOpenAtStart = false;
export function noteInviteAtStart() {
  var invite = document.getElementById("invite");
  inviteOpenAtStart = !!(invite && invite.open);
}

// Whether the invite can close without moving what is under the finger: no control of the table holds
// the focus (this phone tapped nothing), the invite is below the screen, or the page is scrolled down by
// at least the height it gives back (the browser's scroll anchoring keeps the screen then). A short page
// scrolled less than that would move the control just tapped up under the finger: the invite stays
// open, and closes at a later update that finds it so.
function closesInPlace(invite) {
  // the control this phone tapped last (iOS Safari gives a tapped button no focus), or the focused one
  var live = document.getElementById("table-live");
  var held = [tappedLast(), document.activeElement].some(function (el) { return !!el && !!live && live.contains(el); });
  if (!held) return true;
  var box = invite.getBoundingClientRect(), summary = invite.querySelector("summary");
  var lost = box.height - (summary ? summary.getBoundingClientRect().height : 0);
  return box.top >= window.innerHeight || window.scrollY >= lost;
}

// tc:updated: after an update.
export function tidyInvite() {
  var invite = document.getElementById("invite"), live = document.getElementById("table-live");
  if (!invite || !live) return;
  if (inviteOpenAtStart && shownVersion() > 0 && closesInPlace(invite)) { invite.open = false; inviteOpenAtStart = false; }
  if (live.hasAttribute("data-finished") && invite.classList.contains("invite-first")) {
    invite.classList.remove("invite-first");
    live.parentNode.insertBefore(invite, live.nextSibling);
  }
}
