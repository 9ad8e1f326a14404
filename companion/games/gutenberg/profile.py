"""Gutenberg's box profile: the values printed only on components, entered once (RULES.md GUT-B).

The rule text does not print them, so the group enters them once per box:

- `planning_cards` (B1): the icons of each of the automa's 10 planning cards, by the number the
  group gives it: the centre action, the arrows and the patronage icon [GB330]
- `automa_start` (B2): the automa's starting layout "as shown", its 7 markers [GB318] [GB328]
- `reward_track` (B4, GUT-C3 reading (a)): the reward each of the 4 reward-track spaces shows

Every one is optional: without it the table asks for the value when it is needed.
The table's automa events read planning cards and layouts through the same checks.
"""

from __future__ import annotations

from typing import Any

from ..validation import RulesError, at, choice, listof, obj
from .facts import AUTOMA_MARKERS, PLANNING_CARDS, REWARD_LEVELS
from .functions import check_card, check_markers

#: reward-track rewards as the board may show them [GB168-172]
REWARD_KINDS = ("ink", "order", "type")


def validate_profile(data: Any) -> dict:
    """Check a box profile: planning cards by number, the automa's start layout, the reward track."""
    obj(data, "$", optional=("planning_cards", "automa_start", "reward_track"))
    clean: dict[str, Any] = {}
    if "planning_cards" in data:
        # B1: each card's icons, by the number the group gives it (1 to 10) [GB330]
        numbers = [str(n) for n in range(1, PLANNING_CARDS + 1)]
        cards = obj(data["planning_cards"], "planning_cards", optional=numbers)
        clean["planning_cards"] = {}
        for number in numbers:
            if number in cards and not _blank_card(cards[number]):
                field = at("planning_cards", number)
                clean["planning_cards"][number] = check_card(card_from_form(cards[number], field), field)
    if "automa_start" in data:
        # B2: the starting layout "as shown" [GB328]: the automa's 7 markers [GB318]
        clean["automa_start"] = check_start_layout(data["automa_start"], "automa_start")
    if "reward_track" in data:
        # B4 / GUT-C3 reading (a): the rewards of the 4 reward-track spaces, in order
        track = listof(data["reward_track"], "reward_track", 0, len(REWARD_LEVELS))
        if track and len(track) != len(REWARD_LEVELS):
            raise RulesError("reward_track", f"lists all {len(REWARD_LEVELS)} spaces or none")
        clean["reward_track"] = [choice(r, at("reward_track", i), REWARD_KINDS) for i, r in enumerate(track)]
    return clean


def _blank_card(card: Any) -> bool:
    """True for a card left empty on the profile form (no centre picked, no arrows)."""
    if not isinstance(card, dict):
        return False
    ends = [*_as_list(card.get("from")), *_as_list(card.get("to"))]
    return (card.get("centre", "") == "" and all(e == "" for e in ends)
            and not card.get("moves") and not card.get("patronage"))


def _as_list(value: Any) -> list:
    return value if isinstance(value, list) else [] if value is None else [value]


def card_from_form(card: Any, field: str) -> Any:
    """Turn the form shape of a card (`from[]`, `to[]` lists) into `moves` pairs."""
    if not isinstance(card, dict) or ("from" not in card and "to" not in card):
        return card
    if "moves" in card:
        raise RulesError(at(field, "moves"), "give moves, or from and to, not both")
    card = dict(card)
    sources = listof(card.pop("from", []), at(field, "from"))
    targets = listof(card.pop("to", []), at(field, "to"))
    if len(sources) != len(targets):
        raise RulesError(at(field, "to"), "every arrow needs a from and a to")
    moves = []
    for i, (a, b) in enumerate(zip(sources, targets)):
        if a == "" and b == "":
            continue
        if a == "" or b == "":
            raise RulesError(at(at(field, "from" if a == "" else "to"), i), f"pick both ends of arrow {i + 1}, or neither")
        moves.append([a, b])
    card["moves"] = moves
    return card


def check_start_layout(value: Any, field: str) -> dict[str, int]:
    """Check the automa's starting layout: 0 to 6 per action [GB367], 7 markers in all [GB318]."""
    markers = check_markers(value, field)
    total = sum(markers.values())
    if total != AUTOMA_MARKERS:
        raise RulesError(field, f"the automa starts with {AUTOMA_MARKERS} markers; these add up to {total}")
    return markers
