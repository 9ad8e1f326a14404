"""The Voynich Puzzle's results hooks (issue 12): whole games to their end over the API, tracked and calculator.

`final_result` must be exactly the `score` rules function run on the values the test entered, the
result endpoint must agree with it, and `state.finished` must be true exactly while the game is over
and its score can be computed. Every expected value is computed here from what the test entered
(the score track's values are the test's own, as a group would type them), never typed in as a total.
"""

from __future__ import annotations

import re

from companion.games import get
from companion.games.voynich.rules import KNOWLEDGE, SECTIONS

from .test_web import join
from tests.foundation.test_plays import host_client

GAME = get("voynich")
SCORE = GAME.functions["score"].run
#: the score track's scoring spaces, as the test's group reads them off its board (VOY-B1)
SPACES = {"5": 1, "10": 3, "15": 6, "20": 10, "25": 15}
#: the multiplier the test's cards show in each phase (a page's own, read off the card [V361])
PRINTED = {2: 1, 3: 2, 4: 4}
CARDS = {"botany": [3, 8], "astrology": [12, 15], "baths": [21, 24], "writings": [30, 33], "recipes": [36, 39]}
RECIPES = (8, 9)  # the Recipes pages in book order [V58]


# --- the endpoint (api.result, api.stored and api.final_result are in tests/conftest.py) ---------------


def text(html: str) -> str:
    """The words of some HTML, as a reader sees them."""
    return " ".join(re.sub(r"<[^>]+>", " ", html).split())


def check_not_over(app, api, t) -> None:
    """Before the end: no final result, and the endpoint answers 409 naming the table."""
    assert api.final_result(t) is None
    response = api.result(t)
    assert response.status_code == 409, response.get_json()
    assert response.get_json()["field"] == "table"


def check_over(app, api, t, expected: dict) -> dict:
    """After the end: final_result is the score function's result, and the endpoint agrees with it."""
    assert api.stored(t).state["finished"] is True
    assert api.final_result(t) == expected
    response = api.result(t)
    assert response.status_code == 200, response.get_json()
    doc = response.get_json()
    assert doc["table"] == t["table"] and doc["game"] == "voynich"
    assert [(p["name"], p["total"], p["breakdown"], p["place"]) for p in doc["players"]] == [
        (p["name"], p["total"], p["breakdown"], expected["places"][p["name"]]) for p in expected["players"]]
    assert doc["winners"] == expected["winners"]
    return doc


# --- a tracked table, driven over the API, keeping what the test entered ----------------------------

class Tracked:
    """A tracked table over the API; the ledger holds every value the test entered, for the expected `score`."""

    def __init__(self, api, names, **options):
        self.api = api
        self.t = api.create("voynich", names, **options)
        self.names = list(names) + (["Voynich"] if len(names) == 1 else [])
        n = len(self.names)
        self.markers = [dict.fromkeys(KNOWLEDGE + ("gk",), 0) for _ in range(n)]  # [V64] all on 0
        self.research = [[] for _ in range(n)]
        self.phases = [[1] * 10 for _ in range(n)]  # [V58] every page in its starting phase
        self.multipliers = [[None] * 10 for _ in range(n)]
        self.choices = [{} for _ in range(n)]
        self.chosen = [{} for _ in range(n)]
        self.tokens = None
        self.state = api.get(self.t)["state"]

    def post(self, type_, **data) -> dict:
        response = self.api.event(self.t, type_, data)
        assert response.status_code == 200, response.get_json()
        self.state = response.get_json()["state"]
        return self.state

    def move(self, i, marker, delta):
        self.post("move", player=i, marker=marker, delta=delta)
        self.markers[i][marker] += delta

    def study(self, i, page):
        """A player studies a page [V134] and reads its new phase's multiplier off the card."""
        self.post("study", player=i, page=page)
        self.phases[i][page] += 1
        self.read_page(i, page)

    def read_page(self, i, page):
        self.multipliers[i][page] = PRINTED[self.phases[i][page]]
        data = {"multiplier": self.multipliers[i][page]}
        if page in RECIPES and page not in self.choices[i]:
            self.choices[i][page] = ["baths", "writings"] if page == 8 else ["botany", "astrology"]
            data["choices"] = self.choices[i][page]
        self.post("page", player=i, page=page, **data)

    def choose(self, i, page, kind):
        """A Recipes page scores the type its player chooses [V363] (the app's pick overridden)."""
        self.post("page", player=i, page=page, chosen=kind)
        self.chosen[i][page] = kind

    def add_research(self, i, gk):
        self.post("research", player=i, gk=gk)
        self.research[i].append(gk)

    def voynich_turn(self, research=False):
        """Voynich's turn: flip, the page the card names studied [V395], its multiplier read, maybe research."""
        v = self.post("voynich_flip")["voynich"]["turn"]
        page = v["page_index"]
        if self.phases[1][page] < 4:  # [V395] "if possible"
            self.phases[1][page] += 1
            self.read_page(1, page)
        assert self.state["players"][1]["pages"][page]["phase"] == self.phases[1][page]
        if research:
            self.post("voynich_research")
            self.markers[1]["gk"] += 1  # [V382] 1 GK instead of 2 research tokens

    def expected(self, difficulty=None, tie_rule="strict") -> dict:
        """The `score` rules function on a document built from the ledger."""
        players = []
        for i, name in enumerate(self.names):
            pages = []
            for k in range(10):
                m = 0 if self.phases[i][k] == 1 else self.multipliers[i][k]  # [V91]
                page = {"section": SECTIONS[k // 2], "multiplier": m}
                if k in RECIPES:
                    if k not in self.choices[i]:
                        assert m == 0
                        continue  # a Recipes page without its types scores nothing (and lists no types)
                    page["choices"] = self.choices[i][k]
                    if k in self.chosen[i]:
                        page["chosen"] = self.chosen[i][k]
                pages.append(page)
            players.append({"name": name, "gk": self.markers[i]["gk"],
                            "markers": {k: self.markers[i][k] for k in KNOWLEDGE},
                            "research": list(self.research[i]), "pages": pages})
        doc = {"track": {"scoring_spaces": SPACES}, "players": players}
        if difficulty:
            doc["solo"] = {"difficulty": difficulty, "automa": "Voynich", "tie_rule": tie_rule}
            if self.tokens is not None:
                doc["solo"]["tokens_on_board"] = self.tokens
        return SCORE(doc)


def play_two_player_game(app, api) -> Tracked:
    """Ana and Bea play to Bea's GK at the end symbol, then the final turns [V354-356]; stops before the last one."""
    g = Tracked(api, ["Ana", "Bea"])
    g.post("track", scoring_spaces=SPACES)
    turns = [
        # (player, moves, pages studied, research tokens' GK)
        (0, [("botany", 6), ("gk", 4)], [0], [4]),
        (1, [("baths", 8), ("gk", 3)], [4], [5]),
        (0, [("astrology", 11), ("gk", 6)], [2, 0], [3]),
        (1, [("writings", 12), ("baths", 9), ("gk", 8)], [6, 8], [6, 2]),
        (0, [("baths", 16), ("botany", 10), ("gk", 12)], [9, 4], []),
        (1, [("astrology", 21), ("gk", 14)], [2, 3], [5]),
    ]
    for i, moves, studied, research in turns:
        assert g.state["turn"] == i
        for marker, delta in moves:
            g.move(i, marker, delta)
        for page in studied:
            g.study(i, page)
        for gk in research:
            g.add_research(i, gk)
        g.post("end_turn")
    # Ana's turn; then Bea reaches the end symbol on her turn [V354]
    g.move(0, "gk", 9)
    g.post("end_turn")
    check_not_over(app, api, g.t)
    g.move(1, "gk", 52 - g.markers[1]["gk"])
    assert g.state["end"]["remaining"] == [0, 1]  # [V356] the round is complete: one more turn each
    g.post("end_turn")  # Ana's last turn
    g.move(0, "writings", 7)
    g.study(0, 9)
    g.post("end_turn")  # Bea's last turn
    g.study(1, 4)
    g.choose(1, 8, "writings")  # her Recipes page scores Writings, not her better Baths
    assert not g.state["over"] and not g.state["finished"]
    return g


def test_a_tracked_game_to_its_end_gives_the_score_functions_result(app, api, client):
    g = play_two_player_game(app, api)
    check_not_over(app, api, g.t)
    g.post("end_turn")  # the last event: scoring begins [V356]
    assert g.state["over"] and g.state["finished"]
    expected = g.expected()
    doc = check_over(app, api, g.t, expected)
    assert doc["verdict"] == GAME.verdict(expected)
    # the end screen says who won in the verdict's words
    join(client, g.t)
    html = client.get(f"/t/{g.t['table']}?screen=end").get_data(as_text=True)
    winners = re.search(r'<p class="voy-winners">(.*?)</p>', html, re.S).group(1)
    assert text(winners) == GAME.verdict(expected) + "."


def test_undo_reopens_the_game_and_a_later_correction_keeps_the_result_the_score_functions(app, api):
    g = play_two_player_game(app, api)
    g.post("end_turn")
    assert api.undo(g.t).status_code == 200
    state = api.get(g.t)["state"]
    assert not state["over"] and state["finished"] is False
    check_not_over(app, api, g.t)
    g.post("end_turn")
    check_over(app, api, g.t, g.expected())
    # a research token entered at end scoring: still finished, the result follows it
    g.add_research(0, 6)
    check_over(app, api, g.t, g.expected())
    # a page moved to a new phase: its multiplier is missing, so the score cannot be computed
    g.post("page", player=1, page=0, phase=2)
    check_not_over(app, api, g.t)
    g.phases[1][0] = 2
    g.read_page(1, 0)
    check_over(app, api, g.t, g.expected())


def test_the_scoring_spaces_entered_after_the_end_finish_the_game(app, api):
    g = Tracked(api, ["Ana", "Bea"])
    g.move(0, "baths", 12)
    g.study(0, 4)
    g.post("end_turn")
    g.move(1, "gk", 52)  # [V354] Bea triggers the end on her turn
    for _ in range(2):
        g.post("end_turn")
    g.post("end_turn")
    assert g.state["over"] and not g.state["finished"]  # the score track's values are still missing
    check_not_over(app, api, g.t)
    g.post("track", scoring_spaces=SPACES)
    assert g.state["finished"]
    check_over(app, api, g.t, g.expected())
    assert api.undo(g.t).status_code == 200
    check_not_over(app, api, g.t)


def test_running_score_is_the_gk_marker_and_the_first_seat_starts(app, api):
    g = Tracked(api, ["Ana", "Bea", "Cy"])
    assert GAME.running_score(g.state, {}) == [0, 0, 0]
    g.move(0, "gk", 4)
    g.move(0, "botany", 5)
    g.post("end_turn")
    g.move(1, "gk", 7)
    assert GAME.running_score(g.state, {}) == [4, 7, 0]
    assert GAME.start_player(g.state, api.stored(g.t).options) == 0  # [V55] the first seat is the first player


# --- solo against Voynich, tracked -------------------------------------------------------------------

def test_a_solo_game_scores_voynich_as_a_player(app, api):
    g = Tracked(api, ["Ana"], solo_tie="tie_break")
    g.post("track", scoring_spaces=SPACES)
    g.post("solo_setup", cards=CARDS, difficulty="hard")
    assert GAME.running_score(g.state, {}) == [0, 0]  # Ana's GK and Voynich's
    assert GAME.start_player(g.state, api.stored(g.t).options) == 0  # [V377] "You are the first player."
    for round_ in range(4):
        g.move(0, KNOWLEDGE[round_], 9 + round_)
        g.move(0, "gk", 6)
        g.study(0, 2 * round_)
        g.add_research(0, 3 + round_)
        g.post("end_turn")
        g.voynich_turn(research=round_ % 2 == 0)
        g.move(1, KNOWLEDGE[3 - round_], 7 + 2 * round_)
        g.post("end_turn")
    assert GAME.running_score(g.state, {}) == [g.markers[0]["gk"], g.markers[1]["gk"]]
    g.move(0, "gk", 52 - g.markers[0]["gk"])  # Ana triggers the end [V354]
    assert g.state["end"]["remaining"] == [1, 0, 1]  # RULES.md VOY-C21: Voynich, then one more turn each
    g.post("end_turn")
    g.voynich_turn()
    g.post("end_turn")
    g.study(0, 9)
    g.post("end_turn")
    g.voynich_turn(research=True)
    g.post("end_turn")
    assert g.state["over"] and not g.state["finished"]  # hard: his tokens on the board are still to count
    check_not_over(app, api, g.t)
    g.post("voynich_tokens", count=5)
    g.tokens = 5
    expected = g.expected(difficulty="hard", tie_rule="tie_break")
    doc = check_over(app, api, g.t, expected)
    assert [p["name"] for p in doc["players"]] == ["Ana", "Voynich"]
    assert expected["players"][1]["breakdown"]["tokens"] == 2 * 5  # [V494]
    assert doc["players"][0]["outcome"] == expected["players"][0]["outcome"]
    # the archive's record charts both GK markers, each line named: Voynich's is not "Seat 2"
    page = host_client(app).get(f"/plays/{g.t['table']}").get_data(as_text=True)
    svg_names = re.findall(r'<g data-series="\d+" data-name="([^"]+)">', page)
    legend = re.findall(r'<span class="name"><bdi>([^<]+)</bdi></span> <strong>(-?\d+)</strong></li>', page)
    assert svg_names == ["Ana", "Voynich"]
    assert legend == [("Ana", str(g.markers[0]["gk"])), ("Voynich", str(g.markers[1]["gk"]))]


def test_voynichs_page_studied_again_asks_for_its_new_multiplier(app, api):
    g = Tracked(api, ["Ana"])
    g.post("track", scoring_spaces=SPACES)
    g.post("solo_setup", cards=CARDS, difficulty="medium")
    g.post("end_turn")
    g.voynich_turn()
    first = g.state["voynich"]["turn"]["page_index"]
    for _ in range(40):  # until his deck names that page again (one card names it [V395])
        g.post("end_turn")
        g.post("end_turn")
        g.post("voynich_flip")
        if g.state["voynich"]["turn"]["page_index"] == first:
            break
    else:
        raise AssertionError("the deck never named the page again")
    assert g.state["players"][1]["pages"][first]["phase"] == 3
    assert "multiplier" not in g.state["players"][1]["pages"][first]  # phase 2's ×1 is not phase 3's


# --- calculator tables -------------------------------------------------------------------------------

ZERO = {s: [0, 0] for s in SECTIONS}


def row(player, gk, markers, research=(), pages=None, choices=None, **extra):
    data = {"player": player, "gk": gk, "markers": dict(zip(KNOWLEDGE, markers)), "pages": pages or ZERO, **extra}
    if research:
        data["research"] = list(research)
    if choices:
        data["choices"] = choices
    return data


def expected_from_rows(rows, names, solo=None) -> dict:
    """The `score` rules function on the rows the test entered."""
    players = []
    for name, r in zip(names, rows):
        pages = []
        for s in SECTIONS:
            for k, side in enumerate(("left", "right")):
                if s == "recipes" and side not in r.get("choices", {}):
                    continue  # a Recipes page at ×0 with no types: it scores nothing
                page = {"section": s, "multiplier": r["pages"][s][k]}
                if s == "recipes":
                    page["choices"] = r["choices"][side]
                pages.append(page)
        players.append({"name": name, "gk": r["gk"], "markers": r["markers"], "research": r.get("research", []),
                        "pages": pages})
    doc = {"track": {"scoring_spaces": SPACES}, "players": players}
    if solo:
        doc["solo"] = solo
    return SCORE(doc)


def test_a_calculator_table_to_its_end_gives_the_score_functions_result(app, api):
    names = ["Ana", "Ben", "Cy"]
    rows = [
        row(0, 31, (12, 20, 7, 16), (4, 5, 3), {**ZERO, "botany": [2, 0], "astrology": [1, 4], "recipes": [2, 0]},
            {"left": ["baths", "astrology"]}),
        row(1, 28, (22, 10, 15, 5), (6,), {**ZERO, "baths": [4, 1], "writings": [0, 2]}),
        row(2, 40, (3, 3, 3, 3)),
    ]
    t = api.create("voynich", names, calculator=True)
    state = api.get(t)["state"]
    assert GAME.running_score(state, {"calculator": True}) is None and GAME.start_player(state, api.stored(t).options) is None
    assert api.event(t, "track", {"scoring_spaces": SPACES}).status_code == 200
    for data in rows:
        check_not_over(app, api, t)
        assert api.event(t, "sheet", data).status_code == 200
    expected = expected_from_rows(rows, names)
    doc = check_over(app, api, t, expected)
    assert doc["verdict"] == GAME.verdict(expected)
    assert GAME.running_score(api.stored(t).state, {"calculator": True}) is None
    assert api.undo(t).status_code == 200
    check_not_over(app, api, t)


def test_a_solo_calculator_table_scores_voynichs_row(app, api):
    rows = [
        row(0, 38, (14, 21, 9, 6), (5, 4), {**ZERO, "astrology": [2, 1], "baths": [1, 0]}),
        row(1, 30, (11, 19, 16, 8), (), {**ZERO, "botany": [1, 2], "recipes": [0, 1]}, {"right": ["baths", "astrology"]},
            difficulty="extremely_hard", tokens_on_board=3),
    ]
    t = api.create("voynich", ["Ana"], calculator=True)
    assert api.event(t, "track", {"scoring_spaces": SPACES}).status_code == 200
    assert api.event(t, "sheet", rows[1]).status_code == 200
    check_not_over(app, api, t)
    assert api.event(t, "sheet", rows[0]).status_code == 200
    expected = expected_from_rows(rows, ["Ana", "Voynich"], solo={
        "difficulty": "extremely_hard", "automa": "Voynich", "tokens_on_board": 3, "tie_rule": "strict"})
    doc = check_over(app, api, t, expected)
    assert expected["players"][1]["breakdown"]["tokens"] == 5 * 3  # [V495]
    assert doc["players"][0]["outcome"] == expected["players"][0]["outcome"]


# --- the verdict: one line per way the game is decided -----------------------------------------------

def player(name, gk, markers, research=()):
    return {"name": name, "gk": gk, "markers": dict(zip(KNOWLEDGE, markers)), "research": list(research), "pages": []}


def scored(*players, solo=None):
    doc = {"track": {"scoring_spaces": SPACES}, "players": list(players)}
    if solo is not None:
        doc["solo"] = {"difficulty": "medium", "automa": "Voynich", **solo}
    return SCORE(doc)


def top(result) -> int:
    return max(p["total"] for p in result["players"])


def test_verdict_names_the_winner():
    result = scored(player("Ana", 40, (10, 5, 5, 5)), player("Bea", 30, (20, 5, 5, 5)))
    assert GAME.verdict(result) == "Ana wins"


def test_verdict_names_the_marker_tie_break():
    result = scored(player("Ana", 30, (10, 20, 5, 5)), player("Bea", 30, (21, 5, 5, 5)), player("Cy", 12, (0, 0, 0, 0)))
    assert result["winners"] == ["Bea"]
    assert GAME.verdict(result) == f"Bea wins the tie on {top(result)} GK by the tie-break (the furthest knowledge marker)"


def test_verdict_says_a_shared_victory():
    result = scored(player("Ana", 30, (10, 20, 5, 5)), player("Bea", 30, (5, 10, 20, 5)))
    assert GAME.verdict(result) == (f"Shared victory: Ana, Bea (tie on {top(result)} GK, "
                                    "still equal after all four knowledge markers)")


def test_verdict_solo_win_and_loss():
    win = scored(player("Ana", 40, (1, 1, 1, 1)), player("Voynich", 30, (1, 1, 1, 1)), solo={})
    assert GAME.verdict(win) == "Ana wins against Voynich"
    loss = scored(player("Ana", 20, (1, 1, 1, 1)), player("Voynich", 30, (1, 1, 1, 1)), solo={})
    assert GAME.verdict(loss) == "Voynich wins"


def test_verdict_solo_tie_is_a_loss():
    result = scored(player("Ana", 30, (20, 1, 1, 1)), player("Voynich", 30, (1, 1, 1, 1)), solo={})
    assert GAME.verdict(result) == f"Voynich wins the tie on {top(result)} GK: Ana wins only with strictly more GK"


def test_verdict_solo_tie_won_on_the_markers():
    result = scored(player("Ana", 30, (20, 1, 1, 1)), player("Voynich", 30, (1, 1, 1, 1)), solo={"tie_rule": "tie_break"})
    assert GAME.verdict(result) == (f"Ana wins the tie on {top(result)} GK against Voynich "
                                    "by the tie-break (the furthest knowledge marker)")
    lost = scored(player("Ana", 30, (1, 1, 1, 1)), player("Voynich", 30, (20, 1, 1, 1)), solo={"tie_rule": "tie_break"})
    assert GAME.verdict(lost) == f"Voynich wins the tie on {top(lost)} GK by the tie-break (the furthest knowledge marker)"


def test_verdict_solo_tie_still_equal_on_the_markers():
    result = scored(player("Ana", 30, (5, 1, 1, 1)), player("Voynich", 30, (1, 5, 1, 1)), solo={"tie_rule": "tie_break"})
    assert GAME.verdict(result) == (f"Voynich wins the tie on {top(result)} GK: Ana wins only with strictly more GK "
                                    "(or a tie won on the markers)")


def test_the_end_screen_says_the_verdicts_words_and_shares_no_victory_with_voynich(app, api, client):
    rows = [row(0, 30, (5, 1, 1, 1)), row(1, 30, (1, 5, 1, 1), difficulty="medium")]
    t = api.create("voynich", ["Ana"], calculator=True, solo_tie="tie_break")
    assert api.event(t, "track", {"scoring_spaces": SPACES}).status_code == 200
    for data in rows:
        assert api.event(t, "sheet", data).status_code == 200
    expected = expected_from_rows(rows, ["Ana", "Voynich"], solo={"difficulty": "medium", "automa": "Voynich",
                                                                  "tie_rule": "tie_break"})
    check_over(app, api, t, expected)
    verdict = GAME.verdict(expected)
    assert verdict.endswith(": Ana wins only with strictly more GK (or a tie won on the markers)")
    join(client, t)
    page = client.get(f"/t/{t['table']}").get_data(as_text=True)
    said = text(re.search(r'<section class="card voy-result".*?</section>', page, re.S).group(0))
    assert "Voynich wins. You win only with strictly more GK (or a tie won on the markers)." in said
    assert "Still equal after all four." in said and "shared" not in said  # [V497] a tie is never shared with him
