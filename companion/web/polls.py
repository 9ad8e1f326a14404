"""Answer most live polls before Flask: 304 when nothing changed, or the shared render of the new version.

Nine requests in ten at a table are polls (every phone, every 750 ms), and most of them find
nothing new. Through Flask such a poll cost about 0.3 ms more than a bare WSGI answer, which
at a convention hall was most of the server's time (bench/README.md). This WSGI middleware sits
in front of the Flask app and answers a poll itself when it can with one query:

- the table's secret (from the phone's cookie) is right and the version it names in
  If-None-Match is still current: 304;
- the table moved on and the live region of its new version was already rendered for another
  phone (companion/web/live.py): 200 with that text.

Anything else (no cookie, a wrong secret, an odd header, a render still to make) goes to the
Flask route `tables.live`, which answers every case the same way; tests/foundation/
test_live_cache.py compares the two paths' answers.
"""

from __future__ import annotations

import re
from urllib.parse import parse_qs

from .. import tables

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
                answer = self.answer(found.group(1), environ)
                if answer is not None:
                    status, headers, body = answer
                    self.answered += 1
                    start_response(status, headers)
                    return [body]
        return self.wsgi_app(environ, start_response)

    def answer(self, table_id: str, environ) -> tuple[str, list, bytes] | None:
        secret = cookie(environ.get("HTTP_COOKIE", ""), f"tc_{table_id}")
        if not secret:
            return None
        try:
            version = tables.version_if_authorized(self.connection(), table_id, secret)
        except tables.NotFound:
            return None  # Flask answers the 404, the same for every unknown or wrong secret
        tag = f'"{table_id}-{version}"'
        seen = [t.strip() for t in environ["HTTP_IF_NONE_MATCH"].split(",")]
        headers = [("ETag", tag), *self.headers(), ("Cache-Control", "no-cache")]
        if tag in seen:  # strong tags only, as the Flask route (werkzeug's ETags) compares them
            return "304 Not Modified", headers, b""
        html = self.cache.get(table_id, screen(environ.get("QUERY_STRING", "")), version)
        if html is None:
            return None
        body = html.encode()
        return "200 OK", [("Content-Type", "text/html; charset=utf-8"), ("Content-Length", str(len(body))), *headers], body


def cookie(header: str, name: str) -> str | None:
    """Return a plain cookie's value from a Cookie header (quoted or odd ones: None, Flask decides)."""
    for part in header.split(";"):
        key, sep, value = part.strip().partition("=")
        if sep and key == name:
            return value if value and '"' not in value and "\\" not in value else None
    return None


def screen(query: str) -> str | None:
    """Return the screen asked for, exactly as the Flask route reads it (tables._screen)."""
    values = parse_qs(query, keep_blank_values=True).get("screen")
    value = (values[0] if values else "").strip()
    return value[:40] or None
