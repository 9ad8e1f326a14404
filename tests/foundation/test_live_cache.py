"""The live region is the same for every phone, so one render per version serves them all.

companion/web/live.py keeps one render per (table, version, screen). That is only right if no
template of the region looks at the device's seat: the first test renders each game's region for
every kind of device, with the cache emptied in between, and wants the same bytes.
"""

import pytest

from companion import games
from tests.examples import examples
from tests.foundation.test_steppers import join, table_with_steppers

HX = {"HX-Request": "true", "Sec-Fetch-Site": "same-origin"}


def cache(app):
    return app.extensions["companion.live"]


def poll(client, t, screen=None, seat=None, etag=None):
    if seat is None:
        client.delete_cookie(f"seat_{t['table']}")
    else:
        client.set_cookie(f"seat_{t['table']}", seat)
    headers = dict(HX, **({"If-None-Match": etag} if etag else {}))
    return client.get(f"/t/{t['table']}/live", query_string={"screen": screen} if screen else {}, headers=headers)


@pytest.mark.parametrize("key", sorted(games.registry()))
def test_every_device_gets_the_same_live_region(client, api, app, key):
    t, screen = table_with_steppers(client, api, key)
    for screen in dict.fromkeys([screen, *examples(key).SCREENS]):
        seen = set()
        for seat in (None, "0", "1", "watch"):
            cache(app).clear()
            response = poll(client, t, screen, seat)
            assert response.status_code == 200
            seen.add(response.get_data())
        assert len(seen) == 1, f"{key} screen {screen}: the region depends on the device's seat"


def test_the_second_phone_gets_the_first_ones_render_until_the_table_changes(client, api, app):
    t = api.create("gutenberg", ["Anna", "Tom"])
    join(client, t)
    cache(app).clear()
    first = poll(client, t, seat="0").get_data()
    hits = cache(app).hits
    assert poll(client, t, seat="1").get_data() == first and cache(app).hits == hits + 1
    api.event(t, "fame", {"player": 1, "delta": 2})
    after = poll(client, t, seat="1")
    assert after.get_data() != first and after.headers["X-Table-Version"] == "1" and cache(app).hits == hits + 1


def test_a_form_answer_is_the_region_the_next_polls_get(client, api, app):
    t = api.create("gutenberg", ["Anna", "Tom"])
    join(client, t)
    form = {"type": "end_round", "expected_version:int": "0"}
    answer = client.post(f"/t/{t['table']}/events", data=form, headers=HX)
    assert answer.status_code == 200
    hits = cache(app).hits
    assert poll(client, t, seat="1").get_data() == answer.get_data() and cache(app).hits == hits + 1


def test_an_error_is_shown_to_its_phone_only(client, api, app):
    t = api.create("gutenberg", ["Anna", "Tom"])
    join(client, t)
    form = {"type": "fame", "expected_version:int": "0", "data.player:int": "0", "data.delta:int": "-3"}
    answer = client.post(f"/t/{t['table']}/events", data=form, headers=HX)
    assert answer.status_code == 400 and b"cannot go below 0" in answer.get_data()
    assert b"cannot go below 0" not in poll(client, t, seat="1").get_data()


def drawn(version: int, texts: dict[str, str]):
    """A region as region.draw leaves it: a root holding one <p> part per id."""
    from companion.web.region import Drawn, Parts, digest

    own = '<div id="table-live">' + "".join(f"\0{pid}\1" for pid in texts) + "</div>"
    parts = {"table-live": Drawn(None, own, digest(own), tuple(texts))}
    for pid, text in texts.items():
        html = f'<p id="{pid}">{text}</p>'
        parts[pid] = Drawn(digest(text), html, digest(html), ())
    return Parts(version, "table-live", parts)


def test_an_old_render_never_replaces_a_newer_one():
    from companion.web.live import LiveCache

    def region(text, version):
        return drawn(version, {"p": text})

    kept = LiveCache(size=2)
    kept.put("t", None, region("three", 3))
    kept.put("t", None, region("two", 2))  # a slow render of an older version finishing late
    assert "three" in kept.get("t", None, 3).html and kept.get("t", None, 2) is None
    kept.put("u", None, region("u1", 1))
    kept.put("v", None, region("v1", 1))  # over size: the least recently used goes
    assert kept.get("t", None, 3) is None and "v1" in kept.get("v", None, 1).html


def test_the_versions_before_the_newest_keep_their_fingerprints_to_send_only_what_changed():
    from companion.web.live import LiveCache

    kept = LiveCache()
    for version in range(1, LiveCache.VERSIONS_KEPT + 3):
        kept.put("t", None, drawn(version, {"a": str(version), "b": "same"}))
    newest = kept.get("t", None, LiveCache.VERSIONS_KEPT + 2)
    one_behind = kept.fingerprint("t", None, LiveCache.VERSIONS_KEPT + 1)
    assert newest.changed_since(one_behind) == ["a"]  # only the part that changed
    assert kept.fingerprint("t", None, 1) is None  # too far behind: the phone gets the whole region
    assert newest.changed_since(kept.fingerprint("t", None, 1)) == ["table-live"]


# --- the poll, where push is unavailable (tables.live, answers.poll) ------------------------------


@pytest.mark.parametrize("case", ["unchanged", "changed, rendered", "changed, not rendered", "weak tag", "two tags",
                                  "any tag", "no cookie", "wrong secret", "quoted cookie", "screen", "odd screen",
                                  "a cookie not in UTF-8"])
def test_a_poll_is_answered_by_the_tags_and_the_cookie_it_sends(app, case):
    client = app.test_client()
    t = client.post("/api/v1/tables", json={"game": "codex", "players": ["Anna", "Tom"]}).get_json()
    tid = t["table"]
    cookie = {"no cookie": "", "wrong secret": f"tc_{tid}={t['token'][:-1]}x", "quoted cookie": f'tc_{tid}="{t["token"]}"',
              # another service on the LAN set it: the header's bytes are not UTF-8 (latin-1 é)
              "a cookie not in UTF-8": f"tc_{tid}={t['token']}; other=caf\xe9"}.get(case, f"tc_{tid}={t['token']}; seat_{tid}=1")
    query = {"screen": "end"} if case == "screen" else {"screen": " book-1\u00e9%"} if case == "odd screen" else {}
    etag = f'"{tid}-0-en"'  # the table, its version and the language it is drawn in (answers.live_tag)
    first = None
    if case.startswith("changed"):
        client.post(f"/api/v1/tables/{tid}/events", json={"type": "points", "data": {"player": 0, "delta": 3}, "expected_version": 0},
                    headers={"X-Table-Token": t["token"]})
        if case == "changed, rendered":  # another phone asked first
            first = app.test_client(use_cookies=False).get(f"/t/{tid}/live", headers={"Cookie": cookie, "If-None-Match": etag})
    header = {"weak tag": f"W/{etag}", "two tags": f'"{tid}-9", {etag}', "any tag": "*"}.get(case, etag)
    # use_cookies=False: the test client would otherwise replace the Cookie header with its own jar
    response = app.test_client(use_cookies=False).get(f"/t/{tid}/live", query_string=query,
                                                      headers={"Cookie": cookie, "If-None-Match": header})
    assert response.status_code == STATUS[case]
    if response.status_code == 200:
        assert response.headers["X-Table-Version"] == ("1" if case.startswith("changed") else "0")
        assert 'id="table-live"' in response.get_data(as_text=True)  # no X-Table-Has: all of it
    if first is not None:  # one render, shared
        assert response.get_data() == first.get_data()


STATUS = {"unchanged": 304, "changed, rendered": 200, "changed, not rendered": 200, "weak tag": 200, "two tags": 304,
          "any tag": 304, "no cookie": 404, "wrong secret": 404, "quoted cookie": 304, "screen": 304, "odd screen": 304,
          "a cookie not in UTF-8": 304}
