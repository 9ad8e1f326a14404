"""Can one table stall the server? An unrelated tap's time while a change fans out (issue 28). Prints figures.

    python bench/stall.py            # about two minutes
    python bench/stall.py --quick    # fewer changes, shorter windows

Each phase starts a fresh `companion serve` (one process, a fresh data folder, `--create-limit
off`) on 127.0.0.1. The streams are held by a second process (this script with `--hold`, in
asyncio), so that reading them does not slow the process that times the taps:

- (a) 5,000 phones hold the stream of one table and read it; the table changes, and right after
  its change is answered an unrelated phone taps another table again and again for a window of
  seconds, one tap at a time, alternately on its keep-alive connection and on a new connection
  (as a phone whose connection idled out does). Each change prints the slowest tap of each kind
  in the window and the first one, then the median and max over changes;
- (b) the same with 1,000 streams, each asking a different made-up `?screen=`;
- (c) 300 and then 2,000 phones that open the table's stream and never read it (a receive
  buffer of 4 KiB, so that their buffers fill within seconds, as a phone whose app froze),
  while that table changes every 0.25 s and 4 normal phones tap their own tables back to back:
  those taps' p50, p99 and max, and how many stalled streams the server still held at the end.

Every phase prints the server's CPU seconds and its peak RSS (VmHWM). The open-file limit is
raised to the hard limit here; `companion serve` raises its own (companion/serving.py).
These are measurements, never assertions.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import resource
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.client import Connection, build_request  # noqa: E402
from bench.run import HOST, Served, create_table, pct, start_companion  # noqa: E402

STALLED_RCVBUF = 4096


# --- the process that holds the streams --------------------------------------------------------


async def hold(port: int, mode: str, count: int, table_id: str, token: str) -> None:
    """Open `count` streams on the table and read them (mode read, screens) or never (stall).

    Prints "open" once every stream has its answer's head, then, when stdin closes, the live
    events read and the streams the server ended.
    """
    loop = asyncio.get_running_loop()
    opened = 0
    events = 0
    ended = 0
    gate = asyncio.Semaphore(200)  # connects in flight: below the server's backlog
    all_open = asyncio.Event()
    socks: list[socket.socket] = []

    async def one(i: int) -> None:
        nonlocal opened, events, ended
        query = f"v=0&screen=made-up-{i}" if mode == "screens" else "v=0"
        async with gate:
            sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            if mode == "stall":
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, STALLED_RCVBUF)  # before connect
            sock.setblocking(False)
            socks.append(sock)
            await loop.sock_connect(sock, (HOST, port))
            # the socket itself, with no asyncio transport: a transport would go on reading into
            # its own buffer (megabytes) after the script stopped asking
            await loop.sock_sendall(sock, build_request("GET", f"/t/{table_id}/events?{query}", f"{HOST}:{port}",
                                                        {"Cookie": f"tc_{table_id}={token}", "Accept": "text/event-stream"}))
            head = b""
            while b"\r\n\r\n" not in head:
                data = await loop.sock_recv(sock, 1024 if mode == "stall" else 1 << 16)
                if not data:
                    raise ConnectionError("the server closed a stream as it opened")
                head += data
        opened += 1
        if opened == count:
            all_open.set()
        if mode == "stall":
            return  # never reads again
        tail = head.partition(b"\r\n\r\n")[2][-16:]
        while True:
            try:
                data = await loop.sock_recv(sock, 1 << 16)
            except OSError:
                data = b""
            if not data:
                ended += 1
                return
            both = tail + data
            events += both.count(b"\nevent: live\n")
            tail = both[-16:]  # a marker split between two reads is counted once
            events -= tail.count(b"\nevent: live\n")

    tasks = [asyncio.create_task(one(i)) for i in range(count)]
    await all_open.wait()
    print("open", flush=True)
    await loop.run_in_executor(None, sys.stdin.read)  # until the orchestrator closes our stdin
    print(json.dumps({"live_events": events, "ended": ended}), flush=True)
    for task in tasks:
        task.cancel()
    for sock in socks:
        sock.close()


class Holder:
    """The streams held by a child process (`--hold`)."""

    def __init__(self, port: int, mode: str, count: int, table_id: str, token: str):
        self.started = time.perf_counter()
        self.process = subprocess.Popen(
            [sys.executable, __file__, "--hold", str(port), mode, str(count), table_id, token],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        line = self.process.stdout.readline().strip()
        if line != "open":
            raise RuntimeError(f"the holder said {line!r}")
        self.open_s = time.perf_counter() - self.started

    def stop(self) -> dict:
        self.process.stdin.close()
        line = self.process.stdout.readline()
        self.process.wait(30)
        return json.loads(line) if line else {}


# --- the phones that tap --------------------------------------------------------------------


class Tapper:
    """One phone tapping its own table through the API, one tap at a time."""

    def __init__(self, port: int, table):
        self.port, self.table = port, table
        self.keep = Connection(HOST, port)

    def tap(self, fresh: bool = False) -> float:
        """Change a score; return the seconds to its answer (on a new connection if `fresh`)."""
        conn = Connection(HOST, self.port) if fresh else self.keep
        doc = {"type": "fame", "data": {"player": 0, "delta": 1 if self.table.changes % 2 == 0 else -1},
               "expected_version": self.table.version}
        answer = conn.request("POST", f"/api/v1/tables/{self.table.id}/events",
                              {"Content-Type": "application/json", "X-Table-Token": self.table.token},
                              json.dumps(doc).encode())
        if fresh:
            conn.close()
        if answer.status != 200:
            raise RuntimeError(f"a tap answered {answer.status}: {answer.text()[:200]}")
        self.table.version = json.loads(answer.body)["version"]
        self.table.changes += 1
        return answer.seconds


def taps_until(tapper: Tapper, fresh: bool, end: float, times: list[float]) -> None:
    """Tap one at a time until `end`, and at least once."""
    times.append(tapper.tap(fresh))
    while time.perf_counter() < end:
        times.append(tapper.tap(fresh))


class Log:
    """The server's stderr (`start` writes it to a file), counting the streams it ended and any traceback."""

    def __init__(self, server: Served):
        self.server = server

    @property
    def ended(self) -> int:
        return self.server.logged().count(b"stopped reading")

    @property
    def tracebacks(self) -> int:
        return self.server.logged().count(b"Traceback")


def stats(values: list[float]) -> str:
    return f"median_ms={statistics.median(values):.1f} max_ms={max(values):.1f}"


@contextlib.contextmanager
def served(mode: str, streams: int):
    """A fresh server, its log, a table held by `streams` streams of the holder, and a phone that changes it."""
    with tempfile.TemporaryDirectory() as data:
        server = start_companion(Path(data))
        try:
            log = Log(server)
            setup = Connection(HOST, server.port)
            table = create_table(setup)
            holder = Holder(server.port, mode, streams, table.id, table.token)
            yield server, log, setup, holder, Tapper(server.port, table)
        finally:
            server.stop()


def fanout_phase(name: str, mode: str, streams: int, changes: int, window: float) -> None:
    """Phases (a) and (b): streams on one table, changes on it, an unrelated phone's taps timed."""
    with served(mode, streams) as (server, log, setup, holder, changer):
        keeper, opener = Tapper(server.port, create_table(setup)), Tapper(server.port, create_table(setup))
        keeper.tap(), opener.tap(fresh=True)  # warm
        cpu0 = server.cpu_seconds()
        worst_keep, worst_new = [], []
        for i in range(changes):
            time.sleep(0.5)
            changer.tap()
            first = keeper.tap()
            keep, new = [first], []
            end = time.perf_counter() + window
            # two phones at once, each on its own table: one on its keep-alive connection,
            # one opening a new connection for each tap
            threads = [threading.Thread(target=taps_until, args=(keeper, False, end, keep)),
                       threading.Thread(target=taps_until, args=(opener, True, end, new))]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join()
            worst_keep.append(max(keep) * 1000)
            worst_new.append(max(new) * 1000)
            print(f"  {name} change {i + 1}: first_tap_ms={first * 1000:.1f} slowest_keepalive_tap_ms={worst_keep[-1]:.1f} "
                  f"slowest_new_connection_tap_ms={worst_new[-1]:.1f} taps={len(keep) + len(new)}", flush=True)
        cpu = server.cpu_seconds() - cpu0
        held = holder.stop()
        print(f"{name} streams={streams} open_s={holder.open_s:.1f} changes={changes} window_s={window:g} "
              f"keepalive_tap {stats(worst_keep)} new_connection_tap {stats(worst_new)} "
              f"live_events_read={held.get('live_events')} streams_ended={held.get('ended')} "
              f"logged_stopped_reading={log.ended} tracebacks={log.tracebacks} server_cpu_s={cpu:.2f} server_peak_rss_mb={server.peak_rss_mb():.0f}",
              flush=True)


def stalled_phase(name: str, stalled: int, seconds: float, phones: int = 4) -> None:
    """Phase (c): streams that never read on a changing table; normal phones' taps timed."""
    with served("stall", stalled) as (server, log, setup, holder, changer):
        tappers = [Tapper(server.port, create_table(setup)) for _ in range(phones)]
        times: list[float] = []
        errors: list[str] = []
        stop = time.perf_counter() + seconds
        cpu0 = server.cpu_seconds()

        def phone(t: Tapper) -> None:
            while time.perf_counter() < stop:
                try:
                    times.append(t.tap())
                except (OSError, RuntimeError) as exc:  # counted, and the phone taps on, on a new connection
                    errors.append(type(exc).__name__)
                    t.keep.close()

        threads = [threading.Thread(target=phone, args=(t,)) for t in tappers]
        for thread in threads:
            thread.start()
        made = 0
        while time.perf_counter() < stop:
            changer.tap()
            made += 1
            time.sleep(0.25)
        for thread in threads:
            thread.join()
        cpu = server.cpu_seconds() - cpu0
        still = sum(1 for _ in stalled_sockets(server))
        holder.stop()
        ordered = [t * 1000 for t in times]
        print(f"{name} stalled_streams={stalled} seconds={seconds:g} changes={made} phones={phones} taps={len(ordered)} "
              f"tap_p50_ms={pct(ordered, 50):.1f} tap_p99_ms={pct(ordered, 99):.1f} tap_max_ms={max(ordered):.1f} "
              f"tap_errors={len(errors)} stalled_streams_held_at_end={still} logged_stopped_reading={log.ended} "
              f"tracebacks={log.tracebacks} server_cpu_s={cpu:.2f} server_peak_rss_mb={server.peak_rss_mb():.0f}",
              flush=True)


def stalled_sockets(server: Served):
    """The server's open TCP connections that hold unsent bytes (established, Send-Q > 0 in /proc/net/tcp)."""
    port = f"{server.port:04X}"
    for line in Path("/proc/net/tcp").read_text().splitlines()[1:]:
        fields = line.split()
        local, queues = fields[1], fields[4]
        if local.endswith(":" + port) and fields[3] == "01" and int(queues.split(":")[0], 16) > 0:
            yield line


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["--hold"]:
        port, mode, count, table_id, token = argv[1:6]
        asyncio.run(hold(int(port), mode, int(count), table_id, token))
        return 0
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="3 changes a phase, shorter windows")
    args = parser.parse_args(argv)
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))  # the holders and the server inherit it
    changes, window, seconds = (3, 2.0, 8.0) if args.quick else (6, 3.0, 15.0)
    print(f"python {sys.version.split()[0]} nofile={hard} loadavg {Path('/proc/loadavg').read_text().strip()}", flush=True)
    fanout_phase("a_fanout", "read", 5000, changes, window)
    fanout_phase("b_screens", "screens", 1000, changes, window)
    for stalled in (300, 2000):
        stalled_phase("c_stalled", stalled, seconds)
    print(f"loadavg {Path('/proc/loadavg').read_text().strip()}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
