"""`companion serve` on Linux: one worker process per core on one port (companion/workers.py)."""

import os
import signal
import subprocess
import sys
import time

import pytest

from companion import workers
from tests.conftest import ROOT, Server

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


def wait_until(check, seconds=10.0) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if check():
            return True
        time.sleep(0.05)
    return False


def create(server: Server) -> dict:
    return server.api("/api/v1/tables", {"game": "codex", "players": ["Anna", "Tom"]})


def read(server: Server, t) -> dict:
    return server.api(f"/api/v1/tables/{t['table']}", token=t["token"])


@pytest.mark.slow
def test_two_workers_serve_one_port_and_die_with_their_parent(tmp_path):
    server = Server(data=tmp_path, workers=2).start()
    try:
        assert len(children(server.process.pid)) == 2
        tables = [create(server) for _ in range(10)]  # new connections: the kernel spreads them over both
        assert all(read(server, t)["players"] == [{"name": "Anna"}, {"name": "Tom"}] for t in tables)
        first = children(server.process.pid)
        os.kill(server.process.pid, signal.SIGKILL)  # the parent alone, no chance to stop anything
        server.process.wait(10)
        assert wait_until(lambda: not any(os.path.exists(f"/proc/{pid}") for pid in first)), "a worker outlived its parent"
        # again on the port the first one took, which the workers' deaths freed: where the phones look
        server.start()
        assert all(read(server, t)["version"] == 0 for t in tables)
    finally:
        server.kill()


@pytest.mark.slow
def test_a_worker_that_dies_is_replaced_and_sigterm_stops_them_all(tmp_path):
    server = Server(data=tmp_path, workers=2).start()
    try:
        victim, other = children(server.process.pid)
        os.kill(victim, signal.SIGKILL)
        assert wait_until(lambda: len(children(server.process.pid)) == 2 and victim not in children(server.process.pid))
        t = create(server)
        assert read(server, t)["version"] == 0
        running = children(server.process.pid)
        server.process.send_signal(signal.SIGTERM)
        assert server.process.wait(15) == 0
        assert not any(os.path.exists(f"/proc/{pid}") and open(f"/proc/{pid}/stat").read().split()[2] != "Z" for pid in running)
        assert "starting another" in server.log.read_text()
    finally:
        server.kill()


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
