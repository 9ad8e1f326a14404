"""Benchmarks of Table Companion: latency, convention load, page weight, start-up, an idle hall. Prints figures.

    python bench/run.py            # the full set (about four minutes)
    python bench/run.py --quick    # about a minute: fewer samples, 50 tables for 10 s, the idle hall for 8 s

Everything runs against real `companion serve` processes (gevent's pywsgi, a fresh SQLite file
in a temporary folder) on 127.0.0.1, and every loop is bounded. The phones of the convention
load behave like the table page since issue 16: they load the page once, hold the table's
event stream (server-sent events) on a connection of their own, and poll only while they have
none. So beside the time of each request the load measures what the stream is for:
`propagation_p95_ms`, how long a tap takes to reach the other phones at its table; and an idle
hall (800 phones that only watch) measures `idle_req_per_s`, what watching costs, which
polling made 1,067 requests a second. Both sides' CPU is printed, so that a saturated load
generator is not taken for a slow server. The last line printed is the summary:

    latency_ratio=… load_p99_ms=… load_errors=… page_gzip_kb=… fragment_gzip_kb=… propagation_p95_ms=… idle_req_per_s=… push_kib_per_change=… hello_cpu_ms=… cpu_per_change_ms=… cpu_per_change_ratio=…

`cpu_per_change_ratio` (issue 39) is the server's CPU per change in the convention load over
the CPU of one bare hello request (bench/hello.py) served by as many processes, both measured
in the run. These are measurements, not tests: nothing here asserts a speed. bench/README.md says how to
read them and holds the latest figures.
"""

from __future__ import annotations

import argparse
import asyncio
import gzip
import html
import json
import os
import random
import re
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.client import AsyncConnection, Connection, EventStream, Response  # noqa: E402

HOST = "127.0.0.1"
GAME = "gutenberg"
PLAYERS = ["Anna", "Tom", "Kate", "Ben"]
POLL_S = 0.750  # the table page's hx-trigger (app config POLL_MS)
REQUEST_TIMEOUT_S = 10.0


# --- processes ------------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind((HOST, 0))
        return sock.getsockname()[1]


@dataclass
class Served:
    """A server process started by the benchmark, with the seconds it took to answer first."""

    process: subprocess.Popen
    port: int
    startup_s: float
    log: object = None  # the file its stderr goes to (start)

    def logged(self) -> bytes:
        """What the server has written to its stderr so far."""
        if self.log is None:
            return b""
        with open(self.log.fileno(), "rb", closefd=False) as again:
            again.seek(0)
            return again.read()

    def pids(self) -> list[int]:
        """Return the server's process and its children (`companion serve` forks one worker per core)."""
        children = []
        for entry in Path("/proc").iterdir():
            if entry.name.isdigit():
                try:
                    if int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1]) == self.process.pid:
                        children.append(int(entry.name))
                except (OSError, IndexError, ValueError):
                    continue
        return [self.process.pid, *children]

    def peak_rss_mb(self) -> float:
        """Return the sum over the server's processes of each one's peak resident memory (VmHWM), in MiB."""
        return self.memory_mb("VmHWM")

    def memory_mb(self, name: str) -> float:
        """Return the sum over the server's processes of a /proc/PID/status figure in kB (VmHWM, VmRSS), in MiB."""
        total = 0
        for pid in self.pids():
            try:
                for line in Path(f"/proc/{pid}/status").read_text().splitlines():
                    if line.startswith(name + ":"):
                        total += int(line.split()[1])
            except OSError:
                pass
        return total / 1024 if total else float("nan")

    def cpu_seconds(self) -> float:
        """Return the CPU time (user + system) the server's processes have used so far."""
        total = 0
        for pid in self.pids():
            try:
                fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
                total += int(fields[11]) + int(fields[12])
            except OSError:
                pass
        return total / os.sysconf("SC_CLK_TCK")

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(10)


def machine_cpu_seconds() -> float:
    """Return the CPU time every process of the machine has used so far (/proc/stat: all but idle and iowait)."""
    try:
        fields = [int(v) for v in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:8]]
    except (OSError, ValueError):
        return float("nan")
    user, nice, system, _idle, _iowait, irq, softirq = fields
    return (user + nice + system + irq + softirq) / os.sysconf("SC_CLK_TCK")


def start(argv: list[str], port: int, path: str = "/") -> Served:
    """Start a server process and wait (at most 30 s) for its first 200 answer on `path`."""
    env = dict(os.environ, PYTHONUNBUFFERED="1", PYTHONPATH=str(ROOT))
    started = time.perf_counter()
    # its log goes to a file, never a pipe nobody reads: a server that logs 64 KiB (thousands of
    # "stopped reading" lines) would block on its next line
    log = tempfile.TemporaryFile()
    process = subprocess.Popen(argv, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=log)
    deadline = started + 30
    while time.perf_counter() < deadline:
        try:
            with urllib.request.urlopen(f"http://{HOST}:{port}{path}", timeout=1) as answer:
                if answer.status == 200:
                    return Served(process, port, time.perf_counter() - started, log)
        except OSError:
            if process.poll() is not None:
                log.seek(0)
                raise RuntimeError(f"{argv} exited: {log.read().decode(errors='replace')}")
            time.sleep(0.005)
    process.kill()
    raise RuntimeError(f"{argv} did not answer within 30 s")


def start_companion(data: Path, workers: int | None = None, extra: list[str] = ()) -> Served:
    """Start `companion serve` on a free port; `extra` are further serve arguments (bench/capacity.py's --serve-arg)."""
    port = free_port()
    # the convention load creates hundreds of tables from this one address within seconds, and
    # its phones hold their streams and connections from it: no per-client limit
    argv = [sys.executable, "-m", "companion", "serve", "--host", HOST, "--port", str(port), "--data", str(data), "--quiet",
            "--create-limit", "off", "--stream-limit", "off", "--connection-limit", "off", "--request-limit", "off"]
    if workers:
        argv += ["--workers", str(workers)]
    return start(argv + list(extra), port)


def start_hello(workers: int | None = None) -> Served:
    """Start the baseline, served as `companion serve` serves the app (same options, same workers)."""
    port = free_port()
    return start([sys.executable, str(ROOT / "bench" / "hello.py"), str(port), *([str(workers)] if workers else [])], port)


#: keep-alive requests over which a hello's CPU is measured: /proc counts CPU in clock ticks
#: (10 ms), and a hello request takes well under a tenth of one
HELLO_REQUESTS = 4000


def hello_cpu_ms(workers: int | None, requests: int = HELLO_REQUESTS) -> float:
    """Return the server CPU of one bare hello request, in ms.

    A fresh bench/hello.py with `workers` processes answers `requests` keep-alive requests, one
    at a time, over four connections a process (so that every worker gets some). Its CPU is
    read from /proc before and after (Served.cpu_seconds), summed over its processes.
    """
    hello = start_hello(workers)
    conns = [Connection(HOST, hello.port) for _ in range(4 * (workers or 1))]
    try:
        for i in range(200):  # warm up, and open every connection
            conns[i % len(conns)].request("GET", "/")
        before = hello.cpu_seconds()
        for i in range(requests):
            answer = conns[i % len(conns)].request("GET", "/")
            if answer.status != 200:
                raise RuntimeError(f"the hello answered {answer.status}")
        used = hello.cpu_seconds() - before
    finally:
        for conn in conns:
            conn.close()
        hello.stop()
    return used * 1000 / requests


def ratio(part: float, whole: float) -> float:
    """part / whole, or NaN where whole is 0 (a CPU too small for /proc's clock ticks)."""
    return part / whole if whole else float("nan")


def cpu_ms_per_change(figures: dict) -> float:
    """The server's CPU seconds in a load's window over the taps answered 200 in it, in ms."""
    changes = figures["writes"] - figures["conflicts"]
    return figures["server_cpu"] * figures["seconds"] * 1000 / changes if changes else float("nan")


# --- what a phone sends -----------------------------------------------------------------------


#: each game's score change: the event and the data it takes besides player and delta
#: (galileo's VP wait for the board's printed values, so renames stand in there)
SCORE_EVENTS = {
    "gutenberg": ("fame", {}),
    "codex": ("points", {}),
    "voynich": ("move", {"marker": "gk"}),
}


def score_change(game_key: str, i: int) -> tuple[str, dict]:
    """Return the i-th score change a player taps (up, up, down, down: the score stays small).

    A game not listed here (or no longer taking that event) changes a name instead.
    """
    from companion import games

    type_, extra = SCORE_EVENTS.get(game_key, ("rename", {}))
    if type_ in games.get(game_key).events:
        return type_, {"player": i % 2, **extra, "delta": 1 if i % 4 < 2 else -1}
    return "rename", {"player": i % 2, "name": f"{PLAYERS[i % 2]}{i % 7}"}


def event_form(type_: str, data: dict, version: int, stepper: str | None = None) -> bytes:
    """Encode an event the way the table page's forms post it (companion/forms.py naming)."""
    fields = [("type", type_), ("expected_version:int", str(version))]
    if stepper is not None:
        fields.append(("stepper", stepper))
    fields += [(f"data.{key}:json", json.dumps(value)) for key, value in data.items()]
    return urlencode(fields).encode()


def tap(table: "Table", seat: int, type_: str, data: dict) -> tuple[dict[str, str], bytes]:
    """Return the headers and body a phone sends for a score change, from the form the page shows.

    When the page shows a stepper for it (it read them with read_steppers), the post comes from
    that stepper the way htmx sends it: HX-Target names the stepper, which answers alone
    (companion/web/steppers.py). Otherwise it comes from a form that targets the live region.
    """
    from companion.web.steppers import stepper_id

    rest = {k: v for k, v in data.items() if k != "delta"}
    wid = stepper_id(type_, rest)
    headers = dict(browser_headers(table, seat), **{"Content-Type": "application/x-www-form-urlencoded"})
    settings = table.steppers.get(wid)
    if settings is not None:
        headers["HX-Target"] = wid
    return headers, event_form(type_, data, table.version, settings)


@dataclass
class Table:
    """A table as one phone sees it: its id, the cookies it holds, the version it last saw."""

    id: str
    token: str
    version: int = 0
    changes: int = 0  # score changes sent at this table (whose turn it is to tap next)
    due: float = 0.0  # when the next score change is due
    steppers: dict = field(default_factory=dict)  # stepper id -> its hidden settings, as the page shows them
    #: the languages its phones read, seat by seat in turn (the picker's cookie; issue 29)
    languages: tuple[str, ...] = ("en",)

    def cookie(self, seat: int = 0) -> str:
        return f"tc_{self.id}={self.token}; seat_{self.id}={seat}; lang={self.languages[seat % len(self.languages)]}"


def browser_headers(table: Table, seat: int = 0, htmx: bool = True) -> dict[str, str]:
    """Headers a phone's browser sends to our own origin: htmx's, and the version the page shows
    (X-Table-Has, static/js/versions.js), on which the server answers with what changed since."""
    headers = {"Cookie": table.cookie(seat), "Sec-Fetch-Site": "same-origin", "Accept": "*/*"}
    if htmx:
        headers.update({"HX-Request": "true", "X-Table-Has": str(table.version)})
    return headers


#: the version a table page was drawn at (its <body data-version>), and the one a part sent shows
VERSION = re.compile(r'data-version="(\d+)"')
PART_VERSION = re.compile(r'data-v="(\d+)"')
STEPPER = re.compile(r'id="(w-[0-9a-f]+)">(?:(?!</form>).)*?name="stepper" value="([^"]*)"', re.S)


def read_steppers(table: Table, page: str) -> None:
    """Remember the steppers a page shows (their ids and hidden settings), as the browser holds them."""
    table.steppers.update((wid, html.unescape(value)) for wid, value in STEPPER.findall(page))


def read_page(table: Table, body: str) -> None:
    """Take the version a table page was drawn at, as the page's script does (its body's data-version)."""
    found = VERSION.search(body)
    if found:
        table.version = max(table.version, int(found.group(1)))


def answer_version(answer: Response) -> int | None:
    """The version an answer's parts show (X-Table-Version), or None."""
    value = answer.headers.get("x-table-version", "")
    return int(value) if value.isdigit() else None


def read_answer(table: Table, answer: Response) -> None:
    """Take the version an answer names, as the page's script does. A phone never goes back to an
    older one (a poll's answer can arrive after its stream brought a newer version)."""
    version = answer_version(answer)
    if version is not None:
        table.version = max(table.version, version)


def create_table(conn: Connection, game_key: str = GAME, players: list[str] = PLAYERS) -> Table:
    answer = conn.request("POST", "/api/v1/tables", {"Content-Type": "application/json"},
                          json.dumps({"game": game_key, "players": players}).encode())
    if answer.status != 201:
        raise RuntimeError(f"creating a table answered {answer.status}: {answer.text()[:200]}")
    doc = json.loads(answer.body)
    return Table(doc["table"], doc["token"])


# --- figures --------------------------------------------------------------------------------


def pct(values: list[float], p: float) -> float:
    """Return the p-th percentile (nearest rank) of the values."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(p / 100 * len(ordered) + 0.5) - 1))]


def ms(seconds: float) -> float:
    return seconds * 1000


def kb(n: int) -> float:
    return n / 1024


# --- latency --------------------------------------------------------------------------------


def latency(companion: Served, hello: Served, samples: int) -> dict:
    """Time the main interactions one at a time over keep-alive connections, interleaved."""
    app = Connection(HOST, companion.port)
    base = Connection(HOST, hello.port)
    table = create_table(app)
    read_answer(table, app.request("GET", f"/t/{table.id}/live", browser_headers(table)))
    timings: dict[str, list[float]] = {k: [] for k in ("hello", "score_change", "table_page", "live_304", "live_200")}
    unexpected: list[str] = []

    def timed(kind: str, answer: Response, want: int) -> Response:
        if answer.status != want:
            unexpected.append(f"{kind}: {answer.status}")
        timings[kind].append(answer.seconds)
        return answer

    for _ in range(max(5, samples // 10)):  # warm up: imports, template compilation, page cache
        base.request("GET", "/")
        read_steppers(table, app.request("GET", f"/t/{table.id}", browser_headers(table, htmx=False)).text())
    for i in range(samples):
        timed("hello", base.request("GET", "/"), 200)
        type_, data = score_change(GAME, i)
        headers, body = tap(table, 0, type_, data)
        by_stepper = "HX-Target" in headers  # the page showed a stepper for it
        answer = timed("score_change", app.request("POST", f"/t/{table.id}/events", headers, body), 200)
        stale = table.version
        read_answer(table, answer)
        read_page(table, timed("table_page", app.request("GET", f"/t/{table.id}", browser_headers(table, htmx=False)), 200).text())
        timed("live_304", app.request("GET", f"/t/{table.id}/live", browser_headers(table)), 304)
        # the poll of a page one change behind: the parts that change changed
        timed("live_200", app.request("GET", f"/t/{table.id}/live", dict(browser_headers(table), **{"X-Table-Has": str(stale)})), 200)
    app.close()
    base.close()
    figures = {kind: {"median_ms": ms(statistics.median(v)), "p99_ms": ms(pct(v, 99))} for kind, v in timings.items()}
    figures["latency_ratio"] = figures["score_change"]["median_ms"] / figures["hello"]["median_ms"]
    figures["unexpected"] = unexpected[:5] + ([f"... {len(unexpected) - 5} more"] if len(unexpected) > 5 else [])
    figures["events_in_log"] = table.version
    figures["score_change_by"] = "its stepper (answers alone)" if by_stepper else "a form (whole live region)"
    return figures


# --- page weight ----------------------------------------------------------------------------

ASSET = re.compile(r'<(?:script[^>]*\bsrc|link[^>]*\bhref|img[^>]*\bsrc)="([^"]+)"')


def weigh(conn: Connection, path: str, headers: dict[str, str]) -> tuple[bytes, int, bool]:
    """GET path as a browser does (accepting gzip); return (the body decoded, its gzip size, served compressed).

    The gzip size is what the server sent when it compressed the answer itself, else the body
    compressed here at level 6 (what a compressing proxy would send).
    """
    answer = conn.request("GET", path, dict(headers, **{"Accept-Encoding": "gzip"}))
    if answer.status != 200:
        raise RuntimeError(f"GET {path} answered {answer.status}")
    if answer.headers.get("content-encoding", "").lower() == "gzip":
        return gzip.decompress(answer.body), len(answer.body), True
    return answer.body, len(gzip.compress(answer.body, 6)), False


def api_version(table: Table, port: int) -> int:
    """The table's version, as the API tells it (not read out of a page)."""
    conn = Connection(HOST, port)
    try:
        answer = conn.request("GET", f"/api/v1/tables/{table.id}", {"X-Table-Token": table.token})
    finally:
        conn.close()
    if answer.status != 200:
        raise RuntimeError(f"GET /api/v1/tables/{table.id} answered {answer.status}")
    return json.loads(answer.body)["version"]


async def _pushed(port: int, table: Table, change) -> bytes | None:
    """Open the table's event stream as a phone holding its current version, make the change, and
    return the first event with data that follows (the SSE event as it came), or None where no
    stream could be opened or no event came within REQUEST_TIMEOUT_S."""
    stream = EventStream(HOST, port)
    headers = {"Cookie": table.cookie(0), "Accept": "text/event-stream", "Sec-Fetch-Site": "same-origin",
               "Cache-Control": "no-cache"}
    version = api_version(table, port)
    try:
        head = await asyncio.wait_for(stream.open(f"/t/{table.id}/events?screen=&v={version}", headers), REQUEST_TIMEOUT_S)
        if head.status != 200 or not head.headers.get("content-type", "").startswith("text/event-stream"):
            return None
        await asyncio.to_thread(change)
        deadline = time.perf_counter() + REQUEST_TIMEOUT_S
        while True:
            event = await asyncio.wait_for(stream.next(), max(0.01, deadline - time.perf_counter()))
            if event is None:
                return None
            if event.event != "alive" and not (event.id and event.id.isdigit() and int(event.id) <= version):
                return event.raw  # not push.py's keep-alive, nor a version the phone holds
    except (OSError, asyncio.TimeoutError, asyncio.IncompleteReadError, ValueError):
        return None
    finally:
        stream.close()


def page_weight(companion: Served, game_key: str) -> dict:
    """Bytes of a table page's first load with everything it pulls, and of what one change pushes to a phone."""
    from companion import games

    conn = Connection(HOST, companion.port)
    game = games.get(game_key)
    table = create_table(conn, game_key, PLAYERS[: game.max_players])
    read_steppers(table, conn.request("GET", f"/t/{table.id}", browser_headers(table, htmx=False)).text())

    def change(i: int) -> None:
        type_, data = score_change(game_key, i)
        headers, body = tap(table, 0, type_, data)
        answer = conn.request("POST", f"/t/{table.id}/events", headers, body)
        if answer.status != 200:
            raise RuntimeError(f"{game_key}: {type_} {data} answered {answer.status}")
        read_answer(table, answer)

    for i in range(6):  # a table in play, with some history
        change(i)
    page, page_gzip, served_gzip = weigh(conn, f"/t/{table.id}", browser_headers(table, htmx=False))
    rows = [("page", len(page), page_gzip)]
    for url in dict.fromkeys(ASSET.findall(page.decode("utf-8", "replace"))):
        if url.startswith("/"):
            body, zipped, _ = weigh(conn, url, {"Sec-Fetch-Site": "same-origin"})
            rows.append((url, len(body), zipped))
    fragment = asyncio.run(_pushed(companion.port, table, lambda: change(6)))
    pushed = fragment is not None
    if not pushed:  # no stream here: the live region a poll gets
        fragment = conn.request("GET", f"/t/{table.id}/live", browser_headers(table)).body
    conn.close()
    return {
        "game": game_key,
        "parts": rows,
        "served_gzip": served_gzip,
        "page_raw_kb": kb(sum(r[1] for r in rows)),
        "page_gzip_kb": kb(sum(r[2] for r in rows)),
        "fragment_from": "the stream's event" if pushed else "/live (no stream)",
        "fragment_raw_kb": kb(len(fragment)),
        "fragment_gzip_kb": kb(len(gzip.compress(fragment, 6))),
    }


def page_weights(companion: Served) -> dict:
    """Weigh every game's table; the summary keeps the heaviest page and the heaviest fragment."""
    from companion import games

    per_game = [page_weight(companion, key) for key in games.registry()]
    return {
        "games": per_game,
        "page_gzip_kb": max(w["page_gzip_kb"] for w in per_game),
        "fragment_gzip_kb": max(w["fragment_gzip_kb"] for w in per_game),
    }


# --- convention load ------------------------------------------------------------------------

STREAM_RETRY_S = 5.0  # a phone whose stream was refused or broke polls, and tries the stream again this often
STREAM_SILENCE_S = 45.0  # four keep-alives (one every 10 s, push.KEEP_ALIVE_S) missed: the stream is taken for dead
PROPAGATION_LIMIT_S = 10.0  # a tap not at every other phone of its table by then never propagated
SETTLE_LIMIT_S = 15.0  # the longest wait, after the ramp, for every phone to have its stream (or its refusal)


@dataclass
class Load:
    """What the simulated phones saw.

    Timings and the request count take only the requests sent within the window [start, end);
    an error counts whenever it happens.
    """

    start: float = float("inf")
    end: float = float("inf")
    pages: list[float] = field(default_factory=list)
    polls: list[float] = field(default_factory=list)
    writes: list[float] = field(default_factory=list)
    opens: list[float] = field(default_factory=list)  # a stream's opening: the time to its answer's head
    sent: int = 0  # requests sent within the window, answered or not
    errors: list[str] = field(default_factory=list)
    conflicts: int = 0
    changes_seen: int = 0  # new versions received within the window, by stream or poll
    events: int = 0  # events received, at any time
    event_bytes: int = 0
    # within the window, on the streams: every byte of SSE text (events, keep-alives, `retry:`), the bytes
    # of the events that carry a version (their id:, event: and data: lines), and the (change, phone)
    # deliveries: each new version a stream brings counts once per change it moves the phone by
    push_bytes: int = 0
    push_event_bytes: int = 0
    deliveries: int = 0
    keep_alives: int = 0
    refused: int = 0  # streams answered 204: the server cannot push there, so the phone polls
    closed: int = 0  # streams the server ended
    repeated: int = 0  # events naming a version the stream had sent already, or the phone had named on opening it
    mismatched: int = 0  # events whose id is not the data-version of the region they carry

    def counts(self, sent_at: float) -> bool:
        return self.start <= sent_at < self.end


@dataclass
class Pending:
    """A tap whose version some other phones at its table do not hold yet."""

    version: int
    at: float
    seats: set[int]


class Spread:
    """How long a tap takes to reach every other phone at its table.

    A tap's time starts when its answer arrives (the tapping phone shows it then) and ends when
    the last of the table's other phones holds its version or a newer one, from its stream or
    a poll: that is how long the players watching the other phones wait. A phone that already
    held it (its stream was faster than the tap's own answer) counts as reached at once.
    """

    def __init__(self, phones_per_table: int = 4):
        self.seats = range(phones_per_table)
        self.held: dict[str, dict[int, int]] = {}
        self.waiting: dict[str, list[Pending]] = {}
        self.times: list[float] = []

    def holds(self, table_id: str, seat: int, version: int, now: float) -> None:
        held = self.held.setdefault(table_id, {})
        if version <= held.get(seat, -1):
            return
        held[seat] = version
        waiting = self.waiting.get(table_id)
        if not waiting:
            return
        for tap in waiting:
            if tap.version <= version and seat in tap.seats:
                tap.seats.discard(seat)
                if not tap.seats:
                    self.times.append(now - tap.at)
        self.waiting[table_id] = [tap for tap in waiting if tap.seats]

    def tapped(self, table_id: str, seat: int, version: int, now: float) -> None:
        held = self.held.get(table_id, {})
        seats = {s for s in self.seats if s != seat and held.get(s, -1) < version}
        if seats:
            self.waiting.setdefault(table_id, []).append(Pending(version, now, seats))
        else:
            self.times.append(0.0)

    def unsettled(self) -> int:
        return sum(len(w) for w in self.waiting.values())

    def figures(self) -> dict:
        """p50/p95 over every tap, one that never arrived within the limit counting as infinite."""
        reached = [t for t in self.times if t <= PROPAGATION_LIMIT_S]
        late = len(self.times) - len(reached) + self.unsettled()
        every = reached + [float("inf")] * late
        return {
            "taps": len(every),
            "p50_ms": ms(pct(every, 50)),
            "p95_ms": ms(pct(every, 95)),
            "max_ms": ms(max(reached, default=float("nan"))),
            "late": late,
        }


class Phone:
    """One phone at a table: the page's keep-alive connection, and its event stream beside it.

    As the table page does now (issue 16): it loads the page once, then holds a stream of the
    live region's new versions on a connection of its own, and polls `/live` every 750 ms only
    while it has no open stream (refused with 204, failed, or ended by the server). It tries
    the stream again after the server's `retry:` when the server ended it, else after
    STREAM_RETRY_S. Its taps and polls share the keep-alive connection, one request at a time.

    Its waits are bounded with asyncio.timeout, never asyncio.wait_for: on Python 3.11, a task
    cancelled while the read wait_for runs has just completed returns that read's result and
    forgets the cancellation, so a phone whose stream had just brought something kept reading
    it after the hall's end cancelled it, and the run waited for it for ever (a full run hung
    so, with 125 of 800 streams still read, on 5 December 2026).
    """

    def __init__(self, table: Table, seat: int, port: int, load: Load, spread: Spread):
        self.table, self.seat, self.load, self.spread = table, seat, load, spread
        self.port = port
        self.mine = Table(table.id, table.token, languages=table.languages)  # what this phone has seen, in its language
        self.conn = self.connection()
        self.lock = asyncio.Lock()
        self.last_id: str | None = None  # the last event id received, sent back as Last-Event-ID
        self.settled = False  # its page loaded and its stream opened (or refused) at least once
        self.streaming = False

    def connection(self) -> AsyncConnection:
        """The page's keep-alive connection (bench/capacity.py binds it to a loopback address of the phone's own)."""
        return AsyncConnection(HOST, self.port)

    def event_stream(self) -> EventStream:
        """A connection for the event stream (as for `connection`)."""
        return EventStream(HOST, self.port)

    def hold(self, version: int | None) -> None:
        """Note a version this phone now shows."""
        if version is not None:
            self.mine.version = max(self.mine.version, version)
            self.spread.holds(self.table.id, self.seat, self.mine.version, time.perf_counter())

    async def send(self, kind: str, method: str, path: str, headers: dict[str, str], body: bytes = b"",
                   expected: tuple[int, ...] = (200,)) -> Response | None:
        async with self.lock:
            sent_at = time.perf_counter()
            counted = self.load.counts(sent_at)
            self.load.sent += counted
            try:
                async with asyncio.timeout(REQUEST_TIMEOUT_S):  # never wait_for: see Phone
                    answer = await self.conn.request(method, path, headers, body)
            except (OSError, asyncio.TimeoutError, asyncio.IncompleteReadError, ValueError) as exc:
                self.load.errors.append(f"{method} {kind}: {type(exc).__name__}")
                self.conn.drop()
                return None
        if counted:
            getattr(self.load, kind).append(answer.seconds)
        if answer.status not in expected:
            self.load.errors.append(f"{method} {kind}: {answer.status}")
        return answer

    async def watch(self, join_at: float) -> None:
        """Open the page at join_at, then follow the table until the hall's run cancels this."""
        try:
            await asyncio.sleep(max(0.0, join_at - time.perf_counter()))
            page = await self.send("pages", "GET", f"/t/{self.table.id}", browser_headers(self.mine, self.seat, htmx=False))
            if page is not None and page.status == 200:
                read_page(self.mine, page.text())
                read_steppers(self.mine, page.text())
                self.hold(self.mine.version)
            stream_at = time.perf_counter()
            next_poll = stream_at + POLL_S
            while True:  # ended by cancellation: the hall's run is bounded
                now = time.perf_counter()
                if now >= stream_at:
                    wait = await self.follow()
                    self.settled = True
                    now = time.perf_counter()
                    stream_at, next_poll = now + wait, now + POLL_S
                    continue
                if now >= next_poll:
                    await self.poll()
                    next_poll = max(next_poll + POLL_S, time.perf_counter())
                await asyncio.sleep(max(0.0, min(next_poll, stream_at) - time.perf_counter()))
        finally:
            self.conn.drop()

    async def poll(self) -> None:
        headers = browser_headers(self.mine, self.seat)
        answer = await self.send("polls", "GET", f"/t/{self.table.id}/live", headers, expected=(200, 304))
        if answer is not None and answer.status == 200:
            self.load.changes_seen += self.load.counts(time.perf_counter())
            read_answer(self.mine, answer)
            self.hold(self.mine.version)

    async def follow(self) -> float:
        """Open the stream and read it until it ends; return the seconds to wait before opening it again."""
        named = self.mine.version
        path = f"/t/{self.table.id}/events?screen=&v={named}"
        headers = {"Cookie": self.mine.cookie(self.seat), "Accept": "text/event-stream", "Sec-Fetch-Site": "same-origin",
                   "Cache-Control": "no-cache"}
        if self.last_id is not None:
            headers["Last-Event-ID"] = self.last_id
            named = int(self.last_id) if self.last_id.isdigit() else named
        stream = self.event_stream()
        sent_at = time.perf_counter()
        counted = self.load.counts(sent_at)
        self.load.sent += counted
        try:
            try:
                async with asyncio.timeout(REQUEST_TIMEOUT_S):
                    head = await stream.open(path, headers)
            except (OSError, asyncio.TimeoutError, asyncio.IncompleteReadError, ValueError) as exc:
                self.load.errors.append(f"GET events: {type(exc).__name__}")
                return STREAM_RETRY_S
            if counted:
                self.load.opens.append(head.seconds)
            if head.status == 204:
                self.load.refused += 1
                return STREAM_RETRY_S
            if head.status != 200 or not head.headers.get("content-type", "").startswith("text/event-stream"):
                self.load.errors.append(f"GET events: {head.status} {head.headers.get('content-type', '')}".rstrip())
                return STREAM_RETRY_S
            self.streaming, self.settled = True, True
            newest = named  # the newest version this stream has sent, or the one named on opening it
            counted_to = 0  # the stream's bytes counted (or not) so far
            while True:
                try:
                    async with asyncio.timeout(STREAM_SILENCE_S):
                        event = await stream.next()
                except (OSError, asyncio.TimeoutError, asyncio.IncompleteReadError, ValueError) as exc:
                    self.load.errors.append(f"GET events stream: {type(exc).__name__}")
                    return STREAM_RETRY_S
                in_window = self.load.counts(time.perf_counter())
                self.load.push_bytes += (stream.received - counted_to) * in_window
                counted_to = stream.received
                if event is None:
                    self.load.closed += 1
                    return (stream.retry_ms or 1000) / 1000
                if event.event == "alive":  # push.py's keep-alive: no version, not a region
                    self.load.keep_alives += 1
                    continue
                version = int(event.id) if event.id and event.id.isdigit() else None
                self.load.events += 1
                self.load.event_bytes += len(event.data.encode())
                # the version is the event's id, and the parts it carries show it (their data-v)
                self.load.mismatched += version is None or any(int(v) != version for v in PART_VERSION.findall(event.data))
                if version is None:
                    continue
                self.load.repeated += version <= newest
                if in_window:
                    self.load.push_event_bytes += len(event.raw)
                    self.load.deliveries += max(0, version - newest)
                newest = max(newest, version)
                self.last_id = event.id or self.last_id
                self.load.changes_seen += self.load.counts(time.perf_counter())
                self.hold(version)
        finally:
            self.streaming = False
            self.load.keep_alives += stream.comments
            stream.close()

    async def tap(self) -> None:
        """Change a score from this phone, as the page's stepper or form posts it."""
        table = self.table
        type_, data = score_change(GAME, table.changes)
        headers, body = tap(self.mine, self.seat, type_, data)
        sent_at = time.perf_counter()
        answer = await self.send("writes", "POST", f"/t/{table.id}/events", headers, body, (200, 409))
        if answer is None:
            return
        now = time.perf_counter()
        counted = self.load.counts(sent_at)  # as for its time: a tap of the window may be answered just after it
        self.load.conflicts += answer.status == 409 and counted
        # a 409 shows the table as it is now; the same player taps again at the next turn,
        # so the ups and downs stay paired and the score never goes below its start
        table.changes += answer.status == 200
        version = answer_version(answer)
        read_answer(self.mine, answer)
        self.hold(version)
        if answer.status == 200 and counted:
            if version is not None:
                self.spread.tapped(table.id, self.seat, version, now)
            else:
                self.load.errors.append("POST writes: 200 without an X-Table-Version")


async def taps_at(table: Table, phones: list[Phone], load: Load, rng: random.Random, write_every: float) -> None:
    """Change a score at one table every 0.5 to 1.5 x write_every, its phones in turn, until the window ends."""
    while True:
        await asyncio.sleep(max(0.0, table.due - time.perf_counter()))
        now = time.perf_counter()
        if now >= load.end:
            return
        table.due = now + rng.uniform(0.5, 1.5) * write_every
        await phones[table.changes % len(phones)].tap()


async def _run_hall(companion: Served, tables: list[Table], ramp: float, seconds: float, write_every: float | None,
                    phone: type = Phone, spread: Spread | None = None) -> dict:
    """Seat 4 phones at each table over the ramp, let them settle, then measure for `seconds`.

    The window opens once every phone holds its stream or was refused it (at most
    SETTLE_LIMIT_S after the ramp). With write_every, each table changes a score during the
    window; after it, the phones keep following (at most PROPAGATION_LIMIT_S) until every tap
    reached the table's other phones. Then every phone is cancelled and its connections closed.
    `spread` may be a Spread that notes more (bench/guest.py's counts skipped pushes).
    """
    load, spread, rng = Load(), spread or Spread(), random.Random(7)
    started = time.perf_counter()
    seated = {t.id: [phone(t, seat, companion.port, load, spread) for seat in range(4)] for t in tables}
    phones = [p for at_table in seated.values() for p in at_table]
    watching = [asyncio.create_task(p.watch(started + rng.uniform(0, ramp))) for p in phones]
    await asyncio.sleep(ramp)
    settle_by = time.perf_counter() + SETTLE_LIMIT_S
    while time.perf_counter() < settle_by and not all(p.settled for p in phones):
        await asyncio.sleep(0.05)
    load.start = time.perf_counter()
    load.end = load.start + seconds
    cpu_from, own_from, all_from = companion.cpu_seconds(), time.process_time(), machine_cpu_seconds()
    streams_open = sum(p.streaming for p in phones)
    tapping = []
    if write_every:
        for table in tables:
            table.due = load.start + rng.uniform(0, write_every)
        tapping = [asyncio.create_task(taps_at(t, seated[t.id], load, rng, write_every)) for t in tables]
    await asyncio.sleep(max(0.0, load.end - time.perf_counter()))
    elapsed = time.perf_counter() - load.start
    cpu, own = companion.cpu_seconds() - cpu_from, time.process_time() - own_from
    others = machine_cpu_seconds() - all_from - cpu - own
    await asyncio.gather(*tapping)  # each ends after the tap it is sending, if any (at most REQUEST_TIMEOUT_S)
    drain_by = time.perf_counter() + PROPAGATION_LIMIT_S
    while spread.unsettled() and time.perf_counter() < drain_by:
        await asyncio.sleep(0.05)
    for task in watching:
        task.cancel()
    for outcome in await asyncio.gather(*watching, return_exceptions=True):
        if isinstance(outcome, Exception):  # a fault of the benchmark's own: shown, not hidden
            load.errors.append(f"phone: {type(outcome).__name__}: {outcome}")
    return {"load": load, "spread": spread, "seconds": elapsed, "server_cpu": cpu / elapsed, "bench_cpu": own / elapsed,
            "others_cpu": max(0.0, others / elapsed),
            "settled": sum(p.settled for p in phones), "streams_open": streams_open, "phones": len(phones)}


#: the languages the app speaks (companion/games/speech.py): the hall's tables mix them (--languages)
LANGUAGES = ("en", "fr", "de", "pl", "es", "it")
#: how many languages the phones at one table read (--languages): 2 unless told, so that every
#: change at a table is drawn twice, and the hall holds all six
LANGUAGES_PER_TABLE = 2


def make_tables(companion: Served, n_tables: int) -> list[Table]:
    """The hall's tables; the phones at each read LANGUAGES_PER_TABLE languages, seat by seat in turn."""
    setup = Connection(HOST, companion.port)
    tables = [create_table(setup) for _ in range(n_tables)]
    setup.close()
    for i, table in enumerate(tables):
        table.languages = tuple(LANGUAGES[(i + k) % len(LANGUAGES)] for k in range(LANGUAGES_PER_TABLE))
    return tables


def hall_figures(companion: Served, run: dict, workers: int) -> dict:
    """The figures common to the load and the idle phase: streams, CPU on both sides, memory."""
    load: Load = run["load"]
    return {
        "phones": run["phones"],
        "seconds": run["seconds"],
        "settled": run["settled"],
        "streams_open": run["streams_open"],
        "events": load.events,
        "event_kb": kb(load.event_bytes / load.events) if load.events else float("nan"),
        "keep_alives": load.keep_alives,
        "refused": load.refused,
        "closed": load.closed,
        "repeated": load.repeated,
        "mismatched": load.mismatched,
        "peak_rss_mb": companion.peak_rss_mb(),
        "processes": len(companion.pids()),
        "server_cpu": run["server_cpu"],
        "server_cores": min(workers, os.cpu_count() or 1),
        "bench_cpu": run["bench_cpu"],
        "others_cpu": run["others_cpu"],
    }


def convention_load(companion: Served, n_tables: int, ramp: float, seconds: float, workers: int, write_every: float = 3.0,
                    phone: type = Phone) -> dict:
    """n tables of 4 phones following their table by stream, each table changing a score every few seconds.

    `phone` is the Phone class the hall seats (bench/capacity.py's binds each to a loopback address of its own)."""
    tables = make_tables(companion, n_tables)
    run = asyncio.run(_run_hall(companion, tables, ramp, seconds, write_every, phone))
    load, spread = run["load"], run["spread"]
    every = load.pages + load.polls + load.writes + load.opens
    propagation = spread.figures()
    per_change = (lambda n: kb(n / load.deliveries)) if load.deliveries else (lambda n: float("nan"))
    figures = {
        "tables": n_tables,
        **hall_figures(companion, run, workers),
        "requests": len(every),
        "rps": len(every) / run["seconds"],
        "p50_ms": ms(pct(every, 50)),
        "p99_ms": ms(pct(every, 99)),
        "polls": len(load.polls),
        "poll_p99_ms": ms(pct(load.polls, 99)),
        "opens": len(load.opens),
        "open_p99_ms": ms(pct(load.opens, 99)),
        "pages": len(load.pages),
        "write_p50_ms": ms(pct(load.writes, 50)),
        "write_p99_ms": ms(pct(load.writes, 99)),
        "writes": len(load.writes),
        "conflicts": load.conflicts,
        "changes_seen": load.changes_seen,
        "deliveries": load.deliveries,
        "push_kib": kb(load.push_bytes),
        "push_kib_per_change": per_change(load.push_bytes),
        "push_event_kib_per_change": per_change(load.push_event_bytes),
        "propagation": propagation,
        "errors": len(load.errors) + propagation["late"],
        "error_kinds": sorted(set(load.errors))[:5],
    }
    figures["cpu_ms_per_change"] = cpu_ms_per_change(figures)
    return figures


def idle_hall(companion: Served, n_tables: int, ramp: float, seconds: float, workers: int) -> dict:
    """n tables of 4 phones that only watch: what the phones send, and the server spends, while nobody taps."""
    tables = make_tables(companion, n_tables)
    run = asyncio.run(_run_hall(companion, tables, ramp, seconds, None))
    load = run["load"]
    return {
        "tables": n_tables,
        **hall_figures(companion, run, workers),
        "requests": load.sent,
        "req_per_s": load.sent / run["seconds"],
        "polls": len(load.polls),
        "opens": len(load.opens),
        "errors": len(load.errors),
        "error_kinds": sorted(set(load.errors))[:5],
    }


def print_hall(figures: dict) -> None:
    """Print what both hall phases share: the streams, then each side's CPU, and say when one was saturated."""
    f = figures
    print(f"  streams: {f['streams_open']} of {f['phones']} phones had theirs open when the window opened "
          f"({f['settled']} settled); over the whole run, ramp included: {f['events']} events received "
          f"({f['event_kb']:.1f} KiB of data each on average), {f['keep_alives']} keep-alives; {f['refused']} refused (204: polled instead), {f['closed']} ended by the server; "
          f"{f['repeated']} events with a version already had, {f['mismatched']} without a version in their id or with a region of another data-version", flush=True)
    server_share = f["server_cpu"] / f["server_cores"]
    print(f"  server ({f['processes']} processes): peak RSS {f['peak_rss_mb']:.1f} MiB (sum of each one's), "
          f"CPU {f['server_cpu'] * 100:.0f}% of one core ({server_share * 100:.0f}% of the {f['server_cores']} it can use); "
          f"load generator (this process): CPU {f['bench_cpu'] * 100:.0f}% of one core", flush=True)
    cores = os.cpu_count() or 1
    print(f"  other processes on the machine: CPU {f['others_cpu'] * 100:.0f}% of one core (it has {cores})", flush=True)
    if f["bench_cpu"] > 0.9:
        print("  the load generator was saturated: figures measure it, not the server", flush=True)
    if server_share > 0.9:
        print(f"  the server was saturated ({server_share * 100:.0f}% of its {f['server_cores']} core(s)): "
              "its requests queued, and the latencies above include the wait", flush=True)
    if f["others_cpu"] > 0.25 * cores:
        print("  the machine was busy with other work: the server and the phones waited for it too, so these figures are noisy", flush=True)
    print(flush=True)


# --- the run --------------------------------------------------------------------------------


def main(argv: list[str] | None = None) -> int:
    global LANGUAGES_PER_TABLE
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true",
                        help="about a minute: fewer samples, 50 tables for 10 s, the idle hall for 8 s")
    parser.add_argument("--json", metavar="FILE", help="also write every figure to FILE as JSON")
    parser.add_argument("--workers", type=int, help="the server's processes for latency (default: companion serve's own, 1)")
    parser.add_argument("--load-workers", type=int,
                        help="its processes for the convention load and the idle hall "
                             "(default: one per core, as a hall runs `companion serve --workers N`)")
    parser.add_argument("--languages", type=int, default=LANGUAGES_PER_TABLE, choices=range(1, len(LANGUAGES) + 1),
                        metavar="N", help="languages read at each table of the load and the idle hall, 1-6 "
                                          f"(default {LANGUAGES_PER_TABLE}: each change drawn once per language)")
    args = parser.parse_args(argv)
    LANGUAGES_PER_TABLE = args.languages
    samples, n_tables, ramp, seconds, startups, idle_s = (200, 50, 5.0, 10.0, 1, 8.0) if args.quick else (1000, 200, 20.0, 60.0, 3, 20.0)
    idle_tables = 200
    figures: dict = {"quick": args.quick, "languages_per_table": LANGUAGES_PER_TABLE}

    with tempfile.TemporaryDirectory(prefix="companion-bench-") as tmp:
        print(f"start-up: seconds from `companion serve` to its first answer ({startups} run(s), fresh data folder)", flush=True)
        times = []
        for i in range(startups):
            served = start_companion(Path(tmp) / f"startup-{i}")
            times.append(served.startup_s)
            served.stop()
        figures["startup_s"] = {"median": statistics.median(times), "max": max(times)}
        print(f"  median {statistics.median(times):.2f} s, max {max(times):.2f} s\n", flush=True)

        companion = start_companion(Path(tmp) / "latency", args.workers)
        hello = start_hello(args.workers)
        try:
            print(f"latency: {samples} rounds over keep-alive connections, one request at a time", flush=True)
            lat = latency(companion, hello, samples)
            figures["latency"] = lat
            for kind in ("hello", "score_change", "table_page", "live_304", "live_200"):
                print(f"  {kind:<13} median {lat[kind]['median_ms']:7.2f} ms   p99 {lat[kind]['p99_ms']:7.2f} ms", flush=True)
            print(f"  latency_ratio (score change / hello, medians) {lat['latency_ratio']:.2f}; the score change came from {lat['score_change_by']}", flush=True)
            print("  (live_304/live_200: the poll a page falls back to where the server cannot push)", flush=True)
            if lat["unexpected"]:
                print(f"  unexpected answers: {lat['unexpected']}", flush=True)
            print(flush=True)

            print("page weight: each game's table page, first load with everything it pulls (accepting gzip), and what one change pushes", flush=True)
            weight = page_weights(companion)
            figures["weight"] = weight
            first = weight["games"][0]
            for name, raw, zipped in first["parts"][1:]:
                print(f"  {name:<40} {kb(raw):7.1f} KiB raw {kb(zipped):6.1f} KiB gzip", flush=True)
            for w in weight["games"]:
                print(f"  {w['game'] + ': page, all in':<40} {w['page_raw_kb']:7.1f} KiB raw {w['page_gzip_kb']:6.1f} KiB gzip"
                      f"   a change's push {w['fragment_raw_kb']:5.1f} KiB raw {w['fragment_gzip_kb']:4.1f} KiB gzip"
                      f" (from {w['fragment_from']})", flush=True)
            served = [w["game"] for w in weight["games"] if w["served_gzip"]]
            print(f"  gzip figures: {'as the server sent them (Content-Encoding: gzip) for ' + ', '.join(served) if served else 'compressed here at level 6 (the server sent no gzip)'}"
                  f"; a push is always compressed here (level 6)", flush=True)
            print("  (the summary line keeps the heaviest of each)\n", flush=True)
        finally:
            companion.stop()
            hello.stop()

        from companion.workers import hall_workers

        load_workers = args.load_workers or hall_workers()
        print(f"a bare hello's CPU: bench/hello.py with {load_workers} process(es), as the convention load's server, "
              f"over {HELLO_REQUESTS} keep-alive requests", flush=True)
        figures["hello_cpu_ms"] = hello_cpu_ms(load_workers)
        print(f"  {figures['hello_cpu_ms']:.3f} ms of server CPU a request\n", flush=True)
        companion = start_companion(Path(tmp) / "load", load_workers)
        try:
            print(f"convention load: {n_tables} tables x 4 phones reading {LANGUAGES_PER_TABLE} language(s) per table, each holding the table's event stream (polling every "
                  f"{POLL_S * 1000:.0f} ms only without one),\n  a score change per table every ~3 s, for {seconds:.0f} s "
                  f"(after {ramp:.0f} s in which the phones join, and until their streams are open),\n"
                  f"  against `companion serve --workers {load_workers}` (a hall's setting: one process per core)", flush=True)
            load = convention_load(companion, n_tables, ramp, seconds, load_workers)
            load["workers"] = load_workers
            figures["load"] = load
            print(f"  {load['requests']} requests in {load['seconds']:.1f} s: {load['rps']:.0f} req/s "
                  f"({load['writes']} score changes, {load['polls']} polls, {load['opens']} stream openings, {load['pages']} page loads)", flush=True)
            print(f"  all requests p50 {load['p50_ms']:.1f} ms, p99 {load['p99_ms']:.1f} ms "
                  f"(score changes p50 {load['write_p50_ms']:.1f} ms, p99 {load['write_p99_ms']:.1f} ms; "
                  f"polls p99 {load['poll_p99_ms']:.1f} ms; stream openings p99 {load['open_p99_ms']:.1f} ms, to the answer's head)", flush=True)
            print(f"  {load['writes']} score changes ({load['conflicts']} answered 409), {load['changes_seen']} new versions received", flush=True)
            print(f"  push_kib_per_change {load['push_kib_per_change']:.2f} KiB: what a phone's stream received per change of its table, "
                  f"every byte of its SSE text in the window (events, keep-alives, retry) over {load['deliveries']} (change, phone) deliveries "
                  f"({load['push_kib'] / 1024:.1f} MiB in all); the events alone {load['push_event_kib_per_change']:.2f} KiB "
                  f"(id:, event:, data: lines; HTTP's chunk framing is in neither)", flush=True)
            spread = load["propagation"]
            print(f"  propagation, from a tap's answer to every other phone at its table holding its version, over {spread['taps']} taps: "
                  f"p50 {spread['p50_ms']:.1f} ms, p95 {spread['p95_ms']:.1f} ms, max {spread['max_ms']:.1f} ms; "
                  f"{spread['late']} never reached them within {PROPAGATION_LIMIT_S:.0f} s", flush=True)
            print(f"  errors {load['errors']} (the {spread['late']} late taps included) {load['error_kinds'] or ''}", flush=True)
            print(f"  server CPU per change {load['cpu_ms_per_change']:.2f} ms (its CPU seconds in the window over the "
                  f"{load['writes'] - load['conflicts']} taps answered 200): {ratio(load['cpu_ms_per_change'], figures['hello_cpu_ms']):.1f} "
                  f"times a bare hello request's {figures['hello_cpu_ms']:.3f} ms", flush=True)
            print_hall(load)
        finally:
            companion.stop()

        companion = start_companion(Path(tmp) / "idle", load_workers)
        try:
            print(f"idle hall (after the load, on a fresh server): {idle_tables} tables x 4 phones that only watch, no taps, "
                  f"for {idle_s:.0f} s\n  (after {ramp:.0f} s in which they join, and until their streams are open): "
                  f"every request they send counts (polls, stream openings, pages)", flush=True)
            idle = idle_hall(companion, idle_tables, ramp, idle_s, load_workers)
            idle["workers"] = load_workers
            figures["idle"] = idle
            print(f"  {idle['requests']} requests in {idle['seconds']:.1f} s: {idle['req_per_s']:.1f} req/s "
                  f"({idle['polls']} polls, {idle['opens']} stream openings); errors {idle['errors']} {idle['error_kinds'] or ''}", flush=True)
            print_hall(idle)
        finally:
            companion.stop()

    figures["propagation_p95_ms"] = figures["load"]["propagation"]["p95_ms"]
    figures["idle_req_per_s"] = figures["idle"]["req_per_s"]
    figures["push_kib_per_change"] = figures["load"]["push_kib_per_change"]
    figures["cpu_per_change_ms"] = figures["load"]["cpu_ms_per_change"]
    figures["cpu_per_change_ratio"] = ratio(figures["cpu_per_change_ms"], figures["hello_cpu_ms"])
    if args.json:
        Path(args.json).write_text(json.dumps(figures, indent=2) + "\n")
    print(f"latency_ratio={figures['latency']['latency_ratio']:.2f} load_p99_ms={figures['load']['p99_ms']:.1f} "
          f"load_errors={figures['load']['errors']} page_gzip_kb={figures['weight']['page_gzip_kb']:.1f} "
          f"fragment_gzip_kb={figures['weight']['fragment_gzip_kb']:.1f} "
          f"propagation_p95_ms={figures['propagation_p95_ms']:.1f} idle_req_per_s={figures['idle_req_per_s']:.1f} "
          f"push_kib_per_change={figures['push_kib_per_change']:.1f} hello_cpu_ms={figures['hello_cpu_ms']:.3f} "
          f"cpu_per_change_ms={figures['cpu_per_change_ms']:.2f} cpu_per_change_ratio={figures['cpu_per_change_ratio']:.1f}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
