"""Behind a reverse proxy (issue 27, finding 16).

Through nginx or Caddy on the same machine every request comes from 127.0.0.1: no right may come
from that address (the host key alone grants the archive), and the creation limit would put every
phone in one bucket. `companion serve --proxy N` (or $COMPANION_PROXY) trusts N proxies in front,
through werkzeug's ProxyFix: the client address is the one the Nth proxy from the server appended
to X-Forwarded-For, and the scheme its X-Forwarded-Proto. Without it, forwarding headers are
ignored, as before. X-Forwarded-Host is never trusted: both proxies hand the phone's own Host on,
and nginx passes a client's own X-Forwarded-Host through untouched.

The first tests drive the app with requests shaped as a proxy sends them; the slow ones put Debian's
real nginx and Caddy on loopback in front of a real `companion serve`.
"""

from __future__ import annotations

import subprocess
import sys

import pytest

from companion import create_app
from tests.conftest import ROOT

DOC = {"game": "gutenberg", "players": ["Anna", "Tom"]}


def limited_app(tmp_path, **config):
    return create_app({"TESTING": True, "DATA_DIR": str(tmp_path / "data"), "CREATE_LIMIT": "2/1", **config})


def create(client, forwarded: str | None = None, proto: str | None = None):
    headers = {}
    if forwarded is not None:
        headers["X-Forwarded-For"] = forwarded
    if proto is not None:
        headers["X-Forwarded-Proto"] = proto
    return client.post("/api/v1/tables", json=DOC, headers=headers)


def statuses(client, forwarded_values) -> list[int]:
    return [create(client, forwarded).status_code for forwarded in forwarded_values]


def test_without_proxy_forwarding_headers_are_ignored(tmp_path):
    """Not trusted unless the operator says so: a client cannot pick a new bucket per request."""
    client = limited_app(tmp_path).test_client()
    assert statuses(client, ["10.0.0.1", "10.0.0.2", "10.0.0.3, 10.0.0.4"]) == [201, 201, 429]


def test_with_proxy_1_each_forwarded_client_has_its_own_bucket(tmp_path):
    client = limited_app(tmp_path, PROXY=1).test_client()
    assert statuses(client, ["10.0.0.1"] * 3) == [201, 201, 429]
    assert statuses(client, ["10.0.0.2"] * 2) == [201, 201]  # another phone behind the same proxy
    # the proxy appends the address it saw: what the client wrote to the left changes nothing
    assert statuses(client, ["1.2.3.4, 10.0.0.1", "5.6.7.8, 10.0.0.1"]) == [429, 429]


def test_companion_proxy_in_the_environment_is_the_same_as_the_option(tmp_path, monkeypatch):
    monkeypatch.setenv("COMPANION_PROXY", "1")
    client = limited_app(tmp_path).test_client()
    assert statuses(client, ["10.0.0.1", "10.0.0.1", "10.0.0.2"]) == [201, 201, 201]
    # the option wins over the environment
    client = limited_app(tmp_path / "zero", PROXY=0).test_client()
    assert statuses(client, ["10.0.0.1", "10.0.0.2", "10.0.0.3"]) == [201, 201, 429]


@pytest.mark.parametrize("value", ["many", "-1", "1.5", "99"])
def test_a_bad_companion_proxy_refuses_to_start(tmp_path, monkeypatch, value):
    monkeypatch.setenv("COMPANION_PROXY", value)
    with pytest.raises(SystemExit) as stopped:
        limited_app(tmp_path)
    assert str(stopped.value).startswith("error: COMPANION_PROXY: ")


@pytest.mark.parametrize("value", ["-1", "99", "x"])
def test_a_bad_proxy_option_is_one_line_and_exit_2(tmp_path, value):
    done = subprocess.run([sys.executable, "-m", "companion", "serve", "--port", "0", "--host", "127.0.0.1",
                           "--data", str(tmp_path), "--quiet", "--proxy", value],
                          cwd=ROOT, capture_output=True, text=True, timeout=30)
    assert done.returncode == 2
    assert done.stderr.startswith("error: --proxy: ") and done.stderr.count("\n") == 1, done.stderr


def test_a_trusted_proxy_grants_no_right_either(tmp_path):
    """With --proxy 1 a forwarded loopback address is no key, as a direct one is not."""
    from tests.foundation.test_plays import gutenberg_play, listed
    from tests.conftest import Api

    app = create_app({"TESTING": True, "DATA_DIR": str(tmp_path / "data"), "PROXY": 1})
    gutenberg_play(Api(app.test_client()), ["Anna", "Ben"], [40, 52])
    stranger = app.test_client()
    for forwarded in ("127.0.0.1", "::1"):
        page = stranger.get("/plays", headers={"X-Forwarded-For": forwarded}).get_data(as_text=True)
        assert listed(page) == [] and "Download a backup" not in page
        assert stranger.get("/plays/backup", headers={"X-Forwarded-For": forwarded}).status_code == 404


def test_the_join_address_keeps_the_servers_own_scheme(tmp_path):
    """The QR code names this server's own address and port, which speak plain HTTP, whatever
    scheme the proxy in front was reached by."""
    client = limited_app(tmp_path, PROXY=1).test_client()
    answer = create(client, "10.0.0.1", proto="https")
    assert answer.status_code == 201 and answer.get_json()["join_url"].startswith("http://")
