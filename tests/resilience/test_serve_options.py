"""`companion serve` on a taken port, or on port 0 (issue 13: no traceback for a user's mistake).

A port already taken made a raw OSError traceback with one process; with `--workers` the
SO_REUSEPORT sockets silently shared the port with another `companion serve --workers`. Now
both are the one line `error: --port: ...` and exit 2. `--port 0` listens on a free port and
says which, in every worker alike (each worker's socket used to get a port of its own).
"""

from __future__ import annotations

import re
import signal
import socket
import subprocess
import sys
import time

import pytest

from companion import workers
from tests.conftest import ROOT, Address, Server, listening_port

pytestmark = pytest.mark.slow

WORKERS = [1, 2] if workers.can_share_port() else [1]


def serve(tmp_path, *args: str, timeout: float = 30) -> subprocess.CompletedProcess:
    """Run `companion serve` on 127.0.0.1 (unless ARGS name another --host) until it stops by itself."""
    return subprocess.run([sys.executable, "-m", "companion", "serve", "--host", "127.0.0.1", "--data", str(tmp_path / "data"),
                           "--quiet", *args],
                          cwd=ROOT, capture_output=True, text=True, timeout=timeout)


def assert_one_line(done: subprocess.CompletedProcess, field: str) -> None:
    assert done.returncode == 2, (done.returncode, done.stdout[-500:], done.stderr[-2000:])
    assert done.stderr.startswith(f"error: {field}: ") and done.stderr.count("\n") == 1, done.stderr
    assert "Traceback" not in done.stderr + done.stdout


@pytest.mark.parametrize("count", WORKERS)
def test_a_port_taken_by_another_program_is_one_line_in_plain_words(tmp_path, count):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = taken.getsockname()[1]
        done = serve(tmp_path, "--port", str(port), "--workers", str(count))
    assert_one_line(done, "--port")
    # in plain words, not with the address as a Python tuple (issue 27)
    assert done.stderr.startswith(f"error: --port: {port} is already in use on 127.0.0.1 "), done.stderr
    assert "('" not in done.stderr, done.stderr


@pytest.mark.skipif(not workers.can_share_port(), reason="several workers need Linux's SO_REUSEPORT")
def test_a_port_taken_by_another_companion_with_workers_is_refused_not_shared(tmp_path):
    first = Server(data=tmp_path / "first", workers=2).start()
    try:
        for count in WORKERS:
            assert_one_line(serve(tmp_path, "--port", str(first.port), "--workers", str(count)), "--port")
        assert first.process.poll() is None
    finally:
        first.stop()


def test_a_host_that_is_not_this_machines_is_one_line(tmp_path):
    assert_one_line(serve(tmp_path, "--host", "192.0.2.254", "--port", "0"), "--host")
    assert_one_line(serve(tmp_path, "--host", "no-such-host.invalid", "--port", "0"), "--host")
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
            found = listening_port(log.read_text())
            time.sleep(0.05)
        assert found, log.read_text()
        port = found
        assert port != 0
        server = Address(port)
        answered = 0
        deadline = time.monotonic() + 20
        while answered < 20 and time.monotonic() < deadline:  # new connections, spread over every worker
            try:
                answered += server.send("GET", "/", timeout=5)[0] == 200
            except OSError:
                time.sleep(0.05)
        assert answered == 20, log.read_text()
        # every worker knows the port it listens on (LISTEN_PORT): the join address carries it
        for _ in range(6):
            assert f":{port}/join/" in server.api("/api/v1/tables", {"game": "gutenberg", "players": ["Anna", "Tom"]})["join_url"]
    finally:
        import os

        os.killpg(process.pid, signal.SIGTERM)
        process.wait(10)


# --- issue 27, finding 19: what `serve` says of where it listens, a port in use, and Ctrl-C ------


def start_serving(tmp_path, *args: str) -> tuple[subprocess.Popen, list[str]]:
    """Start `companion serve ARGS` (on 127.0.0.1 unless they name another --host) in a session of its own;
    return it and its output up to the archive line."""
    process = subprocess.Popen([sys.executable, "-m", "companion", "serve", "--host", "127.0.0.1", "--data", str(tmp_path / "data"), *args],
                               cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)
    lines = []
    while not lines or not lines[-1].startswith("Plays archive"):
        line = process.stdout.readline()
        assert line, (lines, process.stderr.read() if process.poll() is not None else "")
        lines.append(line.rstrip("\n"))
    return process, lines


def terminal_qr(lines: list[str]) -> str:
    """Decode the QR code `serve` draws with half blocks, from the pixels the characters stand for."""
    import zxingcpp
    from PIL import Image

    rows = [line for line in lines if line.strip() and set(line) <= set(" \xa0█▀▄")]
    assert rows, lines
    width = max(len(row) for row in rows)
    image = Image.new("L", (width + 8, 2 * len(rows) + 8), 255)
    for y, row in enumerate(rows):
        for x, char in enumerate(row):  # print_ascii(invert=True): a drawn half is a light module
            top, bottom = {"█": (255, 255), "▀": (255, 0), "▄": (0, 255)}.get(char, (0, 0))
            image.putpixel((x + 4, 2 * y + 4), top)
            image.putpixel((x + 4, 2 * y + 5), bottom)
    image = image.resize((image.width * 8, image.height * 8), Image.NEAREST)
    found = zxingcpp.read_barcodes(image)
    assert len(found) == 1, rows
    return found[0].text


def stop(process: subprocess.Popen) -> None:
    import os

    if process.poll() is None:
        os.killpg(process.pid, signal.SIGTERM)
        process.wait(10)
    process.stdout.close()
    process.stderr.close()


def test_on_loopback_the_banner_says_only_this_machine_and_draws_no_code_for_a_phone(tmp_path):
    process, lines = start_serving(tmp_path, "--host", "127.0.0.1", "--port", "0")
    try:
        found = re.fullmatch(r"Table Companion is running only on this machine: (http://127\.0\.0\.1:(\d+)/) .*", lines[0])
        assert found, lines[0]
        assert "any phone" not in "\n".join(lines) and not any("█" in line for line in lines), lines
        assert Address(int(found.group(2))).send("GET", "/")[0] == 200  # where it said it listens
    finally:
        stop(process)


def lan_or_skip() -> str:
    """This machine's LAN address (a server there is reached by others), or skip the test."""
    from companion.network import lan_address

    address = lan_address()
    if address is None:
        pytest.skip("this machine has no non-loopback IPv4 address")
    return address


def test_on_one_lan_address_the_banner_and_its_qr_code_name_that_address(tmp_path):
    address = lan_or_skip()
    process, lines = start_serving(tmp_path, "--host", address, "--port", "0")
    try:
        found = re.fullmatch(r"Table Companion is running\. Open (http://([\d.]+):(\d+)/) on any phone on this network\.", lines[0])
        assert found and found.group(2) == address, lines[0]
        assert terminal_qr(lines) == found.group(1)  # nothing sent there: the address is only read
    finally:
        stop(process)


@pytest.mark.parametrize("count", WORKERS)
def test_ctrl_c_stops_the_server_with_one_line_and_status_0(tmp_path, count):
    process, lines = start_serving(tmp_path, "--host", "127.0.0.1", "--port", "0", "--quiet", "--workers", str(count))
    try:
        import os

        time.sleep(0.5)  # serving, not starting
        os.killpg(process.pid, signal.SIGINT)  # as the terminal sends Ctrl-C: to the whole process group
        out, err = process.communicate(timeout=20)
    finally:
        stop(process)
    assert "Traceback" not in err and "KeyboardInterrupt" not in err + out, err[-3000:]
    said = [line for line in out.splitlines() if not line.startswith("For a hall")]  # the hint may follow the archive line
    assert err == "" and said == ["Table Companion stopped (Ctrl-C)."], (out, err)
    assert process.returncode == 0


def test_behind_a_proxy_the_banner_its_qr_code_and_the_archive_link_name_the_public_address(tmp_path):
    process, lines = start_serving(tmp_path, "--port", "0", "--proxy", "1", "--public-url", "https://club.example.org/")
    try:
        found = re.fullmatch(r"Table Companion is running at (https://club\.example\.org/) \(through the proxy in front;"
                             r" it listens on 127\.0\.0\.1:(\d+)\)", lines[0])
        assert found, lines[0]
        assert terminal_qr(lines) == "https://club.example.org/"  # what a phone scans: the proxy's address
        assert re.fullmatch(r"Plays archive, every play \(.*\): https://club\.example\.org/plays#key=[\w-]+", lines[-1]), lines[-1]
        assert not any(line.startswith("Note:") for line in lines), lines  # on loopback, only the proxy reaches it
        assert Address(int(found.group(2))).send("GET", "/", headers={"Host": "club.example.org"})[0] == 200
    finally:
        stop(process)


def test_a_trusted_proxy_where_others_reach_the_server_is_warned_about(tmp_path):
    """--proxy on an address phones reach: whoever reaches the port directly writes its own X-Forwarded-For."""
    process, lines = start_serving(tmp_path, "--host", lan_or_skip(), "--port", "0", "--proxy", "1", "--quiet")
    try:
        notes = [line for line in lines if line.startswith("Note: --proxy 1 ")]
        assert len(notes) == 1 and "127.0.0.1" in notes[0], lines
    finally:
        stop(process)


@pytest.mark.parametrize("host, others", [("0.0.0.0", True), ("::", True), ("", True), ("192.0.2.7", True),
                                          ("127.0.0.1", False), ("::1", False), ("localhost", False)])
def test_who_reaches_a_server_on_each_host(host, others):
    from companion.network import others_reach

    assert others_reach(host) is others


@pytest.mark.parametrize("count", WORKERS)
def test_sigterm_stops_the_server_cleanly_with_status_0_and_keeps_every_table(tmp_path, count):
    """systemd's stop (and `docker stop`): SIGTERM to the whole group ends it as Ctrl-C does, with status
    0 and nothing said, an open stream ended, and every acknowledged table in the file."""
    import os

    process, lines = start_serving(tmp_path, "--host", "127.0.0.1", "--port", "0", "--quiet", "--workers", str(count))
    try:
        address = Address(listening_port("\n".join(lines)))
        status, t = address.call("POST", "/api/v1/tables", {"game": "gutenberg", "players": ["Anna", "Tom"]})
        assert status == 201, t
        stream = socket.create_connection(("127.0.0.1", address.port), timeout=10)
        stream.sendall(f"GET /t/{t['table']}/events HTTP/1.1\r\nHost: 127.0.0.1\r\nCookie: tc_{t['table']}={t['token']}\r\n\r\n".encode())
        assert stream.recv(64).startswith(b"HTTP/1.1 200")
        os.killpg(process.pid, signal.SIGTERM)
        out, err = process.communicate(timeout=20)
        stream.close()
    finally:
        stop(process)
    assert process.returncode == 0, (process.returncode, err[-3000:])
    assert "Traceback" not in err + out and [line for line in out.splitlines() if not line.startswith("For a hall")] == [], (out, err)
    import sqlite3

    conn = sqlite3.connect(tmp_path / "data" / "companion.db")
    try:
        assert conn.execute("SELECT id FROM tables").fetchall() == [(t["table"],)]
    finally:
        conn.close()
