"""Who goes first in Codex Naturalis, and whose turn follows whose (companion/games/seats.py).

[CN36] "The first player is chosen at random; play then goes clockwise." The players may choose or
draw the first player until the end trigger names the last turns from it [CN54]: a table that
reached the end before choosing is asked then (track.py).
"""

from __future__ import annotations

from ..speech import _
from . import track


def ruled(state: dict, options: dict) -> str | None:
    """No rule of Codex fixes the first player: they choose, or draw at random [CN36]."""
    return None


def begun(state: dict) -> str | None:
    """Why it is too late to choose: the game is over, or the last turns are named from the first player."""
    if state["finished"]:
        return _("the game is over; undo the finish to change anything")
    if state["end"] is not None and state["end"]["turns"] is not None:
        # [CN54] the last turns count from the first player
        return _("the last turns are already named from the first player; undo the end trigger to change it")
    return None


def set_first(state: dict, seat: int) -> None:
    """The first player chosen: the last turns, when the end is triggered already, are named from it [CN54]."""
    state["first"] = seat
    track.name_last_turns(state)


def first_of(state: dict) -> int | None:
    """The seat going first, once chosen or drawn."""
    return state["first"]


def to_play(state: dict) -> int | None:
    """Whose turn it is now: the table keeps no turn before the last ones, so the first player's."""
    return first_of(state)


def next_seat(state: dict, seat: int) -> int | None:
    """The seat after `seat`: play goes clockwise, in seat order [CN36]."""
    return (seat + 1) % len(state["scores"])
