"""`companion serve` on a taken port, or on port 0 (issue 13: no traceback for a user's mistake).

A port already taken made a raw OSError traceback with one process; with `--workers` the
SO_REUSEPORT sockets silently shared the port with another `companion serve --workers`. Now
both are the one line `error: --port: ...` and exit 2. `--port 0` listens on a free port and
says which, in every worker alike (each worker's socket used to get a port of its own).
"""

from __future__ import annotations

import json
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.request

import pytest

from companion import workers
from tests.conftest import ROOT, Server, free_port

pytestmark = pytest.mark.slow

WORKERS = [1, 2] if workers.can_share_port() else [1]


def serve(tmp_path, *args: str, timeout: float = 30) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "companion", "serve", "--data", str(tmp_path / "data"), "--quiet", *args],
                          cwd=ROOT, capture_output=True, text=True, timeout=timeout)


def assert_one_line(done: subprocess.CompletedProcess, field: str) -> None:
    assert done.returncode == 2, (done.returncode, done.stdout[-500:], done.stderr[-2000:])
    assert done.stderr.startswith(f"error: {field}: ") and done.stderr.count("\n") == 1, done.stderr
    assert "Traceback" not in done.stderr + done.stdout


@pytest.mark.parametrize("count", WORKERS)
def test_a_port_taken_by_another_program_is_one_line(tmp_path, count):
    with socket.socket() as taken:
        taken.bind(("0.0.0.0", 0))
        taken.listen(1)
        port = taken.getsockname()[1]
        assert_one_line(serve(tmp_path, "--port", str(port), "--workers", str(count)), "--port")


@pytest.mark.skipif(not workers.can_share_port(), reason="several workers need Linux's SO_REUSEPORT")
def test_a_port_taken_by_another_companion_with_workers_is_refused_not_shared(tmp_path):
    port = free_port()
    first = Server(url=f"http://127.0.0.1:{port}", port=port, data=tmp_path / "first", workers=2).start()
    try:
        for count in WORKERS:
            assert_one_line(serve(tmp_path, "--port", str(port), "--workers", str(count)), "--port")
        assert first.process.poll() is None
    finally:
        first.stop()


def test_a_host_that_is_not_this_machines_is_one_line(tmp_path):
    assert_one_line(serve(tmp_path, "--host", "192.0.2.254", "--port", str(free_port())), "--host")
    assert_one_line(serve(tmp_path, "--host", "no-such-host.invalid", "--port", str(free_port())), "--host")
    assert_one_line(serve(tmp_path, "--port", "70000"), "--port")


@pytest.mark.parametrize("count", WORKERS)
def test_port_0_listens_on_one_free_port_and_says_which(tmp_path, count):
    log = tmp_path / "out.log"
    with open(log, "wb") as out:
        process = subprocess.Popen([sys.executable, "-m", "companion", "serve", "--host", "127.0.0.1", "--port", "0",
                                    "--data", str(tmp_path / "data"), "--quiet", "--workers", str(count)],
                                   cwd=ROOT, stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
    try:
        found = None
        deadline = time.monotonic() + 20
        while found is None and time.monotonic() < deadline and process.poll() is None:
            found = re.search(r"Open http://127\.0\.0\.1:(\d+)/", log.read_text())
            time.sleep(0.05)
        assert found, log.read_text()
        port = int(found.group(1))
        assert port != 0
        answered = 0
        deadline = time.monotonic() + 20
        while answered < 20 and time.monotonic() < deadline:  # new connections, spread over every worker
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=5) as response:
                    answered += response.status == 200
            except OSError:
                time.sleep(0.05)
        assert answered == 20, log.read_text()
        # every worker knows the port it listens on (LISTEN_PORT): the join address carries it
        for _ in range(6):
            request = urllib.request.Request(f"http://127.0.0.1:{port}/api/v1/tables", method="POST",
                                             data=json.dumps({"game": "gutenberg", "players": ["Anna", "Tom"]}).encode(),
                                             headers={"Content-Type": "application/json"})
            with urllib.request.urlopen(request, timeout=5) as response:
                assert f":{port}/join/" in json.loads(response.read())["join_url"]
    finally:
        import os

        os.killpg(process.pid, signal.SIGTERM)
        process.wait(10)
