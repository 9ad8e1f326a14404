"""Play again on two phones at 360 px (issue 41): phone A taps "Play again" and lands on the new table
in its seat; phone B, which did nothing, is shown "Join the new table" (pushed) and joins in its
own seat with one tap. A real `companion serve`, Debian's chromium.
"""

from __future__ import annotations

from urllib.parse import urlparse

import pytest

from tests.conftest import PHONE, fits_a_phone
from tests.examples import examples
from tests.foundation.test_lost_taps_browser import open_table

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def test_play_again_on_one_phone_and_join_in_ones_seat_on_the_other(server, browser, shot):
    ex = examples("codex")
    t = server.api("/api/v1/tables", {"game": "codex", "players": ex.CALCULATOR_NAMES, "calculator": True})
    for version, (type_, data) in enumerate([*ex.CALCULATOR_SETUP, *[("sheet", row) for row in ex.CALCULATOR_ROWS]]):
        server.api(f"/api/v1/tables/{t['table']}/events", {"type": type_, "data": data, "expected_version": version}, t["token"])
    a_context, b_context = browser.new_context(**PHONE), browser.new_context(**PHONE, color_scheme="dark")
    try:
        a, b = a_context.new_page(), b_context.new_page()
        for page in (a, b):
            page.set_default_timeout(10_000)
        open_table(a, server, t, ex.CALCULATOR_NAMES[0])
        open_table(b, server, t, ex.CALCULATOR_NAMES[1])
        old = urlparse(a.url).path
        assert b.locator("#rematch").get_by_role("button", name="Play again").is_visible()
        fits_a_phone(a, "#rematch")
        # B reads the page's end (the history, the invite): the join must come into its view all the same
        b.evaluate("() => window.scrollTo(0, document.documentElement.scrollHeight)")
        a.locator("#rematch").get_by_role("button", name="Play again").click()
        a.wait_for_url(lambda url: urlparse(url).path not in (old, old + "/rematch"))
        new = urlparse(a.url).path
        assert new.startswith("/t/") and a.locator("body").get_attribute("data-seat") == "0"
        # B did nothing: the push brings the join, and one tap takes it to its own seat
        join = b.locator("#rematch").get_by_role("button", name="Join the new table")
        join.wait_for()
        b.wait_for_function("() => { const r = document.getElementById('rematch').getBoundingClientRect();"
                            " return r.top >= 0 && r.bottom <= window.innerHeight; }")  # brought into view, once
        fits_a_phone(b, "#rematch")
        shot(b, "rematch-join-360-dark")
        assert urlparse(b.url).path == old  # pushed, not reloaded
        join.click()
        b.wait_for_url(lambda url: urlparse(url).path == new)
        assert b.locator("body").get_attribute("data-seat") == "1"
        assert b.locator(".seat-chooser").count() == 0 or not b.locator(".seat-chooser").is_visible()
    finally:
        a_context.close()
        b_context.close()
