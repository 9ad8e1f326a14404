"""A page per player through the real app (issue 41): `/players`, `/players/NAME`, their JSON, the
links from the archive, the host's merges and deleted plays, and who sees what (the archive's rights).

Plays are finished through the API as tests/foundation/test_plays.py finishes them; every number a
page should show is computed by companion/players.py from `results.results`, and checked by hand in
tests/foundation/test_players.py.
"""

from __future__ import annotations

import json
import re
from urllib.parse import quote

import pytest

from companion import players, results
from companion.web.connection import get_db
from companion.web.players import HOST_ONLY, NO_PLAYER
from tests.foundation.test_plays import codex_play, esc, gutenberg_play, host_client, listed, text
from tests.foundation.test_plays import host, other  # noqa: F401 (fixtures: the host's device, another device without the host key)


@pytest.fixture
def plays(api):
    """Gutenberg: Anna beats Ben; Codex: Anna, Ben, Cleo; Gutenberg: "ánna", Dora and Ben."""
    return [gutenberg_play(api, ["Anna", "Ben"], [40, 52]),
            codex_play(api),
            gutenberg_play(api, ["ánna", "Dora", "Ben"], [61, 45, 30])]


def expected(app, name: str) -> dict:
    with app.app_context():
        db = get_db()
        docs = results.results(db)
        return players.player(docs, name, players.merges(db, docs))


def merges_stored(app) -> list:
    with app.app_context():
        return get_db().execute("SELECT from_key, into_key, undone_at FROM player_merges").fetchall()


def join(client, t: dict) -> None:
    assert client.get(f"/join/{t['table']}/{t['token']}").status_code == 303


# --- the pages -------------------------------------------------------------------------------------

def test_the_host_sees_everyone_and_each_players_numbers(app, host, plays):
    page = text(host.get("/players"))
    assert [k for k in ("anna", "ben", "cleo", "dora")] == sorted(set(page.split('data-key="')[i].split('"')[0]
                                                                      for i in range(1, 5)))
    anna = expected(app, "Anna")
    assert anna["plays"] == 3 and anna["name"] == "ánna"  # the latest spelling
    page = text(host.get("/players/ANNA"))
    assert f"<bdi>{esc(anna['name'])}</bdi>" in page
    for g in anna["games"]:
        row = page.split(f'<tr data-game="{g["game"]}">')[1].split("</tr>")[0]
        assert f"<td>{g['plays']}</td><td>{g['wins']}</td>" in row and f"<td>{g['best']}</td>" in row
    for p in anna["latest"]:
        assert f'href="/plays/{p["table"]}"' in page
    h2h = page.split('id="h2h"')[1]
    for h in anna["opponents"]:
        row = h2h.split(f'<tr data-key="{h["key"]}">')[1].split("</tr>")[0]
        assert f"<td>{h['plays']}</td><td>{h['wins']}</td><td>{h['losses']}</td><td>{h['shared']}</td>" in row
    # a name with an accent, in any case, in the address finds the same page
    assert host.get("/players/" + quote("ÁNNA")).status_code == 200


def test_every_name_in_the_archive_links_to_its_players_page(app, host, plays):
    anna = "/players/" + quote("ánna")
    page = text(host.get("/plays"))
    assert f'href="{anna}"' in page and 'href="/players/Ben"' in page
    assert f'href="{anna}"' in text(host.get(f"/plays/{plays[2]['table']}"))
    assert 'href="/players/Dora"' in text(host.get("/plays/stats"))
    assert 'href="/players"' in page  # the archive's tabs lead to the list of players


def test_the_json_is_the_same_numbers(app, host, plays):
    listed_ = host.get("/api/v1/players").get_json()["players"]
    assert [p["key"] for p in listed_] == ["anna", "ben", "cleo", "dora"]  # three plays each, then by name
    assert host.get("/api/v1/players/" + quote("Ánna")).get_json() == expected(app, "Anna")
    missing = host.get("/api/v1/players/Eve")
    assert missing.status_code == 404 and missing.get_json() == {"error": "no player of that name here", "field": "$"}


# --- who sees what ---------------------------------------------------------------------------------

def test_a_device_that_joined_nothing_sees_no_player(app, other, plays):
    assert 'data-key="' not in text(other.get("/players"))
    nobody = other.get("/players/Nobody")
    assert nobody.status_code == 404 and esc(NO_PLAYER) in text(nobody)
    for name in ("Anna", "Ben", "Dora"):
        assert other.get(f"/players/{name}").data == nobody.data  # exactly like a name nobody has
        assert other.get(f"/api/v1/players/{name}").status_code == 404
    assert other.get("/api/v1/players").get_json() == {"players": []}


def test_a_device_sees_the_players_of_the_tables_it_joined_counted_there_alone(app, other, plays):
    join(other, plays[0])
    when = other.get("/api/v1/players/Ben").get_json()["latest"][0]["finished_at"]
    assert other.get("/api/v1/players").get_json()["players"] == [  # one play each: by name
        {"name": "Anna", "key": "anna", "plays": 1, "wins": 0, "win_rate": 0.0, "games": ["gutenberg"],
         "titles": [{"game": "gutenberg", "title": "Gutenberg"}], "latest": when},
        {"name": "Ben", "key": "ben", "plays": 1, "wins": 1, "win_rate": 1.0, "games": ["gutenberg"],
         "titles": [{"game": "gutenberg", "title": "Gutenberg"}], "latest": when}]
    assert other.get("/players/Dora").status_code == 404
    assert [p["table"] for p in other.get("/api/v1/players/Anna").get_json()["latest"]] == [plays[0]["table"]]


# --- merges ----------------------------------------------------------------------------------------

def test_the_host_merges_two_names_and_undoes_it(app, host, plays):
    answer = host.post("/players/merge", data={"name": "Dora", "other": "Cleo"})
    assert answer.status_code == 303 and answer.headers["Location"] == "/players/Dora"
    dora = expected(app, "Dora")
    assert dora["plays"] == 2 and expected(app, "Cleo") == dora
    page = text(host.get("/players/Dora"))
    assert "<bdi>Cleo</bdi> merged here" in page
    # the archive's filter follows the merge (the stats too: tests/foundation/test_players.py)
    assert len(listed(text(host.get("/plays?player=dora")))) == 2
    (merge_id,) = [row[0] for row in get_ids(app)]
    assert host.post("/players/unmerge", data={"name": "Dora", "merge": merge_id}).status_code == 303
    assert expected(app, "Dora")["plays"] == 1 and expected(app, "Cleo")["plays"] == 1
    assert [row[2] is not None for row in merges_stored(app)] == [True]  # kept, undone


def get_ids(app) -> list:
    with app.app_context():
        return get_db().execute("SELECT id FROM player_merges").fetchall()


def test_a_merge_or_an_undo_by_another_device_is_refused_and_changes_nothing(app, host, other, plays):
    join(other, plays[1])
    answer = other.post("/players/merge", data={"name": "Anna", "other": "Cleo"})
    assert answer.status_code == 403 and esc(HOST_ONLY) in text(answer)
    assert merges_stored(app) == []
    host.post("/players/merge", data={"name": "Dora", "other": "Cleo"})
    (merge_id,) = [row[0] for row in get_ids(app)]
    assert other.post("/players/unmerge", data={"name": "Dora", "merge": merge_id}).status_code == 403
    assert merges_stored(app)[0][2] is None  # still in force
    assert 'id="merge-form"' not in text(other.get("/players/Cleo"))
    assert other.post(f"/plays/{plays[1]['table']}/delete").status_code == 404  # as a play it may not see: no table told apart
    assert listed(text(other.get("/plays"))) == [plays[1]["table"]]


@pytest.mark.parametrize("form, field", [
    ({"name": "Anna", "other": "Ben"}, "other"),    # they sat at one table
    ({"name": "Anna", "other": "ANNA"}, "other"),   # the same player already
    ({"name": "Anna", "other": "Eve"}, "other"),    # nobody called Eve
    ({"name": "Anna", "other": ""}, "other"),
    ({"name": "Anna"}, "other"),
])
def test_a_merge_that_cannot_be_says_why_beside_its_field(app, host, plays, form, field):
    answer = host.post("/players/merge", data=form)
    assert answer.status_code == 400
    page = text(answer)
    assert f'data-field="{field}"' in page and 'aria-invalid="true"' in page
    assert merges_stored(app) == []


@pytest.mark.parametrize("form", [{"name": "Anna", "merge": "x"}, {"name": "Anna", "merge": "99"}, {"name": "Anna"},
                                  {"merge": "1"}, {"name": "Eve", "merge": "1"}])
def test_an_undo_of_no_merge_is_refused_never_a_crash(app, host, plays, form):
    answer = host.post("/players/unmerge", data=form)
    assert answer.status_code in (400, 404)
    if answer.status_code == 400:
        assert 'data-field="merge"' in text(answer)


@pytest.mark.parametrize("path", ["/players/%ZZ", "/players/" + "a" * 5000, "/players/..%2F..", "/players/%ED%A0%80",
                                  "/players/%00", "/players/a%2Fb", "/api/v1/players/%ED%A0%80", "/api/v1/players/" + "b" * 5000,
                                  "/players/%F0%9F%98%80?x=%ZZ"])
def test_odd_names_in_the_address_answer_404_never_500(host, plays, path):
    assert host.get(path).status_code == 404


def test_a_merge_with_an_odd_name_is_refused_never_500(app, host, plays):
    for form in ({"name": "Anna", "other": "x" * 10_000}, {"name": "", "other": ""}, {"name": "Anna", "other": "\x00"}):
        assert host.post("/players/merge", data=form).status_code in (400, 404)
    for raw in (b"name=%ED%A0%80&other=Ben", b"name=Anna&other=%FF%FE", b"name=Anna&other=Cleo&other=Dora%"):
        answer = host.post("/players/merge", data=raw, content_type="application/x-www-form-urlencoded")
        assert answer.status_code in (303, 400, 404)
    assert merges_stored(app) == []


# --- a deleted play --------------------------------------------------------------------------------

def test_the_host_deletes_a_play_from_its_record_and_restores_it(app, host, other, plays):
    gone = plays[1]["table"]
    join(other, plays[1])
    assert "Delete this play" in text(host.get(f"/plays/{gone}"))
    answer = host.post(f"/plays/{gone}/delete")
    assert answer.status_code == 303 and answer.headers["Location"] == "/plays#deleted-plays"
    page = text(host.get("/plays"))
    assert gone not in listed(page) and f'<li data-table="{gone}">' in page.split('id="deleted-plays"')[1]
    assert host.get("/players/Cleo").status_code == 404  # Cleo played only there
    assert expected(app, "Anna")["plays"] == 2
    assert 'data-game="codex"' not in text(host.get("/plays/stats"))
    assert gone not in [d["table"] for d in json.loads(host.get("/plays/export.json").data)["plays"]]
    # the device that joined it sees it nowhere, its record neither; the host sees the record, to restore it
    assert listed(text(other.get("/plays"))) == [] and other.get(f"/plays/{gone}").status_code == 404
    assert "Restore this play" in text(host.get(f"/plays/{gone}"))
    assert host.post(f"/plays/{gone}/restore").status_code == 303
    assert gone in listed(text(host.get("/plays"))) and other.get(f"/plays/{gone}").status_code == 200
    assert expected(app, "Cleo")["plays"] == 1


def test_deleting_a_play_that_is_none_answers_404(host, api):
    t = api.create("gutenberg", ["Anna", "Ben"], calculator=True)  # not over: no play yet
    assert host.post(f"/plays/{t['table']}/delete").status_code == 404
    assert host.post("/plays/nosuchid/delete").status_code == 404


# --- every language --------------------------------------------------------------------------------

@pytest.mark.parametrize("lang", ["fr", "de", "pl", "es", "it"])
def test_a_players_page_speaks_the_phones_language(host, plays, lang):
    from tests.foundation.test_pages_language import page, said

    shown = page(host, "/players/Anna", lang)
    for sentence in ("Per game", "Latest plays", "Head to head", "The same person under another name", "Merge the names"):
        assert said(lang, sentence) in shown
    assert said(lang, "Players") in page(host, "/players", lang)
    assert said(lang, "Delete this play") in page(host, f"/plays/{plays[0]['table']}", lang)


def test_a_finished_tables_result_links_each_players_page(app, api):
    """Every result names its players with a way to their pages (issue 41: "from ... every result")."""
    t = gutenberg_play(api, ["Anna", "Bén"], [40, 52])
    phone = app.test_client()
    phone.set_cookie(f"tc_{t['table']}", t["token"])
    page = phone.get(f"/t/{t['table']}").get_data(as_text=True)
    links = re.findall(r'<p class="player-links">.*?</p>', page, re.S)
    assert links, "no players' links beside the finished result"
    assert 'href="/players/Anna"' in links[0] and 'href="/players/B%C3%A9n"' in links[0]
    # and the link opens the page for this device, which sat at the table
    assert phone.get("/players/B%C3%A9n").status_code == 200


# --- found in review (issue 41) --------------------------------------------------------------------

def test_unmerge_with_a_huge_id_is_refused_not_a_500(app, api):
    gutenberg_play(api, ["Anna", "Ben"], [40, 52])
    host = host_client(app)
    assert host.post("/players/unmerge", data={"name": "Anna", "merge": "9" * 40}).status_code == 400


def test_two_people_at_one_table_stay_two_players_whose_names_fold_alike(app, api):
    """A table takes "Lukasz" and "Łukasz" as two people: the folding that finds "Lukasz" typed for
    "Łukasz" elsewhere never makes them one, and neither play nor loss is lost."""
    t = gutenberg_play(api, ["Lukasz", "Łukasz"], [40, 52])
    gutenberg_play(api, ["Łukasz", "Ann"], [61, 45])
    everyone = {p["name"]: p for p in host_client(app).get("/api/v1/players").get_json()["players"]}
    assert {name: (p["plays"], p["wins"]) for name, p in everyone.items()} == {"Łukasz": (2, 2), "Lukasz": (1, 0), "Ann": (1, 0)}
    lukasz = host_client(app).get("/api/v1/players/Lukasz").get_json()
    assert [p["table"] for p in lukasz["latest"]] == [t["table"]]


def test_a_merge_shows_no_device_a_name_from_plays_it_may_not_see(app, api):
    seen = gutenberg_play(api, ["Bob", "Ann"], [40, 52])
    gutenberg_play(api, ["Robert Secret", "Zed"], [40, 52])
    assert host_client(app).post("/players/merge", data={"name": "Robert Secret", "other": "Bob"}).status_code == 303
    device = app.test_client()
    device.get("/" + seen["join_url"].split("://", 1)[1].split("/", 1)[1])
    assert "secret" not in json.dumps(device.get("/api/v1/players").get_json()).casefold()
    assert device.get("/api/v1/players/robert%20secret").status_code == 404
    assert device.get("/api/v1/players/Bob").get_json()["name"] == "Bob"
    # the host sees the two as one player
    assert host_client(app).get("/api/v1/players/Bob").get_json()["plays"] == 2


def test_a_players_link_is_no_path_a_browser_folds(app, api):
    """WHATWG URL parsing (every browser) turns /players/.. into / and /players/a/../b into /players/b."""
    gutenberg_play(api, ["..", "a/../b"], [40, 52])
    host = host_client(app)
    hrefs = re.findall(r'href="(/players[^"]*)"', host.get("/players").get_data(as_text=True))
    assert "/players?name=.." in hrefs and "/players/a%2F..%2Fb" in hrefs, hrefs
    assert not any(re.search(r"(^|/)(\.|%2e){1,2}(/|$)", h, re.I) for h in hrefs), hrefs
    for href in ("/players?name=..", "/players/a%2F..%2Fb"):
        assert host.get(href).status_code == 200, href


def test_a_name_told_apart_is_no_other_names_key(app, api):
    """Lukasz and Łukasz sat at one table: each is told apart by his own spelling, which is never the
    key of a name someone typed ("=Lukasz" was, and took Lukasz's plays: second review)."""
    gutenberg_play(api, ["Lukasz", "Łukasz"], [40, 52])
    gutenberg_play(api, ["=Lukasz", "Ann"], [61, 45])
    everyone = {p["name"]: p["plays"] for p in host_client(app).get("/api/v1/players").get_json()["players"]}
    assert everyone == {"Lukasz": 1, "Łukasz": 1, "=Lukasz": 1, "Ann": 1}


def test_the_hosts_merge_of_a_name_told_apart_is_said_by_its_name(app, api):
    gutenberg_play(api, ["Lukasz", "Łukasz"], [40, 52])
    gutenberg_play(api, ["Luke", "Ann"], [61, 45])
    host = host_client(app)
    assert host.post("/players/merge", data={"name": "Luke", "other": "Lukasz"}).status_code == 303
    assert host.get("/api/v1/players/Luke").get_json()["plays"] == 2
    page = host.get("/players/Luke").get_data(as_text=True)
    merged = re.search(r'<ul class="player-merged">(.*?)</ul>', page, re.S).group(1)
    assert "<bdi>Lukasz</bdi> merged here" in merged and "lukasz" not in merged  # the name, not the key it is kept under


def test_a_name_starting_with_a_slash_links_to_its_own_page(app, api):
    """/players/%2Fx reaches the app as /players//x, which werkzeug folds into /players/x: another player."""
    gutenberg_play(api, ["/x", "x"], [40, 52])
    host = host_client(app)
    hrefs = re.findall(r'href="(/players[^"]*)"', host.get("/players").get_data(as_text=True))
    slash = next(h for h in hrefs if "x" in h and h != "/players/x")
    page = host.get(slash.replace("&amp;", "&"), follow_redirects=False)
    assert page.status_code == 200 and "<bdi>/x</bdi>" in page.get_data(as_text=True).split("<h1", 1)[1][:300]
