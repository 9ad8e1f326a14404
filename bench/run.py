"""Benchmarks of Table Companion: latency, convention load, page weight, start-up. Prints figures.

    python bench/run.py            # the full set (about three minutes)
    python bench/run.py --quick    # under a minute: fewer samples, 50 tables for 10 s

Everything runs against real `companion serve` processes (waitress, a fresh SQLite file in a
temporary folder) on 127.0.0.1, and every request loop is bounded. The last line printed is
the summary the issue asks for:

    latency_ratio=… load_p99_ms=… load_errors=… page_gzip_kb=… fragment_gzip_kb=…

These are measurements, not tests: nothing here asserts a speed. bench/README.md says how to
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

from bench.client import AsyncConnection, Connection, Response  # noqa: E402

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
        total = 0
        for pid in self.pids():
            try:
                for line in Path(f"/proc/{pid}/status").read_text().splitlines():
                    if line.startswith("VmHWM:"):
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


def start(argv: list[str], port: int, path: str = "/") -> Served:
    """Start a server process and wait (at most 30 s) for its first 200 answer on `path`."""
    env = dict(os.environ, PYTHONUNBUFFERED="1", PYTHONPATH=str(ROOT))
    started = time.perf_counter()
    process = subprocess.Popen(argv, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = started + 30
    while time.perf_counter() < deadline:
        try:
            with urllib.request.urlopen(f"http://{HOST}:{port}{path}", timeout=1) as answer:
                if answer.status == 200:
                    return Served(process, port, time.perf_counter() - started)
        except OSError:
            if process.poll() is not None:
                raise RuntimeError(f"{argv} exited: {process.stderr.read().decode(errors='replace')}")
            time.sleep(0.005)
    process.kill()
    raise RuntimeError(f"{argv} did not answer within 30 s")


def start_companion(data: Path, threads: int | None = None, workers: int | None = None) -> Served:
    port = free_port()
    # the convention load creates hundreds of tables from this one address within seconds: no limit
    argv = [sys.executable, "-m", "companion", "serve", "--host", HOST, "--port", str(port), "--data", str(data), "--quiet",
            "--create-limit", "off"]
    if threads:
        argv += ["--threads", str(threads)]
    if workers:
        argv += ["--workers", str(workers)]
    return start(argv, port)


def start_hello(workers: int | None = None) -> Served:
    """Start the baseline, served as `companion serve` serves the app (same options, same workers)."""
    port = free_port()
    return start([sys.executable, str(ROOT / "bench" / "hello.py"), str(port), *([str(workers)] if workers else [])], port)


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
    etag: str | None = None
    changes: int = 0  # score changes sent at this table (whose turn it is to tap next)
    due: float = 0.0  # when the next score change is due
    steppers: dict = field(default_factory=dict)  # stepper id -> its hidden settings, as the page shows them

    def cookie(self, seat: int = 0) -> str:
        return f"tc_{self.id}={self.token}; seat_{self.id}={seat}"


def browser_headers(table: Table, seat: int = 0, htmx: bool = True) -> dict[str, str]:
    """Headers a phone's browser sends to our own origin."""
    headers = {"Cookie": table.cookie(seat), "Sec-Fetch-Site": "same-origin", "Accept": "*/*"}
    if htmx:
        headers.update({"HX-Request": "true", "HX-Target": "table-live"})
    return headers


HX_HEADERS = re.compile(r"hx-headers='([^']*)'")
VERSION = re.compile(r'data-version="(\d+)"')
STEPPER = re.compile(r'id="(w-[0-9a-f]+)">(?:(?!</form>).)*?name="stepper" value="([^"]*)"', re.S)


def read_steppers(table: Table, page: str) -> None:
    """Remember the steppers a page shows (their ids and hidden settings), as the browser holds them."""
    table.steppers.update((wid, html.unescape(value)) for wid, value in STEPPER.findall(page))


def read_fragment(table: Table, body: str) -> None:
    """Take the version and the If-None-Match value out of a live region, as htmx does."""
    found = VERSION.search(body)
    if found:
        table.version = int(found.group(1))
    headers = HX_HEADERS.search(body)
    if headers:
        table.etag = json.loads(headers.group(1).replace("&#39;", "'")).get("If-None-Match")


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
    read_fragment(table, app.request("GET", f"/t/{table.id}/live", browser_headers(table)).text())
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
        stale = table.etag
        read_fragment(table, answer.text())
        read_fragment(table, timed("table_page", app.request("GET", f"/t/{table.id}", browser_headers(table, htmx=False)), 200).text())
        timed("live_304", app.request("GET", f"/t/{table.id}/live", dict(browser_headers(table), **{"If-None-Match": table.etag})), 304)
        timed("live_200", app.request("GET", f"/t/{table.id}/live", dict(browser_headers(table), **{"If-None-Match": stale})), 200)
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


def page_weight(companion: Served, game_key: str) -> dict:
    """Bytes of a table page's first load with everything it pulls, and of a live update."""
    from companion import games

    conn = Connection(HOST, companion.port)
    game = games.get(game_key)
    table = create_table(conn, game_key, PLAYERS[: game.max_players])
    read_steppers(table, conn.request("GET", f"/t/{table.id}", browser_headers(table, htmx=False)).text())
    for i in range(6):  # a table in play, with some history
        type_, data = score_change(game_key, i)
        headers, body = tap(table, 0, type_, data)
        answer = conn.request("POST", f"/t/{table.id}/events", headers, body)
        if answer.status != 200:
            raise RuntimeError(f"{game_key}: {type_} {data} answered {answer.status}")
        read_fragment(table, answer.text())
    page = conn.request("GET", f"/t/{table.id}", browser_headers(table, htmx=False))
    parts = [("page", page.body)]
    for url in dict.fromkeys(ASSET.findall(page.text())):
        if url.startswith("/"):
            parts.append((url, conn.request("GET", url, {"Sec-Fetch-Site": "same-origin"}).body))
    fragment = conn.request("GET", f"/t/{table.id}/live", browser_headers(table)).body
    conn.close()
    rows = [(name, len(body), len(gzip.compress(body, 6))) for name, body in parts]
    return {
        "game": game_key,
        "parts": rows,
        "page_raw_kb": kb(sum(r[1] for r in rows)),
        "page_gzip_kb": kb(sum(r[2] for r in rows)),
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


@dataclass
class Load:
    """What the simulated phones saw."""

    polls: list[float] = field(default_factory=list)
    writes: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    conflicts: int = 0
    changes_seen: int = 0


async def phone(table: Table, seat: int, conn: AsyncConnection, load: Load, join_at: float, measure_from: float,
                deadline: float, rng: random.Random, write_every: float) -> None:
    """Open the table page once, then poll like it does; when it is this seat's turn, change a score.

    Only requests sent from `measure_from` on count in the figures: before it the phones join,
    spread over the ramp as people sit down (200 phones loading a page in the same second would
    measure a crowd that never happens). An error counts whenever it happens.
    """
    mine = Table(table.id, table.token)  # what this phone has seen
    await asyncio.sleep(max(0.0, join_at - time.perf_counter()))
    page = await _request(conn, load, "GET", f"/t/{table.id}", browser_headers(mine, seat, htmx=False), None, (200,))
    if page is not None:
        read_fragment(mine, page.text())
        read_steppers(mine, page.text())
    next_poll = time.perf_counter() + POLL_S
    while True:
        now = time.perf_counter()
        if now >= deadline:
            break
        counted = now >= measure_from
        if table.changes % 4 == seat and now >= table.due:  # this phone taps a score
            table.due = now + rng.uniform(0.5, 1.5) * write_every
            type_, data = score_change(GAME, table.changes)
            headers, body = tap(mine, seat, type_, data)
            answer = await _request(conn, load, "POST", f"/t/{table.id}/events", headers, body, (200, 409))
            if answer is not None:
                if counted:
                    load.writes.append(answer.seconds)
                    load.conflicts += answer.status == 409
                # a 409 shows the table as it is now; the same player taps again at the next turn,
                # so the ups and downs stay paired and the score never goes below its start
                table.changes += answer.status == 200
                read_fragment(mine, answer.text())
            continue
        if now < next_poll:
            await asyncio.sleep(min(next_poll, deadline) - now)
            continue
        next_poll = max(next_poll + POLL_S, time.perf_counter())
        headers = browser_headers(mine, seat)
        if mine.etag:
            headers["If-None-Match"] = mine.etag
        answer = await _request(conn, load, "GET", f"/t/{table.id}/live", headers, None, (200, 304))
        if answer is not None:
            if counted:
                load.polls.append(answer.seconds)
                load.changes_seen += answer.status == 200
            if answer.status == 200:
                read_fragment(mine, answer.text())
    await conn.close()


async def _request(conn, load: Load, method, path, headers, body, expected) -> Response | None:
    try:
        answer = await asyncio.wait_for(conn.request(method, path, headers, body or b""), REQUEST_TIMEOUT_S)
    except (OSError, asyncio.TimeoutError, asyncio.IncompleteReadError, ValueError) as exc:
        load.errors.append(f"{method} {path.split('/')[-1]}: {type(exc).__name__}")
        await conn.close()
        return None
    if answer.status not in expected:
        load.errors.append(f"{method} {path.split('/')[-1]}: {answer.status}")
    return answer


async def _run_load(companion: Served, tables: list[Table], ramp: float, seconds: float,
                    write_every: float) -> tuple[Load, float, float]:
    """Run the phones; return what they saw, the measured seconds and the server's CPU share."""
    load = Load()
    rng = random.Random(7)
    started = time.perf_counter()
    measure_from = started + ramp
    deadline = measure_from + seconds
    for table in tables:
        table.due = measure_from + rng.uniform(0, write_every)
    tasks = [phone(t, seat, AsyncConnection(HOST, companion.port), load, started + rng.uniform(0, ramp), measure_from,
                   deadline, rng, write_every) for t in tables for seat in range(4)]

    async def cpu_at_measure_start() -> float:
        await asyncio.sleep(ramp)
        return companion.cpu_seconds()

    cpu_from, *_ = await asyncio.gather(cpu_at_measure_start(), *tasks)
    elapsed = time.perf_counter() - measure_from
    return load, elapsed, (companion.cpu_seconds() - cpu_from) / elapsed


def convention_load(companion: Served, n_tables: int, ramp: float, seconds: float, write_every: float = 3.0) -> dict:
    """n tables of 4 phones, all polling every 750 ms, each table changing a score every few seconds."""
    setup = Connection(HOST, companion.port)
    tables = [create_table(setup) for _ in range(n_tables)]
    setup.close()
    load, elapsed, cpu = asyncio.run(_run_load(companion, tables, ramp, seconds, write_every))
    every = load.polls + load.writes
    return {
        "tables": n_tables,
        "phones": n_tables * 4,
        "seconds": elapsed,
        "requests": len(every),
        "rps": len(every) / elapsed,
        "p50_ms": ms(pct(every, 50)),
        "p99_ms": ms(pct(every, 99)),
        "poll_p99_ms": ms(pct(load.polls, 99)),
        "write_p50_ms": ms(pct(load.writes, 50)),
        "write_p99_ms": ms(pct(load.writes, 99)),
        "writes": len(load.writes),
        "conflicts": load.conflicts,
        "changes_seen": load.changes_seen,
        "errors": len(load.errors),
        "error_kinds": sorted(set(load.errors))[:5],
        "peak_rss_mb": companion.peak_rss_mb(),
        "processes": len(companion.pids()),
        "server_cpu": cpu,
    }


# --- the run --------------------------------------------------------------------------------


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="under a minute: fewer samples, 50 tables for 10 s")
    parser.add_argument("--json", metavar="FILE", help="also write every figure to FILE as JSON")
    parser.add_argument("--threads", type=int, help="the server's worker threads (default: companion serve's own)")
    parser.add_argument("--workers", type=int, help="the server's processes for latency (default: companion serve's own, 1)")
    parser.add_argument("--load-workers", type=int,
                        help="its processes for the convention load (default: one per core, as a hall runs `companion serve --workers N`)")
    parser.add_argument("--without-fast-paths", action="store_true",
                        help="every request through Flask (COMPANION_FAST_PATHS=off): what polls.py and taps.py save")
    args = parser.parse_args(argv)
    if args.without_fast_paths:
        os.environ["COMPANION_FAST_PATHS"] = "off"  # the servers started below inherit it
        print("fast paths off: every poll and tap goes through Flask\n", flush=True)
    samples, n_tables, ramp, seconds, startups = (200, 50, 5.0, 10.0, 1) if args.quick else (1000, 200, 20.0, 60.0, 3)
    figures: dict = {"quick": args.quick}

    with tempfile.TemporaryDirectory(prefix="companion-bench-") as tmp:
        print(f"start-up: seconds from `companion serve` to its first answer ({startups} run(s), fresh data folder)", flush=True)
        times = []
        for i in range(startups):
            served = start_companion(Path(tmp) / f"startup-{i}")
            times.append(served.startup_s)
            served.stop()
        figures["startup_s"] = {"median": statistics.median(times), "max": max(times)}
        print(f"  median {statistics.median(times):.2f} s, max {max(times):.2f} s\n", flush=True)

        companion = start_companion(Path(tmp) / "latency", args.threads, args.workers)
        hello = start_hello(args.workers)
        try:
            print(f"latency: {samples} rounds over keep-alive connections, one request at a time", flush=True)
            lat = latency(companion, hello, samples)
            figures["latency"] = lat
            for kind in ("hello", "score_change", "table_page", "live_304", "live_200"):
                print(f"  {kind:<13} median {lat[kind]['median_ms']:7.2f} ms   p99 {lat[kind]['p99_ms']:7.2f} ms", flush=True)
            print(f"  latency_ratio (score change / hello, medians) {lat['latency_ratio']:.2f}; the score change came from {lat['score_change_by']}", flush=True)
            if lat["unexpected"]:
                print(f"  unexpected answers: {lat['unexpected']}", flush=True)
            print(flush=True)

            print("page weight: each game's table page, first load with everything it pulls, and one live update", flush=True)
            weight = page_weights(companion)
            figures["weight"] = weight
            first = weight["games"][0]
            for name, raw, zipped in first["parts"][1:]:
                print(f"  {name:<40} {kb(raw):7.1f} KiB raw {kb(zipped):6.1f} KiB gzip", flush=True)
            for w in weight["games"]:
                print(f"  {w['game'] + ': page, all in':<40} {w['page_raw_kb']:7.1f} KiB raw {w['page_gzip_kb']:6.1f} KiB gzip"
                      f"   live update {w['fragment_raw_kb']:5.1f} KiB raw {w['fragment_gzip_kb']:4.1f} KiB gzip", flush=True)
            print("  (the summary line keeps the heaviest of each)\n", flush=True)
        finally:
            companion.stop()
            hello.stop()

        from companion.workers import hall_workers

        load_workers = args.load_workers or hall_workers()
        companion = start_companion(Path(tmp) / "load", args.threads, load_workers)
        try:
            print(f"convention load: {n_tables} tables x 4 phones polling every {POLL_S * 1000:.0f} ms, "
                  f"a score change per table every ~3 s, for {seconds:.0f} s (after {ramp:.0f} s in which the phones join),\n"
                  f"  against `companion serve --workers {load_workers}` (a hall's setting: one process per core)", flush=True)
            load = convention_load(companion, n_tables, ramp, seconds)
            load["workers"] = load_workers
            figures["load"] = load
            print(f"  {load['requests']} requests in {load['seconds']:.1f} s: {load['rps']:.0f} req/s", flush=True)
            print(f"  all requests p50 {load['p50_ms']:.1f} ms, p99 {load['p99_ms']:.1f} ms "
                  f"(polls p99 {load['poll_p99_ms']:.1f} ms; score changes p50 {load['write_p50_ms']:.1f} ms, p99 {load['write_p99_ms']:.1f} ms)", flush=True)
            print(f"  {load['writes']} score changes ({load['conflicts']} answered 409), {load['changes_seen']} live updates received", flush=True)
            print(f"  errors {load['errors']} {load['error_kinds'] or ''}", flush=True)
            print(f"  server ({load['processes']} processes): peak RSS {load['peak_rss_mb']:.1f} MiB (sum of each one's), "
                  f"CPU {load['server_cpu'] * 100:.0f}% of one core\n", flush=True)
        finally:
            companion.stop()

    if args.json:
        Path(args.json).write_text(json.dumps(figures, indent=2) + "\n")
    print(f"latency_ratio={figures['latency']['latency_ratio']:.2f} load_p99_ms={figures['load']['p99_ms']:.1f} "
          f"load_errors={figures['load']['errors']} page_gzip_kb={figures['weight']['page_gzip_kb']:.1f} "
          f"fragment_gzip_kb={figures['weight']['fragment_gzip_kb']:.1f}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
