// The live region's swaps: the one guard every new region passes (never an older table than
// this phone has seen, never while someone types), what it keeps of the old one, and drawing a
// region the page got by itself (pushed, or a kept write's answer) the way htmx draws its own.
import { tidyInvite } from "./invite.js";
import { oneAlert } from "./refusal.js";
import { remember, restore, typingInRegion } from "./typed.js";
import { latestVersion, versionIn } from "./versions.js";

// The event a new live region sends once what was typed is back in it (static/codex/codex.js
// shows a card's fields for the objective typed then): listen to it rather than to htmx's
// afterSwap, whose listeners run in the order the scripts were loaded.
const RESTORED = "tc:restored";

// htmx:beforeSwap
export function guardSwap(evt) {
  var target = evt.detail.target;
  if (!target || target.id !== "table-live") return;
  var cfg = evt.detail.requestConfig || {};
  var isPoll = (cfg.verb || "").toLowerCase() === "get";
  // A refused post (400) or one that met another phone's change (409) never wipes what was typed.
  var refused = !isPoll && evt.detail.xhr && evt.detail.xhr.status >= 400;
  // A poll sent before a tap can come back after the tap's answer: never swap in an older table.
  if (isPoll && evt.detail.xhr) {
    var drawn = versionIn(evt.detail.xhr.responseText);
    var known = latestVersion();
    if (drawn !== null && known !== null && drawn < known) {
      evt.detail.shouldSwap = false;
      return;
    }
  }
  // A live update never takes the field someone is typing in: wait until they leave it.
  if (isPoll && typingInRegion()) {
    evt.detail.shouldSwap = false;
    return;
  }
  remember(target, isPoll || refused);
}

// htmx:afterSwap
export function afterSwap(evt) {
  if (!evt.detail.target || evt.detail.target.id !== "table-live") return;
  restore();
  document.dispatchEvent(new CustomEvent(RESTORED));
  tidyInvite();
  oneAlert();
}

// Put a live region the page got by itself (pushed, or a kept write's answer) in place of the
// one shown, through the same htmx:beforeSwap and htmx:afterSwap events as htmx's own swaps,
// so that every listener keeps what it keeps (above; the games' editors, static/*/): a pushed
// region comes as a poll's answer would (verb "get"), a kept write's as its post's (its status).
export function swapRegion(html, verb, status) {
  var live = document.getElementById("table-live");
  var htmx = window.htmx;
  if (!live || !htmx || html.indexOf('id="table-live"') < 0) return;
  var info = { target: live, elt: live, requestConfig: { verb: verb }, shouldSwap: true, serverResponse: html,
               xhr: verb === "get" ? null : { status: status, responseText: html } };
  if (!htmx.trigger(live, "htmx:beforeSwap", info) || !info.shouldSwap) return;
  htmx.swap(live, html, { swapStyle: "outerHTML", swapDelay: 0, settleDelay: 0 }, { eventInfo: info });
}
