"""Who goes first in Gutenberg, and whose turn follows whose (companion/games/seats.py).

[GB72] The first player receives the first player token; "Players will then take turns in clockwise
order." The token holder of round 1 decides who holds 7, 8, 9 or 10 initiative markers [GB77], so the
choice is open until the first round's markers are revealed. With the automa, the rules decide:
[GB327] "The automa takes the first player token."

`state["first"]` is a place in `state["seats"]` (the clockwise order, the automa's place included);
the events name a player, an index of the table's names.
"""

from __future__ import annotations

from ..speech import _
from .table import AUTOMA


def ruled(state: dict, options: dict) -> str | None:
    """With the automa, the rule that it takes the first player token [GB327]; None without it."""
    if state.get("automa") is not None or options.get("automa"):
        return _("with the automa, the automa takes the first player token [GB327]")
    return None


def begun(state: dict) -> str | None:
    """Why it is too late to choose: the game is over, or round 1's initiative markers are revealed."""
    if state["finished"]:
        return _("the game is over; only counts can still be corrected")
    if state["round"] > 1 or any(p["markers"] is not None for p in state["players"]):
        # [GB77] the markers each player holds count from the first player
        return _("the first round's markers are revealed, and how many each player holds counts from the "
                 "first player; undo them to change the first player")
    return None


def set_first(state: dict, seat: int) -> None:
    """The player `seat` takes the first player token [GB72]: the initiative markers count from them
    (7, 8, 9, 10 [GB77]: table.holding reads `first`); `start` keeps who took round 1's first turn."""
    state["first"] = state["seats"].index(seat)
    state["start"] = seat


def first_of(state: dict) -> int | None:
    """The player holding the first player token; None when the automa holds it [GB327]."""
    who = state["seats"][state["first"]]
    return None if who == AUTOMA else who


def to_play(state: dict) -> int | None:
    """Whose turn it is now: the first player token's holder, who begins each step of a round [GB72]."""
    return first_of(state)


def next_seat(state: dict, seat: int) -> int | None:
    """The player after `seat`, clockwise [GB72], the automa passed over: it is no player at the table."""
    seats = state["seats"]
    if seat not in seats:
        return None
    i = seats.index(seat)
    return next((who for who in seats[i + 1:] + seats[:i] if who != AUTOMA), seat)
