"""Galileo's Truth through the app: the JSON API, the table page and its forms, the box profile."""

import html
import json
import sqlite3
import re
from urllib.parse import urlparse

from werkzeug.datastructures import MultiDict

from .test_table import PROFILE

TRACK = PROFILE["suspicion_track"]


def join(client, t):
    """Open the table's join address as a phone would (sets the table's cookie)."""
    response = client.get(urlparse(t["join_url"]).path)
    assert response.status_code == 303
    return f"/t/{t['table']}"


def post_form(client, t, type_, fields, screen=None, htmx=True):
    """Post an event the way the panel's forms do (forms.py naming)."""
    form = MultiDict([("type", type_), ("expected_version:int", str(current_version(client, t)))] + list(fields))
    if screen:
        form.add("screen", screen)
    headers = {"HX-Request": "true"} if htmx else {}
    return client.post(f"/t/{t['table']}/events", data=form, headers=headers)


def current_version(client, t):
    return client.get(f"/api/v1/tables/{t['table']}", headers={"X-Table-Token": t["token"]}).get_json()["version"]


def test_suspicion_rules_function_over_http(api):
    doc = {"track": {"penance": [3, 6, 9], "prison": 11, "stake": 14},
           "state": {"position": 1, "penance_taken": [False, False, False], "arrested": False, "at_stake": False},
           "delta": 3}
    response = api.rules("galileo", "suspicion", doc)
    assert response.status_code == 200
    assert response.get_json() == {"state": {"position": 4, "penance_taken": [True, False, False], "arrested": False, "at_stake": False},
                                   "events": ["penance_1"]}
    doc["delta"] = 2.5
    response = api.rules("galileo", "suspicion", doc)
    assert response.status_code == 400 and response.get_json()["field"] == "delta"


def test_score_rules_function_over_http(api):
    cathedral = {"copernican": {"free": 15, "prison": 10, "stake": 5}, "ptolemaic": {"free": 10, "prison": 5, "stake": -1}}
    player = {"name": "Luna", "vp": 80, "principle": "copernican", "status": "free", "suspicion": 0, "penance_vp": [3],
              "inventions_vp": 6, "mentor_vp": 5, "end_losses": 0, "turn_order": 1}
    response = api.rules("galileo", "score", {"cathedral": cathedral, "players": [player]})
    assert response.status_code == 400
    assert response.get_json()["field"] == "cathedral.ptolemaic.stake"
    cathedral["ptolemaic"]["stake"] = 0
    result = api.rules("galileo", "score", {"cathedral": cathedral, "players": [player]}).get_json()
    assert result["players"][0]["total"] == 80 + 15 + 6 + 5 - 3 and result["winners"] == ["Luna"]


def test_table_through_the_api_needs_the_track_then_plays(api):
    t = api.create("galileo", ["Meg", "Luna"])
    response = api.event(t, "suspicion", {"player": 0, "delta": 1})
    assert response.status_code == 400 and response.get_json()["field"] == "type"
    assert api.event(t, "board", {"suspicion_track": TRACK}).status_code == 200
    response = api.event(t, "suspicion", {"player": 1, "delta": 11})
    assert response.status_code == 200
    state = response.get_json()["state"]
    assert state["players"][1]["suspicion"]["arrested"] is True
    assert any("Prison" in n for n in state["notices"])
    # an invalid change: 400, nothing stored
    version = api.get(t)["version"]
    response = api.event(t, "suspicion", {"player": 1, "delta": "3"})
    assert response.status_code == 400 and response.get_json()["field"] == "data.delta"
    assert api.get(t)["version"] == version
    # undo takes the arrest back
    assert api.undo(t).status_code == 200
    assert api.get(t)["state"]["players"][1]["suspicion"]["arrested"] is False


def test_table_options_are_checked(client):
    response = client.post("/api/v1/tables", json={"game": "galileo", "players": ["A", "B"], "passing_order": "sideways"})
    assert response.status_code == 400 and response.get_json()["field"] == "passing_order"
    response = client.post("/api/v1/tables", json={"game": "galileo", "players": ["A"]})
    assert response.status_code == 400


def save_profile(client, **overrides):
    fields = [("profile_name", "Our box"),
              ("suspicion_track.length:int", str(TRACK["length"]))]
    fields += [("suspicion_track.penance[]:int", str(k)) for k in TRACK["penance"]]
    fields += [("suspicion_track.prison:int", str(TRACK["prison"])), ("suspicion_track.stake:int", str(TRACK["stake"])),
               ("tiles.back:int", "3"), ("tiles.spaces[]:int", "20"), ("tiles.spaces[]:int", "40"), ("tiles.spaces[]:int", "")]
    for principle, row in PROFILE["cathedral"].items():
        fields += [(f"cathedral.{principle}.{status}:int", str(vp)) for status, vp in row.items()]
    fields += [("penance_cards.vp[]:int", str(v)) for v in PROFILE["penance_cards"]["vp"]]
    fields += [("penance_cards.coins[]:int", str(v)) for v in PROFILE["penance_cards"]["coins"]]
    # the prohibition section left blank, as an untouched form sends it
    fields += [(f"prohibition_suspicion.{c}.{p}:int", "") for c in "235" for p in ("copernican", "ptolemaic")]
    form = MultiDict(fields)
    for key, value in overrides.items():
        form.setlist(key, [value])
    return client.post("/profiles/new/galileo", data=form)


def test_box_profile_form_saves_and_a_table_starts_with_it(client, api):
    form_page = client.get("/profiles/new/galileo")
    assert form_page.status_code == 200 and b"Penance II after space" in form_page.data
    response = save_profile(client)
    assert response.status_code == 303, response.data.decode()[:2000]
    profile_id = int(re.search(r"/profiles/(\d+)", response.headers["Location"]).group(1))
    t = api.create("galileo", ["Meg", "Luna", "Dan"], profile=profile_id)
    board = t["state"]["board"]
    assert board["suspicion_track"] == TRACK
    assert board["tiles"] == {"back": 3, "spaces": [20, 40]}
    assert "prohibition_suspicion" not in board
    assert len(t["state"]["tiles"]) == 2


def test_box_profile_with_an_icon_beyond_the_track_is_refused(client):
    response = save_profile(client, **{"suspicion_track.stake:int": "19"})
    assert response.status_code == 400
    page = response.data.decode()
    assert "must be a whole number from 1 to 18" in page and 'data-field="suspicion_track.stake"' in page
    assert "Our box" not in client.get("/profiles/").data.decode()


def test_table_page_shows_the_turn_and_posts_events_by_form(client, api):
    t = api.create("galileo", ["Meg", "Luna"])
    page_url = join(client, t)
    page = client.get(page_url).data.decode()
    assert "Before you play: the suspicion track" in page
    fields = [("data.suspicion_track.length:int", "20")] + [("data.suspicion_track.penance[]:int", str(k)) for k in (3, 6, 9)]
    fields += [("data.suspicion_track.prison:int", "11"), ("data.suspicion_track.stake:int", "14")]
    response = post_form(client, t, "board", fields)
    assert response.status_code == 200
    fragment = response.data.decode()
    assert "<!doctype" not in fragment.lower() and "<bdi>Meg</bdi>'s turn" in fragment
    # a Main Action by its button: data values are JSON
    response = post_form(client, t, "action", [("data.player:json", "0"), ("data.action:json", '"treatise"')])
    assert response.status_code == 200 and "<bdi>Luna</bdi>'s turn" in response.data.decode()
    # a bad amount shows beside the field and changes nothing
    version = current_version(client, t)
    response = post_form(client, t, "suspicion", [("data.player:int", "1"), ("data.delta:int", "x")])
    assert response.status_code == 400
    assert 'data-field="data.delta"' in response.data.decode()
    assert current_version(client, t) == version
    # without htmx: a redirect back to the table
    response = post_form(client, t, "suspicion", [("data.player:int", "1"), ("data.delta:int", "11")], htmx=False)
    assert response.status_code == 303
    page = client.get(page_url).data.decode()
    assert "arrested: your Natural Philosopher goes to Prison" in page
    assert "In Prison" in page


def test_board_values_form_with_a_negative_cathedral_value(client, api):
    t = api.create("galileo", ["Meg", "Luna"])
    join(client, t)
    api.event(t, "board", {"suspicion_track": TRACK})
    fields = [(f"data.cathedral.{p}.{s}:int", "5") for p in ("copernican", "ptolemaic") for s in ("free", "prison", "stake")]
    fields[2] = ("data.cathedral.copernican.stake:int", "-1")
    response = post_form(client, t, "board", fields)
    assert response.status_code == 400
    assert 'data-field="data.cathedral.copernican.stake"' in response.data.decode()
    assert "cathedral" not in api.get(t)["state"]["board"]


def play_to_final(api, t, players):
    for cycle in range(1, 6):
        state = api.get(t)["state"]
        if state["phase"] == "income":
            assert api.event(t, "income_done").status_code == 200
        for p in api.get(t)["state"]["order"]:
            assert api.event(t, "pass", {"player": p}).status_code == 200
        if cycle in (2, 3, 5):
            assert api.event(t, "prohibition", {"limit": 5, "counts": [0] * players}).status_code == 200
        assert api.event(t, "next_cycle").status_code == 200


def test_end_screen_shows_the_scores_and_the_tie_break(client, api):
    t = api.create("galileo", ["Meg", "Luna"])
    join(client, t)
    api.event(t, "board", {"suspicion_track": TRACK, "cathedral": PROFILE["cathedral"]})
    play_to_final(api, t, 2)
    end_url = f"/t/{t['table']}?screen=end"
    assert "Still needed" in client.get(end_url).data.decode()
    for p in (0, 1):
        api.event(t, "final", {"player": p, "inventions_vp": 0, "mentor_vp": 0, "end_losses": 0})
    page = client.get(end_url).data.decode()
    # all equal: the earliest in turn order wins; everyone passed in one round each cycle, so
    # the literal reading reverses the order every cycle: Luna is first after Cycle 5
    assert "Winner: <bdi>Luna</bdi>" in page
    # both free Copernicans: 0 VP + 15 status + 0 rank (equal status gives no rank)
    assert 'data-total="Luna">15<' in page and 'data-total="Meg">15<' in page
    assert "Current turn order track after the End of Cycle 5: <bdi>Luna</bdi>, <bdi>Meg</bdi>" in page
    assert "During Cycle 5 the order was <bdi>Meg</bdi>, <bdi>Luna</bdi>: by that order the winner would be <bdi>Meg</bdi>" in page


def test_new_table_form_takes_the_readings(client, api):
    page = client.get("/new/galileo").data.decode()
    assert 'name="options.passing_order"' in page and 'name="options.stake_overshoot"' in page
    form = MultiDict([("players[]", "Meg"), ("players[]", "Luna"), ("options.passing_order", "first_passer_first"),
                      ("options.stake_overshoot", "continue"), ("profile:int", "")])
    response = client.post("/new/galileo", data=form)
    assert response.status_code == 303
    table_id = response.headers["Location"].rsplit("/", 1)[-1]
    page = client.get(f"/t/{table_id}").data.decode()
    assert "to the right" in page  # the passing reading in force is shown
    form.setlist("options.passing_order", ["sideways"])
    response = client.post("/new/galileo", data=form)
    assert response.status_code == 400
    assert 'data-field="options.passing_order"' in response.data.decode()


def test_luna_at_11_under_the_inquisition_is_refused_her_philosopher_over_the_api(client, api):
    # Issue 27, finding 13: the Inquisition's +1 [GT398] would arrest her figure [GT164], which is
    # then not available [GT531] (RULES.md GAL-C13): 400 on data.action, nothing stored
    t = api.create("galileo", ["Meg", "Luna"])
    assert api.event(t, "board", {"suspicion_track": TRACK}).status_code == 200
    assert api.event(t, "pass", {"player": 0}).status_code == 200
    assert api.event(t, "action", {"player": 1, "action": "treatise"}).status_code == 200
    state = api.get(t)["state"]
    assert state["inquisition"] is True  # Meg passed, Luna did not
    assert api.event(t, "suspicion", {"player": 1, "delta": 10}).status_code == 200
    version = api.get(t)["version"]
    response = api.event(t, "action", {"player": 1, "action": "philosopher"})
    assert response.status_code == 400
    body = response.get_json()
    assert body["field"] == "data.action" and "Prison" in body["error"]
    assert api.get(t)["version"] == version
    # the page names the reason and offers no philosopher button for her
    page = client.get(join(client, t)).data.decode()
    assert "Natural Philosopher: would go to Prison" in page
    note = re.search(r"Natural Philosopher: would go to Prison[^<]*", page).group(0)
    assert note.count(":") == 1, note  # not "...: would go to Prison: the ..."
    assert '"action": "philosopher"' not in page and "&#34;philosopher&#34;" not in page


def test_penance_icons_out_of_order_are_refused_over_http_and_nothing_is_stored(api):
    # [GT99][GT158] icon I gives card I, then II, then III: [6, 3, 9] would give card II first
    doc = {"track": {"penance": [6, 3, 9], "prison": 11, "stake": 14},
           "state": {"position": 1, "penance_taken": [False, False, False], "arrested": False, "at_stake": False}, "delta": 4}
    response = api.rules("galileo", "suspicion", doc)
    assert response.status_code == 400 and response.get_json()["field"] == "track.penance[1]"
    t = api.create("galileo", ["Meg", "Luna"])
    version = api.get(t)["version"]
    response = api.event(t, "board", {"suspicion_track": dict(TRACK, penance=[6, 3, 9])})
    assert response.status_code == 400 and response.get_json()["field"] == "data.suspicion_track.penance[1]"
    assert "order of their cards" in response.get_json()["error"]
    assert api.get(t)["version"] == version
    assert api.event(t, "board", {"suspicion_track": TRACK}).status_code == 200


def test_the_board_form_with_penance_icons_out_of_order_says_which_and_stores_nothing(client, api):
    t = api.create("galileo", ["Meg", "Luna"])
    join(client, t)
    version = current_version(client, t)
    fields = [("data.suspicion_track.length:int", "20")] + [("data.suspicion_track.penance[]:int", str(k)) for k in (6, 3, 9)]
    fields += [("data.suspicion_track.prison:int", "11"), ("data.suspicion_track.stake:int", "14")]
    response = post_form(client, t, "board", fields)
    assert response.status_code == 400
    page = html.unescape(response.data.decode())
    assert "The 2nd Penance icon: must be at or after Penance icon I (after space 6), as the icons come" in page
    assert 'data-field="data.suspicion_track.penance[1]"' in page
    assert current_version(client, t) == version


#: a layout accepted before issue 38 checked the Penance icons' order ([6, 3, 9] gave card II first)
UNORDERED = dict(TRACK, penance=[TRACK["penance"][1], TRACK["penance"][0], TRACK["penance"][2]])


def stored(app, sql: str, params: list) -> None:
    """Write to the table's SQLite file as an older version of the app left it."""
    conn = sqlite3.connect(app.config["DATABASE"])
    try:
        conn.execute(sql, params)
        conn.commit()
    finally:
        conn.close()


def test_a_table_whose_profile_was_stored_with_the_icons_out_of_order_still_shows_its_record_and_undoes(app, api):
    """No stored game is lost to a check added later: the profile is read as it was saved (issue 38, item 22)."""
    from tests.foundation.test_plays import host_client
    from tests.galileo.test_calculator import BOARD, NAMES, ROWS

    t = api.create("galileo", NAMES, calculator=True)
    assert api.event(t, "board", dict(BOARD, suspicion_track=TRACK)).status_code == 200
    for row in ROWS:
        assert api.event(t, "sheet", row).status_code == 200
    stored(app, "UPDATE tables SET profile = ? WHERE id = ?", [json.dumps({"suspicion_track": UNORDERED}), t["table"]])
    assert host_client(app).get(f"/plays/{t['table']}").status_code == 200
    version = api.get(t)["version"]
    assert api.undo(t).status_code == 200 and api.get(t)["version"] == version + 1


def test_a_board_event_stored_with_the_icons_out_of_order_is_folded_again_as_it_was(app, api):
    """An undo folds the stored events again: the old board event is not refused now (issue 38, item 22),
    while a new one with the same layout is."""
    t = api.create("galileo", ["Meg", "Luna"])
    assert api.event(t, "board", {"suspicion_track": TRACK}).status_code == 200
    assert api.event(t, "suspicion", {"player": 0, "delta": 1}).status_code == 200
    assert api.event(t, "suspicion", {"player": 1, "delta": 1}).status_code == 200
    stored(app, "UPDATE events SET data = ? WHERE table_id = ? AND type = 'board'",
           [json.dumps({"suspicion_track": UNORDERED}), t["table"]])
    assert api.undo(t).status_code == 200
    state = api.get(t)["state"]
    assert state["board"]["suspicion_track"]["penance"] == UNORDERED["penance"]
    assert state["players"][0]["suspicion"]["position"] == 2 and state["players"][1]["suspicion"]["position"] == 1
    refused = api.event(t, "board", {"suspicion_track": UNORDERED})
    assert refused.status_code == 400 and refused.get_json()["field"] == "data.suspicion_track.penance[1]"


def test_a_play_the_game_no_longer_folds_shows_its_record_without_the_chart(app, api):
    """Whatever a later version refuses in a stored table (its profile, an event), its record answers, never a 500."""
    from tests.foundation.test_plays import host_client
    from tests.galileo.test_calculator import BOARD, NAMES, ROWS

    t = api.create("galileo", NAMES, calculator=True)
    assert api.event(t, "board", dict(BOARD, suspicion_track=TRACK)).status_code == 200
    for row in ROWS:
        assert api.event(t, "sheet", row).status_code == 200
    # a stored profile the game no longer reads: folding the table again starts from it, and fails
    stored(app, "UPDATE tables SET profile = ? WHERE id = ?", [json.dumps({"suspicion_track": {"nothing": 1}}), t["table"]])
    page = host_client(app).get(f"/plays/{t['table']}")
    assert page.status_code == 200 and "<svg" not in page.get_data(as_text=True)
