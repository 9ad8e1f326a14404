"""A phone that stops reading its stream is closed with one log line, not a traceback (issue 27, finding 18).

A stream (/t/ID/events, companion/web/push.py) whose phone stops reading fills the server's
send buffer; the write then waits, and after serving.IDLE_TIMEOUT_S the server gives up on
it. That gave up with a 34-line traceback each time (2,000 stalled phones wrote 4.9 MB of log).
Here against a real `companion serve`, with the limit shortened through
$COMPANION_IDLE_TIMEOUT_S: a raw socket with a tiny receive buffer that never reads, changes
made until the server can no longer write, then the log is read.
"""

from __future__ import annotations

import os
import socket
import time

import pytest

from tests.conftest import Server
from tests.foundation.test_lost_taps import api_post, create

pytestmark = pytest.mark.slow

TIMEOUT_S = 2


def stalled_stream(port: int, t: dict) -> socket.socket:
    """Open the table's stream with a tiny receive buffer and never read it."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1024)  # before connect: the window is set then
    sock.connect(("127.0.0.1", port))
    sock.sendall((f"GET /t/{t['table']}/events?v=0 HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
                  f"Cookie: tc_{t['table']}={t['token']}; seat_{t['table']}=0\r\nAccept: text/event-stream\r\n\r\n").encode())
    return sock


def test_a_stream_whose_phone_stopped_reading_is_closed_with_one_log_line(tmp_path):
    server = Server(data=tmp_path / "srv",
                    env=dict(os.environ, COMPANION_IDLE_TIMEOUT_S=str(TIMEOUT_S))).start()
    try:
        t = create(server)
        started = server.log.read_text()
        sock = stalled_stream(server.port, t)
        try:
            # each change pushes the live region (kilobytes) to the stream; with nobody reading,
            # the phone's buffer and then the server's fill, the server's write waits, and is given up
            deadline = time.monotonic() + 60
            version = 0
            while server.log.read_text() == started and time.monotonic() < deadline:
                status, doc = api_post(server, t, "events", {"type": "fame", "data": {"player": 0, "delta": 1},
                                                             "expected_version": version})
                assert status == 200, doc
                version = doc["version"]
                time.sleep(0.02)
            time.sleep(TIMEOUT_S + 1)  # room for more lines, had the one stream made more
            logged = server.log.read_text()
        finally:
            sock.close()
    finally:
        server.stop()
    said = logged[len(started):]
    print(said)
    assert said, f"the server never gave up on the stream after {version} changes"
    assert "Traceback" not in said, said[:3000]
    assert len(said.splitlines()) == 1, said[:3000]
    assert "stopped reading" in said and t["table"] in said and t["token"] not in said, said
