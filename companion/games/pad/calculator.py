"""The score pad's final scoring, calculator or tracked, and its calculator mode.

A calculator table (`options["calculator"]`) takes one total per player: each is one `sheet`
event, `{"player": SEAT, "total": N}`, saved again to correct it. Once every total is in, the
table is finished, unless players tie for the win and the group breaks ties by its own rule: then
the players choose the winner among the tied (`tie_winner`), since the pad cannot compute a rule
it was only named. A corrected total that changes who ties for the win asks again while the table is
not finished; once it is, the play is in the archive (and maybe BG Stats, or played again), so a
correction that would reopen a tie is refused (`data.total`): the group undoes first.

Every finished table's result, calculator or tracked, is read through `final_result`: exactly
what the contract's `score` function gives for the table's values (functions.py).
"""

from __future__ import annotations

from typing import Any, Sequence

from ..base import SHEET, is_calculator, keep_notice
from ..speech import N_, gettext as _, later, listed
from ..validation import RulesError, obj, whole
from . import functions, rules

#: what a calculator table takes; Game.apply refuses any other event with this hint
CALCULATOR_EVENTS = (SHEET, "tie_winner")
CALCULATOR_HINT = N_("each player saves their total")
#: a result's players carry nothing beyond name, total and breakdown (companion/results.py)
RESULT_EXTRAS: tuple[str, ...] = ()
#: the breakdown's fixed keys in words; a round's key ("round_3") is said by breakdown_label
BREAKDOWN = {"score": N_("Score")}
EVENT = '{"player": SEAT, "total": N}: one player\'s total, a whole number from -999999 to 999999 (saved again, it replaces it)'


def lowest_wins(options: dict) -> bool:
    """True where the table's lowest total wins (the setup's choice; BG Stats' highestWins is its opposite)."""
    return bool(options.get("lowest_wins"))


def breakdown_label(key: str) -> str | None:
    """A round's breakdown key in the language spoken ("round_3" -> "Round 3"); None for another key."""
    n = rules.round_of(key)
    return None if n is None else _("Round %(n)s", n=n)


def ties(options: dict) -> str:
    """How the table breaks a tie for the win: "shared" or "rule"."""
    return options.get("ties", "shared")


# --- the totals, tracked or calculator ---------------------------------------------------------------

def totals(state: dict, options: dict) -> list[int | None]:
    """Each seat's total so far: its rounds added (tracked), or the total saved (calculator; None before)."""
    if is_calculator(options):
        return list(state["totals"])
    return [rules.total(row) for row in state["scores"]]


def all_in(state: dict, options: dict) -> bool:
    """True once every seat has a total: always on a tracked table, once every row is saved on a calculator one."""
    return all(t is not None for t in totals(state, options))


def tied(state: dict, options: dict) -> list[int]:
    """The seats tying for the win where the group's rule must choose the winner, else []."""
    if not all_in(state, options):
        return []
    scores = totals(state, options)
    if not rules.needs_tie_winner(scores, lowest_wins(options), ties(options)):
        return []
    return rules.tied_for_win(scores, lowest_wins(options))


def check_tie_winner(state: dict, data: Any, options: dict, names: Sequence[str]) -> int:
    """Check the `tie_winner` event: only while the rule must choose, and only a tied player."""
    obj(data, "data", required=("player",))
    ready = state["ended"] if not is_calculator(options) else all_in(state, options)
    seats = tied(state, options) if ready and not state["finished"] else []
    if not seats:  # asked first: with no tie waiting, no seat is right (docs/CONTRACT.md, "pad")
        raise RulesError("type", _("only when players tie for the win and your rule chooses the winner"))
    seat = whole(data["player"], "data.player", 0, len(names) - 1)
    if seat not in seats:
        raise RulesError("data.player", _("%(who)s does not tie for the win; choose one of %(names)s",
                                          who=names[seat], names=", ".join(names[s] for s in seats)))
    return seat


def ev_tie_winner(state: dict, data: Any, ctx) -> None:
    """The tied player the group's rule makes the winner: the game is over."""
    seat = check_tie_winner(state, data, ctx.options, ctx.names)
    state["tie_winner"] = seat
    state["tied"] = tied(state, ctx.options)
    state["finished"] = True


# --- calculator mode ---------------------------------------------------------------------------------

def settle(state: dict, options: dict) -> None:
    """Finish a calculator table once every total is in and, where the rule must choose, the winner is
    chosen; a winner chosen among another tie than today's is asked again."""
    seats = tied(state, options)
    if state["tie_winner"] is not None and seats != state["tied"]:
        state["tie_winner"], state["tied"] = None, None
    state["finished"] = all_in(state, options) and (not seats or state["tie_winner"] is not None)


def ev_sheet(state: dict, data: Any, ctx) -> None:
    """Store one player's total (a calculator table), and finish the table once it can be."""
    if not is_calculator(ctx.options):
        raise RulesError("type", _("this table keeps its scores round by round: change them in the table"))
    obj(data, "data", required=("player", "total"))
    seat = whole(data["player"], "data.player", 0, len(state["totals"]) - 1)
    was_over, chosen = state["finished"], state["tie_winner"] is not None
    state["totals"][seat] = functions.score_value(data["total"], "data.total")
    settle(state, ctx.options)
    if was_over and not state["finished"]:
        # a finished play is in the archive (and maybe BG Stats, or played again): a correction never takes
        # it out of them; the group undoes back to before the end (the winner's choice, or the last total),
        # then corrects, and the rule chooses again
        names = listed([ctx.names[s] for s in tied(state, ctx.options)])
        if chosen:
            raise RulesError("data.total", _("this total would tie %(names)s for the win of a finished game: undo the "
                                             "choice of the winner first, then save it", names=names))
        raise RulesError("data.total", _("this total would tie %(names)s for the win of a finished game: undo the "
                                         "last total saved first, then save it", names=names))
    waiting = [ctx.names[s] for s, t in enumerate(state["totals"]) if t is None]
    if waiting:
        keep_notice(state, seat, later.gettext("Saved; waiting for %(names)s", names=", ".join(waiting)))
    elif not state["finished"]:
        keep_notice(state, seat, later.gettext("Saved: a tie for the win; your rule chooses the winner"))
    else:
        keep_notice(state, seat, later.gettext("Saved: the result is at the top"))


def sheet_line(d: dict, who: str) -> str:
    """The history line of a total saved."""
    return _("%(who)s: total %(total)s", who=who, total=d.get("total"))


# --- final scoring -------------------------------------------------------------------------------------

def score_document(state: dict, names: Sequence[str], options: dict) -> dict:
    """The contract's `score` document of the table's values (every total in)."""
    if is_calculator(options) or options.get("scoring") == "total":
        players = [{"name": n, "total": t} for n, t in zip(names, totals(state, options))]
    else:
        players = [{"name": n, "rounds": list(row)} for n, row in zip(names, state["scores"])]
    doc: dict = {"players": players, "lowest_wins": lowest_wins(options), "ties": ties(options)}
    if ties(options) == "rule":
        doc["tie_rule"] = options["tie_rule"]
        if state["tie_winner"] is not None:
            doc["tie_winner"] = names[state["tie_winner"]]
    return doc


def final_result(state: dict, names: list[str], options: dict, profile: dict) -> dict | None:
    """Return what the `score` function gives for the finished table's values (Game.final_result);
    None until the game is over."""
    if not state["finished"]:
        return None
    return functions.FUNCTIONS["score"].run(score_document(state, names, options))
