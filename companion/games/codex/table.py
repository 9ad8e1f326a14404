"""A Codex Naturalis table: the score track, the end trigger, manuscripts and the objective counter.

State (JSON, players by seat index, seats in clockwise order as entered):

    {"target": 20, "first": null | SEAT, "draws": N,
     "scores": [placement points per seat],
     "end": null | {"reason": "target" | "decks", "trigger": SEAT, "played": N,
                    "turns": [SEAT, ...] (null until the first player is known)},
     "common": [objective ids], "secret": [objective id or null per seat],
     "counts": [{symbol: n} per seat],                  (typed-in visible counts)
     "patterns": [{"ID": {"count": n} | {"cells": [...]}} per seat],
     "manuscripts": [[{"id", "side", "x", "y", "points"}, ...] per seat],
     "finished": false}

A seat with a manuscript has its visible counts and pattern counts computed from it.
"""

from __future__ import annotations

from typing import Any

from ..base import Context, clone
from ..validation import RulesError, at, choice, listof, obj, whole
from . import functions, rules
from . import cards as catalogue
from .cards import KINGDOMS, OBJECTS, SIDES, SYMBOLS

QUICK_POINTS = (1, 2, 3, 5)  # [CN46] "1, 3 or 5 points"; 2 for the gold cards' 2 per corner [CN47]
KINGDOM_CYCLE = ("",) + KINGDOMS  # the grid editor's tap order

EVENTS = {
    "first_player": '{"player": SEAT}: this player starts; play goes clockwise in seat order [CN36]',
    "draw_first_player": "{}: the app draws the first player at random [CN36]",
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
    "finish": "{}: the objectives are counted: the game is over (undo reopens it)",
}

OPTIONS = {
    "target": "20 (official, default) or 30 (the long-game variant): the score that triggers the end [CN53, CN65-69]",
    "first_player": "optional seat index (0 = first name) of the first player; left out, the table draws or chooses it at the start",
}


# --- setup ------------------------------------------------------------------------------------

def validate_options(options: Any, player_count: int) -> dict:
    """Check the setup options: the target (20 or 30) and an optional first player."""
    obj(options, "$", optional=("target", "first_player"))
    clean = {"target": 20}
    if "target" in options:
        target = whole(options["target"], "target")
        if target not in rules.TARGETS:
            raise RulesError("target", "must be 20 (official) or 30 (the long-game variant)")
        clean["target"] = target
    if options.get("first_player") is not None:
        clean["first_player"] = whole(options["first_player"], "first_player", 0, player_count - 1)
    return clean


def initial_state(names: list[str], options: dict) -> dict:
    """Return a new table's state."""
    n = len(names)
    return {
        "target": options.get("target", 20),
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
    }


def turn_order(state: dict) -> list[int]:
    """Return the seats in turn order, first player first (clockwise = seat order) [CN36]."""
    n = len(state["scores"])
    first = state["first"] or 0
    return [(first + i) % n for i in range(n)]


# --- events -----------------------------------------------------------------------------------

def _seat(data: dict, state: dict) -> int:
    return whole(data["player"], "data.player", 0, len(state["scores"]) - 1)


def _add_points(state: dict, seat: int, delta: int) -> None:
    """Move a score and trigger the end when it reaches the target [CN53]."""
    new = state["scores"][seat] + delta
    if new < 0:
        raise RulesError("data.delta", f"a score never goes below 0 (it is {state['scores'][seat]})")
    state["scores"][seat] = new
    # [CN53] "as soon as a player reaches or passes 20 points" (30 in the variant [CN67])
    if state["end"] is None and delta > 0 and rules.reaches_target(new, state["target"]):
        _trigger(state, seat, "target")


def _trigger(state: dict, seat: int, reason: str) -> None:
    state["end"] = {"reason": reason, "trigger": seat, "turns": None, "played": 0}
    _last_turns(state)


def _last_turns(state: dict) -> None:
    """Name the turns still to play once both the trigger and the first player are known."""
    end = state["end"]
    if end is not None and end["turns"] is None and state["first"] is not None:
        # [CN54] finish the current round, then everyone plays once more
        end["turns"] = rules.final_turns(turn_order(state), end["trigger"])


def objectives_of(state: dict, seat: int) -> list[int]:
    """Return a seat's objectives: the two common ones, then its secret one [CN55]."""
    secret = state["secret"][seat]
    return list(state["common"]) + ([secret] if secret is not None else [])


def layout_of(state: dict, seat: int) -> rules.Layout:
    """Rebuild a seat's manuscript (each card was checked when it was laid)."""
    return rules.replay((c["id"], c["side"], c["x"], c["y"]) for c in state["manuscripts"][seat])


def apply(state: dict, type_: str, data: Any, ctx: Context) -> dict:
    """Return the state after one event; raise RulesError (nothing changes) if it is invalid."""
    spec = SHAPES.get(type_)
    if spec is None:
        raise RulesError("type", f"unknown event type for Codex Naturalis: {type_!r}; allowed: {', '.join(EVENTS)}, rename")
    obj(data, "data", required=spec, optional=OPTIONAL.get(type_, ()))
    if state["finished"] and type_ != "finish":
        raise RulesError("type", "the game is over; undo the finish to change anything")
    state = clone(state)
    handler = HANDLERS[type_]
    handler(state, data, ctx)
    return state


def _first_player(state, data, ctx):
    seat = _seat(data, state)
    _first_may_change(state, "data.player")
    state["first"] = seat
    _last_turns(state)


def _draw_first_player(state, data, ctx):
    _first_may_change(state, "type")
    # [CN36] "The first player is chosen at random"; the draw counter keeps a redo identical
    state["first"] = ctx.rng("first_player", state["draws"]).randrange(len(state["scores"]))
    state["draws"] += 1
    _last_turns(state)


def _first_may_change(state: dict, field: str) -> None:
    if state["end"] is not None and state["end"]["turns"] is not None:
        raise RulesError(field, "the last turns are already named from the first player; undo the end trigger to change it")


def _points(state, data, ctx):
    seat = _seat(data, state)
    delta = whole(data["delta"], "data.delta", -99, 99)
    if delta == 0:
        raise RulesError("data.delta", "must not be 0 (a whole number from -99 to 99)")
    _add_points(state, seat, delta)


def _gold_corners(state, data, ctx):
    seat = _seat(data, state)
    corners = whole(data["corners"], "data.corners", 1, 4)
    _add_points(state, seat, 2 * corners)  # [CN47] 2 points per corner covered


def _gold_objects(state, data, ctx):
    seat = _seat(data, state)
    choice(data["object"], "data.object", OBJECTS)
    count = whole(data["count"], "data.count", 1, 99)
    _add_points(state, seat, count)  # [CN48] 1 point per visible copy, the card's own included


def _decks_empty(state, data, ctx):
    seat = _seat(data, state)
    if state["end"] is not None:
        raise RulesError("type", "the end is already triggered")
    _trigger(state, seat, "decks")  # [CN53] no more cards to draw (CDX-C1: both decks)


def _turn_played(state, data, ctx):
    end = state["end"]
    if end is None:
        raise RulesError("type", "the end is not triggered yet: there are no last turns to tick off")
    if end["turns"] is None:
        raise RulesError("type", "choose the first player first: the last turns depend on who started [CN36, CN54]")
    if end["played"] >= len(end["turns"]):
        raise RulesError("type", "every last turn is already played")
    end["played"] += 1


def _common(state, data, ctx):
    ids = listof(data["cards"], "data.cards", 2, 2)
    for i, oid in enumerate(ids):
        functions.objective_card(oid, f"data.cards[{i}]")
    if ids[0] == ids[1]:
        raise RulesError("data.cards[1]", f"card {ids[1]} is already the other common objective; there are two different ones [CN35]")
    for seat, secret in enumerate(state["secret"]):
        if secret in ids:
            raise RulesError(f"data.cards[{ids.index(secret)}]", f"card {secret} is already a secret objective; each card exists once")
    state["common"] = list(ids)
    for seat in range(len(state["patterns"])):
        _keep_own_patterns(state, seat)


def _secret(state, data, ctx):
    seat = _seat(data, state)
    oid = functions.objective_card(data["card"], "data.card")
    if oid in state["common"]:
        raise RulesError("data.card", f"card {oid} is a common objective; the secret one is another card")
    for other, secret in enumerate(state["secret"]):
        if other != seat and secret == oid:
            raise RulesError("data.card", f"card {oid} is already another player's secret objective; each card exists once")
    state["secret"][seat] = oid
    _keep_own_patterns(state, seat)


def _keep_own_patterns(state: dict, seat: int) -> None:
    """Drop pattern counts of cards that are no longer among the seat's objectives."""
    mine = objectives_of(state, seat)
    state["patterns"][seat] = {k: v for k, v in state["patterns"][seat].items() if int(k) in mine}


def _no_manuscript(state, seat):
    if state["manuscripts"][seat]:
        raise RulesError("data.player", "this player's counts come from the manuscript; undo its cards to type counts instead")


def _count(state, data, ctx):
    seat = _seat(data, state)
    symbol = choice(data["symbol"], "data.symbol", SYMBOLS)
    delta = whole(data["delta"], "data.delta", -999, 999)
    _no_manuscript(state, seat)
    new = state["counts"][seat][symbol] + delta
    if not 0 <= new <= functions.COUNT_MAX:
        raise RulesError("data.delta", f"a count stays from 0 to {functions.COUNT_MAX} (it is {state['counts'][seat][symbol]})")
    state["counts"][seat][symbol] = new


def _set_count(state, data, ctx):
    seat = _seat(data, state)
    symbol = choice(data["symbol"], "data.symbol", SYMBOLS)
    value = whole(data["value"], "data.value", 0, functions.COUNT_MAX)
    _no_manuscript(state, seat)
    state["counts"][seat][symbol] = value


def _pattern_card(state, data, seat) -> int:
    oid = functions.objective_card(data["card"], "data.card", pattern=True)
    if oid not in objectives_of(state, seat):
        raise RulesError("data.card", f"card {oid} is not one of this player's objectives; choose the objectives first")
    _no_manuscript(state, seat)
    return oid


def _pattern_count(state, data, ctx):
    seat = _seat(data, state)
    oid = _pattern_card(state, data, seat)
    delta = whole(data["delta"], "data.delta", -99, 99)
    now = pattern_count(state, seat, oid)[0]
    if now + delta < 0:
        raise RulesError("data.delta", f"a count never goes below 0 (it is {now})")
    state["patterns"][seat][str(oid)] = {"count": now + delta}


def _pattern_grid(state, data, ctx):
    seat = _seat(data, state)
    oid = _pattern_card(state, data, seat)
    # the same checks as the patterns function, with paths under data
    try:
        functions.patterns({"cells": data["cells"], "objective": oid})
    except RulesError as err:
        raise RulesError(f"data.{err.field}", err.message) from None
    cells = [{"x": c["x"], "y": c["y"], "kingdom": c["kingdom"]} for c in data["cells"]]
    state["patterns"][seat][str(oid)] = {"cells": cells}


def _play_card(state, data, ctx):
    seat = _seat(data, state)
    card_id = functions.playable_card(data["id"], "data.id")
    side = choice(data["side"], "data.side", SIDES)
    x, y = _where(data)
    layout = layout_of(state, seat)
    points = layout.place(card_id, side, x, y, "data.id")  # [CN39-42], message names the card
    state["manuscripts"][seat].append({"id": card_id, "side": side, "x": x, "y": y, "points": points})
    if points:
        _add_points(state, seat, points)


def _where(data: dict) -> tuple[int, int]:
    """Read the place: "x" and "y" as in the manuscript function, or "cell": [x, y] (one form field)."""
    if "cell" in data:
        if "x" in data or "y" in data:
            raise RulesError("data.cell", "give either cell or x and y, not both")
        cell = listof(data["cell"], "data.cell", 2, 2)
        return whole(cell[0], "data.cell[0]", -functions.COORD, functions.COORD), whole(cell[1], "data.cell[1]", -functions.COORD, functions.COORD)
    for key in ("x", "y"):
        if key not in data:
            raise RulesError("data.cell", "choose a free place for the card (x and y, or cell)")
    return whole(data["x"], "data.x", -functions.COORD, functions.COORD), whole(data["y"], "data.y", -functions.COORD, functions.COORD)


def _finish(state, data, ctx):
    if state["finished"]:
        raise RulesError("type", "the game is already over")
    state["finished"] = True


SHAPES = {
    "first_player": ("player",), "draw_first_player": (), "points": ("player", "delta"),
    "gold_corners": ("player", "corners"), "gold_objects": ("player", "object", "count"),
    "decks_empty": ("player",), "turn_played": (), "common_objectives": ("cards",),
    "secret_objective": ("player", "card"), "count": ("player", "symbol", "delta"),
    "set_count": ("player", "symbol", "value"), "pattern_count": ("player", "card", "delta"),
    "pattern_grid": ("player", "card", "cells"), "play_card": ("player", "id", "side"), "finish": (),
}
OPTIONAL = {"play_card": ("x", "y", "cell")}
HANDLERS = {
    "first_player": _first_player, "draw_first_player": _draw_first_player, "points": _points,
    "gold_corners": _gold_corners, "gold_objects": _gold_objects, "decks_empty": _decks_empty,
    "turn_played": _turn_played, "common_objectives": _common, "secret_objective": _secret,
    "count": _count, "set_count": _set_count, "pattern_count": _pattern_count,
    "pattern_grid": _pattern_grid, "play_card": _play_card, "finish": _finish,
}
assert set(SHAPES) == set(HANDLERS) == set(EVENTS)


# --- what the pages show ------------------------------------------------------------------------

def counter(state: dict, type_: str, data: dict) -> int | None:
    """Return what the end screen's stepper for this event shows (see Game.counter)."""
    seat = data.get("player")
    if not isinstance(seat, int) or not 0 <= seat < len(state["counts"]):
        return None
    if type_ == "count" and data.get("symbol") in state["counts"][seat]:
        return state["counts"][seat][data["symbol"]]
    if type_ == "pattern_count" and isinstance(data.get("card"), int):
        return pattern_count(state, seat, data["card"])[0]
    return None


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


def final_score(state: dict, names: list[str]) -> dict:
    """Score every seat with the contract's `score` function, from typed counts or manuscripts."""
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
        players.append({"name": name, "placement_points": state["scores"][seat], "visible": visible, "objectives": items})
        detail.append({"source": source, "visible": visible, "visible_text": rules.symbols_text(visible) or "nothing",
                       "objectives": objectives, "counts": counts})
    result = functions.score({"players": players})
    for r, d in zip(result["players"], detail):
        r.update(d)
    return result


def describe(type_: str, data: Any, names: list[str]) -> str:
    """Say what an event did in plain words, for the history panel."""
    who = names[data["player"]] if isinstance(data, dict) and isinstance(data.get("player"), int) and data["player"] < len(names) else ""
    if type_ == "first_player":
        return f"{who} plays first"
    if type_ == "draw_first_player":
        return "First player drawn at random"
    if type_ == "points":
        return f"{who}: {data['delta']:+d} points"
    if type_ == "gold_corners":
        return f"{who}: gold card, {data['corners']} corner(s) covered: +{2 * data['corners']}"
    if type_ == "gold_objects":
        return f"{who}: gold card, {data['count']} {data['object']}(s) visible: +{data['count']}"
    if type_ == "decks_empty":
        return f"Both decks empty during {who}'s turn: the end is triggered"
    if type_ == "turn_played":
        return "A last turn is played"
    if type_ == "common_objectives":
        return f"Common objectives: cards {data['cards'][0]} and {data['cards'][1]}"
    if type_ == "secret_objective":
        return f"{who}: secret objective chosen"
    if type_ == "count":
        return f"{who}: {data['symbol']} {data['delta']:+d}"
    if type_ == "set_count":
        return f"{who}: {data['symbol']} = {data['value']}"
    if type_ == "pattern_count":
        return f"{who}: pattern card {data['card']} {data['delta']:+d}"
    if type_ == "pattern_grid":
        return f"{who}: pattern card {data['card']} laid out ({len(data['cells'])} cards)"
    if type_ == "play_card":
        x, y = _where(data)
        return f"{who}: card {data['id']} {'face down' if data['side'] == 'back' else 'face up'} at ({x}, {y})"
    if type_ == "finish":
        return "Objectives counted: game over"
    return type_.replace("_", " ")


# --- views ----------------------------------------------------------------------------------------

SYMBOL_SHORT = {"fungi": "Fu", "plant": "Pl", "animal": "An", "insect": "In",
                "quill": "Qu", "inkwell": "Ink", "manuscript": "Ms", "empty": "", "hidden": "×"}


def objective_cards() -> list[dict]:
    """Return the 16 objective cards as the counter shows them: text and, for patterns, a drawing."""
    out = []
    for oid in catalogue.objective_ids():
        c = catalogue.card(oid)
        spec = c["objective"]
        item = {"id": oid, "points": c["points"], "kind": spec["type"], "kingdom": c["kingdom"],
                "text": catalogue.objective_text(c), "drawing": None}
        if spec["type"] == "pattern":
            item["drawing"] = brick([(cell["x"], cell["y"], cell["kingdom"]) for cell in spec["cells"]])
        out.append(item)
    return out


def brick(cells: list[tuple[int, int, str | None]], pad: int = 0) -> dict:
    """Lay cells (x, y, value) out on the game's diagonal grid as CSS grid places.

    A card is two columns wide; the card at (x+1, y+1) sits one column right and one row up,
    so rows interlock like the cards' corners. Returns columns, rows and each cell's place.
    """
    if not cells:
        return {"cols": 2, "rows": 1, "cells": []}
    xs = [c[0] for c in cells]
    ys = [c[1] for c in cells]
    x0, x1, y0, y1 = min(xs) - pad, max(xs) + pad, min(ys) - pad, max(ys) + pad
    placed = [{"x": x, "y": y, "value": v, "col": x - x0 + 1, "row": y1 - y + 1} for x, y, v in cells]
    return {"cols": x1 - x0 + 2, "rows": y1 - y0 + 1, "cells": placed}


def card_face(card_id: int, side: str) -> dict:
    """Return what a small card drawing shows: colour, corners, centre, points."""
    c = catalogue.card(card_id)
    face = c[side]
    corners = {k: SYMBOL_SHORT.get(v, v) for k, v in face["corners"].items()}
    return {"id": card_id, "kind": c["kind"], "kingdom": c["kingdom"] or "starter", "side": side,
            "corners": corners, "raw": face["corners"], "center": [SYMBOL_SHORT[s] for s in face["center"]],
            "points": points_text(c) if side == "front" else "",
            "requirement": " ".join(f"{n}{SYMBOL_SHORT[k]}" for k, n in c.get("requirement", {}).items()) if side == "front" else ""}


def points_text(c: dict) -> str:
    """Say a card's placement points as printed ("3", "2/corner", "1/Qu")."""
    if c["kind"] == "gold":
        rule = c["scoring"]
        if rule == "flat":
            return str(c["points"])
        if rule == "per_covered_corner":
            return f"{c['points']}/corner"
        return f"{c['points']}/{SYMBOL_SHORT[catalogue.PER_OBJECT[rule]]}"
    return str(c["points"]) if c["points"] else ""


def picker(state: dict, seat: int) -> list[dict]:
    """Return the cards that may still be laid in a seat's manuscript, for the picker."""
    used = {c["id"] for c in state["manuscripts"][seat]}
    wanted = ("starter",) if not used else ("resource", "gold")
    out = []
    for cid in catalogue.playable_ids():
        c = catalogue.card(cid)
        if cid in used or c["kind"] not in wanted:
            continue
        face = card_face(cid, "front")
        face["filters"] = {"kind": c["kind"], "kingdom": c["kingdom"] or "starter", "points": "1/object" if c.get("scoring") in catalogue.PER_OBJECT else points_text(c) or "0",
                           "corners": " ".join(sorted({v for v in c["front"]["corners"].values() if v in SYMBOLS}))}
        out.append(face)
    return out


def manuscript_view(state: dict, seat: int) -> dict:
    """Return a seat's manuscript for its screen: the cards, the free places, the picker."""
    layout = layout_of(state, seat)
    cards = []
    for i, p in enumerate(layout.placed):
        face = card_face(p.id, p.side)
        face["covered"] = [corner for corner in face["corners"] if (i, corner) in layout.covered]
        cards.append((p.x, p.y, {"face": face, "points": p.points, "index": i}))
    free = [(x, y, None) for x, y in layout.free_cells()] if layout.placed else [(0, 0, None)]
    grid = brick(cards + free)
    visible = dict(layout.visible)
    return {"seat": seat, "grid": grid, "count": len(layout.placed), "visible": visible,
            "visible_text": rules.symbols_text(visible) or "nothing yet",
            "points": sum(layout.points), "picker": picker(state, seat),
            "symbols": SYMBOLS, "kingdoms": KINGDOMS}


def grid_view(state: dict, seat: int, oid: int) -> dict:
    """Return the pattern grid editor: a field of places, the stored colours, the occurrences."""
    count, used, cells = pattern_count(state, seat, oid)
    colour = {(c["x"], c["y"]): c["kingdom"] for c in (cells or [])}
    hit = {}
    for n, occ in enumerate(used, 1):
        for cell in occ:
            hit[cell] = n
    xs = [x for x, _ in colour] + [-4, 4]
    ys = [y for _, y in colour] + [-5, 5]
    field = [(x, y, {"kingdom": colour.get((x, y), ""), "hit": hit.get((x, y))})
             for x in range(min(xs), max(xs) + 1) for y in range(min(ys), max(ys) + 1) if (x + y) % 2 == 0]
    card = next(o for o in objective_cards() if o["id"] == oid)
    blocked = None
    if state["manuscripts"][seat]:
        blocked = "This player's patterns are counted from the manuscript."
    elif oid not in objectives_of(state, seat):
        blocked = f"Card {oid} is not one of this player's objectives yet: choose the objectives first."
    return {"seat": seat, "card": card, "count": count, "grid": brick(field), "laid": cells is not None, "cells": cells or [],
            "blocked": blocked,
            "cycle": KINGDOM_CYCLE}


def counter_view(state: dict, seat: int) -> dict:
    """Return what the objective counter asks of one seat: the symbols and patterns that matter."""
    objectives = objectives_of(state, seat)
    symbols: list[str] = []
    patterns = []
    for oid in objectives:
        c = catalogue.card(oid)
        spec = c["objective"]
        if spec["type"] == "pattern":
            count, _, cells = pattern_count(state, seat, oid)
            patterns.append({"card": oid, "count": count, "laid": cells is not None})
        else:
            symbols += [s for s in spec["counts"] if s not in symbols]
    return {"seat": seat, "symbols": [s for s in SYMBOLS if s in symbols], "patterns": patterns,
            "manuscript": bool(state["manuscripts"][seat]), "counts": state["counts"][seat],
            "secret": state["secret"][seat]}


def tie_notes(result: dict) -> list[str]:
    """Say how equal totals were settled [CN56]: by objective points, or a shared place."""
    notes = []
    by_total: dict[int, list[dict]] = {}
    for r in result["players"]:
        by_total.setdefault(r["total"], []).append(r)
    for total, group in sorted(by_total.items(), reverse=True):
        if len(group) < 2:
            continue
        names = " and ".join(r["name"] for r in group)
        if len({result["places"][r["name"]] for r in group}) == 1:
            notes.append(f"{names} tie on {total} with the same objective points: they share the place.")
        else:
            notes.append(f"{names} tie on {total}: most objective points ranks first.")
    return notes


def parse_screen(screen: str | None, n: int) -> tuple[str, int | None, int | None]:
    """Split `book-SEAT` and `grid-SEAT-CARD` screens; anything unknown is the main screen."""
    parts = (screen or "").split("-")
    try:
        if parts[0] == "book" and len(parts) == 2 and 0 <= int(parts[1]) < n:
            return "book", int(parts[1]), None
        if parts[0] == "grid" and len(parts) == 3 and 0 <= int(parts[1]) < n and int(parts[2]) in catalogue.pattern_ids():
            return "grid", int(parts[1]), int(parts[2])
    except ValueError:
        pass
    if parts[0] == "end":
        return "end", None, None
    return "track", None, None


def view(state: dict, names: list[str], seat: int | None, screen: str | None) -> dict:
    """Return what templates/codex/panel.html shows, computed with the rules."""
    n = len(names)
    kind, who, oid = parse_screen(screen, n)
    if state["finished"] and kind == "track":
        kind = "end"
    order = turn_order(state)
    end = state["end"]
    banner = None
    if end is not None:
        turns = [{"seat": s, "name": names[s], "done": i < end["played"], "next": i == end["played"]}
                 for i, s in enumerate(end["turns"] or [])]
        banner = {"reason": end["reason"], "trigger": names[end["trigger"]], "turns": turns,
                  "left": len(turns) - end["played"], "known": end["turns"] is not None}
    out = {
        "kind": kind, "who": who, "target": state["target"], "quick": QUICK_POINTS,
        "first": None if state["first"] is None else names[state["first"]],
        "order": [names[s] for s in order] if state["first"] is not None else [],
        "banner": banner, "objects": OBJECTS, "symbols": SYMBOLS, "symbol_short": SYMBOL_SHORT,
        "players": [{"seat": s, "name": names[s], "score": state["scores"][s],
                     "cards": len(state["manuscripts"][s]),
                     "objectives": objectives_of(state, s)} for s in range(n)],
        "objective_cards": objective_cards(),
        "common": state["common"], "secret": state["secret"],
    }
    out["objective_by_id"] = {o["id"]: o for o in out["objective_cards"]}
    if kind == "book":
        out["book"] = manuscript_view(state, who)
    if kind == "grid":
        out["grid"] = grid_view(state, who, oid)
    if kind == "end":
        out["result"] = final_score(state, names)
        out["counter"] = [counter_view(state, s) for s in range(n)]
        out["ties"] = tie_notes(out["result"])
        out["ranking"] = sorted(out["result"]["players"], key=lambda r: out["result"]["places"][r["name"]])
    return out
