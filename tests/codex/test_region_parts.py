"""Codex's live region drawn a part at a time (companion/web/region.py, issue 39).

A game followed event by event (tests/regions.py's `follow`) on every screen a phone opens and in
two languages: after each change the region drawn from the parts of the version before is the
region drawn whole. Then what a common change costs: a +1 on the score track draws that player's
few parts and sends them, not the panel; a point or a count on the end screen, the same; a row
saved on a calculator table sends that row; and a refused value in one player's row answers with
that row's form and the notice, not every card.
"""

from __future__ import annotations

import re

import pytest

from bench.run import score_change
from companion.games import seats
from companion.games.codex.table import EVENTS
from companion.games.codex.view import screen_of
from tests.regions import follow

PLAYERS = ["Anna", "Tom", "Kate", "Ben"]  # bench/run.py's table: the most players Codex takes
COLUMN = [{"x": 0, "y": y, "kingdom": "fungi"} for y in (0, -2, -4, -6)] + \
         [{"x": 1, "y": y, "kingdom": "plant"} for y in (-3, -5, -7)]  # pattern #91 twice
LANGS = ("en", "de")
#: every screen a tracked table's page opens: the track, the end, a manuscript, a pattern grid
SCREENS = (None, "end", "book-0", "book-1", "grid-2-91", "grid-0-88")


def ev(type_: str, **data) -> dict:
    return {"type": type_, "data": data}


#: a three-player game through every event Codex has, a rename, undos, the end and a finish undone
GAME = [
    ev("draw_first_player"),
    ev("first_player", player=0),
    ev("points", player=0, delta=5),
    ev("points", player=1, delta=3),
    ev("points", player=0, delta=-1),
    ev("gold_corners", player=2, corners=2),
    ev("gold_objects", player=1, object="quill", count=2),
    ev("play_card", player=0, id=82, side="front", cell=[0, 0]),
    ev("play_card", player=0, id=1, side="front", x=1, y=-1),
    ev("rename", player=1, name="Benedikt"),
    ev("common_objectives", cards=[91, 95]),
    ev("secret_objective", player=1, card=99),
    ev("count", player=1, symbol="quill", delta=1),
    ev("count", player=1, symbol="quill", delta=1),
    ev("set_count", player=2, symbol="fungi", value=4),
    ev("pattern_count", player=1, card=91, delta=1),
    ev("pattern_grid", player=2, card=91, cells=COLUMN),
    ev("sheet", player=2, secret=102, visible={"quill": 3}, patterns={"91": 2}),
    ev("sheet", player=1, visible={"quill": 1, "plant": 4}),
    {"type": "undo"},
    ev("decks_empty", player=2),
    {"type": "undo"},
    ev("points", player=1, delta=17),  # Tom reaches 20: the end is triggered, its banner shown
    ev("turn_played"),
    ev("turn_played"),
    ev("turn_played"),
    ev("turn_played"),
    ev("points", player=2, delta=2),  # after the last turns: a correction, said beside Kate
    ev("count", player=2, symbol="quill", delta=-1),  # the next change takes that notice away
    ev("finish"),
    {"type": "undo"},
    ev("finish"),
]

#: a calculator table (tests/codex/test_calculator.py's rows): the common objectives, the rows, a row corrected
CALCULATOR = [
    ev("common_objectives", cards=[91, 102]),
    ev("sheet", player=3, placement_points=20, secret=101, visible={"quill": 0, "inkwell": 5}, patterns={"91": 0}),
    ev("sheet", player=0, placement_points=21, secret=99, visible={"quill": 3, "inkwell": 2, "manuscript": 1}, patterns={"91": 1}),
    ev("rename", player=2, name="Cleopatra"),
    ev("sheet", player=2, placement_points=18, secret=88, visible={"quill": 4}, patterns={"91": 1, "88": 2}),
    {"type": "undo"},
    ev("sheet", player=2, placement_points=18, secret=88, visible={"quill": 4}, patterns={"91": 1, "88": 2}),
    ev("sheet", player=1, placement_points=22, secret=96, visible={"quill": 2, "plant": 7}, patterns={"91": 0}),
    ev("sheet", player=1, placement_points=23, secret=96, visible={"quill": 2, "plant": 7}, patterns={"91": 0}),
    ev("common_objectives", cards=[91, 100]),
    {"type": "undo"},
]


# --- drawn in parts, the same as drawn whole ------------------------------------------------------------

def test_every_screen_of_a_tracked_game_drawn_in_parts_is_the_game_drawn_whole(app):
    assert {e["type"] for e in GAME} == set(EVENTS) | set(seats.EVENTS) | {"rename", "undo"}
    assert {screen_of(s, 3) for s in SCREENS} == set(SCREENS)  # each a real screen, none read as another
    steps = follow(app, "codex", PLAYERS[:3], GAME, screens=SCREENS, langs=LANGS)
    assert len(steps) == len(GAME) * len(SCREENS) * len(LANGS)  # no event refused
    finished = [s for s in steps if s.event == GAME[-1]]
    assert finished and all("log-play" in s.drawn for s in finished)  # the game's end is drawn


def test_a_calculator_table_drawn_in_parts_is_the_table_drawn_whole(app):
    steps = follow(app, "codex", PLAYERS, CALCULATOR, options={"calculator": True}, langs=LANGS)
    assert len(steps) == len(CALCULATOR) * len(LANGS)
    # a row saved before the last one sends that row's head, form and words, and the list still
    # waited for: never another player's row (nor the panel)
    before_the_last_row = [s for i, s in enumerate(steps) if 1 <= i // len(LANGS) <= 6]
    assert before_the_last_row and all(s.event is CALCULATOR[i // len(LANGS)] for i, s in enumerate(steps))
    for step in before_the_last_row:
        seat = step.event.get("data", {}).get("player")
        rows = {pid for pid in step.sent if pid.startswith("cx-sheet-") and not pid.startswith("cx-sheet-form-")}
        assert "game-panel" not in step.sent and not rows, step.sent
        if step.event["type"] == "sheet":
            assert {f"cx-total-{seat}", f"cx-sheet-form-{seat}", f"cx-said-{seat}"} <= set(step.sent)
        assert step.sent_bytes < step.whole / 3, (step.sent_bytes, step.whole)


# --- what a common change costs --------------------------------------------------------------------------

def taps(n: int) -> list[dict]:
    """bench/run.py's score changes: +1, +1, -1, -1 on Anna's and Tom's track, in turn."""
    return [{"type": type_, "data": data} for type_, data in (score_change("codex", i) for i in range(n))]


def test_a_point_on_the_track_draws_and_sends_that_players_few_parts(app):
    # the track is what every phone shows while the game is played, and a point is its commonest change.
    # Drawn: the region's and the panel's skeletons, the table's head, tools and history, and the
    # player's card with its head and meter; sent: those whose own text changed (the card's does not).
    # Under a tenth of the region: the history (20 lines) is most of it.
    steps = follow(app, "codex", PLAYERS, [ev("first_player", player=0)] + taps(8))[1:]
    for step in steps:
        seat = step.event["data"]["player"]
        card = {f"cx-player-{seat}", f"cx-head-{seat}", f"cx-meter-{seat}"}
        assert set(step.drawn) == {"table-live", "game-panel", "table-head", f"sb-{seat}", "table-tools", "history"} | card
        assert set(step.sent) == {f"sb-{seat}", f"cx-head-{seat}", f"cx-meter-{seat}", "table-tools", "history"}
        assert step.sent_bytes < step.whole / 10, (step.sent_bytes, step.whole)


def test_a_point_seen_on_the_end_screen_sends_the_totals_not_the_cards(app):
    # a phone counting objectives while the track still moves: drawn, the skeletons, the table's own
    # parts, the scores so far and that player's card with its total and breakdown (its form, lines and
    # steppers are taken as they were); sent, those that show the point. Under a tenth of the region.
    setup = [ev("first_player", player=0), ev("common_objectives", cards=[91, 95])]
    steps = follow(app, "codex", PLAYERS, setup + taps(4), screens=("end",))[len(setup):]
    for step in steps:
        seat = step.event["data"]["player"]
        points = {f"sb-{seat}", "cx-results", f"cx-total-{seat}", f"cx-sum-{seat}", "table-tools", "history"}
        assert set(step.drawn) == points | {"table-live", "game-panel", "table-head", f"cx-counter-{seat}"}
        assert set(step.sent) == points
        assert step.sent_bytes < step.whole / 10, (step.sent_bytes, step.whole)


def test_a_count_on_the_end_screen_sends_that_players_count_not_the_panel(app):
    # the end screen's commonest change: a − / + on one player's visible count (its stepper). Sent: the
    # stepper, the row's form, which shows the count too, and once the count scores, the totals and
    # the objective's points; never the panel nor the card. Under a quarter of the region: the form
    # alone is about 6 KB (every count field is drawn, codex.js shows those the objectives ask).
    setup = [ev("first_player", player=0), ev("common_objectives", cards=[91, 102])]
    counts = [ev("count", player=i % 2, symbol="quill", delta=1) for i in range(4)]
    steps = follow(app, "codex", PLAYERS, setup + counts, screens=("end",))[len(setup):]
    for step in steps:
        seat = step.event["data"]["player"]
        mine = {f"cx-total-{seat}", f"cx-sum-{seat}", f"cx-sheet-form-{seat}", f"cx-lines-{seat}"}
        steppers = [pid for pid in step.sent if pid.startswith("w-")]
        assert len(steppers) == 1 and f"cx-sheet-form-{seat}" in step.sent, step.sent
        assert set(step.sent) - set(steppers) <= mine | {"cx-results", "table-tools", "history"}, step.sent
        assert step.sent_bytes < step.whole / 4, (step.sent_bytes, step.whole)


# --- a refusal answers with its player's part ------------------------------------------------------------

HX = {"HX-Request": "true", "Sec-Fetch-Site": "same-origin"}
SENT = re.compile(r'<[a-z]+ hx-swap-oob="morph"[^>]*?\bid="([^"]+)"')


def joined_end_screen(client, api) -> tuple[dict, int, str]:
    """A four-player table with its common objectives, joined: (table, version, its end screen whole)."""
    t = api.create("codex", PLAYERS, first_player=0)
    assert api.event(t, "common_objectives", {"cards": [91, 102]}).status_code == 200
    assert client.get(f"/join/{t['table']}/{t['token']}").status_code == 303
    whole = client.get(f"/t/{t['table']}/live", query_string={"screen": "end"}, headers=HX)
    return t, int(whole.headers["X-Table-Version"]), whole.get_data(as_text=True)


def refused(client, t, version: int, form: dict) -> tuple[set[str], str]:
    """Post a form of the end screen as the page does; the ids of the parts answered, and the answer."""
    form = dict(form, **{"expected_version:int": str(version), "screen": "end"})
    answer = client.post(f"/t/{t['table']}/events", data=form, headers=dict(HX, **{"X-Table-Has": str(version)}))
    assert answer.status_code == 400
    body = answer.get_data(as_text=True)
    return set(SENT.findall(body)), body


def test_a_refused_count_in_one_players_row_answers_with_that_row_and_the_notice(client, api):
    # the message beside Kate's field, in her row's form, and in the table's notice; no other card.
    # Under a sixth of the region: the form is about 6 KB (every count field); every card's would be four times that
    t, version, whole = joined_end_screen(client, api)
    sent, body = refused(client, t, version, {"type": "sheet", "data.player:int": "2", "data.visible.quill:int": "2x"})
    assert sent == {"table-notice", "cx-sheet-form-2"}
    assert 'data-field="data.visible.quill"' in body.split('id="cx-sheet-form-2"')[1]
    assert len(body) < len(whole) / 6, (len(body), len(whole))


def test_a_refused_step_below_zero_answers_with_the_message_under_the_cards_and_the_notice(client, api):
    # a − on a count at 0: its message sits under the cards (its place on the end screen), a part of its own
    t, version, whole = joined_end_screen(client, api)
    step = {"type": "count", "data.player:json": "1", "data.symbol:json": '"quill"', "data.delta:json": "-1"}
    sent, body = refused(client, t, version, step)
    assert sent == {"table-notice", "cx-refused"}
    assert 'data-field="data.delta"' in body.split('id="cx-refused"')[1]
    assert len(body) < 2000, len(body)
