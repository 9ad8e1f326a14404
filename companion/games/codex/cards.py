"""The Codex Naturalis card catalogue, read from data/codex/cards.json (copied unchanged).

Card ids are those of the data file: 1-40 resource, 41-80 gold, 81-86 starter and
87-102 objective cards (see data/codex/cards.md for where the data comes from).
"""

from __future__ import annotations

import json
from functools import cache, lru_cache
from ...paths import FACTS
from ..speech import N_, NC_, SOURCE, gettext as _, language, ngettext, pgettext, said, speaking

DATA = FACTS / "codex" / "cards.json"

# [CN32] four resources (kingdoms) and three objects; the contract spells them so
KINGDOMS = ("fungi", "plant", "animal", "insect")
OBJECTS = ("quill", "inkwell", "manuscript")
SYMBOLS = KINGDOMS + OBJECTS
#: each symbol's word, one of it, as a label says it (a filter, a stepper): said with `name`
NAMES = {"fungi": N_("fungi"), "plant": N_("plant"), "animal": N_("animal"), "insect": N_("insect"),
         "quill": N_("quill"), "inkwell": N_("inkwell"), "manuscript": N_("manuscript")}
#: several of each, as a field names them ("Visible plants"): said with `name(symbol, True)`;
#: English says fungi for one and several, other languages do not, hence its context
PLURALS = {"fungi": NC_("several", "fungi"), "plant": N_("plants"), "animal": N_("animals"), "insect": N_("insects"),
           "quill": N_("quills"), "inkwell": N_("inkwells"), "manuscript": N_("manuscripts")}
#: a number of each symbol, in the form the language gives that number ("1 quill", "5 quills"):
#: said with `counted`. A word after a number is the number's to choose, so each is a plural of its own.
COUNTED = {
    "fungi": lambda n: ngettext("%(num)d fungi", "%(num)d fungi", n),
    "plant": lambda n: ngettext("%(num)d plant", "%(num)d plants", n),
    "animal": lambda n: ngettext("%(num)d animal", "%(num)d animals", n),
    "insect": lambda n: ngettext("%(num)d insect", "%(num)d insects", n),
    "quill": lambda n: ngettext("%(num)d quill", "%(num)d quills", n),
    "inkwell": lambda n: ngettext("%(num)d inkwell", "%(num)d inkwells", n),
    "manuscript": lambda n: ngettext("%(num)d manuscript", "%(num)d manuscripts", n),
}
#: a number of cards of a kingdom, as a pattern objective lays them out ("3 plant cards")
KINGDOM_CARDS = {
    "fungi": lambda n: ngettext("%(num)d fungi card", "%(num)d fungi cards", n),
    "plant": lambda n: ngettext("%(num)d plant card", "%(num)d plant cards", n),
    "animal": lambda n: ngettext("%(num)d animal card", "%(num)d animal cards", n),
    "insect": lambda n: ngettext("%(num)d insect card", "%(num)d insect cards", n),
}
#: a number of a kingdom's visible symbols, as a resource objective counts them ("3 visible plant symbols")
KINGDOM_SYMBOLS = {
    "fungi": lambda n: ngettext("%(num)d visible fungi symbol", "%(num)d visible fungi symbols", n),
    "plant": lambda n: ngettext("%(num)d visible plant symbol", "%(num)d visible plant symbols", n),
    "animal": lambda n: ngettext("%(num)d visible animal symbol", "%(num)d visible animal symbols", n),
    "insect": lambda n: ngettext("%(num)d visible insect symbol", "%(num)d visible insect symbols", n),
}

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
    return said(table[symbol]) if symbol in table else str(symbol)


def counted(symbol: str, n: int) -> str:
    """A number of a symbol in the language spoken ("1 quill", "5 quills"); an unknown symbol after its number."""
    return COUNTED[symbol](n) if symbol in COUNTED else f"{n} {symbol}"


def objective_text(c: dict) -> str:
    """Say what an objective card scores, in plain words (in the language spoken)."""
    obj = c["objective"]
    pts = c["points"]
    if obj["type"] == "resources":
        (kingdom, n), = obj["counts"].items()
        # Translators: %(symbols)s is a number of one kingdom's visible symbols ("3 visible plant symbols")
        return _("%(points)s per set of %(symbols)s", points=pts, symbols=KINGDOM_SYMBOLS[kingdom](n))
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
    """Say a pattern in a few words, from its cells ("3 fungi cards on a rising diagonal")."""
    cells = spec["cells"]
    kingdom = cells[0]["kingdom"]
    cards = KINGDOM_CARDS[kingdom](sum(1 for c in cells if c["kingdom"] == kingdom))  # 3 on a diagonal, 2 stacked
    if spec["shape"].startswith("diagonal"):
        if cells[1]["y"] > 0:
            # Translators: %(cards)s is a number of cards of one kingdom ("3 fungi cards")
            return _("%(cards)s on a rising diagonal", cards=cards)
        # Translators: %(cards)s is a number of cards of one kingdom ("3 plant cards")
        return _("%(cards)s on a falling diagonal", cards=cards)
    third = cells[2]
    # the odd card touches a corner of the upper (y 0) or the lower (y -2) card of the column
    base = cells[0] if third["y"] > 0 else cells[1]
    dx, dy = third["x"] - base["x"], third["y"] - base["y"]
    words = {"cards": cards, "third": KINGDOM_CARDS[third["kingdom"]](1),
             "corner": _(next(CORNER_WORDS[k] for k, off in CORNERS.items() if off == (dx, dy)))}
    if base is cells[0]:
        # Translators: %(cards)s: two cards of one kingdom ("2 animal cards"); %(third)s: one card of another ("1 fungi card")
        return _("%(cards)s stacked, %(third)s at the upper one's %(corner)s corner", **words)
    # Translators: %(cards)s: two cards of one kingdom ("2 fungi cards"); %(third)s: one card of another ("1 plant card")
    return _("%(cards)s stacked, %(third)s at the lower one's %(corner)s corner", **words)


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
