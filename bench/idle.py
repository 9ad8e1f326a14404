"""How fast `companion serve` answers beside thousands of idle connections (issue 13, finding 1).

    python bench/idle.py [--idle 5000] [--workers 1] [--requests 20]

Starts a real server on a free loopback port, opens IDLE TCP connections that never send a
byte, and prints:

- first_ms: one page asked for right after the last connection opened, while the server is
  still taking in the burst;
- held: the connections the server's processes hold once it has taken them all;
- then REQUESTS pages one after another, each on a new connection: median_ms and max_ms.

Figures only; the test (tests/resilience/test_idle_connections.py) checks that the server
lives and answers, and prints its own figures.
"""

from __future__ import annotations

import argparse
import os
import resource
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def processes(pid: int) -> list[int]:
    """The server and its worker processes (Linux /proc)."""
    found = [pid]
    try:
        children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    except OSError:
        children = []
    return found + [int(c) for c in children]


def sockets_held(pid: int) -> int:
    """The TCP sockets open in the server's processes."""
    total = 0
    for p in processes(pid):
        try:
            fds = os.listdir(f"/proc/{p}/fd")
        except OSError:
            continue
        for fd in fds:
            try:
                if os.readlink(f"/proc/{p}/fd/{fd}").startswith("socket:"):
                    total += 1
            except OSError:
                continue
    return total


def page_ms(url: str) -> float:
    start = time.perf_counter()
    with urllib.request.urlopen(url, timeout=60) as response:
        response.read()
    return (time.perf_counter() - start) * 1000


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--idle", type=int, default=5000)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--requests", type=int, default=20)
    args = parser.parse_args()
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < args.idle + 256:
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, args.idle + 256), hard))
    port = free_port()
    url = f"http://127.0.0.1:{port}/"
    with tempfile.TemporaryDirectory() as data:
        server = subprocess.Popen([sys.executable, "-m", "companion", "serve", "--host", "127.0.0.1", "--port", str(port), "--data", data, "--quiet",
                                   "--workers", str(args.workers), "--connection-limit", "off"], cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                  start_new_session=True)
        idle: list[socket.socket] = []
        try:
            deadline = time.monotonic() + 20
            while True:
                try:
                    page_ms(url)
                    break
                except OSError:
                    if time.monotonic() > deadline or server.poll() is not None:
                        raise SystemExit("the server did not start")
                    time.sleep(0.05)
            start = time.perf_counter()
            idle = [socket.create_connection(("127.0.0.1", port), timeout=10) for _ in range(args.idle)]
            opened_s = time.perf_counter() - start
            first = page_ms(url)
            deadline = time.monotonic() + 60
            while sockets_held(server.pid) < args.idle and time.monotonic() < deadline:
                time.sleep(0.1)
            held = sockets_held(server.pid) - args.workers  # less each process's listening socket
            times = [page_ms(url) for _ in range(args.requests)]
            alive = server.poll() is None
        finally:
            for sock in idle:
                sock.close()
            server.terminate()
            server.wait(10)
        tracebacks = server.stderr.read().decode(errors="replace").count("Traceback")
    print(f"idle={args.idle} workers={args.workers} opened_in_s={opened_s:.2f} first_ms={first:.0f} held={held} "
          f"median_ms={statistics.median(times):.1f} max_ms={max(times):.1f} alive={alive} tracebacks={tracebacks}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
