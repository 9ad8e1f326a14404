"""Galileo's Truth calculator mode (`"calculator": true`) and final scoring of any table.

A calculator table opens at final scoring and tracks nothing before it. Each player's row
is one `sheet` event holding what their areas show at the end (the same value names as the
`score` function's players); saving it again replaces the row. The Cathedral's and the
penance cards' printed VP are table-wide: the box profile or the `board` event (RULES.md
GAL-B). The totals come from the `score` rules function only; the table is finished once
every row is in and the printed values it needs are known. A tracked table is finished the
same way once every player's `final` entries are in. Nothing here imports Flask.
"""

from __future__ import annotations

from typing import Any

from ..base import SHEET, Context, is_calculator
from ..speech import N_, _
from ..validation import RulesError, at, choice, listof, obj, whole
from . import functions, rules
from .said import and_list, later, note

#: what a calculator table takes; Game.apply refuses any other event with this hint
CALCULATOR_EVENTS = ("board", SHEET)
CALCULATOR_HINT = N_("save each player's row")
#: a result's players carry nothing beyond name, total and breakdown (companion/results.py)
RESULT_EXTRAS: tuple[str, ...] = ()

#: the values a row may leave out, and what they are then; a tracked table's `final` entries are these
ROW_DEFAULTS = {"inventions_vp": 0, "mentor_vp": 0, "end_losses": 0}
ROW_KEYS = ("principle", "status", "vp", "suspicion", "penance", "inventions_vp", "mentor_vp", "end_losses", "turn_order")


def check_row(data: Any, players: int) -> dict:
    """Check one player's `sheet` row; return it clean, every value filled in."""
    obj(data, "data", required=("player", "principle", "status", "vp"), optional=ROW_KEYS)
    player = whole(data["player"], "data.player", 0, players - 1)
    row = {
        "principle": choice(data["principle"], "data.principle", rules.PRINCIPLES),
        # [GT745-749] where the Natural Philosopher is at the end: free, in Prison, at the Stake
        "status": choice(data["status"], "data.status", rules.STATUSES),
        "vp": whole(data["vp"], "data.vp", 0, functions.MAX_VP),
    }
    if "suspicion" in data:
        row["suspicion"] = whole(data["suspicion"], "data.suspicion", 0, functions.MAX_TRACK)
    elif row["status"] == "stake":
        # [GT765-767] at the Stake every point of suspicion costs 2 VP: the position is needed
        raise RulesError("data.suspicion", _("is required at the Stake: each point of suspicion costs %(factor)s VP at the end",
                                             factor=rules.STAKE_FACTOR))
    else:
        row["suspicion"] = 0  # counts only at the Stake [GT765]
    levels = listof(data.get("penance", []), "data.penance", 0, 3)
    penance = []
    for i, level in enumerate(levels):
        level = whole(level, at("data.penance", i), 1, 3)
        if level in penance:
            raise RulesError(at("data.penance", i), _("Penance card %(roman)s is listed twice", roman=rules.PENANCE_LEVELS[level - 1]))
        penance.append(level)
    row["penance"] = sorted(penance)
    for key, default in ROW_DEFAULTS.items():
        row[key] = whole(data[key], f"data.{key}", 0, functions.MAX_VP) if key in data else default
    # [GT769] ties go to the earliest in turn order: the player's place on the Current track
    row["turn_order"] = whole(data["turn_order"], "data.turn_order", 1, players) if "turn_order" in data else player + 1
    return {"player": player, **row}


def on_sheet(s: dict, data: Any, ctx: Context) -> None:
    """Save (or replace) one player's row; the rows of other players are untouched."""
    if not is_calculator(ctx.options):
        raise RulesError("type", _("this table tracks the game: enter the final entries under Final scoring"))
    row = check_row(data, len(s["players"]))
    player = row.pop("player")
    s["players"][player]["sheet"] = row
    note(s, later.gettext("%(name)s's row is in.", name=ctx.names[player]))


def on_final(s: dict, data: Any, ctx: Context) -> None:
    """A tracked table's final-scoring entries for one player."""
    obj(data, "data", required=("player", *ROW_DEFAULTS))
    if s["phase"] != "final" or is_calculator(ctx.options):
        raise RulesError("type", _("final scoring comes after the End of Cycle %(cycle)s", cycle=rules.LAST_CYCLE))
    player = whole(data["player"], "data.player", 0, len(s["players"]) - 1)
    s["players"][player]["final"] = {key: whole(data[key], f"data.{key}", 0, functions.MAX_VP) for key in ROW_DEFAULTS}


# --- the score document -----------------------------------------------------------------

def _held(state: dict, i: int, calc: bool) -> list[int]:
    """The penance levels (1..3) player i still holds at the end [GT763]."""
    p = state["players"][i]
    if calc:
        return p["sheet"]["penance"] if p.get("sheet") else []
    return rules.penance_held(p["suspicion"]["penance_taken"], p["penance_removed"])


def missing(state: dict, names: list[str], options: dict) -> list[str]:
    """Say what final scoring still needs, in the players' words and the language spoken (empty when it can be scored)."""
    board = state["board"]
    calc = is_calculator(options)
    out = []
    section = _("Printed on the board") if calc else _("Board values")  # the page's section
    if "cathedral" not in board:
        out.append(_("the Cathedral values (%(section)s)", section=section))
    if "vp" not in board.get("penance_cards", {}) and any(_held(state, i, calc) for i in range(len(state["players"]))):
        out.append(_("the penance cards' VP (%(section)s)", section=section))
    key = "sheet" if calc else "final"
    waiting = [names[i] for i, p in enumerate(state["players"]) if p.get(key) is None]
    if len(waiting) == 1:
        out.append(_("%(name)s's row", name=waiting[0]) if calc else _("%(name)s's final entries", name=waiting[0]))
    elif waiting:
        said = {"names": ", ".join(waiting[:-1]), "last": waiting[-1]}
        out.append(_("the rows of %(names)s and %(last)s", **said) if calc else _("the final entries of %(names)s and %(last)s", **said))
    if calc and not waiting:
        places: dict[int, list[str]] = {}
        for i, p in enumerate(state["players"]):
            places.setdefault(p["sheet"]["turn_order"], []).append(names[i])
        for place, who in sorted(places.items()):
            if len(who) > 1:
                out.append(_("one place each in the turn order: %(names)s both say %(place)s", names=and_list(who), place=place))
    return out


def score_document(state: dict, names: list[str], options: dict, order: list[int] | None = None) -> dict | None:
    """Build the `score` function's document from the table, or None while values are missing.

    A tracked table's places in turn order [GT769] are the Current track's (`state["order"]`), or
    those of `order` (GAL-C5: the order in force during Cycle 5, shown when it differs).
    """
    if missing(state, names, options):
        return None
    board = state["board"]
    calc = is_calculator(options)
    rank = {p: i + 1 for i, p in enumerate(state["order"] if order is None else order)}
    players = []
    for i, p in enumerate(state["players"]):
        held = [board["penance_cards"]["vp"][lvl - 1] for lvl in _held(state, i, calc)]
        if calc:
            row = p["sheet"]
            players.append({"name": names[i], "vp": row["vp"], "principle": row["principle"], "status": row["status"],
                            "suspicion": row["suspicion"], "penance_vp": held,
                            **{k: row[k] for k in ROW_DEFAULTS}, "turn_order": row["turn_order"]})
        else:
            players.append({
                "name": names[i], "vp": p["vp"], "principle": p["principle"],
                "status": rules.status_of(p["suspicion"]), "suspicion": p["suspicion"]["position"],
                "penance_vp": held, **p["final"], "turn_order": rank[i],
            })
    return {"cathedral": board["cathedral"], "players": players}


def result(state: dict, names: list[str], options: dict) -> dict | None:
    """Score the table with the `score` rules function, or None while values are missing."""
    doc = score_document(state, names, options)
    if doc is None:
        return None
    try:
        return functions.FUNCTIONS["score"].run(doc)
    except RulesError:
        return None  # e.g. two players renamed alike: the page says what is missing instead


def final_result(state: dict, names: list[str], options: dict, profile: dict) -> dict | None:
    """What the `score` rules function gives for the table's final values (a fresh dict each
    call), or None until the table is finished (refresh_finished): the one way a finished table
    is scored, calculator or tracked (Game.final_result). The printed values it needs are in the
    state's board (copied from the profile at creation)."""
    if not state.get("finished"):
        return None
    return result(state, list(names), options)


def refresh_finished(s: dict, names: list[str], options: dict) -> None:
    """Set `finished`: every row (or final entry) is in and the score can be computed."""
    s["finished"] = (is_calculator(options) or s["phase"] == "final") and result(s, names, options) is not None
