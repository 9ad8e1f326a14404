"""Galileo's Truth at the table: events folded over the state, without Flask."""

import copy

import pytest

from companion.games import get
from companion.games.base import Context
from companion.games.galileo import GAME, table
from companion.games.galileo.table import current_player
from companion.games.galileo.calculator import final_result
from companion.games.validation import RulesError

# A box profile as a group might enter it: sample values, the real ones are printed on the box.
PROFILE = {
    "suspicion_track": {"length": 20, "penance": [3, 6, 9], "prison": 11, "stake": 14},
    "tiles": {"back": 3, "spaces": [20, 40]},
    "cathedral": {"copernican": {"free": 15, "prison": 10, "stake": 5},
                  "ptolemaic": {"free": 10, "prison": 5, "stake": 0}},
    "penance_cards": {"vp": [1, 2, 3], "coins": [1, 2, 3]},
    "prohibition_suspicion": {"2": {"copernican": 2, "ptolemaic": 1}},
}
NAMES = ["Meg", "Luna", "Dan", "Domy"]


class Table:
    """A table folded from its events, as the framework does it."""

    def __init__(self, names=NAMES, profile=PROFILE, **options):
        self.names = list(names)
        self.options = GAME.validate_options(options, len(names))
        self.profile = GAME.validate_profile(copy.deepcopy(profile)) if profile else {}
        self.state = GAME.initial_state(self.names, self.options, self.profile)

    @property
    def ctx(self):
        return Context(tuple(self.names), self.options, self.profile)

    def __call__(self, type_, **data):
        self.state = GAME.apply(self.state, type_, data, self.ctx)
        return self.state

    def refused(self, type_, field, **data):
        before = copy.deepcopy(self.state)
        with pytest.raises(RulesError) as err:
            GAME.apply(self.state, type_, data, self.ctx)
        assert self.state == before
        assert err.value.field == field, err.value.message
        return err.value.message

    def sus(self, i):
        return self.state["players"][i]["suspicion"]

    def round(self, *moves):
        """Play one round: each move is "pass" or a Main Action, in turn order."""
        for move in moves:
            p = current_player(self.state)
            if move in ("pass", "abjure"):
                self(move, player=p)
            else:
                self("action", player=p, action=move)


def test_registry_finds_galileo():
    assert get("galileo") is GAME
    assert set(GAME.functions) >= {"score", "suspicion"}


def test_every_event_has_a_handler_and_a_description():
    from companion.games.base import COMMON_EVENTS

    for type_ in GAME.events:
        assert type_ in COMMON_EVENTS or callable(table.HANDLERS[type_])  # every game's: games/seats.py
        assert GAME.describe(type_, {"player": 0, "delta": 1, "level": 1}, NAMES)


def test_meg_luna_dan_domy_round_with_the_inquisition_token():
    # [GT402] Meg plays a treatise, Luna passes, Dan uses his philosopher, Domy passes
    t = Table()
    t("action", player=0, action="treatise")
    t("pass", player=1)
    t("action", player=2, action="philosopher")
    t("pass", player=3)
    s = t.state
    assert s["inquisition"] is True
    assert s["future"] == [3, 1]  # Domy to the left of Luna, both on the Future track
    assert s["passing"] == [] and s["round"] == 2
    assert any("Inquisition Suspects" in n for n in s["notices"])
    # from then on Meg and Dan take +1 for each Main Action
    t("action", player=0, action="invention")
    assert t.sus(0)["position"] == 2
    t("action", player=2, action="academic")
    assert t.sus(2)["position"] == 2
    # passing costs nothing
    t("pass", player=0)
    assert t.sus(0)["position"] == 2


def test_turn_order_is_enforced():
    t = Table()
    msg = t.refused("action", "data.player", player=1, action="treatise")
    assert "Meg's turn" in msg
    t("pass", player=0)
    t.round("treatise", "treatise", "treatise")
    assert t.refused("action", "data.player", player=0, action="treatise") == "Meg has passed this cycle"


def test_natural_philosopher_once_per_cycle_and_never_in_prison_or_at_the_stake():
    t = Table(names=["A", "B"])
    t.round("philosopher", "treatise")
    assert "already been used" in t.refused("action", "data.action", player=0, action="philosopher")
    # used, arrested and released: still lying down until the End of Cycle [GT180]
    t("suspicion", player=0, delta=11)
    t("suspicion", player=0, delta=-1)
    t.refused("action", "data.action", player=0, action="philosopher")
    t.round("pass", "pass")
    t("next_cycle")
    t("income_done")
    t("action", player=1, action="treatise")  # B passed last, so B goes first in Cycle 2
    t("suspicion", player=0, delta=1)  # 11 -> 12: in Prison
    assert "in Prison" in t.refused("action", "data.action", player=0, action="philosopher")
    t("suspicion", player=0, delta=-1)  # released, standing: usable again
    t("action", player=0, action="philosopher")
    t("suspicion", player=1, delta=20)  # B to the Stake
    assert "Stake" in t.refused("action", "data.action", player=1, action="philosopher")


def test_luna_at_11_under_the_inquisition_cannot_use_her_natural_philosopher():
    # Audit case (issue 27, finding 13). Luna's suspicion is 11, the token is face up. The +1
    # comes "at the beginning of their turn" [GT398] as soon as a Main Action other than Pass is
    # declared (RULES.md GAL-C13): 11 -> 12 moves past Prison (after 11), the figure is arrested
    # at once [GT164] and a figure in Prison is not available [GT531]. So "Use Natural
    # Philosopher" is refused, nothing changes, and Luna picks another action.
    t = Table()
    t.round("pass", "treatise", "treatise", "treatise")  # Meg passes: the token is face up
    t("suspicion", player=1, delta=10)  # Luna at 11, free
    assert t.state["inquisition"] is True and t.sus(1)["position"] == 11 and not t.sus(1)["arrested"]
    msg = t.refused("action", "data.action", player=1, action="philosopher")
    assert "Luna's Natural Philosopher would go to Prison" in msg and "Inquisition" in msg
    assert t.state["players"][1]["philosopher_used"] is False
    # the page shows why before she chooses, and offers no philosopher button
    from companion.games.galileo.view import build
    view = build(t.state, NAMES, t.options)
    assert view["players"][1]["philosopher"] == msg.removeprefix("Luna's Natural Philosopher ")
    # she picks another Main Action: the +1 arrests her figure, which was never used
    t("action", player=1, action="invention")
    assert t.sus(1) == {"position": 12, "penance_taken": [True, True, True], "arrested": True, "at_stake": False}
    assert t.state["players"][1]["philosopher_used"] is False


def test_passing_at_11_under_the_inquisition_costs_nothing_and_keeps_the_figure_free():
    # [GT400] "Passing does not cause you an increase in Suspicion": no +1, no arrest
    t = Table()
    t.round("pass", "treatise", "treatise", "treatise")
    t("suspicion", player=1, delta=10)
    t("pass", player=1)
    assert t.sus(1)["position"] == 11 and not t.sus(1)["arrested"]


def test_everyone_passing_in_the_same_round_never_flips_the_token():
    t = Table()
    t.round("treatise", "treatise", "treatise", "treatise")
    t.round("pass", "pass", "pass", "pass")
    s = t.state
    assert s["inquisition"] is False and s["phase"] == "end"
    # literal reading: later passers to the left, so the order reverses
    assert s["order"] == [3, 2, 1, 0]
    assert not any("Inquisition" in n for n in s["notices"])


def test_next_cycle_turn_order_keeps_earlier_passers_ahead():
    t = Table()
    t.round("treatise", "pass", "treatise", "pass")  # Luna then Domy pass: future [Domy, Luna]
    t.round("pass", "treatise")  # Meg passes: future [Domy, Luna, Meg]; token already up
    t.round("pass")  # Dan
    s = t.state
    assert s["phase"] == "end" and s["order"] == [3, 1, 0, 2]
    assert s["inquisition"] is False  # face down at the End of Cycle [GT707]
    # Dan took +1 for his Main Action in round 2
    assert t.sus(2)["position"] == 2


def test_first_passer_first_option():
    t = Table(passing_order="first_passer_first")
    t.round("treatise", "pass", "treatise", "pass")
    assert t.state["future"] == [1, 3]


def test_cycles_periods_prohibition_and_the_end():
    t = Table()
    t.round("pass", "pass", "pass", "pass")
    assert t.state["phase"] == "end" and t.state["cycle"] == 1
    t("next_cycle")
    assert (t.state["cycle"], t.state["phase"]) == (2, "income")
    t.refused("pass", "type", player=3)
    t("income_done")
    t.round("pass", "pass", "pass", "pass")
    t.refused("next_cycle", "type")  # Cycle 2 checks the Prohibition first
    order = t.state["order"]
    counts = [0, 0, 0, 0]
    counts[order[0]] = 3  # equal to the limit fails [GT728]
    counts[order[1]] = 2
    t("prohibition", limit=3, counts=counts)
    assert t.sus(order[0])["position"] == 3  # +2 Copernican penalty from the profile
    assert t.sus(order[1])["position"] == 1
    t.refused("prohibition", "type", limit=3, counts=counts)
    t("next_cycle")
    for cycle in (3, 4, 5):
        assert t.state["cycle"] == cycle
        t("income_done")
        t.round("pass", "pass", "pass", "pass")
        if cycle in (3, 5):
            t("prohibition", limit=1, counts=[0, 0, 0, 0], penalty={"copernican": 4, "ptolemaic": 2})
        t("next_cycle")
    assert t.state["phase"] == "final"


def test_prohibition_penalty_must_come_from_somewhere():
    profile = {k: v for k, v in PROFILE.items() if k != "prohibition_suspicion"}
    t = Table(profile=profile)
    t.round("pass", "pass", "pass", "pass")
    t("next_cycle")
    t("income_done")
    t.round("pass", "pass", "pass", "pass")
    t.refused("prohibition", "data.penalty", limit=2, counts=[0, 2, 0, 0])
    t.refused("prohibition", "data.counts", limit=2, counts=[0, 0, 0], penalty={"copernican": 1, "ptolemaic": 1})


def test_suspicion_for_any_player_at_any_time_says_what_it_triggers():
    t = Table()
    t("suspicion", player=2, delta=3)  # not Dan's turn: still allowed
    assert t.state["notices"][-1] == "Dan: take Penance card I and put it face down on your draw deck."
    t("suspicion", player=2, delta=8)
    assert [n.split(": ", 1)[1] for n in t.state["notices"][1:]] == [
        "take Penance card II and put it face down on your draw deck.",
        "take Penance card III and put it face down on your draw deck.",
        "arrested: your Natural Philosopher goes to Prison (if it stood on an action space, lay it down; that space is free again).",
    ]
    t("suspicion", player=2, delta=-1)
    assert "released" in t.state["notices"][-1]
    t("suspicion", player=2, delta=5)
    assert "the Stake" in t.state["notices"][-1] and "2 VP" in t.state["notices"][-1]
    assert t.sus(2) == {"position": 0, "penance_taken": [True, True, True], "arrested": False, "at_stake": True}


def test_suspicion_change_not_a_whole_number_changes_nothing():
    t = Table()
    t.refused("suspicion", "data.delta", player=0, delta=1.5)
    t.refused("suspicion", "data.delta", player=0, delta=0)
    t.refused("suspicion", "data.player", player=4, delta=1)
    t.refused("suspicion", "data.why", player=0, delta=1, why="x")


def test_group_effects_reach_other_players():
    t = Table()
    t("suspicion_group", player=0, group="others", delta=2)
    assert [t.sus(i)["position"] for i in range(4)] == [1, 3, 3, 3]
    t("suspicion_group", player=0, group="copernican", delta=1)
    assert [t.sus(i)["position"] for i in range(4)] == [2, 4, 4, 4]


def test_abjure():
    t = Table()
    t("suspicion", player=0, delta=7)  # Meg at 8
    t("abjure", player=0)
    s = t.state
    assert s["players"][0]["principle"] == "ptolemaic"
    assert t.sus(0)["position"] == 3
    assert [t.sus(i)["position"] for i in (1, 2, 3)] == [2, 2, 2]
    # a later Abjure leaves Meg (Ptolemaic now) alone
    t("abjure", player=1)
    assert t.sus(0)["position"] == 3 and [t.sus(i)["position"] for i in (2, 3)] == [3, 3]


def test_abjuring_twice_is_refused():
    t = Table()
    t("abjure", player=0)
    t.round("treatise", "treatise", "treatise")
    assert "already abjured" in t.refused("abjure", "data.player", player=0)


def test_abjure_is_refused_in_cycle_5():
    t = Table()
    for _ in range(4):
        if t.state["phase"] == "income":
            t("income_done")
        t.round("pass", "pass", "pass", "pass")
        if t.state["cycle"] in (2, 3):
            t("prohibition", limit=9, counts=[0, 0, 0, 0])
        t("next_cycle")
    t("income_done")
    assert t.state["cycle"] == 5
    assert "Cycle 5" in t.refused("abjure", "data.player", player=current_player(t.state))


def test_abjure_under_the_inquisition_costs_the_plus_one_first():
    t = Table()
    t.round("treatise", "pass", "treatise", "treatise")  # token up
    t("abjure", player=0)
    assert t.sus(0)["position"] == 0  # 1 + 1 - 5, floored at 0


def test_penance_card_play():
    t = Table()
    t("suspicion", player=0, delta=3)  # Meg takes Penance I, at 4
    t("penance", player=0, level=1, remove=False)
    assert t.sus(0)["position"] == 3  # token face down: -1 [GT484]
    assert t.state["players"][0]["penance_removed"] == [False, False, False]  # stays in play
    assert current_player(t.state) == 1  # a Main Action: Luna's turn now
    t.refused("penance", "data.level", player=1, level=1, remove=False)  # Luna has none


def test_penance_card_under_the_inquisition_is_plus_one_and_removal_counts():
    t = Table()
    t.round("pass", "treatise", "treatise", "treatise")  # Meg passes; token up
    t("suspicion", player=1, delta=3)  # Luna at 4, Penance I
    t("penance", player=1, level=1, remove=True)
    assert t.sus(1)["position"] == 5  # +1, no -1 (GAL-C14)
    assert t.state["players"][1]["penance_removed"] == [True, False, False]
    t.round("treatise", "treatise")
    t.refused("penance", "data.level", player=1, level=1, remove=False)


def test_tiles_two_players_first_flips():
    t = Table(names=["A", "B"])
    t("tile", player=0, tile=0)
    assert t.sus(0)["position"] == 3 and t.state["tiles"][0]["face"] == "back"
    t("tile", player=1, tile=0)
    assert t.sus(1)["position"] == 4  # the back: 3
    assert t.state["tiles"][0]["face"] == "back"


def test_tiles_three_players_second_removes():
    t = Table(names=["A", "B", "C"])
    t("tile", player=0, tile=1)
    t("tile", player=1, tile=1)
    assert t.sus(1)["position"] == 4  # the remover takes the increase first
    assert t.state["tiles"][1]["face"] == "removed"
    assert "removed" in t.refused("tile", "data.tile", player=2, tile=1)


def test_tiles_four_players_third_removes():
    t = Table()
    faces = []
    for p in range(3):
        t("tile", player=p, tile=0)
        faces.append(t.state["tiles"][0]["face"])
    assert faces == ["back", "back", "removed"]
    assert [t.sus(p)["position"] for p in range(4)] == [3, 4, 4, 1]
    t.refused("tile", "data.tile", player=3, tile=0)


def test_a_tile_reached_twice_by_one_player_is_refused():
    t = Table()
    t("tile", player=0, tile=0)
    t.refused("tile", "data.tile", player=0, tile=0)


def test_tiles_at_100_vp_still_count_above_100_never():
    t = Table()
    t("vp", player=0, delta=100)
    t("tile", player=0, tile=0)
    assert t.sus(0)["position"] == 3
    t("vp", player=1, delta=101)
    assert "more than 100" in t.refused("tile", "data.player", player=1, tile=0)
    # the VP when the marker reached the tile decides (GAL-C6)
    t("tile", player=1, tile=0, vp=98)
    assert t.sus(1)["position"] == 4


def test_board_values_entered_at_the_table():
    t = Table(profile=None)
    t.refused("suspicion", "type", player=0, delta=1)
    t.refused("board", "data.suspicion_track.stake",
              suspicion_track={"length": 14, "penance": [3, 6, 9], "prison": 11, "stake": 14})
    t.refused("board", "data.cathedral.copernican.free",
              cathedral={"copernican": {"free": -1, "prison": 0, "stake": 0}, "ptolemaic": {"free": 0, "prison": 0, "stake": 0}})
    t("board", suspicion_track=PROFILE["suspicion_track"])
    t("suspicion", player=0, delta=1)
    t.refused("board", "data.suspicion_track", suspicion_track=dict(PROFILE["suspicion_track"], prison=12))
    t("board", tiles=PROFILE["tiles"])
    assert len(t.state["tiles"]) == 2


def test_board_event_refuses_penance_icons_out_of_order_and_changes_nothing():
    # [GT99][GT158] the icons give cards I, II, III in that order: [6, 3, 9] would give card II first
    t = Table(profile=None)
    message = t.refused("board", "data.suspicion_track.penance[1]",
                        suspicion_track={"length": 20, "penance": [6, 3, 9], "prison": 11, "stake": 14})
    assert message == "must be at or after Penance icon I (after space 6), as the icons come in the order of their cards, I, II, III"
    t.refused("suspicion", "type", player=0, delta=4)  # still no track: the refused one was not kept
    t("board", suspicion_track={"length": 20, "penance": [3, 6, 9], "prison": 11, "stake": 14})
    t("suspicion", player=0, delta=3)
    assert t.sus(0)["penance_taken"] == [True, False, False]


def test_profile_refuses_penance_icons_out_of_order():
    with pytest.raises(RulesError) as err:
        GAME.validate_profile({"suspicion_track": {"length": 20, "penance": [6, 3, 9], "prison": 11, "stake": 14}})
    assert err.value.field == "suspicion_track.penance[1]"


def test_profile_bad_input():
    with pytest.raises(RulesError) as err:
        GAME.validate_profile({"suspicion_track": {"length": 20, "penance": [3, 6, 9], "prison": 11, "stake": 19}})
    assert err.value.field == "suspicion_track.stake"
    with pytest.raises(RulesError) as err:
        GAME.validate_profile({"suspicion_track": {"length": 20, "penance": [0, 6, 9], "prison": 11, "stake": 14}})
    assert err.value.field == "suspicion_track.penance[0]"
    with pytest.raises(RulesError) as err:
        GAME.validate_profile({"cathedral": {"copernican": {"free": 1, "prison": 1, "stake": 1},
                                             "ptolemaic": {"free": 1, "prison": 1, "exile": 1}}})
    assert err.value.field == "cathedral.ptolemaic.exile"
    with pytest.raises(RulesError) as err:
        GAME.validate_profile({"tiles": {"back": 3, "spaces": [20, 20]}})
    assert err.value.field == "tiles.spaces[1]"


def test_options():
    assert GAME.validate_options({}, 3) == {"passing_order": "literal", "stake_overshoot": "discard"}
    with pytest.raises(RulesError) as err:
        GAME.validate_options({"passing": "x"}, 3)
    assert err.value.field == "passing"


def play_to_final(t):
    for _ in range(5):
        if t.state["phase"] == "income":
            t("income_done")
        while t.state["phase"] == "actions":
            t.round("pass")
        if t.state["cycle"] in (2, 3, 5):
            t("prohibition", limit=9, counts=[0] * len(t.names))
        t("next_cycle")


def test_final_scoring_from_the_table():
    t = Table()
    t.round("pass", "abjure", "pass", "pass")  # Luna abjures (her turn is second): 1 -> 0
    t("vp", player=0, delta=60)
    t("vp", player=1, delta=60)
    t("suspicion", player=1, delta=12)  # Luna 0 -> 12: in Prison, Penance I-III held
    t("suspicion", player=2, delta=12)  # Dan 2 (Luna's Abjure) -> 14: arrested, not past the Stake
    t("suspicion", player=2, delta=1)  # 14 -> 15 crosses the Stake (after 14): marker on 0
    t("suspicion", player=2, delta=3)  # at the Stake, now 3
    play_to_final(t)
    assert t.state["phase"] == "final"
    assert final_result(t.state, t.names, {}, {}) is None  # entries still missing
    for p in range(4):
        t("final", player=p, inventions_vp=0, mentor_vp=0, end_losses=0)
    result = final_result(t.state, t.names, {}, {})
    by_name = {p["name"]: p for p in result["players"]}
    luna = by_name["Luna"]["breakdown"]
    assert t.state["players"][1]["principle"] == "ptolemaic"
    assert (luna["status"], luna["penance"]) == (PROFILE["cathedral"]["ptolemaic"]["prison"], -6)
    assert by_name["Dan"]["breakdown"]["stake"] == -6
    # Meg and Domy free Copernicans (15), Luna Ptolemaic in Prison and Dan at the Stake (5 each)
    assert by_name["Meg"]["breakdown"]["status"] == 15 and by_name["Meg"]["breakdown"]["rank"] == 8
    assert by_name["Dan"]["breakdown"]["rank"] == 0
    assert result["winners"] == ["Meg"]


def test_no_tile_suspicion_during_final_scoring():
    t = Table(names=["A", "B"])
    play_to_final(t)
    t.refused("tile", "type", player=0, tile=0)


def test_final_entries_only_in_final_scoring():
    t = Table()
    t.refused("final", "type", player=0, inventions_vp=0, mentor_vp=0, end_losses=0)


def test_history_lines_in_plain_words():
    assert GAME.describe("suspicion", {"player": 1, "delta": 3}, NAMES) == "Luna: suspicion +3"
    assert GAME.describe("suspicion_group", {"player": 0, "group": "copernican", "delta": 1}, NAMES) == "Meg: every Copernican suspicion +1"
    assert GAME.describe("penance", {"player": 2, "level": 2, "remove": True}, NAMES) == "Dan: plays Penance card II and removes it"
    assert GAME.describe("abjure", {"player": 3}, NAMES) == "Domy: abjures"
    assert GAME.describe("next_cycle", {}, NAMES) == "End of Cycle done"
