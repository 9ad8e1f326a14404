"""A table's secret never reaches the server's log (issue 13, finding 7).

When a /join/ID/SECRET request failed, the path, secret and all, went to the terminal: from
waitress ("Exception while serving /join/...") and from the app's own "unexpected error on
GET /join/..." line. Every log record is now redacted when it is made (companion/logs.py).

One line per stalled stream let a client that cycles its streams write about 270 MB a day
(issue 40): repeated lines of one kind are now folded, one a minute with a count.
"""

from __future__ import annotations

import io
import json
import logging
import os
import re
import socket
import sqlite3
import time

import pytest

from companion import create_app
from companion.logs import Fold
from companion.paths import DB_NAME
from tests.conftest import Server
from tests.foundation.test_lost_taps import api_post, create
from tests.resilience.test_stalled_stream import stalled_stream


def test_every_logger_of_the_server_writes_secrets_redacted(tmp_path):
    app = create_app({"TESTING": True, "DATA_DIR": str(tmp_path)})
    out = io.StringIO()
    handler = logging.StreamHandler(out)
    handler.setFormatter(logging.Formatter("%(name)s %(message)s"))
    root = logging.getLogger()
    root.addHandler(handler)
    try:
        secret = "S3cretS3cretS3cret"
        lines = [
            ("Exception while serving /join/abc123/%s", (secret,)),
            ("GET /join/abc123/%s?x=1 HTTP/1.1", (secret,)),
            ("GET %%2Fjoin%%2Fabc123%%2F%s", (secret,)),
            ("archive link /plays?key=%s&game=voynich", (secret,)),
            ("Cookie: seat_abc123=1; tc_abc123=%s; other=1", (secret,)),
            ("cookies %r", ({"tc_abc123": secret},)),
            ("X-Table-Token: %s", (secret,)),
            ("environ %r", ({"HTTP_X_TABLE_TOKEN": secret},)),
            ("answer %s", (json.dumps({"table": "abc123", "token": secret}),)),
        ]
        for logger in (logging.getLogger("waitress"), app.logger, logging.getLogger("companion.anything")):
            for message, args in lines:
                logger.error(message, *args)
            try:
                raise ValueError(f"cannot open /join/abc123/{secret} with tc_abc123={secret}")
            except ValueError:
                logger.exception("unexpected error on GET /join/abc123/%s", secret)
        text = out.getvalue()
    finally:
        root.removeHandler(handler)
    assert secret not in text, text
    assert text.count("[redacted]") >= 3 * (len(lines) + 3), text
    assert "Traceback" in text and "ValueError" in text  # the traceback is still there, redacted


@pytest.mark.slow
def test_a_failed_join_leaves_no_secret_in_the_servers_output(tmp_path):
    server = Server(data=tmp_path / "data").start()
    try:
        made = [server.api("/api/v1/tables", {"game": "gutenberg", "players": ["Anna", "Tom"]}) for _ in range(2)]
        # waitress's own error path: a Host that broke the app before it could answer
        server.send("GET", f"/join/{made[0]['table']}/{made[0]['token']}", headers={"Host": "a" * 64 + ".example"})
        # the app's: a table whose stored row is damaged (its names no longer JSON) fails to load
        conn = sqlite3.connect(str(server.data / DB_NAME))
        conn.execute("UPDATE tables SET names = '[not json' WHERE id = ?", [made[1]["table"]])
        conn.commit()
        conn.close()
        status, _, _ = server.send("GET", f"/join/{made[1]['table']}/{made[1]['token']}",
                                   headers={"Cookie": f"tc_{made[1]['table']}={made[1]['token']}", "X-Table-Token": made[1]["token"]})
        assert status >= 500  # it did fail, and was logged
        assert server.send("GET", "/")[0] == 200
    finally:
        server.stop()
    log = server.log.read_text()
    assert "/join/" in log and "[redacted]" in log, log[-3000:]
    for table in made:
        assert table["token"] not in log, log[-3000:]


STALLED = "closed %s %s: the phone %s for %g s"  # serving.Handler.gave_up's line
COUNTED = re.compile(r" \(and (\d+) more like it since \d\d:\d\d:\d\d\)$")


def test_lines_of_one_kind_are_counted_for_a_minute_and_the_next_one_says_how_many():
    now = [1000.0]
    fold = Fold(60, clock=lambda: now[0])
    written = []

    def log(name, level, msg, *args):
        record = logging.LogRecord(name, level, __file__, 1, msg, args, None)
        if fold.filter(record):
            written.append((name, level, record.getMessage()))

    server, app = "table_companion.server", "companion"
    for i in range(6):  # a minute of storm: kinds interleaved, each written once
        log(server, logging.WARNING, STALLED, "GET", f"/t/a{i}/events", "stopped reading its answer", 5)
        log(server, logging.ERROR, "unexpected error while serving %s", f"/t/a{i}")
        log(app, logging.WARNING, STALLED, "GET", f"/t/a{i}/events", "stopped reading its answer", 5)  # another logger
        log(server, logging.ERROR, STALLED, "GET", f"/t/a{i}/events", "stopped reading its answer", 5)  # another level
        now[0] += 9.9
    assert [(name, level) for name, level, _ in written] == [
        (server, logging.WARNING), (server, logging.ERROR), (app, logging.WARNING), (server, logging.ERROR)]
    assert written[1][2] == "unexpected error while serving /t/a0" and written[3][2].startswith("closed GET /t/a0/")
    assert not any(COUNTED.search(text) for _, _, text in written)

    now[0] = 1000.0 + 60  # a minute after each kind's first line: the next of each says how many it left out
    log(server, logging.WARNING, STALLED, "GET", "/t/b/events", "stopped reading its answer", 5)
    log(app, logging.WARNING, STALLED, "GET", "/t/b/events", "stopped reading its answer", 5)
    assert written[-2][2].startswith("closed GET /t/b/events: the phone stopped reading its answer for 5 s (and 5 ")
    assert [int(COUNTED.search(text)[1]) for _, _, text in written[-2:]] == [5, 5]
    log(server, logging.WARNING, STALLED, "GET", "/t/c/events", "stopped reading its answer", 5)  # counted again
    now[0] += 60
    log(server, logging.WARNING, STALLED, "GET", "/t/d/events", "stopped reading its answer", 5)
    assert int(COUNTED.search(written[-1][2])[1]) == 1
    now[0] += 60  # nothing left out since: no count
    log(server, logging.WARNING, STALLED, "GET", "/t/e/events", "stopped reading its answer", 5)
    assert written[-1][2] == "closed GET /t/e/events: the phone stopped reading its answer for 5 s"

    # an unexpected error: each class of exception is a kind of its own
    before = len(written)
    for error in (ValueError, KeyError, ValueError, KeyError):
        record = logging.LogRecord(server, logging.ERROR, __file__, 1, "unexpected error while serving %s", ("/t/x",),
                                   (error, error("x"), None))
        if fold.filter(record):
            written.append((server, logging.ERROR, record.getMessage()))
    assert len(written) == before + 2, written[before:]

    # a line written whole (gevent's malformed request): its numbers and quoted parts are not its kind
    gevent = "<gevent._socket3.socket at 0x7f41d4f6%04x object, fd=%d, family=2, type=1, proto=0>: (from ('%s', %d)) %s"
    before = len(written)
    for i, (address, request) in enumerate([("127.0.0.1", "'GET / HTTP/9.9\\r\\n'"), ("10.1.2.3", '"GET /\'x\' HTTP/7"'),
                                            ("::1", "'XYZ / HTTP/1.1\\r\\n'"), ("127.0.0.2", "b'\\xff'")]):
        log(server, logging.ERROR, gevent % (i, 6 + i, address, 40000 + i, "Invalid http version: " + request))
    log(server, logging.ERROR, gevent % (9, 9, "127.0.0.1", 1, "Invalid request: Invalid Content-Length: 'zz'"))
    assert len(written) == before + 2, written[before:]


def still_open(port: int, socks: list[socket.socket]) -> int:
    """How many of these client sockets the server listening on `port` has not closed yet:
    its side of each is ESTABLISHED in /proc/net/tcp until it closes (then FIN_WAIT1, as its
    last bytes wait for a reader that never comes)."""
    ours = {sock.getsockname()[1] for sock in socks}
    with open("/proc/net/tcp") as table:
        rows = [line.split() for line in table.readlines()[1:]]
    return sum(int(local.rsplit(":", 1)[1], 16) == port and int(remote.rsplit(":", 1)[1], 16) in ours and state == "01"
               for _, local, remote, state, *_ in rows)


FOLD_S = 10  # the fold's minute, shortened
STREAMS = 30


@pytest.mark.slow
def test_a_storm_of_stalled_streams_or_bad_requests_writes_one_line_a_minute_and_then_the_count(tmp_path):
    server = Server(data=tmp_path / "srv", env=dict(os.environ, COMPANION_IDLE_TIMEOUT_S="1",
                                                    COMPANION_LOG_FOLD_S=str(FOLD_S))).start()
    t = create(server)
    version = 0

    def stall(count: int) -> float:
        """Stall `count` streams and change the table until the server has closed every one;
        the seconds it took. Each change pushes kilobytes that nobody reads."""
        nonlocal version
        socks = [stalled_stream(server.port, t) for _ in range(count)]
        started = time.monotonic()
        try:
            while time.monotonic() - started < 60 and still_open(server.port, socks):
                status, doc = api_post(server, t, "events", {"type": "fame", "data": {"player": 0, "delta": 1},
                                                             "expected_version": version})
                assert status == 200, doc
                version = doc["version"]
                time.sleep(0.02)
            assert not still_open(server.port, socks), f"the server still holds stalled streams after {version} changes"
            return time.monotonic() - started
        finally:
            for sock in socks:
                sock.close()

    try:
        for _ in range(20):  # gevent writes each malformed request's line whole: its own address and port in it
            assert server.send("POST", "/", headers={"Content-Length": "zz"})[0] == 400
        seconds = stall(STREAMS)
        print(f"\n{STREAMS} stalled streams closed in {seconds:.1f} s")
        storm = [line for line in server.log.read_text().splitlines() if "stopped reading" in line]
        # the fold's minute is over: it began with the kind's first line, written during the storm, so it
        # ends at most FOLD_S after the storm's end (counted from before the storm, it once ended just
        # after the next stall's line, on a busy machine, and that line was folded)
        time.sleep(FOLD_S + 0.5)
        stall(1)  # the next line of the kind says how many it left out
        after = [line for line in server.log.read_text().splitlines() if "stopped reading" in line]
    finally:
        server.stop()
    print("\n".join(after))
    # at most one line for each started window of the storm, where there were STREAMS
    assert 1 <= len(storm) <= 1 + int(seconds / FOLD_S), storm[:5]
    assert len(after) == len(storm) + 1, after
    counted = COUNTED.search(after[-1])
    assert counted, after[-1]
    # every closed stream is there: a line of its own or in a count
    assert len(storm) + int(counted[1]) == STREAMS, after
    assert t["token"] not in server.log.read_text()
    assert server.log.read_text().count("Invalid request") == 1, server.log.read_text()[-3000:]
