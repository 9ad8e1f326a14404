"""The turn clock, in every game: the table event `clock` and `state["clock"]`.

A group may time its turns, as a chess clock does: one player's time runs, "Done" passes it on.
The server's clock is the truth, and nothing ticks on the server between taps: each event reads
the time it is written at (`Context.at`, stored with it and read again on a replay after an undo),
and the totals change only there. A page computes the running turn's time from `since` and the
server's time it knows (static/js/clock.js).

The event, `{"action": ACTION, ...}`:

- `start` (`seat` and `limit_s` optional): the clock starts on `seat`, else on the game's first
  whose turn it is now where the table knows it (`order.to_play`), else on seat 0; `limit_s` is the group's turn limit in seconds
  (0 or absent: none).
- `pass` (`seat`, `from` optional): the running turn ends; the next one is `seat`'s (a tap on a name),
  else the next seat in the game's turn order (`Game.next_seat`), else the next seat clockwise. `from`
  names the turn that ends: refused once it has ended, so that "Done" tapped twice passes one turn.
- `pause`, `resume`: the running turn stops and goes on; its time so far is kept.
- `limit` (`limit_s`): change the turn limit (0: none).

Its state, `state["clock"]` (absent until a `start`):

    {"ms": [TOTAL_MS per seat], "turns": [TURNS per seat], "running": SEAT or None,
     "since": EPOCH_MS or None, "turn_ms": MS, "paused": bool, "limit_s": N or None}

`ms` holds each seat's time up to `since` (the running stretch is not in it yet), `running` the seat
whose turn it is (kept while paused; None once the game is over), `since` when its running stretch
began (None while paused or stopped), `turn_ms` the running turn's time before `since` (its stretches
before a pause), and `turns` the turns each seat began. The event that ends the game adds the running
stretch and stops the clock (`settle`): the turn it cut counts.
"""

from __future__ import annotations

import copy
from datetime import datetime
from typing import Any

from .speech import _
from .validation import RulesError, choice, obj, whole

ACTIONS = ("start", "pass", "pause", "resume", "limit")
#: the longest turn limit a group may set: an hour
LIMIT_MAX_S = 3600
#: what each action takes beside `action`
_KEYS = {"start": ("seat", "limit_s"), "pass": ("seat", "from"), "pause": (), "resume": (), "limit": ("limit_s",)}

#: event type -> one-line description with its data shape
EVENTS: dict[str, str] = {
    "clock": ('{"action": "start" | "pass" | "pause" | "resume" | "limit", "seat": SEAT (optional: start or pass to '
              'this player), "from": SEAT (optional, pass: the turn that ends; refused once it has), "limit_s": 0-3600 (start, limit: a turn '
              'limit in seconds, 0 for none)}: the turn clock, '
              'timed by the server at each event'),
}


def _line(data: dict, who: str) -> str:
    action = data.get("action")
    if action == "start":
        return _("Turn clock started")
    if action == "pass":
        return _("Turn clock: turn handed over") if "seat" in data else _("Turn clock: next turn")
    if action == "pause":
        return _("Turn clock paused")
    if action == "resume":
        return _("Turn clock resumed")
    if data.get("limit_s"):
        return _("Turn clock: a turn's limit is %(seconds)s s", seconds=data["limit_s"])
    return _("Turn clock: no limit on a turn")


#: event type -> its history line (base.describe_event's shape)
LINES: dict = {"clock": _line}


def epoch_ms(at: str) -> int:
    """"2026-12-06T13:55:10.123Z" -> the server's epoch time in ms (a page ticks from it)."""
    return round(datetime.fromisoformat(at.replace("Z", "+00:00")).timestamp() * 1000)


def apply(game, state: dict, data: Any, ctx) -> dict:
    """Return the state after a `clock` event (Game.apply hands it on here); raise RulesError naming the field."""
    data = obj(data, "data", required=("action",), optional=("seat", "limit_s", "from"))
    action = choice(data["action"], "data.action", ACTIONS)
    for key in data:
        if key != "action" and key not in _KEYS[action]:
            raise RulesError(f"data.{key}", _("%(action)s takes no %(key)s", action=action, key=key))
    if state.get("finished"):
        raise RulesError("type", _("the game is over: its clock is stopped"))
    if not ctx.at:
        raise RulesError("type", _("the turn clock runs at a table alone: it needs the time each event is written at"))
    seats = len(ctx.names)
    seat = whole(data["seat"], "data.seat", 0, seats - 1) if "seat" in data else None
    limit = whole(data["limit_s"], "data.limit_s", 0, LIMIT_MAX_S) if "limit_s" in data else None
    ending = whole(data["from"], "data.from", 0, seats - 1) if "from" in data else None
    now = epoch_ms(ctx.at)
    clock = copy.deepcopy(state.get("clock"))
    if action == "start":
        if clock is not None:
            raise RulesError("data.action", _("the clock is already started"))
        if seat is None:
            # whose turn it is now (Galileo's order changes each cycle, Gutenberg's token passes each round)
            first = game.modules.order.to_play(state)
            seat = first if isinstance(first, int) and 0 <= first < seats else 0
        clock = {"ms": [0] * seats, "turns": [0] * seats, "running": seat, "since": now, "turn_ms": 0,
                 "paused": False, "limit_s": limit or None}
        clock["turns"][seat] += 1
        return {**state, "clock": clock}
    if clock is None:
        raise RulesError("data.action", _("start the clock first"))
    if action == "limit":
        if limit is None:
            raise RulesError("data.limit_s", _("is required"))
        clock["limit_s"] = limit or None
    elif action == "resume":
        if not clock["paused"]:
            raise RulesError("data.action", _("the clock is not paused"))
        clock.update(paused=False, since=now)
    else:  # pass, pause: a running clock
        if clock["paused"]:
            raise RulesError("data.action", _("the clock is paused: resume it first"))
        if ending is not None and ending != clock["running"]:
            # "Done" says whose turn it ends: tapped twice, the second (sent again on the newer version) passes nothing
            raise RulesError("data.from", _("%(name)s's turn has already passed", name=ctx.names[ending]))
        _stop(clock, now)
        if action == "pause":
            clock["paused"] = True
        else:
            if seat is None:
                seat = _next(game, state, clock["running"], seats)
            elif seat == clock["running"] and seats > 1:
                raise RulesError("data.seat", _("it is already this player's turn"))
            clock.update(running=seat, since=now, turn_ms=0)
            clock["turns"][seat] += 1
    return {**state, "clock": clock}


def _next(game, state: dict, seat: int, seats: int) -> int:
    """The seat whose turn follows: the game's turn order, else clockwise (seat order)."""
    following = game.next_seat(state, seat)
    if isinstance(following, int) and not isinstance(following, bool) and 0 <= following < seats:
        return following
    return (seat + 1) % seats


def _stop(clock: dict, now: int) -> None:
    """Add the running stretch (since `since`) to its seat's total and to the turn's time."""
    if clock["since"] is None:
        return
    # a server clock set back between two events never takes time away
    stretch = max(0, now - clock["since"])
    clock["ms"][clock["running"]] += stretch
    clock["turn_ms"] += stretch
    clock["since"] = None


def settle(state: dict, ctx) -> dict:
    """Return the state a game's event left, its clock stopped when that event ended the game."""
    clock = state.get("clock")
    if not state.get("finished") or not clock or clock["running"] is None:
        return state
    clock = copy.deepcopy(clock)
    if ctx.at:
        _stop(clock, epoch_ms(ctx.at))
    clock.update(running=None, since=None, paused=False, turn_ms=0)
    return {**state, "clock": clock}


def totals(state: dict) -> list[dict] | None:
    """Each seat's `{"time_ms", "turns"}` on a table that ran a clock, else None (the result's fields).

    Read from a finished table, whose clock `settle` stopped; on a running one, up to its last event.
    """
    clock = state.get("clock")
    if not clock:
        return None
    return [{"time_ms": ms, "turns": turns} for ms, turns in zip(clock["ms"], clock["turns"])]


def shown(ms: int) -> str:
    """A clock's time as a page shows it: 4:05, 1:02:09 past an hour (static/js/clock.js writes the same)."""
    s = max(0, int(ms)) // 1000
    return f"{s // 3600}:{s // 60 % 60:02d}:{s % 60:02d}" if s >= 3600 else f"{s // 60}:{s % 60:02d}"
