"""Steppers answer a tap with themselves (companion/web/steppers.py), and fall back to the parts that changed.

A stepper's answer is only right if the number it shows is the one the panel would show, so
the first test reads every stepper of every game's panel and compares it with the game's
counter(). The others check the answer itself, and that a refused, stale or malformed tap
gets the parts of the region that changed (parts.py; with the message said) and changes nothing.
"""

import html
import json
import re
from urllib.parse import urlparse

import pytest

from companion import games
from companion.web.steppers import stepper_id
from tests.examples import examples

FORM = re.compile(r'<form ([^>]*)class="stepper" id="(w-[0-9a-f]+)">(.*?)</form>', re.S)
DATA_V = re.compile(r'data-v="(\d+)"')
HIDDEN = re.compile(r'<input type="hidden" name="([^"]+)" value="([^"]*)">')
SHOWN = re.compile(r'<span class="num"[^>]*>(?:<small>.*?</small>)?(-?\d+)</span>', re.S)
HX = {"HX-Request": "true", "Sec-Fetch-Site": "same-origin"}


def join(client, t):
    assert client.get(urlparse(t["join_url"]).path).status_code == 303


def steppers(page: str, version: int | None = None) -> list[dict]:
    """Return every stepper of a rendered region or answer: id, event type, data, settings, shown
    value, and the version it shows (its data-v as a part sent alone, else the answer's `version`)."""
    found = []
    for attrs, wid, body in FORM.findall(page):
        fields = {name: html.unescape(value) for name, value in HIDDEN.findall(body)}
        data = {name[len("data."):].split(":")[0]: json.loads(value) for name, value in fields.items() if name.startswith("data.")}
        marked = DATA_V.search(attrs)
        assert "expected_version:int" not in fields  # the page adds it as the form is sent (parts.py)
        found.append({"id": wid, "type": fields["type"], "data": data, "settings": fields["stepper"],
                      "version": int(marked.group(1)) if marked else version, "shown": int(SHOWN.search(body).group(1))})
    return found


def tap(client, t, s, delta, version=None, target=None, settings=None):
    """Post what the stepper's button posts, the way htmx sends it with the page's script: the version
    the page has heard of as expected_version, the one it shows in X-Table-Has."""
    form = {"type": s["type"], "expected_version:int": str(s["version"] if version is None else version),
            "stepper": s["settings"] if settings is None else settings, "data.delta:json": str(delta)}
    form.update({f"data.{k}:json": json.dumps(v) for k, v in s["data"].items()})
    headers = dict(HX, **{"HX-Target": target or s["id"], "X-Table-Has": str(s["version"])})
    return client.post(f"/t/{t['table']}/events", data=form, headers=headers)


def table_with_steppers(client, api, key):
    """A tracked table of the game, joined, whose panel shows every stepper; return it and the screen to open."""
    game = examples(key)
    t = api.create(key, game.PLAYERS)
    for type_, data in game.TRACKED_SETUP:
        assert api.event(t, type_, data).status_code == 200, (key, type_)
    join(client, t)
    return t, game.STEPPERS_SCREEN


def live(client, t, screen=None, has=None):
    """The poll's answer: the whole region (as parts of its version), or what changed since `has`."""
    response = client.get(f"/t/{t['table']}/live", query_string={"screen": screen} if screen else {},
                          headers=dict(HX, **({"X-Table-Has": str(has)} if has is not None else {})))
    assert response.status_code == 200
    return response.get_data(as_text=True)


def region_steppers(client, t, screen=None):
    """The steppers of the live region a page shows, each with the version it was drawn at."""
    response = client.get(f"/t/{t['table']}/live", query_string={"screen": screen} if screen else {}, headers=HX)
    return steppers(response.get_data(as_text=True), int(response.headers["X-Table-Version"]))


@pytest.mark.parametrize("key", sorted(games.registry()))
def test_every_stepper_shows_what_its_game_counter_reads(client, api, key):
    t, screen = table_with_steppers(client, api, key)
    game, state = games.get(key), api.get(t)["state"]
    shown = region_steppers(client, t, screen)
    # a game may have no stepper (one that tracks nothing, a calculator alone): then none answers alone
    assert len({s["id"] for s in shown}) == len(shown), "two steppers with the same id"
    alone = set()
    for s in shown:
        assert s["id"] == stepper_id(s["type"], s["data"])
        value = game.counter(state, s["type"], s["data"])
        if value is not None:
            assert value == s["shown"], (s["type"], s["data"])
            alone.add(s["type"])
    assert alone == examples(key).STEPPERS_ALONE  # the test fails if a counter goes missing


#: the games with a stepper that answers alone (a game may have none: one that tracks nothing)
ANSWER_ALONE = [key for key in sorted(games.registry()) if examples(key).STEPPERS_ALONE]


@pytest.mark.parametrize("key", ANSWER_ALONE)
def test_a_tap_answers_with_its_stepper_alone_and_the_tools_out_of_band(client, api, key):
    t, screen = table_with_steppers(client, api, key)
    s = next(s for s in region_steppers(client, t, screen) if s["type"] in examples(key).STEPPERS_ALONE)
    before = api.get(t)["version"]
    response = tap(client, t, s, +1)
    assert response.status_code == 200
    assert response.headers["X-Table-Version"] == str(before + 1) and response.headers["X-Table-Partial"] == "1"
    body = response.get_data(as_text=True)
    assert 'id="table-live"' not in body  # not the region
    (after,) = steppers(body)
    assert after["id"] == s["id"] and after["version"] == before + 1
    assert after["shown"] == games.get(key).counter(api.get(t)["state"], s["type"], s["data"])
    assert f'<section hx-swap-oob="morph" data-v="{before + 1}" class="card table-tools" id="table-tools">' in body
    assert "disabled" not in body.split('id="table-tools"')[1]  # undo is possible now
    # the stream (or a poll naming the version the page shows) brings the rest of the change
    rest = live(client, t, screen, has=before)
    assert 'id="history-list"' in rest and f'data-v="{before + 1}"' in rest and 'id="table-live"' not in rest


def test_the_answer_is_a_few_hundred_bytes_not_the_region(client, api):
    t, _ = table_with_steppers(client, api, "gutenberg")
    region = live(client, t)
    s = next(s for s in region_steppers(client, t) if s["type"] == "fame")
    answer = tap(client, t, s, +1).get_data()
    assert len(answer) * 20 < len(region.encode())


def answered_with_parts(response, status, version):
    """A whole answer: the parts that changed since the version the page shows (not the region), not a stepper's."""
    assert response.status_code == status
    assert response.headers["X-Table-Version"] == str(version) and "X-Table-Partial" not in response.headers
    body = response.get_data(as_text=True)
    assert 'hx-swap-oob="morph"' in body and 'id="table-live"' not in body
    return body


def test_a_refused_tap_gets_the_whole_region_with_its_message_and_changes_nothing(client, api):
    t, _ = table_with_steppers(client, api, "gutenberg")
    s = next(s for s in region_steppers(client, t) if s["type"] == "fame")
    before = api.get(t)
    response = tap(client, t, s, -1)  # fame 0 cannot go down
    body = answered_with_parts(response, 400, before["version"])
    notice = body.split('id="table-notice"')[1].split("</div>")[0]
    assert "cannot go below 0" in notice
    assert api.get(t) == before


def test_a_stale_tap_gets_the_whole_region_and_changes_nothing(client, api):
    t, _ = table_with_steppers(client, api, "gutenberg")
    s = next(s for s in region_steppers(client, t) if s["type"] == "fame")
    api.event(t, "guilders", {"player": 1, "delta": 1})  # another phone
    before = api.get(t)
    body = answered_with_parts(tap(client, t, s, +1), 409, before["version"])
    assert "changed on another phone" in body.split('id="table-notice"')[1]
    assert f'id="{stepper_id("guilders", {"player": 1})}"' in body  # the other phone's change, now shown
    assert api.get(t) == before


def test_an_event_without_a_counter_is_answered_with_the_whole_region(client, api):
    t, _ = table_with_steppers(client, api, "galileo")
    s = next(s for s in region_steppers(client, t) if s["type"] == "suspicion")
    answered_with_parts(tap(client, t, s, +1), 200, s["version"] + 1)
    assert api.get(t)["version"] == s["version"] + 1  # applied all the same


@pytest.mark.parametrize("settings", ["", "nope", "[]", '{"field": 3}', '{"field": "delta", "label": null, "step": 0}',
                                      '{"field": "delta", "label": 5, "step": 1}', '{"field": "player", "label": null, "step": 1}'])
def test_malformed_stepper_settings_fall_back_to_the_whole_region(client, api, settings):
    t, _ = table_with_steppers(client, api, "gutenberg")
    s = next(s for s in region_steppers(client, t) if s["type"] == "fame")
    response = tap(client, t, s, +1, settings=settings)
    answered_with_parts(response, 200, s["version"] + 1)
    assert api.get(t)["state"]["players"][0]["fame"] == 1


def test_a_tap_aimed_at_another_stepper_falls_back_to_the_whole_region(client, api):
    t, _ = table_with_steppers(client, api, "gutenberg")
    fame, guilders = (next(s for s in region_steppers(client, t) if s["type"] == kind) for kind in ("fame", "guilders"))
    answered_with_parts(tap(client, t, fame, +1, target=guilders["id"]), 200, fame["version"] + 1)


def test_a_tap_without_the_tables_secret_is_404(client, api, app):
    t, _ = table_with_steppers(client, api, "gutenberg")
    s = next(s for s in region_steppers(client, t) if s["type"] == "fame")
    stranger = app.test_client()
    response = tap(stranger, t, s, +1)
    assert response.status_code == 404 and "X-Table-Version" not in response.headers
    assert api.get(t)["version"] == 0


@pytest.mark.browser
@pytest.mark.slow
def test_quick_taps_on_two_counters_both_count_and_the_history_follows(server, phone, shot):
    """The second tap, before any poll, posts the version the first one's answer brought."""
    t = server.api("/api/v1/tables", {"game": "gutenberg", "players": ["Ada", "Bo"]})
    page = phone
    page.goto(t["join_url"].replace(urlparse(t["join_url"]).netloc, urlparse(server.url).netloc))
    page.locator(".seat-chooser").get_by_role("button", name="Ada").click()
    page.wait_for_selector(".seat-chooser", state="detached")
    card = page.locator("#player-0")
    card.get_by_role("button", name="Fame plus 1").click()
    card.get_by_role("button", name="Guilders plus 1").click()
    card.get_by_role("button", name="Fame plus 1").click()
    page.wait_for_function("() => document.body.dataset.heard === '3'")
    page.locator("#history").locator("summary").click()
    page.wait_for_function("() => document.body.dataset.version === '3'")  # the next poll
    assert page.locator(".notice").count() == 0  # no "the table changed on another phone"
    fame = card.locator("form.stepper", has=page.get_by_role("button", name="Fame plus 1")).locator(".num").inner_text()
    guilders = card.locator("form.stepper", has=page.get_by_role("button", name="Guilders plus 1")).locator(".num").inner_text()
    assert fame.endswith("2") and guilders.endswith("11")
    history = page.locator("#history").inner_text()
    assert history.count("fame") == 2 and "guilders" in history
    shot(page, "stepper-quick-taps")
