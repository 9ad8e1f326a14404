"""Gutenberg's live region drawn a part at a time (companion/web/region.py, issue 39).

Every change of a game is drawn from the version before, only the parts whose inputs changed, and
checked against the region drawn whole (tests/regions.py's `follow`): on every screen, in two
languages, through every event the game has, to its end, with undo and a rename. Then what one
change costs: a +1 draws and sends its player's few small parts, and a refusal answers with the
refused player's part and the notice, not every player's card.
"""

from __future__ import annotations

import re

from companion import tables
from companion.web import region
from companion.web.connection import get_db
from bench.run import PLAYERS, score_change
from tests.regions import create, follow

ACTIONS = ("take_orders", "take_inks", "develop_specialties", "improve_printing_houses", "patronage")
SCREENS = (None, "table", "end")
LANGS = ("en", "de")


def m(*counts: int) -> dict:
    return dict(zip(ACTIONS, counts))


def ev(type_: str, **data) -> dict:
    return {"type": type_, "data": data}


def plans(first: int, players: int = 4) -> list[dict]:
    """Every player's markers for a round: the first player holds 7, the next 8, and so on [GB77]."""
    events = []
    for i in range(players):
        held = 7 + (i - first) % players
        events.append(ev("markers", player=i, markers=m(2, 2, 1, 1, held - 6)))
    return events


def round_one() -> list[dict]:
    """A first round of four players, one event of each kind a player's card and the plan take."""
    return [
        ev("character", player=0, character="helena_ungler"),
        ev("helena", player=0, level_one="binding", level_two="typesetting"),
        ev("character", player=1, character="johannes_gutenberg"),
        ev("character", player=2, character="christophorus_plantinus"),
        ev("character", player=3, character="godofredus_torinus"),
        *plans(0),
        ev("gutenberg_shift", player=1, **{"from": "take_orders", "to": "patronage"}),
        ev("fame", player=0, delta=1),
        ev("fame", player=0, delta=2),
        ev("guilders", player=1, delta=-2),
        ev("inks", player=2, delta=1),
        ev("types", player=3, delta=1),
        ev("take_inks", player=1, first=1, count=3),
        ev("buy_types", player=0, count=1),
        ev("develop", player=2, specialty="binding", steps=2),
        ev("develop", player=0, specialty="woodcutting"),
        ev("plantinus_swap", player=2, first="binding", second="woodcutting"),
        ev("torinus", player=3),
        {"type": "undo"},
        ev("torinus", player=3),
        ev("rename", player=2, name="Clea"),
        ev("end_round"),
    ]


def to_the_end() -> list[dict]:
    """Rounds 2 to 6, a patronage card and some fame each, then a correction at final scoring and its undo."""
    events = []
    for rnd in range(2, 7):
        events += plans((rnd - 1) % 4)
        events += [ev("fame", player=rnd % 4, delta=rnd), ev("patronage_cards", player=rnd % 4, delta=1), ev("end_round")]
    row = {"fame": 20, "guilders": 3, "types": 4, "inks": 1, "patronage_cards": 2, "character": None,
           "specialties": {"typesetting": 2, "woodcutting": 1, "binding": 0, "illuminating": 0}}
    return events + [ev("sheet", player=1, **row), {"type": "undo"}, ev("rename", player=0, name="Anne")]


# --- the region in parts is the region drawn whole ------------------------------------------

def others_sent(step) -> list[str]:
    """The parts of other players' cards, plans and rows that a change of one player's sends, and the
    panel or region if sent whole: none, but for a rename (every part shows the names). A calculator
    row's status line names who is still awaited: every row's changes when one is saved."""
    i = step.event.get("data", {}).get("player")
    if i is None or step.event["type"] == "rename":
        return []
    mine = (f"player-{i}-", f"markers-{i}", f"sheet-{i}")
    return [pid for pid in step.sent if pid in ("game-panel", "table-live") or (
        pid.startswith(("player-", "markers-", "sheet-")) and pid != f"player-{i}" and not pid.startswith(mine)
        and not pid.endswith("-status"))]


def test_a_whole_tracked_game_drawn_in_parts_is_drawn_as_whole(app):
    steps = follow(app, "gutenberg", PLAYERS, round_one() + to_the_end(), screens=SCREENS, langs=LANGS)
    assert len(steps) == len(round_one() + to_the_end()) * len(SCREENS) * len(LANGS)
    assert [(step.event, others_sent(step)) for step in steps if others_sent(step)] == []


def test_the_automa_drawn_in_parts_is_drawn_as_whole(app):
    card = {"centre": "develop_specialties", "moves": [["take_orders", "take_inks"]], "patronage": True}
    events = [
        ev("automa_layout", layout=m(2, 1, 1, 2, 1)),
        ev("markers", player=0, markers=m(2, 2, 1, 1, 2)),
        ev("markers", player=1, markers=m(2, 2, 2, 1, 2)),
        ev("automa_card", card=card),
        ev("automa_act", action="take_inks"),
        ev("automa_answer", available=False),
        ev("automa_answer", available=True),
        {"type": "undo"},
        ev("automa_answer", available=True),
        ev("fame", player=1, delta=1),
        ev("end_round"),
        ev("automa_card", card={"centre": "patronage", "moves": []}),
    ]
    steps = follow(app, "gutenberg", PLAYERS[:2], events, {"automa": True}, screens=SCREENS, langs=LANGS)
    # the automa's steps send its own part (and the acting order, the history...), never a player's card
    automa = [step for step in steps if step.event["type"].startswith("automa_")]
    assert automa and [(step.event, step.sent) for step in automa
                       if any(pid in ("game-panel", "table-live") or pid.startswith("player-") for pid in step.sent)] == []


def test_a_calculator_table_drawn_in_parts_is_drawn_as_whole(app):
    def row(i: int) -> dict:
        return ev("sheet", player=i, fame=30 + i, guilders=i, types=3, inks=i, patronage_cards=1, character=None,
                  specialties={"typesetting": i, "woodcutting": 1, "binding": 2, "illuminating": 0})
    events = [row(0), row(1), {"type": "undo"}, ev("rename", player=1, name="Tam"), row(1), row(2), row(3), row(3)]
    steps = follow(app, "gutenberg", PLAYERS, events, {"calculator": True}, screens=(None, "end"), langs=LANGS)
    # a row saved before the last sends the other rows' status lines ("Row in; waiting for Kate"), not their forms;
    # the last brings the result, and the region whole (it is finished)
    saved = [step for step in steps if step.event["type"] == "sheet" and "table-live" not in step.sent]
    assert saved and [(step.event, others_sent(step)) for step in saved if others_sent(step)] == []


# --- what one change costs ------------------------------------------------------------------

def drawn_text(app, events: list[dict]) -> list[tuple[tuple[str, ...], int, int]]:
    """For each change of a four-player table on its main screen: the parts drawn, the length of their
    own text (what their templates ran to write) and the whole region's length."""
    table_id, secret = create(app.test_client(), "gutenberg", PLAYERS)
    found = []
    with app.app_context():
        db = get_db()
        table = tables.authorize(db, table_id, secret)
        before = region.draw(app, table, None, "en", None, region.context_of(db, table, None))
        for event in events:
            table = tables.append(db, table_id, {**event, "expected_version": table.version}, None, secret=secret)
            now = region.draw(app, table, None, "en", before, region.context_of(db, table, None))
            found.append((now.drawn, sum(len(now.parts[pid].own) for pid in now.drawn), len(now.html)))
            before = now
    return found


def score_changes(count: int = 8) -> list[dict]:
    """bench/run.py's score change: a stepper's +1 or -1 on the fame of Anna or Tom."""
    changes = [score_change("gutenberg", i) for i in range(count)]
    return [ev(type_, **data) for type_, data in changes]


def test_a_score_change_sends_its_players_few_parts(app):
    """A stepper's +1 on one player's fame sends that player's head and stepper, the scoreboard's row,
    the history and the tools: under a tenth of the region (it was the whole game panel, 57 KB of 60)."""
    steps = follow(app, "gutenberg", PLAYERS, score_changes())
    for step in steps:
        i = step.event["data"]["player"]
        assert step.sent_bytes < step.whole / 10, (step.sent, step.sent_bytes, step.whole)
        others = [pid for pid in step.sent if pid.startswith("player-") and not pid.startswith(f"player-{i}-")]
        assert not others and "game-panel" not in step.sent and f"player-{i}" not in step.sent


def test_a_score_change_draws_a_handful_of_small_parts(app):
    """A +1 runs the templates of the region's skeletons (table-live, game-panel), the head and its
    row, its player's card, the card's head and counters, the stepper, the history and the tools:
    at most 10 parts, writing under a tenth of the region's text (it wrote the whole panel)."""
    for drawn, text, whole in drawn_text(app, score_changes()):
        assert len(drawn) <= 10, drawn
        assert text < whole / 10, (drawn, text, whole)


# --- a refusal ------------------------------------------------------------------------------

def refuse(client, table_id: str, version: int, type_: str, fields: dict) -> tuple[int, str]:
    """Post one player's form from the table page, as htmx sends it, on a page showing `version`."""
    form = {"type": type_, "expected_version:int": str(version), **fields}
    answer = client.post(f"/t/{table_id}/events", data=form, headers={"HX-Request": "true", "X-Table-Has": str(version)})
    return answer.status_code, answer.get_data(as_text=True)


def test_a_refused_field_answers_with_its_players_part_and_the_notice(app, api):
    client = app.test_client()
    t = api.create("gutenberg", PLAYERS)
    client.get(f"/join/{t['table']}/{t['token']}")
    whole = len(client.get(f"/t/{t['table']}/live", headers={"HX-Request": "true"}).get_data(as_text=True))
    refusals = [  # (the form, its fields, the part of Tom's card that shows the refusal beside the field)
        ("fame", {"data.player:int": "1", "data.delta:int": "2.5"}, "player-1-counters"),
        ("take_inks", {"data.player:int": "1", "data.first:int": "1", "data.count:int": "9"}, "player-1-forms"),
        ("character", {"data.player:int": "1", "data.character:json": '"nobody"'}, "player-1-character"),
    ]
    for type_, fields, beside in refusals:
        status, body = refuse(client, t["table"], 0, type_, fields)
        assert status == 400, body
        sent = re.findall(r'<[a-z]+ hx-swap-oob="morph"[^>]*? id="([^"]+)"', body)
        assert sent == ["table-notice", beside], (type_, sent)
        assert body.count('role="alert"') == 2 and len(body) < whole / 10, (type_, len(body), whole)
