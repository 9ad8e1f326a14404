"""Only the machine's own names reach the app (issue 13, findings 2 and 5).

A web page that DNS-rebinds its own name to the laptop makes the phone's browser send
`Host: attacker.example:PORT` with `Sec-Fetch-Site: same-origin`, which the CSRF check takes
for the app's own page. The server now answers 400 to any Host that is not one of its own
addresses, `localhost`, its host name or a `companion serve --allow-host NAME`, before any
route runs. A malformed Host (a label over 63 characters made a 500 without the security
headers) gets the same 400.

Every request goes to 127.0.0.1: only the Host header names another machine.
"""

from __future__ import annotations

import json
import re
import socket
import sqlite3

import pytest

from companion import network
from companion.paths import DB_NAME
from tests.conftest import Address, Server

pytestmark = pytest.mark.slow

ATTACKER = "attacker.example"
PROFILE = {"game": "galileo", "name": "Our box", "data": {}}
SECURITY = ("Content-Security-Policy", "X-Content-Type-Options", "Referrer-Policy", "X-Frame-Options")


def send(port: int, method: str, path: str, host: str, headers: dict | None = None, body: bytes | None = None):
    """One request to 127.0.0.1:port with this Host header; return (status, headers, body text)."""
    status, answer_headers, answer = Address(port).send(method, path, body, {"Host": host, **(headers or {})})
    return status, answer_headers, answer.decode("utf-8", "replace")


def start(tmp_path, *args: str) -> Server:
    return Server(data=tmp_path / "data", args=args).start()


def counts(server: Server) -> tuple[int, int, int]:
    conn = sqlite3.connect(str(server.data / DB_NAME))
    try:
        return tuple(conn.execute(f"SELECT count(*) FROM {t}").fetchone()[0] for t in ("tables", "events", "profiles"))
    finally:
        conn.close()


def test_a_rebinding_page_can_neither_create_nor_read_nor_delete(tmp_path):
    server = start(tmp_path)
    try:
        host = f"127.0.0.1:{server.port}"
        status, _, text = send(server.port, "POST", "/api/v1/tables", host, {"Content-Type": "application/json"},
                               json.dumps({"game": "gutenberg", "players": ["Anna", "Tom"]}).encode())
        assert status == 201, text
        table = json.loads(text)
        upload = json.dumps(PROFILE).encode()
        multipart = (b"--b\r\nContent-Disposition: form-data; name=\"file\"; filename=\"p.json\"\r\n"
                     b"Content-Type: application/json\r\n\r\n" + upload + b"\r\n--b--\r\n")
        status, headers, text = send(server.port, "POST", "/profiles/import", host,
                                     {"Content-Type": "multipart/form-data; boundary=b"}, multipart)
        assert status == 303, text
        profile = headers["Location"].rstrip("/").rsplit("/", 1)[1]
        before = counts(server)

        evil = f"{ATTACKER}:{server.port}"
        browser = {"Sec-Fetch-Site": "same-origin", "Origin": f"http://{evil}"}
        form = {**browser, "Content-Type": "application/x-www-form-urlencoded"}
        cookie = {"Cookie": f"tc_{table['table']}={table['token']}"}
        attempts = [
            ("POST", "/api/v1/tables", {**browser, "Content-Type": "application/json"},
             json.dumps({"game": "gutenberg", "players": ["Eve", "Mal"]}).encode()),
            ("POST", "/new/gutenberg", form, b"players%5B%5D=Eve&players%5B%5D=Mal"),
            ("GET", "/profiles/", browser, None),
            ("GET", f"/profiles/{profile}.json", browser, None),
            ("POST", f"/profiles/{profile}/delete", form, b""),
            ("POST", "/profiles/import", {**browser, "Content-Type": "multipart/form-data; boundary=b"}, multipart),
            ("GET", f"/api/v1/tables/{table['table']}", {**browser, "X-Table-Token": table["token"]}, None),
            # a table's commonest requests: a poll and a stepper's tap
            ("GET", f"/t/{table['table']}/live", {**browser, **cookie, "If-None-Match": f'"{table["table"]}-0"'}, None),
            ("POST", f"/t/{table['table']}/events", {**form, **cookie, "HX-Request": "true"},
             b"type=score&expected_version%3Aint=0&data.player%3Aint=0&data.delta%3Ajson=1"),
        ]
        for method, path, headers, body in attempts:
            status, answer_headers, text = send(server.port, method, path, evil, headers, body)
            assert status == 400, (method, path, status, text[:200])
            assert "Our box" not in text and table["token"] not in text
            assert all(name in answer_headers for name in SECURITY), (path, answer_headers)
            assert answer_headers["Content-Type"].startswith("text/plain")
            assert ATTACKER not in text  # the refused name is not echoed back into a page
        assert counts(server) == before, "a refused request wrote something"
        # the same profile is still there for the machine's own names
        assert send(server.port, "GET", f"/profiles/{profile}.json", host)[0] == 200
        assert "Traceback" not in server.log.read_text()
    finally:
        server.stop()


def test_the_machines_own_names_and_addresses_are_answered(tmp_path):
    server = start(tmp_path)
    try:
        port = server.port
        names = ["localhost", "LOCALHOST", "phone.localhost", "127.0.0.1", "[::1]", "127.0.0.2",
                 socket.gethostname(), f"{socket.gethostname()}.local", socket.gethostname().upper()]
        lan = network.lan_address()
        if lan:
            names.append(lan)
        for name in names:
            for host in (name, f"{name}:{port}"):
                status, _, text = send(port, "GET", "/", host)
                assert status == 200, (host, text[:200])
        # an address this machine does not have, and names that are not its own
        for host in ("192.0.2.254", "[2001:db8::1]", "localhost.attacker.example", f"{socket.gethostname()}.attacker.example",
                     "localhostx", "127.0.0.1.nip.io"):
            if host == lan:
                continue
            assert send(port, "GET", "/", f"{host}:{port}")[0] == 400, host
    finally:
        server.stop()


def test_allow_host_adds_a_name(tmp_path):
    server = start(tmp_path, "--allow-host", "games.example", "--allow-host", "Box.Lan")
    try:
        for host in ("games.example", f"games.example:{server.port}", "box.lan", f"BOX.LAN:{server.port}"):
            assert send(server.port, "GET", "/", host)[0] == 200, host
        status, _, text = send(server.port, "POST", "/api/v1/tables", f"games.example:{server.port}",
                               {"Content-Type": "application/json", "Sec-Fetch-Site": "same-origin"},
                               json.dumps({"game": "gutenberg", "players": ["Anna", "Tom"]}).encode())
        assert status == 201, text
        assert send(server.port, "GET", "/", f"{ATTACKER}:{server.port}")[0] == 400
    finally:
        server.stop()


def test_a_bad_allow_host_is_one_line_and_exit_2(tmp_path):
    import subprocess
    import sys

    from tests.conftest import ROOT

    done = subprocess.run([sys.executable, "-m", "companion", "serve", "--host", "127.0.0.1", "--port", "0", "--data", str(tmp_path),
                           "--quiet", "--allow-host", "not a name"], cwd=ROOT, capture_output=True, text=True, timeout=30)
    assert done.returncode == 2
    assert done.stderr.startswith("error: --allow-host: ") and done.stderr.count("\n") == 1, done.stderr
    assert "Traceback" not in done.stderr


MALFORMED = [
    "a" * 64 + ".example",  # a label over 63 characters: a 500 without the security headers before
    "a" * 64,
    "x." * 130 + "com",  # a name over 253 characters
    "exa mple",
    "host:80:80",
    "localhost:99999",
    "localhost:8o",
    "[::1",
    "[::1]x",
    "local..host",
    "-localhost",
    "lоcalhost",  # a Cyrillic o
]


@pytest.mark.parametrize("host", MALFORMED, ids=range(len(MALFORMED)))
def test_a_malformed_host_is_400_with_the_security_headers(tmp_path, host):
    server = start(tmp_path)
    try:
        for path in ("/", "/join/abc/def", "/api/v1/tables"):
            status, headers, text = send(server.port, "GET", path, host.encode("utf-8").decode("latin-1"))
            assert status == 400, (host, path, status, text[:200])
            assert all(name in headers for name in SECURITY), headers
        assert "Traceback" not in server.log.read_text()
    finally:
        server.stop()


def raw(port: int, request: bytes) -> bytes:
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        sock.sendall(request)
        chunks = []
        while True:
            chunk = sock.recv(65536)
            if not chunk:
                break
            chunks.append(chunk)
    return b"".join(chunks)


def test_a_request_without_host_is_refused_in_http_1_1_and_served_in_http_1_0(tmp_path):
    # HTTP/1.1 requires Host (RFC 9112 3.2: a server answers 400 without one); HTTP/1.0 had none,
    # and a browser, the only client a rebinding page can drive, always sends it
    server = start(tmp_path)
    try:
        assert raw(server.port, b"GET / HTTP/1.1\r\nConnection: close\r\n\r\n").startswith(b"HTTP/1.1 400")
        # served; the answer's version is the server's own, HTTP/1.1 (RFC 9110 6.2), as waitress said 1.0
        assert re.match(rb"HTTP/1\.[01] 200 ", raw(server.port, b"GET / HTTP/1.0\r\n\r\n"))
    finally:
        server.stop()
