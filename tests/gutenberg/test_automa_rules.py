"""The automa's marker moves and execution draws, on hand-worked cases (RULES.md D2)."""

import copy
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.games import get
from companion.games.gutenberg import automa
from companion.games.validation import RulesError

GAME = get("gutenberg")
ACTIONS = ["take_orders", "take_inks", "develop_specialties", "improve_printing_houses", "patronage"]


def m(*counts):
    return dict(zip(ACTIONS, counts))


def plan(markers, moves, centre="take_orders"):
    return GAME.functions["automa_plan"].run({"markers": markers, "card": {"centre": centre, "moves": moves}})


def round_end(markers, centre, change):
    return GAME.functions["automa_round_end"].run({"markers": markers, "centre": centre, "change": change})


def execute(doc):
    return GAME.functions["automa_execute"].run(doc)


def error(name, doc):
    before = copy.deepcopy(doc)
    with pytest.raises(RulesError) as info:
        GAME.functions[name].run(doc)
    assert doc == before
    return info.value


# --- planning cards -------------------------------------------------------------------------

def test_arrow_moves_one_marker_forward():
    result = plan(m(2, 1, 1, 2, 1), [["take_orders", "take_inks"]])
    assert result["markers"] == m(1, 2, 1, 2, 1)
    assert result["steps"][0]["moved"] == "forward"


def test_reverse_arrow_when_the_first_action_is_empty():
    result = plan(m(0, 3, 1, 2, 1), [["take_orders", "take_inks"]])
    assert result["markers"] == m(1, 2, 1, 2, 1)
    assert result["steps"][0]["moved"] == "reverse"


def test_both_empty_does_nothing():
    result = plan(m(0, 0, 3, 2, 2), [["take_orders", "take_inks"]])
    assert result["markers"] == m(0, 0, 3, 2, 2)
    assert result["steps"][0]["moved"] is None


def test_destination_at_six_does_nothing_and_does_not_reverse():
    result = plan(m(1, 6, 0, 0, 0), [["take_orders", "take_inks"]])
    assert result["markers"] == m(1, 6, 0, 0, 0)
    assert result["steps"][0]["moved"] is None


def test_min_to_max_with_ties_scanned_from_the_centre_icon():
    # fewest: take_orders, develop and patronage (1 each); most: take_inks and improve (2 each)
    markers = m(1, 2, 1, 2, 1)
    # centre develop: the scan starts on develop itself -> min develop; then improve -> max improve
    assert plan(markers, [["min", "max"]], centre="develop_specialties")["markers"] == m(1, 2, 0, 3, 1)
    # centre take_inks: min scan take_inks, develop (1) -> develop; max -> take_inks (the start counts)
    assert plan(markers, [["min", "max"]], centre="take_inks")["markers"] == m(1, 3, 0, 2, 1)
    # centre patronage: min -> patronage itself; max wraps to the top: take_inks
    assert plan(markers, [["min", "max"]], centre="patronage")["markers"] == m(1, 3, 1, 2, 0)


def test_max_to_min_re_evaluated_before_each_arrow():
    # two arrows max -> min: after the first, the layout changes and so do max and min
    result = plan(m(4, 0, 1, 1, 1), [["max", "min"], ["max", "min"]], centre="take_orders")
    # first: max take_orders (4), min take_inks (0) -> m(3,1,1,1,1)
    # second: max take_orders (3), min tie take_inks..patronage (1): scan from take_orders -> take_inks
    assert result["markers"] == m(2, 2, 1, 1, 1)
    assert [(s["from"], s["to"]) for s in result["steps"]] == [("take_orders", "take_inks")] * 2


def test_min_equal_to_max_does_nothing():
    # all actions tied at... cannot be all equal with 7 to 10 markers except 2,2,2,2,2 = 10
    result = plan(m(2, 2, 2, 2, 2), [["min", "max"]], centre="patronage")
    assert result["markers"] == m(2, 2, 2, 2, 2)


def test_plan_keeps_the_marker_total():
    markers = m(2, 1, 1, 2, 1)
    result = plan(markers, [["take_orders", "patronage"], ["min", "max"], ["max", "take_inks"]])
    assert sum(result["markers"].values()) == 7


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(0, 6), min_size=5, max_size=5).filter(lambda c: 7 <= sum(c) <= 10),
       st.lists(st.tuples(st.sampled_from(ACTIONS + ["min", "max"]), st.sampled_from(ACTIONS + ["min", "max"]))
                .filter(lambda t: t[0] != t[1]), max_size=4),
       st.sampled_from(ACTIONS))
def test_plan_never_breaks_the_six_cap_or_the_total(counts, moves, centre):
    result = plan(m(*counts), [list(x) for x in moves], centre)["markers"]
    assert sum(result.values()) == sum(counts)
    assert all(0 <= v <= 6 for v in result.values())


# --- round end ----------------------------------------------------------------------------

def test_gives_from_the_fullest_action_with_the_centre_scan():
    # most: take_inks and patronage (3 each); scan from improve: improve, patronage -> patronage
    result = round_end(m(1, 3, 0, 1, 3), "improve_printing_houses", -1)
    assert result["markers"] == m(1, 3, 0, 1, 2)
    assert result["taken"] == ["patronage"]


def test_several_markers_received_one_after_another():
    # fewest start: develop (0). Then the ones are take_orders, develop, improve: scan from take_inks
    result = round_end(m(1, 3, 0, 1, 2), "take_inks", 3)
    assert result["placed"] == ["develop_specialties", "develop_specialties", "improve_printing_houses"]
    assert result["markers"] == m(1, 3, 2, 2, 2)


def test_received_marker_with_ties_scans_downward_and_wraps():
    # fewest (1): take_orders, take_inks; scan from develop wraps to the top: take_orders
    result = round_end(m(1, 1, 2, 2, 2), "develop_specialties", 1)
    assert result["markers"] == m(2, 1, 2, 2, 2)


def test_round_end_totals_stay_within_holdings():
    e = error("automa_round_end", {"markers": m(2, 1, 1, 2, 1), "centre": "take_orders", "change": -1})
    assert e.field == "change"
    e = error("automa_round_end", {"markers": m(2, 2, 2, 2, 1), "centre": "take_orders", "change": 2})
    assert e.field == "change"
    assert error("automa_round_end", {"markers": m(2, 1, 1, 2, 1), "centre": "x", "change": 1}).field == "centre"
    assert error("automa_round_end", {"markers": m(2, 1, 1, 2, 1), "centre": "patronage", "change": 0}).field == "change"


# --- execution draws ------------------------------------------------------------------------

def test_execution_draw_never_stops_on_an_empty_space():
    for seed in range(200):
        result = execute({"action": "take_inks", "available": [3], "seed": seed})
        assert result["space"] == 3
        assert result["drawn"][-1] == 3
        assert 3 not in result["drawn"][:-1]
        assert sorted(result["drawn"]) == sorted(set(result["drawn"]))


def test_execution_draw_with_nothing_available_draws_all_four_and_takes_nothing():
    result = execute({"action": "improve_printing_houses", "available": [], "seed": 5})
    assert result["space"] is None
    assert sorted(result["drawn"]) == [1, 2, 3, 4]


def test_execution_draws_are_seeded():
    doc = {"action": "develop_specialties", "available": [1, 2, 3, 4], "seed": 11}
    assert execute(doc) == execute(doc)


def test_each_action_starts_from_the_full_deck():
    # every card can be the first one drawn, for every action: the deck is whole again each time
    firsts = {execute({"action": "patronage", "available": [1, 2, 3, 4], "seed": s})["space"] for s in range(100)}
    assert firsts == {1, 2, 3, 4}


def test_take_orders_draws_each_card_from_a_full_reshuffled_deck():
    seen_same = False
    for seed in range(100):
        result = execute({"action": "take_orders", "available": {"printing": [1, 2], "refinement": [1, 2]},
                          "seed": seed})
        p, r = result["printing"], result["refinement"]
        assert p["space"] in (1, 2) and r["space"] in (1, 2)
        seen_same = seen_same or p["space"] == r["space"]
    # with one deck the two numbers could never match (RULES.md GUT-C9); reshuffled they can
    assert seen_same


def test_take_orders_one_deck_reading_goes_on_with_the_same_deck():
    for seed in range(50):
        result = execute({"action": "take_orders", "deck": "one_deck", "seed": seed,
                          "available": {"printing": [1, 2, 3, 4], "refinement": [1, 2, 3, 4]}})
        p, r = result["printing"], result["refinement"]
        assert p["space"] != r["space"]
        assert not set(p["drawn"]) & set(r["drawn"])


def test_draw_helper_walks_the_given_deck():
    assert automa.draw([4, 2, 1, 3], {1, 3}) == (1, [4, 2, 1])
    assert automa.draw([4, 2, 1, 3], set()) == (None, [4, 2, 1, 3])
    deck = automa.shuffled_deck(random.Random(1))
    assert sorted(deck) == [1, 2, 3, 4]


# --- bad input ------------------------------------------------------------------------------

@pytest.mark.parametrize("doc,field", [
    ({"action": "take_inks", "available": [0]}, "available[0]"),
    ({"action": "take_inks", "available": [5]}, "available[0]"),
    ({"action": "take_inks", "available": [2, 2]}, "available[1]"),
    ({"action": "take_inks", "available": [1, 2, 3, 4, 1]}, "available"),
    ({"action": "take_ink", "available": [1]}, "action"),
    ({"action": "take_orders", "available": [1]}, "available"),
    ({"action": "take_orders", "available": {"printing": [1], "refinement": [9]}}, "available.refinement[0]"),
    ({"action": "take_inks", "available": [1], "seed": -1}, "seed"),
    ({"action": "take_inks", "available": [1], "seed": "x"}, "seed"),
])
def test_execute_bad_input(doc, field):
    assert error("automa_execute", doc).field == field


@pytest.mark.parametrize("card,field", [
    ({"centre": "patronage", "moves": [["take_orders", "printing"]]}, "card.moves[0][1]"),
    ({"centre": "patronage", "moves": [["take_orders", "take_orders"]]}, "card.moves[0]"),
    ({"centre": "patronage", "moves": [["take_orders"]]}, "card.moves[0]"),
    ({"centre": "middle", "moves": []}, "card.centre"),
    ({"centre": "patronage", "moves": [], "colour": "red"}, "card.colour"),
    ({"centre": "patronage", "moves": [], "patronage": "yes"}, "card.patronage"),
])
def test_plan_bad_card(card, field):
    assert error("automa_plan", {"markers": m(2, 1, 1, 2, 1), "card": card}).field == field


@pytest.mark.parametrize("markers,field", [
    (m(7, 0, 0, 0, 0), "markers.take_orders"),
    (m(1, 1, 1, 1, 1), "markers"),
    (m(3, 3, 3, 3, 0), "markers"),
    (dict(m(2, 1, 1, 2, 1), gears=1), "markers.gears"),
])
def test_plan_bad_markers(markers, field):
    doc = {"markers": markers, "card": {"centre": "patronage", "moves": []}}
    assert error("automa_plan", doc).field == field
