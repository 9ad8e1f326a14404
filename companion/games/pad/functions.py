"""The score pad's JSON rules function (CONTRACT.md "## pad"): check the document, call rules.py.

`score` ranks the players of any game from their rounds or their totals. It raises RulesError
naming the offending field (unknown keys included), so that nothing is stored. The checkers of a
score and of a tie rule live here; table.py and calculator.py check their events with them.
"""

from __future__ import annotations

from typing import Any

from ..base import RulesFunction
from ..speech import gettext as _
from ..validation import RulesError, at, choice, flag, listof, obj, text, unique_names, whole
from . import rules

#: the most players a pad takes (Game's max_players), and the longest tie rule a group may name
PLAYERS_MAX = 12
RULE_MAX = 120


def score_value(value: Any, field: str) -> int:
    """Check one score, a round's or a total: a whole number, negative allowed, bounded."""
    return whole(value, field, rules.SCORE_MIN, rules.SCORE_MAX)


def tie_rule(value: Any, field: str) -> str:
    """Check the rule a group names to break a tie ("most cards left"): a short text the phones show."""
    return text(value, field, RULE_MAX)


def _player(p: Any, path: str) -> dict:
    """Check one player: a name and either their rounds or their total; return name, total, breakdown."""
    obj(p, path, required=("name",), optional=("rounds", "total"))
    name = text(p["name"], at(path, "name"))
    if ("rounds" in p) == ("total" in p):
        raise RulesError(path, _("give either rounds (a score per round) or total (one score), not both"))
    if "total" in p:
        value = score_value(p["total"], at(path, "total"))
        # a single total is one part: a breakdown's parts always add up to the total (CONTRACT.md)
        return {"name": name, "total": value, "breakdown": {"score": value}}
    items = listof(p["rounds"], at(path, "rounds"), 1, rules.ROUNDS_MAX)
    scores = [score_value(v, at(at(path, "rounds"), i)) for i, v in enumerate(items)]
    return {"name": name, "total": rules.total(scores),
            "breakdown": {rules.round_key(n): v for n, v in enumerate(scores, 1)}}


def score(doc: Any) -> dict:
    """Rank the players of any game: totals, the winners (highest or lowest), places, a tie's rule."""
    obj(doc, "$", required=("players",), optional=("lowest_wins", "ties", "tie_rule", "tie_winner"))
    players = [_player(p, at("players", i)) for i, p in enumerate(listof(doc["players"], "players", 1, PLAYERS_MAX))]
    unique_names(players)
    lowest = flag(doc.get("lowest_wins", False), "lowest_wins")
    ties = choice(doc.get("ties", "shared"), "ties", rules.TIES)
    rule = None
    if ties == "rule":
        if "tie_rule" not in doc:
            raise RulesError("tie_rule", _("is required where ties are broken by your rule: name the rule"))
        rule = tie_rule(doc["tie_rule"], "tie_rule")
    elif "tie_rule" in doc:
        raise RulesError("tie_rule", _("only where ties are broken by your rule (ties: \"rule\")"))
    names = [p["name"] for p in players]
    totals = [p["total"] for p in players]
    tied = [names[s] for s in rules.tied_for_win(totals, lowest)]
    winner = None
    if rules.needs_tie_winner(totals, lowest, ties):
        if "tie_winner" not in doc:
            raise RulesError("tie_winner", _("is required: %(names)s tie for the win; name the one your rule makes the winner",
                                             names=", ".join(tied)))
        winner = choice(doc["tie_winner"], "tie_winner", tied)
    elif "tie_winner" in doc:
        raise RulesError("tie_winner", _("only where players tie for the win and your rule breaks the tie"))
    winners, ranks = rules.places(names, totals, lowest, winner)
    out: dict = {"players": players, "winners": winners, "places": ranks, "lowest_wins": lowest}
    if winner is not None:
        out["tie_rule"] = rule  # the rule that made the winner: the verdict says it
    return out


FUNCTIONS = {
    "score": RulesFunction("score", "any game's score pad: totals from rounds or one total each, highest or lowest wins, "
                                    "ties shared or broken by the group's own rule", score),
}
