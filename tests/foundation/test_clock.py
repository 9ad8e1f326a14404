"""The turn clock (companion/games/clock.py), without Flask: events folded with hand-made times.

Each event reads the time it is written at (Context.at), as a table stores it; nothing else moves
the clock, so every total below is worked out by hand from those times.
"""

from __future__ import annotations

import copy

import pytest

from companion import games
from companion.games import clock
from companion.games.base import Context
from companion.games.validation import RulesError

CODEX = games.get("codex")
NAMES = ("Anna", "Ben", "Cara")
T0 = "2026-12-06T20:00:00.000Z"
T0_MS = clock.epoch_ms(T0)


def at(seconds: float) -> str:
    """The ISO time `seconds` after T0, to the millisecond, as tables.now() writes it."""
    ms = T0_MS + round(seconds * 1000)
    from datetime import datetime, timezone

    return datetime.fromtimestamp(ms / 1000, timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.") + f"{ms % 1000:03d}Z"


def _options(game, names, options):
    # calculator mode is every game's option, which the table checks beside the game's own
    calculator = options.pop("calculator", False)
    return {**game.validate_options(options, len(names)), **({"calculator": True} if calculator else {})}


def fold(events, game=CODEX, names=NAMES, **options):
    """Fold (type, data, seconds after T0) events, as tables.fold does."""
    opts = _options(game, names, options)
    state = game.initial_state(list(names), opts, {})
    for type_, data, t in events:
        state = game.apply(state, type_, data, Context(names=tuple(names), options=opts, at=at(t)))
    return state


def tick(action, t, **more):
    return ("clock", {"action": action, **more}, t)


def refused(state, data, t=100, game=CODEX, names=NAMES, **options):
    """The error a clock event gets; the state it was given is unchanged."""
    before = copy.deepcopy(state)
    opts = _options(game, names, options)
    with pytest.raises(RulesError) as info:
        game.apply(state, "clock", data, Context(names=tuple(names), options=opts, at=at(t)))
    assert state == before
    return info.value


def test_no_clock_until_started():
    assert "clock" not in fold([])


def test_start_pass_and_totals_from_the_event_times():
    state = fold([tick("start", 0, seat=0), tick("pass", 12.5), tick("pass", 20), tick("pass", 50.25)])
    c = state["clock"]
    # Anna 0-12.5 s, Ben 12.5-20 s, Cara 20-50.25 s, and Anna again since 50.25 s
    assert c["ms"] == [12_500, 7_500, 30_250]
    assert c["turns"] == [2, 1, 1]
    assert c["running"] == 0 and c["since"] == T0_MS + 50_250 and c["paused"] is False and c["turn_ms"] == 0


@pytest.mark.parametrize("key, first, turns", [
    ("codex", 2, [2, 0, 1, 2]),      # clockwise from the first player [CN36], round the table
    ("galileo", 1, [1, 2, 0, 1]),    # the turn order markers from the first player [GT103]
    ("gutenberg", 1, [1, 2, 0, 1]),  # clockwise [GB72]
    ("voynich", 2, [2, 0, 1, 2]),    # the seats in order from the first player [V55]
])
def test_done_follows_each_games_turn_order_from_its_first_player(key, first, turns):
    game = games.get(key)
    state = fold([("first_player", {"player": first}, 0), tick("start", 1)], game=game)
    running = [state["clock"]["running"]]
    for t in range(2, 5):
        state = game.apply(state, "clock", {"action": "pass"}, Context(names=NAMES, options=_options(game, NAMES, {}), at=at(t)))
        running.append(state["clock"]["running"])
    assert running == turns


def test_done_tapped_twice_passes_one_turn():
    """The second "Done" names the turn it ends, which the first has passed: refused, nothing changed."""
    state = fold([tick("start", 0, seat=0), tick("pass", 5, **{"from": 0})])
    assert state["clock"]["running"] == 1
    error = refused(state, {"action": "pass", "from": 0}, t=6)
    assert error.field == "data.from" and "Anna" in error.message


def test_start_on_the_games_first_player_by_default():
    state = fold([("first_player", {"player": 2}, 0), tick("start", 1)])
    assert state["clock"]["running"] == 2 and state["clock"]["turns"] == [0, 0, 1]
    assert fold([tick("start", 1)])["clock"]["running"] == 0  # no first player known: seat 0


def test_a_tap_on_a_name_hands_the_turn_over():
    state = fold([tick("start", 0, seat=0), tick("pass", 3, seat=2)])
    assert state["clock"]["running"] == 2 and state["clock"]["ms"] == [3000, 0, 0] and state["clock"]["turns"] == [1, 0, 1]


def test_pause_and_resume_keep_the_turns_time():
    state = fold([tick("start", 0, seat=1), tick("pause", 10), tick("resume", 70), tick("pause", 75)])
    c = state["clock"]
    # the minute paused counts for nobody
    assert c["ms"] == [0, 15_000, 0] and c["turn_ms"] == 15_000 and c["paused"] is True and c["since"] is None
    state = fold([tick("start", 0, seat=1), tick("pause", 10), tick("resume", 70), tick("pass", 80)])
    assert state["clock"]["ms"] == [0, 20_000, 0] and state["clock"]["turn_ms"] == 0 and state["clock"]["running"] == 2


def test_the_limit_is_set_at_start_and_changed_later():
    assert fold([tick("start", 0, limit_s=90)])["clock"]["limit_s"] == 90
    assert fold([tick("start", 0)])["clock"]["limit_s"] is None
    assert fold([tick("start", 0, limit_s=90), tick("limit", 5, limit_s=120)])["clock"]["limit_s"] == 120
    assert fold([tick("start", 0, limit_s=90), tick("limit", 5, limit_s=0)])["clock"]["limit_s"] is None


def _codex_to_the_end(clock_events):
    """Codex, two players: Ben's turn empties both decks, one more round each, then the finish [CN53-55]."""
    names = ("Anna", "Ben")
    events = [("first_player", {"player": 0}, 0), *clock_events, ("decks_empty", {"player": 1}, 30),
              ("turn_played", {}, 40), ("turn_played", {}, 50)]
    return names, events


def test_the_event_that_ends_the_game_settles_the_clock():
    names, events = _codex_to_the_end([tick("start", 0), tick("pass", 10), tick("pass", 25)])
    state = fold(events + [("finish", {}, 61)], names=names)
    assert state["finished"] is True
    c = state["clock"]
    # Anna 0-10 and 25-61 (her turn cut by the end counts), Ben 10-25
    assert c["ms"] == [46_000, 15_000] and c["turns"] == [2, 1]
    assert c["running"] is None and c["since"] is None and c["paused"] is False
    assert clock.totals(state) == [{"time_ms": 46_000, "turns": 2}, {"time_ms": 15_000, "turns": 1}]
    # paused when the game ends: nothing more is added
    names, events = _codex_to_the_end([tick("start", 0), tick("pause", 20)])
    state = fold(events + [("finish", {}, 99)], names=names)
    assert state["clock"]["ms"] == [20_000, 0] and state["clock"]["running"] is None


def test_refusals_name_the_field():
    fresh = fold([])
    running = fold([tick("start", 0)])
    paused = fold([tick("start", 0), tick("pause", 1)])
    assert refused(fresh, {"action": "pass"}).field == "data.action"
    assert "start the clock first" in refused(fresh, {"action": "pause"}).message
    assert refused(fresh, {"action": "resume"}).field == "data.action"
    assert "already started" in refused(running, {"action": "start"}).message
    assert "not paused" in refused(running, {"action": "resume"}).message
    assert "paused" in refused(paused, {"action": "pass"}).message
    assert "paused" in refused(paused, {"action": "pause"}).message
    assert refused(running, {"action": "pass", "seat": 3}).field == "data.seat"
    assert refused(running, {"action": "pass", "seat": -1}).field == "data.seat"
    assert refused(running, {"action": "pass", "seat": 0}).field == "data.seat"  # already Anna's turn
    assert refused(running, {"action": "jump"}).field == "data.action"
    assert refused(running, {}).field == "data.action"
    assert refused(running, {"action": "pause", "seat": 1}).field == "data.seat"
    assert refused(fresh, {"action": "start", "limit_s": 3601}).field == "data.limit_s"
    assert refused(running, {"action": "limit"}).field == "data.limit_s"
    assert refused(running, {"action": "pass", "when": 1}).field == "data.when"
    assert refused(running, "pass").field == "data"


def test_refused_on_a_finished_table():
    names, events = _codex_to_the_end([tick("start", 0)])
    over = fold(events + [("finish", {}, 61)], names=names)
    error = refused(over, {"action": "start"}, names=names)
    assert error.field == "type" and "game is over" in error.message


def test_refused_on_a_calculator_table_saying_what_it_takes():
    state = fold([], calculator=True)
    error = refused(state, {"action": "start"}, calculator=True)
    assert error.field == "type" and "just the final score" in error.message


def test_a_clock_set_back_never_takes_time_away():
    state = fold([tick("start", 10), tick("pass", 4)])
    assert state["clock"]["ms"] == [0, 0, 0] and state["clock"]["running"] == 1


def test_history_lines():
    assert CODEX.describe("clock", {"action": "start"}, list(NAMES)) == "Turn clock started"
    assert CODEX.describe("clock", {"action": "pass"}, list(NAMES)) == "Turn clock: next turn"
    assert CODEX.describe("clock", {"action": "limit", "limit_s": 90}, list(NAMES)) == "Turn clock: a turn's limit is 90 s"


def test_start_on_whoever_holds_the_first_player_token_now():
    """Gutenberg's token passes each round [GB291]: the clock starts on its holder, not on who began."""
    state = fold([("end_round", {}, 0), tick("start", 1)], game=games.get("gutenberg"))
    assert state["first"] == 1 and state["clock"]["running"] == 1


def test_done_skips_whoever_passed_in_galileo_and_starts_on_whose_turn_it_is():
    """Not clockwise: Galileo's turn order skips those who passed this cycle [GT369], and the clock
    starts on whose turn it is on the Current Turn Order Track, which changes each cycle [GT379]."""
    galileo = games.get("galileo")
    state = fold([], game=galileo)
    state = dict(state, order=[2, 0, 1], passing=[0])  # a later cycle: Cara first, Anna has passed
    ctx = Context(names=NAMES, options=_options(galileo, NAMES, {}), at=at(1))
    started = galileo.apply(state, "clock", {"action": "start"}, ctx)
    assert started["clock"]["running"] == 2
    passed = galileo.apply(started, "clock", {"action": "pass"}, Context(names=NAMES, options=ctx.options, at=at(2)))
    assert passed["clock"]["running"] == 1  # Anna passed: Ben, not the next seat clockwise (0)


def test_the_clock_starts_on_whose_turn_it_is_in_voynich():
    voynich = games.get("voynich")
    state = dict(fold([], game=voynich), turn=2)
    started = voynich.apply(state, "clock", {"action": "start"}, Context(names=NAMES, options=_options(voynich, NAMES, {}), at=at(1)))
    assert started["clock"]["running"] == 2
