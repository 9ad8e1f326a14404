"""Play again: from a finished table, a new table of the same game, in one tap (issue 41).

Plain Python, like companion/tables.py: the table page ("Play again", "Join the new table") and the
JSON API (`POST /api/v1/tables/ID/rematch`) call these functions.

The new table has the same game, the same players (their current names, in the same order, so
that every seat is the same player), a copy of the old table's box profile and its options, but
for a first player chosen at setup: a new game's first player follows the game's rule again (in
Codex, Galileo and Voynich nobody is first until the group draws or chooses one at the start;
Gutenberg's option default, or the automa [GB327]), or the group's choice at the start.

One transaction makes the new table and writes, on the old one, the `rematch` event
`{"table": NEW_ID}` (companion/table_events.py), so `state["rematch"]` names the new table and
every phone's stream on the old table is pushed the new version. A second "Play again" (two phones
tapped at once) makes nothing: the second transaction finds the link and answers the same table.

The new table's secret is derived from the old one's (HMAC-SHA256, keyed by the old secret), so
whoever holds the old table's secret may join the new table, and the server keeps no secret to
hand out: it stores only the new secret's hash, as for every table, and nothing in the old
table's state or HTML.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
from typing import Any

import sqlite_utils

from . import tables
from .games.speech import _
from .games.validation import RulesError, stored_names
from .table_events import KEY, TYPE, linked

#: setup options that name the first player: a new game does not inherit them
DROPPED_OPTIONS = ("first_player",)


def secret_for(old_id: str, old_secret: str) -> str:
    """Return the new table's secret: as long as a table's own (tables.SECRET_BYTES), derived from
    the old table's secret and id, which the server never stores."""
    digest = hmac.new(old_secret.encode(), f"rematch {old_id}".encode(), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest[: tables.SECRET_BYTES]).rstrip(b"=").decode()


def document(old: tables.Table) -> dict:
    """Return the create document (CONTRACT.md "tables") of the old table's new game."""
    # the options hold "calculator" only when true (tables.validate_create), and the colours as a list
    options = {k: v for k, v in old.options.items() if k not in DROPPED_OPTIONS}
    doc: dict[str, Any] = {"game": old.game, "players": list(old.names), **options}
    if old.profile:
        doc["profile"] = "copied"  # the profile read below is the old table's copy, not the stored one
    return doc


def start(db: sqlite_utils.Database, table_id: str, secret: str | None, seat: int | None = None
          ) -> tuple[tables.Table, str, bool]:
    """Play the table again: return (the new table, its secret, True when made now).

    A table already played again answers its new table (False). Raises NotFound for a wrong secret,
    and RulesError (field "$") for a table not finished, making nothing.
    """
    with tables._Transaction(db):
        old = tables.authorize(db, table_id, secret)
        new_secret = secret_for(old.id, secret)
        found = _linked_table(db, old)
        if found is not None:
            return found, new_secret, False
        if not old.finished:
            raise RulesError("$", _("only a finished game can be played again: finish this one first"))
        with stored_names():  # the names were checked when they were stored: a table kept before issue 40 goes on
            new, _secret = tables.create(db, document(old), lambda game, profile: dict(old.profile), secret=new_secret)
        tables._write(db, old, TYPE, {"table": new.id}, tables._seat(old, seat), old.names, linked(old.state, new.id), None)
    return new, new_secret, True


def joinable(db: sqlite_utils.Database, table_id: str, secret: str | None) -> tuple[tables.Table, str]:
    """Return (the new table, its secret) that the old table was played again at.

    Raises NotFound for a wrong secret, RulesError (field "$") when it was not played again.
    """
    old = tables.authorize(db, table_id, secret)
    found = _linked_table(db, old)
    if found is None:
        raise RulesError("$", _("this game has not been played again yet: tap Play again"))
    return found, secret_for(old.id, secret)


def _linked_table(db: sqlite_utils.Database, old: tables.Table) -> tables.Table | None:
    """The table the old one links to, None when it links to none (or to one no longer here)."""
    new_id = old.state.get(KEY)
    if not isinstance(new_id, str):
        return None
    try:
        return tables.load(db, new_id)
    except tables.NotFound:
        return None
