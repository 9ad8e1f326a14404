"""Gutenberg through the real app: the rules over HTTP and the CLI, a table over the API, its pages."""

import json
import re
import subprocess
import sys
from pathlib import Path

from werkzeug.datastructures import MultiDict

ROOT = Path(__file__).resolve().parents[2]
START = {"take_orders": 2, "take_inks": 1, "develop_specialties": 1, "improve_printing_houses": 2, "patronage": 1}
CARD = {"centre": "develop_specialties", "moves": [["take_orders", "take_inks"]], "patronage": False}
JOHN = {"name": "John", "fame": 84, "guilders": 4, "patronage_cards": 2, "types": 5, "inks": 1,
        "specialties": {"typesetting": 6, "woodcutting": 3, "binding": 4, "illuminating": 5}}


def ok(response):
    assert response.status_code == 200, response.get_json()
    return response.get_json()


def open_table(client, t):
    """Open the join address on this client, as a phone scanning the QR code does."""
    path = "/" + t["join_url"].split("//", 1)[1].split("/", 1)[1]
    response = client.get(path)
    assert response.status_code == 303
    return response.headers["Location"]


# --- rules functions over HTTP and the command line ---------------------------------------------

def test_score_over_http(api):
    result = ok(api.rules("gutenberg", "score", {"solo": True, "players": [JOHN]}))
    assert result["players"][0]["total"] == 111 and result["players"][0]["title"] == "Apprentice"


def test_bad_input_over_http_names_the_field(api):
    bad = dict(JOHN, specialties=dict(JOHN["specialties"], binding=7))
    response = api.rules("gutenberg", "score", {"players": [bad]})
    assert response.status_code == 400
    assert response.get_json() == {"error": "must be a whole number from 0 to 6", "field": "players[0].specialties.binding"}
    response = api.rules("gutenberg", "automa_execute", {"action": "take_inks", "available": [5]})
    assert response.status_code == 400 and response.get_json()["field"] == "available[0]"


def test_every_function_over_http(api):
    assert ok(api.rules("gutenberg", "type_cost", {"owned": 3, "buy": 2})) == {"cost": 9}
    markers = {"take_orders": 0, "take_inks": 3, "develop_specialties": 1, "improve_printing_houses": 2, "patronage": 1}
    plan = ok(api.rules("gutenberg", "automa_plan", {"markers": markers, "card": {"centre": "patronage",
                                                                                 "moves": [["take_orders", "take_inks"]]}}))
    assert plan["markers"]["take_orders"] == 1 and plan["markers"]["take_inks"] == 2
    end = ok(api.rules("gutenberg", "automa_round_end", {"markers": START, "centre": "take_orders", "change": 1}))
    assert end["markers"]["take_inks"] == 2
    draw = ok(api.rules("gutenberg", "automa_execute", {"action": "take_orders", "seed": 3,
                                                        "available": {"printing": [2], "refinement": [1, 4]}}))
    assert draw["printing"]["space"] == 2 and draw["refinement"]["space"] in (1, 4)
    order = ok(api.rules("gutenberg", "action_order", {"seats": ["A", "B"], "first": "B",
                                                       "markers": {"A": {"patronage": 2}, "B": {"patronage": 2}}}))
    assert order["order"]["patronage"] == ["B", "A"]


def cli(*args, stdin=""):
    return subprocess.run([sys.executable, "-m", "companion", *args], input=stdin, capture_output=True, text=True,
                          cwd=ROOT, timeout=60)


def test_cli_rules():
    done = cli("rules", "gutenberg", "type_cost", stdin='{"owned": 3, "buy": 2}')
    assert done.returncode == 0 and json.loads(done.stdout) == {"cost": 9}
    done = cli("rules", "gutenberg", "type_cost", stdin='{"owned": -1, "buy": 2}')
    assert done.returncode == 2 and done.stderr.strip() == "error: owned: must be a whole number from 0 to 999"
    listed = cli("rules", "--list").stdout
    for name in ("score", "action_order", "type_cost", "automa_plan", "automa_round_end", "automa_execute"):
        assert re.search(rf"gutenberg\s+{name}\s+\S", listed), name


# --- a table over the API ---------------------------------------------------------------------

def test_solo_table_over_the_api_with_undo(api):
    t = api.create("gutenberg", ["Ada"], automa=True)
    assert t["state"]["automa"]["markers"] is None
    ok(api.event(t, "automa_layout", {"layout": START}))
    ok(api.event(t, "markers", {"player": 0, "markers": {"take_orders": 2, "take_inks": 2, "patronage": 4}}))
    ok(api.event(t, "automa_card", {"card": CARD}))
    acted = ok(api.event(t, "automa_act", {"action": "take_inks"}))["state"]
    first_card = acted["automa"]["step"]["items"][0]["deck"][0]
    # undo the draw and redo it: the same card comes up
    assert api.undo(t).status_code == 200
    assert api.get(t)["state"]["automa"]["step"] is None
    again = ok(api.event(t, "automa_act", {"action": "take_inks"}))["state"]
    assert again["automa"]["step"] == acted["automa"]["step"]
    no = ok(api.event(t, "automa_answer", {"available": False}))["state"]
    assert no["automa"]["step"]["items"][0]["drawn"] == [first_card]
    assert api.undo(t).status_code == 200
    assert ok(api.event(t, "automa_answer", {"available": False}))["state"] == no
    ok(api.event(t, "automa_answer", {"available": True}))
    state = ok(api.event(t, "end_round"))["state"]
    assert state["round"] == 2
    assert sum(state["automa"]["markers"].values()) == 8


def test_bad_events_over_the_api_change_nothing(api):
    t = api.create("gutenberg", ["Anna", "Tom"])
    before = api.get(t)
    cases = [
        ("markers", {"player": 0, "markers": {"take_orders": 7}}, "data.markers.take_orders"),
        ("markers", {"player": 0, "markers": {"take_orders": 4, "take_inks": 4}}, "data.markers"),
        ("develop", {"player": 1, "specialty": "binding", "steps": 9}, "data.steps"),
        ("guilders", {"player": 1, "delta": -20}, "data.delta"),
        ("automa_act", {"action": "take_inks"}, "type"),
    ]
    for type_, data, field in cases:
        response = api.event(t, type_, data)
        assert response.status_code == 400, (type_, response.get_json())
        assert response.get_json()["field"] == field
    assert api.get(t) == before


def test_bad_options_over_the_api(client):
    response = client.post("/api/v1/tables", json={"game": "gutenberg", "players": ["A", "B", "C", "D"], "automa": True})
    assert response.status_code == 400 and response.get_json()["field"] == "automa"


# --- pages -----------------------------------------------------------------------------------

def test_table_page_walks_through_the_automa_steps(client, api):
    t = api.create("gutenberg", ["Ada"], automa=True)
    page_url = open_table(client, t)
    page = client.get(page_url).get_data(as_text=True)
    assert "Place the starting layout" in page and "Round 1 of 6" in page
    ok(api.event(t, "automa_layout", {"layout": START}))
    page = client.get(page_url).get_data(as_text=True)
    assert "Tap the card&#39;s icons" in page or "Tap the card's icons" in page
    ok(api.event(t, "automa_card", {"card": CARD}))
    page = client.get(page_url).get_data(as_text=True)
    assert "Take orders → Take inks: one marker moves from Take orders to Take inks." in page
    assert "Automa: Take inks" in page
    state = ok(api.event(t, "automa_act", {"action": "take_inks"}))["state"]
    card = state["automa"]["step"]["items"][0]["deck"][0]
    page = client.get(page_url).get_data(as_text=True)
    assert f"Is there any ink left in ink set {card}?" in page
    ok(api.event(t, "automa_answer", {"available": True}))
    page = client.get(page_url).get_data(as_text=True)
    assert f"Put every ink of ink set {card} back into the bag." in page


def test_form_posts_a_planning_card_by_its_icons(client, api):
    t = api.create("gutenberg", ["Ada"], automa=True)
    page_url = open_table(client, t)
    table_id = page_url.rsplit("/", 1)[-1]
    ok(api.event(t, "automa_layout", {"layout": START}))
    form = MultiDict([("type", "automa_card"), ("expected_version:int", "1"), ("data.card.centre", "patronage"),
                      ("data.card.from[]", "max"), ("data.card.to[]", "min"),
                      ("data.card.from[]", ""), ("data.card.to[]", ""), ("data.card.patronage:bool", "on")])
    response = client.post(f"/t/{table_id}/events", data=form)
    assert response.status_code == 303
    state = api.get(t)["state"]
    # max: take_orders and improve (2); scan from patronage wraps to take_orders. min: the ones
    # (take_inks, develop, patronage); scan from patronage -> patronage
    assert state["automa"]["card"] == {"centre": "patronage", "moves": [["max", "min"]], "patronage": True}
    assert state["automa"]["markers"] == dict(START, take_orders=1, patronage=2)


def test_form_error_shows_beside_the_field_and_stores_nothing(client, api):
    t = api.create("gutenberg", ["Ada"], automa=True)
    table_id = open_table(client, t).rsplit("/", 1)[-1]
    form = MultiDict([("type", "automa_layout"), ("expected_version:int", "0"), ("data.layout.take_orders:int", "7")])
    response = client.post(f"/t/{table_id}/events", data=form, headers={"HX-Request": "true"})
    assert response.status_code == 400
    body = response.get_data(as_text=True)
    assert 'data-field="data.layout.take_orders"' in body and "must be a whole number from 0 to 6" in body
    assert api.get(t)["version"] == 0


def test_end_screen_shows_breakdown_places_and_tie_break(client, api):
    t = api.create("gutenberg", ["Ann", "Ben"])
    page_url = open_table(client, t)
    ok(api.event(t, "buy_types", {"player": 1, "count": 1}))
    ok(api.event(t, "guilders", {"player": 1, "delta": 4}))
    ok(api.event(t, "fame", {"player": 0, "delta": 20}))
    ok(api.event(t, "fame", {"player": 1, "delta": 20}))
    for _ in range(6):
        ok(api.event(t, "end_round"))
    page = client.get(page_url).get_data(as_text=True)
    assert "Final scores" in page and "<bdi>Ann</bdi> wins on fewer types" in page
    assert "decided by fewer types (3 types, 0 inks)" in page
    assert re.search(r"Guilders</th><td>3</td>", page)
    assert "Professional title" not in page


def test_solo_end_screen_names_the_title(client, api):
    t = api.create("gutenberg", ["John"], automa=True)
    page_url = open_table(client, t)
    ok(api.event(t, "fame", {"player": 0, "delta": 110}))
    page = client.get(page_url + "?screen=end").get_data(as_text=True)
    assert "Score if the game ended now" in page
    assert "Professional title: <strong>Apprentice</strong>" in page  # 110 + 10 guilders // 3 = 113


def test_setup_form_starts_a_table_with_the_automa(client, api):
    form = MultiDict([("players[]", "Ada"), ("players[]", "Bo"), ("players[]", ""), ("players[]", ""),
                      ("options.automa:json", "true"), ("options.automa_seat:int", "1"),
                      ("options.take_orders_deck:json", '"one_deck"'), ("options.first_player:int", ""),
                      ("profile:int", "")])
    response = client.post("/new/gutenberg", data=form)
    assert response.status_code == 303, response.get_data(as_text=True)
    page = client.get(response.headers["Location"]).get_data(as_text=True)
    assert re.search(r"★</span> <bdi>Automa</bdi> <span class=\"muted\">\(7\)", page)


def test_setup_form_error_beside_the_option(client):
    form = MultiDict([("players[]", "Ada"), ("players[]", "Bo"), ("players[]", "Cy"), ("players[]", "Di"),
                      ("options.automa:json", "true")])
    response = client.post("/new/gutenberg", data=form)
    assert response.status_code == 400
    assert 'data-field="options.automa"' in response.get_data(as_text=True)


def profile_form(**extra):
    pairs = [("profile_name", "Our box"),
             ("automa_start.take_orders:int", "2"), ("automa_start.take_inks:int", "1"),
             ("automa_start.develop_specialties:int", "1"), ("automa_start.improve_printing_houses:int", "2"),
             ("automa_start.patronage:int", "1")]
    for n in range(1, 11):
        pairs += [(f"planning_cards.{n}.centre", ["take_orders", "take_inks", "develop_specialties",
                                                  "improve_printing_houses", "patronage"][n % 5]),
                  (f"planning_cards.{n}.from[]", "min"), (f"planning_cards.{n}.to[]", "max"),
                  (f"planning_cards.{n}.from[]", ""), (f"planning_cards.{n}.to[]", "")]
    pairs += [("reward_track[]:json", '"ink"'), ("reward_track[]:json", '"order"'),
              ("reward_track[]:json", '"type"'), ("reward_track[]:json", '"ink"')]
    pairs += list(extra.items())
    return MultiDict(pairs)


def test_box_profile_form_and_a_table_that_uses_it(client, api):
    page = client.get("/profiles/new/gutenberg").get_data(as_text=True)
    assert "The 10 automa planning cards" in page and "Card 10" in page
    response = client.post("/profiles/new/gutenberg", data=profile_form())
    assert response.status_code == 303, response.get_data(as_text=True)
    profile_id = int(response.headers["Location"].rsplit("/", 1)[-1])
    page = client.get(f"/profiles/{profile_id}").get_data(as_text=True)
    assert page.count('value="min" selected') == 10
    t = api.create("gutenberg", ["Ada"], automa=True, profile=profile_id)
    assert t["state"]["automa"]["markers"] == START
    page_url = open_table(client, t)
    page = client.get(page_url).get_data(as_text=True)
    assert "Draw the planning card for me" in page and "Card 7" in page
    state = ok(api.event(t, "automa_card", {"draw": True}))["state"]
    assert len(state["automa"]["deck"]) == 5 and 1 <= state["automa"]["card"]["number"] <= 10


def test_box_profile_form_errors_beside_the_card(client):
    form = profile_form()
    form.setlist("planning_cards.3.to[]", ["gears", ""])
    response = client.post("/profiles/new/gutenberg", data=form)
    assert response.status_code == 400
    body = response.get_data(as_text=True)
    assert 'data-field="planning_cards.3.moves[0][1]"' in body


def test_character_powers_appear_on_the_panel(client, api):
    t = api.create("gutenberg", ["Geo", "Jo", "Chris", "Hel"])
    page_url = open_table(client, t)
    for player, character in enumerate(("godofredus_torinus", "johannes_gutenberg", "christophorus_plantinus",
                                        "helena_ungler")):
        ok(api.event(t, "character", {"player": player, "character": character}))
    ok(api.event(t, "markers", {"player": 1, "markers": {"take_orders": 3, "take_inks": 5}}))
    page = client.get(page_url).get_data(as_text=True)
    assert "<span>Yes: +3 fame for <bdi>Geo</bdi></span>" in page
    assert "Gutenberg shifts 1 marker" in page
    assert "Swap levels" in page
    assert "Helena&#39;s setup (+1 ink)" in page or "Helena's setup (+1 ink)" in page
    ok(api.event(t, "torinus", {"player": 0}))
    page = client.get(page_url).get_data(as_text=True)
    assert "Yes: +3 fame for Geo" not in page
