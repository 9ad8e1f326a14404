"""What Codex's view gives its templates to show (issue 30): the banner, the gold helpers, the manuscript
and the end screen's words and numbers. That no template computes a rule, and the templates' names,
are checked for every game by tests/foundation/test_templates.py."""

from __future__ import annotations

import re
from pathlib import Path

from companion.games.base import Context
from companion.games.codex import GAME, rules

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
