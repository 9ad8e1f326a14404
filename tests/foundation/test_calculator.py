"""Calculator mode's shared ground: every phone fills its own row at the same time (issue 11)."""

import html
import re

import pytest

from werkzeug.datastructures import MultiDict

from companion import games
from tests.examples import examples


def row_form(player: int, version: int, fame: int) -> MultiDict:
    """A Gutenberg sheet card's form, as the page posts it."""
    fields = [("type", "sheet"), ("expected_version:int", str(version)), ("data.player:int", str(player)),
              ("data.fame:int", str(fame)), ("data.guilders:int", "3"), ("data.patronage_cards:int", "1"),
              ("data.types:int", "2"), ("data.inks:int", "1")]
    fields += [(f"data.specialties.{s}:int", "2") for s in ("typesetting", "woodcutting", "binding", "illuminating")]
    return MultiDict(fields)


def start(client, players=("Anna", "Ben", "Cleo")) -> str:
    answer = client.post("/new/gutenberg", data=MultiDict([("players[]", p) for p in players] + [("options.calculator:bool", "on")]))
    assert answer.status_code == 303
    location, _, fragment = answer.headers["Location"].partition("#")
    assert fragment == "invite"  # the phone that started it opens on the QR code (static/js/invite.js)
    return location.rsplit("/", 1)[-1]


def version(client, table_id: str) -> int:
    return int(re.search(r'<body [^>]*data-version="(\d+)"', client.get(f"/t/{table_id}").get_data(as_text=True)).group(1))


def test_rows_of_different_players_posted_on_the_same_version_both_land(client):
    table_id = start(client)
    assert client.post(f"/t/{table_id}/events", data=row_form(0, 0, 40)).status_code == 303
    # Ben's phone drew its card at version 0 too: his row still lands
    assert client.post(f"/t/{table_id}/events", data=row_form(1, 0, 50)).status_code == 303
    assert version(client, table_id) == 2


def test_a_row_overtaken_by_the_same_players_row_is_a_conflict_and_keeps_the_first(client):
    table_id = start(client)
    assert client.post(f"/t/{table_id}/events", data=row_form(0, 0, 40)).status_code == 303
    answer = client.post(f"/t/{table_id}/events", data=row_form(0, 0, 41))
    assert answer.status_code == 409
    assert version(client, table_id) == 1
    # and anything else in between (here a rename) is a conflict as well
    client.post(f"/t/{table_id}/events", data={"type": "rename", "expected_version:int": "1", "data.player:int": "2", "data.name": "Cleo B"})
    assert client.post(f"/t/{table_id}/events", data=row_form(1, 1, 50)).status_code == 409
    assert version(client, table_id) == 2


def test_the_api_keeps_its_strict_version_check_for_rows(api):
    t = api.create("gutenberg", ["Anna", "Ben"], calculator=True)

    def doc(player):
        specialties = {s: 2 for s in ("typesetting", "woodcutting", "binding", "illuminating")}
        return {"player": player, "fame": 40, "guilders": 3, "patronage_cards": 1, "types": 2, "inks": 1, "specialties": specialties}

    assert api.event(t, "sheet", doc(0), expected_version=0).status_code == 200
    answer = api.event(t, "sheet", doc(1), expected_version=0)
    assert answer.status_code == 409 and answer.get_json()["version"] == 1


def test_a_value_that_is_not_a_number_still_names_its_player(client):
    table_id = start(client)
    form = row_form(1, 0, 40)
    form["data.fame:int"] = "12a"
    answer = client.post(f"/t/{table_id}/events", data=form)
    assert answer.status_code == 400
    shown = html.unescape(" ".join(re.findall(r'<p class="error"[^>]*>(.*?)</p>', answer.get_data(as_text=True))))
    assert "<bdi>Ben</bdi>'s" in shown and "data." not in shown, shown
    assert version(client, table_id) == 0


def test_a_calculator_tables_invite_comes_first_until_the_result(client):
    """Every phone joins at once to fill its row: the QR code is at the top, not below four cards."""
    page = client.get(f"/t/{start(client)}").get_data(as_text=True)
    assert page.index('id="invite"') < page.index('id="table-live"')
    tracked = client.post("/new/gutenberg", data=MultiDict([("players[]", "Anna"), ("players[]", "Ben")]))
    assert "#" not in tracked.headers["Location"]
    page = client.get(tracked.headers["Location"]).get_data(as_text=True)
    assert page.index('id="invite"') > page.index('id="table-live"')


@pytest.mark.parametrize("game_key", list(games.registry()))
def test_a_calculator_table_refuses_every_tracking_event_in_one_place(api, game_key):
    """Game.apply refuses, for every game alike, each event its calculator mode does not take."""
    game = games.get(game_key)
    t = api.create(game_key, examples(game_key).PLAYERS, calculator=True)
    tracking = [e for e in game.events if e not in game.calculator_events]
    assert tracking and "sheet" in game.calculator_events
    for type_ in tracking:
        answer = api.event(t, type_, {"player": 0})
        assert answer.status_code == 400 and answer.get_json()["field"] == "type", type_
        assert answer.get_json()["error"] == f"this table is just the final score: {game.calculator_hint}"
    assert api.get(t)["version"] == 0
