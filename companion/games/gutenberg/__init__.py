"""Gutenberg: the tracker, the final tally and the automa's decks.

The modules (companion/games/base.py): rules.py, functions.py, table.py, view.py, profile.py, order.py (who goes first, whose turn follows),
calculator.py (final scoring and calculator mode), and beside them automa.py (the automa's
decks, RULES.md D2), facts.py (the rule text's facts from data/) and solo.py (the automa's
events on the table).
"""

from __future__ import annotations

from ..base import Game
from . import calculator, functions, order, profile, table, view

GAME = Game(
    key="gutenberg", title="Gutenberg",
    min_players=1, max_players=4,  # with the automa, 1 to 3 players [GB313]
    rule_text="gutenberg.txt", cites="GB",  # the rule text its citations are lines of
    functions=functions, table=table, view=view, profile=profile, calculator=calculator, order=order,
    scripts=("gutenberg/gutenberg.js",), styles=("gutenberg/gutenberg.css",),
)
