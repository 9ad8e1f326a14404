"""Gutenberg: the tracker, the final tally and the automa's decks."""

from __future__ import annotations

from ..base import Game
from .functions import FUNCTIONS


class Gutenberg(Game):
    """Gutenberg for 1 to 4 players, optionally with the automa."""

    key = "gutenberg"
    title = "Gutenberg"
    min_players = 1
    max_players = 4
    functions = FUNCTIONS


GAME = Gutenberg()
