"""A game that tracks nothing (companion/games/base.py `Game.tracks`): every table of it is its end.

Its events are its calculator's alone (and the common ones), so a table of it is a calculator table
whatever its create document says (Game.validate_options), and the start pages ask no mode: the home
page's one button opens the start form, which offers no "Track the game".

The game is made of real modules: Codex's, its table taking its calculator's events alone (`Added`, no
mock), standing in for Codex in the registry for one test, so that its pages are Codex's.
"""

from __future__ import annotations

import re

import pytest
from werkzeug.datastructures import MultiDict

from companion import games, tables
from companion.games.base import Game
from companion.games.codex import GAME as CODEX, calculator, functions, order, profile, table, view
from companion.web.connection import get_db
from tests.codex import examples as codex
from tests.foundation.test_game_hooks import Added

#: Codex taking its calculator's events alone: a game that tracks nothing
UNTRACKED = Game(
    key=CODEX.key, title=CODEX.title, min_players=CODEX.min_players, max_players=CODEX.max_players,
    functions=functions, profile=profile, order=order, view=view, calculator=calculator,
    table=Added(table, EVENTS={k: v for k, v in table.EVENTS.items() if k in calculator.CALCULATOR_EVENTS}),
    scripts=CODEX.scripts, styles=CODEX.styles, bgg_id=CODEX.bgg_id)


@pytest.fixture
def untracked(monkeypatch):
    """The registry's Codex replaced by UNTRACKED for one test."""
    monkeypatch.setitem(games.registry(), CODEX.key, UNTRACKED)
    return UNTRACKED


def stored_options(app, table_id: str) -> dict:
    with app.app_context():
        return tables.load(get_db(), table_id).options


def test_a_game_tracks_where_it_takes_an_event_beyond_its_calculators_and_the_common_ones():
    assert CODEX.tracks and not UNTRACKED.tracks
    assert UNTRACKED.validate_options({}, 3)["calculator"] is True and "calculator" not in CODEX.validate_options({}, 3)
    assert set(UNTRACKED.events) - set(UNTRACKED.calculator_events) == {"first_player", "draw_first_player", "clock"}


@pytest.mark.parametrize("asked", [{}, {"calculator": False}, {"calculator": True}])
def test_every_table_of_a_game_that_tracks_nothing_is_a_calculator_table(app, api, untracked, asked):
    t = api.create("codex", codex.CALCULATOR_NAMES, **asked)
    assert "rows" in t["state"]  # the API's answer: Codex's state of a calculator table
    assert stored_options(app, t["table"])["calculator"] is True
    # what a calculator table refuses: the first player (every table of it is its end)
    for type_, data in (("first_player", {"player": 0}), ("draw_first_player", {})):
        refusal = api.event(t, type_, data).get_json()
        assert refusal["field"] == "type" and "just the final score" in refusal["error"]
    for type_, data in codex.CALCULATOR_SETUP:
        assert api.event(t, type_, data).status_code == 200
    for row in codex.CALCULATOR_ROWS:
        assert api.event(t, "sheet", row).status_code == 200
    assert api.get(t)["state"]["finished"]


def test_a_game_that_tracks_nothing_still_checks_the_calculator_field(api, untracked):
    answer = api.client.post("/api/v1/tables", json={"game": "codex", "players": codex.CALCULATOR_NAMES, "calculator": "yes"})
    assert answer.status_code == 400 and answer.get_json()["field"] == "calculator"


def test_a_game_that_tracks_something_is_tracked_unless_asked(app, api):
    t = api.create("codex", codex.CALCULATOR_NAMES)
    assert "calculator" not in stored_options(app, t["table"]) and "rows" not in t["state"]


def test_the_start_pages_ask_no_mode_of_a_game_that_tracks_nothing(client, untracked):
    home = client.get("/").get_data(as_text=True)
    item = re.search(r'<li class="game-start">(?:(?!</li>).)*/new/codex(?:(?!</li>).)*</li>', home, re.S).group(0)
    # one button, which starts the calculator; no "Final score" beside it
    assert re.findall(r'href="([^"]+)"', item) == ["/new/codex?calculator=1"] and "Final score" not in item
    assert "/new/galileo?calculator=1" in home  # a game that tracks something keeps both
    form = client.get("/new/codex?calculator=1").get_data(as_text=True)
    assert "Track the game" not in form and "How will you use it?" not in form
    # the mode is a checked radio, hidden: app.css hides the tracked-only options of a form whose calculator
    # choice is checked (a hidden input is never :checked, and left them showing)
    assert '<input type="radio" name="options.calculator:bool" value="on" checked hidden>' in form
    # the form posted without the mode (a page of before) still starts a calculator table, stored so
    answer = client.post("/new/codex", data=MultiDict([("players[]", n) for n in codex.CALCULATOR_NAMES]))
    assert answer.status_code == 303 and answer.headers["Location"].endswith("#invite")
    from companion import tables
    from companion.web.connection import get_db

    with client.application.app_context():
        stored = tables.load(get_db(), answer.headers["Location"].split("/t/")[1].split("#")[0])
    assert stored.options.get("calculator") is True


def test_the_start_page_of_a_game_that_tracks_something_asks_the_mode(client):
    home = client.get("/").get_data(as_text=True)
    assert "/new/codex?calculator=1" in home and 'href="/new/codex"' in home
    form = client.get("/new/codex").get_data(as_text=True)
    assert "Track the game" in form and "Just the final score" in form
