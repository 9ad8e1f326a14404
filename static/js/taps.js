// Each write a tap makes to a table is kept (kept.js) from the moment it leaves: htmx sends it,
// or, while another write of this table is on its way or kept, it waits its turn and send.js
// sends it. Its answer, or its lack of one, says whether the server is there.
import { placeBanner, refreshBanner, troubled } from "./banner.js";
import { controlOf, controlLast, noteTap } from "./controls.js";
import { answeredWrite, busy, carryUndos, dropGivenUp, forget, keep, markFailed, newWriteId, sending } from "./kept.js";
import { paintMarks, paintPendingSoon } from "./marks.js";
import { isWrite, tableOf } from "./page.js";
import { answered, failed, isOffline, sendKept, unreachable } from "./send.js";
import { answerOf, latestVersion, sentVersion } from "./versions.js";

// htmx:configRequest: a table write gets its write_id here, made at the moment of the tap.
export function giveWriteId(evt) {
  var params = evt.detail.parameters;
  if (!params) return;
  if (isWrite(evt.detail.verb, evt.detail.path) && !params.write_id) params.write_id = newWriteId();
}

// submit, in the capture phase: a tap on a table's form. Note the control (the banner keeps clear
// of it). While another write of this table is on its way or kept, keep this one too, and send it in turn.
export function tapped(evt) {
  var form = evt.target;
  var action = form && form.getAttribute ? form.getAttribute("hx-post") : null;
  if (!action || !tableOf(action)) return;
  var submitter = evt.submitter || null;
  noteTap(submitter || form, controlOf(form, submitter));
  dropGivenUp();
  placeBanner(document.getElementById("connection-banner"));
  if (!busy()) { paintMarks(); return; }
  evt.preventDefault();
  evt.stopPropagation();
  var data = new FormData(form);
  if (submitter && submitter.name) data.append(submitter.name, submitter.value);
  var fields = [];
  data.forEach(function (value, name) { if (typeof value === "string" && name !== "expected_version:int") fields.push([name, value]); });
  var latest = latestVersion();  // the version it was tapped on (an undo is sent on it: send.js)
  if (latest !== null) fields.push(["expected_version:int", String(latest)]);
  var id = newWriteId();
  fields.push(["write_id", id]);
  keep({ id: id, table: tableOf(action), url: new URL(action, location.href).pathname, fields: fields,
         control: controlLast(), at: Date.now(), failed: false });
  if (isOffline() || troubled()) markFailed(id);
  paintMarks();
  refreshBanner();
  paintPendingSoon();
  sendKept();
}

// htmx:beforeRequest: htmx sends the others: kept from the moment they leave, forgotten once answered.
export function keepSent(evt) {
  var cfg = evt.detail.requestConfig || {};
  if (!isWrite(cfg.verb, cfg.path) || !cfg.formData) return;
  var id = cfg.formData.get("write_id");
  if (!id) return;
  var fields = [];
  cfg.formData.forEach(function (value, name) { if (typeof value === "string") fields.push([name, value]); });
  var trigger = cfg.triggeringEvent;
  keep({ id: id, table: tableOf(cfg.path), url: new URL(cfg.path, location.href).pathname, fields: fields,
         control: controlOf(cfg.elt && cfg.elt.closest ? cfg.elt.closest("form") : null, trigger && trigger.submitter),
         at: Date.now(), failed: false });
  sending(id);
  paintPendingSoon();
}

// htmx:afterRequest: a poll says whether the server is there; a write's answer ends its keeping.
export function requestAnswered(evt) {
  var cfg = evt.detail.requestConfig || {};
  var xhr = evt.detail.xhr;
  var status = xhr ? xhr.status : 0;
  if ((cfg.verb || "").toLowerCase() === "get") {
    if (status === 0) unreachable();
    else if (status < 500) answered();
    return;
  }
  var id = isWrite(cfg.verb, cfg.path) && cfg.formData ? cfg.formData.get("write_id") : null;
  if (!id || !answeredWrite(id)) return;
  if (status === 0 || status >= 500) { failed(id, status, xhr ? xhr.responseText : ""); return; }
  forget(id);
  if (status < 300) {
    var now = answerOf(function (name) { return xhr.getResponseHeader(name); }).version;
    carryUndos(tableOf(cfg.path), sentVersion(cfg.formData.get("expected_version:int")), now);
  }
  paintMarks();
  answered();
  sendKept();
}
