"""Who goes first at a score pad table, and whose turn follows whose (companion/games/seats.py).

The pad knows no rule of the game played: the players choose or draw the first player, until the
first score is in. Play goes clockwise, in seat order; the table keeps no turn of its own, so the
turn clock passes from seat to seat in that order.
"""

from __future__ import annotations

from ..speech import _


def ruled(state: dict, options: dict) -> str | None:
    """No rule fixes the first player: the players choose, or draw at random."""
    return None


def begun(state: dict) -> str | None:
    """Why it is too late to choose: the game is over, or a score is in."""
    if state["ended"]:
        return _("the game is over; undo its end to change anything")
    if state["scored"]:
        return _("the scores have begun: undo them to choose again")
    return None


def set_first(state: dict, seat: int) -> None:
    """The first player chosen: the table keeps it, and nothing else follows from it."""
    state["first"] = seat


def first_of(state: dict) -> int | None:
    """The seat going first, once chosen or drawn."""
    return state["first"]


def to_play(state: dict) -> int | None:
    """Whose turn it is now: the table keeps no turn of its own, so the first player's."""
    return first_of(state)


def next_seat(state: dict, seat: int) -> int | None:
    """The seat after `seat`: clockwise, in seat order."""
    return (seat + 1) % len(state["scores"])
