// The seat: the live region is the same for every phone; this phone's seat is on the page's body
// (data-seat: a player's index, or "" when watching or not chosen yet). Mark "you", say who you
// are, put your own card first and drop the seat chooser once a seat was chosen: at the start and
// after every update (a morphed part comes as the server drew it). Your own cards open once, as
// they first appear (the page's start, a part added by an update): a <details> a player opened or
// closed by hand stays so (morph.js).
import { word } from "./words.js";

function seatOf() {
  var body = document.body;
  return body && body.hasAttribute("data-seat") ? body.getAttribute("data-seat") : null;
}

// `root` and what is in it: the live region as the page starts, each part an update drew after.
function within(root, selector) {
  var found = Array.prototype.slice.call(root.querySelectorAll(selector));
  if (root.matches(selector)) found.unshift(root);
  return found;
}
export function markSeat(root) {
  var seat = seatOf();
  if (!root || !root.isConnected || seat === null) return;
  within(root, "[data-you]").forEach(function (el) {
    el.classList.toggle("you", seat !== "" && el.getAttribute("data-you") === seat);
  });
  // this player's own card first: a .seat-card moves to the front of its list
  if (seat !== "") {
    within(root, '.seat-card[data-you="' + seat + '"]').forEach(function (card) {
      if (card.parentNode && card.parentNode.firstElementChild !== card) card.parentNode.insertBefore(card, card.parentNode.firstElementChild);
    });
  }
  // "you are": the name is looked up in the whole page only where a part says it
  var sayers = within(root, "[data-you-are]");
  var name = sayers.length && seat !== "" && document.querySelector('.players-line [data-you="' + seat + '"] .sb-name');
  sayers.forEach(function (el) { el.textContent = name ? name.textContent : word("watching", "watching"); });
  if (document.body.hasAttribute("data-seat-chosen")) within(root, ".seat-chooser").forEach(function (c) { c.remove(); });
}

// The cards that open for this seat, in `root` and `root` itself (data-open-for; data-open-watching
// for a phone that only watches).
export function openOwn(root) {
  var seat = seatOf();
  if (!root || seat === null || !root.querySelectorAll) return;
  var cards = Array.prototype.slice.call(root.querySelectorAll("details[data-open-for]"));
  if (root.matches && root.matches("details[data-open-for]")) cards.push(root);
  cards.forEach(function (d) {
    if (seat === "" ? d.hasAttribute("data-open-watching") : d.getAttribute("data-open-for") === seat) d.open = true;
  });
}
