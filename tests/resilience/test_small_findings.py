"""The smaller findings of issue 13 (finding 9): each bounded, each with its test.

- `GET /` with 10,000 tc_ cookies looked each one up (225 ms);
- any `?screen=` value was rendered and cached, so 2,500 values took 150 MB;
- 405 answers carried no Allow header;
- every 304 poll closed its connection.
"""

from __future__ import annotations

import http.client
import time

import pytest

from companion.web.connection import thread_db


def test_many_table_cookies_cost_a_bounded_number_of_queries(app, api):
    mine = api.create("gutenberg", ["Anna", "Tom"])
    client = app.test_client(use_cookies=False)  # the Cookie header as given, not the client's jar
    cookies = [f"tc_{i:05d}=x" for i in range(10_000)] + [f"tc_{mine['table']}={mine['token']}"]
    statements = []
    with app.app_context():
        thread_db(app).conn.set_trace_callback(statements.append)
    try:
        # the device's own cookie last, as a browser that sent the most would
        response = client.get("/", headers={"Cookie": "; ".join(cookies[-150:])})
        assert response.status_code == 200
        assert f"/t/{mine['table']}" in response.get_data(as_text=True)  # a real table among them is still listed
        statements.clear()
        response = client.get("/", headers={"Cookie": "; ".join(cookies)})
        assert response.status_code == 200
    finally:
        thread_db(app).conn.set_trace_callback(None)
    lookups = [s for s in statements if "FROM tables" in s]
    assert len(lookups) <= 3, f"{len(lookups)} queries for 10,000 cookies"


def poll(client, table: dict, screen: str):
    client.set_cookie(f"tc_{table['table']}", table["token"])
    return client.get(f"/t/{table['table']}/live?screen={screen}", headers={"If-None-Match": '"other"'})


def test_made_up_screens_do_not_grow_the_live_cache_without_bound(app, api):
    table = api.create("codex", ["Anna", "Tom"])
    other = api.create("gutenberg", ["Kate", "Ben"])
    cache = app.extensions["companion.live"]
    client = app.test_client()
    for screen in ("end", "book-0", "grid-0-1"):
        assert poll(client, table, screen).status_code == 200
    assert poll(client, other, "end").status_code == 200
    for i in range(300):
        assert poll(client, table, f"made-up-{i}").status_code == 200
    entries = [key for key in cache._entries if key[0] == table["table"]]
    assert len(entries) <= cache.SCREENS_PER_TABLE, f"{len(entries)} renders kept for one table"
    # a made-up screen is the main one as the game reads it (Game.screen_of): one render for all 300,
    # kept with the language it was drawn in (English: no Accept-Language, no cookie)
    assert set(entries) == {(table["table"], (s, "en")) for s in ("end", "book-0", None)}
    # the other table's render is still kept
    assert (other["table"], ("end", "en")) in cache._entries


@pytest.mark.slow
def test_405_names_the_allowed_methods(server):
    for method, path, allowed in (("DELETE", "/api/v1/tables", {"POST"}), ("PUT", "/", {"GET", "HEAD"}),
                                  ("POST", "/plays", {"GET", "HEAD"})):
        status, headers, _ = server.send(method, path)
        assert status == 405, (method, path, status)
        assert "Allow" in headers, headers
        assert allowed <= {m.strip() for m in headers["Allow"].split(",")}, headers
        assert "Content-Security-Policy" in headers


@pytest.mark.slow
def test_304_polls_keep_their_connection(server):
    table = server.api("/api/v1/tables", {"game": "gutenberg", "players": ["Anna", "Tom"]})
    # one connection kept for several requests, on purpose: whether the server keeps it is the question
    conn = http.client.HTTPConnection(server.host, server.port, timeout=10)
    try:
        conn.connect()
        sock = conn.sock
        headers = {"Cookie": f"tc_{table['table']}={table['token']}", "If-None-Match": f'"{table["table"]}-0-en"'}  # answers.live_tag
        for path in (f"/t/{table['table']}/live", f"/t/{table['table']}/live", f"/t/{table['table']}/live?screen=end"):
            conn.request("GET", path, headers=headers)
            response = conn.getresponse()
            response.read()
            assert response.status == 304
            assert response.getheader("Connection") != "close" and not response.will_close, response.getheaders()
            assert conn.sock is sock, "the server closed the connection after a 304"
        # and a page on the same connection afterwards
        conn.request("GET", "/")
        response = conn.getresponse()
        assert response.status == 200 and response.read() and conn.sock is sock
        # a client that asks to close is still closed on
        conn.request("GET", f"/t/{table['table']}/live", headers={**headers, "Connection": "close"})
        response = conn.getresponse()
        response.read()
        assert response.status == 304 and response.will_close
    finally:
        conn.close()


@pytest.mark.slow
def test_a_head_of_too_many_headers_is_answered_400_with_one_line_and_no_traceback(server):
    # http.client refuses more than 100 header lines with its own exception, not a ValueError: pywsgi
    # printed its traceback to stderr, about 1.4 KB a request past the folding of companion/logs.py
    before = server.log.read_text()
    for _ in range(3):
        status, _, body = server.send("GET", "/", headers={f"X-Many-{i}": "1" for i in range(120)})
        assert status == 400, body
    time.sleep(0.5)
    written = server.log.read_text()[len(before):]
    assert "Traceback" not in written, written
    assert 1 <= written.count("\n") <= 3, written
    assert server.send("GET", "/")[0] == 200
