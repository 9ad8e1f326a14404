"""One device cannot flood the server with tables or box profiles (issue 13, finding 2).

One client made 20,000 tables in 32 s and 5,000 profiles; then /profiles/ weighed 1 MB and the
start page carried a 5,000-option picker. Creating is now limited per client address: past
the limit, 429 with Retry-After and a clear message, and nothing is written. `companion serve
--create-limit N/MINUTES` raises it and `off` lifts it (benchmarks, scripts).
"""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys

import pytest

from companion import create_app
from companion.paths import DB_NAME
from companion.limits import parse_rate
from companion.web.guard import DEFAULT_CREATE_LIMIT
from tests.conftest import ROOT, Server

from .test_hosts import send

TABLE = json.dumps({"game": "gutenberg", "players": ["Anna", "Tom"]}).encode()
NAMES = iter(range(10**6))  # profile names are unique


def multipart() -> bytes:
    profile = json.dumps({"game": "galileo", "name": f"Box {next(NAMES)}", "data": {}}).encode()
    return (b"--b\r\nContent-Disposition: form-data; name=\"file\"; filename=\"p.json\"\r\n"
            b"Content-Type: application/json\r\n\r\n" + profile + b"\r\n--b--\r\n")


def create_table(server: Server):
    return send(server.port, "POST", "/api/v1/tables", f"127.0.0.1:{server.port}", {"Content-Type": "application/json"}, TABLE)


def table_form(server: Server):
    return send(server.port, "POST", "/new/gutenberg", f"127.0.0.1:{server.port}",
                {"Content-Type": "application/x-www-form-urlencoded"}, b"players%5B%5D=Anna&players%5B%5D=Tom")


def import_profile(server: Server):
    return send(server.port, "POST", "/profiles/import", f"127.0.0.1:{server.port}",
                {"Content-Type": "multipart/form-data; boundary=b"}, multipart())


def profile_form(server: Server, path: str = "/profiles/new/galileo"):
    return send(server.port, "POST", path, f"127.0.0.1:{server.port}",
                {"Content-Type": "application/x-www-form-urlencoded"}, f"profile_name=Box+{next(NAMES)}".encode())


def counts(server: Server) -> tuple[int, int]:
    conn = sqlite3.connect(str(server.data / DB_NAME))
    try:
        return tuple(conn.execute(f"SELECT count(*) FROM {t}").fetchone()[0] for t in ("tables", "profiles"))
    finally:
        conn.close()


def start(tmp_path, *args: str) -> Server:
    return Server(data=tmp_path / "data", args=args).start()


def assert_refused_page(answer) -> int:
    status, headers, text = answer
    assert status == 429, (status, text[:300])
    seconds = int(headers["Retry-After"])
    assert 1 <= seconds <= 60
    assert "Content-Security-Policy" in headers
    return seconds


@pytest.mark.slow
def test_the_default_limit_refuses_a_flood_of_tables_and_profiles_with_429(tmp_path):
    allowed, _ = parse_rate(DEFAULT_CREATE_LIMIT)
    server = start(tmp_path)
    try:
        half = allowed // 2
        statuses = [create_table(server)[0] for _ in range(half)] + [table_form(server)[0] for _ in range(allowed - half)]
        assert statuses == [201] * half + [303] * (allowed - half)
        status, headers, text = create_table(server)
        assert_refused_page((status, headers, text))
        doc = json.loads(text)
        assert doc["field"] == "$" and "too many new tables" in doc["error"] and "try again in" in doc["error"]
        status, headers, text = table_form(server)
        assert_refused_page((status, headers, text))
        assert headers["Content-Type"].startswith("text/html") and "Too many new tables" in text
        assert counts(server) == (allowed, 0)

        # profiles are counted apart: the tables' limit left them free
        statuses = [import_profile(server)[0] for _ in range(half)] + [profile_form(server)[0] for _ in range(allowed - half)]
        assert statuses == [303] * allowed
        for answer in (import_profile(server), profile_form(server)):
            assert_refused_page(answer)
            assert "Too many new box profiles" in answer[2]
        assert counts(server) == (allowed, allowed)
        # saving a profile that exists creates nothing, and the rest of the app is not limited
        assert profile_form(server, "/profiles/1")[0] == 303
        assert send(server.port, "GET", "/", f"127.0.0.1:{server.port}")[0] == 200
        assert counts(server) == (allowed, allowed)
        assert "Traceback" not in server.log.read_text()
    finally:
        server.stop()


@pytest.mark.slow
def test_create_limit_raises_lowers_or_lifts_the_limit(tmp_path):
    server = start(tmp_path / "five", "--create-limit", "5/2")
    try:
        assert [create_table(server)[0] for _ in range(5)] == [201] * 5
        status, headers, _ = create_table(server)
        assert status == 429 and 60 < int(headers["Retry-After"]) <= 120  # a window of 2 minutes
    finally:
        server.stop()
    server = start(tmp_path / "off", "--create-limit", "off")
    try:
        allowed, _ = parse_rate(DEFAULT_CREATE_LIMIT)
        assert {create_table(server)[0] for _ in range(allowed + 20)} == {201}
    finally:
        server.stop()


def test_the_limit_is_per_client_address_and_set_by_create_limit(tmp_path):
    app = create_app({"TESTING": True, "DATA_DIR": str(tmp_path), "CREATE_LIMIT": "3/1"})
    one = app.test_client()
    other = app.test_client()
    other.environ_base["REMOTE_ADDR"] = "192.0.2.7"
    doc = {"game": "gutenberg", "players": ["Anna", "Tom"]}
    assert [one.post("/api/v1/tables", json=doc).status_code for _ in range(3)] == [201] * 3
    refused = one.post("/api/v1/tables", json=doc)
    assert refused.status_code == 429 and refused.get_json()["field"] == "$" and int(refused.headers["Retry-After"]) >= 1
    assert other.post("/api/v1/tables", json=doc).status_code == 201
    # another site's post refused by the CSRF check does not count against the device
    app2 = create_app({"TESTING": True, "DATA_DIR": str(tmp_path / "two"), "CREATE_LIMIT": "1/1"})
    client = app2.test_client()
    assert client.post("/api/v1/tables", json=doc, headers={"Sec-Fetch-Site": "cross-site"}).status_code == 403
    assert client.post("/api/v1/tables", json=doc).status_code == 201


def test_tests_app_has_no_limit_unless_asked_and_a_served_app_has_the_default(tmp_path):
    assert "companion.create_limit" not in create_app({"TESTING": True, "DATA_DIR": str(tmp_path / "a")}).extensions
    limit = create_app({"DATA_DIR": str(tmp_path / "b"), "WAL_FLUSHER": False}).extensions["companion.create_limit"]
    assert (limit.count, limit.minutes) == parse_rate(DEFAULT_CREATE_LIMIT)


@pytest.mark.parametrize("value", ["many", "5/x", "-1", "5/0", "1/2/3"])
def test_a_bad_create_limit_is_one_line_and_exit_2(tmp_path, value):
    done = subprocess.run([sys.executable, "-m", "companion", "serve", "--host", "127.0.0.1", "--port", "0", "--data", str(tmp_path),
                           "--quiet", "--create-limit", value], cwd=ROOT, capture_output=True, text=True, timeout=30)
    assert done.returncode == 2
    assert done.stderr.startswith("error: --create-limit: ") and done.stderr.count("\n") == 1, done.stderr
