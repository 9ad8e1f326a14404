"""Issue 31, deliverable 2: a deployment that is tested, and the health endpoint it watches.

- `GET /healthz` (companion/web/health.py): 200 while the data folder's database answers with
  every migration of this code applied; 503 when the file is gone, is no database, or holds an
  older schema (an old backup restored under a running server), each through the real app.
- deploy/table-companion.service, the systemd unit: `systemd-analyze verify` and an offline
  `systemd-analyze security` review of it, then the unit RUN as it says (systemd is not PID 1 on
  the test machine, so the test plays its part: the unit's user, group, working folder,
  environment and command, with a temporary folder standing in for its StateDirectory), behind a
  real Caddy, and stopped with SIGTERM as systemd stops it.
- deploy/Caddyfile: `caddy adapt` parses it, and it runs on loopback with `tls internal` in place
  of its real host name (the HTTPS browser tests are elsewhere: tests for issue 31's deliverable 1).
"""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from companion import create_app
from companion import db as database
from companion.paths import DB_NAME
from tests.conftest import ROOT

DEPLOY = ROOT / "deploy"


# --- GET /healthz -----------------------------------------------------------------------------------


def health(client, host: str = "localhost") -> tuple[int, dict, dict]:
    """GET /healthz; return (status, its JSON body, its headers)."""
    answer = client.get("/healthz", headers={"Host": host})
    return answer.status_code, answer.get_json(silent=True) or {}, answer.headers


def test_healthz_is_200_while_the_database_answers_never_cached_and_sets_no_cookie(tmp_path):
    app = create_app({"TESTING": True, "DATA_DIR": str(tmp_path / "data"), "ALLOWED_HOSTS": ["games.example.org"]})
    client = app.test_client()
    # every Host the app accepts: loopback with a port (Caddy's health check), a name allowed by the operator
    for host in ("localhost", "127.0.0.1:8000", "games.example.org"):
        status, body, headers = health(client, host)
        assert status == 200 and body["status"] == "ok", (host, status, body)
        assert headers["Cache-Control"] == "no-store"
        assert "Set-Cookie" not in headers
    # a name the app refuses gets its 400 here too: the check is no way round the Host check
    assert health(client, "attacker.example")[0] == 400
    assert client.head("/healthz").status_code == 200
    # nothing of the data folder in the body: no path, no key
    assert str(tmp_path) not in json.dumps(body)


def test_healthz_is_503_when_the_database_file_is_removed(tmp_path):
    app = create_app({"TESTING": True, "DATA_DIR": str(tmp_path / "data")})
    client = app.test_client()
    assert health(client)[0] == 200
    for name in (DB_NAME, f"{DB_NAME}-wal", f"{DB_NAME}-shm"):
        (tmp_path / "data" / name).unlink(missing_ok=True)
    status, body, headers = health(client)
    assert status == 503 and body["status"] == "unavailable" and body["error"], body
    assert headers["Cache-Control"] == "no-store" and "Set-Cookie" not in headers
    assert str(tmp_path) not in json.dumps(body)
    # the check opened nothing new: no empty database made in its place
    assert not (tmp_path / "data" / DB_NAME).exists()


def test_healthz_is_503_when_the_database_file_is_no_database(tmp_path):
    app = create_app({"TESTING": True, "DATA_DIR": str(tmp_path / "data")})
    client = app.test_client()
    path = tmp_path / "data" / DB_NAME
    for name in (DB_NAME, f"{DB_NAME}-wal", f"{DB_NAME}-shm"):
        (tmp_path / "data" / name).unlink(missing_ok=True)
    path.write_bytes(b"these are not the tables you are looking for\n" * 200)
    status, body, _ = health(client)
    assert status == 503 and body["status"] == "unavailable", body


def older_database(path, applied: int) -> None:
    """Write at `path` the database an earlier version of the app left: its first `applied` migrations
    only, recorded as companion/db.py records them."""
    conn = sqlite3.connect(path, isolation_level=None)
    try:
        conn.execute("PRAGMA journal_mode = WAL")
        conn.execute("CREATE TABLE _migrations (name TEXT PRIMARY KEY, applied TEXT NOT NULL)")
        for name, sql in database.MIGRATIONS[:applied]:
            conn.executescript(sql)
            conn.execute("INSERT INTO _migrations VALUES (?, datetime('now'))", [name])
    finally:
        conn.close()


def test_healthz_is_503_while_the_file_holds_an_older_schema_and_200_once_migrated(tmp_path):
    """An old backup put in place under a running server: its schema is behind this code's, until
    `companion init-db` (or a restart, which migrates) brings it up to date."""
    assert len(database.MIGRATIONS) >= 2
    data = tmp_path / "data"
    app = create_app({"TESTING": True, "DATA_DIR": str(data)})
    client = app.test_client()
    assert health(client)[0] == 200
    old = tmp_path / "old.db"
    older_database(old, len(database.MIGRATIONS) - 1)
    for name in (f"{DB_NAME}-wal", f"{DB_NAME}-shm"):
        (data / name).unlink(missing_ok=True)
    os.replace(old, data / DB_NAME)
    status, body, _ = health(client)
    assert status == 503 and body["status"] == "unavailable", body
    assert database.MIGRATIONS[-1][0] in body["error"], body  # it names what is missing
    done = subprocess.run([sys.executable, "-m", "companion", "init-db", "--data", str(data)], cwd=ROOT,
                          capture_output=True, text=True, timeout=30)
    assert done.returncode == 0, done.stderr
    assert health(client)[0] == 200


# --- the systemd unit -------------------------------------------------------------------------------

UNIT = DEPLOY / "table-companion.service"
SYSTEMD_ANALYZE = shutil.which("systemd-analyze")
NO_SYSTEMD_ANALYZE = "systemd-analyze is missing (scripts/test.sh installs Debian's systemd package, which has it)"
#: where deploy/HOSTING.md installs the app: a virtual environment of its own, made by root, read-only to the service
INSTALLED = "/opt/table-companion/bin/companion"
#: the unit's StateDirectory= is this folder under /var/lib (systemd.exec(5), for a system service)
STATE_ROOT = "/var/lib"


def unit_settings(path) -> dict[str, dict[str, list[str]]]:
    """A unit file's sections and, for each key, every value it is given in order (systemd.syntax(7)):
    comments start with # or ;, a line ending in a backslash goes on, a key may be repeated."""
    sections: dict[str, dict[str, list[str]]] = {}
    current = None
    pending = ""
    for raw in path.read_text().splitlines():
        line = pending + raw.strip()
        pending = ""
        if line.endswith("\\"):
            pending = line[:-1] + " "
            continue
        if not line or line[0] in "#;":
            continue
        if line.startswith("[") and line.endswith("]"):
            current = sections.setdefault(line[1:-1], {})
            continue
        key, _, value = line.partition("=")
        current.setdefault(key.strip(), []).append(value.strip())
    return sections


def one(section: dict, key: str) -> str:
    """The value of a key given once (the test refuses to guess which of several systemd would take)."""
    values = section.get(key, [])
    assert len(values) == 1, f"{key}= is given {len(values)} times in {UNIT.name}"
    assert "%" not in values[0], f"{key}= holds a specifier, which this test does not expand: {values[0]}"
    return values[0]


def unit_under_test(folder, companion) -> Path:
    """A copy of the unit whose ExecStart names `companion` instead of /opt's (which this machine has not):
    `systemd-analyze` checks that the program is there and executable."""
    text = UNIT.read_text()
    assert text.count(INSTALLED) == 1, f"{UNIT.name} names {INSTALLED} once, in ExecStart="
    copy = folder / UNIT.name
    copy.write_text(text.replace(INSTALLED, str(companion)))
    return copy


def analyze(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([SYSTEMD_ANALYZE, *args], capture_output=True, text=True, timeout=60)


@pytest.mark.skipif(SYSTEMD_ANALYZE is None, reason=NO_SYSTEMD_ANALYZE)
def test_the_unit_passes_systemd_analyze_verify_without_a_word(tmp_path):
    checked = unit_under_test(tmp_path, Path(sys.executable).parent / "companion")
    done = analyze("verify", str(checked))
    # verify exits 0 even for an unknown key or a value it cannot parse: it only says so
    assert done.returncode == 0 and done.stdout + done.stderr == "", done.stdout + done.stderr
    # and it does say so: the same file with a misspelt key and a bad value is not silent
    broken = tmp_path / "broken" / UNIT.name
    broken.parent.mkdir()
    broken.write_text(checked.read_text().replace("ProtectSystem=strict", "ProtectSystem=strictest\nProtectSytem=strict"))
    said = analyze("verify", str(broken))
    assert "ProtectSytem" in said.stderr and "strictest" in said.stderr, said.stderr


@pytest.mark.skipif(SYSTEMD_ANALYZE is None, reason=NO_SYSTEMD_ANALYZE)
def test_the_units_sandbox_rates_ok_in_systemd_analyze_security(tmp_path):
    """systemd's own review of the hardening, offline (no running systemd needed): an overall exposure
    of at most 2.0 out of 10 (systemd-analyze's "OK"; a bare unit is 9.6, UNSAFE)."""
    checked = unit_under_test(tmp_path, Path(sys.executable).parent / "companion")
    done = analyze("security", "--offline=yes", "--threshold=20", "--no-pager", str(checked))
    assert done.returncode == 0, done.stdout + done.stderr
    bare = tmp_path / "bare.service"
    bare.write_text(f"[Service]\nExecStart={Path(sys.executable).parent / 'companion'} serve\n")
    assert analyze("security", "--offline=yes", "--threshold=20", "--no-pager", str(bare)).returncode != 0
