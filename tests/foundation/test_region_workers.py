"""Two workers draw each version of a region once (companion/web/live.py), and a table's spare pairs wait (push.py).

Streams are opened until each worker holds some on the same table, screen and language (which
worker took a connection is read from /proc: the server's end of each socket, by its inode);
then every change reaches every stream, and the store says each version was drawn once.
"""

from __future__ import annotations

import os
import sqlite3
import time

import pytest

from companion import workers
from companion.paths import DB_NAME
from tests.conftest import Server
from tests.foundation.test_lost_taps import api_post, create
from tests.foundation.test_push import Stream
from tests.foundation.test_workers import children

pytestmark = pytest.mark.skipif(not workers.can_share_port(), reason="several workers need Linux's SO_REUSEPORT")


def server_inodes(port: int) -> dict[int, int]:
    """The server's end of each connection to `port` on 127.0.0.1: {client's port: socket inode}."""
    found = {}
    with open("/proc/net/tcp") as table:
        for line in table.readlines()[1:]:
            fields = line.split()
            local, remote, inode = fields[1], fields[2], int(fields[9])
            if int(local.split(":")[1], 16) == port and inode:
                found[int(remote.split(":")[1], 16)] = inode
    return found


def worker_of(pids: list[int], inode: int) -> int | None:
    for pid in pids:
        for fd in os.listdir(f"/proc/{pid}/fd"):
            try:
                if os.readlink(f"/proc/{pid}/fd/{fd}") == f"socket:[{inode}]":
                    return pid
            except OSError:
                continue
    return None


@pytest.mark.slow
def test_two_workers_draw_each_version_once(tmp_path):
    server = Server(data=tmp_path, workers=2).start()
    streams: list[Stream] = []
    try:
        pids = children(server.process.pid)
        assert len(pids) == 2
        t = create(server, game="gutenberg", players=("Anna", "Tom", "Kate"))
        held: dict[int, int] = {}
        while len(held) < 2 and len(streams) < 40:  # the kernel spreads connections by their ports
            stream = Stream(server.port, t, "v=0")
            stream.read_until(rb"event: alive")
            streams.append(stream)
            inode = server_inodes(server.port).get(stream.sock.getsockname()[1])
            pid = worker_of(pids, inode) if inode else None
            if pid is not None:
                held[pid] = held.get(pid, 0) + 1
        assert len(held) == 2, f"both workers hold streams: {held}"
        changes = 6
        for i in range(changes):
            status, _ = api_post(server, t, "events", {"type": "fame", "data": {"player": i % 3, "delta": 1},
                                                       "expected_version": i})
            assert status == 200
            for stream in streams:  # every stream holds the change before the next one
                stream.read_until(rb"id: %d\n" % (i + 1))
        for stream in streams:
            assert [v for v, _ in stream.events()][-1] == changes
        conn = sqlite3.connect(server.data / DB_NAME)
        rows = conn.execute("SELECT version, draws, refs IS NOT NULL FROM region_versions WHERE table_id = ? AND drawn_as = '|en'"
                            " ORDER BY version", [t["table"]]).fetchall()
        conn.close()
        assert [r[0] for r in rows] == list(range(1, changes + 1))  # the streams opened on version 0, drawn by none
        assert all(draws == 1 and kept for _, draws, kept in rows), rows
    finally:
        for stream in streams:
            stream.close()
        server.stop()


@pytest.mark.slow
def test_a_table_brings_its_first_pairs_up_to_date_at_every_change_and_the_others_every_few_seconds(server):
    """push.LIVE_PAIRS (screen, language) pairs of a table get every version; a stream on a further
    pair gets the newest one at most every SPARE_PAIR_S, so a guest's streams on many pairs cost a
    bounded drawing a second (bench/guest.py measures it)."""
    from companion.web import push

    t = create(server, game="codex", players=("Anna", "Tom"))
    pairs = [(None, lang) for lang in ("en", "fr", "de", "pl", "es", "it")] + [("end", "en"), ("book-0", "en"), ("book-1", "en")]
    assert len(pairs) == push.LIVE_PAIRS + 1
    streams = []
    try:
        for screen, lang in pairs:
            query = "v=0" + (f"&screen={screen}" if screen else "")
            stream = Stream(server.port, t, query, headers={"Accept-Language": lang})
            stream.read_until(rb"event: alive")
            streams.append(stream)
        for i in range(3):
            status, _ = api_post(server, t, "events", {"type": "points", "data": {"player": 0, "delta": 1}, "expected_version": i})
            assert status == 200
            for stream in streams[:-1]:
                stream.read_until(rb"id: %d\n" % (i + 1))
        spare = streams[-1]
        spare.read_until(rb"id: 3\n", seconds=push.SPARE_PAIR_S + 5)
        assert [v for v, _ in spare.events()] == [1, 3], "the spare pair got the first change at once, then the newest"
        for stream in streams[:-1]:
            assert [v for v, _ in stream.events()] == [1, 2, 3]
    finally:
        for stream in streams:
            stream.close()


@pytest.mark.slow
def test_a_phone_that_opens_its_stream_again_keeps_its_pairs_place(server):
    """A pair whose stream closed keeps its place among the first LIVE_PAIRS for PAIR_GRACE_S: a phone
    whose Wi-Fi blinked is not put behind a pair opened meanwhile, and still gets every change."""
    from companion.web import push

    t = create(server, game="codex", players=("Anna", "Tom"))
    pairs = [(None, lang) for lang in ("en", "fr", "de", "pl", "es", "it")] + [("end", "en"), ("book-0", "en"), ("book-1", "en")]

    def open_(pair):
        screen, lang = pair
        stream = Stream(server.port, t, "v=0" + (f"&screen={screen}" if screen else ""), headers={"Accept-Language": lang})
        stream.read_until(rb"event: alive")
        return stream

    streams = [open_(pair) for pair in pairs[:push.LIVE_PAIRS]]
    try:
        streams[-1].close()  # the eighth pair's phone loses its connection (the server finds out at its next keep-alive)...
        time.sleep(push.KEEP_ALIVE_S + 1.5)
        streams.append(open_(pairs[push.LIVE_PAIRS]))  # ...a ninth pair opens meanwhile...
        streams[push.LIVE_PAIRS - 1] = open_(pairs[push.LIVE_PAIRS - 1])  # ...and the phone is back
        for i in range(3):
            status, _ = api_post(server, t, "events", {"type": "points", "data": {"player": 0, "delta": 1}, "expected_version": i})
            assert status == 200
            streams[push.LIVE_PAIRS - 1].read_until(rb"id: %d\n" % (i + 1))
        assert [v for v, _ in streams[push.LIVE_PAIRS - 1].events()] == [1, 2, 3]
        spare = streams[-1]
        spare.read_until(rb"id: 3\n", seconds=push.SPARE_PAIR_S + 5)
        assert [v for v, _ in spare.events()] == [1, 3]
    finally:
        for stream in streams:
            stream.close()
