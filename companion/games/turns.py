"""Turn-order rules that more than one game shares."""

from __future__ import annotations

from typing import Sequence, TypeVar

T = TypeVar("T")


def last_turns(order: Sequence[T], trigger: int) -> list[T]:
    """Return the turns still to play once the turn of order[trigger] triggered the end.

    Codex Naturalis [CN54] and The Voynich Puzzle [V356] word it alike: the current round is
    finished (the players after the trigger), then every player takes one more turn.
    """
    return list(order[trigger + 1:]) + list(order)


def clockwise(first: int, count: int) -> list[int]:
    """Return the seats 0 to count - 1 in turn order from `first`, clockwise: the order the names were entered."""
    return [(first + i) % count for i in range(count)]
