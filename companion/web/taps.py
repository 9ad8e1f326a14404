"""Answer a stepper's tap before Flask's request handling, as polls.py does for polls.

A tap on a stepper is the commonest write at a table (companion/web/steppers.py). Its own work
is small (check the secret, append the event, draw one stepper), and Flask's handling around
it (request context, form parsing, routing, hooks, response) cost about a third of it; next to
a bare WSGI answer, that third was what kept a score change near three times the hello
(bench/README.md). This middleware takes the plain case and does the same work with the same
functions:

- a POST to /t/ID/events sent by htmx from a stepper (HX-Target names it), from the page's own
  origin (Sec-Fetch-Site: same-origin, which Flask's cross-site check lets through too), as a
  small urlencoded form;
- the form decodes (forms.decode), the stepper's settings read (steppers.parse_tap), and the
  event appended with the cookie's secret checked in the write's transaction (tables.append);
- the answer is `answers.after_tap`'s, which the Flask route gives too: the stepper alone with
  the tools, or, when the game has no counter for the event, the parts that changed since the
  version the page shows. The cookies, the screen and the version headers are read by the same
  functions (answers.py).

Everything else goes to the Flask route, which answers every case: a refused, stale or unknown
table's write has written nothing, so Flask running it again gives the same 400, 409 or 404
with its page. If drawing the answer failed after the write (a bug), the post also goes on to
Flask, which finds the tap's write_id already written (static/js/taps.js gives every tap one) and answers
with the table as it is, or, for a post without one, its expected_version check answers 409:
the event is never applied twice. A tap the phone sends again because its answer was lost is
answered here like any other, with the stepper as the table now has it (tables.append).
tests/foundation/test_taps.py sends the same posts down both paths, from copies of one
database, and wants the same answers.
"""

from __future__ import annotations

import io
import logging
import re
from urllib.parse import parse_qsl

from .. import forms, tables
from ..games.validation import RulesError
from . import answers, steppers

TAP_PATH = re.compile(r"/t/([A-Za-z0-9_-]{1,64})/events")
MAX_BODY = 16 * 1024  # a stepper's form is a few hundred bytes; anything bigger goes to Flask

log = logging.getLogger(__name__)


class QuickTaps:
    """WSGI middleware: answers the stepper taps it can (see the module), hands on the rest."""

    def __init__(self, wsgi_app, flask_app, connection, headers):
        self.wsgi_app = wsgi_app
        self.flask_app = flask_app
        self.connection = connection  # () -> this thread's database connection
        self.headers = headers  # () -> the security headers every answer carries
        self.answered = 0  # taps answered here (tests, benchmarks)

    def __call__(self, environ, start_response):
        if (environ.get("REQUEST_METHOD") == "POST" and environ.get("HTTP_HX_REQUEST") == "true"
                and "HTTP_HX_HISTORY_RESTORE_REQUEST" not in environ
                and environ.get("HTTP_SEC_FETCH_SITE") == "same-origin"
                and environ.get("HTTP_HX_TARGET", "").startswith("w-")):
            found = TAP_PATH.fullmatch(environ.get("PATH_INFO", ""))
            if found:
                answer = self.answer(found.group(1), environ)
                if answer is not None:
                    headers, body = answer
                    self.answered += 1
                    start_response("200 OK", headers)
                    return [body]
        return self.wsgi_app(environ, start_response)

    def answer(self, table_id: str, environ) -> tuple[list, bytes] | None:
        """Apply the tap and return (headers, body), or None to let Flask answer the post."""
        items = read_form(environ)
        if items is None:
            return None
        cookies = answers.cookies_of(environ)
        secret = answers.secret_of(cookies, table_id)
        if not secret:
            return None
        try:
            doc = forms.decode(items)
        except RulesError:
            return None
        tap = steppers.parse_tap(environ["HTTP_HX_TARGET"], answers.first(items, steppers.FIELD))
        if tap is None:
            return None
        doc.setdefault("data", {})
        screen = answers.screen_in(environ.get("QUERY_STRING", ""), items)
        with self.flask_app.request_context(environ):  # the templates build addresses from the request
            try:
                table = tables.append(self.connection(), table_id, doc, answers.seat_of(cookies, table_id), secret=secret)
            except (RulesError, tables.Conflict, tables.NotFound):
                return None  # nothing written: Flask answers with its page and message
            except Exception:  # the disk (full, read-only) or a bug: rolled back, and Flask's try of the
                return None  # same post meets it again and answers it (507 for a full disk), never a bare 500
            try:
                from .tables import update

                has = answers.has_of(environ.get("HTTP_X_TABLE_HAS"))
                redraw = answers.redraw_of(environ.get("HTTP_X_TABLE_REDRAW"))
                html, extra = answers.after_tap(tap, table, doc.get("type"), doc.get("data"), screen,
                                                lambda: update(table, screen, has, redraw))
            except Exception:  # a bug: Flask's try of the same post answers 409, never a second write
                log.exception("drawing a tap's answer failed on %s", environ.get("PATH_INFO"))
                return None
        body = html.encode()
        headers = [("Content-Type", "text/html; charset=utf-8"), ("Content-Length", str(len(body))), *extra,
                   *self.headers(), ("Cache-Control", "no-cache")]
        return headers, body


def read_form(environ) -> list[tuple[str, str]] | None:
    """Read a small urlencoded body, leaving it readable again for Flask; None if it is not one."""
    if environ.get("CONTENT_TYPE", "").split(";")[0].strip().lower() != "application/x-www-form-urlencoded":
        return None
    try:
        length = int(environ.get("CONTENT_LENGTH") or 0)
    except ValueError:
        return None
    if not 0 < length <= MAX_BODY:
        return None
    body = environ["wsgi.input"].read(length)
    environ["wsgi.input"] = io.BytesIO(body)
    try:
        return parse_qsl(body.decode("utf-8"), keep_blank_values=True, errors="strict")
    except (UnicodeDecodeError, ValueError):
        return None  # werkzeug has its own way with bad bytes: let it
