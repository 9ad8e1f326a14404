"""Send pages, fragments, JSON and static files gzip-compressed to the clients that accept it.

A table page is 140 to 189 KiB of HTML, CSS and scripts, and a phone that taps gets a fragment
back; gzip makes them a fifth to a tenth of that. `Gzip` is a WSGI middleware placed in
`create_app` around Flask, just inside the Host check.

Why a middleware of our own and not Flask-Compress: Flask-Compress compresses streamed answers by
default, which would hold the server-sent events of `GET /t/ID/events` in the compressor; and it
compresses a static file again at every request unless one writes a cache key for it, then
re-checks If-None-Match only after rendering and compressing, where `/t/ID/live` answers 304
without rendering anything.

Why gzip alone: browsers offer brotli (and zstd) only to secure origins, and the table is
usually served over plain http on the home network (its QR code's address), where they ask
for gzip alone; served over HTTPS it is behind Caddy or nginx, which can compress on their own.
gzip is in the standard library: no package to install offline.

What is compressed, and how (RFC 9110):
- only an answer of a textual type (TYPES), without Content-Encoding of its own, and of
  MIN_BYTES or more: a page, a fragment, JSON, a static file, and an error page too (a form's
  400 shows the whole table with its message). Never the event stream (text/event-stream: bench/stream_gzip.py weighs
  that separately), nor images already compressed (PNG), nor a 206 (a range is of the
  identity bytes);
- pages and fragments at PAGE_LEVEL, cheap; a static file once, at STATIC_LEVEL, kept by its
  path, size and modification time (werkzeug's ETag holds both) in a bounded cache;
- `Accept-Encoding` is read with its q-values: `gzip;q=0` (or `*;q=0` without gzip) refuses it;
- a compressed answer carries `Content-Encoding: gzip`, its own Content-Length, and its ETag
  with SUFFIX inside the quotes (`"v12-gzip"`), so no cache mixes the two encodings; the
  If-None-Match a client sends back has the suffix taken off before the app sees it, so the
  static files' and `/t/ID/live`'s 304s still match, and the 304 names the tag the client holds;
- every answer of a type that could be compressed, and every 304, says `Vary: Accept-Encoding`,
  added to the Vary already there;
- a HEAD gets the headers its GET would, the compressed length too: it goes on as a GET,
  which costs what a HEAD costs Flask, which renders the body and drops it, and the body is
  dropped here.
Every other header, the security headers included, is passed on as the app set it.
"""

from __future__ import annotations

import gzip
import re
import threading
from collections import OrderedDict

#: the types worth compressing: text, JSON, JavaScript, SVG (images in PNG or video are compressed already)
TYPES = frozenset({
    "text/html", "text/css", "text/javascript", "text/plain", "text/csv", "text/xml", "application/javascript",
    "application/json", "application/manifest+json", "application/xml", "image/svg+xml",
})
#: the statuses never compressed: no body (204, 304), or a range of the identity bytes (206)
UNCOMPRESSED = frozenset({"204", "206", "304"})
#: below this a body is sent as it is: its few hundred bytes fit one packet either way
MIN_BYTES = 1024
#: pages and fragments are compressed at each request, so at a cheap level: on a 78 KB live region
#: levels 1 to 3 take the same time (zlib's fast strategy), 3 making 13% fewer bytes than 1, and
#: level 6 takes two and a half times as long for a fifth fewer again (bench/stream_gzip.py prints each)
PAGE_LEVEL = 3
#: a static file is compressed once, so as small as gzip makes it
STATIC_LEVEL = 9
#: the most bytes of compressed static files kept (the app's own are about 100 KiB)
STATIC_CACHE_BYTES = 4 * 1024 * 1024
#: what a compressed answer's ETag carries inside its quotes
SUFFIX = "-gzip"
SUFFIXED = re.compile(re.escape(SUFFIX) + '"')


def accepts_gzip(header: str) -> bool:
    """True if an Accept-Encoding header accepts gzip: named with a q above 0, or `*` without gzip named."""
    named = star = None
    for part in header.split(","):
        coding, *params = part.strip().split(";")
        quality = 1.0
        for param in params:
            key, _, value = param.strip().partition("=")
            if key.strip().lower() == "q":
                try:
                    quality = float(value)
                except ValueError:
                    quality = 0.0  # a q that is not a number accepts nothing
        coding = coding.strip().lower()
        if coding in ("gzip", "x-gzip"):
            named = quality if named is None else max(named, quality)
        elif coding == "*":
            star = quality
    if named is not None:
        return named > 0
    return star is not None and star > 0


def suffixed(etag: str) -> str:
    """Return an ETag header's value with SUFFIX inside its quotes (a weak one stays weak)."""
    return etag[:-1] + SUFFIX + '"' if etag.endswith('"') else etag


def with_vary(headers: list) -> list:
    """Return the headers with Accept-Encoding added to Vary (or a Vary made of it)."""
    for i, (name, value) in enumerate(headers):
        if name.lower() == "vary":
            named = {v.strip().lower() for v in value.split(",")}
            if "accept-encoding" in named or "*" in named:
                return headers
            headers = list(headers)
            headers[i] = (name, value + ", Accept-Encoding")
            return headers
    return [*headers, ("Vary", "Accept-Encoding")]


def header(headers: list, wanted: str) -> str | None:
    """Return a header's value from a WSGI header list (None if absent)."""
    for name, value in headers:
        if name.lower() == wanted:
            return value
    return None


def compressible(headers: list) -> bool:
    """True for an answer whose type is worth compressing and that is not encoded already."""
    kind = (header(headers, "content-type") or "").split(";")[0].strip().lower()
    return kind in TYPES and header(headers, "content-encoding") is None


class StaticCache:
    """The compressed bodies of static files, by path, ETag and size, the least used dropped past a size."""

    def __init__(self, most_bytes: int = STATIC_CACHE_BYTES):
        self.most_bytes = most_bytes
        self.bodies: OrderedDict[tuple, bytes] = OrderedDict()
        self.size = 0
        self.lock = threading.Lock()
        self.compressed = 0  # how many times a file was compressed (tests)

    def get(self, key: tuple) -> bytes | None:
        with self.lock:
            body = self.bodies.get(key)
            if body is not None:
                self.bodies.move_to_end(key)
            return body

    def put(self, key: tuple, body: bytes) -> None:
        with self.lock:
            self.compressed += 1
            if len(body) > self.most_bytes or key in self.bodies:
                return
            self.bodies[key] = body
            self.size += len(body)
            while self.size > self.most_bytes:
                _, dropped = self.bodies.popitem(last=False)
                self.size -= len(dropped)


class Gzip:
    """WSGI middleware: gzip for the clients that accept it (see the module)."""

    def __init__(self, wsgi_app, static_path: str | None):
        self.wsgi_app = wsgi_app
        self.static_prefix = static_path.rstrip("/") + "/" if static_path else None
        self.static = StaticCache()

    def __call__(self, environ, start_response):
        if not accepts_gzip(environ.get("HTTP_ACCEPT_ENCODING", "")):
            def identity(status, headers, exc_info=None):
                if compressible(headers) or status.startswith("304"):
                    headers = with_vary(headers)
                return start_response(status, headers, exc_info)
            return self.wsgi_app(environ, identity)

        held = environ.get("HTTP_IF_NONE_MATCH")
        if held and SUFFIX in held:  # the app knows its tags without the suffix
            environ["HTTP_IF_NONE_MATCH"] = SUFFIXED.sub('"', held)
        head = environ.get("REQUEST_METHOD") == "HEAD"
        if head:  # Flask renders a HEAD's body anyway and drops it: have it, to give the compressed length
            environ["REQUEST_METHOD"] = "GET"
        kept: list = []  # (status, headers) of an answer to compress once its body is read
        written: list[bytes] = []

        def starting(status, headers, exc_info=None):
            if status[:3] not in UNCOMPRESSED and compressible(headers):
                length = header(headers, "content-length")
                if length is None or int(length) >= MIN_BYTES:
                    kept[:] = [status, headers, exc_info]
                    return written.append
            if status.startswith("304"):
                tag = header(headers, "etag")
                if tag and held and suffixed(tag) in held:  # the copy the client holds is the gzip one
                    headers = [(n, suffixed(v) if n.lower() == "etag" else v) for n, v in headers]
            if compressible(headers) or status.startswith("304"):
                headers = with_vary(headers)
            return start_response(status, headers, exc_info)

        answer = self.wsgi_app(environ, starting)
        if not kept and not head:
            return answer  # streamed on as it comes: the event stream above all
        try:
            if not kept:
                return []  # a HEAD of an answer sent as it is: its headers are started, its body dropped
            status, headers, exc_info = kept
            key = self.static_key(environ, headers)
            body = self.static.get(key) if key else None
            if body is None:
                body = b"".join([*written, *answer])
                if len(body) < MIN_BYTES:  # a body of unknown length that turned out small
                    start_response(status, with_vary(headers), exc_info)
                    return [] if head else [body]
                body = gzip.compress(body, STATIC_LEVEL if key else PAGE_LEVEL, mtime=0)
                if key:
                    self.static.put(key, body)
        finally:
            if hasattr(answer, "close"):
                answer.close()
        start_response(status, fitted(headers, body), exc_info)
        return [] if head else [body]

    def static_key(self, environ, headers: list) -> tuple | None:
        """Return what names a static file's version (its path, and werkzeug's ETag made of its time and size); None for any other answer."""
        path = environ.get("PATH_INFO", "")
        if not (self.static_prefix and path.startswith(self.static_prefix)):
            return None
        return path, header(headers, "etag"), header(headers, "last-modified"), header(headers, "content-length")


def fitted(headers: list, body: bytes) -> list:
    """Return an answer's headers made to fit its gzipped body."""
    out = [(name, suffixed(value) if name.lower() == "etag" else value) for name, value in headers
           if name.lower() not in ("content-length", "accept-ranges")]  # a range would be of the identity bytes
    return with_vary([*out, ("Content-Encoding", "gzip"), ("Content-Length", str(len(body)))])
