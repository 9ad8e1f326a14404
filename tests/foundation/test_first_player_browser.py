"""Who goes first on two 360 px phones in chromium, a real `companion serve` (issue 41).

One phone taps "Draw at random"; the other, without a reload, shows who goes first (pushed). Both
ask for reduced motion: the outcome settles without an animation, and nothing below the card
moves when it does.
"""

from __future__ import annotations

import json

import pytest

from tests.conftest import PHONE
from tests.foundation.test_lost_taps import call, create
from tests.foundation.test_lost_taps_browser import open_table

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def test_a_draw_on_one_phone_shows_on_the_other(server, browser):
    t = create(server, "galileo", ("Anna", "Tom", "Cy"))
    phones = []
    for seat in ("Anna", "Tom"):
        context = browser.new_context(**PHONE, reduced_motion="reduce")
        page = context.new_page()
        page.set_default_timeout(10_000)
        open_table(page, server, t, seat)
        phones.append(page)
    tapper, watcher = phones
    card = watcher.locator("#first-player")
    assert card.get_by_role("heading", name="Who goes first?").is_visible()
    panel_top = watcher.locator("#game-panel").bounding_box()["y"]
    button = tapper.locator("#first-player").get_by_role("button", name="Draw at random")
    assert button.bounding_box()["height"] >= 44  # a big touch target
    button.click()
    outcome = card.locator(".first-name")
    outcome.wait_for()  # pushed: no reload
    _, _, text = call(server, "GET", f"/api/v1/tables/{t['table']}", headers={"X-Table-Token": t["token"]})
    first = json.loads(text)["state"]["first"]
    assert outcome.inner_text() == f"{['Anna', 'Tom', 'Cy'][first]} goes first"
    assert watcher.evaluate("() => window.matchMedia('(prefers-reduced-motion: reduce)').matches")
    assert outcome.evaluate("n => getComputedStyle(n).animationName") == "none"
    # the seat buttons fold into "Choose again": the card grows no taller, the panel never goes down
    assert watcher.locator("#game-panel").bounding_box()["y"] <= panel_top
    assert watcher.evaluate("() => document.documentElement.scrollWidth") <= 360
    for page in phones:
        page.context.close()
