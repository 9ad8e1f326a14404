"""All database access: one SQLite file in WAL mode, opened per request, migrated on start.

Durability (CONTRACT.md: "an event acknowledged with 200 is on disk: a server killed at any
moment afterwards, then restarted, shows it"). Two settings, chosen with `companion serve
--sync` or COMPANION_SYNC:

- ``normal`` (the default): journal_mode=WAL with synchronous=NORMAL. A commit is in the WAL
  file before the event is acknowledged, so a server killed at any moment (SIGKILL, a crash,
  Ctrl-C) keeps it: that is the contract, and tests/resilience/test_faults.py kills the server
  20 times to prove it. What NORMAL leaves to the operating system is the fsync, which only
  matters if the whole machine loses power; WalFlusher below fsyncs the WAL within
  FLUSH_INTERVAL_S of every commit, so a power cut can take at most that last moment of play.
  The fsync would otherwise cost every score change about 0.45 ms, more than a whole request
  to a bare server (bench/README.md).
- ``full``: synchronous=FULL, the WAL is fsynced before every acknowledgement. For a box that
  loses power often; every write costs the fsync.
"""

from __future__ import annotations

import os
import sqlite3
import threading
from pathlib import Path

import sqlite_utils

from . import storage

BUSY_TIMEOUT_MS = 10_000
SYNC_MODES = ("normal", "full")
DEFAULT_SYNC = "normal"
FLUSH_INTERVAL_S = 0.05

#: registered migrations, applied in order once each; append, never edit
MIGRATIONS: list[tuple[str, str]] = [
    (
        "0001_tables_events_profiles",
        """
        CREATE TABLE tables (
            id TEXT PRIMARY KEY,
            secret_hash TEXT NOT NULL,
            game TEXT NOT NULL,
            first_names TEXT NOT NULL,
            names TEXT NOT NULL,
            options TEXT NOT NULL,
            profile TEXT NOT NULL,
            seed INTEGER NOT NULL,
            version INTEGER NOT NULL,
            state TEXT NOT NULL,
            created TEXT NOT NULL,
            updated TEXT NOT NULL
        );
        CREATE TABLE events (
            table_id TEXT NOT NULL REFERENCES tables(id),
            seq INTEGER NOT NULL,
            type TEXT NOT NULL,
            data TEXT NOT NULL,
            seat INTEGER,
            at TEXT NOT NULL,
            PRIMARY KEY (table_id, seq)
        );
        CREATE TABLE profiles (
            id INTEGER PRIMARY KEY,
            game TEXT NOT NULL,
            name TEXT NOT NULL,
            data TEXT NOT NULL,
            created TEXT NOT NULL,
            updated TEXT NOT NULL,
            UNIQUE (game, name)
        );
        """,
    ),
    (
        # the plays archive (companion/results.py): when each table's game ended, so finished
        # tables are listed by one indexed query; a table finished before this migration takes
        # the time of its last change. And the app's own settings (the host key).
        "0002_finished_at_settings",
        """
        ALTER TABLE tables ADD COLUMN finished_at TEXT;
        UPDATE tables SET finished_at = updated WHERE json_extract(state, '$.finished') = 1;
        CREATE INDEX tables_finished_at ON tables (finished_at) WHERE finished_at IS NOT NULL;
        CREATE TABLE settings (
            name TEXT PRIMARY KEY,
            value TEXT NOT NULL
        );
        """,
    ),
    (
        # a write's own id, made by the phone (companion/tables.py, CONTRACT.md "write_id"): a write
        # retried after its answer was lost finds its id here and is not applied twice
        "0003_write_ids",
        """
        ALTER TABLE events ADD COLUMN write_id TEXT;
        CREATE UNIQUE INDEX events_write_id ON events (table_id, write_id) WHERE write_id IS NOT NULL;
        """,
    ),
    (
        # each version's live region, drawn once for every process (companion/web/live.py): a
        # version's parts by id and ref, claimed by the process that draws it; the parts' text by
        # (id, ref). A cache: dropped for a table idle an hour, drawn again when a phone comes back
        "0004_regions",
        """
        CREATE TABLE region_versions (
            table_id TEXT NOT NULL,
            drawn_as TEXT NOT NULL,
            version INTEGER NOT NULL,
            refs TEXT,
            claimed_by INTEGER NOT NULL,
            claimed_at REAL NOT NULL,
            draws INTEGER NOT NULL DEFAULT 0,
            PRIMARY KEY (table_id, drawn_as, version)
        );
        CREATE TABLE region_parts (
            table_id TEXT NOT NULL,
            drawn_as TEXT NOT NULL,
            part TEXT NOT NULL,
            ref TEXT NOT NULL,
            own TEXT NOT NULL,
            children TEXT NOT NULL,
            PRIMARY KEY (table_id, drawn_as, part, ref)
        );
        """,
    ),
    (
        # issue 41: two names the host merged into one player (companion/players.py), a row per
        # merge, kept when it is undone (undone_at); and the plays the host deleted from the archive
        # (companion/results.py), a row each, gone again when the play is restored: the table, its
        # events and its result are never touched, so nothing stored is lost
        "0005_player_merges_deleted_plays",
        """
        CREATE TABLE player_merges (
            id INTEGER PRIMARY KEY,
            from_key TEXT NOT NULL,
            into_key TEXT NOT NULL,
            at TEXT NOT NULL,
            undone_at TEXT
        );
        CREATE TABLE deleted_plays (
            table_id TEXT PRIMARY KEY REFERENCES tables(id),
            at TEXT NOT NULL
        );
        """,
    ),
]


def forget_regions(path: str | Path) -> None:
    """Drop every region the web layer kept (companion/web/live.py): a cache, drawn by the code
    that ran before this start, whose templates and words may have changed since. A file that
    cannot be written keeps them: its workers draw alone then (live.py)."""
    conn = sqlite3.connect(str(path), timeout=BUSY_TIMEOUT_MS / 1000, isolation_level=None)
    try:
        conn.execute("BEGIN IMMEDIATE")
        conn.execute("DELETE FROM region_parts")
        conn.execute("DELETE FROM region_versions")
        conn.execute("COMMIT")
    except sqlite3.Error:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
    finally:
        conn.close()


def check_sync(mode: str) -> str:
    """Return a valid sync mode, or raise ValueError naming the allowed ones."""
    if mode not in SYNC_MODES:
        raise ValueError(f"sync must be one of {', '.join(SYNC_MODES)}, not {mode!r}")
    return mode


def connect(path: str | Path, sync: str = DEFAULT_SYNC) -> sqlite_utils.Database:
    """Open the database file with the pragmas every connection needs."""
    conn = sqlite3.connect(str(path), timeout=BUSY_TIMEOUT_MS / 1000, isolation_level=None, check_same_thread=False)
    conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
    conn.execute(f"PRAGMA synchronous = {check_sync(sync).upper()}")
    conn.execute("PRAGMA foreign_keys = ON")
    return sqlite_utils.Database(conn)


def migrate(path: str | Path) -> list[str]:
    """Create the file if needed, switch it to WAL and apply pending migrations; return their names.

    Checks the folder and the file first (storage.check): a damaged, foreign, empty or
    unwritable one stops the command with one plain line (storage.StorageError), as does a
    failure of the disk while migrating. A new file is made whole under another name first
    (`_create`), so a first start that fails (a full disk) leaves nothing a later start
    could take for a database that lost its tables.
    """
    storage.check(path)
    try:
        made = [] if os.path.exists(path) else _create(Path(path))
        return made + _migrate(path)
    except (sqlite3.Error, OSError) as exc:
        found = storage.failure(exc)
        raise storage.StorageError(f"{path}: {found[1] if found else exc}") from None


def _create(path: Path) -> list[str]:
    """Make a new database with every migration in a scratch file beside `path`, then link it into place.

    The scratch file keeps a rollback journal (no WAL to carry along) and is synced to the disk
    before it takes the name; if anything fails, it and its journal are removed. Return the
    migrations applied. A file another process linked there first is kept, and ours dropped.
    """
    scratch = path.with_name(f".{path.name}.new-{os.getpid()}-{os.urandom(4).hex()}")
    try:
        applied = _migrate(scratch, journal="DELETE")
        fd = os.open(scratch, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
        if not _take_name(scratch, path):
            return []
        storage.sync_folder(path.parent)
        return applied
    finally:
        for leftover in (scratch, Path(f"{scratch}-journal")):
            leftover.unlink(missing_ok=True)


def _take_name(scratch: Path, path: Path) -> bool:
    """Give the scratch file the database's name unless a file already has it; return whether it took it.

    A hard link never replaces a file, nor does a rename on Windows; a disk without hard links
    (FAT: EPERM; some FUSE and SMB mounts: EOPNOTSUPP, ENOSYS) gets a rename once the name is seen free.
    """
    try:
        if os.name == "nt":
            os.rename(scratch, path)
        else:
            try:
                os.link(scratch, path)
            except FileExistsError:
                raise
            except OSError:
                if path.exists():
                    return False
                os.rename(scratch, path)
    except FileExistsError:
        return False
    return True


def _migrate(path: str | Path, journal: str = "WAL") -> list[str]:
    db = connect(path)
    try:
        db.execute(f"PRAGMA journal_mode = {journal}")
        db.execute("CREATE TABLE IF NOT EXISTS _migrations (name TEXT PRIMARY KEY, applied TEXT NOT NULL)")
        done = {row[0] for row in db.execute("SELECT name FROM _migrations").fetchall()}
        applied = []
        for name, sql in MIGRATIONS:
            if name in done:
                continue
            db.execute("BEGIN IMMEDIATE")
            try:
                for statement in filter(str.strip, sql.split(";")):
                    db.execute(statement)
                db.execute("INSERT INTO _migrations VALUES (?, datetime('now'))", [name])
                db.execute("COMMIT")
            except BaseException:
                db.execute("ROLLBACK")
                raise
            applied.append(name)
        return applied
    finally:
        db.conn.close()


class WalFlusher:
    """Fsync a database's WAL file soon after each commit, in a background thread.

    With synchronous=NORMAL, SQLite writes every commit into the WAL before it returns (which is
    what survives a killed server) but leaves flushing it to the disk to the operating system,
    which may wait tens of seconds. This thread looks at the WAL every FLUSH_INTERVAL_S and
    fsyncs it when it changed, so what a power cut can lose is bounded by that interval.
    One flusher per database file per process (see `start`); it runs until `stop` (an app that
    closes, a test's app at the end of its test) or until its file is deleted.
    """

    _running: dict[str, "WalFlusher"] = {}
    _lock = threading.Lock()

    def __init__(self, path: str | Path, interval: float = FLUSH_INTERVAL_S):
        self.path = str(path)
        self.wal = f"{path}-wal"
        self.interval = interval
        self.flushes = 0  # how many fsyncs it made (tests read it)
        self._seen: tuple | None = None
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="wal-flusher", daemon=True)

    @classmethod
    def start(cls, path: str | Path, interval: float = FLUSH_INTERVAL_S) -> "WalFlusher":
        """Return the running flusher of this file, starting it first if there is none."""
        key = str(Path(path).resolve())
        with cls._lock:
            flusher = cls._running.get(key)
            if flusher is None:
                flusher = cls._running[key] = cls(key, interval)
                flusher._thread.start()
            return flusher

    @classmethod
    def running(cls) -> dict[str, "WalFlusher"]:
        """The flushers running in this process, by the resolved path of their file."""
        with cls._lock:
            return dict(cls._running)

    def stop(self, timeout: float = 10) -> None:
        """Flush what is committed one last time and end the thread; return once it has ended.

        The file has no flusher from then on: `start` starts a new one.
        """
        with self._lock:
            if self._running.get(self.path) is self:
                del self._running[self.path]
        self._stop.set()
        if self._thread.is_alive():
            self._thread.join(timeout)

    def flush_if_changed(self) -> bool:
        """Fsync the WAL if it changed since the last look; return True if it did."""
        try:
            st = os.stat(self.wal)
        except FileNotFoundError:
            return False
        seen = (st.st_ino, st.st_size, st.st_mtime_ns)
        if seen == self._seen:
            return False
        try:
            fd = os.open(self.wal, os.O_RDONLY)
        except FileNotFoundError:
            return False
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
        self._seen = seen  # taken before the fsync: a write in between is flushed next time
        self.flushes += 1
        return True

    def _run(self) -> None:
        while not self._stop.wait(self.interval):
            if not self._flush() and not os.path.exists(self.path):
                break  # the database was deleted (a test's temporary folder): nothing left to flush
        else:
            self._flush()  # stopped: what was committed until now is on the disk too
        with self._lock:
            if self._running.get(self.path) is self:
                del self._running[self.path]

    def _flush(self) -> bool:
        try:
            return self.flush_if_changed()
        except OSError:  # a full or failing disk: SQLite itself reports that to the writer
            return False
