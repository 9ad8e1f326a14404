"""Answers come gzip-compressed to the clients that accept it, and never the event stream (companion/web/compress.py).

Through a real `companion serve` where the server matters (gevent's pywsgi writes the headers
and the stream), through Flask's test client otherwise.
"""

import gzip
import re
import socket
import sqlite3

import pytest

from companion import create_app
from companion.paths import DB_NAME
from companion.web.compress import MIN_BYTES, accepts_gzip
from companion.web.steppers import settings, stepper_id

GZIP = {"Accept-Encoding": "gzip, deflate"}  # what a phone's browser sends over plain http
SECURITY = ("Content-Security-Policy", "X-Content-Type-Options", "Referrer-Policy", "X-Frame-Options")
STATIC = ("/static/app.css", "/static/js/main.js", "/static/vendor/htmx-2.0.11.min.js")


def header(headers: dict, name: str) -> str | None:
    """A header's value from a dict of them, whatever its case (http.client and werkzeug differ)."""
    return next((value for key, value in headers.items() if key.lower() == name.lower()), None)


def vary(headers: dict) -> set[str]:
    return {v.strip().lower() for v in (header(headers, "Vary") or "").split(",") if v.strip()}


SERVER_MS = re.compile(rb'data-server-ms="\d+"')


def same_answer_both_ways(send, path, method="GET", body=None, extra=None):
    """Send the request without and with gzip; check the two agree; return (identity, gzip) answers."""
    plain = send(method, path, body, {**(extra or {})})
    zipped = send(method, path, body, {**(extra or {}), **GZIP})
    assert plain[0] == zipped[0] == 200, (path, plain[0], zipped[0])
    assert header(plain[1], "Content-Encoding") is None, path
    assert header(zipped[1], "Content-Encoding") == "gzip", path
    assert int(header(zipped[1], "Content-Length")) == len(zipped[2]), path
    # a table page says the server's time as it was drawn (the turn clock's, data-server-ms): the rest is the same
    assert SERVER_MS.sub(b"", gzip.decompress(zipped[2])) == SERVER_MS.sub(b"", plain[2]), path
    assert len(zipped[2]) < len(plain[2]), path
    for answer in (plain, zipped):
        assert "accept-encoding" in vary(answer[1]), path
        assert all(header(answer[1], name) for name in SECURITY), (path, answer[1])
    return plain, zipped


def table_with_history(send_json, events: int = 12) -> dict:
    """Create a 4-player Gutenberg table and post score changes through the API; return its 201 document."""
    t = send_json("/api/v1/tables", {"game": "gutenberg", "players": ["Anna", "Tom", "Kate", "Ben"]})
    for i in range(events):
        send_json(f"/api/v1/tables/{t['table']}/events",
                  {"type": "fame", "data": {"player": i % 4, "delta": 1}, "expected_version": i}, t["token"])
    return t


def tap_form(t: dict, version: int) -> tuple[dict, str]:
    """The headers and body of a stepper's tap as htmx sends it, answered with the stepper alone."""
    from urllib.parse import urlencode

    body = urlencode({"type": "fame", "expected_version:int": str(version), "data.delta:json": "1",
                      "data.player:json": "0", "stepper": settings("delta", "Fame", 1)})
    headers = {"HX-Request": "true", "Sec-Fetch-Site": "same-origin", "HX-Target": stepper_id("fame", {"player": 0}),
               "Cookie": f"tc_{t['table']}={t['token']}; seat_{t['table']}=0",
               "Content-Type": "application/x-www-form-urlencoded"}
    return headers, body


# --- through Flask's test client ---------------------------------------------------------------


@pytest.fixture
def quick(tmp_path):
    return create_app({"TESTING": True, "DATA_DIR": str(tmp_path / "data")})


def client_send(app):
    def send(method, path, body=None, headers=None):
        with app.test_client(use_cookies=False).open(path, method=method, data=body, headers=headers or {}) as answer:
            return answer.status_code, dict(answer.headers), answer.get_data()
    return send


def client_json(app):
    def post(path, doc, token=None):
        answer = app.test_client().post(path, json=doc, headers={"X-Table-Token": token} if token else {})
        assert answer.status_code in (200, 201), answer.get_json()
        return answer.get_json()
    return post


@pytest.mark.parametrize("accept, wanted", [
    ("gzip", True), ("gzip, deflate, br", True), ("GZIP;q=0.5", True), ("*", True), ("deflate, *;q=0.1", True),
    ("", False), ("identity", False), ("deflate, br", False), ("gzip;q=0", False), ("gzip; q=0.0, deflate", False),
    ("*;q=0", False), ("*, gzip;q=0", False), ("gzip;q=0, *", False), ("gzip;q=nope", False),
])
def test_accept_encoding_is_read_with_its_q_values(accept, wanted):
    assert accepts_gzip(accept) is wanted


def test_a_page_a_fragment_json_and_static_files_come_gzip_to_who_accepts_it(quick):
    send = client_send(quick)
    t = table_with_history(client_json(quick))
    cookie = {"Cookie": f"tc_{t['table']}={t['token']}"}
    same_answer_both_ways(send, f"/t/{t['table']}", extra=cookie)  # the page
    same_answer_both_ways(send, f"/t/{t['table']}/live", extra=cookie)  # the live region a poll gets
    same_answer_both_ways(send, f"/t/{t['table']}", extra={**cookie, "HX-Request": "true"})  # htmx's fragment
    same_answer_both_ways(send, f"/api/v1/tables/{t['table']}/events", extra={"X-Table-Token": t["token"]})  # JSON
    for path in STATIC:
        same_answer_both_ways(send, path)
    # the security headers' own Cache-Control stays too
    assert header(send("GET", f"/t/{t['table']}/live", None, {**cookie, **GZIP})[1], "Cache-Control") == "no-cache"


def test_a_stepper_tap_comes_gzip_too(tmp_path):
    """The same tap posted to two apps holding copies of one database, with and without gzip.
    (A long first name: the stepper's answer names its player, and is then over MIN_BYTES.)"""
    first = create_app({"TESTING": True, "DATA_DIR": str(tmp_path / "plain")})
    t = client_json(first)("/api/v1/tables", {"game": "gutenberg", "players": ["Annabelle-Marie", "Tom", "Kate", "Ben"]})
    (tmp_path / "zipped").mkdir()
    with sqlite3.connect(first.config["DATABASE"]) as source, sqlite3.connect(tmp_path / "zipped" / DB_NAME) as copy:
        source.backup(copy)
    second = create_app({"TESTING": True, "DATA_DIR": str(tmp_path / "zipped")})
    headers, body = tap_form(t, 0)
    plain, zipped = (client_send(app)("POST", f"/t/{t['table']}/events", body, {**headers, **extra})
                     for app, extra in ((first, {}), (second, GZIP)))
    assert plain[0] == zipped[0] == 200 and header(plain[1], "X-Table-Partial") == "1"  # the stepper alone
    assert len(plain[2]) >= MIN_BYTES  # a tap's answer big enough to be worth it
    assert header(plain[1], "Content-Encoding") is None and header(zipped[1], "Content-Encoding") == "gzip"
    assert gzip.decompress(zipped[2]) == plain[2]
    assert int(header(zipped[1], "Content-Length")) == len(zipped[2])
    assert "accept-encoding" in vary(zipped[1]) and all(header(zipped[1], name) for name in SECURITY)


def test_tiny_answers_and_images_go_as_they_are(quick):
    send = client_send(quick)
    status, headers, body = send("GET", "/api/v1/tables/nosuchtable", None, GZIP)  # a small JSON error
    assert status == 404 and len(body) < MIN_BYTES and header(headers, "Content-Encoding") is None
    status, headers, body = send("GET", "/static/icons/icon-512.png", None, GZIP)  # PNG is compressed already
    assert status == 200 and len(body) > MIN_BYTES and header(headers, "Content-Encoding") is None
    assert header(headers, "Content-Type") == "image/png"


def test_a_static_file_is_compressed_once_and_its_304_still_comes(quick):
    send = client_send(quick)
    path = STATIC[0]
    plain = send("GET", path, None, {})
    first = send("GET", path, None, GZIP)
    tag = header(first[1], "ETag")
    assert tag and tag != header(plain[1], "ETag")  # the two encodings never share a tag
    again = send("GET", path, None, {**GZIP, "If-None-Match": tag})
    assert again[0] == 304 and again[2] == b""
    assert header(again[1], "ETag") == tag and "accept-encoding" in vary(again[1])
    # the identity copy's tag is still answered 304, under its own tag
    identity = send("GET", path, None, {"If-None-Match": header(plain[1], "ETag")})
    assert identity[0] == 304 and header(identity[1], "ETag") == header(plain[1], "ETag")
    # a client that no longer takes gzip is not told its gzip copy is current
    assert send("GET", path, None, {"If-None-Match": tag})[0] == 200
    for _ in range(3):
        assert send("GET", path, None, GZIP)[2] == first[2]
    assert quick.extensions["companion.gzip"].static.compressed == 1


def test_a_poll_with_the_gzip_tag_gets_its_304(quick):
    send = client_send(quick)
    t = table_with_history(client_json(quick), 2)
    cookie = {"Cookie": f"tc_{t['table']}={t['token']}"}
    first = send("GET", f"/t/{t['table']}/live", None, {**cookie, **GZIP})
    tag = header(first[1], "ETag")
    assert header(first[1], "Content-Encoding") == "gzip" and tag.endswith('-gzip"')
    again = send("GET", f"/t/{t['table']}/live", None, {**cookie, **GZIP, "If-None-Match": tag})
    assert again[0] == 304 and header(again[1], "ETag") == tag


def test_head_gets_the_headers_of_its_get(quick):
    send = client_send(quick)
    t = table_with_history(client_json(quick), 2)
    cookie = {"Cookie": f"tc_{t['table']}={t['token']}"}
    # a dynamic answer: the live region a poll gets (the table page itself says the time it was drawn at,
    # data-server-ms, so a HEAD drawn a millisecond later may gzip to another length)
    for path, extra in ((STATIC[1], {}), (f"/t/{t['table']}/live", cookie)):
        got = send("GET", path, None, {**extra, **GZIP})
        head = send("HEAD", path, None, {**extra, **GZIP})
        assert head[0] == 200 and head[2] == b""
        assert header(head[1], "Content-Encoding") == "gzip" and "accept-encoding" in vary(head[1])
        assert header(head[1], "ETag") == header(got[1], "ETag")
        assert header(head[1], "Content-Length") == header(got[1], "Content-Length")
    # a HEAD of an answer not compressed keeps its own length, and no body
    png = send("GET", "/static/icons/icon-512.png", None, GZIP)
    head = send("HEAD", "/static/icons/icon-512.png", None, GZIP)
    assert head[0] == 200 and head[2] == b"" and header(head[1], "Content-Length") == str(len(png[2]))


def test_vary_keeps_what_was_there():
    """No answer of the app sets Vary today: a Vary: Cookie an answer may set is kept, Accept-Encoding added."""
    from companion.web.compress import with_vary

    assert with_vary([("Vary", "Cookie")]) == [("Vary", "Cookie, Accept-Encoding")]
    assert with_vary([("Vary", "cookie, accept-encoding")]) == [("Vary", "cookie, accept-encoding")]
    assert with_vary([("Vary", "*")]) == [("Vary", "*")]


# --- through a real server ---------------------------------------------------------------------


def test_a_real_server_gzips_pages_static_files_and_taps_but_never_the_stream(server):
    send = server.send
    t = table_with_history(server.api, 12)
    cookie = {"Cookie": f"tc_{t['table']}={t['token']}"}
    same_answer_both_ways(send, f"/t/{t['table']}", extra=cookie)
    same_answer_both_ways(send, f"/t/{t['table']}", extra={**cookie, "HX-Request": "true"})
    same_answer_both_ways(send, STATIC[2])
    tag = header(send("GET", STATIC[2], None, GZIP)[1], "ETag")
    assert send("GET", STATIC[2], None, {**GZIP, "If-None-Match": tag})[0] == 304
    # HEAD: the headers of the GET (a dynamic answer whose text has no time in it: test_head_gets_the_headers_of_its_get)
    for path, extra in ((STATIC[2], {}), (f"/t/{t['table']}/live", cookie)):
        status, headers, body = send("HEAD", path, None, {**extra, **GZIP})
        got = send("GET", path, None, {**extra, **GZIP})[1]
        assert status == 200 and body == b"" and header(headers, "Content-Encoding") == "gzip"
        assert header(headers, "Content-Length") == header(got, "Content-Length")

    headers, body = tap_form(t, 12)
    status, answer_headers, answer = send("POST", f"/t/{t['table']}/events", body, {**headers, **GZIP})
    assert status == 200 and header(answer_headers, "Content-Encoding") == "gzip"
    assert b'id="w-' in gzip.decompress(answer)  # the stepper alone

    # the stream: a phone behind (v=0) gets the region at once, in plain text, still open
    with socket.create_connection(("127.0.0.1", server.port), timeout=10) as sock:
        sock.sendall((f"GET /t/{t['table']}/events?v=0 HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\n"
                      f"Accept-Encoding: gzip, deflate\r\nAccept: text/event-stream\r\n"
                      f"Cookie: tc_{t['table']}={t['token']}\r\n\r\n").encode())
        received = b""
        while b"event: live" not in received:
            chunk = sock.recv(65536)
            assert chunk, received[:500]
            received += chunk
    head, _, _ = received.partition(b"\r\n\r\n")
    assert b"text/event-stream" in head and b"content-encoding" not in head.lower()
    assert b"retry: " in received and b"event: live" in received
