"""What every game's table uses to keep and say the last event's words, and to word its history.

Shared by the game packages (they import these through `companion/games/base.py`, which gives
them on): a state's copy for `apply` to change (`clone`), the notice a state keeps in English
beside the sentence each page says in its own language (`keep_notice`, `shown_notice`), and a
game's table of history lines (`EventLines`, `describe_event`).
"""

from __future__ import annotations

import copy
from typing import Any, Callable, Mapping, Union

from . import sentence, speech
from .speech import _

#: how a game words its events for the history panel: event type -> a format string over the
#: event's data and `who` (the player `data["player"]` names), or a function (data, who) -> str
EventLines = Mapping[str, Union[str, Callable[[dict, str], str]]]


def describe_event(lines: EventLines, type_: str, data: Any, names: list[str] | tuple[str, ...], nobody: str = "") -> str:
    """Say in plain words what an event did, from a game's table of lines (`Game.describe`).

    `who` is `nobody` when the event names no player; an event type without a line is said
    by its name ("end round").
    """
    d = data if isinstance(data, dict) else {}
    i = d.get("player")
    who = names[i] if isinstance(i, int) and not isinstance(i, bool) and 0 <= i < len(names) else nobody
    line = lines.get(type_)
    if line is None:
        return type_.replace("_", " ")
    # a line written out is a pattern the game marked with N_: said in the language spoken, then filled
    return line(d, who) if callable(line) else _(line).format(**d, who=who)


_ATOMS = (str, int, float, bool, type(None))


def clone(state: dict) -> dict:
    """Return a deep copy of a state, for apply() to change.

    States are JSON (dicts, lists, strings, numbers), so a copy that knows only those is
    enough and three times faster than copy.deepcopy (every event copies its table's state);
    anything else is handed to deepcopy.
    """
    kind = type(state)
    if kind is dict:
        return {key: clone(value) for key, value in state.items()}
    if kind is list:
        return [clone(value) for value in state]
    if kind in _ATOMS:
        return state
    return copy.deepcopy(state)


def keep_notice(state: dict, player: int | None, said: dict) -> None:
    """Say `said` (speech.later) beside `player`: the state's "notice" keeps its English, {"player",
    "text"} (what the API has always read), and "notice_later" the sentence kept, which each page
    says in its phone's language (shown_notice)."""
    with speech.english():
        state["notice"] = {"player": player, "text": speech.told(said)}
    state["notice_later"] = said


def shown_notice(state: dict, names: list[str]) -> dict | None:
    """The state's notice in the language spoken, its names marked for <bdi>; a state stored without
    "notice_later" (before issue 29) shows its English; None without a notice."""
    notice, kept = state.get("notice"), state.get("notice_later")
    if not notice:
        return None
    return dict(notice, text=sentence.naming(notice["text"] if kept is None else speech.told(kept), names))
