"""Galileo's Truth calculator mode (issue 11): one `sheet` row per player, scored by `score`."""

import copy
import html
import re

import pytest
from werkzeug.datastructures import MultiDict

from companion.games.galileo.functions import FUNCTIONS

from .test_table import PROFILE
from .test_web import current_version, join, play_to_final, post_form, save_profile

NAMES = ["Ann", "Ben", "Cy", "Dee"]
BOARD = {"cathedral": PROFILE["cathedral"], "penance_cards": {"vp": [2, 4, 6]}}
ROWS = [
    {"player": 0, "principle": "copernican", "status": "free", "vp": 61, "penance": [1], "inventions_vp": 9, "mentor_vp": 4,
     "end_losses": 0, "turn_order": 2},
    {"player": 1, "principle": "ptolemaic", "status": "prison", "vp": 72, "penance": [1, 2], "inventions_vp": 3,
     "turn_order": 1},
    {"player": 2, "principle": "copernican", "status": "stake", "vp": 80, "suspicion": 4, "inventions_vp": 6, "end_losses": 2},
    {"player": 3, "principle": "ptolemaic", "status": "free", "vp": 55, "penance": [3], "mentor_vp": 7},
]


def expected(rows, board=BOARD, names=NAMES):
    """The score function's answer for these rows, the document built here from the rows' own values."""
    players = []
    for r in rows:
        players.append({"name": names[r["player"]], "vp": r["vp"], "principle": r["principle"], "status": r["status"],
                        "suspicion": r.get("suspicion", 0),
                        "penance_vp": [board["penance_cards"]["vp"][lvl - 1] for lvl in r.get("penance", [])],
                        "inventions_vp": r.get("inventions_vp", 0), "mentor_vp": r.get("mentor_vp", 0),
                        "end_losses": r.get("end_losses", 0), "turn_order": r.get("turn_order", r["player"] + 1)})
    return FUNCTIONS["score"].run({"cathedral": board["cathedral"], "players": players})


def calculator_table(api, names=NAMES, board=BOARD):
    t = api.create("galileo", names, calculator=True)
    assert t["state"]["phase"] == "final" and "calculator" not in t["state"] and t["state"]["finished"] is False
    if board:
        assert api.event(t, "board", board).status_code == 200
    return t


def ok(response):
    assert response.status_code == 200, response.get_json()
    return response.get_json()["state"]


def test_every_row_in_finishes_the_table_with_the_score_functions_result(client, api):
    t = calculator_table(api)
    for row in ROWS[:3]:
        state = ok(api.event(t, "sheet", row))
        assert state["finished"] is False
    state = ok(api.event(t, "sheet", ROWS[3]))
    assert state["finished"] is True
    want = expected(ROWS)
    join(client, t)
    page = client.get(f"/t/{t['table']}").data.decode()
    for p in want["players"]:
        assert f'data-total="{p["name"]}">{p["total"]}<' in page
    assert "Winner: " + ", ".join(f"<bdi>{w}</bdi>" for w in want["winners"]) in page
    # the Stake costs 2 per point of suspicion: Cy's breakdown shows -8
    cy = next(p for p in want["players"] if p["name"] == "Cy")
    assert cy["breakdown"]["stake"] == -8 and cy["breakdown"]["penance"] == 0
    # the compact scoreboard shows every total
    for p in want["players"]:
        assert re.search(rf'<span class="sb-name"><bdi>{p["name"]}</bdi></span> <strong class="sb-score">{p["total"]}</strong>', page)


def test_a_row_saved_again_corrects_the_result_and_undo_reopens(client, api):
    t = calculator_table(api)
    for row in ROWS:
        ok(api.event(t, "sheet", row))
    fixed = dict(ROWS[3], vp=95)
    state = ok(api.event(t, "sheet", fixed))
    assert state["finished"] is True and state["players"][3]["sheet"]["vp"] == 95
    join(client, t)
    page = client.get(f"/t/{t['table']}").data.decode()
    want = expected(ROWS[:3] + [fixed])
    assert f'data-total="Dee">{next(p["total"] for p in want["players"] if p["name"] == "Dee")}<' in page
    assert "Winner: " + ", ".join(f"<bdi>{w}</bdi>" for w in want["winners"]) in page
    # undo the correction: finished still, with the first row; undo once more: reopened
    assert api.undo(t).status_code == 200
    assert api.get(t)["state"]["players"][3]["sheet"]["vp"] == 55
    assert api.undo(t).status_code == 200
    state = api.get(t)["state"]
    assert state["finished"] is False and state["players"][3]["sheet"] is None
    assert "Still needed" in client.get(f"/t/{t['table']}").data.decode()


def test_the_tie_break_is_named_when_it_decides(client, api):
    t = calculator_table(api, names=["Ann", "Ben"])
    ok(api.event(t, "sheet", {"player": 0, "principle": "copernican", "status": "free", "vp": 40, "turn_order": 2}))
    state = ok(api.event(t, "sheet", {"player": 1, "principle": "copernican", "status": "free", "vp": 40, "turn_order": 1}))
    assert state["finished"] is True
    join(client, t)
    page = client.get(f"/t/{t['table']}").data.decode()
    assert "Winner: <bdi>Ben</bdi>" in page
    assert "Tie-break: <bdi>Ben</bdi> and <bdi>Ann</bdi> tie on 55: <bdi>Ben</bdi> wins as the earliest in turn order" in html.unescape(page)


def test_two_rows_claiming_one_turn_order_place_keep_the_table_open(client, api):
    t = calculator_table(api, names=["Ann", "Ben"])
    ok(api.event(t, "sheet", {"player": 0, "principle": "copernican", "status": "free", "vp": 40, "turn_order": 1}))
    state = ok(api.event(t, "sheet", {"player": 1, "principle": "copernican", "status": "free", "vp": 41, "turn_order": 1}))
    assert state["finished"] is False
    join(client, t)
    assert "<bdi>Ann</bdi> and <bdi>Ben</bdi> both say 1" in client.get(f"/t/{t['table']}").data.decode()
    assert ok(api.event(t, "sheet", {"player": 1, "principle": "copernican", "status": "free", "vp": 41, "turn_order": 2}))["finished"]


def test_printed_values_come_from_the_profile_or_the_board_event(client, api):
    t = calculator_table(api, names=["Ann", "Ben"], board=None)
    ok(api.event(t, "sheet", {"player": 0, "principle": "copernican", "status": "free", "vp": 40, "penance": [2]}))
    state = ok(api.event(t, "sheet", {"player": 1, "principle": "ptolemaic", "status": "free", "vp": 30}))
    assert state["finished"] is False
    join(client, t)
    page = client.get(f"/t/{t['table']}").data.decode()
    assert "the Cathedral values" in page and "the penance cards&#39; VP" in page
    assert not ok(api.event(t, "board", {"cathedral": BOARD["cathedral"]}))["finished"]
    # only the VP of the penance cards: the coins are not needed to score
    assert ok(api.event(t, "board", {"penance_cards": {"vp": [2, 4, 6]}}))["finished"]
    # a box profile brings them at creation
    response = save_profile(client)
    profile_id = int(re.search(r"/profiles/(\d+)", response.headers["Location"]).group(1))
    t2 = api.create("galileo", ["Ann", "Ben"], calculator=True, profile=profile_id)
    ok(api.event(t2, "sheet", {"player": 0, "principle": "copernican", "status": "free", "vp": 40, "penance": [2]}))
    assert ok(api.event(t2, "sheet", {"player": 1, "principle": "ptolemaic", "status": "free", "vp": 30}))["finished"]


def test_two_phones_rows_are_self_contained(api):
    """Each row names its player and replaces only that player's row."""
    t = calculator_table(api, names=["Ann", "Ben"])
    v = api.get(t)["version"]
    ok(api.event(t, "sheet", {"player": 1, "principle": "copernican", "status": "free", "vp": 41}, expected_version=v))
    state = ok(api.event(t, "sheet", {"player": 0, "principle": "copernican", "status": "free", "vp": 40}))
    assert state["players"][1]["sheet"]["vp"] == 41 and state["players"][0]["sheet"]["vp"] == 40


def test_calculator_refuses_tracking_events_and_a_tracked_table_refuses_sheets(api):
    t = calculator_table(api, names=["Ann", "Ben"])
    response = api.event(t, "pass", {"player": 0})
    assert response.status_code == 400 and response.get_json()["field"] == "type"
    tracked = api.create("galileo", ["Ann", "Ben"])
    api.event(tracked, "board", {"suspicion_track": PROFILE["suspicion_track"]})
    response = api.event(tracked, "sheet", ROWS[0])
    assert response.status_code == 400 and response.get_json()["field"] == "type"


def test_a_tracked_table_is_finished_once_final_scoring_is_complete(api):
    t = api.create("galileo", ["Meg", "Luna"])
    api.event(t, "board", {"suspicion_track": PROFILE["suspicion_track"], "cathedral": PROFILE["cathedral"]})
    play_to_final(api, t, 2)
    assert api.get(t)["state"]["finished"] is False
    ok(api.event(t, "final", {"player": 0, "inventions_vp": 0, "mentor_vp": 0, "end_losses": 0}))
    assert ok(api.event(t, "final", {"player": 1, "inventions_vp": 3, "mentor_vp": 0, "end_losses": 0}))["finished"] is True
    assert api.undo(t).status_code == 200
    assert api.get(t)["state"]["finished"] is False


GOOD = {"player": 1, "principle": "ptolemaic", "status": "prison", "vp": 72}

BAD = [
    ({"principle": "heliocentric"}, "data.principle", "Ben's principle"),
    ({"status": "exile"}, "data.status", "Ben's place in the Cathedral"),
    ({"vp": -3}, "data.vp", "Ben's VP"),
    ({"vp": 1000}, "data.vp", "Ben's VP"),
    ({"suspicion": -1}, "data.suspicion", "Ben's suspicion"),
    ({"status": "stake"}, "data.suspicion", "Ben's suspicion"),
    ({"penance": [4]}, "data.penance[0]", "Ben's Penance cards"),
    ({"penance": [2, 2]}, "data.penance[1]", "Ben's Penance cards"),
    ({"penance": [1, 2, 3, 1]}, "data.penance", "Ben's Penance cards"),
    ({"inventions_vp": -1}, "data.inventions_vp", "Ben's End-game Inventions VP"),
    ({"mentor_vp": 1000}, "data.mentor_vp", "Ben's Scoring Mentor VP"),
    ({"end_losses": -2}, "data.end_losses", "Ben's VP lost at the end"),
    ({"turn_order": 5}, "data.turn_order", "Ben's place in turn order"),
    ({"turn_order": 0}, "data.turn_order", "Ben's place in turn order"),
]


@pytest.mark.parametrize("change, field, words", BAD)
def test_bad_sheet_input_is_refused_by_the_api_with_its_path(api, change, field, words):
    t = calculator_table(api)
    before = api.get(t)
    response = api.event(t, "sheet", {**GOOD, **change})
    assert response.status_code == 400
    assert response.get_json()["field"] == field
    assert api.get(t)["version"] == before["version"]


def form_fields(row):
    fields = [("data.player:int", str(row["player"]))]
    for key, value in row.items():
        if key == "player":
            continue
        if key == "penance":
            fields += [("data.penance[]:int", "")] + [("data.penance[]:int", str(v)) for v in value]
        elif key in ("principle", "status"):
            fields.append((f"data.{key}", value))
        else:
            fields.append((f"data.{key}:int", str(value)))
    return fields


def visible_errors(page):
    return [html.unescape(re.sub(r"<[^>]+>", "", e)) for e in re.findall(r'<p class="error"[^>]*>(.*?)</p>', page, re.S)]


@pytest.mark.parametrize("change, field, words", BAD)
def test_bad_sheet_input_through_the_page_names_the_field_in_players_words(client, api, change, field, words):
    t = calculator_table(api)
    join(client, t)
    version = current_version(client, t)
    response = post_form(client, t, "sheet", form_fields({**GOOD, **change}))
    assert response.status_code == 400
    page = response.data.decode()
    shown = visible_errors(page)
    # "Ben's VP: must be ..."; a message that is a verb phrase reads on: "Ben's suspicion is required at the Stake: ..."
    assert shown and any(re.match(re.escape(words) + r"(: | is )", e) for e in shown), shown
    for text in shown:
        assert "data." not in text and not re.search(r"\[\d+\]", text), text
    # the message also stands beside the field, on Ben's card only
    ben = page.split('id="gal-row-1"')[1].split('id="gal-row-2"')[0]
    assert f'data-field="{field}"' in ben
    assert 'data-field=' not in page.split('id="gal-row-0"')[1].split('id="gal-row-1"')[0]
    assert current_version(client, t) == version


def test_a_row_typed_on_the_page_is_saved_with_every_field(client, api):
    t = calculator_table(api)
    join(client, t)
    response = post_form(client, t, "sheet", form_fields(ROWS[2]))
    assert response.status_code == 200
    row = api.get(t)["state"]["players"][2]["sheet"]
    assert row == {"principle": "copernican", "status": "stake", "vp": 80, "suspicion": 4, "penance": [], "inventions_vp": 6,
                   "mentor_vp": 0, "end_losses": 2, "turn_order": 3}
    page = response.data.decode()
    # said on Cy's card, where the Save was tapped
    cy = page.split('id="gal-row-2"')[1]
    assert 'aria-live="polite"><bdi>Cy</bdi>&#39;s row is in.' in cy
    # the saved row comes back prefilled; every number is a number-pad field
    assert 'name="data.vp:int" value="80"' in cy and 'name="data.suspicion:int" value="4"' in cy
    assert 'inputmode="numeric"' in cy and 'type="number" name="data.vp' not in page
    assert 'seat-card" data-you="2"' in page
    assert "waiting" in page and "row in" in page


def test_board_values_refused_on_the_calculator_page_in_players_words(client, api):
    t = calculator_table(api, board=None)
    join(client, t)
    version = current_version(client, t)
    fields = [(f"data.cathedral.{p}.{s}:int", "5") for p in ("copernican", "ptolemaic") for s in ("free", "prison", "stake")]
    fields[2] = ("data.cathedral.copernican.stake:int", "100")
    response = post_form(client, t, "board", fields)
    assert response.status_code == 400
    shown = visible_errors(response.data.decode())
    assert "The Cathedral VP, Copernican at the Stake: must be a whole number from 0 to 99" in shown
    assert current_version(client, t) == version


# --- small holes ------------------------------------------------------------------------------

def test_a_zero_change_is_refused_on_the_card_it_was_typed_on(client, api):
    t = api.create("galileo", ["Meg", "Luna"])
    api.event(t, "board", {"suspicion_track": PROFILE["suspicion_track"]})
    join(client, t)
    version = current_version(client, t)
    for type_ in ("suspicion", "vp"):
        response = post_form(client, t, type_, [("data.player:int", "1"), ("data.delta:int", "0")])
        assert response.status_code == 400
        page = response.data.decode()
        luna = page.split('id="gal-player-1"')[1]
        assert "0 changes nothing" in luna
        change = "suspicion change" if type_ == "suspicion" else "VP change"
        assert any(e.startswith(f"Luna's {change}: 0 changes nothing") for e in visible_errors(page))
        assert "0 changes nothing" not in page.split('id="gal-player-0"')[1].split('id="gal-player-1"')[0]
    for type_, data in (("suspicion", {"player": 0, "delta": 0}), ("vp", {"player": 0, "delta": 0}),
                        ("suspicion_group", {"player": 0, "group": "others", "delta": 0})):
        response = api.event(t, type_, data)
        assert response.status_code == 400 and response.get_json()["field"] == "data.delta"
        assert "0 changes nothing" in response.get_json()["error"]
    assert current_version(client, t) == version


def test_what_a_move_triggers_is_said_on_the_card_that_was_tapped(client, api):
    t = api.create("galileo", ["Meg", "Luna", "Dan"])
    api.event(t, "board", {"suspicion_track": PROFILE["suspicion_track"]})
    join(client, t)
    page = post_form(client, t, "suspicion", [("data.player:int", "1"), ("data.delta:int", "11")]).data.decode()
    luna = page.split('id="gal-player-1"')[1].split('id="gal-player-2"')[0]
    assert re.search(r'<div role="status" aria-live="polite"><ul class="gal-notices"><li><bdi>Luna</bdi>: suspicion \+11, now 12', luna)
    assert "arrested" in luna and "take Penance card III" in html.unescape(luna)
    assert "arrested" not in page.split('id="gal-player-1"')[0]
    # a Main Action tapped in the turn card is said there
    page = post_form(client, t, "action", [("data.player:json", "0"), ("data.action:json", '"invention"')]).data.decode()
    turn = page.split('id="gal-turn"')[1].split("</section>")[0]
    assert "gal-notices" in turn


def test_plurals_in_coins_and_prohibition(client, api):
    profile = copy.deepcopy(PROFILE)
    profile["penance_cards"] = {"vp": [1, 2, 3], "coins": [1, 2, 3]}
    t = api.create("galileo", ["Meg", "Luna"])
    api.event(t, "board", profile)
    join(client, t)
    ok(api.event(t, "suspicion", {"player": 0, "delta": 3}))  # past Penance I
    page = client.get(f"/t/{t['table']}").data.decode()
    assert "pay 1 coin to remove it" in page and "1 coins" not in page
    state = ok(api.event(t, "penance", {"player": 0, "level": 1, "remove": True}))
    assert "Meg pays 1 coin and removes Penance card I from the game." in state["notices"]
    # Cycle 1 to its end, then Cycle 2's Prohibition with one player failing
    ok(api.event(t, "pass", {"player": 1}))
    ok(api.event(t, "pass", {"player": 0}))
    ok(api.event(t, "next_cycle"))
    ok(api.event(t, "income_done"))
    for p in api.get(t)["state"]["order"]:
        ok(api.event(t, "pass", {"player": p}))
    ok(api.event(t, "prohibition", {"limit": 3, "counts": [3, 0]}))
    page = client.get(f"/t/{t['table']}").data.decode()
    assert "Prohibition checked: 1 player failed." in page


LABELLED = [
    ("prohibition", {"limit": 3, "counts": [0, -1]}, "data.counts[1]", "Luna's elements"),
    ("prohibition", {"limit": 0, "counts": [0, 0]}, "data.limit", "The limit on the Prohibition tile"),
    ("board", {"suspicion_track": {"length": 20, "penance": [3, 6, 9], "prison": 11, "stake": 19}}, "data.suspicion_track.stake", "The Stake icon"),
    ("board", {"suspicion_track": {"length": 20, "penance": [6, 3, 9], "prison": 11, "stake": 14}},
     "data.suspicion_track.penance[1]", "The 2nd Penance icon"),
    ("board", {"tiles": {"back": 3, "spaces": [20, 20]}}, "data.tiles.spaces[1]", "The 2nd tile's space"),
    ("board", {"tiles": {"back": -1, "spaces": [20]}}, "data.tiles.back", "The value on the tiles' back"),
    ("board", {"penance_cards": {"vp": [1, 2, 300]}}, "data.penance_cards.vp[2]", "The 3rd Penance card's VP"),
    ("board", {"prohibition_suspicion": {"3": {"copernican": -1, "ptolemaic": 1}}}, "data.prohibition_suspicion.3.copernican",
     "The Copernican suspicion for failing in Cycle 3"),
]


@pytest.mark.parametrize("type_, data, field, words", LABELLED)
def test_labels_say_board_and_event_fields_in_words(type_, data, field, words):
    from companion import wording
    from companion.games.galileo.view import LABELS
    from companion.games.validation import RulesError

    from .test_table import Table

    t = Table(names=["Meg", "Luna"])
    if type_ == "prohibition":
        t.state["phase"], t.state["cycle"] = "end", 2
    with pytest.raises(RulesError) as err:
        t(type_, **data)
    assert err.value.field == field
    said = wording.said(err.value, ["Meg", "Luna"], LABELS, type_, data)
    assert said.label == words
    assert "data." not in said.text and "[" not in said.text


def test_every_sheet_and_event_field_has_a_label():
    from companion.games.galileo.calculator import ROW_KEYS
    from companion.games.galileo.view import LABELS

    for key in ROW_KEYS:
        assert f"sheet.{key}" in LABELS
    for path in ("suspicion.delta", "vp.delta", "tile.tile", "tile.vp", "action.action", "penance.level", "penance.remove",
                 "prohibition.limit", "prohibition.counts[]", "final.inventions_vp", "final.mentor_vp", "final.end_losses",
                 "passing_order", "stake_overshoot", "suspicion_track.length", "cathedral.ptolemaic.prison"):
        assert path in LABELS, path


def test_a_tie_below_the_winner_is_named_too(client, api):
    t = calculator_table(api, names=["Ann", "Ben", "Cy"])
    ok(api.event(t, "sheet", {"player": 0, "principle": "copernican", "status": "free", "vp": 60}))
    ok(api.event(t, "sheet", {"player": 1, "principle": "copernican", "status": "free", "vp": 40, "turn_order": 3}))
    ok(api.event(t, "sheet", {"player": 2, "principle": "copernican", "status": "free", "vp": 40, "turn_order": 2}))
    join(client, t)
    page = html.unescape(client.get(f"/t/{t['table']}").data.decode())
    assert "Winner: <bdi>Ann</bdi>" in page
    assert "Tie-break: <bdi>Cy</bdi> and <bdi>Ben</bdi> tie on 55: <bdi>Cy</bdi> places ahead as the earliest in turn order" in page


def test_a_tracked_table_has_a_compact_scoreboard_with_whose_turn(client, api):
    t = api.create("galileo", ["Meg", "Luna"])
    api.event(t, "board", {"suspicion_track": PROFILE["suspicion_track"]})
    ok(api.event(t, "vp", {"player": 0, "delta": 7}))
    ok(api.event(t, "suspicion", {"player": 1, "delta": 11}))
    join(client, t)
    page = client.get(f"/t/{t['table']}").data.decode()
    board = page.split('aria-label="Scoreboard"')[1].split("</ol>")[0]
    assert re.search(r'class="player turn" data-you="0">\s*<span class="sb-name"><bdi>Meg</bdi></span> <strong class="sb-score">7</strong>', board)
    assert re.search(r'<span class="sb-name"><bdi>Luna</bdi></span> <strong class="sb-score">0</strong> <small class="sb-status">in Prison</small>', board)
    assert 'seat-card" data-you="1"' in page


def test_penance_cards_coins_without_their_vp_are_refused(client, api):
    """The VP are what final scoring needs: blank VP with coins given must be refused, never stored."""
    t = api.create("galileo", ["Ann", "Ben"], calculator=True)
    response = api.event(t, "board", {"cathedral": BOARD["cathedral"], "penance_cards": {"vp": [], "coins": [1, 2, 3]}})
    assert response.status_code == 400 and response.get_json()["field"] == "data.penance_cards.vp"
    assert api.get(t)["version"] == 0
    from werkzeug.datastructures import MultiDict
    fields = MultiDict([("profile_name", "Coins only")] + [("penance_cards.coins[]:int", c) for c in "123"]
                       + [("penance_cards.vp[]:int", "")] * 3)
    page = client.post("/profiles/new/galileo", data=fields)
    assert page.status_code == 400 and 'data-field="penance_cards.vp"' in page.get_data(as_text=True)
