"""Validate JSON documents for the rules functions and the table events.

Every checker takes the value and its path (`players[1].guilders`, `$` for the
document's root) and either returns the clean value or raises RulesError naming
that path, so that the CLI, the HTTP API and the web forms all report the same
field and message (CONTRACT.md, "Errors").
"""

from __future__ import annotations

from typing import Any, Callable, Iterable

NAME_MAX = 40


class RulesError(ValueError):
    """Invalid input: `field` is the path to the offending value, `message` says what is allowed."""

    def __init__(self, field: str, message: str):
        super().__init__(f"{field}: {message}")
        self.field = field
        self.message = message


def at(parent: str, key: str | int) -> str:
    """Return the path of `key` inside `parent` (`players` + 1 -> `players[1]`)."""
    if isinstance(key, int):
        return f"{'' if parent == '$' else parent}[{key}]"
    if key == "":  # an empty key still needs a path that names it, never an empty field
        return f"{parent or '$'}[\"\"]"
    return key if parent in ("$", "") else f"{parent}.{key}"


def obj(value: Any, field: str, required: Iterable[str] = (), optional: Iterable[str] = ()) -> dict:
    """Check an object: every required key present, no key outside required + optional."""
    if not isinstance(value, dict):
        raise RulesError(field, "must be an object")
    required = tuple(required)
    allowed = set(required) | set(optional)
    for key in value:
        if not isinstance(key, str) or key not in allowed:
            raise RulesError(at(field, str(key)), f"unknown key; allowed: {', '.join(sorted(allowed)) or 'none'}")
    for key in required:
        if key not in value:
            raise RulesError(at(field, key), "is required")
    return value


def whole(value: Any, field: str, lo: int | None = None, hi: int | None = None) -> int:
    """Check a whole number (a JSON integer, not a float, string or boolean) within lo..hi."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise RulesError(field, _range_text(lo, hi))
    if (lo is not None and value < lo) or (hi is not None and value > hi):
        raise RulesError(field, _range_text(lo, hi))
    return value


def _range_text(lo: int | None, hi: int | None) -> str:
    if lo is not None and hi is not None:
        return f"must be a whole number from {lo} to {hi}"
    if lo is not None:
        return f"must be a whole number of at least {lo}"
    if hi is not None:
        return f"must be a whole number of at most {hi}"
    return "must be a whole number"


def flag(value: Any, field: str) -> bool:
    """Check a JSON boolean."""
    if not isinstance(value, bool):
        raise RulesError(field, "must be true or false")
    return value


def choice(value: Any, field: str, options: Iterable[str]) -> str:
    """Check that value is one of the given strings."""
    options = list(options)
    if not isinstance(value, str) or value not in options:
        raise RulesError(field, f"must be one of: {', '.join(options)}")
    return value


def text(value: Any, field: str, max_len: int = NAME_MAX) -> str:
    """Check a non-empty string of at most max_len characters, trimmed."""
    if not isinstance(value, str):
        raise RulesError(field, "must be a string")
    value = value.strip()
    if not value:
        raise RulesError(field, "must not be empty")
    if len(value) > max_len:
        raise RulesError(field, f"must be at most {max_len} characters")
    if any(ord(ch) < 32 for ch in value):
        raise RulesError(field, "must not contain control characters")
    return value


def listof(value: Any, field: str, lo: int = 0, hi: int | None = None) -> list:
    """Check a JSON array whose length is within lo..hi."""
    if not isinstance(value, list):
        raise RulesError(field, "must be a list")
    if len(value) < lo or (hi is not None and len(value) > hi):
        if hi is None:
            raise RulesError(field, f"must hold at least {lo} items")
        if lo == hi:
            raise RulesError(field, f"must hold exactly {lo} items")
        raise RulesError(field, f"must hold {lo} to {hi} items")
    return value


def distinct(value: Any, field: str, check: Callable[[Any, str], Any], lo: int = 0, hi: int | None = None,
             twice: str = "{} is listed twice") -> list:
    """Check a list of lo..hi items, each passing `check(item, path)`, none listed twice.

    `twice` is the message for a repeat, with `{}` for the item ("objective {} is listed twice").
    """
    items = listof(value, field, lo, hi)
    seen = set()
    for i, item in enumerate(items):
        check(item, at(field, i))
        if item in seen:
            raise RulesError(at(field, i), twice.format(item))
        seen.add(item)
    return items


def names(value: Any, field: str, lo: int = 1, hi: int = 4) -> list[str]:
    """Check a list of player names: lo..hi names, each non-empty, at most 40 characters, unique."""
    items = listof(value, field, lo, hi)
    clean: list[str] = []
    for i, item in enumerate(items):
        name = text(item, at(field, i))
        if name.casefold() in (n.casefold() for n in clean):
            raise RulesError(at(field, i), f"duplicate name {name!r}; names must be unique")
        clean.append(name)
    return clean


def unique_names(players: list[dict], field: str = "players") -> None:
    """Check that the `name` of each player object is unique within the document."""
    seen: set[str] = set()
    for i, player in enumerate(players):
        key = player["name"].casefold()
        if key in seen:
            raise RulesError(at(at(field, i), "name"), f"duplicate name {player['name']!r}; names must be unique")
        seen.add(key)


def places(totals: dict[str, tuple]) -> tuple[list[str], dict[str, int]]:
    """Rank players by a sort key (higher is better); equal keys share a place and the next place skips.

    `totals` maps each name to a tuple compared as a whole (total first, then tie-breaks),
    e.g. (fame, -types, -inks). Returns (winners, places) in the contract's shape.
    """
    ordered = sorted(totals, key=lambda n: totals[n], reverse=True)
    result: dict[str, int] = {}
    for i, name in enumerate(ordered):
        if i and totals[name] == totals[ordered[i - 1]]:
            result[name] = result[ordered[i - 1]]
        else:
            result[name] = i + 1
    winners = [n for n in ordered if result[n] == 1]
    return winners, result
