// When the table's last change ends the game, every phone shows the result once, as it arrives
// (the game's [data-result] section): never again on this phone at a later push or reload.
import { focusOn } from "./focus.js";
import { thisTable } from "./page.js";

var RESULT_SHOWN = "tc-result-shown";
// scroll: bring it into view and focus it (a new live region); a page that opens on a finished
// table (DOMContentLoaded, scroll false) begins with it: only remember that this phone saw it.
export function showResultOnce(scroll) {
  var live = document.getElementById("table-live"), table = thisTable();
  if (!live || !table || !live.hasAttribute("data-finished")) return;
  var shown;
  try { shown = JSON.parse(localStorage.getItem(RESULT_SHOWN) || "[]"); } catch (e) { shown = []; }
  if (!Array.isArray(shown)) shown = [];
  if (shown.indexOf(table) >= 0) return;
  try { localStorage.setItem(RESULT_SHOWN, JSON.stringify(shown.concat([table]).slice(-50))); } catch (e) { /* once a page then */ }
  var result = live.querySelector("[data-result]") || document.getElementById("log-play");
  if (!scroll || !result) return;
  result.scrollIntoView({ block: "start" });
  focusOn(result);
}
