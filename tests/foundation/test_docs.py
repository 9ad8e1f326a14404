"""Tests that keep the docs honest: the README and docs/ name every command, function and event."""

import re
from pathlib import Path

from companion import cli, games, rules, tables

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text()


def test_readme_opens_with_the_two_commands():
    block = README.split("```sh", 1)[1].split("```", 1)[0]
    lines = [line.split("#")[0].strip() for line in block.strip().splitlines()]
    assert lines == ["python3 -m venv .venv && .venv/bin/pip install -e . && .venv/bin/companion serve", "bash scripts/test.sh"]
    assert "bash scripts/test.sh" in (ROOT / ".ci" / "run").read_text()


def test_readme_names_every_cli_command():
    sub = next(a for a in cli.build_parser()._actions if a.dest == "command")
    for name in sub.choices:
        assert f"companion {name}" in README, name


def test_readme_names_every_script():
    for script in sorted((ROOT / "scripts").iterdir()):
        if script.suffix in (".py", ".sh"):
            assert f"scripts/{script.name}" in README, script.name


def test_readme_lists_every_rules_function():
    table = README.split("<!-- rules-functions", 1)[1].split("\n\n", 1)[0]
    listed = set(re.findall(r"^\| (\w+) \| `(\w+)` \|", table, re.M))
    assert listed == {(g, f) for g, f, _ in rules.listing()}


def test_every_event_type_is_documented():
    for key, game in games.registry().items():
        doc = ROOT / "docs" / f"{key}.md"
        text = doc.read_text() if doc.exists() else ""
        for event in game.events:
            assert f"`{event}`" in text, f"{key}: event {event} missing from docs/{key}.md"
    for event in tables.FRAMEWORK_EVENTS:
        assert f"`{event}`" in README
