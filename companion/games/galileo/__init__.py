"""Galileo's Truth: the suspicion track, the Inquisition, cycles and the Cathedral.

The modules (companion/games/base.py): rules.py, functions.py (the rules functions, and the
checks of their documents, the box profile and the board values that the table shares),
table.py, calculator.py (calculator mode and its rows' checks, final scoring, and the history's
lines), view.py, profile.py, order.py (who goes first, whose turn follows).
"""

from __future__ import annotations

from ..base import Game
from . import calculator, functions, order, profile, table, view

# The rulebook's header says "Darwin's Journey" (RULES.md GAL-C1).
GAME = Game(
    key="galileo", title="Galileo's Truth",
    min_players=2, max_players=4,  # the rulebook only covers 2-, 3- and 4-player games (tiles [GT206-208])
    rule_text="galileos_truth.txt", cites="GT",  # the rule text its citations are lines of
    functions=functions, table=table, view=view, profile=profile, calculator=calculator, order=order,
    styles=("galileo/galileo.css",),
)
