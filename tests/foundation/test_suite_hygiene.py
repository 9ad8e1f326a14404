"""The suite cleans up after itself and says what it costs (issue 30, part 6).

- A test app stops its WAL flusher thread when its test ends (companion/db.py, WalFlusher): 30
  apps used to leave 30 threads waking 20 times a second, and about 290 tests make one.
- A test that needs a real server process is `slow`, so `-m "not slow and not browser"` (the
  fast lane, README.md "Tests") never starts one: the `server` fixture marks its tests, and a
  test that talks to a server on loopback without the marker fails (tests/conftest.py).
- Every test calls a real server through tests/conftest.py's `Address` (the `Server` the
  fixture starts is one); a test that must send bytes of its own on a socket is named below,
  with why.
"""

from __future__ import annotations

import re

import pytest

from companion import db as database
from tests.conftest import ROOT

TESTS = ROOT / "tests"
HERE = "tests/foundation/test_suite_hygiene.py"  # its inner tests open sockets of their own

#: an inner pytest run has the suite's settings (pyproject.toml: markers, limits, warnings as errors) and
#: loads its fixtures and hooks as a plugin; it is given the one file it runs (else it would run the suite)
SUITE = ("-c", str(ROOT / "pyproject.toml"), "-p", "tests.conftest", "-p", "no:cacheprovider")

THIRTY_APPS = """
import threading

import pytest


@pytest.mark.parametrize("n", range(30))
def test_an_app_that_writes(app, n):
    answer = app.test_client().post("/api/v1/tables", json={"game": "gutenberg", "players": ["Anna", "Tom"]})
    assert answer.status_code == 201


def test_then_the_threads_left_running():
    alive = [thread.name for thread in threading.enumerate()]
    print(f"THREADS {len(alive)}: {alive}")
    assert len(alive) <= 2, alive  # the main thread, and pytest-timeout's timer of this test
"""


def test_thirty_test_apps_leave_at_most_two_threads_running(pytester, monkeypatch):
    """In a process of its own, as a run of the suite is: the threads this one's tests left do not count."""
    monkeypatch.setenv("PYTHONPATH", str(ROOT))
    result = pytester.runpytest_subprocess(*SUITE, "-s", pytester.makepyfile(test_apps=THIRTY_APPS))
    assert result.ret == 0, "\n".join(line for line in result.outlines if "THREADS" in line or "Error" in line)
    result.assert_outcomes(passed=31)


def test_a_stopped_flusher_has_flushed_the_last_commit_and_its_thread_has_ended(tmp_path):
    path = tmp_path / "t.db"
    database.migrate(path)
    flusher = database.WalFlusher.start(path, interval=60)  # it would not look again for a minute
    conn = database.connect(path)
    try:
        conn.execute("CREATE TABLE played (name TEXT)")
        conn.execute("INSERT INTO played VALUES ('Anna')")
        flusher.stop()
        assert flusher.flushes == 1 and not flusher._thread.is_alive()
        assert str(path.resolve()) not in database.WalFlusher.running()
        again = database.WalFlusher.start(path, interval=60)  # the file's next flusher is a new one
        assert again is not flusher and again._thread.is_alive()
        again.stop()
    finally:
        conn.conn.close()


MARKED_BY_FIXTURE = """
def test_through_a_server(server):
    pass


def test_on_a_phone(phone):
    pass


def test_in_process(client):
    pass
"""


def test_the_server_fixture_makes_a_test_slow_and_a_browser_page_makes_it_browser(pytester):
    items, _ = pytester.inline_genitems(*SUITE, pytester.makepyfile(test_marked=MARKED_BY_FIXTURE))
    marks = {item.name: sorted(m for m in ("slow", "browser") if item.get_closest_marker(m)) for item in items}
    assert marks == {"test_through_a_server": ["slow"], "test_on_a_phone": ["browser"], "test_in_process": []}


TALKERS = """
import socket

import pytest


def talk():
    with socket.create_server(("127.0.0.1", 0)) as listening:
        socket.create_connection(listening.getsockname(), timeout=5).close()


def test_talks_unmarked():
    talk()


@pytest.mark.slow
def test_talks_marked():
    talk()


def test_talks_to_nobody():
    pass
"""


def test_a_test_that_talks_to_a_server_on_loopback_without_the_slow_marker_fails(pytester):
    result = pytester.runpytest_inprocess(*SUITE, pytester.makepyfile(test_talkers=TALKERS))
    result.assert_outcomes(passed=3, errors=1)
    result.stdout.fnmatch_lines(["*ERROR at teardown of test_talks_unmarked*", "*talks to a server on 127.0.0.1:* mark it slow*"])


#: the tests that talk to a server on a socket of their own, on purpose
RAW = {
    "tests/foundation/test_compress.py": "reads an event stream, which never ends, as it comes, up to its first event",
    "tests/foundation/test_push.py": "holds event streams open and reads them as they come",
    "tests/foundation/test_push_fanout.py": "a stream whose phone stops reading: a receive buffer of 1 KB, set before connecting",
    "tests/resilience/test_stalled_stream.py": "a stream whose phone stops reading: a receive buffer of 1 KB, set before connecting",
    "tests/resilience/test_hosts.py": "a request line with no Host at all, in HTTP/1.1 and HTTP/1.0",
    "tests/resilience/test_idle_connections.py": "thousands of connections that send nothing, or streams read together",
    "tests/resilience/test_small_findings.py": "several requests on one kept-alive connection",
    "tests/resilience/test_client_limits.py": "streams held open, connections that send nothing, heads sent a line at a time",
    "tests/resilience/test_serve_options.py": "an event stream held open while the server is stopped with SIGTERM",
    "tests/resilience/test_fair_pool.py": "bodies a byte at a time, streams from many addresses, pipelined requests never read",
    "tests/resilience/test_https_browser.py": "TLS to Caddy, naming the site (SNI), to read the certificate the browser then pins",
}
CALLS = re.compile(r"\burlopen\(|\bbuild_opener\(|\bHTTPConnection\(|\bcreate_connection\(|\.connect\(\(")


def test_every_test_calls_a_real_server_through_conftest():
    """No test writes its own HTTP client: `Address.send`, `.call` and `.api` (tests/conftest.py) are the one."""
    found = {}
    for path in sorted(TESTS.rglob("*.py")):
        name = path.relative_to(ROOT).as_posix()
        lines = [n for n, line in enumerate(path.read_text().splitlines(), 1) if CALLS.search(line)]
        if lines and name not in RAW and name not in ("tests/conftest.py", HERE):
            found[name] = lines
    assert found == {}, found
    assert all(CALLS.search((ROOT / name).read_text()) for name in RAW), "a file named raw no longer is"


STUCK = """
import time

import pytest
from hypothesis import given, settings, strategies as st


@pytest.mark.timeout(1)
def test_stuck_in_a_sleep():
    time.sleep(120)


@pytest.mark.timeout(1)
@settings(deadline=None, database=None)
@given(st.integers())
def test_stuck_in_a_loop_under_hypothesis(n):
    while True:
        time.sleep(0.01)


@pytest.fixture
def stuck_setup():
    time.sleep(120)
    yield


@pytest.mark.timeout(1)
def test_stuck_in_its_fixture(stuck_setup):
    pass


def test_the_next_one():
    pass
"""


@pytest.mark.timeout(180)  # an inner pytest process of its own, started on a machine that may be busy
def test_a_test_past_its_limit_fails_alone_and_the_run_goes_on_to_its_summary(pytester, monkeypatch):
    """Issue 38: a stuck test (a sleep, a loop hypothesis would replay, a fixture) fails; the next one runs."""
    monkeypatch.setenv("PYTHONPATH", str(ROOT))
    result = pytester.runpytest_subprocess(*SUITE, pytester.makepyfile(test_stuck=STUCK))
    result.assert_outcomes(passed=1, failed=2, errors=1)
    result.stdout.fnmatch_lines(["*test_stuck_in_a_sleep ran past its limit of 1 s*",
                                 "*1 passed*"])
    assert "ran past its limit" in "\n".join(result.outlines)
