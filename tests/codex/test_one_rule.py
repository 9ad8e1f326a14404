"""One way for each rule (issue 30): the table, the history, the pages and the JSON functions
follow the tested function of rules.py, so that none of them can drift from it.

Each test drives the running code (events folded as the framework does, the view, the JSON
functions) and compares what it did with what the rule function says.
"""

from __future__ import annotations

import copy

import pytest

from companion.games.base import Context
from companion.games.codex import GAME, functions, rules, view
from companion.games.codex import cards as catalogue
from companion.games.codex.calculator import needs
from companion.games.validation import RulesError

NAMES = ["Anna", "Ben", "Cara"]


def apply(state, type_, data):
    return GAME.apply(state, type_, data, Context(names=tuple(NAMES), seed=3))


def fold(events, **options):
    state = GAME.initial_state(NAMES, GAME.validate_options(options, len(NAMES)), {})
    for type_, data in events:
        state = apply(state, type_, data)
    return state


def refused(state, type_, data) -> RulesError | None:
    """The refusal of an event, or None when it is taken (the state is left as it was either way)."""
    before = copy.deepcopy(state)
    try:
        apply(state, type_, data)
    except RulesError as err:
        return err
    finally:
        assert state == before
    return None


# --- gold cards [CN47-48] --------------------------------------------------------------------------

@pytest.mark.parametrize("corners", [1, 2, 3, 4])
def test_the_gold_corner_helper_scores_as_the_rule_and_says_so(corners):
    state = fold([("gold_corners", {"player": 1, "corners": corners})])
    assert state["scores"][1] == rules.gold_corner_points(corners) == 2 * corners  # [CN47] 2 per corner
    assert GAME.describe("gold_corners", {"player": 1, "corners": corners}, NAMES).endswith(f": +{rules.gold_corner_points(corners)}")


def test_a_fifth_corner_is_refused_as_a_card_has_four():
    assert len(catalogue.CORNERS) == 4
    assert refused(fold([]), "gold_corners", {"player": 0, "corners": len(catalogue.CORNERS) + 1}).field == "data.corners"


def test_the_gold_object_helper_scores_as_the_rule():
    state = fold([("gold_objects", {"player": 0, "object": "inkwell", "count": 4})])
    assert state["scores"][0] == rules.gold_object_points(4) == 4  # [CN48] 1 per visible copy
    assert GAME.describe("gold_objects", {"player": 0, "object": "inkwell", "count": 4}, NAMES).endswith(": +4")


def test_the_helpers_score_what_a_played_gold_card_of_the_manuscript_scores():
    # every gold card that scores per corner or per object prints the points the helpers add
    for cid in catalogue.playable_ids():
        c = catalogue.card(cid)
        if c["kind"] != "gold" or c["scoring"] == "flat":
            continue
        per = rules.GOLD_PER_CORNER if c["scoring"] == "per_covered_corner" else rules.GOLD_PER_OBJECT
        assert c["points"] == per, cid
    # gold 44 (2 per covered corner) laid over a corner of each of two backs, in a manuscript on the
    # table: the score track moves by what the corner helper adds for 2 corners
    plays = [(82, "front", 0, 0), (2, "back", 1, 1), (3, "back", 1, -1), (44, "front", 2, 0)]
    state = fold([("play_card", {"player": 0, "id": i, "side": s, "x": x, "y": y}) for i, s, x, y in plays])
    assert state["scores"][0] == fold([("gold_corners", {"player": 0, "corners": 2})])["scores"][0] == rules.gold_corner_points(2)


# --- the last turns [CN53-55] ------------------------------------------------------------------------

def steps():
    """A game through its end, one event at a time: Ben (2nd of 3) reaches 20, then the last turns."""
    yield ("first_player", {"player": 0})
    yield ("points", {"player": 1, "delta": 20})
    for _ in range(4):  # Cara, then everyone once more [CN54]
        yield ("turn_played", {})


def test_the_banner_the_word_the_tick_and_the_finish_follow_the_last_turns_rule():
    state = fold([])
    seen = set()
    for type_, data in steps():
        state = apply(state, type_, data)
        end = state["end"]
        left = rules.last_turns_left(end)
        seen.add(left)
        banner = GAME.view(state, NAMES, {}, {}, None)["banner"]
        assert (banner or {}).get("left") == left
        # a tick is taken while last turns are left, refused once none is
        assert (refused(state, "turn_played", {}) is None) == bool(left)
        # points now are a correction (said so) exactly when every last turn is played
        assert (apply(state, "points", {"player": 2, "delta": 1})["notice"] is not None) == rules.may_finish(end)
        assert (refused(state, "finish", {}) is None) == rules.may_finish(end)
    assert seen == {None, 4, 3, 2, 1, 0}


# --- the diagonal grid ----------------------------------------------------------------------------------

@pytest.mark.parametrize("x, y", [(1, 1), (1, 0), (0, -1), (-1, -1), (2, 0), (-3, 2), (0, 2)])
def test_every_place_the_app_takes_is_on_the_rules_grid(x, y):
    on = rules.on_grid(x, y)
    assert on == ((x + y) % 2 == 0)
    # the manuscript: a place off the grid is refused before anything else is looked at
    err = refused(fold([("play_card", {"player": 0, "id": 81, "side": "front", "x": 0, "y": 0})]),
                  "play_card", {"player": 0, "id": 1, "side": "back", "x": x, "y": y})
    assert (err is not None and "no such place" in err.message) == (not on)
    # the patterns function
    doc = {"objective": 91, "cells": [{"x": x, "y": y, "kingdom": "fungi"}]}
    if on:
        assert functions.patterns(doc)["count"] == 0
    else:
        with pytest.raises(RulesError, match="no place on the grid"):
            functions.patterns(doc)
    # the grid editor offers exactly the places on the grid
    grid = GAME.view(fold([("common_objectives", {"cards": [91, 95]})]), NAMES, {}, {}, "grid-0-91")["grid"]["grid"]
    assert all(rules.on_grid(c["x"], c["y"]) for c in grid["cells"])
    if abs(x) <= 4 and abs(y) <= 5:
        assert ((x, y) in {(c["x"], c["y"]) for c in grid["cells"]}) == on


# --- what an objective is scored from --------------------------------------------------------------------

@pytest.mark.parametrize("oid", catalogue.objective_ids())
def test_the_counter_asks_what_the_objective_is_scored_from(oid):
    common = [o for o in (87, 95, 102) if o != oid][:2]
    state = fold([("common_objectives", {"cards": common}), ("secret_objective", {"player": 0, "card": oid})])
    counter = view.counter_view(state, 0)
    wanted = [s for o in rules.objectives(common, oid) for s in needs(o)[0]]
    assert counter["symbols"] == [s for s in catalogue.SYMBOLS if s in wanted]
    assert [p["card"] for p in counter["patterns"]] == [o for o in rules.objectives(common, oid) if needs(o)[1]]


def test_a_players_objectives_are_the_commons_then_the_secret():
    assert rules.objectives([91, 95], None) == [91, 95]
    assert rules.objectives([91, 95], 102) == [91, 95, 102]
    state = fold([("common_objectives", {"cards": [91, 95]}), ("secret_objective", {"player": 2, "card": 102})])
    assert GAME.view(state, NAMES, {}, {}, "end")["players"][2]["objectives"] == rules.objectives(state["common"], 102)
    # a pattern count of a card no longer among them is dropped, as the rule's list says
    state = apply(apply(state, "pattern_count", {"player": 2, "card": 91, "delta": 2}), "common_objectives", {"cards": [88, 95]})
    assert state["patterns"][2] == {}


def test_the_two_common_objectives_are_the_rules_number():
    assert rules.COMMON_OBJECTIVES == 2  # [CN35] two objective cards face up
    for cards in ([91], [91, 95, 102]):
        assert refused(fold([]), "common_objectives", {"cards": cards}).field == "data.cards"


# --- a pattern laid out in colours ---------------------------------------------------------------------

def test_an_end_card_keeps_a_layout_whose_count_the_pattern_rule_gives():
    column = [{"x": 0, "y": y, "kingdom": "fungi"} for y in (0, -2, -4, -6)] + \
             [{"x": 1, "y": y, "kingdom": "plant"} for y in (-3, -5, -7)]
    state = fold([("common_objectives", {"cards": [91, 95]}), ("pattern_grid", {"player": 0, "card": 91, "cells": column})])
    counted = len(rules.count_pattern({(c["x"], c["y"]): c["kingdom"] for c in column}, 91))
    assert counted == 2
    kept = apply(state, "sheet", {"player": 0, "patterns": {"91": counted}})
    assert kept["patterns"][0]["91"] == {"cells": column}
    typed = apply(state, "sheet", {"player": 0, "patterns": {"91": counted + 1}})
    assert typed["patterns"][0]["91"] == {"count": counted + 1}
