"""When the disk fails the server: one plain line at start-up, a clear answer while serving.

At start-up (`check`, run by db.migrate before it touches anything) the data folder and its
SQLite file are looked at in the order a person would: is the file a folder, can the folder
be written, is the file empty, is it SQLite at all, does `PRAGMA quick_check` find it whole.
Each failure is one line naming the file and what to do, raised as StorageError, which is a
SystemExit: whichever command meets it (serve, init-db, a worker) prints the line and stops,
with no traceback, since none of these is a bug.

While serving (`failure`), SQLite's error while reading or writing a table becomes an answer
with its own status and words: a full disk is 507 "the server's disk is full: nothing was
saved". A write is one transaction, so in every case nothing was saved, and the phone says so
and keeps the tap to send again (static/js/kept.js).
"""

from __future__ import annotations

import errno
import os
import sqlite3
import tempfile
from pathlib import Path

from .games.speech import N_

#: the first 16 bytes of every SQLite 3 database file (sqlite.org/fileformat.html, 1.3)
SQLITE_HEADER = b"SQLite format 3\x00"
#: quick_check's rows are problems; the first few say enough on one line
SHOWN_PROBLEMS = 1

#: what a page and the API say of a disk's failure while serving: English here (the log's, the API's),
#: marked so that a page says them in its language with `_(message)` (the command line's stay English)
DISK_FULL = N_("the server's disk is full: nothing was saved")
READ_ONLY = N_("the server cannot write to its data folder (it is read-only): nothing was saved")
DAMAGED = N_("the server's database file is damaged: nothing was saved; the host can restore a backup")
DISK_FAILED = N_("the server could not use its disk: nothing was saved")

# SQLite's primary result codes (sqlite.org/rescode.html); exceptions carry them from Python 3.11
SQLITE_READONLY = 8
SQLITE_IOERR = 10
SQLITE_CORRUPT = 11
SQLITE_FULL = 13
SQLITE_CANTOPEN = 14
SQLITE_NOTADB = 26


class StorageError(SystemExit):
    """The data folder or its database cannot be used; str() is the one line to print."""

    def __init__(self, line: str):
        super().__init__(f"error: {line}")
        self.line = line

    def __str__(self) -> str:
        return self.line


def check(path: str | os.PathLike) -> None:
    """Raise StorageError with one plain line if the server cannot use this database file.

    A missing file is fine (migrate creates it) as long as its folder can be made and written.
    """
    path = Path(path)
    folder = path.parent
    if path.is_dir():
        raise StorageError(f"{path} is a folder, not a database file: move it away, or name another data folder with --data")
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise StorageError(f"cannot make the data folder {folder}: {exc.strerror}; name another one with --data") from None
    _check_writable(folder)
    if not path.exists():
        _check_no_orphan_log(path)
        return
    _check_file(path)


def _check_no_orphan_log(path: Path) -> None:
    """Refuse a missing database whose write-ahead log is left: SQLite would replay that log onto the new file."""
    wal = Path(f"{path}-wal")
    if wal.exists() and wal.stat().st_size > 0:
        raise StorageError(f"{path} is missing but its write-ahead log {wal.name} is not: put the database back beside it,"
                           f" or move {wal.name} (and {path.name}-shm) away to start with no tables")


def _check_writable(folder: Path) -> None:
    """Write and remove a scratch file: SQLite needs the folder for its -wal and -shm files.

    os.access is not enough: root may write anywhere but on a read-only mount.
    """
    try:
        fd, scratch = tempfile.mkstemp(prefix=".companion-check-", dir=folder)
    except OSError as exc:
        if exc.errno in (errno.EROFS, errno.EACCES, errno.EPERM):
            raise StorageError(f"the data folder {folder} is read-only: make it writable, or name another data folder with --data") from None
        if exc.errno == errno.ENOSPC:
            raise StorageError(f"the disk holding {folder} is full: free some space, then start again") from None
        raise StorageError(f"cannot write in the data folder {folder}: {exc.strerror}") from None
    os.close(fd)
    os.unlink(scratch)


def _check_file(path: Path) -> None:
    try:
        with open(path, "rb") as f:
            header = f.read(len(SQLITE_HEADER))
    except OSError as exc:
        raise StorageError(f"cannot read {path}: {exc.strerror}") from None
    wal = Path(f"{path}-wal")
    if not header and not (wal.exists() and wal.stat().st_size > 0):
        # SQLite would take an empty file for a new database and start afresh, silently; but the
        # app writes its tables on first start (whole, db.migrate), so an empty file lost them, or
        # is what a version before issue 38 left when its first start met a full disk
        raise StorageError(f"{path} is empty (0 bytes): if it held tables they are gone, so restore a backup there;"
                           " if no table was ever kept here, delete the file to start with no tables")
    if header and header != SQLITE_HEADER:
        raise StorageError(f"{path} is not a database (not an SQLite file): move it away, or name another data folder with --data")
    try:
        conn = sqlite3.connect(str(path), isolation_level=None)
        try:
            rows = conn.execute("PRAGMA quick_check").fetchall()
        finally:
            conn.close()
    except sqlite3.Error as exc:
        raise StorageError(_damaged(path, str(exc))) from None
    problems = [row[0] for row in rows if row[0] != "ok"]
    if problems:
        raise StorageError(_damaged(path, "; ".join(problems[:SHOWN_PROBLEMS])))


def _damaged(path: Path, detail: str) -> str:
    return (f"{path} is damaged ({detail}): restore a backup (companion backup makes one), or move it away"
            " to start with no tables")


def failure(exc: BaseException) -> tuple[int, str] | None:
    """Return (status, message) for a storage failure met while serving; None if it is not one."""
    if isinstance(exc, OSError):
        if exc.errno == errno.ENOSPC:
            return 507, DISK_FULL
        if exc.errno == errno.EROFS:
            return 503, READ_ONLY
        return None
    if not isinstance(exc, sqlite3.Error):
        return None
    code = getattr(exc, "sqlite_errorcode", None)
    primary = code & 0xFF if isinstance(code, int) else None
    text = str(exc).lower()
    if primary == SQLITE_FULL or "database or disk is full" in text:
        return 507, DISK_FULL
    if primary == SQLITE_READONLY or "readonly database" in text:
        return 503, READ_ONLY
    if primary in (SQLITE_CORRUPT, SQLITE_NOTADB) or "malformed" in text or "not a database" in text:
        return 503, DAMAGED
    if primary in (SQLITE_IOERR, SQLITE_CANTOPEN) or "disk i/o error" in text or "unable to open" in text:
        return 503, DISK_FAILED
    return None


def sync_folder(folder: Path) -> None:
    """Flush a folder's entry for a file just renamed or linked into it, so the name survives a power cut.

    POSIX; Windows has no such call, and a folder that cannot be opened or synced is left as it is.
    """
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)
