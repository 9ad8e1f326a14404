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

import csv
import io
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import time

import pytest

from bench.nginx import nginx_conf, nginx_proxy
from companion import create_app
from tests.conftest import ROOT, Address, Api, listening_port, printed_key_link
from tests.foundation.test_plays import gutenberg_play, host_key, listed, sheet

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


# --- a real proxy on loopback ---------------------------------------------------------------------

#: Debian's (scripts/test.sh installs them when missing: nginx-light, caddy)
NGINX = shutil.which("nginx") or "/usr/sbin/nginx"
CADDY = shutil.which("caddy") or "/usr/bin/caddy"
#: two phones behind the proxy: Linux routes all of 127.0.0.0/8 to the loopback interface
PHONE_A, PHONE_B = "127.0.0.2", "127.0.0.3"
#: Caddy's: reverse_proxy, which sets X-Forwarded-For/-Proto/-Host and hands the Host on; no admin endpoint
CADDYFILE = """{{
  admin off
  auto_https off
}}
http://127.0.0.1:{port} {{
  bind 127.0.0.1
  reverse_proxy 127.0.0.1:{upstream}
}}
"""


def wait_for(check, what: str, log, seconds: float = 20):

    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        found = check()
        if found:
            return found
        time.sleep(0.05)
    raise AssertionError(f"{what} within {seconds} s: {log()}")


class Processes:
    """The processes a test starts, each in its own session, stopped at the end."""

    def __init__(self):
        self.started: list[subprocess.Popen] = []

    def start(self, argv, log_path, **kw) -> subprocess.Popen:
        with open(log_path, "ab") as log:
            process = subprocess.Popen(argv, stdout=log, stderr=subprocess.STDOUT, start_new_session=True, **kw)
        self.started.append(process)
        return process

    def stop(self, process) -> None:

        if process.poll() is None:
            os.killpg(process.pid, signal.SIGTERM)
            try:
                process.wait(10)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait(10)

    def stop_all(self) -> None:
        for process in reversed(self.started):
            self.stop(process)


@pytest.fixture
def processes():
    found = Processes()
    yield found
    found.stop_all()


def serve(processes, folder, *args: str) -> int:
    """A real `companion serve` on 127.0.0.1 and a port it chose (--port 0); return the port."""

    folder.mkdir(parents=True)
    log = folder / "serve.log"
    process = processes.start([sys.executable, "-m", "companion", "serve", "--host", "127.0.0.1", "--port", "0",
                               "--data", str(folder / "data"), "--quiet", *args], log, cwd=ROOT,
                              env={**os.environ, "PYTHONUNBUFFERED": "1"})

    def port():
        assert process.poll() is None, log.read_text()
        return listening_port(log.read_text())

    return wait_for(port, "companion serve said its port", log.read_text)


def loopback_port() -> int:
    """A port free on 127.0.0.1 now (nginx and Caddy take no port 0: a taken one is retried)."""

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def caddy_env(folder) -> dict:
    """Caddy's environment with its home, data and config folders in `folder` (never the machine's)."""
    return {**os.environ, "HOME": str(folder), "XDG_DATA_HOME": str(folder / "data"), "XDG_CONFIG_HOME": str(folder / "config")}


def start_caddy(processes, folder, log):
    """Debian's Caddy running folder/Caddyfile, its state kept in `folder`, its output in `log`."""
    return processes.start([CADDY, "run", "--config", str(folder / "Caddyfile"), "--adapter", "caddyfile"], log,
                           env=caddy_env(folder), cwd=folder)


def proxy(processes, kind: str, folder, upstream: int) -> int:
    """Debian's nginx or Caddy on 127.0.0.1 in front of `upstream`; return its port."""

    folder.mkdir(parents=True, exist_ok=True)
    for attempt in range(5):
        port = loopback_port()
        log = folder / f"{kind}-{attempt}.log"
        if kind == "nginx":
            (folder / "nginx.conf").write_text(nginx_conf(folder, nginx_proxy(f"127.0.0.1:{port}", upstream, real_ip=True),
                                                          access_log=f"{folder}/access.log"))
            process = processes.start([NGINX, "-p", str(folder), "-c", str(folder / "nginx.conf"), "-e", str(log)], log)
        else:
            (folder / "Caddyfile").write_text(CADDYFILE.format(port=port, upstream=upstream))
            process = start_caddy(processes, folder, log)

        def answered():
            if process.poll() is not None:
                return "exited"
            try:
                return request(port, "GET", "/")[0] == 200
            except OSError:
                return False

        if wait_for(answered, f"{kind} answered", lambda: (folder / log.name).read_text()) is True:
            return port
        if "in use" not in log.read_text():  # not a port someone took in between: a real failure
            raise AssertionError(log.read_text())
    raise AssertionError(f"{kind} found no free port in 5 tries")


def request(port: int, method: str, path: str, source: str = "127.0.0.1", headers: dict | None = None,
            body: bytes | None = None) -> tuple[int, dict, bytes]:
    """One request to the proxy on 127.0.0.1:port from the loopback address `source` (one phone); the
    answer's header names in lower case (nginx and Caddy may write them otherwise than the server)."""

    status, answer_headers, answer = Address(port).send(method, path, body, headers, source=source)
    return status, {name.lower(): value for name, value in answer_headers.items()}, answer


def finished_play(port: int, source: str) -> dict:
    """A Gutenberg calculator table made and finished by the phone at `source`, through the proxy."""

    status, t = Address(port).call("POST", "/api/v1/tables", {**DOC, "calculator": True}, source=source)
    assert status == 201, t
    for seat, fame in enumerate((40, 52)):
        status, answer = Address(port).call("POST", f"/api/v1/tables/{t['table']}/events",
                                            {"type": "sheet", "data": sheet(seat, fame), "expected_version": seat}, t["token"],
                                            source=source)
        assert status == 200, answer
    assert answer["state"]["finished"]
    return t


def cookie(headers: dict) -> str:
    """The name=value of a Set-Cookie answer."""
    return headers["set-cookie"].split(";", 1)[0]


def archive(port: int, source: str, cookies: str = "") -> dict:
    """What one device gets from the archive through the proxy: listed plays, the exports' tables, the backup's status."""


    headers = {"Cookie": cookies} if cookies else {}
    got = {path: request(port, "GET", path, source, headers) for path in ("/plays", "/plays/export.json", "/plays/export.csv", "/plays/backup")}
    assert all(status in (200, 404) for status, _, _ in got.values()), got
    rows = list(csv.DictReader(io.StringIO(got["/plays/export.csv"][2].decode("utf-8-sig"))))
    return {"listed": sorted(listed(got["/plays"][2].decode())),
            "json": sorted(p["table"] for p in json.loads(got["/plays/export.json"][2])["plays"]),
            "csv": sorted({row["table"].lstrip("'") for row in rows}),
            "backup": got["/plays/backup"][0] == 200 and got["/plays/backup"][2].startswith(b"SQLite format 3\0")}


def host_key_link(folder) -> str:
    return printed_key_link((folder / "serve.log").read_text())


def post_key(port: int, link: str, source: str = "127.0.0.1") -> tuple[int, dict, bytes]:
    """What the archive's page does with a host-key link's fragment (static/js/hostkey.js): post the key, through the proxy."""
    from urllib.parse import unquote, urlencode

    key = unquote(link.split("#key=", 1)[1])
    return request(port, "POST", "/plays/key", source, {"Content-Type": "application/x-www-form-urlencoded"},
                   urlencode({"key": key}).encode())


@pytest.mark.slow
@pytest.mark.parametrize("kind", ["nginx", "caddy"])
@pytest.mark.parametrize("trusted", [(), ("--proxy", "1")], ids=["no-proxy-option", "proxy-1"])
def test_through_a_real_proxy_only_the_host_key_opens_the_archive(processes, tmp_path, kind, trusted):
    upstream = serve(processes, tmp_path / "companion", *trusted)
    port = proxy(processes, kind, tmp_path / kind, upstream)
    mine, theirs = finished_play(port, PHONE_A), finished_play(port, PHONE_B)
    both = sorted([mine["table"], theirs["table"]])
    nothing = {"listed": [], "json": [], "csv": [], "backup": False}
    # a phone without the key or any table's cookie: nothing, though the proxy speaks from 127.0.0.1
    assert archive(port, PHONE_A) == nothing
    assert archive(port, "127.0.0.1") == nothing
    # a phone that joined one table: that play alone, no backup
    status, headers, _ = request(port, "GET", f"/join/{mine['table']}/{mine['token']}", PHONE_A)
    assert status == 303
    assert archive(port, PHONE_A, cookie(headers)) == {"listed": [mine["table"]], "json": [mine["table"]],
                                                      "csv": [mine["table"]], "backup": False}
    # the host's own browser, on this machine: the key of the link serve printed, posted as its page does
    status, headers, _ = post_key(port, host_key_link(tmp_path / "companion"))
    assert status == 303
    host = cookie(headers)
    assert archive(port, "127.0.0.1", host) == {"listed": both, "json": both, "csv": both, "backup": True}
    # a new key, made by the command line on the running server's data folder: the old one opens nothing
    done = subprocess.run([sys.executable, "-m", "companion", "host-key", "--new", "--data", str(tmp_path / "companion" / "data")],
                          cwd=ROOT, capture_output=True, text=True, timeout=30)
    assert done.returncode == 0, done.stderr
    assert archive(port, "127.0.0.1", host) == nothing
    old_link = host_key_link(tmp_path / "companion")
    assert post_key(port, old_link)[0] == 403

    new_link = re.search(r"(/plays#key=\S+)", done.stdout).group(1)
    assert new_link != old_link
    status, headers, _ = post_key(port, new_link)
    assert status == 303
    assert archive(port, "127.0.0.1", cookie(headers)) == {"listed": both, "json": both, "csv": both, "backup": True}


def creations(port: int, source: str, count: int, forwarded: str | None = None) -> list[int]:

    headers = {"Content-Type": "application/json", **({"X-Forwarded-For": forwarded} if forwarded else {})}
    return [request(port, "POST", "/api/v1/tables", source, headers, json.dumps(DOC).encode())[0] for _ in range(count)]


@pytest.mark.slow
@pytest.mark.parametrize("kind", ["nginx", "caddy"])
def test_through_a_real_proxy_the_creation_limit_counts_per_phone_only_with_proxy_1(processes, tmp_path, kind):
    # trusted: each phone its own bucket, and what a phone writes in X-Forwarded-For changes nothing
    upstream = serve(processes, tmp_path / "trusted", "--create-limit", "2/1", "--proxy", "1")
    port = proxy(processes, kind, tmp_path / f"{kind}-trusted", upstream)
    assert creations(port, PHONE_A, 3) == [201, 201, 429]
    assert creations(port, PHONE_A, 1, forwarded="10.9.8.7") == [429]
    assert creations(port, PHONE_B, 2) == [201, 201]
    # not trusted (the default): every phone behind the proxy is 127.0.0.1, one bucket, as before
    upstream = serve(processes, tmp_path / "default", "--create-limit", "2/1")
    port = proxy(processes, kind, tmp_path / f"{kind}-default", upstream)
    assert creations(port, PHONE_A, 2) == [201, 201]
    assert creations(port, PHONE_B, 1) == [429]
    assert creations(port, PHONE_B, 1, forwarded="10.9.8.7") == [429]


def test_the_host_key_cookie_is_secure_when_a_trusted_proxy_says_https(tmp_path):
    """Reached through an HTTPS proxy (--proxy 1), the host key's cookie is never sent over plain
    HTTP; an untrusted X-Forwarded-Proto changes nothing."""
    for hops, secure in ((1, True), (2, True), (0, False)):  # one X-Forwarded-Proto, as both recipes set it
        app = create_app({"TESTING": True, "DATA_DIR": str(tmp_path / str(hops)), "PROXY": hops})
        answer = app.test_client().post("/plays/key", data={"key": host_key(app)},
                                        headers={"X-Forwarded-For": "10.0.0.1", "X-Forwarded-Proto": "https"})
        assert answer.status_code == 303
        assert ("; Secure" in answer.headers["Set-Cookie"]) is secure


# --- the public address (issue 31): --public-url ------------------------------------------------

PUBLIC = "https://club.example.org"


def public_app(tmp_path, url: str | None = PUBLIC, **config):
    return create_app({"TESTING": True, "DATA_DIR": str(tmp_path / "data"), "PROXY": 1, "PUBLIC_URL": url, **config})


def behind(client, method: str, path: str, host: str = "club.example.org", **kw):
    """A request as Caddy hands it on: the phone's Host, its address and scheme in X-Forwarded-*."""
    headers = {"Host": host, "X-Forwarded-For": "203.0.113.7", "X-Forwarded-Proto": "https", **kw.pop("headers", {})}
    return client.open(path, method=method, headers=headers, **kw)


def test_with_a_public_url_the_join_link_names_it_and_its_host_is_answered(tmp_path):
    client = public_app(tmp_path).test_client()
    answer = behind(client, "POST", "/api/v1/tables", json=DOC)
    assert answer.status_code == 201, answer.get_data(as_text=True)
    t = answer.get_json()
    assert t["join_url"] == f"{PUBLIC}/join/{t['table']}/{t['token']}"  # what the QR code encodes
    page = behind(client, "GET", f"/join/{t['table']}/{t['token']}", follow_redirects=True)
    assert page.status_code == 200  # the public name is answered without --allow-host
    # another name is still refused (DNS rebinding): the public address adds one name, not every name
    assert behind(client, "GET", "/", host="evil.example").status_code == 400


def test_without_a_public_url_the_public_name_is_refused_and_the_link_is_the_servers_own(tmp_path):
    client = public_app(tmp_path, None).test_client()
    assert behind(client, "GET", "/").status_code == 400
    t = create(client, "10.0.0.1", proto="https").get_json()
    assert not t["join_url"].startswith(PUBLIC)


def test_with_an_https_public_url_cookies_are_secure_and_hsts_is_sent(tmp_path):
    app = public_app(tmp_path)
    client = app.test_client()
    t = behind(client, "POST", "/api/v1/tables", json=DOC).get_json()
    joined = behind(client, "GET", f"/join/{t['table']}/{t['token']}")
    seat = behind(client, "POST", f"/t/{t['table']}/seat", data={"seat": "0"})
    key = behind(client, "POST", "/plays/key", data={"key": host_key(app)})
    for answer in (joined, seat, key):
        assert answer.status_code == 303
        cookies = answer.headers.getlist("Set-Cookie")
        assert cookies and all("; Secure" in c and "HttpOnly" in c for c in cookies), cookies
    for answer in (joined, behind(client, "GET", "/"), behind(client, "GET", "/", host="evil.example"),
                   behind(client, "GET", "/static/app.css")):
        assert answer.headers["Strict-Transport-Security"] == "max-age=31536000", answer.status_code
        answer.close()  # the static file's
    # the same app reached over plain HTTP by the operator (curl on the box): still Secure, as the phones see it
    plain = client.get(f"/join/{t['table']}/{t['token']}", headers={"Host": "club.example.org"})
    assert "; Secure" in plain.headers["Set-Cookie"]


def test_without_a_public_url_there_is_no_hsts_and_cookies_follow_the_request(tmp_path):
    client = public_app(tmp_path, None).test_client()
    t = create(client, "10.0.0.1").get_json()
    answer = client.get(f"/join/{t['table']}/{t['token']}", headers={"X-Forwarded-For": "10.0.0.1"})
    assert "Strict-Transport-Security" not in answer.headers and "; Secure" not in answer.headers["Set-Cookie"]
    # an http public address (a club's LAN box behind a proxy without TLS): no HSTS, no Secure
    client = public_app(tmp_path / "http", "http://club.example.org:8080").test_client()
    answer = behind(client, "GET", "/", host="club.example.org:8080", headers={"X-Forwarded-Proto": "http"})
    assert answer.status_code == 200 and "Strict-Transport-Security" not in answer.headers


@pytest.mark.parametrize("value", ["club.example.org", "ftp://club.example.org", "https://", "https://club.example.org/companion",
                                   "https://club.example.org/?x=1", "https://user@club.example.org", "https://club.example.org:99999",
                                   "https://bad_name!.org", "https://club.example.org#key"])
def test_a_bad_public_url_is_one_line_and_exit_2(tmp_path, value, capsys):
    from companion import cli

    assert cli.main(["serve", "--data", str(tmp_path), "--public-url", value]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: --public-url: ") and err.count("\n") == 1, err


@pytest.mark.parametrize("value, parsed", [("https://club.example.org/", "https://club.example.org"),
                                           ("HTTPS://Club.Example.org:8443", "https://club.example.org:8443"),
                                           ("http://192.0.2.9:8000", "http://192.0.2.9:8000"), ("https://[2001:db8::1]", "https://[2001:db8::1]")])
def test_a_public_url_is_kept_as_scheme_name_and_port(value, parsed):
    from companion.web.guard import parse_public_url

    assert parse_public_url(value) == parsed


def test_companion_public_url_in_the_environment_is_the_same_as_the_option(tmp_path, monkeypatch):
    monkeypatch.setenv("COMPANION_PUBLIC_URL", PUBLIC)
    client = create_app({"TESTING": True, "DATA_DIR": str(tmp_path / "data"), "PROXY": 1}).test_client()
    assert behind(client, "POST", "/api/v1/tables", json=DOC).get_json()["join_url"].startswith(PUBLIC + "/join/")
    monkeypatch.setenv("COMPANION_PUBLIC_URL", "club.example.org")
    with pytest.raises(SystemExit, match="COMPANION_PUBLIC_URL"):
        create_app({"TESTING": True, "DATA_DIR": str(tmp_path / "bad")})
