"""Issue 30: Galileo's knowledge in its package, one way for each thing.

The mode of a table comes from its options; the table dispatches through a handler table written
out; the table, the view and the score use the one rule function for each rule; the templates show
what the view says.
"""

import copy

import pytest

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
