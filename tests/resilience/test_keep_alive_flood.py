"""A stream whose table moved is sent the new version, never a stored keep-alive (bench/README.md, "Keep-alive floods").

Hub.next stores a keep-alive as the answer for (screen, version) while the table stays at that
version: every stream of the table that waited its KEEP_ALIVE_S out shares it. Once the Hub
knows the table is past that version, that answer is wrong: a stream that asks then finds the
table moved (Hub.wait returns at once), is handed the keep-alive, writes it, and asks again,
spinning without yielding while its socket takes the bytes, and never sent the new version.
Two ways the Hub learnt of a newer version before it dropped the stored answers:

- the watcher raises the version of every table that moved at once (`_read_versions`), while
  `_wake` dropped each table's answers only when it reached that table, between slices that sleep;
- a phone opening a stream tells the Hub a newer version it read itself (`Hub.open`), and the
  watcher then does not count the table as moved at all: its answers were never dropped.

Driven in this process under gevent, on a real SQLite file written by companion.tables, as
tests/foundation/test_push_fanout.py does.
"""

from __future__ import annotations

import gevent

from companion.web import push
from tests.foundation.test_push_fanout import change, counting_region, table  # noqa: F401 (a fixture)


def stored_keep_alive(hub: push.Hub, table_id: str, next_region) -> None:
    """What a stream of the table that waited out its keep-alive leaves behind: a keep-alive stored for version 0."""
    assert hub.next(table_id, None, 0, next_region) == (0, push.ALIVE)


def test_a_stream_of_a_table_not_yet_woken_gets_the_new_version_not_the_stored_keep_alive(tmp_path, table):
    path, conn, first_id = table
    from companion import tables

    second, _ = tables.create(conn, {"game": "codex", "players": ["Ben", "Kim"]}, None)
    hub = push.Hub(path, tick=3600)  # the watcher never looks by itself: this test reads and wakes
    first_region = counting_region(conn, first_id, [])
    second_region = counting_region(conn, second.id, [])
    # the first table has two phones parked, so waking it takes two slices, with a pause between
    parked = [push.stream(hub, first_id, 0, None, first_region, key=None) for _ in range(2)]
    phone = push.stream(hub, second.id, 0, None, second_region, key=None)
    for opened in (*parked, phone):
        assert next(opened).startswith(b"retry:")
    waiting = [gevent.spawn(next, opened) for opened in parked]
    gevent.sleep(0)  # both wait on the first table
    stored_keep_alive(hub, second.id, second_region)
    assert change(conn, first_id) == 1 and change(conn, second.id) == 1
    try:
        moved = read_versions(hub, path)
        assert moved == [first_id, second.id]
        waking = gevent.spawn(hub._wake, moved)
        gevent.sleep(0)  # the first slice is woken; _wake pauses before the second and before the second table
        assert not waking.dead
        # the second table's phone had waited its keep-alive out, and asks now
        sent = next(phone)
        assert sent.startswith(b"id: 1\n"), sent[:60]
        waking.join(5)
        assert all(w.get(timeout=5).startswith(b"id: 1\n") for w in waiting)
    finally:
        gevent.killall(waiting)
        for opened in (*parked, phone):
            opened.close()


def test_a_stream_opened_on_a_newer_version_does_not_leave_the_others_a_stored_keep_alive(table):
    path, conn, table_id = table
    hub = push.Hub(path, tick=3600)
    region = counting_region(conn, table_id, [])
    older = push.stream(hub, table_id, 0, None, region, key=None)
    assert next(older).startswith(b"retry:")
    stored_keep_alive(hub, table_id, region)
    waiting = gevent.spawn(next, older)
    gevent.sleep(0)  # the older phone waits for the table to move
    assert change(conn, table_id) == 1
    # a phone opens the table's stream, having read version 1 itself, before the watcher looked
    newer = push.stream(hub, table_id, 1, None, region, key=None)
    try:
        assert next(newer).startswith(b"retry:")
        # the watcher looks: the table moved, and its streams are woken
        moved = read_versions(hub, path)
        assert moved == [table_id]
        hub._wake(moved)
        sent = waiting.get(timeout=5)
        assert sent.startswith(b"id: 1\n"), sent[:60]
    finally:
        waiting.kill()
        older.close()
        newer.close()


def read_versions(hub: push.Hub, path: str) -> list[str]:
    """What the Hub's watcher does when the file changed: read the versions, return the tables that moved."""
    import sqlite3

    conn = sqlite3.connect(path)
    try:
        return hub._read_versions(conn)
    finally:
        conn.close()
