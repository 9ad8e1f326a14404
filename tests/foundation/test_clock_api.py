"""The turn clock through the app: the API, the table page's numbers, an undo, the result and its exports.

Every time below is the server's, read back from the event log (`at`): the clock's one time source.
"""

from __future__ import annotations

import csv
import io
import json
import re
import time
from urllib.parse import urlparse

import pytest

from companion import export, results
from companion.games import clock
from companion.web.tables import SERVER_TIME


def ms_at(event: dict) -> int:
    return clock.epoch_ms(event["at"])


def tick(api, t, action, **more):
    response = api.event(t, "clock", {"action": action, **more})
    assert response.status_code == 200, response.get_json()
    return response.get_json()["state"]["clock"]


def refused(api, t, data, type_="clock"):
    before = api.get(t)
    response = api.event(t, type_, data)
    assert response.status_code == 400
    assert api.get(t) == before  # nothing changed
    return response.get_json()


def codex_finished(api, clock_actions=("start", "pass")):
    """Codex, Anna and Ben, played to its end [CN53-55] with the clock's actions along the way."""
    t = api.create("codex", ["Anna", "Ben"])
    api.event(t, "first_player", {"player": 0})
    for action in clock_actions:
        tick(api, t, action)
    for type_, data in [("decks_empty", {"player": 1}), ("turn_played", {}), ("turn_played", {}), ("finish", {})]:
        assert api.event(t, type_, data).status_code == 200
    return t


def test_the_totals_are_the_event_times(api):
    t = api.create("gutenberg", ["Anna", "Tom", "Kate"])
    tick(api, t, "start", seat=1, limit_s=90)
    tick(api, t, "pass")
    c = tick(api, t, "pass", seat=0)
    start, first, second = [ms_at(e) for e in api.events(t)]
    assert c["ms"][1] == first - start and c["ms"][2] == second - first and c["ms"][0] == 0
    assert c["running"] == 0 and c["since"] == second and c["turns"] == [1, 1, 1] and c["limit_s"] == 90
    assert api.events(t)[2]["data"] == {"action": "pass", "seat": 0}


def test_a_pause_keeps_the_time_and_nothing_runs_while_paused(api):
    t = api.create("codex", ["Anna", "Ben"])
    tick(api, t, "start")
    tick(api, t, "pause")
    time.sleep(0.05)  # not timed: only so that the pause has a length the totals must not hold
    tick(api, t, "resume")
    c = tick(api, t, "pass")
    start, pause, resume, done = [ms_at(e) for e in api.events(t)]
    assert c["ms"][0] == (pause - start) + (done - resume)


def test_an_undone_pass_gives_back_the_totals_before_it(api):
    t = api.create("voynich", ["Ana", "Ben"])
    tick(api, t, "start")
    before = tick(api, t, "pass")
    tick(api, t, "pass")
    assert api.undo(t).status_code == 200
    # the log is folded again with each event's stored time: the same totals, the same running turn
    assert api.get(t)["state"]["clock"] == before


def test_refusals_through_the_api(api):
    t = api.create("galileo", ["Luna", "Sol"])
    assert refused(api, t, {"action": "pass"}) == {"error": "start the clock first", "field": "data.action"}
    tick(api, t, "start")
    assert refused(api, t, {"action": "start"})["field"] == "data.action"
    assert refused(api, t, {"action": "pass", "seat": 2})["field"] == "data.seat"
    assert refused(api, t, {"action": "wind"})["field"] == "data.action"
    assert refused(api, t, {"action": "resume"})["error"] == "the clock is not paused"


def test_a_calculator_table_says_it_takes_no_clock(api):
    t = api.create("gutenberg", ["Anna", "Tom"], calculator=True)
    answer = refused(api, t, {"action": "start"})
    assert answer["field"] == "type" and answer["error"].startswith("this table is just the final score")


def test_a_finished_table_takes_no_clock(api):
    t = codex_finished(api, ())
    assert refused(api, t, {"action": "start"}) == {"error": "the game is over: its clock is stopped", "field": "type"}


def test_the_page_says_the_clock_and_the_servers_time(client, api):
    t = api.create("codex", ["Anna", "Ben"])
    client.get(urlparse(t["join_url"]).path)
    page = client.get(f"/t/{t['table']}").get_data(as_text=True)
    assert "Start a turn clock" in page and "data-since" not in page
    tick(api, t, "start", limit_s=60)
    tick(api, t, "pass")
    c = api.get(t)["state"]["clock"]
    before = round(time.time() * 1000)
    response = client.get(f"/t/{t['table']}")
    after = round(time.time() * 1000)
    page = response.get_data(as_text=True)
    # the page (a reload) carries the server's time as drawn, outside the region; the region when Ben's turn began
    served = int(re.search(r'data-server-ms="(\d+)"', page).group(1))
    assert before <= served <= after and before <= int(response.headers[SERVER_TIME]) <= after
    section = re.search(r'<section class="card turn-clock[^>]*>', page).group(0)
    assert f'data-since="{c["since"]}"' in section and 'data-running="1"' in section and 'data-limit-s="60"' in section
    assert f'data-clock-ms="{c["ms"][0]}"' in page and clock.shown(c["ms"][0]) in page
    assert re.search(r'data-clock-ms="0" data-clock-tick', page)  # Ben's time ticks from 0 at data-since
    # a poll's answer says the server's time too
    assert SERVER_TIME in client.get(f"/t/{t['table']}/live", headers={"X-Table-Has": "0"}).headers


def test_the_forms_work_without_javascript(client, api):
    t = api.create("codex", ["Anna", "Ben"])
    client.get(urlparse(t["join_url"]).path)
    form = {"type": "clock", "data.action": "start", "data.limit_s:int": "45"}
    assert client.post(f"/t/{t['table']}/events", data=form).status_code in (200, 303)
    c = api.get(t)["state"]["clock"]
    assert c["running"] == 0 and c["limit_s"] == 45
    client.post(f"/t/{t['table']}/events", data={"type": "clock", "data.action": "pass", "data.seat:int": "1"})
    assert api.get(t)["state"]["clock"]["running"] == 1
    # a refused limit is said beside its field
    answer = client.post(f"/t/{t['table']}/events", data={"type": "clock", "data.action": "limit", "data.limit_s:int": "9999"})
    assert answer.status_code == 400 and "from 0 to 3600" in answer.get_data(as_text=True)


def test_the_result_exports_and_bg_stats_carry_the_clock(app, client, api):
    t = codex_finished(api, ("start", "pass", "pass"))
    state = api.get(t)["state"]
    c = state["clock"]
    log = api.events(t)
    start, pass1, pass2 = [ms_at(e) for e in log if e["type"] == "clock"]
    end = ms_at(log[-1])
    assert c["ms"] == [(pass1 - start) + (end - pass2), pass2 - pass1] and c["turns"] == [2, 1] and c["running"] is None
    doc = api.result(t).get_json()
    assert [(p["time_ms"], p["turns"]) for p in doc["players"]] == [(c["ms"][0], 2), (c["ms"][1], 1)]
    assert doc["play"]["durationMin"] == max(1, round(sum(c["ms"]) / 60_000))
    # the exports, as the archive's downloads and `companion export` write them
    with app.app_context():
        from companion.web.connection import get_db

        docs = results.results(get_db(), newest_first=False)
    assert json.loads(export.to_json(docs))["plays"][0]["players"][0]["time_ms"] == c["ms"][0]
    rows = list(csv.DictReader(io.StringIO(export.to_csv(docs, bom=False))))
    assert [(int(r["time_ms"]), int(r["turns"])) for r in rows] == [(c["ms"][0], 2), (c["ms"][1], 1)]
    # the record in the archive: each player's time and average per turn
    client.get(urlparse(t["join_url"]).path)
    record = client.get(f"/plays/{t['table']}").get_data(as_text=True)
    assert "Turn clock" in record and clock.shown(c["ms"][0]) in record and clock.shown(c["ms"][0] // 2) in record


def test_a_play_without_a_clock_keeps_its_shape(api, app):
    t = codex_finished(api, ())
    doc = api.result(t).get_json()
    assert all("time_ms" not in p and "turns" not in p for p in doc["players"])
    assert "time_ms" not in export.to_csv([doc], bom=False).splitlines()[0]


@pytest.mark.slow
def test_a_server_restart_keeps_the_clock_and_says_its_time_again(tmp_path):
    from tests.conftest import Server

    server = Server(data=tmp_path / "srv").start()
    try:
        t = server.api("/api/v1/tables", {"game": "gutenberg", "players": ["Anna", "Tom"]})
        path = f"/api/v1/tables/{t['table']}"
        for version, action in enumerate(("start", "pass"), 1):
            server.api(path + "/events", {"type": "clock", "data": {"action": action}, "expected_version": version - 1},
                       t["token"])
        before = server.api(path, token=t["token"])["state"]["clock"]
        server.kill()  # no chance to flush anything
        server.start()
        # the clock is what the log says: the same running turn, since the same server time
        assert server.api(path, token=t["token"])["state"]["clock"] == before
        sent = round(time.time() * 1000)
        status, headers, body = server.send("GET", urlparse(t["join_url"]).path)
        status, headers, body = server.send("GET", f"/t/{t['table']}", headers={"Cookie": headers["Set-Cookie"].split(";")[0]})
        got = round(time.time() * 1000)
        assert status == 200 and sent <= int(headers[SERVER_TIME]) <= got
        served = int(re.search(r'data-server-ms="(\d+)"', body.decode()).group(1))
        assert sent <= served <= got and f'data-since="{before["since"]}"'.encode() in body
    finally:
        server.stop()


def test_a_solo_voynich_record_shows_the_clock_of_the_human_alone(app, api):
    """Voynich has a result but no seat at the clock: the record's clock lists the human alone (found in
    review: the record answered 500). The state is what a solo table that ran a clock keeps at its end."""
    from companion import tables
    from companion.web.connection import get_db
    from tests.foundation.test_plays import host_client
    from tests.voynich.test_result import SPACES, ZERO, row

    rows = [row(0, 38, (14, 21, 9, 6), (5, 4), {**ZERO, "astrology": [2, 1], "baths": [1, 0]}),
            row(1, 30, (11, 19, 16, 8), (), {**ZERO, "botany": [1, 2], "recipes": [0, 1]}, {"right": ["baths", "astrology"]},
                difficulty="extremely_hard", tokens_on_board=3)]
    t = api.create("voynich", ["Ana"], calculator=True)
    for type_, data in (("track", {"scoring_spaces": SPACES}), ("sheet", rows[1]), ("sheet", rows[0])):
        assert api.event(t, type_, data).status_code == 200
    with app.app_context():
        db = get_db()
        state = dict(tables.load(db, t["table"]).state, clock={"ms": [65000], "turns": [3], "running": None, "since": None,
                                                               "turn_ms": 0, "paused": False, "limit_s": None})
        db.execute("UPDATE tables SET state = ? WHERE id = ?", [json.dumps(state), t["table"]])
    page = host_client(app).get(f"/plays/{t['table']}")
    assert page.status_code == 200
    clock_rows = re.findall(r'<tr data-name="([^"]+)"><th scope="row"><bdi>[^<]*</bdi></th><td class="clock-total">([^<]+)<',
                            page.get_data(as_text=True))
    assert clock_rows == [("Ana", "1:05")]
