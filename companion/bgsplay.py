"""A `.bgsplay` file: plays as BG Stats' own export and share file (issue 42), over result documents.

Each result document's `play` is the BG Stats push document the app already sends through its link
(CONTRACT.md "results"); this module writes the same plays in the file BG Stats imports. Plain Python:
the pages and routes (companion/web/bgsplay.py) call `document` and `dumps`.

The format. BG Stats publishes no specification of the file; what is followed here:
- files BG Stats itself wrote: a shared play file (https://pastebin.com/iDbHyBui: the `about`
  sentence, `players` with `uuid`, `id`, `name`, `isAnonymous`, `modificationDate`; `locations`;
  `games` with `uuid`, `id`, `name`, `modificationDate`, `cooperative`, `highestWins`, `noPoints`), and
  a write-up of BG Stats 5.7.1's export, field by field (a public repository's notes, found with the
  code search: `plays` with `uuid`, `playDate`, `entryDate`, `modificationDate`, `durationMin`,
  `gameRefId`, `ignored`, `manualWinner`, `rounds`, `usesTeams`, `scoringSetting`, and
  `playerScores` of `playerRefId`, `score` as a string, `winner`, `rank`, `seatOrder`,
  `startPlayer`, `newPlayer`; `userInfo.meRefId`);
- where sources disagree, BG Stats' own files win: community tools write `scoringSetting` 0, BG
  Stats' own exports 1, so 1 here.
Dates are "YYYY-MM-DD HH:MM:SS" (UTC), the push document's `playDate`.

Our choices, where the format leaves them to the writer:
- uuids are uuid5 under a fixed namespace, from the app's own ids: a play's from its table id, a
  player's from `results.player_id` (the push link's `sourcePlayerId`), a game's from its key and
  BoardGameGeek id, and the title the players gave where it is not the game's own (the score pad's
  "Azul" and "Catan" are two games). Importing the same play twice is then the same play, and a player is one entry
  across plays and files.
- `entryDate` and `modificationDate` are the play's `playDate` (a play reopened by an undo and
  finished again gets a new one); a game's and a player's, the latest of their plays'. The same
  plays give the same file, byte for byte.
- `seatOrder` is the seat, from 1 (BG Stats' own files hold 0 where no seat was entered).
- `durationMin`, `startPlayer` and a game's `bggId` are written only where the push document has
  them; no location is written (the app knows none).
- `userInfo.meRefId` is 0: the file names no player as its owner (the ids start at 1).
"""

from __future__ import annotations

import json
import uuid
from typing import Any, Iterable


#: BG Stats' own sentence at the head of every file it writes
ABOUT = ("This is a Play file that can be read by Board Game Stats. If you see this text, try to use a share, "
         "export or open-in function to open it with Board Game Stats.")
#: the uuids' namespace: never change it, or BG Stats takes every play imported before as another play
NAMESPACE = uuid.UUID("6d1c2f0e-42b5-5a7e-9c3d-7461626c6543")
#: what BG Stats' own exports write in `scoringSetting` (the module's docstring)
SCORING_SETTING = 1
#: how a `.bgsplay` download is named and served
MIMETYPE = "application/json"
SUFFIX = ".bgsplay"


def _uuid(kind: str, key: str) -> str:
    return str(uuid.uuid5(NAMESPACE, f"{kind}:{key}"))


def document(docs: Iterable[dict]) -> dict:
    """Return the file's JSON document for these result documents, their plays in the order given."""
    games: dict[tuple, dict] = {}
    players: dict[str, dict] = {}
    plays = []
    for doc in docs:
        push = doc["play"]
        stamp = push["playDate"]
        game = _game(games, push["game"], stamp)
        scores = []
        for seat, p in enumerate(push["players"]):
            player = _player(players, p, stamp)
            entry: dict[str, Any] = {"playerRefId": player["id"], "score": str(p["score"]), "winner": bool(p["winner"]),
                                     "rank": p["rank"], "seatOrder": seat + 1, "newPlayer": False}
            if "startPlayer" in p:
                entry["startPlayer"] = bool(p["startPlayer"])
            scores.append(entry)
        play: dict[str, Any] = {"uuid": _uuid("play", push["sourcePlayId"]), "playDate": stamp, "entryDate": stamp,
                                "modificationDate": stamp}
        if "durationMin" in push:
            play["durationMin"] = push["durationMin"]
        play.update({"gameRefId": game["id"], "playerScores": scores, "ignored": False, "manualWinner": False,
                     "rounds": 0, "usesTeams": False, "scoringSetting": SCORING_SETTING})
        plays.append(play)
    return {"about": ABOUT, "games": list(games.values()), "players": list(players.values()), "locations": [],
            "plays": plays, "userInfo": {"meRefId": 0}}


def _game(games: dict[tuple, dict], pushed: dict, stamp: str) -> dict:
    """The file's entry of the push document's game: one per game, BoardGameGeek id (a group's own
    edition, a profile's id, is another game to BG Stats) and title the players gave (the pad's)."""
    key = (pushed["sourceGameId"], pushed.get("bggId"))  # a typed title is in sourceGameId (results.play)
    found = games.get(key)
    if found is None:
        # the four games' uuids as ever; a typed title is in the key's sourceGameId (KEY:title, results.title_id)
        found = {"id": len(games) + 1, "uuid": _uuid("game", f"{key[0]}:{key[1] or ''}"), "name": pushed["name"]}
        if key[1] is not None:
            found["bggId"] = key[1]
        found.update({"highestWins": bool(pushed["highestWins"]), "noPoints": bool(pushed["noPoints"]),
                      "cooperative": False, "usesTeams": False, "modificationDate": stamp})
        games[key] = found
    found["modificationDate"] = max(found["modificationDate"], stamp)
    found["name"] = pushed["name"]  # named as the last play given spells it (the newest: plays come oldest first)
    return found


def _player(players: dict[str, dict], pushed: dict, stamp: str) -> dict:
    """The file's entry of a push document's player: one per `sourcePlayerId` across the plays, named
    as the last play given (the newest, oldest first) spells it, as the players' pages name a player."""
    key = pushed["sourcePlayerId"]
    found = players.get(key)
    if found is None:
        found = {"id": len(players) + 1, "uuid": _uuid("player", key), "name": pushed["name"], "isAnonymous": False,
                 "modificationDate": stamp}
        players[key] = found
    found["name"] = pushed["name"]
    found["modificationDate"] = max(found["modificationDate"], stamp)
    return found


def dumps(docs: Iterable[dict]) -> str:
    """The file's text: UTF-8 JSON, names as they are written (not escaped)."""
    return json.dumps(document(docs), ensure_ascii=False, indent=1)


def file_name(docs: list[dict]) -> str:
    """A download's name: the play's game and table for one play, else how many plays it holds."""
    if len(docs) == 1:
        return f"{docs[0]['game']}-{docs[0]['table']}{SUFFIX}"
    return f"plays-{len(docs)}{SUFFIX}"
