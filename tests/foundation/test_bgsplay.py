"""The .bgsplay file (issue 42): plays as the file BG Stats imports, its routes and who gets them,
the archive's choosing, and the BoardGameGeek ids (the game's, a box profile's).

Every file is decoded as BG Stats reads it (json.loads; every reference resolves; the format's types)
and each of its plays is checked against the push link's document for the same play, decoded from
`bgstats_url`'s `data=`. Plays are finished through the API (tests/foundation/test_plays.py's helpers).
"""

from __future__ import annotations

import json
import re
from urllib.parse import parse_qs, urlsplit

import pytest

from companion import bgsplay, profiles, results
from companion.games.validation import RulesError
from companion.web.bgsplay import MOST_IDS
from companion.web.connection import get_db
from tests.foundation.test_plays import codex_play, gutenberg_play, ok, text
from tests.foundation.test_plays import host, other  # noqa: F401 (fixtures: the host's device, another device without the host key)

STAMP = re.compile(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d")
#: Codex Naturalis on BoardGameGeek (companion/games/codex/__init__.py says where it was verified)
CODEX_BGG = 314503


@pytest.fixture
def plays(api):
    """Gutenberg: Anna and Ben; Codex (tracked, a first player): Anna, Ben, Cleo; Gutenberg: "anna", Dora, Ben."""
    return [gutenberg_play(api, ["Anna", "Ben"], [40, 52]),
            codex_play(api),
            gutenberg_play(api, ["anna", "Dora", "Ben"], [61, 45, 30])]


def result_of(app, table_id: str) -> dict:
    with app.app_context():
        return next(d for d in results.results(get_db()) if d["table"] == table_id)


def pushed(doc: dict) -> dict:
    """The push link's document, decoded from its address as BG Stats' page reads it."""
    return json.loads(parse_qs(urlsplit(doc["bgstats_url"]).query)["data"][0])


def read(answer) -> dict:
    """A .bgsplay download as BG Stats reads it: the answer's headers, then the JSON and its references."""
    assert answer.status_code == 200, answer.get_data(as_text=True)[:300]
    assert answer.mimetype == "application/json" and answer.headers["Cache-Control"] == "no-store"
    assert re.fullmatch(r'attachment; filename="[\w-]+\.bgsplay"', answer.headers["Content-Disposition"])
    file = json.loads(answer.get_data(as_text=True))
    assert list(file) == ["about", "games", "players", "locations", "plays", "userInfo"]
    assert file["about"].startswith("This is a Play file that can be read by Board Game Stats.")
    games = {g["id"]: g for g in file["games"]}
    people = {p["id"]: p for p in file["players"]}
    assert len(games) == len(file["games"]) and len(people) == len(file["players"])
    for g in file["games"]:
        assert isinstance(g["uuid"], str) and isinstance(g["name"], str) and STAMP.fullmatch(g["modificationDate"])
        assert all(isinstance(g[k], bool) for k in ("highestWins", "noPoints", "cooperative", "usesTeams"))
        assert "bggId" not in g or (isinstance(g["bggId"], int) and g["bggId"] > 0)
    for p in file["players"]:
        assert isinstance(p["uuid"], str) and isinstance(p["name"], str) and p["isAnonymous"] is False
    for play in file["plays"]:
        assert play["gameRefId"] in games
        assert all(STAMP.fullmatch(play[k]) for k in ("playDate", "entryDate", "modificationDate"))
        assert play["ignored"] is False and play["usesTeams"] is False and isinstance(play["scoringSetting"], int)
        for s in play["playerScores"]:
            assert s["playerRefId"] in people and isinstance(s["score"], str) and isinstance(s["winner"], bool)
            assert isinstance(s["rank"], int) and isinstance(s["seatOrder"], int)
    return file


def check_against_push(file: dict, play: dict, doc: dict) -> None:
    """One play of the file says what the push link says of the same play."""
    push = pushed(doc)
    games = {g["id"]: g for g in file["games"]}
    people = {p["id"]: p for p in file["players"]}
    game = games[play["gameRefId"]]
    assert game["name"] == push["game"]["name"] and game.get("bggId") == push["game"].get("bggId")
    assert play["playDate"] == push["playDate"] and play.get("durationMin") == push.get("durationMin")
    scores = play["playerScores"]
    # seat order; one entry per player across a set, named as the newest play spells them (results.player_id folds case)
    assert [results.player_id(people[s["playerRefId"]]["name"]) for s in scores] == [p["sourcePlayerId"] for p in push["players"]]
    assert [people[s["playerRefId"]]["uuid"] for s in scores] == [bgsplay._uuid("player", p["sourcePlayerId"])
                                                                  for p in push["players"]]
    assert [s["score"] for s in scores] == [str(p["score"]) for p in push["players"]]
    assert [s["winner"] for s in scores] == [p["winner"] for p in push["players"]]
    assert [s["rank"] for s in scores] == [p["rank"] for p in push["players"]]
    assert [s["seatOrder"] for s in scores] == list(range(1, len(scores) + 1))
    assert [s.get("startPlayer") for s in scores] == [p.get("startPlayer") for p in push["players"]]


# --- one play --------------------------------------------------------------------------------------

def test_a_play_of_the_archive_is_the_push_links_play_in_bg_stats_file(app, host, plays):
    for t in plays:
        doc = result_of(app, t["table"])
        file = read(host.get(f"/plays/{t['table']}.bgsplay"))
        assert len(file["plays"]) == 1 and len(file["games"]) == 1
        check_against_push(file, file["plays"][0], doc)
        assert file["plays"][0]["uuid"] == bgsplay._uuid("play", t["table"])


def test_the_codex_play_carries_its_boardgamegeek_id_its_duration_and_first_player(app, host, plays):
    codex = plays[1]["table"]
    file = read(host.get(f"/plays/{codex}.bgsplay"))
    assert file["games"][0]["bggId"] == CODEX_BGG == pushed(result_of(app, codex))["game"]["bggId"]
    play = file["plays"][0]
    assert isinstance(play["durationMin"], int) and play["durationMin"] >= 1  # tracked from its start
    assert [s["startPlayer"] for s in play["playerScores"]] == [True, False, False]  # first_player=0
    gutenberg = read(host.get(f"/plays/{plays[0]['table']}.bgsplay"))
    assert "bggId" not in gutenberg["games"][0]  # no verified id shipped: BG Stats matches it by name
    assert "durationMin" not in gutenberg["plays"][0]  # a calculator table saw only the end


def test_the_same_play_downloads_as_the_same_file(host, plays):
    first = read(host.get(f"/plays/{plays[1]['table']}.bgsplay"))
    assert first == read(host.get(f"/plays/{plays[1]['table']}.bgsplay")) and first["plays"]


def test_another_device_gets_no_play_it_may_not_see_as_if_it_did_not_exist(app, other, plays, api):
    missing = other.get("/plays/nosuchid.bgsplay")
    assert missing.status_code == 404
    hidden = other.get(f"/plays/{plays[0]['table']}.bgsplay")
    assert hidden.status_code == 404 and text(hidden) == text(missing)
    assert other.get(f"/t/{plays[0]['table']}/play.bgsplay").status_code == 404
    assert other.get(f"/plays/export.bgsplay?id={plays[0]['table']}").status_code == 404
    assert read(other.get("/plays/export.bgsplay"))["plays"] == []  # nothing chosen, nothing it may see
    assert other.get(f"/join/{plays[0]['table']}/{plays[0]['token']}").status_code == 303
    assert len(read(other.get(f"/plays/{plays[0]['table']}.bgsplay"))["plays"]) == 1  # joined: its own


def test_a_deleted_play_is_the_hosts_alone(app, host, other, plays):
    gone = plays[0]
    assert other.get(f"/join/{gone['table']}/{gone['token']}").status_code == 303
    assert host.post(f"/plays/{gone['table']}/delete").status_code == 303
    assert other.get(f"/plays/{gone['table']}.bgsplay").status_code == 404
    assert other.get(f"/plays/export.bgsplay?id={gone['table']}").status_code == 404
    # the table's own link keeps the play only while it is in the archive
    assert other.get(f"/t/{gone['table']}/play.bgsplay").status_code == 404
    assert other.get(f"/t/{gone['table']}/result.png").status_code == 404
    assert len(read(host.get(f"/plays/{gone['table']}.bgsplay"))["plays"]) == 1
    assert read(host.get("/plays/export.bgsplay"))["plays"][0]["uuid"] != bgsplay._uuid("play", gone["table"])


def test_the_tables_own_phones_get_it_once_the_game_is_over(app, client, api):
    t = api.create("gutenberg", ["Anna", "Ben"], calculator=True)
    phone = app.test_client()
    assert phone.get(f"/join/{t['table']}/{t['token']}").status_code == 303
    ok(api.event(t, "sheet", {"player": 0, "fame": 40, "guilders": 3, "patronage_cards": 1, "types": 2, "inks": 1,
                              "specialties": {s: 2 for s in ("typesetting", "woodcutting", "binding", "illuminating")}}))
    assert phone.get(f"/t/{t['table']}/play.bgsplay").status_code == 404  # not over yet
    ok(api.event(t, "sheet", {"player": 1, "fame": 52, "guilders": 3, "patronage_cards": 1, "types": 2, "inks": 1,
                              "specialties": {s: 2 for s in ("typesetting", "woodcutting", "binding", "illuminating")}}))
    file = read(phone.get(f"/t/{t['table']}/play.bgsplay"))
    check_against_push(file, file["plays"][0], result_of(app, t["table"]))
    assert app.test_client().get(f"/t/{t['table']}/play.bgsplay").status_code == 404  # a phone not at the table


# --- a chosen set ----------------------------------------------------------------------------------

def test_a_chosen_set_is_oldest_first_and_a_player_is_one_entry(app, host, plays):
    chosen = [plays[2]["table"], plays[0]["table"]]  # newest first, as the list ticks them
    file = read(host.get("/plays/export.bgsplay", query_string=[("id", i) for i in chosen + chosen[:1]]))
    assert [p["uuid"] for p in file["plays"]] == [bgsplay._uuid("play", plays[0]["table"]),
                                                  bgsplay._uuid("play", plays[2]["table"])]
    for play, t in zip(file["plays"], (plays[0], plays[2])):
        check_against_push(file, play, result_of(app, t["table"]))
    # Anna and "anna" are one BG Stats player (results.player_id folds case), named as the newest play spells it
    assert sorted(p["name"] for p in file["players"]) == ["Ben", "Dora", "anna"]
    assert len(file["games"]) == 1


def test_no_id_gives_the_plays_the_list_shows_as_filtered(app, host, plays):
    every = read(host.get("/plays/export.bgsplay"))
    assert [p["uuid"] for p in every["plays"]] == [bgsplay._uuid("play", t["table"]) for t in plays]
    assert {g["name"] for g in every["games"]} == {"Gutenberg", "Codex Naturalis"}
    codex = read(host.get("/plays/export.bgsplay?game=codex"))
    assert [p["uuid"] for p in codex["plays"]] == [bgsplay._uuid("play", plays[1]["table"])]
    dora = read(host.get("/plays/export.bgsplay?player=Dora"))
    assert [p["uuid"] for p in dora["plays"]] == [bgsplay._uuid("play", plays[2]["table"])]


@pytest.mark.parametrize("query", [
    [("id", "no/such")], [("id", "")], [("id", "a" * 65)], [("id", "<script>")],
    [("id", f"x{i}") for i in range(MOST_IDS + 1)],
])
def test_a_malformed_or_too_long_choice_is_refused_with_a_message(host, plays, query):
    answer = host.get("/plays/export.bgsplay", query_string=query)
    assert answer.status_code == 400 and "Content-Disposition" not in answer.headers
    assert "play" in text(answer)


def test_the_archive_list_lets_a_phone_choose_plays_without_javascript(host, plays):
    page = text(host.get("/plays?game=gutenberg"))
    form = page.split('id="bgsplay-form"')[0].rsplit("<form", 1)[1] + page.split('id="bgsplay-form"')[1].split("</form>")[0]
    assert 'method="get" action="/plays/export.bgsplay"' in form and '<input type="hidden" name="game" value="gutenberg">' in form
    boxes = re.findall(r'<input type="checkbox" name="id" value="([^"]+)" form="bgsplay-form">', page)
    assert boxes == [plays[2]["table"], plays[0]["table"]]
    record = text(host.get(f"/plays/{plays[0]['table']}"))
    assert f'href="/plays/{plays[0]["table"]}.bgsplay" download' in record


# --- the BoardGameGeek id of a box profile ---------------------------------------------------------

def save_profile(client, game: str, form: dict):
    return client.post(f"/profiles/new/{game}", data={"profile_name": "Our box", **form})


def test_a_profiles_boardgamegeek_id_goes_into_the_push_link_and_the_file(app, host, api):
    answer = save_profile(host, "codex", {"bgg_id:int": "424242"})
    assert answer.status_code == 303
    profile_id = int(answer.headers["Location"].rsplit("/", 1)[1])
    assert 'value="424242"' in text(host.get(answer.headers["Location"]))
    t = api.create("codex", ["Anna", "Ben"], calculator=True, profile=profile_id)
    ok(api.event(t, "common_objectives", {"cards": [91, 102]}))
    for seat, row in enumerate(({"placement_points": 21, "secret": 99, "visible": {"quill": 3, "inkwell": 2, "manuscript": 1},
                                 "patterns": {"91": 1}},
                                {"placement_points": 18, "secret": 88, "visible": {"quill": 4}, "patterns": {"91": 1, "88": 2}})):
        ok(api.event(t, "sheet", dict(row, player=seat)))  # test_export.py's rows
    doc = result_of(app, t["table"])
    assert doc["play"]["game"]["bggId"] == 424242 == pushed(doc)["game"]["bggId"]  # the group's edition before ours
    file = read(host.get(f"/plays/{t['table']}.bgsplay"))
    assert file["games"][0]["bggId"] == 424242
    check_against_push(file, file["plays"][0], doc)


@pytest.mark.parametrize("value", ["0", "-3", "abc", "1.5", "99999999999"])
def test_a_wrong_boardgamegeek_id_is_refused_beside_its_field_and_saves_nothing(app, host, value):
    answer = save_profile(host, "galileo", {"bgg_id:int": value})
    assert answer.status_code == 400
    assert 'data-field="bgg_id"' in text(answer) and "BoardGameGeek id" in text(answer)
    with app.app_context():
        assert profiles.list_profiles(get_db()) == []


@pytest.mark.parametrize("value", [0, -1, "314503", 1.0, True, None, 2**31])
def test_a_profile_documents_boardgamegeek_id_is_refused_at_data_bgg_id(value):
    with pytest.raises(RulesError) as refused:
        profiles.check({"game": "voynich", "name": "Box", "data": {"bgg_id": value}})
    assert refused.value.field == "data.bgg_id"
    assert profiles.check({"game": "voynich", "name": "Box", "data": {"bgg_id": 7}})[2] == {"bgg_id": 7}
