"""Table pages: join by QR code, choose a seat, play, undo, and stay live on every phone."""

from __future__ import annotations

import ipaddress
import time
from urllib.parse import urlsplit

from flask import (Blueprint, Response, abort, current_app, make_response, redirect, render_template, request,
                   stream_with_context, url_for)
from markupsafe import Markup

from .. import forms, network, qr, tables
from ..games import speech
from ..games.speech import N_, _
from ..games.validation import RulesError
from ..network import EVERY_INTERFACE, is_local, lan_address
from . import answers, guard, push, region, steppers
from .connection import get_db
from .answers import seat_cookie, secret_cookie
from .render import is_htmx, render_block

bp = Blueprint("tables", __name__)

NO_TABLE = N_("There is no such table here. Scan the table's QR code to join it.")
#: 400 days, the most browsers keep a cookie: a joined table stays in this device's plays archive (/plays)
COOKIE_AGE = 60 * 60 * 24 * 400
HISTORY_LINES = region.HISTORY_LINES
#: the header every answer of a table's page carries: the server's time in epoch ms (say_server_time)
SERVER_TIME = "X-Server-Time"


def set_table_cookies(response, table_id: str, secret: str) -> None:
    """Remember the table's secret on this device (the join address need not stay in the address bar)."""
    response.set_cookie(secret_cookie(table_id), secret, max_age=COOKIE_AGE, **guard.cookie_settings())


def current_table(table_id: str) -> tables.Table:
    """Return the table this device holds the secret of, or 404 as if it did not exist."""
    try:
        return tables.authorize(get_db(), table_id, answers.secret_of(request.cookies, table_id))
    except tables.NotFound:
        abort(404, _(NO_TABLE))


def current_seat(table) -> int | None:
    """Return this device's seat index at the table, None when watching or not chosen."""
    seat = answers.seat_of(request.cookies, table.id)
    return seat if seat is not None and seat < len(table.names) else None


def join_url(table_id: str, secret: str) -> str:
    """Return the address the QR code encodes: this server's LAN address and port, and the secret.

    Built from what the server knows of itself, never from the request's Host header, which
    any device (or a page DNS-rebound to this machine) sets as it likes: the address `serve`
    listens on when it names one (a LAN address, or loopback alone: never an address it does
    not listen on, though no phone reaches 127.0.0.1); on every interface, the address this page
    was opened at, only if it is one of this machine's own and not loopback (a laptop on two
    networks shows the one its phones share); else this machine's LAN address. The port is the
    one `serve` listens on, else the one the server took the connection on. Behind a reverse
    proxy, the public address the operator gave (`--public-url`): the proxy's, which phones reach.
    """
    public = current_app.config.get("PUBLIC_URL")
    if public:
        return public + url_for("tables.join", table_id=table_id, secret=secret)
    listen = str(current_app.config.get("LISTEN_HOST") or "")
    host = listen if listen not in EVERY_INTERFACE else (_own_address(request.host) or lan_address() or "127.0.0.1")
    port = current_app.config.get("LISTEN_PORT") or request.environ.get("SERVER_PORT") or 80
    shown = f"[{host}]" if ":" in host else host
    # this server's own scheme, not one a proxy in front forwarded (--proxy): the address is its own
    scheme = request.environ.get("werkzeug.proxy_fix.orig", request.environ)["wsgi.url_scheme"]
    return f"{scheme}://{shown}:{port}" + url_for("tables.join", table_id=table_id, secret=secret)


def _own_address(host_header: str) -> str | None:
    """Return the Host header's address if it is one of this machine's own and not loopback, else None."""
    try:
        address = str(ipaddress.ip_address(urlsplit("//" + host_header).hostname or ""))
    except ValueError:  # a name, or no address at all: never taken from the request
        return None
    return address if not is_local(address) and network.is_own_address(address) else None


def page_context(table, screen: str | None = None) -> dict:
    """What the table page shows around its live region, to this phone: its seat, the invite, the
    poll's settings, the language picker's way back."""
    secret = answers.secret_of(request.cookies, table.id) or ""
    return {
        "table": table,
        "game": table.rules,
        "screen": screen,
        "seat": current_seat(table),
        "seat_chosen": seat_cookie(table.id) in request.cookies,
        # only the full page's invite shows these, outside the live region: not built on a poll
        "join_url": lambda: join_url(table.id, secret),
        "qr_svg": qr.svg,
        "etag": answers.live_tag(table.id, table.version),
        "poll_ms": current_app.config["POLL_MS"],
        # where the language picker (base.html) comes back to, whatever form was posted
        "here": url_for("tables.show", table_id=table.id, screen=screen),
        # the server's time as the page is drawn (epoch ms), outside the shared region: a running turn
        # clock ticks from it on every phone, whatever the phone's own clock says (static/js/clock.js)
        "server_ms": server_ms(),
        # issue 42: the host deleted the play (drawn at each visit: a delete changes no version)
        **deleted_context(table),
    }


def deleted_context(table) -> dict:
    """Whether the host deleted this finished table's play, and whether this device is the host's
    (who restores it from the record); the host key in a cookie, never an address (plays.is_host)."""
    from . import ending, plays

    gone = ending.deleted(get_db(), table)
    return {"play_deleted": gone, "host": gone and plays.is_host()}


def server_ms() -> int:
    """The server's time in epoch ms, the turn clock's one clock (companion/games/clock.py)."""
    return round(time.time() * 1000)


@bp.after_request
def say_server_time(response):
    """Every answer to a table's page says the server's time: the page keeps its offset to it (its
    own clock may be minutes off), made again at each answer (static/js/clock.js)."""
    response.headers[SERVER_TIME] = str(server_ms())
    return response


def table_context(table, screen: str | None = None, error=None, notice: str | None = None, posted=None) -> dict:
    """The page with its region drawn in place (a form posted without JavaScript, answered with the
    page and a refusal in it): the region's context (region.context_of, which reads no request)
    and the page's around it."""
    return {**region.context_of(get_db(), table, screen, error, notice, posted, HISTORY_LINES), **page_context(table, screen)}


def _screen() -> str | None:
    return answers.screen_of(request.values.get("screen"))


@bp.get("/join/<table_id>/<secret>")
def join(table_id: str, secret: str):
    """Open the join address: remember the secret in a cookie and show the table without it."""
    try:
        tables.authorize(get_db(), table_id, secret)
    except tables.NotFound:
        abort(404, _(NO_TABLE))
    response = redirect(url_for("tables.show", table_id=table_id), 303)
    set_table_cookies(response, table_id, secret)
    return response


# --- the live region, in parts (region.py), one drawing per version, screen and language (live.py) ---

def drawn_as(table, screen: str | None) -> tuple[str | None, str]:
    """What a drawing of the region is kept under (live.py): the screen as the game reads it, and the
    language spoken (issue 29: once per language the table's phones read)."""
    return table.rules.screen_of(screen, table.names), speech.language()


def region_of(table, screen: str | None) -> region.Parts:
    """Return the table's live region at its version, in parts: drawn once per version, screen (as
    the game reads the screen) and language, shared by every phone and stream (live.py)."""
    return current_app.extensions["companion.live"].region(current_app, get_db(), table, drawn_as(table, screen))


def update(table, screen: str | None, has: int | None, redraw: tuple[str, ...] = ()) -> str:
    """Return what a page showing version `has` needs to show the table now: the parts that changed
    (all of the region when `has` is None or too old to be known), and the parts in `redraw`."""
    now = region_of(table, screen)
    return now.since(_fingerprint(table, screen, has), redraw)


def _fingerprint(table, screen: str | None, version: int | None) -> dict | None:
    if version is None:
        return None
    return current_app.extensions["companion.live"].fingerprint_of(get_db(), table.id, drawn_as(table, screen), version)


def said_update(table, screen: str | None, has: int | None, redraw: tuple[str, ...], error, notice, posted) -> str:
    """Return the parts a page needs to show the table now with a refusal or a notice said in it:
    the parts that differ from those it shows (every part drawn, never kept: it is this phone's alone)."""
    key, lang = drawn_as(table, screen)  # drawn as region_of() draws it, so only what the refusal says differs
    context = region.context_of(get_db(), table, key, error, notice, posted, HISTORY_LINES)
    said = region.draw(current_app, table, key, lang, None, context, force=True)
    return said.since(_fingerprint(table, screen, has), redraw)


def _has() -> int | None:
    return answers.has_of(request.headers.get(answers.HAS))


def _redraw() -> tuple[str, ...]:
    return answers.redraw_of(request.headers.get(answers.REDRAW))


def withdrawn_page(table):
    """For a play the host deleted, to any device but the host's (plays.withdrawn): a small page, 410,
    that says so, where the table's region would be drawn (issue 42: the link shows the result only
    while the play is in the archive); else None. The host's page says it around the region."""
    from . import plays

    if not plays.withdrawn(table):
        return None
    return render_template("tables/deleted.html", table=table, game=table.rules), 410


@bp.get("/t/<table_id>")
def show(table_id: str):
    """Show the table: the game's panel, the players, the QR code and the history."""
    table = current_table(table_id)
    gone = withdrawn_page(table)
    if gone:
        return gone
    if is_htmx():
        return region_of(table, _screen()).html
    # the page holds the region every phone shares (a phone's first push is measured against it)
    return render_template("tables/table.html", live_html=Markup(region_of(table, _screen()).html),
                           **page_context(table, _screen()))


@bp.get("/t/<table_id>/live")
def live(table_id: str):
    """Answer a phone's poll: 304 when nothing changed, else the parts that changed since the version
    it shows (X-Table-Has; its If-None-Match is read too)."""
    secret, has = answers.secret_of(request.cookies, table_id), _has()
    try:
        answer = answers.poll(get_db(), table_id, secret, request.if_none_match, has)
        if answer.unchanged:
            response = make_response("", 304)
        else:
            table = tables.authorize(get_db(), table_id, secret)
            gone = withdrawn_page(table)
            if gone:
                return gone
            response = make_response(update(table, _screen(), has, _redraw()), 200,
                                     list(answers.version_headers(table.version)))
    except tables.NotFound:
        abort(404, _(NO_TABLE))
    response.set_etag(answer.tag if answer.unchanged else answers.live_tag(table_id, table.version))
    return response


@bp.get("/t/<table_id>/events")
def events(table_id: str):
    """Open a phone's stream of the table's new versions (push.py); 204 where there is no push.

    The phone names the version it shows (the browser's Last-Event-ID when it opens the stream
    again by itself, else the page's ?v=); an older one gets what changed since at once, so a
    phone that was away catches up. Each later version sends the parts that changed since the
    one before, with the version as the event's id: one render per version and screen, shared by
    every stream on the table (the screen as the game reads it: a made-up one is its main screen).
    """
    table = current_table(table_id)
    gone = withdrawn_page(table)
    if gone:
        return gone
    drawn = drawn_as(table, _screen())  # the streams drawn alike (screen, language) share each answer
    key, lang = drawn
    secret = answers.secret_of(request.cookies, table_id)

    def update_after(version: int | None):
        """(version, parts) newer than `version` (None: everything), (version, None) if none is, None if gone."""
        try:
            if version is not None and tables.version_if_authorized(get_db(), table_id, secret) == version:
                return version, None
            now = tables.authorize(get_db(), table_id, secret)
        except tables.NotFound:
            return None
        with speech.speaking(lang):
            return now.version, update(now, key, version)

    opening = answers.version_number(request.headers.get("Last-Event-ID") or request.args.get("v"))
    hub = current_app.extensions.get("companion.push")
    if hub is None:
        return "", 204  # served without gevent: the page polls
    first = None if opening == table.version else update(table, key, opening)  # the table as just read
    body = stream_with_context(push.stream(hub, table_id, table.version, first, update_after, key=drawn))
    return Response(body, mimetype="text/event-stream", headers={"X-Accel-Buffering": "no"})


def _after_write(table_id: str, ok_table=None, error=None, notice=None, status=200, posted=None):
    """Answer a form post: for htmx, the parts that changed since the version the page shows (with
    the refusal or notice said in them), else a redirect, or the page with the error."""
    screen = _screen()
    if ok_table is not None and not is_htmx():
        return redirect(url_for("tables.show", table_id=table_id, screen=screen), 303)
    table = ok_table or current_table(table_id)
    if not is_htmx():
        return render_template("tables/table.html", **table_context(table, screen, error, notice, posted)), status
    if error is None and notice is None:
        body = update(table, screen, _has(), _redraw())  # the same parts the other phones' streams get
    else:
        body = said_update(table, screen, _has(), _redraw(), error, notice, posted)
    return make_response(body, status, list(answers.version_headers(table.version)))


def _write_from_form(table_id: str, operation, conflict_notice: str):
    """Decode the form (forms.py naming) and run one write, answering as _after_write does.

    The write checks the secret itself, in its transaction, so the table is read once. Any
    refusal answers through _after_write, which shows the table only to its secret's holder.
    """
    secret = answers.secret_of(request.cookies, table_id)
    if not secret:
        abort(404, _(NO_TABLE))
    doc = None
    try:
        doc = forms.decode(request.form.items(multi=True))
        if not is_htmx() and isinstance(doc, dict) and "expected_version" not in doc:
            # a page's form sent without JavaScript: its HTML names no version (parts.py), and the
            # page it was on showed the table as it is now, as far as that player could know
            doc["expected_version"] = tables.version_if_authorized(get_db(), table_id, secret)
        table = operation(get_db(), table_id, doc, answers.seat_of(request.cookies, table_id), secret=secret)
    except tables.NotFound:
        abort(404, _(NO_TABLE))
    except RulesError as err:
        # a field forms.py could not read ("12a" in a number field) still names its player
        return _after_write(table_id, error=err, status=400, posted=doc if doc is not None else _raw_event())
    except tables.Conflict:
        return _after_write(table_id, notice=conflict_notice, status=409)
    tap = steppers.posted()
    if tap is not None:
        screen = _screen()
        body, headers = answers.after_tap(tap, table, doc.get("type"), doc.get("data"), screen,
                                          lambda: update(table, screen, _has(), _redraw()))
        return make_response(body, 200, list(headers))
    return _after_write(table_id, ok_table=table)


def _raw_event() -> dict:
    """The posted event's type and player, read without the form's conversions."""
    player = request.form.get("data.player:int", request.form.get("data.player:json", ""))
    data = {"player": int(player)} if player.isdecimal() and len(player) < 4 else {}
    return {"type": request.form.get("type"), "data": data}


@bp.post("/t/<table_id>/events")
def post_event(table_id: str):
    """Apply one event posted by a form, as the API does (data defaults to {})."""

    def append(db, tid, doc, seat, secret):
        if isinstance(doc, dict):
            doc.setdefault("data", {})
        return tables.append(db, tid, doc, seat, secret, rows_commute=True)

    return _write_from_form(table_id, append, _("The table changed on another phone: here it is now. Tap again if still needed."))


@bp.post("/t/<table_id>/undo")
def undo(table_id: str):
    """Take back the latest event still in force."""
    return _write_from_form(table_id, tables.undo,
                            _("The table changed on another phone: nothing was undone. Look, then undo again if still needed."))


@bp.post("/t/<table_id>/seat")
def choose_seat(table_id: str):
    """Remember which player this device is (or that it only watches)."""
    table = current_table(table_id)
    raw = request.form.get("seat", "")
    seat = answers.seat_number(raw)
    if raw != "watch" and not (seat is not None and seat < len(table.names)):
        err = RulesError("seat", _("must be a player number from 0 to %(last)s, or watch", last=len(table.names) - 1))
        return _after_write(table_id, error=err, status=400)
    response = redirect(url_for("tables.show", table_id=table_id, screen=_screen()), 303)
    response.set_cookie(seat_cookie(table_id), raw, max_age=COOKIE_AGE, **guard.cookie_settings())
    return response
