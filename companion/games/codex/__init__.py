"""Codex Naturalis: the score track, the end trigger, manuscripts and the objective counter."""

from __future__ import annotations

from ..base import Game, RulesFunction
from . import api


class Codex(Game):
    """Codex Naturalis at the table (CONTRACT.md "## codex", RULES.md CDX)."""

    key = "codex"
    title = "Codex Naturalis"
    min_players = 2
    max_players = 4
    functions = {
        "score": RulesFunction("score", "final scoring: placement points + objectives, ties by objective points", api.score),
        "manuscript": RulesFunction("manuscript", "replay a play area from the card data, check every placement and score it", api.manuscript),
        "patterns": RulesFunction("patterns", "largest number of card-disjoint occurrences of a pattern objective in a grid of colours", api.patterns),
        "final_turns": RulesFunction("final_turns", "the turns still to play once the end is triggered", api.final_turns),
    }


GAME = Codex()
