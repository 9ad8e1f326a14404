"""Who goes first, in every game (companion/games/seats.py and each game's order.py), through the real app.

Choose a seat or draw one on a tracked table of every game that tracks one (Game.tracks; a table of a game
that tracks nothing refuses both) (seeded by the table: undo then redo draws the same); what the choice changes
in each game's own turn order; the refusals, each naming its field; whose turn follows whose (the
turn clock's `next_seat`); and the card "Who goes first?" posted without JavaScript and with htmx.
"""

from __future__ import annotations

import re

import pytest

from companion.games import get, registry
from companion.games.gutenberg.facts import ACTIONS
from companion.games.gutenberg.table import holding
from companion.games.validation import RulesError
from tests.examples import examples
from tests.codex.test_web import open_table, post_form

NAMES = ["Anna", "Ben", "Cy"]
#: every game the registry finds, in the contract's order (a game not yet in ORDER too)
KEYS = list(registry())
#: the games that track a table (Game.tracks): a game that tracks nothing has no table where a first
#: player is chosen (every table of it is its end, and refuses both events)
TRACKING = [key for key in KEYS if get(key).tracks]


def names_of(key: str) -> list[str]:
    """Three players, or as many as the game takes where it takes fewer (or more)."""
    game = get(key)
    return (NAMES + [f"P{i}" for i in range(4, 13)])[:max(game.min_players, min(len(NAMES), game.max_players))]


def ok(api, t, type_, data=None) -> dict:
    r = api.event(t, type_, data)
    assert r.status_code == 200, r.get_json()
    return r.get_json()["state"]


def refused(api, t, type_, data=None) -> dict:
    before = api.get(t)
    r = api.event(t, type_, data)
    assert r.status_code == 400, r.get_json()
    assert api.get(t)["version"] == before["version"]  # nothing changed
    return r.get_json()


def table(api, key, names=None, **options) -> dict:
    t = api.create(key, names_of(key) if names is None else names, **options)
    for type_, data in examples(key).TRACKED_SETUP:
        ok(api, t, type_, data)
    return t


# --- choose, draw ----------------------------------------------------------------------------------------

@pytest.mark.parametrize("key", TRACKING)
def test_a_chosen_seat_goes_first_and_the_history_says_so(api, key):
    t = table(api, key)
    names = names_of(key)
    last = len(names) - 1
    state = ok(api, t, "first_player", {"player": last})
    assert state["first"] == last and get(key).modules.order.first_of(state) == last
    assert api.events(t)[-1]["type"] == "first_player"
    assert get(key).describe("first_player", {"player": last}, names) == f"{names[last]} plays first"


@pytest.mark.parametrize("key", TRACKING)
def test_a_draw_is_seeded_by_the_table_undo_then_redo_draws_the_same(api, key):
    t = table(api, key)
    drawn = ok(api, t, "draw_first_player")
    assert drawn["draws"] == 1 and drawn["first"] in range(len(names_of(key)))
    assert api.undo(t).status_code == 200
    assert ok(api, t, "draw_first_player")["first"] == drawn["first"]
    # a second draw is another draw: the counter, not the clock, keys it
    seen = {ok(api, t, "draw_first_player")["first"] for _ in range(12)}
    assert len(seen) > 1 or len(names_of(key)) == 1


@pytest.mark.parametrize("key", KEYS)
def test_tables_with_other_seeds_draw_other_seats(app, key):
    from companion.games.base import Context

    game, names = get(key), names_of(key)
    firsts = set()
    for seed in range(30):
        state = game.initial_state(names, game.validate_options(examples(key).OPTIONS, len(names)), {})
        firsts.add(game.apply(state, "draw_first_player", {}, Context(names=tuple(names), seed=seed))["first"])
    assert firsts == set(range(len(names)))


# --- what the first player changes in each game -----------------------------------------------------------

def test_galileo_turn_order_markers_from_the_first_player_clockwise(api):
    t = table(api, "galileo")
    assert ok(api, t, "first_player", {"player": 1})["order"] == [1, 2, 0]  # [GT103]
    refusal = refused(api, t, "pass", {"player": 0})
    assert refusal["field"] == "data.player" and "Ben" in refusal["error"]  # Ben's turn first
    assert ok(api, t, "pass", {"player": 1})["passing"] == [1]


def test_gutenberg_initiative_markers_count_from_the_first_player(api):
    t = table(api, "gutenberg")
    state = ok(api, t, "first_player", {"player": 1})
    assert [holding(state, p) for p in (1, 2, 0)] == [7, 8, 9]  # [GB77]
    seven = {ACTIONS[0]: 6, ACTIONS[1]: 1}
    assert refused(api, t, "markers", {"player": 0, "markers": seven})["field"] == "data.markers"  # Anna holds 9
    ok(api, t, "markers", {"player": 1, "markers": seven})
    assert api.get(t)["state"]["first"] == 1


def test_gutenberg_setup_option_and_the_event_agree(api):
    t = api.create("gutenberg", NAMES, first_player=2)
    assert api.get(t)["state"]["first"] == 2
    state = ok(api, t, "first_player", {"player": 0})
    assert state["first"] == 0 and [holding(state, p) for p in (0, 1, 2)] == [7, 8, 9]


def test_voynich_turn_and_round_count_from_the_first_player_and_so_do_the_last_turns(api):
    t = table(api, "voynich")
    assert ok(api, t, "first_player", {"player": 1})["turn"] == 1
    assert ok(api, t, "end_turn")["turn"] == 2
    state = ok(api, t, "end_turn")
    assert (state["turn"], state["round"]) == (0, 1)
    state = ok(api, t, "end_turn")
    assert (state["turn"], state["round"]) == (1, 2)  # the round starts again with Ben
    ok(api, t, "end_turn")
    state = ok(api, t, "move", {"player": 2, "marker": "gk", "delta": 52})  # Cy, on his turn, reaches the end
    # [V356] finish the round (Anna, the last of Ben's round), then one more turn each from Ben
    assert state["end"]["remaining"] == [0, 1, 2, 0]


def test_codex_last_turns_count_from_the_first_player(api):
    t = table(api, "codex")
    ok(api, t, "first_player", {"player": 1})
    state = ok(api, t, "points", {"player": 0, "delta": 20})
    assert state["end"]["turns"] == [1, 2, 0]  # [CN54] Anna ends Ben's round, then Ben, Cy, Anna once more


# --- refusals -------------------------------------------------------------------------------------------

@pytest.mark.parametrize("key", TRACKING)
def test_a_seat_out_of_range_is_refused_naming_data_player(api, key):
    t = table(api, key)
    for bad in (len(names_of(key)), -1, "Ben", True):
        assert refused(api, t, "first_player", {"player": bad})["field"] == "data.player"
    assert refused(api, t, "first_player", {})["field"] == "data.player"
    assert refused(api, t, "draw_first_player", {"player": 1})["field"] == "data.player"


@pytest.mark.parametrize("key", TRACKING)
def test_once_the_game_has_begun_the_first_player_stays(api, key):
    t = table(api, key)
    events, said = examples(key).BEGUN
    for type_, data in events:
        ok(api, t, type_, data)
    chosen = refused(api, t, "first_player", {"player": 1})
    assert chosen["field"] == "data.player" and said in chosen["error"]
    drawn = refused(api, t, "draw_first_player")
    assert drawn["field"] == "type" and said in drawn["error"]
    assert api.undo(t).status_code == 200  # undone, it is open again
    ok(api, t, "first_player", {"player": 1})


def test_gutenberg_with_the_automa_refuses_both_with_its_rule(api):
    t = api.create("gutenberg", ["Anna", "Ben"], automa=True)
    chosen = refused(api, t, "first_player", {"player": 1})
    # the choice of a player is what the rule refuses: the automa takes the token
    assert chosen["field"] == "data.player" and "[GB327]" in chosen["error"] and "automa takes the first player token" in chosen["error"]
    drawn = refused(api, t, "draw_first_player")
    assert drawn["field"] == "type" and "[GB327]" in drawn["error"]


def test_voynich_solo_refuses_both_you_are_the_first_player(api):
    t = api.create("voynich", ["Anna"])
    assert "[V377]" in refused(api, t, "first_player", {"player": 0})["error"]
    assert refused(api, t, "draw_first_player")["field"] == "type"


@pytest.mark.parametrize("key", KEYS)
def test_a_calculator_table_refuses_both(api, key):
    t = api.create(key, names_of(key), calculator=True)
    for type_, data in (("first_player", {"player": 0}), ("draw_first_player", {})):
        refusal = refused(api, t, type_, data)
        assert refusal["field"] == "type" and "just the final score" in refusal["error"]


@pytest.mark.parametrize("key", [key for key in KEYS if not get(key).tracks] + ["a stand-in"])
def test_every_table_of_a_game_that_tracks_nothing_refuses_both(api, monkeypatch, key):
    """Asked for no calculator, a table of such a game is one all the same (companion/tables.py); the
    stand-in is Codex taking its calculator's events alone (tests/foundation/test_calculator_only.py)."""
    if key == "a stand-in":
        from tests.foundation.test_calculator_only import UNTRACKED

        monkeypatch.setitem(registry(), UNTRACKED.key, UNTRACKED)
        key = UNTRACKED.key
    t = api.create(key, names_of(key))
    for type_, data in (("first_player", {"player": 0}), ("draw_first_player", {})):
        refusal = refused(api, t, type_, data)
        assert refusal["field"] == "type" and "just the final score" in refusal["error"]


@pytest.mark.parametrize("key", KEYS)
def test_a_finished_table_refuses_both(app, api, key):
    play = getattr(examples(key), "play_tracked_to_the_end", None)
    t = play(app, api) if play else None
    if t is None:  # Codex's examples play none to the end: its state, finished
        from companion.games.base import Context

        game, names = get(key), names_of(key)
        state = dict(game.initial_state(names, game.validate_options(examples(key).OPTIONS, len(names)), {}), finished=True)
        with pytest.raises(RulesError) as err:
            game.apply(state, "first_player", {"player": 0}, Context(names=tuple(names)))
        assert "the game is over" in err.value.message
        return
    assert api.get(t)["state"]["finished"]
    assert "over" in refused(api, t, "first_player", {"player": 0})["error"]
    assert "over" in refused(api, t, "draw_first_player")["error"]


# --- whose turn follows whose (the turn clock) ------------------------------------------------------------

def test_next_seat_in_each_games_turn_order(api):
    codex = table(api, "codex")
    state = ok(api, codex, "first_player", {"player": 2})
    assert [get("codex").next_seat(state, s) for s in (2, 0, 1)] == [0, 1, 2]  # clockwise [CN36]

    galileo = table(api, "galileo")
    ok(api, galileo, "first_player", {"player": 1})
    state = ok(api, galileo, "pass", {"player": 1})  # Ben passes: skipped till the next cycle [GT369]
    assert [get("galileo").next_seat(state, s) for s in (1, 2, 0)] == [2, 0, 2]

    gutenberg = api.create("gutenberg", ["Anna", "Ben"], automa=True, automa_seat=1)
    state = api.get(gutenberg)["state"]
    assert state["seats"] == [0, "automa", 1]
    assert [get("gutenberg").next_seat(state, s) for s in (0, 1)] == [1, 0]  # the automa passed over

    voynich = table(api, "voynich")
    state = ok(api, voynich, "first_player", {"player": 2})
    assert [get("voynich").next_seat(state, s) for s in (2, 0, 1)] == [0, 1, 2]
    solo = api.create("voynich", ["Anna"])
    assert get("voynich").next_seat(api.get(solo)["state"], 0) == 0


# --- the card, through the page ---------------------------------------------------------------------------

@pytest.mark.parametrize("key", TRACKING)
def test_the_card_posts_without_javascript_and_with_htmx(client, api, key):
    t = table(api, key)
    open_table(client, t)
    page = client.get(f"/t/{t['table']}").get_data(as_text=True)
    assert 'id="first-player"' in page and "Who goes first?" in page and "Draw at random" in page
    r = post_form(client, t, {"type": "first_player", "data.player:json": "1"})
    assert r.status_code == 303  # a plain form: back to the page
    page = client.get(r.headers["Location"]).get_data(as_text=True)
    assert "<bdi>Ben</bdi> goes first" in page
    version = str(api.get(t)["version"])  # the page's script sends the version it shows
    r = post_form(client, t, {"type": "draw_first_player", "expected_version:int": version}, htmx=True)
    assert r.status_code == 200 and 'id="first-player"' in r.get_data(as_text=True)
    drawn = names_of(key)[api.get(t)["state"]["first"]]
    assert f"<bdi>{drawn}</bdi> goes first" in client.get(f"/t/{t['table']}").get_data(as_text=True)


def test_the_card_says_the_rule_where_it_decides(client, api):
    t = api.create("gutenberg", ["Anna", "Ben"], automa=True)
    open_table(client, t)
    page = client.get(f"/t/{t['table']}").get_data(as_text=True)
    assert "automa takes the first player token [GB327]" in page and 'value="first_player"' not in page
    # the outcome's own line says it: no seat of the table goes first, the rule says who (it was blank)
    outcome = re.search(r'<p class="first-outcome"[^>]*>(.*?)</p>', page, re.S).group(1)
    assert "automa takes the first player token [GB327]" in outcome
    t = api.create("voynich", ["Anna"])
    open_table(client, t)
    page = client.get(f"/t/{t['table']}").get_data(as_text=True)
    assert "<bdi>Anna</bdi> goes first" in page and "[V377]" in page and 'value="draw_first_player"' not in page


def test_the_card_says_why_once_begun_and_leaves_a_calculator_table_alone(client, api):
    t = table(api, "voynich")
    ok(api, t, "end_turn")
    open_table(client, t)
    page = client.get(f"/t/{t['table']}").get_data(as_text=True)
    assert "first turn is under way" in page and 'value="first_player"' not in page
    t = api.create("voynich", NAMES, calculator=True)
    open_table(client, t)
    assert 'id="first-player"' not in client.get(f"/t/{t['table']}").get_data(as_text=True)
