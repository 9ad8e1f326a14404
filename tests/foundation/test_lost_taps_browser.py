"""A phone never loses a tap in silence (issue 13, finding 3): real chromium at 360 px, a real server.

Each case makes the write fail the way it fails at a table (the server stopped, an answer lost on
the way back, a full disk), checks that the phone says "not saved" on the control and why in a
banner, then lets the server answer and checks that the tap is saved exactly once.
"""

from __future__ import annotations

import json
import os
import signal
import time
from urllib.parse import parse_qs, urlparse

import pytest
from playwright.sync_api import Error as PlaywrightError

from tests.conftest import SCREENSHOTS, Server, fits_a_phone, take_seat
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
    # read in one go in the page: static/js/marks.js paints the marks anew (removes and adds them) at every
    # retry of the kept tap, so a mark found in one call could be gone by the next one
    seen = page.wait_for_function("""player => {
        const m = document.querySelector(`#player-${player} form.stepper.unsaved .unsaved-mark`);
        if (!m) return null;
        const r = m.getBoundingClientRect();
        return {text: m.textContent.trim(), x: r.x, width: r.width, height: r.height,
                size: parseFloat(getComputedStyle(m).fontSize)};
    }""", arg=player, timeout=10_000).json_value()
    assert seen["text"] == text
    assert seen["width"] >= 80 and seen["height"] >= 20 and seen["x"] >= 0 and seen["x"] + seen["width"] <= 360, seen
    assert seen["size"] >= 16
    fits_a_phone(page)


def write_ids(bodies: list[str]) -> set[str]:
    return {parse_qs(body)["write_id"][0] for body in bodies}


def test_a_tap_while_the_server_is_down_says_not_saved_and_is_saved_once_it_is_back(tmp_path, phone, dark_phone, shot):
    server = Server(data=tmp_path / "srv").start()
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
        server = Server(data=tmp_path / "srv", port=server.port).start()  # the port the first one took: the pages know it
        wait_saved(phone)
        phone.locator("#connection-banner").wait_for(state="hidden")
        dark_phone.wait_for_function("() => document.body.dataset.version === '2'")
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
        try:
            route.abort()
        except PlaywrightError:  # the page reloaded (or the test ended) meanwhile: its request went with it
            pass

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
    phone.evaluate("""() => { const b = document.querySelector('#player-0 button[aria-label$=": Fame plus 1"]');
                              b.click(); b.click(); b.click(); }""")
    deadline = time.monotonic() + 10
    while fame(server, t)[0] < 3 and time.monotonic() < deadline:
        phone.wait_for_timeout(100)
    wait_saved(phone)
    assert fame(server, t) == [3, 0] and len(logged(server, t)) == 3
    phone.wait_for_function("() => document.body.dataset.version === '3'")


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


def test_a_kept_write_that_meets_another_phones_change_is_sent_again_on_the_table_as_it_is(server, phone):
    """Sent again on a version another phone has passed (this one never saw it): the 409's answer
    says the table's version, and the phone sends the same write on it, as it does every form."""
    t = create(server)
    phone.route("**/t/*/events?*", lambda route: route.abort())  # no push here: the stream never opens
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
    wait_saved(phone)  # the backoff timer sent it: 409, then again on version 1: saved
    assert [e["data"]["name"] for e in logged(server, t)] == ["Ben", "Ada"]
    # the 409's answer drew the table as it was (version 1), the write's own answer drew it saved (2)
    phone.wait_for_function("() => document.body.dataset.version === '2'")
    assert phone.locator("#sb-0 .sb-name").inner_text() == "Ada" and phone.locator("#sb-1 .sb-name").inner_text() == "Ben"
    # the phone sent it again by itself: no "tap again if still needed" left to mislead
    assert phone.locator("#table-live .notice").count() == 0
    phone.wait_for_timeout(1500)
    assert len(logged(server, t)) == 2


def test_a_tap_on_a_really_full_disk_says_so_and_is_saved_once_there_is_room(small_disk, phone, shot):
    """The real thing: the server's data on a 2 MB tmpfs filled to the last byte (tests/resilience/test_storage.py)."""
    server = Server(data=small_disk / "data").start()
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
        plus(phone, 0).click()  # a stepper's tap, as a score is changed most often
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


# --- a player's review, two phones at 360 px (issue 13, finding 3, second pass) ------------------

CHANGED = "not saved: the table changed, tap again"


def scores(server, t: dict) -> list[int]:
    """Codex's scores as the server holds them."""
    status, _, text = call(server, "GET", f"/api/v1/tables/{t['table']}", headers={"X-Table-Token": t["token"]})
    assert status == 200
    return json.loads(text)["state"]["scores"]


def points(page, name: str, n: int = 1):
    return page.get_by_role("button", name=f"{name} plus {n}", exact=True)


def until(check, seconds: float = 10) -> None:
    """Wait (bounded) until check() is true; fail with what it was otherwise."""
    deadline = time.monotonic() + seconds
    while not check():
        assert time.monotonic() < deadline, "never happened"
        time.sleep(0.1)


def boxes(page, selector: str) -> list[dict]:
    """Where each visible element of `selector` is, in the page's coordinates (scrolling aside)."""
    return page.evaluate("""sel => [...document.querySelectorAll(sel)].filter(e => e.offsetParent).map(e => {
        const r = e.getBoundingClientRect();
        return {what: e.getAttribute('aria-label') || e.textContent.trim().slice(0, 30),
                x: r.left + scrollX, y: r.top + scrollY, w: r.width, h: r.height}; })""", selector)


def same_boxes(before: list[dict], after: list[dict]) -> None:
    assert [b["what"] for b in after] == [b["what"] for b in before]
    moved = [(b, a) for b, a in zip(before, after) if any(abs(b[k] - a[k]) > 1 for k in ("x", "y", "w", "h"))]
    assert moved == [], moved


def screen_shot(page, name: str) -> None:
    """What the phone's screen shows (the shot fixture takes the whole page, where a bar fixed to
    the screen lands halfway down): tests/screenshots/NAME.png."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"{name}.png"))


def overlap(a: dict, b: dict) -> bool:
    return a["x"] < b["x"] + b["width"] and b["x"] < a["x"] + a["width"] and a["y"] < b["y"] + b["height"] and b["y"] < a["y"] + a["height"]


@pytest.mark.parametrize("taps", [1, 3])
def test_taps_made_offline_while_another_phone_played_are_all_saved(server, phone, dark_phone, taps):
    """Ann's phone loses its Wi-Fi; Bob scores on his; Ann taps +1; her Wi-Fi comes back.

    Her kept taps were made on the table before Bob's point: the server answers 409 and the table as
    it is, and the phone sends each again on that version with its own write id, as it sends every
    form on the newest version it has seen. Then the banner goes: nothing is kept, the server answers.
    """
    t = create(server, game="codex", players=("Ann", "Bob"))
    open_table(phone, server, t, "Ann")
    open_table(dark_phone, server, t, "Bob")
    phone.context.set_offline(True)
    points(dark_phone, "Bob").click()
    until(lambda: scores(server, t) == [0, 1])
    for tap in range(1, taps + 1):
        points(phone, "Ann").click()
        words = "not saved" if tap == 1 else f"{tap} taps not saved"
        phone.wait_for_function("w => (document.querySelector('.unsaved-mark') || {}).textContent === w", arg=words)
    banner = phone.locator("#connection-banner")
    banner.wait_for(state="visible")
    assert len(kept(phone)) == taps
    screen_shot(phone, f"offline-{taps}-taps-light")
    phone.context.set_offline(False)
    wait_saved(phone)
    assert scores(server, t) == [taps, 1]
    assert [(e["type"], e["data"]["player"]) for e in logged(server, t)] == [("points", 1)] + [("points", 0)] * taps
    banner.wait_for(state="hidden", timeout=5_000)  # finding 2: it stayed for good once a 409 had dropped the tap
    phone.wait_for_function("v => document.body.dataset.version === v", arg=str(taps + 1))
    assert phone.locator("#table-live .notice").count() == 0  # sent again by the phone: no "tap again" to mislead
    phone.wait_for_timeout(1500)
    assert len(logged(server, t)) == taps + 1


def test_a_kept_tap_that_keeps_meeting_changes_gives_up_and_says_tap_again(server, phone):
    """Another phone scores before each of this phone's sends: after three new tries the phone stops,
    and the control says what happened and what to do. The next tap is a tap like any other."""
    t = create(server, game="codex", players=("Ann", "Bob"))
    open_table(phone, server, t, "Ann")
    phone.route("**/t/*/events", lambda route: route.abort())
    points(phone, "Ann").click()
    phone.locator(".unsaved-mark", has_text="not saved").wait_for()
    sent: list[str] = []

    def bob_scores_first(route):
        version = len(logged(server, t))
        assert api_post(server, t, "events", {"type": "points", "data": {"player": 1, "delta": 1}, "expected_version": version})[0] == 200
        sent.append(route.request.post_data)
        route.continue_()

    phone.unroute("**/t/*/events")
    phone.route("**/t/*/events", bob_scores_first)
    mark = phone.locator(".unsaved-mark", has_text="the table changed")
    mark.wait_for(timeout=30_000)
    assert mark.text_content().strip() == CHANGED
    assert len(sent) == 4 and len(write_ids(sent)) == 1  # the first send and three more, one write
    versions = [int(parse_qs(body)["expected_version:int"][0]) for body in sent]
    assert versions == sorted(set(versions)), versions  # each on the version the last 409 said
    phone.locator("#connection-banner").wait_for(state="hidden", timeout=5_000)
    box = mark.bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= 360, box
    fits_a_phone(phone)
    phone.wait_for_function("() => document.body.dataset.version === '4'")
    screen_shot(phone, "tap-gave-up-light")
    phone.wait_for_timeout(2500)  # past the backoff: never sent again
    assert len(sent) == 4 and scores(server, t) == [0, 4]
    phone.unroute("**/t/*/events")
    points(phone, "Ann").click()  # "tap again"
    wait_saved(phone)
    assert scores(server, t) == [1, 4]


def test_a_kept_undo_that_meets_another_phones_change_is_not_sent_again(server, phone):
    """An undo takes back the latest change: on a newer version it would take back the other
    phone's. So a kept undo met by 409 is given up at once, the 409's words shown, and Undo says so."""
    t = create(server, game="codex", players=("Ann", "Bob"))
    phone.route("**/t/*/events?*", lambda route: route.abort())  # no push here: the stream never opens
    open_table(phone, server, t, "Ann")
    points(phone, "Ann").click()
    phone.wait_for_function("() => document.body.dataset.version === '1'")
    phone.route("**/t/*/live*", lambda route: route.abort())  # this phone sees nothing new...
    phone.route("**/t/*/undo", lambda route: route.abort())  # ...and cannot write
    phone.get_by_role("button", name="Undo").click()
    phone.locator(".unsaved-mark", has_text="not saved").wait_for()
    assert api_post(server, t, "events", {"type": "points", "data": {"player": 1, "delta": 5}, "expected_version": 1})[0] == 200
    phone.unroute("**/t/*/undo")
    mark = phone.locator("#table-tools .unsaved-mark")
    mark.wait_for(timeout=15_000)
    phone.wait_for_function("w => (document.querySelector('#table-tools .unsaved-mark') || {}).textContent === w", arg=CHANGED)
    assert "nothing was undone" in phone.locator("#table-live .notice").text_content()
    phone.wait_for_timeout(2500)  # past the backoff: never sent again
    assert [e["type"] for e in logged(server, t)] == ["points", "points"] and scores(server, t) == [1, 5]


def test_the_banner_never_moves_or_covers_the_tapped_control(server, phone, dark_phone):
    """The tapped +1 near the top of the screen, in the middle and near the bottom: it stays where
    the finger is, and the banner is never over it (it was in the page's flow, 137 px tall)."""
    t = create(server, game="codex", players=("Ann", "Bob"))
    for page, name in ((phone, "Ann"), (dark_phone, "Bob")):
        open_table(page, server, t, name)
    for page, name, where in ((phone, "Ann", "top"), (phone, "Ann", "middle"), (phone, "Bob", "bottom"), (dark_phone, "Bob", "top")):
        # the table as it is first: a poll drawing a newer one meanwhile moves things for its own reasons
        page.wait_for_function("v => document.body.dataset.version === v", arg=str(len(logged(server, t))))
        button = points(page, name)
        height = page.evaluate("innerHeight")
        size = button.bounding_box()["height"]
        at = {"top": 4, "middle": height // 2, "bottom": height - size - 4}[where]
        page.evaluate("([sel, at]) => { const b = document.querySelector(sel); scrollTo(0, b.getBoundingClientRect().top + scrollY - at); }",
                      [f'[aria-label="{name} plus 1"]', at])
        before = button.bounding_box()
        assert abs(before["y"] - at) <= 1, (where, before)  # the page is long enough to put it there
        scrolled = page.evaluate("scrollY")
        page.route("**/t/*/events", lambda route: route.abort())
        page.route("**/t/*/live*", lambda route: route.abort())  # as a server that is down
        button.click()
        banner = page.locator("#connection-banner")
        banner.wait_for(state="visible")
        page.locator(".unsaved-mark").wait_for()
        page.wait_for_timeout(1000)  # a failed poll too
        after = button.bounding_box()
        assert page.evaluate("scrollY") == scrolled
        assert all(abs(before[k] - after[k]) <= 1 for k in ("x", "y", "width", "height")), (where, before, after)
        shown = banner.bounding_box()
        assert not overlap(after, shown), (where, after, shown)
        assert shown["height"] <= 80, shown  # one or two lines
        assert "Can\u2019t reach the server" in banner.text_content()
        screen_shot(page, f"banner-{where}-{'dark' if page is dark_phone else 'light'}")
        page.unroute("**/t/*/events")
        page.unroute("**/t/*/live*")
        wait_saved(page)
        banner.wait_for(state="hidden", timeout=5_000)


def _mark_moves_nothing(page, button, route: str, name: str, version: int) -> None:
    """Tap `button` with its write failing: no button on the page moves, and the mark is readable.

    First the page shows the table at `version`: a poll drawing a newer one meanwhile would move
    things for its own reasons."""
    page.wait_for_function("v => document.body.dataset.version === v", arg=str(version))
    button.scroll_into_view_if_needed()
    page.evaluate("scrollBy(0, innerHeight / 3 - 100)")
    page.wait_for_timeout(300)
    before = boxes(page, "#table-live .btn")
    page.route(route, lambda r: r.abort())
    button.click()
    # the mark and the button measured together, in one frame, while the mark says "not saved": the
    # page sends a kept write again by itself (send.js), and meanwhile its mark says "sending…" or
    # is redrawn, so two measurements a moment apart could fall on either side of such a try
    tapped_handle = button.element_handle()
    seen = page.wait_for_function("""button => { const m = document.querySelector('.unsaved-mark');
        if (!m || m.textContent.trim() !== 'not saved' || !m.getClientRects().length) return null;
        const box = r => { const b = r.getBoundingClientRect(); return {x: b.x, y: b.y, width: b.width, height: b.height}; };
        const style = getComputedStyle(m);
        return {box: box(m), tapped: box(button), size: parseFloat(style.fontSize), events: style.pointerEvents}; }""",
                                  arg=tapped_handle).json_value()
    same_boxes(before, boxes(page, "#table-live .btn"))
    box, tapped = seen["box"], seen["tapped"]
    assert box["x"] >= 0 and box["x"] + box["width"] <= 360 and box["height"] >= 20, box
    centre = {"x": tapped["x"] + tapped["width"] / 2 - 1, "y": tapped["y"] + tapped["height"] / 2 - 1, "width": 2, "height": 2}
    assert not overlap(centre, box), (box, tapped)  # the button's own label still shows
    assert seen["size"] >= 16
    assert seen["events"] == "none"
    fits_a_phone(page)
    screen_shot(page, name)
    page.unroute(route)
    wait_saved(page)


def test_the_not_saved_mark_moves_no_button(server, phone, dark_phone):
    """Codex's +1 row, a Gutenberg specialty's +1 and +2, and Undo: the mark takes no room of its own.

    It used to sit in the stepper's row and wrap it: Codex's +2 moved from x=122 to x=244, a
    specialty's +2 went past the card's edge."""
    codex = create(server, game="codex", players=("Ann", "Bob"))
    open_table(phone, server, codex, "Ann")
    _mark_moves_nothing(phone, points(phone, "Ann"), "**/t/*/events", "mark-codex-light", 0)
    undo = phone.get_by_role("button", name="Undo")
    _mark_moves_nothing(phone, undo, "**/t/*/undo", "mark-undo-light", 1)
    gutenberg = create(server)
    for page, theme in ((phone, "light"), (dark_phone, "dark")):
        open_table(page, server, gutenberg, "Anna")
        for label in ("Develop Typesetting", "Develop Typesetting by 2"):
            button = page.locator("#player-0").get_by_role("button", name=label, exact=True)
            _mark_moves_nothing(page, button, "**/t/*/events", f"mark-specialty-{label[-1]}-{theme}", len(logged(server, gutenberg)))


def test_a_tap_the_server_does_not_answer_says_sending_then_not_saved(tmp_path, phone):
    """The server hangs (SIGSTOP): within the 6 s a write waits, the control says "sending…", so the
    player knows the tap is in hand and does not tap again; then "not saved"; saved once it wakes."""
    server = Server(data=tmp_path / "srv").start()
    try:
        t = create(server)
        open_table(phone, server, t, "Anna")
        before = boxes(phone, "#table-live .btn")
        os.killpg(server.process.pid, signal.SIGSTOP)
        try:
            plus(phone, 0).click()
            # well before htmx's 6 s time-out says "not saved"
            phone.wait_for_function("() => (document.querySelector('#player-0 .unsaved-mark') || {}).textContent === 'sending\u2026'",
                                    timeout=4_000)
            same_boxes(before, boxes(phone, "#table-live .btn"))
            screen_shot(phone, "tap-sending-light")
            phone.wait_for_function("() => (document.querySelector('#player-0 .unsaved-mark') || {}).textContent === 'not saved'",
                                    timeout=15_000)
        finally:
            os.killpg(server.process.pid, signal.SIGCONT)
        wait_saved(phone, timeout=30_000)
        assert fame(server, t) == [1, 0] and len(logged(server, t)) == 1
    finally:
        server.stop()


def test_a_kept_undo_never_takes_back_a_change_the_phone_drew_after_it(server, phone, dark_phone):
    """Ann taps Undo (to take back her point) as her Wi-Fi drops; Bob scores; her polls get through
    again and draw his point before her undo goes. The undo keeps the version it was tapped on: it
    meets the 409 and says so. It was sent on the newest version the page showed, and took back Bob's point."""
    t = create(server, game="codex", players=("Ann", "Bob"))
    open_table(phone, server, t, "Ann")
    open_table(dark_phone, server, t, "Bob")
    points(phone, "Ann").click()
    phone.wait_for_function("() => document.body.dataset.version === '1'")
    phone.route("**/t/*/undo", lambda route: route.abort())  # the undo is lost; the polls are not blocked
    phone.get_by_role("button", name="Undo").click()
    phone.locator(".unsaved-mark", has_text="not saved").wait_for()
    assert [w["fields"] for w in kept(phone)][0].count(["expected_version:int", "1"]) == 1
    dark_phone.wait_for_function("() => document.body.dataset.version === '1'")
    points(dark_phone, "Bob").click()
    until(lambda: scores(server, t) == [1, 1])
    phone.wait_for_function("() => document.body.dataset.version === '2'")  # a poll drew it
    phone.unroute("**/t/*/undo")
    phone.wait_for_function("() => JSON.parse(localStorage.getItem('tc-kept-writes') || '[]').every(w => w.gaveUp)",
                            timeout=15_000)
    assert [e["type"] for e in logged(server, t)] == ["points", "points"] and scores(server, t) == [1, 1]
    phone.wait_for_function("w => (document.querySelector('#table-tools .unsaved-mark') || {}).textContent === w", arg=CHANGED)


@pytest.mark.parametrize("lost", [False, True])
def test_an_undo_tapped_after_a_tap_still_kept_takes_back_that_tap(server, phone, lost):
    """+1 then Undo, the +1 not answered yet (held on its way, or lost): the undo was tapped on the
    table before the +1, and this phone's own answer carries it to the +1's version, so it takes back the +1."""
    t = create(server, game="codex", players=("Ann", "Bob"))
    open_table(phone, server, t, "Ann")
    points(phone, "Ann").click()
    phone.wait_for_function("() => document.body.dataset.version === '1'")
    held: list = []
    phone.route("**/t/*/events", (lambda route: route.abort()) if lost else (lambda route: held.append(route)))
    if lost:
        phone.route("**/t/*/undo", lambda route: route.abort())
    points(phone, "Ann").click()
    for _ in range(50):  # bounded: the +1 is on its way, held here, or marked as lost
        if held or kept(phone) and kept(phone)[0]["failed"]:
            break
        phone.wait_for_timeout(100)
    phone.get_by_role("button", name="Undo").click()
    phone.wait_for_function("() => JSON.parse(localStorage.getItem('tc-kept-writes') || '[]').length === 2")
    if lost:
        phone.unroute("**/t/*/undo")
    else:
        held[0].continue_()
    phone.unroute("**/t/*/events")
    wait_saved(phone)
    assert [e["type"] for e in logged(server, t)] == ["points", "points", "undo"] and scores(server, t) == [1, 0]


def test_a_tap_is_kept_where_the_browser_refuses_to_store_it(tmp_path, phone):
    """A private window, or storage that is full: localStorage.setItem throws. The tap lost by the
    network still says "not saved" and is sent once the server is back (the phone holds it in memory)."""
    phone.add_init_script("Storage.prototype.setItem = function () { throw new DOMException('full', 'QuotaExceededError'); };")
    server = Server(data=tmp_path / "srv").start()
    try:
        t = create(server)
        open_table(phone, server, t, "Anna")
        server.stop()
        plus(phone, 0).click()
        assert_marked(phone, 0)
        phone.locator("#connection-banner").wait_for(state="visible")
        assert "1 tap kept" in phone.locator("#connection-banner").text_content()
        assert kept(phone) == []  # nothing could be stored
        server = Server(data=tmp_path / "srv", port=server.port).start()  # the port the first one took: the pages know it
        wait_saved(phone)
        phone.locator("#connection-banner").wait_for(state="hidden")
        assert fame(server, t) == [1, 0] and len(logged(server, t)) == 1
        phone.wait_for_timeout(1500)  # past the first retry's time: sent once
        assert len(logged(server, t)) == 1
    finally:
        server.stop()


def test_the_banner_goes_when_the_network_is_back_and_the_stream_speaks(server, phone, dark_phone):
    """A watcher's Wi-Fi drops and comes back while its stream holds (found playing issue 41): the
    banner said "No connection" for good, though Bob's changes kept arriving. A word on the stream
    says the server is there."""
    t = create(server, game="codex", players=("Ann", "Bob"))
    open_table(phone, server, t, "Ann")
    open_table(dark_phone, server, t, "Bob")
    phone.wait_for_function("() => document.querySelector('#table-push') !== null")
    banner = phone.locator("#connection-banner")
    phone.context.set_offline(True)
    banner.wait_for(state="visible")
    phone.context.set_offline(False)
    phone.wait_for_timeout(500)  # back online, nothing kept: the banner waits for a word from the server
    points(dark_phone, "Bob").click()
    until(lambda: scores(server, t) == [0, 1])
    banner.wait_for(state="hidden", timeout=12_000)  # Bob's point, or the stream's next "alive", said it
