"""The stream of new versions (companion/web/push.py, the route tables.events), without a browser.

Against a real `companion serve` (gevent), read as bytes off the socket: what a phone that opens
the stream gets, what it gets when another process writes, and what catching up means.
tests/foundation/test_push_browser.py drives the page itself.
"""

from __future__ import annotations

import json
import re
import socket
import time

import pytest

from tests.conftest import Server
from tests.foundation.test_lost_taps import api_post, create


def test_without_push_the_stream_answers_204_and_a_wrong_secret_404(client, api):
    # Flask's test client is not `companion serve`: no push, and the page polls
    t = api.create("codex", ["Anna", "Tom"])
    client.get(f"/join/{t['table']}/{t['token']}")
    assert client.get(f"/t/{t['table']}/events?v=0").status_code == 204
    client.set_cookie(f"tc_{t['table']}", "x" * 22)
    assert client.get(f"/t/{t['table']}/events?v=0").status_code == 404
    assert client.get("/t/nosuchtable/events").status_code == 404


class Stream:
    """One phone's open stream, read off a raw socket (chunked, as the server sends it)."""

    def __init__(self, port: int, t: dict, query: str = "v=0", headers: dict | None = None, seat: int | None = None):
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=10)
        cookie = f"tc_{t['table']}={t['token']}" + ("" if seat is None else f"; seat_{t['table']}={seat}")
        extra = "".join(f"{k}: {v}\r\n" for k, v in (headers or {}).items())
        self.sock.sendall((f"GET /t/{t['table']}/events?{query} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
                           f"Cookie: {cookie}\r\nAccept: text/event-stream\r\n{extra}\r\n").encode())
        self.raw = b""

    def read_until(self, pattern: bytes, seconds: float = 10) -> bytes:
        deadline = time.monotonic() + seconds
        while not re.search(pattern, self.raw) and time.monotonic() < deadline:
            self.sock.settimeout(max(0.05, deadline - time.monotonic()))
            try:
                data = self.sock.recv(65536)
            except socket.timeout:
                break
            if not data:
                break
            self.raw += data
        return self.raw

    def events(self) -> list[tuple[int, int]]:
        """Each live event's id and the version the parts it carries show (their data-v, one for all)."""
        found = []
        for block in re.findall(rb"id: (\d+)\nevent: live\n(.*?)\n\n", self.raw, re.S):
            versions = set(re.findall(rb'data-v="(\d+)"', block[1]))
            assert len(versions) == 1, versions
            found.append((int(block[0]), int(versions.pop())))
        return found

    def event_data(self, version: int) -> bytes:
        """The data lines of the live event with this id, as sent."""
        found = re.search(rb"id: %d\nevent: live\n(.*?)\n\n" % version, self.raw, re.S)
        return found.group(1) if found else b""

    def close(self) -> None:
        self.sock.close()


@pytest.mark.slow
def test_a_stream_sends_what_the_phone_lacks_then_each_version_written_by_any_process(server):
    t = create(server, game="codex", players=("Anna", "Tom"))
    assert api_post(server, t, "events", {"type": "points", "data": {"player": 0, "delta": 1}, "expected_version": 0})[0] == 200
    behind = Stream(server.port, t, "v=0", seat=0)  # Anna's page showed version 0: it gets version 1 at once
    current = Stream(server.port, t, "v=1", seat=1)  # Tom's page is current: nothing until something changes
    try:
        head = behind.read_until(rb"event: live")
        assert head.startswith(b"HTTP/1.1 200 ") and b"Content-Type: text/event-stream" in head and b"retry: 1000" in head
        assert behind.events() == [(1, 1)]
        current.read_until(rb"retry: 1000\n\n")
        time.sleep(0.3)
        current.read_until(rb"event: live", 0.2)
        assert current.events() == []

        # another process writes (this test, straight into the SQLite file): both streams hear of it
        from companion import db as database, tables

        conn = database.connect(str(server.data / "companion.db"), "normal")
        tables.append(conn, t["table"], {"type": "points", "data": {"player": 1, "delta": 2}, "expected_version": 1}, None,
                      secret=t["token"])
        conn.conn.close()
        behind.read_until(rb"id: 2\n")
        current.read_until(rb"id: 2\n")
        assert behind.events() == [(1, 1), (2, 2)] and current.events() == [(2, 2)]
        # the same parts for every seat, rendered once and shared (companion/web/live.py): the same bytes,
        # and only what changed (Tom's score), not the region
        assert behind.event_data(2) == current.event_data(2) and b'data-v="2"' in current.event_data(2)
        assert b'id="sb-1"' in current.event_data(2) and b'id="table-live"' not in current.event_data(2)
    finally:
        behind.close()
        current.close()


@pytest.mark.slow
def test_a_stream_opened_again_catches_up_from_the_last_event_it_got(server):
    t = create(server, game="codex", players=("Anna", "Tom"))
    for version in range(2):
        assert api_post(server, t, "events", {"type": "points", "data": {"player": 0, "delta": 1}, "expected_version": version})[0] == 200
    # the browser opens a dropped stream again with Last-Event-ID, which wins over the page's ?v=
    same = Stream(server.port, t, "v=0", {"Last-Event-ID": "2"})
    older = Stream(server.port, t, "v=2", {"Last-Event-ID": "1"})
    try:
        same.read_until(rb"retry: 1000\n\n")
        older.read_until(rb"id: 2\n")
        same.read_until(rb"event: live", 0.5)
        assert same.events() == [] and older.events() == [(2, 2)]
    finally:
        same.close()
        older.close()


@pytest.mark.slow
def test_a_table_taken_out_of_the_file_ends_its_streams_and_they_cannot_open_again(tmp_path):
    # no route deletes a table; a host can, by hand (the API has no DELETE): its phones' streams
    # end, and open again only to 404, on which the page polls and shows "no such table"
    server = Server(data=tmp_path / "srv").start()
    try:
        t = create(server, game="codex", players=("Anna", "Tom"))
        stream = Stream(server.port, t, "v=0")
        stream.read_until(rb"retry: 1000\n\n")
        import sqlite3

        conn = sqlite3.connect(str(server.data / "companion.db"))
        with conn:
            conn.execute("PRAGMA foreign_keys = OFF")
            conn.execute("DELETE FROM events WHERE table_id = ?", [t["table"]])
            conn.execute("DELETE FROM tables WHERE id = ?", [t["table"]])
        conn.close()
        ended = stream.read_until(rb"0\r\n\r\n", 20)  # the chunked body's end: the server closed the stream
        assert ended.endswith(b"0\r\n\r\n"), ended[-200:]
        status, _, _ = server.send("GET", f"/t/{t['table']}/events?v=0", headers={"Cookie": f"tc_{t['table']}={t['token']}"})
        assert status == 404
        stream.close()
        assert "Traceback" not in server.log.read_text()
    finally:
        server.stop()


def test_a_version_the_phone_names_is_a_short_number_or_nothing():
    from companion.web.answers import version_number

    assert version_number("12") == 12
    for raw in (None, "", "-1", "1.5", "١", "²", "9" * 40, "v1"):
        assert version_number(raw) is None, raw
    assert json.dumps(version_number("0")) == "0"
