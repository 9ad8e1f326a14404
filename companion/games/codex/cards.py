"""The Codex Naturalis card catalogue, read from data/codex/cards.json (copied unchanged).

Card ids are those of the data file: 1-40 resource, 41-80 gold, 81-86 starter and
87-102 objective cards (see data/codex/cards.md for where the data comes from).
"""

from __future__ import annotations

import json
from functools import cache, lru_cache
from ...paths import FACTS
from ..speech import N_, SOURCE, gettext as _, language, pgettext, speaking

DATA = FACTS / "codex" / "cards.json"

# [CN32] four resources (kingdoms) and three objects; the contract spells them so
KINGDOMS = ("fungi", "plant", "animal", "insect")
OBJECTS = ("quill", "inkwell", "manuscript")
SYMBOLS = KINGDOMS + OBJECTS
#: each symbol's word, one of it (a count says "5 quill"), marked for the catalogs: said with `name`
NAMES = {"fungi": N_("fungi"), "plant": N_("plant"), "animal": N_("animal"), "insect": N_("insect"),
         "quill": N_("quill"), "inkwell": N_("inkwell"), "manuscript": N_("manuscript")}
#: several of each, as a field names them ("Visible plants"): said with `name(symbol, True)`
PLURALS = {"fungi": N_("fungi"), "plant": N_("plants"), "animal": N_("animals"), "insect": N_("insects"),
           "quill": N_("quills"), "inkwell": N_("inkwells"), "manuscript": N_("manuscripts")}

SIDES = ("front", "back")

#: corner -> offset of the neighbouring cell that corner touches (x right, y up)
CORNERS = {
    "top_left": (-1, 1),
    "top_right": (1, 1),
    "bottom_right": (1, -1),
    "bottom_left": (-1, -1),
}
#: the neighbour's corner that lies under (or over) this one
OPPOSITE = {
    "top_left": "bottom_right",
    "top_right": "bottom_left",
    "bottom_right": "top_left",
    "bottom_left": "top_right",
}

PLAYABLE = ("resource", "gold", "starter")

#: gold scoring rule -> the object it counts
PER_OBJECT = {"per_quill": "quill", "per_inkwell": "inkwell", "per_manuscript": "manuscript"}


@cache
def catalogue() -> dict[int, dict]:
    """Return every card of the data file, keyed by id."""
    with DATA.open(encoding="utf-8") as f:
        data = json.load(f)
    return {card["id"]: card for card in data["cards"]}


def card(card_id: int) -> dict | None:
    """Return the card with this id, or None."""
    return catalogue().get(card_id)


def playable_ids() -> list[int]:
    """Return the ids of resource, gold and starter cards."""
    return [i for i, c in catalogue().items() if c["kind"] in PLAYABLE]


def objective_ids() -> list[int]:
    """Return the ids of the 16 objective cards."""
    return [i for i, c in catalogue().items() if c["kind"] == "objective"]


def pattern_ids() -> list[int]:
    """Return the ids of the 8 pattern objective cards."""
    return [i for i, c in catalogue().items() if c["kind"] == "objective" and c["objective"]["type"] == "pattern"]


def label(c: dict) -> str:
    """Say in a few words what a card is ("card 33, insect resource")."""
    kind = c["kind"]
    if kind == "starter":
        return f"card {c['id']}, starter"
    if kind == "objective":
        return f"card {c['id']}, objective"
    return f"card {c['id']}, {c['kingdom']} {kind}"


def name(symbol: str, several: bool = False) -> str:
    """A symbol's word in the language spoken ("quill", several: "quills"); an unknown one as it is."""
    table = PLURALS if several else NAMES
    return _(table[symbol]) if symbol in table else str(symbol)


def objective_text(c: dict) -> str:
    """Say what an objective card scores, in plain words (in the language spoken)."""
    obj = c["objective"]
    pts = c["points"]
    if obj["type"] == "resources":
        (kingdom, n), = obj["counts"].items()
        return _("%(points)s per %(num)s visible %(kingdom)s", points=pts, num=n, kingdom=name(kingdom))
    if obj["type"] == "objects":
        counts = obj["counts"]
        if len(counts) == 1:
            (thing, n), = counts.items()
            if n == 2:
                return _("%(points)s per pair of %(things)s", points=pts, things=name(thing, True))
            return _("%(points)s per %(num)s %(things)s", points=pts, num=n, things=name(thing, True))
        return _("%(points)s per set of quill + inkwell + manuscript", points=pts)
    return _("%(points)s per pattern: %(pattern)s", points=pts, pattern=pattern_text(obj))


#: a corner's word, as a pattern's words say it ("top-left")
CORNER_WORDS = {"top_left": N_("top-left"), "top_right": N_("top-right"),
                "bottom_right": N_("bottom-right"), "bottom_left": N_("bottom-left")}


def pattern_text(spec: dict) -> str:
    """Say a pattern in a few words, from its cells ("3 fungi on a rising diagonal")."""
    cells = spec["cells"]
    kingdom = name(cells[0]["kingdom"])
    if spec["shape"].startswith("diagonal"):
        if cells[1]["y"] > 0:
            return _("3 %(kingdom)s on a rising diagonal", kingdom=kingdom)
        return _("3 %(kingdom)s on a falling diagonal", kingdom=kingdom)
    third = cells[2]
    # the odd card touches a corner of the upper (y 0) or the lower (y -2) card of the column
    base = cells[0] if third["y"] > 0 else cells[1]
    dx, dy = third["x"] - base["x"], third["y"] - base["y"]
    words = {"kingdom": kingdom, "third": name(third["kingdom"]),
             "corner": _(next(CORNER_WORDS[k] for k, off in CORNERS.items() if off == (dx, dy)))}
    if base is cells[0]:
        return _("2 %(kingdom)s stacked, %(third)s at the upper one's %(corner)s corner", **words)
    return _("2 %(kingdom)s stacked, %(third)s at the lower one's %(corner)s corner", **words)


def symbol_short() -> dict[str, str]:
    """Each symbol's abbreviation on a small card drawing, in the language spoken; "hidden": a missing corner."""
    return _short(language())


@lru_cache(maxsize=None)
def _short(lang: str) -> dict[str, str]:
    with speaking(lang):  # one table per language, said in it
        return {"fungi": pgettext("short for fungi", "Fu"), "plant": pgettext("short for plant", "Pl"),
                "animal": pgettext("short for animal", "An"), "insect": pgettext("short for insect", "In"),
                "quill": pgettext("short for quill", "Qu"), "inkwell": pgettext("short for inkwell", "Ink"),
                "manuscript": pgettext("short for manuscript", "Ms"), "empty": "", "hidden": "×"}


def points_text(c: dict, short: dict | None = None) -> str:
    """Say a card's placement points as printed ("3", "2/corner", "1/Qu"); without `short` (the
    symbols' abbreviations), the English words the picker's filters match."""
    if c["kind"] == "gold":
        rule = c["scoring"]
        if rule == "flat":
            return str(c["points"])
        if rule == "per_covered_corner":
            return _("%(points)s/corner", points=c["points"]) if short else f"{c['points']}/corner"
        return f"{c['points']}/{(short or _short(SOURCE))[PER_OBJECT[rule]]}"
    return str(c["points"]) if c["points"] else ""


def points_word(said: str) -> str:
    """A picker filter's points (point_filters' English key), as its button says it."""
    number, _slash, per = said.partition("/")
    if per == "corner":
        return _("%(points)s/corner", points=number)
    return _("%(points)s/object", points=number) if per == "object" else said
