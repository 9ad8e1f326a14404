"""Tables: one game being played, its players, and the append-only event log its state is folded from.

Plain Python over a sqlite_utils.Database: the web pages, the JSON API and the tests all
call these functions. Every write runs in one IMMEDIATE transaction, so two writers with
the same expected_version cannot both win, and a failed check writes nothing.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import re
import secrets
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Any

import sqlite_utils

from . import games, table_events
from .games.base import SHEET, Context, Game
from .games.colours import seat_player, with_colours
from .games.speech import _
from .games.validation import RulesError, names as check_names, obj, whole
from .history import describe, event_of as _event, history, recent_history  # noqa: F401 (callers read them here)

#: event types every game accepts, handled here rather than by the game
FRAMEWORK_EVENTS = {
    "rename": '{"player": INDEX, "name": NEW_NAME}: rename a player (index from 0; names stay unique)',
    "undo": '{"seq": SEQ}: recorded by POST .../undo; takes back the latest event still in force',
    "rematch": '{"table": NEW_ID}: recorded by POST .../rematch ("Play again") on a finished table; never undone',
}
SECRET_BYTES = 22  # token_urlsafe(22): 176 bits of randomness, more than the 128 the contract asks
ID_BYTES = 6
#: a write's own id, made by the phone so that a retried write is applied once (CONTRACT.md "write_id")
WRITE_ID = re.compile(r"[A-Za-z0-9_-]{8,64}")


class NotFound(Exception):
    """No such table, or not with this secret: callers must not tell the two apart."""


class Conflict(Exception):
    """expected_version is not the table's current version; nothing was applied."""

    def __init__(self, version: int):
        super().__init__(f"the table is at version {version}")
        self.version = version


@dataclass
class Table:
    """One table as stored: its current names and state are the fold of its events."""

    id: str
    game: str
    first_names: list[str]
    names: list[str]
    options: dict
    profile: dict
    seed: int
    version: int
    state: dict
    created: str
    updated: str
    #: when the event that ended the game was written (ISO 8601 UTC), None while it is not over
    finished_at: str | None = None

    @property
    def finished(self) -> bool:
        """True once the game's state says the game is over (it stays readable as a record)."""
        return bool(self.state.get("finished"))

    @property
    def rules(self) -> Game:
        """Return the game's plug-in."""
        return games.get(self.game)

    def context(self, at: str = "") -> Context:
        """Return what an event written at `at` (ISO 8601 UTC, `now()`) may read besides the state."""
        return Context(names=tuple(self.names), options=self.options, profile=self.profile, seed=self.seed, at=at)

    def public(self) -> dict:
        """Return the contract's GET /api/v1/tables/ID document."""
        return {
            "table": self.id,
            "game": self.game,
            "version": self.version,
            "players": [seat_player(n, self.options, seat) for seat, n in enumerate(self.names)],
            "state": self.state,
        }


def now() -> str:
    """Return the current UTC time in ISO 8601."""
    return datetime.now(timezone.utc).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def _hash(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


def _dump(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def _row_to_table(row: dict) -> Table:
    return Table(
        id=row["id"],
        game=row["game"],
        first_names=json.loads(row["first_names"]),
        names=json.loads(row["names"]),
        options=json.loads(row["options"]),
        profile=json.loads(row["profile"]),
        seed=row["seed"],
        version=row["version"],
        state=json.loads(row["state"]),
        created=row["created"],
        updated=row["updated"],
        finished_at=row.get("finished_at"),
    )


# --- creating and reading ------------------------------------------------------------------


def validate_create(doc: Any, profile_data: "callable") -> tuple[Game, list[str], dict, dict]:
    """Check a create request; return (game, names, options, profile snapshot)."""
    # Every key besides game and players is a setup option: the game's validate_options
    # knows its own and reports the unknown ones.
    obj(doc, "$", required=("game", "players"), optional=doc if isinstance(doc, dict) else ())
    key = doc["game"]
    game = games.get(key) if isinstance(key, str) else None
    if game is None:
        raise RulesError("game", _("must be one of: %(options)s", options=", ".join(games.registry())))
    player_names = check_names(doc["players"], "players", game.min_players, game.max_players)
    raw_options = {k: v for k, v in doc.items() if k not in ("game", "players", "profile", "calculator", "colours")}
    options = game.validate_options(raw_options, len(player_names))
    # Calculator mode is every game's: the table opens at final scoring (CONTRACT.md "tables").
    # It is kept in the options, where initial_state and the views read it, only when true.
    calculator = doc.get("calculator", False)
    if not isinstance(calculator, bool):
        raise RulesError("calculator", _("must be true or false"))
    if calculator:  # (a game that tracks nothing has it already: Game.validate_options)
        options = {**options, "calculator": True}
    profile: dict = {}
    if doc.get("profile") is not None:
        profile = profile_data(game.key, doc["profile"])
    return game, player_names, with_colours(options, doc, player_names, profile), profile  # a colour per seat, every game's


def create(db: sqlite_utils.Database, doc: Any, profile_data, secret: str | None = None) -> tuple[Table, str]:
    """Create a table from the contract's create document; return it and its secret (given: a rematch's)."""
    game, player_names, options, profile = validate_create(doc, profile_data)
    secret = secret or secrets.token_urlsafe(SECRET_BYTES)
    seed = secrets.randbits(62)
    state = game.initial_state(list(player_names), options, profile)
    stamp = now()
    row = {
        "secret_hash": _hash(secret),
        "game": game.key,
        "first_names": _dump(player_names),
        "names": _dump(player_names),
        "options": _dump(options),
        "profile": _dump(profile),
        "seed": seed,
        "version": 0,
        "state": _dump(state),
        "created": stamp,
        "updated": stamp,
    }
    while True:
        row["id"] = secrets.token_urlsafe(ID_BYTES)
        try:
            db.execute(
                "INSERT INTO tables (id, secret_hash, game, first_names, names, options, profile, seed, version, state, created, updated)"
                " VALUES (:id, :secret_hash, :game, :first_names, :names, :options, :profile, :seed, :version, :state, :created, :updated)",
                row,
            )
            break
        except Exception as exc:  # an id collision: draw another
            if "UNIQUE" not in str(exc):
                raise
    return _row_to_table(row), secret


def _select(db: sqlite_utils.Database, table_id: str) -> dict | None:
    cursor = db.execute("SELECT * FROM tables WHERE id = ?", [table_id])
    row = cursor.fetchone()
    return None if row is None else dict(zip([d[0] for d in cursor.description], row))


def load(db: sqlite_utils.Database, table_id: str) -> Table:
    """Return a table by id, or raise NotFound."""
    row = _select(db, table_id)
    if row is None:
        raise NotFound(table_id)
    return _row_to_table(row)


#: what a secret is compared with when there is no such table, so that a missing table costs
#: the same hash and comparison as a wrong secret and the time of the answer tells nothing
_NO_TABLE = _hash(secrets.token_urlsafe(SECRET_BYTES))


def secret_matches(stored_hash: str | None, secret: str) -> bool:
    """True when `secret` is the table's (its stored hash, None for no table); the same work
    whether the table exists or not, and False for a secret no UTF-8 can hold (a lone surrogate)."""
    try:
        given = _hash(secret)
    except UnicodeEncodeError:
        return False
    same = hmac.compare_digest(stored_hash or _NO_TABLE, given)
    return same and stored_hash is not None


def load_many(db: sqlite_utils.Database, table_ids: list[str]) -> list[Table]:
    """Return the tables with these ids, in no particular order; ids of no table are left out."""
    if not table_ids:
        return []
    cursor = db.execute(f"SELECT * FROM tables WHERE id IN ({','.join('?' * len(table_ids))})", list(table_ids))
    columns = [d[0] for d in cursor.description]
    return [_row_to_table(dict(zip(columns, row))) for row in cursor.fetchall()]


def authorize(db: sqlite_utils.Database, table_id: Any, secret: Any) -> Table:
    """Return the table if the secret is its own; otherwise NotFound, whether it exists or not.

    Only the secret's hash is read until the secret is right, so a wrong secret costs what a
    missing table does (the whole row, state and all, takes longer to read).
    """
    if not isinstance(table_id, str) or not isinstance(secret, str) or not secret:
        raise NotFound(table_id)
    row = db.execute("SELECT secret_hash FROM tables WHERE id = ?", [table_id]).fetchone()
    if not secret_matches(row and row[0], secret):
        raise NotFound(table_id)
    return load(db, table_id)


def version_if_authorized(db: sqlite_utils.Database, table_id: str, secret: str | None) -> int:
    """Return the table's version in one query (the live-update fast path), or raise NotFound."""
    if not isinstance(table_id, str) or not isinstance(secret, str) or not secret:
        raise NotFound(table_id)
    row = db.execute("SELECT secret_hash, version FROM tables WHERE id = ?", [table_id]).fetchone()
    if not secret_matches(row and row[0], secret):
        raise NotFound(table_id)
    return row[1]


# --- events ----------------------------------------------------------------------------------


def check_event_document(doc: Any) -> tuple[str, Any, int]:
    """Check the shape of an event request: {"type", "data", "expected_version", "write_id"}."""
    obj(doc, "$", required=("type", "expected_version"), optional=("data", "write_id"))
    if not isinstance(doc["type"], str) or not doc["type"]:
        raise RulesError("type", _("must be a non-empty string"))
    expected = whole(doc["expected_version"], "expected_version", 0)
    return doc["type"], doc.get("data", {}), expected


def apply_one(game: Game, names: list[str], state: dict, type_: str, data: Any, ctx: Context) -> tuple[list[str], dict]:
    """Apply one event, the framework's own or the game's; return (names, state)."""
    if type_ == "undo":
        raise RulesError("type", _("undo is recorded by the undo call, not posted as an event"))
    if type_ in table_events.TYPES:  # rename, rematch
        return table_events.apply(names, state, type_, data, ctx)
    return names, game.apply(state, type_, data, ctx)


def write_id_of(doc: dict) -> str | None:
    """Return the write's own id, None when it has none; RulesError on `write_id` if malformed."""
    if "write_id" not in doc:
        return None
    value = doc["write_id"]
    if not isinstance(value, str) or not WRITE_ID.fullmatch(value):
        raise RulesError("write_id", _("must be 8 to 64 letters, digits, - or _"))
    return value


def _written(db: sqlite_utils.Database, table: Table, write_id: str | None) -> bool:
    """True when the table holds a write with this id: a retry whose first answer was lost."""
    return write_id is not None and db.execute(
        "SELECT 1 FROM events WHERE table_id = ? AND write_id = ?", [table.id, write_id]).fetchone() is not None


def _write(db: sqlite_utils.Database, table: Table, type_: str, data: Any, seat: int | None, names: list[str], state: dict,
           write_id: str | None, stamp: str | None = None) -> Table:
    stored = _state_json(state)
    stamp = stamp or now()
    seq = table.version + 1
    db.execute(
        "INSERT INTO events (table_id, seq, type, data, seat, at, write_id) VALUES (?, ?, ?, ?, ?, ?, ?)",
        [table.id, seq, type_, _dump(data), seat, stamp, write_id],
    )
    # finished_at is the time of the event that ended the game: set when the state turns
    # finished, kept while it stays so (a calculator row corrected), cleared when an undo reopens it
    finished_at = (table.finished_at or stamp) if state.get("finished") else None
    db.execute(
        "UPDATE tables SET names = ?, state = ?, version = ?, updated = ?, finished_at = ? WHERE id = ?",
        [_dump(names), stored, seq, stamp, finished_at, table.id],
    )
    table.finished_at = finished_at
    table.names, table.state, table.version, table.updated = names, state, seq, stamp
    return table


class _Transaction:
    """BEGIN IMMEDIATE ... COMMIT, rolled back on any exception."""

    def __init__(self, db: sqlite_utils.Database):
        self.db = db

    def __enter__(self):
        self.db.execute("BEGIN IMMEDIATE")
        return self.db

    def __exit__(self, exc_type, exc, tb):
        self.db.execute("ROLLBACK" if exc_type else "COMMIT")
        return False


def _load_for_write(db: sqlite_utils.Database, table_id: str, secret: str | None) -> Table:
    """Read the table inside a write's transaction, checking its secret when one is given.

    Callers that authorized already (the JSON API) pass none; the table pages pass the
    cookie's, so a write reads its table once.
    """
    return load(db, table_id) if secret is None else authorize(db, table_id, secret)


def _seat(table: Table, seat: int | None) -> int | None:
    """Return the seat to record: a player's index at this table, or None."""
    return seat if isinstance(seat, int) and 0 <= seat < len(table.names) else None


def append(db: sqlite_utils.Database, table_id: str, doc: Any, seat: int | None = None, secret: str | None = None,
           rows_commute: bool = False) -> Table:
    """Append one event from its request document; raise RulesError, Conflict or NotFound and write nothing.

    `rows_commute` (the pages' forms): a calculator row posted on a version that other players'
    rows have passed since still lands, since rows of different players do not depend on each
    other; so every phone can fill its own row at the same time. Anything else in between is
    a Conflict, as the API always answers (CONTRACT.md).

    A `write_id` the table already holds applies nothing and returns the table as it is, whatever
    expected_version says: the phone is retrying a write whose answer it never got.
    """
    type_, data, expected = check_event_document(doc)
    write_id = write_id_of(doc)
    with _Transaction(db):
        table = _load_for_write(db, table_id, secret)
        if _written(db, table, write_id):
            return table
        seat = _seat(table, seat)
        if expected != table.version and not (rows_commute and _only_other_rows_since(db, table, expected, type_, data)):
            raise Conflict(table.version)
        stamp = now()  # the event's time, which it may read (the turn clock: companion/games/clock.py)
        names, state = apply_one(table.rules, table.names, table.state, type_, data, table.context(stamp))
        return _write(db, table, type_, data, seat, names, state, write_id, stamp)


def _only_other_rows_since(db: sqlite_utils.Database, table: Table, expected: int, type_: str, data: Any) -> bool:
    """True when the event is a row and every event after version `expected` is another player's row."""
    if type_ != SHEET or not isinstance(data, dict) or expected > table.version:
        return False
    player = data.get("player")
    since = db.execute("SELECT type, data FROM events WHERE table_id = ? AND seq > ?", [table.id, expected]).fetchall()
    return all(t == SHEET and json.loads(d).get("player") != player for t, d in since)


def undo(db: sqlite_utils.Database, table_id: str, doc: Any, seat: int | None = None, secret: str | None = None) -> Table:
    """Take back the latest event still in force, recording the undo itself as an event (a retried one, once)."""
    obj(doc, "$", required=("expected_version",), optional=("write_id",))
    expected = whole(doc["expected_version"], "expected_version", 0)
    write_id = write_id_of(doc)
    with _Transaction(db):
        table = _load_for_write(db, table_id, secret)
        if _written(db, table, write_id):
            return table
        seat = _seat(table, seat)
        if expected != table.version:
            raise Conflict(table.version)
        log = events(db, table_id)
        standing = in_force(log)
        if not standing:
            raise RulesError("$", _("there is nothing to undo"))
        table_events.check_undo(standing[-1])
        taken = standing[-1]["seq"]
        remaining = standing[:-1]
        names, state = fold(table, remaining)
        return _write(db, table, "undo", {"seq": taken}, seat, names, state, write_id)


def in_force(log: list[dict]) -> list[dict]:
    """Return the events still in force (not undo events, not taken back), oldest first."""
    undone = {e["data"]["seq"] for e in log if e["type"] == "undo"}
    return [e for e in log if e["type"] != "undo" and e["seq"] not in undone]


def fold(table: Table, log: list[dict]) -> tuple[list[str], dict]:
    """Replay events (already filtered to those in force) from the table's initial state."""
    names = list(table.first_names)
    game = table.rules
    state = game.initial_state(list(names), table.options, table.profile)
    for event in log:
        ctx = Context(names=tuple(names), options=table.options, profile=table.profile, seed=table.seed, replayed=True,
                      at=event["at"])
        names, state = apply_one(game, names, state, event["type"], event["data"], ctx)
    return names, state


def _state_json(state: Any) -> str:
    """Return the state as stored; a state that is not JSON is a game bug, never stored."""
    try:
        return _dump(state)
    except (TypeError, ValueError) as exc:
        raise RuntimeError(f"state is not JSON: {exc}") from exc


def events(db: sqlite_utils.Database, table_id: str) -> list[dict]:
    """Return the table's log, oldest first, in the contract's shape plus the seat."""
    rows = db.execute(
        "SELECT seq, type, data, seat, at FROM events WHERE table_id = ? ORDER BY seq", [table_id]
    ).fetchall()
    return [_event(row) for row in rows]


def can_undo(db: sqlite_utils.Database, table_id: str) -> bool:
    """Return bool(in_force(events(...))) in one query.

    Each undo takes back exactly one event that is not an undo, and nothing is taken back twice,
    so the events in force number the other events minus the undos.
    """
    row = db.execute(
        "SELECT coalesce(sum(type != 'undo'), 0) - coalesce(sum(type = 'undo'), 0) FROM events WHERE table_id = ?", [table_id]
    ).fetchone()
    return row[0] > 0
