"""A finished table's result, in one shape for every game (CONTRACT.md "results").

Plain Python over the database: the result endpoint, the plays archive, the stats and
`companion export` all read a finished table through `result`, so they can never disagree.
The totals, places and winners are exactly what the game's `score` rules function gives
(`Game.final_result`); this module only adds where and when, and the BG Stats document.

The document leaves the app (the API, the export, BG Stats), so it is made in English whatever
the page that asks speaks (`speech.english()`). Its verdict is a `Verdict`: English as a str
(the JSON's, the CSV's), and said again in the reader's language on a page (`verdict`).
"""

from __future__ import annotations

import hashlib
import json
import unicodedata
from datetime import datetime
from typing import Any, Iterator
from urllib.parse import quote

import sqlite_utils

from . import tables
from . import games
from .games import clock, colours, sentence, speech
from .games.base import Context, is_calculator
from .games.speech import _

#: BG Stats remembers its matches of games and players per source: never change this name
SOURCE_NAME = "Table Companion"
#: BG Stats 3.3.2 and later open their import dialog from this address
BGSTATS_URL = "https://app.bgstatsapp.com/createPlay.html?data="


class NotOver(Exception):
    """The table's game is not over: it has no result yet."""


def iso_seconds(stamp: str) -> str:
    """"2026-12-03T21:14:05.123Z" -> "2026-12-03T21:14:05Z" (the contract's finished_at)."""
    return _parse(stamp).strftime("%Y-%m-%dT%H:%M:%SZ")


def _parse(stamp: str) -> datetime:
    return datetime.fromisoformat(stamp.replace("Z", "+00:00"))


def player_id(name: str) -> str:
    """A player's `sourcePlayerId`: the same for the same name at every table.

    BG Stats matches a source's players to its own by this id, so "Tom" is matched once and
    then recognised in every later play. Names are compared as the app compares them (case
    and composition do not matter).
    """
    key = unicodedata.normalize("NFKC", name).casefold().strip()
    return "name-" + hashlib.sha256(key.encode()).hexdigest()[:16]


def title_id(title: str) -> str:
    """A title the players typed as BG Stats' `sourceGameId` says it after the key: "Dice  night" and "dice
    night" are one game. Frozen like player_id's folding (NFKC, case, runs of spaces), never the stats'
    name_key, which may learn more: BG Stats would take a changed id for a new game."""
    return " ".join(unicodedata.normalize("NFKC", title).casefold().split())


class Verdict(sentence.Sentence):
    """Who won a finished table, in one line: the contract's English as a str (the JSON, the export,
    BG Stats), in the language spoken on a page (Jinja calls `__html__`; Python calls `verdict`).

    It keeps the game and the scored result it was said from, to say it again in another language.
    """

    game: str
    scored: dict

    def __new__(cls, game: str, scored: dict) -> "Verdict":
        with speech.english():
            self = super().__new__(cls, games.get(game).verdict(scored))
        self.game, self.scored = game, scored
        return self

    def spoken(self) -> sentence.Sentence:
        """The verdict in the language spoken (the English one as it is)."""
        if speech.language() == speech.SOURCE:
            return sentence.Sentence(self.isolated)
        return sentence.said(games.get(self.game).verdict(self.scored))

    def __html__(self) -> str:
        return self.spoken().__html__()

    def __reduce__(self):
        return Verdict, (self.game, self.scored)


def verdict(doc: dict) -> str:
    """A result document's verdict in the language spoken: what a page shows (`doc["verdict"]`
    itself says the same on a page; this is for Python and for a template that wants it named).
    A document read back from JSON has only its English: that is given as it is."""
    said = doc["verdict"]
    return said.spoken() if isinstance(said, Verdict) else said


def result(table: tables.Table) -> dict:
    """Return the table's result document (the endpoint's answer); raise NotOver before the end.

    In English whatever the language spoken: it is exported, sent to BG Stats and answered by the API.
    """
    with speech.english():
        return _result(table)


def _result(table: tables.Table) -> dict:
    game = table.rules
    scored = game.final_result(table.state, list(table.names), table.options, table.profile) if table.finished else None
    if scored is None or table.finished_at is None:
        raise NotOver(table.id)
    players = []
    for seat, p in enumerate(scored["players"]):
        entry = {"name": p["name"], "total": p["total"], "breakdown": dict(p["breakdown"]),
                 "place": scored["places"][p["name"]]}
        entry.update({k: p[k] for k in game.result_extras if k in p})
        colour = colours.of_seat(table.options, seat)
        if colour:  # the seat's colour, when the table gave it one
            entry["colour"] = colour
        players.append(entry)
    timed = clock.totals(table.state)  # a table that ran a turn clock: each seat's time and turns
    if timed is not None:
        for entry, seat in zip(players, timed):
            entry.update(seat)
    doc = {
        "table": table.id,
        "game": table.game,
        # the title the table goes by (Game.title_of: the players' own, else the game's), in English
        "title": game.title_of(table.options),
        "finished_at": iso_seconds(table.finished_at),
        "players": players,
        "winners": list(scored["winners"]),
    }
    doc["play"] = play(table, doc)
    doc["bgstats_url"] = bgstats_url(doc["play"])
    # a Sentence: its str (the JSON's, the export's) is the contract's plain line; a page puts its names in
    # <bdi>, and says it in its own language
    doc["verdict"] = Verdict(table.game, scored)
    return doc


def play(table: tables.Table, doc: dict) -> dict:
    """Return the BG Stats push document of a result (its fields: CONTRACT.md "results")."""
    game = table.rules
    out: dict[str, Any] = {
        "sourceName": SOURCE_NAME,
        "sourcePlayId": table.id,
        "playDate": _parse(doc["finished_at"]).strftime("%Y-%m-%d %H:%M:%S"),
    }
    timed = clock.totals(table.state)
    if timed is not None:  # the turn clock's total: the time the players took, pauses left out
        out["durationMin"] = max(1, round(sum(seat["time_ms"] for seat in timed) / 60_000))
    elif not is_calculator(table.options):  # tracked from its start: the table saw the whole game
        minutes = (_parse(table.finished_at) - _parse(table.created)).total_seconds() / 60
        out["durationMin"] = max(1, round(minutes))
    # a game the players name per table (the pad: "Azul", "Skyjo") is a game of its own to BG Stats, which
    # knows a game without a bggId by its sourceGameId: the title joins the key there
    source = table.game if doc["title"] == game.title else f"{table.game}:{title_id(doc['title'])}"
    out["game"] = {"name": doc["title"], "sourceGameId": source, "highestWins": not game.lowest_wins(table.options),
                   "noPoints": False}
    bgg = game.bgg_id_of(table.options, table.profile if isinstance(table.profile, dict) else {})
    if bgg is not None:  # only a verified id (games/base.py `bgg_id`), or the group's own; else BG Stats matches by name
        out["game"]["bggId"] = bgg
    first = _start_player(table)
    players = []
    for seat, p in enumerate(doc["players"]):
        entry = {"name": p["name"], "score": p["total"], "winner": p["name"] in doc["winners"],
                 "rank": p["place"], "sourcePlayerId": player_id(p["name"])}
        if first is not None:
            entry["startPlayer"] = seat == first
        players.append(entry)
    out["players"] = players
    return out


def _start_player(table: tables.Table) -> int | None:
    seat = table.rules.start_player(table.state, table.options)
    return seat if isinstance(seat, int) and 0 <= seat < len(table.names) else None


def bgstats_url(play_doc: dict) -> str:
    """Return the address that opens BG Stats' import dialog with this play."""
    return BGSTATS_URL + quote(json.dumps(play_doc, separators=(",", ":"), ensure_ascii=False), safe="")


def share_text(table: tables.Table, doc: dict) -> str:
    """The result as one line of plain text: "TITLE, 3 Dec: Tom 111, Anna 111. Tom wins on fewer types".

    It leaves the app for a chat, where no <bdi> exists: each name is between U+2068 and U+2069
    (sentence.name), the plain-text <bdi>, so "محمد 111" keeps its number after the name.
    The line is in the language spoken: the phone that shares it reads it.
    """
    when = _parse(doc["finished_at"]).astimezone()  # the day in the server's time, as the record and the image say it
    scores = ", ".join(f"{sentence.name(p['name'])} {p['total']}" for p in sorted(doc["players"], key=lambda p: p["place"]))
    said = sentence.naming(verdict(doc), [p["name"] for p in doc["players"]])  # a plain verdict's names marked
    # Translators: a finished game shared to a chat: "Codex Naturalis, 3 Dec: Tom 111, Anna 111. Tom wins on fewer types"
    # (the verdict is a sentence of its own: it starts with a capital in some languages, "Wygrywa Tom")
    return _("%(title)s, %(day)s: %(scores)s. %(verdict)s", title=table.rules.title_of(table.options), day=speech.day(when, "d MMM"),
             scores=scores, verdict=said.isolated)


def finished(db: sqlite_utils.Database, game: str | None = None, ids: set[str] | None = None,
             newest_first: bool = True, deleted: bool = False) -> Iterator[tables.Table]:
    """Yield the finished tables (of one game, among some ids), by the time their game ended; the
    plays the host deleted only with `deleted`."""
    sql = "SELECT * FROM tables WHERE finished_at IS NOT NULL"
    if not deleted:  # a play the host deleted is in no list, no stats and no export (`delete`)
        sql += " AND id NOT IN (SELECT table_id FROM deleted_plays)"
    params: list[Any] = []
    if game is not None:
        sql += " AND game = ?"
        params.append(game)
    sql += f" ORDER BY finished_at {'DESC' if newest_first else 'ASC'}, id"
    cursor = db.execute(sql, params)
    columns = [d[0] for d in cursor.description]
    for row in cursor:
        record = dict(zip(columns, row))
        if ids is None or record["id"] in ids:
            yield tables._row_to_table(record)


def results(db: sqlite_utils.Database, game: str | None = None, ids: set[str] | None = None,
            newest_first: bool = True) -> list[dict]:
    """Return the result of every finished table (see `finished`); a table whose score cannot be
    computed any more (a game whose rules changed under it) is left out rather than guessed."""
    out = []
    for table in finished(db, game, ids, newest_first):
        try:
            out.append(result(table))
        except NotOver:
            continue
    return out


def delete(db: sqlite_utils.Database, table_id: str) -> None:
    """Hide a finished table's play from the archive, the stats, the players' pages and the exports.

    Nothing of the table is touched (a row in `deleted_plays`): `restore` brings it back whole, and
    a backup, the SQLite file itself, still holds it. The table's own page and its result endpoint
    still answer whoever holds its secret. Raise tables.NotFound for a table with no result.
    """
    if next(finished(db, ids={table_id}, deleted=True), None) is None:
        raise tables.NotFound(table_id)
    db.execute("INSERT OR IGNORE INTO deleted_plays (table_id, at) VALUES (?, ?)", [table_id, tables.now()])


def restore(db: sqlite_utils.Database, table_id: str) -> None:
    """Bring a deleted play back into the archive (undo `delete`); a play not deleted stays as it is."""
    db.execute("DELETE FROM deleted_plays WHERE table_id = ?", [table_id])


def is_deleted(db: sqlite_utils.Database, table_id: str) -> bool:
    """True when the host deleted this table's play (one row read, where `deleted` reads them all)."""
    return db.execute("SELECT 1 FROM deleted_plays WHERE table_id = ?", [table_id]).fetchone() is not None


def deleted(db: sqlite_utils.Database) -> dict[str, str]:
    """Return the deleted plays: {table id: when it was deleted}, the latest first."""
    return dict(db.execute("SELECT table_id, at FROM deleted_plays ORDER BY at DESC, table_id").fetchall())


def series(db: sqlite_utils.Database, table: tables.Table) -> list[dict] | None:
    """Each seat's running score after every event in force, from the event log (the record's chart).

    Returns [{"seq", "at", "scores": [per seat]}], starting with the table's first state, or None
    when the game keeps no running score at this table (a calculator table).
    """
    game = table.rules
    names = list(table.first_names)
    state = game.initial_state(list(names), table.options, table.profile)
    first = game.running_score(state, table.options)
    if first is None:
        return None
    points = [{"seq": 0, "at": table.created, "scores": list(first)}]
    for event in tables.in_force(tables.events(db, table.id)):
        ctx = Context(names=tuple(names), options=table.options, profile=table.profile, seed=table.seed, replayed=True,
                      at=event["at"])
        names, state = tables.apply_one(game, names, state, event["type"], event["data"], ctx)
        scores = game.running_score(state, table.options)
        if scores is not None and scores != points[-1]["scores"]:
            points.append({"seq": event["seq"], "at": event["at"], "scores": list(scores)})
    return points
