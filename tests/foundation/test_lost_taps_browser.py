"""A phone never loses a tap in silence (issue 13, finding 3): real chromium at 360 px, a real server.

Each case makes the write fail the way it fails at a table (the server stopped, an answer lost on
the way back, a full disk), checks that the phone says "not saved" on the control and why in a
banner, then lets the server answer and checks that the tap is saved exactly once.
"""

from __future__ import annotations

import json
import time
from urllib.parse import parse_qs, urlparse

import pytest

from tests.conftest import Server, fits_a_phone, free_port, take_seat
from tests.foundation.test_lost_taps import api_post, call, create, logged
from tests.resilience.test_storage import fill, small_disk  # noqa: F401 (a fixture: a disk that really fills)

pytestmark = [pytest.mark.browser, pytest.mark.slow]

DISK_FULL = "the server's disk is full: nothing was saved"
#: a 507 page as the app draws its error pages (templates/errors/error.html)
DISK_FULL_PAGE = f'<!doctype html><html><body><main><section class="card"><h1>Sorry</h1><p>{DISK_FULL}</p></section></main></body></html>'


def open_table(page, server, t: dict, seat: str) -> None:
    page.goto(server.url + urlparse(t["join_url"]).path)
    page.wait_for_url("**/t/*")
    take_seat(page, seat)


def plus(page, player: int, what: str = "Fame"):
    return page.locator(f"#player-{player}").get_by_role("button", name=f"{what} plus 1")


def fame(server, t: dict) -> list[int]:
    status, _, text = call(server, "GET", f"/api/v1/tables/{t['table']}", headers={"X-Table-Token": t["token"]})
    assert status == 200
    return [p["fame"] for p in json.loads(text)["state"]["players"]]


def kept(page) -> list[dict]:
    return page.evaluate("() => JSON.parse(localStorage.getItem('tc-kept-writes') || '[]')")


def wait_saved(page, timeout: float = 15_000) -> None:
    """Every mark gone and nothing kept: the phone got its answers."""
    page.wait_for_function("() => !document.querySelector('.unsaved-mark') && !localStorage.getItem('tc-kept-writes')",
                           timeout=timeout)


def assert_marked(page, player: int, text: str = "not saved") -> None:
    """The stepper tapped says it in words, in big letters, inside the 360 px screen."""
    form = page.locator(f"#player-{player} form.stepper.unsaved")
    form.wait_for(timeout=10_000)
    mark = form.locator(".unsaved-mark")
    assert mark.text_content().strip() == text
    box = mark.bounding_box()
    size = mark.evaluate("m => parseFloat(getComputedStyle(m).fontSize)")
    assert box["width"] >= 80 and box["height"] >= 20 and box["x"] >= 0 and box["x"] + box["width"] <= 360, box
    assert size >= 16
    fits_a_phone(page)


def write_ids(bodies: list[str]) -> set[str]:
    return {parse_qs(body)["write_id"][0] for body in bodies}


def test_a_tap_while_the_server_is_down_says_not_saved_and_is_saved_once_it_is_back(tmp_path, phone, dark_phone, shot):
    port = free_port()
    server = Server(url=f"http://127.0.0.1:{port}", port=port, data=tmp_path / "srv").start()
    try:
        t = create(server)
        open_table(phone, server, t, "Anna")
        open_table(dark_phone, server, t, "Tom")
        server.stop()
        plus(phone, 0).click()
        plus(dark_phone, 1).click()
        for page, player in ((phone, 0), (dark_phone, 1)):
            assert_marked(page, player)
            banner = page.locator("#connection-banner")
            banner.wait_for(state="visible")
            assert "Can\u2019t reach the server" in banner.text_content() and banner.get_attribute("aria-live") == "assertive"
            assert len(kept(page)) == 1
        shot(phone, "tap-not-saved-light")
        shot(dark_phone, "tap-not-saved-dark")
        plus(phone, 0).click()  # a second tap while the first is kept: kept too, in turn
        phone.wait_for_function("() => document.querySelector('#player-0 .unsaved-mark').textContent === '2 taps not saved'")
        # Tom's phone gets through only once it has seen Anna's taps: two phones sending at once
        # would have the second meet a 409 ("the table changed on another phone"), shown as ever
        # (test_a_kept_write_that_meets_another_phones_change_gets_the_409_and_is_not_kept)
        dark_phone.route("**/t/*/events", lambda route: route.abort())
        server = Server(url=f"http://127.0.0.1:{port}", port=port, data=tmp_path / "srv").start()
        wait_saved(phone)
        phone.locator("#connection-banner").wait_for(state="hidden")
        dark_phone.wait_for_function("() => document.querySelector('#table-live').dataset.version === '2'")
        dark_phone.unroute("**/t/*/events")
        wait_saved(dark_phone)
        dark_phone.locator("#connection-banner").wait_for(state="hidden")
        assert fame(server, t) == [2, 1]
        assert [e["type"] for e in logged(server, t)] == ["fame", "fame", "fame"]
    finally:
        server.stop()


def test_a_tap_whose_answer_was_lost_is_applied_once(server, phone):
    t = create(server)
    open_table(phone, server, t, "Anna")
    forwarded: list[str] = []

    def lose_the_answer(route):
        route.fetch()  # the server gets the tap and applies it...
        forwarded.append(route.request.post_data)
        route.abort()  # ...but its answer never reaches the phone

    phone.route("**/t/*/events", lose_the_answer)
    plus(phone, 0).click()
    assert_marked(phone, 0)
    phone.wait_for_function("() => true")  # let a retry or two go out through the same loss
    deadline = time.monotonic() + 10
    while len(forwarded) < 2 and time.monotonic() < deadline:
        phone.wait_for_timeout(200)
    phone.unroute("**/t/*/events", lose_the_answer)
    wait_saved(phone)
    assert len(forwarded) >= 2 and len(write_ids(forwarded)) == 1  # sent again, with the same write id
    assert fame(server, t) == [1, 0]
    assert len(logged(server, t)) == 1


def test_the_last_tap_before_a_reload_is_never_applied_twice(server, phone):
    t = create(server)
    open_table(phone, server, t, "Anna")
    forwarded: list[str] = []

    def lose_the_answer(route):
        route.fetch()
        forwarded.append(route.request.post_data)
        route.abort()

    phone.route("**/t/*/events", lose_the_answer)
    plus(phone, 0).click()
    assert_marked(phone, 0)
    before = kept(phone)
    assert len(before) == 1
    phone.reload()
    phone.wait_for_url("**/t/*")
    assert_marked(phone, 0)  # after the reload the phone still says so, and tries again
    assert [w["id"] for w in kept(phone)] == [before[0]["id"]]
    deadline = time.monotonic() + 10
    while len(forwarded) < 2 and time.monotonic() < deadline:
        phone.wait_for_timeout(200)
    phone.unroute("**/t/*/events", lose_the_answer)
    wait_saved(phone)
    assert len(forwarded) >= 2 and write_ids(forwarded) == {before[0]["id"]}
    assert fame(server, t) == [1, 0] and len(logged(server, t)) == 1


def test_a_full_disk_says_so_and_the_tap_is_saved_when_it_can_be(server, phone):
    t = create(server)
    open_table(phone, server, t, "Anna")

    def disk_full(route):
        route.fulfill(status=507, content_type="text/html; charset=utf-8", body=DISK_FULL_PAGE)

    phone.route("**/t/*/events", disk_full)
    plus(phone, 0).click()
    assert_marked(phone, 0)
    banner = phone.locator("#connection-banner")
    banner.wait_for(state="visible")
    assert banner.text_content().startswith("The server's disk is full: nothing was saved.")
    assert fame(server, t) == [0, 0]
    phone.unroute("**/t/*/events", disk_full)
    wait_saved(phone)  # the backoff timer sends it again
    banner.wait_for(state="hidden")
    assert fame(server, t) == [1, 0] and len(logged(server, t)) == 1


def test_taps_made_while_one_is_on_its_way_are_all_applied(server, phone):
    """Three taps in one go: htmx alone would send the first and the last and drop the one between."""
    t = create(server)
    open_table(phone, server, t, "Anna")
    phone.evaluate("""() => { const b = document.querySelector('#player-0 button[aria-label="Fame plus 1"]');
                              b.click(); b.click(); b.click(); }""")
    deadline = time.monotonic() + 10
    while fame(server, t)[0] < 3 and time.monotonic() < deadline:
        phone.wait_for_timeout(100)
    wait_saved(phone)
    assert fame(server, t) == [3, 0] and len(logged(server, t)) == 3
    phone.wait_for_function("() => document.querySelector('#table-live').dataset.version === '3'")


def test_a_refused_tap_is_shown_and_never_sent_again(server, phone):
    """A 400 is the answer: the message shows as ever, nothing is kept, no banner."""
    t = create(server)
    open_table(phone, server, t, "Anna")
    phone.locator("#player-0").get_by_role("button", name="Fame minus 1").click()
    phone.locator("#table-live .error").first.wait_for()
    assert kept(phone) == [] and phone.locator(".unsaved-mark").count() == 0
    assert phone.locator("#connection-banner").is_hidden()
    phone.wait_for_timeout(1500)  # past the first retry's time: nothing went out again
    assert logged(server, t) == []


def test_a_kept_write_that_meets_another_phones_change_gets_the_409_and_is_not_kept(server, phone):
    """Sent again on a version another phone has passed (this one never saw it): the 409 shows, as ever."""
    t = create(server)
    open_table(phone, server, t, "Anna")
    phone.route("**/t/*/live*", lambda route: route.abort())  # this phone sees nothing new...
    phone.route("**/t/*/events", lambda route: route.abort())  # ...and cannot write
    phone.locator("summary", has_text="Players and seats").click()
    field = phone.locator("input[data-rename='0']")
    field.fill("Ada")
    field.locator("xpath=ancestor::form").get_by_role("button", name="Rename").click()
    phone.locator("form.unsaved .unsaved-mark").wait_for()
    assert api_post(server, t, "events", {"type": "rename", "data": {"player": 1, "name": "Ben"}, "expected_version": 0})[0] == 200
    phone.unroute("**/t/*/events")
    wait_saved(phone)  # the backoff timer sent it: 409, shown and forgotten
    notice = phone.locator("#table-live .notice")
    notice.wait_for()
    assert "changed on another phone" in notice.text_content()
    phone.wait_for_timeout(1500)
    assert [e["data"]["name"] for e in logged(server, t)] == ["Ben"]


def test_a_tap_on_a_really_full_disk_says_so_and_is_saved_once_there_is_room(small_disk, phone, shot):
    """The real thing: the server's data on a 2 MB tmpfs filled to the last byte (tests/resilience/test_storage.py)."""
    port = free_port()
    server = Server(url=f"http://127.0.0.1:{port}", port=port, data=small_disk / "data").start()
    try:
        t = create(server)
        open_table(phone, server, t, "Anna")
        filler = fill(small_disk)
        for _ in range(400):  # bounded: the WAL's free pages run out long before
            status, _ = api_post(server, t, "events", {"type": "rename", "data": {"player": 1, "name": "Tom"},
                                                       "expected_version": len(logged(server, t))})
            if status == 507:
                break
        assert status == 507, "the disk never filled"
        before = len(logged(server, t))
        plus(phone, 0).click()  # a stepper's tap: the quick path in front of Flask (web/taps.py)
        assert_marked(phone, 0)
        banner = phone.locator("#connection-banner")
        banner.wait_for(state="visible")
        assert banner.text_content().startswith("The server's disk is full: nothing was saved.")
        shot(phone, "tap-not-saved-disk-full")
        assert len(logged(server, t)) == before
        filler.unlink()
        wait_saved(phone, timeout=40_000)  # the backoff timer's next try
        assert fame(server, t) == [1, 0] and len(logged(server, t)) == before + 1
        assert "Traceback" not in server.log.read_text()
    finally:
        server.stop()
