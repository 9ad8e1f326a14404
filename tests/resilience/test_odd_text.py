"""Odd text and odd numbers a careless or hostile device sends: 400 or 404, never a 500 (issue 13, finding 5).

JSON allows "\\ud800", half of a UTF-16 pair: Python reads it as a string no UTF-8 can hold, and
storing, logging or showing it failed with a traceback. A profile id of 2**63 or more is past
SQLite's integers. Each is sent to a real `companion serve`, as a phone on the Wi-Fi would, and
must answer 400 (or 404 for the id), store nothing, and leave no traceback in the server's output.
"""

from __future__ import annotations

import json
import sqlite3
import urllib.parse
import uuid

import pytest

from companion.paths import DB_NAME

pytestmark = pytest.mark.slow

GAME = "gutenberg"
ROW = {"fame": 1, "guilders": 0, "patronage_cards": 0, "types": 3, "inks": 0,
       "specialties": {"typesetting": 0, "woodcutting": 0, "binding": 0, "illuminating": 0}}


def post_json(server, path: str, text: str, token: str | None = None) -> tuple[int, dict]:
    """POST a JSON text written by hand: json.dumps would write "\\ud800" too, but this shows it."""
    headers = {"Content-Type": "application/json", **({"X-Table-Token": token} if token else {})}
    status, _, body = server.send("POST", path, text.encode("ascii"), headers)
    return status, json.loads(body)


def post_form(server, path: str, fields: list[tuple[str, str]], cookie: str = "") -> tuple[int, str]:
    body = urllib.parse.urlencode(fields).encode("ascii")
    headers = {"Content-Type": "application/x-www-form-urlencoded", **({"Cookie": cookie} if cookie else {})}
    status, _, page = server.send("POST", path, body, headers)
    return status, page.decode("utf-8")


def post_file(server, path: str, content: bytes) -> tuple[int, str]:
    boundary = uuid.uuid4().hex
    body = (f"--{boundary}\r\nContent-Disposition: form-data; name=\"file\"; filename=\"box.json\"\r\n"
            f"Content-Type: application/json\r\n\r\n").encode() + content + f"\r\n--{boundary}--\r\n".encode()
    status, _, page = server.send("POST", path, body, {"Content-Type": f"multipart/form-data; boundary={boundary}"})
    return status, page.decode("utf-8")


def stored(server) -> tuple:
    """Everything a refused request must leave alone: the rows of every table the app writes."""
    conn = sqlite3.connect(server.data / DB_NAME)
    try:
        return tuple(conn.execute(f"SELECT * FROM {t} ORDER BY 1").fetchall() for t in ("tables", "events", "profiles"))
    finally:
        conn.close()


def log(server) -> str:
    return server.log.read_text("utf-8", "replace")


def new_table(server) -> dict:
    status, doc = post_json(server, "/api/v1/tables", json.dumps({"game": GAME, "players": ["Anna", "Tom"]}))
    assert status == 201, doc
    return doc


def test_a_lone_surrogate_through_the_api_is_400_at_its_path(server):
    table = new_table(server)
    before = stored(server)
    name = '"a\\ud800b"'
    cases = [
        ("/api/v1/tables", '{"game": "%s", "players": [%s, "Tom"]}' % (GAME, name), None, "players[0]"),
        ("/api/v1/tables", '{"game": "%s", "players": ["Anna", "Tom"], "colour": %s}' % (GAME, name), None, "colour"),
        ("/api/v1/tables", '{"game": "%s", "players": ["Anna", "Tom"], "x\\udfffy": 1}' % GAME, None, "x\\udfffy"),
        (f"/api/v1/tables/{table['table']}/events",
         '{"type": "rename", "data": {"player": 1, "name": %s}, "expected_version": 0}' % name, table["token"], "data.name"),
        (f"/api/v1/tables/{table['table']}/events",
         '{"type": "rename", "data": {"player": 1, "name": "Kate"}, "expected_version": 0, "note": [%s]}' % name,
         table["token"], "note[0]"),
        (f"/api/v1/{GAME}/score",
         json.dumps({"players": [dict(ROW, name="Anna"), dict(ROW, name="@")]}).replace('"@"', name), None, "players[1].name"),
    ]
    for path, text, token, field in cases:
        status, doc = post_json(server, path, text, token)
        assert status == 400, (path, text, doc)
        assert doc["field"] == field, (path, doc)
        assert "lone surrogate (U+D800)" in doc["error"] or "lone surrogate (U+DFFF)" in doc["error"], doc
    assert stored(server) == before
    assert "Traceback" not in log(server)


def joined(server) -> tuple[dict, str]:
    """A new table and the cookie its join address leaves on a phone."""
    table = new_table(server)
    status, _, _ = server.send("GET", f"/join/{table['table']}/{table['token']}")
    assert status == 303
    return table, f"tc_{table['table']}={table['token']}"


def test_a_lone_surrogate_through_the_forms_is_400_beside_its_field(server):
    table, cookie = joined(server)
    before = stored(server)
    # the table's rename form, the name sent as a :json field
    status, page = post_form(server, f"/t/{table['table']}/events", [
        ("type", "rename"), ("expected_version:int", "0"), ("data.player:int", "1"), ("data.name:json", '"a\\ud800b"')], cookie)
    assert status == 400 and 'data-field="data.name"' in page and "lone surrogate (U+D800)" in page
    # the box profile form: its name, and a value inside its data
    status, page = post_form(server, f"/profiles/new/{GAME}", [("profile_name:json", '"a\\ud800b"')])
    assert status == 400 and 'data-field="profile_name"' in page and "lone surrogate (U+D800)" in page
    status, page = post_form(server, f"/profiles/new/{GAME}", [("profile_name", "Box"), ("reward_track:json", '{"\\ud800": 1}')])
    assert status == 400 and "lone surrogate (U+D800)" in page
    assert stored(server) == before
    assert "Traceback" not in log(server)


def test_a_lone_surrogate_in_the_start_forms_name_is_400(server):
    before = stored(server)
    status, page = post_form(server, f"/new/{GAME}", [("players[]:json", '"a\\ud800b"'), ("players[]", "Tom")])
    assert status == 400 and "lone surrogate (U+D800)" in page
    assert stored(server) == before
    assert "Traceback" not in log(server)


def test_a_lone_surrogate_in_a_key_of_an_event_form_is_400(server):
    table, cookie = joined(server)
    before = stored(server)
    status, page = post_form(server, f"/t/{table['table']}/events",
                             [("type", "rename"), ("expected_version:int", "0"), ("data:json", '{"\\ud800": 1}')], cookie)
    assert status == 400 and "lone surrogate (U+D800)" in page
    assert stored(server) == before
    assert "Traceback" not in log(server)


@pytest.mark.parametrize("content, said", [
    (b'{"game": "gutenberg", "name": "a\\ud800b", "data": {}}', "The file&#39;s name: must not contain a lone surrogate (U+D800)"),
    (b'{"game": "gutenberg", "name": "Box", "data": {"\\ud800": 1}}', "must not contain a lone surrogate (U+D800)"),
    (b'{"game": "gutenberg", "name": "Box", "data": {}, "note": ["\\udc00"]}', "must not contain a lone surrogate (U+DC00)"),
], ids=["name", "a key in data", "a stray key's value"])
def test_a_lone_surrogate_in_an_imported_profile_is_400(server, content, said):
    before = stored(server)
    status, page = post_file(server, "/profiles/import", content)
    assert status == 400 and said in page
    assert stored(server) == before
    assert "Traceback" not in log(server)


@pytest.mark.parametrize("profile_id", [2**63 - 1, 2**63, 2**64, 10**30])
def test_a_profile_id_past_sqlites_integers_is_404(server, profile_id):
    status, _ = post_form(server, f"/profiles/new/{GAME}", [("profile_name", "Our box")])
    assert status == 303
    before = stored(server)
    for method, path in [("GET", f"/profiles/{profile_id}"), ("GET", f"/profiles/{profile_id}.json"),
                         ("POST", f"/profiles/{profile_id}"), ("POST", f"/profiles/{profile_id}/delete")]:
        status, _, _ = server.send(method, path, b"profile_name=x" if method == "POST" else b"",
                            {"Content-Type": "application/x-www-form-urlencoded"})
        assert status == 404, (method, path, status)
    # a table started with such a profile: no such profile, said at the field
    status, doc = post_json(server, "/api/v1/tables", json.dumps({"game": GAME, "players": ["Anna", "Tom"], "profile": profile_id}))
    assert status == 400 and doc["field"] == "profile", doc
    status, page = post_form(server, f"/new/{GAME}", [("players[]", "Anna"), ("players[]", "Tom"), ("profile:int", str(profile_id))])
    assert status == 400 and 'data-field="profile"' in page
    assert stored(server) == before
    assert "Traceback" not in log(server)
