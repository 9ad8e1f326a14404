"""A stepper's tap answered before Flask (companion/web/taps.py) gets what the Flask route gives.

Each case starts two apps from copies of one database: one answers taps itself where it can,
the other only through its Flask route. The same post goes to each; the answers (status,
headers, body) and what each wrote must be the same, and the quick path must have answered
exactly the cases it is meant to.
"""

import json
import sqlite3

import pytest

from companion import create_app
from companion.paths import DB_NAME
from companion.web.steppers import settings, stepper_id
from tests.galileo.test_table import PROFILE as GALILEO_PROFILE

FAME = {"type": "fame", "data": {"player": 0}, "field": "delta", "label": "Fame"}
SUSPICION = {"type": "suspicion", "data": {"player": 0}, "field": "delta", "label": "Suspicion"}


def two_apps(tmp_path, game):
    """Return (quick app, Flask-only app, table) whose databases hold the same table."""
    quick = create_app({"DATA_DIR": str(tmp_path / "quick")})
    client = quick.test_client()
    t = client.post("/api/v1/tables", json={"game": game, "players": ["Anna", "Tom"]}).get_json()
    if game == "galileo":
        client.post(f"/api/v1/tables/{t['table']}/events", headers={"X-Table-Token": t["token"]},
                    json={"type": "board", "data": {"suspicion_track": GALILEO_PROFILE["suspicion_track"]}, "expected_version": 0})
    (tmp_path / "flask").mkdir()
    with sqlite3.connect(tmp_path / "quick" / DB_NAME) as source, sqlite3.connect(tmp_path / "flask" / DB_NAME) as copy:
        source.backup(copy)
    flask_only = create_app({"DATA_DIR": str(tmp_path / "flask"), "QUICK_TAPS": False})
    return quick, flask_only, t


def written(app) -> list:
    with sqlite3.connect(app.config["DATABASE"]) as conn:
        return conn.execute("SELECT table_id, seq, type, data, seat FROM events ORDER BY table_id, seq").fetchall()


def post(app, t, stepper, delta, version, cookie=None, headers=None, query=None, extra=None, settings_value=None):
    form = {"type": stepper["type"], "expected_version:int": str(version), "data.delta:json": str(delta),
            "stepper": settings(stepper["field"], stepper["label"], 1) if settings_value is None else settings_value}
    form.update({f"data.{k}:json": json.dumps(v) for k, v in stepper["data"].items()})
    form.update(extra or {})
    sent = {"HX-Request": "true", "Sec-Fetch-Site": "same-origin", "HX-Target": stepper_id(stepper["type"], stepper["data"]),
            "Cookie": f"tc_{t['table']}={t['token']}; seat_{t['table']}=1" if cookie is None else cookie}
    sent.update(headers or {})
    # use_cookies=False: the test client would otherwise replace the Cookie header with its own jar
    return app.test_client(use_cookies=False).post(f"/t/{t['table']}/events", data=form, headers=sent, query_string=query or {})


CASES = {
    # name: (game, stepper, delta, version, post options, status, answered before Flask)
    "a tap": ("gutenberg", FAME, 1, 0, {}, 200, True),
    "a tap, screen in the query": ("gutenberg", FAME, 1, 0, {"query": {"screen": "end"}}, 200, True),
    "a tap, screen in the form": ("gutenberg", FAME, 1, 0, {"extra": {"screen": " end "}}, 200, True),
    "no counter: the whole region": ("galileo", SUSPICION, 2, 1, {}, 200, True),
    "refused": ("gutenberg", FAME, -1, 0, {}, 400, False),
    "stale": ("gutenberg", FAME, 1, 3, {}, 409, False),
    "wrong secret": ("gutenberg", FAME, 1, 0, {"cookie": "tc_{id}=nope"}, 404, False),
    "no secret": ("gutenberg", FAME, 1, 0, {"cookie": ""}, 404, False),
    "cross-site": ("gutenberg", FAME, 1, 0, {"headers": {"Sec-Fetch-Site": "cross-site"}}, 403, False),
    "Sec-Fetch-Site: none": ("gutenberg", FAME, 1, 0, {"headers": {"Sec-Fetch-Site": "none"}}, 200, False),
    "quoted seat cookie": ("gutenberg", FAME, 1, 0, {"cookie": 'tc_{id}={token}; seat_{id}="1"'}, 200, True),
    "quoted secret cookie": ("gutenberg", FAME, 1, 0, {"cookie": 'tc_{id}="{token}"; seat_{id}=1'}, 200, True),
    "no seat cookie": ("gutenberg", FAME, 1, 0, {"cookie": "tc_{id}={token}"}, 200, True),
    "a seat in Arabic-Indic digits": ("gutenberg", FAME, 1, 0, {"cookie": "tc_{id}={token}; seat_{id}=\u0661"}, 200, True),
    "a seat in superscript": ("gutenberg", FAME, 1, 0, {"cookie": "tc_{id}={token}; seat_{id}=\u00b2"}, 200, True),
    "a cookie not in UTF-8": ("gutenberg", FAME, 1, 0, {"cookie": "tc_{id}={token}; seat_{id}=1; other=caf\xe9"}, 200, True),
    "malformed settings": ("gutenberg", FAME, 1, 0, {"settings_value": "{"}, 200, False),
    "aimed at another stepper": ("gutenberg", FAME, 1, 0, {"headers": {"HX-Target": "w-000000000000"}}, 200, True),
    "a bad field": ("gutenberg", FAME, 1, 0, {"extra": {"data.player:int": "x"}}, 400, False),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_a_tap_gets_the_same_answer_before_flask_as_through_it(tmp_path, case):
    game, stepper, delta, version, options, status, quick_answers = CASES[case]
    quick, flask_only, t = two_apps(tmp_path, game)
    if "cookie" in options:
        options = dict(options, cookie=options["cookie"].format(id=t["table"], token=t["token"]))
    answers = []
    for app in (quick, flask_only):
        before = app.extensions["companion.quick_taps"].answered if app is quick else None
        response = post(app, t, stepper, delta, version, **options)
        answers.append((response.status_code, sorted(response.headers.items()), response.get_data(as_text=True)))
        if app is quick:
            assert (app.extensions["companion.quick_taps"].answered == before + 1) == quick_answers
    assert answers[0] == answers[1]
    assert answers[0][0] == status
    assert written(quick) == written(flask_only)


def test_a_tap_records_the_seat_and_the_event_once(tmp_path):
    quick, _, t = two_apps(tmp_path, "gutenberg")
    assert post(quick, t, FAME, 1, 0).status_code == 200
    assert post(quick, t, FAME, 1, 0).status_code == 409  # the same tap again is stale, not applied twice
    rows = written(quick)
    assert [(r[2], json.loads(r[3]), r[4]) for r in rows] == [("fame", {"player": 0, "delta": 1}, 1)]


@pytest.mark.parametrize("raw", ["\u0661", "\u00b2", "1\u0661"])
def test_a_seat_cookie_in_other_digits_names_no_seat(tmp_path, raw):
    """int() reads "١" as 1 and refuses "²": a seat is ASCII digits only, on both paths (answers.seat_of)."""
    quick, flask_only, t = two_apps(tmp_path, "gutenberg")
    for app in (quick, flask_only):
        response = post(app, t, FAME, 1, 0, cookie=f"tc_{t['table']}={t['token']}; seat_{t['table']}={raw}")
        assert response.status_code == 200
        assert [row[4] for row in written(app)] == [None]
