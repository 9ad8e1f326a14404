"""The rules interface: every game's JSON functions, called the same from the CLI, HTTP and pages."""

from __future__ import annotations

from typing import Any

from . import games
from .games.base import RulesFunction


class UnknownFunction(LookupError):
    """No such game, or no such function in it."""


def find(game_key: str, name: str) -> RulesFunction:
    """Return the rules function GAME FUNCTION, or raise UnknownFunction saying what exists."""
    game = games.get(game_key)
    if game is None:
        raise UnknownFunction(f"unknown game {game_key!r}; games: {', '.join(games.registry()) or 'none'}")
    fn = game.functions.get(name)
    if fn is None:
        raise UnknownFunction(f"unknown function {name!r} for {game_key}; functions: {', '.join(game.functions) or 'none'}")
    return fn


def call(game_key: str, name: str, doc: Any) -> Any:
    """Run one rules function on a parsed JSON document (RulesError on invalid input)."""
    return find(game_key, name).run(doc)


def listing() -> list[tuple[str, str, str]]:
    """Return (game, function, one-line summary) for every rules function."""
    return [(key, fn.name, fn.summary) for key, game in games.registry().items() for fn in game.functions.values()]
