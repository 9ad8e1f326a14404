"""The score pad's table events and view, without Flask: the state is folded as the framework does."""

from __future__ import annotations

import copy

import pytest

from companion.games.base import Context
from companion.games.pad import GAME, table
from companion.games.validation import RulesError

NAMES = ["Anna", "Ben", "Cleo"]
RULE = {"title": "Hearts", "ties": "rule", "tie_rule": "fewest hearts taken"}


def options_of(calculator=False, **options):
    clean = GAME.validate_options({"title": "Hearts", **options}, len(NAMES))
    return {**clean, "calculator": True} if calculator else clean


def fold(events, calculator=False, **options):
    opts = options_of(calculator, **options)
    state = GAME.initial_state(list(NAMES), opts, {})
    for type_, data in events:
        state = GAME.apply(state, type_, data, Context(names=tuple(NAMES), options=opts, seed=7))
    return state, opts


def rejected(state, opts, type_, data):
    """Apply an invalid event: return the error, and check that the state did not change."""
    before = copy.deepcopy(state)
    with pytest.raises(RulesError) as info:
        GAME.apply(state, type_, data, Context(names=tuple(NAMES), options=opts, seed=7))
    assert state == before
    return info.value


def result(state, opts):
    return GAME.final_result(state, list(NAMES), opts, {})


# --- setup ------------------------------------------------------------------------------------

def test_options_default_to_rounds_highest_wins_and_shared_ties():
    assert GAME.validate_options({"title": "  Hearts "}, 3) == {"title": "Hearts", "scoring": "rounds",
                                                                 "lowest_wins": False, "ties": "shared"}
    assert GAME.validate_options({"title": "Hearts", "bgg_id": 1, "ties": "shared", "tie_rule": "  "}, 3)["ties"] == "shared"


@pytest.mark.parametrize("options, field", [
    ({}, "title"), ({"title": ""}, "title"), ({"title": "x" * 61}, "title"), ({"title": "a\nb"}, "title"),
    ({"title": "X", "bgg_id": 0}, "bgg_id"), ({"title": "X", "bgg_id": 10_000_000}, "bgg_id"), ({"title": "X", "bgg_id": "7"}, "bgg_id"),
    ({"title": "X", "scoring": "laps"}, "scoring"), ({"title": "X", "lowest_wins": "true"}, "lowest_wins"),
    ({"title": "X", "ties": "rule"}, "tie_rule"), ({"title": "X", "ties": "rule", "tie_rule": " "}, "tie_rule"),
    ({"title": "X", "tie_rule": "most cards"}, "tie_rule"), ({"title": "X", "first_player": 0}, "first_player"),
])
def test_bad_options_are_refused_naming_the_field(options, field):
    with pytest.raises(RulesError) as err:
        GAME.validate_options(options, 3)
    assert err.value.field == field


def test_every_event_has_its_handler_and_its_history_line():
    assert set(table.HANDLERS) == set(table.EVENTS) == set(table.LINES)


# --- a tracked table --------------------------------------------------------------------------

def test_rounds_scored_by_steppers_and_typed_values():
    state, opts = fold([("score", {"player": 0, "round": 1, "delta": 3}), ("score", {"player": 0, "round": 1, "delta": -1}),
                        ("set_score", {"player": 1, "round": 1, "value": 37}), ("new_round", {}),
                        ("set_score", {"player": 2, "round": 2, "value": -5})])
    assert state["scores"] == [[2, 0], [37, 0], [0, -5]]
    assert GAME.counter(state, "score", {"player": 1, "round": 1}) == 37
    assert GAME.counter(state, "score", {"player": 1, "round": 3}) is None
    assert GAME.running_score(state, opts) == [2, 37, -5]
    assert not state["finished"]


def test_refused_events_name_their_field():
    state, opts = fold([])
    for type_, data, field in [("score", {"player": 0, "round": 2, "delta": 1}, "data.round"),
                               ("score", {"player": 0, "round": 1, "delta": 0}, "data.delta"),
                               ("score", {"player": 0, "round": 1, "delta": 1_000_000}, "data.delta"),
                               ("score", {"player": 0, "round": 1}, "data.delta"),
                               ("set_score", {"player": 3, "round": 1, "value": 1}, "data.player"),
                               ("set_score", {"player": 0, "round": 1, "value": "7"}, "data.value"),
                               ("new_round", {"round": 2}, "data.round"),
                               ("tie_winner", {"player": 0}, "type"),
                               ("sheet", {"player": 0, "total": 3}, "type")]:
        assert rejected(state, opts, type_, data).field == field, type_
    state, opts = fold([("set_score", {"player": 0, "round": 1, "value": 999_999})])
    assert rejected(state, opts, "score", {"player": 0, "round": 1, "delta": 1}).field == "data.delta"


def test_a_table_of_one_total_has_no_rounds():
    state, opts = fold([("set_score", {"player": 0, "round": 1, "value": 12})], scoring="total")
    assert rejected(state, opts, "new_round", {}).field == "type"
    state = GAME.apply(state, "end", {}, Context(names=tuple(NAMES), options=opts))
    assert result(state, opts)["players"][0]["breakdown"] == {"score": 12}


def test_rounds_stop_at_ninety_nine():
    state, opts = fold([("new_round", {})] * 98)
    assert len(state["scores"][0]) == 99
    assert rejected(state, opts, "new_round", {}).field == "type"


def test_the_end_finishes_the_game_and_closes_the_scores():
    state, opts = fold([("set_score", {"player": 0, "round": 1, "value": 5}), ("end", {})], lowest_wins=True)
    assert state["finished"]
    assert result(state, opts)["winners"] == ["Ben", "Cleo"]  # 0 and 0: the lowest, shared
    assert rejected(state, opts, "score", {"player": 0, "round": 1, "delta": 1}).field == "type"
    assert rejected(state, opts, "new_round", {}).field == "type"
    assert rejected(state, opts, "end", {}).field == "type"


def test_a_tie_the_groups_rule_breaks_waits_for_the_players_choice():
    state, opts = fold([("set_score", {"player": 0, "round": 1, "value": 4}), ("set_score", {"player": 2, "round": 1, "value": 4}),
                        ("end", {})], **{k: v for k, v in RULE.items() if k != "title"})
    assert state["ended"] and not state["finished"] and result(state, opts) is None
    assert "fewest hearts taken" in state["notice"]["text"]
    assert rejected(state, opts, "tie_winner", {"player": 1}).field == "data.player"  # Ben does not tie
    state = GAME.apply(state, "tie_winner", {"player": 2}, Context(names=tuple(NAMES), options=opts))
    assert state["finished"]
    out = result(state, opts)
    assert out["winners"] == ["Cleo"] and out["places"] == {"Cleo": 1, "Anna": 2, "Ben": 3}
    assert GAME.verdict(out) == "Cleo wins the tie on 4 by your rule: fewest hearts taken"
    assert rejected(state, opts, "tie_winner", {"player": 0}).field == "type"


def test_the_first_player_is_chosen_until_a_score_is_in():
    state, opts = fold([("first_player", {"player": 2})])
    assert state["first"] == 2 and GAME.start_player(state, opts) == 2 and GAME.next_seat(state, 2) == 0
    state, opts = fold([("new_round", {})])
    assert rejected(state, opts, "draw_first_player", {}).field == "type"


# --- a calculator table -------------------------------------------------------------------------

def test_a_calculator_table_takes_one_total_per_player():
    state, opts = fold([("sheet", {"player": 0, "total": 12}), ("sheet", {"player": 1, "total": 30})], calculator=True)
    assert not state["finished"] and "Cleo" in state["notice"]["text"]
    assert rejected(state, opts, "score", {"player": 0, "round": 1, "delta": 1}).field == "type"
    assert rejected(state, opts, "sheet", {"player": 0, "total": -1_000_000}).field == "data.total"
    state = GAME.apply(state, "sheet", {"player": 2, "total": 30}, Context(names=tuple(NAMES), options=opts))
    assert state["finished"] and result(state, opts)["winners"] == ["Ben", "Cleo"]
    assert GAME.running_score(state, opts) is None and GAME.start_player(state, opts) is None


def test_a_finished_calculator_play_is_never_reopened_by_a_correction_that_makes_a_new_tie():
    events = [("sheet", {"player": 0, "total": 9}), ("sheet", {"player": 1, "total": 9}), ("sheet", {"player": 2, "total": 2})]
    state, opts = fold(events, calculator=True, **{k: v for k, v in RULE.items() if k != "title"})
    assert not state["finished"]
    ctx = Context(names=tuple(NAMES), options=opts)
    state = GAME.apply(state, "tie_winner", {"player": 1}, ctx)
    assert state["finished"] and result(state, opts)["winners"] == ["Ben"]
    same = GAME.apply(state, "sheet", {"player": 2, "total": 3}, ctx)  # the tie is the same: the choice stays
    assert same["finished"] and same["tie_winner"] == 1
    # now three would tie: the play, finished and in the archive, would leave it: refused, nothing changed
    with pytest.raises(RulesError) as err:
        GAME.apply(state, "sheet", {"player": 2, "total": 9}, ctx)
    assert err.value.field == "data.total" and "undo the choice of the winner first" in str(err.value)
    assert state["finished"] and state["totals"] == [9, 9, 2]
    # the way the message says: the choice undone (the table folded without it), the total saved, asked again
    before, _ = fold(events, calculator=True, **{k: v for k, v in RULE.items() if k != "title"})
    changed = GAME.apply(before, "sheet", {"player": 2, "total": 9}, ctx)
    assert not changed["finished"] and changed["tie_winner"] is None
    assert [s["seat"] for s in GAME.view(changed, list(NAMES), opts, {}, None)["tie"]["seats"]] == [0, 1, 2]


def test_views_render_what_the_templates_read():
    state, opts = fold([("new_round", {}), ("set_score", {"player": 1, "round": 2, "value": 8})])
    v = GAME.view(state, list(NAMES), opts, {}, "round-1")
    assert v["edit"] == 1 and [c["round"] for c in v["columns"]] == [1, 2] and not v["last"]
    v = GAME.view(state, list(NAMES), opts, {}, None)
    assert v["edit"] == 2 and [c["round"] for c in v["columns"]] == [2, 1] and v["can_new_round"]
    assert GAME.screen_of("round-07", list(NAMES)) == "round-7" and GAME.screen_of("round-100", list(NAMES)) is None
    assert GAME.screen_of("nonsense", list(NAMES)) is None


def test_a_tie_winner_with_no_tie_waiting_is_refused_as_the_event_not_as_its_seat():
    state, opts = fold([("sheet", {"player": 0, "total": 9}), ("sheet", {"player": 1, "total": 4}),
                        ("sheet", {"player": 2, "total": 2})], calculator=True, **{k: v for k, v in RULE.items() if k != "title"})
    for seat in (1, 7, "x"):  # a seat of the table, one out of range, not a seat: the event is what is wrong
        with pytest.raises(RulesError) as err:
            GAME.apply(state, "tie_winner", {"player": seat}, Context(names=tuple(NAMES), options=opts))
        assert err.value.field == "type"


def test_a_finished_play_with_a_clear_winner_is_not_reopened_by_a_correction_that_ties_it():
    """No winner was chosen (nobody tied): the message says to undo the last total, not a choice (found in review)."""
    events = [("sheet", {"player": 0, "total": 9}), ("sheet", {"player": 1, "total": 5}), ("sheet", {"player": 2, "total": 2})]
    state, opts = fold(events, calculator=True, **{k: v for k, v in RULE.items() if k != "title"})
    assert state["finished"] and state["tie_winner"] is None
    with pytest.raises(RulesError) as err:
        GAME.apply(state, "sheet", {"player": 1, "total": 9}, Context(names=tuple(NAMES), options=opts))
    assert err.value.field == "data.total" and "undo the last total saved first" in str(err.value)
    assert "Anna and Ben" in str(err.value)
