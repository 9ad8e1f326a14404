"""Issue 30, the seams: calculator mode comes from the options alone, the table runs the tested rule
functions, and the templates show what view.py computes."""

from __future__ import annotations

import json
import sqlite3

from companion.games import get
from companion.games.base import Context

from .test_calculator import ROWS, SPACES, expected, row
from .test_web import join

GAME = get("voynich")
NAMES = ["Ana", "Ben", "Cy"]
CALC = {"calculator": True}


# --- calculator mode from the options only ------------------------------------------------------

def fold(state: dict, events: list[tuple[str, dict]], names: list[str], options: dict, profile: dict) -> dict:
    ctx = Context(names=tuple(names), options=options, profile=profile)
    for type_, data in events:
        state = GAME.apply(state, type_, data, ctx)
    return state


def test_a_calculator_tables_state_needs_no_mode_flag():
    """The options say a table is a calculator: the state keeps only data (the rows), never the flag."""
    profile = {"track": {"scoring_spaces": SPACES}}
    state = GAME.initial_state(NAMES, CALC, profile)
    assert "calculator" not in state
    assert GAME.view(state, NAMES, CALC, profile, None)["calculator"] is True
    assert GAME.running_score(state, CALC) is None and GAME.start_player(state, CALC) is None
    state = fold(state, [("sheet", data) for data in ROWS[:2]], NAMES, CALC, profile)
    assert [r is not None for r in state["sheets"]] == [True, True, False] and not state["finished"]
    state = fold(state, [("sheet", ROWS[2])], NAMES, CALC, profile)
    assert state["finished"] is True
    assert GAME.final_result(state, NAMES, CALC, profile) == expected(ROWS, NAMES)
    # the same state read as a tracked table's (no calculator option) is one: the options decide
    assert GAME.view(state, NAMES, {}, profile, None)["calculator"] is False
    assert GAME.running_score(state, {}) == [0, 0, 0]


def test_a_tracked_tables_row_sets_its_markers_whatever_an_old_flag_says():
    """A tracked table's `sheet` sets the player's tracked values: the options, not a key in the state, decide."""
    state = dict(GAME.initial_state(NAMES, {}, {}), calculator=True)  # a flag the options contradict
    state = fold(state, [("sheet", row(0, 31, (12, 20, 7, 16), (4, 5)))], NAMES, {}, {})
    assert state["players"][0]["markers"] == {"botany": 12, "astrology": 20, "baths": 7, "writings": 16, "gk": 31}
    assert state["players"][0]["research"] == [4, 5]
    assert state["sheets"] == [None, None, None]


def store_state(app, t: dict, change) -> None:
    """Rewrite a table's stored state as an older version of the app wrote it."""
    conn = sqlite3.connect(app.config["DATABASE"])
    try:
        with conn:
            state = json.loads(conn.execute("SELECT state FROM tables WHERE id = ?", [t["table"]]).fetchone()[0])
            conn.execute("UPDATE tables SET state = ? WHERE id = ?", [json.dumps(change(state)), t["table"]])
    finally:
        conn.close()


def test_an_old_stored_calculator_state_with_its_flag_still_loads_and_plays(app, client, api):
    t = api.create("voynich", NAMES, calculator=True)
    join(client, t)
    assert api.event(t, "track", {"scoring_spaces": SPACES}).status_code == 200
    assert api.event(t, "sheet", ROWS[0]).status_code == 200
    store_state(app, t, lambda s: dict(s, calculator=True))  # as stored before issue 30
    assert api.get(t)["state"]["calculator"] is True
    page = client.get(f"/t/{t['table']}")
    assert page.status_code == 200 and 'id="sheet-2"' in page.get_data(as_text=True)
    for data in ROWS[1:]:
        assert api.event(t, "sheet", data).status_code == 200
    assert api.stored(t).state["finished"] is True
    assert api.final_result(t) == expected(ROWS, NAMES)
    assert api.undo(t).status_code == 200  # folded again from a new initial state: no flag
    state = api.get(t)["state"]
    assert state["finished"] is False and "calculator" not in state


def test_an_old_stored_tracked_state_with_its_flag_still_loads_and_plays(app, client, api):
    t = api.create("voynich", ["Ana", "Ben"])
    join(client, t)
    store_state(app, t, lambda s: dict(s, calculator=False))
    assert client.get(f"/t/{t['table']}").status_code == 200
    assert api.event(t, "move", {"player": 1, "marker": "gk", "delta": 4}).status_code == 200
    assert api.event(t, "sheet", row(0, 9, (1, 2, 3, 4))).status_code == 200
    state = api.get(t)["state"]
    assert [p["markers"]["gk"] for p in state["players"]] == [9, 4]
    assert GAME.running_score(state, api.stored(t).options) == [9, 4]
