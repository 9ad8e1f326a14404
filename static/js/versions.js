// The table's version as this phone knows it: what the page shows, what a write's answer said,
// and what an answer carries. Every other part asks here, so that where the version comes from
// (today parsed out of the HTML an answer carries) can change in this one place.

// The version an element of the page shows (its data-version), or null.
export function dataVersion(id) {
  var el = document.getElementById(id);
  var v = el ? parseInt(el.getAttribute("data-version"), 10) : NaN;
  return isNaN(v) ? null : v;
}

// The newest version of the table this page has seen: the tools' data-version. A stepper's tap
// updates it out of band without redrawing the region (companion/web/steppers.py).
function knownVersion() { return dataVersion("table-tools"); }

// The newest version this phone knows of: the page's, or a later one a write sent by
// sendKept (send.js) was answered with before the next poll brought it to the page.
var answeredVersion = null;
export function latestVersion() {
  var known = knownVersion();
  if (answeredVersion === null) return known;
  return known === null ? answeredVersion : Math.max(known, answeredVersion);
}
export function heard(version) {
  if (version !== null) answeredVersion = answeredVersion === null ? version : Math.max(answeredVersion, version);
}

// The table's version an answer carries (the live region's data-version), or null.
export function versionIn(html) {
  var found = /id="table-live" data-version="(\d+)"/.exec(html || "");
  return found ? parseInt(found[1], 10) : null;
}
// The newest of the versions an answer carries (its live region's, a stepper's tools'), or null.
export function newestVersionIn(html) {
  var versions = ((html || "").match(/data-version="\d+"/g) || []).map(function (v) { return parseInt(v.slice(14), 10); });
  return versions.length ? Math.max.apply(null, versions) : null;
}
// A version as a form's field holds it (expected_version:int), or null.
export function sentVersion(value) { var v = parseInt(value, 10); return isNaN(v) ? null : v; }

// htmx:configRequest. Every form posts the newest version this page saw, not the one it was drawn
// with: after a stepper's tap the rest of the region waits for the next poll, and a second tap
// meanwhile is still based on what this phone has seen. Another phone's change still gets a 409.
export function postLatestVersion(evt) {
  var params = evt.detail.parameters;
  if (!params) return;
  var known = latestVersion();
  if (known !== null && params["expected_version:int"] !== undefined) params["expected_version:int"] = String(known);
}
