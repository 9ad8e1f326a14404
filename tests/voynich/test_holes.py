"""Issue 11's small holes for Voynich: no JSON for players, typed marker positions, one Save per end card."""

import re

from werkzeug.datastructures import MultiDict

from companion.games.voynich.rules import SECTIONS

from .test_web import join, make_profile, post

CELL_FORM = MultiDict([
    ("profile_name", "Typed box"),
    ("track.spaces.0.position:int", "10"), ("track.spaces.0.gk:int", "3"),
    ("track.spaces.1.position:int", "20"), ("track.spaces.1.gk:int", "6"),
    ("track.spaces.2.position:int", ""), ("track.spaces.2.gk:int", ""),
    ("track.insights[]:int", "4"), ("track.insights[]:int", "9"), ("track.insights[]:int", ""),
    ("track.end:int", ""),
    ("grid_cells.0.0:int", "2"), ("grid_cells.0.1:int", ""), ("grid_cells.1.0:int", ""), ("grid_cells.1.1:int", "5"),
    ("solo_spaces.recipes[]:int", "7"), ("solo_spaces.recipes[]:int", "12"), ("solo_spaces.recipes[]:int", ""),
    ("solo_spaces.astrology[]:int", ""),
    ("cards.12.section:json", '"astrology"'), ("cards.12.multipliers[]:int", "1"), ("cards.12.multipliers[]:int", "2"),
    ("cards.12.multipliers[]:int", "4"), ("cards.12.choices[]:json", ""), ("cards.12.choices[]:json", ""),
    ("cards.13.section:json", ""), ("cards.13.multipliers[]:int", ""), ("cards.13.choices[]:json", ""),
])


def test_no_json_field_for_players_on_any_page(client, api):
    pages = ["/profiles/new/voynich"]
    for options in ({}, {"calculator": True}):
        t = api.create("voynich", ["Ana", "Ben"], **options)
        join(client, t)
        pages += [f"/t/{t['table']}", f"/t/{t['table']}?screen=end", f"/t/{t['table']}?screen=track",
                  f"/t/{t['table']}?screen=book"]
    solo = api.create("voynich", ["Ana"])
    join(client, solo)
    pages.append(f"/t/{solo['table']}")
    for path in pages:
        html = client.get(path).get_data(as_text=True)
        assert "<textarea" not in html, path
        # the only :json fields left are hidden event data, select values and ticks, never a typed field
        for tag in re.findall(r"<input[^>]*:json[^>]*>", html):
            assert 'type="hidden"' in tag or 'type="checkbox"' in tag, (path, tag)


def test_the_profile_page_saves_typed_rows_cells_and_card_choices(client):
    response = client.post("/profiles/new/voynich", data=CELL_FORM)
    assert response.status_code == 303, response.get_data(as_text=True)
    pid = int(response.headers["Location"].rsplit("/", 1)[-1])
    doc = client.get(f"/profiles/{pid}.json").get_json()["data"]
    assert doc["track"] == {"scoring_spaces": {"10": 3, "20": 6}, "insights": [4, 9]}
    assert doc["grid"] == [[2, None], [None, 5]]
    assert doc["solo_spaces"] == {"recipes": [7, 12]}
    assert doc["cards"] == {"12": {"section": "astrology", "multipliers": [1, 2, 4]}}
    page = client.get(f"/profiles/{pid}").get_data(as_text=True)
    assert 'id="p-space-pos-1" value="20"' in page and 'name="grid_cells.1.1:int" value="5"' in page


def test_a_half_filled_scoring_space_is_refused_in_words_and_kept(client):
    form = MultiDict(CELL_FORM)
    form["track.spaces.1.gk:int"] = ""
    response = client.post("/profiles/new/voynich", data=form)
    assert response.status_code == 400
    html = response.get_data(as_text=True)
    errors = re.findall(r'<p class="error"[^>]*>(.*?)</p>', html, re.S)
    assert any("The 2nd scoring space&#39;s GK: type the GK printed on this space too" in e for e in errors), errors
    assert 'id="p-space-pos-1" value="20"' in html  # what was typed is still there


def test_blank_fields_in_two_rows_are_never_paired_across_rows(client, api):
    """Row 2 without its GK and row 3 without its position must not become one space (20: 10)."""
    t = api.create("voynich", ["Ana", "Ben"], calculator=True)
    join(client, t)
    fields = [("data.spaces.0.position:int", "10"), ("data.spaces.0.gk:int", "3"),
              ("data.spaces.1.position:int", "20"), ("data.spaces.1.gk:int", ""),
              ("data.spaces.2.position:int", ""), ("data.spaces.2.gk:int", "10")]
    version = api.get(t)["version"]
    response = post(client, t, "track", fields)
    assert response.status_code == 400
    shown = re.findall(r'<p class="error"[^>]*>(.*?)</p>', response.get_data(as_text=True), re.S)
    assert any("The 2nd scoring space&#39;s GK" in s for s in shown), shown
    assert api.get(t)["version"] == version


def test_track_values_as_rows_at_the_table_and_errors_in_words(client, api):
    t = api.create("voynich", ["Ana", "Ben"])
    join(client, t)
    fields = [("data.spaces.0.position:int", "10"), ("data.spaces.0.gk:int", "3"),
              ("data.spaces.1.position:int", "10"), ("data.spaces.1.gk:int", "5")]
    version = api.get(t)["version"]
    response = post(client, t, "track", fields)
    assert response.status_code == 400
    shown = re.findall(r'<p class="error"[^>]*>(.*?)</p>', response.get_data(as_text=True), re.S)
    assert any("The 2nd scoring space&#39;s position: position 10 is listed twice" in s for s in shown), shown
    assert not any("data." in s or "[1]" in s for s in shown)
    assert api.get(t)["version"] == version
    fields[2] = ("data.spaces.1.position:int", "20")
    assert post(client, t, "track", fields + [("data.insights[]:int", "4"), ("data.insights[]:int", "")]).status_code == 200
    assert api.get(t)["state"]["track"] == {"scoring_spaces": {"10": 3, "20": 5}, "insights": [4]}
    html = client.get(f"/t/{t['table']}?screen=track").get_data(as_text=True)
    assert 'id="space-gk-1" value="5"' in html and 'id="insight-0" value="4"' in html


def test_a_typed_gk_sets_the_marker_in_one_save_and_triggers_the_end(client, api):
    t = api.create("voynich", ["Ana", "Ben"])
    join(client, t)
    api.event(t, "track", {"scoring_spaces": {"10": 3}, "insights": [2, 9]})
    fields = [("data.player:int", "1"), ("data.gk:int", "52"), ("data.markers.botany:int", "10"),
              ("data.markers.astrology:int", "0"), ("data.markers.baths:int", "0"), ("data.markers.writings:int", "0")]
    assert post(client, t, "positions", fields).status_code == 200
    state = api.get(t)["state"]
    assert state["players"][1]["markers"]["gk"] == 52 and state["end"] is not None  # [V354]
    assert state["players"][1]["exchange"]["botany"] == 2  # insight symbols 2 and 9 crossed [V170]
    # the same values again change nothing: refused in words, nothing stored
    version = api.get(t)["version"]
    response = post(client, t, "positions", fields)
    assert response.status_code == 400 and api.get(t)["version"] == version
    fields[1] = ("data.gk:int", "5000")
    response = post(client, t, "positions", fields)
    shown = re.findall(r'<p class="error"[^>]*>(.*?)</p>', response.get_data(as_text=True), re.S)
    assert any("<bdi>Ben</bdi>&#39;s GK" in s for s in shown) and api.get(t)["version"] == version
    response = api.event(t, "positions", {"player": 0, "markers": {"baths": -2}})
    assert response.status_code == 400 and response.get_json()["field"] == "data.markers.baths"


def test_tracked_end_scoring_is_one_save_per_player_card(client, api):
    pid = make_profile(client)
    t = api.create("voynich", ["Ana", "Bea"], profile=pid)
    join(client, t)
    api.event(t, "move", {"player": 0, "marker": "gk", "delta": 30})
    api.event(t, "study", {"player": 0, "page": 0})
    html = client.get(f"/t/{t['table']}?screen=end").get_data(as_text=True)
    card = html.split('id="sheet-0"', 1)[1].split("</section>", 1)[0]
    assert card.count('type="submit"') == 1 and 'id="gk-0" value="30"' in card
    fields = [("data.player:int", "0"), ("data.gk:int", "30"), ("data.markers.botany:int", "20"),
              ("data.markers.astrology:int", "0"), ("data.markers.baths:int", "0"), ("data.markers.writings:int", "0"),
              ("data.research[]:int", "7"), ("data.research[]:int", "5")]
    pages = [(f"data.pages.{s}[]:int", "2" if (s, k) == ("botany", 0) else "0") for s in SECTIONS for k in range(2)]
    assert post(client, t, "sheet", fields + pages).status_code == 200
    ana = api.get(t)["state"]["players"][0]
    assert ana["research"] == [7, 5] and ana["pages"][0]["multiplier"] == 2 and ana["markers"]["botany"] == 20
    # a page still in its starting phase scores x0 [V91]: refused, nothing stored
    version = api.get(t)["version"]
    pages[1] = ("data.pages.botany[]:int", "4")
    response = post(client, t, "sheet", fields + pages)
    assert response.status_code == 400 and api.get(t)["version"] == version
    assert "Botany right is in its starting phase" in response.get_data(as_text=True)


def test_every_event_field_has_words(client):
    from companion.games.voynich import GAME
    from companion.wording import label_of
    names = ["Ana", "Ben"]
    for type_, field in [("sheet", "data.research[2]"), ("sheet", "data.pages.recipes[1]"), ("sheet", "data.choices.left"),
                         ("track", "data.insights[0]"), ("book", "data.cards.botany[0]"), ("move", "data.delta"),
                         ("positions", "data.markers.writings"), ("sheet", "data.tokens_on_board"), ("exchange", "data.cell")]:
        words = label_of(field, names, GAME.labels, type_, {"player": 1})
        assert "[" not in words and "_" not in words and "data" not in words, (field, words)
    assert label_of("cards.12.multipliers[1]", names, GAME.labels) == "card 12's multiplier"
    assert label_of("solo_spaces.first_basin[2]", names, GAME.labels).startswith("the solo board's Baths: first basin")


def test_a_tracked_row_with_gk_at_the_end_triggers_the_end_like_a_move(client, api):
    t = api.create("voynich", ["Ana", "Bea"], profile=make_profile(client))
    row = {"player": 1, "gk": 60, "markers": {"botany": 0, "astrology": 0, "baths": 0, "writings": 0},
           "pages": {s: [0, 0] for s in SECTIONS}}
    assert api.event(t, "sheet", row).status_code == 200
    state = api.get(t)["state"]
    assert state["end"] is not None and state["end"]["by"] == 1  # [V354] the last turns begin


def test_a_calculator_table_refuses_tracking_events(api):
    t = api.create("voynich", ["Ana", "Bea"], calculator=True)
    for type_, data in (("move", {"player": 0, "marker": "gk", "delta": 3}), ("end_turn", {}),
                        ("positions", {"player": 0, "gk": 60}), ("research", {"player": 0, "gk": 4})):
        response = api.event(t, type_, data)
        assert response.status_code == 400 and response.get_json()["field"] == "type", type_
    assert api.get(t)["version"] == 0
