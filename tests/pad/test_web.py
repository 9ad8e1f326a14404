"""The score pad through the real app: the JSON API, the pages and their forms (with and without htmx),
undo, refusals named in the player's words, and the result in the archive, the CSV and BG Stats."""

from __future__ import annotations

import csv
import io
import re

PLAYERS = ["Anna", "Ben", "Cleo"]


def open_table(client, t, seat="watch"):
    """Join the table in this client (the secret goes into a cookie) and take a seat."""
    assert client.get(f"/join/{t['table']}/{t['token']}").status_code == 303
    client.post(f"/t/{t['table']}/seat", data={"seat": seat})


def post_form(client, t, fields, htmx=False):
    headers = {"HX-Request": "true"} if htmx else {}
    return client.post(f"/t/{t['table']}/events", data=fields, headers=headers)


def page(client, t, screen=None) -> str:
    r = client.get(f"/t/{t['table']}" + (f"?screen={screen}" if screen else ""))
    assert r.status_code == 200
    return r.get_data(as_text=True)


def play_two_rounds(api, t):
    """Anna 10 + 5, Ben 7 + 9, Cleo 3 + 3; then the end."""
    for seat, first, second in ((0, 10, 5), (1, 7, 9), (2, 3, 3)):
        assert api.event(t, "set_score", {"player": seat, "round": 1, "value": first}).status_code == 200
    assert api.event(t, "new_round").status_code == 200
    for seat, first, second in ((0, 10, 5), (1, 7, 9), (2, 3, 3)):
        assert api.event(t, "set_score", {"player": seat, "round": 2, "value": second}).status_code == 200
    return api.event(t, "end")


# --- the JSON API --------------------------------------------------------------------------------------

def test_score_function_over_http(api):
    r = api.rules("pad", "score", {"players": [{"name": "A", "rounds": [3, 4]}, {"name": "B", "total": 9}], "lowest_wins": True})
    assert r.status_code == 200
    body = r.get_json()
    assert body["winners"] == ["A"] and body["places"] == {"A": 1, "B": 2}
    assert body["players"][0]["breakdown"] == {"round_1": 3, "round_2": 4}


def test_a_tracked_table_played_round_by_round_to_its_result(api):
    t = api.create("pad", PLAYERS, title="Skull King", bgg_id=150145)
    assert t["state"]["scores"] == [[0], [0], [0]]
    assert api.event(t, "score", {"player": 1, "round": 1, "delta": 2}).get_json()["state"]["scores"][1] == [2]
    assert api.undo(t).status_code == 200
    assert play_two_rounds(api, t).status_code == 200
    result = api.result(t).get_json()
    assert [(p["name"], p["total"], p["place"]) for p in result["players"]] == [("Anna", 15, 2), ("Ben", 16, 1), ("Cleo", 6, 3)]
    assert result["winners"] == ["Ben"]
    assert result["players"][1]["breakdown"] == {"round_1": 7, "round_2": 9}
    assert result["play"]["game"]["highestWins"] is True


def test_refusals_name_the_field_and_change_nothing(api, client):
    r = client.post("/api/v1/tables", json={"game": "pad", "players": PLAYERS})
    assert r.status_code == 400 and r.get_json()["field"] == "title"
    r = client.post("/api/v1/tables", json={"game": "pad", "players": PLAYERS, "title": "X", "ties": "rule"})
    assert r.status_code == 400 and r.get_json()["field"] == "tie_rule"
    r = client.post("/api/v1/tables", json={"game": "pad", "players": PLAYERS, "title": "X", "bgg_id": 0})
    assert r.status_code == 400 and r.get_json()["field"] == "bgg_id"
    r = client.post("/api/v1/tables", json={"game": "pad", "players": PLAYERS, "title": "bad\u0007title"})
    assert r.status_code == 400 and r.get_json()["field"] == "title"
    t = api.create("pad", PLAYERS, title="Skull King")
    before = api.get(t)
    for type_, data, field in [("score", {"player": 0, "round": 2, "delta": 1}, "data.round"),
                               ("score", {"player": 0, "round": 1, "delta": 0}, "data.delta"),
                               ("set_score", {"player": 3, "round": 1, "value": 1}, "data.player"),
                               ("set_score", {"player": 0, "round": 1, "value": 10**6}, "data.value"),
                               ("tie_winner", {"player": 0}, "type"),
                               ("sheet", {"player": 0, "total": 3}, "type")]:
        r = api.event(t, type_, data)
        assert r.status_code == 400 and r.get_json()["field"] == field, (type_, r.get_json())
    assert api.get(t) == before


# --- pages and forms -------------------------------------------------------------------------------------

def test_the_start_page_makes_a_pad_table_without_javascript(client):
    r = client.get("/new/pad")
    assert r.status_code == 200 and 'name="options.title"' in r.get_data(as_text=True)
    r = client.post("/new/pad", data={"players[]": ["Anna", "Ben"], "options.title": "Skull King", "options.bgg_id:int": "",
                                      "options.scoring": "rounds", "options.lowest_wins:json": "false",
                                      "options.ties": "shared", "options.tie_rule": ""})
    assert r.status_code == 303, r.get_data(as_text=True)


def test_the_start_page_names_a_refused_option_in_the_players_words(client):
    r = client.post("/new/pad", data={"players[]": ["Anna", "Ben"], "options.title": "  ", "options.ties": "shared",
                                      "options.tie_rule": ""})
    assert r.status_code == 400
    assert "The game&#39;s name: must not be empty" in r.get_data(as_text=True)


def test_a_round_typed_without_javascript_and_a_stepper_tap(client, api):
    t = api.create("pad", PLAYERS, title="Skull King")
    open_table(client, t, seat="0")
    html = page(client, t)
    assert "pad-type-0" in html and "New round" in html and "End the game" in html
    r = post_form(client, t, {"type": "set_score", "data.player:int": "0", "data.round:int": "1", "data.value:int": "37"})
    assert r.status_code in (200, 303)
    assert api.get(t)["state"]["scores"][0] == [37]
    r = post_form(client, t, {"type": "set_score", "data.player:int": "1", "data.round:int": "1", "data.value:int": "2.5"}, htmx=True)
    assert r.status_code == 400 and "<bdi>Ben</bdi>&#39;s score: must be a whole number" in r.get_data(as_text=True)
    assert api.get(t)["state"]["scores"][1] == [0]


# --- the result where every game's goes: archive, record, stats, player pages, CSV, BG Stats ----------------

def finished(api, **options) -> dict:
    t = api.create("pad", PLAYERS, **{"title": "Skull King", **options})
    assert play_two_rounds(api, t).status_code == 200
    return t


def test_the_archive_and_the_record_say_the_players_title_and_each_round(client, api):
    t = finished(api, bgg_id=150145)
    open_table(client, t, seat="0")
    html = page(client, t)
    assert "<h1>Skull King</h1>" in html and "<bdi>Ben</bdi> wins with 16 points" in html
    listing = client.get("/plays").get_data(as_text=True)
    assert "Skull King" in listing
    record = client.get(f"/plays/{t['table']}").get_data(as_text=True)
    assert "Skull King" in record and "Round 2" in record and "<bdi>Ben</bdi> wins with 16 points" in record
    # the chart's totals are the final ones: no end of game scoring is said to add to them
    assert "from the start to the end" in record and "end of game scoring" not in record
    assert "Skull King" in client.get("/players/Ben").get_data(as_text=True)


def test_the_csv_and_bg_stats_carry_the_title_the_id_and_who_wins(client, api):
    t = finished(api, bgg_id=150145, lowest_wins=True)
    open_table(client, t, seat="0")
    result = api.result(t).get_json()
    assert result["title"] == "Skull King" and result["winners"] == ["Cleo"]
    game = result["play"]["game"]
    assert game == {"name": "Skull King", "sourceGameId": "pad:skull king", "highestWins": False, "noPoints": False, "bggId": 150145}
    rows = list(csv.DictReader(io.StringIO(client.get("/plays/export.csv").get_data(as_text=True).lstrip("\ufeff"))))
    assert {(r["player"], r["total"], r["breakdown.round_1"], r["breakdown.round_2"], r["winner"], r["title"])
            for r in rows} == {("Anna", "15", "10", "5", "false", "Skull King"), ("Ben", "16", "7", "9", "false", "Skull King"),
                               ("Cleo", "6", "3", "3", "true", "Skull King")}
    file = client.get(f"/t/{t['table']}/play.bgsplay").get_json()
    assert file["games"][0]["name"] == "Skull King" and file["games"][0]["bggId"] == 150145
    assert file["games"][0]["highestWins"] is False


def test_a_game_without_an_id_is_matched_by_its_title_alone(api):
    t = finished(api)
    assert "bggId" not in api.result(t).get_json()["play"]["game"]


def test_a_tie_the_rule_breaks_is_asked_on_the_page_and_answered_without_javascript(client, api):
    t = api.create("pad", PLAYERS, title="Hearts", ties="rule", tie_rule="fewest hearts taken")
    open_table(client, t, seat="0")
    for seat in (0, 1):
        api.event(t, "set_score", {"player": seat, "round": 1, "value": 9})
    api.event(t, "end")
    html = page(client, t)
    assert "fewest hearts taken" in html and re.search(r"Anna</bdi> wins", html) and "Cleo</bdi> wins" not in html
    assert api.result(t).status_code == 409
    r = post_form(client, t, {"type": "tie_winner", "data.player:json": "1"})
    assert r.status_code in (200, 303)
    assert api.result(t).get_json()["winners"] == ["Ben"]
    assert "<bdi>Ben</bdi> wins the tie on 9 by your rule: fewest hearts taken" in page(client, t)
    assert api.undo(t).status_code == 200 and api.undo(t).status_code == 200  # the choice, then the end, taken back
    assert api.get(t)["state"]["ended"] is False


def test_a_calculator_table_is_one_save_per_player(client, api):
    t = api.create("pad", ["Anna", "Ben"], title="Azul", calculator=True)
    open_table(client, t, seat="1")
    html = page(client, t)
    assert html.count('name="data.total:int"') == 2 and "New round" not in html
    assert post_form(client, t, {"type": "sheet", "data.player:int": "0", "data.total:int": "61"}).status_code in (200, 303)
    r = post_form(client, t, {"type": "sheet", "data.player:int": "1", "data.total:int": "sixty"}, htmx=True)
    assert r.status_code == 400 and "<bdi>Ben</bdi>&#39;s total: must be a whole number" in r.get_data(as_text=True)
    assert post_form(client, t, {"type": "sheet", "data.player:int": "1", "data.total:int": "58"}).status_code in (200, 303)
    assert api.result(t).get_json()["players"][1]["breakdown"] == {"score": 58}
    assert "<bdi>Anna</bdi> wins with 61 points" in page(client, t)


def test_one_player_keeps_a_solo_score_and_twelve_players_a_table(api, client):
    solo = api.create("pad", ["Ana"], title="Onirim", calculator=True)
    assert api.event(solo, "sheet", {"player": 0, "total": 42}).status_code == 200
    assert api.result(solo).get_json()["verdict"] == "Ana scores 42 points"
    twelve = api.create("pad", [f"P{i}" for i in range(12)], title="Wizard")
    assert len(api.get(twelve)["state"]["scores"]) == 12
    r = client.post("/api/v1/tables", json={"game": "pad", "players": [f"P{i}" for i in range(13)], "title": "Wizard"})
    assert r.status_code == 400 and r.get_json()["field"] == "players"


def test_an_empty_total_is_missing_in_the_players_words(client, api):
    t = api.create("pad", ["Anna", "Ben"], title="Azul", calculator=True)
    open_table(client, t)
    r = post_form(client, t, {"type": "sheet", "data.player:int": "0", "data.total:int": "", "expected_version:int": "0"}, htmx=True)
    assert r.status_code == 400 and "<bdi>Anna</bdi>&#39;s total is missing" in r.get_data(as_text=True)
