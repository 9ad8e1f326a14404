"""How waitress serves the app: `companion serve`, its workers and bench/hello.py alike.

One change to waitress itself: it closed the connection after every 304 and 204. Such an
answer has no body, so it has no Content-Length either, and waitress closes any HTTP/1.1
answer without one, to mark where its body ends. A bodiless answer ends with its headers,
so the connection can stay open; and nine requests in ten at a table are polls answered 304,
each of which cost the phone a new TCP connection.
"""

from __future__ import annotations

from waitress.channel import HTTPChannel
from waitress.server import BaseWSGIServer, create_server
from waitress.task import WSGITask


class KeepAliveTask(WSGITask):
    """waitress's task, which keeps the connection open after a bodiless HTTP/1.1 answer (304, 204)."""

    _bodiless = False

    def build_response_header(self):
        self._bodiless = (self.version == "1.1" and not self.has_body and not self.close_on_finish
                          and self.request.headers.get("CONNECTION", "").lower() != "close")
        try:
            return super().build_response_header()
        finally:
            self._bodiless = False

    def set_close_on_finish(self) -> None:
        # while the header of a bodiless answer is built, the only reason waitress closes is
        # the missing Content-Length; after it (a write error, say) it closes as always
        if not self._bodiless:
            super().set_close_on_finish()


class KeepAliveChannel(HTTPChannel):
    task_class = KeepAliveTask


def server(app, **options):
    """Return waitress's server for the app (not yet running), with KeepAliveChannel on every socket.

    Raises OSError when it cannot listen (the port is taken, the host is not this machine's).
    """
    made = create_server(app, **options)
    for listener in {id(d): d for d in [made, *getattr(made, "map", {}).values()]}.values():
        if isinstance(listener, BaseWSGIServer):
            listener.channel_class = KeepAliveChannel
    return made


def listening(made) -> tuple[str, int]:
    """Return the (host, port) a server made by server() listens on: the real port when 0 was asked for."""
    if isinstance(made, BaseWSGIServer):
        return made.effective_host, made.effective_port
    host, port = made.effective_listen[0][:2]
    return host, port


def serve(app, **options) -> None:
    """Serve the app until the process is stopped."""
    server(app, **options).run()
