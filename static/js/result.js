// When the table's last change ends the game, every phone shows the result once, as it arrives
// (the game's [data-result] section): never again on this phone at a later push or reload of that
// finish; a new finish (the end undone, then played again) is shown once again. The
// same, once, for "Join the new table" when another phone played the game again (#rematch
// [data-joinable]): a phone scrolled down to its row would not see it come.
import { focusOn } from "./focus.js";
import { thisTable } from "./page.js";

var RESULT_SHOWN = "tc-result-shown", JOIN_SHOWN = "tc-join-shown";

// True the first time this phone meets `key` for this table, or this finish (remembered in localStorage).
function firstTime(key, table) {
  var shown;
  try { shown = JSON.parse(localStorage.getItem(key) || "[]"); } catch (e) { shown = []; }
  if (!Array.isArray(shown)) shown = [];
  if (shown.indexOf(table) >= 0) return false;
  try { localStorage.setItem(key, JSON.stringify(shown.concat([table]).slice(-50))); } catch (e) { /* once a page then */ }
  return true;
}
function showSection(section) {
  section.scrollIntoView({ block: "start" });
  focusOn(section);
}

// scroll: bring it into view and focus it (a new live region); a page that opens on a finished
// table (DOMContentLoaded, scroll false) begins with it: only remember that this phone saw it.
export function showResultOnce(scroll) {
  var live = document.getElementById("table-live"), table = thisTable();
  if (!live || !table || !live.hasAttribute("data-finished")) return;
  var join = document.querySelector("#rematch[data-joinable]");
  // each finish once: the table and when it finished (the region's data-finished)
  var resultFirst = firstTime(RESULT_SHOWN, table + "@" + live.getAttribute("data-finished"));  // seen now, whichever of the two is shown
  if (join && firstTime(JOIN_SHOWN, table) && scroll) return showSection(join);
  if (!resultFirst) return;
  var result = live.querySelector("[data-result]") || document.getElementById("log-play");
  if (scroll && result) showSection(result);
}
