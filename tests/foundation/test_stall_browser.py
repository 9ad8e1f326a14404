"""A stalled server on two phones (issue 27, finding 11): chromium at 360 px, a real `companion serve`.

The server is stopped (SIGSTOP): its connections stay open and say nothing. The phone that taps
learns it from its tap ("not saved", the banner); the phone that only watches learns it from its
stream, which hears no keep-alive (companion/web/push.py) for two of them: it shows the same
banner, which takes no room, and it goes from both once the server answers again.
"""

from __future__ import annotations

import os
import signal
import time

import pytest

from companion.web.push import KEEP_ALIVE_S
from tests.conftest import FIGURES, SCREENSHOTS
from tests.foundation.test_lost_taps import create
from tests.foundation.test_lost_taps_browser import open_table, plus, wait_saved

pytestmark = [pytest.mark.browser, pytest.mark.slow]

BANNER = "#connection-banner"
STALE = "Can\u2019t reach the server: the table shown may be out of date."


def boxes(page) -> list:
    return page.evaluate("() => [...document.querySelectorAll('#table-live .btn')].map(b => { const r = b.getBoundingClientRect(); return [r.x, r.y, r.width, r.height]; })")


def test_the_watching_phone_says_its_table_may_be_stale_while_the_server_is_stalled(server, phone, dark_phone):
    t = create(server)
    open_table(phone, server, t, "Anna")
    open_table(dark_phone, server, t, "Tom")  # Tom watches: he taps nothing during the stall
    dark_phone.wait_for_timeout(500)  # its stream open
    before = boxes(dark_phone)
    os.killpg(server.process.pid, signal.SIGSTOP)
    stopped = time.monotonic()
    try:
        plus(phone, 0).click()
        phone.locator(BANNER).wait_for(state="visible", timeout=15_000)
        # two keep-alives missed, and a little more
        dark_phone.locator(BANNER).wait_for(state="visible", timeout=(2 * KEEP_ALIVE_S + 6) * 1000)
        FIGURES.append(f"stalled server: the watching phone said so after {time.monotonic() - stopped:.1f} s "
                       f"(keep-alive every {KEEP_ALIVE_S} s)")
        assert dark_phone.locator(BANNER).text_content() == STALE
        assert dark_phone.locator(BANNER).get_attribute("aria-live") == "assertive"
        assert boxes(dark_phone) == before  # the banner takes no room: nothing moved
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        dark_phone.screenshot(path=str(SCREENSHOTS / "stalled-watching-dark.png"))
    finally:
        os.killpg(server.process.pid, signal.SIGCONT)
    wait_saved(phone, timeout=30_000)
    for page in (phone, dark_phone):
        page.locator(BANNER).wait_for(state="hidden", timeout=15_000)
    # and the watching phone shows Anna's tap, by push again
    dark_phone.wait_for_function("() => document.body.dataset.version === '1'", timeout=15_000)
