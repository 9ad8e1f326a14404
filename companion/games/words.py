"""The words every game says about numbers: ordinals, plurals, and a player's standing at the end.

One place for them, so that the four games' scoreboards and messages read alike;
companion/wording.py gives the same functions to the templates (`|plural`, `|ordinal`).
"""

from __future__ import annotations


def ordinal(n: int) -> str:
    """1 -> "1st", 2 -> "2nd", 11 -> "11th", 23 -> "23rd"."""
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def plural(count: int, word: str, words: str | None = None) -> str:
    """Return "1 coin", "2 coins", "0 coins"; `words` for an irregular plural ("1 penalty")."""
    return f"{count} {word if count == 1 else (words or word + 's')}"


def standing(place: int, winner: bool) -> str:
    """A finished table's scoreboard status: "winner", else the place ("2nd")."""
    return "winner" if winner else ordinal(place)


def signed(count: int, word: str, words: str | None = None) -> str:
    """Return a change with its sign: "+1 point", "-3 points", "+0 points" (a stored line's odd value as it is)."""
    if isinstance(count, bool) or not isinstance(count, int):
        return plural(count, word, words)
    return f"{count:+d} {word if abs(count) == 1 else (words or word + 's')}"
