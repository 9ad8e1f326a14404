"""A Codex Naturalis table: the score track, the end trigger, manuscripts and the objective counter.

State (JSON, players by seat index, seats in clockwise order as entered):

    {"target": 20, "first": null | SEAT, "draws": N,     (who goes first and the draws so far: order.py, games/seats.py)
     "scores": [placement points per seat],
     "end": null | {"reason": "target" | "decks", "trigger": SEAT, "played": N,
                    "turns": [SEAT, ...] (null until the first player is known)},
     "reached": [turn or null per seat],                (the turn each score reached the target in, null
                                                         below it; turns numbered clockwise from the
                                                         first trigger's round, seat s playing s, s + n, ...;
                                                         a state stored without it gets it at its next score)
     "common": [objective ids], "secret": [objective id or null per seat],
     "counts": [{symbol: n} per seat],                  (typed-in visible counts)
     "patterns": [{"ID": {"count": n} | {"cells": [...]}} per seat],
     "manuscripts": [[{"id", "side", "x", "y", "points"}, ...] per seat],
     "finished": false,
     "notice": null | {"player": SEAT, "text": str},     (what the last event triggered, said beside it, in English;
     "notice_later": speech.later's {"msg", "values"},   its sentence, kept unsaid: each phone reads it in its language)
     "rows": [row or null per seat]}                     (calculator tables only: calculator.py)

A seat with a manuscript has its visible counts and pattern counts computed from it.
The score track, the end it triggers and its last turns are kept by track.py; what the pages
show of a table is computed in view.py.
"""

from __future__ import annotations

from typing import Any

from ..base import Context, EventLines, clone, describe_event, is_calculator
from ..speech import N_, gettext as _, ngettext
from ..validation import RulesError, choice, listof, obj, whole
from ..words import plural
from . import calculator, functions, rules, track
from .cards import name as symbol_name
from .calculator import layout_of, objectives_of, pattern_count
from .cards import CORNERS, OBJECTS, SIDES, SYMBOLS

#: the largest step one event takes: placement points, a gold card's visible objects, a pattern count's change
STEP_MAX = 99

EVENTS = {
    "points": '{"player": SEAT, "delta": N}: placement points, N from -99 to 99 (not 0; a score never goes below 0) [CN46]',
    "gold_corners": '{"player": SEAT, "corners": 1-4}: a gold card scoring 2 per covered corner [CN47]',
    "gold_objects": '{"player": SEAT, "object": "quill" | "inkwell" | "manuscript", "count": 1-99}: a gold card scoring 1 per visible object, its own included [CN48]',
    "decks_empty": '{"player": SEAT}: both decks ran out during this player\'s turn: the end is triggered [CN53] (RULES.md CDX-C1)',
    "turn_played": "{}: tick off the next of the last turns [CN54]",
    "common_objectives": '{"cards": [ID, ID]}: the two common objectives (cards 87-102) [CN35]',
    "secret_objective": '{"player": SEAT, "card": ID}: a player\'s secret objective [CN35]',
    "count": '{"player": SEAT, "symbol": SYMBOL, "delta": N}: change a visible count at the end (never below 0)',
    "set_count": '{"player": SEAT, "symbol": SYMBOL, "value": 0-999}: type a visible count at the end',
    "pattern_count": '{"player": SEAT, "card": ID, "delta": N}: change a pattern objective\'s count of card-disjoint occurrences',
    "pattern_grid": '{"player": SEAT, "card": ID, "cells": [{"x", "y", "kingdom"}, ...]}: lay out card colours; the app counts the pattern [CN50]',
    "play_card": '{"player": SEAT, "id": CARD, "side": "front" | "back", "x": X, "y": Y} (or "cell": [X, Y]): manuscript mode: lay a card, checked and scored [CN39-48]',
    "finish": "{}: the objectives are counted: the game is over (undo reopens it); only once the end is triggered and every last turn is played [CN53-55]",
    calculator.SHEET: calculator.EVENT,
}

OPTIONS = {
    "target": "20 (official, default) or 30 (the long-game variant): the score that triggers the end [CN53, CN65-69]",
    "first_player": "optional seat index (0 = first name) of the first player; left out, the table draws or chooses it at the start",
}
#: the setup form's targets (templates/codex/setup.html), the official one first: the default [CN53, CN65-69]
TARGET_CHOICES = tuple(zip(rules.TARGETS, (N_("official"), N_("long game"))))


# --- setup ------------------------------------------------------------------------------------

def validate_options(options: Any, player_count: int) -> dict:
    """Check the setup options: the target (20 or 30) and an optional first player."""
    obj(options, "$", optional=("target", "first_player"))
    clean = {"target": rules.TARGETS[0]}
    if "target" in options:
        target = whole(options["target"], "target")
        if target not in rules.TARGETS:
            raise RulesError("target", _("must be 20 (official) or 30 (the long-game variant)"))
        clean["target"] = target
    if options.get("first_player") is not None:
        clean["first_player"] = whole(options["first_player"], "first_player", 0, player_count - 1)
    return clean


def initial_state(names: list[str], options: dict, profile: dict) -> dict:
    """Return a new table's state (Codex has no box profile: `profile` is always {})."""
    n = len(names)
    return {
        "target": options.get("target", rules.TARGETS[0]),
        "first": options.get("first_player"),
        "draws": 0,
        "scores": [0] * n,
        "end": None,
        "common": [],
        "secret": [None] * n,
        "counts": [dict.fromkeys(SYMBOLS, 0) for _ in range(n)],
        "patterns": [{} for _ in range(n)],
        "manuscripts": [[] for _ in range(n)],
        "finished": False,
        "notice": None,
        "reached": [None] * n,
        **({"rows": [None] * n} if is_calculator(options) else {}),
    }


# --- events -----------------------------------------------------------------------------------

def _seat(data: dict, state: dict) -> int:
    return whole(data["player"], "data.player", 0, len(state["scores"]) - 1)


def apply(state: dict, type_: str, data: Any, ctx: Context) -> dict:
    """Return the state after one event; raise RulesError (nothing changes) if it is invalid."""
    spec = SHAPES[type_]  # Game.apply refused unknown types
    obj(data, "data", required=spec, optional=OPTIONAL.get(type_, ()))
    if not is_calculator(ctx.options) and state["finished"] and type_ != "finish":
        raise RulesError("type", _("the game is over; undo the finish to change anything"))
    state = clone(state)
    state["notice"] = None  # the last event's words, said beside its player (base.keep_notice)
    state.pop("notice_later", None)
    handler = HANDLERS[type_]
    handler(state, data, ctx)
    return state


def _on_points(state, data, ctx):
    seat = _seat(data, state)
    delta = whole(data["delta"], "data.delta", -STEP_MAX, STEP_MAX)
    if delta == 0:
        raise RulesError("data.delta", _("must not be 0 (a whole number from -%(max)s to %(max)s)", max=STEP_MAX))
    track.add_points(state, seat, delta, ctx.names)


def _on_gold_corners(state, data, ctx):
    seat = _seat(data, state)
    corners = whole(data["corners"], "data.corners", 1, len(CORNERS))  # a card has four corners
    track.add_points(state, seat, rules.gold_corner_points(corners), ctx.names)  # [CN47]


def _on_gold_objects(state, data, ctx):
    seat = _seat(data, state)
    choice(data["object"], "data.object", OBJECTS)
    count = whole(data["count"], "data.count", 1, STEP_MAX)
    track.add_points(state, seat, rules.gold_object_points(count), ctx.names)  # [CN48] the card's own copy included


def _on_decks_empty(state, data, ctx):
    seat = _seat(data, state)
    if state["end"] is not None:
        raise RulesError("type", _("the end is already triggered"))
    track.trigger(state, seat, "decks")  # [CN53] no more cards to draw (CDX-C1: both decks)


def _on_turn_played(state, data, ctx):
    end = state["end"]
    if end is None:
        raise RulesError("type", _("the end is not triggered yet: there are no last turns to tick off"))
    left = rules.last_turns_left(end)
    if left is None:
        raise RulesError("type", _("choose the first player first: the last turns depend on who started [CN36, CN54]"))
    if not left:
        raise RulesError("type", _("every last turn is already played"))
    end["played"] += 1


def _on_common_objectives(state, data, ctx):
    ids = listof(data["cards"], "data.cards", rules.COMMON_OBJECTIVES, rules.COMMON_OBJECTIVES)  # [CN35]
    for i, oid in enumerate(ids):
        functions.objective_card(oid, f"data.cards[{i}]")
    if ids[0] == ids[1]:
        raise RulesError("data.cards[1]", _("card %(card)s is already the other common objective; there are two different ones [CN35]", card=ids[1]))
    for seat, secret in enumerate(state["secret"]):
        if secret in ids:
            raise RulesError(f"data.cards[{ids.index(secret)}]", _("card %(card)s is already a secret objective; each card exists once", card=secret))
    state["common"] = list(ids)
    for seat in range(len(state["patterns"])):
        _keep_own_patterns(state, seat)
    if is_calculator(ctx.options):
        calculator.settle(state)


def _on_secret_objective(state, data, ctx):
    seat = _seat(data, state)
    oid = calculator.secret_objective(state, seat, data["card"], "data.card", ctx.names)
    state["secret"][seat] = oid
    _keep_own_patterns(state, seat)


def _keep_own_patterns(state: dict, seat: int) -> None:
    """Drop pattern counts of cards that are no longer among the seat's objectives."""
    mine = objectives_of(state, seat)
    state["patterns"][seat] = {k: v for k, v in state["patterns"][seat].items() if int(k) in mine}


def _no_manuscript(state, seat):
    if state["manuscripts"][seat]:
        raise RulesError("data.player", calculator.counted_from_manuscript())


def _on_count(state, data, ctx):
    seat = _seat(data, state)
    symbol = choice(data["symbol"], "data.symbol", SYMBOLS)
    delta = whole(data["delta"], "data.delta", -999, 999)
    _no_manuscript(state, seat)
    new = state["counts"][seat][symbol] + delta
    if not 0 <= new <= functions.COUNT_MAX:
        raise RulesError("data.delta", _("a count stays from 0 to %(max)s (it is %(now)s)", max=functions.COUNT_MAX, now=state["counts"][seat][symbol]))
    state["counts"][seat][symbol] = new


def _on_set_count(state, data, ctx):
    seat = _seat(data, state)
    symbol = choice(data["symbol"], "data.symbol", SYMBOLS)
    value = whole(data["value"], "data.value", 0, functions.COUNT_MAX)
    _no_manuscript(state, seat)
    state["counts"][seat][symbol] = value


def _pattern_card(state, data, seat) -> int:
    oid = functions.objective_card(data["card"], "data.card", pattern=True)
    if oid not in objectives_of(state, seat):
        raise RulesError("data.card", _("card %(card)s is not one of this player's objectives; choose the objectives first", card=oid))
    _no_manuscript(state, seat)
    return oid


def _on_pattern_count(state, data, ctx):
    seat = _seat(data, state)
    oid = _pattern_card(state, data, seat)
    delta = whole(data["delta"], "data.delta", -STEP_MAX, STEP_MAX)
    now = pattern_count(state, seat, oid)[0]
    if now + delta < 0:
        raise RulesError("data.delta", _("a count never goes below 0 (it is %(now)s)", now=now))
    state["patterns"][seat][str(oid)] = {"count": now + delta}


def _on_pattern_grid(state, data, ctx):
    seat = _seat(data, state)
    oid = _pattern_card(state, data, seat)
    # the same checks as the patterns function, with paths under data
    try:
        functions.patterns({"cells": data["cells"], "objective": oid})
    except RulesError as err:
        raise RulesError(f"data.{err.field}", err.message) from None
    cells = [{"x": c["x"], "y": c["y"], "kingdom": c["kingdom"]} for c in data["cells"]]
    state["patterns"][seat][str(oid)] = {"cells": cells}


def _on_play_card(state, data, ctx):
    seat = _seat(data, state)
    card_id = functions.playable_card(data["id"], "data.id")
    side = choice(data["side"], "data.side", SIDES)
    x, y = _where(data)
    layout = layout_of(state, seat)
    points = layout.place(card_id, side, x, y, "data.id")  # [CN39-42], message names the card
    state["manuscripts"][seat].append({"id": card_id, "side": side, "x": x, "y": y, "points": points})
    if points:
        track.add_points(state, seat, points, ctx.names)


def _where(data: dict) -> tuple[int, int]:
    """Read the place: "x" and "y" as in the manuscript function, or "cell": [x, y] (one form field)."""
    if "cell" in data:
        if "x" in data or "y" in data:
            raise RulesError("data.cell", _("give either cell or x and y, not both"))
        cell = listof(data["cell"], "data.cell", 2, 2)
        return whole(cell[0], "data.cell[0]", -functions.COORD, functions.COORD), whole(cell[1], "data.cell[1]", -functions.COORD, functions.COORD)
    for key in ("x", "y"):
        if key not in data:
            raise RulesError("data.cell", _("choose a free place for the card (x and y, or cell)"))
    return whole(data["x"], "data.x", -functions.COORD, functions.COORD), whole(data["y"], "data.y", -functions.COORD, functions.COORD)


def _on_finish(state, data, ctx):
    if state["finished"]:
        raise RulesError("type", _("the game is already over"))
    why = track.finish_blocker(state, ctx.names)
    if why:
        raise RulesError("type", why)
    state["finished"] = True


SHAPES = {
    "points": ("player", "delta"),
    "gold_corners": ("player", "corners"), "gold_objects": ("player", "object", "count"),
    "decks_empty": ("player",), "turn_played": (), "common_objectives": ("cards",),
    "secret_objective": ("player", "card"), "count": ("player", "symbol", "delta"),
    "set_count": ("player", "symbol", "value"), "pattern_count": ("player", "card", "delta"),
    "pattern_grid": ("player", "card", "cells"), "play_card": ("player", "id", "side"), "finish": (),
    calculator.SHEET: ("player",),
}
OPTIONAL = {"play_card": ("x", "y", "cell"), calculator.SHEET: calculator.FIELDS}
#: event type -> its handler, written out (tests/codex/test_table.py: one per event, as SHAPES)
HANDLERS = {
    "points": _on_points,
    "gold_corners": _on_gold_corners,
    "gold_objects": _on_gold_objects,
    "decks_empty": _on_decks_empty,
    "turn_played": _on_turn_played,
    "common_objectives": _on_common_objectives,
    "secret_objective": _on_secret_objective,
    "count": _on_count,
    "set_count": _on_set_count,
    "pattern_count": _on_pattern_count,
    "pattern_grid": _on_pattern_grid,
    "play_card": _on_play_card,
    "finish": _on_finish,
    calculator.SHEET: calculator.ev_sheet,
}


# --- history --------------------------------------------------------------------------------------

def _played(data: dict, who: str) -> str:
    x, y = _where(data)
    if data["side"] == "back":
        return _("%(who)s: card %(card)s face down at (%(x)s, %(y)s)", who=who, card=data["id"], x=x, y=y)
    return _("%(who)s: card %(card)s face up at (%(x)s, %(y)s)", who=who, card=data["id"], x=x, y=y)


def _points(data: dict, who: str) -> str:
    delta = data.get("delta")
    if isinstance(delta, bool) or not isinstance(delta, int):
        return f"{who}: {plural(delta, 'point')}"  # a stored line's odd value, as it is
    return ngettext("%(who)s: %(delta)s point", "%(who)s: %(delta)s points", abs(delta), who=who, delta=format(delta, "+d"))


def _gold_objects(data: dict, who: str) -> str:
    said = {"who": who, "points": rules.gold_object_points(data["count"])}
    if data["object"] == "inkwell":
        return ngettext("%(who)s: gold card, %(num)d inkwell visible: +%(points)s",
                        "%(who)s: gold card, %(num)d inkwells visible: +%(points)s", data["count"], **said)
    if data["object"] == "manuscript":
        return ngettext("%(who)s: gold card, %(num)d manuscript visible: +%(points)s",
                        "%(who)s: gold card, %(num)d manuscripts visible: +%(points)s", data["count"], **said)
    return ngettext("%(who)s: gold card, %(num)d quill visible: +%(points)s",
                    "%(who)s: gold card, %(num)d quills visible: +%(points)s", data["count"], **said)


#: what each event did, in plain words, said in the language spoken; `who` is "" for an event that names no player
LINES: EventLines = {
    "points": _points,
    "gold_corners": lambda data, who: ngettext(
        "%(who)s: gold card, %(num)d corner covered: +%(points)s", "%(who)s: gold card, %(num)d corners covered: +%(points)s",
        data["corners"], who=who, points=rules.gold_corner_points(data["corners"])),
    "gold_objects": _gold_objects,
    "decks_empty": lambda data, who: _("Both decks empty during %(who)s's turn: the end is triggered", who=who),
    "turn_played": lambda data, who: _("A last turn is played"),
    "common_objectives": lambda data, who: _("Common objectives: cards %(first)s and %(second)s",
                                             first=data["cards"][0], second=data["cards"][1]),
    "secret_objective": lambda data, who: _("%(who)s: secret objective chosen", who=who),
    "count": lambda data, who: _("%(who)s: %(symbol)s %(delta)s", who=who, symbol=symbol_name(data["symbol"]),
                                 delta=format(data["delta"], "+d")),
    "set_count": lambda data, who: _("%(who)s: %(symbol)s = %(value)s", who=who, symbol=symbol_name(data["symbol"]),
                                     value=data["value"]),
    "pattern_count": lambda data, who: _("%(who)s: pattern card %(card)s %(delta)s", who=who, card=data["card"],
                                         delta=format(data["delta"], "+d")),
    "pattern_grid": lambda data, who: ngettext(
        "%(who)s: pattern card %(card)s laid out (%(num)d card)", "%(who)s: pattern card %(card)s laid out (%(num)d cards)",
        len(data["cells"]), who=who, card=data["card"]),
    "play_card": _played,
    "finish": lambda data, who: _("Objectives counted: game over"),
    calculator.SHEET: calculator.sheet_line,
}


def describe(type_: str, data: Any, names: list[str]) -> str:
    """Say what an event did in plain words, for the history panel."""
    return describe_event(LINES, type_, data, names)
