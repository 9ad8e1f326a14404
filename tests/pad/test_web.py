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
    text = r.get_data(as_text=True)
    assert "The game&#39;s name" in text or "the game&#39;s name" in text.lower()


def test_a_round_typed_without_javascript_and_a_stepper_tap(client, api):
    t = api.create("pad", PLAYERS, title="Skull King")
    open_table(client, t, seat="0")
    html = page(client, t)
    assert "pad-type-0" in html and "New round" in html and "End the game" in html
    r = post_form(client, t, {"type": "set_score", "data.player:int": "0", "data.round:int": "1", "data.value:int": "37"})
    assert r.status_code in (200, 303)
    assert api.get(t)["state"]["scores"][0] == [37]
    r = post_form(client, t, {"type": "set_score", "data.player:int": "1", "data.round:int": "1", "data.value:int": "2.5"}, htmx=True)
    assert r.status_code == 400 and "Ben" in r.get_data(as_text=True)
    assert api.get(t)["state"]["scores"][1] == [0]
