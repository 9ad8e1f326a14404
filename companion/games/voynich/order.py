"""Who goes first in The Voynich Puzzle, and whose turn follows whose (companion/games/seats.py).

[V55] "Randomly choose a player to start the game; they receive the first player token." The others
follow in seat order, the order the names were entered; a round starts again with the first player,
and the end's "finish the round" counts from them [V356]. In a solo game the rules decide:
[V377] "You are the first player." The choice is open until the first player's turn is played.
"""

from __future__ import annotations

from ..speech import _
from .rules import STARTING_PHASE


def ruled(state: dict, options: dict) -> str | None:
    """In a solo game, the rule that the human player goes first [V377]; None with 2 players or more."""
    return _("in a solo game you are the first player [V377]") if state["solo"] else None


def begun(state: dict) -> str | None:
    """Why it is too late to choose: the game is over, or a turn was played or a piece moved."""
    if state["finished"] or state["over"]:
        return _("the game is over: see the end scoring")
    moved = any(any(p["markers"].values()) or any(page["phase"] != STARTING_PHASE for page in p["pages"]) or p["research"]
                for p in state["players"])
    if state["round"] > 1 or state["turn"] != (state.get("first") or 0) or moved or state["end"] is not None:
        # [V55] the turns go round from the first player
        return _("the first turn is under way; undo back to the start to change the first player")
    return None


def set_first(state: dict, seat: int) -> None:
    """The first player chosen [V55]: it is their turn, and each round starts with them (table.py)."""
    state["first"] = seat
    state["turn"] = seat


def first_of(state: dict) -> int | None:
    """The seat going first: the human in a solo game [V377], else the one chosen or drawn."""
    return 0 if state["solo"] else state.get("first")


def to_play(state: dict) -> int | None:
    """Whose turn it is now [V55]: the table's `turn`; in a solo game the human, whose phone plays
    Voynich's turns too [V377]."""
    return 0 if state["solo"] else state["turn"]


def next_seat(state: dict, seat: int) -> int | None:
    """The seat whose turn follows `seat`'s: the next in seat order, round after round [V55]; once the end
    is triggered, the next of the last turns [V356] (None after the last). In a solo game the human
    alone is at the table: Voynich's turn is played on the same phone."""
    if state["solo"]:
        return seat
    end = state["end"]
    if end is not None and seat == state["turn"]:
        return end["remaining"][0] if end["remaining"] else None
    return (seat + 1) % len(state["players"])
