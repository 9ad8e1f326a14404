"""Gutenberg's results hooks (issue 12): a whole game to its end over the API, tracked and in calculator mode.

`final_result` must be exactly the `score` rules function run on the values the players entered,
and the result endpoint must agree with it. Every expected value here is computed from what the
test entered (the rule text's costs), never typed in as a total.
"""

from __future__ import annotations

import pytest

from companion.games import get

from .test_web import ok

GAME = get("gutenberg")
SPECIALTIES = ("typesetting", "woodcutting", "binding", "illuminating")
ACTIONS = ("take_orders", "take_inks", "develop_specialties", "improve_printing_houses", "patronage")
#: the automa's starting layout as entered from the rulebook's picture (7 markers) and one tapped card
START = {"take_orders": 2, "take_inks": 1, "develop_specialties": 1, "improve_printing_houses": 2, "patronage": 1}
CARD = {"centre": "develop_specialties", "moves": [["take_orders", "take_inks"]], "patronage": False}
#: [GB145] left ink free, centre 1 guilder, right 2
INK_COSTS = (0, 1, 2)


def score(ledger: list[dict], names: list[str]) -> dict:
    """The `score` rules function on a document built from the values the test entered."""
    players = []
    for name, p in zip(names, ledger):
        entry = {"name": name, **{k: p[k] for k in ("fame", "guilders", "patronage_cards", "types", "inks")},
                 "specialties": dict(p["specialties"])}
        if p.get("character"):
            entry["character"] = p["character"]
        players.append(entry)
    return GAME.functions["score"].run({"players": players, "solo": len(players) == 1})


def check_endpoint_agrees(api, t, expected: dict) -> dict:
    """GET .../result answers 200 with the score function's totals, breakdowns, places and winners."""
    response = api.result(t)
    assert response.status_code == 200, response.get_json()
    doc = response.get_json()
    assert doc["table"] == t["table"] and doc["game"] == "gutenberg"
    assert [(p["name"], p["total"], p["breakdown"], p["place"]) for p in doc["players"]] == [
        (p["name"], p["total"], p["breakdown"], expected["places"][p["name"]]) for p in expected["players"]]
    assert doc["winners"] == expected["winners"]
    return doc


def check_endpoint_not_over(api, t) -> None:
    response = api.result(t)
    assert response.status_code == 409, response.get_json()
    assert response.get_json()["field"] == "table"


class Player:
    """One player's values as the test enters them, changed by the rule text's costs."""

    def __init__(self):
        # [GB80] fame 0; [GB81] 10 guilders; [GB89] 3 types; [GB79] specialties on the lowest space
        self.v = {"fame": 0, "guilders": 10, "types": 3, "inks": 0, "patronage_cards": 0,
                  "specialties": dict.fromkeys(SPECIALTIES, 0), "character": None}


class Game:
    """A tracked table driven over the API, with the test's own ledger of what was entered."""

    def __init__(self, api, names, **options):
        self.api, self.names = api, names
        self.t = api.create("gutenberg", names, **options)
        self.ledger = [Player().v for _ in names]

    def do(self, type_, **data):
        return ok(self.api.event(self.t, type_, data))["state"]

    def fame(self, i, n):
        self.ledger[i]["fame"] += n
        return self.do("fame", player=i, delta=n)

    def guilders(self, i, n):
        self.ledger[i]["guilders"] += n
        return self.do("guilders", player=i, delta=n)

    def inks(self, i, first, count):
        self.ledger[i]["guilders"] -= sum(INK_COSTS[first - 1:first - 1 + count])
        self.ledger[i]["inks"] += count
        return self.do("take_inks", player=i, first=first, count=count)

    def buy_types(self, i, count):
        owned = self.ledger[i]["types"]
        # [GB242-244] the n-th type costs n guilders
        self.ledger[i]["guilders"] -= sum(range(owned + 1, owned + count + 1))
        self.ledger[i]["types"] += count
        return self.do("buy_types", player=i, count=count)

    def develop(self, i, specialty, steps=1):
        assert self.ledger[i]["specialties"][specialty] + steps <= 6  # no blocked step in this game
        self.ledger[i]["specialties"][specialty] += steps
        return self.do("develop", player=i, specialty=specialty, steps=steps)

    def patronage(self, i):
        self.ledger[i]["patronage_cards"] += 1
        return self.do("patronage_cards", player=i, delta=1)

    def character(self, i, key):
        self.ledger[i]["character"] = key
        return self.do("character", player=i, character=key)

    def plans(self, state):
        """Every player reveals a plan of all the markers they hold this round [GB77] [GB114]."""
        seats, first = state["seats"], state["first"]
        for i in range(len(self.names)):
            held = 7 + (seats.index(i) - first) % len(seats)  # [GB77] 7, 8, 9, 10 from the first player
            markers, left = {}, held
            for action in ACTIONS:
                markers[action] = min(left, 2 if action != ACTIONS[-1] else 6)
                left -= markers[action]
            assert left == 0
            self.do("markers", player=i, markers=markers)


# --- a whole tracked game ------------------------------------------------------------------------

def play_three_player_game(game: Game, app, api, last=True) -> dict:
    """Six rounds of Anna, Tom and Kate, Tom first; returns the state before the last end_round."""
    state = api.get(game.t)["state"]
    assert GAME.running_score(state, {}) == [0, 0, 0]
    game.character(1, "hieronymus_vietor")  # [GB407] his guilders count double
    game.character(2, "johannes_gutenberg")
    for rnd in range(1, 7):
        game.plans(state)
        game.inks(rnd % 3, 1, 3)  # the whole set: 0 + 1 + 2 guilders
        game.inks((rnd + 1) % 3, 2, 1)
        game.develop(rnd % 3, SPECIALTIES[rnd % 4])
        if rnd in (2, 4):
            game.develop(2, "binding", 2)
        if rnd >= 3:  # [GB207] no patronage cards in rounds 1 and 2
            game.patronage(rnd % 2)
        for i in range(3):
            game.guilders(i, 3 + i + rnd)  # orders fulfilled
            state = game.fame(i, 4 * rnd + 2 * i)
        if rnd in (2, 4):
            game.buy_types(0, 2)
        if rnd == 1:
            # fame rises as the game goes, seat by seat
            assert GAME.running_score(state, {}) == [p["fame"] for p in game.ledger] == [4, 6, 8]
        if rnd < 6:
            state = game.do("end_round")
            assert GAME.final_result(state, game.names, {}, {}) is None
            check_endpoint_not_over(api, game.t)
    assert api.final_result(game.t) is None
    check_endpoint_not_over(api, game.t)
    return game.do("end_round") if last else state


def test_whole_tracked_game_scores_as_the_score_function_and_the_endpoint_agrees(app, api):
    game = Game(api, ["Anna", "Tom", "Kate"], first_player=1)
    state = play_three_player_game(game, app, api)
    assert state["finished"] and state["round"] == 6
    expected = score(game.ledger, game.names)
    result = api.final_result(game.t)
    assert result == expected
    assert [p["name"] for p in result["players"]] == game.names  # seat order
    assert GAME.running_score(state, {}) == [p["fame"] for p in game.ledger]
    doc = check_endpoint_agrees(api, game.t, expected)
    assert doc["players"][1]["breakdown"]["guilders"] == 2 * (game.ledger[1]["guilders"] // 3)  # Vietor [GB407]


def test_a_correction_after_the_end_and_undo_move_the_result(app, api):
    game = Game(api, ["Anna", "Tom", "Kate"], first_player=1)
    play_three_player_game(game, app, api)
    # at final scoring Kate's row corrects her counts: a patronage card the table never heard of
    game.ledger[2]["patronage_cards"] += 1
    row = {k: game.ledger[2][k] for k in ("fame", "guilders", "types", "inks", "patronage_cards", "specialties",
                                          "character")}
    game.do("sheet", player=2, **row)
    expected = score(game.ledger, game.names)
    assert api.final_result(game.t) == expected
    check_endpoint_agrees(api, game.t, expected)
    ok(api.undo(game.t))
    game.ledger[2]["patronage_cards"] -= 1
    assert api.final_result(game.t) == score(game.ledger, game.names)
    ok(api.undo(game.t))  # the last end_round: the game is not over any more
    assert api.final_result(game.t) is None
    check_endpoint_not_over(api, game.t)


def test_final_result_is_a_fresh_document_the_end_screen_does_not_touch(app, api):
    game = Game(api, ["Anna", "Tom", "Kate"], first_player=1)
    state = play_three_player_game(game, app, api)
    table = api.stored(game.t)
    first = GAME.final_result(state, game.names, table.options, table.profile)
    view = GAME.view(state, game.names, table.options, table.profile, "end")
    assert first == score(game.ledger, game.names)  # the view decorated its own copy, not this one
    first["players"][0]["total"] = -1
    first["winners"].append("nobody")
    assert GAME.final_result(state, game.names, table.options, table.profile) == score(game.ledger, game.names)
    # the end screen's line is the verdict of the same result
    assert view["final"]["winner_line"] == GAME.verdict(score(game.ledger, game.names))


def test_start_player_is_the_first_player_of_round_one(app, api):
    game = Game(api, ["Anna", "Tom", "Kate"], first_player=2)
    table = api.stored(game.t)
    assert GAME.start_player(table.state, table.options) == 2
    for _ in range(2):
        game.do("end_round")  # [GB291] the token passes clockwise: Anna holds it in round 3
    table = api.stored(game.t)
    assert table.state["first"] == 1 and GAME.start_player(table.state, table.options) == 2
    default = api.stored(api.create("gutenberg", ["Anna", "Tom"]))
    assert GAME.start_player(default.state, default.options) == 0


# --- a solo game against the automa -----------------------------------------------------------------

def test_whole_solo_game_has_the_one_human_with_a_title_and_no_start_player(app, api):
    game = Game(api, ["John"], automa=True)
    game.do("automa_layout", layout=START)
    game.character(0, "aldus_manutius")
    state = api.get(game.t)["state"]
    for rnd in range(1, 7):
        game.plans(state)
        game.do("automa_card", card=CARD)
        game.inks(0, 1, 2)
        game.develop(0, SPECIALTIES[rnd % 4])
        game.guilders(0, 4)
        if rnd >= 3:
            game.patronage(0)
        state = game.fame(0, 5 * rnd)
        assert GAME.running_score(state, {}) == [game.ledger[0]["fame"]]  # the automa has no fame
        if rnd == 6:
            assert api.final_result(game.t) is None
            check_endpoint_not_over(api, game.t)
        state = game.do("end_round")
    expected = score(game.ledger, game.names)
    result = api.final_result(game.t)
    assert result == expected and [p["name"] for p in result["players"]] == ["John"]
    assert "title" in result["players"][0]
    check_endpoint_agrees(api, game.t, expected)
    table = api.stored(game.t)
    # [GB327] the automa took the first-player token: no player of the result started
    assert GAME.start_player(table.state, table.options) is None
    assert GAME.verdict(result) == f"John earns the title {expected['players'][0]['title']}"


# --- calculator mode ------------------------------------------------------------------------------

#: the end values of four boards; Ben and Cleo tie and have the same types, so inks decide [GB307]
ROWS = [
    {"fame": 62, "guilders": 7, "specialties": dict(zip(SPECIALTIES, (4, 2, 3, 1))), "patronage_cards": 2,
     "types": 6, "inks": 2, "character": "hieronymus_vietor"},
    {"fame": 72, "guilders": 9, "specialties": dict(zip(SPECIALTIES, (5, 3, 2, 0))), "patronage_cards": 2,
     "types": 5, "inks": 3},
    {"fame": 78, "guilders": 5, "specialties": dict(zip(SPECIALTIES, (3, 4, 6, 1))), "patronage_cards": 1,
     "types": 5, "inks": 1, "character": "johannes_gutenberg"},
    {"fame": 55, "guilders": 12, "specialties": dict(zip(SPECIALTIES, (6, 1, 1, 2))), "patronage_cards": 1,
     "types": 4, "inks": 0, "character": "carola_guillard"},
]


def test_whole_calculator_game_scores_as_the_score_function_and_the_endpoint_agrees(app, api):
    names = ["Anna", "Ben", "Cleo", "Dan"]
    t = api.create("gutenberg", names, calculator=True)
    for i in (2, 0, 3):
        state = ok(api.event(t, "sheet", dict(ROWS[i], player=i)))["state"]
        assert GAME.final_result(state, names, {"calculator": True}, {}) is None
        assert GAME.running_score(state, {"calculator": True}) is None
    assert api.final_result(t) is None
    check_endpoint_not_over(api, t)
    ok(api.event(t, "sheet", dict(ROWS[1], player=1)))
    expected = score(ROWS, names)
    result = api.final_result(t)
    assert result == expected and [p["name"] for p in result["players"]] == names
    check_endpoint_agrees(api, t, expected)
    table = api.stored(t)
    assert GAME.running_score(table.state, table.options) is None
    assert GAME.start_player(table.state, table.options) is None
    totals = {p["name"]: p["total"] for p in result["players"]}
    assert totals["Ben"] == totals["Cleo"] and result["winners"] == ["Cleo"]
    assert GAME.verdict(result) == "Cleo wins on fewer inks"


def test_solo_calculator_game_has_the_one_human(app, api):
    t = api.create("gutenberg", ["John"], calculator=True, automa=True)
    check_endpoint_not_over(api, t)
    ok(api.event(t, "sheet", dict(ROWS[2], player=0)))
    expected = score([ROWS[2]], ["John"])
    assert api.final_result(t) == expected and len(expected["players"]) == 1
    check_endpoint_agrees(api, t, expected)


# --- the verdict: one per wording -------------------------------------------------------------------

def board(**values):
    base = {"fame": 80, "guilders": 6, "specialties": dict.fromkeys(SPECIALTIES, 0), "patronage_cards": 0,
            "types": 4, "inks": 2}
    return {**base, **values}


def verdict_of(*rows, names=("Tom", "Anna", "Kate")):
    return GAME.verdict(score(list(rows), list(names[:len(rows)])))


def test_verdict_names_the_winner_on_points():
    assert verdict_of(board(fame=90), board()) == "Tom wins"


def test_verdict_names_fewer_types():
    # [GB307] equal totals: fewer types wins
    assert verdict_of(board(types=5), board(types=4)) == "Anna wins on fewer types"


def test_verdict_names_fewer_inks():
    assert verdict_of(board(inks=1), board(inks=2)) == "Tom wins on fewer inks"


@pytest.mark.parametrize("rows, line", [
    ((board(), board()), "Shared victory: Tom and Anna (the tie stands after types and inks)"),
    ((board(), board(), board()), "Shared victory: Tom, Anna and Kate (the tie stands after types and inks)"),
    ((board(), board(fame=70), board()), "Shared victory: Tom and Kate (the tie stands after types and inks)"),
])
def test_verdict_names_a_shared_victory(rows, line):
    assert verdict_of(*rows) == line


def test_verdict_of_a_solo_game_gives_the_title():
    # the automa has no score (RULES.md D2 step 6): 111 is Apprentice [GB374]
    john = board(fame=84, guilders=4, patronage_cards=2, types=5, inks=1,
                 specialties=dict(zip(SPECIALTIES, (6, 3, 4, 5))))
    assert verdict_of(john, names=("John",)) == "John earns the title Apprentice"
