// What every part asks of the page itself: which table it shows (data-table on <body>, none
// off a table page) and whether it is a table page at all; and of an address, which table it
// writes to (a write: a post to /t/ID/events or /t/ID/undo).
export function thisTable() { return document.body ? document.body.getAttribute("data-table") : null; }

export function tablePage() { return !!document.body && document.body.classList.contains("table-page"); }

var WRITE_PATH = /\/t\/([A-Za-z0-9_-]{1,64})\/(events|undo)$/;
export function tableOf(path) {
  try { var found = WRITE_PATH.exec(new URL(path, location.href).pathname); return found ? found[1] : null; }
  catch (e) { return null; }
}
export function isWrite(verb, path) { return (verb || "").toLowerCase() === "post" && tableOf(path) !== null; }
