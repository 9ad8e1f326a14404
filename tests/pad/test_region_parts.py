"""The score pad's live region drawn a part at a time (companion/web/region.py, issue 39).

A game followed event by event (tests/regions.py's `follow`) on every screen a phone opens and in two
languages: after each change the region drawn from the parts of the version before is the region
drawn whole. Then what a common change costs: a tap on a round's stepper sends that stepper, that
player's total and typed score, not the panel; a total saved on a calculator table sends that row.
"""

from __future__ import annotations

from companion.games import seats
from companion.games.pad.table import EVENTS
from companion.games.pad.view import screen_of
from tests.pad.examples import OPTIONS
from tests.regions import follow

PLAYERS = ["Anna", "Tom", "Kate", "Ben"]
LANGS = ("en", "de")
#: every screen a tracked table's page opens: the round scored, an earlier round corrected
SCREENS = (None, "round-1", "round-2")
RULE = {**OPTIONS, "ties": "rule", "tie_rule": "most cards left"}


def ev(type_: str, **data) -> dict:
    return {"type": type_, "data": data}


#: a game through every event of a tracked table, a rename, undos, a tie the group's rule breaks, the end undone
GAME = [
    ev("draw_first_player"),
    ev("first_player", player=1),
    ev("score", player=0, round=1, delta=1),
    ev("score", player=0, round=1, delta=1),
    ev("set_score", player=1, round=1, value=12),
    ev("rename", player=2, name="Katarzyna"),
    ev("new_round"),
    ev("set_score", player=0, round=2, value=10),
    ev("score", player=3, round=2, delta=-1),
    {"type": "undo"},
    ev("set_score", player=2, round=1, value=12),
    ev("end"),  # Tom and Katarzyna tie on 12: the rule chooses
    ev("tie_winner", player=2),
    {"type": "undo"},
    ev("tie_winner", player=1),
]

CALCULATOR = [
    ev("sheet", player=3, total=20),
    ev("sheet", player=0, total=31),
    ev("rename", player=2, name="Cleopatra"),
    ev("sheet", player=2, total=31),
    {"type": "undo"},
    ev("sheet", player=2, total=18),
    ev("sheet", player=1, total=31),  # Anna and Tom tie: the rule chooses
    ev("tie_winner", player=0),
    ev("sheet", player=1, total=30),  # corrected: Anna alone
]


def test_every_screen_of_a_tracked_game_drawn_in_parts_is_the_game_drawn_whole(app):
    assert {e["type"] for e in GAME} == set(EVENTS) - {"sheet"} | set(seats.EVENTS) | {"rename", "undo"}
    assert {screen_of(s, 4) for s in SCREENS} == set(SCREENS)
    steps = follow(app, "pad", PLAYERS, GAME, options=RULE, screens=SCREENS, langs=LANGS)
    assert len(steps) == len(GAME) * len(SCREENS) * len(LANGS)  # no event refused
    assert all("log-play" in s.drawn for s in steps if s.event is GAME[-1])  # the game's end is drawn


def test_a_calculator_table_drawn_in_parts_is_the_table_drawn_whole(app):
    steps = follow(app, "pad", PLAYERS, CALCULATOR, options={**RULE, "calculator": True}, langs=LANGS)
    assert len(steps) == len(CALCULATOR) * len(LANGS)
    first = [s for s in steps if s.event is CALCULATOR[0]]
    for step in first:  # a total saved before the last sends that row's parts, not another's, nor the panel
        assert "game-panel" not in step.sent and not {p for p in step.sent if p.startswith("pad-row-")}
        assert {"pad-total-3", "pad-sheet-form-3", "pad-said-3"} <= set(step.sent), step.sent


def test_a_tap_on_a_rounds_stepper_sends_that_players_few_parts(app):
    # the first score closes the choice of who goes first (its card changes once); the taps after it
    taps = [ev("score", player=i % 2, round=1, delta=1) for i in range(6)]
    steps = follow(app, "pad", PLAYERS, [ev("set_score", player=3, round=1, value=4)] + taps, options=OPTIONS)[1:]
    for step in steps:
        seat = step.event["data"]["player"]
        steppers = [p for p in step.sent if p.startswith("w-")]
        assert len(steppers) == 1, step.sent
        assert set(step.sent) - set(steppers) == {f"sb-{seat}", f"pad-total-{seat}", f"pad-typed-{seat}", "table-tools", "history"}
        assert step.sent_bytes < step.whole / 4, (step.sent_bytes, step.whole)  # about a sixth: the history is most of it
