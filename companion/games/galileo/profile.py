"""Galileo's Truth box profile: the values printed on the board, tiles and cards (RULES.md GAL-B).

It holds any of these sections, each optional (a group may enter them here once, or at a
table as board values): `suspicion_track` (its number of spaces and where the Penance,
Prison and Stake icons sit, GAL-B2), `tiles` (the suspicion tiles' back value and the
VP spaces they sit on, GAL-B3), `cathedral` (the Cathedral's VP by principle and status,
GAL-B1), `penance_cards` (each Penance card's VP loss and coin cost, GAL-B6) and
`prohibition_suspicion` (the suspicion a failed Prohibition costs in Cycles 2, 3 and 5
[GT731]). The checks are functions.board's, shared with the `board` event; the table and the
page read a printed value out of a table's board values with the functions below.
"""

from __future__ import annotations

from typing import Any

from . import functions
from ..speech import later, told


def validate_profile(data: Any) -> dict:
    """Check a Galileo box profile: any of the printed-value sections (RULES.md GAL-B)."""
    return functions.board(data, "$")


def prohibition_penalty(board: dict, cycle: int) -> dict | None:
    """Return the suspicion failing this cycle's Prohibition costs, by principle, where the board values hold it [GT731]."""
    return board.get("prohibition_suspicion", {}).get(str(cycle))


def removal_cost_later(board: dict, level: int) -> dict:
    """What removing a Penance card from the game costs, to be said later (speech.told): its printed
    coins ("2 coins") where entered [GT485]."""
    coins = board.get("penance_cards", {}).get("coins")
    return later.ngettext("%(num)d coin", "%(num)d coins", coins[level - 1]) if coins else later.gettext("its coins")


def removal_cost(board: dict, level: int) -> str:
    """Say what removing a Penance card from the game costs, in the language spoken: "2 coins" [GT485]."""
    return told(removal_cost_later(board, level))
