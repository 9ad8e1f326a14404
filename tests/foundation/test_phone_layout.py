"""Every game's start form, box-profile form and table page fit a 360 px phone without sideways scrolling."""

import pytest

from companion import games
from tests.examples import create_doc

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def create_table(server, game) -> str:
    players = ["Anna", "Tom", "Kate", "Ben"][: max(2, game.min_players)]
    return server.api("/api/v1/tables", create_doc(game.key, players))["join_url"]  # with what its start form asks


def test_pages_fit_a_phone(server, phone, shot):
    too_wide = []
    for key, game in games.registry().items():
        join = create_table(server, game)
        for name, url in [("new", f"{server.url}/new/{key}"), ("profile", f"{server.url}/profiles/new/{key}"), ("table", join)]:
            phone.goto(url)
            width = phone.evaluate("() => document.documentElement.scrollWidth")
            if width > 360:
                too_wide.append(f"{key} {name}: {width} px")
                shot(phone, f"too-wide-{key}-{name}")
    assert not too_wide, too_wide
