"""The Codex table's events and views, without Flask: the state is folded as the framework does."""

from __future__ import annotations

import copy

import pytest

from companion.games.base import Context
from companion.games.codex import GAME
from companion.games.validation import RulesError

NAMES = ["Anna", "Ben", "Cara"]


def ctx(seed=7):
    return Context(names=tuple(NAMES), seed=seed)


def fold(events, names=NAMES, seed=7, **options):
    state = GAME.initial_state(list(names), GAME.validate_options(options, len(names)), {})
    for type_, data in events:
        state = GAME.apply(state, type_, data, Context(names=tuple(names), seed=seed))
    return state


def rejected(state, type_, data):
    """Apply an invalid event: return the error, and check that the state did not change."""
    before = copy.deepcopy(state)
    with pytest.raises(RulesError) as info:
        GAME.apply(state, type_, data, ctx())
    assert state == before
    return info.value


def play(seat, id_, x, y, side="front"):
    return ("play_card", {"player": seat, "id": id_, "side": side, "x": x, "y": y})


# --- setup ------------------------------------------------------------------------------------

def test_options_default_to_twenty_points():
    assert GAME.validate_options({}, 3) == {"target": 20}
    assert GAME.validate_options({"target": 30, "first_player": 2}, 3) == {"target": 30, "first_player": 2}


@pytest.mark.parametrize("options, field", [
    ({"target": 25}, "target"), ({"target": "30"}, "target"), ({"first_player": 3}, "first_player"), ({"goal": 20}, "goal"),
])
def test_bad_options(options, field):
    with pytest.raises(RulesError) as info:
        GAME.validate_options(options, 3)
    assert info.value.field == field


def test_first_player_drawn_at_random_is_repeatable():
    # the draw is seeded by the table and a counter in the state: an undone draw redone is the same
    firsts = {fold([("draw_first_player", {})], seed=s)["first"] for s in range(40)}
    assert firsts == {0, 1, 2}
    assert fold([("draw_first_player", {})], seed=3)["first"] == fold([("draw_first_player", {})], seed=3)["first"]


# --- score track and end trigger ------------------------------------------------------------------

def test_end_before_the_first_player_is_known_waits_for_it():
    # a score pad started late: the trigger is recorded, the last turns are named once the
    # first player is chosen (the current round depends on it [CN54])
    state = fold([("points", {"player": 1, "delta": 20})])
    assert state["end"] == {"reason": "target", "trigger": 1, "turns": None, "played": 0}
    assert "first player" in rejected(state, "turn_played", {}).message
    state = GAME.apply(state, "first_player", {"player": 2}, ctx())
    # order Cara, Anna, Ben; Ben (last) triggered: one more round
    assert state["end"]["turns"] == [2, 0, 1]
    assert "already named" in rejected(state, "first_player", {"player": 0}).message


def test_reaching_twenty_triggers_the_end_with_the_last_turns():
    # Ben (first player Anna) reaches 20: Cara finishes the round, then everyone once more [CN53-54]
    state = fold([("first_player", {"player": 0}), ("points", {"player": 1, "delta": 15}),
                  ("points", {"player": 1, "delta": 3}), ("gold_corners", {"player": 1, "corners": 1})])
    assert state["scores"] == [0, 20, 0]
    assert state["end"] == {"reason": "target", "trigger": 1, "turns": [2, 0, 1, 2], "played": 0}


def test_nineteen_does_not_trigger():
    state = fold([("first_player", {"player": 0}), ("points", {"player": 1, "delta": 19})])
    assert state["end"] is None


def test_thirty_point_variant_uses_thirty():
    events = [("first_player", {"player": 2}), ("points", {"player": 0, "delta": 25})]
    assert fold(events, target=30)["end"] is None
    state = fold(events + [("points", {"player": 0, "delta": 5})], target=30)
    # first player Cara: order Cara, Anna, Ben; Anna triggers: Ben, then a full round
    assert state["end"]["turns"] == [1, 2, 0, 1]


def test_later_scores_do_not_move_the_trigger():
    state = fold([("first_player", {"player": 0}), ("points", {"player": 1, "delta": 20}), ("points", {"player": 2, "delta": 21})])
    assert state["end"]["trigger"] == 1


def test_both_decks_empty_triggers_the_end():
    # CDX-C1: both decks empty; the last player in order triggering leaves exactly one round (CDX-C8)
    state = fold([("first_player", {"player": 0}), ("decks_empty", {"player": 2})])
    assert state["end"] == {"reason": "decks", "trigger": 2, "turns": [0, 1, 2], "played": 0}
    assert "already" in rejected(state, "decks_empty", {"player": 0}).message


def test_last_turns_are_ticked_off_one_by_one():
    state = fold([("first_player", {"player": 0}), ("decks_empty", {"player": 2})] + [("turn_played", {})] * 3)
    assert state["end"]["played"] == 3
    assert "already played" in rejected(state, "turn_played", {}).message


def test_ticking_before_the_end_is_refused():
    assert "not triggered" in rejected(fold([]), "turn_played", {}).message


def test_finish_on_a_fresh_table_is_refused():
    # Issue 27, finding 14: nobody has 20 points and the decks have not run out: the game is not
    # over [CN53], so the objectives are not added yet [CN55]
    error = rejected(fold([("first_player", {"player": 0})]), "finish", {})
    assert error.field == "type"
    assert "not over" in error.message and "20 points" in error.message and "both decks" in error.message


def test_finish_waits_for_the_last_turns():
    # Ben reaches 20 (first player Anna): Cara, then everyone once more [CN54]; only then [CN55]
    events = [("first_player", {"player": 0}), ("points", {"player": 1, "delta": 20})]
    error = rejected(fold(events), "finish", {})
    assert error.field == "type" and "4 last turns are still to play" in error.message and "Cara" in error.message
    error = rejected(fold(events + [("turn_played", {})] * 3), "finish", {})
    assert "Cara's last turn is still to play" in error.message
    assert fold(events + [("turn_played", {})] * 4 + [("finish", {})])["finished"] is True


def test_finish_needs_the_first_player_to_name_the_last_turns():
    error = rejected(fold([("points", {"player": 1, "delta": 20})]), "finish", {})
    assert error.field == "type" and "first player" in error.message


def test_finish_after_both_decks_ran_out_and_the_last_round():
    # CDX-C1: both decks empty triggers the end too; Cara (last in order) triggers: one round
    events = [("first_player", {"player": 0}), ("decks_empty", {"player": 2})]
    assert "3 last turns" in rejected(fold(events), "finish", {}).message
    assert fold(events + [("turn_played", {})] * 3 + [("finish", {})])["finished"] is True


def test_a_correction_from_20_to_17_untriggers_the_end():
    # Issue 27, finding 14: the end is triggered "as soon as a player reaches or passes 20" [CN53];
    # a -3 correction shows nobody has: the end is no longer triggered, and finishing is refused
    events = [("first_player", {"player": 0}), ("points", {"player": 1, "delta": 20}), ("turn_played", {})]
    state = fold(events + [("points", {"player": 1, "delta": -3})])
    assert state["scores"] == [0, 17, 0] and state["end"] is None
    assert "no longer triggered" in state["notice"]["text"]
    assert "not over" in rejected(state, "finish", {}).message
    assert "not triggered" in rejected(state, "turn_played", {}).message
    # reaching 20 again triggers it again, from this turn
    state = GAME.apply(state, "points", {"player": 1, "delta": 3}, ctx())
    assert state["end"] == {"reason": "target", "trigger": 1, "turns": [2, 0, 1, 2], "played": 0}


def test_a_correction_below_20_keeps_the_end_while_another_player_has_20():
    # Ben's 20 is taken back; Cara reached 21 in her turn, after Ben's: the end is hers [CN53], and
    # as she is last in turn order, one round is left [CN54] (CDX-C8), not Ben's four turns
    events = [("first_player", {"player": 0}), ("points", {"player": 1, "delta": 20}),
              ("points", {"player": 2, "delta": 21}), ("points", {"player": 1, "delta": -3})]
    state = fold(events)
    assert state["end"] == {"reason": "target", "trigger": 2, "turns": [0, 1, 2], "played": 0}


def test_ana_20_one_turn_ben_22_ana_minus_3_the_end_was_triggered_by_ben():
    # The reviewer's case (issue 27, finding 14): Ana +20 triggers the end, one last turn is played
    # (Ben's), Ben +22 in it, then Ana -3. Ana has 17: Ben is the one who reached 20 [CN53], at his
    # turn, the last of the round (Ana first): one more round follows [CN54], Ana then Ben
    names = ["Ana", "Ben"]
    events = [("first_player", {"player": 0}), ("points", {"player": 0, "delta": 20}), ("turn_played", {}),
              ("points", {"player": 1, "delta": 22}), ("points", {"player": 0, "delta": -3})]
    state = fold(events, names=names)
    assert state["scores"] == [17, 22]
    assert state["end"] == {"reason": "target", "trigger": 1, "turns": [0, 1], "played": 0}
    assert state["notice"] == {"player": 0, "text": "Back to 17: Ben reached 20 first now, so the end was "
                                                    "triggered by Ben: 2 last turns to play"}


def test_ana_20_ben_first_reaches_22_in_the_next_round_the_last_turns_follow_ben():
    # Ben plays first, Anna last: Anna's 20 leaves one round (Ben, Cara, Anna) [CN54] (CDX-C8). Ben
    # scores 22 in that round's first turn; Anna's 20 is then taken back. Ben's turn triggered the
    # end: Cara and Anna finish that round, then everyone once more, five turns from Ben's
    events = [("first_player", {"player": 1}), ("points", {"player": 0, "delta": 20}), ("turn_played", {}),
              ("points", {"player": 1, "delta": 22}), ("points", {"player": 0, "delta": -3})]
    state = fold(events)
    assert state["end"] == {"reason": "target", "trigger": 1, "turns": [2, 0, 1, 2, 0], "played": 0}
    assert state["notice"]["text"] == ("Back to 17: Ben reached 20 first now, so the end was triggered by Ben: "
                                       "5 last turns to play")
    error = rejected(state, "finish", {})
    assert "5 last turns are still to play (Cara next)" in error.message
    assert fold(events + [("turn_played", {})] * 5 + [("finish", {})])["finished"] is True


def test_turns_played_since_anna_reached_20_count_as_her_last_turns():
    # Ben's 20 (Anna first) leaves Cara, then a round [CN54]. Cara plays; Anna reaches 25 in her
    # turn; Anna and Ben play. Ben's 20 is taken back: the end is Anna's, from her turn: Ben's turn
    # played since is her first last turn, Cara, Anna, Ben and Cara are left
    events = [("first_player", {"player": 0}), ("points", {"player": 1, "delta": 20}), ("turn_played", {}),
              ("points", {"player": 0, "delta": 25}), ("turn_played", {}), ("turn_played", {}),
              ("points", {"player": 1, "delta": -3})]
    state = fold(events)
    assert state["end"] == {"reason": "target", "trigger": 0, "turns": [1, 2, 0, 1, 2], "played": 1}
    assert state["notice"]["text"].endswith("so the end was triggered by Anna: 4 last turns to play")


def test_the_earliest_turn_at_20_triggers_not_the_lowest_seat():
    # Ben 20, Cara 20 in her turn, two turns played, Anna 20 in hers: Ben's taken back, Cara's
    # turn came before Anna's [CN53]; the turn played since Cara's (Anna's) is ticked off
    events = [("first_player", {"player": 0}), ("points", {"player": 1, "delta": 20}), ("points", {"player": 2, "delta": 20}),
              ("turn_played", {}), ("turn_played", {}), ("points", {"player": 0, "delta": 20}),
              ("points", {"player": 1, "delta": -1})]
    assert fold(events)["end"] == {"reason": "target", "trigger": 2, "turns": [0, 1, 2], "played": 1}


def test_a_player_back_under_20_reaches_it_again_at_a_later_turn():
    # Cara's 20 is corrected to 19, then she reaches 20 again two rounds of turns later: her
    # reaching counts from that later turn, when Ben's trigger is taken back [CN53-54]
    events = [("first_player", {"player": 0}), ("points", {"player": 1, "delta": 20}), ("points", {"player": 2, "delta": 20}),
              ("points", {"player": 2, "delta": -1}), ("turn_played", {}), ("turn_played", {}), ("turn_played", {}),
              ("points", {"player": 2, "delta": 1}), ("points", {"player": 1, "delta": -3})]
    assert fold(events)["end"] == {"reason": "target", "trigger": 2, "turns": [0, 1, 2], "played": 0}


def test_points_after_every_last_turn_count_in_the_last_turn_played():
    # Ben's 20 (Anna first), all four last turns played; Anna +20 then is a correction [CN54-55] of
    # a card in her last turn played (the third); Ben's 20 taken back: the end is Anna's from that
    # turn, and the two turns played after it (Ben's, Cara's) are ticked off
    events = [("first_player", {"player": 0}), ("points", {"player": 1, "delta": 20})] + [("turn_played", {})] * 4 + \
             [("points", {"player": 0, "delta": 20}), ("points", {"player": 1, "delta": -3})]
    assert fold(events)["end"] == {"reason": "target", "trigger": 0, "turns": [1, 2, 0, 1, 2], "played": 2}


def test_cara_at_20_before_annas_turn_every_last_turn_already_played():
    # Cara's 20 entered during Ben's last turn came from her own turn before Anna's [CN46]; all of
    # Anna's last turns played, Anna's 20 taken back: Cara's round and the next are over [CN54]
    events = [("first_player", {"player": 0}), ("points", {"player": 0, "delta": 20}), ("points", {"player": 2, "delta": 20})] + \
             [("turn_played", {})] * 5 + [("points", {"player": 0, "delta": -3})]
    state = fold(events)
    assert state["end"] == {"reason": "target", "trigger": 2, "turns": [0, 1, 2], "played": 3}
    assert state["notice"]["text"] == ("Back to 17: Cara reached 20 first now, so the end was triggered by Cara: "
                                       "every last turn is played")
    assert fold(events + [("finish", {})])["finished"] is True


def test_a_trigger_still_at_20_after_a_correction_keeps_the_end():
    # 25 corrected to 22 is still "reached or passed" [CN53]: the end and its ticks stay Ben's
    events = [("first_player", {"player": 0}), ("points", {"player": 1, "delta": 25}), ("points", {"player": 2, "delta": 20}),
              ("turn_played", {}), ("points", {"player": 1, "delta": -3})]
    state = fold(events)
    assert state["end"] == {"reason": "target", "trigger": 1, "turns": [2, 0, 1, 2], "played": 1}
    assert state["notice"] is None


def test_the_end_moves_to_ben_before_the_first_player_is_known():
    # nobody chose the first player yet: the end moves to Ben all the same; the last turns wait for it
    events = [("points", {"player": 0, "delta": 20}), ("points", {"player": 1, "delta": 21}),
              ("points", {"player": 0, "delta": -2})]
    state = fold(events)
    assert state["end"] == {"reason": "target", "trigger": 1, "turns": None, "played": 0}
    assert state["notice"]["text"] == ("Back to 18: Ben reached 20 first now, so the end was triggered by Ben; "
                                       "choose the first player to name the last turns")
    state = GAME.apply(state, "first_player", {"player": 0}, ctx())
    assert state["end"]["turns"] == [2, 0, 1, 2]


def test_a_table_stored_before_the_reach_record_moves_the_end_too():
    # a state stored by the previous version has no record of when each player reached 20: those
    # who have it are taken to have reached it in their latest turn, the trigger in its own
    events = [("first_player", {"player": 1}), ("points", {"player": 0, "delta": 20}), ("turn_played", {}),
              ("points", {"player": 1, "delta": 22})]
    stored = fold(events)
    stored.pop("reached", None)
    state = GAME.apply(stored, "points", {"player": 0, "delta": -3}, ctx())
    assert state["end"] == {"reason": "target", "trigger": 1, "turns": [2, 0, 1, 2, 0], "played": 0}
    assert GAME.view(state, NAMES, {}, {}, "end")["notice"] is not None
    # and the view of the stored state itself reads as before
    assert "Anna" in str(GAME.view(stored, NAMES, {}, {}, None)["banner"])


def test_the_banner_and_end_screen_name_ben_once_the_end_moved_to_him():
    events = [("first_player", {"player": 1}), ("points", {"player": 0, "delta": 20}), ("turn_played", {}),
              ("points", {"player": 1, "delta": 22}), ("points", {"player": 0, "delta": -3})]
    state = fold(events)
    banner = GAME.view(state, NAMES, {}, {}, None)["banner"]
    assert banner["trigger"] == "Ben" and banner["left"] == 5 and [t["name"] for t in banner["turns"]][0] == "Cara"
    end = GAME.view(state, NAMES, {}, {}, "end")
    assert "5 last turns are still to play" in str(end["finish_blocker"])


def test_a_correction_below_20_keeps_the_end_when_the_decks_ran_out():
    events = [("first_player", {"player": 0}), ("decks_empty", {"player": 2}),
              ("points", {"player": 1, "delta": 20}), ("points", {"player": 1, "delta": -3})]
    assert fold(events)["end"] == {"reason": "decks", "trigger": 2, "turns": [0, 1, 2], "played": 0}


def test_gold_objects_helper_adds_one_per_object():
    state = fold([("first_player", {"player": 0}), ("gold_objects", {"player": 0, "object": "quill", "count": 3})])
    assert state["scores"] == [3, 0, 0]


@pytest.mark.parametrize("type_, data, field", [
    ("points", {"player": 3, "delta": 1}, "data.player"),
    ("points", {"player": 0, "delta": 0}, "data.delta"),
    ("points", {"player": 0, "delta": -1}, "data.delta"),     # below zero
    ("points", {"player": 0, "delta": 1.5}, "data.delta"),
    ("points", {"player": 0, "delta": 1, "why": "x"}, "data.why"),
    ("gold_corners", {"player": 0, "corners": 5}, "data.corners"),
    ("gold_objects", {"player": 0, "object": "scroll", "count": 2}, "data.object"),
    ("gold_objects", {"player": 0, "object": "quill", "count": 0}, "data.count"),
    ("jump", {}, "type"),
])
def test_bad_track_events_change_nothing(type_, data, field):
    state = fold([("first_player", {"player": 0})])
    assert rejected(state, type_, data).field == field


# --- manuscript mode ----------------------------------------------------------------------------

def test_manuscript_scores_each_card_and_moves_the_track():
    state = fold([("first_player", {"player": 0}), play(0, 82, 0, 0), play(0, 1, 1, -1), play(0, 47, -1, -1)])
    assert [c["points"] for c in state["manuscripts"][0]] == [0, 0, 3]
    assert state["scores"] == [3, 0, 0]


def test_manuscript_card_reaching_the_target_triggers_the_end():
    state = fold([("first_player", {"player": 1}), ("points", {"player": 0, "delta": 17}),
                  play(0, 82, 0, 0), play(0, 1, 1, -1), play(0, 47, -1, -1)])
    # order Ben, Cara, Anna; Anna (last) triggers: one more round
    assert state["end"] == {"reason": "target", "trigger": 0, "turns": [1, 2, 0], "played": 0}


def test_play_card_accepts_a_cell():
    state = fold([("first_player", {"player": 0}), ("play_card", {"player": 0, "id": 81, "side": "front", "cell": [0, 0]})])
    assert state["manuscripts"][0] == [{"id": 81, "side": "front", "x": 0, "y": 0, "points": 0}]


@pytest.mark.parametrize("events, bad, words", [
    ([], play(0, 103, 0, 0), "unknown card number 103"),
    ([play(0, 81, 0, 0), play(0, 5, 1, 1)], play(0, 5, -1, -1), "card 5 is played twice"),
    ([play(0, 81, 0, 0)], play(0, 5, 3, 3), "card 5 at (3, 3) touches no card"),
    ([play(0, 85, 0, 0)], play(0, 5, 1, -1), "card 5 at (1, -1) lands on a missing corner"),
    ([play(0, 81, 0, 0)], play(0, 47, 1, 1), "card 47 is a gold card"),
])
def test_illegal_placement_is_refused_with_the_card_named(events, bad, words):
    state = fold([("first_player", {"player": 0})] + events)
    err = rejected(state, *bad)
    assert err.field == "data.id"
    assert words in err.message


def test_a_card_may_be_in_two_players_manuscripts_only_once_each():
    # each player's manuscript is checked on its own: the same number in another area is another copy
    state = fold([("first_player", {"player": 0}), play(0, 81, 0, 0), play(1, 82, 0, 0)])
    assert len(state["manuscripts"][1]) == 1


# --- objective counter ------------------------------------------------------------------------------

def counter_events():
    return [("common_objectives", {"cards": [95, 102]}), ("secret_objective", {"player": 0, "card": 91}),
            ("secret_objective", {"player": 1, "card": 99})]


def test_objectives_are_distinct_cards():
    state = fold(counter_events())
    assert "common objective" in rejected(state, "secret_objective", {"player": 2, "card": 95}).message
    assert "already Ben's secret objective" in rejected(state, "secret_objective", {"player": 2, "card": 99}).message
    assert rejected(state, "common_objectives", {"cards": [96, 96]}).field == "data.cards[1]"
    assert rejected(state, "common_objectives", {"cards": [96, 91]}).field == "data.cards[1]"
    assert rejected(state, "common_objectives", {"cards": [96, 200]}).field == "data.cards[1]"
    assert rejected(state, "secret_objective", {"player": 2, "card": 40}).field == "data.card"


def test_counts_never_go_below_zero():
    state = fold(counter_events() + [("count", {"player": 0, "symbol": "fungi", "delta": 2})])
    err = rejected(state, "count", {"player": 0, "symbol": "fungi", "delta": -3})
    assert err.field == "data.delta"
    assert rejected(state, "count", {"player": 0, "symbol": "mushroom", "delta": 1}).field == "data.symbol"
    assert rejected(state, "set_count", {"player": 0, "symbol": "quill", "value": -1}).field == "data.value"


def test_pattern_count_only_for_the_players_pattern_objectives():
    state = fold(counter_events())
    assert "not one of this player's" in rejected(state, "pattern_count", {"player": 1, "card": 91, "delta": 1}).message
    assert rejected(state, "pattern_count", {"player": 0, "card": 95, "delta": 1}).field == "data.card"


def test_end_screen_scores_typed_counts_and_a_laid_out_pattern():
    # Anna: 7 fungi (95: 2 x 2), 5 quills (102: 2 pairs = 4), and a column of fungi with two plants
    # laid out for 91: three overlapping L-shapes, two card-disjoint: 2 x 3 = 6
    column = [{"x": 0, "y": y, "kingdom": "fungi"} for y in (0, -2, -4, -6)] + \
             [{"x": 1, "y": y, "kingdom": "plant"} for y in (-3, -5, -7)]
    state = fold([("first_player", {"player": 0}), ("points", {"player": 0, "delta": 12}), ("points", {"player": 1, "delta": 18})]
                 + counter_events()
                 + [("set_count", {"player": 0, "symbol": "fungi", "value": 7}), ("set_count", {"player": 0, "symbol": "quill", "value": 5}),
                    ("pattern_grid", {"player": 0, "card": 91, "cells": column}),
                    ("set_count", {"player": 1, "symbol": "quill", "value": 1}), ("set_count", {"player": 1, "symbol": "inkwell", "value": 1}),
                    ("set_count", {"player": 1, "symbol": "manuscript", "value": 2})])
    v = GAME.view(state, NAMES, {}, {}, "end")
    anna, ben, cara = v["result"]["players"]
    assert anna["objectives_detail"] == [4, 4, 6] and anna["total"] == 26
    assert ben["objectives_detail"] == [0, 0, 3] and ben["total"] == 21  # one full set for 99
    assert cara["total"] == 0
    assert v["result"]["winners"] == ["Anna"]
    grid = GAME.view(state, NAMES, {}, {}, "grid-0-91")["grid"]
    hits = sorted((c["x"], c["y"], c["value"]["hit"]) for c in grid["grid"]["cells"] if c["value"]["hit"])
    assert grid["count"] == 2
    assert len(hits) == 6 and {h[2] for h in hits} == {1, 2}


def test_end_screen_names_the_tie_break():
    state = fold([("first_player", {"player": 0}), ("points", {"player": 0, "delta": 22}), ("points", {"player": 1, "delta": 20}),
                  ("common_objectives", {"cards": [95, 102]}), ("set_count", {"player": 1, "symbol": "quill", "value": 2})])
    v = GAME.view(state, NAMES, {}, {}, "end")
    assert v["result"]["winners"] == ["Ben"]
    assert v["ties"] == ["Anna and Ben tie on 22: most objective points ranks first."]


def test_end_screen_uses_the_manuscript():
    cards = [play(0, 81, 0, 0), play(0, 1, 1, 1, "back"), play(0, 2, 2, 2, "back"), play(0, 3, 3, 3, "back")]
    state = fold([("first_player", {"player": 0})] + cards + [("common_objectives", {"cards": [87, 95]})])
    anna = GAME.view(state, NAMES, {}, {}, "end")["result"]["players"][0]
    assert anna["source"] == "manuscript"
    assert anna["objectives_detail"] == [2, 2]  # one fungi diagonal; 3 fungi
    # typed counts are refused for a player whose manuscript counts
    assert "manuscript" in rejected(state, "count", {"player": 0, "symbol": "fungi", "delta": 1}).message


def test_finish_freezes_the_table():
    state = fold([("first_player", {"player": 0}), ("decks_empty", {"player": 2})] + [("turn_played", {})] * 3 + [("finish", {})])
    assert state["finished"] is True
    assert "game is over" in rejected(state, "first_player", {"player": 0}).message


def test_every_event_has_its_shape_and_its_handler_named_after_it():
    from companion.games.base import COMMON_EVENTS
    from companion.games.codex import table

    # who goes first is every game's (games/seats.py, codex/order.py)
    assert set(table.SHAPES) == set(table.HANDLERS) == set(GAME.events) - set(COMMON_EVENTS)
    assert set(table.OPTIONAL) <= set(table.SHAPES)
    for type_, handler in table.HANDLERS.items():
        assert handler.__name__ in (f"_on_{type_}", f"ev_{type_}"), (type_, handler.__name__)


def test_every_event_has_words_in_the_history():
    events = [("first_player", {"player": 0}), ("draw_first_player", {}), ("points", {"player": 0, "delta": 3}),
              ("gold_corners", {"player": 0, "corners": 2}), ("gold_objects", {"player": 1, "object": "quill", "count": 2}),
              ("decks_empty", {"player": 1}), *[("turn_played", {})] * 5, ("common_objectives", {"cards": [95, 96]}),
              ("secret_objective", {"player": 0, "card": 91}), ("count", {"player": 0, "symbol": "fungi", "delta": 1}),
              ("set_count", {"player": 0, "symbol": "fungi", "value": 4}), ("pattern_count", {"player": 0, "card": 91, "delta": 1}),
              ("pattern_grid", {"player": 0, "card": 91, "cells": []}),
              ("sheet", {"player": 0, "visible": {"quill": 1}, "patterns": {"91": 2}}), play(1, 81, 0, 0), ("finish", {})]
    assert {t for t, _ in events} == set(GAME.events) - {"clock"}  # the clock's words: tests/foundation/test_clock.py
    fold(events)  # all valid in this order
    for type_, data in events:
        text = GAME.describe(type_, data, NAMES)
        assert text and text != type_.replace("_", " ")
