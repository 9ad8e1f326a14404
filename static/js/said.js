// A pushed change, said to a screen reader in one short sentence: the history's newest line
// ("Anna: +1 fame"), in the page's polite status (#table-said, outside the live region). Nothing
// in the region itself is a live region, so a morphed part is never read out whole.
export function sayChange(evt) {
  if (!evt.detail.pushed) return;
  var said = document.getElementById("table-said");
  var line = document.querySelector("#history-list > li:not(.muted)");
  if (said && line) said.textContent = line.textContent.replace(/\s+/g, " ").trim();
}
