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

#: records every version the page shows, in order (its body's data-version, which the page sets
#: from the answers' X-Table-Version and the events' ids), and every version a part of the region
#: is drawn at (the data-v the server marks each part it sends with), per part; and marks the
#: window: a reload would lose it
WATCH_VERSIONS = """() => {
  window.__notReloaded = true;
  window.__versions = [];
  window.__parts = {};
  const note = () => {
    const v = parseInt(document.body.getAttribute('data-version'), 10);
    if (!isNaN(v) && window.__versions[window.__versions.length - 1] !== v) window.__versions.push(v);
  };
  note();
  new MutationObserver((records) => {
    for (const r of records) {
      if (r.target === document.body) { note(); continue; }
      const n = r.target;
      if (r.attributeName === 'data-v' && n.id && n.hasAttribute('data-v')) {
        (window.__parts[n.id] = window.__parts[n.id] || []).push(parseInt(n.getAttribute('data-v'), 10));
      }
    }
  }).observe(document.body, {subtree: true, attributes: true, attributeFilter: ['data-version', 'data-v']});
}"""

#: the parts whose drawn version ever went back (none, ever)
PARTS_WENT_BACK = """() => Object.entries(window.__parts).filter(([id, vs]) => vs.some((v, i) => i && v < vs[i - 1]))"""


def shown_version(page) -> int:
    return int(page.locator("body").get_attribute("data-version"))


def fame_plus(page, player: int = 0):
    return page.locator(f"#player-{player}").get_by_role("button", name="Fame plus 1")


def wait_for_version(page, version: int, timeout_ms: float = 10_000) -> float:
    """Wait until the page's live region shows `version` or newer; return when (perf_counter)."""
    page.wait_for_function(f"() => parseInt(document.body.getAttribute('data-version'), 10) >= {version}",
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
    assert dark_phone.evaluate(PARTS_WENT_BACK) == []
    assert dark_phone.locator("#player-0 .gb-fame").inner_text().startswith("10")
    assert dark_phone.evaluate("() => window.__notReloaded") is True
    # said to a screen reader in one short sentence, the change's own (polite), never the region
    said = dark_phone.locator("#table-said")
    assert said.get_attribute("aria-live") == "polite" and said.inner_text() == "Anna: +1 fame"
    assert dark_phone.locator("#table-live[aria-live], #table-live [aria-live=assertive]").count() == 0

    posts_to_live = [r for r in sent if r.endswith("/live")]
    assert posts_to_live == [], f"the phone polled although its stream was open: {posts_to_live}"
    before = len(sent)
    time.sleep(3)  # idle: nothing happens at the table
    idle = sent[before:]
    assert idle == [], f"an idle phone sent requests: {idle}"
    shot(dark_phone, "push-other-phone-dark")
    FIGURES.append("push, tap answered -> other phone shows it (chromium, 5 taps): "
                   + ", ".join(f"{d * 1000:.0f} ms" for d in delays) + f"; versions drawn {versions}; 0 requests in 3 s idle")


#: hands the page an event of the stream as htmx's SSE extension does (sse.js: htmx:sseBeforeMessage,
#: then, unless the page prevented it, htmx's swap of its data into #table-push, then htmx:sseMessage);
#: True if it was drawn
PUSH = """([data, id]) => {
  const push = document.getElementById('table-push');
  const detail = {data: data, lastEventId: String(id)};
  if (!push.dispatchEvent(new CustomEvent('htmx:sseBeforeMessage', {detail: detail, bubbles: true, cancelable: true}))) return false;
  htmx.swap(push, data, {swapStyle: 'none'}, {contextElement: push});
  push.dispatchEvent(new CustomEvent('htmx:sseMessage', {detail: detail, bubbles: true}));
  return true;
}"""


def fame_shown(page) -> str:
    return page.locator("#player-0 form.stepper", has=page.get_by_role("button", name="Fame plus 1")).locator(".num").inner_text()


def test_a_pushed_region_older_than_what_the_phone_has_seen_is_never_drawn(tmp_path, phone):
    # pushes slowed to one look at the database every 3 s: the stepper's answers to three taps
    # come back (the phone has seen version 3) long before version 3 is pushed
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
            regions[version] = body.decode()  # the whole region at that version, as a phone far behind gets it
        phone.evaluate(WATCH_VERSIONS)
        assert shown_version(phone) == 0 and fame_shown(phone).endswith("3")  # the stepper's answers: it shows 3
        # the region of version 2 arriving after the answer of the tap that made 3: drawn (the page
        # shows 0), but never the stepper back to 2
        assert phone.evaluate(PUSH, [regions[2], 2]) is True
        assert shown_version(phone) == 2 and fame_shown(phone).endswith("3")
        wait_for_version(phone, 3)  # the real push of version 3
        assert phone.evaluate(PUSH, [regions[1], 1]) is False  # an older one after it: nothing
        assert phone.evaluate(PUSH, [regions[3], 3]) is False  # the version already shown: not drawn again
        assert shown_version(phone) == 3 and fame_shown(phone).endswith("3")
        assert phone.evaluate(PARTS_WENT_BACK) == []
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


def test_a_pushed_version_is_drawn_around_someone_typing_and_keeps_what_they_typed(server, phone, dark_phone):
    t = create(server)
    open_table(phone, server, t, "Anna")
    open_table(dark_phone, server, t, "Tom")
    wait_push_open(dark_phone)
    field = dark_phone.locator("#table-live input[type=number]:visible").first
    field.wait_for()
    field.click()
    field.fill("7")
    before = field.bounding_box()["y"], dark_phone.evaluate("() => scrollY")
    fame_plus(phone).click()
    wait_for_version(dark_phone, 1)  # drawn at once: the parts it changed are morphed in around the field
    assert dark_phone.locator("#player-0 .gb-fame").inner_text().startswith("1")
    assert field.input_value() == "7" and field.evaluate("f => f === document.activeElement")
    assert (field.bounding_box()["y"], dark_phone.evaluate("() => scrollY")) == before
    dark_phone.locator("h1").first.click()  # they leave the field: still what they typed
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
