"""The plays archive (issue 12): the list, a play's record with its chart, the stats, who sees what,
and the downloads.

Plays are finished through the API: Gutenberg calculator tables (one `sheet` per player) and a
tracked Codex game (`points` events, then `finish`), whose running score gives a real chart.
Every number the pages should show is computed here from `results.results` / `results.series`,
never written into the test.
"""

from __future__ import annotations

import csv
import io
import json
import re
import sqlite3
import time

import pytest
from markupsafe import escape

from companion import charts, results, stats, tables
from companion.web.connection import get_db
from companion.web.plays import HOST_COOKIE, KEY_IN_ADDRESS, NO_KEY, NO_PLAY, WRONG_KEY

OTHER = {"REMOTE_ADDR": "192.168.1.23"}
#: where a request comes from when a reverse proxy on the same machine hands it on (issue 27)
PROXIED = ("127.0.0.1", "127.8.9.10", "::1", "::ffff:127.0.0.1")
SPECIALTIES = ("typesetting", "woodcutting", "binding", "illuminating")


def sheet(player: int, fame: int, guilders: int = 3) -> dict:
    return {"player": player, "fame": fame, "guilders": guilders, "patronage_cards": 1, "types": 2, "inks": 1,
            "specialties": {s: 2 for s in SPECIALTIES}}


def ok(response):
    assert response.status_code == 200, response.get_json()
    return response.get_json()


def gutenberg_play(api, names, fames) -> dict:
    """A Gutenberg calculator table, finished once every row is in."""
    t = api.create("gutenberg", list(names), calculator=True)
    for seat, fame in enumerate(fames):
        state = ok(api.event(t, "sheet", sheet(seat, fame)))["state"]
    assert state["finished"]
    time.sleep(0.003)  # finished_at has milliseconds: keep the plays' order unambiguous
    return t


CODEX_POINTS = [(0, 3), (1, 5), (2, 2), (0, 4), (1, 1), (2, 7), (0, 13)]


def codex_play(api, names=("Anna", "Ben", "Cleo"), points=CODEX_POINTS) -> dict:
    """A tracked Codex game: points on the score track, then the objectives counted (finish)."""
    t = api.create("codex", list(names), first_player=0)
    for seat, delta in points:
        state = ok(api.event(t, "points", {"player": seat, "delta": delta}))["state"]
    for _ in state["end"]["turns"]:  # [CN54] the last turns, then the objectives [CN55]
        ok(api.event(t, "turn_played"))
    assert ok(api.event(t, "finish"))["state"]["finished"]
    time.sleep(0.003)
    return t


def all_results(app, **kw) -> list[dict]:
    with app.app_context():
        return results.results(get_db(), **kw)


def esc(value: str) -> str:
    """A text as the pages write it (Jinja's escaping)."""
    return str(escape(value))


def listed(page: str) -> list[str]:
    """The table ids of the list's entries, in the page's order."""
    return re.findall(r'class="card play-entry" href="[^"]+" data-table="([^"]+)"', page)


def text(response) -> str:
    return response.get_data(as_text=True)


def host_key(app) -> str:
    from companion import hostkey

    with app.app_context():
        return hostkey.host_key(get_db())


def host_client(app):
    """The host's own browser: a test client that opened the host-key link `companion serve` prints
    (issue 27: an address, loopback included, grants nothing)."""
    browser = app.test_client()
    assert give_key(browser, host_key(app)).status_code == 303
    return browser


def give_key(client, key: str):
    """What the page does with the host-key link's fragment (static/js/hostkey.js): post the key in a form's body."""
    return client.post("/plays/key", data={"key": key})


@pytest.fixture
def client(app):
    """The host's own browser (host_client)."""
    return host_client(app)


@pytest.fixture
def host(app):
    """The host's own browser, where a test's `client` is another one (test_bgsplay.py, test_players_web.py)."""
    return host_client(app)


@pytest.fixture
def other(app):
    """Another device on the network: the same app through its own client, from a LAN address."""
    client = app.test_client()
    client.environ_base.update(OTHER)
    return client


@pytest.fixture
def plays(api):
    """Three finished plays, oldest first, and one table still being played."""
    made = [gutenberg_play(api, ["Anna", "Ben"], [40, 52]),
            codex_play(api),
            gutenberg_play(api, ["anna", "Dora", "Ben"], [61, 45, 30])]
    api.create("gutenberg", ["Anna", "Ben"], calculator=True)  # not over: never listed
    return made


# --- the list --------------------------------------------------------------------------------------

def test_the_list_shows_finished_tables_newest_first_with_totals_and_winners(app, client, plays):
    page = text(client.get("/plays"))
    docs = all_results(app)
    assert listed(page) == [d["table"] for d in docs] == [t["table"] for t in reversed(plays)]
    entries = page.split('class="card play-entry"')[1:]
    for doc, entry in zip(docs, entries):
        for p in doc["players"]:
            assert f"<bdi>{esc(p['name'])}</bdi> <strong>{p['total']}</strong>" in entry
        assert ", ".join(f"<bdi>{esc(w)}</bdi>" for w in doc["winners"]) in entry
        assert re.search(r'class="play-player won" href="/players/[^"]+"><bdi>([^<]+)</bdi> <strong>', entry).group(1) in doc["winners"]
    assert page.count("Gutenberg</strong>") == 2 and page.count("Codex Naturalis</strong>") == 1


def test_each_entry_opens_its_record(app, client, plays):
    page = text(client.get("/plays"))
    for table_id in listed(page):
        assert f'href="/plays/{table_id}"' in page
        assert client.get(f"/plays/{table_id}").status_code == 200


def test_filters_by_game_and_by_player_name_in_any_case(app, client, plays):
    codex = [d["table"] for d in all_results(app, game="codex")]
    assert listed(text(client.get("/plays?game=codex"))) == codex
    with_anna = [d["table"] for d in all_results(app) if any(p["name"].lower() == "anna" for p in d["players"])]
    assert len(with_anna) == 3
    for spelling in ("anna", "ANNA", " Anna "):
        assert listed(text(client.get("/plays", query_string={"player": spelling}))) == with_anna
    dora = listed(text(client.get("/plays?player=dora&game=gutenberg")))
    assert dora == [plays[2]["table"]]
    assert listed(text(client.get("/plays?player=Dora&game=codex"))) == []


def test_the_filters_stay_in_the_query_string(client, plays):
    page = text(client.get("/plays?game=gutenberg&player=Ben"))
    assert '<form class="card plays-filter" method="get" action="/plays"' in page
    assert '<option value="gutenberg" selected>' in page and 'name="player" value="Ben"' in page
    # the stats tab and the downloads keep them
    assert 'href="/plays/stats?game=gutenberg&amp;player=Ben"' in page
    assert 'href="/plays/export.csv?game=gutenberg&amp;player=Ben"' in page


def test_an_unknown_game_in_the_filter_says_so_and_lists_every_game(app, client, plays):
    answer = client.get("/plays?game=chess")
    assert answer.status_code == 400
    assert "There is no game called &#39;chess&#39; here" in text(answer)
    assert listed(text(answer)) == [d["table"] for d in all_results(app)]


def test_the_start_page_links_to_the_archive(client):
    assert 'href="/plays">Past plays and stats</a>' in text(client.get("/"))


def test_empty_states_say_what_to_do(client, other, api):
    assert "Finish a game and it appears here" in text(client.get("/plays"))
    assert "Finish a game and its stats appear here" in text(client.get("/plays/stats"))
    gutenberg_play(api, ["Anna", "Ben"], [40, 50])
    page = text(client.get("/plays?player=Zed"))
    assert "No plays with <bdi>Zed</bdi> here" in page and listed(page) == []
    assert "Finish a game and it appears here" in text(other.get("/plays"))  # another device, nothing joined
    assert "host-key link" in text(other.get("/plays"))


# --- a play's record -------------------------------------------------------------------------------

def test_the_record_shows_places_totals_breakdown_and_the_verdict(app, client, plays):
    doc = all_results(app)[0]
    page = text(client.get(f"/plays/{doc['table']}"))
    assert esc(doc["verdict"]) in page
    places = re.findall(r'<li data-name="([^"]+)"><span class="place">(\d+)\w+</span> <a class="name" href="/players/[^"]+"><bdi>[^<]+</bdi></a>\s*'
                        r'<strong class="total">(-?\d+)</strong>', page)
    ranked = sorted(doc["players"], key=lambda p: p["place"])
    assert places == [(p["name"], str(p["place"]), str(p["total"])) for p in ranked]
    # each player's breakdown under their line, as the score function gives it
    lines = page.split('class="play-places"')[1].split("</ol>")[0].split("<li ")[1:]
    for p, line in zip(ranked, lines):
        parts = re.findall(r'<span class="part" data-key="([^"]+)">[^<]+ <strong>(-?\d+)</strong>', line)
        assert parts == [(k, str(v)) for k, v in p["breakdown"].items()] and parts


def test_the_record_charts_each_players_running_score_from_the_event_log(app, client, plays):
    t = plays[1]  # the tracked Codex game
    with app.app_context():
        table = tables.load(get_db(), t["table"])
        series = results.series(get_db(), table)
    scores = [point["scores"] for point in series]
    assert len(scores) == len(CODEX_POINTS) + 1  # the start, then every change of score
    page = text(client.get(f"/plays/{t['table']}"))
    lines = re.findall(r'<polyline class="chart-series s(\d)"[^>]*points="([^"]+)"', page)
    assert [int(s) for s, _ in lines] == [0, 1, 2]
    drawn = [[tuple(map(float, xy.split(","))) for xy in points.split()] for _, points in lines]
    assert drawn == [[(round(x, 1), round(y, 1)) for x, y in line] for line in charts.positions(scores)]
    # higher scores are drawn higher at every change, equal ones level
    for i, row in enumerate(scores):
        for a in range(3):
            for b in range(3):
                if row[a] > row[b]:
                    assert drawn[a][i][1] < drawn[b][i][1]
                elif row[a] == row[b]:
                    assert drawn[a][i][1] == drawn[b][i][1]
    # a legend with names and each one's last running score, not colour alone
    legend = re.findall(r'<span class="name"><bdi>([^<]+)</bdi></span> <strong>(-?\d+)</strong></li>', page)
    assert legend == [(name, str(score)) for name, score in zip(table.names, scores[-1])]
    assert 'role="img" aria-label="Codex Naturalis: each player&#x27;s points on the score track over the game"' in page
    assert "<script" not in page.split("<main>")[1]


def test_a_calculator_record_says_it_has_no_chart(client, plays):
    page = text(client.get(f"/plays/{plays[0]['table']}"))
    assert "just the final score: it kept no score during the game" in page
    assert "<polyline" not in page and 'class="chart chart-line"' not in page


def test_the_record_holds_the_whole_history_and_links_to_the_table(app, client, plays):
    t = plays[1]
    with app.app_context():
        table = tables.load(get_db(), t["table"])
        history = tables.history(table, tables.events(get_db(), table.id))
    page = text(client.get(f"/plays/{t['table']}"))
    section = page.split('id="history"')[1].split("</details>")[0]
    # each line as the history writes it, its names in <bdi> (companion/games/sentence.py)
    assert re.findall(r"<li[^>]*><span>(.*?)</span>", section) == [esc(line["text"]) for line in history]
    assert f"History ({len(history)} events)" in page
    # the live table page is linked for a device that holds the table's cookie
    assert f'href="/t/{t["table"]}"' not in page
    client.get(f"/join/{t['table']}/{t['token']}")
    assert f'href="/t/{t["table"]}"' in text(client.get(f"/plays/{t['table']}"))


def test_a_table_not_over_has_no_record(api, client):
    t = api.create("gutenberg", ["Anna", "Ben"], calculator=True)
    answer = client.get(f"/plays/{t['table']}")
    assert answer.status_code == 404 and answer.data == client.get("/plays/nosuchid").data


# --- stats -----------------------------------------------------------------------------------------

def expected_stats(docs: list[dict]) -> dict:
    """Each game's plays and each player's numbers, counted here from the result documents (newest first)."""
    out: dict = {}
    for doc in reversed(docs):  # oldest first: the last seen is the latest
        game = out.setdefault(doc["game"], {"plays": 0, "players": {}})
        game["plays"] += 1
        for p in doc["players"]:
            who = game["players"].setdefault(p["name"].casefold(), {"totals": [], "wins": 0})
            who["totals"].append(p["total"])
            who["wins"] += p["name"] in doc["winners"]
            who["name"] = p["name"]
    return out


def test_stats_per_game_count_plays_wins_best_average_and_latest(app, client, api, plays):
    gutenberg_play(api, ["Ben", "Anna"], [70, 20])
    page = text(client.get("/plays/stats"))
    expected = expected_stats(all_results(app))
    for key, game in expected.items():
        section = page.split(f'data-game="{key}"')[1].split("</section>")[0]
        assert f"{game['plays']} play" in section
        rows = re.findall(r'<tr data-name="([^"]+)"><td><a href="/players/[^"]+"><bdi>[^<]+</bdi></a></td><td>(\d+)</td><td>(\d+)</td><td>(-?\d+)</td>'
                          r'<td>(-?[\d.]+)</td><td>(-?\d+)</td></tr>', section)
        assert len(rows) == len(game["players"])
        for name, n, wins, best, average, latest in rows:
            who = game["players"][name.casefold()]
            assert name == who["name"]  # the latest play's spelling
            assert (int(n), int(wins), int(best), float(average), int(latest)) == (
                len(who["totals"]), who["wins"], max(who["totals"]), round(sum(who["totals"]) / len(who["totals"]), 1),
                who["totals"][-1])
        # the chart: one bar per player, as long as the wins
        bars = re.findall(r'<g data-name="([^"]+)" data-value="(\d+)">', section)
        assert sorted(bars) == sorted((p["name"], str(p["wins"])) for p in game["players"].values())
    # "anna" and "Anna" are one player at Gutenberg
    assert len(expected["gutenberg"]["players"]) == 3


def test_stats_follow_the_filters(app, client, plays):
    page = text(client.get("/plays/stats?game=codex"))
    assert 'data-game="codex"' in page and 'data-game="gutenberg"' not in page
    page = text(client.get("/plays/stats?player=dora"))
    assert 'data-game="gutenberg"' in page and 'data-game="codex"' not in page
    assert ">1 play<" in page


def test_per_game_orders_players_by_wins_and_averages_to_one_decimal():
    docs = [{"table": "a", "game": "g", "finished_at": "2026-01-01T10:00:00Z", "winners": ["Ben"],
             "players": [{"name": "Ann", "total": 10}, {"name": "Ben", "total": 11}]},
            {"table": "b", "game": "g", "finished_at": "2026-01-02T10:00:00Z", "winners": ["Ben"],
             "players": [{"name": "ann", "total": 13}, {"name": "Ben", "total": 14}]},
            {"table": "c", "game": "g", "finished_at": "2026-01-03T10:00:00Z", "winners": ["ANN"],
             "players": [{"name": "ANN", "total": 12}, {"name": "Ben", "total": 3}]}]
    (game,) = stats.per_game(docs)
    assert game["plays"] == 3
    assert game["players"] == [
        {"name": "Ben", "plays": 3, "wins": 2, "best": 14, "latest": 3, "average": round(28 / 3, 1)},
        {"name": "ANN", "plays": 3, "wins": 1, "best": 13, "latest": 12, "average": round(35 / 3, 1)}]


# --- who sees what ---------------------------------------------------------------------------------

@pytest.mark.parametrize("address", PROXIED)
def test_no_address_is_the_host_not_even_loopback(app, plays, address):
    """Behind a reverse proxy on the same machine every request comes from loopback (issue 27):
    without the key it sees no play, no record, no backup and no download of any play."""
    stranger = app.test_client()
    stranger.environ_base["REMOTE_ADDR"] = address
    page = text(stranger.get("/plays"))
    assert listed(page) == [] and "Download a backup" not in page and 'href="/plays/backup"' not in page
    for t in plays:
        assert stranger.get(f"/plays/{t['table']}").data == stranger.get("/plays/nosuchid").data
    assert 'data-game="' not in text(stranger.get("/plays/stats"))
    assert json.loads(stranger.get("/plays/export.json").data) == {"plays": []}
    assert list(csv.reader(io.StringIO(stranger.get("/plays/export.csv").get_data(as_text=True).lstrip("\ufeff"))))[1:] == []
    assert stranger.get("/plays/backup").status_code == 404


def test_the_hosts_own_browser_sees_every_play_once_it_opened_the_key_link(app, client, plays):
    every = [d["table"] for d in all_results(app)]
    for address in PROXIED:
        assert listed(text(client.get("/plays", environ_base={"REMOTE_ADDR": address}))) == every
    assert client.get("/plays/backup").status_code == 200


def test_another_device_sees_nothing_it_did_not_join(app, other, plays):
    page = text(other.get("/plays"))
    assert listed(page) == [] and "Download a backup" not in page
    missing = other.get("/plays/nosuchid")
    for t in plays:
        answer = other.get(f"/plays/{t['table']}")
        assert answer.status_code == 404
        assert answer.data == missing.data  # exactly like a play that does not exist
    assert NO_PLAY in text(missing)
    assert 'data-game="' not in text(other.get("/plays/stats"))
    assert json.loads(other.get("/plays/export.json").data) == {"plays": []}
    assert other.get("/plays/backup").status_code == 404


def test_another_device_sees_the_plays_of_the_tables_it_joined(app, other, plays):
    joined = plays[1]
    assert other.get(f"/join/{joined['table']}/{joined['token']}").status_code == 303
    assert listed(text(other.get("/plays"))) == [joined["table"]]
    assert other.get(f"/plays/{joined['table']}").status_code == 200
    assert other.get(f"/plays/{plays[0]['table']}").data == other.get("/plays/nosuchid").data
    assert [d["table"] for d in json.loads(other.get("/plays/export.json").data)["plays"]] == [joined["table"]]
    assert 'data-game="codex"' in text(other.get("/plays/stats")) and 'data-game="gutenberg"' not in text(other.get("/plays/stats"))
    assert other.get("/plays/backup").status_code == 404
    # a forged cookie for another table opens nothing
    other.set_cookie(f"tc_{plays[0]['table']}", joined["token"])
    assert listed(text(other.get("/plays"))) == [joined["table"]]


def test_the_host_key_posted_shows_another_device_every_play(app, other, plays):
    key = host_key(app)
    answer = give_key(other, key)
    assert answer.status_code == 303
    assert answer.headers["Location"] == "/plays"  # the key never was in an address
    cookie = answer.headers["Set-Cookie"]
    assert cookie.startswith(f"{HOST_COOKIE}={key};") and "HttpOnly" in cookie and "SameSite=Lax" in cookie
    assert "Secure" not in cookie  # plain HTTP, no public HTTPS address: a Secure cookie would not come back
    assert int(re.search(r"Max-Age=(\d+)", cookie).group(1)) >= 60 * 60 * 24 * 300
    assert listed(text(other.get("/plays"))) == [d["table"] for d in all_results(app)]
    assert other.get(f"/plays/{plays[0]['table']}").status_code == 200
    assert "Download a backup" in text(other.get("/plays"))
    assert other.get("/plays/backup").status_code == 200


def test_a_host_key_in_the_address_is_refused_for_proxies_log_it(app, other, plays):
    """The old link, /plays?key=KEY: the request line that carried the key is in a log by now, so it
    grants nothing and says what to do instead; the page offers the form, and never shows the key."""
    key = host_key(app)
    answer = other.get("/plays", query_string={"key": key, "game": "gutenberg"})
    assert answer.status_code == 400 and "Set-Cookie" not in answer.headers
    page = text(answer)
    assert esc(KEY_IN_ADDRESS) in page and key not in page
    assert 'id="host-key-form"' in page and 'action="/plays/key"' in page
    assert listed(text(other.get("/plays"))) == []


def test_a_wrong_host_key_changes_nothing_and_says_so(app, other, plays):
    key = host_key(app)
    for wrong in ("nope", key[:-1], key + "x", "", "  "):
        answer = give_key(other, wrong)
        assert answer.status_code == (403 if wrong.strip() else 400)
        assert esc(WRONG_KEY if wrong.strip() else NO_KEY) in text(answer)
        form = text(answer).split('id="host-key-form"')[1].split("</form>")[0]
        assert 'aria-describedby="host-key-error"' in form and "value=" not in form  # said beside the field, never echoed
        assert "Set-Cookie" not in answer.headers
        assert listed(text(answer)) == []
    assert listed(text(other.get("/plays"))) == []
    other.set_cookie(HOST_COOKIE, "nope")  # a cookie holding a wrong key is no key either
    assert listed(text(other.get("/plays"))) == []


def test_the_archive_is_never_cached(client, plays):
    for url in ("/plays", "/plays/stats", f"/plays/{plays[0]['table']}", "/plays/nosuchid", "/plays/export.json"):
        answer = client.get(url)
        assert answer.headers["Cache-Control"] == "no-store", url
        assert "Cookie" in answer.headers["Vary"], url


# --- downloads -------------------------------------------------------------------------------------

def test_the_json_download_is_the_visible_plays_oldest_first(app, client, plays):
    answer = client.get("/plays/export.json")
    assert answer.status_code == 200 and answer.mimetype == "application/json"
    assert re.fullmatch(r'attachment; filename="plays-\d{4}-\d\d-\d\d\.json"', answer.headers["Content-Disposition"])
    assert json.loads(answer.data) == {"plays": all_results(app, newest_first=False)}
    filtered = json.loads(client.get("/plays/export.json?game=codex").data)
    assert filtered == {"plays": all_results(app, game="codex", newest_first=False)}


def test_the_csv_download_has_a_row_per_player_and_play(app, client, plays):
    answer = client.get("/plays/export.csv")
    assert answer.status_code == 200 and answer.mimetype == "text/csv"
    assert answer.headers["Content-Disposition"].startswith('attachment; filename="plays-')
    assert answer.data.startswith("\ufeff".encode())  # a UTF-8 byte-order mark, for Excel (issue 27)
    rows = list(csv.DictReader(io.StringIO(answer.data.decode("utf-8-sig"))))
    from tests.foundation.test_export import as_text

    expected = [(as_text(d["table"]), as_text(p["name"]), str(p["total"]), str(p["place"]), "true" if p["name"] in d["winners"] else "false")
                for d in all_results(app, newest_first=False) for p in d["players"]]
    assert [(r["table"], r["player"], r["total"], r["place"], r["winner"]) for r in rows] == expected


def test_the_host_downloads_a_backup_that_holds_every_table(app, client, plays, tmp_path):
    page = text(client.get("/plays"))
    assert 'href="/plays/backup"' in page
    answer = client.get("/plays/backup")
    assert answer.status_code == 200
    # the download says it carries the host key: in its file's name, and beside its button
    assert re.fullmatch(r'attachment; filename=companion-backup-\d{4}-\d\d-\d\d-host-key-inside\.db', answer.headers["Content-Disposition"])
    assert 'aria-describedby="backup-carries-key"' in page and "The file carries the host key" in page
    copy = tmp_path / "copy.db"
    copy.write_bytes(answer.data)
    with sqlite3.connect(copy) as db:
        found = {row[0] for row in db.execute("SELECT id FROM tables")}
    assert {t["table"] for t in plays} <= found and len(found) == 4


def test_the_chart_says_the_end_adds_scoring_only_where_the_final_totals_are_more_than_its_last_values(app, host):
    """Gutenberg's final tallies add fame after the last change the chart shows; a score pad's totals are its
    last values (found by a newcomer: its record said the totals added an end of game scoring it has none of)."""
    from tests.examples import examples
    from tests.conftest import Api

    api = Api(host)
    t = examples("gutenberg").play_tracked_to_the_end(app, api)
    doc = api.result(t).get_json()
    with app.app_context():
        last = results.series(get_db(), tables.load(get_db(), t["table"]))[-1]["scores"]
    assert [p["total"] for p in doc["players"]] != last[:len(doc["players"])]  # the example's end scoring adds
    page = text(host.get(f"/plays/{t['table']}"))
    assert "from the start to the end" in page and "The final totals add the end of game scoring." in page
