"""The pieces a game may add (companion/games/base.py `OPTIONAL`, issue 43), and core's fallbacks.

A game whose title, BoardGameGeek id and winning side its players choose per table (the score pad)
plugs them in through its own modules: core asks `Game.title_of`, `bgg_id_of`, `lowest_wins` and
`breakdown_label`, never a game by name. The four games define none of them and must look as before.

The hooks are tried on a real game: Codex's own modules, with the hooks added beside them (`Added`,
no mock: every function Codex has runs as it does), standing in for Codex in the registry for one
test, so that its pages and templates are Codex's. Its options take a title, an id and "lowest wins".
"""

from __future__ import annotations

import json
import re

import pytest

from companion import bgsplay, games, result_image, results, stats, tables
from companion.games import colours, seats, speech
from companion.games.base import OPTIONAL, ROLES, Context, Game
from companion.games.codex import GAME as CODEX, calculator, functions, order, profile, table, view
from companion.games.galileo import GAME as GALILEO
from companion.web import home
from companion.web.connection import get_db
from companion.wording import breakdown_label
from tests.codex import examples as codex
from tests.foundation.test_plays import host_client


class Added:
    """A real module of a game with pieces added (`added`) or left out (`left_out`): whatever else is
    asked of it is the module's own."""

    def __init__(self, module, left_out=(), **added):
        self._module, self._left_out = module, set(left_out)
        self.__dict__.update(added)

    def __getattr__(self, name):
        if name in self._left_out:
            raise AttributeError(name)
        return getattr(self._module, name)


#: the options the stand-in takes beside Codex's own: what the players chose for this table
OWN = ("title", "bgg", "lowest")


def validate_options(options: dict, player_count: int) -> dict:
    own = {k: options[k] for k in OWN if k in options}
    return {**table.validate_options({k: v for k, v in options.items() if k not in own}, player_count), **own}


def round_words(key: str) -> str | None:
    return "Third round" if key == "round_3" else None


#: Codex with every optional hook: a title, a BoardGameGeek id and "lowest wins" the players give
HOOKED = Game(key=CODEX.key, title=CODEX.title, min_players=CODEX.min_players, max_players=CODEX.max_players,
              functions=functions, table=Added(table, validate_options=validate_options), profile=profile, order=order,
              view=Added(view, table_title=lambda options: options.get("title"),
                         table_bgg_id=lambda options: options.get("bgg")),
              calculator=Added(calculator, lowest_wins=lambda options: bool(options.get("lowest")),
                               breakdown_label=round_words),
              scripts=CODEX.scripts, styles=CODEX.styles, bgg_id=CODEX.bgg_id)


@pytest.fixture
def hooked(monkeypatch):
    """The registry's Codex replaced by HOOKED for one test."""
    monkeypatch.setitem(games.registry(), CODEX.key, HOOKED)
    return HOOKED


def finish(api, **options) -> dict:
    """A finished Codex calculator table (tests/codex/examples.py's rows), with these options."""
    t = api.create("codex", codex.CALCULATOR_NAMES, calculator=True, **options)
    for type_, data in codex.CALCULATOR_SETUP:
        assert api.event(t, type_, data).status_code == 200
    for row in codex.CALCULATOR_ROWS:
        assert api.event(t, "sheet", row).status_code == 200
    return t


def page(client, path: str) -> str:
    answer = client.get(path)
    assert answer.status_code == 200, path
    return answer.get_data(as_text=True)


# --- the four games: nothing optional, everything as before -------------------------------------------

def test_the_optional_pieces_are_of_the_roles_every_game_has():
    assert set(OPTIONAL) <= set(ROLES)
    assert not {name for role, names in OPTIONAL.items() for name in names} & {n for names in ROLES.values() for n in names}


@pytest.mark.parametrize("key", list(games.registry()))
def test_a_game_without_the_hooks_goes_by_its_own_title_id_and_highest_total(key):
    game = games.get(key)
    if game.optional("view", "table_title") is None:
        assert game.title_of({}) == game.title_of() == game.title
        assert game.title_of({"title": "Something else"}) == game.title  # an option is no title unless the game says so
        assert game.shown_title(game.title) == game.shown_title(None) == game.title
    if game.optional("view", "table_bgg_id") is None:
        assert game.bgg_id_of({}, {}) == game.bgg_id
        assert game.bgg_id_of({}, {"bgg_id": 7}) == 7  # a box profile's own id first, as before
        assert game.bgg_id_of({}, {"bgg_id": True}) == game.bgg_id
    if game.optional("calculator", "lowest_wins") is None:
        assert game.lowest_wins({}) is False
    if game.optional("calculator", "breakdown_label") is None:
        assert game.breakdown_label("round_3") is None
        assert breakdown_label(game, "round_3") == "Round 3"  # the key's own words


def test_the_result_of_a_game_without_the_hooks_names_it_by_its_title(api):
    t = finish(api)
    doc = api.result(t).get_json()
    assert doc["title"] == CODEX.title == doc["play"]["game"]["name"]
    assert doc["play"]["game"]["highestWins"] is True and doc["play"]["game"]["bggId"] == CODEX.bgg_id


# --- a game with the hooks -----------------------------------------------------------------------------

def test_a_game_may_have_no_rule_text():
    assert HOOKED.rule_text is None and HOOKED.cites is None


def test_the_hooks_are_asked_and_each_falls_back_where_it_says_none():
    assert HOOKED.title_of({"title": "Dice night"}) == "Dice night"
    assert HOOKED.title_of({}) == HOOKED.title_of() == CODEX.title
    assert HOOKED.shown_title("Dice night") == "Dice night"
    assert HOOKED.bgg_id_of({"bgg": 12345}, {"bgg_id": 7}) == 12345  # the table's own first
    assert HOOKED.bgg_id_of({}, {"bgg_id": 7}) == 7
    assert HOOKED.bgg_id_of({}, {}) == CODEX.bgg_id
    assert HOOKED.lowest_wins({"lowest": True}) is True and HOOKED.lowest_wins({}) is False
    assert breakdown_label(HOOKED, "round_3") == "Third round"
    assert breakdown_label(HOOKED, "round_4") == "Round 4"  # the hook's None: the key's own words


def test_a_game_title_is_said_in_the_language_spoken_and_a_typed_title_as_typed():
    """A title marked N_ (the pad's "Another game") is said in the phone's language; one typed, as typed."""
    pad = Game(key="pad", title="Final score", min_players=1, max_players=12, functions=functions, table=table,
               profile=profile, order=order, calculator=calculator,
               view=Added(view, table_title=lambda options: options.get("title")))
    with speech.speaking("fr"):
        assert pad.title_of() == pad.title_of({}) == pad.shown_title("Final score") == "Score final"
        assert pad.title_of({"title": "Azul"}) == pad.shown_title("Azul") == "Azul"
    with speech.english():
        assert pad.title_of() == "Final score"


def test_a_table_goes_by_the_title_its_players_gave_everywhere_core_names_it(app, client, api, hooked):
    t = finish(api, title="Dice night", bgg=12345, lowest=True)
    doc = api.result(t).get_json()
    assert doc["title"] == "Dice night"
    assert doc["play"]["game"] == {"name": "Dice night", "sourceGameId": "codex:dice night", "highestWins": False, "noPoints": False,
                                   "bggId": 12345}
    with app.test_request_context():
        table_ = tables.load(get_db(), t["table"])
        shared = results.share_text(table_, results.result(table_))
        assert shared.startswith("Dice night, ")
        assert result_image.content(table_, results.result(table_)).title == "Dice night"
    # the phone that joined: the table page, and the home page's open tables
    assert client.get(t["join_url"].split(":80", 1)[1]).status_code == 303
    assert "<h1>Dice night</h1>" in page(client, f"/t/{t['table']}")
    assert re.search(r"<span>Dice night: <bdi>", page(client, "/"))
    # the archive: the list and the record
    assert '<strong class="play-game">Dice night</strong>' in page(client, "/plays")
    assert "<h1>Dice night</h1>" in page(client, f"/plays/{t['table']}")


def test_plays_of_one_game_under_two_titles_are_two_games(app, api, hooked):
    finish(api, title="Dice night", lowest=True)
    finish(api, title="dice  NIGHT", lowest=True)  # the same title as names are folded
    finish(api, title="Card night")
    with app.app_context():
        docs = results.results(get_db())
    per_game = {g["title"]: g for g in stats.per_game(docs)}
    assert sorted(per_game) == ["Card night", "dice  NIGHT"]  # the newest play's spelling
    assert per_game["dice  NIGHT"]["plays"] == 2 and per_game["Card night"]["plays"] == 1
    # the .bgsplay file: two games, one per title folded as BG Stats' sourceGameId is (results.title_id), named
    # like the stats by the newest play's spelling, from the plays given oldest first as the app gives them
    with app.app_context():
        file = json.loads(bgsplay.dumps(results.results(get_db(), newest_first=False)))
    assert sorted(g["name"] for g in file["games"]) == ["Card night", "dice  NIGHT"]
    assert len({g["uuid"] for g in file["games"]}) == 2
    # the pages: the stats and a player's page show each title
    host = host_client(app)
    said = page(host, "/plays/stats")
    assert "<h2>Card night <small" in said and "<h2>dice  NIGHT <small" in said
    name = codex.CALCULATOR_NAMES[0]
    mine = host.get(f"/api/v1/players/{name}").get_json()
    assert [(g["title"], g["plays"]) for g in mine["games"]] == [("Card night", 1), ("dice  NIGHT", 2)]
    assert "Card night" in page(host, f"/players/{name}") and "dice  NIGHT" in page(host, "/players")


def test_the_best_score_is_the_lowest_where_the_lowest_wins():
    def play(table_id, day, totals, lowest):
        return {"table": table_id, "game": "codex", "title": "Golf", "finished_at": f"2026-01-0{day}T10:00:00Z",
                "winners": [], "play": {"game": {"highestWins": not lowest}},
                "players": [{"name": n, "total": t} for n, t in zip(("Ann", "Ben"), totals)]}

    for lowest, best, first in ((True, {"Ann": 20, "Ben": 30}, "Ann"), (False, {"Ann": 40, "Ben": 50}, "Ben")):
        (game,) = stats.per_game([play("a", 1, (20, 50), lowest), play("b", 2, (40, 30), lowest)])
        assert {p["name"]: p["best"] for p in game["players"]} == best
        assert game["players"][0]["name"] == first  # no wins, as many plays: the better best first


def test_the_codex_uuid_of_a_game_keeps_its_old_value():
    """A game's own title: its .bgsplay uuid is made from its key and id alone, as before issue 43."""
    pushed = {"sourceGameId": "codex", "name": CODEX.title, "bggId": CODEX.bgg_id, "highestWins": True, "noPoints": False}
    found = bgsplay._game({}, pushed, "2026-01-01 10:00:00")
    assert found["uuid"] == bgsplay._uuid("game", f"codex:{CODEX.bgg_id}")


# --- the state's own notice keys (table.QUIET) ------------------------------------------------------------

def galileo_with_notices(api) -> dict:
    from tests.galileo.test_table import PROFILE

    t = api.create("galileo", ["Meg", "Luna"])
    board = {"suspicion_track": PROFILE["suspicion_track"], "penance_cards": PROFILE["penance_cards"]}
    assert api.event(t, "board", board).status_code == 200
    assert api.event(t, "suspicion", {"player": 0, "delta": 3}).status_code == 200
    return t


def test_choosing_the_first_player_quiets_the_keys_the_game_names(api):
    t = galileo_with_notices(api)
    before = api.get(t)["state"]
    assert before["notices"] and before["notices_later"] and set(GALILEO.modules.table.QUIET) <= set(before)
    assert api.event(t, "first_player", {"player": 1}).status_code == 200
    after = api.get(t)["state"]
    assert {key: after[key] for key in GALILEO.modules.table.QUIET} == GALILEO.modules.table.QUIET


def test_a_game_without_quiet_keys_keeps_them(api):
    """seats.py names no game's keys: a Galileo that does not list them keeps its notices."""
    from companion.games.galileo import table as galileo_table

    t = galileo_with_notices(api)
    state = api.get(t)["state"]
    quiet = Game(key="galileo", title=GALILEO.title, min_players=GALILEO.min_players, max_players=GALILEO.max_players,
                 functions=GALILEO.modules.functions, table=Added(galileo_table, left_out=("QUIET",)),
                 view=GALILEO.modules.view, profile=GALILEO.modules.profile, calculator=GALILEO.modules.calculator,
                 order=GALILEO.modules.order)
    after = seats.apply(quiet, state, "first_player", {"player": 1}, Context(names=("Meg", "Luna")))
    assert after["notices"] == state["notices"]


# --- 1 to 12 seats: the start form and the palette ---------------------------------------------------------

#: Codex's modules seating 1 to 12 players, as the score pad does
MANY = Game(key=CODEX.key, title=CODEX.title, min_players=1, max_players=12, functions=functions, table=table,
            view=view, profile=profile, calculator=calculator, order=order, scripts=CODEX.scripts, styles=CODEX.styles)
TWELVE = ["Ada", "Bo", "Cy", "Di", "Ed", "Fay", "Gus", "Hal", "Ivy", "Jo", "Kit", "Lu"]


@pytest.fixture
def many(monkeypatch):
    monkeypatch.setitem(games.registry(), CODEX.key, MANY)
    return MANY


def test_twelve_seats_each_take_a_colour_of_their_own(api, many):
    assert len(colours.PALETTE) >= 12
    assert len({c.light for c in colours.PALETTE.values()}) == len({c.dark for c in colours.PALETTE.values()}) == len(colours.PALETTE)
    keys = list(colours.PALETTE)[:12]
    t = api.create("codex", TWELVE, colours=keys)
    assert [p["colour"] for p in api.get(t)["players"]] == keys
    assert colours.swatch("teal")["name"] == "teal"
    with speech.speaking("fr"):
        assert colours.swatch("teal")["name"] != "teal"


def test_the_start_form_of_a_game_of_twelve_seats_folds_the_rows_past_six(client, many):
    said = page(client, "/new/codex")
    assert said.count('name="players[]"') == 12 and "Players (1 to 12)" in said
    shown, folded = said.split('<details class="colour-details more-players">')
    assert shown.count('name="players[]"') == home.ROWS_AT_ONCE and folded.count('name="players[]"') == 12 - home.ROWS_AT_ONCE
    assert "<summary>More players (up to 12)</summary>" in folded
    assert said.count('name="options.colours.0"') == 1 + len(colours.PALETTE)  # none, then every colour


def test_one_name_starts_a_table_of_a_game_from_one_seat(client, api, many):
    answer = client.post("/new/codex", data={"players[]": ["Ada"] + [""] * 11, "options.calculator:bool": "off"})
    assert answer.status_code == 303
    table_id = answer.headers["Location"].split("/t/", 1)[1].split("#")[0]
    with client.application.app_context():
        assert tables.load(get_db(), table_id).names == ["Ada"]


def test_a_refused_name_past_six_opens_the_folded_rows(client, many):
    names = TWELVE[:8] + ["ada"] + [""] * 3  # row 9 is row 1's name again
    answer = client.post("/new/codex", data={"players[]": names, "options.calculator:bool": "off"})
    said = answer.get_data(as_text=True)
    assert answer.status_code == 400 and "more-players" not in said
    assert said.count('aria-invalid="true" autofocus') == 1 and 'value="ada"' in said


@pytest.mark.parametrize("key", [k for k, g in games.registry().items() if g.max_players <= home.ROWS_AT_ONCE])
def test_a_game_of_few_seats_shows_every_row(client, key):
    said = page(client, f"/new/{key}")
    assert "more-players" not in said and said.count('name="players[]"') == games.get(key).max_players


def test_a_game_taking_more_players_than_the_palette_has_colours_fails_as_it_is_registered():
    import pytest

    from companion.games import colours
    from companion.games.base import Game
    from companion.games.codex import calculator, functions, order, profile, table, view

    modules = dict(functions=functions, table=table, view=view, profile=profile, calculator=calculator, order=order)
    Game(key="chess", title="Chess", min_players=1, max_players=len(colours.PALETTE), **modules)
    for low, high in ((0, 2), (3, 2), (1, len(colours.PALETTE) + 1)):
        with pytest.raises(TypeError) as err:
            Game(key="chess", title="Chess", min_players=low, max_players=high, **modules)
        assert f"takes {low} to {high} players" in str(err.value)
