"""Codex Naturalis rules as plain functions over plain data (no Flask, no JSON checking).

Line references such as [CN46] point into the rules summary codex_naturalis.txt; the
readings followed are those of RULES.md CDX-C. The JSON functions of CONTRACT.md, with
their input checks, are in functions.py and call these.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable, Mapping, Sequence, TypeVar

from ..speech import gettext as _
from ..validation import RulesError, at, places
from . import cards as catalogue
from .cards import CORNERS, KINGDOMS, OBJECTS, OPPOSITE, PER_OBJECT, SYMBOLS
from .packing import max_disjoint
from ..turns import last_turns

T = TypeVar("T")

TARGETS = (20, 30)  # [CN53] 20 points; [CN65-69] the 30-point variant
COMMON_OBJECTIVES = 2  # [CN35] "Two objective cards are turned face up beside the track"
GOLD_PER_CORNER = 2  # [CN47] "2 points per corner covered by the card just played"
GOLD_PER_OBJECT = 1  # [CN48] "1 point for each visible copy, in the play area, of the object they show"


# --- end of the game ----------------------------------------------------------------------

def final_turns(players: Sequence[T], trigger: T) -> list[T]:
    """Return the turns still to play once `trigger`'s turn has triggered the end.

    `players` is the turn order, first player first. [CN54] "The current round is
    finished, then everyone plays one last time": the players after the trigger in this
    round, then one full round (CDX-C8: when the last player triggers, just one round).
    """
    order = list(players)
    return last_turns(order, order.index(trigger))


def reaches_target(score: int, target: int) -> bool:
    """[CN53] the end is triggered "as soon as a player reaches or passes" the target."""
    return score >= target


def reach_turn(seat: int, now: int, players: int) -> int:
    """Return the turn in which a seat's score reached the target, the turn `now` being played.

    Turns are numbered one after another clockwise, seat s playing turns s, s + players, ...
    [CN36]. Placement points are "recorded immediately" [CN46], in the turn of the player who
    places the card: so in that seat's own latest turn begun by `now` (a turn before the trigger's,
    negative, for points entered late). That turn is when the end was triggered [CN53].
    """
    return now - (now - seat) % players


def retriggered_end(reached: Sequence[int | None], done: int, order: Sequence[int] | None) -> dict | None:
    """Return the end as triggered by points once the trigger's own claim was taken back, or None.

    `reached` is, per seat, the turn in which its score reached the target (reach_turn), None
    where it is below the target now; `done` the latest turn played; `order` the seats in turn
    order, first player first (None while nobody chose it). [CN53] the end is triggered "as soon
    as a player reaches or passes 20 points": by the earliest of those turns. [CN54] "The current
    round is finished, then everyone plays one last time" from that turn (final_turns); the turns
    played since it, up to `done`, are last turns already played (RULES.md CDX-C9).
    """
    at = [(turn, seat) for seat, turn in enumerate(reached) if turn is not None]
    if not at:
        return None
    turn, seat = min(at)
    played = max(done - turn, 0)
    turns = None
    if order is not None:
        turns = final_turns(order, seat)
        played = min(played, len(turns))  # turns played past the end are no last turns
    return {"reason": "target", "trigger": seat, "turns": turns, "played": played}


def last_turns_left(end: Mapping | None) -> int | None:
    """Return how many of the last turns are still to play [CN54]: None while the end is not
    triggered or the last turns are not named yet (they need the first player [CN36])."""
    if end is None or end["turns"] is None:
        return None
    return len(end["turns"]) - end["played"]


def may_finish(end: Mapping | None) -> bool:
    """Return whether the objectives may be added now: the end was triggered [CN53] and every
    last turn is played ("The current round is finished, then everyone plays one last time"
    [CN54], "You then add the points from the ... objectives" [CN55])."""
    return last_turns_left(end) == 0


# --- placement points -----------------------------------------------------------------------

def gold_corner_points(corners: int, per: int = GOLD_PER_CORNER) -> int:
    """[CN47] a gold card that scores per corner: `per` points (2, as printed on every such card)
    for each corner the card just played covers."""
    return per * corners


def gold_object_points(copies: int, per: int = GOLD_PER_OBJECT) -> int:
    """[CN48] a gold card that scores per object: `per` point (1, as printed) for each visible copy
    of its object in the play area, "including that card"."""
    return per * copies


def on_grid(x: int, y: int) -> bool:
    """Return whether (x, y) is a place of a play area: a card covers the corners of the cards
    diagonally next to it [CN40], so cards sit on the diagonal grid, where x + y is even."""
    return x % 2 == y % 2


# --- objectives ---------------------------------------------------------------------------

def objectives(common: Sequence[int], secret: int | None) -> list[int]:
    """Return a player's objectives: the common ones, then the secret one once chosen [CN55]
    ("the points from the two common objectives and your secret objective")."""
    return list(common) + ([secret] if secret is not None else [])


def objective_from_card(card_id: int) -> dict:
    """Return an objective card as the contract's objective form (kind, symbol, points)."""
    c = catalogue.card(card_id)
    spec = c["objective"]
    if spec["type"] == "resources":
        (resource, _), = spec["counts"].items()
        return {"kind": "resource_triples", "resource": resource, "points": c["points"]}
    if spec["type"] == "objects":
        if len(spec["counts"]) == 3:
            return {"kind": "object_set", "points": c["points"]}
        (thing, _), = spec["counts"].items()
        return {"kind": "object_pairs", "object": thing, "points": c["points"]}
    return {"kind": "pattern", "points": c["points"], "card": card_id}


def objective_points(objective: Mapping, visible: Mapping[str, int], count: int = 0) -> int:
    """Return the points one objective gives, from the visible symbols or the pattern count.

    Count objectives count symbols (CDX-C5): floor(count / k) x points, so "three pairs of
    quills require six quills" [CN80]. Patterns score the card-disjoint count [CN50].
    """
    kind = objective["kind"]
    pts = objective["points"]
    if kind == "object_pairs":  # [CN49] 2 per pair of identical objects (CDX-C3: the card's object)
        return visible.get(objective["object"], 0) // 2 * pts
    if kind == "object_set":  # [CN49] 3 per set of three different objects
        return min(visible.get(o, 0) for o in OBJECTS) * pts
    if kind == "resource_triples":  # [CN49] 2 per set of three identical resources
        return visible.get(objective["resource"], 0) // 3 * pts
    if kind == "pattern":  # [CN49] 2 or 3 per exact reproduction of a pattern
        return count * pts
    raise ValueError(f"unknown objective kind {kind!r}")


def places_by_total(results: list[dict]) -> tuple[list[str], dict[str, int]]:
    """Rank players: [CN56] highest total, then most objective points, then a shared victory."""
    return places({r["name"]: (r["total"], r["breakdown"]["objectives"]) for r in results})


# --- patterns -----------------------------------------------------------------------------

def pattern_cells(card_id: int) -> list[tuple[int, int, str]]:
    """Return a pattern objective's cells as (dx, dy, kingdom), the first at (0, 0)."""
    return [(c["x"], c["y"], c["kingdom"]) for c in catalogue.card(card_id)["objective"]["cells"]]


def find_occurrences(kingdom_at: Mapping[tuple[int, int], str | None], card_id: int) -> list[tuple[tuple[int, int], ...]]:
    """Return every placement of the pattern in the layout (overlapping ones included).

    [CN49] "direction and colours included": the pattern is never turned round, so each
    card can anchor at most one occurrence.
    """
    shape = pattern_cells(card_id)
    found = []
    for (x, y), kingdom in kingdom_at.items():
        if kingdom != shape[0][2]:
            continue
        cells = tuple((x + dx, y + dy) for dx, dy, _ in shape)
        if all(kingdom_at.get(cell) == k for cell, (_, _, k) in zip(cells, shape)):
            found.append(cells)
    return sorted(found)


def count_pattern(kingdom_at: Mapping[tuple[int, int], str | None], card_id: int) -> list[tuple[tuple[int, int], ...]]:
    """Return a largest set of card-disjoint occurrences of the pattern [CN50] (CDX-C5)."""
    found = find_occurrences(kingdom_at, card_id)
    return [found[i] for i in max_disjoint(found)]


# --- the manuscript (a player's play area) ----------------------------------------------------

@dataclass
class Placed:
    """One card in a play area."""

    id: int
    side: str
    x: int
    y: int
    points: int

    @property
    def card(self) -> dict:
        return catalogue.card(self.id)

    @property
    def face(self) -> dict:
        return self.card[self.side]

    @property
    def kingdom(self) -> str | None:
        """The card's colour, whichever side it shows; starter cards have none (cards.md)."""
        return self.card["kingdom"]


@dataclass
class Layout:
    """A play area built card by card, checking each placement against [CN39-42]."""

    placed: list[Placed] = field(default_factory=list)
    at: dict[tuple[int, int], int] = field(default_factory=dict)  # cell -> index in placed
    covered: set[tuple[int, str]] = field(default_factory=set)  # (index, corner) under a card
    visible: dict[str, int] = field(default_factory=lambda: dict.fromkeys(SYMBOLS, 0))

    def check(self, card_id: int, side: str, x: int, y: int, where: str) -> tuple[list[tuple[int, str]], int]:
        """Check a placement; return (corners it covers, points it scores). Changes nothing."""
        c = catalogue.card(card_id)
        said = {"card": card_id, "x": x, "y": y}  # the words of every refusal below
        if any(p.id == card_id for p in self.placed):
            raise RulesError(where, _("card %(card)s is played twice; each card is in the play area once", **said))
        if not self.placed:
            if c["kind"] == "gold":
                raise RulesError(where, _("card %(card)s is a gold card; the first card of a play area is a starter card (81 to 86) [CN34]", **said))
            if c["kind"] != "starter":
                raise RulesError(where, _("card %(card)s is a resource card; the first card of a play area is a starter card (81 to 86) [CN34]", **said))
            if (x, y) != (0, 0):
                raise RulesError(where, _("card %(card)s: the starter card lies at (0, 0)", **said))
            return [], 0
        if c["kind"] == "starter":
            raise RulesError(where, _("card %(card)s is a starter card; only the first card of a play area is one [CN34]", **said))
        if not on_grid(x, y):
            raise RulesError(where, _("card %(card)s at (%(x)s, %(y)s): no such place; cards sit on the diagonal grid, where x + y is even", **said))
        if (x, y) in self.at:
            other = self.placed[self.at[(x, y)]].id
            raise RulesError(where, _("card %(card)s at (%(x)s, %(y)s): that place already holds card %(other)s", other=other, **said))
        covers = []
        for corner, (dx, dy) in CORNERS.items():
            other = self.at.get((x + dx, y + dy))
            if other is None:
                continue
            under = OPPOSITE[corner]
            if self.placed[other].face["corners"][under] == "hidden":
                # [CN40] it must cover visible corners; a hidden corner is no corner [CN72]
                raise RulesError(where, _("card %(card)s at (%(x)s, %(y)s) lands on a missing corner: the %(corner)s corner of card %(other)s is hidden",
                                          corner=_(catalogue.CORNER_WORDS[under]), other=self.placed[other].id, **said))
            covers.append((other, under))
        if not covers:
            raise RulesError(where, _("card %(card)s at (%(x)s, %(y)s) touches no card: it must cover at least one visible corner of a card already in place [CN40]", **said))
        points = 0
        if side == "front" and c["kind"] == "gold":
            # [CN42] the required resources are visible before it is placed
            need = c["requirement"]
            short = {k: n for k, n in need.items() if self.visible[k] < n}
            if short:
                wanted, seen = counts_text(need), counts_text({k: self.visible[k] for k in need})
                raise RulesError(where, _("card %(card)s is a gold card: face up it needs %(wanted)s visible before it is placed; visible: %(seen)s",
                                          wanted=wanted, seen=seen, **said))
        if side == "front":
            points = self._points(c, covers)
        return covers, points

    def _points(self, c: dict, covers: list[tuple[int, str]]) -> int:
        """Placement points of a face-up card [CN46-48]; face down gives them up [CN41]."""
        if c["kind"] == "resource":
            return c["points"]  # [CN46] as printed (0 or 1)
        if c["kind"] != "gold":
            return 0
        rule = c["scoring"]
        if rule == "flat":
            return c["points"]  # [CN46] 3 or 5
        if rule == "per_covered_corner":
            return gold_corner_points(len(covers), c["points"])  # [CN47] per corner covered by the card just played
        thing = PER_OBJECT[rule]
        # [CN48] each visible copy "including that card"; the corners it covers no longer count
        after = self.visible[thing]
        after -= sum(1 for i, corner in covers if self.placed[i].face["corners"][corner] == thing)
        after += sum(1 for v in c["front"]["corners"].values() if v == thing)
        after += c["front"]["center"].count(thing)
        return gold_object_points(after, c["points"])

    def place(self, card_id: int, side: str, x: int, y: int, where: str) -> int:
        """Check and lay one card; return its placement points. On error nothing changes."""
        covers, points = self.check(card_id, side, x, y, where)
        index = len(self.placed)
        for other, corner in covers:
            self.covered.add((other, corner))
            symbol = self.placed[other].face["corners"][corner]
            if symbol in self.visible:
                self.visible[symbol] -= 1
        p = Placed(card_id, side, x, y, points)
        self.placed.append(p)
        self.at[(x, y)] = index
        face = p.face
        for symbol in list(face["corners"].values()) + list(face["center"]):
            if symbol in self.visible:
                self.visible[symbol] += 1
        return points

    def free_cells(self) -> list[tuple[int, int]]:
        """Return the empty places next to the area where some card could be laid."""
        cells = set()
        for (x, y) in self.at:
            for dx, dy in CORNERS.values():
                cell = (x + dx, y + dy)
                if cell not in self.at:
                    cells.add(cell)
        legal = []
        for (x, y) in sorted(cells):
            ok = True
            for corner, (dx, dy) in CORNERS.items():
                other = self.at.get((x + dx, y + dy))
                if other is not None and self.placed[other].face["corners"][OPPOSITE[corner]] == "hidden":
                    ok = False
            if ok:
                legal.append((x, y))
        return legal

    def kingdoms(self) -> dict[tuple[int, int], str | None]:
        """Return each occupied cell's card colour (None for the starter)."""
        return {(p.x, p.y): p.kingdom for p in self.placed}

    @property
    def points(self) -> list[int]:
        return [p.points for p in self.placed]


def replay(plays: Iterable[tuple[int, str, int, int]]) -> Layout:
    """Lay the cards (id, side, x, y) in order; raise RulesError naming the first illegal one
    (`cards[i]`). `plays` is read one card at a time, so a card is checked before the next is read."""
    layout = Layout()
    for i, (card_id, side, x, y) in enumerate(plays):
        layout.place(card_id, side, x, y, at("cards", i))
    return layout


def score_layout(layout: Layout, objective_ids: Iterable[int]) -> dict[int, tuple[int, list]]:
    """Return {objective id: (points, occurrences used)} for a finished play area."""
    out = {}
    kingdoms = layout.kingdoms()
    for oid in objective_ids:
        objective = objective_from_card(oid)
        if objective["kind"] == "pattern":
            chosen = count_pattern(kingdoms, oid)
            out[oid] = (objective_points(objective, layout.visible, len(chosen)), chosen)
        else:
            out[oid] = (objective_points(objective, layout.visible), [])
    return out


def symbols_text(counts: Mapping[str, int]) -> str:
    """Say visible counts in words ("5 quills, 2 inkwells"), the symbols in the game's order, none left out."""
    return counts_text({s: counts[s] for s in SYMBOLS if counts.get(s)})


def counts_text(counts: Mapping[str, int]) -> str:
    """Say counts of symbols in words, in the order given ("3 fungi, 0 plants"), in the language spoken."""
    return ", ".join(catalogue.counted(s, n) for s, n in counts.items())


__all__ = [
    "COMMON_OBJECTIVES", "GOLD_PER_CORNER", "GOLD_PER_OBJECT", "KINGDOMS", "OBJECTS", "SYMBOLS", "TARGETS",
    "Layout", "Placed", "count_pattern", "final_turns", "find_occurrences", "gold_corner_points",
    "gold_object_points", "objective_from_card", "objective_points", "objectives", "on_grid",
    "places_by_total", "reaches_target", "replay", "score_layout",
]
