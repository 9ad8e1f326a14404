"""Issue 30: Galileo's knowledge in its package, one way for each thing.

The mode of a table comes from its options; the table dispatches through a handler table written
out; the table, the view and the score use the one rule function for each rule; the templates show
what the view says.
"""

import copy

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.games.base import Context
from companion.games.galileo import GAME
from companion.games.validation import RulesError

from .test_calculator import BOARD, NAMES, ROWS, expected


def _calculator_options(names=NAMES):
    return {**GAME.validate_options({}, len(names)), "calculator": True}


def _fold(state, events, names, options):
    ctx = Context(tuple(names), options, {})
    for type_, data in events:
        state = GAME.apply(state, type_, data, ctx)
    return state


# --- calculator mode: decided from the options only (games/base.is_calculator) --------------

def test_a_calculator_tables_state_carries_no_mode_flag_and_is_scored_from_its_options():
    options = _calculator_options()
    state = GAME.initial_state(NAMES, options, {})
    assert "calculator" not in state
    assert state["phase"] == "final" and all(p["sheet"] is None for p in state["players"])
    state = _fold(state, [("board", BOARD)] + [("sheet", row) for row in ROWS], NAMES, options)
    assert state["finished"] is True
    assert GAME.final_result(state, NAMES, options, {}) == expected(ROWS)
    view = GAME.view(state, NAMES, options, {}, None)
    assert view["calculator"] is True and [r["saved"] for r in view["rows"]] == [True] * len(NAMES)
    assert GAME.running_score(state, options) is None and GAME.start_player(state, options) is None


def test_an_old_stored_calculator_state_with_the_flag_still_loads_and_plays():
    """A table stored before issue 30 keeps `"calculator": true` in its state: it reads and plays on."""
    options = _calculator_options()
    old = {**GAME.initial_state(NAMES, options, {}), "calculator": True}
    stored = copy.deepcopy(old)
    view = GAME.view(old, NAMES, options, {}, None)
    assert view["calculator"] is True and view["missing_final"]
    state = _fold(old, [("board", BOARD)] + [("sheet", row) for row in ROWS], NAMES, options)
    assert old == stored  # folding never changes the state it is given
    assert state["finished"] is True and GAME.final_result(state, NAMES, options, {}) == expected(ROWS)
    assert GAME.view(state, NAMES, options, {}, None)["result"] == expected(ROWS)


def test_an_old_stored_tracked_state_with_the_flag_false_still_plays():
    from .test_table import PROFILE

    options = GAME.validate_options({}, 2)
    names = ["Meg", "Luna"]
    profile = GAME.validate_profile(copy.deepcopy(PROFILE))
    old = {**GAME.initial_state(names, options, profile), "calculator": False}
    ctx = Context(tuple(names), options, profile)
    state = GAME.apply(old, "suspicion", {"player": 1, "delta": 11}, ctx)
    assert state["players"][1]["suspicion"]["arrested"] is True
    assert GAME.view(state, names, options, profile, None)["calculator"] is False
    assert GAME.running_score(state, options) == [0, 0] and GAME.start_player(state, options) == 0


def test_the_options_decide_the_mode_whatever_the_state_says():
    """The options are the one word on the mode: a state's stray flag neither makes nor unmakes a calculator."""
    names = ["Ann", "Ben"]
    calc = _calculator_options(names)
    tracked = GAME.validate_options({}, 2)
    state = GAME.initial_state(names, calc, {})
    # a calculator table whose state says nothing (or the opposite) is still a calculator
    for flag in ({}, {"calculator": False}):
        s = {**state, **flag}
        assert GAME.view(s, names, calc, {}, None)["calculator"] is True
        assert GAME.running_score(s, calc) is None
        s = _fold(s, [("sheet", {"player": 0, "principle": "copernican", "status": "free", "vp": 3})], names, calc)
        assert s["players"][0]["sheet"]["vp"] == 3
    # a tracked table's state flagged as a calculator is still tracked: no sheet, its own view
    s = {**GAME.initial_state(names, tracked, {}), "calculator": True}
    assert GAME.view(s, names, tracked, {}, None)["calculator"] is False
    assert GAME.running_score(s, tracked) == [0, 0]
    with pytest.raises(RulesError) as err:
        GAME.apply(s, "sheet", {"player": 0, "principle": "copernican", "status": "free", "vp": 3}, Context(tuple(names), tracked, {}))
    assert err.value.field == "type"


# --- the table's handlers: a table written out, the same shape as the other games' ----------

def test_the_handler_table_is_written_out_one_handler_per_event():
    import inspect

    from companion.games.galileo import calculator, table

    assert set(table.HANDLERS) == set(table.EVENTS)
    for type_, handler in table.HANDLERS.items():
        assert inspect.getmodule(handler) in (table, calculator), type_
    source = inspect.getsource(table)
    # no lookup of handlers by name: each is named where the table is written
    assert "globals()" not in source and "getattr(" not in source
    for type_ in table.EVENTS:
        key = "SHEET" if type_ == "sheet" else f'"{type_}"'
        assert f"{key}: " in source.split("HANDLERS = {", 1)[1].split("}", 1)[0], type_


# --- one tested function for each rule: the table, the view and the score call it ---------------

def _tracked(names=("Meg", "Luna", "Dan", "Domy"), profile=None):
    from .test_table import PROFILE, Table

    return Table(names=list(names), profile=PROFILE if profile is None else profile)


def _view(t):
    from companion.games.galileo.view import build

    return build(t.state, t.names, t.options)


def _final(t, **entries):
    from .test_table import play_to_final

    play_to_final(t)
    for p in range(len(t.names)):
        t("final", player=p, **{"inventions_vp": 0, "mentor_vp": 0, "end_losses": 0, **entries})
    return GAME.final_result(t.state, t.names, t.options, t.profile)


@given(taken=st.lists(st.booleans(), min_size=3, max_size=3), paid=st.lists(st.booleans(), min_size=3, max_size=3))
def test_the_penance_cards_held_are_the_rule_functions_on_the_card_and_in_the_score(taken, paid):
    from companion.games.galileo import calculator, rules

    from .test_table import PROFILE

    t = _tracked(names=("Meg", "Luna"))
    removed = [t_ and p for t_, p in zip(taken, paid)]  # only a card taken can be paid off
    state = t.state
    state["players"][0]["suspicion"]["penance_taken"] = taken
    state["players"][0]["penance_removed"] = removed
    held = rules.penance_held(taken, removed)
    card = _view(t)["players"][0]
    assert card["penance_levels"] == held
    assert card["penance_held"] == [rules.PENANCE_LEVELS[level - 1] for level in held]
    state["phase"] = "final"
    for p in state["players"]:
        p["final"] = {"inventions_vp": 0, "mentor_vp": 0, "end_losses": 0}
    doc = calculator.score_document(state, t.names, t.options)
    assert doc["players"][0]["penance_vp"] == [PROFILE["penance_cards"]["vp"][level - 1] for level in held]


def test_the_stake_costs_the_same_on_the_card_and_in_the_final_score():
    from companion.games.galileo import rules

    t = _tracked(names=("Meg", "Luna"))
    t("suspicion", player=1, delta=14)  # 1 -> 15 crosses the Stake (after 14): at the Stake, on 0
    t("suspicion", player=1, delta=3)
    k = t.sus(1)["position"]
    assert t.sus(1)["at_stake"] and k == 3
    cards = _view(t)["players"]
    assert cards[0]["stake_warning"] is None
    assert cards[1]["stake_warning"] == (f"At the Stake: each point of suspicion costs {rules.STAKE_FACTOR} VP at the end "
                                         f"({rules.stake_loss(k)} now).")
    result = _final(t)
    assert result["players"][1]["breakdown"]["stake"] == -rules.stake_loss(k)


def test_abjuring_moves_the_markers_by_the_rules_amounts_and_the_button_says_them():
    from companion.games.galileo import rules

    t = _tracked()
    t("suspicion", player=0, delta=7)  # Meg at 8
    before = [t.sus(i)["position"] for i in range(4)]
    label = _view(t)["turn"]["abjure"]
    t("abjure", player=0)
    assert t.sus(0)["position"] == before[0] + rules.ABJURE_SELF
    assert [t.sus(i)["position"] for i in (1, 2, 3)] == [b + rules.ABJURE_OTHERS for b in before[1:]]
    assert label == f"Abjure (\u2212{-rules.ABJURE_SELF} you, +{rules.ABJURE_OTHERS} other Copernicans)"


def current_player_of(t):
    from .test_table import current_player

    return current_player(t.state)


@pytest.mark.parametrize("token_up", [False, True])
def test_a_penance_card_moves_the_marker_by_the_rule_functions(token_up):
    from companion.games.galileo import rules

    t = _tracked()
    if token_up:
        t.round("pass", "treatise", "treatise", "treatise")  # Meg passes, the others act: face up
    assert t.state["inquisition"] is token_up
    p = current_player_of(t)
    t("suspicion", player=p, delta=3)  # 1 -> 4: Penance I taken
    before = t.sus(p)["position"]
    t("penance", player=p, level=1, remove=False)
    assert t.sus(p)["position"] == before + rules.main_action_suspicion(token_up) + rules.penance_card_suspicion(token_up)
    cost = _view(t)["main_action_cost"]
    assert (cost == f"Any Main Action but Pass: +{rules.INQUISITION_SUSPICION} suspicion first.") if token_up else cost is None


def test_tiles_stop_above_the_rules_vp_at_the_table_and_on_the_card():
    from companion.games.galileo import rules

    t = _tracked()
    t("vp", player=0, delta=rules.TILES_UNTIL_VP)
    t("vp", player=1, delta=rules.TILES_UNTIL_VP + 1)
    cards = _view(t)["players"]
    assert cards[0]["tiles_note"] is None
    assert cards[1]["tiles_note"] == f"Over {rules.TILES_UNTIL_VP} VP: suspicion tiles no longer affect Luna."
    assert "<bdi>Luna</bdi>" in cards[1]["tiles_note"].__html__()
    t("tile", player=0, tile=0)
    t.refused("tile", "data.player", player=1, tile=0)


def test_the_prohibition_the_page_asks_for_is_the_one_the_table_checks_and_charges():
    from companion.games.galileo import profile, table

    from .test_table import PROFILE

    t = _tracked(names=("Meg", "Luna"))
    t.round("pass", "pass")
    assert not table.prohibition_pending(t.state) and not _view(t)["needs_prohibition"]  # Cycle 1: none
    assert _view(t)["next_cycle_label"] == "Start Cycle 2"
    t("next_cycle")
    t("income_done")
    t.round("pass", "pass")
    assert table.prohibition_pending(t.state) and _view(t)["needs_prohibition"]
    t.refused("next_cycle", "type")
    penalty = _view(t)["prohibition_penalty"]
    assert penalty == profile.prohibition_penalty(t.state["board"], t.state["cycle"]) == PROFILE["prohibition_suspicion"]["2"]
    before = t.sus(0)["position"]
    t("prohibition", limit=2, counts=[2, 0])  # Meg has the limit: she fails [GT728]
    assert t.sus(0)["position"] == before + penalty["copernican"]
    assert not table.prohibition_pending(t.state) and not _view(t)["needs_prohibition"]
    assert _view(t)["prohibition_said"] == "Prohibition checked: 1 player failed."


def test_who_has_passed_is_one_function_for_the_turn_the_cards_and_the_scoreboard():
    from companion.games.galileo import table

    t = _tracked()
    t.round("pass", "treatise", "pass", "treatise")  # Meg and Dan pass in round 1
    assert [table.has_passed(t.state, i) for i in range(4)] == [True, False, True, False]
    v = _view(t)
    assert [c["passed"] for c in v["players"]] == [True, False, True, False]
    assert [r["status"] for r in v["scoreboard"]] == ["passed", None, "passed", None]
    assert v["order"] == ["Luna", "Domy"]
    assert "has passed" in t.refused("action", "data.player", player=0, action="treatise")


def test_the_coins_to_remove_a_penance_card_are_said_alike_on_the_button_and_after():
    from companion.games.galileo import profile

    from .test_table import PROFILE

    for coins, cost in (([1, 2, 3], "1 coin"), (None, "its coins")):
        cards = {"vp": [1, 2, 3], **({"coins": coins} if coins else {})}
        t = _tracked(profile={**PROFILE, "penance_cards": cards})
        t("suspicion", player=0, delta=3)  # Meg takes Penance I
        assert profile.removal_cost(t.state["board"], 1) == cost
        plays = _view(t)["turn"]["penance"]
        assert [(p["level"], p["remove"], p["label"]) for p in plays] == [
            (1, False, "Play Penance I"), (1, True, f"Play Penance I and pay {cost} to remove it")]
        t("penance", player=0, level=1, remove=True)
        assert f"Meg pays {cost} and removes Penance card I from the game." in t.state["notices"]


def test_the_other_tie_break_order_is_scored_by_the_same_document_with_the_cycle_5_order():
    from companion.games.galileo import calculator
    from companion.games.galileo.functions import run_score

    t = _tracked(names=("Meg", "Luna"))
    result = _final(t)
    # everyone passed in one round each cycle: the literal reading turns the order every cycle
    assert t.state["cycle5_order"] != t.state["order"]
    v = _view(t)
    doc = calculator.score_document(t.state, t.names, t.options, order=t.state["cycle5_order"])
    assert v["alt_winners"] == run_score(doc)["winners"] != result["winners"]
    assert v["cycle5_said"] == "During Cycle 5 the order was Meg, Luna: by that order the winner would be Meg."
