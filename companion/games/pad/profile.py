"""The score pad's box profile: none.

The pad knows nothing printed on any game's components: the players type their scores. A box
profile is therefore the empty object (the colours and the BoardGameGeek id every game's profile
may hold are core's, companion/profiles.py, and never reach here).
"""

from __future__ import annotations

from typing import Any

from ..validation import obj


def validate_profile(data: Any) -> dict:
    """Check a box profile document: the pad takes only an empty object (any key is refused)."""
    obj(data, "$")
    return {}
