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
    # BoardGameGeek's page of the game, https://boardgamegeek.com/boardgame/314503/codex-naturalis, as
    # several public projects link it (a course project's README, a list of ranked games; found with the
    # code search). The other three games ship none: no independent source linking theirs was found.
    bgg_id=314503,
)
