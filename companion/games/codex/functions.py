"""The JSON rules functions of CONTRACT.md "## codex": check the document, call rules.py.

Each function takes the parsed JSON document and returns the JSON result, or raises
RulesError naming the offending field (unknown keys included) so that nothing is stored.
All of Codex's document checks live here; table.py checks its events with them.
"""

from __future__ import annotations

from typing import Any, Iterator

from ..base import RulesFunction
from ..speech import gettext as _
from ..validation import RulesError, at, choice, distinct, listof, names, obj, text, unique_names, whole
from . import cards as catalogue
from . import rules
from .cards import KINGDOMS, OBJECTS, SIDES, SYMBOLS

COUNT_MAX = 999
POINTS_MAX = 99
#: [CN31] 40 resource + 40 gold cards beside the starter: a play area holds at most 81 cards
AREA_MAX = 81
COORD = 80  # a play area of 81 cards spans at most 80 steps from the starter

OBJECTIVE_KINDS = {
    "object_pairs": ("kind", "object", "points"),
    "object_set": ("kind", "points"),
    "resource_triples": ("kind", "resource", "points"),
    "pattern": ("kind", "points", "count"),
}


def objective_card(value: Any, field: str, pattern: bool = False) -> int:
    """Check an objective card id (a pattern card's id when pattern=True)."""
    allowed = catalogue.pattern_ids() if pattern else catalogue.objective_ids()
    said = {"card": value, "first": min(allowed), "last": max(allowed)}
    if isinstance(value, bool) or not isinstance(value, int) or value not in allowed:
        c = catalogue.card(value) if isinstance(value, int) and not isinstance(value, bool) else None
        if c is not None and pattern:
            raise RulesError(field, _("card %(card)s is not a pattern objective card; those are cards %(first)s to %(last)s", **said))
        if c is not None:
            raise RulesError(field, _("card %(card)s is not an objective card; those are cards %(first)s to %(last)s", **said))
        if pattern:
            raise RulesError(field, _("must be a pattern objective card: a card number from %(first)s to %(last)s", **said))
        raise RulesError(field, _("must be an objective card: a card number from %(first)s to %(last)s", **said))
    return value


def playable_card(value: Any, field: str) -> int:
    """Check the id of a resource, gold or starter card."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise RulesError(field, _("must be a card number from 1 to 86"))
    c = catalogue.card(value)
    if c is None:
        raise RulesError(field, _("unknown card number %(card)s; the playable cards are 1 to 86", card=value))
    if c["kind"] not in catalogue.PLAYABLE:
        raise RulesError(field, _("card %(card)s is an objective card; the playable cards are 1 to 86", card=value))
    return value


def visible_counts(value: Any, field: str) -> dict[str, int]:
    """Check {symbol: count}; a symbol left out counts 0."""
    obj(value, field, optional=SYMBOLS)
    return {s: whole(value.get(s, 0), at(field, s), 0, COUNT_MAX) for s in SYMBOLS}


def objective(value: Any, field: str) -> tuple[dict, int]:
    """Check one objective (contract form or `{"card": ID}`); return (objective, pattern count)."""
    if isinstance(value, dict) and "card" in value:
        card_id = objective_card(value["card"], at(field, "card"))
        spec = rules.objective_from_card(card_id)
        if spec["kind"] == "pattern":
            obj(value, field, required=("card", "count"))
            return spec, whole(value["count"], at(field, "count"), 0, COUNT_MAX)
        obj(value, field, required=("card",))
        return spec, 0
    if not isinstance(value, dict):
        raise RulesError(field, "must be an objective object, for example {\"card\": 99} or {\"kind\": \"object_set\", \"points\": 3}")
    if "kind" not in value:
        raise RulesError(at(field, "kind"), f"is required (one of: {', '.join(OBJECTIVE_KINDS)}), or give the objective's card number as \"card\"")
    kind = choice(value["kind"], at(field, "kind"), OBJECTIVE_KINDS)
    obj(value, field, required=OBJECTIVE_KINDS[kind])
    spec = {"kind": kind, "points": whole(value["points"], at(field, "points"), 0, POINTS_MAX)}
    if kind == "object_pairs":
        spec["object"] = choice(value["object"], at(field, "object"), OBJECTS)
    if kind == "resource_triples":
        spec["resource"] = choice(value["resource"], at(field, "resource"), KINGDOMS)
    count = whole(value["count"], at(field, "count"), 0, COUNT_MAX) if kind == "pattern" else 0
    return spec, count


def score(doc: Any) -> dict:
    """Final scoring [CN46-56]: placement points plus each objective, ranked with the tie-break."""
    obj(doc, "$", required=("players",))
    players = listof(doc["players"], "players", 1, 4)
    results = []
    for i, p in enumerate(players):
        path = at("players", i)
        obj(p, path, required=("name", "placement_points", "visible", "objectives"))
        name = text(p["name"], at(path, "name"))
        placement = whole(p["placement_points"], at(path, "placement_points"), 0, COUNT_MAX)
        visible = visible_counts(p["visible"], at(path, "visible"))
        items = listof(p["objectives"], at(path, "objectives"), 0, 16)
        detail = []
        for j, item in enumerate(items):
            spec, count = objective(item, at(at(path, "objectives"), j))
            detail.append(rules.objective_points(spec, visible, count))
        objectives = sum(detail)
        # [CN55] placement points + the two common objectives + the secret one
        results.append({"name": name, "total": placement + objectives,
                        "breakdown": {"placement": placement, "objectives": objectives},
                        "objectives_detail": detail})
    unique_names(results)
    winners, ranks = rules.places_by_total(results)
    return {"players": results, "winners": winners, "places": ranks}


def _cell(value: Any, field: str) -> tuple[int, int]:
    x = whole(value["x"], at(field, "x"), -COORD, COORD)
    y = whole(value["y"], at(field, "y"), -COORD, COORD)
    if not rules.on_grid(x, y):
        raise RulesError(field, _("(%(x)s, %(y)s) is no place on the grid: cards sit where x + y is even", x=x, y=y))
    return x, y


def _plays(items: list) -> Iterator[tuple[int, str, int, int]]:
    """Check each card of a manuscript document as rules.replay reaches it: (id, side, x, y)."""
    for i, item in enumerate(items):
        path = at("cards", i)
        obj(item, path, required=("id", "side", "x", "y"))
        yield (playable_card(item["id"], at(path, "id")), choice(item["side"], at(path, "side"), SIDES),
               whole(item["x"], at(path, "x"), -COORD, COORD), whole(item["y"], at(path, "y"), -COORD, COORD))


def manuscript(doc: Any) -> dict:
    """Replay a play area card by card, check each placement [CN39-42] and score it."""
    obj(doc, "$", required=("cards", "objectives"))
    # each card is checked, then laid, before the next is read: the first bad card is the one named
    layout = rules.replay(_plays(listof(doc["cards"], "cards", 1, AREA_MAX)))
    objective_ids = distinct(doc["objectives"], "objectives", objective_card, 0, 16, "objective {} is listed twice")
    scored = rules.score_layout(layout, objective_ids)
    index = layout.at
    return {
        "placement_points": layout.points,
        "placement_total": sum(layout.points),
        "visible": dict(layout.visible),
        "objectives": {str(oid): pts for oid, (pts, _) in scored.items()},
        # optional: the card indices (in `cards`) of each pattern occurrence counted
        "occurrences": {str(oid): [[index[cell] for cell in occ] for occ in used]
                        for oid, (_, used) in scored.items() if rules.objective_from_card(oid)["kind"] == "pattern"},
    }


def patterns(doc: Any) -> dict:
    """Count card-disjoint occurrences of a pattern objective from card colours alone [CN50]."""
    obj(doc, "$", required=("cells", "objective"))
    oid = objective_card(doc["objective"], "objective", pattern=True)
    items = listof(doc["cells"], "cells", 0, AREA_MAX - 1)
    kingdoms: dict[tuple[int, int], str] = {}
    index: dict[tuple[int, int], int] = {}
    for i, item in enumerate(items):
        path = at("cells", i)
        obj(item, path, required=("x", "y", "kingdom"))
        cell = _cell(item, path)
        kingdom = choice(item["kingdom"], at(path, "kingdom"), KINGDOMS)
        if cell in kingdoms:
            raise RulesError(path, _("two cells at (%(x)s, %(y)s): cells[%(other)s] is there already", x=cell[0], y=cell[1], other=index[cell]))
        kingdoms[cell] = kingdom
        index[cell] = i
    used = rules.count_pattern(kingdoms, oid)
    return {"count": len(used), "occurrences": [[index[cell] for cell in occ] for occ in used]}


def final_turns(doc: Any) -> dict:
    """The turns still to play once the end is triggered [CN53-54]."""
    obj(doc, "$", required=("players", "trigger"))
    order = names(doc["players"], "players", 2, 4)  # [CN header] 2-4 players
    trigger = choice(doc["trigger"], "trigger", order)
    return {"turns": rules.final_turns(order, trigger)}


FUNCTIONS = {
    "score": RulesFunction("score", "final scoring: placement points + objectives, ties by objective points", score),
    "manuscript": RulesFunction("manuscript", "replay a play area from the card data, check every placement and score it", manuscript),
    "patterns": RulesFunction("patterns", "largest number of card-disjoint occurrences of a pattern objective in a grid of colours", patterns),
    "final_turns": RulesFunction("final_turns", "the turns still to play once the end is triggered", final_turns),
}
