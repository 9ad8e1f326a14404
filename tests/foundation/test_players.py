"""A player's numbers across games (issue 41), worked out by hand on small archives: names folded as
people type them, shared wins, the head-to-head, the host's merges (a chain, undone), a deleted play
and its restore, and the turn clock's time per turn.

The archives are result documents written here in the shape companion/results.py gives (a deleted
play is finished through the real app, since deleting is the database's business).
"""

from __future__ import annotations

import pytest

from companion import games, players, results, stats
from companion.games.validation import RulesError
from companion.web.connection import get_db


def doc(table: str, game: str, day: int, players_: list[tuple], winners: list[str]) -> dict:
    return {"table": table, "game": game, "title": games.get(game).title, "finished_at": f"2026-01-0{day}T20:00:00Z", "winners": winners,
            "players": [{"name": n, "total": t, "place": pl, **extra} for n, t, pl, *more in players_
                        for extra in [more[0] if more else {}]]}


#: four plays, oldest first. Anna is spelled three ways; d2 is a shared win (Anna and Ben).
ARCHIVE = [
    doc("d1", "gutenberg", 1, [("Anna", 40, 2), ("Ben", 52, 1)], ["Ben"]),
    doc("d2", "codex", 2, [("anna", 20, 1), ("Ben", 20, 1), ("Cleo", 10, 3)], ["anna", "Ben"]),
    doc("d3", "gutenberg", 3, [("ÁNNA", 61, 1), ("Dora", 45, 2), ("Ben", 30, 3)], ["ÁNNA"]),
    doc("d4", "codex", 4, [("Zoë", 15, 1), ("Ben", 12, 2)], ["Zoë"]),
]


@pytest.mark.parametrize("typed, other", [("Anna", "anna"), ("Anna", " ANNA "), ("Ánna", "Anna"), ("Zoe\u0308", "zoe"),
                                          ("Anna  Maria", "anna maria"), ("Łukasz", "Lukasz"), ("Søren", "Soren"),
                                          ("Ｔom", "tom"), ("Straße", "STRASSE")])
def test_names_are_folded_as_people_type_them(typed, other):
    assert stats.name_key(typed) == stats.name_key(other)


@pytest.mark.parametrize("one, other", [("Anna Maria", "AnnaMaria"), ("Ann", "Anna"), ("カト", "ガト"), ("Anna", "Аnna")])
def test_names_that_are_not_one_stay_apart(one, other):
    """Inner spaces stay; a Japanese voicing mark makes another letter; a Cyrillic А is another letter."""
    assert stats.name_key(one) != stats.name_key(other)


def test_a_players_plays_wins_and_numbers_per_game():
    anna = players.player(ARCHIVE, "anna")
    assert anna["name"] == "ÁNNA"  # the latest play's spelling
    assert anna["names"] == ["ÁNNA", "anna", "Anna"]
    assert (anna["plays"], anna["wins"], anna["win_rate"]) == (3, 2, 0.667)  # d2 shared: a win
    assert anna["games"] == [
        {"game": "gutenberg", "title": "Gutenberg", "plays": 2, "wins": 1, "win_rate": 0.5, "best": 61, "average": 50.5,
         "latest": 61},
        {"game": "codex", "title": "Codex Naturalis", "plays": 1, "wins": 1, "win_rate": 1.0, "best": 20, "average": 20.0,
         "latest": 20}]
    assert [p["table"] for p in anna["latest"]] == ["d3", "d2", "d1"]
    assert anna["latest"][0] == {"table": "d3", "game": "gutenberg", "title": "Gutenberg", "finished_at": "2026-01-03T20:00:00Z", "total": 61,
                                 "place": 1, "won": True, "players": 3}


def test_head_to_head_counts_a_shared_win_as_shared():
    anna = players.player(ARCHIVE, "Anna")
    assert anna["opponents"] == [
        # d1: Ben won; d2: both won (shared); d3: Anna won
        {"name": "Ben", "key": "ben", "plays": 3, "wins": 1, "losses": 1, "shared": 1},
        {"name": "Cleo", "key": "cleo", "plays": 1, "wins": 1, "losses": 0, "shared": 0},
        {"name": "Dora", "key": "dora", "plays": 1, "wins": 1, "losses": 0, "shared": 0}]
    ben = {h["name"]: h for h in players.player(ARCHIVE, "BEN")["opponents"]}
    assert (ben["ÁNNA"]["wins"], ben["ÁNNA"]["losses"], ben["ÁNNA"]["shared"]) == (1, 1, 1)
    assert (ben["Zoë"]["wins"], ben["Zoë"]["losses"]) == (0, 1)
    # d3: Anna won, neither Ben nor Dora: a play together, no win for either
    assert (ben["Dora"]["plays"], ben["Dora"]["wins"], ben["Dora"]["losses"], ben["Dora"]["shared"]) == (1, 0, 0, 0)


def test_everyone_is_listed_most_plays_first():
    listed = players.everyone(ARCHIVE)
    assert [(p["name"], p["plays"], p["wins"]) for p in listed] == [
        ("Ben", 4, 2), ("ÁNNA", 3, 2), ("Cleo", 1, 0), ("Dora", 1, 0), ("Zoë", 1, 1)]
    assert listed[0]["games"] == ["codex", "gutenberg"] and listed[0]["latest"] == "2026-01-04T20:00:00Z"


def test_a_name_nobody_has_has_no_page():
    assert players.player(ARCHIVE, "Eve") is None and players.player([], "Anna") is None


def test_the_average_time_per_turn_is_the_sum_of_times_over_the_sum_of_turns():
    clocked = [doc("c1", "codex", 1, [("Ben", 10, 1, {"time_ms": 60000, "turns": 12}), ("Zoë", 8, 2, {"time_ms": 1, "turns": 1})],
                   ["Ben"]),
               doc("c2", "codex", 2, [("Ben", 10, 1, {"time_ms": 30000, "turns": 3}), ("Zoë", 8, 2)], ["Ben"]),
               doc("c3", "codex", 3, [("Ben", 10, 1), ("Zoë", 8, 2)], ["Ben"]),
               doc("c4", "gutenberg", 4, [("Ben", 10, 1), ("Zoë", 8, 2)], ["Ben"])]
    games = {g["game"]: g for g in players.player(clocked, "Ben")["games"]}
    assert games["codex"]["ms_per_turn"] == 6000  # (60000 + 30000) / (12 + 3), not the mean of 5000 and 10000
    assert "ms_per_turn" not in games["gutenberg"]  # no play of it ran a clock
    assert {g["game"]: g.get("ms_per_turn") for g in players.player(clocked, "Zoë")["games"]} == {"codex": 1, "gutenberg": None}


# --- merges ----------------------------------------------------------------------------------------

def merges_stored(conn) -> list[tuple]:
    return conn.execute("SELECT from_key, into_key, undone_at IS NULL FROM player_merges ORDER BY id").fetchall()


def numbers(conn, name: str) -> tuple:
    found = players.player(ARCHIVE, name, players.merges(conn, ARCHIVE))
    return found["name"], found["plays"], found["wins"]


def test_a_merge_makes_two_names_one_player_and_its_undo_parts_them(conn):
    first = players.merge(conn, ARCHIVE, "Cleo", "zoe")  # Zoë and Cleo never sat at one table
    assert numbers(conn, "Cleo") == numbers(conn, "Zoë") == ("Zoë", 2, 1)  # d2 and d4; Zoë is the latest spelling
    ben = {h["key"]: h for h in players.player(ARCHIVE, "Ben", players.merges(conn, ARCHIVE))["opponents"]}
    assert (ben["cleo"]["plays"], ben["cleo"]["wins"], ben["cleo"]["losses"]) == (2, 1, 1)
    # the stats page follows the merges too
    codex = next(g for g in stats.per_game(ARCHIVE, players.merges(conn, ARCHIVE)) if g["game"] == "codex")
    assert {p["name"]: p["plays"] for p in codex["players"]} == {"Ben": 2, "Zoë": 2, "anna": 1}
    assert [p["name"] for p in players.everyone(ARCHIVE, players.merges(conn, ARCHIVE))].count("Zoë") == 1

    # a chain: Cleo (Zoë with it) into Dora
    second = players.merge(conn, ARCHIVE, "Dora", "Cleo")
    assert numbers(conn, "zoë") == numbers(conn, "dora") == ("Zoë", 3, 1)
    assert [m["name"] for m in players.merged_into(conn, "dora", ARCHIVE)] == ["Cleo", "Zoë"]

    players.undo_merge(conn, second)  # the chain's last link back: Zoë stays with Cleo
    assert numbers(conn, "Dora") == ("Dora", 1, 0) and numbers(conn, "Zoë") == ("Zoë", 2, 1)
    players.undo_merge(conn, str(first))
    assert numbers(conn, "Cleo") == ("Cleo", 1, 0) and numbers(conn, "Zoë") == ("Zoë", 1, 1)
    # nothing is forgotten: both merges are kept, undone
    assert merges_stored(conn) == [("zoe", "cleo", 0), ("cleo", "dora", 0)]


@pytest.mark.parametrize("name, other, field", [
    ("Anna", "Ben", "other"),    # they sat at one table: two people
    ("Anna", "ánna", "other"),   # already the same player
    ("Anna", "Eve", "other"),    # nobody called Eve played
    ("Anna", "  ", "other"),     # no name
    ("Eve", "Anna", "$"),        # no such player to merge into
])
def test_a_merge_that_cannot_be_is_refused_and_stores_nothing(conn, name, other, field):
    with pytest.raises(RulesError) as refused:
        players.merge(conn, ARCHIVE, name, other)
    assert refused.value.field == field
    assert merges_stored(conn) == []


def test_a_merge_of_two_names_already_merged_with_others_who_met_is_refused(conn):
    players.merge(conn, ARCHIVE, "Cleo", "Zoë")
    with pytest.raises(RulesError):  # Zoë (now Cleo) and Ben met at d2 and d4
        players.merge(conn, ARCHIVE, "Ben", "Cleo")
    assert len(merges_stored(conn)) == 1


@pytest.mark.parametrize("merge_id", ["x", "", "999", "1.5", None])
def test_undoing_a_merge_that_is_not_in_force_is_refused(conn, merge_id):
    with pytest.raises(RulesError) as refused:
        players.undo_merge(conn, merge_id)
    assert refused.value.field == "merge"


def test_a_merge_undone_twice_is_refused_the_second_time(conn):
    merge_id = players.merge(conn, ARCHIVE, "Cleo", "Zoë")
    players.undo_merge(conn, merge_id)
    with pytest.raises(RulesError):
        players.undo_merge(conn, merge_id)


# --- a deleted play --------------------------------------------------------------------------------

def test_a_deleted_play_leaves_the_players_numbers_and_comes_back_whole_when_restored(app, api):
    from tests.foundation.test_plays import gutenberg_play

    kept = gutenberg_play(api, ["Anna", "Ben"], [40, 52])
    gone = gutenberg_play(api, ["anna", "Ben"], [61, 30])
    with app.app_context():
        db = get_db()
        before = players.player(results.results(db), "Anna")
        assert (before["plays"], before["wins"]) == (2, 1)
        results.delete(db, gone["table"])
        after = players.player(results.results(db), "Anna")
        assert (after["plays"], after["wins"], after["name"]) == (1, 0, "Anna")
        assert [d["table"] for d in results.results(db)] == [kept["table"]]
        assert list(results.deleted(db)) == [gone["table"]]
        # still stored whole: the table and its result
        assert results.result(api.stored(gone))["winners"] == ["anna"]
        results.restore(db, gone["table"])
        assert players.player(results.results(db), "Anna") == before
        assert results.deleted(db) == {}
