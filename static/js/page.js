// What every part asks of the page itself: which table it shows (data-table on <body>, none
// off a table page) and whether it is a table page at all.
export function thisTable() { return document.body ? document.body.getAttribute("data-table") : null; }

export function tablePage() { return !!document.body && document.body.classList.contains("table-page"); }
