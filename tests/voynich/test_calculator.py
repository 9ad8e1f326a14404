"""Issue 11, calculator mode: one `sheet` row per player, scored by the `score` rules function."""

import re

import pytest
from werkzeug.datastructures import MultiDict

from companion.games.voynich.functions import FUNCTIONS
from companion.games.voynich.rules import SECTIONS

from .test_web import join, post

SPACES = {"5": 1, "10": 3, "15": 6, "20": 10, "25": 15}
ZERO = {s: [0, 0] for s in SECTIONS}


def row(player, gk, markers, research=(), pages=None, choices=None, **extra):
    data = {"player": player, "gk": gk, "markers": dict(zip(("botany", "astrology", "baths", "writings"), markers)),
            "pages": pages or ZERO, **extra}
    if research:
        data["research"] = list(research)
    if choices:
        data["choices"] = choices
    return data


ROWS = [
    row(0, 31, (12, 20, 7, 16), (4, 5, 3), {**ZERO, "botany": [2, 0], "astrology": [1, 4], "recipes": [2, 0]},
        {"left": ["baths", "astrology"]}),
    row(1, 28, (22, 10, 15, 5), (6,), {**ZERO, "baths": [4, 1], "writings": [0, 2]}),
    row(2, 40, (3, 3, 3, 3)),
]


def expected(rows, names, spaces=SPACES):
    """What the `score` rules function says for the same values."""
    players = []
    for name, r in zip(names, rows):
        pages = [{"section": s, "multiplier": r["pages"][s][k]} for s in SECTIONS for k in range(2)
                 if s != "recipes" or ("left", "right")[k] in r.get("choices", {})]
        recipes = [p for p in pages if p["section"] == "recipes"]
        sides = [side for side in ("left", "right") if side in r.get("choices", {})]
        for p, side in zip(recipes, sides):
            p["choices"] = r["choices"][side]
        players.append({"name": name, "gk": r["gk"], "markers": r["markers"], "research": r.get("research", []), "pages": pages})
    return FUNCTIONS["score"].run({"track": {"scoring_spaces": spaces}, "players": players})


@pytest.fixture
def calc(client, api):
    t = api.create("voynich", ["Ana", "Ben", "Cy"], calculator=True)
    assert api.event(t, "track", {"scoring_spaces": SPACES}).status_code == 200
    join(client, t)
    return t


def test_finished_once_every_row_is_in_and_the_result_is_the_score_functions(client, api, calc):
    state = api.get(calc)["state"]
    assert "calculator" not in state and state["finished"] is False  # the options say it (issue 30)
    for k, data in enumerate(ROWS):
        assert api.event(calc, "sheet", data).status_code == 200
        assert api.get(calc)["state"]["finished"] is (k == 2)
    want = expected(ROWS, ["Ana", "Ben", "Cy"])
    html = client.get(f"/t/{calc['table']}").get_data(as_text=True)
    for k, p in enumerate(want["players"]):
        cells = re.search(rf'data-player="{k}">.*?</tr>', html, re.S).group(0)
        assert f'<td class="b-total"><strong>{p["total"]}</strong>' in cells
        assert f'<td class="b-pages">{p["breakdown"]["pages"]}</td>' in cells
        assert f'<td class="b-research">{p["breakdown"]["research"]}</td>' in cells
    assert f"<bdi>{want['winners'][0]}</bdi> wins." in html
    board = re.search(r'aria-label="Scoreboard">(.*?)</ol>', html, re.S).group(1)
    assert str(want["players"][0]["total"]) in board


def test_a_row_saved_again_corrects_it_and_undo_reopens(client, api, calc):
    for data in ROWS:
        api.event(calc, "sheet", data)
    fixed = dict(ROWS[2], gk=200)
    assert api.event(calc, "sheet", fixed).status_code == 200
    state = api.get(calc)["state"]
    assert state["finished"] and state["sheets"][2]["gk"] == 200
    want = expected([ROWS[0], ROWS[1], fixed], ["Ana", "Ben", "Cy"])
    assert want["winners"] == ["Cy"]
    assert "<bdi>Cy</bdi> wins." in client.get(f"/t/{calc['table']}").get_data(as_text=True)
    assert api.undo(calc).status_code == 200
    assert api.get(calc)["state"]["sheets"][2]["gk"] == 40
    assert api.undo(calc).status_code == 200
    state = api.get(calc)["state"]
    assert state["finished"] is False and state["sheets"][2] is None
    assert "<bdi>Cy</bdi> wins." not in client.get(f"/t/{calc['table']}").get_data(as_text=True)


def test_the_scoring_spaces_are_needed_to_finish(client, api):
    t = api.create("voynich", ["Ana", "Ben"], calculator=True)
    for data in ROWS[:2]:
        assert api.event(t, "sheet", data).status_code == 200
    assert api.get(t)["state"]["finished"] is False
    assert api.event(t, "track", {"spaces": {"0": {"position": 10, "gk": 3}, "1": {"position": 20, "gk": 6}}}).status_code == 200
    assert api.get(t)["state"]["finished"] is True


def test_a_tie_names_the_tie_break(client, api, calc):
    tie = [row(0, 20, (25, 1, 1, 1)), row(1, 20, (20, 20, 20, 20)), row(2, 3, (0, 0, 0, 0))]
    for data in tie:
        api.event(calc, "sheet", data)
    want = expected(tie, ["Ana", "Ben", "Cy"])
    assert want["players"][0]["total"] == want["players"][1]["total"] and want["winners"] == ["Ana"]
    html = client.get(f"/t/{calc['table']}").get_data(as_text=True)
    assert "Tie on 20 GK" in html and "The tie-break (the furthest knowledge marker) favours <bdi>Ana</bdi>" in html


def test_solo_calculator_against_voynich(client, api):
    t = api.create("voynich", ["Ana"], calculator=True, solo_tie="strict")
    join(client, t)
    api.event(t, "track", {"scoring_spaces": SPACES})
    assert api.event(t, "sheet", row(0, 30, (10, 10, 10, 10), (4, 4))).status_code == 200
    response = api.event(t, "sheet", row(1, 25, (15, 10, 10, 10), pages={**ZERO, "botany": [2, 0]}, difficulty="hard"))
    assert response.status_code == 400 and response.get_json()["field"] == "data.tokens_on_board"
    response = api.event(t, "sheet", row(1, 25, (15, 10, 10, 10), (3,), difficulty="hard", tokens_on_board=2))
    assert response.status_code == 400 and response.get_json()["field"] == "data.research"  # Voynich has none
    voy = row(1, 25, (15, 10, 10, 10), pages={**ZERO, "botany": [2, 0]}, difficulty="hard", tokens_on_board=2)
    assert api.event(t, "sheet", voy).status_code == 200
    assert api.get(t)["state"]["finished"] is True
    want = FUNCTIONS["score"].run({"track": {"scoring_spaces": SPACES}, "players": [
        {"name": "Ana", "gk": 30, "markers": row(0, 0, (10, 10, 10, 10))["markers"], "research": [4, 4], "pages": []},
        {"name": "Voynich", "gk": 25, "markers": voy["markers"], "research": [], "pages": [{"section": "botany", "multiplier": 2}]}],
        "solo": {"difficulty": "hard", "automa": "Voynich", "tokens_on_board": 2}})
    html = client.get(f"/t/{t['table']}").get_data(as_text=True)
    assert f'<td class="b-total"><strong>{want["players"][1]["total"]}</strong>' in html
    assert ("You win against Voynich." in html) is (want["winners"] == ["Ana"])


BAD = [
    ({"gk": -1}, "data.gk"),
    ({"gk": "x"}, "data.gk"),
    ({"markers": {"botany": 1, "astrology": 1, "baths": 1}}, "data.markers.writings"),
    ({"markers": {"botany": 1, "astrology": 1, "baths": 1, "writings": 1000}}, "data.markers.writings"),
    ({"research": [1, 2, 3, 4, 5, 6, 7]}, "data.research"),
    ({"research": [100]}, "data.research[0]"),
    ({"pages": {**ZERO, "baths": [3, 0]}}, "data.pages.baths[0]"),
    ({"pages": {**ZERO, "baths": [1]}}, "data.pages.baths"),
    ({"pages": {**ZERO, "recipes": [0, 2]}}, "data.choices.right"),
    ({"choices": {"left": ["baths", "baths"]}}, "data.choices.left"),
    ({"choices": {"left": ["baths", "gk"]}}, "data.choices.left[1]"),
    ({"player": 3}, "data.player"),
    ({"difficulty": "easy"}, "data.difficulty"),  # only Voynich's row has one
]


@pytest.mark.parametrize("change, field", BAD)
def test_bad_rows_are_refused_with_the_contract_field(api, calc, change, field):
    version = api.get(calc)["version"]
    response = api.event(calc, "sheet", {**ROWS[1], **change})
    assert response.status_code == 400 and response.get_json()["field"] == field
    assert api.get(calc)["version"] == version


SHEET_FORM = [("data.player:int", "1"), ("data.gk:int", "28"), ("data.markers.botany:int", "22"),
              ("data.markers.astrology:int", "10"), ("data.markers.baths:int", "15"), ("data.markers.writings:int", "5")] + [
    (f"data.pages.{s}[]:int", "0") for s in SECTIONS for _ in range(2)]

FORM_BAD = [
    ("data.gk:int", "1000", "<bdi>Ben</bdi>'s GK"),
    ("data.markers.baths:int", "1000", "<bdi>Ben</bdi>'s Baths marker"),
    ("data.research[]:int", "150", "<bdi>Ben</bdi>'s 1st research token"),
    ("data.pages.botany[]:int", "3", "<bdi>Ben</bdi>'s Botany left ×"),
    ("data.choices.left[]:json", '"baths"', "<bdi>Ben</bdi>'s Recipes left types"),
]


@pytest.mark.parametrize("name, value, words", FORM_BAD)
def test_bad_rows_through_the_page_are_said_in_players_words(client, api, calc, name, value, words):
    version = api.get(calc)["version"]
    fields = list(SHEET_FORM)
    names = [n for n, _ in fields]
    if name in names:  # the first field of that name gets the bad value
        fields[names.index(name)] = (name, value)
    else:
        fields.append((name, value))
    response = post(client, calc, "sheet", fields)
    assert response.status_code == 400
    html = response.get_data(as_text=True)
    shown = re.findall(r'<p class="error"[^>]*>(.*?)</p>', html, re.S)
    assert shown and any(words in s.replace("&#39;", "'") for s in shown), shown
    for s in shown:
        assert "data." not in s and not re.search(r"\[\d+\]", s)
    assert api.get(calc)["version"] == version


def test_a_good_row_through_the_page(client, api, calc):
    response = post(client, calc, "sheet", SHEET_FORM + [("data.research[]:int", "6"), ("data.research[]:int", "")])
    assert response.status_code == 200
    assert api.get(calc)["state"]["sheets"][1]["research"] == [6]


def test_the_result_lists_the_players_by_place_each_row_its_seats(client, api, calc):
    """Voynich's result table by place, best first, as the other games' results are (issue 38 #8)."""
    rows = [dict(r, player=k) for k, r in enumerate(reversed(ROWS))]  # the last seat first, the first last
    for data in rows:
        assert api.event(calc, "sheet", data).status_code == 200
    want = expected(rows, ["Ana", "Ben", "Cy"])
    by_place = sorted(range(3), key=lambda k: want["places"][want["players"][k]["name"]])
    assert by_place != [0, 1, 2]  # the seats' order is not the places': the test can tell them apart
    html = client.get(f"/t/{calc['table']}").get_data(as_text=True)
    table = re.search(r'<section class="card voy-result".*?</table>', html, re.S).group(0)
    rows = re.findall(r'data-player="(\d)"><td><bdi>([^<]+)</bdi>.*?<td class="b-total"><strong>(\d+)</strong>', table, re.S)
    assert rows == [(str(k), want["players"][k]["name"], str(want["players"][k]["total"])) for k in by_place]
