"""Gutenberg's seams (issue 30): its knowledge in its package, one way for each thing.

The view gives the templates what they show, the calculator mode is read from the options alone,
and the table runs the tested rule functions (that no template computes a rule is checked for every
game by tests/foundation/test_templates.py).
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from companion.games import get
from companion.games.base import Context
from companion.games.gutenberg import automa, rules, view
from companion.games.gutenberg import table as table_module
from companion.games.validation import RulesError
from companion.web.connection import get_db

from .test_calculator import NAMES, ROWS, expected, row
from .test_table import ACTIONS, START, Table
from .test_web import ok, open_table

GAME = get("gutenberg")
ROOT = Path(__file__).resolve().parents[2]


# --- calculator mode: decided by the options alone ------------------------------------------------

def test_the_calculator_mode_is_read_from_the_options_not_from_the_state(api):
    # a calculator table's `rows_in` says whose rows are in; it is no mode flag: the same state read with a
    # tracked table's options is read as a tracked table's, and with the calculator option as a calculator's
    t = api.create("gutenberg", NAMES, calculator=True)
    state = t["state"]
    assert GAME.running_score(state, {"calculator": True}) is None
    assert GAME.running_score(state, {"first_player": 0}) == [0, 0, 0, 0]
    assert GAME.start_player(state, {"first_player": 0}) == 0
    board = GAME.view(state, NAMES, {"first_player": 0}, {}, None)["scoreboard"]
    assert [(r["score"], r["status"]) for r in board] == [(0, "first player"), (0, None), (0, None), (0, None)]
    board = GAME.view(state, NAMES, {"calculator": True}, {}, None)["scoreboard"]
    assert [(r["score"], r["status"]) for r in board] == [(None, "waiting")] * 4


#: states as the app stored them before issue 30 (main 9a2a616): a calculator table of three with Anna's
#: and Ben's rows in, and a tracked table of two in round 6 (JSON, as the tables row holds it)
OLD_CALCULATOR = (
    '{"round": 1, "seats": [0, 1, 2], "first": 0, "players": ['
    '{"fame": 62, "guilders": 7, "types": 6, "inks": 2, "specialties": {"typesetting": 4, "woodcutting": 2, "binding": 3, '
    '"illuminating": 1}, "rewards": [], "patronage_cards": 2, "character": "hieronymus_vietor", "markers": null, "used": {}}, '
    '{"fame": 72, "guilders": 9, "types": 7, "inks": 1, "specialties": {"typesetting": 5, "woodcutting": 3, "binding": 2, '
    '"illuminating": 0}, "rewards": [], "patronage_cards": 2, "character": null, "markers": null, "used": {}}, '
    '{"fame": 0, "guilders": 10, "types": 3, "inks": 0, "specialties": {"typesetting": 0, "woodcutting": 0, "binding": 0, '
    '"illuminating": 0}, "rewards": [], "patronage_cards": 0, "character": null, "markers": null, "used": {}}], '
    '"automa": null, "notice": {"player": 1, "text": "row saved; waiting for Cleo"}, "finished": false, '
    '"rows_in": [true, true, false]}')
OLD_TRACKED = (
    '{"round": 6, "seats": [0, 1], "first": 1, "players": ['
    '{"fame": 0, "guilders": 10, "types": 3, "inks": 0, "specialties": {"typesetting": 0, "woodcutting": 0, "binding": 0, '
    '"illuminating": 0}, "rewards": [], "patronage_cards": 0, "character": null, "markers": null, "used": {}}, '
    '{"fame": 30, "guilders": 10, "types": 3, "inks": 0, "specialties": {"typesetting": 0, "woodcutting": 0, "binding": 0, '
    '"illuminating": 0}, "rewards": [], "patronage_cards": 0, "character": null, "markers": null, "used": {}}], '
    '"automa": null, "notice": null, "finished": false}')


def stored_as(app, t: dict, state: str) -> None:
    """Put a state into the table's row as an older version of the app wrote it."""
    with app.app_context():
        get_db().execute("UPDATE tables SET state = ? WHERE id = ?", [state, t["table"]])


def test_old_stored_states_still_load_and_play(app, client, api):
    names = ["Anna", "Ben", "Cleo"]
    t = api.create("gutenberg", names, calculator=True)
    stored_as(app, t, OLD_CALCULATOR)
    page_url = open_table(client, t)
    assert "Waiting for: <bdi>Cleo</bdi>" in client.get(page_url).get_data(as_text=True)
    ok(api.event(t, "sheet", row(2)))
    assert api.get(t)["state"]["finished"] and api.get(t)["state"]["rows_in"] == [True, True, True]
    assert api.final_result(t) == expected(ROWS[:3], names)
    assert "<bdi>Cleo</bdi> wins" in client.get(page_url).get_data(as_text=True)

    t = api.create("gutenberg", ["Ann", "Ben"])
    stored_as(app, t, OLD_TRACKED)
    page_url = open_table(client, t)
    assert "Round 6 of 6" in client.get(page_url).get_data(as_text=True)
    ok(api.event(t, "end_round"))
    assert api.final_result(t)["winners"] == ["Ben"]
    assert GAME.running_score(api.get(t)["state"], {}) == [0, 30]
    ok(api.event(t, "sheet", dict(ROWS[3], player=0)))  # a correction at final scoring
    assert api.final_result(t)["winners"] == ["Ann"]
    assert "<bdi>Ann</bdi> wins" in client.get(page_url).get_data(as_text=True)


# --- the handler table, written out ---------------------------------------------------------------

def written_out(module: Path, name: str = "HANDLERS") -> list[str]:
    """Return the event types a module's handler table names, failing unless each is written out."""
    tree = ast.parse(module.read_text("utf-8"))
    table = next(n.value for n in tree.body if isinstance(n, ast.Assign) and ast.unparse(n.targets[0]) == name)
    assert isinstance(table, ast.Dict), f"{module.name}: {name} is a dict literal"
    types = []
    for key, value in zip(table.keys, table.values):
        if key is None:  # `**solo.HANDLERS`: another handler table, itself written out
            assert isinstance(value, ast.Attribute) and value.attr == name, ast.unparse(value)
            continue
        assert isinstance(key, (ast.Constant, ast.Attribute)), ast.unparse(key)
        types.append(ast.unparse(key))
    return types


def test_the_handler_tables_are_written_out_event_by_event():
    package = ROOT / "companion" / "games" / "gutenberg"
    from companion.games.base import COMMON_EVENTS  # every game's events (games/seats.py), handled there

    assert len(written_out(package / "table.py")) + len(written_out(package / "solo.py")) == len(set(GAME.events) - set(COMMON_EVENTS))


# --- the table runs the tested rule functions -------------------------------------------------------

@pytest.mark.parametrize("names,options", [
    (["A", "B"], {}), (["A", "B", "C"], {"first_player": 2}), (["A", "B", "C", "D"], {"first_player": 1}),
    (["Ada"], {"automa": True}), (["A", "B"], {"automa": True, "automa_seat": 1}),
    (["A", "B", "C"], {"automa": True, "automa_seat": 3}),
])
def test_end_round_passes_the_token_as_the_rule_function_does(names, options):
    # [GB291] [GB292] rules.pass_token, tested on its own (test_rules.py), is what the table does each round:
    # the new first seat, and what every seat holds after, the automa's markers included
    table = Table(names, options, {"automa_start": START})
    for round_ in range(1, 6):
        state = table.state
        counts = [table_module.holding(state, who) for who in state["seats"]]
        first, held = rules.pass_token(counts, state["first"])
        if state["automa"]:
            table.do("automa_card", card={"centre": ACTIONS[round_ % 5], "moves": [["max", "min"]]})
        after = table.do("end_round")
        assert after["first"] == first, round_
        assert [table_module.holding(after, who) for who in after["seats"]] == held, round_
        if after["automa"]:
            assert sum(after["automa"]["markers"].values()) == held[after["seats"].index("automa")], round_


#: each power the table applies: the view's flag that offers it, its character, and the event that uses it
POWERS = [
    ("can_shift", "johannes_gutenberg", "gutenberg_shift", {"from": "take_inks", "to": "patronage"}),
    ("can_swap", "christophorus_plantinus", "plantinus_swap", {"first": "binding", "second": "woodcutting"}),
    ("can_torinus", "godofredus_torinus", "torinus", {}),
    ("can_helena", "helena_ungler", "helena", {"level_one": "binding", "level_two": "typesetting"}),
]


def offered_and_taken(table: Table, flag: str, type_: str, data: dict) -> tuple[bool, bool]:
    """Return whether the panel offers Jo's power and whether the table takes its event, in this state."""
    state = table.state
    offered = GAME.view(state, table.names, table.options, table.profile, None)["players"][0][flag]
    try:
        GAME.apply(state, type_, dict(data, player=0), table.ctx)
    except RulesError:
        return offered, False
    return offered, True


@pytest.mark.parametrize("flag,character,type_,data", POWERS, ids=[p[2] for p in POWERS])
def test_the_panel_offers_a_character_power_exactly_when_the_table_takes_it(flag, character, type_, data):
    # one check for each power (table.power_open), read by the event and by the panel alike
    table = Table(["Jo", "Tom"])
    seen = [offered_and_taken(table, flag, type_, data)]  # no character yet
    table.do("character", player=0, character=character)
    seen.append(offered_and_taken(table, flag, type_, data))  # before the reveal
    table.do("markers", player=0, markers={"take_orders": 3, "take_inks": 4})
    seen.append(offered_and_taken(table, flag, type_, data))
    table.do(type_, player=0, **data)
    seen.append(offered_and_taken(table, flag, type_, data))  # used: once a round, Helena's once
    table.do("end_round")
    table.do("markers", player=0, markers={"take_orders": 4, "take_inks": 4})
    seen.append(offered_and_taken(table, flag, type_, data))  # a new round
    for _ in range(5):
        table.do("end_round")
    seen.append(offered_and_taken(table, flag, type_, data))  # the game is over
    assert [offered for offered, _ in seen] == [taken for _, taken in seen]
    assert [taken for _, taken in seen][2:4] == [True, False]


def automa_offers_and_takes(table: Table) -> list[tuple[str, bool, bool]]:
    """For each action: whether the automa's panel offers it and whether the table takes `automa_act` on it."""
    state = table.state
    panel = GAME.view(state, table.names, table.options, table.profile, None)["automa"]
    seen = []
    for action in ACTIONS:
        try:
            GAME.apply(state, "automa_act", {"action": action}, table.ctx)
            taken = True
        except RulesError:
            taken = False
        seen.append((action, bool(panel) and action in panel["can_act"], taken))
    return seen


def test_the_automa_panel_offers_an_action_exactly_when_the_table_takes_it():
    table = Table(["Ada"], {"automa": True}, {"automa_start": START})
    checks = [automa_offers_and_takes(table)]  # no planning card yet
    table.do("automa_card", card={"centre": "patronage", "moves": [["take_inks", "take_orders"]]})
    checks.append(automa_offers_and_takes(table))  # take_inks now empty
    state = table.do("automa_act", action="take_orders")
    checks.append(automa_offers_and_takes(table))  # a draw under way
    while table.state["automa"]["step"]:
        table.do("automa_answer", available=True)
    checks.append(automa_offers_and_takes(table))  # take_orders done
    for _ in range(6):
        if not table.state["automa"]["card"]:
            table.do("automa_card", card={"centre": "patronage", "moves": []})
        table.do("end_round")
    checks.append(automa_offers_and_takes(table))  # the game is over
    for seen in checks:
        assert [offered for _, offered, _ in seen] == [taken for _, _, taken in seen], seen
    assert [taken for _, _, taken in checks[1]] == [True, False, True, True, True]
    assert state["automa"]["step"]


@pytest.mark.parametrize("markers,arrow,words", [
    ((2, 1, 1, 2, 1), ["take_orders", "take_inks"], "Take orders → Take inks: one marker moves from Take orders to Take inks."),
    ((0, 1, 2, 2, 2), ["take_orders", "take_inks"],
     "Take orders → Take inks: Take orders is empty, so one marker moves from Take inks to Take orders."),
    ((0, 0, 3, 2, 2), ["take_orders", "take_inks"],
     "Take orders → Take inks: neither Take orders nor Take inks has a marker, nothing moves."),
    ((1, 6, 0, 0, 0), ["take_orders", "take_inks"], "Take orders → Take inks: Take inks already has 6 markers, nothing moves."),
    ((1, 1, 3, 1, 1), ["max", "develop_specialties"], "max. → Develop specialties: both are Develop specialties, nothing moves."),
])
def test_each_arrow_of_a_planning_card_is_said_as_the_automa_applied_it(markers, arrow, words):
    # [GB358] [GB367] GUT-C14 GUT-C15: what automa.arrow did, in the panel's words
    _, steps = automa.apply_card(dict(zip(ACTIONS, markers)), {"centre": "patronage", "moves": [arrow]})
    assert view.step_text(steps[0].as_json()) == words


# --- the templates show what the view computes with the rules ---------------------------------------

def panel(table: Table, screen=None) -> dict:
    return GAME.view(table.state, table.names, table.options, table.profile, screen)


def test_the_panel_prices_types_and_inks_with_the_rules():
    table = Table(["Ann", "Ben"])
    table.do("types", player=1, delta=-3)
    v = panel(table)
    # [GB242-244] the n-th type costs n guilders: Ann owns 3, Ben none
    assert [p["buy_label"] for p in v["players"]] == [
        f"Buy a type: {rules.type_cost(3, 1)} guilders", "Buy a type: 1 guilder"]
    # [GB145] a set of 3 inks, taken left to right: free, 1, 2 guilders
    assert v["ink_positions"] == [{"first": 1, "label": "left (free)"}, {"first": 2, "label": "centre (1)"},
                                  {"first": 3, "label": "right (2)"}]
    assert [rules.ink_cost(p["first"], 1) for p in v["ink_positions"]] == [0, 1, 2]
    assert v["ink_counts"] == [1, 2, 3]


def test_the_panel_words_the_rounds_rewards_and_character_powers_with_the_rules():
    table = Table(["Geo", "Hel", "Carola"])
    for player, character in enumerate(("godofredus_torinus", "helena_ungler", "carola_guillard")):
        table.do("character", player=player, character=character)
    v = panel(table)
    assert v["torinus_yes"] == "Yes: +3 fame for "  # [GB405]
    assert v["helena_label"] == "Helena's setup (+1 ink)"  # [GB404]
    assert v["shift_label"] == "Gutenberg shifts 1 marker from"  # [GB398]
    assert v["reward_spaces"] == 4  # [GB162] II, IV, V, VI
    assert [p["reminder"] for p in v["players"]] == [None, None, "Carola Guillard: draw 4 random gears, keep 2 and install them."]
    assert not v["last_round"]
    for _ in range(5):
        table.do("end_round")
    assert panel(table)["last_round"]  # [GB93] round 6 of 6: the next end is the game's


def test_the_end_screen_words_each_tie_break_and_marks_the_winners():
    table = Table(["Ann", "Ben", "Cy"])
    table.do("buy_types", player=1, count=1)
    table.do("guilders", player=1, delta=4)  # Ann and Cy: 3 types, Ben 4: Ben loses the tie on fewer types
    final = panel(table, "end")["final"]
    lines = {r["name"]: (r["winner"], r["tie_line"]) for r in final["rows"]}
    assert lines == {"Ann": (True, "Tied on 3: the tie stands (3 types, 0 inks)"),
                     "Cy": (True, "Tied on 3: the tie stands (3 types, 0 inks)"),
                     "Ben": (False, "Tied on 3: decided by fewer types (4 types, 0 inks)")}
    table.do("fame", player=2, delta=1)
    final = panel(table, "end")["final"]
    assert {r["name"]: (r["winner"], r["tie_line"]) for r in final["rows"]} == {
        "Cy": (True, None), "Ann": (False, "Tied on 3: decided by fewer types (3 types, 0 inks)"),
        "Ben": (False, "Tied on 3: decided by fewer types (4 types, 0 inks)")}


def test_each_row_of_a_calculator_table_says_where_it_stands():
    options = {"automa": False, "first_player": 0, "calculator": True}
    ctx = Context(names=tuple(NAMES), options=options)
    state = GAME.initial_state(NAMES, options, {})
    for i in range(3):
        state = GAME.apply(state, "sheet", row(i), ctx)
    v = GAME.view(state, NAMES, options, {}, None)
    assert [r["status"] for r in v["sheets"]] == ["Row in; waiting for Dan"] * 3 + ["Not in yet"]
    assert v["rounds"] == 6 and v["level_hint"] == "level 0–6 (VI = 6)"  # [GB93] [GB166]
    state = GAME.apply(state, "sheet", row(3), ctx)
    v = GAME.view(state, NAMES, options, {}, None)
    result = expected(ROWS)
    places = {name: "winner" if place == 1 else f"place {place}" for name, place in result["places"].items()}
    assert [r["status"] for r in v["sheets"]] == [f"Row in: {p['total']} points, {places[p['name']]}"
                                                  for p in result["players"]]
    assert places["Cleo"] == "winner" and "winner" not in [places[n] for n in ("Anna", "Ben", "Dan")]


def test_the_automa_panel_and_the_box_profile_form_take_their_numbers_from_the_rules():
    table = Table(["Ada"], {"automa": True})
    assert panel(table)["automa"]["start_markers"] == 7  # [GB318]
    assert panel(table)["arrow_ends"] == [("min", "min."), ("max", "max.")]  # [GB360-363]
    form = view.profile_form()
    assert [a["label"] for a in form["actions"]] == [a["label"] for a in panel(table)["actions"]]
    assert (form["planning_cards"], form["start_markers"], form["max_per_action"]) == (10, 7, 6)  # [GB330] [GB318] [GB114]
    assert form["card_numbers"] == list(range(1, 11)) and form["reward_spaces"] == 4
    assert form["reward_levels"] == "II, IV, V or VI" and form["reward_kinds"] == [
        ("ink", "1 ink"), ("order", "1 order"), ("type", "1 free type")]  # [GB162] [GB168-172]
    setup = view.setup_form()
    assert setup == {"automa_players": "1 to 3", "automa_seats": 3,  # [GB313]
                     "first_players": [{"index": 1, "label": "Player 2"}, {"index": 2, "label": "Player 3"},
                                       {"index": 3, "label": "Player 4"}]}  # [GB56]


@pytest.mark.parametrize("key,most", [("fame", 999), ("guilders", 999), ("patronage_cards", 16), ("types", 999),
                                      ("inks", 48)])
def test_a_count_has_one_bound_on_the_steppers_in_a_row_and_in_the_score_function(key, most):
    # [GB36] 16 patronage cards, [GB43] 48 inks; fame, guilders and types have no printed bound (999 stops typos)
    values = {"fame": 0, "guilders": 0, "specialties": dict.fromkeys(("typesetting", "woodcutting", "binding", "illuminating"), 0),
              "patronage_cards": 0, "types": 0, "inks": 0}

    def taken(type_, data, options=None):
        table = Table(["Ann", "Ben"])
        ctx = Context(names=("Ann", "Ben"), options=dict(table.options, **(options or {})))
        state = GAME.initial_state(["Ann", "Ben"], ctx.options, {})
        if options is None:
            for _ in range(6):
                state = GAME.apply(state, "end_round", {}, ctx)
        try:
            GAME.apply(state, type_, data, ctx)
            return True
        except RulesError:
            return False

    def scored(value):
        try:
            GAME.functions["score"].run({"players": [dict(values, name="Ann", **{key: value})]})
            return True
        except RulesError:
            return False

    start = {"fame": 0, "guilders": 10, "types": 3, "inks": 0, "patronage_cards": 0}[key]
    for value, fits in ((most, True), (most + 1, False)):
        assert taken(key, {"player": 0, "delta": value - start}) is fits, ("stepper", value)
        assert taken("sheet", dict(values, player=0, **{key: value})) is fits, ("tracked row", value)
        assert taken("sheet", dict(values, player=0, **{key: value}), {"calculator": True}) is fits, ("calculator row", value)
        assert scored(value) is fits, ("score", value)
