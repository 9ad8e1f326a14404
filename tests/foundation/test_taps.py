"""A stepper's tap through its route (tables.post_event): who is taken to have tapped, and what is written.

The answers themselves (the stepper alone, or the parts that changed for a refused, stale or
malformed tap) are tests/foundation/test_steppers.py's. These post what htmx sends from a
stepper with the cookies a phone may really hold (quoted by a proxy, a seat not in ASCII
digits, a cookie that is not UTF-8), the screen in the query or the form, and from another
site, and check the status, the event written and the seat it records, or that nothing is.
"""

import json
import re
import sqlite3

import pytest

from companion import create_app
from companion.web.steppers import settings, stepper_id
from tests.galileo.test_table import PROFILE as GALILEO_PROFILE

FAME = {"type": "fame", "data": {"player": 0}, "field": "delta", "label": "Fame"}
SUSPICION = {"type": "suspicion", "data": {"player": 0}, "field": "delta", "label": "Suspicion"}
SCREEN = re.compile(r'<input type="hidden" name="screen" value="([^"]*)">')


def new_table(tmp_path, game):
    """Return (app, table): a table of Anna and Tom, Galileo's with its board's suspicion track."""
    app = create_app({"DATA_DIR": str(tmp_path / "data")})
    client = app.test_client()
    t = client.post("/api/v1/tables", json={"game": game, "players": ["Anna", "Tom"]}).get_json()
    if game == "galileo":
        client.post(f"/api/v1/tables/{t['table']}/events", headers={"X-Table-Token": t["token"]},
                    json={"type": "board", "data": {"suspicion_track": GALILEO_PROFILE["suspicion_track"]}, "expected_version": 0})
    return app, t


def written(app) -> list:
    """The events the pages wrote (the API's Galileo board left out): (type, data, seat)."""
    with sqlite3.connect(app.config["DATABASE"]) as conn:
        rows = conn.execute("SELECT type, data, seat FROM events WHERE type != 'board' ORDER BY table_id, seq").fetchall()
    return [(type_, json.loads(data), seat) for type_, data, seat in rows]


def post(app, t, stepper, delta, version, cookie=None, headers=None, query=None, extra=None):
    form = {"type": stepper["type"], "expected_version:int": str(version), "data.delta:json": str(delta),
            "stepper": settings(stepper["field"], stepper["label"], 1)}
    form.update({f"data.{k}:json": json.dumps(v) for k, v in stepper["data"].items()})
    form.update(extra or {})
    sent = {"HX-Request": "true", "Sec-Fetch-Site": "same-origin", "HX-Target": stepper_id(stepper["type"], stepper["data"]),
            "Cookie": f"tc_{t['table']}={t['token']}; seat_{t['table']}=1" if cookie is None else cookie}
    sent.update(headers or {})
    # use_cookies=False: the test client would otherwise replace the Cookie header with its own jar
    return app.test_client(use_cookies=False).post(f"/t/{t['table']}/events", data=form, headers=sent, query_string=query or {})


CASES = {
    # name: (game, stepper, delta, version, post options, status, seat recorded (None: no seat; "-": nothing written))
    "a tap": ("gutenberg", FAME, 1, 0, {}, 200, 1),
    "no counter: the parts that changed": ("galileo", SUSPICION, 2, 1, {}, 200, 1),
    "refused": ("gutenberg", FAME, -1, 0, {}, 400, "-"),
    "stale": ("gutenberg", FAME, 1, 3, {}, 409, "-"),
    "a bad field": ("gutenberg", FAME, 1, 0, {"extra": {"data.player:int": "x"}}, 400, "-"),
    "wrong secret": ("gutenberg", FAME, 1, 0, {"cookie": "tc_{id}=nope; seat_{id}=1"}, 404, "-"),
    "no secret": ("gutenberg", FAME, 1, 0, {"cookie": ""}, 404, "-"),
    "cross-site": ("gutenberg", FAME, 1, 0, {"headers": {"Sec-Fetch-Site": "cross-site"}}, 403, "-"),
    "Sec-Fetch-Site: none": ("gutenberg", FAME, 1, 0, {"headers": {"Sec-Fetch-Site": "none"}}, 200, 1),
    "quoted seat cookie": ("gutenberg", FAME, 1, 0, {"cookie": 'tc_{id}={token}; seat_{id}="1"'}, 200, 1),
    "quoted secret cookie": ("gutenberg", FAME, 1, 0, {"cookie": 'tc_{id}="{token}"; seat_{id}=1'}, 200, 1),
    "no seat cookie": ("gutenberg", FAME, 1, 0, {"cookie": "tc_{id}={token}"}, 200, None),
    "a seat in Arabic-Indic digits": ("gutenberg", FAME, 1, 0, {"cookie": "tc_{id}={token}; seat_{id}=\u0661"}, 200, None),
    "a seat in superscript": ("gutenberg", FAME, 1, 0, {"cookie": "tc_{id}={token}; seat_{id}=\u00b2"}, 200, None),
    "a seat with a digit of another script": ("gutenberg", FAME, 1, 0, {"cookie": "tc_{id}={token}; seat_{id}=1\u0661"}, 200, None),
    "a cookie not in UTF-8": ("gutenberg", FAME, 1, 0, {"cookie": "tc_{id}={token}; seat_{id}=1; other=caf\xe9"}, 200, 1),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_a_tap_is_written_with_its_seat_or_not_at_all(tmp_path, case):
    game, stepper, delta, version, options, status, seat = CASES[case]
    app, t = new_table(tmp_path, game)
    if "cookie" in options:
        options = dict(options, cookie=options["cookie"].format(id=t["table"], token=t["token"]))
    response = post(app, t, stepper, delta, version, **options)
    assert response.status_code == status, response.get_data(as_text=True)[:300]
    wanted = [] if seat == "-" else [(stepper["type"], {**stepper["data"], "delta": delta}, seat)]
    assert written(app) == wanted


@pytest.mark.parametrize("options", [{"query": {"screen": "end"}}, {"extra": {"screen": " end "}}], ids=["query", "form"])
def test_the_stepper_comes_back_for_the_screen_the_tap_names(tmp_path, options):
    """The screen (query first, then form, trimmed) goes into the redrawn stepper's and undo's forms."""
    app, t = new_table(tmp_path, "gutenberg")
    plain = post(app, t, FAME, 1, 0).get_data(as_text=True)
    assert SCREEN.findall(plain) == []
    response = post(app, t, FAME, 1, 1, **options)
    assert response.status_code == 200 and response.headers["X-Table-Partial"] == "1"
    assert SCREEN.findall(response.get_data(as_text=True)) == ["end", "end"]  # the stepper, and the undo tools


def test_the_same_tap_again_is_stale_not_applied_twice(tmp_path):
    app, t = new_table(tmp_path, "gutenberg")
    assert post(app, t, FAME, 1, 0).status_code == 200
    assert post(app, t, FAME, 1, 0).status_code == 409
    assert written(app) == [("fame", {"player": 0, "delta": 1}, 1)]
