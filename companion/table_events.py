"""The events the app keeps for every game itself, beside the game's own: `rename` and `rematch`.

`tables.apply_one` hands them here (`apply`), for every game alike.

`rename` gives a seat a new name, which follows the rules for names and stays unique at the table.

`rematch`, on a finished table, is the link to the table its players went on to (issue 41). It is written
only by the rematch call (companion/rematch.py, "Play again"), in the transaction that makes the
new table, and folded again on every replay (an undo of a later event, the record's chart). Posted
as an ordinary event it is refused, as `undo` is. It sets `state["rematch"]` to the new table's id;
the new table's secret is never in it.

An undo stops at it (`check_undo`): every phone of the old table was told to join the new one, and
an undo that took the link back would leave them nowhere to go, or let a second "Play again" split
the group onto two new tables. Events after it (a calculator row corrected) can still be undone.
Kept apart from rematch.py, which makes the new table through tables.py: tables.py imports this
module, and nothing here imports tables.py back.
"""

from __future__ import annotations

from typing import Any

from .games.base import Context
from .games.speech import _
from .games.validation import RulesError, name_key, obj, text, twice, whole

RENAME = "rename"
TYPE = "rematch"
#: the state's key holding the new table's id (CONTRACT.md "rematch")
KEY = "rematch"


def linked(state: dict, new_id: str) -> dict:
    """Return the old table's state with the link to its new table."""
    return {**state, KEY: new_id}


def fold(state: dict, data: Any, ctx: Context) -> dict:
    """Fold a stored rematch event again; refuse one posted as an event (nothing is written)."""
    if not ctx.replayed:
        raise RulesError("type", _("rematch is recorded by Play again (POST .../rematch), not posted as an event"))
    obj(data, "data", required=("table",))
    return linked(state, text(data["table"], "data.table"))


def check_undo(event: dict) -> None:
    """Refuse an undo that would take back the rematch (the module's docstring says why)."""
    if event["type"] == TYPE:
        raise RulesError("$", _("this game was played again at a new table: undo cannot take that back"))


def rename(names: list[str], data: Any, ctx: Context) -> list[str]:
    """Return the names after a rename; the new name is unique at the table, and no look-alike of
    another (refused since issue 40: never for a stored event folded again)."""
    obj(data, "data", required=("player", "name"))
    index = whole(data["player"], "data.player", 0, len(names) - 1)
    new = text(data["name"], "data.name")
    others = [n for i, n in enumerate(names) if i != index]
    if any(name_key(n) == name_key(new) for n in others):
        raise RulesError("data.name", _("%(name)s is already a player at this table; names must be unique", name=repr(new)))
    problem = None if ctx.replayed else twice(new, others)
    if problem:
        raise RulesError("data.name", problem)
    names = list(names)
    names[index] = new
    return names


def apply(names: list[str], state: dict, type_: str, data: Any, ctx: Context) -> tuple[list[str], dict]:
    """Apply one of these events; return (names, state)."""
    if type_ == RENAME:
        return rename(names, data, ctx), state
    return names, fold(state, data, ctx)  # the link to the table played next: never posted, folded again


#: the event types handled here
TYPES = (RENAME, TYPE)
