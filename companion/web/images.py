"""The result as an image (issue 42): `GET /t/ID/result.png` and `GET /plays/ID/result.png`.

Each is authorized as its page is: the table's page (a phone holding the table's secret), once the
game is over; the play's record (the archive's rights, and its rule for a deleted play). Anything
else answers 404 with that page's own body, exactly as a missing table or play. `?theme=dark`
gives the dark image, any other value the light one. The image speaks the request's language.

The image is drawn by companion/result_image.py and the latest few are kept in memory
(`result_image.Images`, one per process). The answer is private (`no-cache`: a phone asks again
and gets 304 for its ETag when nothing changed).
"""

from __future__ import annotations

from flask import Blueprint, abort, current_app, make_response, request

from .. import result_image, results, tables
from ..games import speech
from ..games.speech import _
from . import plays
from . import tables as table_pages
from .connection import get_db

bp = Blueprint("images", __name__)


def images() -> result_image.Images:
    """This app's kept images (made on first use)."""
    return current_app.extensions.setdefault("companion.images", result_image.Images())


def answer(table: tables.Table, missing: str):
    """The image of a finished table, or 404 with `missing` (the page's own body) before the end."""
    try:
        made = images().get(table, speech.language(), result_image.theme_of(request.args.get("theme")))
    except results.NotOver:
        abort(404, _(missing))
    response = make_response(made.body)
    response.mimetype = "image/png"
    response.headers["Cache-Control"] = "private, no-cache"
    response.headers["Content-Disposition"] = f'inline; filename="{made.name}"'
    response.vary.add("Cookie")
    response.vary.add("Accept-Language")
    response.set_etag(made.etag)
    return response.make_conditional(request)


@bp.get("/t/<table_id>/result.png")
def table_image(table_id: str):
    """The image for the table's phones, once the game is over."""
    return answer(table_pages.current_table(table_id), table_pages.NO_TABLE)


@bp.get("/plays/<table_id>/result.png")
def play_image(table_id: str):
    """The image for whoever may see the play in the archive (a deleted play: the host's alone)."""
    table = plays.visible_table(table_id)
    if table.id in results.deleted(get_db()) and not plays.is_host():
        abort(404, _(plays.NO_PLAY))
    return answer(table, plays.NO_PLAY)
