"""A player's page on a 360 px phone, light and dark (issue 41): opened from a name in the archive,
then a name in the head-to-head, on the host's own browser (it opened the host-key link).

The plays are finished through the real server's JSON API, as tests/foundation/test_plays_browser.py does.
"""

from __future__ import annotations

import pytest

from companion.web import language

from tests.conftest import fits_a_phone, open_key_link
from tests.foundation.test_plays_browser import finished_plays, watch_console

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def visit(page, server, shot, suffix: str) -> None:
    errors = watch_console(page)
    open_key_link(page, server.key_link())
    # the newest play is the Codex game; its first player chip is a link to that player's page
    entry = page.locator(".play-item").first
    entry.locator("a.play-player", has_text="Anna").click()
    page.wait_for_url("**/players/Anna")
    assert page.locator("h1").inner_text() == "Anna"
    # Anna played both Gutenberg tables and the Codex game: three plays, two games
    assert page.locator(".player-games tbody tr").count() == 2
    assert page.locator(".player-latest .play-link").count() == 3
    fits_a_phone(page, "main")
    for link in page.locator(".player-latest .play-link").all():
        assert link.bounding_box()["height"] >= 44
    shot(page, f"player{suffix}")
    # the head-to-head leads on to another player's page
    page.locator(".player-h2h a", has_text="Benedikt").click()
    page.wait_for_url("**/players/Benedikt")
    assert page.locator("h1").inner_text() == "Benedikt"
    # the host's page offers the merge form
    assert page.locator("#merge-form select").is_visible()
    fits_a_phone(page, "main")
    # in Polish, whose words run longer, it still fits the phone
    page.context.add_cookies([{"name": language.COOKIE, "value": "pl", "url": server.url}])
    page.reload()
    assert page.locator("html").get_attribute("lang") == "pl"
    fits_a_phone(page, "main")
    shot(page, f"player-pl{suffix}")
    page.context.clear_cookies(name=language.COOKIE)
    assert errors == []


def test_a_players_page_opens_from_the_archive_on_a_phone_light_and_dark(server, phone, dark_phone, shot):
    finished_plays(server)
    visit(phone, server, shot, "")
    visit(dark_phone, server, shot, "-dark")
