"""The Gutenberg facts the rule text states, loaded once from data/gutenberg/facts.json.

Only facts printed in the rulebook's text live there. Values printed only on components
(planning cards, the automa's starting layout, the reward track's rewards) come from the
group: entered at the table or once in a box profile (RULES.md GUT-B).
"""

from __future__ import annotations

import json

from ...paths import FACTS
from ..speech import N_, gettext, later, ngettext

_FACTS = json.loads((FACTS / "gutenberg" / "facts.json").read_text("utf-8"))

#: the five actions in board order, top to bottom [GB97-102]
ACTIONS: tuple[str, ...] = tuple(a["key"] for a in _FACTS["actions"])
ACTION_LABELS: dict[str, str] = {a["key"]: a["label"] for a in _FACTS["actions"]}
#: [GB160] the four specialties
SPECIALTIES: tuple[str, ...] = tuple(s["key"] for s in _FACTS["specialties"])
SPECIALTY_LABELS: dict[str, str] = {s["key"]: s["label"] for s in _FACTS["specialties"]}
#: [GB93] "The game lasts 6 rounds."
ROUNDS: int = _FACTS["rounds"]
#: [GB114] "A row can have at most 6 markers."
MAX_PER_ACTION: int = _FACTS["max_markers_per_action"]
#: [GB77] first player 7, second 8, third 9, fourth 10
MARKERS_BY_SEAT: tuple[int, ...] = tuple(_FACTS["initiative_markers_by_seat"])
#: [GB81] 10 guilders from the bank; [GB89] 3 types chosen at setup
STARTING_GUILDERS: int = _FACTS["starting_guilders"]
STARTING_TYPES: int = _FACTS["starting_types"]
#: [GB166] "Level VI is the maximum for each specialty."
MAX_LEVEL: int = _FACTS["max_specialty_level"]
#: [GB162] reward icons on levels II, IV, V, VI
REWARD_LEVELS: tuple[int, ...] = tuple(_FACTS["reward_levels"])
#: [GB301-303] VI = 6, V = 3, IV = 1
SPECIALTY_POINTS: dict[int, int] = {int(k): v for k, v in _FACTS["specialty_points"].items()}
#: [GB304] 8 points for each patronage card
PATRONAGE_POINTS: int = _FACTS["patronage_card_points"]
#: [GB305] 1 point for every 3 guilders
GUILDERS_PER_POINT: int = _FACTS["guilders_per_point"]
#: [GB145] left ink free, centre 1 guilder, right 2 guilders
INK_SET_COSTS: tuple[int, ...] = tuple(_FACTS["ink_set_costs"])
#: [GB166] developing a specialty at VI gains 3 guilders
AT_MAX_GUILDERS: int = _FACTS["developing_at_max_guilders"]
#: [GB405] Torinus gains 3 fame points
TORINUS_FAME: int = _FACTS["torinus_fame"]
#: [GB398-407] the ten characters, by the name the rulebook gives first
CHARACTERS: dict[str, dict] = {c["key"]: c for c in _FACTS["characters"]}
#: [GB371-378] solo titles by highest score of each band (None = no upper bound); 100 is Student (GUT-C1)
TITLES: tuple[tuple[int | None, str], ...] = tuple((t["max"], t["title"]) for t in _FACTS["titles"])
#: [GB337] the 4 execution cards are numbered spaces 1 to 4
EXECUTION_CARDS: tuple[int, ...] = tuple(_FACTS["execution_cards"])
#: [GB330] 10 planning cards, 6 dealt
PLANNING_CARDS: int = _FACTS["planning_cards"]
PLANNING_DEALT: int = _FACTS["planning_cards_dealt"]
#: [GB318] the automa's 7 initiative markers
AUTOMA_MARKERS: int = _FACTS["automa_markers"]

# --- the facts' words a page shows, in the language it speaks (issue 29) ----------------------------
# The JSON holds the English; these marks put each shown word into the catalog, and a page
# translates it where it shows it (`_(ACTION_LABELS[a])`). tests/gutenberg/test_language.py checks that
# every label of facts.json is marked here.
SHOWN = (
    N_("Take orders"), N_("Take inks"), N_("Develop specialties"), N_("Improve printing houses"), N_("Patronage"),
    N_("Typesetting"), N_("Woodcutting"), N_("Binding"), N_("Illuminating"),
    N_("After the reveal, before actions, may shift 1 initiative marker to a different action."),
    N_("Fulfilling 2 or more orders at once, may ignore one required type on one order."),
    N_("May use one gear's active sector 2 times a round (still 3 gear actions in total)."),
    N_("Once per round, may swap the levels of 2 of their specialties (permanently)."),
    N_("Fulfilling only one refinement of an order still gains the reward for completely fulfilling it."),
    N_("On selection: draw 4 random gears, select 2 and install them."),
    N_("On selection: one specialty to level I, another to level II, reward marker to level II and its reward (ink)."),
    N_("At the end of each round, +3 fame if all their inks can be assigned to their current orders."),
    N_("Each round chooses one ink colour that is wild for them that round."),
    N_("At the end of the game, doubles the fame points gained from guilders."),
    N_("Student"), N_("Senior Student"), N_("Apprentice"), N_("Senior Apprentice"), N_("Junior Master"),
    N_("Master of Printing"), N_("Guildmaster"),
)


def action(key) -> str:
    """An action's name in the language spoken ("?" for an unknown key)."""
    return gettext(ACTION_LABELS[key]) if key in ACTION_LABELS else "?"


def specialty(key) -> str:
    """A specialty's name in the language spoken ("?" for an unknown key)."""
    return gettext(SPECIALTY_LABELS[key]) if key in SPECIALTY_LABELS else "?"


def guilders(n: int) -> str:
    """"3 guilders", in the language spoken."""
    return ngettext("%(num)d guilder", "%(num)d guilders", n)


def say_guilders(n: int) -> dict:
    """guilders() kept to be said later (a notice)."""
    return later.ngettext("%(num)d guilder", "%(num)d guilders", n)
