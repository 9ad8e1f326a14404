"""No table can stall the server (issue 28, deliverable 3): companion/web/push.py and companion/serving.py.

- the streams of one table that hold the same version and screen share one computation of
  what they are sent (Hub.next), not one each;
- a change wakes the streams a slice at a time, and the process runs other work between two
  slices (gevent's Event.set ran them all in one of the loop's callbacks);
- a phone that stops reading has its stream ended after a few seconds, long before the idle
  timeout, while the other phones go on getting every version; opened again with
  Last-Event-ID, it catches up.

The first two drive push.stream in this process, under gevent, on a real SQLite file written by
companion.tables; the third a real `companion serve`. How long any of it takes is measured by
bench/stall.py, never asserted here.
"""

from __future__ import annotations

import socket
import time

import gevent
import pytest

from companion import db as database
from companion import tables
from companion.web import push
from tests.conftest import Server
from tests.foundation.test_lost_taps import api_post, create
from tests.foundation.test_push import Stream


@pytest.fixture
def table(tmp_path):
    """A real table in a real SQLite file: (the file's path, the connection, the table's id)."""
    path = tmp_path / "t.db"
    database.migrate(path)
    conn = database.connect(path)
    made, _ = tables.create(conn, {"game": "codex", "players": ["Anna", "Tom"]}, None)
    yield str(path), conn, made.id
    conn.conn.close()


def change(conn, table_id: str) -> int:
    """Write one event to the table, as another process would; return its new version."""
    version = conn.execute("SELECT version FROM tables WHERE id = ?", [table_id]).fetchone()[0]
    return tables.append(conn, table_id, {"type": "rename", "data": {"player": 0, "name": f"Anna{version}"},
                                         "expected_version": version}).version


class Phones:
    """Streams of one table consumed by greenlets, each keeping the bytes it was sent."""

    def __init__(self, hub: push.Hub, table_id: str, keys: list, next_region):
        self.got: list[list[bytes]] = [[] for _ in keys]
        self.streams = [push.stream(hub, table_id, 0, None, next_region, key=key) for key in keys]
        self.greenlets = [gevent.spawn(self._read, i) for i in range(len(keys))]

    def _read(self, i: int) -> None:
        for data in self.streams[i]:
            self.got[i].append(data)

    def holding(self, version: int) -> int:
        """How many phones have been sent the event of this version."""
        mark = f"id: {version}\n".encode()
        return sum(any(data.startswith(mark) for data in got) for got in self.got)

    def wait_for(self, version: int) -> None:
        deadline = time.monotonic() + 20
        while self.holding(version) < len(self.got) and time.monotonic() < deadline:
            gevent.sleep(0.01)
        assert self.holding(version) == len(self.got), (version, self.holding(version))

    def close(self) -> None:
        gevent.killall(self.greenlets)


def counting_region(conn, table_id: str, calls: list[int]):
    """A route's next_region: the newest version and a region for it, counting its calls."""

    def next_region(version: int):
        calls.append(version)
        now = conn.execute("SELECT version FROM tables WHERE id = ?", [table_id]).fetchone()[0]
        return (now, f"<div>version {now}\n{'x' * 2000}</div>") if now > version else (version, None)

    return next_region


def test_the_streams_of_a_table_share_one_computation_per_version_and_screen(table):
    path, conn, table_id = table
    calls: list[int] = []
    hub = push.Hub(path, tick=0.005)
    phones = Phones(hub, table_id, ["main"] * 30 + ["board"] * 10, counting_region(conn, table_id, calls))
    try:
        gevent.sleep(0.05)  # every stream sent its opening and waits
        for version in (1, 2):
            assert change(conn, table_id) == version
            phones.wait_for(version)
    finally:
        phones.close()
    # one computation for each (screen, version held): main 0 -> 1, board 0 -> 1, main 1 -> 2, board 1 -> 2
    assert sorted(calls) == [0, 0, 1, 1], calls
    assert hub.computed == 4
    # and every phone was sent the same bytes as the others on its screen
    assert len({b"".join(got) for got in phones.got[:30]}) == 1
    assert len({b"".join(got) for got in phones.got[30:]}) == 1


def test_a_change_wakes_the_streams_in_slices_and_other_work_runs_between_them(table):
    path, conn, table_id = table
    hub = push.Hub(path, tick=0.005)
    count = 300
    phones = Phones(hub, table_id, [None] * count, counting_region(conn, table_id, []))
    seen: list[int] = []  # how many phones held version 1 each time the other greenlet ran

    def other_work() -> None:
        while not seen or seen[-1] < count:
            seen.append(phones.holding(1))
            gevent.sleep(0)

    try:
        gevent.sleep(0.05)
        change(conn, table_id)
        worker = gevent.spawn(other_work)
        phones.wait_for(1)
        worker.join(5)
    finally:
        phones.close()
    between = sorted({n for n in seen if 0 < n < count})
    # it ran between slices, not only before the first phone or after the last
    assert len(between) >= 2, between


@pytest.mark.slow
def test_a_phone_that_stops_reading_is_ended_while_the_others_get_every_version_and_it_catches_up(tmp_path):
    # the idle timeout stays at its 30 s: the stalled stream must end on its own, shorter, limit
    server = Server(data=tmp_path / "srv").start()
    try:
        t = create(server)
        started = server.log.read_text()
        stalled = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        stalled.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1024)  # before connect: the window is set then
        stalled.connect(("127.0.0.1", server.port))
        stalled.sendall((f"GET /t/{t['table']}/events?v=0 HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\n"
                         f"Cookie: tc_{t['table']}={t['token']}\r\nAccept: text/event-stream\r\n\r\n").encode())
        reading = Stream(server.port, t, "v=0", seat=1)
        try:
            reading.read_until(rb"retry: 1000\n\n")
            version = 0
            deadline = time.monotonic() + 25  # less than the idle timeout, more than the stream's limit
            while "stopped reading" not in server.log.read_text()[len(started):] and time.monotonic() < deadline:
                status, doc = api_post(server, t, "events", {"type": "fame", "data": {"player": 0, "delta": 1},
                                                             "expected_version": version})
                assert status == 200, doc
                version = doc["version"]
                reading.read_until(rb"id: %d\n" % version, 10)  # the reading phone has it
                time.sleep(0.05)
            said = server.log.read_text()[len(started):]
            ids = [v for v, _ in reading.events()]
        finally:
            stalled.close()
            reading.close()
        assert "stopped reading its answer" in said, f"the stalled stream was not ended after {version} changes"
        assert "Traceback" not in said and len(said.splitlines()) == 1, said[:3000]
        # the reading phone went on getting the versions, up to the last, in order
        assert ids and ids[-1] == version and ids == sorted(ids), ids

        # the stalled phone comes back: its browser sends the last id it read, and it catches up
        back = Stream(server.port, t, "v=0", {"Last-Event-ID": "1"})
        try:
            back.read_until(rb"id: %d\n" % version)
            assert back.events() == [(version, version)]
        finally:
            back.close()
    finally:
        server.stop()
