"""Galileo's Truth results hooks (issue 12): final_result, running_score, start_player, verdict.

Whole games go through the HTTP API to their end, tracked and as a calculator; the result is
checked against the `score` rules function run on a document built here from the values the
players entered or read off their areas, never a hard-coded total.
"""

import html

from companion.games.galileo import GAME
from companion.games.galileo.functions import FUNCTIONS

from .test_table import PROFILE
from .test_web import join

NAMES = ["Ann", "Ben", "Cy"]
BOARD = {
    "suspicion_track": PROFILE["suspicion_track"],  # penance icons after 3, 6, 9; Prison after 11; Stake after 14
    "tiles": PROFILE["tiles"],  # tiles at 20 and 40
    "cathedral": PROFILE["cathedral"],
    "penance_cards": PROFILE["penance_cards"],
    "prohibition_suspicion": {c: {"copernican": 2, "ptolemaic": 1} for c in ("2", "3", "5")},
}


def score(cathedral, players):
    return FUNCTIONS["score"].run({"cathedral": cathedral, "players": players})


class Play:
    """One table driven through the HTTP API: each event must be taken (200)."""

    def __init__(self, client, api, names=NAMES, **options):
        self.client, self.api = client, api
        self.t = api.create("galileo", names, **options)
        self.names = names
        self.version = 0
        self.cycle_rounds = []  # this cycle's rounds: who passed, in the order they passed

    def __call__(self, type_, **data):
        response = self.api.event(self.t, type_, data, expected_version=self.version)
        assert response.status_code == 200, response.get_json()
        self.version = response.get_json()["version"]
        return response.get_json()["state"]

    @property
    def stored(self):
        """The stored table, as the app reads it back: (state, names, options)."""
        doc = self.api.get(self.t)
        return doc["state"], [p["name"] for p in doc["players"]]

    def final_result(self):
        """The game's final_result on the stored table, with its stored options (they say calculator or tracked)."""
        return self.api.final_result(self.t)

    def result(self):
        return self.client.get(f"/api/v1/tables/{self.t['table']}/result", headers=self.api.headers(self.t))


def next_order(rounds):
    """The Current Turn Order Track after the End of Cycle, modelled from the rule text:
    each round's passers go to the Passing Area, a later one to the left [GT367-371]; at the
    round's end they move down to the Future track keeping their order [GT380-388]; at the
    End of Cycle they return to the Current track keeping their places [GT704]."""
    order = []
    for passers in rounds:
        order += list(reversed(passers))
    return order


def check_result_endpoint(play, want):
    response = play.result()
    assert response.status_code == 200, response.get_json()
    doc = response.get_json()
    assert doc["table"] == play.t["table"] and doc["game"] == "galileo"
    assert [p["name"] for p in doc["players"]] == [p["name"] for p in want["players"]]  # seat order
    assert [p["total"] for p in doc["players"]] == [p["total"] for p in want["players"]]
    assert [p["breakdown"] for p in doc["players"]] == [p["breakdown"] for p in want["players"]]
    assert [p["place"] for p in doc["players"]] == [want["places"][p["name"]] for p in want["players"]]
    assert doc["winners"] == want["winners"]


def check_not_over(play):
    assert play.final_result() is None
    response = play.result()
    assert response.status_code == 409, response.get_json()
    assert response.get_json()["field"] == "table" and response.get_json()["error"]


def test_a_whole_tracked_game_through_the_api_ends_in_the_score_functions_result(client, api):
    p = Play(client, api)
    state = p("board", **BOARD)
    assert GAME.running_score(state, {}) == [0, 0, 0]
    # [GT103] the names' order is the turn order: Ann took the first turn
    assert GAME.start_player(state, {}) == 0
    vp = [0, 0, 0]

    def gain(player, delta):
        vp[player] += delta
        return p("vp", player=player, delta=delta)

    # Cycle 1 (no Income [GT310]); order Ann, Ben, Cy; suspicion starts at 1 [GT105]
    p("action", player=0, action="invention")
    p("abjure", player=1)  # Ben -5 (floor 0) and Ptolemaic; Ann and Cy +1 -> 2 [GT415-419]
    p("action", player=2, action="treatise")
    gain(0, 30)
    gain(1, 25)
    state = gain(2, 22)
    assert GAME.running_score(state, {}) == [30, 25, 22]
    p("tile", player=2, tile=0)  # Cy passes the tile at 20: +2 -> 4, crossing the Penance I icon
    p("pass", player=0)
    p("pass", player=1)
    p("action", player=2, action="academic")  # Cy still active: the Inquisition Suspects
    state = p("pass", player=2)
    rounds = [[], [0, 1], [2]]
    assert state["order"] == next_order(rounds) == [1, 0, 2]
    p("next_cycle")
    # Cycle 2: everyone passes at once; Ann has 5 of the depicted elements (limit 4): +2 -> 4
    p("income_done")
    for player in state["order"]:
        state = p("pass", player=player)
    assert state["order"] == next_order([[1, 0, 2]])
    p("prohibition", limit=4, counts=[5, 0, 0])
    p("next_cycle")
    # Cycle 3, order Cy, Ann, Ben: Cy pays to remove Penance I, Ann keeps hers (-1 each, face down)
    p("income_done")
    p("penance", player=2, level=1, remove=True)
    p("penance", player=0, level=1, remove=False)
    p("pass", player=1)
    p("pass", player=2)
    p("action", player=0, action="invention")  # the Inquisition is face up: Ann +1 -> 4
    state = p("pass", player=0)
    assert state["order"] == next_order([[1], [2], [0]])
    p("prohibition", limit=9, counts=[0, 0, 0])
    p("next_cycle")
    # Cycle 4, order Ben, Cy, Ann: Ann +8 -> 12 crosses Penance II and III and the Prison icon
    p("income_done")
    p("suspicion", player=0, delta=8)
    for player in state["order"]:
        state = p("pass", player=player)
    assert state["order"] == next_order([[1, 2, 0]])
    p("next_cycle")
    # Cycle 5 (no Abjure [GT412]) and the end [GT737]
    p("income_done")
    gain(0, 10)
    gain(1, 15)
    state = gain(2, 3)
    assert GAME.running_score(state, {}) == vp == [40, 40, 25]
    for player in state["order"]:
        state = p("pass", player=player)
    final_order = next_order([[0, 2, 1]])
    assert state["order"] == final_order
    p("prohibition", limit=5, counts=[0, 0, 0])
    state = p("next_cycle")
    assert state["phase"] == "final" and state["finished"] is False
    check_not_over(p)

    entries = [{"inventions_vp": 7, "mentor_vp": 5, "end_losses": 0},
               {"inventions_vp": 4, "mentor_vp": 0, "end_losses": 2},
               {"inventions_vp": 9, "mentor_vp": 0, "end_losses": 1}]
    for player in (0, 1):
        p("final", player=player, **entries[player])
        check_not_over(p)
    state = p("final", player=2, **entries[2])
    assert state["finished"] is True

    # what each player's area shows at the end, as the moves above left it
    printed = BOARD["penance_cards"]["vp"]
    ends = [{"principle": "copernican", "status": "prison", "suspicion": 12, "penance_vp": [printed[0], printed[1], printed[2]]},
            {"principle": "ptolemaic", "status": "free", "suspicion": 0, "penance_vp": []},
            {"principle": "copernican", "status": "free", "suspicion": 3, "penance_vp": []}]
    want = score(BOARD["cathedral"], [
        {"name": NAMES[i], "vp": vp[i], **ends[i], **entries[i], "turn_order": final_order.index(i) + 1} for i in range(3)])
    got = p.final_result()
    assert got == want
    # the flag alone decides: the same values on a table not marked finished give no result
    assert GAME.final_result(dict(state, finished=False), NAMES, {}, {}) is None
    assert got is not p.final_result()  # a fresh document each call
    assert [q["name"] for q in got["players"]] == NAMES
    check_result_endpoint(p, want)

    # undo reopens the game; entering the row again finishes it once more
    assert api.undo(p.t, p.version).status_code == 200
    p.version += 1
    assert p.stored[0]["finished"] is False
    check_not_over(p)
    p("final", player=2, **entries[2])
    assert p.final_result() == want
    check_result_endpoint(p, want)


CALC_BOARD = {"cathedral": PROFILE["cathedral"], "penance_cards": {"vp": [2, 4, 6]}}
ROWS = [
    {"player": 0, "principle": "copernican", "status": "free", "vp": 61, "penance": [1], "inventions_vp": 9, "mentor_vp": 4},
    {"player": 1, "principle": "ptolemaic", "status": "prison", "vp": 72, "penance": [1, 2], "turn_order": 3},
    {"player": 2, "principle": "copernican", "status": "stake", "vp": 80, "suspicion": 4, "end_losses": 2, "turn_order": 2},
]


def row_document(row):
    """The score function's player for a calculator row, from the row's own values and the printed VP."""
    return {"name": NAMES[row["player"]], "vp": row["vp"], "principle": row["principle"], "status": row["status"],
            "suspicion": row.get("suspicion", 0),
            "penance_vp": [CALC_BOARD["penance_cards"]["vp"][level - 1] for level in row.get("penance", [])],
            "inventions_vp": row.get("inventions_vp", 0), "mentor_vp": row.get("mentor_vp", 0),
            "end_losses": row.get("end_losses", 0), "turn_order": row.get("turn_order", row["player"] + 1)}


def test_a_calculator_table_through_the_api_ends_in_the_score_functions_result(client, api):
    p = Play(client, api, calculator=True)
    state = p("board", **CALC_BOARD)
    assert GAME.running_score(state, {"calculator": True}) is None
    assert GAME.start_player(state, {"calculator": True}) is None
    for row in ROWS[:2]:
        state = p("sheet", **row)
        assert GAME.running_score(state, {"calculator": True}) is None
        check_not_over(p)
    state = p("sheet", **ROWS[2])
    assert state["finished"] is True
    want = score(CALC_BOARD["cathedral"], [row_document(r) for r in ROWS])
    assert p.final_result() == want
    check_result_endpoint(p, want)
    assert GAME.running_score(state, {"calculator": True}) is None and GAME.start_player(state, {"calculator": True}) is None

    # a row saved again replaces it, and the result follows
    changed = dict(ROWS[0], vp=90)
    p("sheet", **changed)
    want = score(CALC_BOARD["cathedral"], [row_document(r) for r in (changed, *ROWS[1:])])
    assert p.final_result() == want
    check_result_endpoint(p, want)


def test_a_calculator_table_without_the_printed_values_is_not_over(client, api):
    p = Play(client, api, calculator=True)
    for row in ROWS:
        state = p("sheet", **row)
    assert state["finished"] is False  # the Cathedral values are not known yet
    check_not_over(p)
    p("board", **CALC_BOARD)
    assert p.final_result() == score(CALC_BOARD["cathedral"], [row_document(r) for r in ROWS])


def test_running_score_follows_the_scoring_track_and_undo(client, api):
    p = Play(client, api, names=["Ann", "Ben"])
    p("board", suspicion_track=BOARD["suspicion_track"])
    assert GAME.running_score(p.stored[0], {}) == [0, 0]
    p("vp", player=1, delta=7)
    p("vp", player=0, delta=3)
    p("vp", player=1, delta=-2)
    assert GAME.running_score(p.stored[0], {}) == [3, 5]
    assert api.undo(p.t, p.version).status_code == 200
    assert GAME.running_score(p.stored[0], {}) == [3, 7]
    assert GAME.start_player(p.stored[0], {}) == 0


def player(name, vp, turn_order, **more):
    return {"name": name, "vp": vp, "principle": "copernican", "status": "free", "suspicion": 0, "penance_vp": [],
            "inventions_vp": 0, "mentor_vp": 0, "end_losses": 0, "turn_order": turn_order, **more}


def test_verdict_without_a_tie_names_the_winner():
    result = score(PROFILE["cathedral"], [player("Ann", 40, 1), player("Ben", 52, 2), player("Cy", 40, 3)])
    # Ann and Cy tie for second place, which decides no winner: the verdict names only Ben
    assert [q["total"] for q in result["players"]][::2] == [result["players"][0]["total"]] * 2
    assert GAME.verdict(result) == "Ben wins"


def test_verdict_names_the_turn_order_when_it_breaks_the_tie_on_top():
    result = score(PROFILE["cathedral"], [player("Ann", 55, 2), player("Ben", 55, 1), player("Cy", 30, 3)])
    assert result["winners"] == ["Ben"]
    top = result["players"][1]["total"]
    assert result["players"][0]["total"] == top
    # [GT769] the end screen's own words
    assert GAME.verdict(result) == f"Ben and Ann tie on {top}: Ben wins as the earliest in turn order"


def test_the_end_screen_says_the_tie_break_in_the_verdicts_words(client, api):
    p = Play(client, api, calculator=True)
    p("board", **CALC_BOARD)
    tied = [{"player": 0, "principle": "copernican", "status": "free", "vp": 50, "turn_order": 2},
            {"player": 1, "principle": "copernican", "status": "free", "vp": 50, "turn_order": 1},
            {"player": 2, "principle": "ptolemaic", "status": "free", "vp": 20, "turn_order": 3}]
    for row in tied:
        p("sheet", **row)
    result = p.final_result()
    said = GAME.verdict(result)
    assert said == f"Ben and Ann tie on {result['players'][1]['total']}: Ben wins as the earliest in turn order"
    join(client, p.t)
    page = html.unescape(client.get(f"/t/{p.t['table']}").data.decode())
    total = result['players'][1]['total']
    assert f"Tie-break: <bdi>Ben</bdi> and <bdi>Ann</bdi> tie on {total}: <bdi>Ben</bdi> wins as the earliest in turn order." in page
