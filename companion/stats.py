"""Stats per game across plays: how often each game was played, and each player's plays, wins,
best, average and latest score.

Plain Python over result documents (companion/results.py `result`), so the stats page counts
exactly what the archive lists and the export writes. A player is a name, folded as people type
it (`name_key`: case, accents and runs of spaces do not matter): "anna", "Anna" and "Ánna " are
one player, shown as the latest play spells the name. A page passes its own `key` where the host
merged two names into one player (companion/players.py).
"""

from __future__ import annotations

import unicodedata
from typing import Callable, Iterable

#: letters with a stroke or a bar are no base letter and a mark in Unicode, so NFKD keeps them:
#: typed without it on a phone all the same ("Lukasz" for "Łukasz", "Soren" for "Søren")
STROKES = str.maketrans({"ł": "l", "ø": "o", "đ": "d", "ħ": "h", "ŧ": "t", "ƀ": "b", "ı": "i"})
#: the scripts whose marks are accents that people leave off when they type: a mark on any other
#: letter makes another letter (Japanese カ and ガ, a Devanagari vowel sign), so it stays
ACCENTED = ("LATIN", "GREEK", "CYRILLIC")


def name_key(name: str) -> str:
    """Return the form two names are compared in: "Anna", " anna ", "ANNA" and "Ánna" are one player.

    Case folded; accents dropped (NFKD, then the combining marks on a Latin, Greek or Cyrillic
    letter left out, and the stroke of "ł", "ø"); spaces trimmed and each run of them made one.
    Inner spaces stay: "Anna Maria" and "Annamaria" may be two people, and the host can merge
    them where they are one (companion/players.py); a name split in two is seldom a typo.
    BG Stats ids (results.player_id) keep their own, older folding: they must never change.
    """
    out: list[str] = []
    base = ""
    for ch in unicodedata.normalize("NFKD", name.casefold()):
        if unicodedata.combining(ch):
            if base.startswith(ACCENTED):
                continue
        else:
            base = unicodedata.name(ch, "")
        out.append(ch)
    folded = unicodedata.normalize("NFKC", "".join(out)).casefold().translate(STROKES)
    return " ".join(folded.split())


Key = Callable[[str], str]


def newest_first(results: Iterable[dict]) -> list[dict]:
    """Return the results, the most recently finished first.

    A result's `finished_at` is to the second; plays finished within the same second keep the
    order given, so `results.results` (newest first, to the millisecond) decides between them.
    """
    return sorted(results, key=lambda doc: doc["finished_at"], reverse=True)  # stable: ties keep their order


def seats(doc: dict, key: Key = name_key) -> dict[str, dict]:
    """Return each player of a play once, by key: {key: the player's entry, with `won`}.

    Two names merged into one player (companion/players.py) may have sat at one table: that
    player counts once, with the better place's entry, and won if either name won.
    """
    out: dict[str, dict] = {}
    for p in doc["players"]:
        k, won = key(p["name"]), p["name"] in doc["winners"]
        seen = out.get(k)
        if seen is None or p.get("place", 0) < seen.get("place", 0):
            out[k] = {**p, "won": won or bool(seen and seen["won"])}
        else:
            seen["won"] = seen["won"] or won
    return out


def plays_with(results: Iterable[dict], name: str, key: Key = name_key) -> list[dict]:
    """Return the results one of whose players has this name (compared with `key`)."""
    wanted = key(name)
    return [doc for doc in results if wanted in seats(doc, key)]


def game_of(doc: dict) -> tuple[str, str]:
    """The game a play counts under: its game key and its title as folded (`name_key`): plays of one
    game key under two titles (the score pad's "Azul" and "Catan") are two games; a game's own title is
    the same at every play, so there its key alone decides."""
    return doc["game"], name_key(doc.get("title") or "")


def lowest_wins(doc: dict) -> bool:
    """True where the lowest total won the play (Game.lowest_wins, as its BG Stats play says it)."""
    return not doc.get("play", {}).get("game", {}).get("highestWins", True)


def per_game(results: Iterable[dict], key: Key = name_key) -> list[dict]:
    """Return each game's stats (`game_of`: a game key and the title its plays go by), the game played
    most recently first:

    [{"game": KEY, "title": TITLE, "plays": N, "latest": FINISHED_AT,
      "players": [{"name", "plays", "wins", "best", "average", "latest"}]}]

    `title` is the newest play's; `best` the highest total, or the lowest where the lowest wins;
    `average` the mean total, rounded to one decimal; `latest` the total of the newest play.
    Players come most wins first, then most plays, then best score, then by name.
    """
    games: dict[tuple[str, str], dict] = {}
    for doc in newest_first(results):
        game = games.setdefault(game_of(doc), {"game": doc["game"], "title": doc.get("title"), "plays": 0,
                                               "latest": doc["finished_at"], "players": {}, "lowest": lowest_wins(doc)})
        game["plays"] += 1
        better = min if game["lowest"] else max
        for k, p in seats(doc, key).items():
            entry = game["players"].get(k)
            if entry is None:  # the newest play comes first: its spelling and total are the latest
                entry = game["players"][k] = {
                    "name": p["name"], "plays": 0, "wins": 0, "best": p["total"], "sum": 0, "latest": p["total"]}
            entry["plays"] += 1
            entry["wins"] += p["won"]
            entry["best"] = better(entry["best"], p["total"])
            entry["sum"] += p["total"]
    out = []
    for game in games.values():
        players = []
        for entry in game["players"].values():
            total = entry.pop("sum")
            players.append({**entry, "average": round(total / entry["plays"], 1)})
        sign = 1 if game.pop("lowest") else -1
        players.sort(key=lambda e: (-e["wins"], -e["plays"], sign * e["best"], name_key(e["name"])))
        out.append({**game, "players": players})
    return out
