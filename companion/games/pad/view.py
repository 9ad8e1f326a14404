"""What templates/pad/panel.html shows: the score table, its rounds, the end and the result.

`view` computes it with rules.py and calculator.py; `counter` is a round's stepper's number;
`running_score`, `start_player` and `verdict` are what the archive and the result endpoint read
besides the result (Game's results); `screen_of` names the screen asked: `round-N` opens round N
for correction. `table_title` and `table_bgg_id` are the optional hooks that name a table's game
as the players typed it (companion/games/base.py, OPTIONAL).
"""

from __future__ import annotations

import json
from contextlib import suppress

from .. import sentence
from ..base import is_calculator, shown_notice
from ..sentence import Sentence
from ..speech import N_, gettext as _, listed, ngettext
from ..words import standing
from . import calculator, rules
from .functions import RULE_MAX
from .table import BGG_ID_MAX, TITLE_MAX

#: what the running score is, for the archive's chart (Game.running_label)
RUNNING_LABEL = N_("total so far")

#: how a page names a refused field (companion/wording.py, which says it in the language spoken)
LABELS = {
    "title": N_("the game's name"), "bgg_id": N_("the BoardGameGeek id"), "scoring": N_("how you keep the scores"),
    "lowest_wins": N_("who wins"), "ties": N_("a tie for the win"), "tie_rule": N_("the rule that breaks a tie"),
    "player": N_("the player"), "round": N_("the round"), "score.delta": N_("{who}'s change"),
    "set_score.value": N_("{who}'s score"), "sheet.total": N_("{who}'s total"), "total": N_("{who}'s total"),
    "tie_winner.player": N_("the winner by your rule"),
}


def table_title(options: dict) -> str | None:
    """The title the players typed for their game (Game.title_of), or None."""
    return options.get("title")


def table_bgg_id(options: dict) -> int | None:
    """The BoardGameGeek id the players gave for their game (Game.bgg_id_of), or None."""
    return options.get("bgg_id")


def running_score(state: dict, options: dict) -> list[int] | None:
    """Each seat's total so far (Game.running_score); None on a calculator table, which ran nothing."""
    return None if is_calculator(options) else calculator.totals(state, options)


def start_player(state: dict, options: dict) -> int | None:
    """The seat that played first, once chosen or drawn (Game.start_player); None on a calculator table."""
    return None if is_calculator(options) else state["first"]


def screen_of(screen: str | None, n: int) -> str | None:
    """`round-N` (N from 1 to 99) opens round N for correction; anything else is the main screen (None)."""
    head, _, number = (screen or "").partition("-")
    with suppress(ValueError):
        if head == "round" and number.isdigit() and 1 <= int(number) <= rules.ROUNDS_MAX:
            return f"round-{int(number)}"
    return None


def both(names: list[str]) -> str:
    """Say names together: "Ann and Ben", "Ann, Ben, and Cy" (in the language spoken, speech.listed)."""
    return listed(names)


def verdict(result: dict) -> Sentence:
    """Who won, from the `score` result alone: shared, by the group's rule, the lowest total, or a solo score."""
    by_name = {r["name"]: r for r in result["players"]}
    winners = result["winners"]
    top = by_name[winners[0]]["total"]
    name = sentence.name(winners[0])
    if len(result["players"]) == 1:
        return Sentence(ngettext("%(name)s scores %(num)d point", "%(name)s scores %(num)d points", top, name=name))
    if len(winners) > 1:
        return Sentence(ngettext("Shared victory: %(names)s, %(num)d point each", "Shared victory: %(names)s, %(num)d points each",
                                 top, names=both(sentence.names(winners))))
    if result.get("tie_rule"):
        return Sentence(_("%(name)s wins the tie on %(total)s by your rule: %(rule)s", name=name, total=top, rule=result["tie_rule"]))
    if result.get("lowest_wins"):
        return Sentence(ngettext("%(name)s wins with the lowest total, %(num)d point",
                                 "%(name)s wins with the lowest total, %(num)d points", top, name=name))
    return Sentence(ngettext("%(name)s wins with %(num)d point", "%(name)s wins with %(num)d points", top, name=name))


def counter(state: dict, type_: str, data: dict) -> int | None:
    """The score a round's stepper shows (Game.counter): the seat's score of that round."""
    seat, n = data.get("player"), data.get("round")
    if type_ != "score" or not isinstance(seat, int) or not isinstance(n, int) or isinstance(seat, bool) or isinstance(n, bool):
        return None
    rows = state.get("scores", [])
    if not 0 <= seat < len(rows) or not 1 <= n <= len(rows[seat]):
        return None
    return rows[seat][n - 1]


#: the setup form's choices (templates/pad/setup.html), the default first: option -> (value, its words)
CHOICES = {
    "scoring": (("rounds", N_("Round by round")), ("total", N_("One total each"))),
    "lowest_wins": ((False, N_("The highest total")), (True, N_("The lowest total"))),
    "ties": (("shared", N_("Shared")), ("rule", N_("Broken by our rule"))),
}


def form(name: str, data: object = None) -> dict:
    """What the setup form shows (Game.form): the lengths its text fields take, and each choice with its
    words, checked as `data` (the options of a refused form) holds it, else the default."""
    held = data if isinstance(data, dict) else {}
    choices = {}
    for option, pairs in CHOICES.items():
        values = [value for value, _words in pairs]
        chosen = held.get(option) if held.get(option) in values else values[0]
        choices[option] = [{"value": json.dumps(value) if isinstance(value, bool) else value, "words": _(words),
                            "checked": value == chosen} for value, words in pairs]
    return {"setup": {"title_max": TITLE_MAX, "rule_max": RULE_MAX, "bgg_max": BGG_ID_MAX, **choices}}[name]


# --- a table's page ---------------------------------------------------------------------------------

def result_parts(state: dict, names: list[str], options: dict) -> dict:
    """The finished result as the end screen shows it: the ranking, each place, who wins and how."""
    result = calculator.final_result(state, names, options, {})
    if result is None:
        return {"result": None}
    ranking = [{"name": r["name"], "seat": s, "total": r["total"], "place": result["places"][r["name"]],
                "winner": r["name"] in result["winners"]} for s, r in enumerate(result["players"])]
    ranking.sort(key=lambda r: r["place"])
    return {"result": result, "ranking": ranking, "decided": verdict(result)}


def tie_question(state: dict, names: list[str], options: dict) -> dict | None:
    """The question the players answer where they tie for the win and their rule chooses: who wins?"""
    ready = all(t is not None for t in calculator.totals(state, options)) if is_calculator(options) else state["ended"]
    if state["finished"] or not ready:
        return None
    seats = calculator.tied(state, options)
    if not seats:
        return None
    total = calculator.totals(state, options)[seats[0]]
    return {"seats": [{"seat": s, "name": names[s]} for s in seats], "total": total, "rule": options.get("tie_rule"),
            "said": Sentence(_("%(names)s tie for the win on %(total)s. Who wins by your rule: %(rule)s?",
                               names=both(sentence.names([names[s] for s in seats])), total=total, rule=options.get("tie_rule")))}


def scoreboard(state: dict, names: list[str], options: dict, result: dict | None) -> list[dict]:
    """The compact scoreboard: each total, and each place once the game is over."""
    totals = calculator.totals(state, options)
    rows = []
    for s, name in enumerate(names):
        status = None
        if result is not None:
            status = standing(result["places"][name], name in result["winners"])
        elif totals[s] is None:
            status = _("waiting")
        rows.append({"seat": s, "name": name, "score": totals[s], "status": status, "turn": False})
    return rows


def view(state: dict, names: list[str], options: dict, profile: dict, screen: str | None) -> dict:
    """Return what templates/pad/panel.html shows."""
    calc = is_calculator(options)
    notice = shown_notice(state, names)
    out = {"calculator": calc, "title": options.get("title"), "wins": wins_said(options), "notice": notice,
           "ended": state["ended"], "tie": tie_question(state, names, options), **result_parts(state, names, options)}
    totals = calculator.totals(state, options)
    out["scoreboard"] = scoreboard(state, names, options, out["result"])
    said = {notice["player"]: notice["text"]} if notice and notice.get("player") is not None else {}
    if calc:
        # a total not saved yet shows 0, as every count of the app: the first digit typed replaces it
        out["rows"] = [{"seat": s, "name": n, "total": totals[s], "shown": 0 if totals[s] is None else totals[s], "said": said.get(s),
                        "status": _("saved") if totals[s] is not None else _("waiting")} for s, n in enumerate(names)]
        out["waiting"] = [n for n, t in zip(names, totals) if t is None]
        return out
    rounds = len(state["scores"][0])
    asked = screen_of(screen, len(names))
    edit = int(asked.partition("-")[2]) if asked else rounds
    edit = edit if 1 <= edit <= rounds else rounds
    by_rounds = options.get("scoring") != "total"
    # the round being scored first, the earlier ones after it, newest first: on a phone the cells typed
    # in are on screen at once, and the rounds before scroll sideways in their box; the end shows them in order
    shown = [edit] + [k for k in range(rounds, 0, -1) if k != edit]
    label = {n: _("Round %(n)s", n=n) if by_rounds else _("Score") for n in range(1, rounds + 1)}

    def cells(row: list[int], order: list[int]) -> list[dict]:
        return [{"round": n, "edit": n == edit, "label": label[n], "value": row[n - 1]} for n in order]

    out.update({
        "by_rounds": by_rounds, "rounds": rounds, "edit": edit, "last": edit == rounds,
        "columns": cells(state["scores"][0], shown), "in_order": cells(state["scores"][0], list(range(1, rounds + 1))),
        "players": [{"seat": s, "name": n, "total": totals[s], "cells": cells(state["scores"][s], shown),
                     "in_order": cells(state["scores"][s], list(range(1, rounds + 1))), "said": said.get(s)}
                    for s, n in enumerate(names)],
        "can_new_round": by_rounds and not state["ended"] and rounds < rules.ROUNDS_MAX,
    })
    return out


def wins_said(options: dict) -> str:
    """Who wins at this table, and how a tie for the win is settled, in one line."""
    wins = _("The lowest total wins.") if calculator.lowest_wins(options) else _("The highest total wins.")
    if calculator.ties(options) == "rule":
        return wins + " " + _("A tie for the win: your rule, %(rule)s.", rule=options.get("tie_rule"))
    return wins + " " + _("A tie for the win is shared.")
