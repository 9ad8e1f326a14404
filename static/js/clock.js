// The turn clock's ticking (templates/tables/_clock.html, companion/games/clock.py). The live region
// is shared by every phone and never holds "now": it says each seat's time as of the table's last
// event and when the running turn began (data-since, the server's epoch ms). This module adds the
// time run since then, by the server's clock: the phone keeps its offset to it.
//
// Why an offset, and from where: a phone's own clock may be minutes off, but it keeps running
// while the phone sleeps, so "server time - phone time" stays right across a sleep. The page says
// the server's time as it was drawn (body[data-server-ms], outside the region: drawn per request),
// taken against the moment its answer arrived (the navigation's responseStart), so a reload starts
// right; every answer of a table's page says it again (the X-Server-Time header), so a phone whose
// clock was set meanwhile, or a server restarted on another clock, is right again at its next answer.
var TICK_MS = 250;
var SERVER_TIME = "X-Server-Time";
var offset = 0;
var timer = null;

// "m:ss", "h:mm:ss" past an hour: clock.py's `shown` writes the same on the server
export function clockTime(ms) {
  var s = Math.floor(Math.max(0, ms) / 1000);
  var two = function (n) { return (n < 10 ? "0" : "") + n; };
  if (s >= 3600) return Math.floor(s / 3600) + ":" + two(Math.floor(s / 60) % 60) + ":" + two(s % 60);
  return Math.floor(s / 60) + ":" + two(s % 60);
}

// The server's time now, by the phone's clock and the offset last learnt.
export function serverNow() { return Date.now() + offset; }

function arrivedAt() {
  // when the page's answer came, by the phone's clock; Date.now() where the browser cannot say
  var nav = performance.getEntriesByType ? performance.getEntriesByType("navigation")[0] : null;
  // (counted back from now on the page's monotonic clock, so that it is on the same clock as Date.now)
  if (nav && nav.responseStart > 0) return Date.now() - Math.max(0, performance.now() - nav.responseStart);
  return Date.now();
}

function learn(serverMs, localMs) {
  var server = Number(serverMs);
  if (serverMs && isFinite(server)) offset = server - localMs;
}

// As the page opens: the offset from the time the page was drawn at, then the ticking.
export function startClock() {
  learn(document.body && document.body.getAttribute("data-server-ms"), arrivedAt());
  keepTicking();
}

function running(section) {
  return !!section && !section.hasAttribute("data-paused") && Number(section.getAttribute("data-since")) > 0;
}

// A tick every TICK_MS while a turn runs, none otherwise (no clock, paused, stopped): an idle phone
// runs no timer (tests/foundation/test_push_cost_browser.py). Called as the page opens and after
// every update, which may start, pause or stop the clock.
export function keepTicking() {
  tickClock();
  var on = running(document.getElementById("turn-clock"));
  if (on && timer === null) timer = setInterval(tickClock, TICK_MS);
  if (!on && timer !== null) { clearInterval(timer); timer = null; }
}

// Every answer htmx gets (a form's, a poll's) says the server's time.
export function serverTime(evt) {
  var xhr = evt.detail && evt.detail.xhr;
  if (xhr && xhr.getResponseHeader) learn(xhr.getResponseHeader(SERVER_TIME), Date.now());
}

// Draw the running turn's time, and the limit's warning once the turn passes it.
export function tickClock() {
  var section = document.getElementById("turn-clock");
  if (!running(section)) return;
  var since = Number(section.getAttribute("data-since"));
  var run = Math.max(0, serverNow() - since);
  var time = section.querySelector("[data-clock-tick]");
  if (time) time.textContent = clockTime(Number(time.getAttribute("data-clock-ms")) + run);
  var turn = Number(section.getAttribute("data-turn-ms")) + run;
  var thisTurn = section.querySelector("[data-clock-turn]");
  if (thisTurn) thisTurn.textContent = clockTime(turn);
  var limit = Number(section.getAttribute("data-limit-s")) * 1000;
  var line = section.querySelector("[data-clock-limit]");
  if (!limit || !line) return;
  var over = turn > limit;
  line.classList.toggle("over", over);
  var warning = line.querySelector("[data-clock-over]");
  if (warning) warning.hidden = !over;
}

// A double tap on "Done" passes one turn. Its form says whose turn it ends (`from`), which the server
// checks; but on a LAN the first tap's answer comes back before the second half of a double tap, and
// brings a Done that ends the next player's turn. So a Done whose turn changed a moment ago
// (DONE_SETTLE_MS: longer than a double tap, shorter than a player's reach for the phone) takes no tap yet.
var DONE_SETTLE_MS = 600, doneFrom, doneSince = -Infinity;

// As the page opens, and after every update: when the turn Done ends changed (its count, not its seat: the
// same player may play again, Galileo's last one in or a solo table).
export function noteDoneTurn() {
  var done = document.querySelector(".clock-done-btn");
  var value = done ? done.getAttribute("data-turn") : null;
  if (doneFrom != null && value !== doneFrom) doneSince = performance.now();  // passed on, not started
  doneFrom = value;
}

// submit, in the capture phase before the tap is kept: a Done too soon after its turn changed is not sent.
export function holdDone(evt) {
  var form = evt.target;
  if (!form.classList || !form.classList.contains("clock-done")) return;
  if (performance.now() - doneSince < DONE_SETTLE_MS) { evt.preventDefault(); evt.stopImmediatePropagation(); }
}
