"""A table's log in plain words: the history every table page and play record shows.

Plain Python, like companion/tables.py, which re-exports these for its callers. Split from it
by role: tables.py writes and folds the log, this module reads it back as lines for people.
Each line is a games/sentence.py Sentence: the game writes it from the names marked, so a page
prints each name in <bdi> and a right-to-left one cannot turn "محمد: +5 points" around.
The lines are said when they are read, in the language spoken (games/speech.py): the log keeps
only the events.
"""

from __future__ import annotations

import json
from typing import Any

from .games import sentence
from .games.speech import _


def event_of(row: tuple) -> dict:
    """Return one stored event in the contract's shape plus its seat."""
    seq, type_, data, seat, at_ = row
    return {"seq": seq, "type": type_, "data": json.loads(data), "seat": seat, "at": at_}


def recent_history(db, table: Any, limit: int = 60) -> list[dict]:
    """Return history(table, whole log)[:limit] while reading only the newest `limit` events.

    The page is rendered on every change and every live update, so it must not cost more as
    the game goes on. An undo newer than the window cannot exist, so every undo that marks a
    shown line is in the window; only the events older undos took back are read besides.
    """
    rows = db.execute(
        "SELECT seq, type, data, seat, at FROM events WHERE table_id = ? ORDER BY seq DESC LIMIT ?", [table.id, limit]
    ).fetchall()
    window = [event_of(row) for row in reversed(rows)]
    shown = {e["seq"] for e in window}
    older = sorted({e["data"]["seq"] for e in window if e["type"] == "undo"} - shown)
    taken: list[dict] = []
    if older:
        marks = ",".join("?" * len(older))
        taken = [event_of(row) for row in db.execute(
            f"SELECT seq, type, data, seat, at FROM events WHERE table_id = ? AND seq IN ({marks}) ORDER BY seq",
            [table.id, *older]).fetchall()]
    return history(table, taken + window)[: len(window)]


def history(table: Any, log: list[dict]) -> list[dict]:
    """Return the log newest first, each event in plain words, marking those taken back."""
    undone = {e["data"]["seq"] for e in log if e["type"] == "undo"}
    by_seq = {e["seq"]: e for e in log}
    names = sentence.names(table.names)
    lines = []
    for e in reversed(log):
        text = sentence.Sentence(_marked(table, names, e, by_seq))
        lines.append({"seq": e["seq"], "at": e["at"], "text": text, "undone": e["seq"] in undone})
    return lines


def describe(table: Any, event: dict, by_seq: dict[int, dict]) -> sentence.Sentence:
    """Say what one event did, in plain words (its str; a page shows each name in <bdi>)."""
    return sentence.Sentence(_marked(table, sentence.names(table.names), event, by_seq))


def _marked(table: Any, names: list[str], event: dict, by_seq: dict[int, dict]) -> str:
    """The line with each name marked (sentence.name): the game's describe is handed the names marked."""
    data = event["data"]
    if event["type"] == "undo":
        taken = by_seq.get(data.get("seq"))
        if taken is None:
            # Translators: the history's line for an undo whose event is no longer read
            return _("Undo: event %(seq)s", seq=data.get("seq"))
        # Translators: the history's line for an undo, then the line of the event it took back
        return _("Undo: %(line)s", line=_marked(table, names, taken, by_seq))
    if event["type"] == "rematch":  # companion/table_events.py
        return _("Played again at a new table")
    if event["type"] == "rename":
        return _("Player %(number)s is now called %(name)s", number=data["player"] + 1, name=sentence.name(data["name"]))
    try:
        return table.rules.describe(event["type"], data, names)
    except Exception:  # describing must never break the page
        return event["type"].replace("_", " ")
