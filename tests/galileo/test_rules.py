"""Galileo's Truth rules functions: the rulebook's examples and the suspicion track's edge cases."""

import copy

import pytest

from companion.games.galileo import functions, rules
from companion.games.galileo.functions import run_books, run_round, run_score, run_suspicion
from companion.games.validation import RulesError

# A track as a group might enter it (sample values: the real ones come from the board, GAL-B2).
TRACK = {"penance": [3, 6, 9], "prison": 11, "stake": 14}
START = {"position": 1, "penance_taken": [False, False, False], "arrested": False, "at_stake": False}


def move(state, delta, track=TRACK, **extra):
    return run_suspicion({"track": track, "state": state, "delta": delta, **extra})


def refused(fn, doc, field, message=None):
    """Assert fn refuses doc naming field (and saying message, if given) and leaves doc unchanged."""
    before = copy.deepcopy(doc)
    with pytest.raises(RulesError) as err:
        fn(doc)
    assert err.value.field == field
    if message is not None:
        # the range a person is told must be the one enforced
        assert err.value.message == message
    assert doc == before
    return err.value


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


def test_stake_overshoot_continue_counts_the_steps_past_the_tracks_end():
    # Issue 13's audit: 13 +3 on a 16-space track (spaces 0-15) crosses the Stake (after 14)
    # on the step 14 -> 15 and has one step left [GT186-190]: the move is not capped at the
    # track's end before the Stake sends the marker back to 0
    state = {"position": 13, "penance_taken": [True, True, True], "arrested": True, "at_stake": False}
    track = dict(TRACK, length=16)
    assert move(state, 3, track, stake_overshoot="continue")["state"]["position"] == 1
    assert move(state, 3, track)["state"]["position"] == 0  # the default drops it (GAL-C3)
    assert move(state, 4, track, stake_overshoot="continue")["state"]["position"] == 2


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
    refused(run_suspicion, doc, field)


PENANCE_ORDER = ("must be at or after Penance icon I (after space 6), as the icons come in the order of their cards, "
                 "I, II, III")


@pytest.mark.parametrize("penance, field, message", [
    ([6, 3, 9], "track.penance[1]", PENANCE_ORDER),
    ([3, 9, 6], "track.penance[2]", PENANCE_ORDER.replace("icon I (after space 6)", "icon II (after space 9)")),
    ([9, 6, 3], "track.penance[1]", PENANCE_ORDER.replace("after space 6", "after space 9")),
])
def test_suspicion_refuses_penance_icons_out_of_their_cards_order(penance, field, message):
    # [GT99] the cards are levels I, II, III and [GT158] each icon gives "the corresponding Penance
    # Card": with the icons out of order, a marker would take card II before card I
    refused(run_suspicion, {"track": dict(TRACK, penance=penance), "state": START, "delta": 4}, field, message)


def test_suspicion_takes_penance_icons_in_order_and_two_in_one_gap():
    assert move(START, 4)["events"] == ["penance_1"]
    # two icons in one gap (at or after the one before): both cards, I first (GAL-C12)
    assert move(START, 3, dict(TRACK, penance=[3, 3, 9]))["events"] == ["penance_1", "penance_2"]


def test_a_marker_on_the_prisons_space_is_not_yet_arrested():
    # [GT148] icons are not spaces; [GT164] the arrest comes only on moving *past* Prison
    # (after space 11 on TRACK): space 11 is still before it
    on_prison = {"position": 11, "penance_taken": [True, True, True], "arrested": False, "at_stake": False}
    assert move(dict(on_prison, position=10), 1) == {"state": on_prison, "events": []}
    assert move(on_prison, 1)["events"] == ["arrested"]
    doc = {"track": TRACK, "state": dict(on_prison, arrested=True), "delta": 1}
    before = copy.deepcopy(doc)
    with pytest.raises(RulesError) as err:
        run_suspicion(doc)
    assert err.value.field == "state.arrested"
    # the message explains the rule: a figure on space 11 is not past the icon after space 11
    assert err.value.message.startswith("must be false")
    assert "space 11 is not past the Prison icon" in err.value.message
    assert doc == before


def test_a_marker_on_the_stakes_space_is_not_yet_at_the_stake():
    # [GT186] the Stake takes the figure only as the marker "moves past" the icon after space 14
    on_stake = {"position": 14, "penance_taken": [True, True, True], "arrested": True, "at_stake": False}
    assert move(on_stake, 0) == {"state": on_stake, "events": []}
    assert move(on_stake, 1)["events"] == ["stake"]


AT_THE_STAKE = {"position": 0, "penance_taken": [True, True, True], "arrested": False, "at_stake": True}


# Bounds of the suspicion function's input. The track's length counts the "0" space; 2 spaces
# are the fewest that leave room for an icon (after space 0, before space 1), and 100 (spaces 0
# to 99: MAX_TRACK) is a generous bound to catch typing slips. An icon after space k needs a
# space k+1 [GT148], so it sits after space 0 at the lowest and before the last space at the
# highest: length - 2, or 98 when the length is not given (positions then run up to 99). The
# delta is a move on the track, so at most its 99 steps either way.
@pytest.mark.parametrize("doc, position", [
    # the shortest track: from 0 by +1 crosses every icon at once, the Stake sends it to 0 [GT188]
    ({"track": {"length": 2, "penance": [0, 0, 0], "prison": 0, "stake": 0},
      "state": dict(START, position=0), "delta": 1}, 0),
    # the longest track, the Stake before its last space 99, the marker on that last space
    ({"track": {"length": 100, "penance": [3, 6, 9], "prison": 11, "stake": 98},
      "state": dict(AT_THE_STAKE, position=99), "delta": 1}, 99),
    # no length: icons after space 0 at the lowest
    ({"track": {"penance": [0, 0, 0], "prison": 0, "stake": 0}, "state": dict(START, position=0), "delta": 1}, 0),
    # no length: the Stake after space 98 at the highest, the marker on 99, the largest step back
    ({"track": {"penance": [3, 6, 9], "prison": 11, "stake": 98},
      "state": dict(AT_THE_STAKE, position=99), "delta": -99}, 0),
    # the largest step forward crosses the whole track: the Stake, leftover dropped (GAL-C3)
    ({"track": TRACK, "state": START, "delta": 99}, 0),
])
def test_suspicion_accepts_the_lowest_and_highest_values(doc, position):
    assert run_suspicion(doc)["state"]["position"] == position


@pytest.mark.parametrize("doc, field", [
    ({"track": {"length": 1, "penance": [0, 0, 0], "prison": 0, "stake": 0},
      "state": dict(START, position=0), "delta": 1}, "track.length"),
    ({"track": dict(TRACK, length=101), "state": START, "delta": 1}, "track.length"),
    # spaces 0..14: the Stake after space 14 would need a space 15
    ({"track": dict(TRACK, length=15), "state": START, "delta": 1}, "track.stake"),
    ({"track": dict(TRACK, stake=99), "state": START, "delta": 1}, "track.stake"),
    ({"track": dict(TRACK, penance=[-1, 6, 9]), "state": START, "delta": 1}, "track.penance[0]"),
    ({"track": dict(TRACK, penance=[3, 6, 9, 10]), "state": START, "delta": 1}, "track.penance"),  # 3 cards, I to III [GT99]
    ({"track": TRACK, "state": dict(START, position=-1), "delta": 1}, "state.position"),  # never below "0" [GT146]
    ({"track": dict(TRACK, length=16), "state": dict(AT_THE_STAKE, position=16), "delta": 1}, "state.position"),
    ({"track": TRACK, "state": dict(AT_THE_STAKE, position=100), "delta": 1}, "state.position"),
    ({"track": TRACK, "state": dict(START, penance_taken=[False, False]), "delta": 1}, "state.penance_taken"),
    ({"track": TRACK, "state": dict(START, penance_taken=[False] * 4), "delta": 1}, "state.penance_taken"),
    ({"track": TRACK, "state": START, "delta": -100}, "delta"),
    ({"track": TRACK, "state": START, "delta": 100}, "delta"),
])
def test_suspicion_refuses_values_beyond_the_bounds(doc, field):
    refused(run_suspicion, doc, field)


# --- final scoring ----------------------------------------------------------------------

CATHEDRAL = {"copernican": {"free": 15, "prison": 10, "stake": 5},
             "ptolemaic": {"free": 10, "prison": 5, "stake": 0}}


def player(name, order, **kw):
    base = {"name": name, "vp": 50, "principle": "copernican", "status": "free", "suspicion": 0,
            "penance_vp": [], "inventions_vp": 0, "mentor_vp": 0, "end_losses": 0, "turn_order": order}
    return base | kw


def test_the_inquisitions_plus_one_is_checked_before_the_natural_philosopher():
    # [GT398] +1 at the beginning of the turn while face up, none face down; GAL-C13: before the
    # action resolves, so at 11 it arrests the figure [GT164], which is then not available [GT531]
    at_11 = {"position": 11, "penance_taken": [True, True, True], "arrested": False, "at_stake": False}
    assert rules.main_action_suspicion(True) == 1 and rules.main_action_suspicion(False) == 0
    assert rules.philosopher_unavailable(at_11, False, TRACK, inquisition_up=False) is None
    assert rules.philosopher_unavailable(at_11, False) is None  # no track given: as it stands
    assert rules.philosopher_unavailable(at_11, False, TRACK) is None  # the token face down unless said
    why = rules.philosopher_unavailable(at_11, False, TRACK, inquisition_up=True)
    assert why.startswith("would go to Prison, since the Inquisition's +1") and "past the Prison icon" in why
    # one colon on the page: "Natural Philosopher: would go to Prison, since ..."
    assert ":" not in why, why
    at_10 = dict(at_11, position=10)
    assert rules.philosopher_unavailable(at_10, False, TRACK, inquisition_up=True) is None
    # already used or in Prison: that reason first
    assert rules.philosopher_unavailable(at_11, True, TRACK, inquisition_up=True) == "has already been used this cycle"


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


# Bounds of the scoring function's input: 1 to 4 players; VP (track, inventions, mentor,
# deferred losses) 0 to 999 and a suspicion 0 to 99 (MAX_TRACK), generous bounds to catch
# typing slips; a Cathedral or Penance card value 0 to 99 (MAX_PRINTED, likewise); at most the
# 3 Penance cards I, II, III a player has [GT99]; turn order places 1 to the player count.
@pytest.mark.parametrize("change", [
    lambda d: d.__setitem__("players", [player("A", 1)]),
    lambda d: d["players"].extend([player("C", 3), player("D", 4)]),
    lambda d: d["cathedral"]["copernican"].update(free=0, prison=0, stake=0),
    lambda d: d["cathedral"]["ptolemaic"].update(free=99, prison=99, stake=99),
    lambda d: d["players"][0].update(vp=0, suspicion=0, penance_vp=[], inventions_vp=0, mentor_vp=0, end_losses=0),
    lambda d: d["players"][0].update(vp=999, suspicion=99, penance_vp=[0, 99, 99], inventions_vp=999, mentor_vp=999, end_losses=999),
])
def test_score_accepts_the_lowest_and_highest_values(change):
    doc = {"cathedral": copy.deepcopy(CATHEDRAL), "players": [player("A", 1), player("B", 2)]}
    change(doc)
    assert len(run_score(doc)["players"]) == len(doc["players"])


@pytest.mark.parametrize("change, field, message", [
    (lambda d: d.__setitem__("players", []), "players", "must hold 1 to 4 items"),
    (lambda d: d["players"].extend([player("C", 3), player("D", 4), player("E", 5)]), "players", "must hold 1 to 4 items"),
    (lambda d: d["cathedral"]["copernican"].__setitem__("stake", 100), "cathedral.copernican.stake", None),
    (lambda d: d["players"][0].__setitem__("vp", -1), "players[0].vp", None),
    (lambda d: d["players"][0].__setitem__("vp", 1000), "players[0].vp", None),
    (lambda d: d["players"][0].__setitem__("suspicion", -1), "players[0].suspicion", None),
    (lambda d: d["players"][0].__setitem__("suspicion", 100), "players[0].suspicion", None),
    (lambda d: d["players"][0].__setitem__("penance_vp", [2, -1]), "players[0].penance_vp[1]", None),
    (lambda d: d["players"][0].__setitem__("penance_vp", [100]), "players[0].penance_vp[0]", None),
    (lambda d: d["players"][0].__setitem__("penance_vp", [1, 2, 3, 4]), "players[0].penance_vp", "must hold 0 to 3 items"),
    (lambda d: d["players"][1].__setitem__("inventions_vp", -1), "players[1].inventions_vp", None),
    (lambda d: d["players"][1].__setitem__("inventions_vp", 1000), "players[1].inventions_vp", None),
    (lambda d: d["players"][1].__setitem__("mentor_vp", -1), "players[1].mentor_vp", None),
    (lambda d: d["players"][1].__setitem__("mentor_vp", 1000), "players[1].mentor_vp", None),
    (lambda d: d["players"][1].__setitem__("end_losses", -1), "players[1].end_losses", None),
    (lambda d: d["players"][1].__setitem__("end_losses", 1000), "players[1].end_losses", None),
    (lambda d: d["players"][0].__setitem__("turn_order", 0), "players[0].turn_order", None),
])
def test_score_refuses_values_beyond_the_bounds(change, field, message):
    doc = {"cathedral": copy.deepcopy(CATHEDRAL), "players": [player("A", 1), player("B", 2)]}
    change(doc)
    refused(run_score, doc, field, message)


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


ROUND = {"order": ["Meg", "Luna", "Dan", "Domy"], "passes": [], "future": [], "inquisition_up": False}


# Bounds of the round function's input: a round has 1 to 4 active players (a game has at most
# 4 [GT206-208]); as many of them may pass; the Future track holds the markers of the others,
# so the round's players and the Future track together are at most 4.
@pytest.mark.parametrize("change", [
    {"order": ["Meg"]},
    {"passes": []},
    {"passes": ["Meg", "Luna", "Dan", "Domy"]},
    {"order": ["Meg"], "future": ["Luna", "Dan", "Domy"]},
])
def test_round_accepts_the_lowest_and_highest_values(change):
    assert "future" in run_round(ROUND | change)


@pytest.mark.parametrize("change, field, message", [
    ({"order": []}, "order", "must be 1 to 4 names"),
    ({"order": ["Meg", "Luna", "Dan", "Domy", "Ada"]}, "order", "must be 1 to 4 names"),
    ({"passes": ["Meg", "Luna", "Dan", "Domy", "Ada"]}, "passes", "must hold 0 to 4 items"),
    ({"passes": ["Meg", "Meg"]}, "passes[1]", None),
    ({"order": ["Meg"], "future": ["Luna", "Dan", "Domy", "Ada", "Bea"]}, "future", "must hold 0 to 4 items"),
    ({"order": ["Meg"], "future": ["Luna", "Dan", "Domy", "Ada"]}, "future",
     "a game has at most 4 players: 1 in this round and 4 on the Future track make 5"),
    # a marker on the Future track passed in an earlier round [GT388]: its turns are skipped
    # until the next Cycle [GT369], so it is not among this round's players
    ({"future": ["Meg"]}, "future[0]", None),
    ({"order": ["Meg"], "future": ["Luna", "Luna"]}, "future[1]", None),
    ({"order": ["Meg"], "future": [3]}, "future[0]", None),
])
def test_round_refuses_values_beyond_the_bounds(change, field, message):
    refused(run_round, copy.deepcopy(ROUND | change), field, message)


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


@pytest.mark.parametrize("space, level", [(1, 1), (2, 1), (3, 2), (5, 2), (6, 3), (9, 3), (10, 4), (14, 4)])
def test_bookshelf_levels_hold_3_3_4_and_5_spaces(space, level):
    # [GT221-224] Level I: spaces 0-2, II: 3-5, III: 6-9, IV: 10-14 (0 = leftmost). With
    # LEVELS, Level n shows n Books, so a cost of n is met from Level n and n+1 is not [GT248]
    met = run_books({"levels": LEVELS, "markers": {"physics": space}, "costs": {"physics": level}})
    assert met == {"ok": True, "problems": {}, "markers": {"physics": space - level}}
    unmet = run_books({"levels": LEVELS, "markers": {"physics": space}, "costs": {"physics": level + 1}})
    assert unmet["ok"] is False and set(unmet["problems"]) == {"physics"}
    assert unmet["markers"] == {"physics": space}


def test_a_discount_as_large_as_the_cost_moves_the_marker_nowhere():
    # [GT248] a discount only reduces the amount paid, never below nothing: the marker stays
    for discount in (2, 3):
        doc = {"levels": LEVELS, "markers": {"physics": 3}, "costs": {"physics": 2}, "discounts": {"physics": discount}}
        assert run_books(doc) == {"ok": True, "problems": {}, "markers": {"physics": 3}}
    # ... and the Level requirement still holds: Level 1 shows 1 Book, fewer than the cost of 2
    doc = {"levels": LEVELS, "markers": {"physics": 2}, "costs": {"physics": 2}, "discounts": {"physics": 2}}
    assert run_books(doc)["ok"] is False


BOOKS = {"levels": LEVELS, "markers": {"physics": 3}, "costs": {"physics": 2}}


# Bounds of the books function's input. 4 Levels [GT220]; a shelf of 3 + 3 + 4 + 5 = 15 spaces
# [GT221-224], so a marker stands on space 0 (leftmost) to 14. A cost is at least 1 Book (no
# cost is no cost); the Books a Level shows, a cost and a discount are at most 15, a generous
# bound to catch typing slips (no marker can move back more than 14 spaces).
@pytest.mark.parametrize("change", [
    {"levels": [0, 0, 0, 0]},
    {"levels": [15, 15, 15, 15]},
    {"markers": {"physics": 0}},
    {"markers": {"physics": 14}},
    {"costs": {"physics": 1}},
    {"costs": {"physics": 15}},
    {"discounts": {"physics": 0}},
    {"discounts": {"physics": 15}},
])
def test_books_accepts_the_lowest_and_highest_values(change):
    assert set(run_books(BOOKS | change)) == {"ok", "problems", "markers"}


@pytest.mark.parametrize("change, field", [
    ({"levels": [-1, 2, 3, 4]}, "levels[0]"),
    ({"levels": [1, 2, 3, 16]}, "levels[3]"),
    ({"levels": [1, 2, 3]}, "levels"),
    ({"levels": [1, 2, 3, 4, 5]}, "levels"),
    ({"markers": {"physics": -1}}, "markers.physics"),
    ({"markers": {"physics": 15}}, "markers.physics"),
    ({"costs": {"physics": 0}}, "costs.physics"),
    ({"costs": {"physics": 16}}, "costs.physics"),
    ({"discounts": {"physics": -1}}, "discounts.physics"),
    ({"discounts": {"physics": 16}}, "discounts.physics"),
])
def test_books_refuses_values_beyond_the_bounds(change, field):
    refused(run_books, copy.deepcopy(BOOKS | change), field)


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


@pytest.mark.parametrize("cycle, period", [(1, "I"), (2, "I"), (3, "II"), (4, "II"), (5, "III")])
def test_periods_of_each_cycle(cycle, period):
    # [GT298-300] First Period: 2 Cycles, Second: 2 Cycles, Third: 1 Cycle
    assert rules.PERIOD[cycle] == period
    assert set(rules.PERIOD) == {1, 2, 3, 4, 5}


# --- the box profile: values printed on the components (GAL-B) -----------------------------

BOX = {
    "suspicion_track": {"length": 20, "penance": [3, 6, 9], "prison": 11, "stake": 14},
    "tiles": {"back": 3, "spaces": [20, 40]},
    "cathedral": copy.deepcopy(CATHEDRAL),
    "penance_cards": {"vp": [1, 2, 3], "coins": [1, 2, 3]},
    "prohibition_suspicion": {"2": {"copernican": 2, "ptolemaic": 1}},
}


# Bounds of a box profile. On the board the marker starts on space 1 [GT105], so no icon sits
# before it: the shortest track is 3 spaces with every icon after space 1; the longest 100 and
# an icon at the latest after space length - 2 (it needs a space after it [GT148]). A tile sits
# on VP space 1 to 999 (the marker starts on "0" [GT101]; 999 is a generous bound) and there
# are 1 to 20 of them (generous); the tile's back, Cathedral and Penance card VP are printed
# values of 0 to 99 (MAX_PRINTED, a generous bound to catch typing slips); a Penance card costs
# at most 10 Coins, all the Desk can hold [GT267]; there are 3 Penance cards, I to III [GT99];
# a Prohibition's suspicion is 0 to 99 (MAX_TRACK).
@pytest.mark.parametrize("section, value", [
    ("suspicion_track", {"length": 3, "penance": [1, 1, 1], "prison": 1, "stake": 1}),
    ("suspicion_track", {"length": 100, "penance": [3, 6, 9], "prison": 11, "stake": 98}),
    ("tiles", {"back": 0, "spaces": [1]}),
    ("tiles", {"back": 99, "spaces": list(range(980, 1000))}),
    ("cathedral", {p: {s: 0 for s in rules.STATUSES} for p in rules.PRINCIPLES}),
    ("cathedral", {p: {s: 99 for s in rules.STATUSES} for p in rules.PRINCIPLES}),
    ("penance_cards", {"vp": [0, 0, 0], "coins": [0, 0, 0]}),
    ("penance_cards", {"vp": [99, 99, 99], "coins": [10, 10, 10]}),
    ("prohibition_suspicion", {"2": {"copernican": 0, "ptolemaic": 0}, "5": {"copernican": 99, "ptolemaic": 99}}),
])
def test_box_profile_accepts_the_lowest_and_highest_values(section, value):
    assert functions.board({section: value}) == {section: value}


@pytest.mark.parametrize("section, value, field", [
    ("suspicion_track", {"penance": [3, 6, 9], "prison": 11, "stake": 14}, "suspicion_track.length"),
    ("suspicion_track", {"length": 101, "penance": [3, 6, 9], "prison": 11, "stake": 14}, "suspicion_track.length"),
    ("suspicion_track", {"length": 20, "penance": [3, 6, 9], "prison": 0, "stake": 14}, "suspicion_track.prison"),
    ("suspicion_track", {"length": 20, "penance": [3, 6, 9, 10], "prison": 11, "stake": 14}, "suspicion_track.penance"),
    ("tiles", {"back": -1, "spaces": [20]}, "tiles.back"),
    ("tiles", {"back": 100, "spaces": [20]}, "tiles.back"),
    ("tiles", {"back": 3, "spaces": [0]}, "tiles.spaces[0]"),
    ("tiles", {"back": 3, "spaces": [20, 1000]}, "tiles.spaces[1]"),
    ("tiles", {"back": 3, "spaces": []}, "tiles.spaces"),
    ("tiles", {"back": 3, "spaces": list(range(1, 22))}, "tiles.spaces"),
    ("cathedral", dict(CATHEDRAL, ptolemaic={"free": 100, "prison": 5, "stake": 0}), "cathedral.ptolemaic.free"),
    ("penance_cards", {"vp": [-1, 2, 3], "coins": [1, 2, 3]}, "penance_cards.vp[0]"),
    ("penance_cards", {"vp": [1, 2, 100], "coins": [1, 2, 3]}, "penance_cards.vp[2]"),
    ("penance_cards", {"vp": [1, 2, 3], "coins": [1, -1, 3]}, "penance_cards.coins[1]"),
    ("penance_cards", {"vp": [1, 2, 3], "coins": [1, 2, 11]}, "penance_cards.coins[2]"),
    ("penance_cards", {"vp": [1, 2], "coins": [1, 2, 3]}, "penance_cards.vp"),
    ("penance_cards", {"vp": [1, 2, 3], "coins": [1, 2, 3, 4]}, "penance_cards.coins"),
    ("prohibition_suspicion", {"3": {"copernican": -1, "ptolemaic": 1}}, "prohibition_suspicion.3.copernican"),
    ("prohibition_suspicion", {"3": {"copernican": 1, "ptolemaic": 100}}, "prohibition_suspicion.3.ptolemaic"),
])
def test_box_profile_refuses_values_beyond_the_bounds(section, value, field):
    refused(functions.board, copy.deepcopy(BOX) | {section: value}, field)


def test_an_icon_past_the_boards_track_says_where_the_track_ends():
    # GAL-B2: an icon after space k needs a space k+1 [GT148]; on 20 spaces (0 to 19) the Stake
    # cannot sit after space 19, and the message says why
    doc = {"suspicion_track": {"length": 20, "penance": [3, 6, 9], "prison": 11, "stake": 19}}
    with pytest.raises(RulesError) as err:
        functions.board(doc)
    assert err.value.field == "suspicion_track.stake"
    assert err.value.message == ("must be a whole number from 1 to 18: an icon after space k needs a space k+1, "
                                 "and the track's 20 spaces run from 0 to 19")


# --- the rule functions the table, the view and the score share (issue 30) ---------------------

def test_a_penance_card_paid_off_is_no_longer_held():
    # [GT763] each Penance Card you possess loses its VP; one removed from the game [GT479] does not
    assert rules.penance_held([False, False, False], [False, False, False]) == []
    assert rules.penance_held([True, True, True], [False, False, False]) == [1, 2, 3]
    assert rules.penance_held([True, True, False], [False, True, False]) == [1]
    assert rules.penance_held([True, False, True], [True, False, False]) == [3]


def test_the_stake_costs_twice_the_final_suspicion():
    # [GT767] "If your Suspicion Marker is on space 3, you lose 6 Victory Points. If it is on the "0" space, you lose no points."
    assert rules.stake_loss(3) == 6 and rules.stake_loss(0) == 0 and rules.stake_loss(1) == 2


def test_a_penance_card_relieves_one_suspicion_only_with_the_token_face_down():
    # [GT484] "If the Inquisition Token is face down, immediately reduce your Suspicion by 1"; face up nothing (GAL-C14)
    assert rules.penance_card_suspicion(False) == -1
    assert rules.penance_card_suspicion(True) == 0


def test_abjuring_costs_you_5_and_every_other_copernican_1():
    # [GT418] "reduce the Suspicion by 5"; [GT419] "All other Copernican players must immediately increase the Suspicion by 1"
    assert (rules.ABJURE_SELF, rules.ABJURE_OTHERS) == (-5, 1)


def test_tiles_count_up_to_100_vp():
    # [GT210] "exceeds 100": 100 is still affected, 101 is not (GAL-C6)
    assert rules.tiles_affect(rules.TILES_UNTIL_VP) and not rules.tiles_affect(rules.TILES_UNTIL_VP + 1)
    assert rules.TILES_UNTIL_VP == 100
