"""Who goes first, in every game: the table events `first_player` and `draw_first_player`.

(The lead's placeholder, filled by issue 41's "first" work: each game says, in its own package,
whether its rules fix the first player, what choosing one changes in its state, and whose turn
follows whose.)
"""

from __future__ import annotations

from typing import Any

#: event type -> one-line description with its data shape
EVENTS: dict[str, str] = {}

#: event type -> its history line (base.describe_event's shape)
LINES: dict = {}


def apply(game, state: dict, type_: str, data: Any, ctx) -> dict:
    """Return the state after a first-player event (Game.apply hands these on here)."""
    return game.modules.table.apply(state, type_, data, ctx)
