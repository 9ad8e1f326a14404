"""The `rematch` event on a finished table: the link to the table its players went on to (issue 41).

A core event like `rename`: `tables.apply_one` hands it here, for every game alike. It is written
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
from .games.validation import RulesError, obj, text

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
