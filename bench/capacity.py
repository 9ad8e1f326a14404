"""How much one `companion serve` holds (issue 31): tables and phones within the hall targets, memory per open stream, CPU per change. Prints figures.

    python bench/capacity.py                      # both parts, --workers 1 then 2: 4-15 minutes, by where the targets break
    python bench/capacity.py --tables 100 200 --seconds 20 --streams 1000   # a shorter look
    python bench/capacity.py --serve-arg=--some-option --serve-arg=VALUE  # more `companion serve` arguments

1. The hall, stepped. For each number of workers and each step of tables, a fresh `companion
   serve --workers W --create-limit off` on a fresh data folder, and bench/run.py's convention
   load against it (`convention_load`: 4 phones a table, each loading the page and holding the
   table's event stream; a tap at each table every 1.5 to 4.5 s, its phones in turn), joined
   over a ramp and then measured for --seconds. One line a step: tables, phones, taps/s, every
   request's p50/p99, propagation p95, errors, the server's CPU (percent of one core, and
   milliseconds per change: its CPU seconds in the window over the changes answered 200 in it,
   the fan-out to the table's phones and everything else it did meanwhile included; and that
   over the CPU of one bare hello request, bench/hello.py served by as many workers, measured
   once at the start of the run: `cpu_per_change_ratio`, issue 39's measure), its peak
   RSS (VmHWM, summed over its processes), this process's CPU (the load generator's) and other
   processes' CPU, the load average, and whether the step held the hall targets of
   bench/README.md: load p99 <= 100 ms, propagation p95 <= 250 ms, 0 errors. A worker count's
   steps stop after the first step that misses them (--all-steps goes on).
2. Memory per open stream. A fresh `companion serve --workers 1`, --streams[-1]/4 tables, then
   idle streams opened in steps (1000, 2000, 4000: 4 a table, as 4 phones hold them), each
   settled for a few seconds: the server's resident memory (VmRSS now, summed over its
   processes) before and after, per stream from nothing and between steps, and its CPU over
   one keep-alive period (10 s) while it holds them and nobody taps.

Every phone, and every idle stream, connects from a loopback address of its own (127.1.0.2,
127.1.0.3, ...: Linux routes all of 127.0.0.0/8 to lo), as phones come from addresses of
their own, so that a cap of streams or connections per client address does not count the
whole hall as one client; `--phones-per-address N` puts N on each, 0 all on 127.0.0.1 as
bench/run.py does. Only the tables are created from 127.0.0.1 (with --create-limit off).

The load generator is this one Python process, on the same machine as the server: at 2 cores
the two compete, and its CPU is printed beside the server's (past 90% of a core it was
saturated, and the step measured it, not the server). These are measurements, never
assertions; bench/README.md holds the figures, docs/scaling.md what they mean.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.client import AsyncConnection, EventStream  # noqa: E402
from bench.run import (HELLO_REQUESTS, HOST, Phone, Served, Table, convention_load, hello_cpu_ms,  # noqa: E402
                       machine_cpu_seconds, make_tables, ratio, start_companion)

TARGET_P99_MS = 100.0
TARGET_PROPAGATION_P95_MS = 250.0
KEEP_ALIVE_S = 10.0  # companion/web/push.py's KEEP_ALIVE_S: an idle stream's CPU shows over one period
OPEN_AT_ONCE = 100  # streams whose opening is in flight at a time (below the server's backlog)


def source_address(i: int) -> str:
    """The i-th loopback source address: 127.1.0.2, 127.1.0.3, ... (last byte 2-251, never .0, .1 or .255)."""
    rest, last = divmod(i, 250)
    second, third = divmod(rest, 250)
    return f"127.{1 + second}.{third}.{last + 2}"


def spread_phones(per_address: int) -> type:
    """A Phone class whose phones come from loopback addresses of their own, `per_address` each (0: 127.0.0.1)."""
    seated = iter(range(1 << 30))

    class SpreadPhone(Phone):
        def __init__(self, *args):
            n = next(seated)
            self.source = source_address(n // per_address) if per_address else None
            super().__init__(*args)

        def connection(self) -> AsyncConnection:
            return AsyncConnection(HOST, self.port, self.source)

        def event_stream(self) -> EventStream:
            return EventStream(HOST, self.port, self.source)

    return SpreadPhone


def rss_mb(served: Served) -> float:
    """The server's resident memory now (VmRSS), summed over its processes, in MiB."""
    return served.memory_mb("VmRSS")


def loadavg() -> str:
    return " ".join(Path("/proc/loadavg").read_text().split()[:3])


def uptime() -> str:
    try:
        return subprocess.run(["uptime"], capture_output=True, text=True, timeout=5).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return f"load average {loadavg()}"


# --- 1. the hall, stepped -----------------------------------------------------------------------


def hall_step(data: Path, workers: int, tables: int, seconds: float, ramp: float | None, extra: list[str], phone: type,
              hello_ms: float = float("nan")) -> dict:
    """One step: a fresh server, the convention load with `tables` tables, its figures (`hello_ms`: a bare hello's CPU)."""
    # phones join at most 100 a second (each loads a page, about 5 ms of the server's CPU)
    ramp = ramp if ramp is not None else max(10.0, tables * 4 / 100)
    load_before = loadavg()
    companion = start_companion(data, workers, extra)
    try:
        f = convention_load(companion, tables, ramp, seconds, workers, phone=phone)
    finally:
        companion.stop()
    changes = f["writes"] - f["conflicts"]
    missed = [name for name, bad in (("p99", f["p99_ms"] > TARGET_P99_MS),
                                     ("propagation", f["propagation"]["p95_ms"] > TARGET_PROPAGATION_P95_MS),
                                     ("errors", f["errors"] > 0)) if bad]
    return {
        "workers": workers, "tables": tables, "phones": f["phones"], "streams_open": f["streams_open"],
        "ramp_s": ramp, "seconds": f["seconds"],
        "taps_per_s": f["writes"] / f["seconds"], "changes": changes, "conflicts": f["conflicts"],
        "p50_ms": f["p50_ms"], "p99_ms": f["p99_ms"], "write_p99_ms": f["write_p99_ms"],
        "propagation_p50_ms": f["propagation"]["p50_ms"], "propagation_p95_ms": f["propagation"]["p95_ms"],
        "errors": f["errors"], "error_kinds": f["error_kinds"], "refused": f["refused"], "polls": f["polls"],
        "keep_alives": f["keep_alives"],
        "server_cpu_pct": f["server_cpu"] * 100, "cpu_ms_per_change": f["cpu_ms_per_change"],
        "cpu_per_change_ratio": ratio(f["cpu_ms_per_change"], hello_ms),
        "peak_rss_mb": f["peak_rss_mb"], "processes": f["processes"],
        "bench_cpu_pct": f["bench_cpu"] * 100, "others_cpu_pct": f["others_cpu"] * 100,
        "load_before": load_before, "load_after": loadavg(),
        "within": not missed, "missed": missed,
    }


def print_step(s: dict) -> None:
    verdict = "within targets" if s["within"] else "MISSED " + ",".join(s["missed"])
    print(f"workers={s['workers']} tables={s['tables']:4d} phones={s['phones']:5d} streams={s['streams_open']:5d} "
          f"taps/s={s['taps_per_s']:6.1f} p50_ms={s['p50_ms']:7.1f} p99_ms={s['p99_ms']:8.1f} "
          f"prop_p95_ms={s['propagation_p95_ms']:8.1f} errors={s['errors']:4d} "
          f"server_cpu={s['server_cpu_pct']:4.0f}% cpu_ms/change={s['cpu_ms_per_change']:5.2f} "
          f"cpu_per_change_ratio={s['cpu_per_change_ratio']:4.0f} "
          f"peak_rss_mb={s['peak_rss_mb']:6.1f} bench_cpu={s['bench_cpu_pct']:3.0f}% others_cpu={s['others_cpu_pct']:3.0f}% "
          f"load={s['load_before']}->{s['load_after']}  {verdict}", flush=True)
    notes = []
    if s["error_kinds"]:
        notes.append(f"errors: {s['error_kinds']}")
    if s["refused"] or s["polls"]:
        notes.append(f"{s['refused']} streams refused (204), {s['polls']} polls")
    if s["bench_cpu_pct"] > 90:
        notes.append("the load generator was saturated: this step measured it, not the server")
    if s["others_cpu_pct"] > 50:
        notes.append("other processes took more than half a core: noisy")
    cores = os.cpu_count() or 1
    if s["server_cpu_pct"] + s["bench_cpu_pct"] + s["others_cpu_pct"] > 90 * cores:
        notes.append(f"the machine was saturated (server, load generator and others together past 90% of its {cores} cores): "
                     "the server waited for a core")
    expected = s["phones"] * (s["seconds"] + s["ramp_s"] + 20) / KEEP_ALIVE_S
    if s["keep_alives"] > 3 * expected:
        notes.append(f"{s['keep_alives']} keep-alives received, about {expected:.0f} expected: a keep-alive flood (bench/README.md)")
    if notes:
        print("    " + "; ".join(notes), flush=True)


def busy_pct(seconds: float = 3.0) -> float:
    """The CPU the whole machine used over the next `seconds`, in percent of one core (no server of ours runs then)."""
    began = machine_cpu_seconds()
    time.sleep(seconds)
    return (machine_cpu_seconds() - began) / seconds * 100


def calm(below: float | None, most_s: float, cpu_below: float | None = None) -> None:
    """Wait (at most most_s) until the one-minute load average is under `below` and the machine's CPU
    over 3 s under `cpu_below` percent of a core; say how long it took."""
    if below is None and cpu_below is None:
        return
    began = time.perf_counter()
    busy = float("nan")
    while time.perf_counter() - began < most_s:
        if below is None or float(loadavg().split()[0]) < below:
            busy = busy_pct() if cpu_below is not None else busy
            if cpu_below is None or busy < cpu_below:
                break
        time.sleep(1)
    waited = time.perf_counter() - began
    if waited >= 1:  # the last look's figures: those that let the step start, or not, at the end of the wait
        print(f"    (waited {waited:.0f} s for a calmer machine: load average {loadavg()}"
              + (f", CPU in use {busy:.0f}% of a core over 3 s)" if cpu_below is not None else ")"), flush=True)


def sweep(tmp: Path, workers: int, steps: list[int], seconds: float, ramp: float | None, extra: list[str],
          per_address: int, all_steps: bool, calm_below: float | None = None, calm_most_s: float = 60,
          calm_cpu: float | None = None, hello_ms: float = float("nan")) -> list[dict]:
    done = []
    for tables in steps:
        calm(calm_below, calm_most_s, calm_cpu)
        step = hall_step(tmp / f"hall-w{workers}-t{tables}", workers, tables, seconds, ramp, extra, spread_phones(per_address),
                         hello_ms)
        print_step(step)
        done.append(step)
        if not step["within"] and not all_steps:
            break
    return done


# --- 2. memory per open stream ------------------------------------------------------------------


async def hold_streams(port: int, tables: list[Table], counts: list[int], served: Served, per_address: int) -> list[dict]:
    """Open idle streams (4 a table) up to each count in turn; after each, the server's memory and idle CPU."""
    gate = asyncio.Semaphore(OPEN_AT_ONCE)
    streams: list[EventStream] = []
    readers: list[asyncio.Task] = []
    failed: list[str] = []

    async def read(stream: EventStream) -> None:
        try:
            while await stream.next() is not None:  # keep-alives: nothing newer comes
                pass
        except (OSError, asyncio.IncompleteReadError, ValueError):
            pass

    async def one(i: int) -> None:
        table = tables[i // 4]
        source = source_address(i // per_address) if per_address else None
        stream = EventStream(HOST, port, source)
        headers = {"Cookie": table.cookie(i % 4), "Accept": "text/event-stream", "Sec-Fetch-Site": "same-origin",
                   "Cache-Control": "no-cache"}
        async with gate:
            try:
                head = await asyncio.wait_for(stream.open(f"/t/{table.id}/events?screen=&v=0", headers), 30)
            except (OSError, asyncio.TimeoutError, asyncio.IncompleteReadError, ValueError) as exc:
                failed.append(type(exc).__name__)
                return
        if head.status != 200:
            failed.append(str(head.status))
            return
        streams.append(stream)
        readers.append(asyncio.create_task(read(stream)))

    figures = []
    base = rss_mb(served)
    previous_n, previous_rss = 0, base
    print(f"  before any stream: {len(tables)} tables, server RSS {base:.1f} MiB", flush=True)
    try:
        for count in counts:
            began = time.perf_counter()
            await asyncio.gather(*(one(i) for i in range(previous_n, count)))
            opened_s = time.perf_counter() - began
            await asyncio.sleep(3)  # the greenlets, buffers and hub entries settle
            rss = rss_mb(served)
            cpu_from, all_from, own_from = served.cpu_seconds(), machine_cpu_seconds(), time.process_time()
            await asyncio.sleep(KEEP_ALIVE_S)  # one keep-alive period: each stream is written once
            cpu = served.cpu_seconds() - cpu_from
            own = time.process_time() - own_from
            others = max(0.0, machine_cpu_seconds() - all_from - cpu - own)
            held = len(streams) - sum(r.done() for r in readers)
            row = {"streams": count, "held": held, "failed": len(failed), "opened_s": opened_s, "rss_mb": rss,
                   "kib_per_stream": (rss - base) * 1024 / count,
                   "kib_per_stream_step": (rss - previous_rss) * 1024 / (count - previous_n),
                   "idle_cpu_pct": cpu / KEEP_ALIVE_S * 100, "bench_cpu_pct": own / KEEP_ALIVE_S * 100,
                   "others_cpu_pct": others / KEEP_ALIVE_S * 100, "load": loadavg()}
            print(f"  streams={count:5d} held={held:5d} failed={len(failed)} opened_in_s={opened_s:5.1f} "
                  f"rss_mb={rss:7.1f} KiB/stream={row['kib_per_stream']:5.1f} (this step {row['kib_per_stream_step']:5.1f}) "
                  f"idle_cpu={row['idle_cpu_pct']:4.1f}% of a core bench_cpu={row['bench_cpu_pct']:3.0f}% "
                  f"others_cpu={row['others_cpu_pct']:3.0f}% load={row['load']}", flush=True)
            if failed:
                print(f"    failed openings: {sorted(set(failed))[:5]}", flush=True)
            figures.append(row)
            previous_n, previous_rss = count, rss
    finally:
        for task in readers:
            task.cancel()
        await asyncio.gather(*readers, return_exceptions=True)
        for stream in streams:
            stream.close()
    return figures


def memory(tmp: Path, counts: list[int], workers: int, extra: list[str], per_address: int) -> list[dict]:
    companion = start_companion(tmp / "memory", workers, extra)
    try:
        tables = make_tables(companion, (max(counts) + 3) // 4)
        return asyncio.run(hold_streams(companion.port, tables, counts, companion, per_address))
    finally:
        companion.stop()


# --- the run ------------------------------------------------------------------------------------


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--workers", type=int, nargs="+", default=[1, 2], help="the hall's worker counts, in turn (default: 1 2)")
    parser.add_argument("--tables", type=int, nargs="+", default=[100, 200, 300, 400, 600, 800],
                        help="the steps of tables (default: 100 200 300 400 600 800)")
    parser.add_argument("--seconds", type=float, default=30.0, help="the measured window of each step (default 30)")
    parser.add_argument("--ramp", type=float, default=None, help="seconds in which the phones join (default: 10, or phones/100)")
    parser.add_argument("--all-steps", action="store_true", help="go on past the first step that misses the targets")
    parser.add_argument("--streams", type=int, nargs="*", default=[1000, 2000, 4000],
                        help="idle streams held in turn for the memory part (default: 1000 2000 4000; none: skip it)")
    parser.add_argument("--memory-workers", type=int, default=1, help="the server's processes for the memory part (default 1)")
    parser.add_argument("--no-hall", action="store_true", help="skip the hall sweep")
    parser.add_argument("--phones-per-address", type=int, default=1, metavar="N",
                        help="phones (or idle streams) per loopback source address (default 1; 0: all from 127.0.0.1)")
    parser.add_argument("--serve-arg", action="append", default=[], metavar="ARG",
                        help="one more argument for every `companion serve` (repeat it; write --serve-arg=--option)")
    parser.add_argument("--calm", type=float, default=None, metavar="LOAD",
                        help="before each step, wait until the one-minute load average is under LOAD (at most --calm-wait s)")
    parser.add_argument("--calm-cpu", type=float, default=None, metavar="PCT",
                        help="before each step, wait until the machine's CPU over 3 s is under PCT%% of a core (at most --calm-wait s)")
    parser.add_argument("--calm-wait", type=float, default=60.0, metavar="S", help="the longest such wait (default 60 s)")
    parser.add_argument("--json", metavar="FILE", help="also write every figure to FILE as JSON")
    args = parser.parse_args(argv)

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)  # every phone holds two sockets
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    started = time.perf_counter()
    print(f"capacity: {os.cpu_count()} cores; serve arguments added: {args.serve_arg or 'none'}; "
          f"phones per source address: {args.phones_per_address or 'all on 127.0.0.1'}", flush=True)
    print(f"  uptime before: {uptime()}", flush=True)
    figures: dict = {"argv": sys.argv[1:], "uptime_before": uptime(), "hall": [], "memory": [], "hello_cpu_ms": {}}
    with tempfile.TemporaryDirectory(prefix="companion-capacity-") as tmp:
        if not args.no_hall:
            for workers in args.workers:  # once, before any step: the ratio's baseline
                figures["hello_cpu_ms"][workers] = hello_cpu_ms(workers)
                print(f"  a bare hello (bench/hello.py, {workers} worker(s)): {figures['hello_cpu_ms'][workers]:.3f} ms "
                      f"of server CPU a request, over {HELLO_REQUESTS} keep-alive requests", flush=True)
            print(f"\nthe hall: {args.seconds:.0f} s a step, targets p99 <= {TARGET_P99_MS:.0f} ms, "
                  f"propagation p95 <= {TARGET_PROPAGATION_P95_MS:.0f} ms, 0 errors", flush=True)
            for workers in args.workers:
                figures["hall"] += sweep(Path(tmp), workers, args.tables, args.seconds, args.ramp, args.serve_arg,
                                         args.phones_per_address, args.all_steps, args.calm, args.calm_wait,
                                         args.calm_cpu, figures["hello_cpu_ms"][workers])
        if args.streams:
            calm(args.calm, args.calm_wait, args.calm_cpu)
            print(f"\nmemory per open stream: `companion serve --workers {args.memory_workers}`, idle streams 4 a table, "
                  f"each count settled 3 s, then its CPU over {KEEP_ALIVE_S:.0f} s", flush=True)
            figures["memory"] = memory(Path(tmp), sorted(args.streams), args.memory_workers, args.serve_arg, args.phones_per_address)
    figures["uptime_after"] = uptime()
    print(f"\n  uptime after: {figures['uptime_after']} ({time.perf_counter() - started:.0f} s in all)", flush=True)
    for workers in ([] if args.no_hall else args.workers):
        held = [s for s in figures["hall"] if s["workers"] == workers and s["within"]]
        best = max(held, key=lambda s: s["tables"]) if held else None
        print(f"workers={workers}: " + (f"{best['tables']} tables ({best['phones']} phones, {best['taps_per_s']:.0f} taps/s) "
                                        f"within the targets, at {best['cpu_ms_per_change']:.2f} ms of server CPU per change "
                                        f"({best['cpu_per_change_ratio']:.0f} times a bare hello request's)"
                                        if best else "no step within the targets"), flush=True)
    if figures["memory"]:
        last = figures["memory"][-1]
        print(f"memory: {last['kib_per_stream']:.1f} KiB of server RSS per idle open stream at {last['streams']} streams", flush=True)
    if args.json:
        Path(args.json).write_text(json.dumps(figures, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
