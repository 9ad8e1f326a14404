"""The score pad's `score` function and rules.py: totals, highest or lowest wins, places with shared
ties, and a tie broken by the group's own rule (the players name the winner; the pad never guesses)."""

from __future__ import annotations

import pytest

from companion.games.pad import rules
from companion.games.pad.functions import score
from companion.games.validation import RulesError


def refused(doc) -> RulesError:
    with pytest.raises(RulesError) as err:
        score(doc)
    return err.value


def test_rounds_add_up_to_each_total_and_the_highest_wins():
    out = score({"players": [{"name": "Anna", "rounds": [10, -3, 8]}, {"name": "Ben", "rounds": [7, 7, 7]}]})
    assert [p["total"] for p in out["players"]] == [15, 21]
    assert out["players"][0]["breakdown"] == {"round_1": 10, "round_2": -3, "round_3": 8}
    assert out["winners"] == ["Ben"] and out["places"] == {"Ben": 1, "Anna": 2}
    assert "tie_rule" not in out and out["lowest_wins"] is False


def test_a_single_total_is_its_one_part():
    out = score({"players": [{"name": "Anna", "total": 37}, {"name": "Ben", "total": -4}]})
    assert out["players"][0]["breakdown"] == {"score": 37}
    assert all(sum(p["breakdown"].values()) == p["total"] for p in out["players"])


def test_the_lowest_total_wins_where_the_group_says_so():
    out = score({"players": [{"name": "Anna", "total": 12}, {"name": "Ben", "total": 30}, {"name": "Cleo", "total": 5}],
                 "lowest_wins": True})
    assert out["winners"] == ["Cleo"] and out["places"] == {"Cleo": 1, "Anna": 2, "Ben": 3}


def test_a_shared_tie_shares_the_place_and_the_next_skips():
    out = score({"players": [{"name": "A", "total": 9}, {"name": "B", "total": 9}, {"name": "C", "total": 4},
                             {"name": "D", "total": 9}, {"name": "E", "total": 4}]})
    assert out["winners"] == ["A", "B", "D"]
    assert out["places"] == {"A": 1, "B": 1, "D": 1, "C": 4, "E": 4}


def test_a_tie_broken_by_the_groups_rule_places_its_winner_first_alone():
    doc = {"players": [{"name": "A", "total": 9}, {"name": "B", "total": 9}, {"name": "C", "total": 9}, {"name": "D", "total": 2}],
           "ties": "rule", "tie_rule": "most cards left", "tie_winner": "B"}
    out = score(doc)
    assert out["winners"] == ["B"] and out["places"] == {"B": 1, "A": 2, "C": 2, "D": 4}
    assert out["tie_rule"] == "most cards left"


def test_a_tie_the_rule_must_break_asks_for_its_winner_and_never_guesses():
    doc = {"players": [{"name": "A", "total": 9}, {"name": "B", "total": 9}], "ties": "rule", "tie_rule": "most cards left"}
    err = refused(doc)
    assert err.field == "tie_winner" and "A, B" in err.message
    assert refused({**doc, "tie_winner": "Zoe"}).field == "tie_winner"


def test_a_rule_with_no_tie_for_the_win_decides_nothing():
    doc = {"players": [{"name": "A", "total": 9}, {"name": "B", "total": 7}, {"name": "C", "total": 7}],
           "ties": "rule", "tie_rule": "most cards left"}
    out = score(doc)
    assert out["winners"] == ["A"] and out["places"] == {"A": 1, "B": 2, "C": 2} and "tie_rule" not in out
    assert refused({**doc, "tie_winner": "A"}).field == "tie_winner"


def test_one_player_scores_alone():
    out = score({"players": [{"name": "Solo", "rounds": [3, 4]}]})
    assert out["winners"] == ["Solo"] and out["places"] == {"Solo": 1}


@pytest.mark.parametrize("doc, field", [
    ({"players": []}, "players"),
    ({"players": [{"name": f"P{i}", "total": 1} for i in range(13)]}, "players"),
    ({"players": [{"name": "A"}]}, "players[0]"),
    ({"players": [{"name": "A", "total": 1, "rounds": [1]}]}, "players[0]"),
    ({"players": [{"name": "A", "rounds": []}]}, "players[0].rounds"),
    ({"players": [{"name": "A", "rounds": [1] * 100}]}, "players[0].rounds"),
    ({"players": [{"name": "A", "rounds": [1, 1.5]}]}, "players[0].rounds[1]"),
    ({"players": [{"name": "A", "total": 1_000_000}]}, "players[0].total"),
    ({"players": [{"name": "A", "total": 1}, {"name": "a", "total": 2}]}, "players[1].name"),
    ({"players": [{"name": "A", "total": 1, "score": 2}]}, "players[0].score"),
    ({"players": [{"name": "A", "total": 1}], "lowest_wins": "yes"}, "lowest_wins"),
    ({"players": [{"name": "A", "total": 1}], "ties": "coin"}, "ties"),
    ({"players": [{"name": "A", "total": 1}], "ties": "rule"}, "tie_rule"),
    ({"players": [{"name": "A", "total": 1}], "tie_rule": "most cards"}, "tie_rule"),
    ({"players": [{"name": "A", "total": 1}], "ties": "rule", "tie_rule": "x" * 121}, "tie_rule"),
    ({"players": [{"name": "A", "total": 1}], "ties": "rule", "tie_rule": "bell\u0007"}, "tie_rule"),
])
def test_bad_documents_are_refused_naming_the_field(doc, field):
    assert refused(doc).field == field


def test_rules_rank_with_the_best_total_first():
    assert rules.tied_for_win([3, 7, 7], lowest_wins=False) == [1, 2]
    assert rules.tied_for_win([3, 7, 3], lowest_wins=True) == [0, 2]
    assert rules.needs_tie_winner([3, 3], False, "rule") and not rules.needs_tie_winner([3, 3], False, "shared")
    assert rules.round_of("round_12") == 12 and rules.round_of("round_01") is None and rules.round_of("score") is None
