"""A name as long as a name may be (validation.NAME_MAX), with nowhere to break, never widens a phone's
page: every game's table, tracked and calculator, at 360 px (found by a newcomer's play of the score pad:
one 40-letter name made the page 619 px wide on every phone of the table, and taps landed elsewhere)."""

from __future__ import annotations

import json
from urllib.parse import urlparse

import pytest

from companion import games
from companion.games.validation import NAME_MAX
from tests.conftest import PHONE, take_seat
from tests.examples import create_doc
from tests.foundation.test_lost_taps import call

pytestmark = [pytest.mark.browser, pytest.mark.slow]

LONG = "W" * NAME_MAX  # the widest Latin letter, as many as a name may hold, no space to break at

WIDTH = """w => ({page: document.scrollingElement.scrollWidth, screen: w,
  wide: [...document.querySelectorAll('body *')].filter(e => e.getBoundingClientRect().right > w + 1
        && !e.closest('[data-scrolls], .table-scroll, .pad-scroll')).slice(0, 5).map(e => e.tagName + '.' + e.className)})"""


@pytest.mark.parametrize("calculator", [False, True], ids=["tracked", "calculator"])
@pytest.mark.parametrize("key", list(games.registry()))
def test_the_longest_name_wraps_inside_a_phone_screen(server, browser, key, calculator, shot):
    game = games.get(key)
    names = [LONG, "Ben", "Cleo"][:max(game.min_players, min(3, game.max_players))]
    status, _, text = call(server, "POST", "/api/v1/tables", json.dumps(create_doc(key, names, calculator=calculator)),
                          {"Content-Type": "application/json"})
    assert status == 201, text
    t = json.loads(text)
    context = browser.new_context(**PHONE)
    try:
        page = context.new_page()
        page.goto(server.url + urlparse(t["join_url"]).path)
        for moment in ("chooser", "seated"):  # "Who are you?" with its buttons, then the table as the player
            if moment == "seated":
                take_seat(page, LONG)
            measured = page.evaluate(WIDTH, PHONE["viewport"]["width"])
            if measured["page"] > measured["screen"]:
                shot(page, f"long-name-{key}-{'calculator' if calculator else 'tracked'}-{moment}")
            assert measured["page"] <= measured["screen"], (moment, measured)
    finally:
        context.close()
