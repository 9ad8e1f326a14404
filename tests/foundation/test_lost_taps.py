"""A write the phone retries is applied once, and bad input to the table pages answers 400 (issue 13).

Most cases run against a real `companion serve` on 127.0.0.1, over plain HTTP, as a phone whose
answer was lost would send the same write again (findings 3, 5, 6 and 9 of issue 13).
"""

from __future__ import annotations

import hmac
import json
import re
import sqlite3
from urllib.parse import urlencode

import pytest

from companion import create_app, tables
from companion.network import lan_address
from companion.paths import DB_NAME
from companion.web.connection import get_db
from companion.web.steppers import settings, stepper_id
from tests.conftest import Server
from tests.examples import create_doc

slow = pytest.mark.slow
FAME_STEPPER = stepper_id("fame", {"player": 0})


def call(server, method: str, path: str, body: bytes | str | None = None, headers: dict | None = None):
    """Server.send, its body as text: (status, headers, text)."""
    status, sent_back, raw = server.send(method, path, body, headers)
    return status, sent_back, raw.decode("utf-8", "replace")


def create(server, game="gutenberg", players=("Anna", "Tom")) -> dict:
    status, _, text = call(server, "POST", "/api/v1/tables", json.dumps(create_doc(game, players)),
                           {"Content-Type": "application/json"})
    assert status == 201, text
    return json.loads(text)


def api_post(server, t: dict, what: str, doc: dict):
    status, _, text = call(server, "POST", f"/api/v1/tables/{t['table']}/{what}", json.dumps(doc),
                           {"Content-Type": "application/json", "X-Table-Token": t["token"]})
    return status, json.loads(text)


def logged(server, t: dict) -> list[dict]:
    status, _, text = call(server, "GET", f"/api/v1/tables/{t['table']}/events", headers={"X-Table-Token": t["token"]})
    assert status == 200
    return json.loads(text)


def form_post(server, t: dict, fields, path: str = "events", htmx: bool = False, target: str | None = None, seat: str = "0"):
    """Post a page's form as the browser does: urlencoded, the table's cookies, same origin."""
    headers = {"Content-Type": "application/x-www-form-urlencoded", "Sec-Fetch-Site": "same-origin",
               "Cookie": f"tc_{t['table']}={t['token']}; seat_{t['table']}={seat}"}
    if htmx:
        headers["HX-Request"] = "true"
    if target:
        headers["HX-Target"] = target
    return call(server, "POST", f"/t/{t['table']}/{path}", urlencode(fields), headers)


def tap_fields(version: int, delta: int = 1, write_id: str | None = None) -> list[tuple[str, str]]:
    """The fields of Anna's fame stepper, as the page's form posts them."""
    fields = [("type", "fame"), ("expected_version:int", str(version)), ("stepper", settings("delta", "Fame", 1)),
              ("data.player:json", "0"), ("data.delta:json", str(delta))]
    return fields + ([("write_id", write_id)] if write_id is not None else [])


def no_traceback(server) -> None:
    text = server.log.read_text()
    assert "Traceback" not in text and "unexpected error" not in text, text[-3000:]


# --- finding 3: a write id, remembered by the server ----------------------------------------


@slow
def test_an_api_event_sent_twice_with_one_write_id_is_applied_once(server):
    t = create(server)
    doc = {"type": "fame", "data": {"player": 0, "delta": 2}, "expected_version": 0, "write_id": "tap-0001-anna"}
    first = api_post(server, t, "events", doc)
    again = api_post(server, t, "events", doc)  # its answer was lost: the client sends it again
    assert first == (200, {"version": 1, "state": first[1]["state"]})
    assert again[0] == 200 and again[1]["version"] == 1 and again[1]["state"]["players"][0]["fame"] == 2
    assert [e["type"] for e in logged(server, t)] == ["fame"]
    # a new write id is a new write, and a stale version is still a 409 for it
    status, body = api_post(server, t, "events", {**doc, "write_id": "tap-0002-anna"})
    assert status == 409 and body["version"] == 1
    no_traceback(server)


@slow
def test_a_retried_write_answers_the_table_as_it_is_now(server):
    """Another phone's change in between: the retry applies nothing and answers 200 with the current table."""
    t = create(server)
    doc = {"type": "fame", "data": {"player": 0, "delta": 1}, "expected_version": 0, "write_id": "w_first_tap"}
    assert api_post(server, t, "events", doc)[0] == 200
    assert api_post(server, t, "events", {"type": "fame", "data": {"player": 1, "delta": 3}, "expected_version": 1})[0] == 200
    status, body = api_post(server, t, "events", doc)
    assert status == 200 and body["version"] == 2
    assert [p["fame"] for p in body["state"]["players"]] == [1, 3]
    assert len(logged(server, t)) == 2


@slow
def test_an_undo_sent_twice_with_one_write_id_takes_back_one_event(server):
    t = create(server)
    for version in range(2):
        assert api_post(server, t, "events", {"type": "fame", "data": {"player": 0, "delta": 1}, "expected_version": version})[0] == 200
    undo = {"expected_version": 2, "write_id": "undo-once-0001"}
    assert api_post(server, t, "undo", undo)[0] == 200
    status, body = api_post(server, t, "undo", undo)
    assert status == 200 and body["version"] == 3 and body["state"]["players"][0]["fame"] == 1
    assert [e["type"] for e in logged(server, t)] == ["fame", "fame", "undo"]


@slow
def test_a_page_form_sent_twice_with_one_write_id_is_applied_once(server):
    """The Flask route: a plain form (303 both times) and an htmx form (the live region both times)."""
    t = create(server)
    plain = [("type", "fame"), ("expected_version:int", "0"), ("data.player:int", "0"), ("data.delta:int", "1"),
             ("write_id", "plain-form-01")]
    assert form_post(server, t, plain)[0] == 303
    assert form_post(server, t, plain)[0] == 303
    region = [("type", "fame"), ("expected_version:int", "1"), ("data.player:int", "1"), ("data.delta:int", "2"),
              ("write_id", "htmx-form-01")]
    for _ in range(2):
        status, _, html = form_post(server, t, region, htmx=True)
        assert status == 200 and 'hx-swap-oob="morph" data-v="2" id="table-live"' in html and 'class="notice"' not in html
    undo = [("expected_version:int", "2"), ("write_id", "page-undo-01")]
    for _ in range(2):
        assert form_post(server, t, undo, path="undo", htmx=True)[0] == 200
    assert [e["type"] for e in logged(server, t)] == ["fame", "fame", "undo"]
    no_traceback(server)


@slow
def test_a_stepper_tap_sent_twice_with_one_write_id_is_applied_once(server):
    """Through a real server: the stepper answers with the value as it is, every time."""
    t = create(server)
    for _ in range(3):
        status, _, html = form_post(server, t, tap_fields(0, write_id="stepper-tap-1"), htmx=True, target=FAME_STEPPER)
        assert status == 200 and f'id="{FAME_STEPPER}"' in html
        assert re.search(r'class="num"[^>]*>(<small>Fame</small>)?1<', html), html
        assert 'data-v="1"' in html
    assert len(logged(server, t)) == 1
    no_traceback(server)


def test_a_retried_stepper_tap_is_answered_with_its_stepper_and_written_once(tmp_path):
    """A retried tap gets the stepper again (not a 409, not the parts that changed), and is written once."""
    app = create_app({"DATA_DIR": str(tmp_path / "data")})
    client = app.test_client(use_cookies=False)
    t = client.post("/api/v1/tables", json={"game": "gutenberg", "players": ["Anna", "Tom"]}).get_json()
    headers = {"HX-Request": "true", "Sec-Fetch-Site": "same-origin", "HX-Target": FAME_STEPPER,
               "Cookie": f"tc_{t['table']}={t['token']}; seat_{t['table']}=0"}
    for _ in range(2):
        response = client.post(f"/t/{t['table']}/events", data=urlencode(tap_fields(0, write_id="stepper-retry-01")), headers=headers,
                               content_type="application/x-www-form-urlencoded")
        assert response.status_code == 200 and "HX-Retarget" not in response.headers
        assert response.headers["X-Table-Partial"] == "1" and f'id="{FAME_STEPPER}"' in response.get_data(as_text=True)
    with sqlite3.connect(tmp_path / "data" / DB_NAME) as conn:
        assert conn.execute("SELECT count(*) FROM events").fetchone()[0] == 1


@slow
def test_write_ids_belong_to_their_table(server):
    a, b = create(server), create(server)
    doc = {"type": "fame", "data": {"player": 0, "delta": 1}, "expected_version": 0, "write_id": "same-id-on-two"}
    assert api_post(server, a, "events", doc)[0] == 200
    assert api_post(server, b, "events", doc)[0] == 200
    assert len(logged(server, a)) == len(logged(server, b)) == 1


BAD_WRITE_IDS = ["short", "x" * 65, "has space!", "ümlaut-id", "semi;colon00", "", 12345678, None]


@slow
def test_a_malformed_write_id_is_refused_naming_the_field(server):
    t = create(server)
    for bad in BAD_WRITE_IDS:
        status, body = api_post(server, t, "events", {"type": "fame", "data": {"player": 0, "delta": 1}, "expected_version": 0,
                                                      "write_id": bad})
        assert (status, body["field"]) == (400, "write_id"), (bad, body)
        status, body = api_post(server, t, "undo", {"expected_version": 0, "write_id": bad})
        assert (status, body["field"]) == (400, "write_id"), (bad, body)
    for bad in ["short", "x" * 65, "has space!"]:
        status, _, html = form_post(server, t, tap_fields(0, write_id=bad), htmx=True)
        assert status == 400 and 'data-field="write_id"' in html, html[:300]
    assert logged(server, t) == []
    no_traceback(server)


def test_the_write_id_is_stored_with_its_event(app, api):
    t = api.create("gutenberg", ["Anna", "Tom"])
    assert api.event(t, "fame", {"player": 0, "delta": 1}).status_code == 200  # no write id: still fine
    doc = {"type": "fame", "data": {"player": 0, "delta": 1}, "expected_version": 1, "write_id": "stored-id-01"}
    assert api.client.post(f"/api/v1/tables/{t['table']}/events", json=doc, headers=api.headers(t)).status_code == 200
    with sqlite3.connect(app.config["DATABASE"]) as conn:
        assert conn.execute("SELECT seq, write_id FROM events ORDER BY seq").fetchall() == [(1, None), (2, "stored-id-01")]
    # the contract's log keeps its shape
    assert set(api.events(t)[1]) == {"seq", "type", "data", "at"}


# --- finding 5: 500s on the table pages -------------------------------------------------------


@slow
def test_a_deeply_nested_json_field_is_a_400_naming_it(server):
    t = create(server)
    deep = "[" * 100_000 + "]" * 100_000
    body = "type=fame&expected_version:int=0&data.player:int=0&data.delta:json=" + deep
    status, _, html = call(server, "POST", f"/t/{t['table']}/events", body,
                           {"Content-Type": "application/x-www-form-urlencoded", "Sec-Fetch-Site": "same-origin",
                            "HX-Request": "true", "Cookie": f"tc_{t['table']}={t['token']}"})
    assert status == 400, html[:500]
    # the message may name its player inside <bdi> ("Anna's fame change: is nested too deeply")
    assert re.search(r'data-field="data\.delta"[^>]*>(?:[^<]|</?bdi>)*(nested|deep)', html), html[:2000]
    assert logged(server, t) == []
    no_traceback(server)


@slow
@pytest.mark.parametrize("seat", ["9" * 5000, "\u00b9", "\u0661", "-1", "1" * 4, ""])
def test_a_seat_that_is_no_player_number_is_a_400(server, seat):
    t = create(server)
    status, _, html = form_post(server, t, [("seat", seat)], path="seat")
    assert status == 400, html[:300]
    assert 'data-field="seat"' in html and "must be a player number" in html
    assert "Set-Cookie" not in html
    no_traceback(server)


@slow
@pytest.mark.parametrize("cookie", ["9" * 5000, "\u00b9", "1" * 4])
def test_a_seat_cookie_that_is_no_player_number_names_no_seat(server, cookie):
    t = create(server)
    headers = {"Cookie": f"tc_{t['table']}={t['token']}; seat_{t['table']}={cookie}".encode("utf-8").decode("latin-1")}
    status, _, html = call(server, "GET", f"/t/{t['table']}", headers=headers)
    assert status == 200 and 'data-seat=""' in html
    status, _, _ = call(server, "POST", f"/t/{t['table']}/events", urlencode(tap_fields(0)),
                        {**headers, "Content-Type": "application/x-www-form-urlencoded", "Sec-Fetch-Site": "same-origin",
                         "HX-Request": "true", "HX-Target": FAME_STEPPER})
    assert status == 200 and [e["type"] for e in logged(server, t)] == ["fame"]
    no_traceback(server)


# --- finding 6: the join URL is the server's own, never the request's -------------------------


def expected_base(port: int) -> str:
    """The join address of a server on every interface: the LAN's."""
    return f"http://{lan_address() or '127.0.0.1'}:{port}"


@slow
@pytest.mark.parametrize("host", ["localhost", "localhost:{port}", "127.0.0.1:{port}", "{lan}:1", "evil.example:1", "evil.example"])
def test_the_join_url_is_the_address_and_the_port_the_server_listens_on(server, host):
    # the test server listens on 127.0.0.1 alone: its join address is that, whatever the Host
    # (on every interface, it is the LAN's: test_join_url_reads_the_listening_address_from_the_app)
    t = create(server)
    base = server.url
    assert t["join_url"].startswith(base + "/join/"), t["join_url"]
    sent = host.format(port=server.port, lan=lan_address() or "127.0.0.1")
    status, _, html = call(server, "GET", f"/t/{t['table']}", headers={"Host": sent, "Cookie": f"tc_{t['table']}={t['token']}"})
    assert "evil.example" not in html
    if status == 400 and sent.startswith("evil"):
        return  # refused before any route by the Host allow-list: nothing of it is echoed either
    assert status == 200, html[:300]
    links = re.findall(r'<a href="([^"]*/join/[^"]*)"', html)
    assert links and all(link.startswith(base + "/join/") for link in links), links
    status, _, text = call(server, "POST", "/api/v1/tables", json.dumps({"game": "codex", "players": ["Anna", "Tom"]}),
                           {"Content-Type": "application/json", "Host": sent})
    assert status == 201 and json.loads(text)["join_url"].startswith(base + "/join/"), text


@slow
def test_the_join_url_uses_the_port_the_server_listens_on_not_8000(tmp_path):
    """A second server on another port: each QR code names its own port."""
    srv = Server(data=tmp_path / "other").start()
    try:
        t = create(srv)
        assert t["join_url"].startswith(srv.url + "/join/") and ":8000/" not in t["join_url"]
    finally:
        srv.stop()


def test_join_url_reads_the_listening_address_from_the_app(tmp_path):
    """`companion serve` tells the app where it listens (LISTEN_HOST, LISTEN_PORT): those win over the request."""
    app = create_app({"DATA_DIR": str(tmp_path / "d"), "LISTEN_HOST": "192.168.7.9", "LISTEN_PORT": 18201})
    client = app.test_client()
    t = client.post("/api/v1/tables", json={"game": "codex", "players": ["Anna", "Tom"]}, headers={"Host": "localhost:1"}).get_json()
    assert t["join_url"].startswith("http://192.168.7.9:18201/join/")
    wildcard = create_app({"DATA_DIR": str(tmp_path / "e"), "LISTEN_HOST": "0.0.0.0", "LISTEN_PORT": 18202})
    t = wildcard.test_client().post("/api/v1/tables", json={"game": "codex", "players": ["Anna", "Tom"]}).get_json()
    assert t["join_url"].startswith(expected_base(18202) + "/join/")
    # on loopback alone (--host 127.0.0.1), the only address it answers on, not a LAN one it does not (issue 27)
    loopback = create_app({"DATA_DIR": str(tmp_path / "f"), "LISTEN_HOST": "127.0.0.1", "LISTEN_PORT": 18203})
    t = loopback.test_client().post("/api/v1/tables", json={"game": "codex", "players": ["Anna", "Tom"]}).get_json()
    assert t["join_url"].startswith("http://127.0.0.1:18203/join/"), t["join_url"]


# --- finding 9: a wrong secret does the same work as a missing table -------------------------


@slow
def test_a_wrong_secret_and_a_missing_table_answer_alike(server):
    t = create(server)
    wrong = {"X-Table-Token": "x" * 30}
    missing = call(server, "GET", "/api/v1/tables/nosuchtable", headers=wrong)
    assert call(server, "GET", f"/api/v1/tables/{t['table']}", headers=wrong)[::2] == missing[::2]
    page_missing = call(server, "GET", "/t/nosuchtable", headers={"Cookie": "tc_nosuchtable=" + "x" * 30})
    page_wrong = call(server, "GET", f"/t/{t['table']}", headers={"Cookie": f"tc_{t['table']}=" + "x" * 30})
    assert page_missing[0] == page_wrong[0] == 404 and page_missing[2] == page_wrong[2]


def test_a_missing_table_still_compares_a_secret(app, api, monkeypatch):
    """The work a wrong secret costs (hash, compare) is done for a missing table too, in each check."""
    t = api.create("gutenberg", ["Anna", "Tom"])
    compared = []
    real = hmac.compare_digest

    def counting(a, b):
        compared.append((len(a), len(b)))
        return real(a, b)

    monkeypatch.setattr(hmac, "compare_digest", counting)
    doc = {"type": "fame", "data": {"player": 0, "delta": 1}, "expected_version": 0}
    with app.app_context():
        db = get_db()
        for table_id in ("nosuchtable", t["table"]):
            compared.clear()
            for check in (lambda: tables.authorize(db, table_id, "wrong-secret"),
                          lambda: tables.version_if_authorized(db, table_id, "wrong-secret"),
                          lambda: tables.append(db, table_id, dict(doc), secret="wrong-secret"),
                          lambda: tables.undo(db, table_id, {"expected_version": 0}, secret="wrong-secret")):
                with pytest.raises(tables.NotFound):
                    check()
            assert compared == [(64, 64)] * 4, (table_id, compared)
