"""How long a wrong secret takes next to a missing table (issue 13, finding 9).

A device that could tell "this table exists, the secret is wrong" from "no such table" by the
time of the answer would learn which table ids exist. This prints the median time of each, in
microseconds, with no verdict: the functions that check a secret (companion/tables.py), in this
process, and then the API over HTTP against a real `companion serve` on 127.0.0.1. The cases are
interleaved round by round, so noise from other processes falls on both alike.

Run: python bench/secret_timing.py [ROUNDS]
"""

from __future__ import annotations

import argparse
import http.client
import json
import secrets
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def in_process(rounds: int) -> dict[str, float]:
    """Median µs of tables.authorize and version_if_authorized, missing table vs wrong secret."""
    from companion import db as database, tables

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "t.db"
        database.migrate(path)
        conn = database.connect(path)
        table, _ = tables.create(conn, {"game": "gutenberg", "players": ["Anna", "Tom"]}, lambda *a: {})
        missing = secrets.token_urlsafe(tables.ID_BYTES)
        wrong = secrets.token_urlsafe(tables.SECRET_BYTES)
        cases = {
            "authorize missing": lambda: tables.authorize(conn, missing, wrong),
            "authorize wrong": lambda: tables.authorize(conn, table.id, wrong),
            "version missing": lambda: tables.version_if_authorized(conn, missing, wrong),
            "version wrong": lambda: tables.version_if_authorized(conn, table.id, wrong),
        }
        times: dict[str, list[float]] = {name: [] for name in cases}
        for _ in range(rounds):
            for name, call in cases.items():
                start = time.perf_counter_ns()
                try:
                    call()
                except tables.NotFound:
                    pass
                times[name].append((time.perf_counter_ns() - start) / 1000)
        conn.conn.close()
    return {name: statistics.median(values) for name, values in times.items()}


def over_http(rounds: int) -> dict[str, float]:
    """Median µs of GET /api/v1/tables/ID against a real server, missing table vs wrong secret."""
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    with tempfile.TemporaryDirectory() as folder:
        server = subprocess.Popen([sys.executable, "-m", "companion", "serve", "--host", "127.0.0.1", "--port", str(port),
                                   "--data", folder, "--quiet"], cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            conn = _connect(port)
            conn.request("POST", "/api/v1/tables", json.dumps({"game": "gutenberg", "players": ["Anna", "Tom"]}),
                         {"Content-Type": "application/json"})
            table = json.loads(conn.getresponse().read())["table"]
            wrong = secrets.token_urlsafe(22)
            cases = {"http missing": secrets.token_urlsafe(6), "http wrong": table}
            times: dict[str, list[float]] = {name: [] for name in cases}
            for _ in range(rounds):
                for name, table_id in cases.items():
                    start = time.perf_counter_ns()
                    conn.request("GET", f"/api/v1/tables/{table_id}", headers={"X-Table-Token": wrong})
                    response = conn.getresponse()
                    response.read()
                    times[name].append((time.perf_counter_ns() - start) / 1000)
                    assert response.status == 404, response.status
            conn.close()
        finally:
            server.terminate()
            server.wait(10)
    return {name: statistics.median(values) for name, values in times.items()}


def _connect(port: int) -> http.client.HTTPConnection:
    deadline = time.monotonic() + 20
    while True:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
        try:
            conn.request("GET", "/")
            conn.getresponse().read()
            return conn
        except OSError:
            conn.close()
            if time.monotonic() > deadline:
                raise
            time.sleep(0.05)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("rounds", nargs="?", type=int, default=20_000, help="rounds in the process (default 20000; a tenth over HTTP)")
    rounds = parser.parse_args().rounds
    for name, value in {**in_process(rounds), **over_http(max(200, rounds // 10))}.items():
        print(f"{name}: {value:.1f} µs")


if __name__ == "__main__":
    main()
