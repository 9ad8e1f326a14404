"""Gutenberg's seams (issue 30): its knowledge in its package, one way for each thing.

The templates show what view.py computes, the calculator mode is read from the options alone,
the table runs the tested rule functions, and the templates carry the names every game gives
the same roles.
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
TEMPLATES = ROOT / "templates" / "gutenberg"


# --- the template names every game gives the same roles ----------------------------------------

def test_templates_are_the_entry_points_and_underscored_partials_of_the_common_roles():
    names = {p.name for p in TEMPLATES.glob("*.html")}
    entries = {"panel.html", "setup.html", "profile.html"}
    assert entries <= names
    assert all(n.startswith("_") for n in names - entries), sorted(names - entries)
    assert {"_calculator.html", "_end.html", "_result.html", "_sheet.html"} <= names
    # every partial is included by the game's own templates, under its new name
    used = set()
    for p in TEMPLATES.glob("*.html"):
        used |= set(re.findall(r'"gutenberg/([^"]+\.html)"', p.read_text("utf-8")))
    assert used == names - entries
