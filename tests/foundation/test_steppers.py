"""Steppers answer a tap with themselves (companion/web/steppers.py), and fall back to the whole region.

A stepper's answer is only right if the number it shows is the one the panel would show, so
the first test reads every stepper of every game's panel and compares it with the game's
counter(). The others check the answer itself, and that a refused, stale or malformed tap
gets the whole region (retargeted there) and changes nothing.
"""

import html
import json
import re
from urllib.parse import urlparse

import pytest

from companion import games
from companion.web.steppers import stepper_id
from tests.galileo.test_table import PROFILE as GALILEO_PROFILE

FORM = re.compile(r'<form [^>]*class="stepper" id="(w-[0-9a-f]+)">(.*?)</form>', re.S)
HIDDEN = re.compile(r'<input type="hidden" name="([^"]+)" value="([^"]*)">')
SHOWN = re.compile(r'<span class="num"[^>]*>(?:<small>.*?</small>)?(-?\d+)</span>', re.S)
HX = {"HX-Request": "true", "Sec-Fetch-Site": "same-origin"}


def join(client, t):
    assert client.get(urlparse(t["join_url"]).path).status_code == 303


def steppers(page: str) -> list[dict]:
    """Return every stepper of a rendered region: id, event type, data, settings, shown value."""
    found = []
    for wid, body in FORM.findall(page):
        fields = {name: html.unescape(value) for name, value in HIDDEN.findall(body)}
        data = {name[len("data."):].split(":")[0]: json.loads(value) for name, value in fields.items() if name.startswith("data.")}
        found.append({"id": wid, "type": fields["type"], "data": data, "settings": fields["stepper"],
                      "version": int(fields["expected_version:int"]), "shown": int(SHOWN.search(body).group(1))})
    return found


def tap(client, t, s, delta, version=None, target=None, settings=None):
    """Post what the stepper's button posts, the way htmx sends it."""
    form = {"type": s["type"], "expected_version:int": str(s["version"] if version is None else version),
            "stepper": s["settings"] if settings is None else settings, "data.delta:json": str(delta)}
    form.update({f"data.{k}:json": json.dumps(v) for k, v in s["data"].items()})
    return client.post(f"/t/{t['table']}/events", data=form, headers=dict(HX, **{"HX-Target": target or s["id"]}))


def setup_codex(api, t):
    api.event(t, "common_objectives", {"cards": [91, 95]})  # 95 is a pattern: its stepper too
    return "end"


def setup_galileo(api, t):
    api.event(t, "board", {"suspicion_track": GALILEO_PROFILE["suspicion_track"]})
    return None


SETUPS = {"codex": setup_codex, "galileo": setup_galileo}
#: the events whose stepper answers alone in each game (the test fails if a counter goes missing)
ALONE = {"gutenberg": {"fame", "guilders", "inks", "types", "patronage_cards"}, "voynich": {"move"},
         "codex": {"count", "pattern_count"}, "galileo": {"vp"}}


def table_with_steppers(client, api, key):
    t = api.create(key, ["Anna", "Tom"])
    screen = SETUPS.get(key, lambda api, t: None)(api, t)
    join(client, t)
    return t, screen


def live(client, t, screen=None):
    response = client.get(f"/t/{t['table']}/live", query_string={"screen": screen} if screen else {}, headers=HX)
    assert response.status_code == 200
    return response.get_data(as_text=True)


@pytest.mark.parametrize("key", sorted(games.registry()))
def test_every_stepper_shows_what_its_game_counter_reads(client, api, key):
    t, screen = table_with_steppers(client, api, key)
    game, state = games.get(key), api.get(t)["state"]
    shown = steppers(live(client, t, screen))
    assert shown, f"{key}: no stepper on its panel"
    assert len({s["id"] for s in shown}) == len(shown), "two steppers with the same id"
    alone = set()
    for s in shown:
        assert s["id"] == stepper_id(s["type"], s["data"])
        value = game.counter(state, s["type"], s["data"])
        if value is not None:
            assert value == s["shown"], (s["type"], s["data"])
            alone.add(s["type"])
    assert alone == ALONE[key]


@pytest.mark.parametrize("key", sorted(ALONE))
def test_a_tap_answers_with_its_stepper_alone_and_the_tools_out_of_band(client, api, key):
    t, screen = table_with_steppers(client, api, key)
    s = next(s for s in steppers(live(client, t, screen)) if s["type"] in ALONE[key])
    before = api.get(t)["version"]
    response = tap(client, t, s, +1)
    assert response.status_code == 200 and "HX-Retarget" not in response.headers
    body = response.get_data(as_text=True)
    assert 'id="table-live"' not in body  # not the region
    (after,) = steppers(body)
    assert after["id"] == s["id"] and after["version"] == before + 1
    assert after["shown"] == games.get(key).counter(api.get(t)["state"], s["type"], s["data"])
    assert f'id="table-tools" data-version="{before + 1}" hx-swap-oob="true"' in body
    assert "disabled" not in body.split('id="table-tools"')[1]  # undo is possible now
    # the next poll with the old validator brings the rest of the region
    assert live(client, t, screen).count(f'data-version="{before + 1}"') >= 1


def test_the_answer_is_a_few_hundred_bytes_not_the_region(client, api):
    t, _ = table_with_steppers(client, api, "gutenberg")
    region = live(client, t)
    s = next(s for s in steppers(region) if s["type"] == "fame")
    answer = tap(client, t, s, +1).get_data()
    assert len(answer) * 20 < len(region.encode())


def refused_whole_region(response, status):
    assert response.status_code == status
    assert response.headers["HX-Retarget"] == "#table-live" and response.headers["HX-Reswap"] == "outerHTML"
    assert 'id="table-live"' in response.get_data(as_text=True)


def test_a_refused_tap_gets_the_whole_region_with_its_message_and_changes_nothing(client, api):
    t, _ = table_with_steppers(client, api, "gutenberg")
    s = next(s for s in steppers(live(client, t)) if s["type"] == "fame")
    before = api.get(t)
    response = tap(client, t, s, -1)  # fame 0 cannot go down
    refused_whole_region(response, 400)
    assert "cannot go below 0" in response.get_data(as_text=True)
    assert api.get(t) == before


def test_a_stale_tap_gets_the_whole_region_and_changes_nothing(client, api):
    t, _ = table_with_steppers(client, api, "gutenberg")
    s = next(s for s in steppers(live(client, t)) if s["type"] == "fame")
    api.event(t, "guilders", {"player": 1, "delta": 1})  # another phone
    before = api.get(t)
    refused_whole_region(tap(client, t, s, +1), 409)
    assert api.get(t) == before


def test_an_event_without_a_counter_is_answered_with_the_whole_region(client, api):
    t, _ = table_with_steppers(client, api, "galileo")
    s = next(s for s in steppers(live(client, t)) if s["type"] == "suspicion")
    refused_whole_region(tap(client, t, s, +1), 200)
    assert api.get(t)["version"] == s["version"] + 1  # applied all the same


@pytest.mark.parametrize("settings", ["", "nope", "[]", '{"field": 3}', '{"field": "delta", "label": null, "step": 0}',
                                      '{"field": "delta", "label": 5, "step": 1}', '{"field": "player", "label": null, "step": 1}'])
def test_malformed_stepper_settings_fall_back_to_the_whole_region(client, api, settings):
    t, _ = table_with_steppers(client, api, "gutenberg")
    s = next(s for s in steppers(live(client, t)) if s["type"] == "fame")
    response = tap(client, t, s, +1, settings=settings)
    refused_whole_region(response, 200)
    assert api.get(t)["state"]["players"][0]["fame"] == 1


def test_a_tap_aimed_at_another_stepper_falls_back_to_the_whole_region(client, api):
    t, _ = table_with_steppers(client, api, "gutenberg")
    fame, guilders = (next(s for s in steppers(live(client, t)) if s["type"] == kind) for kind in ("fame", "guilders"))
    refused_whole_region(tap(client, t, fame, +1, target=guilders["id"]), 200)


def test_a_tap_without_the_tables_secret_is_404(client, api, app):
    t, _ = table_with_steppers(client, api, "gutenberg")
    s = next(s for s in steppers(live(client, t)) if s["type"] == "fame")
    stranger = app.test_client()
    response = tap(stranger, t, s, +1)
    assert response.status_code == 404 and "HX-Retarget" not in response.headers
    assert api.get(t)["version"] == 0


@pytest.mark.browser
@pytest.mark.slow
def test_quick_taps_on_two_counters_both_count_and_the_history_follows(server, phone, shot):
    """The second tap, before any poll, posts the version the first one's answer brought."""
    import urllib.request

    request = urllib.request.Request(server.url + "/api/v1/tables", method="POST", headers={"Content-Type": "application/json"},
                                     data=json.dumps({"game": "gutenberg", "players": ["Ada", "Bo"]}).encode())
    with urllib.request.urlopen(request) as answer:
        t = json.load(answer)
    page = phone
    page.goto(t["join_url"].replace(urlparse(t["join_url"]).netloc, urlparse(server.url).netloc))
    page.locator(".seat-chooser").get_by_role("button", name="Ada").click()
    page.wait_for_selector(".seat-chooser", state="detached")
    card = page.locator("#player-0")
    card.get_by_role("button", name="Fame plus 1").click()
    card.get_by_role("button", name="Guilders plus 1").click()
    card.get_by_role("button", name="Fame plus 1").click()
    page.wait_for_function("() => document.querySelector('#table-tools').dataset.version === '3'")
    page.locator("#history").locator("summary").click()
    page.wait_for_function("() => document.querySelector('#table-live').dataset.version === '3'")  # the next poll
    assert page.locator(".notice").count() == 0  # no "the table changed on another phone"
    fame = card.locator("form.stepper", has=page.get_by_role("button", name="Fame plus 1")).locator(".num").inner_text()
    guilders = card.locator("form.stepper", has=page.get_by_role("button", name="Guilders plus 1")).locator(".num").inner_text()
    assert fame.endswith("2") and guilders.endswith("11")
    history = page.locator("#history").inner_text()
    assert history.count("fame") == 2 and "guilders" in history
    shot(page, "stepper-quick-taps")
