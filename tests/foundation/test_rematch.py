"""Play again (issue 41, companion/rematch.py): a finished table's new table, through the API and the page.

The browser's two phones are tests/foundation/test_rematch_browser.py.
"""

from __future__ import annotations

import json

import pytest

from companion import profiles, tables
from companion.games import registry
from companion.web import region
from companion.web.connection import get_db
from tests.conftest import Server, count_rows
from tests.examples import examples
from tests.foundation.test_push import Stream


def ok(response) -> dict:
    assert response.status_code == 200, response.get_json()
    return response.get_json()


def finished_calculator_table(api, key: str, **options) -> dict:
    """A calculator table of the game's examples, every row in: finished."""
    ex = examples(key)
    t = api.create(key, ex.CALCULATOR_NAMES, calculator=True, **options)
    for type_, data in [*ex.CALCULATOR_SETUP, *[("sheet", row) for row in ex.CALCULATOR_ROWS]]:
        ok(api.event(t, type_, data))
    assert api.get(t)["state"]["finished"]
    return t


def rematch(client, t: dict, token: str | None = None):
    headers = {} if token == "" else {"X-Table-Token": token or t["token"]}
    return client.post(f"/api/v1/tables/{t['table']}/rematch", headers=headers)


def check_new_table(api, old: dict, answer: dict, dropped: tuple[str, ...] = ()) -> None:
    """The new table is the old one's game, players, options (less those dropped) and box, at its start."""
    before, after = api.stored(old), api.stored(answer)
    assert set(answer) == {"table", "token", "join_url", "version", "state"}  # POST /api/v1/tables's shape
    assert answer["version"] == 0 and answer["table"] != old["table"] and answer["token"] != old["token"]
    assert answer["join_url"].endswith(f"/join/{answer['table']}/{answer['token']}")
    assert (after.game, after.names, after.first_names) == (before.game, before.names, before.names)
    # a dropped option is the game's default again (Gutenberg's first_player: its default, 0)
    assert {k: v for k, v in after.options.items() if k not in dropped} == {k: v for k, v in before.options.items() if k not in dropped}
    assert after.options == after.rules.validate_options({k: v for k, v in after.options.items() if k not in (*dropped, "calculator")},
                                                         len(after.names)) | ({"calculator": True} if "calculator" in after.options else {})
    assert after.profile == before.profile
    assert answer["state"] == after.state == after.rules.initial_state(after.names, after.options, after.profile)
    assert api.stored(old).state["rematch"] == answer["table"]
    # the new secret is in no stored state nor in the old table's log
    assert answer["token"] not in json.dumps(api.stored(old).state) + json.dumps(api.events(old))


@pytest.mark.parametrize("key", list(registry()))
def test_a_finished_calculator_table_of_every_game_is_played_again_once(client, api, key):
    t = finished_calculator_table(api, key)
    result = api.result(t).get_json()
    made = rematch(client, t)
    assert made.status_code == 201, made.get_json()
    answer = made.get_json()
    check_new_table(api, t, answer)
    assert api.get(answer)["state"]["finished"] is False  # a new game, reached with its own token
    # the old table: finished still, its result the same, the rematch in its log and history
    assert api.get(t)["version"] == len(api.events(t)) and api.events(t)[-1]["type"] == "rematch"
    assert api.events(t)[-1]["data"] == {"table": answer["table"]}
    assert api.result(t).get_json() == result
    # two phones tapping at once: the second makes nothing and answers the same table, with 200
    tables_before = count_rows(client.application, "tables")
    again = rematch(client, t)
    assert again.status_code == 200 and again.get_json() == answer
    assert count_rows(client.application, "tables") == tables_before and api.events(t)[-1]["seq"] == api.get(t)["version"]


@pytest.mark.parametrize("key", [k for k in registry() if examples(k).play_tracked_to_the_end is not None])
def test_a_tracked_table_is_played_again_and_a_chosen_first_player_is_dropped(app, client, api, key):
    t = examples(key).play_tracked_to_the_end(app, api)
    assert api.get(t)["state"]["finished"]
    made = rematch(client, t)
    assert made.status_code == 201, made.get_json()
    check_new_table(api, t, made.get_json(), dropped=("first_player",))
    if key == "gutenberg":  # played with first_player 1: the new game takes the option's default [GB72]
        assert api.stored(t).options["first_player"] == 1 and api.stored(made.get_json()).options["first_player"] == 0


def test_gutenberg_against_the_automa_keeps_the_automa_and_its_options(client, api):
    t = api.create("gutenberg", ["John"], calculator=True, automa=True, automa_seat=1, take_orders_deck="one_deck")
    john = {"fame": 84, "guilders": 4, "specialties": {"typesetting": 6, "woodcutting": 3, "binding": 4, "illuminating": 5},
            "patronage_cards": 2, "types": 5, "inks": 1, "player": 0}
    assert ok(api.event(t, "sheet", john))["state"]["finished"]
    answer = rematch(client, t).get_json()
    check_new_table(api, t, answer)
    assert api.stored(answer).options == {"automa": True, "automa_seat": 1, "take_orders_deck": "one_deck", "calculator": True}


def test_voynich_solo_is_played_again_against_voynich(client, api):
    from tests.voynich.test_calculator import SPACES, ZERO, row

    t = api.create("voynich", ["Ana"], calculator=True, solo_tie="tie_break")
    ok(api.event(t, "track", {"scoring_spaces": SPACES}))
    ok(api.event(t, "sheet", row(0, 30, (10, 10, 10, 10), (4, 4))))
    ok(api.event(t, "sheet", row(1, 25, (15, 10, 10, 10), pages={**ZERO, "botany": [2, 0]}, difficulty="hard", tokens_on_board=2)))
    assert api.get(t)["state"]["finished"]
    answer = rematch(client, t).get_json()
    check_new_table(api, t, answer)
    assert api.get(answer)["players"] == [{"name": "Ana"}]


def test_the_box_profile_is_the_old_tables_copy(app, client, api):
    from tests.galileo.test_table import PROFILE

    with app.app_context():
        saved = profiles.save(get_db(), {"game": "galileo", "name": "My box", "data": PROFILE})
    ex = examples("galileo")
    t = api.create("galileo", ex.CALCULATOR_NAMES, calculator=True, profile=saved["id"], passing_order="first_passer_first")
    for data in ex.CALCULATOR_ROWS:
        ok(api.event(t, "sheet", data))
    assert api.get(t)["state"]["finished"]
    changed = {**PROFILE, "tiles": {"back": 4, "spaces": [20, 40]}}
    with app.app_context():  # the stored profile changed since: the new table still gets the old table's copy
        profiles.save(get_db(), {"game": "galileo", "name": "My box", "data": changed}, saved["id"])
    answer = rematch(client, t).get_json()
    check_new_table(api, t, answer)
    assert api.stored(answer).profile["tiles"]["back"] == PROFILE["tiles"]["back"]
    assert api.stored(answer).options["passing_order"] == "first_passer_first"


def test_a_table_not_finished_is_refused_and_nothing_is_made(client, api):
    t = api.create("codex", ["Anna", "Tom"])
    before = count_rows(client.application, "tables")
    refused = rematch(client, t)
    assert refused.status_code == 400 and refused.get_json()["field"] == "$"
    assert "finished" in refused.get_json()["error"]
    assert count_rows(client.application, "tables") == before and api.get(t)["version"] == 0


def test_no_token_or_a_wrong_one_is_404_as_for_every_table_call(client, api):
    t = finished_calculator_table(api, "codex")
    before = count_rows(client.application, "tables")
    for token in ("", "x" * 30, api.create("codex", ["A", "B"])["token"]):
        answer = rematch(client, t, token)
        assert answer.status_code == 404 and answer.get_json() == {"error": "no such table", "field": "$"}
    assert client.post("/api/v1/tables/nosuchtable/rematch", headers={"X-Table-Token": t["token"]}).status_code == 404
    assert count_rows(client.application, "tables") == before + 1  # the one the loop made, nothing else
    assert "rematch" not in api.get(t)["state"]


def test_a_rematch_is_never_posted_as_an_event_and_its_undo_is_refused(client, api):
    t = finished_calculator_table(api, "codex")
    posted = api.event(t, "rematch", {"table": t["table"]})
    assert posted.status_code == 400 and posted.get_json()["field"] == "type"
    assert "rematch" not in api.get(t)["state"]
    answer = rematch(client, t).get_json()
    version = api.get(t)["version"]
    undone = api.undo(t)
    assert undone.status_code == 400 and undone.get_json()["field"] == "$"
    assert api.get(t)["version"] == version and api.get(t)["state"]["rematch"] == answer["table"]
    # a calculator row corrected after it is undone as ever; the link stays through the replay
    row = dict(examples("codex").CALCULATOR_ROWS[0], placement_points=examples("codex").CALCULATOR_ROWS[0]["placement_points"] + 1)
    ok(api.event(t, "sheet", row))
    assert api.undo(t).status_code == 200
    assert api.get(t)["state"]["rematch"] == answer["table"] and api.get(t)["state"]["finished"]


# --- the page ---------------------------------------------------------------------------------------


def phone(app, t: dict, seat: str | None):
    """Another phone that joined the table (its cookie) and took a seat (or watches, or chose none)."""
    c = app.test_client()
    assert c.get(f"/join/{t['table']}/{t['token']}").status_code == 303
    if seat is not None:
        c.set_cookie(f"seat_{t['table']}", seat)
    return c


def cookie(c, name: str) -> str | None:
    found = c.get_cookie(name)
    return found.value if found else None


def test_play_again_on_the_page_lands_in_the_same_seat_and_the_others_join_in_one_tap(app, api):
    t = finished_calculator_table(api, "codex")
    anna, tom, watcher, stranger = phone(app, t, "0"), phone(app, t, "1"), phone(app, t, "watch"), app.test_client()
    page = anna.get(f"/t/{t['table']}").get_data(as_text=True)
    assert f'action="/t/{t["table"]}/rematch"' in page and "Join the new table" not in page
    assert stranger.post(f"/t/{t['table']}/rematch").status_code == 404  # no cookie: no such table
    landed = anna.post(f"/t/{t['table']}/rematch")
    assert landed.status_code == 303
    new = landed.headers["Location"].rsplit("/", 1)[-1]
    assert landed.headers["Location"].endswith(f"/t/{new}") and cookie(anna, f"seat_{new}") == "0"
    assert cookie(anna, f"tc_{new}") and anna.get(f"/t/{new}").status_code == 200
    # every other phone of the old table is offered the new one; its secret is in no page
    page = tom.get(f"/t/{t['table']}").get_data(as_text=True)
    assert "Join the new table" in page and f'action="/t/{t["table"]}/rematch"' not in page
    assert cookie(anna, f"tc_{new}") not in page and "Played again at a new table" in page
    for c, seat in ((tom, "1"), (watcher, "watch")):
        joined = c.post(f"/t/{t['table']}/rematch/join")
        assert joined.status_code == 303 and joined.headers["Location"].endswith(f"/t/{new}")
        assert cookie(c, f"tc_{new}") == cookie(anna, f"tc_{new}") and cookie(c, f"seat_{new}") == seat
        assert c.get(f"/t/{new}").status_code == 200
    assert stranger.post(f"/t/{t['table']}/rematch/join").status_code == 404
    # with htmx the answer tells the page where to go, the cookies set the same
    late = phone(app, t, "1")
    answer = late.post(f"/t/{t['table']}/rematch/join", headers={"HX-Request": "true"})
    assert answer.status_code == 200 and answer.headers["HX-Redirect"] == f"/t/{new}" and cookie(late, f"seat_{new}") == "1"
    # Play again tapped late on another phone: the same new table
    again = tom.post(f"/t/{t['table']}/rematch", headers={"HX-Request": "true"})
    assert again.headers["HX-Redirect"] == f"/t/{new}"


def test_the_page_refuses_a_join_before_any_rematch_and_a_table_not_finished(app, api):
    t = api.create("codex", ["Anna", "Tom"])
    anna = phone(app, t, "0")
    assert "Play again" not in anna.get(f"/t/{t['table']}").get_data(as_text=True)
    for path in ("rematch", "rematch/join"):
        refused = anna.post(f"/t/{t['table']}/{path}")
        assert refused.status_code == 400, path
        assert 'data-field="$"' in refused.get_data(as_text=True)
    assert api.get(t)["version"] == 0


def test_the_region_drawn_in_parts_after_a_rematch_is_the_region_drawn_whole(app, client, api):
    for key in registry():
        t = finished_calculator_table(api, key)
        with app.app_context():
            db = get_db()
            table = tables.authorize(db, t["table"], t["token"])
            before = region.draw(app, table, None, "en", None, region.context_of(db, table, None))
            assert rematch(client, t).status_code == 201
            table = tables.authorize(db, t["table"], t["token"])
            now = region.draw(app, table, None, "en", before, region.context_of(db, table, None))
            whole = region.draw(app, table, None, "en", None, region.context_of(db, table, None))
            assert now.html == whole.html and now.fingerprint == whole.fingerprint, key
            sent = now.changed_since(before.fingerprint)
            assert "rematch" in sent and "table-live" not in sent, (key, sent)  # the link alone, not the region


@pytest.mark.slow
def test_a_second_phones_stream_on_the_old_table_is_pushed_the_join(server: Server):
    from companion import db as database

    ex = examples("codex")
    t = server.api("/api/v1/tables", {"game": "codex", "players": ex.CALCULATOR_NAMES, "calculator": True})
    version = 0
    for type_, data in [*ex.CALCULATOR_SETUP, *[("sheet", row) for row in ex.CALCULATOR_ROWS]]:
        server.api(f"/api/v1/tables/{t['table']}/events", {"type": type_, "data": data, "expected_version": version}, t["token"])
        version += 1
    tom = Stream(server.port, t, f"v={version}", seat=1)
    try:
        tom.read_until(rb"retry: 1000\n\n")
        status, made = server.call("POST", f"/api/v1/tables/{t['table']}/rematch", token=t["token"])
        assert status == 201
        tom.read_until(rb"id: %d\n" % (version + 1))
        pushed = tom.event_data(version + 1)
        assert b'id="rematch"' in pushed and b"Join the new table" in pushed and made["token"].encode() not in pushed
    finally:
        tom.close()
    conn = database.connect(str(server.data / "companion.db"), "normal")
    try:
        assert tables.load(conn, t["table"]).state["rematch"] == made["table"]
    finally:
        conn.conn.close()


def test_play_again_and_join_are_said_in_the_phones_language(app, api):
    t = finished_calculator_table(api, "codex")
    anna = phone(app, t, "0")
    assert "Zagraj ponownie" in anna.get(f"/t/{t['table']}", headers={"Accept-Language": "pl"}).get_data(as_text=True)
    refused = anna.post(f"/t/{t['table']}/rematch/join", headers={"Accept-Language": "pl"})
    assert refused.status_code == 400 and "dotknij Zagraj ponownie" in refused.get_data(as_text=True)
    anna.post(f"/t/{t['table']}/rematch")
    page = anna.get(f"/t/{t['table']}", headers={"Accept-Language": "pl"}).get_data(as_text=True)
    assert "Dołącz do nowego stołu" in page and "Zagrano ponownie przy nowym stole" in page


def test_play_again_counts_against_the_limit_on_making_tables(tmp_path):
    """A rematch makes a table: past --create-limit it is refused like any creation (found in review:
    finishing a calculator table and playing it again made tables past the limit)."""
    from companion import create_app
    from tests.conftest import Api

    app = create_app({"TESTING": True, "DATA_DIR": str(tmp_path), "CREATE_LIMIT": "1/60"})
    client = app.test_client()
    api = Api(client)
    ex = examples("gutenberg")
    t = api.create("gutenberg", ex.CALCULATOR_NAMES, calculator=True)
    for type_, data in [*ex.CALCULATOR_SETUP, *[("sheet", r) for r in ex.CALCULATOR_ROWS]]:
        api.event(t, type_, data)
    before = count_rows(app, "tables")
    again = client.post(f"/api/v1/tables/{t['table']}/rematch", headers={"X-Table-Token": t["token"]})
    assert again.status_code == 429 and "Retry-After" in again.headers
    client.set_cookie(f"tc_{t['table']}", t["token"])
    assert client.post(f"/t/{t['table']}/rematch").status_code == 429
    assert count_rows(app, "tables") == before
