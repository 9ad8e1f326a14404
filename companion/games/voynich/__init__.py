"""The Voynich Puzzle: knowledge tracks, end scoring and the solo opponent's deck.

The modules (companion/games/base.py): rules.py, functions.py, table.py, view.py, profile.py, order.py (who goes first, whose turn follows),
calculator.py (final scoring and calculator mode), and beside them solo.py (the solo opponent
Voynich's seat, setup and turn on the table).
"""

from __future__ import annotations

from ..base import Game
from . import calculator, functions, order, profile, table, view

GAME = Game(
    key="voynich", title="The Voynich Puzzle",
    min_players=1, max_players=4,  # a one-player table plays against Voynich [V369]
    rule_text="voynich_puzzle.txt", cites="V",  # the rule text its citations are lines of
    functions=functions, table=table, view=view, profile=profile, calculator=calculator, order=order,
    styles=("voynich/voynich.css",),
)
