"""The tables API of CONTRACT.md, its error cases, and the rows it stores."""

import sqlite3

import pytest

from companion import games
from tests.examples import create_doc, examples

GAME = "gutenberg"


def rows(app, sql):
    conn = sqlite3.connect(app.config["DATABASE"])
    try:
        return conn.execute(sql).fetchall()
    finally:
        conn.close()


def test_create_answers_201_with_secret_and_join_url(api, app):
    t = api.create(GAME, [" Anna ", "Tom"])
    assert set(t) >= {"table", "token", "join_url", "version", "state"}
    assert t["version"] == 0
    assert len(t["token"]) >= 22  # token_urlsafe(22): 176 bits
    assert "localhost" not in t["join_url"] and "127.0.0.1" not in t["join_url"]
    assert t["table"] in t["join_url"] and t["token"] in t["join_url"]
    stored = rows(app, "SELECT id, game, names, version FROM tables")
    assert stored == [(t["table"], GAME, '["Anna","Tom"]', 0)]


def test_secret_is_stored_only_as_a_hash(api, app):
    t = api.create(GAME, ["Anna", "Tom"])
    dump = "\n".join(sqlite3.connect(app.config["DATABASE"]).iterdump())
    assert t["token"] not in dump


def test_get_table_shape(api):
    t = api.create(GAME, ["Anna", "Tom"])
    doc = api.get(t)
    assert doc["table"] == t["table"] and doc["game"] == GAME and doc["version"] == 0
    assert doc["players"] == [{"name": "Anna"}, {"name": "Tom"}]
    assert isinstance(doc["state"], dict)


@pytest.mark.parametrize(
    "body, field",
    [
        ({"players": ["A"]}, "game"),
        ({"game": "chess", "players": ["A"]}, "game"),
        ({"game": GAME, "players": []}, "players"),
        ({"game": GAME, "players": ["A", "B", "C", "D", "E"]}, "players"),
        ({"game": GAME, "players": ["Anna", "anna"]}, "players[1]"),
        ({"game": GAME, "players": ["Anna", "  "]}, "players[1]"),
        ({"game": GAME, "players": ["x" * 41]}, "players[0]"),
        ({"game": GAME, "players": [7]}, "players[0]"),
        ({"game": GAME, "players": "Anna"}, "players"),
        ({"game": GAME, "players": ["A"], "colour": "red"}, "colour"),
        ([1, 2], "$"),
    ],
)
def test_create_rejects_bad_documents_and_stores_nothing(client, app, body, field):
    response = client.post("/api/v1/tables", json=body)
    assert response.status_code == 400
    assert response.get_json()["field"] == field
    assert response.get_json()["error"]
    assert rows(app, "SELECT count(*) FROM tables") == [(0,)]


def test_malformed_json_is_400_at_root(client, app):
    response = client.post("/api/v1/tables", data="{not json", content_type="application/json")
    assert response.status_code == 400 and response.get_json() == {"error": "the body must be one JSON document", "field": "$"}
    assert rows(app, "SELECT count(*) FROM tables") == [(0,)]


def test_rename_event_and_log(api, app):
    t = api.create(GAME, ["Anna", "Tom"])
    response = api.event(t, "rename", {"player": 1, "name": "Kate"}, 0)
    assert response.status_code == 200
    assert response.get_json()["version"] == 1
    assert api.get(t)["players"] == [{"name": "Anna"}, {"name": "Kate"}]
    log = api.events(t)
    assert [(e["seq"], e["type"], e["data"]) for e in log] == [(1, "rename", {"player": 1, "name": "Kate"})]
    assert log[0]["at"].endswith("Z")
    assert rows(app, "SELECT seq, type FROM events") == [(1, "rename")]


def test_wrong_or_missing_secret_is_404_like_a_missing_table(api, client):
    t = api.create(GAME, ["Anna", "Tom"])
    other = api.create(GAME, ["Zed", "Yan"])
    missing = client.get("/api/v1/tables/nosuchtable", headers={"X-Table-Token": t["token"]})
    for headers in ({}, {"X-Table-Token": "wrong"}, {"X-Table-Token": other["token"]}):
        for method, path in [
            ("get", f"/api/v1/tables/{t['table']}"),
            ("get", f"/api/v1/tables/{t['table']}/events"),
            ("post", f"/api/v1/tables/{t['table']}/events"),
            ("post", f"/api/v1/tables/{t['table']}/undo"),
        ]:
            response = getattr(client, method)(path, headers=headers, json={"type": "rename", "data": {"player": 0, "name": "X"}, "expected_version": 0})
            assert response.status_code == 404
            assert response.get_json() == missing.get_json()
    assert api.get(t)["version"] == 0 and api.get(t)["players"] == [{"name": "Anna"}, {"name": "Tom"}]


def test_checks_run_in_contract_order(api, client):
    t = api.create(GAME, ["Anna", "Tom"])
    h = api.headers(t)
    url = f"/api/v1/tables/{t['table']}/events"
    assert client.post(url, data="nope", headers=h).status_code == 400
    stale_and_invalid = {"type": "rename", "data": {"player": 9, "name": ""}, "expected_version": 5}
    response = client.post(url, json=stale_and_invalid, headers=h)
    assert response.status_code == 409 and response.get_json()["version"] == 0
    response = client.post(url, json={"type": "rename", "data": {"player": 9, "name": "B"}, "expected_version": 0}, headers=h)
    assert response.status_code == 400 and response.get_json()["field"] == "data.player"


@pytest.mark.parametrize(
    "doc, field",
    [
        ({"type": "rename", "data": {"player": 0, "name": "B"}}, "expected_version"),
        ({"type": "rename", "data": {"player": 0, "name": "B"}, "expected_version": "0"}, "expected_version"),
        ({"type": "rename", "data": {"player": 0, "nam": "B"}, "expected_version": 0}, "data.nam"),
        ({"type": "rename", "data": {"player": 0, "name": "<b>x</b>" + "y" * 40}, "expected_version": 0}, "data.name"),
        ({"type": 5, "data": {}, "expected_version": 0}, "type"),
        ({"type": "rename", "data": {}, "expected_version": 0, "extra": 1}, "extra"),
        ({"type": "no_such_event", "data": {}, "expected_version": 0}, "type"),
        ({"type": "undo", "data": {"seq": 1}, "expected_version": 0}, "type"),
    ],
)
def test_bad_events_are_400_and_change_nothing(api, app, doc, field):
    t = api.create(GAME, ["Anna", "Tom"])
    response = api.client.post(f"/api/v1/tables/{t['table']}/events", json=doc, headers=api.headers(t))
    assert response.status_code == 400, response.get_json()
    assert response.get_json()["field"] == field
    assert rows(app, "SELECT count(*) FROM events") == [(0,)]
    assert api.get(t)["version"] == 0


def test_stale_version_409_applies_nothing(api, app):
    t = api.create(GAME, ["Anna", "Tom"])
    assert api.event(t, "rename", {"player": 0, "name": "B"}, 0).status_code == 200
    response = api.event(t, "rename", {"player": 0, "name": "C"}, 0)
    assert response.status_code == 409 and response.get_json()["version"] == 1
    assert rows(app, "SELECT count(*) FROM events") == [(1,)]


def test_undo_api(api, app):
    t = api.create(GAME, ["Anna", "Tom"])
    response = api.undo(t, 0)
    assert response.status_code == 400 and response.get_json()["field"] == "$"
    api.event(t, "rename", {"player": 0, "name": "B"}, 0)
    assert api.undo(t, 0).status_code == 409
    response = api.undo(t, 1)
    assert response.status_code == 200 and response.get_json()["version"] == 2
    assert api.get(t)["players"] == [{"name": "Anna"}, {"name": "Tom"}]
    assert [e["type"] for e in api.events(t)] == ["rename", "undo"]
    assert api.events(t)[1]["data"] == {"seq": 1}


def test_unknown_game_or_function(api):
    for path in ("/api/v1/chess/score", f"/api/v1/{GAME}/nope"):
        response = api.client.post(path, json={})
        assert response.status_code == 404
        assert response.get_json()["field"] == "$" and response.get_json()["error"]


def test_rules_list(client):
    listing = client.get("/api/v1/rules").get_json()
    assert {"game": GAME, "function": "score"} in [{"game": r["game"], "function": r["function"]} for r in listing]
    assert all(r["summary"] for r in listing)


def test_unknown_route_and_method_are_json(client):
    assert client.get("/api/v1/nothing/here/at/all").status_code == 404
    response = client.put("/api/v1/tables")
    assert response.status_code == 405 and "error" in response.get_json()


def test_oversized_body_is_refused(client, app):
    response = client.post("/api/v1/tables", data="[" * (2 * 1024 * 1024), content_type="application/json")
    assert response.status_code == 413 and "error" in response.get_json()
    assert rows(app, "SELECT count(*) FROM tables") == [(0,)]


def test_deeply_nested_json_is_a_clear_400(client):
    response = client.post("/api/v1/tables", data="[" * 100000 + "]" * 100000, content_type="application/json")
    assert response.status_code in (400, 413)
    assert "error" in response.get_json()


@pytest.mark.parametrize("game", list(games.registry()))
def test_every_game_takes_calculator_mode(api, game):
    """Issue 11: "calculator": true is every game's option, kept in the options; anything else but a boolean is refused."""
    players = examples(game).PLAYERS
    t = api.create(game, players, calculator=True)
    assert t["version"] == 0
    response = api.client.post("/api/v1/tables", json=create_doc(game, players, calculator="yes"))  # all else as the game needs
    assert response.status_code == 400
    assert response.get_json()["field"] == "calculator"
