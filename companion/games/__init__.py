"""The games the app knows: each subpackage here defines GAME (see base.py)."""

from __future__ import annotations

import importlib
import pkgutil
from functools import cache

from .base import Game

#: the order the contract lists them in; a game package not listed here comes after
ORDER = ("voynich", "galileo", "gutenberg", "codex", "pad")


@cache
def registry() -> dict[str, Game]:
    """Return every game package's GAME, keyed by its `key`, in the contract's order."""
    found: dict[str, Game] = {}
    for info in pkgutil.iter_modules(__path__):
        if not info.ispkg:
            continue
        module = importlib.import_module(f"{__name__}.{info.name}")
        game = getattr(module, "GAME", None)
        if isinstance(game, Game):
            found[game.key] = game
    rank = {key: i for i, key in enumerate(ORDER)}
    return dict(sorted(found.items(), key=lambda kv: rank.get(kv[0], len(ORDER))))


def get(key: str) -> Game | None:
    """Return the game with this key, or None."""
    return registry().get(key)
