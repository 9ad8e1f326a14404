"""Each player across games (issue 41): plays, wins and win rate, average and best score per game,
the latest plays, and head-to-head against everyone met; and the host's merges of two names.

Plain Python over result documents (companion/results.py `results`), as companion/stats.py is:
its per-game numbers are this module's per-game numbers (`stats.per_game`), so the stats page
and a player's page never disagree. A player is a key: the name folded as people type it
(`stats.name_key`: case, accents and runs of spaces), then followed along the host's merges
(`Merges`). Their shown name is the latest play's spelling, of any of their names.

Wins and ties: a shared victory is a win for every winner (the result's `winners`). Head to
head against another player, a play together counts once in `plays`; it is a `wins` when this
player won and the other did not, a `losses` when the other won and this one did not, and a
`shared` when both won (neither beat the other). A play that neither of the two won counts
in `plays` alone.

The turn clock (issue 41, item 4) adds `time_ms` and `turns` to a result's player when the table
ran a clock: a game's `ms_per_turn` is the sum of the one over the sum of the other, across the
plays that carry both, and absent when none do.
"""

from __future__ import annotations

from typing import Iterable

import sqlite_utils

from . import stats, tables
from .games.speech import _
from .games.validation import RulesError, name_key

#: how many of a player's plays their page lists, the newest first
LATEST = 10


class Merges:
    """The host's merges in force: each folded name merged into another, followed to its end.

    A chain works (A into B, then B into C: A is C); a merge that would close a circle is
    refused before it is stored (`merge`), and one found in the file anyway stops where it
    closes, so a key is always found.
    """

    def __init__(self, rows: Iterable[tuple[str, str]] = (), apart: Iterable[str] = ()):
        self.into = dict(rows)
        #: folded names two people at one table share (`apart`): told apart by their exact spelling
        self.apart = set(apart)

    def key(self, name: str) -> str:
        """The player a name is: its own key (`own`), followed along the merges."""
        return self.follow(self.own(name))

    def own(self, name: str) -> str:
        """A name's key before any merge: its folded form; or, where two people at one table fold to it,
        the name as the table kept it, case aside, after a space (" łukasz"): no folded name starts with
        one (stats.name_key trims), so it is never another name's key."""
        found = stats.name_key(name)
        return " " + name_key(name) if found in self.apart else found

    def follow(self, found: str) -> str:
        """The player a key is, along the merges."""
        seen = set()
        while found in self.into and found not in seen:
            seen.add(found)
            found = self.into[found]
        return found

    __call__ = key


def apart(docs: Iterable[dict]) -> set[str]:
    """The folded names that two players of one play share: a table takes "Lukasz" and "Łukasz" as two
    people, so everywhere they are told apart by their exact spelling (Merges.key), never folded into one."""
    out: set[str] = set()
    for doc in docs:
        keys = [stats.name_key(p["name"]) for p in doc["players"]]
        out.update(k for k in keys if keys.count(k) > 1)
    return out


def merges(db: sqlite_utils.Database, docs: list[dict], restrict: bool = False) -> Merges:
    """The merges in force in the database (not undone), the oldest first, over the plays `docs`.

    `restrict` (a device other than the host's, `docs` the plays it may see): only the merges between
    two names of those plays, so that a merge never shows it a name, or a player, from a table it may
    not see (Bob merged into "Robert" shows Bob's table's phones "Bob", not "Robert").
    """
    rows = db.execute("SELECT from_key, into_key FROM player_merges WHERE undone_at IS NULL ORDER BY id").fetchall()
    if restrict:
        seen = {k for doc in docs for p in doc["players"] for k in (stats.name_key(p["name"]), " " + name_key(p["name"]))}
        rows = [(source, into) for source, into in rows if source in seen and into in seen]
    return Merges(rows, apart(docs))


def merged_into(db: sqlite_utils.Database, key: str, docs: list[dict]) -> list[dict]:
    """The merges in force that lead to this player: [{"id", "name", "at"}], the newest first.

    `name` is the merged name as the latest of `docs` spells it (its folded form if none does).
    """
    into = merges(db, docs)
    rows = db.execute("SELECT id, from_key, at FROM player_merges WHERE undone_at IS NULL ORDER BY id DESC").fetchall()
    spelled = spellings(docs, into)
    return [{"id": id_, "name": spelled.get(source, source), "at": at} for id_, source, at in rows if into.follow(source) == key]


def spellings(docs: Iterable[dict], into: Merges) -> dict[str, str]:
    """Each name's own key's latest spelling in the plays (no merge followed: Merges.own)."""
    out: dict[str, str] = {}
    for doc in stats.newest_first(docs):
        for p in doc["players"]:
            out.setdefault(into.own(p["name"]), p["name"])
    return out


def shown_names(docs: Iterable[dict], key: stats.Key) -> dict[str, str]:
    """Each player's shown name: the latest play's spelling, {key: name}."""
    out: dict[str, str] = {}
    for doc in stats.newest_first(docs):
        for k, p in stats.seats(doc, key).items():
            out.setdefault(k, p["name"])
    return out


def rate(wins: int, plays: int) -> float:
    """Wins per play, 0 to 1, to three decimals (a page shows it as a percentage)."""
    return round(wins / plays, 3) if plays else 0.0


def everyone(docs: Iterable[dict], key: stats.Key = stats.name_key) -> list[dict]:
    """Every player of the plays: [{"name", "key", "plays", "wins", "win_rate", "games", "titles", "latest"}],
    the most plays first, then by name. `games` are the games' keys, the most recently played first;
    `titles` the games as their plays go by ({"game", "title"}, stats.game_of: the score pad's "Azul"
    and "Catan" are two), the same way; `latest` is the `finished_at` of their newest play."""
    found: dict[str, dict] = {}
    for doc in stats.newest_first(docs):
        for k, p in stats.seats(doc, key).items():
            entry = found.setdefault(k, {"name": p["name"], "key": k, "plays": 0, "wins": 0, "games": [], "titles": {},
                                         "latest": doc["finished_at"]})
            entry["plays"] += 1
            entry["wins"] += p["won"]
            if doc["game"] not in entry["games"]:
                entry["games"].append(doc["game"])
            entry["titles"].setdefault(stats.game_of(doc), {"game": doc["game"], "title": doc.get("title")})
    out = [{**e, "titles": list(e["titles"].values()), "win_rate": rate(e["wins"], e["plays"])} for e in found.values()]
    return sorted(out, key=lambda e: (-e["plays"], stats.name_key(e["name"])))


def player(docs: Iterable[dict], wanted: str, key: stats.Key = stats.name_key, latest: int = LATEST) -> dict | None:
    """One player's page, or None when no play has them. `wanted` is any of their names.

    {"name", "key", "names", "plays", "wins", "win_rate",
     "games": [{"game", "title", "plays", "wins", "win_rate", "best", "average", "latest", "ms_per_turn"?}],
     "latest": [{"table", "game", "title", "finished_at", "total", "place", "won", "players"}],
     "opponents": [{"name", "key", "plays", "wins", "losses", "shared"}]}

    `names` are the spellings their plays hold, the newest first; `games` the most recently played
    first, one per game key and title (stats.per_game); `opponents` the most plays together first, then by name.
    """
    docs = stats.newest_first(docs)
    me = key(wanted)
    mine = [doc for doc in docs if me in stats.seats(doc, key)]
    if not mine:
        return None
    names = shown_names(docs, key)
    games = []
    for game in stats.per_game(mine, key):
        entry = next(p for p in game["players"] if key(p["name"]) == me)
        row = {"game": game["game"], "title": game["title"], "plays": entry["plays"], "wins": entry["wins"],
               "win_rate": rate(entry["wins"], entry["plays"]), "best": entry["best"], "average": entry["average"],
               "latest": entry["latest"]}
        clocked = clock((doc for doc in mine if stats.game_of(doc) == stats.game_of(game)), key, me)
        if clocked is not None:
            row["ms_per_turn"] = clocked
        games.append(row)
    plays, spelled, met = [], [], {}
    for doc in mine:
        seated = stats.seats(doc, key)
        p = seated.pop(me)
        spelled.extend(q["name"] for q in doc["players"] if key(q["name"]) == me and q["name"] not in spelled)
        plays.append({"table": doc["table"], "game": doc["game"], "title": doc.get("title"),
                      "finished_at": doc["finished_at"], "total": p["total"],
                      "place": p["place"], "won": p["won"], "players": len(seated) + 1})
        for k, other in seated.items():
            h2h = met.setdefault(k, {"name": names[k], "key": k, "plays": 0, "wins": 0, "losses": 0, "shared": 0})
            h2h["plays"] += 1
            if p["won"] and other["won"]:
                h2h["shared"] += 1
            elif p["won"]:
                h2h["wins"] += 1
            elif other["won"]:
                h2h["losses"] += 1
    wins = sum(p["won"] for p in plays)
    return {"name": names[me], "key": me, "names": spelled, "plays": len(plays), "wins": wins,
            "win_rate": rate(wins, len(plays)), "games": games, "latest": plays[:latest],
            "opponents": sorted(met.values(), key=lambda h: (-h["plays"], stats.name_key(h["name"])))}


def clock(docs: Iterable[dict], key: stats.Key, me: str) -> int | None:
    """The average time per turn, in whole ms, of one player (`me`, a key) over the plays that
    ran a turn clock: the sum of their `time_ms` over the sum of their `turns`; None if none did."""
    time_ms = turns = 0
    for doc in docs:
        for p in doc["players"]:
            if key(p["name"]) == me and isinstance(p.get("time_ms"), int) and isinstance(p.get("turns"), int):
                time_ms += p["time_ms"]
                turns += p["turns"]
    return round(time_ms / turns) if turns else None


# --- the host's merges -----------------------------------------------------------------------------

def merge(db: sqlite_utils.Database, docs: list[dict], name: str, other: str) -> int:
    """Merge `other` into the player `name` is (the host's, through the page); return the merge's id.

    `docs` are the plays the host sees. Refused with RulesError on the field `other`, nothing
    stored: no name given, a name nobody played under, a name that is already this player, or
    two players who sat at one table (two people, whatever their names).
    """
    into = merges(db, docs)
    me, them = into.key(name), into.key(other)
    known = {k for doc in docs for k in stats.seats(doc, into)}
    if not other.strip():
        raise RulesError("other", "choose the name to merge into this player", _("Choose the name to merge into this player."))
    if me not in known:
        raise RulesError("$", "nobody plays under this name here", _("Nobody plays under this name here."))
    if them not in known:
        raise RulesError("other", f"nobody called {other!r} played here", _("Nobody called %(name)s played here.", name=other))
    if them == me:
        raise RulesError("other", f"{other!r} is already this player", _("%(name)s is already this player.", name=other))
    together = next((doc for doc in docs if {me, them} <= stats.seats(doc, into).keys()), None)
    if together is not None:
        raise RulesError("other", f"{other!r} and {name!r} played at one table ({together['table']}): they are two people",
                         _("%(name)s and %(other)s played at the same table: they are two people.", name=other, other=name))
    cursor = db.execute("INSERT INTO player_merges (from_key, into_key, at) VALUES (?, ?, ?)", [them, me, tables.now()])
    return cursor.lastrowid


def undo_merge(db: sqlite_utils.Database, merge_id: str | int) -> None:
    """Take a merge back (it stays in the file, with when it was undone); RulesError on the field
    `merge` for an id that is no merge in force."""
    raw = str(merge_id).strip()
    number = int(raw) if raw.isascii() and raw.isdigit() and len(raw) <= 18 else None  # SQLite's integers are 64-bit
    if number is None or db.execute("UPDATE player_merges SET undone_at = ? WHERE id = ? AND undone_at IS NULL",
                                    [tables.now(), number]).rowcount != 1:
        raise RulesError("merge", "there is no such merge to undo", _("There is no such merge to undo."))
