"""What a request must pass before the app runs it (issue 40): its client's limits, its body in
time, its turn. companion/serving.py's Handler takes these methods.

- **its client** (companion/limits.py: one way to count a client): the address it is counted as,
  behind `--proxy` the one the proxy forwarded, as werkzeug's ProxyFix gives it to the app;
  `--request-limit` requests in a moving window (past it, 429 with Retry-After) and
  `--connection-limit` requests at once (past it, 429): said by the server, before the app runs,
  and the connection is closed, so the rest of a pipelined burst is never read;
- **its body, in time**: read whole before the app runs (as nginx buffers it), within
  BODY_TIMEOUT_S and then at least BODY_MIN_RATE bytes a second (Apache's mod_reqtimeout
  `body=20,MinRate=500`), or 408 and the connection is closed: a body sent a byte every 5 s held
  its place for good, since the head's deadline had passed and each byte reset the idle timeout;
  a body larger than the app's MAX_CONTENT_LENGTH is refused (413) unread;
- **its turn**: the app runs in its client's turn (companion/clients.py), so one client's many
  connections take turns with each other, not with every phone.
"""

from __future__ import annotations

import io
import time

import gevent

from .clients import parked
from .limits import client_address

#: seconds a request's body may take before it must come at BODY_MIN_RATE bytes a second
BODY_TIMEOUT_S = 10
BODY_MIN_RATE = 500
#: the bytes of a body read at a time (each extends its deadline by a second at BODY_MIN_RATE)
BODY_CHUNK = 512
#: the largest body read for the app where it sets none (its MAX_CONTENT_LENGTH)
MAX_BODY = 1024 * 1024


def canned(status: str, text: str, *headers: str) -> bytes:
    """A whole plain-text answer that closes its connection, written by the server itself."""
    body = text.encode()
    extra = "".join(f"{line}\r\n" for line in headers)
    return (f"HTTP/1.1 {status}\r\nConnection: close\r\nContent-Type: text/plain; charset=utf-8\r\n"
            f"Cache-Control: no-store\r\n{extra}Content-Length: {len(body)}\r\n\r\n").encode() + body


BODY_TOO_SLOW = canned("408 Request Timeout", "the request's body came too slowly\n")
BODY_TOO_LARGE = canned("413 Content Too Large", "the request's body is too large\n")
TOO_MANY_CONNECTIONS = canned("429 Too Many Requests", "too many connections from your network at once:"
                              " close some and try again\n", "Retry-After: 5")


def too_many_requests(seconds: int) -> bytes:
    return canned("429 Too Many Requests", f"too many requests from your network: try again in {seconds} s\n",
                  f"Retry-After: {seconds}")


def peer(address) -> str:
    """The client address of an accepted connection: a TCP peer's host, a Unix socket's name as given."""
    return address[0] if isinstance(address, tuple) and address else str(address)


class Admission:
    """The Handler's checks before the app runs (see the module); `self.server` is serving.Server."""

    #: the address the request being answered is counted as (companion/limits.py)
    client = ""

    def admit(self) -> bytes | None:
        """Count the request as its client's (companion/clients.py) and read its body; return the
        answer that refuses it (past a limit, or a body too slow or too large), or None."""
        server = self.server
        self.client = client_address(peer(self.client_address), self.environ.get("HTTP_X_FORWARDED_FOR"), server.hops)
        if server.requests is not None and (seconds := server.requests.wait(self.client)) is not None:
            return too_many_requests(seconds)
        if not server.clients.enter(self.socket, self.client):
            return TOO_MANY_CONNECTIONS
        return self.read_body()

    def read_body(self) -> bytes | None:
        """Read the request's body whole before the app runs, within BODY_TIMEOUT_S and then at
        least BODY_MIN_RATE bytes a second; return the refusal (408, or 413 past the largest), or None."""
        chunked = self.environ.get("HTTP_TRANSFER_ENCODING", "").lower() == "chunked"
        length = self.content_length or 0
        if not chunked and not length:
            return None
        if length > self.server.max_body:
            return BODY_TOO_LARGE
        body, size, began = [], 0, time.monotonic()
        with parked():
            while chunked or size < length:
                left = began + BODY_TIMEOUT_S + size / BODY_MIN_RATE - time.monotonic()
                want = BODY_CHUNK if chunked else min(BODY_CHUNK, length - size)
                try:
                    with gevent.Timeout(max(left, 0.001)):
                        data = self.wsgi_input.read(want)
                except gevent.Timeout:
                    return BODY_TOO_SLOW
                except (OSError, ValueError):  # a hang-up, a broken chunk: nobody to answer
                    self.close_connection = True
                    return b""
                if not data:
                    break
                body.append(data)
                size += len(data)
                if size > self.server.max_body:
                    return BODY_TOO_LARGE
        self.environ["wsgi.input"] = io.BytesIO(b"".join(body))
        self.environ["CONTENT_LENGTH"] = str(size)
        return None

    def run_application(self):
        """pywsgi's, with the app run in its client's turn (companion/clients.py)."""
        try:
            with self.server.clients.turn(self.client):
                self.result = self.application(self.environ, self.start_response)
            self.process_result()
        finally:
            close = getattr(self.result, "close", None)
            try:
                if close is not None:
                    close()
            finally:
                self.result = None
