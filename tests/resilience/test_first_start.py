"""Issue 38, item 14: a first start that fails leaves nothing a later start takes for a lost database.

A full disk on the very first start used to leave a 0-byte companion.db behind; once space was
freed, the next start refused it: "is empty (0 bytes), so its tables are gone", though that
folder never held a table. The database is now made whole under another name and linked into
place (companion/db.py, `_create`), so a first start that fails leaves the folder as it found
it, and the next one starts afresh. A real emptied database is still refused
(tests/resilience/test_storage.py: test_a_zero_length_database_does_not_silently_start_empty).

The full disk is real: the 2 MB tmpfs of test_storage.py, filled to its last byte; and, where
there is no root to mount one, a file-size limit (RLIMIT_FSIZE) that makes every write past
8 KiB fail, as a full disk does.
"""

from __future__ import annotations

import errno
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from companion import db as database
from companion.paths import DB_NAME
from tests.conftest import ROOT, Server
from tests.resilience.test_storage import PLAYERS, assert_one_plain_line, call, fill, serve_until_exit, small_disk  # noqa: F401 (small_disk: a fixture)


def init_db(data: Path, limit: int | None = None) -> subprocess.CompletedProcess:
    """Run `companion init-db --data DATA`, each file it writes held to `limit` bytes when given."""
    code = "import sys\nfrom companion.cli import main\n"
    if limit is not None:  # a write past the limit fails with EFBIG instead of killing the process
        code = (f"import resource, signal\nsignal.signal(signal.SIGXFSZ, signal.SIG_IGN)\n"
                f"resource.setrlimit(resource.RLIMIT_FSIZE, ({limit}, {limit}))\n") + code
    code += f"sys.exit(main(['init-db', '--data', {str(data)!r}]))\n"
    return subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=30)


def tables_of(path: Path) -> set[str]:
    conn = sqlite3.connect(str(path))
    try:
        assert conn.execute("PRAGMA quick_check").fetchone() == ("ok",)
        return {row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    finally:
        conn.close()


def test_a_first_start_whose_writes_fail_leaves_no_file_and_the_next_one_starts_afresh(tmp_path):
    data = tmp_path / "data"
    failed = init_db(data, limit=8192)
    assert_one_plain_line(failed, str(data / DB_NAME), "nothing was saved")
    assert sorted(p.name for p in data.iterdir()) == [], "the failed first start left files behind"
    done = init_db(data)
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout == f"{data / DB_NAME}: {', '.join(name for name, _ in database.MIGRATIONS)}\n"
    assert {"tables", "events", "profiles", "settings", "_migrations"} <= tables_of(data / DB_NAME)


@pytest.mark.slow
def test_a_first_start_on_a_full_disk_leaves_nothing_and_serves_once_space_is_freed(small_disk):
    """The issue's case, on a real disk that fills: serve on a full disk, free space, serve again."""
    data = small_disk / "data"
    data.mkdir()
    filler = fill(small_disk)
    assert_one_plain_line(serve_until_exit(data), str(data / DB_NAME), "disk is full")
    assert sorted(p.name for p in data.iterdir()) == [], "the failed first start left files behind"
    filler.unlink()
    server = Server(data=data)
    server.start()
    try:
        status, made, text = call(server, "/api/v1/tables", "POST", {"game": "gutenberg", "players": PLAYERS})
        assert status == 201, text
        status, doc, text = call(server, f"/api/v1/tables/{made['table']}", token=made["token"])
        assert status == 200 and [p["name"] for p in doc["players"]] == PLAYERS, text
    finally:
        server.stop()
    assert "Traceback" not in server.log.read_text()


def test_a_database_another_start_made_first_is_kept(tmp_path):
    """Two starts on a new folder at once: the database linked first keeps its name, the other start's goes."""
    path = tmp_path / DB_NAME
    database.migrate(path)
    conn = sqlite3.connect(str(path))
    conn.execute("INSERT INTO settings VALUES ('made', 'first')")
    conn.commit()
    conn.close()
    assert database._create(path) == []
    conn = sqlite3.connect(str(path))
    try:
        assert conn.execute("SELECT value FROM settings WHERE name = 'made'").fetchone() == ("first",)
    finally:
        conn.close()
    assert sorted(p.name for p in tmp_path.iterdir() if not p.name.startswith(DB_NAME)) == []


@pytest.mark.parametrize("refusal", ["EPERM", "EOPNOTSUPP", "ENOSYS"])
def test_a_first_start_where_the_disk_has_no_hard_links_renames_the_new_database_into_place(tmp_path, monkeypatch, refusal):
    """FAT refuses a hard link with EPERM, some FUSE and SMB mounts with EOPNOTSUPP or ENOSYS: SQLite
    needs no hard link, so neither does the first start (the review of issue 38 found it stopping there)."""
    def no_links(src, dst, *args, **kwargs):
        raise OSError(getattr(errno, refusal), os.strerror(getattr(errno, refusal)))

    monkeypatch.setattr(os, "link", no_links)
    path = tmp_path / DB_NAME
    assert database.migrate(path), "the migrations applied"
    assert "settings" in tables_of(path)
    assert sorted(p.name for p in tmp_path.iterdir() if not p.name.startswith(DB_NAME)) == []
