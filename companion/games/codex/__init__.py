"""Codex Naturalis: the score track, the end trigger, manuscripts and the objective counter.

The modules (companion/games/base.py): rules.py, functions.py, table.py, view.py, profile.py, order.py (who goes first, whose turn follows),
calculator.py (final scoring and calculator mode), and beside them cards.py (the card data),
packing.py (counting pattern objectives) and track.py (the score track and the end it triggers).
"""

from __future__ import annotations

from ..base import Game
from . import calculator, functions, order, profile, table, view

GAME = Game(
    key="codex", title="Codex Naturalis",
    min_players=2, max_players=4,  # [CN header] 2-4 players
    rule_text="codex_naturalis.txt", cites="CN",  # the rule text its citations are lines of
    functions=functions, table=table, view=view, profile=profile, calculator=calculator, order=order,
    scripts=("codex/codex.js",), styles=("codex/codex.css",),
)
