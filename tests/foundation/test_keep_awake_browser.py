"""Keep-awake over plain HTTP on the LAN (issue 13, finding 10), in real chromium at 360 px.

http://127.0.0.1 counts as a secure context, so a test there never sees what a phone sees. This
one opens the table at a name that is not loopback to the browser (table.test, which the test
browser maps to 127.0.0.1, so no byte leaves the machine), where the page has no Wake Lock,
taps, and checks that the fallback video really plays: not paused, its time moving on, and
placed where chromium grants a playing muted video the screen (on screen, over a fifth of it).
"""

from __future__ import annotations

from urllib.parse import urlparse

import pytest

from tests.conftest import PHONE, TEST_DOMAIN, Server
from tests.foundation.test_lost_taps import create

pytestmark = [pytest.mark.browser, pytest.mark.slow]


@pytest.fixture
def lan_server(tmp_path):
    """A real `companion serve` on 127.0.0.1 that answers to a LAN-like name, where the page is opened."""
    name = f"table.{TEST_DOMAIN}"
    srv = Server(data=tmp_path / "srv", args=("--allow-host", name)).start()
    yield srv, f"http://{name}:{srv.port}"
    srv.stop()


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_screen_stays_awake_over_plain_http_at_the_lan_address(lan_server, browser, shot, scheme):
    srv, lan = lan_server
    t = create(srv)
    assert urlparse(t["join_url"]).path.startswith("/join/")
    context = browser.new_context(**PHONE, color_scheme=scheme)
    try:
        page = context.new_page()
        page.set_default_timeout(10_000)
        page.goto(lan + urlparse(t["join_url"]).path)
        page.wait_for_url(lan + "/t/*")
        assert page.evaluate("window.isSecureContext") is False
        assert page.evaluate("'wakeLock' in navigator") is False
        page.locator(".seat-chooser").get_by_role("button", name="Anna").click()  # a new page: the seat's cookie
        page.wait_for_selector(".seat-chooser", state="detached")
        page.locator("#player-0").get_by_role("button", name="Fame plus 1").click()  # a tap that stays on the page
        page.wait_for_function("() => { const v = document.querySelector('video.keep-awake');"
                               " return v && !v.paused && v.currentTime > 0; }")
        times = page.evaluate("""() => new Promise(done => {
            const v = document.querySelector('video.keep-awake'), seen = [];
            const look = () => { seen.push(v.currentTime); if (seen.length < 8) setTimeout(look, 250); else done(seen); };
            look(); })""")
        assert len(set(times)) >= 4, times  # playing: its time moves on (and loops)
        state = page.evaluate("""() => { const v = document.querySelector('video.keep-awake'), r = v.getBoundingClientRect();
            return {paused: v.paused, muted: v.muted, loop: v.loop, inline: v.hasAttribute('playsinline'),
                    source: v.currentSrc, share: (r.width * r.height) / (innerWidth * innerHeight),
                    onScreen: r.left >= 0 && r.top >= 0 && r.right <= innerWidth && r.bottom <= innerHeight,
                    clicks: getComputedStyle(v).pointerEvents}; }""")
        assert state["paused"] is False and state["muted"] and state["loop"] and state["inline"]
        assert state["source"].startswith(lan + "/static/wake/wake.")
        assert state["share"] > 0.2 and state["onScreen"] and state["clicks"] == "none"
        # the page still works as before: the video is behind it and takes no tap
        page.locator("#player-0").get_by_role("button", name="Fame plus 1").click()
        page.wait_for_function("() => document.body.dataset.heard === '2'")
        assert page.evaluate("document.documentElement.scrollWidth") <= 360
        shot(page, f"keep-awake-{scheme}")  # the video is there, and nothing of it shows
    finally:
        context.close()


def test_the_wake_videos_are_small_files_the_policy_lets_play(lan_server):
    """default-src 'self': the video is a file of ours, a few KB, served with its media type."""
    srv, _ = lan_server
    for name, kind in (("wake.webm", "video/webm"), ("wake.mp4", "video/mp4")):
        status, headers, body = srv.send("GET", f"/static/wake/{name}")
        assert status == 200 and headers["Content-Type"] == kind
        assert 500 < len(body) < 8 * 1024
