"""Can one client stop another's page or tap? Its latency beside a flood (issue 31, deliverable 3). Prints figures.

    python bench/client_limits.py              # both phases: this machine's open-file limit, then 1024 (about 2 minutes)
    python bench/client_limits.py --files 1024 --seconds 20

Each phase starts a fresh `companion serve` (one process, default limits, `--create-limit off`)
on 127.0.0.1, and a client at 127.0.0.2 asks for its table's page and taps it (the JSON API),
alternately, each on a new connection, one at a time:

- quiet: nothing else runs;
- flood: a client at 127.0.0.1 opens streams of its table until one is refused (its cap,
  `--stream-limit`), and 1,000 sockets from ten addresses (127.0.0.10-19) each send a request
  line and then one header line every 2 s (they never end their heads: the head timeout,
  $COMPANION_HEAD_TIMEOUT_S, cuts them off, and they connect again).

For each it prints the other client's page and tap: count, p50, p95 and max in ms, and how many
were not answered within 30 s; the streams the first client held; the server's CPU seconds;
and the machine's load (`uptime`) before and after. A server with a 1024 open-file limit holds
960 connections, fewer than the flood's 1,200: there the head timeout decides. Figures only;
tests/resilience/test_client_limits.py checks that they are answered.
"""

from __future__ import annotations

import argparse
import json
import re
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.run import HOST, free_port, pct, start  # noqa: E402

OTHER = "127.0.0.2"
FLOOD_SOURCES = [f"127.0.0.{10 + i}" for i in range(10)]
SLOW_SOCKETS = 1000
DRIP_S = 2
TIMEOUT_S = 30


def open_stream(port: int, t: dict, source: str = "127.0.0.1", headers: dict | None = None) -> tuple[socket.socket, bytes]:
    """Open the table's stream from `source`; return the socket, still open, and the answer's head
    (and, for an answer with a Content-Length, a refusal, its body)."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.settimeout(TIMEOUT_S)
    sock.bind((source, 0))
    sock.connect((HOST, port))
    extra = "".join(f"{name}: {value}\r\n" for name, value in (headers or {}).items())
    sock.sendall((f"GET /t/{t['table']}/events?v=0 HTTP/1.1\r\nHost: {HOST}:{port}\r\n"
                  f"Cookie: tc_{t['table']}={t['token']}\r\nAccept: text/event-stream\r\n{extra}\r\n").encode())
    head = b""
    while b"\r\n\r\n" not in head:
        data = sock.recv(4096)
        if not data:
            return sock, head
        head += data
    found = re.search(rb"\r\ncontent-length: *([0-9]+)\r\n", head.split(b"\r\n\r\n", 1)[0] + b"\r\n", re.IGNORECASE)
    while found and len(head.split(b"\r\n\r\n", 1)[1]) < int(found.group(1)):
        data = sock.recv(4096)
        if not data:
            break
        head += data
    return sock, head


def dripping_sockets(port: int, count: int, sources: list[str], every: float, stop: threading.Event,
                     reconnect: bool = False) -> list[socket.socket]:
    """Open count sockets spread over the source addresses, each sending a request line; a thread
    then sends each one more header line every `every` s until `stop` is set (their heads never
    end). With `reconnect`, a socket the server closed is opened again (as a flood would)."""
    first = f"GET / HTTP/1.1\r\nHost: {HOST}:{port}\r\n".encode()

    def connect(i: int) -> socket.socket:
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.settimeout(TIMEOUT_S)
        try:
            sock.bind((sources[i % len(sources)], 0))
            sock.connect((HOST, port))
            sock.sendall(first)
        except OSError:
            pass  # closed or refused at once: the drip finds out
        return sock

    sockets = [connect(i) for i in range(count)]

    def drip() -> None:
        while not stop.wait(every):
            for i, sock in enumerate(sockets):
                try:
                    sock.sendall(b"X-Drip: 1\r\n")
                except OSError:
                    if reconnect and not stop.is_set():
                        sock.close()
                        sockets[i] = connect(i)

    threading.Thread(target=drip, daemon=True).start()
    return sockets


def request(port: int, method: str, path: str, headers: dict, body: bytes | None = None) -> tuple[int, float, bytes]:
    """One request from OTHER on a new connection; return (status, seconds, body), status 0 if not answered within TIMEOUT_S."""
    import http.client

    began = time.perf_counter()
    conn = http.client.HTTPConnection(HOST, port, timeout=TIMEOUT_S, source_address=(OTHER, 0))
    try:
        conn.request(method, path, body=body, headers=headers)
        answer = conn.getresponse()
        text = answer.read()
        return answer.status, time.perf_counter() - began, text
    except (OSError, http.client.HTTPException):
        return 0, time.perf_counter() - began, b""
    finally:
        conn.close()


def create(port: int) -> dict:
    import http.client

    conn = http.client.HTTPConnection(HOST, port, timeout=TIMEOUT_S)
    try:
        conn.request("POST", "/api/v1/tables", json.dumps({"game": "gutenberg", "players": ["Anna", "Tom"]}),
                     {"Content-Type": "application/json"})
        answer = conn.getresponse()
        doc = json.loads(answer.read())
        assert answer.status == 201, doc
        return doc
    finally:
        conn.close()


def other_client(port: int, t: dict, seconds: float) -> dict:
    """The other client's page and tap, alternately, for `seconds`: their latencies and failures."""
    page, taps, failed = [], [], 0
    ends = time.monotonic() + seconds
    while time.monotonic() < ends:
        status, took, _ = request(port, "GET", f"/t/{t['table']}", {"Cookie": f"tc_{t['table']}={t['token']}"})
        if status == 200:
            page.append(took)
        failed += status != 200
        version = t.setdefault("version", 0)
        doc = {"type": "fame", "data": {"player": 0, "delta": 1 if version % 4 < 2 else -1}, "expected_version": version}
        status, took, body = request(port, "POST", f"/api/v1/tables/{t['table']}/events",
                                     {"Content-Type": "application/json", "X-Table-Token": t["token"]}, json.dumps(doc).encode())
        if status == 200:
            taps.append(took)
            t["version"] = json.loads(body)["version"]
        failed += status != 200
        time.sleep(0.1)
    return {"page": page, "tap": taps, "failed": failed}


def uptime() -> str:
    return subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()


def line(name: str, figures: dict) -> str:
    parts = []
    for what in ("page", "tap"):
        values = [v * 1000 for v in figures[what]]
        parts.append(f"{what} n={len(values)} p50={pct(values, 50):.1f} p95={pct(values, 95):.1f} max={max(values, default=float('nan')):.1f} ms")
    return f"  {name:6} " + "; ".join(parts) + f"; not answered within {TIMEOUT_S} s: {figures['failed']}"


def phase(files: int | None, seconds: float) -> None:
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < 4096 <= hard or (hard == resource.RLIM_INFINITY and soft < 4096):
        resource.setrlimit(resource.RLIMIT_NOFILE, (4096, hard))  # this script holds the flood's sockets
    port = free_port()
    data = Path(tempfile.mkdtemp(prefix="bench-limits-"))
    serve = ["serve", "--host", HOST, "--port", str(port), "--data", str(data), "--quiet", "--create-limit", "off"]
    if files:  # a small box's limit, set in the server's process before it starts
        argv = [sys.executable, "-c", "import resource, runpy, sys; "
                f"resource.setrlimit(resource.RLIMIT_NOFILE, ({files}, {files})); "
                "sys.argv = ['companion', *sys.argv[1:]]; runpy.run_module('companion', run_name='__main__')", *serve]
    else:
        argv = [sys.executable, "-m", "companion", *serve]
    served = start(argv, port)
    stop = threading.Event()
    streams: list[socket.socket] = []
    slow: list[socket.socket] = []
    try:
        holder, other = create(port), create(port)
        print(f"open-file limit: {files or 'this machine’s (raised by the server)'}")
        quiet = other_client(port, other, seconds / 3)
        print(line("quiet", quiet))
        cpu = served.cpu_seconds()
        while len(streams) < 30000:
            sock, head = open_stream(port, holder)
            streams.append(sock)
            if not head.startswith(b"HTTP/1.1 200"):
                break
        held = len(streams) - 1
        refused = head.split(b"\r\n", 1)[0].decode(errors="replace")
        slow = dripping_sockets(port, SLOW_SOCKETS, FLOOD_SOURCES, DRIP_S, stop, reconnect=True)
        flood = other_client(port, other, seconds)
        print(f"  the first client held {held} streams (the next: {refused}); {SLOW_SOCKETS} slow sockets from"
              f" {len(FLOOD_SOURCES)} addresses, a header line every {DRIP_S} s, reconnecting")
        print(line("flood", flood))
        print(f"  server CPU during the flood: {served.cpu_seconds() - cpu:.1f} s in {seconds:.0f} s")
    finally:
        stop.set()
        for sock in streams + slow:
            sock.close()
        served.stop()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--files", type=int, default=None, help="only this open-file limit for the server (default: both phases)")
    parser.add_argument("--seconds", type=float, default=30, help="seconds the other client is timed under the flood")
    args = parser.parse_args(argv)
    print(f"before: {uptime()}")
    for files in ([args.files] if args.files else [None, 1024]):
        phase(files, args.seconds)
    print(f"after: {uptime()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
