"""Galileo's Truth rules functions: the rulebook's examples and the suspicion track's edge cases."""

import copy

import pytest

from companion.games.galileo import rules
from companion.games.galileo.functions import run_books, run_round, run_score, run_suspicion
from companion.games.validation import RulesError

# A track as a group might enter it (sample values: the real ones come from the board, GAL-B2).
TRACK = {"penance": [3, 6, 9], "prison": 11, "stake": 14}
START = {"position": 1, "penance_taken": [False, False, False], "arrested": False, "at_stake": False}


def move(state, delta, track=TRACK, **extra):
    return run_suspicion({"track": track, "state": state, "delta": delta, **extra})


def test_contract_example_plus_3_takes_no_card_yet():
    # the contract's example: from 1 by +3 to 4 crosses Penance I (after space 3)
    result = move(START, 3)
    assert result == {"state": {"position": 4, "penance_taken": [True, False, False], "arrested": False, "at_stake": False},
                      "events": ["penance_1"]}


def test_landing_on_the_icons_space_does_not_cross_it():
    # icons sit between spaces [GT148]: space 3 is still before the icon after space 3
    assert move(START, 2) == {"state": dict(START, position=3), "events": []}


def test_penance_only_the_first_time():
    first = move(dict(START, position=3), 1)
    assert first["events"] == ["penance_1"]
    back = move(first["state"], -2)
    assert back["events"] == [] and back["state"]["penance_taken"] == [True, False, False]
    again = move(back["state"], 2)
    assert again["events"] == []
    assert again["state"]["position"] == 4


def test_arrest_and_release_repeated():
    state = dict(START, position=11, penance_taken=[True, True, True])
    events = []
    for _ in range(3):
        up = move(state, 1)
        down = move(up["state"], -1)
        events += up["events"] + down["events"]
        assert up["state"]["arrested"] and not down["state"]["arrested"]
        state = down["state"]
    assert events == ["arrested", "released"] * 3


def test_several_icons_crossed_in_one_move_resolve_in_track_order():
    # GAL-C12: cards first, in track order, then the arrest
    result = move(dict(START, position=5, penance_taken=[True, False, False]), 7)
    assert result["events"] == ["penance_2", "penance_3", "arrested"]
    assert result["state"] == {"position": 12, "penance_taken": [True, True, True], "arrested": True, "at_stake": False}


def test_icons_resolve_in_track_order_when_a_penance_icon_lies_past_prison():
    # GAL-C12 "resolve them in track order": a box whose Penance III icon follows Prison
    # arrests the figure before the card, which a sort by icon name would turn round
    track = {"penance": [2, 4, 9], "prison": 7, "stake": 12}
    state = dict(START, position=6, penance_taken=[True, True, False])
    result = move(state, 4, track)
    assert result["events"] == ["arrested", "penance_3"]
    assert result["state"] == {"position": 10, "penance_taken": [True, True, True], "arrested": True, "at_stake": False}


def test_icons_sharing_one_gap_give_the_card_before_the_arrest():
    track = {"penance": [3, 6, 9], "prison": 9, "stake": 14}
    assert move(dict(START, position=8, penance_taken=[True, True, False]), 2, track)["events"] == ["penance_3", "arrested"]


def test_moving_back_across_prison_and_penance_releases_only():
    state = {"position": 12, "penance_taken": [True, True, True], "arrested": True, "at_stake": False}
    result = move(state, -10)
    assert result == {"state": {"position": 2, "penance_taken": [True, True, True], "arrested": False, "at_stake": False},
                      "events": ["released"]}


def test_stake_reset_drops_the_rest_of_the_move():
    state = {"position": 13, "penance_taken": [True, True, True], "arrested": True, "at_stake": False}
    result = move(state, 4)
    # the contract: "stake" only, no "released"; marker on 0; leftover dropped (GAL-C3)
    assert result == {"state": {"position": 0, "penance_taken": [True, True, True], "arrested": False, "at_stake": True},
                      "events": ["stake"]}


def test_stake_overshoot_continue_reading_counts_on_from_zero():
    state = {"position": 13, "penance_taken": [True, True, True], "arrested": True, "at_stake": False}
    # 13 -> 17 crosses the Stake (after 14) on the step 14 -> 15: two steps are left over
    assert move(state, 4, stake_overshoot="continue")["state"]["position"] == 2


def test_after_the_stake_no_icon_triggers_anything():
    state = {"position": 0, "penance_taken": [True, True, True], "arrested": False, "at_stake": True}
    up = move(state, 13)
    assert up == {"state": dict(state, position=13), "events": []}
    assert move(up["state"], -20) == {"state": dict(state, position=0), "events": []}


def test_marker_never_below_zero():
    assert move(START, -5)["state"]["position"] == 0


def test_marker_stops_at_the_track_end_when_the_length_is_known():
    track = dict(TRACK, length=16)
    state = {"position": 0, "penance_taken": [True, True, True], "arrested": False, "at_stake": True}
    assert move(state, 40, track)["state"]["position"] == 15


def test_the_whole_track_in_one_move_from_the_start():
    assert move(START, 20)["events"] == ["penance_1", "penance_2", "penance_3", "arrested", "stake"]


@pytest.mark.parametrize("doc, field", [
    ({"track": dict(TRACK, length=14), "state": START, "delta": 1}, "track.stake"),  # beyond the track
    ({"track": dict(TRACK, prison=15), "state": START, "delta": 1}, "track.stake"),  # Stake not last
    ({"track": dict(TRACK, penance=[3, 6]), "state": START, "delta": 1}, "track.penance"),
    ({"track": TRACK, "state": START, "delta": 1.5}, "delta"),  # not a whole number
    ({"track": TRACK, "state": START, "delta": "2"}, "delta"),
    ({"track": TRACK, "state": dict(START, position=12), "delta": 1}, "state.arrested"),
    ({"track": TRACK, "state": dict(START, position=5), "delta": 1}, "state.penance_taken[0]"),
    ({"track": TRACK, "state": dict(START, colour="red"), "delta": 1}, "state.colour"),
    ({"track": TRACK, "state": START, "delta": 1, "stake_overshoot": "bounce"}, "stake_overshoot"),
    ({"track": TRACK, "state": START}, "delta"),
])
def test_suspicion_bad_input_names_the_field(doc, field):
    before = copy.deepcopy(doc)
    with pytest.raises(RulesError) as err:
        run_suspicion(doc)
    assert err.value.field == field
    assert doc == before


# --- final scoring ----------------------------------------------------------------------

CATHEDRAL = {"copernican": {"free": 15, "prison": 10, "stake": 5},
             "ptolemaic": {"free": 10, "prison": 5, "stake": 0}}


def player(name, order, **kw):
    base = {"name": name, "vp": 50, "principle": "copernican", "status": "free", "suspicion": 0,
            "penance_vp": [], "inventions_vp": 0, "mentor_vp": 0, "end_losses": 0, "turn_order": order}
    return base | kw


def test_luna_15_status_12_rank_meg_10_8_dan_5_4_domy_0_0():
    # [GT759] Luna 15 + 12 (3 lower), Meg 10 + 8, Dan 5 + 4, Domy 0 + 0
    doc = {"cathedral": CATHEDRAL, "players": [
        player("Luna", 1, status="free"),
        player("Meg", 2, status="prison"),
        player("Dan", 3, status="stake", suspicion=0),
        player("Domy", 4, principle="ptolemaic", status="stake"),
    ]}
    result = {p["name"]: p["breakdown"] for p in run_score(doc)["players"]}
    assert [(result[n]["status"], result[n]["rank"]) for n in ("Luna", "Meg", "Dan", "Domy")] == [(15, 12), (10, 8), (5, 4), (0, 0)]
    assert result["Meg"]["status"] + result["Meg"]["rank"] == 18


def test_stake_marker_on_space_3_loses_6_on_zero_nothing():
    # [GT767]
    doc = {"cathedral": CATHEDRAL, "players": [player("A", 1, status="stake", suspicion=3),
                                               player("B", 2, status="stake", suspicion=0)]}
    stake = {p["name"]: p["breakdown"]["stake"] for p in run_score(doc)["players"]}
    assert stake == {"A": -6, "B": 0}


def test_no_stake_penalty_without_the_stake():
    doc = {"cathedral": CATHEDRAL, "players": [player("A", 1, status="prison", suspicion=12), player("B", 2)]}
    assert run_score(doc)["players"][0]["breakdown"]["stake"] == 0


def test_full_breakdown_adds_up_and_names_the_winner():
    doc = {"cathedral": CATHEDRAL, "players": [
        player("Luna", 2, vp=80, penance_vp=[3], inventions_vp=6, mentor_vp=5),
        player("Dan", 1, vp=90, status="stake", suspicion=2, penance_vp=[1, 2], end_losses=3),
    ]}
    result = run_score(doc)
    luna, dan = result["players"]
    assert luna == {"name": "Luna", "total": 80 + 15 + 4 + 6 + 5 - 3,
                    "breakdown": {"track": 80, "status": 15, "rank": 4, "inventions": 6, "mentor": 5,
                                  "penance": -3, "stake": 0, "end_losses": 0}}
    assert dan["breakdown"] == {"track": 90, "status": 5, "rank": 0, "inventions": 0, "mentor": 0,
                                "penance": -3, "stake": -4, "end_losses": -3}
    assert dan["total"] == 85
    assert result["winners"] == ["Luna"] and result["places"] == {"Luna": 1, "Dan": 2}


def test_equal_status_gives_no_rank_to_either():
    doc = {"cathedral": CATHEDRAL, "players": [player("A", 1), player("B", 2), player("C", 3, status="prison")]}
    ranks = [p["breakdown"]["rank"] for p in run_score(doc)["players"]]
    assert ranks == [4, 4, 0]


def test_tie_goes_to_the_earliest_in_turn_order():
    doc = {"cathedral": CATHEDRAL, "players": [player("A", 2), player("B", 1), player("C", 3)]}
    result = run_score(doc)
    assert result["winners"] == ["B"]
    assert result["places"] == {"B": 1, "A": 2, "C": 3}


@pytest.mark.parametrize("change, field", [
    (lambda d: d["cathedral"]["ptolemaic"].__setitem__("prison", -1), "cathedral.ptolemaic.prison"),
    (lambda d: d["players"][1].__setitem__("status", "exile"), "players[1].status"),
    (lambda d: d["players"][0].__setitem__("principle", "galilean"), "players[0].principle"),
    (lambda d: d["players"][1].__setitem__("turn_order", 1), "players[1].turn_order"),
    (lambda d: d["players"][1].__setitem__("turn_order", 3), "players[1].turn_order"),
    (lambda d: d["players"][1].__setitem__("name", "a"), "players[1].name"),
    (lambda d: d["players"][0].__setitem__("vp", 12.0), "players[0].vp"),
    (lambda d: d["players"][0].__setitem__("penance_vp", [1, 2, 3, 4]), "players[0].penance_vp"),
    (lambda d: d["players"][0].__setitem__("bonus", 1), "players[0].bonus"),
    (lambda d: d["cathedral"].pop("copernican"), "cathedral.copernican"),
])
def test_score_bad_input_names_the_field(change, field):
    doc = {"cathedral": copy.deepcopy(CATHEDRAL), "players": [player("A", 1), player("B", 2)]}
    change(doc)
    with pytest.raises(RulesError) as err:
        run_score(doc)
    assert err.value.field == field


# --- rounds and the Inquisition -----------------------------------------------------------

def test_meg_luna_dan_domy_round_with_the_inquisition_token():
    # [GT402] Meg plays a treatise, Luna passes, Dan acts, Domy passes
    result = run_round({"order": ["Meg", "Luna", "Dan", "Domy"], "passes": ["Luna", "Domy"],
                        "future": [], "inquisition_up": False})
    assert result["passing_area"] == ["Domy", "Luna"]  # Domy to the left of Luna
    assert result["flipped"] is True and result["inquisition_up"] is True
    assert result["future"] == ["Domy", "Luna"]
    assert result["suspects"] == ["Meg", "Dan"]
    assert result["over"] is False


def test_every_remaining_player_passing_in_one_round_never_flips_the_token():
    result = run_round({"order": ["Meg", "Dan"], "passes": ["Dan", "Meg"], "future": ["Domy", "Luna"],
                        "inquisition_up": False})
    assert result == {"passing_area": ["Dan", "Meg"], "future": ["Domy", "Luna", "Dan", "Meg"],
                      "inquisition_up": False, "flipped": False, "over": True, "suspects": []}


def test_first_passer_first_reading():
    result = run_round({"order": ["Meg", "Luna", "Dan", "Domy"], "passes": ["Luna", "Domy"], "future": [],
                        "inquisition_up": True, "passing": "first_passer_first"})
    assert result["future"] == ["Luna", "Domy"] and result["flipped"] is False


def test_round_bad_input():
    with pytest.raises(RulesError) as err:
        run_round({"order": ["Meg", "Dan"], "passes": ["Luna"], "future": [], "inquisition_up": False})
    assert err.value.field == "passes[0]"


# --- books ------------------------------------------------------------------------------

# Books shown per Level as a group might enter them (the example only says Level 1 shows
# fewer than 2 and Level 2 at least 2).
LEVELS = [1, 2, 3, 4]


def test_luna_pays_2_physics_1_mathematics_from_level_2_and_second_space():
    # [GT251] Physics on a Level 2 space (space 3), Mathematics on the second space of Level 1
    result = run_books({"levels": LEVELS, "markers": {"physics": 3, "mathematics": 1},
                        "costs": {"physics": 2, "mathematics": 1}})
    assert result == {"ok": True, "problems": {}, "markers": {"physics": 1, "mathematics": 0}}


def test_luna_cannot_pay_2_physics_from_level_1():
    # "If her Physics marker had been on Level 1 ... could not have performed the action"
    result = run_books({"levels": LEVELS, "markers": {"physics": 2, "mathematics": 1},
                        "costs": {"physics": 2, "mathematics": 1}})
    assert result["ok"] is False and set(result["problems"]) == {"physics"}
    assert result["markers"] == {"physics": 2, "mathematics": 1}


def test_luna_cannot_spend_from_the_leftmost_space():
    result = run_books({"levels": LEVELS, "markers": {"mathematics": 0}, "costs": {"mathematics": 1}})
    assert result["ok"] is False and "leftmost" in result["problems"]["mathematics"]


def test_a_discount_lowers_the_price_not_the_requirement():
    doc = {"levels": LEVELS, "markers": {"physics": 2}, "costs": {"physics": 2}, "discounts": {"physics": 1}}
    assert run_books(doc)["ok"] is False
    doc["markers"]["physics"] = 3
    assert run_books(doc)["markers"] == {"physics": 2}


def test_books_bad_input():
    with pytest.raises(RulesError) as err:
        run_books({"levels": LEVELS, "markers": {"physic": 3}, "costs": {}})
    assert err.value.field == "markers.physic"


# --- the end of a cycle -------------------------------------------------------------------

@pytest.mark.parametrize("cycle, workshop, deck_change, prohibition", [
    (1, True, False, False),
    (2, False, True, True),
    (3, True, False, True),
    (4, False, True, False),
    (5, False, False, True),
])
def test_turning_points_of_each_cycle(cycle, workshop, deck_change, prohibition):
    # [GT718] Workshop update in Cycles 1 and 3; [GT722] deck change in Cycles 2 and 4;
    # [GT726] Prohibition check in Cycles 2, 3 and 5; in that order
    points = rules.turning_points(cycle)
    expected = [text for text, due in (("Workshop", workshop), ("Change the Inventions deck", deck_change),
                                       ("Prohibition check", prohibition)) if due]
    assert [p.split(":")[0] for p in points] == expected
