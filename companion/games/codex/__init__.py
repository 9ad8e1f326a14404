"""Codex Naturalis: the score track, the end trigger, manuscripts and the objective counter."""

from __future__ import annotations

from typing import Any

from ..base import Context, Game
from ..validation import obj
from . import functions, table


class Codex(Game):
    """Codex Naturalis at the table (CONTRACT.md "## codex", RULES.md CDX)."""

    key = "codex"
    title = "Codex Naturalis"
    min_players = 2  # [CN header] 2-4 players
    max_players = 4
    functions = functions.FUNCTIONS
    events = table.EVENTS
    options_doc = table.OPTIONS
    styles = ("codex/codex.css",)
    scripts = ("codex/codex.js",)

    def validate_options(self, options: dict, player_count: int) -> dict:
        return table.validate_options(options, player_count)

    def initial_state(self, names: list[str], options: dict, profile: dict) -> dict:
        return table.initial_state(names, options)

    def apply(self, state: dict, type_: str, data: Any, ctx: Context) -> dict:
        return table.apply(state, type_, data, ctx)

    def describe(self, type_: str, data: Any, names: list[str]) -> str:
        return table.describe(type_, data, names)

    def counter(self, state: dict, type_: str, data: dict) -> int | None:
        """The end screen's steppers: a visible count, a typed-in pattern count."""
        return table.counter(state, type_, data)

    def view(self, state: dict, names: list[str], options: dict, profile: dict, seat: int | None, screen: str | None) -> dict:
        return table.view(state, names, seat, screen)

    def validate_profile(self, data: Any) -> dict:
        """No box profile: every printed value the app needs is in data/codex/cards.json."""
        obj(data, "$")
        return {}


GAME = Codex()
