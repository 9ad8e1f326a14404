"""Live by push (issue 16): two phones at 360 px in chromium, a real `companion serve`.

A tap on one phone shows on the other without a reload, through the page's stream of
server-sent events (companion/web/push.py, static/js/push.js); the other phone never shows an
older version than one it showed, sends no request at all while idle, polls only where
push is unavailable, and comes back by itself after the server restarts. Each test prints
the delays it saw (not asserted: bench/run.py measures propagation under load).
"""

from __future__ import annotations

import os
import time
from urllib.parse import urlparse

import pytest

from tests.conftest import FIGURES, Server
from tests.foundation.test_lost_taps import create
from tests.foundation.test_lost_taps_browser import open_table

pytestmark = [pytest.mark.browser, pytest.mark.slow]

#: records every version the live region shows, in order, across swaps (a MutationObserver
#: on the body, which outlives each #table-live), and marks the window: a reload would lose it
WATCH_VERSIONS = """() => {
  window.__notReloaded = true;
  window.__versions = [];
  const note = () => {
    const live = document.getElementById('table-live');
    const v = live ? parseInt(live.getAttribute('data-version'), 10) : NaN;
    if (!isNaN(v) && window.__versions[window.__versions.length - 1] !== v) window.__versions.push(v);
  };
  note();
  new MutationObserver(note).observe(document.body, {childList: true, subtree: true, attributes: true, attributeFilter: ['data-version']});
}"""


#: on the tapping phone: each live region drawn, with the newest version the phone had seen
#: when it was drawn (its undo tools', which a stepper's answer updates without a new region)
WATCH_REGIONS = """() => {
  window.__drawn = [];
  let newest = -1;
  const tools = () => {
    const t = document.getElementById('table-tools');
    const v = t ? parseInt(t.getAttribute('data-version'), 10) : NaN;
    if (!isNaN(v)) newest = Math.max(newest, v);
  };
  tools();
  new MutationObserver((records) => {
    for (const r of records) for (const n of r.addedNodes) {
      if (n.id === 'table-live') window.__drawn.push([parseInt(n.getAttribute('data-version'), 10), newest]);
    }
    tools();
  }).observe(document.body, {childList: true, subtree: true, attributes: true, attributeFilter: ['data-version']});
}"""


def shown_version(page) -> int:
    return int(page.locator("#table-live").get_attribute("data-version"))


def fame_plus(page, player: int = 0):
    return page.locator(f"#player-{player}").get_by_role("button", name="Fame plus 1")


def wait_for_version(page, version: int, timeout_ms: float = 10_000) -> float:
    """Wait until the page's live region shows `version` or newer; return when (perf_counter)."""
    page.wait_for_function(f"() => parseInt(document.getElementById('table-live').getAttribute('data-version'), 10) >= {version}",
                           timeout=timeout_ms, polling="raf")
    return time.perf_counter()


def wait_push_open(page) -> None:
    page.wait_for_function("() => { const s = document.getElementById('table-push'); "
                           "return s && htmx && s['htmx-internal-data'] && s['htmx-internal-data'].sseEventSource "
                           "&& s['htmx-internal-data'].sseEventSource.readyState === 1; }", timeout=10_000)


def requests_seen(page) -> list[str]:
    seen: list[str] = []
    page.on("request", lambda request: seen.append(f"{request.method} {urlparse(request.url).path}"))
    return seen


def tap_and_time(tapper, watcher, version: int) -> float:
    """Tap Fame + on one phone; return seconds from the tap's answer to the other phone showing it."""
    with tapper.expect_response(lambda r: r.request.method == "POST" and r.url.endswith("/events")) as answer:
        fame_plus(tapper).click()
    assert answer.value.status == 200
    acknowledged = time.perf_counter()
    return wait_for_version(watcher, version) - acknowledged


def test_a_tap_shows_on_the_other_phone_without_a_reload_and_never_goes_back(server, phone, dark_phone, shot):
    t = create(server)
    open_table(phone, server, t, "Anna")
    open_table(dark_phone, server, t, "Tom")
    wait_push_open(dark_phone)
    dark_phone.evaluate(WATCH_VERSIONS)
    sent = requests_seen(dark_phone)

    delays = [tap_and_time(phone, dark_phone, version) for version in range(1, 6)]
    # five quick taps in a row: the other phone may skip versions, never go back one
    for _ in range(5):
        fame_plus(phone).click()
    wait_for_version(dark_phone, 10)
    versions = dark_phone.evaluate("() => window.__versions")
    assert versions == sorted(versions) and versions[-1] == 10, versions
    assert dark_phone.evaluate("() => window.__notReloaded") is True

    posts_to_live = [r for r in sent if r.endswith("/live")]
    assert posts_to_live == [], f"the phone polled although its stream was open: {posts_to_live}"
    before = len(sent)
    time.sleep(3)  # idle: nothing happens at the table
    idle = sent[before:]
    assert idle == [], f"an idle phone sent requests: {idle}"
    shot(dark_phone, "push-other-phone-dark")
    FIGURES.append("push, tap answered -> other phone shows it (chromium, 5 taps): "
                   + ", ".join(f"{d * 1000:.0f} ms" for d in delays) + f"; versions drawn {versions}; 0 requests in 3 s idle")


def test_a_pushed_region_older_than_what_the_phone_has_seen_is_never_drawn(tmp_path, phone):
    # pushes slowed to one look at the database every 3 s: the stepper's answers to three taps
    # come back (the phone has seen version 3) long before the region of version 3 is pushed
    server = Server(data=tmp_path / "srv",
                    env=dict(os.environ, COMPANION_PUSH_TICK_S="3")).start()
    try:
        t = create(server)
        open_table(phone, server, t, "Anna")
        wait_push_open(phone)
        regions = {}
        for version in (1, 2, 3):
            with phone.expect_response(lambda r: r.request.method == "POST" and r.url.endswith("/events")):
                fame_plus(phone).click()
            status, _, body = server.send("GET", f"/t/{t['table']}/live", headers={"Cookie": f"tc_{t['table']}={t['token']}"})
            assert status == 200
            regions[version] = body.decode()
        phone.evaluate(WATCH_REGIONS)
        assert shown_version(phone) == 0  # the region waits for its push; the stepper shows 3
        # a region pushed late (made at version 2, arriving after the answer of the tap that made 3),
        # as the SSE extension hands it to the page: it must not draw the stepper back to 2
        late = "ev => document.getElementById('table-push').dispatchEvent(new CustomEvent('htmx:sseBeforeMessage', " \
               "{detail: {data: ev}, bubbles: true, cancelable: true}))"
        phone.evaluate(late, regions[2])
        assert shown_version(phone) == 0
        wait_for_version(phone, 3)  # the real push of version 3
        phone.evaluate(late, regions[1])  # and an older one after it: nothing
        phone.evaluate(late, regions[3])  # the version already shown: not drawn again
        time.sleep(0.3)
        drawn = phone.evaluate("() => window.__drawn")
        assert [version for version, _ in drawn] == [3], drawn
        assert shown_version(phone) == 3
    finally:
        server.stop()


def test_the_other_phone_comes_back_by_itself_after_the_server_restarts(tmp_path, phone, dark_phone):
    server = Server(data=tmp_path / "srv").start()
    try:
        t = create(server)
        open_table(phone, server, t, "Anna")
        open_table(dark_phone, server, t, "Tom")
        wait_push_open(dark_phone)
        dark_phone.evaluate(WATCH_VERSIONS)
        tap_and_time(phone, dark_phone, 1)

        server.stop()
        time.sleep(2)  # the streams drop; the pages poll and find no server
        server.start()
        restarted = time.perf_counter()
        wait_push_open(dark_phone)
        reopened = time.perf_counter() - restarted
        delay = tap_and_time(phone, dark_phone, 2)
        versions = dark_phone.evaluate("() => window.__versions")
        assert versions == [1, 2] or versions == [0, 1, 2] or versions == sorted(versions), versions
        assert versions[-1] == 2 and dark_phone.evaluate("() => window.__notReloaded") is True
        FIGURES.append(f"push after a server restart: stream open again {reopened * 1000:.0f} ms after the server answered;"
                       f" the next tap showed in {delay * 1000:.0f} ms")
    finally:
        server.stop()


def test_where_push_is_unavailable_the_page_polls_and_still_shows_changes(server, phone, dark_phone):
    t = create(server)
    # a proxy that refuses the stream: the phone must fall back to polling
    dark_phone.route("**/t/*/events*", lambda route: route.abort() if route.request.method == "GET" else route.continue_())
    open_table(phone, server, t, "Anna")
    open_table(dark_phone, server, t, "Tom")
    sent = requests_seen(dark_phone)
    delay = tap_and_time(phone, dark_phone, 1)
    polls = [r for r in sent if r.endswith("/live")]
    assert polls, "the page neither pushed nor polled"
    FIGURES.append(f"no push (stream refused): the change showed by polling in {delay * 1000:.0f} ms")


def test_a_pushed_version_waits_while_someone_types_and_keeps_what_they_typed(server, phone, dark_phone):
    t = create(server)
    open_table(phone, server, t, "Anna")
    open_table(dark_phone, server, t, "Tom")
    wait_push_open(dark_phone)
    field = dark_phone.locator("#table-live input[type=number]:visible").first
    field.wait_for()
    field.click()
    field.fill("7")
    fame_plus(phone).click()
    time.sleep(1)  # the new version has long been pushed: it waits while the field has the focus
    assert shown_version(dark_phone) == 0
    assert field.input_value() == "7"
    dark_phone.locator("h1").first.click()  # they leave the field
    wait_for_version(dark_phone, 1)
    assert dark_phone.locator("#table-live input[type=number]:visible").first.input_value() == "7"


def test_a_push_that_arrives_while_a_tap_is_on_its_way_does_not_stop_the_next_taps(server, phone):
    # the push of another phone's change comes while this phone's tap is held on its way: drawn
    # at once, it took the tap's form off the page, htmx told no one of the tap's answer, and
    # every later tap waited behind it for ever ("sending…")
    t = create(server)
    open_table(phone, server, t, "Anna")
    wait_push_open(phone)
    held = []
    phone.route("**/t/*/events", lambda route: held.append(route))
    fame_plus(phone).click()
    for _ in range(50):  # bounded: the tap is on its way, held here
        if held:
            break
        phone.wait_for_timeout(100)
    assert held
    status, _, _ = server.send("POST", f"/api/v1/tables/{t['table']}/events",
                               '{"type": "fame", "data": {"player": 1, "delta": 1}, "expected_version": 0}',
                               {"Content-Type": "application/json", "X-Table-Token": t["token"]})
    assert status == 200
    phone.wait_for_timeout(500)  # Tom's change is pushed meanwhile
    held[0].continue_()  # Anna's tap arrives after it: 409, "the table changed on another phone"
    phone.unroute("**/t/*/events")
    wait_for_version(phone, 1)
    phone.wait_for_timeout(300)
    fame_plus(phone).click()  # the next tap goes out and is saved
    wait_for_version(phone, 2)
    phone.wait_for_function("() => !localStorage.getItem('tc-kept-writes')", timeout=10_000)
