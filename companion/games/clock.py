"""The turn clock, in every game: the table event `clock` and `state["clock"]`.

(The lead's placeholder, filled by issue 41's "clock" work.)
"""

from __future__ import annotations

from typing import Any

#: event type -> one-line description with its data shape
EVENTS: dict[str, str] = {}

#: event type -> its history line (base.describe_event's shape)
LINES: dict = {}


def apply(game, state: dict, data: Any, ctx) -> dict:
    """Return the state after a `clock` event (Game.apply hands it on here)."""
    raise NotImplementedError


def settle(state: dict, ctx) -> dict:
    """Return the state a game's event left, its clock stopped when that event ended the game."""
    return state
