"""A colour per seat (issue 41, item 5): the palette's checks, setup through the API and the start
form, the box profile's colours, and the swatch beside each seat's name on every game's page, its
result, the archive and the exports."""

from __future__ import annotations

import csv
import io
from html.parser import HTMLParser

import pytest

from companion import games
from companion.games import colours
from companion.games.validation import RulesError
from tests.conftest import count_rows
from tests.examples import create_doc, examples

GAME = "gutenberg"


# --- the palette's checks (plain Python) ---------------------------------------------------------


def test_a_table_takes_a_key_or_none_per_seat():
    assert colours.table_colours(["red", None, "blue"], ["A", "B", "C"], {}) == ["red", None, "blue"]


@pytest.mark.parametrize("value, profile, field, says", [
    (["red", "red"], {}, "colours[1]", "A has this colour already"),
    (["red", None, "red"], {}, "colours[2]", "A has this colour already"),
    (["mauve", None], {}, "colours[0]", "must be one of: red, blue"),
    ([7, None], {}, "colours[0]", "must be one of"),
    (["red"], {}, "colours", "must hold exactly 2 items"),
    (["red", None, None], {}, "colours", "must hold exactly 2 items"),
    ("red", {}, "colours", "must be a list"),
    (["red", "blue"], {"colours": ["red", "green"]}, "colours[1]", "is not among the box profile's colours: red, green"),
])
def test_a_table_refuses_each_wrong_colour_naming_its_seat(value, profile, field, says):
    with pytest.raises(RulesError) as refused:
        colours.table_colours(value, ["A", "B"] if field != "colours[2]" else ["A", "B", "C"], profile)
    assert refused.value.field == field and says in refused.value.message


def test_the_profile_lists_palette_colours_once_each():
    assert colours.profile_colours(["white", "red"]) == ["white", "red"]
    for value, field in ((["red", "red"], "colours[1]"), (["mauve"], "colours[0]"), ("red", "colours"),
                         (list(colours.PALETTE) + ["red"], "colours")):
        with pytest.raises(RulesError) as refused:
            colours.profile_colours(value)
        assert refused.value.field == field


def test_setup_offers_the_profiles_colours_else_the_whole_palette():
    assert colours.offered({"colours": ["black", "white"]}) == ["black", "white"]
    assert colours.offered({}) == list(colours.PALETTE)


# --- through the API -----------------------------------------------------------------------------


def test_api_create_keeps_each_seats_colour_and_says_it(api):
    t = api.create(GAME, ["Anna", "Tom", "Kate"], colours=["red", None, "white"])
    assert api.get(t)["players"] == [{"name": "Anna", "colour": "red"}, {"name": "Tom"}, {"name": "Kate", "colour": "white"}]
    assert api.stored(t).options["colours"] == ["red", None, "white"]


def test_no_colour_at_all_keeps_the_options_as_before(api):
    t = api.create(GAME, ["Anna", "Tom"], colours=[None, None])
    assert "colours" not in api.stored(t).options
    assert api.get(t)["players"] == [{"name": "Anna"}, {"name": "Tom"}]


@pytest.mark.parametrize("value, field", [
    (["red", "red"], "colours[1]"),
    (["mauve", None], "colours[0]"),
    (["red"], "colours"),
    ({"0": "red"}, "colours"),
])
def test_api_create_refuses_a_wrong_colour_and_creates_nothing(client, app, value, field):
    answer = client.post("/api/v1/tables", json={"game": GAME, "players": ["Anna", "Tom"], "colours": value})
    assert answer.status_code == 400 and answer.get_json()["field"] == field
    assert count_rows(app, "tables") == 0


def save_profile(client, game: str, form: dict) -> str:
    answer = client.post(f"/profiles/new/{game}", data={"profile_name": "Our box", **form})
    assert answer.status_code == 303, answer.get_data(as_text=True)
    return answer.headers["Location"]


def test_a_profile_keeps_its_colours_and_a_table_of_it_takes_only_those(client, app, api):
    where = save_profile(client, GAME, {"colours[]": ["yellow", "black"]})
    profile_id = int(where.rsplit("/", 1)[1])
    form = client.get(where).get_data(as_text=True)
    assert 'value="yellow" checked' in form and 'value="black" checked' in form and 'value="red" checked' not in form
    refused = client.post("/api/v1/tables", json={"game": GAME, "players": ["Anna", "Tom"], "profile": profile_id,
                                                  "colours": ["yellow", "red"]})
    assert refused.status_code == 400 and refused.get_json()["field"] == "colours[1]"
    assert count_rows(app, "tables") == 0
    t = api.create(GAME, ["Anna", "Tom"], profile=profile_id, colours=["black", "yellow"])
    assert api.stored(t).profile["colours"] == ["yellow", "black"]


def test_a_profile_refuses_a_colour_outside_the_palette_and_saves_nothing(client, app):
    answer = client.post(f"/profiles/new/{GAME}", data={"profile_name": "Our box", "colours[]": ["red", "mauve"]})
    assert answer.status_code == 400
    assert "The 2nd colour the pieces come in: must be one of" in answer.get_data(as_text=True)
    assert count_rows(app, "profiles") == 0


@pytest.mark.parametrize("key", list(games.registry()))
def test_every_games_profile_takes_colours_beside_its_own_values(client, key):
    where = save_profile(client, key, {"colours[]": ["green"]})
    assert 'value="green" checked' in client.get(where).get_data(as_text=True)


# --- the start form, without JavaScript ----------------------------------------------------------


def test_the_start_form_posts_a_colour_per_row_without_javascript(client, api):
    page = client.get(f"/new/{GAME}").get_data(as_text=True)
    assert 'name="options.colours.0" value="red"' in page and 'name="options.colours.3" value="brown"' in page
    # the second row is left blank: its colour goes with it, and the third row is the second seat
    answer = client.post(f"/new/{GAME}", data={"players[]": ["Anna", "", "Tom"], "options.colours.0": "blue",
                                               "options.colours.1": "red", "options.colours.2": "green"})
    assert answer.status_code == 303
    table_id = answer.headers["Location"].split("/t/")[1].split("#")[0]
    with client.application.app_context():
        from companion import tables
        from companion.web.connection import get_db
        assert tables.load(get_db(), table_id).options["colours"] == ["blue", "green"]


def test_the_start_form_says_a_colour_taken_twice_beside_its_row_and_creates_nothing(client, app):
    answer = client.post(f"/new/{GAME}", data={"players[]": ["Anna", "", "Tom"], "options.colours.0": "blue",
                                               "options.colours.2": "blue"})
    assert answer.status_code == 400
    page = answer.get_data(as_text=True)
    assert 'data-field="options.colours[2]">Player 3&#39;s colour: Anna has this colour already' in page
    assert 'name="options.colours.2" value="blue" checked' in page  # kept for the player to mend
    assert count_rows(app, "tables") == 0


# --- the swatch beside each seat's name ----------------------------------------------------------


class Swatches(HTMLParser):
    """Each swatch's colour with the ids and classes of the elements it sits in (and data-result)."""

    VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}

    def __init__(self, html: str):
        super().__init__()
        self.stack: list[tuple[str, set[str]]] = []
        self.found: list[tuple[str, set[str]]] = []
        self.feed(html)

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        marks = {f"#{attrs['id']}"} if attrs.get("id") else set()
        marks |= {f".{c}" for c in (attrs.get("class") or "").split()}
        marks |= {"[data-result]"} if "data-result" in attrs else set()
        if ".swatch" in marks:
            self.found.append((attrs.get("data-colour"), set().union(*(m for _, m in self.stack))))
        if tag not in self.VOID:
            self.stack.append((tag, marks))

    def handle_endtag(self, tag):
        while self.stack:
            if self.stack.pop()[0] == tag:
                break

    def within(self, mark: str) -> list[str]:
        """The colours of the swatches inside an element with this id (#..), class (.x) or [data-result]."""
        return [colour for colour, around in self.found if mark in around]


COLOURS = ["purple", "orange", "pink", "grey"]


def finished_calculator(api, key: str) -> dict:
    ex = examples(key)
    names = list(ex.CALCULATOR_NAMES)
    t = api.create(key, names, calculator=True, colours=COLOURS[:len(names)])
    for type_, data in [*ex.CALCULATOR_SETUP, *(("sheet", row) for row in ex.CALCULATOR_ROWS)]:
        assert api.event(t, type_, data).status_code == 200
    return t


def page_of(client, t: dict, screen: str | None = None) -> str:
    client.set_cookie(f"tc_{t['table']}", t["token"])
    answer = client.get(f"/t/{t['table']}" + (f"?screen={screen}" if screen else ""))
    assert answer.status_code == 200
    return answer.get_data(as_text=True)


@pytest.mark.parametrize("key", list(games.registry()))
def test_the_swatch_shows_on_the_scoreboard_and_each_seat_card_of_a_tracked_table(client, api, key):
    ex = examples(key)
    t = api.create(key, list(ex.PLAYERS), colours=["red", "blue"])
    for type_, data in ex.TRACKED_SETUP:
        assert api.event(t, type_, data).status_code == 200
    shown = Swatches(page_of(client, t, ex.STEPPERS_SCREEN))
    assert shown.within("#sb-0") == ["red"] and shown.within("#sb-1") == ["blue"]
    assert set(shown.within(".seat-card")) == {"red", "blue"}, shown.found
    assert shown.within("#seat-chooser") == ["red", "blue"]
    # names stay: the scoreboard still names each seat, and the colour is said in words to a screen reader
    assert 'title="red"><span class="visually-hidden">red</span>' in page_of(client, t)


@pytest.mark.parametrize("key", list(games.registry()))
def test_the_swatch_shows_on_the_result_the_archive_and_the_exports(client, api, app, key):
    t = finished_calculator(api, key)
    seats = len(examples(key).CALCULATOR_NAMES)
    shown = Swatches(page_of(client, t))
    assert set(shown.within("[data-result]")) == set(COLOURS[:seats]), shown.found
    result = api.result(t).get_json()
    assert [p["colour"] for p in result["players"]] == COLOURS[:seats]
    with app.app_context():
        from companion import export, results
        from companion.web.connection import get_db
        docs = results.results(get_db())
        rows = list(csv.DictReader(io.StringIO(export.to_csv(list(docs), bom=False))))
    assert [r["colour"] for r in rows] == COLOURS[:seats]
    record = client.get(f"/plays/{t['table']}")  # this device joined the table: its record is shown
    assert record.status_code == 200
    assert sorted(Swatches(record.get_data(as_text=True)).within(".play-places")) == sorted(COLOURS[:seats])
    assert sorted(Swatches(client.get("/plays").get_data(as_text=True)).within(".play-players")) == sorted(COLOURS[:seats])


def test_a_table_without_colours_draws_no_swatch(client, api):
    t = api.create(GAME, ["Anna", "Tom"])
    assert Swatches(page_of(client, t)).found == []


@pytest.mark.parametrize("game", list(games.registry()))
def test_a_table_starts_from_a_box_profile_with_colours_in_every_game(client, game):
    """The profile's colours are the app's, beside the game's own values: no game refuses them as a
    key it does not know (Galileo's board values did: review of issue 41)."""
    answer = client.post(f"/profiles/new/{game}", data={"profile_name": "Box", "colours[]": ["red", "blue"]})
    assert answer.status_code == 303, answer.get_data(as_text=True)[:300]
    profile_id = int(answer.headers["Location"].rstrip("/").rsplit("/", 1)[1])
    players = ["Ann"] if game == "voynich" else ["Ann", "Ben"]
    made = client.post("/api/v1/tables", json=create_doc(game, players, profile=profile_id, colours=["blue", None][:len(players)]))
    assert made.status_code == 201, made.get_json()
    t = made.get_json()
    page = client.get("/" + t["join_url"].split("://", 1)[1].split("/", 1)[1], follow_redirects=True)
    assert page.status_code == 200 and "data-colour=\"blue\"" in page.get_data(as_text=True)
