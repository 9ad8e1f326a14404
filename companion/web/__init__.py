"""The Flask app: factory, per-request database, security headers, error pages."""

from __future__ import annotations

import os
import threading
from pathlib import Path
from urllib.parse import urlsplit

from flask import Flask, current_app, jsonify, request
from werkzeug.exceptions import HTTPException

from .. import db as database, logs, storage, wording
from ..games import clock, colours
from . import forwarded, guard, region, steppers
from .connection import close_db
from .live import LiveCache
from .templating import SpeakingEnvironment
from ..limits import parse_rate, proxy_hops
from ..network import EVERY_INTERFACE
from ..paths import DB_NAME, STATIC, TEMPLATES, data_folder

CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; "
    "connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; "
    "frame-ancestors 'none'"
)


def database_settings(config: dict) -> tuple[Path, str]:
    """Return the database file and sync mode create_app(config) would use (SystemExit if the mode is unknown)."""
    data = data_folder(config.get("DATA_DIR"))
    sync = config.get("SYNC") or os.environ.get("COMPANION_SYNC", database.DEFAULT_SYNC)
    try:
        database.check_sync(sync)
    except ValueError as exc:  # COMPANION_SYNC=fast, say: refuse to start rather than guess
        raise SystemExit(f"error: COMPANION_SYNC: {exc}") from None
    return Path(data) / DB_NAME, sync


def public_url(config: dict) -> str | None:
    """Return the address phones open (PUBLIC_URL, --public-url, else $COMPANION_PUBLIC_URL), or None."""
    value = config.get("PUBLIC_URL")
    if value is None:
        value = os.environ.get("COMPANION_PUBLIC_URL") or None
        try:
            return guard.parse_public_url(value) if value else None
        except ValueError as exc:  # refuse to start rather than hand phones a wrong address
            raise SystemExit(f"error: COMPANION_PUBLIC_URL: {exc}") from None
    return guard.parse_public_url(value) if value else None


def create_app(test_config: dict | None = None) -> Flask:
    """Build the app; test_config overrides settings (DATA_DIR above all)."""
    app = Flask("companion", template_folder=str(TEMPLATES), static_folder=str(STATIC), static_url_path="/static")
    app.jinja_environment = SpeakingEnvironment  # each template compiled once per language (templating.py)
    app.config.from_mapping(
        MAX_CONTENT_LENGTH=1024 * 1024,
        POLL_MS=750,
        SEND_FILE_MAX_AGE_DEFAULT=3600,
        WAL_FLUSHER=True,  # False in `serve`'s workers: their parent flushes the file for all (workers.py)
    )
    if test_config:
        app.config.update(test_config)
    logs.redact_secrets()
    path, app.config["SYNC"] = database_settings(app.config)  # SYNC: test_config's, else $COMPANION_SYNC, else normal
    app.config["DATABASE"] = str(path)
    database.migrate(app.config["DATABASE"])
    app.config["PUBLIC_URL"] = public_url(app.config)
    # every answer's headers; HSTS when phones reach the app at an HTTPS public address
    headers = app.extensions["companion.headers"] = (
        *SECURITY_HEADERS, *([guard.HSTS] if (app.config["PUBLIC_URL"] or "").startswith("https://") else []))
    if app.config["SYNC"] == "normal" and app.config["WAL_FLUSHER"]:
        database.WalFlusher.start(app.config["DATABASE"])
    app.extensions["companion.db"] = threading.local()  # one connection per worker thread
    app.extensions["companion.live"] = LiveCache()  # one render of a live region per version
    app.extensions["companion.push"] = None  # the streams' hub, where `companion serve` pushes (push.enable)

    app.jinja_env.globals["event_url"] = event_url
    app.jinja_env.globals["undo_url"] = undo_url
    app.jinja_env.globals["stepper_id"] = steppers.stepper_id
    app.jinja_env.globals["stepper_settings"] = steppers.settings
    app.jinja_env.globals["url_for"] = region.url_for  # a region's addresses come from the app, not the request
    app.jinja_env.globals["part"] = region.part  # {% call part(id, inputs…) %}: drawn when its inputs change
    app.jinja_env.globals["palette"] = colours.palette  # a colour per seat (macros.html seat_colour, the forms)
    app.jinja_env.globals["seat_swatch"] = colours.seat_swatch
    app.jinja_env.globals["colour_swatch"] = colours.swatch
    app.jinja_env.filters["plural"] = wording.plural  # {{ n|plural("coin") }} -> "1 coin", "2 coins"
    app.jinja_env.filters["ordinal"] = wording.ordinal
    app.jinja_env.filters["clock_time"] = clock.shown  # {{ 65000|clock_time }} -> "1:05" (the turn clock)
    app.teardown_appcontext(close_db)
    from . import language

    language.init(app)  # first of the checks: a page refused by any of them speaks its phone's language
    app.before_request(refuse_cross_site)
    # after the CSRF check: another site's refused post does not count against the device
    limit = creation_limit(app.config)
    if limit is not None:
        app.extensions["companion.create_limit"] = limit
        app.before_request(guard.limit_creation)
    app.after_request(security_headers)
    app.register_error_handler(HTTPException, http_error)
    app.register_error_handler(Exception, unexpected_error)

    from . import api, health, home, plays, profiles, rematch, tables

    app.register_blueprint(home.bp)
    app.jinja_env.globals["home_screen"] = home.HOME_SCREEN
    app.register_blueprint(tables.bp)
    app.register_blueprint(rematch.bp)  # Play again (issue 41)
    app.register_blueprint(profiles.bp)
    app.register_blueprint(plays.bp)
    from . import players  # issue 41: a page per player, and its JSON

    app.register_blueprint(players.bp)
    app.register_blueprint(api.bp)
    from . import images  # issue 42: the result as an image

    app.register_blueprint(images.bp)
    app.register_blueprint(health.bp)
    # gzip for clients that accept it: every answer but the event stream (compress.py)
    from .compress import Gzip

    app.wsgi_app = app.extensions["companion.gzip"] = Gzip(app.wsgi_app, app.static_url_path)
    # outermost: nothing runs for a name that is not this machine's
    listen = app.config.get("LISTEN_HOST")  # a name given to --host is one of the machine's own
    public = guard.public_host(app.config["PUBLIC_URL"])  # the public address's name is answered without --allow-host
    allowed = guard.AllowedHosts([*app.config.get("ALLOWED_HOSTS", ()), *([listen] if listen not in (None, *EVERY_INTERFACE) else []),
                                  *([public] if public else [])])
    # just inside it: with --proxy N the client's address and scheme are the ones the proxies forwarded
    hops = proxy_hops(app.config)
    app.wsgi_app = guard.behind_proxies(app.wsgi_app, hops)
    # and before ProxyFix, the forwarding hops that arrive counted against N: only reported (forwarded.py)
    app.extensions["companion.hops"] = forwarded.Hops(hops)
    app.wsgi_app = forwarded.CountHops(app.wsgi_app, app.extensions["companion.hops"])
    app.wsgi_app = app.extensions["companion.host_check"] = guard.HostCheck(app.wsgi_app, allowed, lambda: headers)
    return app


def creation_limit(config) -> guard.CreateLimit | None:
    """Return the limit on creating tables and profiles per client address, from CREATE_LIMIT.

    CREATE_LIMIT is `N/MINUTES` or None (no limit); unset, it is guard.DEFAULT_CREATE_LIMIT,
    except under TESTING, where tests that create hundreds of tables through one test client
    set it when they mean to test it.
    """
    text = config.get("CREATE_LIMIT", None if config.get("TESTING") else guard.DEFAULT_CREATE_LIMIT)
    try:
        parsed = parse_rate(text)
    except ValueError as exc:
        raise SystemExit(f"error: --create-limit: {exc}") from None
    return guard.CreateLimit(*parsed) if parsed else None


_TABLE_URLS: dict[tuple[str, str, str], str] = {}


def table_url(endpoint: str, table_id: str) -> str:
    """Return url_for(endpoint, table_id=...), built once per table and app root, not per form.

    A panel holds dozens of forms and url_for builds a URL adapter each call (bench/README.md).
    The addresses never change while the process runs; the cache is dropped when it grows large.
    """
    key = (endpoint, table_id)
    url = _TABLE_URLS.get(key)
    if url is None:
        if len(_TABLE_URLS) > 10_000:
            _TABLE_URLS.clear()
        url = _TABLE_URLS[key] = region.url_for(endpoint, table_id=table_id)
    return url


def event_url(table) -> str:
    """Return where a table's event forms post."""
    return table_url("tables.post_event", table.id)


def undo_url(table) -> str:
    """Return where a table's undo form posts."""
    return table_url("tables.undo", table.id)


def wants_json() -> bool:
    """True for the JSON API, whose errors are JSON."""
    return request.path.startswith("/api/")


def refuse_cross_site():
    """Refuse a state-changing request sent by another site's page (CSRF).

    Browsers that send Sec-Fetch-Site are trusted on it (only same-origin or a typed
    address pass); older ones are judged by Origin. Clients that send neither (curl,
    scripts using the API with its X-Table-Token header) are not browsers and pass.
    """
    if request.method in ("GET", "HEAD", "OPTIONS"):
        return None
    site = request.headers.get("Sec-Fetch-Site")
    origin = request.headers.get("Origin")
    if site is not None:
        cross = site not in ("same-origin", "none")
    elif origin is not None:
        cross = origin == "null" or urlsplit(origin).netloc != request.host
    else:
        cross = False
    if not cross:
        return None
    message = "refused: this request came from another site"
    if wants_json():
        return jsonify(error=message, field="$"), 403
    return message, 403, {"Content-Type": "text/plain; charset=utf-8"}


SECURITY_HEADERS = (
    ("Content-Security-Policy", CSP),
    ("X-Content-Type-Options", "nosniff"),
    ("Referrer-Policy", "same-origin"),
    ("X-Frame-Options", "DENY"),
)


def security_headers(response):
    """Add the headers every answer carries (one pass over the response's own headers)."""
    present = {name.lower() for name, _ in response.headers}
    wanted = list(current_app.extensions["companion.headers"])
    if request.path.startswith(("/t/", "/join/", "/api/")):
        wanted.append(("Cache-Control", "no-store" if request.path.startswith("/join/") else "no-cache"))
    response.headers.extend([(name, value) for name, value in wanted if name.lower() not in present])
    return response


def http_error(exc: HTTPException):
    """Answer an HTTP error as JSON on the API and as a short page elsewhere, never a traceback."""
    from flask import render_template

    # the exception's own headers but its body's type: a 405's Allow, a 429's Retry-After (RFC 9110)
    headers = [(name, value) for name, value in exc.get_headers() if name.lower() != "content-type"]
    if wants_json():
        return jsonify(error=exc.description or exc.name, field="$"), exc.code, headers
    return render_template("errors/error.html", code=exc.code, message=exc.description or exc.name), exc.code, headers


def unexpected_error(exc: Exception):
    """Log a bug and answer without a traceback; nothing was committed (writes are transactions)."""
    from flask import render_template

    if isinstance(exc, HTTPException):
        return http_error(exc)
    found = storage.failure(exc)
    if found is not None:  # the disk, not a bug: its own status and words (507 for a full disk)
        status, message = found
        current_app.logger.error("%s on %s %s: %s", message, request.method, request.path, exc)
    else:
        current_app.logger.exception("unexpected error on %s %s", request.method, request.path)
        status, message = 500, "something went wrong on the server; nothing was changed"
    if wants_json():
        return jsonify(error=message, field="$"), status
    return render_template("errors/error.html", code=status, message=message), status
