// Gutenberg: show "placed N of M" under each marker form while the numbers are typed.
(function () {
  "use strict";
  function update(counts) {
    var total = 0;
    counts.querySelectorAll("input[type=number]").forEach(function (input) {
      var n = parseInt(input.value, 10);
      if (!isNaN(n)) { total += n; }
    });
    var holds = parseInt(counts.getAttribute("data-holds"), 10);
    var out = counts.parentElement.querySelector(".gb-sum");
    if (out) {
      out.textContent = "Placed " + total + " of " + holds + (total > holds ? ": too many" : "");
      out.classList.toggle("error", total > holds);
    }
  }
  document.addEventListener("input", function (event) {
    var counts = event.target.closest && event.target.closest(".gb-counts[data-holds]");
    if (counts) { update(counts); }
  });
})();
