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

from ..speech import N_, _, later
from ..validation import RulesError, at, choice, listof, obj
from .facts import AUTOMA_MARKERS, PLANNING_CARDS, REWARD_LEVELS
from .functions import check_card, check_markers

#: reward-track rewards as the board may show them [GB168-172]
REWARD_KINDS = ("ink", "order", "type")
#: what each reward the board's reward track may show gives (REWARD_KINDS) [GB168-172]
REWARD_TEXT = {"ink": N_("take 1 ink of your choice from the bag"), "order": N_("take 1 new order (order as a reward)"),
               "type": N_("take 1 type of your choice for free")}
#: the specialty levels as the printing house board prints them [GB166]
ROMAN = {0: "0", 1: "I", 2: "II", 3: "III", 4: "IV", 5: "V", 6: "VI"}
#: how a page names the box profile's fields (view.LABELS takes them in); a planning card's own fields are
#: named by its number, which the catalogs cannot list: those stay English (docs/glossary.md)
PROFILE_LABELS = {
    "planning_cards": N_("the planning cards"),
    "automa_start": N_("the automa's starting layout"),
    "automa_start.take_orders": N_("the automa's starting markers on Take orders"),
    "automa_start.take_inks": N_("the automa's starting markers on Take inks"),
    "automa_start.develop_specialties": N_("the automa's starting markers on Develop specialties"),
    "automa_start.improve_printing_houses": N_("the automa's starting markers on Improve printing houses"),
    "automa_start.patronage": N_("the automa's starting markers on Patronage"),
    **{f"planning_cards.{n}{part}": f"planning card {n}{words}" for n in range(1, PLANNING_CARDS + 1)
       for part, words in (("", ""), (".centre", "'s centre icon"), (".moves", "'s arrows"), (".from", "'s arrows"),
                           (".to", "'s arrows"), (".from[]", "'s {nth} arrow"), (".to[]", "'s {nth} arrow"),
                           (".moves[]", "'s {nth} arrow"), (".moves[][]", "'s arrow ends"),
                           (".patronage", "'s patronage icon"))},
    "reward_track": N_("the reward track"),
    "reward_track[]": N_("reward-track space {nth}"),
}


def reward_text(space: int, level: int, profile: dict) -> dict:
    """Say what reaching a reward level for the first time gives: the next reward-track space (a notice, speech.later)."""
    # [GB162] the disk moves to the next space "and takes the indicated reward"; GUT-C3 (a): the
    # reward is what that space shows (from the box profile when entered, else read off the board)
    track = profile.get("reward_track") or []
    what = REWARD_TEXT[track[space - 1]] if track else N_("take the reward it shows")
    return later.gettext("level %(level)s reached for the first time: reward track space %(space)s, %(what)s",
                         level=ROMAN[level], space=space, what=later.gettext(what))


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
            raise RulesError("reward_track", _("lists all %(spaces)s spaces or none", spaces=len(REWARD_LEVELS)))
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
        raise RulesError(at(field, "moves"), _("give moves, or from and to, not both"))
    card = dict(card)
    sources = listof(card.pop("from", []), at(field, "from"))
    targets = listof(card.pop("to", []), at(field, "to"))
    if len(sources) != len(targets):
        raise RulesError(at(field, "to"), _("every arrow needs a from and a to"))
    moves = []
    for i, (a, b) in enumerate(zip(sources, targets)):
        if a == "" and b == "":
            continue
        if a == "" or b == "":
            raise RulesError(at(at(field, "from" if a == "" else "to"), i), _("pick both ends of arrow %(arrow)s, or neither", arrow=i + 1))
        moves.append([a, b])
    card["moves"] = moves
    return card


def check_start_layout(value: Any, field: str) -> dict[str, int]:
    """Check the automa's starting layout: 0 to 6 per action [GB367], 7 markers in all [GB318]."""
    markers = check_markers(value, field)
    total = sum(markers.values())
    if total != AUTOMA_MARKERS:
        raise RulesError(field, _("the automa starts with %(start)s markers; these add up to %(total)s", start=AUTOMA_MARKERS,
                                  total=total))
    return markers
