"""Answer most live polls before Flask: 304 when nothing changed, or the shared render of the new version.

Nine requests in ten at a table are polls (every phone, every 750 ms), and most of them find
nothing new. Through Flask such a poll cost about 0.3 ms more than a bare WSGI answer, which
at a convention hall was most of the server's time (bench/README.md). This WSGI middleware sits
in front of the Flask app and answers a poll itself when the answer needs no page: 304, or
the live region of the new version already rendered for another phone (companion/web/live.py).

What the answer is, is decided by `answers.poll`, which the Flask route `tables.live` calls
too. Anything this path cannot answer alone (an unknown table or a wrong secret, whose 404
is a page; a render still to make) goes on to that route. tests/foundation/
test_live_cache.py compares the two paths' answers.
"""

from __future__ import annotations

import re

from werkzeug.http import parse_etags

from .. import tables
from . import answers

LIVE_PATH = re.compile(r"/t/([A-Za-z0-9_-]{1,64})/live")


class QuickPolls:
    """WSGI middleware: answers the polls it can (see the module), hands on the rest."""

    def __init__(self, wsgi_app, flask_app, connection, headers):
        self.wsgi_app = wsgi_app
        self.cache = flask_app.extensions["companion.live"]
        self.connection = connection  # () -> this thread's database connection
        self.headers = headers  # () -> the security headers every answer carries
        self.answered = 0  # polls answered here (tests, benchmarks)

    def __call__(self, environ, start_response):
        if environ.get("REQUEST_METHOD") == "GET" and "HTTP_IF_NONE_MATCH" in environ:
            found = LIVE_PATH.fullmatch(environ.get("PATH_INFO", ""))
            if found:
                try:
                    answer = self.answer(found.group(1), environ)
                except Exception:  # a damaged file, a failing disk, a bug: Flask answers it with its words
                    answer = None
                if answer is not None:
                    status, headers, body = answer
                    self.answered += 1
                    start_response(status, headers)
                    return [body]
        return self.wsgi_app(environ, start_response)

    def answer(self, table_id: str, environ) -> tuple[str, list, bytes] | None:
        cookies = answers.cookies_of(environ)
        try:
            poll = answers.poll(self.connection(), self.cache, table_id, answers.secret_of(cookies, table_id),
                                parse_etags(environ["HTTP_IF_NONE_MATCH"]), lambda: answers.screen_in(environ.get("QUERY_STRING", "")))
        except tables.NotFound:
            return None  # Flask answers the 404 page, the same for every unknown or wrong secret
        headers = [("ETag", f'"{poll.tag}"'), *self.headers(), ("Cache-Control", "no-cache")]
        if poll.unchanged:
            return "304 Not Modified", headers, b""
        if poll.html is None:
            return None
        body = poll.html.encode()
        return "200 OK", [("Content-Type", "text/html; charset=utf-8"), ("Content-Length", str(len(body))), *headers], body
