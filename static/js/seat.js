// The seat: the live region is the same for every phone; this phone's seat is on the page's body
// (data-seat: a player's index, or "" when watching or not chosen yet). Mark "you", open your
// own cards, say who you are, and drop the seat chooser once a seat was chosen.
export function applySeat(root) {
  var body = document.body;
  if (!root || !body || !body.hasAttribute("data-seat")) return;
  var seat = body.getAttribute("data-seat");
  root.querySelectorAll("[data-you]").forEach(function (el) {
    el.classList.toggle("you", seat !== "" && el.getAttribute("data-you") === seat);
  });
  root.querySelectorAll("details[data-open-for]").forEach(function (d) {
    if (seat === "" ? d.hasAttribute("data-open-watching") : d.getAttribute("data-open-for") === seat) d.open = true;
  });
  // this player's own card first: a .seat-card moves to the front of its list
  if (seat !== "") {
    root.querySelectorAll('.seat-card[data-you="' + seat + '"]').forEach(function (card) {
      if (card.parentNode && card.parentNode.firstElementChild !== card) card.parentNode.insertBefore(card, card.parentNode.firstElementChild);
    });
  }
  var name = seat !== "" && root.querySelector('.players-line [data-you="' + seat + '"] .sb-name');
  root.querySelectorAll("[data-you-are]").forEach(function (el) { el.textContent = name ? name.textContent : "watching"; });
  if (body.hasAttribute("data-seat-chosen")) {
    root.querySelectorAll(".seat-chooser").forEach(function (c) { c.remove(); });
  }
}
