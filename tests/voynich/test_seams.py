"""Issue 30, the seams: calculator mode comes from the options alone, the table runs the tested rule
functions (that the templates show what view.py computes is checked for every game by
tests/foundation/test_templates.py)."""

from __future__ import annotations

import json
import sqlite3

import pytest
from werkzeug.datastructures import MultiDict

from companion.games import get
from companion.games.base import Context
from companion.games.validation import RulesError
from companion.games.voynich import calculator, functions, rules
from companion.games.voynich.profile import CELL_GK_HI, validate_profile

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


# --- the table runs the tested rule functions: one way for each thing --------------------------

CARDS = {"botany": [3, 8], "astrology": [12, 15], "baths": [21, 24], "writings": [30, 33], "recipes": [36, 39]}


def solo_table(difficulty: str, seed: int = 7) -> tuple[dict, Context]:
    ctx = Context(names=("Ana",), options={}, profile={}, seed=seed)
    state = GAME.apply(GAME.initial_state(["Ana"], {}, {}), "solo_setup", {"cards": CARDS, "difficulty": difficulty}, ctx)
    return state, ctx


def test_the_book_on_the_table_is_the_rule_functions_book_order():
    """A player's `book` and Voynich's setup keep the cards in rules.book's order [V58]."""
    state, ctx = solo_table("medium")
    assert state["players"][1]["cards"] == rules.book(CARDS) == [3, 8, 12, 15, 21, 24, 30, 33, 36, 39]
    other = {s: [n + 1 for n in pair] for s, pair in CARDS.items()}
    state = GAME.apply(state, "book", {"player": 0, "cards": other}, ctx)
    assert state["players"][0]["cards"] == rules.book(other)


def test_voynichs_turns_on_the_table_are_the_rule_functions_turns():
    """Every flip the table makes is rules.voynich_turn on its own deck with its own generator, and the
    page it opens is studied as rules.next_phase says: over 40 turns, skips, reshuffles, re-flips and
    final phases included (the `solo_turns` function runs the same rules.voynich_turn)."""
    for difficulty, seed in (("very_hard", 7), ("easy", 11)):
        state, ctx = solo_table(difficulty, seed)
        seen = {"reshuffled": 0, "skipped": 0, "final": 0}
        for n in range(40):
            state = GAME.apply(state, "end_turn", {}, ctx)  # Ana's turn ends: Voynich plays
            for event in ("voynich_flip",) + (("voynich_reflip",) if n % 3 == 2 else ()):
                v = state["voynich"]
                want = rules.voynich_turn(v["cards"], v["deck"], v["discard"], v["open"],
                                          ctx.rng("voynich", "flip", v["flips"]))
                page = rules.book(v["cards"]).index(want["page_card"])
                before = state["players"][1]["pages"][page]["phase"]
                state = GAME.apply(state, event, {}, ctx)
                turn = state["voynich"]["turn"]
                assert {k: turn[k] for k in ("card", "skipped", "reshuffled")} == {k: want[k] for k in ("card", "skipped", "reshuffled")}
                assert (turn["spread"], turn["page"], turn["page_index"]) == (want["spread"], want["page"], page)
                assert (state["voynich"]["deck"], state["voynich"]["discard"]) == (want["deck"], want["discard"])
                studied = event == "voynich_flip" and rules.next_phase(before) is not None
                assert turn["studied"] is studied
                assert turn["phase"] == state["players"][1]["pages"][page]["phase"] == (rules.next_phase(before) if studied else before)
                seen["reshuffled"] += turn["reshuffled"]
                seen["skipped"] += bool(turn["skipped"])
                seen["final"] += event == "voynich_flip" and not studied
            state = GAME.apply(state, "end_turn", {}, ctx)
        assert all(seen.values()), seen  # every path was taken


def test_a_players_study_is_rule_next_phase_and_the_panel_offers_it_only_then():
    ctx = Context(names=("Ana", "Ben"))
    state = GAME.initial_state(["Ana", "Ben"], {}, {})
    for phase in range(1, rules.LAST_PHASE + 1):
        state = GAME.apply(state, "page", {"player": 0, "page": 3, "phase": phase}, ctx)
        shown = GAME.view(state, ["Ana", "Ben"], {}, {}, None)["players"][0]["pages"][3]
        assert shown["can_study"] is (rules.next_phase(phase) is not None)
        if rules.next_phase(phase) is None:
            try:
                GAME.apply(state, "study", {"player": 0, "page": 3}, ctx)
            except RulesError as err:
                assert err.field == "data.page"
            else:
                raise AssertionError("a page in its final phase was studied")
        else:
            studied = GAME.apply(state, "study", {"player": 0, "page": 3}, ctx)
            assert studied["players"][0]["pages"][3]["phase"] == rules.next_phase(phase)


def refused(run, *args) -> str | None:
    """The field a check refuses, None where it accepts."""
    try:
        run(*args)
    except RulesError as err:
        return err.field
    return None


def test_every_multiplier_check_is_the_one_rule_check():
    """A page's multiplier is 0, 1, 2 or 4 [V361] [V91]: the `page` event, a row, the box profile's
    catalogue and the `score` document all accept exactly what functions.multiplier accepts."""
    ctx = Context(names=("Ana", "Ben"))
    state = GAME.apply(GAME.initial_state(["Ana", "Ben"], {}, {}), "page", {"player": 0, "page": 2, "phase": 3}, ctx)
    for m in (-1, 0, 1, 2, 3, 4, 5, 8, True, 2.0, "2", None):
        ok = refused(functions.multiplier, m, "x") is None
        assert (refused(GAME.apply, state, "page", {"player": 0, "page": 2, "multiplier": m}, ctx) is None) is ok, m
        pages = {s: [0, 0] for s in rules.SECTIONS}
        assert (refused(calculator.check_sheet, row(0, 1, (1, 1, 1, 1), pages=dict(pages, astrology=[m, 0])), 2, None) is None) is ok, m
        catalogue = {"12": {"section": "astrology", "multipliers": [1, m, 4]}}
        assert (refused(validate_profile, {"cards": catalogue}) is None) is ok, m
        doc = {"track": {"scoring_spaces": SPACES}, "players": [
            {"name": "Ana", "gk": 1, "markers": row(0, 1, (1, 1, 1, 1))["markers"], "research": [],
             "pages": [{"section": "baths", "multiplier": m}]}]}
        assert (refused(functions.score, doc) is None) is ok, m


def test_voynichs_tokens_count_where_the_rule_says_they_do():
    """Hard and above count his tokens on the board [V494-495]: the tracked score's missing values,
    a calculator row and the `score` document all ask for them exactly then."""
    for difficulty in rules.DIFFICULTIES:
        counts = rules.counts_tokens(difficulty)
        assert counts is (rules.TOKEN_GK[difficulty] > 0)
        state, ctx = solo_table(difficulty)
        _, missing = calculator.tracked_doc(state, ["Ana"], {}, {})
        assert any("tokens on the board" in m for m in missing) is counts
        ctx = Context(names=("Ana",), options=CALC)
        calc = GAME.initial_state(["Ana"], CALC, {})
        voynich_row = row(1, 10, (1, 2, 3, 4), difficulty=difficulty)
        assert (refused(GAME.apply, calc, "sheet", voynich_row, ctx) == "data.tokens_on_board") is counts
        doc = {"track": {"scoring_spaces": SPACES}, "players": [
            {"name": n, "gk": 1, "markers": voynich_row["markers"], "research": [], "pages": []} for n in ("Ana", "Voynich")],
            "solo": {"difficulty": difficulty, "automa": "Voynich"}}
        assert (refused(functions.score, doc) == "solo.tokens_on_board") is counts


def test_every_puzzle_space_gk_has_the_one_bound():
    """The GK printed on a puzzle space (B3) is checked against one bound wherever it is typed."""
    ctx = Context(names=("Ana",))
    state, ctx = solo_table("medium")
    state["players"][1]["exchange"]["baths"] = 1
    for gk, ok in ((CELL_GK_HI, True), (CELL_GK_HI + 1, False)):
        assert (refused(GAME.apply, state, "research", {"player": 0, "gk": gk}, ctx) is None) is ok
        assert (refused(GAME.apply, state, "exchange", {"player": 1, "type": "baths", "gk": gk}, ctx) is None) is ok
        assert (refused(calculator.check_sheet, row(0, 1, (1, 1, 1, 1), (gk,)), 2, None) is None) is ok
        assert (refused(validate_profile, {"grid": [[gk]]}) is None) is ok


def test_the_end_turn_button_shows_exactly_when_the_table_takes_end_turn():
    """On Voynich's turn the turn ends only after his flip [V387]: the panel's button follows the table's rule."""
    state, ctx = solo_table("medium")
    for step in ("end_turn", "voynich_flip", "end_turn", "end_turn", "voynich_flip", "voynich_reflip"):
        shown = GAME.view(state, ["Ana"], {}, {}, None)["can_end_turn"]
        assert shown is (refused(GAME.apply, state, "end_turn", {}, ctx) is None), step
        state = GAME.apply(state, step, {}, ctx)


@pytest.mark.parametrize("field", ["grid_cells.0:int", "track.insights:int", "solo_spaces.recipes:int",
                                   "track.spaces:int", "cards.7.multipliers:int", "cards.7.choices:int", "grid:int"])
def test_the_profile_page_shows_any_refused_shape_again_without_failing(client, field):
    """A field of an odd shape is refused in words and the form shown again: never a 500 (BRIEF 4)."""
    response = client.post("/profiles/new/voynich", data=MultiDict([("profile_name", "Odd"), (field, "5")]))
    assert response.status_code == 400, response.status_code
    assert 'role="alert"' in response.get_data(as_text=True)
