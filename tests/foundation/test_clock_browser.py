"""The turn clock on two phones at 360 px in chromium, a real `companion serve` (issue 41).

One phone starts the clock; the other ticks it, by the server's time although its own clock is an
hour ahead; "Done" passes the turn; a reload shows the running turn's time within a second of the
server's truth, computed from the table's state (`since`), never from how fast anything went.
"""

from __future__ import annotations

import json
import time

import pytest

from tests.foundation.test_lost_taps import call, create
from tests.foundation.test_lost_taps_browser import open_table
from tests.foundation.test_push_browser import wait_push_open

pytestmark = [pytest.mark.browser, pytest.mark.slow]

#: this phone's clock is an hour ahead of the server's (the page must tick by the server's)
HOUR_AHEAD = "(() => { const real = Date.now; Date.now = () => real() + 3600000; })()"


def clock_state(server, t) -> dict:
    status, _, text = call(server, "GET", f"/api/v1/tables/{t['table']}", headers={"X-Table-Token": t["token"]})
    assert status == 200
    return json.loads(text)["state"]["clock"]


def seconds(shown: str) -> int:
    parts = [int(p) for p in shown.strip().split(":")]
    return parts[0] * 60 + parts[1] if len(parts) == 2 else parts[0] * 3600 + parts[1] * 60 + parts[2]


def test_the_clock_ticks_on_the_other_phone_passes_and_survives_a_reload(server, phone, dark_phone, shot):
    t = create(server, "gutenberg", ("Anna", "Tom"))
    dark_phone.context.add_init_script(HOUR_AHEAD)
    open_table(phone, server, t, "Anna")
    open_table(dark_phone, server, t, "Tom")
    wait_push_open(dark_phone)

    phone.get_by_text("Start a turn clock").click()
    phone.get_by_label("Turn limit, in seconds").fill("2")
    phone.get_by_role("button", name="Start the clock").click()

    # Tom's phone ticks Anna's time: it moves past 0:00 and stays near it, an hour ahead though its clock is
    ticking = dark_phone.locator("#turn-clock [data-clock-tick]")
    ticking.wait_for()
    dark_phone.wait_for_function("() => /^0:0[1-9]$/.test(document.querySelector('#turn-clock [data-clock-tick]').textContent.trim())")
    # and the running turn's own time beside it, ticking the same
    dark_phone.wait_for_function("() => /^0:0[1-9]$/.test(document.querySelector('#turn-clock [data-clock-turn]').textContent.trim())")
    # past the limit: a warning in words, in the place the limit's line kept for it (nothing moves)
    line = dark_phone.locator("#turn-clock [data-clock-limit]")
    height = line.bounding_box()["height"]
    dark_phone.locator("[data-clock-over]").wait_for(state="visible")
    assert "Over the turn limit" in line.inner_text() and line.bounding_box()["height"] == height
    shot(dark_phone, "clock-over-limit-dark")

    dark_phone.get_by_role("button", name="Done: next player").click()
    phone.locator('#turn-clock .clock-seat.running[data-you="1"]').wait_for()
    assert phone.evaluate("() => document.documentElement.scrollWidth") <= 360
    shot(phone, "clock-running-light")

    # a reload: Tom's running time within a second of the server's truth
    dark_phone.reload()
    dark_phone.locator("#turn-clock [data-clock-tick]").wait_for()
    # the page's scripts have run (main.js starts the clock at DOMContentLoaded): before that the tick shows
    # the time as of the last event, 0:00, the server's drawing (seen on a loaded machine: shown 0, low 1.03)
    dark_phone.wait_for_load_state("load")
    c = clock_state(server, t)
    assert c["running"] == 1
    before = time.time() * 1000
    shown = seconds(dark_phone.locator("#turn-clock [data-clock-tick]").inner_text())
    after = time.time() * 1000
    low, high = (before - c["since"] + c["ms"][1]) / 1000, (after - c["since"] + c["ms"][1]) / 1000
    assert low - 1 <= shown <= high + 1, (shown, low, high)
    # Anna's total is what the server counted, written as the server writes it
    anna = dark_phone.locator('#turn-clock .clock-seat[data-you="0"] .clock-time').inner_text()
    assert seconds(anna) == c["ms"][0] // 1000

    # Pause on Tom's phone: the button he tapped (and kept the focus on) says Resume after it, on his
    # phone as on Anna's; Resume again says Pause (a morph leaves a focused element as it is)
    dark_phone.get_by_role("button", name="Pause", exact=True).click()
    dark_phone.get_by_role("button", name="Resume", exact=True).wait_for()
    phone.get_by_role("button", name="Resume", exact=True).wait_for()
    assert dark_phone.get_by_role("button", name="Pause", exact=True).count() == 0
    dark_phone.get_by_role("button", name="Resume", exact=True).click()
    dark_phone.get_by_role("button", name="Pause", exact=True).wait_for()
    assert dark_phone.get_by_role("button", name="Resume", exact=True).count() == 0
    # the focus stays on the pair's button, never on Done, which a stray Enter would press
    dark_phone.wait_for_function("() => document.activeElement && document.activeElement.closest('#clock-pause-resume') !== null")


def test_starting_the_clock_leaves_the_focus_on_done(server, phone):
    """The start form goes as the clock starts: the focus goes to "Done", never to a name's button,
    which a stray Enter would press to hand the turn over (found playing issue 41)."""
    t = create(server, "gutenberg", ("Anna", "Tom"))
    open_table(phone, server, t, "Anna")
    phone.get_by_text("Start a turn clock").click()
    phone.get_by_role("button", name="Start the clock").click()
    phone.locator("#turn-clock [data-clock-tick]").wait_for()
    phone.wait_for_function("() => document.activeElement && document.activeElement.matches('.clock-done-btn')")


#: a double tap in the page: Done, then Done again `gap` ms after it, or at once when the first tap's answer
#: (the next turn drawn) came later than that; returns when the second half was sent, after the first
DOUBLE_TAP = """async ([gap, next]) => {
  const done = () => document.querySelector('.clock-done-btn');
  done().click();
  const t0 = performance.now();
  await new Promise(ok => { const i = setInterval(() => {
    if (document.querySelector(`#turn-clock .clock-seat.running[data-you="${next}"]`)) { clearInterval(i); ok(); } }, 5); });
  await new Promise(ok => setTimeout(ok, Math.max(0, gap - (performance.now() - t0))));
  done().click();
  return performance.now() - t0;
}"""


@pytest.mark.parametrize("gap_ms", [80, 200])
def test_a_double_tap_on_done_passes_one_turn(server, phone, gap_ms):
    """A newcomer's double tap (80 to 200 ms apart) on "Done" passed two turns: the first tap's answer,
    back on the LAN before the second half, brought a Done that ended the next player's turn. The second
    half is no tap now; a tap after a moment is (the next player's own Done)."""
    t = create(server, "gutenberg", ("Anna", "Tom"))
    open_table(phone, server, t, "Anna")
    phone.get_by_text("Start a turn clock").click()
    phone.get_by_role("button", name="Start the clock").click()
    done = phone.get_by_role("button", name="Done: next player")
    done.wait_for()
    phone.locator('#turn-clock .clock-seat.running[data-you="0"]').wait_for()
    second = phone.evaluate(DOUBLE_TAP, [gap_ms, 1])
    phone.wait_for_timeout(300)  # what a second pass's answer would take on the LAN
    assert clock_state(server, t)["running"] == 1, second
    assert phone.locator('#turn-clock .clock-seat.running[data-you="1"]').count() == 1
    # a moment later, Done passes the turn as ever
    phone.wait_for_timeout(600)
    done.click()
    phone.locator('#turn-clock .clock-seat.running[data-you="0"]').wait_for()
    assert clock_state(server, t)["running"] == 0


def test_a_double_tap_on_done_passes_one_turn_where_the_same_player_plays_again(server, phone):
    """A score pad for one: Done gives the turn back to the same player (`from` stays the same), so the hold
    is keyed on the turn's count, not on whose turn it is (found in review)."""
    t = create(server, "pad", ("Anna",))
    open_table(phone, server, t, "Anna")
    phone.get_by_text("Start a turn clock").click()
    phone.get_by_role("button", name="Start the clock").click()
    phone.get_by_role("button", name="Done: next player").wait_for()
    turns = phone.locator(".clock-done-btn")
    phone.evaluate("""async () => { const b = document.querySelector('.clock-done-btn'); b.click();
      await new Promise(ok => { const i = setInterval(() => {
        if (document.querySelector('.clock-done-btn').getAttribute('data-turn') === '2') { clearInterval(i); ok(); } }, 5); });
      document.querySelector('.clock-done-btn').click(); }""")
    phone.wait_for_timeout(300)
    assert clock_state(server, t)["turns"] == [2] and turns.get_attribute("data-turn") == "2"
