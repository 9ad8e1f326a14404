"""`companion serve` on Linux: one worker process per core on one port (companion/workers.py)."""

import json
import os
import signal
import subprocess
import sys
import time
import urllib.request

import pytest

from companion import workers
from tests.conftest import ROOT, listening_port

pytestmark = pytest.mark.skipif(not workers.can_share_port(), reason="several workers need Linux's SO_REUSEPORT")


def children(pid: int) -> list[int]:
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as stat:
                    if int(stat.read().rsplit(")", 1)[1].split()[1]) == pid:
                        found.append(int(entry))
            except (OSError, IndexError, ValueError):
                continue
    return found


def start(tmp_path, *extra, port: int = 0) -> tuple[subprocess.Popen, int]:
    """Start `companion serve` on 127.0.0.1; return it and the port it printed (its output goes to
    tmp_path/serve.log). Port 0 by default: the server takes a free one itself, no race for it."""
    log_path = tmp_path / "serve.log"
    before = log_path.stat().st_size if log_path.exists() else 0
    with open(log_path, "ab") as log:
        process = subprocess.Popen([sys.executable, "-m", "companion", "serve", "--host", "127.0.0.1", "--port", str(port),
                                    "--data", str(tmp_path), "--quiet", *extra], cwd=ROOT, stdout=log,
                                   stderr=subprocess.STDOUT, start_new_session=True)
    for _ in range(200):  # at most 20 s
        port = listening_port(log_path.read_bytes()[before:].decode("utf-8", "replace")) or port
        if port:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=1) as answer:
                    if answer.status == 200:
                        return process, port
            except OSError:
                pass
        time.sleep(0.1)
    process.kill()
    process.wait(10)
    raise AssertionError(log_path.read_text())


def wait_until(check, seconds=10.0) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if check():
            return True
        time.sleep(0.05)
    return False


def create(port) -> dict:
    request = urllib.request.Request(f"http://127.0.0.1:{port}/api/v1/tables", method="POST", headers={"Content-Type": "application/json"},
                                     data=json.dumps({"game": "codex", "players": ["Anna", "Tom"]}).encode())
    with urllib.request.urlopen(request) as answer:
        return json.load(answer)


def read(port, t) -> dict:
    request = urllib.request.Request(f"http://127.0.0.1:{port}/api/v1/tables/{t['table']}", headers={"X-Table-Token": t["token"]})
    with urllib.request.urlopen(request) as answer:
        return json.load(answer)


def test_two_workers_serve_one_port_and_die_with_their_parent(tmp_path):
    server, port = start(tmp_path, "--workers", "2")
    try:
        assert len(children(server.pid)) == 2
        tables = [create(port) for _ in range(10)]  # new connections: the kernel spreads them over both
        assert all(read(port, t)["players"] == [{"name": "Anna"}, {"name": "Tom"}] for t in tables)
        first = children(server.pid)
        os.kill(server.pid, signal.SIGKILL)  # the parent alone, no chance to stop anything
        server.wait(10)
        assert wait_until(lambda: not any(os.path.exists(f"/proc/{pid}") for pid in first)), "a worker outlived its parent"
        # again on the port the first one took, which the workers' deaths freed: where the phones look
        server, _ = start(tmp_path, "--workers", "2", port=port)
        assert all(read(port, t)["version"] == 0 for t in tables)
    finally:
        os.killpg(server.pid, signal.SIGKILL)
        server.wait(10)


def test_a_worker_that_dies_is_replaced_and_sigterm_stops_them_all(tmp_path):
    server, port = start(tmp_path, "--workers", "2")
    try:
        victim, other = children(server.pid)
        os.kill(victim, signal.SIGKILL)
        assert wait_until(lambda: len(children(server.pid)) == 2 and victim not in children(server.pid))
        t = create(port)
        assert read(port, t)["version"] == 0
        running = children(server.pid)
        server.send_signal(signal.SIGTERM)
        assert server.wait(15) == 0
        assert not any(os.path.exists(f"/proc/{pid}") and open(f"/proc/{pid}/stat").read().split()[2] != "Z" for pid in running)
        assert "starting another" in (tmp_path / "serve.log").read_text()
    finally:
        if server.poll() is None:
            os.killpg(server.pid, signal.SIGKILL)
            server.wait(10)


def test_workers_must_be_one_or_more(tmp_path):
    result = subprocess.run([sys.executable, "-m", "companion", "serve", "--host", "127.0.0.1", "--workers", "0", "--data", str(tmp_path)], cwd=ROOT,
                            capture_output=True, text=True, timeout=30)
    assert result.returncode == 2 and "error: --workers: must be 1 or more" in result.stderr


def test_a_port_in_use_is_a_clear_error(tmp_path):
    import socket

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = taken.getsockname()[1]
        result = subprocess.run([sys.executable, "-m", "companion", "serve", "--host", "127.0.0.1", "--port", str(port),
                                 "--workers", "2", "--data", str(tmp_path), "--quiet"], cwd=ROOT, capture_output=True, text=True, timeout=30)
    assert result.returncode == 2 and result.stderr.startswith(f"error: --port: {port} is already in use on 127.0.0.1 ")
