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
    listed = re.findall(r"^\| (\w+) \| `(\w+)` \| (.*?) \|$", table, re.M)
    # the same pairs in the same order, each with the very summary `companion rules --list` prints
    assert listed == [(g, f, summary) for g, f, summary in rules.listing()]


def test_every_event_type_is_documented():
    for key, game in games.registry().items():
        doc = ROOT / "docs" / f"{key}.md"
        text = doc.read_text() if doc.exists() else ""
        for event in game.events:
            assert f"`{event}`" in text, f"{key}: event {event} missing from docs/{key}.md"
    for event in tables.FRAMEWORK_EVENTS:
        assert f"`{event}`" in README


# --- the documents the code cites are in the repository ---------------------------------------

#: each game's citation tag and the rule text its citations are lines of (the game's plug-in says); a
#: game with no rule text (rule_text None: the score pad) has neither, and cites nothing
RULE_TEXTS = {game.cites: game.rule_text for game in games.registry().values() if game.rule_text is not None}
TAGS = "|".join(sorted(RULE_TEXTS, key=len, reverse=True))
CITATION = re.compile(rf"\[((?:{TAGS})\d[^\]]*)\]")


def documents() -> list[Path]:
    return [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md")), ROOT / "bench" / "README.md"]


def test_every_relative_link_in_the_docs_resolves():
    checked = 0
    for doc in documents():
        for target in re.findall(r"\]\(([^)\s]+)\)", doc.read_text()):
            if re.match(r"[a-z]+:", target):  # https:, mailto:
                continue
            path = target.split("#", 1)[0]
            if path:
                assert (doc.parent / path).exists(), f"{doc.relative_to(ROOT)}: {target}"
                checked += 1
    assert checked > 5


def test_the_contract_and_the_readings_are_in_docs_and_name_no_folder_outside_the_project():
    for name in ("CONTRACT.md", "RULES.md"):
        text = (ROOT / "docs" / name).read_text()
        assert "shared/" not in text, name
    rules_md = (ROOT / "docs" / "RULES.md").read_text()
    for tag, file in RULE_TEXTS.items():
        assert f"`rules/{file}`" in rules_md, file
        assert (ROOT / "docs" / "rules" / file).exists(), file
    assert "docs/CONTRACT.md" in README and "docs/RULES.md" in README


def test_the_readings_number_the_games_parts_one_by_one_and_letter_the_parts_after_them():
    """A new game's part is the next number, after the last game's, before the lettered parts: nothing
    else is renumbered (docs/architecture.md, Adding a game, step 6)."""
    text = (ROOT / "docs" / "RULES.md").read_text()
    assert not re.search(r"^# \d+\. [A-Z]\. ", text, re.M), "a part after the games is lettered alone (# D. ...)"
    parts = re.findall(r"^# (?:(\d+)\.|([A-Z])\.) ", text, re.M)
    numbers = [int(n) for n, _ in parts if n]
    assert numbers == list(range(1, len(numbers) + 1)) and len(numbers) >= len(games.registry())
    assert [bool(n) for n, _ in parts] == sorted((bool(n) for n, _ in parts), reverse=True), "a numbered part after a lettered one"


def citations(text: str):
    """Yield (citation, tag, first line, last line) for each rule-text reference in text."""
    for match in CITATION.finditer(text):
        tag = None
        for part in re.split(r",\s*", match.group(1).removesuffix(" source note")):
            found = re.fullmatch(rf"({TAGS})?(\d+)(?:[-–](\d+))?", part)
            assert found, f"cannot read the citation {match.group(0)}"
            tag = found.group(1) or tag
            yield match.group(0), tag, int(found.group(2)), int(found.group(3) or found.group(2))


def test_every_citation_points_at_written_lines_of_its_rule_text():
    """`# [GB307]` in code, templates, tests and docs: line 307 of docs/rules/gutenberg.txt exists and is not blank."""
    lines = rule_lines()
    sources = [p for folder in ("companion", "tests", "templates") for p in (ROOT / folder).rglob("*") if p.suffix in (".py", ".html")]
    sources += sorted((ROOT / "docs").glob("*.md"))
    problems, count = [], 0
    for source in sources:
        if source != Path(__file__):  # this file's own examples, below
            found = citation_problems(source.read_text(encoding="utf-8"), lines)
            problems += [f"{source.relative_to(ROOT)}: {p}" for p in found]
            count += len(list(citations(source.read_text(encoding="utf-8"))))
    assert problems == []
    assert count > 500


def test_a_game_without_a_rule_text_cites_nothing():
    """A citation in a game with no rule text would point at nothing: its package and templates hold none."""
    for key, game in games.registry().items():
        if game.rule_text is None:
            assert game.cites is None, key
            for source in [*(ROOT / "companion" / "games" / key).rglob("*.py"), *(ROOT / "templates" / key).rglob("*.html")]:
                cited = re.findall(r"\[[A-Z]{1,3}\d+[^\]]*\]", source.read_text(encoding="utf-8"))
                assert cited == [], f"{source.relative_to(ROOT)} cites {cited} but {key} has no rule text"


def rule_lines() -> dict[str, list[str]]:
    return {tag: (ROOT / "docs" / "rules" / file).read_text(encoding="utf-8").split("\n") for tag, file in RULE_TEXTS.items()}


def citation_problems(text: str, lines: dict[str, list[str]]) -> list[str]:
    """Return what is wrong with each citation in text: past the end of its rule text, or only blank lines."""
    problems = []
    for cited, tag, first, last in citations(text):
        if not 1 <= first <= last <= len(lines[tag]):
            problems.append(f"{cited}: past the end of {RULE_TEXTS[tag]}")
        elif not any(lines[tag][n - 1].strip() for n in range(first, last + 1)):
            problems.append(f"{cited}: only blank lines")
    return problems


def test_a_citation_past_the_text_or_on_a_blank_line_is_caught():
    assert list(citations("see [GB97-102, 105] and [GT773 source note]")) == [
        ("[GB97-102, 105]", "GB", 97, 102), ("[GB97-102, 105]", "GB", 105, 105), ("[GT773 source note]", "GT", 773, 773)]
    lines = rule_lines()
    blank = next(n for n, line in enumerate(lines["GB"], 1) if not line.strip())
    written = next(n for n, line in enumerate(lines["GB"], 1) if line.strip())
    assert citation_problems(f"[GB{written}] [GB{blank}-{written + 3}]", lines) == []
    assert citation_problems(f"[GB{blank}] [CN{len(lines['CN']) + 1}]", lines) == [
        f"[GB{blank}]: only blank lines", f"[CN{len(lines['CN']) + 1}]: past the end of codex_naturalis.txt"]


def test_readme_tells_a_host_how_to_install_run_back_up_and_upgrade():
    section = README.split("## Install for your game nights", 1)[1].split("\n## ", 1)[0]
    for words in ("pipx install", "uv tool install", "companion serve", "Add to Home Screen", "--data DIR", "$COMPANION_DATA",
                  "~/.local/share/table-companion/", "Ctrl-C", "**Back up**", "**Upgrade**", "`--workers N`", "needs Linux"):
        assert words in section, words
    # the folder it names is the one companion/paths.py asks platformdirs for (test_wheel.py runs it)
    from companion.paths import APP_NAME

    assert section.count(APP_NAME) >= 3


def test_the_readmes_csv_example_is_a_score_the_rules_can_give():
    """Issue 27: it showed `patronage` 4, where each patronage card is 8 [GB304]. The row is the
    rulebook's example, John's 111 [GB309]: the breakdown gutenberg's score gives for his sheet."""
    block = README.split("$ head -2 plays.csv", 1)[1].split("```", 1)[0].strip().splitlines()
    header, row = (line.split(",") for line in block)
    values = dict(zip(header, row))
    breakdown = {key.removeprefix("breakdown."): int(value) for key, value in values.items() if key.startswith("breakdown.")}
    assert int(values["total"]) == sum(breakdown.values())
    john = {"name": values["player"], "fame": breakdown["fame_track"], "guilders": 4, "patronage_cards": breakdown["patronage"] // 8,
            "specialties": {"typesetting": 6, "woodcutting": 3, "binding": 4, "illuminating": 5}, "types": 5, "inks": 1}
    scored = rules.find("gutenberg", "score").run({"solo": True, "players": [john]})["players"][0]
    assert scored["breakdown"] == breakdown and scored["total"] == int(values["total"])


def test_readme_installs_pipx_the_way_pipx_says_on_each_system():
    """Issue 27: `python3 -m pip install --user pipx` stops on Debian 12+ and Ubuntu 23.04+ (PEP 668)."""
    section = README.split("## Install for your game nights", 1)[1].split("\n## ", 1)[0]
    for words in ("sudo apt install pipx", "brew install pipx", "py -m pip install --user pipx", "pipx ensurepath",
                  "externally-managed-environment"):
        assert words in section, words
    assert "(`python3 -m pip install --user pipx` if you have none)" not in section


def test_readme_says_how_to_run_the_tests_off_debian_how_long_and_the_fast_lane():
    section = README.split("## Tests", 1)[1].split("\n## ", 1)[0]
    for words in ('-m "not slow and not browser"', "Debian and Ubuntu", "$CHROMIUM", "minutes on 2 cores"):
        assert words in section, words
    # the variable the README names is the one the browser fixture reads
    assert 'os.environ.get("CHROMIUM"' in (ROOT / "tests" / "conftest.py").read_text()
    assert "CHROMIUM" in (ROOT / "scripts" / "test.sh").read_text()
