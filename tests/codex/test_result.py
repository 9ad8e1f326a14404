"""Issue 12, Codex's part: a finished table's result (calculator.final_result), the score track as
the archive's running score, the first player, and the one-line verdict.

Whole games run through the HTTP API, tracked and with the calculator; each result is
checked against the contract's `score` function run on a document built here from the values
the test entered, and against `GET /api/v1/tables/ID/result`.
"""

from __future__ import annotations

from companion.games.codex import GAME, functions
from companion.games.codex.calculator import needs

SCORE = functions.FUNCTIONS["score"].run
NAMES = ["Anna", "Ben", "Cleo"]
COMMON = [87, 95]  # three fungi on a rising diagonal (2 each); 2 per three visible fungi
SECRET = {0: 99, 1: 96, 2: 102}  # quill+inkwell+manuscript (3); three plants (2); a pair of quills (2)
#: Anna lays her cards in the app (manuscript mode): the starter, then three fungi face down
#: on a rising diagonal; their points come from the cards [CN46], their counts from the layout
ANNA_CARDS = [{"id": 81, "side": "front", "x": 0, "y": 0}, {"id": 1, "side": "back", "x": 1, "y": 1},
              {"id": 2, "side": "back", "x": 2, "y": 2}, {"id": 3, "side": "back", "x": 3, "y": 3}]


def ok(api, t, type_, data=None):
    response = api.event(t, type_, data)
    assert response.status_code == 200, response.get_json()
    return response.get_json()["state"]


def objectives(oids, patterns):
    """The score document's objectives of a player: by card, a pattern card with its count."""
    return [{"card": oid, "count": patterns[oid]} if needs(oid)[1] else {"card": oid} for oid in oids]


def assert_endpoint_matches(api, t, expected):
    response = api.result(t)
    assert response.status_code == 200, response.get_json()
    doc = response.get_json()
    assert [p["name"] for p in doc["players"]] == [p["name"] for p in expected["players"]]  # seat order
    assert [p["total"] for p in doc["players"]] == [p["total"] for p in expected["players"]]
    assert [p["breakdown"] for p in doc["players"]] == [p["breakdown"] for p in expected["players"]]
    assert {p["name"]: p["place"] for p in doc["players"]} == expected["places"]
    assert doc["winners"] == expected["winners"]


def assert_not_over(api, t):
    response = api.result(t)
    assert response.status_code == 409, response.get_data(as_text=True)[:300]
    assert response.get_json()["field"] == "table"


# --- a tracked game, from the first player to the counted objectives ------------------------------

def test_a_tracked_game_through_the_api_ends_with_the_score_functions_result(app, api):
    t = api.create("codex", NAMES)
    table = api.stored(t)
    assert GAME.start_player(table.state, table.options) is None  # not chosen yet
    ok(api, t, "first_player", {"player": 1})  # [CN36] Ben starts; play goes clockwise: Ben, Cleo, Anna
    ok(api, t, "common_objectives", {"cards": COMMON})
    for seat, card in SECRET.items():
        ok(api, t, "secret_objective", {"player": seat, "card": card})
    placement = [0, 0, 0]  # what the track should hold: Anna's comes from her cards

    def points(seat, delta):
        placement[seat] += delta
        return ok(api, t, "points", {"player": seat, "delta": delta})

    anna = iter(ANNA_CARDS)
    # rounds of Ben, Cleo, Anna until Ben reaches 20 [CN53]
    points(1, 3)
    points(2, 1)
    ok(api, t, "play_card", {"player": 0, **next(anna)})
    state = ok(api, t, "gold_corners", {"player": 1, "corners": 2})  # [CN47] 2 per corner
    placement[1] += 4
    assert GAME.running_score(state, {}) == [0, 7, 1]
    state = ok(api, t, "gold_objects", {"player": 2, "object": "quill", "count": 2})  # [CN48]
    placement[2] += 2
    ok(api, t, "play_card", {"player": 0, **next(anna)})
    points(1, 5)
    points(2, 5)
    ok(api, t, "play_card", {"player": 0, **next(anna)})
    points(1, 5)
    points(2, 3)
    ok(api, t, "play_card", {"player": 0, **next(anna)})
    state = points(1, 3)
    assert state["end"]["trigger"] == 1 and state["end"]["turns"] == [2, 0, 1, 2, 0]  # [CN54]
    assert GAME.running_score(state, {}) == [0, 20, 11]
    # the rest of the round, then everyone once more
    points(2, 1)
    ok(api, t, "turn_played")
    ok(api, t, "turn_played")
    points(1, 1)
    ok(api, t, "turn_played")
    points(2, 5)
    ok(api, t, "turn_played")
    ok(api, t, "turn_played")
    # the objective counter: Ben types his counts, Cleo saves her end card at once
    ok(api, t, "set_count", {"player": 1, "symbol": "plant", "value": 7})
    ok(api, t, "set_count", {"player": 1, "symbol": "fungi", "value": 4})
    ok(api, t, "pattern_count", {"player": 1, "card": 87, "delta": 1})
    cleo_visible = {"quill": 5, "fungi": 6}
    state = ok(api, t, "sheet", {"player": 2, "visible": cleo_visible, "patterns": {"87": 0}})
    assert GAME.running_score(state, {}) == placement

    table = api.stored(t)
    assert GAME.final_result(table.state, table.names, table.options, table.profile) is None
    assert_not_over(api, t)
    state = ok(api, t, "finish")

    # the score document of what was entered: Anna's area through the contract's manuscript function
    book = functions.FUNCTIONS["manuscript"].run({"cards": ANNA_CARDS, "objectives": [*COMMON, SECRET[0]]})
    assert book["placement_total"] == placement[0]
    anna_patterns = {oid: len(found) for oid, found in book["occurrences"].items()}
    typed = {1: ({"plant": 7, "fungi": 4}, {87: 1}), 2: (cleo_visible, {87: 0})}
    players = [{"name": "Anna", "placement_points": book["placement_total"], "visible": book["visible"],
                "objectives": objectives([*COMMON, SECRET[0]], {int(k): n for k, n in anna_patterns.items()})}]
    for seat in (1, 2):
        visible, patterns = typed[seat]
        players.append({"name": NAMES[seat], "placement_points": placement[seat], "visible": visible,
                        "objectives": objectives([*COMMON, SECRET[seat]], patterns)})
    expected = SCORE({"players": players})

    table = api.stored(t)
    result = GAME.final_result(table.state, table.names, table.options, table.profile)
    assert result == expected
    assert result is not GAME.final_result(table.state, table.names, table.options, table.profile)  # fresh
    assert GAME.start_player(table.state, table.options) == 1
    assert GAME.running_score(state, {}) == placement
    assert_endpoint_matches(api, t, expected)

    # undo reopens the game: no result again
    assert api.undo(t).status_code == 200
    table = api.stored(t)
    assert GAME.final_result(table.state, table.names, table.options, table.profile) is None
    assert_not_over(api, t)


def test_a_renamed_player_is_scored_under_the_new_name(app, api):
    t = api.create("codex", ["Anna", "Ben"], first_player=0)
    ok(api, t, "points", {"player": 0, "delta": 20})
    assert api.event(t, "rename", {"player": 1, "name": "Bea"}).status_code == 200
    for _ in range(3):  # [CN54] Anna (first) triggered: Ben, then both once more
        ok(api, t, "turn_played")
    ok(api, t, "finish")
    table = api.stored(t)
    expected = SCORE({"players": [{"name": "Anna", "placement_points": 20, "visible": {}, "objectives": []},
                                  {"name": "Bea", "placement_points": 0, "visible": {}, "objectives": []}]})
    assert GAME.final_result(table.state, table.names, table.options, table.profile) == expected
    assert_endpoint_matches(api, t, expected)


def test_start_player_is_the_option_or_the_draw(app, api):
    t = api.create("codex", NAMES, first_player=2)
    table = api.stored(t)
    assert GAME.start_player(table.state, table.options) == 2
    t = api.create("codex", NAMES)
    state = ok(api, t, "draw_first_player")
    assert GAME.start_player(state, api.stored(t).options) == state["first"] is not None
    # a calculator table tracked no turn, even with a first player among its options
    t = api.create("codex", NAMES, calculator=True, first_player=1)
    table = api.stored(t)
    assert table.state["first"] == 1 and GAME.start_player(table.state, table.options) is None


# --- a calculator table ------------------------------------------------------------------------

CALC_NAMES = ["Anna", "Ben", "Cleo", "Dan"]
CALC_COMMON = [91, 102]
#: Anna and Cleo tie on 29; Cleo has more from objectives [CN56]
ROWS = [
    {"placement_points": 21, "secret": 99, "visible": {"quill": 3, "inkwell": 2, "manuscript": 1}, "patterns": {"91": 1}},
    {"placement_points": 22, "secret": 96, "visible": {"quill": 2, "plant": 7}, "patterns": {"91": 0}},
    {"placement_points": 18, "secret": 88, "visible": {"quill": 4}, "patterns": {"91": 1, "88": 2}},
    {"placement_points": 20, "secret": 101, "visible": {"quill": 0, "inkwell": 5}, "patterns": {"91": 0}},
]


def test_a_calculator_table_ends_with_the_score_functions_result(app, api):
    t = api.create("codex", CALC_NAMES, calculator=True)
    ok(api, t, "common_objectives", {"cards": CALC_COMMON})
    for seat in (2, 0, 3):
        state = ok(api, t, "sheet", {"player": seat, **ROWS[seat]})
    assert GAME.running_score(state, {"calculator": True}) is None  # nothing ran during the game
    table = api.stored(t)
    assert GAME.final_result(table.state, table.names, table.options, table.profile) is None
    assert_not_over(api, t)
    state = ok(api, t, "sheet", {"player": 1, **ROWS[1]})
    assert state["finished"] is True

    expected = SCORE({"players": [
        {"name": name, "placement_points": row["placement_points"], "visible": row["visible"],
         "objectives": objectives([*CALC_COMMON, row["secret"]], {int(k): n for k, n in row["patterns"].items()})}
        for name, row in zip(CALC_NAMES, ROWS)]})
    table = api.stored(t)
    assert GAME.final_result(table.state, table.names, table.options, table.profile) == expected
    assert GAME.running_score(table.state, table.options) is None
    assert GAME.start_player(table.state, table.options) is None
    assert_endpoint_matches(api, t, expected)
    assert GAME.verdict(expected) == "Cleo wins the tie on 29 with the most points from objectives (11)"


# --- the verdict: one wording per way of winning [CN56] -------------------------------------------

def score(*players):
    """Score players given as (name, placement points, quills), with the pairs of quills objective."""
    return SCORE({"players": [{"name": n, "placement_points": p, "visible": {"quill": q}, "objectives": [{"card": 102}]}
                              for n, p, q in players]})


def test_verdict_of_a_clear_win():
    assert GAME.verdict(score(("Anna", 25, 0), ("Ben", 20, 2))) == "Anna wins with 25 points"


def test_verdict_of_a_tie_decided_by_objective_points():
    # Ben and Cleo on 24; Cleo has 4 from objectives, Ben 2 [CN56]
    result = score(("Anna", 20, 0), ("Ben", 22, 2), ("Cleo", 20, 4))
    assert GAME.verdict(result) == "Cleo wins the tie on 24 with the most points from objectives (4)"


def test_verdict_of_a_shared_victory():
    result = score(("Anna", 22, 2), ("Ben", 22, 3), ("Cleo", 10, 0))
    assert GAME.verdict(result) == "Shared victory: Anna and Ben, 24 points and 2 from objectives each"


def test_the_end_screen_says_the_verdict(client, api):
    t = api.create("codex", ["Anna", "Ben"], first_player=0)
    for type_, data in [("common_objectives", {"cards": [95, 102]}), ("points", {"player": 0, "delta": 20}),
                        ("points", {"player": 1, "delta": 18}), ("set_count", {"player": 1, "symbol": "quill", "value": 2}),
                        ("turn_played", {}), ("turn_played", {}), ("turn_played", {}), ("finish", {})]:
        ok(api, t, type_, data)
    # both on 20; Ben has 2 from objectives
    expected = SCORE({"players": [
        {"name": "Anna", "placement_points": 20, "visible": {}, "objectives": [{"card": 95}, {"card": 102}]},
        {"name": "Ben", "placement_points": 18, "visible": {"quill": 2}, "objectives": [{"card": 95}, {"card": 102}]}]})
    line = GAME.verdict(expected)
    assert line == "Ben wins the tie on 20 with the most points from objectives (2)"
    assert client.get(f"/join/{t['table']}/{t['token']}").status_code == 303
    page = client.get(f"/t/{t['table']}?screen=end").get_data(as_text=True)
    assert '<p class="winner"><bdi>Ben</bdi> wins the tie on 20 with the most points from objectives (2)</p>' in page
