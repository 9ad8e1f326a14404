// Codex Naturalis helpers (no inline scripts: CSP). Delegated listeners, so they keep working
// whatever an update morphs in.
(function () {
  "use strict";

  // The grid editor's tap order, empty first, as the page says it (view.KINGDOM_CYCLE, data-cycle).
  function cycleOf(button) {
    var editor = button.closest("[data-cycle]");
    return editor ? editor.getAttribute("data-cycle").split(" ") : [""];
  }

  function gridCells(form) {
    var cells = [];
    form.querySelectorAll(".cx-cell").forEach(function (b) {
      var k = b.getAttribute("data-kingdom");
      if (k) cells.push({ x: parseInt(b.getAttribute("data-x"), 10), y: parseInt(b.getAttribute("data-y"), 10), kingdom: k });
    });
    return cells;
  }

  function paint(button, kingdom) {
    cycleOf(button).forEach(function (k) { if (k) button.classList.remove("cx-" + k); });
    button.classList.remove("cx-hit");
    button.textContent = "";
    if (kingdom) button.classList.add("cx-" + kingdom);
    button.setAttribute("data-kingdom", kingdom);
    // the words are the page's, in its language: the editor's data-place and data-words (templates/codex/_grid.html)
    var editor = button.closest("[data-place]");
    if (editor) {
      var words = JSON.parse(editor.getAttribute("data-words") || "{}");
      button.setAttribute("aria-label", editor.getAttribute("data-place").replace("{x}", button.getAttribute("data-x"))
        .replace("{y}", button.getAttribute("data-y")).replace("{kingdom}", words[kingdom] || kingdom));
    }
    var form = button.closest("form");
    var input = form && form.querySelector("#cx-cells");
    if (input) {
      input.value = JSON.stringify(gridCells(form));
      form.setAttribute("data-dirty", "true");  // a hidden input has no separate default value
    }
  }

  function applyFilters(details) {
    // every pressed value must be on the card: one per group, several for corners
    var active = [];
    details.querySelectorAll("[data-filter][aria-pressed=true]").forEach(function (b) {
      active.push([b.getAttribute("data-filter"), b.getAttribute("data-value")]);
    });
    details.querySelectorAll(".cx-pick").forEach(function (card) {
      card.hidden = !active.every(function (pair) {
        return (card.getAttribute("data-" + pair[0]) || "").split(" ").indexOf(pair[1]) >= 0;
      });
    });
  }

  // Taps not yet counted survive a live update from another phone: a painted grid is marked
  // data-dirty (paint, above), and static/js/morph.js leaves such a form as it is until it is saved.

  document.addEventListener("click", function (evt) {
    var cell = evt.target.closest(".cx-cell");
    if (cell) {
      var cycle = cycleOf(cell);
      var next = cycle[(cycle.indexOf(cell.getAttribute("data-kingdom") || "") + 1) % cycle.length];
      paint(cell, next);
      return;
    }
    var clear = evt.target.closest("[data-grid-clear]");
    if (clear) {
      clear.closest("form").querySelectorAll(".cx-cell").forEach(function (b) { paint(b, ""); });
      return;
    }
    var filter = evt.target.closest("[data-filter]");
    if (filter) {
      var group = filter.getAttribute("data-filter");
      var on = filter.getAttribute("aria-pressed") !== "true";
      if (!filter.hasAttribute("data-multi")) {
        filter.closest("details").querySelectorAll('[data-filter="' + group + '"]').forEach(function (b) { b.setAttribute("aria-pressed", "false"); });
      }
      filter.setAttribute("aria-pressed", on ? "true" : "false");
      applyFilters(filter.closest("details"));
      return;
    }
    var reset = evt.target.closest("[data-filter-reset]");
    if (reset) {
      var details = reset.closest("details");
      details.querySelectorAll("[data-filter]").forEach(function (b) { b.setAttribute("aria-pressed", "false"); });
      applyFilters(details);
      return;
    }
    var pick = evt.target.closest(".cx-pick");
    if (pick) {
      var input = document.getElementById("cx-card-id");
      if (input) {
        input.value = pick.getAttribute("data-card");
        document.querySelectorAll(".cx-pick.chosen").forEach(function (p) { p.classList.remove("chosen"); });
        pick.classList.add("chosen");
        input.scrollIntoView({ behavior: "smooth", block: "center" });
      }
    }
  });

  // An end card asks only the counts its objectives need: the common ones (data-common) and
  // the secret one chosen in its select. The other fields stay in the form, hidden and
  // disabled (so they post nothing), and the form keeps its shape for the morph (static/js/morph.js).
  function showNeeded(form) {
    var box = form.querySelector(".cx-fields");
    if (!box) return;
    var wanted = (box.getAttribute("data-common") || "").split(" ").filter(Boolean);
    var secret = form.querySelector("[name='data.secret:int']");
    var card = secret && cardOf(secret);
    if (card) wanted.push(card);
    // (written only where it changes: this runs after every update, over every sheet)
    box.querySelectorAll(".cx-if").forEach(function (el) {
      var needs = (el.getAttribute("data-needs") || "").split(" ");
      var on = needs.some(function (id) { return wanted.indexOf(id) >= 0; });
      if (el.hidden === on) el.hidden = !on;
      el.querySelectorAll("input").forEach(function (i) { if (i.disabled === on) i.disabled = !on; });
    });
  }
  function showAll() { document.querySelectorAll("form.cx-sheet").forEach(showNeeded); }
  document.addEventListener("DOMContentLoaded", showAll);
  // After each update (static/js/update.js sends tc:updated once it is drawn, typed values kept):
  // a secret objective typed here still shows the fields it asks for.
  document.addEventListener("tc:updated", showAll);

  // An objective card's number, as typed; its card said in words under its field (.cx-card-text),
  // so a wrong number shows at once (the secret objective, the common ones).
  function cardOf(input) {
    var card = input.value.trim().replace(/^#/, "");
    var label = input.closest("label"), said = label && label.nextElementSibling;
    if (said && said.classList.contains("cx-card-text")) {
      var known = document.querySelector("#cx-cards [data-card='" + card + "']");
      var cards = document.getElementById("cx-cards");  // its data-unknown: the page's words for a wrong number
      var text = known ? known.textContent : (card && cards ? cards.getAttribute("data-unknown").replace("{card}", card) : "");
      if (said.textContent !== text) said.textContent = text;
    }
    return card;
  }
  function secretTyped(evt) {
    var form = evt.target.closest && evt.target.closest("form");
    if (!form) return;
    if (form.classList.contains("cx-sheet") && evt.target.name === "data.secret:int") showNeeded(form);
    else if (evt.target.name === "data.cards[]:int") cardOf(evt.target);
  }
  document.addEventListener("input", secretTyped);
  document.addEventListener("change", secretTyped);
})();
