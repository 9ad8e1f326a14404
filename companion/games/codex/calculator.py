"""Codex Naturalis's calculator mode: the table opens at final scoring, one `sheet` row per player.

A calculator table (`options["calculator"]`) tracks nothing before the end. The two common
objectives are table-wide (the `common_objectives` event); each player's row is one `sheet`
event holding what their play area shows once the last turns are played [CN54-55]: the score
track's points, their secret objective, the visible counts their objectives need and, for a
pattern objective, the count of card-disjoint occurrences [CN50]. A row is self-contained, so
two phones saving two players' rows at once both land; saving a row again replaces it. The
table is finished once every row holds what its objectives need; the tally is the contract's
`score` function's.

Every finished table's result, calculator or tracked, is read through here (`final_result`,
Game.final_result; the end screen through `final_score`): from the rows, or from a tracked table's
score track, manuscripts and counts (`score_document`).

On a tracked table the same `sheet` event is one player's end card saved at once: the secret
objective, visible counts typed (set_count's meaning) and pattern counts.
"""

from __future__ import annotations

from typing import Any, NoReturn, Sequence

from ..base import SHEET, is_calculator, keep_notice
from ..speech import N_, gettext as _, later, ngettext
from ..validation import RulesError, at, obj, whole
from . import cards as catalogue
from . import functions, rules
from .cards import SYMBOLS

#: what a calculator table takes; Game.apply refuses any other event with this hint
CALCULATOR_EVENTS = ("common_objectives", SHEET)
CALCULATOR_HINT = N_('choose the common objectives, then each player saves their row')
#: a result's players carry nothing beyond name, total and breakdown (companion/results.py)
RESULT_EXTRAS: tuple[str, ...] = ()
#: the breakdown's keys in words, as the archive's record names them (the English is what it always said)
BREAKDOWN = {"placement": N_("Score track"), "objectives": N_("Objectives")}  # as the rows name the placement points
EVENT = ('{"player": SEAT, "placement_points": N, "secret": ID, "visible": {SYMBOL: N}, "patterns": {"ID": N}}: '
         "one player's final-scoring row (saved again, it replaces the row); on a tracked table: the secret, "
         "visible counts and pattern counts of one end card at once (no placement_points)")
FIELDS = ("placement_points", "secret", "visible", "patterns")
PATTERN_KEYS = tuple(str(i) for i in catalogue.pattern_ids())


def counted_from_manuscript() -> str:
    """The refusal of typed counts for a seat whose manuscript is laid (table.py's count events too)."""
    return _("this player's counts come from the manuscript; undo its cards to type counts instead")


def needs(oid: int) -> tuple[tuple[str, ...], bool]:
    """Return what an objective card is scored from: the visible symbols, and whether a pattern count."""
    spec = catalogue.card(oid)["objective"]
    if spec["type"] == "pattern":
        return (), True  # [CN49-50] card-disjoint occurrences of the pattern
    return tuple(s for s in SYMBOLS if s in spec["counts"]), False  # [CN49] counts of symbols


def missing(row: dict | None, common: Sequence[int]) -> list[str]:
    """Return the fields a row still lacks for its objectives (all of them for no row)."""
    if row is None:
        return ["placement_points"]
    out = []
    for oid in rules.objectives(common, row["secret"]):
        symbols, pattern = needs(oid)
        out += [f"visible.{s}" for s in symbols if s not in row["visible"] and f"visible.{s}" not in out]
        if pattern and str(oid) not in row["patterns"]:
            out.append(f"patterns.{oid}")
    return out


def _who(names: Sequence[str], seat: int) -> str:
    return names[seat] if 0 <= seat < len(names) else _("this player")


def secret_objective(state: dict, seat: int, value: Any, field: str, names: Sequence[str]) -> int:
    """Check a player's secret objective card (also the tracked table's `secret_objective` event)."""
    oid = functions.objective_card(value, field)
    # [CN35] two common objectives face up, and one secret objective per player: each card once
    if oid in state["common"]:
        raise RulesError(field, _("card %(card)s is a common objective; the secret one is another card", card=oid))
    for other, secret in enumerate(state["secret"]):
        if other != seat and secret == oid:
            raise RulesError(field, _("card %(card)s is already %(who)s's secret objective; each card exists once",
                                      card=oid, who=_who(names, other)))
    return oid


def check_row(data: Any, state: dict, calculator: bool, names: Sequence[str]) -> tuple[int, dict]:
    """Check one player's row; return their seat and the clean row (only the keys given)."""
    obj(data, "data", required=("player",), optional=FIELDS)
    seat = whole(data["player"], "data.player", 0, len(state["scores"]) - 1)
    who = _who(names, seat)
    if calculator and len(state["common"]) != rules.COMMON_OBJECTIVES:
        raise RulesError("type", _("choose the two common objectives first: they say what each player counts"))
    row: dict[str, Any] = {}
    if "placement_points" in data:
        if not calculator:
            raise RulesError("data.placement_points", _("the score track keeps the points on this table; change them there"))
        row["placement_points"] = whole(data["placement_points"], "data.placement_points", 0, functions.COUNT_MAX)
    elif calculator:
        raise RulesError("data.placement_points", _("type the points on the score track"))
    if "secret" in data:
        row["secret"] = secret_objective(state, seat, data["secret"], "data.secret", names)
    elif calculator:
        raise RulesError("data.secret", _("type the secret objective's card number"))
    if "visible" in data:
        obj(data["visible"], "data.visible", optional=SYMBOLS)
        row["visible"] = {s: whole(n, at("data.visible", s), 0, functions.COUNT_MAX) for s, n in data["visible"].items()}
    if "patterns" in data:
        obj(data["patterns"], "data.patterns", optional=PATTERN_KEYS)
        row["patterns"] = {k: whole(n, at("data.patterns", k), 0, functions.COUNT_MAX) for k, n in data["patterns"].items()}
    mine = rules.objectives(state["common"], row.get("secret", state["secret"][seat]))
    for key in row.get("patterns", {}):
        if int(key) not in mine:
            raise RulesError(at("data.patterns", key), _("card %(card)s is not one of %(who)s's objectives", card=key, who=who))
    if calculator:
        row.setdefault("visible", {})
        row.setdefault("patterns", {})
        lacking = missing(row, state["common"])
        if lacking:
            _refuse_missing(lacking[0], row, state["common"])
    return seat, row


def _refuse_missing(field: str, row: dict, common: Sequence[int]) -> NoReturn:
    """Say which objective needs the value that is missing."""
    kind, key = field.split(".")
    for oid in rules.objectives(common, row["secret"]):
        symbols, pattern = needs(oid)
        if key in symbols or (pattern and key == str(oid)):
            text = catalogue.objective_text(catalogue.card(oid))
            if kind == "visible":
                raise RulesError(f"data.{field}", _("objective #%(card)s (%(text)s) needs it: type how many are visible", card=oid, text=text))
            raise RulesError(f"data.{field}", _("type how many times the pattern of #%(card)s is there, no card used twice", card=oid))
    raise RulesError(f"data.{field}", "is needed")  # pragma: no cover - missing() names only needed fields


def settle(state: dict) -> None:
    """Write the rows into the scored state and finish the table once every row is complete."""
    rows = state["rows"]
    for seat, row in enumerate(rows):
        if row is None:
            continue
        mine = rules.objectives(state["common"], row["secret"])
        state["scores"][seat] = row["placement_points"]
        state["secret"][seat] = row["secret"]
        state["counts"][seat] = {s: row["visible"].get(s, 0) for s in SYMBOLS}
        state["patterns"][seat] = {k: {"count": n} for k, n in row["patterns"].items() if int(k) in mine}
    # [CN55] the totals come once every player's points and objectives are in
    state["finished"] = len(state["common"]) == rules.COMMON_OBJECTIVES and all(not missing(row, state["common"]) for row in rows)


def ev_sheet(state: dict, data: Any, ctx) -> None:
    """Store one player's row (calculator), or one end card's values at once (tracked)."""
    calculator = is_calculator(ctx.options)
    seat, row = check_row(data, state, calculator, ctx.names)
    if calculator:
        state["rows"][seat] = row
        settle(state)
        waiting = [_who(ctx.names, s) for s, r in enumerate(state["rows"]) if missing(r, state["common"])]
        keep_notice(state, seat, later.gettext("Row saved; waiting for %(names)s", names=", ".join(waiting)) if waiting
             else later.gettext("Row saved: the final scores are at the top"))
        return
    if state["manuscripts"][seat] and ("visible" in row or "patterns" in row):
        raise RulesError("data.player", counted_from_manuscript())
    if "secret" in row:
        state["secret"][seat] = row["secret"]
    state["counts"][seat].update(row.get("visible", {}))
    mine = objectives_of(state, seat)
    patterns = {k: v for k, v in state["patterns"][seat].items() if int(k) in mine}
    for key, n in row.get("patterns", {}).items():
        count, _, laid = pattern_count(state, seat, int(key))  # check_row took only this seat's objectives
        if laid is not None and count == n:
            continue  # the same count as the laid-out colours: keep the layout
        patterns[key] = {"count": n}
    state["patterns"][seat] = patterns
    keep_notice(state, seat, later.gettext("Saved"))


def sheet_line(d: dict, who: str) -> str:
    """The history line of a row."""
    if "placement_points" in d:
        return ngettext("%(who)s: final row, %(num)d point on the score track",
                        "%(who)s: final row, %(num)d points on the score track", d["placement_points"], who=who)
    return _("%(who)s: end card saved", who=who)


# --- final scoring, calculator or tracked -------------------------------------------------------------

def objectives_of(state: dict, seat: int) -> list[int]:
    """Return a seat's objectives: the two common ones, then its secret one [CN55]."""
    return rules.objectives(state["common"], state["secret"][seat])


def layout_of(state: dict, seat: int) -> rules.Layout:
    """Rebuild a seat's manuscript (each card was checked when it was laid)."""
    return rules.replay((c["id"], c["side"], c["x"], c["y"]) for c in state["manuscripts"][seat])


def pattern_count(state: dict, seat: int, oid: int) -> tuple[int, list, dict | None]:
    """Return (count, occurrences as cell lists, grid cells or None) for a typed-in seat."""
    entry = state["patterns"][seat].get(str(oid))
    if not entry:
        return 0, [], None
    if "cells" in entry:
        kingdoms = {(c["x"], c["y"]): c["kingdom"] for c in entry["cells"]}
        used = rules.count_pattern(kingdoms, oid)
        return len(used), used, entry["cells"]
    return entry["count"], [], None


def score_document(state: dict, names: list[str]) -> tuple[dict, list[dict]]:
    """Return the contract's `score` document of the table's values, and each seat's detail
    for the end screen (where the counts come from: typed in, or counted from the manuscript)."""
    players = []
    detail = []
    for seat, name in enumerate(names):
        objectives = objectives_of(state, seat)
        if state["manuscripts"][seat]:
            layout = layout_of(state, seat)
            visible = dict(layout.visible)
            counted = rules.score_layout(layout, objectives)
            counts = {oid: len(used) for oid, (_, used) in counted.items()}
            source = "manuscript"
        else:
            visible = dict(state["counts"][seat])
            counts = {oid: pattern_count(state, seat, oid)[0] for oid in objectives}
            source = "typed"
        items = []
        for oid in objectives:
            spec = rules.objective_from_card(oid)
            items.append({"card": oid, "count": counts[oid]} if spec["kind"] == "pattern" else {"card": oid})
        # [CN55] the points on the score track plus the two common objectives and the secret one
        players.append({"name": name, "placement_points": state["scores"][seat], "visible": visible, "objectives": items})
        detail.append({"source": source, "visible": visible, "visible_text": rules.symbols_text(visible) or _("nothing"),
                       "objectives": objectives, "counts": counts})
    return {"players": players}, detail


def final_score(state: dict, names: list[str]) -> dict:
    """Score every seat with the contract's `score` function, with the end screen's detail beside it."""
    document, detail = score_document(state, names)
    result = functions.FUNCTIONS["score"].run(document)
    for r, d in zip(result["players"], detail):
        r.update(d)
    return result


def final_result(state: dict, names: list[str], options: dict, profile: dict) -> dict | None:
    """Return what the `score` function gives for the finished table's values (Game.final_result).

    None until the game is over: the `finish` event on a tracked table, every row in on a
    calculator table (settle). A fresh result of `score`, with nothing added.
    """
    if not state["finished"]:
        return None
    return functions.FUNCTIONS["score"].run(score_document(state, names)[0])
