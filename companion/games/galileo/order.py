"""Who goes first in Galileo's Truth, and whose turn follows whose (companion/games/seats.py).

[GT103] "Randomly determine the first player. Place the Turn Order Markers on the Current Turn Order
Track from left to right, starting with the first player and proceeding clockwise around the table."
A table lists its players clockwise; until one is chosen, the first listed goes first. The choice is
open until the first turn is played.
"""

from __future__ import annotations

from ..speech import _
from .table import current_player, has_passed


def ruled(state: dict, options: dict) -> str | None:
    """No rule fixes the first player: it is drawn at random [GT103], or the group chooses."""
    return None


def begun(state: dict) -> str | None:
    """Why it is too late to choose: the game is over, or a turn was played on the Turn Order Track."""
    if state["finished"] or state["phase"] == "final":
        return _("the game is over: final scoring")
    if state["cycle"] > 1 or state["round"] > 1 or state["phase"] != "actions" or state["acted"] or state["passing"]:
        # [GT331] the turns follow the order on the Turn Order Track, which starts with the first player
        return _("the first turn is played: the turn order is set; undo back to the start to change the first player")
    return None


def set_first(state: dict, seat: int) -> None:
    """The first player chosen: the turn order markers from them, clockwise [GT103]."""
    n = len(state["players"])
    state["first"] = seat
    state["order"] = [(seat + i) % n for i in range(n)]  # [GT103]


def first_of(state: dict) -> int | None:
    """The seat going first, once chosen or drawn (a table stored before issue 41 has none)."""
    return state.get("first")


def to_play(state: dict) -> int | None:
    """Whose turn it is now: in the Actions phase the first on the Current Turn Order Track not done this
    round [GT369, GT379]; else the first player's."""
    now = current_player(state)
    return now if now is not None else first_of(state)


def next_seat(state: dict, seat: int) -> int | None:
    """The seat after `seat` on the current Turn Order Track, skipping those who passed this cycle
    [GT331, GT369]; after the last in the order, the first again, for the next round [GT379]. None when
    everyone has passed."""
    order = state["order"]
    if seat not in order:
        return None
    i = order.index(seat)
    for other in order[i + 1:] + order[:i]:
        if not has_passed(state, other):  # [GT369] a passer's turn is skipped until the next Cycle
            return other
    return None if has_passed(state, seat) else seat
