"""A table's secret never reaches the server's log (issue 13, finding 7).

When a /join/ID/SECRET request failed, the path, secret and all, went to the terminal: from
waitress ("Exception while serving /join/...") and from the app's own "unexpected error on
GET /join/..." line. Every log record is now redacted when it is made (companion/logs.py).
"""

from __future__ import annotations

import io
import json
import logging
import sqlite3

import pytest

from companion import create_app
from companion.paths import DB_NAME
from tests.conftest import Server


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
