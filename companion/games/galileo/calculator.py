"""Galileo's Truth calculator mode (`"calculator": true`) and final scoring of any table.

A calculator table opens at final scoring and tracks nothing before it. Each player's row
is one `sheet` event holding what their areas show at the end (the same value names as the
`score` function's players); saving it again replaces the row. The Cathedral's and the
penance cards' printed VP are table-wide: the box profile or the `board` event (RULES.md
GAL-B). The totals come from the `score` rules function only; the table is finished once
every row is in and the printed values it needs are known. A tracked table is finished the
same way once every player's `final` entries are in.

What a table says (its last section): a notice ("Luna: suspicion +3, now 4.") is written when an
event is applied but read later, on every phone, each in its own language, while the state (which
the JSON API returns) keeps it in English. So a handler writes it with `note(state,
later.gettext("...", **values))` (speech.later, the games' one format): the English goes to
`state["notices"]`, as before, and the sentence kept with its values to `state["notices_later"]`,
which speech.told says again in the language spoken where a page shows it (view.notices). The history's
lines (LINES, describe; table.py's) are said when the history is shown. Nothing here imports Flask.
"""

from __future__ import annotations

from functools import reduce
from typing import Any

from .. import speech
from ..base import SHEET, Context, EventLines, describe_event, is_calculator
from ..speech import N_, NC_, _, later, told
from ..validation import RulesError, at, choice, listof, obj, whole
from . import functions, rules

#: what a calculator table takes; Game.apply refuses any other event with this hint
CALCULATOR_EVENTS = ("board", SHEET)
CALCULATOR_HINT = N_("save each player's row")
#: a result's players carry nothing beyond name, total and breakdown (companion/results.py)
RESULT_EXTRAS: tuple[str, ...] = ()
#: the breakdown's keys in words, as the archive's record names them (the English is what it always said)
BREAKDOWN = {"track": NC_("scoring track", "Track"), "status": N_("Status"), "rank": N_("Rank"), "inventions": N_("Inventions"),
             "mentor": N_("Mentor"), "penance": N_("Penance"), "stake": NC_("pyre", "Stake"), "end_losses": N_("End losses")}

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


# --- what a table says, told on each page in its language -------------------------------

def and_list(names: list[str]) -> str:
    """Names said one after the other, in the language spoken: "Ann and Ben and Cy"."""
    return reduce(lambda said, one: _("%(names)s and %(name)s", names=said, name=one), names)


def note(s: dict, said: dict) -> None:
    """Say what an event did: in English in the state's notices, and kept to be told on each page."""
    with speech.english():
        s["notices"].append(told(said))
    s.setdefault("notices_later", []).append(said)


#: the board values' sections, as the notice of a `board` event names them
SECTION_WORDS = {
    "suspicion_track": N_("suspicion track"), "tiles": N_("tiles"), "cathedral": N_("cathedral"),
    "penance_cards": N_("penance cards"), "prohibition_suspicion": N_("prohibition suspicion"),
}


def sections(keys) -> list[dict]:
    """The sections saved, to be said later: "suspicion track, tiles"."""
    return [later.gettext(SECTION_WORDS.get(key, key.replace("_", " "))) for key in keys]


def triggered(event: str, name: str) -> dict:
    """What a suspicion marker's crossing triggers for the player [GT142-190], to be said later."""
    if event.startswith("penance_"):
        roman = rules.PENANCE_LEVELS[int(event[-1]) - 1]
        return later.gettext("%(name)s: take Penance card %(roman)s and put it face down on your draw deck.", name=name, roman=roman)
    if event == "arrested":
        return later.gettext("%(name)s: arrested: your Natural Philosopher goes to Prison (if it stood on an action space, "
                             "lay it down; that space is free again).", name=name)
    if event == "released":
        return later.gettext("%(name)s: released: take your Natural Philosopher back (standing if it was unused, otherwise "
                             "lying until the End of Cycle).", name=name)
    # [GT186-190][GT765]
    return later.gettext("%(name)s: the Stake: your Natural Philosopher goes to the Stake for good; marker back to 0; from now "
                         "on every point of suspicion costs %(factor)s VP at the end.", name=name, factor=rules.STAKE_FACTOR)


def inquisition_suspects() -> dict:
    """The round's end turned the Inquisition token face up [GT396-398]."""
    return later.gettext("The Inquisition Suspects: the token is face up; every Main Action but Pass now costs "
                         "+%(n)s suspicion.", n=rules.INQUISITION_SUSPICION)


# --- history -------------------------------------------------------------------------------

#: the Main Actions as a history line names them (the event's own key, in English)
ACTION_WORDS = {
    # Translators: a Main Action in a history line: "Ann: Main Action (invention)"
    "invention": N_("invention"), "academic": N_("academic"), "treatise": N_("treatise"), "philosopher": N_("philosopher"),
}


def _signed(data: dict) -> str:
    delta = data.get("delta")
    return f"{delta:+d}" if isinstance(delta, int) else ""


def _group(data: dict, who: str) -> str:
    if data.get("group") == "others":
        return _("%(who)s: every other player suspicion %(delta)s", who=who, delta=_signed(data))
    return _("%(who)s: every Copernican suspicion %(delta)s", who=who, delta=_signed(data))


def _penance(data: dict, who: str) -> str:
    level = data.get("level")
    roman = rules.PENANCE_LEVELS[level - 1] if level in (1, 2, 3) else "?"
    if data.get("remove"):
        return _("%(who)s: plays Penance card %(roman)s and removes it", who=who, roman=roman)
    return _("%(who)s: plays Penance card %(roman)s", who=who, roman=roman)


def _action(data: dict, who: str) -> str:
    action = data.get("action", "?")
    return _("%(who)s: Main Action (%(action)s)", who=who, action=_(ACTION_WORDS[action]) if isinstance(action, str) and action in ACTION_WORDS else action)


def _tile(data: dict, who: str) -> str:
    tile = data["tile"] + 1 if isinstance(data.get("tile"), int) else "?"
    return _("%(who)s: reaches suspicion tile %(tile)s", who=who, tile=tile)


#: what each event did, in plain words, in the language spoken; `who` is "?" for an event that names no player
LINES: EventLines = {
    "board": lambda data, who: _("board values entered"),
    "suspicion": lambda data, who: _("%(who)s: suspicion %(delta)s", who=who, delta=_signed(data)),
    "suspicion_group": _group,
    "vp": lambda data, who: _("%(who)s: %(delta)s VP", who=who, delta=_signed(data)),
    "tile": _tile,
    "income_done": lambda data, who: _("Income done: Actions phase"),
    "action": _action,
    "abjure": lambda data, who: _("%(who)s: abjures", who=who),
    "penance": _penance,
    "pass": lambda data, who: _("%(who)s: passes", who=who),
    "prohibition": lambda data, who: _("Prohibition checked"),
    "next_cycle": lambda data, who: _("End of Cycle done"),
    "final": lambda data, who: _("%(who)s: final-scoring entries", who=who),
    SHEET: lambda data, who: _("%(who)s: final-score row saved", who=who),
}


def describe(type_: str, data: Any, names: list[str]) -> str:
    """Say in plain words what an event did, for the history panel."""
    return describe_event(LINES, type_, data, names, nobody="?")
