"""The Codex table through the real app: JSON API, pages and forms, and a phone-sized browser."""

from __future__ import annotations

import re

import pytest

COLUMN = [{"x": 0, "y": y, "kingdom": "fungi"} for y in (0, -2, -4, -6)] + \
         [{"x": 1, "y": y, "kingdom": "plant"} for y in (-3, -5, -7)]


def open_table(client, t):
    """Join the table in this client (the secret goes into a cookie) and choose to watch."""
    assert client.get(f"/join/{t['table']}/{t['token']}").status_code == 303
    client.post(f"/t/{t['table']}/seat", data={"seat": "watch"})


def post_form(client, t, fields, htmx=False):
    headers = {"HX-Request": "true"} if htmx else {}
    return client.post(f"/t/{t['table']}/events", data=fields, headers=headers)


# --- rules functions over HTTP --------------------------------------------------------------------

def test_rules_functions_over_http(api):
    r = api.rules("codex", "final_turns", {"players": ["A", "B", "C"], "trigger": "B"})
    assert r.status_code == 200 and r.get_json() == {"turns": ["C", "A", "B", "C"]}
    r = api.rules("codex", "patterns", {"cells": COLUMN, "objective": 91})
    assert r.get_json()["count"] == 2


def test_illegal_manuscript_over_http_names_the_card(api):
    doc = {"cards": [{"id": 81, "side": "front", "x": 0, "y": 0}, {"id": 47, "side": "front", "x": 1, "y": 1}], "objectives": []}
    r = api.rules("codex", "manuscript", doc)
    assert r.status_code == 400
    body = r.get_json()
    assert body["field"] == "cards[1]" and "card 47" in body["error"]


# --- the table through the API ---------------------------------------------------------------------

def test_table_flow_through_the_api(api):
    t = api.create("codex", ["Anna", "Ben"], target=20, first_player=1)
    assert t["state"]["first"] == 1
    assert api.event(t, "points", {"player": 0, "delta": 19}).status_code == 200
    r = api.event(t, "points", {"player": 0, "delta": 1})
    # first player Ben; Anna (last) reaches 20: one more round
    assert r.get_json()["state"]["end"] == {"reason": "target", "trigger": 0, "turns": [1, 0], "played": 0}
    assert api.undo(t).status_code == 200
    assert api.get(t)["state"]["end"] is None


def test_bad_event_is_400_and_changes_nothing(api):
    t = api.create("codex", ["Anna", "Ben"], first_player=0)
    api.event(t, "play_card", {"player": 0, "id": 81, "side": "front", "x": 0, "y": 0})
    before = api.get(t)
    r = api.event(t, "play_card", {"player": 0, "id": 50, "side": "front", "x": 1, "y": 1})
    assert r.status_code == 400
    assert r.get_json()["field"] == "data.id" and "card 50" in r.get_json()["error"]
    assert api.get(t) == before


def test_create_refuses_a_bad_target(client):
    r = client.post("/api/v1/tables", json={"game": "codex", "players": ["A", "B"], "target": 25})
    assert r.status_code == 400 and r.get_json()["field"] == "target"


# --- pages and forms -------------------------------------------------------------------------------

def test_every_screen_renders(client, api):
    t = api.create("codex", ["Anna", "Ben"], first_player=0)
    api.event(t, "common_objectives", {"cards": [91, 95]})
    open_table(client, t)
    for screen, words in [(None, "Gold card helpers"), ("end", "Common objectives"), ("book-1", "manuscript"),
                          ("grid-0-91", "Count the patterns"), ("grid-0-93", "not one of this player&#39;s objectives"),
                          ("nonsense", "Gold card helpers")]:
        r = client.get(f"/t/{t['table']}" + (f"?screen={screen}" if screen else ""))
        assert r.status_code == 200, screen
        assert words in r.get_data(as_text=True), screen


def test_setup_form_offers_the_thirty_point_variant(client):
    page = client.get("/new/codex").get_data(as_text=True)
    assert 'name="options.target:int" value="30"' in page
    r = client.post("/new/codex", data={"players[]": ["Anna", "Ben"], "options.target:int": "30", "options.first_player:int": "1"})
    assert r.status_code == 303
    table_page = client.get(r.headers["Location"]).get_data(as_text=True)
    assert "target 30" in table_page and "<bdi>Ben</bdi> → <bdi>Anna</bdi>" in table_page


def test_quick_button_form_moves_the_score_and_htmx_gets_the_fragment(client, api):
    t = api.create("codex", ["Anna", "Ben"], first_player=0)
    open_table(client, t)
    r = post_form(client, t, {"type": "points", "expected_version:int": "0", "data.player:json": "1", "data.delta:json": "5"}, htmx=True)
    assert r.status_code == 200
    body = r.get_data(as_text=True)
    assert "<html" not in body and 'data-score="1">5' in body
    assert api.get(t)["state"]["scores"] == [0, 5]


def test_play_card_form_with_a_cell_and_its_error_beside_the_field(client, api):
    t = api.create("codex", ["Anna", "Ben"], first_player=0)
    open_table(client, t)
    ok = post_form(client, t, {"type": "play_card", "expected_version:int": "0", "data.player:int": "0",
                               "data.id:int": "81", "data.side": "front", "data.cell:json": "[0, 0]", "screen": "book-0"})
    assert ok.status_code == 303 and "screen=book-0" in ok.headers["Location"]
    bad = post_form(client, t, {"type": "play_card", "expected_version:int": "1", "data.player:int": "0",
                                "data.id:int": "47", "data.side": "front", "data.cell:json": "[1, 1]", "screen": "book-0"})
    assert bad.status_code == 400
    page = bad.get_data(as_text=True)
    assert re.search(r'class="error" role="alert" data-field="data.id"><bdi>Anna</bdi>&#39;s card number: card 47 is a gold card', page)
    assert len(api.get(t)["state"]["manuscripts"][0]) == 1


def test_end_screen_shows_places_and_winner(client, api):
    t = api.create("codex", ["Anna", "Ben"], first_player=0)
    for type_, data in [("points", {"player": 0, "delta": 20}), ("common_objectives", {"cards": [95, 102]}),
                        ("set_count", {"player": 1, "symbol": "fungi", "value": 9})]:
        assert api.event(t, type_, data).status_code == 200
    open_table(client, t)
    page = client.get(f"/t/{t['table']}?screen=end").get_data(as_text=True)
    # Anna 20 + 0; Ben 0 + 3 x 2 = 6
    assert re.search(r'<tr class="winner"[^>]*>\s*<td><bdi>Anna</bdi></td><td>20</td><td>0</td>\s*<td><strong>20</strong></td><td>1</td>', page)
    assert "<bdi>Anna</bdi> wins" in page


def test_finish_before_the_end_is_400_and_the_page_offers_no_finish(client, api):
    # Issue 27, finding 14: a fresh table is not over [CN53-55]: 400 on "type", nothing stored,
    # no BG Stats play; the end screen says what comes first instead of offering the button
    t = api.create("codex", ["Anna", "Ben"], first_player=0)
    before = api.get(t)
    r = api.event(t, "finish")
    assert r.status_code == 400 and r.get_json()["field"] == "type"
    assert "not over" in r.get_json()["error"]
    assert api.get(t) == before and api.result(t).status_code == 409
    open_table(client, t)
    page = client.get(f"/t/{t['table']}?screen=end").get_data(as_text=True)
    assert "Objectives counted: end the game" not in page
    assert "The game is not over yet" in page
    # Anna reaches 20: Ben, then both once more; with the last turns played, the button is there
    assert api.event(t, "points", {"player": 0, "delta": 20}).status_code == 200
    page = client.get(f"/t/{t['table']}?screen=end").get_data(as_text=True)
    assert "Objectives counted: end the game" not in page and "3 last turns are still to play" in page
    for _ in range(3):
        assert api.event(t, "turn_played").status_code == 200
    page = client.get(f"/t/{t['table']}?screen=end").get_data(as_text=True)
    assert "Objectives counted: end the game" in page
    assert api.event(t, "finish").status_code == 200


def test_a_correction_below_20_untriggers_the_end_over_the_api(api):
    t = api.create("codex", ["Anna", "Ben"], first_player=0)
    assert api.event(t, "points", {"player": 0, "delta": 20}).get_json()["state"]["end"]["reason"] == "target"
    r = api.event(t, "points", {"player": 0, "delta": -3})
    assert r.status_code == 200 and r.get_json()["state"]["end"] is None
    assert api.event(t, "finish").status_code == 400


def test_ana_20_ben_22_ana_minus_3_moves_the_end_to_ben_over_the_api(client, api):
    # issue 27, finding 14, the reviewer's case through the API: Ben plays first, Ana's 20 is taken
    # back after Ben reached 22 in the following round's first turn: the end is Ben's [CN53-54]
    t = api.create("codex", ["Ana", "Ben"], first_player=1)
    for type_, data in [("points", {"player": 0, "delta": 20}), ("turn_played", {}), ("points", {"player": 1, "delta": 22})]:
        assert api.event(t, type_, data).status_code == 200
    r = api.event(t, "points", {"player": 0, "delta": -3})
    assert r.status_code == 200
    state = r.get_json()["state"]
    assert state["end"] == {"reason": "target", "trigger": 1, "turns": [0, 1, 0], "played": 0}
    open_table(client, t)
    page = client.get(f"/t/{t['table']}").get_data(as_text=True)
    assert "Back to 17" in page and "3 last turns to play" in page
    page = client.get(f"/t/{t['table']}?screen=end").get_data(as_text=True)
    assert "3 last turns are still to play" in page
    assert api.event(t, "finish").status_code == 400


# --- the phone ---------------------------------------------------------------------------------------

@pytest.mark.browser
def test_grid_editor_on_a_phone(server, phone, shot):
    t = server.api("/api/v1/tables", {"game": "codex", "players": ["Anna", "Ben"], "first_player": 0})

    def event(type_, data):
        version = server.api(f"/api/v1/tables/{t['table']}", token=t["token"])["version"]
        server.api(f"/api/v1/tables/{t['table']}/events", {"type": type_, "data": data, "expected_version": version}, t["token"])

    event("common_objectives", {"cards": [91, 95]})
    phone.goto(f"{server.url}/join/{t['table']}/{t['token']}")
    phone.get_by_role("button", name="Just watch").first.click()
    phone.goto(f"{server.url}/t/{t['table']}?screen=end")
    shot(phone, "codex_end_counter")
    phone.locator("#cx-counter-0").get_by_role("link", name="Lay out the colours").click()
    phone.wait_for_selector(".cx-editor")

    def cell(x, y):
        return phone.locator(f'.cx-cell[data-x="{x}"][data-y="{y}"]')

    # a column of four fungi (one tap each) and three plants (two taps each)
    for y in (0, -2, -4):
        cell(0, y).tap()
    for y in (-1, -3):
        cell(1, y).tap()
        cell(1, y).tap()
    assert cell(0, 0).get_attribute("data-kingdom") == "fungi"
    assert cell(1, -1).get_attribute("data-kingdom") == "plant"
    # another phone changes the table meanwhile: the live update keeps the taps not yet counted
    version = phone.locator("body").get_attribute("data-version")
    event("count", {"player": 1, "symbol": "fungi", "delta": 1})
    from playwright.sync_api import expect

    expect(phone.locator("body")).not_to_have_attribute("data-version", version)
    assert cell(0, 0).get_attribute("data-kingdom") == "fungi"
    assert cell(1, -3).get_attribute("data-kingdom") == "plant"
    box = cell(0, 0).bounding_box()
    assert box["width"] >= 44 and box["height"] >= 44  # a finger-sized target
    phone.get_by_role("button", name="Count the patterns").click()
    phone.wait_for_selector(".cx-cell.cx-hit")
    # fungi at (0,0),(0,-2),(0,-4), plants at (1,-1),(1,-3): only (0,0),(0,-2),(1,-3) matches 91
    # ((0,-2),(0,-4) would need a plant at (1,-5)): one occurrence, highlighted and numbered
    assert phone.locator(".cx-count .num").inner_text() == "1"
    assert phone.locator(".cx-cell.cx-hit").count() == 3
    assert sorted(phone.locator(".cx-cell.cx-hit").evaluate_all("els => els.map(e => e.dataset.x + ',' + e.dataset.y)")) == ["0,-2", "0,0", "1,-3"]
    shot(phone, "codex_grid_editor")
    # no horizontal scrolling of the page itself at 360 px
    assert phone.evaluate("document.documentElement.scrollWidth") <= 360
    phone.get_by_role("link", name="← Objectives").click()
    counter = phone.locator("#cx-counter-0").inner_text()
    assert "3 pts" in counter and "(1 found)" in counter  # 91: one occurrence x 3


@pytest.mark.browser
def test_track_and_manuscript_on_a_phone(server, phone, shot):
    t = server.api("/api/v1/tables", {"game": "codex", "players": ["Anna", "Ben", "Cara"], "first_player": 1})
    phone.goto(f"{server.url}/join/{t['table']}/{t['token']}")
    phone.get_by_role("button", name="Anna").first.click()
    anna = phone.locator("#cx-player-0")
    anna.get_by_role("button", name="Anna plus 3").tap()
    phone.wait_for_selector('[data-score="0"]:has-text("3")')
    shot(phone, "codex_track")
    assert "Ben → Cara → Anna" in phone.locator(".cx-order").inner_text()

    anna.get_by_role("link", name="Manuscript").tap()
    phone.wait_for_selector("#cx-book")
    phone.fill("#cx-card-id", "81")
    phone.get_by_role("button", name="Play this card").tap()
    phone.wait_for_selector("#cx-book .cx-card")
    # find card 8 (fungi, 1 point) in the picker by its look, then lay it on the starter's top-right corner
    phone.locator("#cx-picker summary").tap()
    phone.locator('#cx-picker [data-filter="kingdom"][data-value="fungi"]').tap()
    phone.locator('#cx-picker [data-filter="points"][data-value="1"]').tap()
    visible = phone.locator("#cx-picker .cx-pick:visible").evaluate_all("els => els.map(e => e.dataset.card)")
    assert visible == ["8", "9", "10"]
    # by a corner: fungi cards with a quill in a corner (resource 5, gold 41 and 48)
    phone.locator("#cx-picker [data-filter-reset]").tap()
    phone.locator('#cx-picker [data-filter="kingdom"][data-value="fungi"]').tap()
    phone.get_by_role("button", name="quill in a corner").tap()
    assert phone.locator("#cx-picker .cx-pick:visible").evaluate_all("els => els.map(e => e.dataset.card)") == ["5", "41", "48"]
    phone.locator("#cx-picker [data-filter-reset]").tap()
    phone.locator('#cx-picker [data-filter="kingdom"][data-value="fungi"]').tap()
    phone.locator('#cx-picker [data-filter="points"][data-value="1"]').tap()
    phone.locator('.cx-pick[data-card="8"]').tap()
    assert phone.input_value("#cx-card-id") == "8"
    phone.locator('.cx-free:has(input[value="[1, 1]"])').tap()
    phone.get_by_role("button", name="Play this card").tap()
    phone.wait_for_selector("#cx-book .cx-card small:text-is(\"#8\")")
    assert "2 cards · 1 point from cards" in phone.locator("#cx-book").inner_text()
    # an illegal card is refused, its reason beside the card field, nothing laid
    phone.fill("#cx-card-id", "50")
    phone.locator('.cx-free:has(input[value="[-1, -1]"])').tap()
    phone.get_by_role("button", name="Play this card").tap()
    phone.wait_for_selector('#cx-book .error[data-field="data.id"]')
    assert "card 50 is a gold card" in phone.locator('#cx-book .error[data-field="data.id"]').inner_text()
    shot(phone, "codex_manuscript")
    assert phone.evaluate("document.documentElement.scrollWidth") <= 360
    state = server.api(f"/api/v1/tables/{t['table']}", token=t["token"])["state"]
    assert state["scores"] == [4, 0, 0]
    assert [c["id"] for c in state["manuscripts"][0]] == [81, 8]


@pytest.mark.browser
def test_end_banner_last_turns_and_final_scores_on_a_phone(server, phone, shot):
    t = server.api("/api/v1/tables", {"game": "codex", "players": ["Anna", "Ben", "Cara"], "first_player": 0})
    path = f"/api/v1/tables/{t['table']}"

    def event(type_, data):
        version = server.api(path, token=t["token"])["version"]
        server.api(path + "/events", {"type": type_, "data": data, "expected_version": version}, token=t["token"])

    event("points", {"player": 0, "delta": 14})
    event("points", {"player": 1, "delta": 21})
    phone.goto(f"{server.url}/join/{t['table']}/{t['token']}")
    phone.get_by_role("button", name="Just watch").first.click()
    banner = phone.locator("#cx-banner")
    assert "Ben reached 20: the end is triggered" in banner.inner_text()
    # first player Anna, Ben triggers: Cara ends the round, then Anna, Ben, Cara once more
    assert banner.locator("li").all_inner_texts() == ["Cara", "Anna", "Ben", "Cara"]
    banner.get_by_role("button", name="✓ Cara's last turn is played").tap()
    phone.wait_for_selector("#cx-banner li.done")
    assert phone.locator("#cx-banner li.next").inner_text() == "Anna"
    shot(phone, "codex_end_banner")
    for _ in range(3):
        event("turn_played", {})
    event("common_objectives", {"cards": [95, 102]})
    event("set_count", {"player": 0, "symbol": "fungi", "value": 11})  # 3 triples: +6 -> 20
    event("set_count", {"player": 1, "symbol": "quill", "value": 1})
    phone.reload()
    assert "All last turns are played" in phone.locator("#cx-banner").inner_text()
    phone.get_by_role("link", name="Count the objectives").tap()
    phone.get_by_role("button", name="Objectives counted: end the game").tap()
    phone.wait_for_selector("text=Final scores")
    rows = phone.locator("#cx-results tbody tr").all_inner_texts()
    assert [r.split("\t")[0] for r in rows] == ["Ben", "Anna", "Cara"]
    assert "Ben wins" in phone.locator("#cx-results").inner_text()
    shot(phone, "codex_final_scores")
    assert phone.evaluate("document.documentElement.scrollWidth") <= 360


def test_cli_runs_the_codex_functions():
    import json
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]

    def run(function, doc):
        return subprocess.run([sys.executable, "-m", "companion", "rules", "codex", function], input=json.dumps(doc),
                              capture_output=True, text=True, cwd=root, timeout=60)

    ok = run("final_turns", {"players": ["A", "B", "C"], "trigger": "B"})
    assert ok.returncode == 0 and json.loads(ok.stdout) == {"turns": ["C", "A", "B", "C"]}
    bad = run("manuscript", {"cards": [{"id": 81, "side": "front", "x": 0, "y": 0}, {"id": 5, "side": "front", "x": 3, "y": 3}],
                             "objectives": []})
    assert bad.returncode == 2 and bad.stderr.startswith("error: cards[1]: card 5 at (3, 3) touches no card")


def test_banner_asks_for_the_first_player_when_unknown(client, api):
    t = api.create("codex", ["Anna", "Ben"])
    open_table(client, t)
    page = client.get(f"/t/{t['table']}").get_data(as_text=True)
    assert "Who goes first?" in page  # every game's card (templates/tables/_first.html)
    assert api.event(t, "points", {"player": 0, "delta": 20}).status_code == 200
    page = client.get(f"/t/{t['table']}").get_data(as_text=True)
    assert "<bdi>Anna</bdi> reached 20: the end is triggered" in page and "Who played first?" in page
    assert api.event(t, "first_player", {"player": 1}).status_code == 200
    page = client.get(f"/t/{t['table']}").get_data(as_text=True)
    # Ben started, Anna (last) triggered: one more round, Ben then Anna
    assert re.search(r'<ol class="cx-turns">\s*<li class="next"><bdi>Ben</bdi></li><li class=""><bdi>Anna</bdi></li>', page)
