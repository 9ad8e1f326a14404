"""Pages name a refused field as the player sees it, never by its path (issue 11)."""

import re

import pytest

from companion import games
from companion.games.validation import RulesError
from companion.wording import label_of, ordinal, plural, said

NAMES = ["Anna", "Ben", "Cleo"]


@pytest.mark.parametrize("field, type_, data, expected", [
    ("players[1]", None, None, "Player 2's name"),
    ("data.delta", "vp", {"player": 1}, "Ben's VP change"),
    ("data.delta", "points", {"player": 2}, "Cleo's points"),
    ("players[1].vp", None, None, "Ben's VP"),
    ("data.inventions_vp", "final", {"player": 0}, "Anna's inventions VP"),
    ("data.counts[2]", "prohibition", {}, "counts, number 3"),
    ("data", "automa_act", {}, ""),
    ("$", None, None, ""),
    ("options.calculator", None, None, "\"Just the final score\""),
])
def test_a_field_is_said_in_players_words(field, type_, data, expected):
    labels = games.get("galileo").labels if type_ == "vp" else games.get("codex").labels
    assert label_of(field, NAMES, labels, type_, data) == expected


def test_no_label_ever_shows_path_syntax():
    for game in games.registry().values():
        for field in ("data.delta", "players[3].guilders", "data.markers.take_orders", "data.cells[2].x",
                      'data[""]', "options.options.target", "data.scoring_spaces"):
            text = label_of(field, NAMES, game.labels, "x", {"player": 0})
            assert not re.search(r"[\[\]]|\bdata\b|\w\.\w|options", text), (game.key, field, text)


def test_said_keeps_the_path_for_the_page_and_shows_words():
    error = said(RulesError("data.delta", "must not be 0"), NAMES, games.get("galileo").labels, "vp", {"player": 1})
    assert error.field == "data.delta"
    assert error.text == "Ben's VP change: must not be 0"
    assert said(RulesError("data", "reveal the automa's planning card first"), NAMES).text == \
        "Reveal the automa's planning card first"


def test_plurals_and_ordinals():
    assert [plural(n, "coin") for n in (0, 1, 2)] == ["0 coins", "1 coin", "2 coins"]
    assert plural(1, "penalty", "penalties") == "1 penalty" and plural(3, "penalty", "penalties") == "3 penalties"
    assert [ordinal(n) for n in (1, 2, 3, 4, 11, 12, 13, 21, 22, 101, 111)] == \
        ["1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd", "101st", "111th"]


def test_a_refused_name_on_the_start_page_says_which_name(client):
    page = client.post("/new/codex", data={"players[]": ["Anna", "anna"]})
    assert page.status_code == 400
    text = page.get_data(as_text=True)
    assert "Player 2&#39;s name" in text
    assert "players[1]" not in re.sub(r'data-field="[^"]*"', "", text)


def test_a_refused_event_on_a_table_page_names_the_players_field(client):
    page = client.post("/new/galileo", data={"players[]": ["Anna", "Ben"]})
    table_id = page.headers["Location"].rsplit("/", 1)[-1]
    answer = client.post(f"/t/{table_id}/events", data={
        "type": "board", "expected_version:int": "0", "data.tiles:json": "[1, 2, 3]"})
    assert answer.status_code == 400
    shown = re.findall(r'<p class="error"[^>]*>([^<]*)<', answer.get_data(as_text=True))
    assert shown and all("data." not in line and "]" not in line for line in shown), shown


def test_final_score_link_opens_the_form_with_calculator_chosen(client):
    home = client.get("/").get_data(as_text=True)
    assert '/new/gutenberg?calculator=1' in home
    form = client.get("/new/gutenberg?calculator=1").get_data(as_text=True)
    assert re.search(r'name="options.calculator:bool" value="on" checked', form)
    plain = client.get("/new/gutenberg").get_data(as_text=True)
    assert re.search(r'name="options.calculator:bool" value="off" checked', plain)
    answer = client.post("/new/codex", data={"players[]": ["Anna", "Ben"], "options.calculator:bool": "on"})
    assert answer.status_code == 303


def test_a_list_with_one_entry_per_player_names_the_player_and_the_line_starts_with_a_capital():
    labels = games.get("galileo").labels
    assert label_of("data.counts[1]", NAMES, labels, "prohibition", {}) == "Ben's elements"
    assert said(RulesError("players[2]", "is empty"), NAMES).text == "Player 3's name is empty"


def test_a_label_for_one_item_goes_before_the_pattern_for_all():
    labels = {"pages.botany[]": "{who}'s {nth} Botany page", "pages.botany[0]": "{who}'s Botany left ×"}
    assert label_of("data.pages.botany[0]", NAMES, labels, "sheet", {"player": 1}) == "Ben's Botany left ×"
    assert label_of("data.pages.botany[1]", NAMES, labels, "sheet", {"player": 1}) == "Ben's 2nd Botany page"


@pytest.mark.parametrize("game, type_, field, data, message, expected", [
    # a plural field name takes "are", in every game, for "is missing" and any "is ..." message
    ("voynich", "sheet", "data.markers", {"player": 0}, "is required", "Anna's markers are missing"),
    ("gutenberg", "sheet", "data.guilders", {"player": 1}, "is required", "Ben's guilders are missing"),
    ("voynich", "sheet", "data.research", {"player": 2}, "is required at the end", "Cleo's research tokens are required at the end"),
    ("gutenberg", "automa_start", "data.take_orders", {}, "is required", "The automa's starting markers on Take orders are missing"),
    # one thing stays "is": an abbreviation, a word ending in "ss" or "us", a thing "for" or "each" several, a clause
    ("voynich", "sheet", "data.gk", {"player": 0}, "is required", "Anna's GK is missing"),
    ("codex", "sheet", "data.status", {"player": 0}, "is required", "Anna's status is missing"),
    ("galileo", "suspicion_group", "data.delta", {}, "is required", "The suspicion change for the others is missing"),
    ("gutenberg", "take_inks", "data.first", {"player": 0}, "is required", "Where Anna starts taking inks is missing"),
    ("gutenberg", "plantinus_swap", "data.second", {"player": 1}, "is required", "The second specialty Ben swaps is missing"),
])
def test_a_plural_field_takes_are(game, type_, field, data, message, expected):
    labels = games.get(game).labels
    assert str(said(RulesError(field, message), NAMES, labels, type_, data).text) == expected
