"""All database access: one SQLite file in WAL mode, opened per request, migrated on start.

Durability: journal_mode=WAL with synchronous=FULL, so a commit is on disk before the
event is acknowledged (CONTRACT.md: an acknowledged event survives a SIGKILL).
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

import sqlite_utils

BUSY_TIMEOUT_MS = 10_000

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
]


def connect(path: str | Path) -> sqlite_utils.Database:
    """Open the database file with the pragmas every connection needs."""
    conn = sqlite3.connect(str(path), timeout=BUSY_TIMEOUT_MS / 1000, isolation_level=None, check_same_thread=False)
    conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
    conn.execute("PRAGMA synchronous = FULL")
    conn.execute("PRAGMA foreign_keys = ON")
    return sqlite_utils.Database(conn)


def migrate(path: str | Path) -> list[str]:
    """Create the file if needed, switch it to WAL and apply pending migrations; return their names."""
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    db = connect(path)
    try:
        db.execute("PRAGMA journal_mode = WAL")
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
