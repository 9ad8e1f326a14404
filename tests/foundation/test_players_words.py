"""What the pages and the API say, in the players' words (issue 27, finding 8); and every
calculator row starts at 0 (no field required by the browser, no browser message)."""

from __future__ import annotations

import html
import re

import pytest
from werkzeug.datastructures import MultiDict

from companion.games import get, registry
from companion.games.words import plural, signed
from tests.voynich.test_result import player, scored

from tests.codex import test_calculator as cx
from tests.examples import examples
from tests.gutenberg.test_web import open_table


def page_of(client, t) -> str:
    return client.get(open_table(client, t)).get_data(as_text=True)


def text_of(page: str) -> str:
    return html.unescape(" ".join(re.sub(r"<[^>]+>", "", page).split()))


def form_post(client, t, fields: list[tuple[str, str]], version: int) -> str:
    """Post a form as a phone does (no htmx): the page answers with what it says."""
    response = client.post(f"/t/{t['table']}/events", data=MultiDict([("expected_version:int", str(version)), *fields]),
                           follow_redirects=True)
    return response.get_data(as_text=True)


# --- plurals ------------------------------------------------------------------------------------------

def test_signed_and_plural_words():
    assert signed(1, "point") == "+1 point" and signed(-1, "point") == "-1 point" and signed(-3, "point") == "-3 points"
    assert plural(1, "more type", "more types") == "1 more type"


def test_codex_history_says_one_point_and_one_corner():
    codex = get("codex")
    assert codex.describe("points", {"player": 1, "delta": 1}, ["Ana", "Tom"]) == "Tom: +1 point"
    assert codex.describe("points", {"player": 1, "delta": 5}, ["Ana", "Tom"]) == "Tom: +5 points"
    assert codex.describe("gold_corners", {"player": 0, "corners": 1}, ["Ana", "Tom"]) == "Ana: gold card, 1 corner covered: +2"
    assert codex.describe("gold_objects", {"player": 0, "count": 2, "object": "quill"}, ["Ana", "Tom"]) == \
        "Ana: gold card, 2 quills visible: +2"


def test_gutenberg_says_types_and_guilders_in_proper_plurals(api):
    t = api.create("gutenberg", ["Ana", "Tom"])
    assert api.event(t, "guilders", {"player": 0, "delta": -api.get(t)["state"]["players"][0]["guilders"] + 1}).status_code == 200
    response = api.event(t, "buy_types", {"player": 0, "count": 2})
    assert response.status_code == 400
    message = response.get_json()["error"]
    assert "(s)" not in message and re.fullmatch(r"2 more types cost \d+ guilders; the player has 1 guilder", message), message
    gb = get("gutenberg")
    assert gb.describe("buy_types", {"player": 0, "count": 1}, ["Ana", "Tom"]) == "Ana: bought 1 type"
    assert gb.describe("take_inks", {"player": 0, "count": 1, "first": 2}, ["Ana", "Tom"]) == "Ana: took 1 ink from position 2"


# --- the Voynich tie-break names the marker that decided [V367] ---------------------------------------

@pytest.mark.parametrize("markers, words", [
    (((20, 10, 5, 5), (21, 5, 5, 5)), "furthest"),
    (((20, 10, 5, 5), (20, 11, 5, 5)), "second furthest"),
    (((20, 10, 6, 5), (20, 10, 5, 5)), "third furthest"),
    (((20, 10, 5, 4), (20, 10, 5, 3)), "fourth furthest"),
])
def test_voynich_tie_verdict_names_the_marker_that_decided(markers, words):
    result = scored(player("Ana", 30, markers[0]), player("Bea", 30, markers[1]))
    winner = result["winners"][0]
    assert get("voynich").verdict(result).endswith(f"by the tie-break (the {words} knowledge marker)"), get("voynich").verdict(result)
    assert winner in get("voynich").verdict(result)


def test_voynich_three_way_tie_names_the_last_marker_the_winner_needed():
    # Ana beats Cy on the 2nd furthest, and Bea only on the 4th: the 4th decided
    result = scored(player("Ana", 30, (20, 10, 5, 4)), player("Bea", 30, (20, 10, 5, 3)), player("Cy", 30, (20, 9, 5, 5)))
    assert result["winners"] == ["Ana"]
    assert get("voynich").verdict(result) == "Ana wins the tie on 30 GK by the tie-break (the fourth furthest knowledge marker)"


# --- the page's words and the API's words ---------------------------------------------------------------

def test_the_api_talks_about_fields_and_the_page_about_what_the_player_sees(client, api):
    response = client.post("/api/v1/tables", json={"game": "gutenberg", "players": ["Ana"], "automa": False})
    assert response.status_code == 400
    message = response.get_json()["error"]
    assert "choose" not in message and '"automa": true' in message, message
    page = client.post("/new/gutenberg", data=MultiDict([("players[]", "Ana"), ("options.calculator:bool", "off"),
                                                         ("options.automa:json", "false")]))
    assert page.status_code == 400
    assert 'choose "With the automa"' in text_of(page.get_data(as_text=True))


def test_a_field_left_empty_is_said_as_missing_not_is_required(client, api):
    t = api.create("voynich", ["Ana", "Ben"], calculator=True)
    page_of(client, t)
    answer = text_of(form_post(client, t, [("type", "sheet"), ("data.player:int", "0"), ("data.gk:int", "")]
                               + [(f"data.markers.{k}:int", "3") for k in ("botany", "astrology", "baths", "writings")]
                               + [(f"data.pages.{s}[]:int", "0") for s in ("botany", "astrology", "baths", "writings", "recipes")
                                  for _ in range(2)], 0))
    assert "Ana's GK is missing" in answer and ": is required" not in answer, answer[:400]


def test_voynich_recipes_types_said_in_the_players_words(client, api):
    t = api.create("voynich", ["Ana", "Ben"], calculator=True)
    page_of(client, t)
    fields = [("type", "sheet"), ("data.player:int", "0"), ("data.gk:int", "3")]
    fields += [(f"data.markers.{k}:int", "3") for k in ("botany", "astrology", "baths", "writings")]
    fields += [(f"data.pages.{s}[]:int", "2" if s == "recipes" else "0") for s in ("botany", "astrology", "baths", "writings", "recipes")
               for _ in range(2)]
    fields += [("data.choices.left[]:json", '"baths"')]  # one type ticked of two
    answer = text_of(form_post(client, t, fields, 0))
    assert "must hold exactly 2 items" not in answer
    assert "tick its two types" in answer, answer[:600]
    # the API keeps the contract's words
    doc = {"player": 0, "gk": 3, "markers": {k: 3 for k in ("botany", "astrology", "baths", "writings")},
           "pages": {s: [0, 0] for s in ("botany", "astrology", "baths", "writings")} | {"recipes": [2, 0]},
           "choices": {"left": ["baths"]}}
    response = api.event(t, "sheet", doc)
    assert response.status_code == 400 and response.get_json()["error"] == "must hold exactly 2 items"


def test_codex_last_row_says_the_final_scores_are_above_them(client, api):
    t = cx.calc_table(api, cx.NAMES[:2])
    api.event(t, "common_objectives", {"cards": cx.COMMON})
    api.event(t, "sheet", {"player": 0, **cx.ROWS[0]})
    page_of(client, t)
    answer = text_of(form_post(client, t, [("type", "sheet"), ("data.player:int", "1"),
                                           ("data.placement_points:int", "22"), ("data.secret:int", "96"),
                                           ("data.visible.quill:int", "2"), ("data.visible.plant:int", "7"),
                                           ("data.patterns.91:int", "0")], 2))
    assert "final scores are below" not in answer and "final scores are at the top" in answer
    # and they are: the results come before the rows on the page
    assert answer.index("Final scores") < answer.index("Row saved")


# --- finding 4: a calculator row starts at 0 (or where its game says), none required, no browser pattern ----


@pytest.mark.parametrize("game", sorted(registry()))
def test_every_calculator_count_starts_where_its_game_says_and_the_browser_never_refuses_it(client, api, game):
    example = examples(game)
    # what a count starts at where not 0 (a player's 20 lives), and the fields that are no count (None)
    starts = example.SHEET_STARTS
    names = list(example.CALCULATOR_NAMES)  # a table the game takes
    t = api.create(game, names, calculator=True)
    for type_, data in example.CALCULATOR_SETUP:  # what the board prints: the rows ask what it needs (Codex's objectives)
        assert api.event(t, type_, data).status_code == 200, (type_, data)
    page = page_of(client, t)
    forms = re.findall(rf'<form[^>]*{re.escape(example.SHEET_FORM)}.*?</form>', page, re.S)
    assert len(forms) == len(names)
    for f in forms:
        assert " required" not in f and "pattern=" not in f, game  # our own message, never the browser's
        inputs = re.findall(r'<input name="([^"]+)"[^>]*value="([^"]*)"[^>]*inputmode="numeric"', f)
        counts = [(n, v) for n, v in inputs if starts.get(n, "0") is not None]
        assert counts and all(v == starts.get(n, "0") for n, v in counts), (game, [c for c in counts if c[1] != starts.get(c[0], "0")])


@pytest.mark.parametrize("value", ["-3", "2.5", "abc"])
def test_a_bad_number_gets_our_message_in_the_players_words(client, api, value):
    t = api.create("gutenberg", ["Ana", "Ben"], calculator=True)
    page_of(client, t)
    fields = [("type", "sheet"), ("data.player:int", "0"), ("data.fame:int", value), ("data.guilders:int", "0"),
              ("data.patronage_cards:int", "0"), ("data.types:int", "0"), ("data.inks:int", "0")]
    fields += [(f"data.specialties.{s}:int", "0") for s in ("typesetting", "woodcutting", "binding", "illuminating")]
    answer = text_of(form_post(client, t, fields, 0))
    assert re.search(r"Ana's fame track: must be a whole number", answer, re.I), answer[:600]
    assert "Please match" not in answer


def test_a_path_without_a_label_says_abbreviations_in_capitals():
    from companion import wording

    assert wording.label_of("players[0].inventions_vp", ["Ana"]) == "Ana's inventions VP"
    assert wording.label_of("data.tokens.end_gk", ["Ana"]) == "tokens, end GK"


def test_voynich_research_token_api_names_its_fields_and_the_page_its_cell(client, api):
    t = api.create("voynich", ["Ana", "Ben"])
    response = api.event(t, "research", {"player": 0})
    assert response.status_code == 400
    assert "tap" not in response.get_json()["error"] and '"cell"' in response.get_json()["error"]
    page_of(client, t)
    answer = text_of(form_post(client, t, [("type", "research"), ("data.player:int", "0")], api.get(t)["version"]))
    assert "or tap its cell" in answer


def test_galileo_board_fields_are_named_as_their_table_shows_them(client, api):
    """The Cathedral's and the Prohibition's boxes are named by their row's and column's headings as
    printed above and beside them ("Copernican Free VP"), never by the API's lower-case keys."""
    t = api.create("galileo", ["Ana", "Ben"], calculator=True)
    labels = re.findall(r'name="data\.cathedral\.[^"]+" [^>]*aria-label="([^"]+)"', page_of(client, t))
    assert labels[:3] == ["Copernican Free VP", "Copernican Prison VP", "Copernican Stake VP"], labels
    assert len(labels) == 6 and all(label[0].isupper() for label in labels), labels
    profile = client.get("/profiles/new/galileo").get_data(as_text=True)
    cycles = re.findall(r'name="prohibition[^"]*" [^>]*aria-label="([^"]+)"', profile)
    assert "Cycle 2 Copernican" in cycles and not [c for c in cycles if "copernican" in c or "ptolemaic" in c], cycles
