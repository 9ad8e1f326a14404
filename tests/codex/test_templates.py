"""The Codex templates show what view.py computes (issue 30): no rule arithmetic, no rule numbers
compared, no strings a rule produces compared, no counting that computes a rule; and they follow the
template names every game uses for the same roles."""

from __future__ import annotations

import re
from pathlib import Path

import jinja2
import pytest
from jinja2 import nodes

from companion.games.base import Context
from companion.games.codex import GAME, rules

TEMPLATES = Path(__file__).resolve().parents[2] / "templates" / "codex"
#: what the end, the objectives and the cards' rules produce: a page compares none of them
RULE_WORDS = {"target", "decks", "pattern", "resources", "objects", "object_pairs", "object_set",
              "resource_triples", "flat", "per_covered_corner", "per_quill", "per_inkwell", "per_manuscript"}
ARITHMETIC = (nodes.Add, nodes.Sub, nodes.Mul, nodes.Div, nodes.FloorDiv, nodes.Mod, nodes.Pow)
#: filters that count, pick or add up: the view says the number or the item
COMPUTING_FILTERS = {"selectattr", "rejectattr", "sum", "min", "max", "first", "last"}


def number(node: nodes.Node) -> bool:
    while isinstance(node, (nodes.Neg, nodes.Pos)):
        node = node.node
    return isinstance(node, nodes.Const) and isinstance(node.value, (int, float)) and not isinstance(node.value, bool)


def findings(source: str) -> list[str]:
    """Return each place where a template computes what the view should (its line and what it does)."""
    tree = jinja2.Environment().parse(source)
    out = []
    for node in tree.find_all(ARITHMETIC):
        out.append(f"{node.lineno}: arithmetic ({type(node).__name__})")
    for node in tree.find_all(nodes.Compare):
        operands = [node.expr] + [op.expr for op in node.ops]
        if any(number(o) for o in operands):
            out.append(f"{node.lineno}: a number compared")
        words = {o.value for o in operands if isinstance(o, nodes.Const) and isinstance(o.value, str)}
        if words & RULE_WORDS:
            out.append(f"{node.lineno}: compares {sorted(words & RULE_WORDS)}, a word the rules produce")
    for node in tree.find_all(nodes.Call):
        if isinstance(node.node, nodes.Name) and node.node.name == "range" and any(number(a) for a in node.args):
            out.append(f"{node.lineno}: range over numbers of its own")
    for node in tree.find_all(nodes.Filter):
        if node.name in COMPUTING_FILTERS:
            out.append(f"{node.lineno}: the {node.name} filter")
    return out


@pytest.mark.parametrize("path", sorted(TEMPLATES.glob("*.html")), ids=lambda p: p.name)
def test_a_template_computes_no_rule(path):
    assert findings(path.read_text()) == [], path.name


@pytest.mark.parametrize("source, found", [
    ("{{ 2 * k }}", "arithmetic"), ("{% if cycle < 5 %}{% endif %}", "a number compared"),
    ("{% if v.banner.reason == 'target' %}{% endif %}", "a word the rules produce"),
    ("{% for k in range(1, 5) %}{% endfor %}", "range"), ("{{ (turns | selectattr('next') | first).name }}", "selectattr"),
    ("{{ b.count }} card{{ 's' if b.count != 1 }}", "a number compared"),
])
def test_the_check_sees_what_the_old_templates_did(source, found):
    assert any(found in f for f in findings(source)), findings(source)


def test_the_templates_have_the_names_of_their_roles():
    names = {p.name for p in TEMPLATES.glob("*.html")}
    # core looks up panel.html and setup.html (Codex has no box profile: no profile.html)
    assert {"panel.html", "setup.html"} <= names and "profile.html" not in names
    # every other template is a partial, and each role every game has is there
    assert {n for n in names if not n.startswith("_")} == {"panel.html", "setup.html"}
    assert {"_calculator.html", "_end.html", "_result.html", "_sheet.html"} <= names
    used = set()
    for path in TEMPLATES.glob("*.html"):
        used |= set(re.findall(r"""(?:include|import|from)\s+["']codex/([\w.]+)["']""", path.read_text()))
    assert used <= names and used == names - {"panel.html", "setup.html"}, (used, names)
    # the result is one partial, drawn by the calculator's screen and by the end screen
    for role in ("_calculator.html", "_end.html"):
        assert '{% include "codex/_result.html" %}' in (TEMPLATES / role).read_text(), role


# --- what the view gives the templates instead -------------------------------------------------------

NAMES = ["Anna", "Ben", "Cara"]


def fold(events, **options):
    state = GAME.initial_state(NAMES, GAME.validate_options(options, 3), {})
    for type_, data in events:
        state = GAME.apply(state, type_, data, Context(names=tuple(NAMES), seed=1))
    return state


def test_the_banner_says_the_trigger_the_turns_left_and_who_is_next():
    v = GAME.view(fold([("first_player", {"player": 0}), ("points", {"player": 1, "delta": 20}), ("turn_played", {})]),
                  NAMES, {}, {}, None)
    banner = v["banner"]
    assert str(banner["title"]) == "Ben reached 20: the end is triggered"
    assert banner["title"].__html__() == "<bdi>Ben</bdi> reached 20: the end is triggered"
    assert banner["left"] == 3 and banner["left_text"] == "3 turns still to play: the rest of this round, then everyone once more."
    assert banner["next"] == "Anna"
    decks = GAME.view(fold([("first_player", {"player": 0}), ("decks_empty", {"player": 2}), *[("turn_played", {})] * 3]),
                      NAMES, {}, {}, None)["banner"]
    assert str(decks["title"]) == "Both decks are empty (Cara's turn): the end is triggered"
    assert decks["left"] == 0 and decks["left_text"] is None and decks["next"] is None


def test_the_gold_helpers_add_what_the_rules_score():
    gold = GAME.view(fold([]), NAMES, {}, {}, None)["gold"]
    assert gold["per_corner"] == "2 per covered corner" and gold["per_object"] == "1 per visible"
    assert [c["label"] for c in gold["corners"]] == [f"{k} → +{rules.gold_corner_points(k)}" for k in range(1, 5)]
    assert gold["count_max"] == 99


def test_the_manuscript_screen_says_which_card_numbers_fit():
    fresh = GAME.view(fold([]), NAMES, {}, {}, "book-0")["book"]
    assert (fresh["first"], fresh["last"], fresh["expected"]) == (1, 86, "81-86")  # the starter first [CN34]
    assert fresh["kingdoms"] == ()  # a starter card has no kingdom to filter by
    assert fresh["points_said"] == ["0", "1", "3", "5", "2/corner", "1/object"]
    started = GAME.view(fold([("play_card", {"player": 0, "id": 81, "side": "front", "x": 0, "y": 0})]), NAMES, {}, {}, "book-0")["book"]
    assert started["expected"] == "1-80" and started["kingdoms"] == rules.KINGDOMS


def test_the_end_screen_lists_each_objective_with_its_points_and_a_patterns_count():
    state = fold([("common_objectives", {"cards": [91, 95]}), ("secret_objective", {"player": 0, "card": 102}),
                  ("pattern_count", {"player": 0, "card": 91, "delta": 2}), ("set_count", {"player": 0, "symbol": "fungi", "value": 7})])
    v = GAME.view(state, NAMES, {}, {}, "end")
    anna = [(line["card"]["id"], line["points"], line["found"]) for line in v["lines"][0]]
    assert anna == [(91, 6, 2), (95, 4, None), (102, 0, None)]  # 2 x 3 for the pattern, 2 x 2 for 7 fungi
    assert v["common_slots"] == [91, 95] and v["objective_span"] == "87 to 102"
    assert GAME.view(fold([]), NAMES, {}, {}, "end")["common_slots"] == [None] * rules.COMMON_OBJECTIVES
    # the card asks the counts its objectives are scored from
    assert v["sheets"][0]["needs"] == {"fungi", "quill", 91} and v["sheets"][1]["needs"] == {"fungi", 91}


def test_the_grid_editor_gives_its_script_the_kingdoms_tap_order(client, api):
    from companion.games.codex.view import KINGDOM_CYCLE

    from .test_web import open_table

    t = api.create("codex", NAMES, first_player=0)
    api.event(t, "common_objectives", {"cards": [91, 95]})
    open_table(client, t)
    page = client.get(f"/t/{t['table']}?screen=grid-0-91").get_data(as_text=True)
    # static/codex/codex.js cycles through these, empty first, and keeps no list of its own
    assert re.findall(r'data-cycle="([^"]*)"', page) == [" ".join(KINGDOM_CYCLE)] == [" fungi plant animal insect"]
    assert "fungi" not in (Path(__file__).resolve().parents[2] / "static" / "codex" / "codex.js").read_text()
