"""The region drawn a part at a time (companion/web/region.py) and kept once per version (live.py).

Each game's own tests (tests/GAME/test_region_parts.py) follow a whole game through
tests/regions.py; these check the renderer itself: what a change draws, that no request reaches
it, and the store every process reads.
"""

from __future__ import annotations

import json
import sqlite3
import time
from contextlib import contextmanager

import pytest

from companion import tables
from companion.web import live, region
from companion.web.connection import get_db
from companion.web.steppers import stepper_id
from tests.regions import create, follow


@contextmanager
def at_table(app, game_key: str, players: list[str]):
    """A new table made through the API, and the app's context: (db, table id, secret, table)."""
    table_id, secret = create(app.test_client(), game_key, players)
    with app.app_context():
        db = get_db()
        yield db, table_id, secret, tables.authorize(db, table_id, secret)


def fame(player: int, delta: int = 1) -> dict:
    return {"type": "fame", "data": {"player": player, "delta": delta}}


def test_a_change_draws_only_the_parts_whose_inputs_changed(app):
    steps = follow(app, "gutenberg", ["Anna", "Ben", "Cleo", "Dan"], [fame(1), fame(1), fame(2)])
    for step in steps:
        player = step.event["data"]["player"]
        mine = stepper_id("fame", {"player": player})
        others = {stepper_id("fame", {"player": p}) for p in range(4) if p != player}
        assert mine in step.drawn
        assert not others & set(step.drawn), f"another player's fame stepper was drawn: {step.drawn}"
        assert "seat-chooser" not in step.drawn and "players-and-seats" not in step.drawn
        assert {"history", "table-tools", f"sb-{player}"} <= set(step.drawn)
        assert f"sb-{(player + 1) % 4}" not in step.drawn


def test_a_region_drawn_in_parts_counts_its_drawings(app):
    with at_table(app, "codex", ["Anna", "Tom"]) as (db, table_id, secret, table):
        cache = app.extensions["companion.live"]
        before = (region.COUNTS.regions, region.COUNTS.whole)
        cache.region(app, db, table, (None, "en"))  # the first drawing is whole
        table = tables.append(db, table_id, {"type": "points", "data": {"player": 0, "delta": 2}, "expected_version": 0}, 0,
                              secret=secret)
        cache.region(app, db, table, (None, "en"))
        cache.region(app, db, table, (None, "en"))  # kept: not drawn again
        assert (region.COUNTS.regions - before[0], region.COUNTS.whole - before[1]) == (2, 1)


def test_a_shared_drawing_never_reads_the_request(app):
    """The same region inside a request with a seat, a secret, another language and odd headers, and
    outside any request: the same text (a template reading `request` would find None and fail)."""
    with at_table(app, "gutenberg", ["Anna", "Ben"]) as (db, table_id, secret, table):
        alone = region.draw(app, table, None, "en", None, region.context_of(db, table, None)).html
    headers = {"Cookie": f"tc_{table_id}={secret}; seat_{table_id}=1; tc_lang=pl", "Accept-Language": "pl",
               "HX-Request": "true", "X-Forwarded-For": "10.9.8.7", "Host": "elsewhere.example"}
    with app.test_request_context(f"/t/{table_id}?screen=end", headers=headers, base_url="https://elsewhere.example/x"):
        db = get_db()
        table = tables.authorize(db, table_id, secret)
        inside = region.draw(app, table, None, "en", None, region.context_of(db, table, None)).html
    assert inside == alone
    assert "elsewhere" not in inside and 'action="/t/' in inside


def stored(app, table_id: str) -> list[tuple]:
    conn = sqlite3.connect(app.config["DATABASE"])
    try:
        return conn.execute("SELECT drawn_as, version, draws, refs IS NOT NULL FROM region_versions WHERE table_id = ?"
                            " ORDER BY version", [table_id]).fetchall()
    finally:
        conn.close()


def test_a_second_process_reads_the_version_the_first_drew(app):
    """Two caches on one file stand for two processes: the second draws nothing the first drew."""
    table_id, secret = create(app.test_client(), "gutenberg", ["Anna", "Ben"])
    first, second = live.LiveCache(), live.LiveCache()
    with app.app_context():
        db = get_db()
        table = tables.authorize(db, table_id, secret)
        for i in range(3):
            drawn = first.region(app, db, table, (None, "fr"))
            read = second.region(app, db, table, (None, "fr"))
            assert read.html == drawn.html and read.fingerprint == drawn.fingerprint
            table = tables.append(db, table_id, {**fame(i % 2), "expected_version": table.version}, 0, secret=secret)
        # one behind: a third process learns what changed from the stored fingerprint alone
        third = live.LiveCache()
        stored_print = third.fingerprint_of(db, table_id, (None, "fr"), table.version - 1)
        now = first.region(app, db, table, (None, "fr"))
        sent = now.changed_since(stored_print)
        assert sent == now.changed_since(first.fingerprint(table_id, (None, "fr"), table.version - 1))
        assert "table-live" not in sent and "history" in sent
    assert (first.drawn, first.read, second.drawn, second.read) == (4, 0, 0, 3)
    assert stored(app, table_id) == [("|fr", v, 1, 1) for v in range(4)]


def test_a_region_claimed_by_another_process_is_waited_for_then_drawn_alone(app, monkeypatch):
    monkeypatch.setattr(live, "CLAIM_WAIT_S", 0.05)
    table_id, secret = create(app.test_client(), "codex", ["Anna", "Tom"])
    conn = sqlite3.connect(app.config["DATABASE"], isolation_level=None)
    conn.execute("INSERT INTO region_versions (table_id, drawn_as, version, claimed_by, claimed_at, draws)"
                 " VALUES (?, '|en', 0, 1, ?, 0)", [table_id, time.time()])  # claimed now, never drawn
    cache = live.LiveCache()
    with app.app_context():
        db = get_db()
        table = tables.authorize(db, table_id, secret)
        found = cache.region(app, db, table, (None, "en"))
        assert found.root == "table-live"
        assert stored(app, table_id) == [("|en", 0, 1, 0)]  # drawn once, alone, and not kept for the others
        # a claim older than CLAIM_S is taken over, drawn and kept
        conn.execute("UPDATE region_versions SET claimed_at = ? WHERE table_id = ?", [time.time() - live.CLAIM_S - 1, table_id])
        cache.clear()
        cache.region(app, db, table, (None, "en"))
        assert stored(app, table_id) == [("|en", 0, 2, 1)]
    conn.close()


def test_only_the_versions_kept_stay_and_an_idle_table_is_forgotten(app):
    cache = live.LiveCache()
    with at_table(app, "gutenberg", ["Anna", "Ben"]) as (db, table_id, secret, table):
        for _ in range(live.LiveCache.VERSIONS_KEPT + live.SWEEP_EVERY + 2):
            cache.region(app, db, table, (None, "en"))
            table = tables.append(db, table_id, {**fame(0), "expected_version": table.version}, 0, secret=secret)
        versions = [row[1] for row in stored(app, table_id)]
        assert len(versions) == live.LiveCache.VERSIONS_KEPT + 1 and versions[-1] == table.version - 1
        # the sweep at version SWEEP_EVERY dropped the history drawn at the first versions
        history = {row[0] for row in db.execute("SELECT ref FROM region_parts WHERE table_id = ? AND part = 'history'", [table_id])}
        assert len(history) <= live.LiveCache.VERSIONS_KEPT + live.SWEEP_EVERY
        named = set()
        for (refs,) in db.execute("SELECT refs FROM region_versions WHERE table_id = ?", [table_id]):
            named.update(tuple(item) for item in json.loads(refs)["refs"].items())
        live._sweep(db, table_id, "|en")
        rows = set(db.execute("SELECT part, ref FROM region_parts WHERE table_id = ?", [table_id]).fetchall())
        assert rows == named
        assert live.forget_idle(db, now=time.time() + live.IDLE_S + 1) == 1
        assert stored(app, table_id) == []
        assert db.execute("SELECT count(*) FROM region_parts WHERE table_id = ?", [table_id]).fetchone()[0] == 0


@pytest.mark.parametrize("game_key, players", [("codex", ["Anna", "Tom"]), ("galileo", ["Anna", "Tom", "Kate"]),
                                               ("voynich", ["Anna", "Tom"]), ("gutenberg", ["Anna", "Tom"])])
def test_every_game_draws_its_first_region_with_unique_part_ids(app, game_key, players):
    follow(app, game_key, players, [], langs=("en", "pl"))


def test_a_region_is_still_drawn_where_the_store_cannot_be_written(app, tmp_path):
    """A full or read-only disk keeps nothing, and the phone still gets its region (never a 500)."""
    cache = live.LiveCache()
    with at_table(app, "codex", ["Anna", "Tom"]) as (db, table_id, secret, table):
        db.execute("PRAGMA query_only = ON")  # every write refused, as on a read-only disk
        try:
            found = cache.region(app, db, table, (None, "en"))
        finally:
            db.execute("PRAGMA query_only = OFF")
        assert found.root == "table-live" and "Anna" in found.html
    assert stored(app, table_id) == []


def test_after_an_idle_table_is_forgotten_the_other_process_reads_the_store_again(app, monkeypatch):
    """A part taken from memory is offered to the store again: an idle table's rows went, and the
    process that kept drawing from its memory must not leave versions naming parts nobody has."""
    monkeypatch.setattr(live, "KNOWN_S", -1)  # the hour the table was idle is longer than KNOWN_S
    first = live.LiveCache()
    with at_table(app, "gutenberg", ["Anna", "Ben"]) as (db, table_id, secret, table):
        for _ in range(3):
            first.region(app, db, table, (None, "en"))
            table = tables.append(db, table_id, {**fame(0), "expected_version": table.version}, 0, secret=secret)
        assert live.forget_idle(db, now=time.time() + live.IDLE_S + 1) == 1
        first.region(app, db, table, (None, "en"))  # drawn from memory, after the break
        second = live.LiveCache()
        assert second.region(app, db, table, (None, "en")).html == first.region(app, db, table, (None, "en")).html
    assert (second.drawn, second.read) == (0, 1)


def test_a_drawing_the_store_cannot_take_leaves_no_claim_and_stays_in_memory(app):
    cache = live.LiveCache()
    with at_table(app, "codex", ["Anna", "Tom"]) as (db, table_id, secret, table):
        db.execute("CREATE TEMP TRIGGER full BEFORE INSERT ON region_parts BEGIN SELECT RAISE(FAIL, 'database or disk is full'); END")
        try:
            found = cache.region(app, db, table, (None, "en"))
        finally:
            db.execute("DROP TRIGGER full")
        assert found.root == "table-live"
        assert stored(app, table_id) == [], "the claim went with the store that failed: nobody waits for it"
        assert cache.get(table_id, (None, "en"), table.version) is found


def test_a_store_locked_by_another_process_lets_the_others_run_meanwhile(app):
    """SQLite's own busy wait sleeps in C, where gevent cannot switch: the store's writes wait in
    gevent instead, so the process's other phones are served while another process writes."""
    import gevent

    table_id, secret = create(app.test_client(), "codex", ["Anna", "Tom"])
    other = sqlite3.connect(app.config["DATABASE"], isolation_level=None)
    other.execute("BEGIN IMMEDIATE")  # another process writing
    ticks: list[int] = []

    def elsewhere():
        for _ in range(2000):
            ticks.append(1)
            gevent.sleep(0.001)

    beside = gevent.spawn(elsewhere)
    try:
        with app.app_context():
            db = get_db()
            table = tables.authorize(db, table_id, secret)
            found = live.LiveCache().region(app, db, table, (None, "en"))
        assert found.root == "table-live" and ticks, "the other greenlets ran while the store waited"
    finally:
        beside.kill()
        other.execute("ROLLBACK")
        other.close()
    assert stored(app, table_id) == []


def test_a_pair_stored_at_odd_versions_only_is_swept_all_the_same(app):
    cache = live.LiveCache()
    with at_table(app, "gutenberg", ["Anna", "Ben"]) as (db, table_id, secret, table):
        table = tables.append(db, table_id, {**fame(1), "expected_version": table.version}, 0, secret=secret)
        for _ in range(3 * live.SWEEP_EVERY):
            cache.region(app, db, table, (None, "en"))  # odd versions only: never a multiple of SWEEP_EVERY
            table = tables.append(db, table_id, {**fame(0), "expected_version": table.version}, 0, secret=secret)
            table = tables.append(db, table_id, {**fame(0, -1), "expected_version": table.version}, 0, secret=secret)
        history = db.execute("SELECT count(*) FROM region_parts WHERE table_id = ? AND part = 'history'", [table_id]).fetchone()[0]
    assert history <= live.LiveCache.VERSIONS_KEPT + live.SWEEP_EVERY


def test_a_region_is_drawn_in_the_language_it_is_asked_for_whatever_is_spoken(app):
    table_id, secret = create(app.test_client(), "gutenberg", ["Anna", "Ben"])
    with app.app_context():
        db = get_db()
        table = tables.append(db, table_id, {**fame(0), "expected_version": 0}, 0, secret=secret)
        german = live.LiveCache().region(app, db, table, (None, "de")).html
        english = live.LiveCache().region(app, db, table, (None, "en")).html
    assert german != english and "Ruhm" in german.split('id="history"')[1]


def test_a_value_that_comes_back_after_its_part_was_swept_is_stored_again(app):
    """Fame +1, -1, +1...: the stepper's text for a value comes back after sweeps dropped it; the
    version naming it must find it in the store (another process reads it, draws nothing)."""
    first = live.LiveCache()
    with at_table(app, "gutenberg", ["Anna", "Ben"]) as (db, table_id, secret, table):
        for i in range(3 * (live.LiveCache.VERSIONS_KEPT + live.SWEEP_EVERY)):
            first.region(app, db, table, (None, "en"))
            step = 1 if i % 2 == 0 else -1
            table = tables.append(db, table_id, {**fame(0, step), "expected_version": table.version}, 0, secret=secret)
        first.region(app, db, table, (None, "en"))
        second = live.LiveCache()
        second.region(app, db, table, (None, "en"))
    assert (second.drawn, second.read) == (0, 1)
