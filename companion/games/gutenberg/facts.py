"""The Gutenberg facts the rule text states, loaded once from data/gutenberg/facts.json.

Only facts printed in the rulebook's text live there. Values printed only on components
(planning cards, the automa's starting layout, the reward track's rewards) come from the
group: entered at the table or once in a box profile (RULES.md GUT-B).
"""

from __future__ import annotations

import json
from ...paths import FACTS

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
