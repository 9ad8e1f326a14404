"""Shared fixtures: a fresh app and database per test, the API helper, a real server, a real browser."""

from __future__ import annotations

import ipaddress
import http.client
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import pytest
from hypothesis import settings

from companion import create_app, tables
from companion import db as database
from companion.web.connection import get_db
from tests.examples import create_doc

ROOT = Path(__file__).resolve().parent.parent

#: tests/foundation/test_suite_hygiene.py runs the suite's own fixtures and hooks in an inner pytest;
#: tests/timeouts.py fails a test past its limit alone
pytest_plugins = ["pytester", "tests.timeouts"]

# scripts/mutation.py runs the tests with --hypothesis-profile=mutation: the same examples on
# every run and no example database, so a fault's verdict never depends on an earlier one's
settings.register_profile("mutation", derandomize=True, database=None)

#: the limit of a browser test or one that starts server processes (the default, in pyproject.toml,
#: is for everything else: an endless loop fails in seconds); tests/timeouts.py enforces it
SLOW_TIMEOUT = 240


#: a test that takes one of these fixtures gets its marker without saying so: `slow` for a real
#: server process, `browser` for chromium (phone and dark_phone take the browser)
MARKED_BY_FIXTURE = {"server": "slow", "browser": "browser"}


@pytest.hookimpl(tryfirst=True)  # before `-m` deselects by marker (_pytest.mark's own hook)
def pytest_collection_modifyitems(config, items):
    """Mark the tests that take a server or a browser, and give them the longer limit, unless they set their own.

    A bug hunt with FUZZ_SCALE=N (tests/resilience/fuzzing.py) runs N times the examples,
    so every limit grows N times with it.
    """
    scale = max(1, int(os.environ.get("FUZZ_SCALE", "1") or 1))
    default = float(config.getini("timeout") or 0)
    for item in items:
        for fixture, marker in MARKED_BY_FIXTURE.items():
            if fixture in getattr(item, "fixturenames", ()) and not item.get_closest_marker(marker):
                item.add_marker(marker)
        if item.get_closest_marker("timeout"):
            continue
        slow = item.get_closest_marker("browser") or item.get_closest_marker("slow")
        limit = SLOW_TIMEOUT if slow else default
        if limit and (slow or scale > 1):
            item.add_marker(pytest.mark.timeout(limit * scale))


# --- what a test leaves running, and whom it talks to ------------------------------------------

#: the test being run now (set up, called, torn down); an inner pytest run (pytester) stacks its own on top
RUNNING: list[pytest.Item] = []
#: the first loopback (host, port) a test connected to: a real server process, as no test serves in-process
TALKED = pytest.StashKey[tuple]()


@pytest.hookimpl(wrapper=True)
def pytest_runtest_protocol(item, nextitem):
    RUNNING.append(item)
    try:
        return (yield)
    finally:
        RUNNING.pop()


def _is_loopback(host) -> bool:
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return host == "localhost"


def _note_connections(event: str, args: tuple) -> None:
    """Python's audit hook (PEP 578): every socket connect of this process, whatever opened it."""
    if event == "socket.connect" and RUNNING and isinstance(args[1], tuple) and _is_loopback(args[1][0]):
        RUNNING[-1].stash.setdefault(TALKED, args[1][:2])


sys.addaudithook(_note_connections)


@contextmanager
def flushers_stopped():
    """Stop, on leaving, every WAL flusher thread started inside: create_app starts one per database
    file (companion/db.py), which runs, waking 20 times a second, until its file is deleted."""
    before = set(database.WalFlusher.running())
    try:
        yield
    finally:
        for path, flusher in database.WalFlusher.running().items():
            if path not in before:
                flusher.stop()


@pytest.fixture(autouse=True)
def each_test_cleans_up(request):
    """Around every test: the apps it made stop their threads, and it is `slow` if it talked to a real server."""
    with flushers_stopped():
        yield
    talked = request.node.stash.get(TALKED, None)
    if talked and not request.node.get_closest_marker("slow"):
        host, port = talked
        pytest.fail(f"{request.node.nodeid} talks to a server on {host}:{port}, a real server process: mark it slow"
                    " (pytest.mark.slow), or take the `server` fixture, which does", pytrace=False)


@pytest.fixture(autouse=True, scope="module")
def each_module_cleans_up():
    """The apps a module's fixtures made (one app for a module's examples) stop their threads after it."""
    with flushers_stopped():
        yield


SCREENSHOTS = ROOT / "tests" / "screenshots"
#: the browser resolves every NAME.test to 127.0.0.1 (see `browser`)
TEST_DOMAIN = "test"
CHROMIUM = os.environ.get("CHROMIUM", shutil.which("chromium") or "/usr/bin/chromium")


@pytest.fixture
def app(tmp_path):
    """A fresh app with its own SQLite file (its WAL flusher thread ends with the test: `each_test_cleans_up`)."""
    return create_app({"TESTING": True, "DATA_DIR": str(tmp_path / "data")})


@pytest.fixture
def client(app):
    """The Flask test client."""
    return app.test_client()


@pytest.fixture
def conn(tmp_path):
    """A connection to a real SQLite file holding every migration (companion/db.py), without an app;
    closed after the test."""
    path = tmp_path / "t.db"
    database.migrate(path)
    c = database.connect(path)
    yield c
    c.conn.close()


@pytest.fixture
def runner(app):
    """The Flask CLI runner."""
    return app.test_cli_runner()


class Api:
    """Small helpers for the JSON API, through the test client."""

    def __init__(self, client):
        self.client = client

    def create(self, game: str, players: list[str], **options) -> dict:
        """Create a table and return the 201 document (fails the test otherwise). The game's own
        setup options (tests/GAME/examples.py's OPTIONS, the pad's title) go first; `options` win."""
        response = self.client.post("/api/v1/tables", json=create_doc(game, players, **options))
        assert response.status_code == 201, response.get_json()
        return response.get_json()

    def headers(self, t: dict) -> dict:
        return {"X-Table-Token": t["token"]}

    def get(self, t: dict) -> dict:
        response = self.client.get(f"/api/v1/tables/{t['table']}", headers=self.headers(t))
        assert response.status_code == 200, response.get_json()
        return response.get_json()

    def event(self, t: dict, type_: str, data=None, expected_version: int | None = None):
        """Post one event; with expected_version None, use the table's current version."""
        if expected_version is None:
            expected_version = self.get(t)["version"]
        doc = {"type": type_, "data": {} if data is None else data, "expected_version": expected_version}
        return self.client.post(f"/api/v1/tables/{t['table']}/events", json=doc, headers=self.headers(t))

    def undo(self, t: dict, expected_version: int | None = None):
        if expected_version is None:
            expected_version = self.get(t)["version"]
        return self.client.post(f"/api/v1/tables/{t['table']}/undo", json={"expected_version": expected_version}, headers=self.headers(t))

    def events(self, t: dict) -> list[dict]:
        response = self.client.get(f"/api/v1/tables/{t['table']}/events", headers=self.headers(t))
        assert response.status_code == 200
        return response.get_json()

    def rules(self, game: str, function: str, doc):
        return self.client.post(f"/api/v1/{game}/{function}", json=doc)

    def result(self, t: dict):
        """GET the table's result (issue 12): 409 before the end, the result document after."""
        return self.client.get(f"/api/v1/tables/{t['table']}/result", headers=self.headers(t))

    def stored(self, t: dict):
        """The table as the database holds it (names, options and profile as stored)."""
        with self.client.application.app_context():
            return tables.load(get_db(), t["table"])

    def final_result(self, t: dict) -> dict | None:
        """The game's final_result hook on the stored table: None until the game is finished."""
        table = self.stored(t)
        return table.rules.final_result(table.state, list(table.names), table.options, table.profile)


@pytest.fixture
def api(client):
    """The JSON API helper."""
    return Api(client)


def count_rows(app, table: str) -> int:
    """The rows of one SQLite table in the app's database file, read as a second connection would."""
    import sqlite3

    conn = sqlite3.connect(app.config["DATABASE"])
    try:
        return conn.execute(f"SELECT count(*) FROM {table}").fetchone()[0]
    finally:
        conn.close()


#: the first line `companion serve` prints names where it listens (network.where_to_open): read back
#: for the port it took with --port 0
LISTENING = re.compile(r"^Table Companion is running\b[^\n]*?http://(\[[^\]\n]+\]|[^/:\s]+):(\d+)/", re.M)


#: the same behind a proxy (--public-url): the public address first, then where it listens
BEHIND = re.compile(r"^Table Companion is running at \S+ \(through the proxy in front; it listens on (\S+):(\d+)\)", re.M)


def listening_port(output: str) -> int | None:
    """The port in `companion serve`'s first line, or None while it has not printed it."""
    found = BEHIND.search(output) or LISTENING.search(output)
    return int(found.group(2)) if found else None


def open_key_link(page, link: str) -> None:
    """Open the host-key link a server printed, as the host does, and wait until the page has posted
    the key in it (static/js/hostkey.js): the archive shows no key form once the device holds the key."""
    page.goto(link)
    page.wait_for_function("() => location.hash === '' && !document.getElementById('host-key-form')"
                           " && document.readyState === 'complete'")


def printed_key_link(output: str) -> str:
    """The path of the host-key link (`/plays#key=...`) in what `companion serve` printed last."""
    return re.findall(r"/plays#key=[\w%-]+", output)[-1]


def listening_addresses(pid: int) -> set[tuple[str, int]] | None:
    """The (address, port) of every TCP socket the process listens on, from Linux's /proc; None elsewhere."""
    fds = Path(f"/proc/{pid}/fd")
    if not fds.is_dir():
        return None
    inodes = set()
    for fd in fds.iterdir():
        try:
            target = os.readlink(fd)
        except OSError:  # closed meanwhile
            continue
        if target.startswith("socket:["):
            inodes.add(target[len("socket:["):-1])
    found = set()
    for name, family in (("tcp", socket.AF_INET), ("tcp6", socket.AF_INET6)):
        table = Path("/proc/net") / name
        if not table.exists():
            continue
        for line in table.read_text().splitlines()[1:]:
            fields = line.split()
            if fields[3] != "0A" or fields[9] not in inodes:  # 0A: LISTEN
                continue
            address, port = fields[1].split(":")
            raw = bytes.fromhex(address)  # each 32-bit word in the kernel's (little-endian) order
            raw = b"".join(raw[i:i + 4][::-1] for i in range(0, len(raw), 4))
            found.add((socket.inet_ntop(family, raw), int(port, 16)))
    return found


@dataclass
class Address:
    """A real server on this machine, and the calls a test makes to it.

    Every test that calls a real server goes through `send`, `call` or `api`
    (tests/foundation/test_suite_hygiene.py holds the tests to it): a `Server` is one, and
    `Address(port)` names one started another way (a proxy in front, a `companion serve` a test
    runs itself).
    """

    port: int = 0
    #: the address it listens on, always: a page that must be opened at another name (a LAN-like one,
    #: where it is no secure context) uses a name under .test, which the browser maps to loopback
    host: str = "127.0.0.1"

    @property
    def url(self) -> str:
        """http://127.0.0.1:PORT"""
        return f"http://{self.host}:{self.port}"

    def send(self, method: str, path: str, body: bytes | str | None = None, headers: dict | None = None, *,
             source: str | None = None, timeout: float = 10) -> tuple[int, dict, bytes]:
        """One request on a new connection, its body and headers sent as given (Host too, and a
        lone surrogate's escape as written); return (status, headers, body). No redirect is followed.
        `source`: the loopback address it comes from (127.0.0.2 is another phone), else 127.0.0.1."""
        conn = http.client.HTTPConnection(self.host, self.port, timeout=timeout,
                                          source_address=None if source is None else (source, 0))
        try:
            conn.request(method, path, body=body or None, headers=headers or {})
            response = conn.getresponse()
            return response.status, dict(response.getheaders()), response.read()
        finally:
            conn.close()

    def call(self, method: str, path: str, doc=None, token: str | None = None, headers: dict | None = None,
             **options) -> tuple[int, object]:
        """One call of the JSON API: `doc` sent as JSON (no body without one), with the table's token
        if given; return (status, the answer's document, None if it has no body). `options`: send's."""
        sent = {"Content-Type": "application/json", **({"X-Table-Token": token} if token else {}), **(headers or {})}
        status, _, body = self.send(method, path, None if doc is None else json.dumps(doc).encode(), sent, **options)
        return status, json.loads(body) if body else None

    def api(self, path: str, doc=None, token: str | None = None):
        """POST `doc` (GET without one), with the table's token if given, and return the answer's
        document; any status but 2xx fails the test, with the answer."""
        status, answer = self.call("GET" if doc is None else "POST", path, doc, token)
        assert 200 <= status < 300, (status, path, answer)
        return answer


@dataclass(kw_only=True)
class Server(Address):
    """A real `companion serve` process, listening on 127.0.0.1 alone.

    It takes its port itself (`--port 0`) and the test reads it back from the first line the
    server prints: no port is picked before and freed for the server to bind (another program
    could take it in between), and nothing listens on the network's interfaces while the tests
    run. Give `port` only to start a server again on the port an earlier one read back (a
    restart after a kill, which the phones' pages must find at the same address).
    """

    data: Path
    process: subprocess.Popen | None = None
    workers: int = 1  # `companion serve --workers N`
    open_files: int | None = None  # soft and hard RLIMIT_NOFILE for the server, as a small box may have
    #: what runs `companion`: this checkout's, or an installed one (test_wheel.py), or one in a
    #: Python without Linux's calls (test_install.py)
    companion: tuple[str, ...] = (sys.executable, "-m", "companion")
    cwd: Path = ROOT
    env: dict | None = None  # default: this process's
    #: more `companion serve` options, e.g. ("--allow-host", "box.lan") or ("--create-limit", "off")
    args: tuple[str, ...] = ()

    def start(self) -> "Server":
        env = dict(os.environ if self.env is None else self.env, PYTHONUNBUFFERED="1")
        self.data.mkdir(parents=True, exist_ok=True)
        self.log = self.data / "server.log"
        before = self.log.stat().st_size if self.log.exists() else 0  # a restart appends to the same log
        with open(self.log, "ab") as log:
            self.process = subprocess.Popen(
                [*self.companion, "serve", "--host", self.host, "--port", str(self.port), "--data", str(self.data),
                 "--quiet", "--workers", str(self.workers), *self.args],
                cwd=self.cwd, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True,
                preexec_fn=self._limit_files if self.open_files else None,
            )
        deadline = time.monotonic() + 20
        port = None
        while port is None and time.monotonic() < deadline and self.process.poll() is None:
            port = listening_port(self.log.read_bytes()[before:].decode("utf-8", "replace"))
            time.sleep(0.02)
        if port is None:
            raise RuntimeError(f"companion serve printed no address: {self.log.read_text()}")
        assert self.port in (0, port), (self.port, port)
        self.port = port
        while time.monotonic() < deadline:
            try:
                if self.send("GET", "/", timeout=1)[0] == 200:
                    listening = listening_addresses(self.process.pid)
                    # it listens where it was told, and nowhere else
                    assert listening is None or listening == {(self.host, port)}, listening
                    return self
            except (OSError, http.client.HTTPException):
                time.sleep(0.05)
            if self.process.poll() is not None:
                raise RuntimeError(f"companion serve exited: {self.log.read_text()}")
        raise RuntimeError("companion serve did not answer within 20 s")

    def _limit_files(self) -> None:
        import resource

        resource.setrlimit(resource.RLIMIT_NOFILE, (self.open_files, self.open_files))

    def key_link(self) -> str:
        """The host-key link this server printed at its start, which gives a browser the whole archive."""
        return self.url + printed_key_link(self.log.read_text())

    def kill(self) -> None:
        """SIGKILL the server: no chance to flush anything."""
        if self.process and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(10)

    def stop(self) -> None:
        if self.process and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.kill()


@pytest.fixture
def server(tmp_path):
    """A real server process on 127.0.0.1 and a port it took itself, in a temp data folder."""
    srv = Server(data=tmp_path / "server-data").start()
    yield srv
    srv.stop()


#: how the tests start chromium (the browser fixture; a test that needs one more flag launches its own with these)
BROWSER_ARGS = [
    "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
    "--disable-component-update", "--disable-sync", "--disable-dev-shm-usage",
    # every phone at the table shows its page in front; do not throttle the unfocused test pages
    "--disable-background-timer-throttling", "--disable-renderer-backgrounding",
    "--disable-backgrounding-occluded-windows",
    # every name under .test (RFC 2606) is this machine: a page can be opened at a name that
    # is not loopback to the browser (no secure context, as on a LAN) while every byte
    # stays on 127.0.0.1 (the server needs --allow-host NAME.test)
    f"--host-resolver-rules=MAP *.{TEST_DOMAIN} 127.0.0.1",
]


@pytest.fixture(scope="session")
def browser():
    """Debian's chromium, or the browser $CHROMIUM names, driven by Playwright (no browser download)."""
    sync_api = pytest.importorskip("playwright.sync_api")
    if not Path(CHROMIUM).exists():
        pytest.fail(f"chromium not found at {CHROMIUM}: set $CHROMIUM to a Chromium or Chrome (README, Tests), or run -m 'not browser'")
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=BROWSER_ARGS)
        yield b
        b.close()


PHONE = {"viewport": {"width": 360, "height": 740}, "device_scale_factor": 2, "is_mobile": True, "has_touch": True}


@pytest.fixture
def phone(browser):
    """A page in a fresh phone-sized (360 x 740, touch) browser context."""
    context = browser.new_context(**PHONE)
    page = context.new_page()
    page.set_default_timeout(10_000)
    yield page
    context.close()


@pytest.fixture
def shot():
    """Save a screenshot as tests/screenshots/NAME.png and return its path."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)

    def take(page, name: str) -> Path:
        path = SCREENSHOTS / f"{name}.png"
        page.screenshot(path=str(path), full_page=True)
        return path

    return take


@pytest.fixture
def dark_phone(browser):
    """The same phone with the system's dark theme, to look at the dark screenshots too."""
    context = browser.new_context(**PHONE, color_scheme="dark")
    page = context.new_page()
    page.set_default_timeout(10_000)
    yield page
    context.close()


#: figures tests report (interaction counts, delays), printed once at the end of the run
FIGURES: list[str] = []


def pytest_terminal_summary(terminalreporter):
    """Print the figures the tests measured, so a CI log carries them."""
    if FIGURES:
        terminalreporter.section("figures measured by the tests")
        for line in FIGURES:
            terminalreporter.write_line(line)


class Taps:
    """Do what a player does on a phone, and count it: one tap, or filling one field, is one interaction.

    The calculator tests (issue 11) enter a whole end-of-game sheet through this and hold the
    count to one interaction per number on the board plus one per player.
    """

    def __init__(self, page):
        self.page = page
        self.count = 0

    def tap(self, locator) -> None:
        locator.click()
        self.count += 1

    def fill(self, locator, value) -> None:
        locator.fill(str(value))
        self.count += 1

    def report(self, what: str, numbers: int, players: int) -> str:
        """Record the count beside its target; return the line (also printed at the end of the run)."""
        line = f"{what}: {self.count} interactions for {numbers} numbers and {players} players (target <= {numbers + players})"
        FIGURES.append(line)
        print(line)
        return line


def fits_a_phone(page, scope: str = "#game-panel") -> None:
    """Nothing wider than the 360 px screen; every visible field and button in `scope` at least 44 px tall.

    Checkboxes and radio buttons are inside labels that are the touch target, so their own box is not held to it.
    """
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    small = page.evaluate("""scope => [...document.querySelectorAll(
            `${scope} button, ${scope} select, ${scope} input:not([type=hidden]):not([type=checkbox]):not([type=radio])`)]
        .filter(e => e.offsetParent && e.getBoundingClientRect().height < 44)
        .map(e => [e.id || e.name || e.textContent.trim(), e.getBoundingClientRect().height])""", scope)
    assert small == [], small


def start_final_score_table(page, server, game: str, names, profile: str | None = None) -> None:
    """Start a table as a player does: the start page, the names, "Just the final score", Start."""
    page.goto(f"{server.url}/new/{game}")
    for i, name in enumerate(names):
        page.locator("input[name='players[]']").nth(i).fill(name)
    page.get_by_text("Just the final score").click()
    if profile:
        page.get_by_label("Box profile").select_option(label=profile)
    page.get_by_role("button", name="Start the table").click()
    page.wait_for_url("**/t/*")


def take_seat(page, name: str) -> None:
    """Tap "Who are you?" -> NAME (or "Just watch"), and wait for the chooser to go."""
    page.locator(".seat-chooser").get_by_role("button", name=name).click()
    page.wait_for_selector(".seat-chooser", state="detached")
    # the chooser leaves with the old page, before the new one is there: wait for the new page itself
    # (its body says a seat was chosen), parsed whole, or the next query may find nothing yet
    page.wait_for_selector("body[data-seat-chosen]", state="attached")
    page.wait_for_load_state("domcontentloaded")


def scoreboard(page) -> dict[str, str]:
    """The compact scoreboard at the top of a table page: {name: score as shown}."""
    return {li.locator(".sb-name").inner_text(): li.locator(".sb-score").inner_text()
            for li in page.locator(".scoreboard li").all()}
