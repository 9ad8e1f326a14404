"""The distinct-pairs guest (issue 39): what one guest's streams on many screens cost another table. Prints figures.

    python bench/guest.py            # two phases of 20 s, about a minute
    python bench/guest.py --quick    # two phases of 10 s, about 30 s
    python bench/guest.py --workers 1 --seconds 15

A guest at one table holds 200 event streams on it (--streams), each on a different (screen,
language) pair, and taps that table every 0.5 s. Meanwhile another table, 4 phones on
addresses of their own, taps every 0.5 to 1.5 s, and we measure its push propagation (from a
tap's answer to its other phones holding the version, bench/run.py's Spread), how many of its
pushes were skipped (a phone went from an older version to a newer one without it) or late
(not at every other phone within 10 s), and the server's CPU in the window. Then the same with
the guest's 200 streams all on one pair (the main screen, English): the baseline.

- The pairs are real screens, each drawn on its own: the game's `screen_of` (companion/games/
  */view.py) names the screen a page asks for, a made-up one being the main screen. The game
  with the most distinct screens among the ones its view knows is the guest's (Codex: its score
  track, the end, each player's book and each player's grid of each pattern card), read in the
  six languages (the `lang` cookie, companion/web/language.py).
- The server is `companion serve --workers N` (one per core unless told) with the per-client
  caps at their defaults (companion/limits.py): the guest's streams come from as many loopback
  addresses (127.1.x.y, as bench/capacity.py) as the stream cap needs, every phone of the other
  table from an address of its own. A stream refused (429) is counted and printed.
- The other table is bench/run.py's hall at one table: the phones load the page and hold the
  stream (`_run_hall`), the table reads two languages. The guest's streams are read in this
  process, as the hall's phones are; its CPU is printed beside the server's.

The last line is the summary, the target printed beside (the other table's push p95 <= 250 ms):

    guest_other_push_p95_ms=… guest_cpu_s=… one_screen_cpu_s=… guest_cost_ratio=…

`guest_cpu_s` and `one_screen_cpu_s` are the server's CPU seconds in each phase's window;
their ratio is what the distinct pairs cost over one pair. These are measurements, never
assertions; bench/README.md holds the figures.
"""

from __future__ import annotations

import argparse
import asyncio
import math
import os
import resource
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.capacity import TARGET_PROPAGATION_P95_MS, loadavg, source_address, spread_phones, uptime  # noqa: E402
from bench.client import AsyncConnection, Connection, EventStream  # noqa: E402
from bench.run import (HOST, LANGUAGES, PLAYERS, PROPAGATION_LIMIT_S, Served, Spread, Table, _run_hall,  # noqa: E402
                       browser_headers, create_table, hello_cpu_ms, make_tables, ms, pct, read_answer, read_page,
                       read_steppers, score_change, start_companion, tap)

TAP_EVERY_S = 0.5  # the guest's taps
OTHER_TAP_EVERY_S = 1.0  # the other table's: 0.5 to 1.5 s apart (bench/run.py's taps_at)
OPEN_AT_ONCE = 50  # guest streams whose opening is in flight at a time
GUEST_ADDRESS = 1000  # the guest's addresses are source_address(1000), (1001), ...: none of the other phones'


# --- the pairs ----------------------------------------------------------------------------------


def candidate_screens(players: int) -> list[str]:
    """Every `?screen=` some game's view knows, as a page spells it (the main screen as "")."""
    from companion.games.codex import cards

    screens = ["", "end", "table", "track", "book"]
    for seat in range(players):
        screens.append(f"book-{seat}")
        screens += [f"grid-{seat}-{card}" for card in cards.pattern_ids()]
    return screens


def real_screens(game_key: str, players: int) -> list[str]:
    """The candidates that are screens of their own for the game: one spelling of each distinct
    screen_of (companion/web/tables.py's drawn_as keeps a render under it), the main screen first."""
    from companion import games

    game, names = games.get(game_key), PLAYERS[:players]
    seen: dict = {}
    for screen in candidate_screens(players):
        seen.setdefault(game.screen_of(screen, names), screen)
    return list(seen.values())


def guest_game() -> tuple[str, list[str]]:
    """The game with the most distinct real screens at its most players, and those screens."""
    from companion import games

    found = {key: real_screens(key, min(len(PLAYERS), g.max_players)) for key, g in games.registry().items()}
    print("  distinct real screens: " + ", ".join(f"{key} {len(s)}" for key, s in found.items()), flush=True)
    key = max(found, key=lambda k: len(found[k]))
    return key, found[key]


def distinct_pairs(screens: list[str], count: int) -> list[tuple[str, str]]:
    """`count` different (screen, language) pairs: every screen in English, then in French, ..."""
    pairs = [(screen, lang) for lang in LANGUAGES for screen in screens]
    if len(pairs) < count:
        raise SystemExit(f"only {len(pairs)} distinct (screen, language) pairs for {count} streams")
    return pairs[:count]


# --- the guest ----------------------------------------------------------------------------------


class Guest:
    """One guest's streams on its table, read as they come, and its taps."""

    def __init__(self, port: int, table: Table, game_key: str, pairs: list[tuple[str, str]], per_address: int):
        self.port, self.table, self.game, self.pairs, self.per_address = port, table, game_key, pairs, per_address
        self.streams: list[EventStream] = []
        self.refused = 0  # 429: past the per-address cap
        self.failed: list[str] = []
        self.events = 0
        self.ended = 0
        self.taps: list[tuple[float, float, object]] = []  # each tap's (sent at, seconds to its answer, status or exception)

    def source(self, i: int) -> str:
        return source_address(GUEST_ADDRESS + i // self.per_address)

    async def open(self) -> None:
        """Open every stream (OPEN_AT_ONCE at a time) at the table's version; wait for every answer's head."""
        gate = asyncio.Semaphore(OPEN_AT_ONCE)

        async def one(i: int, screen: str, lang: str) -> None:
            stream = EventStream(HOST, self.port, self.source(i))
            query = urlencode({"screen": screen, "v": self.table.version})
            headers = {"Cookie": f"tc_{self.table.id}={self.table.token}; lang={lang}", "Accept": "text/event-stream",
                       "Sec-Fetch-Site": "same-origin", "Cache-Control": "no-cache"}
            async with gate:
                try:
                    head = await asyncio.wait_for(stream.open(f"/t/{self.table.id}/events?{query}", headers), 30)
                except (OSError, asyncio.TimeoutError, asyncio.IncompleteReadError, ValueError) as exc:
                    self.failed.append(type(exc).__name__)
                    return
            if head.status == 429:
                self.refused += 1
            elif head.status != 200:
                self.failed.append(str(head.status))
            else:
                self.streams.append(stream)
                return
            stream.close()

        await asyncio.gather(*(one(i, screen, lang) for i, (screen, lang) in enumerate(self.pairs)))

    async def read(self, stream: EventStream) -> None:
        try:
            while (event := await stream.next()) is not None:
                self.events += event.event != "alive"
            self.ended += 1
        except (OSError, asyncio.IncompleteReadError, ValueError):
            self.ended += 1

    async def tapping(self, stop: asyncio.Event) -> None:
        """Tap a score every TAP_EVERY_S from the main screen's page, as its stepper or form posts it, until `stop`."""
        conn = AsyncConnection(HOST, self.port, self.source(0))
        page = await conn.request("GET", f"/t/{self.table.id}", browser_headers(self.table, htmx=False))
        read_page(self.table, page.text())
        read_steppers(self.table, page.text())
        due = time.perf_counter()
        try:
            while not stop.is_set():
                type_, data = score_change(self.game, self.table.changes)
                headers, body = tap(self.table, 0, type_, data)
                sent_at = time.perf_counter()
                try:
                    answer = await conn.request("POST", f"/t/{self.table.id}/events", headers, body)
                except (OSError, asyncio.IncompleteReadError, ValueError) as exc:  # counted; the next goes on a new connection
                    self.taps.append((sent_at, time.perf_counter() - sent_at, type(exc).__name__))
                    conn.drop()
                else:
                    self.taps.append((sent_at, answer.seconds, answer.status))
                    self.table.changes += answer.status == 200
                    read_answer(self.table, answer)
                due = max(due + TAP_EVERY_S, time.perf_counter())
                try:
                    await asyncio.wait_for(stop.wait(), due - time.perf_counter())
                except asyncio.TimeoutError:
                    pass
        finally:
            await conn.close()

    def close(self) -> None:
        for stream in self.streams:
            stream.close()


class Pushes(Spread):
    """bench/run.py's Spread, which also keeps each tap's version and every version each phone held:
    a push was skipped at a phone that never held its version but went on to a newer one."""

    def __init__(self):
        super().__init__()
        self.tapped_versions: list[tuple[str, int, int]] = []
        self.seen: dict[tuple[str, int], set[int]] = {}

    def holds(self, table_id: str, seat: int, version: int, now: float) -> None:
        self.seen.setdefault((table_id, seat), set()).add(version)
        super().holds(table_id, seat, version, now)

    def tapped(self, table_id: str, seat: int, version: int, now: float) -> None:
        self.tapped_versions.append((table_id, seat, version))
        super().tapped(table_id, seat, version, now)

    def skipped(self) -> tuple[int, int]:
        """(pushes skipped, pushes in all): a push is one tap's version at one of its table's other phones."""
        skipped = total = 0
        for table_id, seat, version in self.tapped_versions:
            for other in self.seats:
                if other != seat:
                    held = self.seen.get((table_id, other), set())
                    total += 1
                    skipped += version not in held and max(held, default=-1) > version
        return skipped, total


# --- a phase ------------------------------------------------------------------------------------


async def _phase(companion: Served, guest: Guest, other: Table, seconds: float) -> dict:
    opened_at = time.perf_counter()
    await guest.open()
    open_s = time.perf_counter() - opened_at
    readers = [asyncio.create_task(guest.read(s)) for s in guest.streams]
    stop = asyncio.Event()
    tapper = asyncio.create_task(guest.tapping(stop))
    pushes = Pushes()
    try:
        # the guest taps from now until the window's end; the other table's phones join meanwhile
        run = await _run_hall(companion, [other], 2.0, seconds, OTHER_TAP_EVERY_S, spread_phones(1), pushes)
    finally:
        stop.set()
        await asyncio.gather(tapper, return_exceptions=True)
        for task in readers:
            task.cancel()
        await asyncio.gather(*readers, return_exceptions=True)
        guest.close()
    return {"run": run, "pushes": pushes, "open_s": open_s}


def phase(name: str, data: Path, workers: int, extra: list[str], pairs: list[tuple[str, str]], game_key: str,
          per_address: int, seconds: float) -> dict:
    """A fresh server; the guest's table and the other table; the guest's streams on `pairs`; the window's figures."""
    load_before = loadavg()
    companion = start_companion(data, workers, extra)
    try:
        setup = Connection(HOST, companion.port)
        table = create_table(setup, game_key, PLAYERS[:4])
        setup.close()
        guest = Guest(companion.port, table, game_key, pairs, per_address)
        other = make_tables(companion, 1)[0]
        got = asyncio.run(_phase(companion, guest, other, seconds))
    finally:
        companion.stop()
    run, pushes = got["run"], got["pushes"]
    load = run["load"]
    spread = pushes.figures()
    skipped, pushed = pushes.skipped()
    other_changes = len(load.writes) - load.conflicts
    taps = [(seconds, status) for sent_at, seconds, status in guest.taps if load.counts(sent_at)]  # in the window
    statuses: dict = {}
    for _, status in taps:
        statuses[status] = statuses.get(status, 0) + 1
    return {
        "phase": name, "pairs": len(set(pairs)), "streams": len(pairs), "held": len(guest.streams),
        "refused": guest.refused, "failed": sorted(set(guest.failed))[:5], "open_s": got["open_s"],
        "guest_taps": len(taps), "guest_statuses": statuses,
        "guest_tap_p50_ms": ms(pct([t for t, _ in taps], 50)), "guest_tap_p99_ms": ms(pct([t for t, _ in taps], 99)),
        "guest_events": guest.events, "guest_ended": guest.ended,
        "other_taps": other_changes, "other_conflicts": load.conflicts,
        "push_p50_ms": spread["p50_ms"], "push_p95_ms": spread["p95_ms"], "push_max_ms": spread["max_ms"],
        "late": spread["late"], "skipped": skipped, "pushes": pushed,
        "errors": sorted(set(load.errors))[:5], "error_count": len(load.errors),
        "seconds": run["seconds"], "server_cpu_s": run["server_cpu"] * run["seconds"],
        "server_cpu_pct": run["server_cpu"] * 100, "bench_cpu_pct": run["bench_cpu"] * 100,
        "others_cpu_pct": run["others_cpu"] * 100, "load_before": load_before, "load_after": loadavg(),
    }


def print_phase(f: dict, hello_ms: float) -> None:
    changes = sum(n for status, n in f["guest_statuses"].items() if status == 200) + f["other_taps"]
    per_change = f["server_cpu_s"] * 1000 / changes if changes else math.nan
    print(f"{f['phase']}: streams={f['held']} of {f['streams']} on {f['pairs']} pair(s) (refused {f['refused']}, "
          f"failed {len(f['failed'])} {f['failed'] or ''}) opened_in_s={f['open_s']:.1f}", flush=True)
    print(f"  guest: {f['guest_taps']} taps in the window {f['guest_statuses']} p50 {f['guest_tap_p50_ms']:.1f} ms p99 "
          f"{f['guest_tap_p99_ms']:.1f} ms; its streams received {f['guest_events']} events in all, {f['guest_ended']} ended by the server", flush=True)
    print(f"  other table: {f['other_taps']} taps answered 200 ({f['other_conflicts']} 409); push p50 {f['push_p50_ms']:.1f} ms, "
          f"p95 {f['push_p95_ms']:.1f} ms, max {f['push_max_ms']:.1f} ms; skipped {f['skipped']} of {f['pushes']} pushes, "
          f"{f['late']} taps late (not at every other phone within {PROPAGATION_LIMIT_S:.0f} s); "
          f"errors {f['error_count']} {f['errors'] or ''}", flush=True)
    print(f"  server CPU {f['server_cpu_s']:.2f} s in {f['seconds']:.1f} s ({f['server_cpu_pct']:.0f}% of a core), "
          f"{per_change:.1f} ms per change ({per_change / hello_ms if hello_ms else math.nan:.0f} times a bare hello request's); "
          f"load generator {f['bench_cpu_pct']:.0f}%, others {f['others_cpu_pct']:.0f}% of a core; "
          f"load {f['load_before']} -> {f['load_after']}", flush=True)
    if f["bench_cpu_pct"] > 90:
        print("  the load generator was saturated: the figures measure it too", flush=True)
    if f["others_cpu_pct"] > 50:
        print("  other processes took more than half a core: noisy", flush=True)


def main(argv: list[str] | None = None) -> int:
    from companion import limits
    from companion.workers import hall_workers

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="windows of 10 s")
    parser.add_argument("--seconds", type=float, default=None, help="each phase's window (default 20, 10 with --quick)")
    parser.add_argument("--streams", type=int, default=200, help="the guest's streams (default 200)")
    parser.add_argument("--workers", type=int, default=None, help="the server's processes (default: one per core)")
    parser.add_argument("--stream-limit", type=int, default=limits.STREAMS_PER_CLIENT,
                        help=f"streams one address may hold, given to serve (default {limits.STREAMS_PER_CLIENT}, serve's own)")
    args = parser.parse_args(argv)
    seconds = args.seconds or (10.0 if args.quick else 20.0)
    workers = args.workers or hall_workers()
    per_address = args.stream_limit  # counted per process: with one address per cap no process can refuse
    extra = ["--stream-limit", str(args.stream_limit), "--connection-limit", str(limits.CONNECTIONS_PER_CLIENT)]
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))

    print(f"guest: {os.cpu_count()} cores, `companion serve --workers {workers}` with --stream-limit {args.stream_limit}; "
          f"uptime before: {uptime()}", flush=True)
    hello_ms = hello_cpu_ms(workers)
    print(f"  a bare hello (bench/hello.py, {workers} worker(s)): {hello_ms:.3f} ms of server CPU a request", flush=True)
    game_key, screens = guest_game()
    pairs = distinct_pairs(screens, args.streams)
    addresses = math.ceil(args.streams / per_address)
    print(f"  the guest: {game_key}, {args.streams} streams from {addresses} address(es), a tap every {TAP_EVERY_S} s; "
          f"the other table: gutenberg, 4 phones, a tap every {OTHER_TAP_EVERY_S * 0.5:g}-{OTHER_TAP_EVERY_S * 1.5:g} s; "
          f"windows of {seconds:.0f} s\n", flush=True)
    with tempfile.TemporaryDirectory(prefix="companion-guest-") as tmp:
        distinct = phase("distinct_pairs", Path(tmp) / "distinct", workers, extra, pairs, game_key, per_address, seconds)
        print_phase(distinct, hello_ms)
        one = phase("one_pair", Path(tmp) / "one", workers, extra, [pairs[0]] * args.streams, game_key, per_address, seconds)
        print_phase(one, hello_ms)
    p95 = distinct["push_p95_ms"]
    ratio = distinct["server_cpu_s"] / one["server_cpu_s"] if one["server_cpu_s"] else math.nan
    print(f"\n  uptime after: {uptime()}", flush=True)
    print(f"  the other table's push p95 with the guest {p95:.1f} ms, with {args.streams} streams on one pair "
          f"{one['push_p95_ms']:.1f} ms: target <= {TARGET_PROPAGATION_P95_MS:.0f} ms "
          f"{'met' if p95 <= TARGET_PROPAGATION_P95_MS else 'MISSED'}; the server's CPU {distinct['server_cpu_s']:.2f} s "
          f"against {one['server_cpu_s']:.2f} s: {ratio:.1f} times", flush=True)
    print(f"guest_other_push_p95_ms={p95:.1f} guest_cpu_s={distinct['server_cpu_s']:.2f} "
          f"one_screen_cpu_s={one['server_cpu_s']:.2f} guest_cost_ratio={ratio:.1f}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
