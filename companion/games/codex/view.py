"""What templates/codex/panel.html shows: the track, the end screen, manuscripts and pattern grids.
`view` computes it with the rules (calculator.py's scoring for the end screen); `counter` is an
end-screen stepper's number; `running_score`, `start_player` and `verdict` are what the archive and
the result endpoint read besides the result (Game's results); `screen_of` names the screen asked.
"""

from __future__ import annotations

from contextlib import suppress
from functools import reduce

from .. import sentence
from ..base import is_calculator, shown_notice
from ..sentence import Sentence
from ..speech import N_, gettext as _, ngettext, pgettext
from ..words import standing
from . import calculator, rules
from . import cards as catalogue
from .cards import CORNERS, KINGDOMS, OBJECTS, SYMBOLS, points_text, points_word, symbol_short
from .calculator import final_score, layout_of, objectives_of, pattern_count
from .table import STEP_MAX, TARGET_CHOICES
from .track import finish_blocker, turn_order

QUICK_POINTS = (1, 2, 3, 5)  # [CN46] "1, 3 or 5 points"; 2 for the gold cards' 2 per corner [CN47]
KINGDOM_CYCLE = ("",) + KINGDOMS  # the grid editor's tap order, empty first (static/codex/codex.js reads it from the page)


def running_score(state: dict, options: dict) -> list[int] | None:
    """Return each seat's points on the score track [CN46] (Game.running_score).

    None on a calculator table: its points are typed once at the end, nothing ran during the game.
    """
    return None if is_calculator(options) else list(state["scores"])


def start_player(state: dict, options: dict) -> int | None:
    """Return the seat that played first, once the table chose or drew it (Game.start_player).

    [CN36] "The first player is chosen at random; play then goes clockwise." None on a
    calculator table, and on a tracked table that never named its first player.
    """
    return None if is_calculator(options) else state["first"]


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


def brick(cells: list[tuple[int, int, str | None]]) -> dict:
    """Lay cells (x, y, value) out on the game's diagonal grid as CSS grid places.

    A card is two columns wide; the card at (x+1, y+1) sits one column right and one row up,
    so rows interlock like the cards' corners. Returns columns, rows and each cell's place.
    """
    if not cells:
        return {"cols": 2, "rows": 1, "cells": []}
    xs = [c[0] for c in cells]
    ys = [c[1] for c in cells]
    x0, x1, y0, y1 = min(xs), max(xs), min(ys), max(ys)
    placed = [{"x": x, "y": y, "value": v, "col": x - x0 + 1, "row": y1 - y + 1} for x, y, v in cells]
    return {"cols": x1 - x0 + 2, "rows": y1 - y0 + 1, "cells": placed}


def card_face(card_id: int, side: str) -> dict:
    """Return what a small card drawing shows: colour, corners, centre, points."""
    c = catalogue.card(card_id)
    face, short = c[side], symbol_short()
    corners = {k: short.get(v, v) for k, v in face["corners"].items()}
    return {"id": card_id, "kind": c["kind"], "kingdom": c["kingdom"] or "starter", "side": side,
            "corners": corners, "raw": face["corners"], "center": [short[s] for s in face["center"]],
            "points": points_text(c, short) if side == "front" else "",
            "requirement": " ".join(f"{n}{short[k]}" for k, n in c.get("requirement", {}).items()) if side == "front" else ""}


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
        face["filters"] = {"kind": c["kind"], "kingdom": c["kingdom"] or "starter", "points": picker_points(c),
                           "corners": " ".join(sorted({v for v in c["front"]["corners"].values() if v in SYMBOLS}))}
        out.append(face)
    return out


def picker_points(c: dict) -> str:
    """The picker's word for a card's placement points: as printed, "0" for none, "1/object" for
    each of the three per-object gold rules [CN46-48]."""
    return "1/object" if c.get("scoring") in catalogue.PER_OBJECT else points_text(c) or "0"


def point_filters() -> list[str]:
    """The picker's points buttons: each word picker_points gives a resource or gold card, the
    printed numbers first, then per corner, then per object."""
    said = {picker_points(catalogue.card(cid)) for cid in catalogue.playable_ids() if catalogue.card(cid)["kind"] != "starter"}
    return sorted(said, key=lambda w: ("/" in w, w.endswith("object"), int(w.split("/")[0])))


def span(ids: list[int]) -> str:
    """Say a run of card numbers by its ends ("81-86")."""
    return f"{min(ids)}-{max(ids)}"


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
    kinds = ("resource", "gold") if layout.placed else ("starter",)  # the first card is a starter card [CN34]
    return {"seat": seat, "grid": grid, "count": len(layout.placed), "visible": visible,
            "visible_text": rules.symbols_text(visible) or _("nothing yet"),
            "points": sum(layout.points), "picker": picker(state, seat),
            "first": min(catalogue.playable_ids()), "last": max(catalogue.playable_ids()),
            "expected": span([cid for cid in catalogue.playable_ids() if catalogue.card(cid)["kind"] in kinds]),
            # a starter card has no kingdom (cards.md): its colours narrow nothing before it is laid
            "symbols": SYMBOLS, "kingdoms": KINGDOMS if layout.placed else (),
            "points_said": point_filters(), "points_words": {w: points_word(w) for w in point_filters()}}


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
             for x in range(min(xs), max(xs) + 1) for y in range(min(ys), max(ys) + 1) if rules.on_grid(x, y)]
    card = next(o for o in objective_cards() if o["id"] == oid)
    blocked = None
    if state["manuscripts"][seat]:
        blocked = _("This player's patterns are counted from the manuscript.")
    elif oid not in objectives_of(state, seat):
        blocked = _("Card %(card)s is not one of this player's objectives yet: choose the objectives first.", card=oid)
    found = ngettext("card-disjoint pattern found (each card counts once): numbered on the cards.",
                     "card-disjoint patterns found (each card counts once): numbered on the cards.", count)
    words = {k: catalogue.name(k) if k else pgettext("place", "empty") for k in KINGDOM_CYCLE}  # codex.js says a tapped place with these
    return {"seat": seat, "card": card, "count": count, "grid": brick(field), "laid": cells is not None, "cells": cells or [],
            "blocked": blocked, "cycle": KINGDOM_CYCLE, "cycle_text": " → ".join(words.values()), "words": words,
            "found": found if count else _("card-disjoint patterns found (each card counts once).")}


def counter_view(state: dict, seat: int) -> dict:
    """Return what the objective counter asks of one seat: the symbols and patterns that matter."""
    symbols: set[str] = set()
    patterns = []
    for oid in objectives_of(state, seat):
        scored_from, pattern = calculator.needs(oid)
        symbols.update(scored_from)
        if pattern:
            count, _, cells = pattern_count(state, seat, oid)
            patterns.append({"card": oid, "count": count, "laid": cells is not None})
    return {"seat": seat, "symbols": [s for s in SYMBOLS if s in symbols], "patterns": patterns,
            "manuscript": bool(state["manuscripts"][seat]), "counts": state["counts"][seat],
            "secret": state["secret"][seat]}


def tie_notes(result: dict) -> list[Sentence]:
    """Say how equal totals were settled [CN56]: by objective points, or a shared place."""
    notes = []
    by_total: dict[int, list[dict]] = {}
    for r in result["players"]:
        by_total.setdefault(r["total"], []).append(r)
    for total, group in sorted(by_total.items(), reverse=True):
        if len(group) < 2:
            continue
        names = both([sentence.name(r["name"]) for r in group])
        if len({result["places"][r["name"]] for r in group}) == 1:
            notes.append(Sentence(_("%(names)s tie on %(total)s with the same objective points: they share the place.",
                                    names=names, total=total)))
        else:
            notes.append(Sentence(_("%(names)s tie on %(total)s: most objective points ranks first.", names=names, total=total)))
    return notes


def both(names: list[str]) -> str:
    """Say names together: "Ann and Ben", "Ann and Ben and Cy" (in the language spoken)."""
    return reduce(lambda said, name: _("%(first)s and %(then)s", first=said, then=name), names)


def parse_screen(screen: str | None, n: int) -> tuple[str, int | None, int | None]:
    """Split `book-SEAT` and `grid-SEAT-CARD` screens; anything unknown is the main screen."""
    parts = (screen or "").split("-")
    with suppress(ValueError):  # not a number
        if parts[0] == "book" and len(parts) == 2 and 0 <= int(parts[1]) < n:
            return "book", int(parts[1]), None
        if parts[0] == "grid" and len(parts) == 3 and 0 <= int(parts[1]) < n and int(parts[2]) in catalogue.pattern_ids():
            return "grid", int(parts[1]), int(parts[2])
    return ("end" if parts[0] == "end" else "track"), None, None


def screen_of(screen: str | None, n: int) -> str | None:
    """Return the screen as parse_screen reads it, spelled one way; None for the main screen."""
    read = parse_screen(screen, n)
    return None if read[0] == "track" else "-".join(str(p) for p in read if p is not None)


#: what the running score is, for the archive's chart (Game.running_label): marked, said where it is shown
RUNNING_LABEL = N_("points on the score track")


class PatternLabel(str):
    """A refused pattern count's words ("{who}'s count of pattern #91"), one sentence for every card."""
    def __new__(cls, card: int) -> "PatternLabel":
        self = super().__new__(cls, "{who}'s count of pattern #%s" % card)
        self.card = card
        return self

    def format(self, *args, **values) -> str:  # wording.py fills {who}: the words, translated, then the card
        return _("{who}'s count of pattern #%(card)s", card=self.card).format(*args, **values)


#: how a page names a refused field (companion/wording.py, which says it in the language spoken): every field
LABELS = {
    "points.delta": N_("{who}'s points"), "delta": N_("{who}'s change"), "count.delta": N_("{who}'s count change"),
    "pattern_count.delta": N_("{who}'s pattern count change"), "target": N_("the score that ends the game"),
    "first_player": N_("the first player"), "player": N_("the player"), "corners": N_("{who}'s covered corners"),
    "object": N_("the gold card's object"), "gold_objects.count": N_("{who}'s visible objects for the gold card"),
    "cards": N_("the common objectives"), "cards[]": N_("the {nth} common objective"), "card": N_("{who}'s objective card"),
    "secret_objective.card": N_("{who}'s secret objective"), "pattern_count.card": N_("{who}'s pattern card"),
    "pattern_grid.card": N_("{who}'s pattern card"), "symbol": N_("the symbol counted"), "value": N_("{who}'s count"),
    "cells": N_("{who}'s layout of colours"), "cells[]": N_("the {nth} card of {who}'s layout"),
    "cells[].x": N_("the place of the {nth} card"), "cells[].y": N_("the place of the {nth} card"),
    "cells[].kingdom": N_("the colour of the {nth} card"), "id": N_("{who}'s card number"), "side": N_("the card's side"),
    "cell": N_("the place of the card"), "cell[]": N_("the place of the card"), "x": N_("the place of the card"),
    "y": N_("the place of the card"), "placement_points": N_("{who}'s points on the score track"),
    "secret": N_("{who}'s secret objective"), "visible": N_("{who}'s visible counts"), "patterns": N_("{who}'s pattern counts"),
    "visible.fungi": N_("{who}'s visible fungi"), "visible.plant": N_("{who}'s visible plants"),
    "visible.animal": N_("{who}'s visible animals"), "visible.insect": N_("{who}'s visible insects"),
    "visible.quill": N_("{who}'s visible quills"), "visible.inkwell": N_("{who}'s visible inkwells"),
    "visible.manuscript": N_("{who}'s visible manuscripts"),
    **{f"patterns.{oid}": PatternLabel(oid) for oid in catalogue.pattern_ids()},
}


def scoreboard(state: dict, names: list[str], result: dict | None, calc: bool, banner: dict | None) -> list[dict]:
    """The compact scoreboard: placement points (totals once finished), who is to play, rows in."""
    rows = []
    nxt = next((t["seat"] for t in (banner or {}).get("turns", []) if t["next"]), None)
    for s, name in enumerate(names):
        score = state["scores"][s]
        status = None
        if result is not None:
            score = result["players"][s]["total"]
            status = standing(result["places"][name], name in result["winners"])
        elif calc:
            score = None
            status = row_status(state, s)
        rows.append({"seat": s, "name": name, "score": score, "status": status,
                     "turn": nxt == s and result is None and not calc})
    return rows


def row_status(state: dict, seat: int) -> str:
    """Whether a calculator row holds what its objectives need, in the scoreboard's and the card's word."""
    return _("waiting") if calculator.missing(state["rows"][seat], state["common"]) else _("row in")


def sheet_cards(state: dict, names: list[str], calc: bool) -> list[dict]:
    """Each player's end card: what the row holds (calculator) or the table knows (tracked), and the
    counts it asks: what its objectives are scored from [CN49-50] (codex.js follows a secret typed in)."""
    out = []
    for s, name in enumerate(names):
        if calc:
            row = state["rows"][s] or {"visible": {}, "patterns": {}}
            values = {"placement_points": row.get("placement_points"), "secret": row.get("secret"),
                      "visible": row["visible"], "patterns": {int(k): n for k, n in row["patterns"].items()}}
        else:
            values = {"placement_points": state["scores"][s], "secret": state["secret"][s], "visible": state["counts"][s],
                      "patterns": {oid: pattern_count(state, s, oid)[0] for oid in objectives_of(state, s) if calculator.needs(oid)[1]}}
        mine = rules.objectives(state["common"], values["secret"])
        asked = {sym for oid in mine for sym in calculator.needs(oid)[0]} | {oid for oid in mine if calculator.needs(oid)[1]}
        out.append({"seat": s, "name": name, "values": values, "needs": asked, "manuscript": bool(state["manuscripts"][s]),
                    "status": row_status(state, s) if calc else None})
    return out


def sheet_fields() -> dict:
    """The count fields a card may ask, each with the objective cards that need it (codex.js shows those)."""
    symbols = [{"symbol": s, "word": catalogue.name(s, True), "needs": [oid for oid in catalogue.objective_ids() if s in calculator.needs(oid)[0]]}
               for s in SYMBOLS]
    return {"symbols": symbols, "patterns": [{"card": oid} for oid in catalogue.pattern_ids()]}


def verdict(result: dict) -> Sentence:
    """Name the winner and, when equal totals were split, the tie-break that decided [CN56].

    From the `score` result alone: the end screen's line (result_parts) and Game.verdict. A
    Sentence: plain as a str, each name in <bdi> on a page (games/sentence.py).
    """
    winners = result["winners"]
    by_name = {r["name"]: r for r in result["players"]}
    top = by_name[winners[0]]
    tied = [r for r in result["players"] if r["total"] == top["total"]]
    if len(winners) > 1:
        # [CN56] "if still tied, the victory is shared"
        return Sentence(ngettext("Shared victory: %(names)s, %(num)d point and %(objectives)s from objectives each",
                                 "Shared victory: %(names)s, %(num)d points and %(objectives)s from objectives each",
                                 top["total"], names=both(sentence.names(winners)), objectives=top["breakdown"]["objectives"]))
    said = {"name": sentence.name(top["name"]), "total": top["total"], "objectives": top["breakdown"]["objectives"]}
    if len(tied) > 1:
        # [CN56] "If tied, the player who scored the most points from objectives"
        return Sentence(_("%(name)s wins the tie on %(total)s with the most points from objectives (%(objectives)s)", **said))
    return Sentence(ngettext("%(name)s wins with %(num)d point", "%(name)s wins with %(num)d points", top["total"], name=said["name"]))


def view(state: dict, names: list[str], options: dict, profile: dict, screen: str | None) -> dict:
    """Return what templates/codex/panel.html shows, computed with the rules."""
    n = len(names)
    calc = is_calculator(options)
    if calc:
        return calculator_view(state, names)
    kind, who, oid = parse_screen(screen, n)
    if state["finished"] and kind == "track":
        kind = "end"
    order = turn_order(state)
    out = {
        "kind": kind, "target": state["target"], "quick": QUICK_POINTS, "gold": gold_helpers(),
        "first": None if state["first"] is None else names[state["first"]],
        "order": [names[s] for s in order] if state["first"] is not None else [],
        "banner": banner(state, names), "objects": OBJECTS, "symbol_short": symbol_short(),
        "names": {s: catalogue.name(s) for s in SYMBOLS},  # each symbol's word, in the language spoken
        "players": [{"seat": s, "name": names[s], "score": state["scores"][s],
                     "cards": len(state["manuscripts"][s]),
                     "objectives": objectives_of(state, s)} for s in range(n)],
        **objective_parts(state["common"]),
    }
    if kind == "book":
        out["book"] = manuscript_view(state, who)
    if kind == "grid":
        out["grid"] = grid_view(state, who, oid)
    result = final_score(state, names) if kind == "end" or state["finished"] else None
    if kind == "end":
        out.update(result_parts(result, out["objective_by_id"]))
        out["counter"] = [counter_view(state, s) for s in range(n)]
        out["sheets"] = sheet_cards(state, names, False)
        out["fields"] = sheet_fields()
        # the finish is offered only once the last turns are played [CN53-55]; otherwise what comes first
        blocker = finish_blocker(state, names)
        out["finish_blocker"] = sentence.naming(blocker, names) if blocker else None
    out["notice"] = shown_notice(state, names)
    out["scoreboard"] = scoreboard(state, names, result if state["finished"] else None, False, out["banner"])
    return out


def banner(state: dict, names: list[str]) -> dict | None:
    """The end triggered [CN53]: by whom, the last turns [CN54] ticked off and the next one, what is left."""
    end = state["end"]
    if end is None:
        return None
    turns = [{"seat": s, "name": names[s], "done": i < end["played"], "next": i == end["played"]}
             for i, s in enumerate(end["turns"] or [])]
    left = rules.last_turns_left(end)
    trigger = sentence.name(names[end["trigger"]])
    if end["reason"] == "target":
        title = _("%(name)s reached %(target)s: the end is triggered", name=trigger, target=state["target"])
    else:  # [CN53] "or when there are no more cards to draw" (CDX-C1: both decks)
        title = _("Both decks are empty (%(name)s's turn): the end is triggered", name=trigger)
    return {"reason": end["reason"], "trigger": names[end["trigger"]], "turns": turns, "left": left,
            "known": end["turns"] is not None, "title": Sentence(title),
            "left_text": ngettext("%(num)d turn still to play: the rest of this round, then everyone once more.",
                                  "%(num)d turns still to play: the rest of this round, then everyone once more.", left) if left else None,
            "next": next((t["name"] for t in turns if t["next"]), None)}


def gold_helpers() -> dict:
    """The score track's gold card helpers: a button per number of corners covered [CN47], the
    visible objects' count [CN48], each adding what rules.py scores."""
    return {"per_corner": _("%(points)s per covered corner", points=rules.GOLD_PER_CORNER),
            "corners": [{"corners": k, "label": f"{k} → +{rules.gold_corner_points(k)}"} for k in range(1, len(CORNERS) + 1)],
            "per_object": _("%(points)s per visible", points=rules.GOLD_PER_OBJECT), "count_max": STEP_MAX}


def objective_parts(common: list[int]) -> dict:
    """The objective cards as the end screen and the calculator show them, and the common ones' fields [CN35]."""
    cards = objective_cards()
    slots = list(common) + [None] * (rules.COMMON_OBJECTIVES - len(common))
    return {"objective_cards": cards, "objective_by_id": {o["id"]: o for o in cards}, "common": common,
            "objective_span": _("%(first)s to %(last)s", first=min(o["id"] for o in cards), last=max(o["id"] for o in cards)), "common_slots": slots}


def result_parts(result: dict, by_id: dict[int, dict]) -> dict:
    """What the ranking table shows of a result: places in order, the tie notes, who wins and how;
    and per seat each objective card (`by_id`, objective_parts) with its points and, for a pattern,
    the occurrences found [CN49-50]."""
    lines = [[{"card": by_id[oid], "points": pts, "found": r["counts"][oid] if calculator.needs(oid)[1] else None}
              for oid, pts in zip(r["objectives"], r["objectives_detail"])] for r in result["players"]]
    return {"result": result, "ties": tie_notes(result), "decided": verdict(result), "lines": lines,
            "ranking": sorted(result["players"], key=lambda r: result["places"][r["name"]])}


def calculator_view(state: dict, names: list[str]) -> dict:
    """What a calculator table shows: the common objectives, one row per player, the result."""
    out = {"kind": "calculator", "calculator": True, **objective_parts(state["common"]),
           "notice": shown_notice(state, names), "sheets": sheet_cards(state, names, True), "fields": sheet_fields(),
           "waiting": [names[s] for s, r in enumerate(state["rows"]) if calculator.missing(r, state["common"])]}
    result = None
    if state["finished"]:
        result = final_score(state, names)
        out.update(result_parts(result, out["objective_by_id"]))
    out["scoreboard"] = scoreboard(state, names, result, True, None)
    return out


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


def form(name: str, data: object = None) -> dict:
    """What a form without a table shows (Game.form): setup.html's target scores [CN46]."""
    return {"setup": {"targets": [(target, _(said)) for target, said in TARGET_CHOICES]}}[name]
