"""Who goes first, in every game: the table events `first_player` and `draw_first_player`.

The two events are checked here alike for every game: the seat, and the draw, seeded by the table
and by a draw counter kept in the state (`state["draws"]`), so that an undone draw redone draws
the same seat. Each game says the rest in its own `order.py`:

- `ruled(state, options)`: the sentence of a rule that decides who goes first (Gutenberg's automa
  [GB327], Voynich solo [V377]), or None where the players choose;
- `begun(state)`: why it is too late to choose (the game has begun, or is over), or None;
- `set_first(state, seat)`: what choosing changes: `state["first"]` in every game, and what follows;
- `first_of(state)`: the seat (an index of the table's names) that goes first, once known;
- `next_seat(state, seat)`: whose turn follows whose (the turn clock asks it, through Game.next_seat).
"""

from __future__ import annotations

import copy
from typing import Any

from .speech import _
from .validation import RulesError, obj, whole

#: event type -> one-line description with its data shape
EVENTS: dict[str, str] = {
    "first_player": '{"player": SEAT}: this player goes first; refused where the rules decide, or once the game has begun',
    "draw_first_player": "{}: the app draws the first player at random, seeded by the table (an undo then a redo draws the same)",
}

#: event type -> its history line (base.describe_event's shape)
LINES: dict = {
    "first_player": lambda data, who: _("%(who)s plays first", who=who),
    "draw_first_player": lambda data, who: _("First player drawn at random"),
}


def apply(game, state: dict, type_: str, data: Any, ctx) -> dict:
    """Return the state after a first-player event (Game.apply hands these on here); raise RulesError
    with nothing changed where the seat is not one of the table's or the game does not let it be chosen.

    A refusal names `data.player` for a chosen seat and `type` for a draw, which has no field of its own.
    """
    order = game.modules.order
    data = {} if data is None else data
    if type_ == "first_player":
        obj(data, "data", required=("player",))
        seat = whole(data["player"], "data.player", 0, len(ctx.names) - 1)
    else:
        obj(data, "data")
        seat = None
    why = first_fixed(order, state, ctx.options)
    if why:
        raise RulesError("data.player" if type_ == "first_player" else "type", why)
    new = copy.deepcopy(state)
    # the last event's words are said beside it alone: base.keep_notice's, and the game's own (table.QUIET)
    for key, empty in {"notice": None, **(game.optional("table", "QUIET") or {})}.items():
        if key in new:
            new[key] = copy.deepcopy(empty)
    new.pop("notice_later", None)
    if seat is None:
        draws = new.get("draws", 0)
        # the table's seed and the number of draws before this one: an undo then a redo draws the same
        seat = ctx.rng("first_player", draws).randrange(len(ctx.names))
        new["draws"] = draws + 1
    order.set_first(new, seat)
    # how many times the first player was chosen or drawn: the page's outcome settles again at each one
    new["picks"] = new.get("picks", 0) + 1
    return new


def first_fixed(order, state: dict, options: dict) -> str | None:
    """Why the first player cannot be chosen now (a rule that decides, a game begun), or None: the
    same order of reasons in every game, each game's own from its `order.py`. (A calculator table
    never gets here: Game.apply refuses every event it does not take.)"""
    return order.ruled(state, options) or order.begun(state)


def card(game, state: dict, options: dict, names: list[str]) -> dict | None:
    """Return what the page's card "Who goes first?" shows (templates/tables/_first.html), or None
    where it shows nothing: a calculator table, or a finished one.

    {"seat": the seat going first or None (not chosen yet, or the automa), "first": its name, "fixed": the
    sentence of a rule that decides, or None where the players choose, "late": why it is too late to
    choose (the game has begun), "picks": how many times it was chosen or drawn}. The card stays, one line shorter, once the game has begun:
    it never leaves from under a finger.
    """
    order = game.modules.order
    if options.get("calculator") or state.get("finished"):  # a calculator table plays no turn
        return None
    first = order.first_of(state)
    known = first is not None and 0 <= first < len(names)
    return {"seat": first if known else None, "first": names[first] if known else None,
            "fixed": order.ruled(state, options), "late": order.begun(state), "picks": state.get("picks", 0)}
