// Gutenberg: show "placed N of M" under each marker form while the numbers are typed. The words come
// from the page (data-placed, data-too-many on .gb-sum, in the phone's language), {placed} and {holds} filled here.
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
      var words = out.getAttribute(total > holds ? "data-too-many" : "data-placed") || "";
      out.textContent = words.replace("{placed}", String(total)).replace("{holds}", String(holds));
      out.classList.toggle("error", total > holds);
    }
  }
  document.addEventListener("input", function (event) {
    var counts = event.target.closest && event.target.closest(".gb-counts[data-holds]");
    if (counts) { update(counts); }
  });
})();
