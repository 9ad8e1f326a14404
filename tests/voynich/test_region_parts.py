"""The Voynich panel drawn a part at a time (companion/web/region.py, issue 39).

Whole games are followed a change at a time (tests/regions.py `follow`): after each change the
region drawn in parts must be the region drawn whole, on every screen and in two languages. Then
the bounds that make the parts worth having: a +1 on one player's GK draws and sends that
player's few small parts, not the panel; a refused field answers with that player's parts and
the notice, not every card.
"""

from __future__ import annotations

import json
import re
from urllib.parse import urlsplit

from companion import tables
from companion.web import region
from companion.web.connection import get_db
from tests import regions
from tests.regions import follow

#: the score track as a group types it (tests/voynich/test_result.py's spaces), with the insight
#: symbols (exchange tokens) and an early end symbol, so that a short game reaches its end
TRACK = {"scoring_spaces": {"5": 1, "10": 3, "15": 6, "20": 10, "25": 15}, "insights": [4, 9, 15], "end": 20}
CARDS = {"botany": [3, 8], "astrology": [12, 15], "baths": [21, 24], "writings": [30, 33], "recipes": [36, 39]}
SCREENS = (None, "end", "track", "book")
LANGS = ("en", "de")


def ev(type_: str, **data) -> dict:
    return {"type": type_, "data": data}


def sheet(player: int, gk: int, research=(3, 4), pages=None, choices=None) -> dict:
    """One player's end-of-game row (calculator.py `sheet`): every page ×0 unless `pages` says otherwise."""
    data = {"player": player, "gk": gk, "markers": {"botany": 5, "astrology": 10, "baths": 2, "writings": 0},
            "pages": pages or {s: [0, 0] for s in CARDS}}
    if research is not None:  # Voynich's row has none
        data["research"] = list(research)
    if choices:
        data["choices"] = choices
    return ev("sheet", **data)


def played(steps, type_: str) -> bool:
    return any(s.event.get("type") == type_ for s in steps)


# --- whole games: the region in parts is the region drawn whole -----------------------------------

def test_a_tracked_game_in_parts_is_the_region_drawn_whole(app):
    events = [
        ev("track", **TRACK),
        ev("move", player=0, marker="botany", delta=4),  # reaches insight 4: a Botany token
        ev("move", player=0, marker="gk", delta=1),
        ev("exchange", player=0, type="botany"),
        ev("study", player=0, page=0),
        ev("page", player=0, page=0, multiplier=1),
        ev("book", player=0, cards=CARDS),
        ev("research", player=0, gk=3),
        ev("research", player=0, gk=5),
        ev("research_remove", player=0, index=0),
        ev("end_turn"),
        ev("positions", player=1, markers={"astrology": 10}, gk=4),  # passes 4 and 9: two tokens
        ev("exchange", player=1, type="astrology"),
        ev("undo"),
        ev("exchange", player=1, type="astrology"),
        ev("exchange", player=1, type="astrology"),
        ev("study", player=1, page=8),
        ev("page", player=1, page=8, multiplier=1, choices=["baths", "writings"]),
        ev("rename", player=2, name="Cyd"),
        ev("end_turn"),
        ev("move", player=2, marker="gk", delta=-1),  # refused: GK 0 cannot go down
        ev("move", player=2, marker="gk", delta=20),  # the end symbol: the end is triggered
        ev("end_turn"), ev("end_turn"), ev("end_turn"),
        sheet(1, 6, pages={**{s: [0, 0] for s in CARDS}, "recipes": [1, 0]},  # his studied page: ×1
              choices={"left": ["baths", "writings"]}),
        ev("end_turn"),  # the last turn: the game is over and scored
        ev("undo"),
        ev("end_turn"),
    ]
    steps = follow(app, "voynich", ["Anna", "Tom", "Cy"], events, screens=SCREENS, langs=LANGS, refused_ok=True)
    assert len(steps) == (len(events) - 1) * len(SCREENS) * len(LANGS)  # one refused: the GK below 0
    assert all(played(steps, t) for t in ("track", "move", "exchange", "study", "page", "book", "research",
                                          "research_remove", "end_turn", "positions", "rename", "sheet", "undo"))


def test_a_solo_game_against_voynich_in_parts_is_the_region_drawn_whole(app):
    events = [
        ev("track", scoring_spaces=TRACK["scoring_spaces"], insights=TRACK["insights"], end=10),
        ev("solo_setup", cards=CARDS, difficulty="hard"),
        ev("move", player=0, marker="baths", delta=4),
        ev("exchange", player=0, type="baths"),
        ev("end_turn"),
        ev("voynich_flip"),
        ev("voynich_reflip"),
        ev("voynich_research"),
        ev("move", player=1, marker="writings", delta=4),  # his exchange token: placed with its GK
        ev("exchange", player=1, type="writings", gk=2),
        ev("end_turn"),
        ev("move", player=0, marker="gk", delta=10),  # the end
        ev("end_turn"), ev("voynich_flip"), ev("end_turn"), ev("end_turn"), ev("voynich_flip"), ev("end_turn"),
        # his row at the end: every page ×0 whichever his flips studied (his deck is shuffled at random)
        sheet(1, 12, research=None),
        ev("voynich_tokens", count=3),  # hard: his tokens on the board, and the game is scored
    ]
    steps = follow(app, "voynich", ["Ana"], events, screens=SCREENS, langs=("en", "pl"), refused_ok=True)
    assert all(played(steps, t) for t in ("solo_setup", "voynich_flip", "voynich_reflip", "voynich_research",
                                          "exchange", "voynich_tokens"))


def test_a_calculator_table_in_parts_is_the_region_drawn_whole(app):
    rows = [sheet(0, 14, pages={**{s: [1, 2] for s in CARDS}, "recipes": [0, 1]}, choices={"right": ["baths", "botany"]}),
            sheet(1, 9, research=()), sheet(2, 17, research=(2, 2, 5))]
    events = [rows[0], ev("track", scoring_spaces=TRACK["scoring_spaces"]), rows[1],
              ev("rename", player=1, name="Benno"), rows[2], ev("undo"), rows[2], sheet(0, 15)]
    steps = follow(app, "voynich", ["Ana", "Ben", "Cy"], events, options={"calculator": True},
                   screens=(None, "end"), langs=LANGS)
    assert len(steps) == len(events) * 2 * len(LANGS)


# --- what a change costs -------------------------------------------------------------------------

def changes(app, names: list[str], events: list[dict], screen=None, lang="en", options=None):
    """Apply `events` one at a time; after each, draw the region as the app does (from the version
    before) and yield (event, the region before, the region now)."""
    table_id, secret = regions.create(app.test_client(), "voynich", names, options)
    with app.app_context():
        db = get_db()
        table = tables.authorize(db, table_id, secret)
        key = table.rules.screen_of(screen, table.names)
        now = region.draw(app, table, key, lang, None, region.context_of(db, table, key))
        for event in events:
            table = tables.append(db, table_id, {**event, "expected_version": table.version}, None, secret=secret)
            before, now = now, region.draw(app, table, key, lang, now, region.context_of(db, table, key))
            yield event, before, now


def drawn_text(parts: region.Parts) -> int:
    """How much text the templates wrote for a change: the own text of each part drawn."""
    return sum(len(parts.parts[pid].own) for pid in parts.drawn)


def score_changes(n: int) -> list[dict]:
    """bench/run.py's score change: GK up, up, down, down, on seats 0 and 1 in turn."""
    return [ev("move", player=i % 2, marker="gk", delta=1 if i % 4 < 2 else -1) for i in range(n)]


#: the parts a player's +1 on GK draws: the skeletons drawn at every change (table-live, game-panel), the
#: scoreboard's head and the player's row, the cards' list (keyed by every card it holds), the player's card,
#: its head, its GK stepper and its typed positions, the tools and the history. Before the panel was cut into
#: parts a +1 drew 7 parts, but one of them was the whole panel: the text drawn is bound below as well
SCORE_DRAWN = 11


def test_a_score_change_draws_and_sends_only_that_players_few_parts(app):
    # the first player chosen and their turn played first: the card "Who goes first?" closes, once
    events = [ev("track", **TRACK), ev("first_player", player=0), ev("end_turn")] + score_changes(8)
    for event, before, now in changes(app, ["Anna", "Tom", "Cy", "Di"], events):
        if event["type"] != "move":
            continue
        i = event["data"]["player"]
        sent = now.changed_since(before.fingerprint)
        sent_bytes = len(now.since(before.fingerprint))
        whole = len(now.html)
        # before the panel was cut into parts, the whole game-panel (57 of the region's 61 KB, 43 KB of its
        # own text) was drawn and sent; now about 3.4 KB is sent, and the text drawn is 7.4 KB
        assert "game-panel" not in sent
        assert sent_bytes * 10 < whole, (sent, sent_bytes, whole)
        assert drawn_text(now) * 5 < whole, (now.drawn, drawn_text(now))
        assert len(now.drawn) <= SCORE_DRAWN, now.drawn
        seats = [re.match(r"(?:player|type|exchange|book|sb)-(\d+)", pid) for pid in now.drawn + tuple(sent)]
        assert not [m.group(0) for m in seats if m and m.group(1) != str(i)]  # no other player's part
        assert {f"player-{i}-head", f"type-{i}", f"sb-{i}", "history", "table-tools"} <= set(sent)


def assert_one_row_sent(event, before, now, with_it: str) -> None:
    """The change sent its player's row (`sheet-N`) and `with_it`, no other row, not the panel, and
    under a third of the region."""
    i = event["data"]["player"]
    sent = now.changed_since(before.fingerprint)
    assert "game-panel" not in sent and f"sheet-{i}" in sent and with_it in sent, sent
    assert not [pid for pid in sent if pid.startswith("sheet-") and pid != f"sheet-{i}"], sent
    assert len(now.since(before.fingerprint)) * 3 < len(now.html)


def test_a_score_change_on_the_end_screen_sends_that_players_row_and_the_result(app):
    events = [ev("track", **TRACK)] + score_changes(4)
    for event, before, now in changes(app, ["Anna", "Tom", "Cy", "Di"], events, screen="end"):
        if event["type"] == "move":
            # one row of four and the result (10 of 37 KB), where the whole panel was sent (34 KB)
            assert_one_row_sent(event, before, now, "result")


def test_a_calculator_row_saved_sends_that_row_and_the_summary(app):
    events = [sheet(1, 9, research=()), sheet(2, 17, research=(2, 2, 5))]
    for event, before, now in changes(app, ["Ana", "Ben", "Cy", "Di"], events, options={"calculator": True}):
        assert_one_row_sent(event, before, now, "voy-calc-intro")


def test_exchange_tokens_coming_and_going_send_the_exchange_not_the_card(app):
    events = [ev("track", **TRACK), ev("move", player=0, marker="botany", delta=4), ev("exchange", player=0, type="botany")]
    for event, before, now in changes(app, ["Anna", "Tom", "Cy"], events):
        if event["type"] == "track":
            continue
        sent = now.changed_since(before.fingerprint)
        assert "exchange-0" in sent and "player-0" not in sent, sent
        assert len(now.since(before.fingerprint)) * 10 < len(now.html)


def test_a_study_sends_that_page_alone(app):
    events = [ev("study", player=1, page=3)]
    for _event, before, now in changes(app, ["Anna", "Tom", "Cy"], events):
        sent = now.changed_since(before.fingerprint)
        assert "book-1-3" in sent and "book-1" not in sent and "player-1" not in sent, sent
        assert len(now.since(before.fingerprint)) * 20 < len(now.html)


# --- a refusal: that player's parts and the notice ------------------------------------------------

HX = {"HX-Request": "true", "Sec-Fetch-Site": "same-origin"}
#: the id of each part an answer sends (parts.py marks each one's tag to be morphed in out of band)
IDS = re.compile(r'<[a-z]+ hx-swap-oob="morph" data-v="\d+"[^>]*? id="([^"]+)"')


def refused_answer(client, api, names, setup, refused, screen=None):
    """Set up a joined table, show its region at its version (as the page holds it), and post
    `refused` through the table page's form route; return the answer and the region's length."""
    t = api.create("voynich", names)
    table_id = t["table"]
    for event in setup:
        answer = api.event(t, event["type"], event["data"])
        assert answer.status_code == 200, answer.get_json()
    assert client.get(urlsplit(t["join_url"]).path).status_code == 303
    query = {"screen": screen} if screen else {}
    shown = client.get(f"/t/{table_id}/live", query_string=query, headers=HX)
    version = shown.headers["X-Table-Version"]
    form = {"type": refused["type"], "expected_version:int": version}
    if screen:
        form["screen"] = screen
    form.update({f"data.{k}:json": json.dumps(v) for k, v in refused["data"].items()})
    answer = client.post(f"/t/{table_id}/events", data=form, headers=dict(HX, **{"X-Table-Has": version}))
    assert answer.status_code == 400, answer.get_data(as_text=True)[:300]
    return answer.get_data(as_text=True), len(shown.get_data())


def test_a_refused_exchange_answers_with_that_players_exchange_and_the_notice(client, api):
    setup = [ev("track", **TRACK), ev("move", player=0, marker="botany", delta=4),
             ev("move", player=1, marker="baths", delta=4), ev("move", player=2, marker="baths", delta=4)]
    body, whole = refused_answer(client, api, ["Anna", "Tom", "Cy"], setup, ev("exchange", player=1, type="writings"))
    # Tom's: his exchange with the message, and his typed positions (opened on any refusal of his)
    assert IDS.findall(body) == ["table-notice", "type-1", "exchange-1"]
    assert body.count('data-field="data.type"') == 3  # the notice and Tom's two, not Anna's nor Cy's exchange
    assert len(body) * 10 < whole, len(body)


def test_a_refused_position_answers_with_that_players_form_and_the_notice(client, api):
    body, whole = refused_answer(client, api, ["Anna", "Tom"], [ev("track", **TRACK)],
                                 ev("positions", player=1, gk=1000))
    assert IDS.findall(body) == ["table-notice", "type-1"]
    assert 'id="type-1" open' in body
    assert len(body) * 10 < whole, len(body)


def test_a_refused_end_row_answers_with_that_players_row_and_the_notice(client, api):
    bad = sheet(2, 5)
    bad["data"]["markers"]["baths"] = -2
    body, whole = refused_answer(client, api, ["Anna", "Tom", "Cy"], [ev("track", **TRACK)], bad, screen="end")
    assert IDS.findall(body) == ["table-notice", "sheet-2"]
    assert len(body) * 3 < whole, len(body)


def test_a_refused_study_answers_with_that_players_book_not_every_book(client, api):
    body, whole = refused_answer(client, api, ["Anna", "Tom", "Cy"], [], ev("study", player=1, page=12))
    assert IDS.findall(body) == ["table-notice", "type-1", "book-1"]
    assert len(body) * 5 < whole, len(body)


def test_a_refused_card_number_answers_with_that_players_cards(client, api):
    cards = {**CARDS, "baths": [21, 999]}
    body, whole = refused_answer(client, api, ["Anna", "Tom", "Cy"], [], ev("book", player=2, cards=cards), screen="book")
    assert IDS.findall(body) == ["table-notice", "book-cards-2"]
    assert len(body) * 3 < whole, len(body)
