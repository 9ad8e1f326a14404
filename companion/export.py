"""Results that leave the app: JSON and CSV of finished tables, and a backup of the SQLite file.

Plain Python, no Flask: `companion export` and `companion backup` (cli.py) and the archive
page's download links call the same three functions, so a download and an export never differ.

- `to_json(results)`: `{"plays": [RESULT, ...]}`, each RESULT exactly as `results.result` gives it.
- `to_csv(results)`: one row per player and play (CONTRACT.md "results"), safe to open in a
  spreadsheet: no text cell runs as a formula, and a UTF-8 byte-order mark keeps accents.
- `backup(source, dest)`: a consistent copy of the database while the server may be writing,
  made with SQLite's online backup, renamed into place only once it is whole and checked.
"""

from __future__ import annotations

import csv
import io
import json
import os
import secrets
import sqlite3
import tempfile
from pathlib import Path
from typing import Any, Iterable

from .games.validation import RulesError
from .storage import sync_folder

#: the CSV's first columns, in this order; `breakdown.KEY` columns follow (CONTRACT.md "results")
CSV_COLUMNS = ("table", "game", "finished_at", "player", "place", "winner", "total")
#: the turn clock's columns (CONTRACT.md "results"), last, where a play ran one
CLOCK_COLUMNS = ("time_ms", "turns")
#: what a spreadsheet takes for the start of a formula in a text cell (OWASP, "CSV Injection")
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
#: the UTF-8 byte-order mark: Excel on Windows reads a CSV without one in the machine's code page ("ZoÃ«")
BOM = "\ufeff"
#: the files SQLite keeps beside a database, which belong to that database alone
SIDE_FILES = ("-wal", "-shm", "-journal")
#: how long the backup waits for a writer to let go of the file, as the server's own connections do
BUSY_TIMEOUT_S = 10


class Refused(RulesError):
    """Input the export or backup will not act on: `field` names it, `message` says why."""


def _oldest_first(results: Iterable[dict]) -> list[dict]:
    # a stable sort: plays finished within the same second keep the order given (the database's)
    return sorted(results, key=lambda r: r["finished_at"])


def to_json(results: list[dict]) -> str:
    """Return `{"plays": [RESULT, ...]}`, oldest first, as one JSON document ending in a newline.

    The plays are sorted by `finished_at`; those finished within the same second keep the order
    given, so `results.results(db, newest_first=False)` gives exactly the database's order.
    """
    return json.dumps({"plays": _oldest_first(results)}, ensure_ascii=False, indent=1) + "\n"


def _cell(value: Any) -> int | float | str:
    """A number as itself; anything else as text that no spreadsheet runs (`neutral`)."""
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return value
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (dict, list)):  # no game's breakdown holds one today; keep it readable if one does
        return neutral(json.dumps(value, ensure_ascii=False, separators=(",", ":")))
    return neutral(str(value))


def neutral(text: str) -> str:
    """Return a text cell a spreadsheet shows as text: a leading single quote before = + - @ tab or CR.

    OWASP's CSV injection advice. Excel and LibreOffice hide the quote and show the text as typed;
    a program reading the CSV sees it, the lesser harm. Only text gets it: a number is never a
    formula, so a total of -3 stays the number -3 (`_cell`).
    """
    return "'" + text if text.startswith(FORMULA_START) else text


def to_csv(results: list[dict], bom: bool = True) -> str:
    """Return the CSV of the plays, oldest first (as `to_json`): a header row, then one row per player and play.

    Columns: `table,game,finished_at,player,place,winner,total` (`winner` is true or false), then
    `breakdown.KEY` for each breakdown key that occurs, in the order first seen; a game without
    that key leaves it empty; then, where a play ran a turn clock, `time_ms` and `turns` (empty for
    a play without one).

    Safe to open in a spreadsheet (issue 27), decided by each value's type, not its column: a
    number (place, total, a breakdown part, which the games compute) is written bare, so -3 stays
    a number; every text cell (names, the table id, which is random and starts with '-' once in
    64, a date, true/false) is quoted, so a spreadsheet that splits cells on ';' cannot start a
    cell inside it, and gets a leading single quote where it starts as a formula does (`neutral`).
    With `bom` (the file `companion export --output` writes and the archive's download) it starts
    with a UTF-8 byte-order mark, for Excel on Windows; standard output, which programs read, has none.
    """
    plays = _oldest_first(results)
    keys: dict[str, None] = {}  # an ordered set
    for doc in plays:
        for player in doc["players"]:
            keys.update(dict.fromkeys(player["breakdown"]))
    # a play that ran a turn clock adds its columns at the end, so that no column before them moves
    timed = list(CLOCK_COLUMNS) if any("time_ms" in p for doc in plays for p in doc["players"]) else []
    out = io.StringIO()
    out.write(BOM if bom else "")
    # the header's names are the code's own (the games' breakdown keys): written as before
    # the seat's colour (games/colours.py) last, once a play has one: files without colours stay as they were
    coloured = ["colour"] if any("colour" in player for doc in plays for player in doc["players"]) else []
    # the title the players typed (the pad's "Azul"), last, once a play has one: "pad" alone tells no game apart
    titled = ["title"] if any(_typed_title(doc) for doc in plays) else []
    csv.writer(out, lineterminator="\n").writerow([*CSV_COLUMNS, *(f"breakdown.{k}" for k in keys), *timed, *coloured,
                                                  *titled])
    writer = csv.writer(out, lineterminator="\n", quoting=csv.QUOTE_NONNUMERIC)
    for doc in plays:
        winners = set(doc["winners"])
        for player in doc["players"]:
            fixed = (doc["table"], doc["game"], doc["finished_at"], player["name"], player["place"],
                     player["name"] in winners, player["total"])
            writer.writerow([_cell(v) for v in fixed] + [_cell(player["breakdown"].get(k)) for k in keys]
                            + [_cell(player.get(k)) for k in timed + coloured] + [_cell(doc.get("title")) for _ in titled])
    return out.getvalue()


def _typed_title(doc: dict) -> bool:
    """True where a play's title is not its game's own (a title its players typed)."""
    from .games import get

    game = get(doc["game"])
    return bool(doc.get("title")) and (game is None or doc["title"] != game.title)


def _side_paths(path: Path) -> list[Path]:
    return [path] + [Path(f"{path}{suffix}") for suffix in SIDE_FILES]


def same_file(a: Path, b: Path) -> bool:
    """True when the two paths name one file (the same path, or a link to it)."""
    try:
        if a.resolve() == b.resolve():
            return True
        return a.exists() and b.exists() and os.path.samefile(a, b)
    except OSError:
        return False


def refuse_live_files(database: Path, dest: Path, field: str) -> None:
    """Raise Refused when `dest` is the live database or one of the files SQLite keeps beside it."""
    for live in _side_paths(database):
        if same_file(dest, live):
            which = "" if live == database else f" (its {live.name} file)"
            raise Refused(field, f"{dest} is the live database itself{which}; choose another file")


def check_destination(dest: Path, field: str) -> None:
    """Raise Refused unless a file can be written at `dest` (its folder exists and is a folder)."""
    if dest.is_dir():
        raise Refused(field, f"{dest} is a folder; name a file")
    folder = dest.parent
    if not folder.is_dir():
        raise Refused(field, f"no folder {folder} to write {dest.name} in")


def write_atomically(dest: Path, data: bytes, field: str) -> None:
    """Write `data` to a temporary file beside `dest`, flush it to disk and rename it into place.

    A failure leaves `dest` as it was and removes the temporary file. Raises Refused or OSError.
    """
    check_destination(dest, field)
    tmp = dest.parent / f".{dest.name}.{secrets.token_hex(6)}.tmp"
    # O_EXCL: never a file someone else made; mode 0o666 less the umask, as any new file gets
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0), 0o666)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, dest)
    except BaseException:
        _remove(tmp)
        raise
    sync_folder(dest.parent)


def backup(source: Path, dest: Path) -> None:
    """Copy the SQLite file `source` to `dest` with SQLite's online backup, consistent while it is written.

    The copy is made in a temporary file beside `dest`, checked (`PRAGMA integrity_check`),
    checkpointed into one self-contained file (no `-wal` needed beside it), flushed to disk and
    only then renamed to `dest`; a failure leaves nothing half-written and `dest` as it was.
    Raises Refused for a missing source, a `dest` that is the live database (or one of its side
    files) or a folder, and a `dest` with a stale journal beside it; OSError or sqlite3.Error
    when the copy itself fails.
    """
    source, dest = Path(source), Path(dest)
    if not source.is_file():
        raise Refused("data", f"no database at {source}")
    refuse_live_files(source, dest, "file")
    check_destination(dest, "file")
    for side in (Path(f"{dest}-wal"), Path(f"{dest}-journal")):
        if side.exists():  # SQLite would replay it onto the new copy
            raise Refused("file", f"{side} lies beside it (is {dest.name} open in another program?); remove it or choose another file")
    fd, name = tempfile.mkstemp(dir=dest.parent, prefix=f".{dest.name}.", suffix=".tmp")
    os.close(fd)
    tmp = Path(name)
    try:
        _copy(source, tmp)
        try:  # the copy gets the live file's permissions (it holds the same secrets)
            os.chmod(tmp, source.stat().st_mode & 0o777)
        except OSError:
            pass
        os.replace(tmp, dest)
    except BaseException:
        for path in _side_paths(tmp):
            _remove(path)
        raise
    sync_folder(dest.parent)


def _copy(source: Path, tmp: Path) -> None:
    """Back `source` up into the empty file `tmp`, check it, and leave it one whole file."""
    # a plain connection, not a read-only one: a read-only one leaves an idle database's -wal and
    # -shm behind it; this one only reads, and the last to close removes them as the server does
    src = sqlite3.connect(str(source), timeout=BUSY_TIMEOUT_S)
    try:
        dst = sqlite3.connect(str(tmp), isolation_level=None)
        try:
            src.backup(dst)  # every page at once, in one read transaction: a consistent snapshot
            check = dst.execute("PRAGMA integrity_check").fetchall()
            if check != [("ok",)]:
                raise sqlite3.DatabaseError(f"the copy failed its integrity check: {check[0][0]}")
            # the copy keeps the live file's journal mode (WAL); fold what the backup wrote into
            # the file itself, so the copy needs nothing beside it
            dst.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        finally:
            dst.close()
    finally:
        src.close()
    wal = Path(f"{tmp}-wal")
    if wal.exists() and wal.stat().st_size:
        raise sqlite3.DatabaseError("the copy could not be folded into one file")
    for side in _side_paths(tmp)[1:]:
        _remove(side)
    with open(tmp, "rb+") as f:
        os.fsync(f.fileno())


def _remove(path: Path) -> None:
    try:
        path.unlink()
    except OSError:  # gone already, or it cannot go: nothing more to do about it here
        pass
