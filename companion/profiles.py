"""Box profiles: the values printed only on a group's own copy of a game, entered once.

A profile is a named JSON document per game, checked by the game's validate_profile.
When a table starts with a profile, the table keeps a copy (a snapshot), so editing the
profile later never changes a game in progress.
"""

from __future__ import annotations

import json
from typing import Any

import sqlite_utils

from . import games
from .games import colours
from .games.speech import _
from .games.validation import RulesError, name_key, no_lone_surrogates, obj, text, whole
from .tables import now


class ProfileNotFound(Exception):
    """No profile with this id for this game."""


#: SQLite's ids are signed 64-bit: a larger number names no profile (and SQLite cannot take it)
ID_MAX = 2**63 - 1


def _row(row) -> dict:
    pid, game, name, data, created, updated = row
    return {"id": pid, "game": game, "name": name, "data": json.loads(data), "created": created, "updated": updated}


def list_profiles(db: sqlite_utils.Database, game: str | None = None) -> list[dict]:
    """Return every profile (of one game if given), by game then name."""
    sql = "SELECT id, game, name, data, created, updated FROM profiles"
    args: list = []
    if game:
        sql += " WHERE game = ?"
        args.append(game)
    return [_row(r) for r in db.execute(sql + " ORDER BY game, name COLLATE NOCASE", args).fetchall()]


def get(db: sqlite_utils.Database, profile_id: Any, game: str | None = None) -> dict:
    """Return one profile, or raise ProfileNotFound."""
    if isinstance(profile_id, bool) or not isinstance(profile_id, int) or not 0 < profile_id <= ID_MAX:
        raise ProfileNotFound(profile_id)
    row = db.execute("SELECT id, game, name, data, created, updated FROM profiles WHERE id = ?", [profile_id]).fetchone()
    if row is None or (game and row[1] != game):
        raise ProfileNotFound(profile_id)
    return _row(row)


def check(doc: Any) -> tuple[str, str, dict]:
    """Check a profile document {"game", "name", "data"}; return its clean parts."""
    no_lone_surrogates(doc)  # a form's :json field or an imported file may hold one; no page can show it
    obj(doc, "$", required=("game", "name", "data"))
    game = games.get(doc["game"]) if isinstance(doc["game"], str) else None
    if game is None:
        raise RulesError("game", _("must be one of: %(options)s", options=", ".join(games.registry())))
    name = text(doc["name"], "name")
    try:
        # the colours the pieces come in are every game's (games/colours.py): checked here, the rest by the game
        data, pieces = doc["data"], []
        if isinstance(data, dict) and "colours" in data:
            pieces = colours.profile_colours(data["colours"])
            data = {k: v for k, v in data.items() if k != "colours"}
        bgg = None  # the group's BoardGameGeek id, every game's too (bgg_id below)
        if isinstance(data, dict) and "bgg_id" in data:
            bgg = bgg_id(data["bgg_id"])
            data = {k: v for k, v in data.items() if k != "bgg_id"}
        data = game.validate_profile(data)
    except RulesError as err:
        raise err.moved("data" if err.field == "$" else f"data.{err.field}") from None
    if pieces:
        data = {**data, "colours": pieces}
    return game.key, name, {**data, "bgg_id": bgg} if bgg is not None else data


#: BoardGameGeek's ids are positive; a larger one than this is no id of theirs (and no JSON reader's worry)
BGG_ID_MAX = 2**31 - 1


def bgg_id(value: Any, field: str = "bgg_id") -> int:
    """Check a box profile's `bgg_id`: the game's BoardGameGeek id, for a game whose id the app does not
    ship or a group's own edition; BG Stats' push document and the .bgsplay file carry it
    (results.play), before the game's own."""
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= BGG_ID_MAX:
        # Translators: a box profile's BoardGameGeek id refused; 314503 is Codex Naturalis's
        raise RulesError(field, _("must be a BoardGameGeek id: the whole number in the game's address on "
                                  "boardgamegeek.com, like 314503"))
    return value


def save(db: sqlite_utils.Database, doc: Any, profile_id: int | None = None) -> dict:
    """Create (or, with an id, replace) a profile; raise RulesError and write nothing if invalid."""
    game, name, data = check(doc)
    stamp = now()
    db.execute("BEGIN IMMEDIATE")
    try:
        # compared as player names are (NFKC, case-folded): SQLite's NOCASE folds ASCII letters only
        others = db.execute("SELECT name FROM profiles WHERE game = ? AND id IS NOT ?", [game, profile_id]).fetchall()
        clash = next((other for (other,) in others if name_key(other) == name_key(name)), None)
        if clash is not None:
            title = games.get(game).title_of()
            raise RulesError("name", _("a %(game)s profile called %(name)s exists already", game=title, name=repr(name))
                             if clash == name else _("a %(game)s profile called %(name)s, which looks the same, exists already",
                                                     game=title, name=repr(clash)))
        if profile_id is None:
            cursor = db.execute(
                "INSERT INTO profiles (game, name, data, created, updated) VALUES (?, ?, ?, ?, ?)",
                [game, name, json.dumps(data), stamp, stamp],
            )
            profile_id = cursor.lastrowid
        else:
            get(db, profile_id, game)
            db.execute("UPDATE profiles SET name = ?, data = ?, updated = ? WHERE id = ?", [name, json.dumps(data), stamp, profile_id])
        db.execute("COMMIT")
    except BaseException:
        db.execute("ROLLBACK")
        raise
    return get(db, profile_id)


def delete(db: sqlite_utils.Database, profile_id: int) -> None:
    """Delete a profile; tables started with it keep their copy."""
    db.execute("DELETE FROM profiles WHERE id = ?", [profile_id])


def export(profile: dict) -> dict:
    """Return the JSON file a group keeps or shares: the document save() takes back."""
    return {"game": profile["game"], "name": profile["name"], "data": profile["data"]}


def snapshot_for_table(db: sqlite_utils.Database):
    """Return the lookup tables.create uses to copy a profile's data into a new table."""

    def lookup(game: str, profile_id: Any) -> dict:
        whole(profile_id, "profile", 1)
        try:
            return get(db, profile_id, game)["data"]
        except ProfileNotFound:
            raise RulesError("profile", _("no %(game)s box profile with id %(id)s", game=games.get(game).title_of(),
                                          id=profile_id)) from None

    return lookup
