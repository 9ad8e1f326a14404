"""The Voynich Puzzle's table: events, state and views, on top of rules.py."""

from __future__ import annotations

from ..base import Game, RulesFunction
from . import rules


class VoynichGame(Game):
    key = "voynich"
    title = "The Voynich Puzzle"
    min_players = 1
    max_players = 4
    functions = {
        f.name: f
        for f in (
            RulesFunction("score", "final scoring, solo included: research halved, pages, tie-break [V354-367, V492-497]", rules.score),
            RulesFunction("priority_scan", "the order Voynich checks numbered spaces from a priority number [V430-432]", rules.priority_scan),
            RulesFunction("solo_turns", "run Voynich's deck for a number of turns: skip, reshuffle, odd/even page [V371-395]", rules.solo_turns),
            RulesFunction("final_turns", "the turns still to play once a GK marker reaches 52 [V356]", rules.final_turns),
        )
    }


GAME = VoynichGame()
