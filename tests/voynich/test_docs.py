"""Keep docs/voynich.md and the CLI honest about the events, functions and profile fields."""

import json
import subprocess
import sys
from pathlib import Path

from companion.games.voynich import GAME
from companion.games.voynich.profile import SOLO_PARTS

ROOT = Path(__file__).resolve().parents[2]
DOC = (ROOT / "docs" / "voynich.md").read_text()


def test_every_event_type_is_documented():
    for type_, summary in GAME.events.items():
        assert f"| `{type_}` |" in DOC, type_
        assert summary


def test_every_function_option_and_profile_part_is_documented():
    for name, fn in GAME.functions.items():
        assert f"`{name}`" in DOC and fn.summary
    for option in GAME.options_doc:
        assert f"`{option}`" in DOC
    for part in SOLO_PARTS:
        assert f"`{part}`" in DOC


def test_cli_runs_the_rules_functions():
    run = subprocess.run([sys.executable, "-m", "companion", "rules", "voynich", "priority_scan"], cwd=ROOT,
                         input=json.dumps({"priority": 18, "present": [7, 22]}), capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout) == {"order": [7, 22]}
    run = subprocess.run([sys.executable, "-m", "companion", "rules", "voynich", "solo_turns"], cwd=ROOT,
                         input=json.dumps({"cards": {}, "difficulty": "easy", "turns": 1}), capture_output=True, text=True, timeout=60)
    assert run.returncode == 2
    assert run.stderr.startswith("error: cards.botany: ")
    listing = subprocess.run([sys.executable, "-m", "companion", "rules", "--list"], cwd=ROOT, capture_output=True, text=True, timeout=60)
    for name in GAME.functions:
        assert f"voynich {name}" in listing.stdout
