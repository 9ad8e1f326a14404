"""`--proxy N` checked against the forwarding hops that arrive (issue 40, item 5).

A wrong count failed silently: too few proxies trusted and every phone shared the proxy's
address; too many and a client chose its own. companion/web/forwarded.py counts each request's
X-Forwarded-For entries, a window of requests at a time, and says a count that does not fit
once in the log and in /healthz's body, with the number seen. It only reports.

The first tests drive the app with requests shaped as proxies send them; the slow ones put
Debian's real nginx and Caddy in front of a real `companion serve`, one proxy and two chained.
"""

from __future__ import annotations

import json
import logging

import pytest

from companion import create_app
from companion.web import forwarded
from companion.web.forwarded import WINDOW
from tests.resilience.test_proxy import PHONE_A, PHONE_B, processes, proxy, request, serve  # noqa: F401 (processes: a fixture)

#: the addresses a chain of proxies appends, the phone's first
CHAIN = ("203.0.113.7", "10.0.0.1", "10.0.0.2", "10.0.0.3")


def app_trusting(tmp_path, hops: int):
    return create_app({"TESTING": True, "DATA_DIR": str(tmp_path / f"data-{hops}"), "PROXY": hops})


def forwarded_for(count: int) -> dict:
    """The headers of a request through `count` proxies that append (nginx's recipe)."""
    return {"X-Forwarded-For": ", ".join(CHAIN[:count])} if count else {}


def visit(client, counts) -> None:
    """One request per count in `counts`, each with that many X-Forwarded-For entries."""
    for count in counts:
        answer = client.get("/", headers=forwarded_for(count))
        assert answer.status_code == 200


def health(client) -> dict:
    answer = client.get("/healthz")
    assert answer.status_code == 200
    return answer.get_json()


def proxy_lines(caplog) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.name == "table_companion.server" and "--proxy:" in r.getMessage()]


def test_the_right_count_says_nothing(tmp_path, caplog):
    for hops in (0, 1, 2):
        client = app_trusting(tmp_path, hops).test_client()
        # a phone that writes an entry of its own is one more, never fewer: the fewest still fits
        visit(client, [hops] * (WINDOW - 1) + [hops + 1])
        assert health(client) == {"status": "ok"}, hops
    assert proxy_lines(caplog) == []


def test_too_many_trusted_is_said_with_the_number_seen(tmp_path, caplog):
    """--proxy 2 behind one proxy: ProxyFix keeps the proxy's address, or takes the one a client wrote."""
    caplog.set_level(logging.WARNING, "table_companion.server")
    app = app_trusting(tmp_path, 2)
    client = app.test_client()
    visit(client, [1] * (WINDOW - 1))
    assert health(client) == {"status": "ok"}  # not judged before a whole window
    visit(client, [1])
    body = health(client)
    assert body["status"] == "ok" and body["proxy"]["trusted"] == 2 and body["proxy"]["seen"] == 1
    assert "1 X-Forwarded-For entry, but --proxy trusts 2" in body["proxy"]["warning"]
    # said once in the log, not per request nor per window
    visit(client, [1] * (2 * WINDOW))
    assert proxy_lines(caplog) == ["--proxy: " + body["proxy"]["warning"]]
    # one request through a shorter chain in a window of right ones is enough: a right chain never gives fewer
    client = app_trusting(tmp_path, 3).test_client()
    visit(client, [3] * (WINDOW - 1) + [2])
    assert health(client)["proxy"]["seen"] == 2


def test_too_few_trusted_needs_every_request_of_a_window(tmp_path, caplog):
    """--proxy 1 behind two proxies: the address counted is the inner proxy's, for every phone."""
    caplog.set_level(logging.WARNING, "table_companion.server")
    client = app_trusting(tmp_path, 1).test_client()
    visit(client, [2] * WINDOW)
    body = health(client)
    assert body["proxy"] == {"trusted": 1, "seen": 2, "warning": forwarded.warning(1, 2)}
    assert "every request arrives with 2 X-Forwarded-For entries or more" in body["proxy"]["warning"]
    # a window with one request of the right count clears it: a client can add entries, never take them away
    visit(client, [3] * (WINDOW - 1) + [1])
    assert health(client) == {"status": "ok"}
    # the warning back: the body says it again, the log does not
    visit(client, [2, 3] * (WINDOW // 2))
    assert health(client)["proxy"]["seen"] == 2
    assert len(proxy_lines(caplog)) == 1


def test_no_proxy_option_behind_a_proxy_is_said_only_when_every_request_is_forwarded(tmp_path, caplog):
    caplog.set_level(logging.WARNING, "table_companion.server")
    client = app_trusting(tmp_path, 0).test_client()
    visit(client, [1] * WINDOW)
    body = health(client)
    assert body["proxy"]["trusted"] == 0 and body["proxy"]["seen"] == 1
    assert "but --proxy is 0" in body["proxy"]["warning"]
    # a phone that reached the server itself, without the header: a LAN, where a client may write one
    visit(client, [1] * (WINDOW - 1) + [0])
    assert health(client) == {"status": "ok"}


def test_a_trusted_proxy_that_sends_nothing_is_said_as_0_seen(tmp_path):
    """--proxy 1 with no proxy in front: any client may write X-Forwarded-For and be counted as whoever it likes."""
    client = app_trusting(tmp_path, 1).test_client()
    visit(client, [0] * WINDOW)
    body = health(client)
    assert body["proxy"]["seen"] == 0 and body["proxy"]["warning"].startswith("no request arrives with X-Forwarded-For")
    # requests without the header beside forwarded ones (a curl on the server itself) are left out
    visit(client, [0, 1] * (WINDOW // 2))
    assert health(client) == {"status": "ok"}


def test_healthz_and_refused_hosts_are_never_counted(tmp_path):
    """A proxy's health check sends no X-Forwarded-For (Caddy's, measured): a quiet night of checks is no window."""
    app = app_trusting(tmp_path, 1)
    client = app.test_client()
    for _ in range(2 * WINDOW):
        assert client.get("/healthz").status_code == 200
        assert client.get("/", headers={"Host": "attacker.example"}).status_code == 400
    hops = app.extensions["companion.hops"]
    assert hops.windows == 0 and hops.counted == 0
    assert health(client) == {"status": "ok"}


def test_every_header_line_counts(tmp_path):
    """The server joins a request's X-Forwarded-For lines with commas (gevent: ",", werkzeug's test client: ", ")."""
    from werkzeug.datastructures import Headers

    assert forwarded.entries({"HTTP_X_FORWARDED_FOR": "203.0.113.7,10.0.0.1"}) == 2
    assert forwarded.entries({"HTTP_X_FORWARDED_FOR": " , 10.0.0.1,"}) == 1  # empty entries are none, as for ProxyFix
    assert forwarded.entries({}) == 0
    client = app_trusting(tmp_path, 1).test_client()
    for _ in range(WINDOW):
        client.get("/", headers=Headers([("X-Forwarded-For", "203.0.113.7"), ("X-Forwarded-For", "10.0.0.1")]))
    assert health(client)["proxy"]["seen"] == 2


def test_the_warning_also_rides_a_503(tmp_path):
    app = app_trusting(tmp_path, 2)
    client = app.test_client()
    visit(client, [1] * WINDOW)
    app.config["DATABASE"] = str(tmp_path / "gone.db")
    answer = client.get("/healthz")
    assert answer.status_code == 503 and answer.get_json()["status"] == "unavailable"
    assert answer.get_json()["proxy"]["seen"] == 1


def test_the_count_changes_nothing_of_the_request(tmp_path):
    """It only reports: the same environ goes on, and the app's answer comes back as it was."""
    seen = []

    def inner(environ, start_response):
        seen.append(dict(environ))
        start_response("204 No Content", [])
        return [b""]

    hops = forwarded.Hops(2, window=1)
    layer = forwarded.CountHops(inner, hops)
    environ = {"PATH_INFO": "/", "REMOTE_ADDR": "127.0.0.1", "HTTP_X_FORWARDED_FOR": "203.0.113.7"}
    before = dict(environ)
    assert layer(environ, lambda status, headers: None) == [b""]
    assert seen == [before] and environ == before
    assert hops.verdict["seen"] == 1  # judged, and nothing else
    # and with the check, werkzeug's ProxyFix picks the same address it picked before: the creation limit's buckets
    client = create_app({"TESTING": True, "DATA_DIR": str(tmp_path / "data"), "PROXY": 2, "CREATE_LIMIT": "1/1"}).test_client()
    doc = {"game": "gutenberg", "players": ["Anna", "Tom"]}
    for _ in range(WINDOW):
        client.get("/", headers=forwarded_for(1))
    # behind one proxy with --proxy 2 every phone is the proxy's address (one bucket); a client's own entry picks its own
    statuses = [client.post("/api/v1/tables", json=doc, headers=forwarded_for(n)).status_code for n in (1, 1, 2, 2)]
    assert statuses == [201, 429, 201, 429]


# --- real proxies ----------------------------------------------------------------------------------


def through(port: int, count: int, source: str = PHONE_A) -> None:
    """`count` page requests through the proxy at `port`, from the phone at `source`."""
    for _ in range(count):
        status, _, _ = request(port, "GET", "/", source)
        assert status == 200


def judged(port: int) -> dict:
    status, _, body = request(port, "GET", "/healthz")
    assert status == 200, body
    return json.loads(body)


def proxy_lines_in(folder) -> list[str]:
    return [line for line in (folder / "serve.log").read_text().splitlines() if "--proxy:" in line]


@pytest.mark.slow
@pytest.mark.parametrize("kind", ["nginx", "caddy"])
def test_through_one_real_proxy_proxy_1_is_right_and_proxy_2_too_many(processes, tmp_path, kind):
    right = serve(processes, tmp_path / "right", "--proxy", "1")
    port = proxy(processes, kind, tmp_path / f"{kind}-right", right)
    through(port, WINDOW, PHONE_A)
    through(port, WINDOW, PHONE_B)
    assert judged(port) == {"status": "ok"}
    assert proxy_lines_in(tmp_path / "right") == []

    wrong = serve(processes, tmp_path / "wrong", "--proxy", "2")
    port = proxy(processes, kind, tmp_path / f"{kind}-wrong", wrong)
    through(port, 3 * WINDOW)
    said = judged(port)["proxy"]
    assert (said["trusted"], said["seen"]) == (2, 1), said
    assert proxy_lines_in(tmp_path / "wrong") == ["--proxy: " + said["warning"]]  # once, not per request


@pytest.mark.slow
def test_proxy_1_behind_caddy_in_front_of_nginx_is_too_few(processes, tmp_path):
    """Two proxies, one trusted: every phone is Caddy's address to the server. Caddy writes the phone's
    address, nginx appends Caddy's: two entries on every request."""
    upstream = serve(processes, tmp_path / "companion", "--proxy", "1")
    inner = proxy(processes, "nginx", tmp_path / "nginx", upstream)
    outer = proxy(processes, "caddy", tmp_path / "caddy", inner)
    through(outer, 2 * WINDOW)
    said = judged(outer)["proxy"]
    assert (said["trusted"], said["seen"]) == (1, 2), said
    assert proxy_lines_in(tmp_path / "companion") == ["--proxy: " + said["warning"]]
    # asked on the server itself, as a monitor on the box would: the same words
    assert judged(upstream)["proxy"] == said


@pytest.mark.slow
def test_no_proxy_option_behind_real_caddy_is_said(processes, tmp_path):
    """Behind Caddy without --proxy every phone is 127.0.0.1: the README's setup with the option left out."""
    upstream = serve(processes, tmp_path / "companion")
    port = proxy(processes, "caddy", tmp_path / "caddy", upstream)
    through(port, WINDOW)
    said = judged(port)["proxy"]
    assert (said["trusted"], said["seen"]) == (0, 1), said
    assert len(proxy_lines_in(tmp_path / "companion")) == 1
