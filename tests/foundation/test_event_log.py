"""The event log: folding, undo, optimistic concurrency, and nothing lost under concurrent writers."""

import json
import threading

import pytest

from companion import db as database
from companion import tables
from companion.games.validation import RulesError

GAME = "gutenberg"


@pytest.fixture
def dbpath(tmp_path):
    path = tmp_path / "t.db"
    database.migrate(path)
    return path


@pytest.fixture
def conn(dbpath):
    c = database.connect(dbpath)
    yield c
    c.conn.close()


def no_profile(game, pid):
    raise AssertionError("no profile expected")


def new_table(conn, players=("Anna", "Tom")):
    return tables.create(conn, {"game": GAME, "players": list(players)}, no_profile)


def rename(version, player, name):
    return {"type": "rename", "data": {"player": player, "name": name}, "expected_version": version}


def test_wal_mode_and_normal_sync_by_default(conn):
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert conn.execute("PRAGMA synchronous").fetchone()[0] == 1  # NORMAL: a killed server keeps every commit


def test_full_sync_on_request_and_nothing_else(dbpath):
    c = database.connect(dbpath, "full")
    try:
        assert c.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL
    finally:
        c.conn.close()
    with pytest.raises(ValueError, match="sync must be one of normal, full"):
        database.connect(dbpath, "off")


def test_wal_flusher_fsyncs_the_wal_after_a_commit_and_not_again_until_the_next(dbpath, conn):
    flusher = database.WalFlusher(dbpath)  # not started: driven by hand here
    new_table(conn)
    assert flusher.flush_if_changed() is True
    assert flusher.flush_if_changed() is False  # nothing new
    new_table(conn)
    assert flusher.flush_if_changed() is True
    assert flusher.flushes == 2


def test_the_running_flusher_flushes_each_commit_soon(dbpath, conn):
    flusher = database.WalFlusher.start(dbpath, interval=0.01)
    assert database.WalFlusher.start(dbpath) is flusher  # one per file per process
    before = flusher.flushes
    new_table(conn)
    done = threading.Event()
    for _ in range(500):  # bounded wait, not a timing assertion: at most 5 s
        if flusher.flushes > before:
            done.set()
            break
        done.wait(0.01)
    assert done.is_set()


def test_event_is_one_row_with_table_seq_type_data_seat_time(conn):
    table, _ = new_table(conn)
    tables.append(conn, table.id, rename(0, 1, "Kate"), seat=0)
    rows = list(conn.query("SELECT table_id, seq, type, data, seat, at FROM events"))
    assert len(rows) == 1
    row = rows[0]
    assert (row["table_id"], row["seq"], row["type"], json.loads(row["data"]), row["seat"]) == (table.id, 1, "rename", {"player": 1, "name": "Kate"}, 0)
    assert row["at"].endswith("Z")
    assert tables.load(conn, table.id).names == ["Anna", "Kate"]


def test_stale_expected_version_conflicts_and_writes_nothing(conn):
    table, _ = new_table(conn)
    tables.append(conn, table.id, rename(0, 0, "Ann"))
    with pytest.raises(tables.Conflict) as caught:
        tables.append(conn, table.id, rename(0, 0, "Anne"))
    assert caught.value.version == 1
    assert conn.execute("SELECT count(*) FROM events").fetchone()[0] == 1
    assert tables.load(conn, table.id).names == ["Ann", "Tom"]


def test_invalid_event_writes_nothing(conn):
    table, _ = new_table(conn)
    with pytest.raises(RulesError) as caught:
        tables.append(conn, table.id, rename(0, 0, "Tom"))
    assert caught.value.field == "data.name"
    with pytest.raises(RulesError) as caught:
        tables.append(conn, table.id, rename(0, 2, "Zed"))
    assert caught.value.field == "data.player"
    assert conn.execute("SELECT count(*) FROM events").fetchone()[0] == 0
    assert tables.load(conn, table.id).version == 0


def test_undo_takes_back_latest_in_force_and_is_recorded(conn):
    table, _ = new_table(conn)
    tables.append(conn, table.id, rename(0, 0, "A1"))
    tables.append(conn, table.id, rename(1, 0, "A2"))
    t = tables.undo(conn, table.id, {"expected_version": 2})
    assert t.version == 3 and t.names == ["A1", "Tom"]
    t = tables.undo(conn, table.id, {"expected_version": 3})
    assert t.version == 4 and t.names == ["Anna", "Tom"]
    log = tables.events(conn, table.id)
    assert [(e["type"], e["data"]) for e in log[2:]] == [("undo", {"seq": 2}), ("undo", {"seq": 1})]
    with pytest.raises(RulesError) as caught:
        tables.undo(conn, table.id, {"expected_version": 4})
    assert caught.value.field == "$"
    assert tables.load(conn, table.id).version == 4


def test_undo_is_never_itself_undone(conn):
    table, _ = new_table(conn)
    tables.append(conn, table.id, rename(0, 0, "A1"))
    tables.undo(conn, table.id, {"expected_version": 1})
    tables.append(conn, table.id, rename(2, 1, "T1"))
    t = tables.undo(conn, table.id, {"expected_version": 3})
    assert t.names == ["Anna", "Tom"]  # the rename to A1 stays undone
    assert tables.history(t, tables.events(conn, table.id))[0]["text"].startswith("Undo:")


def test_two_writers_same_expected_version_exactly_one_wins(dbpath, conn):
    table, _ = new_table(conn)
    barrier = threading.Barrier(2)
    outcomes = []

    def write(name):
        c = database.connect(dbpath)
        try:
            barrier.wait()
            tables.append(c, table.id, rename(0, 0, name))
            outcomes.append("ok")
        except tables.Conflict:
            outcomes.append("conflict")
        finally:
            c.conn.close()

    threads = [threading.Thread(target=write, args=(n,)) for n in ("X", "Y")]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert sorted(outcomes) == ["conflict", "ok"]
    assert tables.load(conn, table.id).version == 1


def test_many_concurrent_writers_lose_nothing(dbpath, conn):
    table, _ = new_table(conn, ["P0", "P1", "P2", "P3"])
    writers, each = 8, 15
    acknowledged = []
    lock = threading.Lock()

    def write(w):
        c = database.connect(dbpath)
        try:
            done = 0
            while done < each:
                version = tables.load(c, table.id).version
                name = f"w{w}-{done}"
                try:
                    tables.append(c, table.id, rename(version, w % 4, name))
                except tables.Conflict:
                    continue
                with lock:
                    acknowledged.append(name)
                done += 1
        finally:
            c.conn.close()

    threads = [threading.Thread(target=write, args=(w,)) for w in range(writers)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    log = tables.events(conn, table.id)
    assert len(log) == writers * each == tables.load(conn, table.id).version
    assert [e["seq"] for e in log] == list(range(1, writers * each + 1))
    assert sorted(e["data"]["name"] for e in log) == sorted(acknowledged)


def test_fold_from_log_matches_stored_snapshot(conn):
    table, _ = new_table(conn)
    for v, name in enumerate(["B", "C", "D"]):
        tables.append(conn, table.id, rename(v, v % 2, name))
    stored = tables.load(conn, table.id)
    names, state = tables.fold(stored, tables.in_force(tables.events(conn, table.id)))
    assert (names, state) == (stored.names, stored.state)


def test_the_app_opens_its_connections_with_the_chosen_sync_mode(tmp_path):
    from companion import create_app
    from companion.web.connection import get_db

    for mode, pragma in (("normal", 1), ("full", 2)):
        app = create_app({"DATA_DIR": str(tmp_path / mode), "SYNC": mode})
        with app.test_request_context("/"):
            assert get_db().execute("PRAGMA synchronous").fetchone()[0] == pragma


def test_an_unknown_sync_mode_stops_the_app_with_a_clear_message(tmp_path):
    from companion import create_app

    with pytest.raises(SystemExit, match="COMPANION_SYNC: sync must be one of normal, full, not 'fast'"):
        create_app({"DATA_DIR": str(tmp_path), "SYNC": "fast"})
