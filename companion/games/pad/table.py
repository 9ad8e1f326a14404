"""A score pad table, for any game: its setup options, its state and its events.

State (JSON, players by seat index, seats in clockwise order as entered):

    {"scores": [[score per round] per seat],   (a tracked table: round 1 first; a table of one total
                                                keeps one column; a calculator table keeps none)
     "totals": [total or null per seat],        (a calculator table only: calculator.py)
     "first": null | SEAT, "draws": N,          (who goes first and the draws so far: order.py, games/seats.py)
     "scored": false,                           (true once any score is in: too late to choose who goes first)
     "ended": false,                            ("End the game" tapped: no score changes after it)
     "tie_winner": null | SEAT,                 (the tied player the group's rule made the winner)
     "tied": null | [SEAT, ...],                (the seats tied when that winner was chosen)
     "finished": false,
     "notice": null | {"player", "text"}, "notice_later": ...}   (what the last event said, base.keep_notice)

The pad computes no rule of the game played: it adds the scores the players give and ranks them
(rules.py). Where players tie for the win and the group breaks ties by its own rule, the game ends
only once they choose the winner among the tied (`tie_winner`): the pad was only told the rule's name.
"""

from __future__ import annotations

from typing import Any

from ..base import Context, EventLines, clone, describe_event, is_calculator, keep_notice
from ..speech import gettext as _, later
from ..validation import RulesError, choice, flag, obj, text, whole
from . import calculator, functions, rules

#: the longest title a group types for its game
TITLE_MAX = 60
#: BoardGameGeek's ids as a player types one: a whole number (the largest today is under a million)
BGG_ID_MAX = 9_999_999

EVENTS = {
    "score": '{"player": SEAT, "round": N, "delta": N}: add to a player\'s score of round N (1 = the first; '
             'a table of one total has round 1 alone); not 0, the score stays from -999999 to 999999',
    "set_score": '{"player": SEAT, "round": N, "value": N}: type a player\'s score of round N, -999999 to 999999',
    "new_round": "{}: a new round, its scores 0 (a table scored by rounds; at most 99 rounds)",
    "end": "{}: the game is over; where players tie for the win and the table's ties follow the group's rule, "
           "it waits for tie_winner (undo takes it back)",
    "tie_winner": '{"player": SEAT}: the tied player the group\'s rule makes the winner (only a tied one, only then)',
    calculator.SHEET: calculator.EVENT,
}

OPTIONS = {
    "title": "the game's name as the players type it, 1 to 60 characters (required)",
    "bgg_id": "optional: the game's BoardGameGeek id, a whole number from 1 to 9999999 (for BG Stats)",
    "scoring": '"rounds" (default: a score per round) or "total" (one score per player)',
    "lowest_wins": "false (default: the highest total wins) or true",
    "ties": '"shared" (default: players tied for the win share the victory) or "rule" (the group\'s own rule '
            "breaks it: the players choose the winner among the tied)",
    "tie_rule": 'with ties "rule": the rule the group names ("most cards left"), 1 to 120 characters (required then)',
}


# --- setup ------------------------------------------------------------------------------------

def validate_options(options: Any, player_count: int) -> dict:
    """Check the setup options: the title, an optional BoardGameGeek id, the scoring, who wins, ties."""
    obj(options, "$", required=("title",), optional=("bgg_id", "scoring", "lowest_wins", "ties", "tie_rule"))
    clean: dict = {"title": text(options["title"], "title", TITLE_MAX)}
    if options.get("bgg_id") is not None:
        clean["bgg_id"] = whole(options["bgg_id"], "bgg_id", 1, BGG_ID_MAX)
    clean["scoring"] = choice(options.get("scoring", "rounds"), "scoring", rules.SCORINGS)
    clean["lowest_wins"] = flag(options.get("lowest_wins", False), "lowest_wins")
    clean["ties"] = choice(options.get("ties", "shared"), "ties", rules.TIES)
    rule = options.get("tie_rule")
    blank = rule is None or (isinstance(rule, str) and not rule.strip())  # the form posts its empty field
    if clean["ties"] == "rule":
        if blank:
            raise RulesError("tie_rule", _("is required"))
        clean["tie_rule"] = functions.tie_rule(rule, "tie_rule")
    elif not blank:
        raise RulesError("tie_rule", _("only where ties are broken by your rule: choose that, or leave the rule empty"))
    return clean


def initial_state(names: list[str], options: dict, profile: dict) -> dict:
    """Return a new table's state (the pad has no box profile: `profile` is always {})."""
    n = len(names)
    calc = is_calculator(options)
    return {
        "scores": [[] if calc else [0] for _ in range(n)],
        **({"totals": [None] * n} if calc else {}),
        "first": None, "draws": 0, "scored": False, "ended": False,
        "tie_winner": None, "tied": None, "finished": False, "notice": None,
    }


# --- events -----------------------------------------------------------------------------------

def apply(state: dict, type_: str, data: Any, ctx: Context) -> dict:
    """Return the state after one event; raise RulesError (nothing changes) if it is invalid."""
    state = clone(state)
    state["notice"] = None  # the last event's words, said beside its player (base.keep_notice)
    state.pop("notice_later", None)
    HANDLERS[type_](state, {} if data is None else data, ctx)
    return state


def _open(state: dict) -> None:
    if state["ended"]:
        raise RulesError("type", _("the game is over; undo its end to change the scores"))


def _cell(state: dict, data: dict, ctx: Context, field: str) -> tuple[int, int]:
    """Check a score event's data: the player and the round (an index into the seat's rounds)."""
    obj(data, "data", required=("player", "round", field))
    _open(state)
    seat = whole(data["player"], "data.player", 0, len(ctx.names) - 1)
    n = whole(data["round"], "data.round", 1, len(state["scores"][seat]))
    state["scored"] = True
    return seat, n - 1


def _on_score(state, data, ctx):
    seat, i = _cell(state, data, ctx, "delta")
    delta = whole(data["delta"], "data.delta", rules.SCORE_MIN, rules.SCORE_MAX)
    if delta == 0:
        raise RulesError("data.delta", _("must not be 0"))
    now = state["scores"][seat][i]
    if not rules.SCORE_MIN <= now + delta <= rules.SCORE_MAX:
        raise RulesError("data.delta", _("a score stays from %(lo)s to %(hi)s (it is %(now)s)",
                                         lo=rules.SCORE_MIN, hi=rules.SCORE_MAX, now=now))
    state["scores"][seat][i] = now + delta


def _on_set_score(state, data, ctx):
    seat, i = _cell(state, data, ctx, "value")
    state["scores"][seat][i] = functions.score_value(data["value"], "data.value")


def _on_new_round(state, data, ctx):
    obj(data, "data")
    _open(state)
    if ctx.options.get("scoring") == "total":
        raise RulesError("type", _("this table keeps one total per player: it has no rounds"))
    if len(state["scores"][0]) >= rules.ROUNDS_MAX:
        raise RulesError("type", _("a table keeps at most %(max)s rounds", max=rules.ROUNDS_MAX))
    for row in state["scores"]:
        row.append(0)
    state["scored"] = True


def _on_end(state, data, ctx):
    obj(data, "data")
    if state["ended"]:
        raise RulesError("type", _("the game is already over"))
    state["ended"] = True
    tied = calculator.tied(state, ctx.options)
    state["finished"] = not tied
    if tied:
        keep_notice(state, None, later.gettext("%(names)s tie for the win: your rule (%(rule)s) chooses the winner",
                                               names=", ".join(ctx.names[s] for s in tied), rule=ctx.options["tie_rule"]))


#: event type -> its handler, written out
HANDLERS = {
    "score": _on_score,
    "set_score": _on_set_score,
    "new_round": _on_new_round,
    "end": _on_end,
    "tie_winner": calculator.ev_tie_winner,
    calculator.SHEET: calculator.ev_sheet,
}


# --- history --------------------------------------------------------------------------------------

#: what each event did, in plain words, said in the language spoken
LINES: EventLines = {
    "score": lambda data, who: _("%(who)s: %(delta)s in round %(round)s", who=who,
                                 delta=format(data["delta"], "+d") if isinstance(data.get("delta"), int) else data.get("delta"),
                                 round=data.get("round")),
    "set_score": lambda data, who: _("%(who)s: %(value)s in round %(round)s", who=who, value=data.get("value"), round=data.get("round")),
    "new_round": lambda data, who: _("A new round"),
    "end": lambda data, who: _("The game is over"),
    "tie_winner": lambda data, who: _("%(who)s wins the tie by your rule", who=who),
    calculator.SHEET: calculator.sheet_line,
}


def describe(type_: str, data: Any, names: list[str]) -> str:
    """Say what an event did in plain words, for the history panel."""
    return describe_event(LINES, type_, data, names)
