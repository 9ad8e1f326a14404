"""Stats per game across plays: how often each game was played, and each player's plays, wins,
best, average and latest score.

Plain Python over result documents (companion/results.py `result`), so the stats page counts
exactly what the archive lists and the export writes. A player is a name, compared as
results.player_id compares names (case and Unicode composition do not matter): "anna" and
"Anna" are one player, shown as the latest play spells the name.
"""

from __future__ import annotations

import unicodedata
from typing import Iterable


def name_key(name: str) -> str:
    """Return the form two names are compared in: "Anna", " anna " and "ANNA" are one player."""
    return unicodedata.normalize("NFKC", name).casefold().strip()


def newest_first(results: Iterable[dict]) -> list[dict]:
    """Return the results, the most recently finished first.

    A result's `finished_at` is to the second; plays finished within the same second keep the
    order given, so `results.results` (newest first, to the millisecond) decides between them.
    """
    return sorted(results, key=lambda doc: doc["finished_at"], reverse=True)  # stable: ties keep their order


def plays_with(results: Iterable[dict], name: str) -> list[dict]:
    """Return the results one of whose players has this name (compared with `name_key`)."""
    key = name_key(name)
    return [doc for doc in results if any(name_key(p["name"]) == key for p in doc["players"])]


def per_game(results: Iterable[dict]) -> list[dict]:
    """Return each game's stats, the game played most recently first:

    [{"game": KEY, "plays": N, "latest": FINISHED_AT,
      "players": [{"name", "plays", "wins", "best", "average", "latest"}]}]

    `average` is the mean total, rounded to one decimal; `latest` the total of the newest play.
    Players come most wins first, then most plays, then best score, then by name.
    """
    games: dict[str, dict] = {}
    for doc in newest_first(results):
        game = games.setdefault(doc["game"], {"game": doc["game"], "plays": 0, "latest": doc["finished_at"], "players": {}})
        game["plays"] += 1
        for p in doc["players"]:
            entry = game["players"].get(name_key(p["name"]))
            if entry is None:  # the newest play comes first: its spelling and total are the latest
                entry = game["players"][name_key(p["name"])] = {
                    "name": p["name"], "plays": 0, "wins": 0, "best": p["total"], "sum": 0, "latest": p["total"]}
            entry["plays"] += 1
            entry["wins"] += p["name"] in doc["winners"]
            entry["best"] = max(entry["best"], p["total"])
            entry["sum"] += p["total"]
    out = []
    for game in games.values():
        players = []
        for entry in game["players"].values():
            total = entry.pop("sum")
            players.append({**entry, "average": round(total / entry["plays"], 1)})
        players.sort(key=lambda e: (-e["wins"], -e["plays"], -e["best"], name_key(e["name"])))
        out.append({**game, "players": players})
    return out
