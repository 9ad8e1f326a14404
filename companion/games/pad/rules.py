"""The score pad's computations, for any game: totals, who wins, places with shared ties.

No rule text stands behind them: the group plays its own game, and tells the pad only what it
needs to rank the players (highest or lowest wins, a tie shared or broken by the group's own rule,
docs/RULES.md "5. Score pad"). So nothing here cites a line. The JSON function (functions.py), the
table (table.py, calculator.py) and the view call these, never a copy.
"""

from __future__ import annotations

from typing import Sequence

from ..validation import places as ranked

#: the bounds of a score, a round's or a total: a whole number, negative allowed
SCORE_MIN, SCORE_MAX = -999_999, 999_999
#: the most rounds a table keeps
ROUNDS_MAX = 99
SCORINGS = ("rounds", "total")
TIES = ("shared", "rule")


def round_key(n: int) -> str:
    """A round's key in a result's breakdown: round 3 is "round_3" (rounds count from 1)."""
    return f"round_{n}"


def round_of(key: str) -> int | None:
    """The round a breakdown key names ("round_3" -> 3), or None for any other key."""
    head, _, number = key.partition("_")
    return int(number) if head == "round" and number.isdigit() and number[0] != "0" else None


def total(rounds: Sequence[int]) -> int:
    """A player's total: the sum of their rounds."""
    return sum(rounds)


def best(totals: Sequence[int], lowest_wins: bool) -> int:
    """The winning total: the lowest where the lowest wins, else the highest."""
    return min(totals) if lowest_wins else max(totals)


def tied_for_win(totals: Sequence[int], lowest_wins: bool) -> list[int]:
    """The seats whose total wins (more than one where they tie)."""
    top = best(totals, lowest_wins)
    return [seat for seat, t in enumerate(totals) if t == top]


def needs_tie_winner(totals: Sequence[int], lowest_wins: bool, ties: str) -> bool:
    """True where players tie for the win and the group's rule, not the pad, says who wins."""
    return ties == "rule" and len(tied_for_win(totals, lowest_wins)) > 1


def places(names: Sequence[str], totals: Sequence[int], lowest_wins: bool,
           tie_winner: str | None = None) -> tuple[list[str], dict[str, int]]:
    """Rank the players: the best total first (lowest or highest); equal totals share a place and
    the next place skips (1, 1, 3). `tie_winner`, one of the tied for the win, is placed first
    alone: the group's rule made them the winner; the others tied with them share the 2nd place."""
    sign = -1 if lowest_wins else 1
    return ranked({name: (sign * t, name == tie_winner) for name, t in zip(names, totals)})
