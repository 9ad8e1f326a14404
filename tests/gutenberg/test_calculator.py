"""Gutenberg's calculator mode (issue 11): one `sheet` row per player, the tally from `score`.

Also the small holes closed with it: a partial marker placement, a game alone without the
automa, and messages that never show a path.
"""

import html
import re

import pytest
from werkzeug.datastructures import MultiDict

from companion.games import get

from .test_web import ok, open_table

GAME = get("gutenberg")
SPECIALTIES = ("typesetting", "woodcutting", "binding", "illuminating")
NAMES = ["Anna", "Ben", "Cleo", "Dan"]
#: four realistic end-of-game rows; Ben and Cleo tie on 94 and Cleo wins on fewer types [GB307]
ROWS = [
    {"fame": 62, "guilders": 7, "specialties": dict(zip(SPECIALTIES, (4, 2, 3, 1))), "patronage_cards": 2,
     "types": 6, "inks": 2, "character": "hieronymus_vietor"},
    {"fame": 72, "guilders": 9, "specialties": dict(zip(SPECIALTIES, (5, 3, 2, 0))), "patronage_cards": 2,
     "types": 7, "inks": 1},
    {"fame": 78, "guilders": 5, "specialties": dict(zip(SPECIALTIES, (3, 4, 6, 1))), "patronage_cards": 1,
     "types": 5, "inks": 3, "character": "johannes_gutenberg"},
    {"fame": 55, "guilders": 12, "specialties": dict(zip(SPECIALTIES, (6, 1, 1, 2))), "patronage_cards": 1,
     "types": 4, "inks": 0, "character": "carola_guillard"},
]


def expected(rows, names=NAMES):
    """The `score` rules function on the same values: what the table must show."""
    doc = {"players": [dict(r, name=n) for n, r in zip(names, rows)], "solo": len(rows) == 1}
    return GAME.functions["score"].run(doc)


def row(i, **changes):
    return dict(ROWS[i], player=i, **changes)


def calculator_table(api, names=NAMES, **options):
    return api.create("gutenberg", names, calculator=True, **options)


# --- the sheet over the API ---------------------------------------------------------------------

def test_table_is_finished_once_every_row_is_in_and_the_tally_is_the_score_functions(api):
    t = calculator_table(api)
    assert t["state"]["rows_in"] == [False] * 4 and not t["state"]["finished"]
    for i in range(3):
        state = ok(api.event(t, "sheet", row(i)))["state"]
        assert not state["finished"]
    state = ok(api.event(t, "sheet", row(3)))["state"]
    assert state["finished"] and state["rows_in"] == [True] * 4
    view = GAME.view(state, NAMES, {"calculator": True}, {}, None)
    result = expected(ROWS)
    assert view["final"]["winners"] == result["winners"] == ["Cleo"]
    totals = {r["name"]: (r["total"], r["breakdown"]) for r in view["final"]["rows"]}
    assert totals == {p["name"]: (p["total"], p["breakdown"]) for p in result["players"]}
    assert view["final"]["winner_line"] == "Cleo wins on fewer types"
    assert [r["score"] for r in view["scoreboard"]] == [totals[n][0] for n in NAMES]


def test_a_row_saved_again_corrects_it_and_undo_reopens(api):
    t = calculator_table(api)
    for i in range(4):
        ok(api.event(t, "sheet", row(i)))
    # Ben's fame was mistyped: 90, not 70; he wins now and the result follows
    state = ok(api.event(t, "sheet", row(1, fame=90)))["state"]
    assert state["finished"] and state["players"][1]["fame"] == 90
    view = GAME.view(state, NAMES, {"calculator": True}, {}, None)
    fixed = [dict(r) for r in ROWS]
    fixed[1]["fame"] = 90
    assert view["final"]["winners"] == expected(fixed)["winners"] == ["Ben"]
    assert api.undo(t).status_code == 200
    assert api.get(t)["state"]["players"][1]["fame"] == 72 and api.get(t)["state"]["finished"]
    assert api.undo(t).status_code == 200
    state = api.get(t)["state"]
    assert not state["finished"] and state["rows_in"] == [True, True, True, False]


def test_solo_calculator_asks_nothing_for_the_automa_and_names_the_title(api):
    # the automa has no score (RULES.md GUT D2 step 6): the one human's row finishes the table
    t = calculator_table(api, ["John"], automa=True)
    john = {"fame": 84, "guilders": 4, "specialties": dict(zip(SPECIALTIES, (6, 3, 4, 5))), "patronage_cards": 2,
            "types": 5, "inks": 1}
    state = ok(api.event(t, "sheet", dict(john, player=0)))["state"]
    assert state["finished"]
    view = GAME.view(state, ["John"], {"calculator": True, "automa": True}, {}, None)
    result = expected([john], ["John"])
    assert view["final"]["rows"][0]["title"] == result["players"][0]["title"] == "Apprentice"  # 111 [GB374]


def test_only_sheets_on_a_calculator_table_and_sheets_only_after_round_6_on_a_tracked_one(api):
    t = calculator_table(api)
    response = api.event(t, "fame", {"player": 0, "delta": 3})
    assert response.status_code == 400 and response.get_json()["field"] == "type"
    tracked = api.create("gutenberg", ["Ann", "Ben"])
    response = api.event(tracked, "sheet", row(0))
    assert response.status_code == 400 and response.get_json()["field"] == "type"
    for _ in range(6):
        ok(api.event(tracked, "end_round"))
    # at final scoring a tracked table takes a player's row as the correction of their counts
    state = ok(api.event(tracked, "sheet", row(1)))["state"]
    assert state["players"][1]["fame"] == 72 and state["players"][1]["specialties"] == ROWS[1]["specialties"]


BAD_ROWS = [
    ({"fame": -1}, "data.fame", "Ben's fame track"),
    ({"fame": "12"}, "data.fame", "Ben's fame track"),
    ({"guilders": 1000}, "data.guilders", "Ben's guilders"),
    ({"patronage_cards": 17}, "data.patronage_cards", "Ben's patronage cards"),
    ({"types": -2}, "data.types", "Ben's types"),
    ({"inks": 49}, "data.inks", "Ben's inks"),
    ({"specialties": dict(ROWS[1]["specialties"], binding=7)}, "data.specialties.binding", "Ben's Binding level"),
    ({"specialties": {"binding": 2}}, "data.specialties.typesetting", "Ben's Typesetting level"),
    ({"specialties": dict(ROWS[1]["specialties"], gears=1)}, "data.specialties.gears", None),
    ({"character": "gutenberg"}, "data.character", "Ben's character"),
    ({"player": 4}, "data.player", None),
    ({"colour": "red"}, "data.colour", None),
]


@pytest.mark.parametrize("change,field,label", BAD_ROWS)
def test_bad_rows_over_the_api_name_the_contract_field_and_change_nothing(api, change, field, label):
    t = calculator_table(api)
    ok(api.event(t, "sheet", row(0)))
    before = api.get(t)
    response = api.event(t, "sheet", dict(row(1), **change))
    assert response.status_code == 400
    assert response.get_json()["field"] == field
    assert api.get(t) == before


def test_a_missing_value_is_named(api):
    t = calculator_table(api)
    data = row(1)
    del data["inks"]
    response = api.event(t, "sheet", data)
    assert response.status_code == 400 and response.get_json()["field"] == "data.inks"


# --- the sheet through the page -----------------------------------------------------------------

def form_fields(i, values, version):
    """The fields the page's row form posts for player i."""
    fields = [("type", "sheet"), ("expected_version:int", str(version)), ("data.player:int", str(i))]
    for key in ("fame", "guilders"):
        fields.append((f"data.{key}:int", str(values[key])))
    for s in SPECIALTIES:
        fields.append((f"data.specialties.{s}:int", str(values["specialties"][s])))
    for key in ("patronage_cards", "types", "inks"):
        fields.append((f"data.{key}:int", str(values[key])))
    character = values.get("character")
    fields.append(("data.character:json", f'"{character}"' if character else ""))
    return fields


def visible_errors(page: str) -> list[str]:
    return [html.unescape(re.sub(r"<[^>]+>", "", e)).strip() for e in re.findall(r'<p class="error"[^>]*>(.*?)</p>', page, re.S)]


def test_the_page_saves_rows_and_shows_breakdown_and_winner(client, api):
    t = calculator_table(api)
    url = open_table(client, t)
    page = client.get(url).get_data(as_text=True)
    assert page.count("Save ") >= 4 and "Final scoring" in page and 'class="card seat-card gb-sheet' in page
    assert "Waiting for: <bdi>Anna</bdi>, <bdi>Ben</bdi>, <bdi>Cleo</bdi>, <bdi>Dan</bdi>" in page
    for i in range(4):
        version = api.get(t)["version"]
        response = client.post(f"/t/{t['table']}/events", data=MultiDict(form_fields(i, ROWS[i], version)))
        assert response.status_code in (200, 303), response.get_data(as_text=True)
    page = client.get(url).get_data(as_text=True)
    result = expected(ROWS)
    assert "<bdi>Cleo</bdi> wins on fewer types" in page
    for p in result["players"]:
        assert re.search(rf"<bdi>{p['name']}</bdi> <span class=\"gb-total\">{p['total']}</span>", page)
    assert 'data.character:json' in page and "hieronymus_vietor" in page
    # each card is prefilled with the saved row
    assert 'name="data.fame:int" value="78"' in page


WORDS = [
    ("data.fame:int", "-3", "Cleo's fame track"),
    # a value that is no number at all is refused while the form is read; the page still names its player
    ("data.fame:int", "12a", "Cleo's fame track"),
    ("data.guilders:int", "1000", "Cleo's guilders"),
    ("data.specialties.binding:int", "9", "Cleo's Binding level"),
    ("data.specialties.woodcutting:int", "", "Cleo's Woodcutting level"),
    ("data.patronage_cards:int", "20", "Cleo's patronage cards"),
    ("data.types:int", "-1", "Cleo's types"),
    ("data.inks:int", "50", "Cleo's inks"),
    ("data.character:json", '"nobody"', "Cleo's character"),
]


@pytest.mark.parametrize("name,value,words", WORDS)
def test_a_bad_row_on_the_page_says_the_field_in_players_words_and_changes_nothing(client, api, name, value, words):
    t = calculator_table(api)
    url = open_table(client, t)
    version = api.get(t)["version"]
    fields = [(k, value if k == name else v) for k, v in form_fields(2, ROWS[2], version)]
    response = client.post(f"/t/{t['table']}/events", data=MultiDict(fields), headers={"HX-Request": "true"})
    assert response.status_code == 400
    errors = visible_errors(response.get_data(as_text=True))
    assert errors and any(e.lower().startswith(words.lower()) for e in errors), errors
    for e in errors:
        assert "data." not in e and "data:" not in e and not re.search(r"\[\d+\]", e), e
    assert api.get(t)["version"] == version
    assert client.get(url).status_code == 200


# --- small holes ----------------------------------------------------------------------------------

def test_a_partial_marker_placement_is_refused_naming_the_player(api):
    # [GB114] players allocate "their markers among the 5 actions"; Tom holds 8 as second player [GB77]
    t = api.create("gutenberg", ["Anna", "Tom"])
    before = api.get(t)
    response = api.event(t, "markers", {"player": 1, "markers": {"take_orders": 3, "take_inks": 2, "patronage": 2}})
    assert response.status_code == 400
    assert response.get_json() == {"field": "data.markers",
                                   "error": "Tom placed 7 of their 8 markers; every marker goes on an action"}
    assert api.get(t) == before
    ok(api.event(t, "markers", {"player": 1, "markers": {"take_orders": 3, "take_inks": 2, "patronage": 3}}))


def test_a_partial_marker_placement_on_the_page_names_the_player(client, api):
    t = api.create("gutenberg", ["Anna", "Tom"])
    open_table(client, t)
    fields = [("type", "markers"), ("expected_version:int", "0"), ("data.player:int", "0"),
              ("data.markers.take_orders:int", "3"), ("data.markers.take_inks:int", "3"),
              ("data.markers.develop_specialties:int", ""), ("data.markers.improve_printing_houses:int", ""),
              ("data.markers.patronage:int", "")]
    response = client.post(f"/t/{t['table']}/events", data=MultiDict(fields), headers={"HX-Request": "true"})
    assert response.status_code == 400
    errors = visible_errors(response.get_data(as_text=True))
    assert "Anna's markers: Anna placed 6 of their 7 markers; every marker goes on an action" in errors
    assert api.get(t)["version"] == 0


def test_a_game_alone_is_played_against_the_automa(api, client):
    # [GB313] one player has the automa unless told otherwise, which is refused
    for calculator in (False, True):
        t = api.create("gutenberg", ["Ada"], calculator=calculator)
        assert api.stored(t).options["automa"] is True
        response = api.client.post("/api/v1/tables", json={"game": "gutenberg", "players": ["Ada"], "automa": False,
                                                           "calculator": calculator})
        assert response.status_code == 400 and response.get_json()["field"] == "automa"
    assert api.stored(api.create("gutenberg", ["Ada", "Ben"])).options["automa"] is False
    # the start form asks nothing about the automa for "Just the final score": its hidden select posts blank
    page = client.post("/new/gutenberg", data=MultiDict([("players[]", "Ada")] + [("players[]", "")] * 3
                                                        + [("options.calculator:bool", "on"), ("options.automa:json", "")]))
    assert page.status_code == 303, visible_errors(page.get_data(as_text=True))
    page = client.post("/new/gutenberg", data=MultiDict([("players[]", "Ada")] + [("players[]", "")] * 3
                                                        + [("options.automa:json", "false")]))
    assert page.status_code == 400
    errors = visible_errors(page.get_data(as_text=True))
    assert errors and errors[0].lower().startswith("the automa: a game alone is played against the automa"), errors


def test_a_whole_event_refusal_shows_no_data_prefix(client, api):
    # "data: reveal the automa's planning card first" was once shown to players
    t = api.create("gutenberg", ["Ada"], automa=True)
    open_table(client, t)
    fields = [("type", "end_round"), ("expected_version:int", "0")]
    response = client.post(f"/t/{t['table']}/events", data=MultiDict(fields), headers={"HX-Request": "true"})
    assert response.status_code == 400
    errors = visible_errors(response.get_data(as_text=True))
    assert "Reveal the automa's planning card first: its centre icon settles round-end ties" in errors
    for e in errors:
        assert not e.lower().startswith("data") and "[GB" not in e, e


def test_every_event_field_and_option_has_a_label():
    labels = GAME.labels
    for key in ("fame.delta", "guilders.delta", "inks.delta", "types.delta", "patronage_cards.delta",
                "sheet.fame", "sheet.specialties.binding", "automa", "automa_seat", "first_player",
                "take_orders_deck", "reward_track[]", "automa_start.patronage", "planning_cards.3.centre",
                "markers.take_inks", "card.from[]"):
        assert key in labels, key


# --- the tracked table's end screen and the scoreboard ---------------------------------------------

def test_tracked_end_screen_prefills_every_count_with_one_save_per_player(client, api):
    t = api.create("gutenberg", ["Ann", "Ben"])
    url = open_table(client, t)
    ok(api.event(t, "fame", {"player": 1, "delta": 41}))
    ok(api.event(t, "develop", {"player": 1, "specialty": "binding", "steps": 4}))
    page = client.get(url).get_data(as_text=True)
    assert "gb-sheet-form" not in page  # during the game the counts change as you play
    for _ in range(6):
        ok(api.event(t, "end_round"))
    page = client.get(url).get_data(as_text=True)
    forms = re.findall(r'<article class="card seat-card gb-sheet[^"]*" data-you="(\d)".*?</article>', page, re.S)
    assert forms == ["0", "1"]
    ben = re.search(r'<article[^>]*data-you="1".*?</article>', page, re.S).group(0)
    assert ben.count('type="submit"') == 1 and "<span>Save <bdi>Ben</bdi>'s row</span>" in html.unescape(ben)
    assert 'name="data.fame:int" value="41"' in ben and 'name="data.specialties.binding:int" value="4"' in ben
    assert 'name="data.guilders:int" value="10"' in ben and 'name="data.types:int" value="3"' in ben
    # a correction at final scoring: Ben had 2 patronage cards the table never heard of
    version = api.get(t)["version"]
    values = {"fame": 41, "guilders": 10, "specialties": dict(zip(SPECIALTIES, (0, 0, 4, 0))), "patronage_cards": 2,
              "types": 3, "inks": 0}
    response = client.post(f"/t/{t['table']}/events", data=MultiDict(form_fields(1, values, version)))
    assert response.status_code in (200, 303)
    state = api.get(t)["state"]
    assert state["players"][1]["patronage_cards"] == 2
    view = GAME.view(state, ["Ann", "Ben"], {}, {}, None)
    result = expected([{"fame": 0, "guilders": 10, "specialties": dict.fromkeys(SPECIALTIES, 0), "patronage_cards": 0,
                        "types": 3, "inks": 0}, values], ["Ann", "Ben"])
    assert [(r["name"], r["total"]) for r in view["final"]["rows"]] == \
        sorted(((p["name"], p["total"]) for p in result["players"]), key=lambda x: -x[1])
    assert view["final"]["winner_line"] == "Ben wins"


def test_scoreboard_of_a_tracked_table_and_of_a_calculator(api):
    t = api.create("gutenberg", ["Ann", "Ben", "Cy"], first_player=1)
    state = ok(api.event(t, "fame", {"player": 2, "delta": 12}))["state"]
    board = GAME.view(state, ["Ann", "Ben", "Cy"], {"first_player": 1}, {}, None)["scoreboard"]
    assert board == [
        {"seat": 0, "name": "Ann", "score": 0, "status": None, "turn": False},
        {"seat": 1, "name": "Ben", "score": 0, "status": "first player", "turn": False},
        {"seat": 2, "name": "Cy", "score": 12, "status": None, "turn": False},
    ]
    c = calculator_table(api)
    state = ok(api.event(c, "sheet", row(2)))["state"]
    board = GAME.view(state, NAMES, {"calculator": True}, {}, None)["scoreboard"]
    assert [(r["name"], r["score"], r["status"]) for r in board] == [
        ("Anna", None, "waiting"), ("Ben", None, "waiting"), ("Cleo", None, "row in"), ("Dan", None, "waiting")]
