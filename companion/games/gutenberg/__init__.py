"""Gutenberg: the tracker, the final tally and the automa's decks.

- `rules.py`: player order, costs, specialties, the final tally and its tie-breaks
- `automa.py`: the automa's planning cards, round end and execution draws (RULES.md D2)
- `functions.py`: the JSON rules functions of CONTRACT.md
- `table.py`: a table's options, state, events and box profile
- `view.py`: what the templates show, computed with the rules
"""

from __future__ import annotations

from typing import Any

from ..base import Context, Game
from . import table, view
from .functions import FUNCTIONS


class Gutenberg(Game):
    """Gutenberg for 1 to 4 players, optionally with the automa."""

    key = "gutenberg"
    title = "Gutenberg"
    min_players = 1
    max_players = 4
    functions = FUNCTIONS
    events = table.EVENTS
    options_doc = table.OPTIONS_DOC
    styles = ("gutenberg/gutenberg.css",)
    scripts = ("gutenberg/gutenberg.js",)

    def validate_options(self, options: dict, player_count: int) -> dict:
        """Check the setup options: the automa, its seat, the first player, the Take Orders reading."""
        return table.validate_options(options, player_count)

    def initial_state(self, names: list[str], options: dict, profile: dict) -> dict:
        """Return round 1 with everyone's starting resources (and the automa, if any)."""
        return table.initial_state(names, options, profile or {})

    def apply(self, state: dict, type_: str, data: Any, ctx: Context) -> dict:
        """Return the state after one event; raise RulesError for an invalid one."""
        if type_ not in table.HANDLERS:
            return super().apply(state, type_, data, ctx)
        return table.apply(state, type_, data, ctx)

    def describe(self, type_: str, data: Any, names: list[str]) -> str:
        """Say in plain words what an event did."""
        return table.describe(type_, data, names)

    def counter(self, state: dict, type_: str, data: dict) -> int | None:
        """A player card's steppers: fame, guilders, inks, types, patronage cards."""
        if type_ in table.COUNTERS and isinstance(data.get("player"), int):
            return state["players"][data["player"]][type_]
        return None

    def view(self, state: dict, names: list[str], options: dict, profile: dict, seat: int | None,
             screen: str | None) -> dict:
        """Return the acting orders, the automa's prompts and the final tally for the templates."""
        return view.build(state, names, options, profile or {}, seat, screen)

    def validate_profile(self, data: Any) -> dict:
        """Check a box profile: planning cards, the automa's starting layout, the reward track."""
        return table.validate_profile(data)


GAME = Gutenberg()
