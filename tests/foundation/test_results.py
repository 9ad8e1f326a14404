"""A finished table's result, in one shape for every game (issue 12; CONTRACT.md "results").

The per-game tests (tests/GAME/test_result.py) play each game to its end; these check what
companion/results.py adds for all of them: the 409 before the end, finished_at, the BG Stats
play decoded from its URL field by field, the share text, and the end screen's card.
"""

import json
import sqlite3
from datetime import datetime, timedelta, timezone
from urllib.parse import parse_qs, urlsplit

import pytest

from companion import db as database, results
from companion.games import get

GUTENBERG = get("gutenberg")
SPECIALTIES = ("typesetting", "woodcutting", "binding", "illuminating")
NAMES = ["Tom", "Anna"]
#: Tom and Anna tie on points; Tom holds fewer types and wins the tie [GB307]
ROWS = [
    {"fame": 93, "guilders": 6, "specialties": dict(zip(SPECIALTIES, (2, 2, 2, 2))), "patronage_cards": 2,
     "types": 3, "inks": 1},
    {"fame": 93, "guilders": 6, "specialties": dict(zip(SPECIALTIES, (2, 2, 2, 2))), "patronage_cards": 2,
     "types": 5, "inks": 1},
]


def score(rows=ROWS, names=NAMES):
    """The contract's `score` function on the values typed in: the result must be exactly this."""
    return GUTENBERG.functions["score"].run({"players": [dict(r, name=n) for n, r in zip(names, rows)], "solo": False})


def finish(api, rows=ROWS, names=NAMES):
    t = api.create("gutenberg", names, calculator=True)
    for i, r in enumerate(rows):
        assert api.event(t, "sheet", dict(r, player=i)).status_code == 200
    return t


def get_result(api, t, token=None):
    return api.client.get(f"/api/v1/tables/{t['table']}/result", headers={"X-Table-Token": token or t["token"]})


def decoded(url: str) -> dict:
    assert url.startswith(results.BGSTATS_URL)
    query = parse_qs(urlsplit(url).query, strict_parsing=True)
    assert list(query) == ["data"] and len(query["data"]) == 1
    return json.loads(query["data"][0])


def test_the_result_is_a_409_naming_the_table_until_the_game_is_over(api):
    t = api.create("gutenberg", NAMES, calculator=True)
    answer = get_result(api, t)
    assert answer.status_code == 409
    assert answer.get_json()["field"] == "table" and "not over" in answer.get_json()["error"]
    assert api.event(t, "sheet", dict(ROWS[0], player=0)).status_code == 200
    assert get_result(api, t).status_code == 409
    assert api.event(t, "sheet", dict(ROWS[1], player=1)).status_code == 200
    assert get_result(api, t).status_code == 200


def test_a_wrong_secret_is_a_404_like_a_missing_table(api):
    t = finish(api)
    wrong = get_result(api, t, token="not-the-secret")
    missing = api.client.get("/api/v1/tables/nosuchtable/result", headers={"X-Table-Token": t["token"]})
    assert wrong.status_code == missing.status_code == 404
    assert wrong.get_json() == missing.get_json()


def test_the_result_is_the_score_functions_in_seat_order(api):
    t = finish(api)
    doc = get_result(api, t).get_json()
    expected = score()
    assert set(doc) >= {"table", "game", "finished_at", "players", "winners", "play", "bgstats_url"}
    assert doc["table"] == t["table"] and doc["game"] == "gutenberg"
    assert [p["name"] for p in doc["players"]] == NAMES
    for mine, theirs in zip(doc["players"], expected["players"]):
        assert mine == {"name": theirs["name"], "total": theirs["total"], "breakdown": theirs["breakdown"],
                        "place": expected["places"][theirs["name"]]}
    assert doc["winners"] == expected["winners"]


def test_finished_at_is_the_time_of_the_event_that_ended_the_game(api):
    t = finish(api)
    doc = get_result(api, t).get_json()
    last = api.events(t)[-1]
    assert doc["finished_at"] == results.iso_seconds(last["at"])
    assert len(doc["finished_at"]) == len("2026-12-03T21:14:05Z") and doc["finished_at"].endswith("Z")


def test_a_corrected_row_keeps_finished_at_and_an_undo_reopens_the_game(api, app):
    t = finish(api)
    first = get_result(api, t).get_json()["finished_at"]
    ended = api.events(t)[-1]["at"]
    assert api.event(t, "sheet", dict(ROWS[1], player=1, types=6)).status_code == 200  # a correction
    assert _finished_at(app, t) == ended and get_result(api, t).get_json()["finished_at"] == first
    assert api.undo(t).status_code == 200  # takes back the correction: still over
    assert _finished_at(app, t) == ended
    assert api.undo(t).status_code == 200  # takes back Anna's row: the game is open again
    assert _finished_at(app, t) is None and get_result(api, t).status_code == 409
    assert api.event(t, "sheet", dict(ROWS[1], player=1)).status_code == 200
    again = _finished_at(app, t)
    assert again is not None and again == api.events(t)[-1]["at"] and again > ended


def _finished_at(app, t):
    conn = sqlite3.connect(app.config["DATABASE"])
    try:
        return conn.execute("SELECT finished_at FROM tables WHERE id = ?", [t["table"]]).fetchone()[0]
    finally:
        conn.close()


def test_the_bgstats_url_decodes_to_the_play_and_every_field_matches_the_result(api):
    t = finish(api)
    doc = get_result(api, t).get_json()
    play = decoded(doc["bgstats_url"])
    assert play == doc["play"]
    assert play["sourceName"] == "Table Companion"
    assert play["sourcePlayId"] == t["table"]
    finished = datetime.strptime(doc["finished_at"], "%Y-%m-%dT%H:%M:%SZ")
    assert play["playDate"] == finished.strftime("%Y-%m-%d %H:%M:%S")
    assert "durationMin" not in play  # a calculator table did not see the game
    assert play["game"] == {"name": "Gutenberg", "sourceGameId": "gutenberg", "highestWins": True, "noPoints": False}
    assert "bggId" not in play["game"]  # no verified BoardGameGeek id ships for Gutenberg (issue 42: Codex alone)
    assert [p["name"] for p in play["players"]] == NAMES
    for player, entry in zip(play["players"], doc["players"]):
        assert player["score"] == entry["total"]
        assert player["rank"] == entry["place"]
        assert player["winner"] is (entry["name"] in doc["winners"])
        assert player["sourcePlayerId"] == results.player_id(entry["name"])
        assert "startPlayer" not in player  # a calculator table does not know who started
    assert sum(p["winner"] for p in play["players"]) == len(doc["winners"]) == 1


def test_a_player_keeps_one_source_id_across_tables_and_spellings():
    assert results.player_id("Tom") == results.player_id("TOM") == results.player_id(" tom ")
    assert results.player_id("Zoë") == results.player_id("Zoe\u0308")  # composed or not
    assert results.player_id("Tom") != results.player_id("Anna")


def test_a_tracked_table_gives_its_duration_in_minutes(api, app):
    t = finish(api)
    conn = sqlite3.connect(app.config["DATABASE"])
    try:
        ended = conn.execute("SELECT finished_at FROM tables WHERE id = ?", [t["table"]]).fetchone()[0]
        start = datetime.fromisoformat(ended.replace("Z", "+00:00")) - timedelta(minutes=94, seconds=40)
        # the same table as if it had tracked the game from a start 94 min 40 s before its end
        options = json.loads(conn.execute("SELECT options FROM tables WHERE id = ?", [t["table"]]).fetchone()[0])
        options.pop("calculator")
        conn.execute("UPDATE tables SET created = ?, options = ? WHERE id = ?",
                     [start.isoformat(timespec="milliseconds").replace("+00:00", "Z"), json.dumps(options), t["table"]])
        conn.commit()
    finally:
        conn.close()
    assert get_result(api, t).get_json()["play"]["durationMin"] == 95


def test_the_share_text_names_the_game_the_day_the_scores_and_the_tie_break(api, app):
    t = finish(api)
    doc = get_result(api, t).get_json()
    with app.app_context():
        from companion.web.connection import get_db
        from companion import tables

        table = tables.load(get_db(), t["table"])
    day = datetime.strptime(doc["finished_at"], "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=timezone.utc).astimezone()
    total = score()["players"][0]["total"]
    # each name between U+2068 and U+2069, the plain-text <bdi> (a chat has no HTML)
    assert results.share_text(table, doc) == (f"Gutenberg, {day.day} {day:%b}: \u2068Tom\u2069 {total}, \u2068Anna\u2069 {total}. "
                                               "\u2068Tom\u2069 wins on fewer types")


@pytest.mark.parametrize("zone", ["Pacific/Kiritimati", "Pacific/Pago_Pago"])
def test_the_text_and_the_image_shared_together_say_the_same_day(api, app, monkeypatch, zone):
    """Share hands the image and the text together: both say the day in the server's time, as the
    record does, whatever hour of the UTC day the game ended (UTC+14 and UTC-11: one of the two is
    always on another day than UTC)."""
    import time

    from companion import result_image

    monkeypatch.setenv("TZ", zone)
    time.tzset()
    try:
        t = finish(api)
        doc = get_result(api, t).get_json()
        with app.app_context():
            from companion.web.connection import get_db
            from companion import tables

            table = tables.load(get_db(), t["table"])
        local = datetime.strptime(doc["finished_at"], "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=timezone.utc).astimezone()
        assert results.share_text(table, doc).startswith(f"Gutenberg, {local.day} {local:%b}:")
        assert result_image.file_name(table) == f"gutenberg-{local:%Y-%m-%d-%H%M}.png"
    finally:
        monkeypatch.undo()
        time.tzset()


def test_tables_finished_before_the_archive_existed_take_their_last_change_as_finished_at(tmp_path):
    path = tmp_path / "old.db"
    conn = sqlite3.connect(path)
    conn.executescript(database.MIGRATIONS[0][1])
    conn.execute("CREATE TABLE _migrations (name TEXT PRIMARY KEY, applied TEXT NOT NULL)")
    conn.execute("INSERT INTO _migrations VALUES (?, datetime('now'))", [database.MIGRATIONS[0][0]])
    for tid, finished in (("done", True), ("open", False)):
        conn.execute("INSERT INTO tables VALUES (?, 'h', 'gutenberg', '[]', '[]', '{}', '{}', 1, 3, ?, ?, ?)",
                     [tid, json.dumps({"finished": finished}), "2026-01-01T10:00:00.000Z", f"2026-01-0{2 if finished else 3}T11:00:00.000Z"])
    conn.commit()
    conn.close()
    applied = database.migrate(path)
    assert applied[:3] == ["0002_finished_at_settings", "0003_write_ids", "0004_regions"]
    assert applied == [name for name, _ in database.MIGRATIONS[1:]]
    conn = sqlite3.connect(path)
    rows = dict(conn.execute("SELECT id, finished_at FROM tables").fetchall())
    conn.close()
    assert rows == {"done": "2026-01-02T11:00:00.000Z", "open": None}


def test_the_end_screen_offers_bgstats_and_the_text_once_the_game_is_over(client, api):
    t = api.create("gutenberg", NAMES, calculator=True)
    path = "/" + t["join_url"].split("//", 1)[1].split("/", 1)[1]
    table_page = client.get(path).headers["Location"]
    assert "Log in BG Stats" not in client.get(table_page).get_data(as_text=True)
    for i, r in enumerate(ROWS):
        assert api.event(t, "sheet", dict(r, player=i)).status_code == 200
    page = client.get(table_page).get_data(as_text=True)
    doc = get_result(api, t).get_json()
    assert "Log in BG Stats" in page
    assert f'href="{doc["bgstats_url"]}"' in page  # percent-encoded throughout: nothing for HTML to escape
    assert "<bdi>Tom</bdi> wins on fewer types" in page and "Share result" in page


@pytest.mark.parametrize("bad", ["x" * 5000, "%00", "%F0%9F%8E%B2"])
def test_odd_table_ids_get_the_404_not_a_500(api, bad):
    answer = api.client.get(f"/api/v1/tables/{bad}/result", headers={"X-Table-Token": "t"})
    assert answer.status_code == 404 and answer.get_json() == {"error": "no such table", "field": "$"}
