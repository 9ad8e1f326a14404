"""What a pushed change costs the phone (issue 39, item 5): chromium at 360 px, a real server.

A push brings a few parts, each morphed in (static/js/push.js, morph.js). The phone does with them
only what they changed: htmx binds no part again whose htmx attributes stayed the same, while a form
a part adds, or one whose hx-post changed, is bound at once, whichever way the part came (the
stream's own drawing, or htmx's swap of an answer); a game's script leaves a sheet no update drew
as it is. Between changes an idle phone, its stream open, runs no timer. How long anything takes
is bench/phone.py's to measure, not a test's.
"""

from __future__ import annotations

import re

import pytest

from tests.foundation.test_lost_taps import api_post, create
from tests.foundation.test_lost_taps_browser import open_table
from tests.foundation.test_push_browser import PUSH, wait_for_version, wait_push_open

pytestmark = [pytest.mark.browser, pytest.mark.slow]

#: notes, from now on, the parts htmx draws out of band (htmx:oobBeforeSwap), the nodes of the live
#: region it binds (htmx:beforeProcessNode) that were there already, and its settles of #table-push
#: (htmx:afterSettle)
WATCH_BINDING = """() => {
  window.__swapped = []; window.__boundAgain = []; window.__settled = 0;
  const there = new WeakSet(document.querySelectorAll('#table-live, #table-live *'));
  document.addEventListener('htmx:oobBeforeSwap', e => window.__swapped.push(e.detail.target.id));
  document.addEventListener('htmx:beforeProcessNode', e => {
    if (there.has(e.target)) window.__boundAgain.push(e.target.id || e.target.tagName);
  });
  document.addEventListener('htmx:afterSettle', e => { if (e.target.id === 'table-push') window.__settled++; });
}"""


def fame(server, t: dict, player: int, version: int) -> None:
    status, answer = api_post(server, t, "events", {"type": "fame", "data": {"player": player, "delta": 1},
                                                    "expected_version": version})
    assert status == 200, answer


def test_a_pushed_change_binds_no_part_again(server, phone):
    t = create(server)
    open_table(phone, server, t, "Anna")
    wait_push_open(phone)
    fame(server, t, 1, 0)
    wait_for_version(phone, 1)
    phone.evaluate(WATCH_BINDING)
    fame(server, t, 1, 1)  # Tom's +1, pushed: his row, his card's head, his stepper, the history, the tools
    wait_for_version(phone, 2)
    phone.wait_for_function("() => window.__settled >= 1")  # htmx's settle, where it bound every part again
    swapped = phone.evaluate("() => window.__swapped")
    assert len(swapped) >= 4 and "history" in swapped, swapped  # drawn part by part, with htmx's events
    assert phone.evaluate("() => window.__boundAgain") == []  # a node the morph added is bound, once (the history's line)
    assert phone.locator("#sb-1 .sb-score").inner_text() == "2"


def tools_part(server, t: dict, version: int, extra: str) -> str:
    """The table's tools as a part at `version`: its undo form posting to /t/ID/live?moved, and `extra` added."""
    status, _, body = server.send("GET", f"/t/{t['table']}/live", headers={"Cookie": f"tc_{t['table']}={t['token']}"})
    assert status == 200
    tools = re.search(r'<section[^>]*id="table-tools".*?</section>', body.decode(), re.S).group(0)
    tools = tools.replace("<section", f'<section hx-swap-oob="morph" data-v="{version}"', 1)
    tools = re.sub(r'hx-post="[^"]*"', f'hx-post="/t/{t["table"]}/live?moved={version}"', tools).replace(" disabled", "")
    return tools.replace("</section>", extra + "</section>")


def posted_by_htmx(phone, button, path: str) -> None:
    with phone.expect_request(lambda r: r.method == "POST" and r.url.endswith(path)) as sent:
        button.click()
    assert sent.value.headers.get("hx-request") == "true", sent.value.headers  # htmx's, not the browser's own post
    assert phone.evaluate("() => window.__notReloaded") is True


def test_a_form_a_part_adds_or_moves_is_bound_at_once(server, phone):
    t = create(server)
    live = f"/t/{t['table']}/live"
    form = '<form id="{id}" hx-post="' + live + '?added={v}" hx-swap="none"><button class="btn" type="submit">{id}</button></form>'
    # the stream brings one event: version 1, the tools with their undo posting elsewhere and a form added
    event = "retry: 600000\n\nid: 1\nevent: live\ndata: " + tools_part(server, t, 1, form.format(id="pushed", v=1)).replace("\n", "\ndata: ") + "\n\n"
    phone.route("**/events?*", lambda route: route.fulfill(status=200, headers={"Content-Type": "text/event-stream"}, body=event))
    phone.route(f"**{live}", lambda route: route.fulfill(status=304))  # no poll brings version 0 back
    open_table(phone, server, t, "Anna")
    phone.evaluate("() => { window.__notReloaded = true; }")
    wait_for_version(phone, 1)
    posted_by_htmx(phone, phone.locator("#pushed button"), f"{live}?added=1")
    posted_by_htmx(phone, phone.locator("#table-tools form").first.locator("button"), f"{live}?moved=1")
    # the same by htmx's own swap (an answer's, a kept write's): version 2, the undo moved again
    assert phone.evaluate(PUSH, [tools_part(server, t, 2, form.format(id="swapped", v=2)), 2]) is True
    assert phone.locator("#pushed").count() == 0
    posted_by_htmx(phone, phone.locator("#swapped button"), f"{live}?added=2")
    posted_by_htmx(phone, phone.locator("#table-tools form").first.locator("button"), f"{live}?moved=2")


#: notes, from now on, the parts an update draws and every change made inside a Codex sheet (its
#: fields shown or hidden for the objectives: static/codex/codex.js), with the sheet's id
WATCH_SHEETS = """() => {
  window.__drawn = []; window.__touched = [];
  document.addEventListener('htmx:oobBeforeSwap', e => window.__drawn.push(e.detail.target.id));
  new MutationObserver(records => records.forEach(r => {
    const node = r.target.nodeType === 1 ? r.target : r.target.parentElement;
    const sheet = node && node.closest('.seat-card');
    if (sheet) window.__touched.push(sheet.id + ' ' + r.type + ' ' + (r.attributeName || ''));
  })).observe(document.getElementById('table-live'), {subtree: true, attributes: true, childList: true, characterData: true});
}"""


def test_an_update_leaves_a_codex_sheet_it_did_not_draw_as_it_is(server, phone):
    from tests.codex.test_calculator import ROWS
    from tests.codex.test_calculator_browser import ben_after_the_common_objectives, wait_for_version as codex_version

    ben_after_the_common_objectives(phone, server)
    phone.locator("#cx-sheet-1 input[name='data.secret:int']").fill("96")  # Ben's secret, typed: its fields shown
    assert phone.locator("#cx-sheet-1 input[name='data.visible.plant:int']").is_visible()
    phone.evaluate("() => document.activeElement.blur()")
    phone.evaluate(WATCH_SHEETS)
    table = phone.url.rsplit("/", 1)[-1]
    token = next(c["value"] for c in phone.context.cookies() if c["name"] == f"tc_{table}")
    server.api(f"/api/v1/tables/{table}/events", {"type": "sheet", "data": {"player": 0, **ROWS[0]}, "expected_version": 1}, token)
    codex_version(phone, 2)  # Anna's row, saved on another phone, pushed
    drawn = phone.evaluate("() => window.__drawn")
    sheets = phone.evaluate("ids => ids.map(id => { const el = document.getElementById(id); const s = el && el.closest('.seat-card'); "
                            "return s ? s.id : null; })", drawn)
    assert "cx-sheet-1" not in sheets + drawn, (drawn, sheets)  # Ben's sheet was not drawn
    touched = [t for t in phone.evaluate("() => window.__touched") if t.startswith("cx-sheet-1 ")]
    assert touched == []  # nor touched after the update: its fields, shown or hidden, stay as they were
    assert phone.locator("#cx-sheet-1 input[name='data.visible.plant:int']").is_visible()


#: counts the timers that fire in the page (setTimeout's and setInterval's callbacks), each with the
#: start of its function's text, from the page's start
COUNT_TIMERS = """(() => {
  window.__fired = [];
  for (const name of ['setTimeout', 'setInterval']) {
    const original = window[name];
    window[name] = function (callback, ...rest) {
      if (typeof callback !== 'function') return original.call(this, callback, ...rest);
      const what = name + ': ' + String(callback).slice(0, 60);
      return original.call(this, function (...args) { window.__fired.push(what); return callback.apply(this, args); }, ...rest);
    };
  }
})();"""


def test_an_idle_phone_with_its_stream_open_runs_no_timer(server, phone):
    t = create(server)
    phone.add_init_script(COUNT_TIMERS)
    open_table(phone, server, t, "Anna")
    wait_push_open(phone)
    fame(server, t, 1, 0)
    wait_for_version(phone, 1)  # a push drawn, its settle and all
    phone.wait_for_timeout(1500)  # and the poll's first look, timed as the page started (before its stream opened)
    before = len(phone.evaluate("() => window.__fired"))
    phone.wait_for_timeout(3000)  # nothing happens at the table: no poll is needed, none is timed
    assert phone.evaluate("() => window.__fired")[before:] == []
