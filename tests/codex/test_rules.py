"""The rules functions of CONTRACT.md "## codex", tested without Flask."""

from __future__ import annotations

import copy
import functools
import itertools
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.games.codex import GAME, functions
from companion.games.codex.packing import max_disjoint
from companion.games.codex.rules import Layout, final_turns, last_turns_left, may_finish, reach_turn, reaches_target, retriggered_end
from companion.games.validation import RulesError


def player(name="A", placement=0, objectives=(), **visible):
    return {"name": name, "placement_points": placement, "visible": visible, "objectives": list(objectives)}


def one_score(objectives, **visible):
    """Score one player with these objectives; return the objectives' points in order."""
    return functions.score({"players": [player(objectives=objectives, **visible)]})["players"][0]["objectives_detail"]


def card(id_, x, y, side="front"):
    return {"id": id_, "side": side, "x": x, "y": y}


def error_of(fn, doc):
    with pytest.raises(RulesError) as info:
        fn(doc)
    return info.value


# --- RULES.md section E ------------------------------------------------------------------------

def test_three_pairs_of_quills_need_six_quills():
    """[CN80] "three pairs of quills require six quills"."""
    pairs = {"kind": "object_pairs", "object": "quill", "points": 2}
    assert one_score([pairs], quill=6) == [6]  # three pairs
    assert one_score([pairs], quill=5) == [4]  # only two pairs from five


# --- objective arithmetic ----------------------------------------------------------------------

def test_five_quills_on_two_per_pair_give_four():
    assert one_score([{"kind": "object_pairs", "object": "quill", "points": 2}], quill=5) == [4]


def test_pairs_count_only_the_cards_object():
    # CDX-C3: an object objective counts pairs of its own object only
    assert one_score([{"kind": "object_pairs", "object": "inkwell", "points": 2}], quill=9, inkwell=3) == [2]


def test_sets_of_three_different_objects():
    s = {"kind": "object_set", "points": 3}
    assert one_score([s], quill=4, inkwell=2, manuscript=3) == [6]
    assert one_score([s], quill=4, inkwell=0, manuscript=3) == [0]
    assert one_score([s], quill=1, inkwell=1, manuscript=1) == [3]


def test_triples_of_a_kingdom():
    t = {"kind": "resource_triples", "resource": "animal", "points": 2}
    assert one_score([t], animal=8, fungi=9) == [4]
    assert one_score([t], animal=2) == [0]
    assert one_score([t], animal=9) == [6]


def test_pattern_objective_is_count_times_points():
    assert one_score([{"kind": "pattern", "points": 3, "count": 2}]) == [6]


@pytest.mark.parametrize("objective, visible, expected", [
    # rules.objective_points on a partial visible map: a symbol left out counts 0 (CONTRACT)
    ({"kind": "object_pairs", "object": "quill", "points": 2}, {}, 0),
    ({"kind": "object_set", "points": 3}, {"quill": 2, "inkwell": 2}, 0),   # no manuscript: no set [CN49]
    ({"kind": "object_set", "points": 3}, {}, 0),
    ({"kind": "resource_triples", "resource": "plant", "points": 2}, {"fungi": 9}, 0),
    ({"kind": "pattern", "points": 3}, {}, 0),                              # no pattern counted
])
def test_objective_points_counts_what_is_left_out_as_zero(objective, visible, expected):
    from companion.games.codex.rules import objective_points

    assert objective_points(objective, visible) == expected


# every one of the 16 objective cards, given by its number (values read off cards.md)
@pytest.mark.parametrize("card_id, count, expected", [
    (87, 2, 4), (88, 1, 2), (89, 3, 6), (90, 0, 0),      # diagonals: 2 each
    (91, 2, 6), (92, 1, 3), (93, 3, 9), (94, 0, 0),      # L-shapes: 3 each
])
def test_each_pattern_card_by_number(card_id, count, expected):
    assert one_score([{"card": card_id, "count": count}]) == [expected]


VISIBLE = {"fungi": 7, "plant": 3, "animal": 2, "insect": 9, "quill": 6, "inkwell": 1, "manuscript": 5}


@pytest.mark.parametrize("card_id, expected", [
    (95, 4),   # 7 fungi: two sets of 3, 2 each
    (96, 2),   # 3 plant
    (97, 0),   # 2 animal
    (98, 6),   # 9 insect
    (99, 3),   # quill 6, inkwell 1, manuscript 5: one full set, 3 points
    (100, 4),  # 5 manuscripts: two pairs
    (101, 0),  # 1 inkwell
    (102, 6),  # 6 quills: three pairs
])
def test_each_count_card_by_number(card_id, expected):
    assert one_score([{"card": card_id}], **VISIBLE) == [expected]


def test_contract_score_example():
    doc = {"players": [{"name": "A", "placement_points": 18,
                        "visible": {"quill": 5, "inkwell": 2, "manuscript": 1, "fungi": 8, "plant": 0, "animal": 3, "insect": 1},
                        "objectives": [{"kind": "object_pairs", "object": "quill", "points": 2},
                                       {"kind": "object_set", "points": 3},
                                       {"kind": "resource_triples", "resource": "fungi", "points": 2},
                                       {"kind": "pattern", "points": 3, "count": 2}]}]}
    result = functions.score(doc)
    # 2 pairs of quills (4) + 1 set (3) + 2 triples of fungi (4) + 2 patterns (6) = 17
    assert result["players"] == [{"name": "A", "total": 35, "breakdown": {"placement": 18, "objectives": 17},
                                  "objectives_detail": [4, 3, 4, 6]}]
    assert result["winners"] == ["A"] and result["places"] == {"A": 1}


def test_tie_broken_by_objective_points():
    # [CN56] equal totals: the one with more objective points wins
    doc = {"players": [player("A", 20, [{"kind": "pattern", "points": 2, "count": 1}]),
                       player("B", 16, [{"kind": "pattern", "points": 3, "count": 2}]),
                       player("C", 10)]}
    result = functions.score(doc)
    assert [p["total"] for p in result["players"]] == [22, 22, 10]
    assert result["winners"] == ["B"]
    assert result["places"] == {"B": 1, "A": 2, "C": 3}


def test_full_tie_is_a_shared_victory():
    doc = {"players": [player("A", 20, [{"kind": "pattern", "points": 2, "count": 1}]),
                       player("B", 20, [{"kind": "pattern", "points": 2, "count": 1}]),
                       player("C", 21)]}
    result = functions.score(doc)
    assert sorted(result["winners"]) == ["A", "B"]
    assert result["places"] == {"A": 1, "B": 1, "C": 3}


@pytest.mark.parametrize("doc, field", [
    ({"players": [player(placement=-1)]}, "players[0].placement_points"),
    ({"players": [player(quill=-2)]}, "players[0].visible.quill"),
    ({"players": [player(gold=2)]}, "players[0].visible.gold"),
    ({"players": [player(objectives=[{"kind": "object_pairs", "object": "scroll", "points": 2}])]}, "players[0].objectives[0].object"),
    ({"players": [player(objectives=[{"kind": "resource_triples", "resource": "mineral", "points": 2}])]}, "players[0].objectives[0].resource"),
    ({"players": [player(objectives=[{"kind": "pairs", "points": 2}])]}, "players[0].objectives[0].kind"),
    ({"players": [player(objectives=[{"kind": "pattern", "points": 3}])]}, "players[0].objectives[0].count"),
    ({"players": [player(objectives=[{"kind": "pattern", "points": 3, "count": -1}])]}, "players[0].objectives[0].count"),
    ({"players": [player(objectives=[{"card": 50}])]}, "players[0].objectives[0].card"),
    ({"players": [player(objectives=[{"card": 103}])]}, "players[0].objectives[0].card"),
    ({"players": [player(objectives=[{"card": 91}])]}, "players[0].objectives[0].count"),
    ({"players": [player(objectives=[{"card": 99, "count": 1}])]}, "players[0].objectives[0].count"),
    ({"players": [player(objectives=[{"card": 99, "points": 3}])]}, "players[0].objectives[0].points"),
    ({"players": [player("A"), player("a")]}, "players[1].name"),
    ({"players": []}, "players"),
    ({"players": [player()], "extra": 1}, "extra"),
    ({"players": [{"name": "A", "placement_points": 3, "visible": {}}]}, "players[0].objectives"),
])
def test_score_bad_input_names_the_field(doc, field):
    assert error_of(functions.score, doc).field == field


def refused(fn, doc, field):
    """Call fn on an invalid document: assert the RulesError's field and that the document is unchanged."""
    before = copy.deepcopy(doc)
    err = error_of(fn, doc)
    assert err.field == field
    assert doc == before
    return err


# The bounds of `score` and why they are what they are:
# - players: 1 to 4 (a table holds 2-4 players [CN1-2]; one player alone may still be scored);
# - placement_points and each visible count: 0 to 999, the contract's cap on a count;
# - objectives per player: 0 to 16, the 16 objective cards [CN8];
# - an objective's points: 0 to 99 (a card prints 2 or 3 [CN49]; a free entry may say 0);
# - a pattern count: 0 to 999, as any count.
PAIRS = {"kind": "object_pairs", "object": "quill", "points": 2}


@pytest.mark.parametrize("players, expected_totals", [
    ([player("A")], [0]),                                                  # fewest players: one
    ([player(n, 1) for n in "ABCD"], [1, 1, 1, 1]),                         # most players: four
    ([player("A", 999)], [999]),                                           # highest placement points
    ([player("A", 0, [PAIRS], quill=0)], [0]),                             # lowest count
    ([player("A", 0, [PAIRS], quill=999)], [998]),                         # 999 quills: 499 pairs x 2
    ([player("A", 0, [PAIRS] * 16, quill=4)], [64]),                       # most objectives: 16 x 2 pairs x 2
    ([player("A", 0, [{"kind": "object_set", "points": 0}], quill=1, inkwell=1, manuscript=1)], [0]),
    ([player("A", 0, [{"kind": "object_set", "points": 99}], quill=1, inkwell=1, manuscript=1)], [99]),
    ([player("A", 0, [{"kind": "pattern", "points": 3, "count": 0}])], [0]),
    ([player("A", 0, [{"kind": "pattern", "points": 3, "count": 999}])], [2997]),
    ([player("A", 0, [{"card": 91, "count": 0}])], [0]),
    ([player("A", 0, [{"card": 91, "count": 999}])], [2997]),              # card 91: 3 per L-shape
])
def test_score_accepts_its_lowest_and_highest_values(players, expected_totals):
    result = functions.score({"players": players})
    assert [p["total"] for p in result["players"]] == expected_totals


@pytest.mark.parametrize("doc, field", [
    ({"players": [player(n) for n in "ABCDE"]}, "players"),
    ({"players": [player("A", 1000)]}, "players[0].placement_points"),
    ({"players": [player("A", -1)]}, "players[0].placement_points"),
    ({"players": [player("A", quill=1000)]}, "players[0].visible.quill"),
    ({"players": [player("A", manuscript=-1)]}, "players[0].visible.manuscript"),
    ({"players": [player("A", 0, [PAIRS] * 17)]}, "players[0].objectives"),
    ({"players": [player("A", 0, [{"kind": "object_set", "points": 100}])]}, "players[0].objectives[0].points"),
    ({"players": [player("A", 0, [{"kind": "object_set", "points": -1}])]}, "players[0].objectives[0].points"),
    ({"players": [player("A", 0, [{"kind": "pattern", "points": 3, "count": 1000}])]}, "players[0].objectives[0].count"),
    ({"players": [player("A", 0, [{"kind": "pattern", "points": 3, "count": -1}])]}, "players[0].objectives[0].count"),
    ({"players": [player("A", 0, [{"card": 91, "count": 1000}])]}, "players[0].objectives[0].count"),
    ({"players": [player("A", 0, [{"card": 91, "count": -1}])]}, "players[0].objectives[0].count"),
])
def test_score_refuses_values_beyond_its_bounds(doc, field):
    refused(functions.score, doc, field)


def test_score_refusal_says_the_accepted_number_of_objectives():
    # the message states what is allowed (CONTRACT "Errors"): 0 to 16 objectives
    err = refused(functions.score, {"players": [player("A", 0, [PAIRS] * 17)]}, "players[0].objectives")
    assert "0 to 16" in err.message


def test_a_symbol_left_out_of_visible_counts_zero():
    # CONTRACT: "a symbol left out counts 0": one quill and one inkwell make no set [CN49]
    assert one_score([{"kind": "object_set", "points": 3}], quill=1, inkwell=1) == [0]
    assert one_score([{"card": 99}], quill=1, inkwell=1) == [0]
    # no manuscript given: not even one pair of manuscripts (card 100)
    assert one_score([{"card": 100}], quill=5) == [0]
    # no fungi given: no triple (card 95, resource_triples)
    assert one_score([{"card": 95}], plant=3) == [0]


@pytest.mark.parametrize("value", [True, False, [90], {"card": 90}, "90", 90.0, None])
def test_an_objective_card_number_must_be_a_whole_number(value):
    # a JSON true is no card number (it must not be read as card 1), nor a list or a string
    err = refused(functions.score, {"players": [player(objectives=[{"card": value}])]}, "players[0].objectives[0].card")
    assert err.message.startswith("must be an objective card")


def test_a_card_that_is_no_objective_is_named_in_the_refusal():
    # card 5 exists (a fungi resource card) but is no objective card; card 103 does not exist
    err = refused(functions.score, {"players": [player(objectives=[{"card": 5}])]}, "players[0].objectives[0].card")
    assert err.message.startswith("card 5 is not an objective card")
    err = refused(functions.score, {"players": [player(objectives=[{"card": 103}])]}, "players[0].objectives[0].card")
    assert err.message.startswith("must be an objective card")


# --- final turns ------------------------------------------------------------------------------

def test_final_turns_contract_example():
    assert functions.final_turns({"players": ["A", "B", "C"], "trigger": "B"}) == {"turns": ["C", "A", "B", "C"]}


def test_last_player_triggering_leaves_one_round():
    # CDX-C8: the round is already complete, so exactly one more round
    assert final_turns(["A", "B", "C", "D"], "D") == ["A", "B", "C", "D"]


def test_first_player_triggering_finishes_the_round_then_one_more():
    assert final_turns(["A", "B", "C", "D"], "A") == ["B", "C", "D", "A", "B", "C", "D"]


def test_the_end_holds_at_the_target_and_finishing_waits_for_the_last_turns():
    # [CN53] reaches or passes 20 (30 in the variant); [CN54] the last turns; [CN55] then objectives
    assert reaches_target(20, 20) and reaches_target(21, 20) and not reaches_target(19, 20)
    assert not reaches_target(29, 30) and reaches_target(30, 30)
    assert last_turns_left(None) is None and not may_finish(None)
    pending = {"reason": "target", "trigger": 1, "turns": None, "played": 0}
    assert last_turns_left(pending) is None and not may_finish(pending)
    end = {"reason": "decks", "trigger": 2, "turns": [0, 1, 2], "played": 2}
    assert last_turns_left(end) == 1 and not may_finish(end)
    assert may_finish(dict(end, played=3)) and last_turns_left(dict(end, played=3)) == 0


def test_points_count_in_the_scorers_own_latest_turn_begun():
    # turns numbered clockwise, seat s plays turns s, s + n, ... [CN36]; points are recorded at once
    # in the placing player's turn [CN46]: the latest of hers at or before the turn being played
    assert reach_turn(1, 1, 3) == 1 and reach_turn(1, 3, 3) == 1 and reach_turn(1, 4, 3) == 4
    assert reach_turn(2, 1, 3) == -1  # not her turn yet this round: the points came from her previous one
    assert reach_turn(0, 5, 2) == 4 and reach_turn(1, 5, 2) == 5


def test_the_end_moves_to_the_earliest_turn_at_the_target():
    # [CN53] triggered by the earliest turn at the target, [CN54] the rest of that round and one more;
    # the turns played since that turn (up to `done`) are ticked off
    assert retriggered_end([None, None, None], 4, [0, 1, 2]) is None
    assert retriggered_end([3, None, 2], 3, [0, 1, 2]) == {"reason": "target", "trigger": 2, "turns": [0, 1, 2], "played": 1}
    assert retriggered_end([3, None, 2], 2, [0, 1, 2])["played"] == 0
    assert retriggered_end([3, None, 5], 4, [0, 1, 2]) == {"reason": "target", "trigger": 0, "turns": [1, 2, 0, 1, 2], "played": 1}
    # the turn being played is the trigger's own: nothing is played yet
    assert retriggered_end([None, 5], 4, [1, 0])["played"] == 0
    # the first player is not known: the trigger is, the turns wait for it
    assert retriggered_end([None, 1, None], 1, None) == {"reason": "target", "trigger": 1, "turns": None, "played": 0}
    assert retriggered_end([None, None, -1], 0, None)["played"] == 1
    # a turn before the old trigger's, in the round before (Ben last of Anna and Ben, entered late):
    # the turns played since, at most all of the new last turns
    assert retriggered_end([None, -1], 3, [0, 1]) == {"reason": "target", "trigger": 1, "turns": [0, 1], "played": 2}
    assert retriggered_end([None, -1], 0, [0, 1])["played"] == 1


def test_final_turns_works_on_seat_indices():
    # the table calls it with indices in turn order (first player 2 of 3)
    assert final_turns([2, 0, 1], 0) == [1, 2, 0, 1]


@pytest.mark.parametrize("doc, field", [
    ({"players": ["A", "B"], "trigger": "C"}, "trigger"),
    ({"players": ["A"], "trigger": "A"}, "players"),
    ({"players": ["A", "A"], "trigger": "A"}, "players[1]"),
    ({"players": ["A", "B"]}, "trigger"),
])
def test_final_turns_bad_input(doc, field):
    assert error_of(functions.final_turns, doc).field == field


# `final_turns` takes 2 to 4 players, the players a table holds [CN1-2]: one is too few, five too many
@pytest.mark.parametrize("players, trigger, turns", [
    (["A", "B"], "A", ["B", "A", "B"]),
    (["A", "B", "C", "D"], "B", ["C", "D", "A", "B", "C", "D"]),
])
def test_final_turns_accepts_two_to_four_players(players, trigger, turns):
    # [CN54] the round is finished, then everyone plays once more
    assert functions.final_turns({"players": players, "trigger": trigger}) == {"turns": turns}


@pytest.mark.parametrize("doc, field", [
    ({"players": ["A"], "trigger": "A"}, "players"),
    ({"players": ["A", "B", "C", "D", "E"], "trigger": "A"}, "players"),
])
def test_final_turns_refuses_one_or_five_players(doc, field):
    err = refused(functions.final_turns, doc, field)
    assert "2 to 4" in err.message


# --- manuscripts: placement, gold cards, visible counts ---------------------------------------

def test_contract_manuscript_example():
    doc = {"cards": [card(81, 0, 0), card(33, 1, -1), card(75, 0, -2)], "objectives": [90, 97, 99]}
    result = functions.manuscript(doc)
    # 75 (2 per covered corner) covers only 33's bottom-left corner: 2 points
    assert result["placement_points"] == [0, 0, 2]
    assert result["placement_total"] == 2
    # starter 81: plant and insect corners + insect centre (bottom-right empty corner covered by 33);
    # 33: insect top-left (its bottom-left insect is covered by 75); 75 shows only empty corners
    assert result["visible"] == {"fungi": 0, "plant": 1, "animal": 0, "insect": 3, "quill": 0, "inkwell": 0, "manuscript": 0}
    assert result["objectives"] == {"90": 0, "97": 0, "99": 0}


def test_resource_card_scores_its_printed_point():
    # 8 is a fungi resource card worth 1 [CN46]; on its back it gives it up [CN41]
    face_up = functions.manuscript({"cards": [card(82, 0, 0), card(8, 1, 1)], "objectives": []})
    face_down = functions.manuscript({"cards": [card(82, 0, 0), card(8, 1, 1, "back")], "objectives": []})
    assert face_up["placement_points"] == [0, 1]
    assert face_down["placement_points"] == [0, 0]


def test_gold_flat_points():
    # starter 82: fungi bottom-right corner and fungi centre. Card 1 covers the corner and shows
    # two fungi: 3 visible, enough for gold 47 (3 fungi, 3 points flat).
    doc = {"cards": [card(82, 0, 0), card(1, 1, -1), card(47, -1, -1)], "objectives": []}
    assert functions.manuscript(doc)["placement_points"] == [0, 0, 3]


def test_gold_per_covered_corner():
    # two backs beside the starter; gold 44 at (2, 0) covers a corner of each: 2 x 2 = 4
    doc = {"cards": [card(82, 0, 0), card(2, 1, 1, "back"), card(3, 1, -1, "back"), card(44, 2, 0)], "objectives": []}
    assert functions.manuscript(doc)["placement_points"] == [0, 0, 0, 4]


def test_gold_per_covered_corner_single_corner():
    doc = {"cards": [card(82, 0, 0), card(2, 1, 1, "back"), card(3, 1, -1, "back"), card(44, 2, 2)], "objectives": []}
    assert functions.manuscript(doc)["placement_points"] == [0, 0, 0, 2]


def test_gold_per_object_counts_its_own_and_not_the_covered():
    # quills: card 5's top-right and card 27's top-left. Gold 41 (1 per quill) covers card 5's
    # quill and shows its own: 2 - 1 + 1 = 2 points [CN48]
    doc = {"cards": [card(82, 0, 0), card(5, 1, -1), card(27, -1, -1), card(41, 2, 0)], "objectives": []}
    result = functions.manuscript(doc)
    assert result["placement_points"] == [0, 0, 0, 2]
    assert result["visible"]["quill"] == 2


def test_gold_per_object_later_objects_score_nothing_more():
    # [CN48] "An object added later scores nothing more"
    doc = {"cards": [card(82, 0, 0), card(5, 1, -1), card(27, -1, -1), card(41, 2, 0), card(15, -2, -2)], "objectives": []}
    result = functions.manuscript(doc)
    assert result["placement_points"][3] == 2
    assert result["visible"]["quill"] == 3


def test_gold_face_down_needs_nothing_and_scores_nothing():
    # [CN41] a card played face down gives up its points; no requirement is checked
    doc = {"cards": [card(81, 0, 0), card(50, 1, 1, "back")], "objectives": []}
    result = functions.manuscript(doc)
    assert result["placement_points"] == [0, 0]
    assert result["visible"]["fungi"] == 1  # the back's central resource


def test_requirement_counts_before_the_card_is_placed():
    # [CN42] gold 47 covers the fungi corner of card 1 that made its third fungi: still legal
    doc = {"cards": [card(82, 0, 0), card(1, 1, -1), card(47, 0, -2)], "objectives": []}
    result = functions.manuscript(doc)
    assert result["placement_points"] == [0, 0, 3]
    assert result["visible"]["fungi"] == 2


@pytest.mark.parametrize("cards, field, words", [
    ([card(81, 0, 0), card(103, 1, 1)], "cards[1].id", "unknown card number 103"),
    ([card(81, 0, 0), card(90, 1, 1)], "cards[1].id", "card 90 is an objective card"),
    ([card(81, 0, 0), card(5, 1, 1), card(5, -1, -1)], "cards[2]", "card 5 is played twice"),
    ([card(81, 0, 0), card(5, 3, 3)], "cards[1]", "card 5 at (3, 3) touches no card"),
    ([card(85, 0, 0), card(5, 1, -1)], "cards[1]", "card 5 at (1, -1) lands on a missing corner"),
    ([card(81, 0, 0), card(47, 1, 1)], "cards[1]", "card 47 is a gold card"),
    ([card(5, 0, 0)], "cards[0]", "card 5 is a resource card"),
    ([card(81, 1, 1)], "cards[0]", "card 81: the starter card lies at (0, 0)"),
    ([card(81, 0, 0), card(82, 1, 1)], "cards[1]", "card 82 is a starter card"),
    ([card(81, 0, 0), card(5, 1, 0)], "cards[1]", "card 5 at (1, 0): no such place"),
    ([card(81, 0, 0), card(5, 1, 1), card(6, 1, 1)], "cards[2]", "card 6 at (1, 1): that place already holds card 5"),
    ([card(81, 0, 0), {"id": 5, "side": "up", "x": 1, "y": 1}], "cards[1].side", "front"),
    ([card(81, 0, 0), {"id": 5, "side": "front", "x": 1, "y": 1, "z": 0}], "cards[1].z", "unknown key"),
])
def test_illegal_placement_names_the_card(cards, field, words):
    err = error_of(functions.manuscript, {"cards": cards, "objectives": []})
    assert err.field == field
    assert words in err.message


def test_hidden_corner_message_names_the_corner():
    # starter 85's bottom-right corner is missing
    err = error_of(functions.manuscript, {"cards": [card(85, 0, 0), card(5, 1, -1)], "objectives": []})
    assert "bottom-right corner of card 85 is hidden" in err.message


def test_gold_requirement_message_says_what_is_missing():
    err = error_of(functions.manuscript, {"cards": [card(81, 0, 0), card(47, 1, 1)], "objectives": []})
    assert "3 fungi" in err.message and "visible: 0 fungi" in err.message


def test_placing_on_a_hidden_corner_of_the_new_card_is_fine():
    # [CN72] only the corners of the card already in place matter: card 1's hidden
    # bottom-right corner may lie over the starter's top-left corner
    doc = {"cards": [card(82, 0, 0), card(1, -1, 1)], "objectives": []}
    assert functions.manuscript(doc)["placement_points"] == [0, 0]


def test_failed_placement_leaves_the_layout_unchanged():
    layout = Layout()
    layout.place(82, "front", 0, 0, "cards[0]")
    layout.place(1, "front", 1, -1, "cards[1]")
    before = (list(layout.placed), dict(layout.at), set(layout.covered), dict(layout.visible))
    with pytest.raises(RulesError):
        layout.place(50, "front", 2, 0, "cards[2]")  # needs 5 fungi
    assert (list(layout.placed), dict(layout.at), set(layout.covered), dict(layout.visible)) == before


def test_free_cells_leave_out_places_on_a_hidden_corner():
    # [CN40] a card covers visible corners of cards already in place; [CN72] a hidden corner
    # is no corner. Card 1 face up at (1, 1) hides its bottom-right corner, so (2, 0) is no place.
    layout = Layout()
    layout.place(83, "front", 0, 0, "cards[0]")
    layout.place(1, "front", 1, 1, "cards[1]")
    assert layout.free_cells() == [(-1, -1), (-1, 1), (0, 2), (1, -1), (2, 2)]


def legal_places(layout):
    """Every empty place where a fresh card face down could be laid, asked of Layout.check."""
    spare = next(i for i in range(1, 41) if all(p.id != i for p in layout.placed))
    xs = [p.x for p in layout.placed]
    ys = [p.y for p in layout.placed]
    found = []
    for x in range(min(xs) - 2, max(xs) + 3):
        for y in range(min(ys) - 2, max(ys) + 3):
            try:
                layout.check(spare, "back", x, y, "probe")
            except RulesError:
                continue
            found.append((x, y))
    return found


def test_free_cells_are_exactly_the_places_a_card_may_be_laid():
    # fixed random play areas: each step lays a random card, face up or down, on a free cell
    rng = random.Random(5)
    for _ in range(30):
        layout = Layout()
        layout.place(rng.randint(81, 86), rng.choice(["front", "back"]), 0, 0, "cards[0]")
        ids = rng.sample(range(1, 41), 12)
        for step, card_id in enumerate(ids, start=1):
            free = layout.free_cells()
            assert free == sorted(legal_places(layout))
            if not free:
                break
            x, y = rng.choice(free)
            layout.place(card_id, rng.choice(["front", "back"]), x, y, f"cards[{step}]")


@pytest.mark.parametrize("objectives, field", [
    ([90, 90], "objectives[1]"),
    ([5], "objectives[0]"),
    ([200], "objectives[0]"),
    (["90"], "objectives[0]"),
])
def test_manuscript_bad_objectives(objectives, field):
    assert error_of(functions.manuscript, {"cards": [card(81, 0, 0)], "objectives": objectives}).field == field


def diagonal(step):
    """Starter 83 face up (four empty, visible corners) and the 80 resource and gold cards face
    down, one per step from it: the longest play area there is, 81 cards [CN31]."""
    return [card(83, 0, 0)] + [card(i, i * step[0], i * step[1], "back") for i in range(1, 81)]


# The bounds of `manuscript` and why they are what they are:
# - cards: 1 (a play area starts with its starter card [CN34]) to 81 (the starter, 40 resource
#   and 40 gold cards [CN31]);
# - x and y: -80 to 80: 81 cards reach at most 80 steps from the starter at (0, 0);
# - objectives: 0 to 16 distinct objective cards [CN8].
def test_manuscript_accepts_the_longest_play_area_at_both_far_corners():
    for step in [(1, 1), (-1, -1)]:
        result = functions.manuscript({"cards": diagonal(step), "objectives": [87, 89]})
        assert result["placement_points"] == [0] * 81  # every card face down [CN41]
        # each back shows its kingdom in the centre [CN41]; the starter shows fungi and plant
        assert result["visible"] == {"fungi": 21, "plant": 21, "animal": 20, "insect": 20,
                                     "quill": 0, "inkwell": 0, "manuscript": 0}
        # fungi cards 1-10 and 41-50 lie in two runs of ten on the rising diagonal, as do the
        # animal cards 21-30 and 61-70: three disjoint diagonals per run [CN50], 2 points each
        assert result["objectives"] == {"87": 12, "89": 12}


@pytest.mark.parametrize("doc, placement_points", [
    ({"cards": [card(83, 0, 0)], "objectives": []}, [0]),                     # the fewest cards: the starter
    ({"cards": [card(83, 0, 0)], "objectives": list(range(87, 103))}, [0]),   # all 16 objective cards
])
def test_manuscript_accepts_its_lowest_and_highest_values(doc, placement_points):
    result = functions.manuscript(doc)
    assert result["placement_points"] == placement_points
    assert sorted(result["objectives"]) == sorted(str(o) for o in doc["objectives"])


@pytest.mark.parametrize("doc, field", [
    ({"cards": [], "objectives": []}, "cards"),
    ({"cards": diagonal((1, 1)) + [card(41, -1, -1)], "objectives": []}, "cards"),  # 82 cards
    ({"cards": [card(83, 0, 0), card(1, 81, 1)], "objectives": []}, "cards[1].x"),
    ({"cards": [card(83, 0, 0), card(1, -81, 1)], "objectives": []}, "cards[1].x"),
    ({"cards": [card(83, 0, 0), card(1, 1, 81)], "objectives": []}, "cards[1].y"),
    ({"cards": [card(83, 0, 0), card(1, 1, -81)], "objectives": []}, "cards[1].y"),
    ({"cards": [card(83, 0, 0)], "objectives": list(range(87, 103)) + [87]}, "objectives"),  # 17
])
def test_manuscript_refuses_values_beyond_its_bounds(doc, field):
    refused(functions.manuscript, doc, field)


def test_manuscript_refusal_says_the_accepted_numbers():
    # the message states what is allowed (CONTRACT "Errors")
    err = refused(functions.manuscript, {"cards": [card(83, 0, 0)], "objectives": list(range(87, 103)) + [87]}, "objectives")
    assert "0 to 16" in err.message
    err = refused(functions.manuscript, {"cards": [], "objectives": []}, "cards")
    assert "1 to 81" in err.message


@pytest.mark.parametrize("value", [True, False, [5], "5", 5.0, None])
def test_a_played_card_number_must_be_a_whole_number(value):
    # a JSON true is no card number: it must not be read as card 1
    doc = {"cards": [card(83, 0, 0), {"id": value, "side": "back", "x": 1, "y": 1}], "objectives": []}
    err = refused(functions.manuscript, doc, "cards[1].id")
    assert "must be a card number" in err.message


def test_manuscript_scores_every_count_objective():
    # starter 82 front: animal corner, fungi corner, fungi centre; card 6 (fungi) on its
    # bottom-right corner shows inkwell, fungi, animal (its bottom-left corner is missing)
    doc = {"cards": [card(82, 0, 0), card(6, 1, -1)], "objectives": [95, 96, 97, 98, 99, 100, 101, 102]}
    result = functions.manuscript(doc)
    assert result["visible"] == {"fungi": 2, "plant": 0, "animal": 2, "insect": 0, "quill": 0, "inkwell": 1, "manuscript": 0}
    assert result["objectives"] == {"95": 0, "96": 0, "97": 0, "98": 0, "99": 0, "100": 0, "101": 0, "102": 0}


def test_manuscript_counts_a_pattern_on_card_backs():
    # the match is on a card's kingdom, whichever side it shows (cards.md)
    cards = [card(81, 0, 0), card(1, 1, 1, "back"), card(2, 2, 2, "back"), card(3, 3, 3, "back")]
    result = functions.manuscript({"cards": cards, "objectives": [87, 95]})
    assert result["objectives"] == {"87": 2, "95": 2}
    assert result["occurrences"] == {"87": [[1, 2, 3]]}


def test_starter_has_no_colour():
    # a fungi diagonal through the starter is no diagonal
    cards = [card(83, 0, 0, "back"), card(1, 1, 1, "back"), card(2, -1, -1, "back")]
    assert functions.manuscript({"cards": cards, "objectives": [87]})["objectives"] == {"87": 0}


# --- patterns --------------------------------------------------------------------------------

def cells(*triples):
    return [{"x": x, "y": y, "kingdom": k} for x, y, k in triples]


def count(objective, *triples):
    return functions.patterns({"cells": cells(*triples), "objective": objective})["count"]


# each pattern as cards.md describes it, and the same cells mirrored (direction counts [CN49])
PATTERNS = {
    87: ([(0, 0, "fungi"), (1, 1, "fungi"), (2, 2, "fungi")], [(0, 0, "fungi"), (1, -1, "fungi"), (2, -2, "fungi")]),
    89: ([(0, 0, "animal"), (1, 1, "animal"), (2, 2, "animal")], [(0, 0, "animal"), (1, -1, "animal"), (2, -2, "animal")]),
    88: ([(0, 0, "plant"), (1, -1, "plant"), (2, -2, "plant")], [(0, 0, "plant"), (1, 1, "plant"), (2, 2, "plant")]),
    90: ([(0, 0, "insect"), (1, -1, "insect"), (2, -2, "insect")], [(0, 0, "insect"), (1, 1, "insect"), (2, 2, "insect")]),
    91: ([(0, 0, "fungi"), (0, -2, "fungi"), (1, -3, "plant")], [(0, 0, "fungi"), (0, -2, "fungi"), (-1, -3, "plant")]),
    92: ([(0, 0, "plant"), (0, -2, "plant"), (-1, -3, "insect")], [(0, 0, "plant"), (0, -2, "plant"), (1, -3, "insect")]),
    93: ([(0, 0, "animal"), (0, -2, "animal"), (1, 1, "fungi")], [(0, 0, "animal"), (0, -2, "animal"), (-1, 1, "fungi")]),
    94: ([(0, 0, "insect"), (0, -2, "insect"), (-1, 1, "animal")], [(0, 0, "insect"), (0, -2, "insect"), (1, 1, "animal")]),
}


@pytest.mark.parametrize("objective", sorted(PATTERNS))
def test_each_pattern_card_found_and_not_mirrored(objective):
    shape, mirrored = PATTERNS[objective]
    assert count(objective, *shape) == 1
    assert count(objective, *mirrored) == 0
    # moved anywhere on the grid it still counts
    assert count(objective, *[(x + 3, y - 5, k) for x, y, k in shape]) == 1


def test_pattern_needs_the_right_colours():
    assert count(91, (0, 0, "fungi"), (0, -2, "fungi"), (1, -3, "insect")) == 0


def test_column_of_four_holds_three_overlapping_l_shapes_but_counts_two():
    # fungi at y = 0, -2, -4, -6 and a plant beside each lower fungi: L-shapes anchored at
    # y = 0, -2 and -4, each sharing a fungi with the next: the first and third are disjoint
    layout = [(0, 0, "fungi"), (0, -2, "fungi"), (0, -4, "fungi"), (0, -6, "fungi"),
              (1, -3, "plant"), (1, -5, "plant"), (1, -7, "plant")]
    result = functions.patterns({"cells": cells(*layout), "objective": 91})
    assert result["count"] == 2
    assert sorted(result["occurrences"]) == [[0, 1, 4], [2, 3, 6]]


def test_column_of_four_cards_with_one_plant_holds_one_l_shape():
    layout = [(0, 0, "fungi"), (0, -2, "fungi"), (0, -4, "fungi"), (0, -6, "fungi"), (1, -7, "plant")]
    assert count(91, *layout) == 1


def test_line_of_six_holds_exactly_two_diagonals():
    # four overlapping occurrences on six cards; each card counts once [CN50]
    assert count(87, *[(i, i, "fungi") for i in range(6)]) == 2
    assert count(90, *[(i, -i, "insect") for i in range(6)]) == 2


def test_line_of_five_holds_one_diagonal():
    assert count(87, *[(i, i, "fungi") for i in range(5)]) == 1


def test_count_does_not_depend_on_the_order_cells_are_entered():
    # a scan that takes the first occurrence it meets, starting from cell (1, 1), would take
    # (1,1),(2,2),(3,3) and block the rest of the line: 1 instead of 2
    line = [(i, i, "fungi") for i in (1, 2, 3, 0, 4, 5)]
    result = functions.patterns({"cells": cells(*line), "objective": 87})
    assert result["count"] == 2
    assert sorted(result["occurrences"]) == [[2, 4, 5], [3, 0, 1]]


@pytest.mark.parametrize("doc, field", [
    ({"cells": cells((0, 0, "fungi")), "objective": 95}, "objective"),
    ({"cells": cells((0, 0, "fungi")), "objective": 7}, "objective"),
    ({"cells": cells((0, 1, "fungi")), "objective": 87}, "cells[0]"),
    ({"cells": cells((0, 0, "fungi"), (0, 0, "plant")), "objective": 87}, "cells[1]"),
    ({"cells": cells((0, 0, "mineral")), "objective": 87}, "cells[0].kingdom"),
    ({"cells": [{"x": 0, "y": 0}], "objective": 87}, "cells[0].kingdom"),
    ({"cells": [], "objective": 87, "extra": 1}, "extra"),
])
def test_patterns_bad_input(doc, field):
    assert error_of(functions.patterns, doc).field == field


# The bounds of `patterns` and why they are what they are:
# - cells: 0 to 80, the coloured cards of the longest play area (81 cards but the starter,
#   which has no colour [CN31]);
# - x and y: -80 to 80: 81 cards reach at most 80 steps from the starter at (0, 0).
@pytest.mark.parametrize("triples, expected", [
    ([], 0),                                                                     # no cells
    ([(i, i, "fungi") for i in range(-40, 40)], 26),                             # 80 cells in one line: 80 // 3
    ([(-80, -80, "fungi"), (-79, -79, "fungi"), (-78, -78, "fungi")], 1),       # the lowest x and y
    ([(78, 78, "fungi"), (79, 79, "fungi"), (80, 80, "fungi")], 1),             # the highest x and y
    ([(-80, 80, "fungi"), (80, -80, "fungi")], 0),
])
def test_patterns_accepts_its_lowest_and_highest_values(triples, expected):
    # objective 87: three fungi on a rising diagonal; each card counts once [CN50]
    assert count(87, *triples) == expected


@pytest.mark.parametrize("doc, field", [
    ({"cells": cells(*[(i, i, "fungi") for i in range(-40, 41)]), "objective": 87}, "cells"),  # 81 cells
    ({"cells": cells((81, 1, "fungi")), "objective": 87}, "cells[0].x"),
    ({"cells": cells((-81, 1, "fungi")), "objective": 87}, "cells[0].x"),
    ({"cells": cells((1, 81, "fungi")), "objective": 87}, "cells[0].y"),
    ({"cells": cells((1, -81, "fungi")), "objective": 87}, "cells[0].y"),
])
def test_patterns_refuses_values_beyond_its_bounds(doc, field):
    err = refused(functions.patterns, doc, field)
    if field == "cells":
        assert "0 to 80" in err.message  # the message states what is allowed


# --- the packing is exact ---------------------------------------------------------------------

def brute_force(sets):
    for size in range(len(sets), 0, -1):
        for combo in itertools.combinations(range(len(sets)), size):
            used = [e for i in combo for e in sets[i]]
            if len(used) == len(set(used)):
                return size
    return 0


@settings(max_examples=300, deadline=None)
@given(st.lists(st.frozensets(st.integers(0, 11), min_size=1, max_size=3), max_size=12))
def test_max_disjoint_matches_brute_force(sets):
    chosen = max_disjoint(sets)
    used = [e for i in chosen for e in sets[i]]
    assert len(used) == len(set(used))  # truly disjoint
    assert len(chosen) == brute_force(sets)


def test_max_disjoint_counterexample_where_a_set_meets_itself():
    # [CN50] each card used once per objective (CDX-C5): {5,6,7} conflicts with {5,10,11}, {7}
    # and {0,7,11}, yet {7}, {1,2,8} and {5,10,11} make three; found by mutation testing
    sets = [[5, 10, 11], [7], [1, 2, 8], [5, 6, 7], [0, 7, 11]]
    assert brute_force(sets) == 3
    chosen = max_disjoint(sets)
    assert len(chosen) == 3
    used = [e for i in chosen for e in sets[i]]
    assert len(used) == len(set(used))


def test_max_disjoint_counterexample_where_the_branch_vertex_must_be_counted():
    # [CN50] each card used once per objective (CDX-C5): 14 three-card sets, each meeting at
    # least two others, so no set can be taken outright and the search branches; a branch that
    # took a set without counting it found 5 here. Found by mutation testing; the brute force
    # gives the answer.
    sets = [[7, 12, 9], [7, 11, 14], [6, 16, 1], [0, 5, 4], [20, 9, 19], [10, 14, 2], [13, 18, 6],
            [0, 5, 19], [5, 0, 15], [16, 6, 13], [17, 1, 12], [15, 13, 4], [3, 8, 20], [9, 20, 10]]
    assert brute_force(sets) == 6
    chosen = max_disjoint(sets)
    assert len(chosen) == 6
    used = [e for i in chosen for e in sets[i]]
    assert len(used) == len(set(used))


@pytest.mark.parametrize("sets, expected", [
    # a branch that left a set out must be compared by its size, not by the sets it chose
    ([[11, 2, 0], [10, 14, 3], [5, 4, 7], [15, 4, 23], [7, 24, 14], [4, 24, 3], [13, 1, 0], [18, 0, 1], [7, 11, 0]], 3),
    # a remembered result must be an exact one: a branch cut short must not be stored
    ([[2, 8, 22], [17, 10, 9], [1, 8, 12], [4, 14, 13], [0, 7, 12], [11, 7, 23], [6, 1, 19], [16, 0, 5],
      [19, 15, 11], [20, 4, 10], [13, 16, 20], [3, 5, 12], [23, 7, 19], [2, 9, 19], [4, 21, 9]], 6),
])
def test_max_disjoint_counterexamples_found_by_mutation_testing(sets, expected):
    # [CN50] each card used once per objective (CDX-C5); the brute force gives the answer
    assert brute_force(sets) == expected
    chosen = max_disjoint(sets)
    assert len(chosen) == expected
    used = [e for i in chosen for e in sets[i]]
    assert len(used) == len(set(used))


def test_max_disjoint_finds_24_disjoint_sets_hidden_among_a_hundred():
    # 72 cards split into 24 disjoint three-card sets, hidden among 76 more random three-card
    # sets: no packing can use more than 72 / 3 = 24 sets, and those 24 reach it, so the answer
    # is 24 [CN50]. (How fast is bench/codex_patterns.py's business; a bound loosened so far
    # that the search runs for minutes is stopped by the per-test timeout.)
    rng = random.Random(3)
    cards = list(range(72))
    rng.shuffle(cards)
    sets = [cards[3 * i:3 * i + 3] for i in range(24)] + [rng.sample(range(72), 3) for _ in range(76)]
    rng.shuffle(sets)
    chosen = max_disjoint(sets)
    used = [e for i in chosen for e in sets[i]]
    assert len(used) == len(set(used))
    assert len(chosen) == 24


def matches_brute_force_on_random_families(seed, families, cards, smallest, fewest):
    """Check max_disjoint against brute_force on the same seeded families on every run."""
    rng = random.Random(seed)
    for _ in range(families):
        sets = [rng.sample(range(cards), rng.randint(smallest, 3)) for _ in range(rng.randint(fewest, 11))]
        chosen = max_disjoint(sets)
        used = [e for i in chosen for e in sets[i]]
        assert len(used) == len(set(used)), sets
        assert len(chosen) == brute_force(sets), sets


def test_max_disjoint_matches_brute_force_on_fixed_random_families():
    # the same 400 families on every run, so a fault is caught every time, not by luck
    matches_brute_force_on_random_families(17, 400, cards=12, smallest=1, fewest=0)


def take_or_leave(sets):
    """The largest packing's size by the plain recursion: the last set is taken or left out.

    An independent check for families too large for brute_force's combinations; it cuts
    nothing, and only remembers the answer per remaining family."""
    conflicts = [sum(1 << j for j, other in enumerate(sets) if j != i and set(s) & set(other))
                 for i, s in enumerate(sets)]

    @functools.cache
    def best(left):
        if not left:
            return 0
        i = left.bit_length() - 1
        rest = left & ~(1 << i)
        return max(best(rest), 1 + best(rest & ~conflicts[i]))

    return best((1 << len(sets)) - 1)


def test_max_disjoint_matches_an_uncut_search_on_larger_families():
    # 12 to 20 sets, where the bound and the remembered results start to cut branches; the same
    # 3,000 families on every run (mutation testing found faults only a few families this size show)
    rng = random.Random(41)
    for _ in range(3000):
        n = rng.randint(12, 20)
        cards = rng.randint(n // 2, 2 * n)
        sets = [rng.sample(range(cards), rng.randint(1, 4)) for _ in range(n)]
        chosen = max_disjoint(sets)
        used = [e for i in chosen for e in sets[i]]
        assert len(used) == len(set(used)), sets
        assert len(chosen) == take_or_leave(sets), sets


@pytest.mark.parametrize("sets, expected", [
    ([[]], 1),
    ([[], []], 2),
    ([[1], [], [1]], 2),
    ([[1, 2], [], [2, 3], [], [3, 1]], 3),
])
def test_max_disjoint_always_takes_an_empty_set(sets, expected):
    # an empty set shares no card with any other, so every largest packing holds it
    assert brute_force(sets) == expected
    chosen = max_disjoint(sets)
    assert len(chosen) == expected
    assert all(i in chosen for i, s in enumerate(sets) if not s)


def test_max_disjoint_matches_brute_force_on_fixed_random_families_with_empty_sets():
    # max_disjoint takes any family of sets; empty ones must neither be lost nor hang the search
    matches_brute_force_on_random_families(29, 300, cards=10, smallest=0, fewest=1)


@settings(max_examples=150, deadline=None)
@given(st.dictionaries(st.tuples(st.integers(0, 4), st.integers(0, 4)).map(lambda p: (p[0] * 2 - p[1] % 2, p[1])),
                       st.sampled_from(["fungi", "plant"]), max_size=14),
       st.sampled_from([87, 88, 91]))
def test_pattern_count_matches_brute_force_on_small_grids(grid, objective):
    # every occurrence found by a direct scan of the shape, then the brute-force maximum
    shape = PATTERNS[objective][0]
    occurrences = []
    for (x, y) in grid:
        cells_ = [(x + dx, y + dy) for dx, dy, _ in shape]
        if all(grid.get(c) == k for c, (_, _, k) in zip(cells_, shape)):
            occurrences.append(cells_)
    doc = {"cells": [{"x": x, "y": y, "kingdom": k} for (x, y), k in grid.items() if (x + y) % 2 == 0],
           "objective": objective}
    if len(doc["cells"]) != len(grid):
        return  # odd cells are not on the grid; the generator keeps x + y even
    assert functions.patterns(doc)["count"] == brute_force(occurrences)


def test_functions_are_registered():
    assert sorted(GAME.functions) == ["final_turns", "manuscript", "patterns", "score"]
    assert all(f.summary for f in GAME.functions.values())


@pytest.mark.parametrize("card_id, words", [
    # the patterns as data/codex/cards.md describes them
    (87, "3 fungi cards on a rising diagonal"), (88, "3 plant cards on a falling diagonal"),
    (89, "3 animal cards on a rising diagonal"), (90, "3 insect cards on a falling diagonal"),
    (91, "2 fungi cards stacked, 1 plant card at the lower one's bottom-right corner"),
    (92, "2 plant cards stacked, 1 insect card at the lower one's bottom-left corner"),
    (93, "2 animal cards stacked, 1 fungi card at the upper one's top-right corner"),
    (94, "2 insect cards stacked, 1 animal card at the upper one's top-left corner"),
])
def test_pattern_cards_are_described_as_the_notes_say(card_id, words):
    from companion.games.codex import cards

    assert cards.objective_text(cards.card(card_id)).endswith(words)


@pytest.mark.parametrize("card_id, words", [
    # the count objectives as data/codex/cards.md describes them (95-98 resources, 99-102 objects)
    (95, "2 per set of 3 visible fungi symbols"), (98, "2 per set of 3 visible insect symbols"),
    (99, "3 per set of quill + inkwell + manuscript"),
    (100, "2 per pair of manuscripts"), (101, "2 per pair of inkwells"), (102, "2 per pair of quills"),
])
def test_count_objective_cards_are_described_as_the_notes_say(card_id, words):
    from companion.games.codex import cards

    assert cards.objective_text(cards.card(card_id)) == words


def test_catalogue_numbers_cards_as_the_notes_say():
    # data/codex/cards.md: 1-40 resource, 41-80 gold, 81-86 starter [CN31], 87-102 objective
    # cards, of which 87-94 are the eight pattern cards [CN8, CN49]
    from companion.games.codex import cards

    assert sorted(cards.playable_ids()) == list(range(1, 87))
    assert sorted(cards.objective_ids()) == list(range(87, 103))
    assert sorted(cards.pattern_ids()) == list(range(87, 95))


@pytest.mark.parametrize("card_id, words", [
    (81, "card 81, starter"), (90, "card 90, objective"), (99, "card 99, objective"),
    (33, "card 33, insect resource"), (47, "card 47, fungi gold"),
])
def test_cards_are_named_by_number_kind_and_kingdom(card_id, words):
    # the kingdoms and kinds of data/codex/cards.md
    from companion.games.codex import cards

    assert cards.label(cards.card(card_id)) == words
