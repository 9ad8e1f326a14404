"""The Codex Naturalis card catalogue, read from data/codex/cards.json (copied unchanged).

Card ids are those of the data file: 1-40 resource, 41-80 gold, 81-86 starter and
87-102 objective cards (see data/codex/cards.md for where the data comes from).
"""

from __future__ import annotations

import json
from functools import cache
from ...paths import FACTS

DATA = FACTS / "codex" / "cards.json"

# [CN32] four resources (kingdoms) and three objects; the contract spells them so
KINGDOMS = ("fungi", "plant", "animal", "insect")
OBJECTS = ("quill", "inkwell", "manuscript")
SYMBOLS = KINGDOMS + OBJECTS

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


def objective_text(c: dict) -> str:
    """Say what an objective card scores, in plain words."""
    obj = c["objective"]
    pts = c["points"]
    if obj["type"] == "resources":
        (kingdom, n), = obj["counts"].items()
        return f"{pts} per {n} visible {kingdom}"
    if obj["type"] == "objects":
        counts = obj["counts"]
        if len(counts) == 1:
            (thing, n), = counts.items()
            return f"{pts} per pair of {thing}s" if n == 2 else f"{pts} per {n} {thing}s"
        return f"{pts} per set of quill + inkwell + manuscript"
    return f"{pts} per pattern: {pattern_text(obj)}"


def pattern_text(spec: dict) -> str:
    """Say a pattern in a few words, from its cells ("3 fungi on a rising diagonal")."""
    cells = spec["cells"]
    kingdom = cells[0]["kingdom"]
    if spec["shape"].startswith("diagonal"):
        return f"3 {kingdom} on a {'rising' if cells[1]['y'] > 0 else 'falling'} diagonal"
    third = cells[2]
    # the odd card touches a corner of the upper (y 0) or the lower (y -2) card of the column
    base = cells[0] if third["y"] > 0 else cells[1]
    dx, dy = third["x"] - base["x"], third["y"] - base["y"]
    corner = next(name for name, off in CORNERS.items() if off == (dx, dy)).replace("_", "-")
    return f"2 {kingdom} stacked, {third['kingdom']} at the {'upper' if base is cells[0] else 'lower'} one's {corner} corner"
