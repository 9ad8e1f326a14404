// The invite (the QR code, outside the live region): open on the phone that started a calculator
// table, open while the table has no change yet, players still joining; it closes on every phone
// at the first change, and once a calculator table's result is in, it goes below the result.
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

// tc:updated: after an update.
export function tidyInvite() {
  var invite = document.getElementById("invite"), live = document.getElementById("table-live");
  if (!invite || !live) return;
  if (inviteOpenAtStart && shownVersion() > 0) { invite.open = false; inviteOpenAtStart = false; }
  if (live.hasAttribute("data-finished") && invite.classList.contains("invite-first")) {
    invite.classList.remove("invite-first");
    live.parentNode.insertBefore(invite, live.nextSibling);
  }
}
