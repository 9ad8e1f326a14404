"""The result as an image (issue 42): `GET /t/ID/result.png` and `GET /plays/ID/result.png`.

Each is authorized as its page is: the table's page (a phone holding the table's secret), once the
game is over; the play's record (the archive's rights, and its rule for a deleted play). Anything
else answers 404 with that page's own body, exactly as a missing table or play. `?theme=dark`
gives the dark image, any other value the light one. The image speaks the request's language.

The image is drawn by companion/result_image.py and the latest few are kept in memory
(`result_image.Images`, one per process). The answer is private. A request naming the table's
current version (`?v=N`, as the table's page names it) may be kept for good (`immutable`): those
bytes never change, since any change is a new version, so a phone shows and shares the image it
holds, offline too. Any other request (no `v`, an old or a malformed one) gets the current image
as `no-cache`: a phone asks again and gets 304 for its ETag when nothing changed.
"""

from __future__ import annotations

import gevent
from flask import Blueprint, abort, current_app, make_response, request

from .. import result_image, results, tables
from ..games import speech
from ..games.speech import _
from . import answers, plays
from . import tables as table_pages

bp = Blueprint("images", __name__)


def images() -> result_image.Images:
    """This app's kept images (made on first use)."""
    kept = current_app.extensions.get("companion.images")
    if kept is None:
        kept = current_app.extensions["companion.images"] = result_image.Images()
    return kept


def aside(work, *args):
    """Run `work(*args)` on gevent's thread pool where a served request runs in a greenlet, else here.

    Drawing an image takes tens of milliseconds, and Pillow lets go of the GIL while it draws and
    encodes: on the pool the server's other requests (another table's taps, the streams) go on
    meanwhile, where the request would otherwise hold the whole process (serving.py: nothing
    yields). The drawing reads no database and no request: only the table it was given.
    """
    if isinstance(gevent.getcurrent(), gevent.Greenlet):
        return gevent.get_hub().threadpool.apply(work, args)
    return work(*args)


def answer(table: tables.Table, missing: str):
    """The image of a finished table, or 404 with `missing` (the page's own body) before the end.

    A phone that holds this very image (`If-None-Match`) is answered 304 before anything is drawn."""
    if not table.finished:
        abort(404, _(missing))
    lang, theme = speech.language(), result_image.theme_of(request.args.get("theme"))
    etag = result_image.Images.etag(table, lang, theme)
    if etag in request.if_none_match:
        response = make_response("", 304)
    else:
        try:
            made = aside(images().get, table, lang, theme)
        except results.NotOver:
            abort(404, _(missing))
        response = make_response(made.body)
        response.mimetype = "image/png"
        response.headers["Content-Disposition"] = f'inline; filename="{made.name}"'
    response.headers["Cache-Control"] = cache_control(table)
    response.vary.add("Cookie")
    response.vary.add("Accept-Language")
    response.set_etag(etag)
    return response


#: the image of one version of a table, kept for good: any change of the table is a new version
KEPT_FOR_GOOD = "private, max-age=31536000, immutable"


def cache_control(table: tables.Table) -> str:
    """Kept for good when the request names the table's current version (?v=), else asked again."""
    named = answers.version_number(request.args.get("v"))
    return KEPT_FOR_GOOD if named is not None and named == table.version else "private, no-cache"


@bp.get("/t/<table_id>/result.png")
def table_image(table_id: str):
    """The image for the table's phones, once the game is over."""
    table = table_pages.current_table(table_id)
    if plays.withdrawn(table):  # its result stays on the table's link only while the play is in the archive
        abort(404, _(plays.NO_PLAY))
    return answer(table, table_pages.NO_TABLE)


@bp.get("/plays/<table_id>/result.png")
def play_image(table_id: str):
    """The image for whoever may see the play in the archive (a deleted play: the host's alone)."""
    table = plays.visible_table(table_id)
    if plays.withdrawn(table):
        abort(404, _(plays.NO_PLAY))
    return answer(table, plays.NO_PLAY)
