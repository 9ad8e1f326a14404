"""The table page's "Play again" and "Join the new table" (issue 41), over companion/rematch.py.

Both are forms posted by the old table's phones, authorized by its cookie (`tc_OLD`), and both land
the phone on the new table in its own seat: the answer sets the new table's cookie and this phone's
seat cookie for the same seat (the new table keeps the players' order), then goes to /t/NEW (303;
htmx is told to go there with HX-Redirect). A watcher stays a watcher. The new table's secret
travels only in the cookie, never in the HTML: every phone's region shows the same "Join" form.
"""

from __future__ import annotations

from flask import Blueprint, abort, make_response, redirect, request, url_for

from .. import rematch, tables
from ..games.speech import _
from ..games.validation import RulesError
from . import answers, guard
from .connection import get_db
from .render import is_htmx
from .tables import COOKIE_AGE, NO_TABLE, _after_write, set_table_cookies

bp = Blueprint("rematch", __name__)


@bp.post("/t/<table_id>/rematch")
def start(table_id: str):
    """Play the finished table again (or answer the new table it was played again at) and go there."""
    secret = answers.secret_of(request.cookies, table_id)
    try:
        new, new_secret, _made = rematch.start(get_db(), table_id, secret, answers.seat_of(request.cookies, table_id))
    except tables.NotFound:
        abort(404, _(NO_TABLE))
    except RulesError as err:
        return _after_write(table_id, error=err, status=400)
    return _land(table_id, new, new_secret)


@bp.post("/t/<table_id>/rematch/join")
def join(table_id: str):
    """Join the table this one was played again at, in this phone's seat."""
    secret = answers.secret_of(request.cookies, table_id)
    try:
        new, new_secret = rematch.joinable(get_db(), table_id, secret)
    except tables.NotFound:
        abort(404, _(NO_TABLE))
    except RulesError as err:
        return _after_write(table_id, error=err, status=400)
    return _land(table_id, new, new_secret)


def _land(old_id: str, new: tables.Table, new_secret: str):
    """Go to the new table holding its secret, in the seat this phone had at the old one."""
    where = url_for("tables.show", table_id=new.id)
    if is_htmx():
        response = make_response("", 200)
        response.headers["HX-Redirect"] = where
    else:
        response = redirect(where, 303)
    set_table_cookies(response, new.id, new_secret)
    raw = request.cookies.get(answers.seat_cookie(old_id), "")
    seat = answers.seat_number(raw)
    if raw == "watch" or (seat is not None and seat < len(new.names)):
        response.set_cookie(answers.seat_cookie(new.id), raw, max_age=COOKIE_AGE, **guard.cookie_settings())
    return response
