"""Codex Naturalis's box profile: none.

Codex asks no printed value of the players: every one the app needs (each card's corners,
centre symbols, points, requirements and objectives) is in data/codex/cards.json, read by
cards.py. A box profile is therefore always the empty object.
"""

from __future__ import annotations

from typing import Any

from ..validation import obj


def validate_profile(data: Any) -> dict:
    """Check a box profile document: Codex takes only an empty object (any key is refused)."""
    obj(data, "$")
    return {}
