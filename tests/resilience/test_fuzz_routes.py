"""Fuzz every HTTP route the app has: random path values, methods, headers, cookies and bodies.

Whatever arrives, the answer is never a 500 or a traceback: pages answer with a page (or a
redirect, or a short error page), the API with JSON and, for an error, the contract's
{"error", "field"} document. Routes are read off the app's URL map, so a route added later
is fuzzed without touching this file.
"""

from __future__ import annotations

import io
import json
import tempfile

import pytest
from hypothesis import given
from hypothesis import strategies as st
from werkzeug.datastructures import MultiDict

from companion import create_app, games, rules
from companion.web.steppers import settings, stepper_id
from tests.examples import create_doc

from .fuzzing import ANY_JSON, HOSTILE, assert_inert, examples, some_profile

HTML = HOSTILE + ["Anna", "", " ", "x" * 41, "\u0000", "Zoë"]
FIELD_NAMES = ["type", "expected_version:int", "data.player:int", "data.name", "data.delta:json", "data:json",
               "data.player:json", "players[]", "players[]:int", "automa:bool", "options.automa:bool", "profile",
               "profile:int", "profile_name", "seat", "screen", "next", "data..x", ":int", "a:weird", "x[]:json",
               "data.player", "data.player.x", "csrf", "options", "options:json", "players", "players:json", "x", "stepper"]
#: what a stepper posts besides its event (companion/web/steppers.py), well formed or not
STEPPER_SETTINGS = [settings("delta", "Fame", 1), settings("delta", None, 3), settings("player", "x", 1), '{"field": "delta"}',
                    "[]", "{", '{"field": "delta", "label": "<b>x</b>", "step": 1}']
#: HX-Target values: the live region, the stepper of a player's fame or another event, nonsense
HX_TARGETS = ["table-live", stepper_id("fame", {"player": 0}), stepper_id("points", {"player": 1}), "w-", "w-zzz", "x"]


def _routes() -> list[tuple[str, str]]:
    with tempfile.TemporaryDirectory() as tmp:
        app = create_app({"TESTING": True, "DATA_DIR": tmp})
        return sorted({(r.endpoint, r.rule) for r in app.url_map.iter_rules() if r.endpoint != "static"})


ROUTES = _routes()


@pytest.fixture(scope="module")
def world(tmp_path_factory):
    """An app with a table (its secret in hand), another table, and a box profile."""
    app = create_app({"TESTING": True, "DATA_DIR": str(tmp_path_factory.mktemp("fuzz-routes"))})
    client = app.test_client()
    key = next(iter(games.registry()))
    mine = client.post("/api/v1/tables", json=create_doc(key, ["Anna", "Tom"])).get_json()
    other = client.post("/api/v1/tables", json=create_doc(key, ["Zed", "Ann"])).get_json()
    return app, mine, other, some_profile(client)


def path_values(rule, mine: dict, other: dict, profile_id: int) -> st.SearchStrategy:
    """Values for a route's path: real ones (so the checks deep inside run) and strange ones."""
    text = st.text(st.characters(blacklist_categories=("Cs",)), min_size=1, max_size=20)
    by_name = {
        "table_id": st.sampled_from([mine["table"], other["table"], "nosuchtable"]) | text,
        "secret": st.sampled_from([mine["token"], other["token"], "wrong"]) | text,
        "game_key": st.sampled_from(list(games.registry()) + ["chess"]) | text,
        "game": st.sampled_from(list(games.registry()) + ["chess"]) | text,
        "function": st.sampled_from(sorted({f for _, f, _ in rules.listing()}) + ["nope"]) | text,
        "profile_id": st.sampled_from([profile_id, 0, 999999]) | st.integers(0, 2**62),
    }
    return st.fixed_dictionaries({name: by_name.get(name, text) for name in rule.arguments})


def bodies() -> st.SearchStrategy:
    form = st.lists(st.tuples(st.sampled_from(FIELD_NAMES) | st.text(max_size=12),
                              st.sampled_from(HTML + STEPPER_SETTINGS + ["0", "1", "-1", "99", "true", "on", '{"a": 1}', "[1, 2]", "null"])
                              | st.text(max_size=30)), max_size=8).map(lambda pairs: ("form", pairs))
    as_json = ANY_JSON.map(lambda doc: ("json", doc))
    raw = st.binary(max_size=80).map(lambda b: ("raw", b))
    upload = st.binary(max_size=200).map(lambda b: ("file", b)) | ANY_JSON.map(lambda d: ("file", json.dumps(d).encode()))
    return st.one_of(form, as_json, raw, upload, st.just(("none", None)))


def headers_for(mine: dict, other: dict) -> st.SearchStrategy:
    optional = {
        "HX-Request": st.sampled_from(["true", "false", "x"]),
        "HX-History-Restore-Request": st.just("true"),
        "HX-Target": st.sampled_from(HX_TARGETS),
        "If-None-Match": st.sampled_from([f'"{mine["table"]}-0"', "*", "garbage", '"x"']),
        "X-Table-Token": st.sampled_from([mine["token"], other["token"], "wrong", ""]),
        "Origin": st.sampled_from(["http://localhost", "http://evil.example", "null"]),
        "Sec-Fetch-Site": st.sampled_from(["same-origin", "cross-site", "none", "same-site"]),
    }
    return st.fixed_dictionaries({}, optional=optional)


@pytest.mark.parametrize("endpoint, rule", ROUTES, ids=[e for e, _ in ROUTES])
@examples(60)
@given(data=st.data())
def test_route_never_answers_500_or_a_traceback(world, endpoint, rule, data):
    app, mine, other, profile_id = world
    url_rule = next(r for r in app.url_map.iter_rules() if r.endpoint == endpoint and r.rule == rule)
    method = data.draw(st.sampled_from(sorted(url_rule.methods - {"OPTIONS"})), label="method")
    values = data.draw(path_values(url_rule, mine, other, profile_id), label="path")
    with app.test_request_context():
        path = app.url_map.bind("localhost").build(endpoint, values, method=method)
    query = data.draw(st.dictionaries(st.sampled_from(["screen", "seat", "x"]), st.sampled_from(HTML) | st.text(max_size=10), max_size=2))
    headers = data.draw(headers_for(mine, other), label="headers")
    client = app.test_client()
    cookies = data.draw(st.sampled_from(["mine", "other", "none", "odd seat"]), label="cookies")
    if cookies != "none":
        t = mine if cookies in ("mine", "odd seat") else other
        client.set_cookie(f"tc_{mine['table']}", t["token"])
        client.set_cookie(f"seat_{mine['table']}", data.draw(st.sampled_from(["0", "1", "9", "-1", "watch", "x", "٣"])))
    kind, body = data.draw(bodies(), label="body")
    kwargs: dict = {"headers": headers, "query_string": query}
    if method in ("POST", "PUT", "PATCH", "DELETE"):
        if kind == "form":
            kwargs["data"] = MultiDict(body)
        elif kind == "json":
            kwargs["json"] = body
        elif kind == "raw":
            kwargs.update(data=body, content_type="application/json")
        elif kind == "file":
            kwargs["data"] = {"file": (io.BytesIO(body), "profile.json")}
    response = client.open(path, method=method, **kwargs)
    # the host's backup download is a binary SQLite file: read it as bytes, not as UTF-8 text
    text = response.get_data().decode("utf-8", "replace")
    assert response.status_code < 500, (method, path, response.status_code, text[:500])
    assert "Traceback" not in text
    if response.mimetype == "text/html":
        assert_inert(text, (method, path))
    if path.startswith("/api/") and response.status_code >= 400 and method != "HEAD":
        doc = response.get_json()
        assert isinstance(doc, dict) and isinstance(doc.get("error"), str), text[:300]
        if response.status_code != 409:
            assert set(doc) == {"error", "field"}, doc


def test_every_route_is_fuzzed():
    # the URL map, read the same way the fuzz test reads it, holds the app's routes
    endpoints = {e for e, _ in ROUTES}
    assert {"tables.show", "tables.live", "tables.post_event", "api.post_event", "api.call_rules", "profiles.import_file"} <= endpoints
