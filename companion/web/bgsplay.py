"""The `.bgsplay` downloads (issue 42): a play, or a chosen set of plays, as the file BG Stats imports.

- `GET /plays/ID.bgsplay`: one play of the archive, with the record's rights (plays.py `record`:
  `visible_table`, and a deleted play the host's alone).
- `GET /t/ID/play.bgsplay`: the table's own phones (tables.py `current_table`), once the game is over.
- `GET /plays/export.bgsplay?id=A&id=B`: a chosen set, each id with the record's rights; without an
  id, the plays the archive list shows as filtered (as export.json); with none at all, a file of no
  plays. More than `MOST_IDS` ids, or one that is no table id, answers 400 with a message.

Every answer is a download (`Content-Disposition: attachment`), never kept by a cache. The file itself
is companion/bgsplay.py's; a play this device may not see answers 404 exactly as a missing one does.
"""

from __future__ import annotations

import re

from flask import Blueprint, abort, request

from .. import bgsplay, results, tables
from ..games.speech import N_, _
from . import plays
from .tables import current_table

bp = Blueprint("bgsplay", __name__)

#: how many plays one chosen set may name: more than an archive page lists, far fewer than a request can carry
MOST_IDS = 500
#: a table id as tables.py makes them (token_urlsafe); anything else names no table
TABLE_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")
TOO_MANY = N_("Choose at most %(most)s plays for one file.")
BAD_ID = N_("That is not a play's id: choose the plays on the archive's list.")


@bp.after_request
def private(response):
    """A download of plays is private to this device: never kept by a cache, never shared between cookies."""
    response.headers["Cache-Control"] = "no-store"
    response.vary.add("Cookie")
    return response


def archived(table_id: str) -> tuple[tables.Table, dict]:
    """A play this device may see in the archive (plays.py `record`'s rights) and its result; 404 otherwise."""
    table = plays.visible_table(table_id)
    try:
        doc = results.result(table)
    except results.NotOver:
        abort(404, _(plays.NO_PLAY))
    if plays.withdrawn(table):
        abort(404, _(plays.NO_PLAY))
    return table, doc


def _file(docs: list[dict]):
    return plays._download(bgsplay.dumps(docs), bgsplay.MIMETYPE, bgsplay.file_name(docs))


@bp.get("/plays/<table_id>.bgsplay")
def play(table_id: str):
    """Download one play of the archive as a .bgsplay file."""
    return _file([archived(table_id)[1]])


@bp.get("/t/<table_id>/play.bgsplay")
def table_play(table_id: str):
    """Download a finished table's play for its own phones; 404 before the end, as for a table it does not hold."""
    table = current_table(table_id)
    if plays.withdrawn(table):  # as its image: the table's link keeps the play while it is in the archive
        abort(404, _(plays.NO_PLAY))
    try:
        return _file([results.result(table)])
    except results.NotOver:
        abort(404, _(plays.NO_PLAY))


@bp.get("/plays/export.bgsplay")
def chosen():
    """Download the chosen plays (repeated `id`), oldest first; without an id, the list as filtered."""
    ids = request.args.getlist("id")
    if not ids:
        game, player, _error = plays.filters()
        return _file(plays.visible(game, player, newest_first=False))
    if len(ids) > MOST_IDS:
        abort(400, _(TOO_MANY, most=MOST_IDS))
    if not all(TABLE_ID.fullmatch(i) for i in ids):
        abort(400, _(BAD_ID))
    found = [archived(i) for i in dict.fromkeys(ids)]  # a play ticked twice is one play
    # oldest first, as the archive orders them (finished_at to the millisecond, then the id)
    return _file([doc for _table, doc in sorted(found, key=lambda pair: (pair[0].finished_at, pair[0].id))])

