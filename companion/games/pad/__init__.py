"""The score pad: any other game on the table, its rounds, its totals, its winner.

The modules (companion/games/base.py): rules.py, functions.py, table.py, view.py, profile.py,
order.py (who goes first, whose turn follows), calculator.py (final scoring and calculator mode).
No rule text stands behind it: the group plays its own game and names what the pad needs to
rank the players (docs/pad.md, docs/RULES.md "5. Score pad").
"""

from __future__ import annotations

from ..base import Game
from ..speech import N_
from . import calculator, functions, order, profile, table, view

GAME = Game(
    key="pad", title=N_("Another game"),
    min_players=1, max_players=12,  # a solo score, up to a big table's twelve (one colour each)
    rule_text=None, cites=None,  # no rule text: the group's own game
    functions=functions, table=table, view=view, profile=profile, calculator=calculator, order=order,
    styles=("pad/pad.css",),
)
