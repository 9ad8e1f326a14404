"""The automa's marker moves and execution draws, on hand-worked cases (RULES.md D2)."""

import copy
import dataclasses
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.games import get
from companion.games.gutenberg import automa
from companion.games.gutenberg.functions import check_card
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


def test_reverse_arrow_moves_the_second_actions_last_marker():
    # [GB358] "If the first action has no marker, then instead move a marker from the second action
    # to the first": one marker on the second action is enough to move back
    result = plan(m(0, 1, 2, 2, 2), [["take_orders", "take_inks"]])
    assert result["markers"] == m(1, 0, 2, 2, 2)
    assert result["steps"][0]["moved"] == "reverse"


def test_a_planning_step_once_recorded_cannot_be_altered():
    # [GB358] a step records what one arrow did; the table keeps it as history, so it is read-only
    _markers, step = automa.arrow(m(2, 1, 1, 2, 1), "take_orders", "take_inks", "take_orders")
    assert (step.source, step.target, step.moved) == ("take_orders", "take_inks", "forward")
    with pytest.raises(dataclasses.FrozenInstanceError):
        step.moved = "reverse"


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


def test_received_marker_never_goes_onto_an_action_with_six():
    # [GB367] "If an action already has 6 initiative markers, do not move another marker to it."
    # Through the checks the emptiest action never holds 6 (at most 10 markers), so the helper
    # refuses outright rather than break the cap when every action is full
    with pytest.raises(ValueError):
        automa.receive_markers(m(6, 6, 6, 6, 6), "take_orders", 1)
    # one short of full: the marker goes onto the only action below 6
    assert automa.receive_markers(m(6, 6, 5, 6, 6), "take_orders", 1) == (m(6, 6, 6, 6, 6), ["develop_specialties"])


# change: -1 when another player passes the token (the automa gives one marker [GB292]), or 1 to 3
# when the automa passed it (one from each other player, at most 3 others at 4 seats [GB77]);
# the total stays 7 to 10 (the automa's 7 [GB318], at most 10 like any seat [GB77])
@pytest.mark.parametrize("markers,change,after", [
    (m(2, 2, 2, 1, 1), -1, m(1, 2, 2, 1, 1)),  # lowest change; 8 -> 7, the lowest total
    (m(2, 1, 1, 2, 1), 1, m(2, 2, 1, 2, 1)),  # 7 -> 8; fewest (1) scanned from take_orders: take_inks
    (m(2, 1, 1, 2, 1), 3, m(2, 2, 2, 2, 2)),  # highest change; 7 -> 10, the highest total
])
def test_round_end_change_bounds_accepted(markers, change, after):
    assert round_end(markers, "take_orders", change)["markers"] == after


@pytest.mark.parametrize("markers,change,words", [
    (m(2, 2, 2, 2, 1), -2, "must be a whole number from -1 to 3"),  # 9 -> 7 would fit; -2 never happens
    (m(2, 1, 1, 2, 1), 4, "must be a whole number from -1 to 3"),  # nobody receives 4 markers
    (m(2, 1, 1, 2, 1), 0, "must be -1"),
    (m(2, 1, 1, 2, 1), -1, "would hold 6"),  # 7 -> 6: below the automa's 7
    (m(2, 2, 2, 2, 1), 2, "would hold 11"),  # 9 -> 11: above 10
])
def test_round_end_change_bounds_refused(markers, change, words):
    e = error("automa_round_end", {"markers": markers, "centre": "take_orders", "change": change})
    assert e.field == "change" and words in e.message


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


@pytest.mark.parametrize("seed", [0, 2**63 - 1])
def test_execution_seed_bounds_accepted(seed):
    # a seed is any whole number from 0 to 2**63 - 1 (a generous bound: a signed 64-bit integer,
    # what clients carry without loss); the same seed gives the same draw
    doc = {"action": "take_inks", "available": [1, 2, 3, 4], "seed": seed}
    result = execute(doc)
    assert result["space"] in (1, 2, 3, 4) and result["drawn"] == [result["space"]]
    assert execute(doc) == result


@pytest.mark.parametrize("seed", [-1, 2**63])
def test_execution_seed_bounds_refused(seed):
    e = error("automa_execute", {"action": "take_inks", "available": [1], "seed": seed})
    assert e.field == "seed" and e.message == "must be a whole number from 0 to 9223372036854775807"


def test_execution_spaces_bounds_accepted():
    # [GB337] the 4 execution cards name spaces 1 to 4; each space listed once, so 0 to 4 of them
    # none available: all four cards drawn, nothing taken (GUT-C10)
    result = execute({"action": "take_inks", "available": [], "seed": 3})
    assert result["space"] is None and sorted(result["drawn"]) == [1, 2, 3, 4]
    # all four available: the first card drawn names the space
    result = execute({"action": "take_inks", "available": [4, 3, 2, 1], "seed": 3})
    assert result["space"] in (1, 2, 3, 4) and result["drawn"] == [result["space"]]


@pytest.mark.parametrize("available,field,words", [
    ([0], "available[0]", "from 1 to 4"),
    ([5], "available[0]", "from 1 to 4"),
    ([1, 2, 3, 4, 1], "available", "must hold 0 to 4 items"),
])
def test_execution_spaces_bounds_refused(available, field, words):
    e = error("automa_execute", {"action": "take_inks", "available": available, "seed": 3})
    assert e.field == field and words in e.message


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


def test_arrow_source_is_reported_at_its_own_place():
    # [GB360-363] each end of an arrow is an action, min or max; a bad first end is named as such
    card = {"centre": "patronage", "moves": [["printing", "take_inks"]]}
    assert error("automa_plan", {"markers": m(2, 1, 1, 2, 1), "card": card}).field == "card.moves[0][0]"
    card = {"centre": "patronage", "moves": [["take_inks", "take_orders"], ["mini", "max"]]}
    assert error("automa_plan", {"markers": m(2, 1, 1, 2, 1), "card": card}).field == "card.moves[1][0]"


# a card's arrows: none to 8 (B1: the cards' icons are printed on them, so this is a generous
# bound to catch typing slips); an arrow is exactly [FROM, TO] [GB358]
@pytest.mark.parametrize("moves,after", [
    ([], m(2, 1, 1, 2, 1)),
    # 8 arrows take_orders -> take_inks: 2 move forward, then take_orders is empty and
    # each later arrow moves one back, so the two actions see-saw: 2,1 1,2 0,3 1,2 0,3 1,2 0,3 1,2 0,3
    ([["take_orders", "take_inks"]] * 8, m(0, 3, 1, 2, 1)),
])
def test_plan_card_arrow_count_bounds_accepted(moves, after):
    assert plan(m(2, 1, 1, 2, 1), moves)["markers"] == after


@pytest.mark.parametrize("moves,field,words", [
    ([["take_orders", "take_inks"]] * 9, "card.moves", "must hold 0 to 8 items"),
    ([["take_orders"]], "card.moves[0]", "must hold exactly 2 items"),
    ([["take_orders", "take_inks", "patronage"]], "card.moves[0]", "must hold exactly 2 items"),
])
def test_plan_card_arrow_count_bounds_refused(moves, field, words):
    e = error("automa_plan", {"markers": m(2, 1, 1, 2, 1), "card": {"centre": "patronage", "moves": moves}})
    assert e.field == field and words in e.message


def test_a_card_shows_a_patronage_card_only_when_entered_so():
    # [GB345] the automa takes a patronage card only "If this round's planning card shows a patronage card"
    assert check_card({"centre": "patronage", "moves": []}, "card")["patronage"] is False
    assert check_card({"centre": "patronage", "moves": [], "patronage": True}, "card")["patronage"] is True


# the automa holds 7 markers at setup [GB318] and, like any seat, at most 10 [GB77]; 0 to 6 on
# each action [GB114]
@pytest.mark.parametrize("markers", [m(2, 1, 1, 2, 1), m(6, 1, 0, 0, 0), m(6, 4, 0, 0, 0), m(0, 0, 0, 4, 6)])
def test_plan_markers_bounds_accepted(markers):
    assert plan(markers, [])["markers"] == markers


@pytest.mark.parametrize("markers,field", [
    (m(2, 1, 1, 1, 1), "markers"),  # 6 in all
    (m(6, 5, 0, 0, 0), "markers"),  # 11 in all
    (m(7, 0, 0, 0, 0), "markers.take_orders"),
    (m(-1, 2, 2, 2, 2), "markers.take_orders"),
])
def test_plan_markers_bounds_refused(markers, field):
    assert error("automa_plan", {"markers": markers, "card": {"centre": "patronage", "moves": []}}).field == field


@pytest.mark.parametrize("markers,field", [
    (m(7, 0, 0, 0, 0), "markers.take_orders"),
    (m(1, 1, 1, 1, 1), "markers"),
    (m(3, 3, 3, 3, 0), "markers"),
    (dict(m(2, 1, 1, 2, 1), gears=1), "markers.gears"),
])
def test_plan_bad_markers(markers, field):
    doc = {"markers": markers, "card": {"centre": "patronage", "moves": []}}
    assert error("automa_plan", doc).field == field
