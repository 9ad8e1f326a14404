"""How the app is served: gevent's WSGI server, for `companion serve`, its workers and bench/hello.py alike.

Every phone at a table holds one open stream (server-sent events, companion/web/push.py), so
the server holds as many long-lived connections as there are phones, and thousands of idle
ones must not stop it (issue 13). gevent's pywsgi runs each connection in a greenlet: an open
stream waiting for the next version costs a few kilobytes and no thread, where waitress gives
each request a thread until it ends (bench/servers.py compares them). The app stays a plain
WSGI app; nothing is monkey-patched, so a request runs to its end without yielding, as it
did in a thread, and every greenlet of the process shares its one database connection
(companion/web/connection.py). gevent runs on Linux, macOS and Windows.

What is set here, and why:
- at most `connection_limit()` connections at once, below the open-file limit: past it the
  server stops accepting and the kernel queues new connections, where accept() would fail
  with EMFILE (gevent's Pool);
- TCP_NODELAY on every connection: an answer written in two parts waited 40 ms for the
  phone's delayed ACK (a tap took 42 ms instead of 0.9);
- an idle connection is closed after IDLE_TIMEOUT_S ($COMPANION_IDLE_TIMEOUT_S), as waitress's
  channel_timeout did; an open stream writes a keep-alive more often (push.KEEP_ALIVE_S);
- an event stream whose phone stopped reading is ended: its send buffer is small
  (STREAM_SEND_BUFFER) and a write that waits STREAM_WRITE_TIMEOUT_S (or the idle timeout, if
  shorter) is given up; the phone's browser opens the stream again and catches up by version;
- a request's head (its request line and headers) must arrive whole within HEAD_TIMEOUT_S of
  its first byte, or 408 and the connection is closed: the idle timeout counts each wait alone,
  so a header line every few seconds held a place for good. $COMPANION_HEAD_TIMEOUT_S sets it;
- a request's body must come in time, and the request pass its client's limits, before the
  app runs it in its client's turn (companion/admission.py);
- an answer must be read at least ANSWER_MIN_RATE bytes a second after a first ANSWER_TIMEOUT_S,
  or the connection is closed (an event stream: STREAM_WRITE_TIMEOUT_S a write, below);
- a few places are always kept free for new connections: when they run short, the connections
  that have waited longest without a whole request are closed, then the oldest of the client
  holding the most (companion/clients.py: the fair pool);
- without a trusted proxy, a new connection past its address's `--connection-limit` is closed
  at once, unread, before it is given a greenlet (behind one, admission.py counts the forwarded client);
- an event stream notices a phone that left within push.KEEP_ALIVE_S: before each write of a
  stream the socket is asked, without waiting, whether the phone closed its side (a write to
  such a socket succeeds once, and only the next fails); and where TCP_USER_TIMEOUT exists
  (Linux), a stream whose phone stopped acknowledging for STREAM_UNACKED_S (out of the Wi-Fi's
  reach: no close ever comes) is ended by the kernel, instead of after TCP's retries (minutes);
- the request log is off (a phone's every tap would be a line); errors go through `logging`
  (companion/logs.py: no secret, repeated lines folded).
"""

from __future__ import annotations

import errno
import http.client
import logging
import os
import signal
import socket
import time

import gevent
from gevent import GreenletExit
from gevent.pool import Pool
from gevent.pywsgi import WSGIHandler, WSGIServer, _InvalidClientInput

from .admission import MAX_BODY, Admission, canned, peer
from .clients import Clients, parked
from .limits import CLIENT_SHARE, Requests, client_cap, proxy_hops

#: seconds a connection may stay silent before it is closed (waitress's channel_timeout was 30)
IDLE_TIMEOUT_S = 30
#: seconds one write of an event stream may wait for its phone to read (at most the idle timeout): then
#: the stream ends, and the phone's browser opens it again and catches up by version (web/push.py)
STREAM_WRITE_TIMEOUT_S = 5
#: an event stream's socket send buffer, in bytes (Linux doubles it and stops growing it): what a
#: phone that stopped reading can leave unsent on the server, instead of the megabytes Linux's
#: tuning allows a socket; it holds a whole event, so a reading phone's write completes at once
STREAM_SEND_BUFFER = 64 * 1024
#: seconds a request's head may take to arrive whole, from its first byte (nginx's
#: client_header_timeout is 60, Apache's mod_reqtimeout 20-40): a phone sends its head in one packet
HEAD_TIMEOUT_S = 10
#: seconds a stream's written bytes may stay unacknowledged before the kernel ends it (TCP_USER_TIMEOUT)
STREAM_UNACKED_S = 15
#: of the places for connections, at least 1/RESERVE_SHARE, and RESERVE_LEAST, are kept free (make_room)
RESERVE_SHARE = 50
RESERVE_LEAST = 8
#: descriptors kept free beside the connections: SQLite's file and WAL, listening sockets, logs
FD_HEADROOM = 64
#: the open-file limit asked for at start-up, where the hard limit allows it
WANTED_FILES = 65536
#: the most connections where the open-file limit cannot be read (Windows: no `resource`)
NO_RLIMIT_CONNECTIONS = 10000

#: seconds an answer may take to be read before it must be read at ANSWER_MIN_RATE bytes a second
ANSWER_TIMEOUT_S = 10
ANSWER_MIN_RATE = 1000
HEAD_TOO_SLOW = canned("408 Request Timeout", "the request's headers came too slowly\n")

#: not under "companion", the Flask app's logger: its handler writes to the request's wsgi.errors,
#: which is this logger (pywsgi's error_log), and a record would go round for ever
log = logging.getLogger("table_companion.server")


def env_seconds(name: str, default: float, most: float = 60) -> float:
    """Return the seconds in the environment variable `name` (more than 0, at most `most`), else default.

    A value that is not such a number stops the server with one line rather than being guessed at.
    """
    text = os.environ.get(name)
    try:
        seconds = float(text) if text else default
    except ValueError:
        raise SystemExit(f"error: {name}: {text!r} is not a number of seconds") from None
    if not 0 < seconds <= most:
        raise SystemExit(f"error: {name}: must be more than 0 and at most {most:g}, not {text}")
    return seconds


def connection_limit() -> int:
    """Raise the open-file limit as far as allowed; return it less headroom.

    Past the limit, accept() fails with EMFILE; holding fewer connections than that keeps the
    server taking none rather than failing on each (the kernel queues them meanwhile).
    """
    try:
        import resource
    except ImportError:  # Windows: no per-process descriptor limit to read
        return NO_RLIMIT_CONNECTIONS
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    unlimited = resource.RLIM_INFINITY
    for wanted in (WANTED_FILES if hard == unlimited else min(hard, WANTED_FILES), 10240):
        if soft != unlimited and soft < wanted:
            try:  # macOS refuses more than its OPEN_MAX (10240) even with an unlimited hard limit
                resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
                soft = wanted
                break
            except (ValueError, OSError):
                continue
    files = WANTED_FILES if soft == unlimited else soft
    return max(1, files - FD_HEADROOM)


class Handler(Admission, WSGIHandler):
    """pywsgi's handler, which says when it closes, logs an unexpected error through `logging`, and
    closes a connection whose phone went quiet (a stalled stream) with one line, not a traceback."""

    #: the seconds a write of this connection's answer may wait; set for an event stream
    write_timeout: float | None = None
    #: the running deadline for the request head being read (HEAD_TIMEOUT_S)
    head_deadline: gevent.Timeout | None = None
    #: when this answer's first byte was written (ANSWER_TIMEOUT_S)
    answer_started: float | None = None

    def handle_one_request(self):
        """pywsgi's, with a deadline for the whole head: from its first byte (the wait for it is
        the idle timeout's) until its headers are read, or 408 and the connection is closed."""
        if self.rfile.closed:
            return None
        waiting = self.server.waiting
        waiting[self] = None  # until its head is read, the first this server closes when it runs out of places
        try:
            try:
                self.rfile.peek(1)  # the next request's first byte, or b"" (closed), or the idle timeout
            except OSError:  # the idle timeout, or a reset: closed as pywsgi closes it
                return None
            if self not in waiting:  # closed to make room while it waited (Server.make_room)
                return None
            self.head_deadline = gevent.Timeout.start_new(self.server.head_timeout)
            try:
                return super().handle_one_request()
            except gevent.Timeout as fired:
                if fired is not self.head_deadline:
                    raise
                self.close_connection = True
                try:  # said here, not by pywsgi, which writes it unguarded: the client may be gone
                    self.socket.sendall(HEAD_TOO_SLOW)
                except OSError:
                    pass
                return None
            finally:
                self.head_deadline.cancel()
        finally:
            waiting.pop(self, None)

    def read_request(self, raw_requestline):
        try:
            return super().read_request(raw_requestline)
        finally:  # the head is read: what follows (the body, the answer) has its own timeouts
            self.head_deadline.cancel()
            self.server.waiting.pop(self, None)

    def _handle_client_error(self, ex):
        # pywsgi prints a traceback for any error but a malformed head: a client that hung up while
        # its head came (a phone gone, a connection closed to make room) is nobody's fault, and there
        # is nobody to answer
        # (gevent's shutdown() from make_room ends the read with its own OSError, EBADF); an OSError
        # pywsgi raises itself is a malformed head, answered 400 as before
        if isinstance(ex, OSError) and not isinstance(ex, _InvalidClientInput):
            self.close_connection = True
            return None
        if isinstance(ex, http.client.HTTPException):  # too many headers, a line too long: bad input, not
            ex = ValueError(str(ex) or type(ex).__name__)  # our fault (pywsgi would print its traceback)
        return super()._handle_client_error(ex)

    def finalize_headers(self):
        super().finalize_headers()
        # pywsgi closes after a request that asked it to (Connection: close) without saying so
        # in the answer; HTTP/1.1 wants the words (RFC 9112, 9.6), and clients rely on them
        if self.close_connection and self.request_version == "HTTP/1.1" and not any(
                name.lower() == b"connection" for name, _ in self.response_headers):
            self.response_headers.append((b"Connection", b"close"))
        if any(name.lower() == b"content-type" and value.startswith(b"text/event-stream")
               for name, value in self.response_headers):
            self.as_stream()

    def as_stream(self) -> None:
        """Bound what a stream's phone can hold up: a small send buffer, and a write that cannot
        finish within STREAM_WRITE_TIMEOUT_S ends the stream (handle_error, gave_up) instead of
        waiting the idle timeout. A stalled stream's greenlet only waits meanwhile; the others
        run on, and no event is queued for it: the next is computed from its version."""
        self.write_timeout = min(STREAM_WRITE_TIMEOUT_S, self.server.idle_timeout)
        try:
            self.socket.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, STREAM_SEND_BUFFER)
            if hasattr(socket, "TCP_USER_TIMEOUT"):  # Linux: a phone out of reach acknowledges nothing
                self.socket.setsockopt(socket.IPPROTO_TCP, socket.TCP_USER_TIMEOUT, STREAM_UNACKED_S * 1000)
        except OSError:  # closed meanwhile (the first write says so), or not TCP (a test's Unix socket)
            pass
        self.socket.settimeout(self.write_timeout)

    def _sendall(self, data):
        if self.write_timeout is not None and self.peer_closed():
            # the phone closed its side (it left the page): end the stream now, as a write that
            # failed would, instead of writing once more into a socket nobody reads
            raise BrokenPipeError(errno.EPIPE, "the phone closed its stream")
        if self.write_timeout is None:  # an answer: ANSWER_TIMEOUT_S, then ANSWER_MIN_RATE
            now = time.monotonic()
            if self.answer_started is None:
                self.answer_started = now
            left = self.answer_started + ANSWER_TIMEOUT_S + self.response_length / ANSWER_MIN_RATE - now
            self.socket.settimeout(min(max(left, 0.001), self.server.idle_timeout))
        with parked():
            return super()._sendall(data)

    def peer_closed(self) -> bool:
        """True when the client has closed its side: a look at the socket that never waits."""
        raw = getattr(self.socket, "_sock", self.socket)
        try:
            return raw.recv(1, socket.MSG_PEEK | socket.MSG_DONTWAIT) == b""
        except BlockingIOError:  # nothing to read: still open
            return False
        except OSError:  # reset: the write says so
            return False

    def handle_one_response(self):
        refusal = self.admit()
        if refusal is not None:  # said before the app runs: the connection closes after it
            self.close_connection = True
            try:
                self.socket.sendall(refusal)
            except OSError:
                pass
            return None
        try:
            return super().handle_one_response()
        finally:
            self.answer_started = None
            if self.socket is not None:  # an answer or a stream ended: the connection idles again
                self.socket.settimeout(self.server.idle_timeout)
                self.write_timeout = None
            if self.server.hops and self.socket is not None:  # between requests it is the proxy's again
                self.server.clients.enter(self.socket, peer(self.client_address), capped=False)

    def handle_error(self, t, v, tb):
        if issubclass(t, TimeoutError):  # socket.timeout: a phone gone quiet, not a fault of ours
            self.gave_up()
            return
        if issubclass(t, GreenletExit):  # closed to make room (companion/clients.py), or the server stops:
            self.close_connection = True  # no answer (pywsgi's bare except would write a 500)
            raise v
        super().handle_error(t, v, tb)

    def gave_up(self) -> None:
        """Close a connection whose phone stopped reading its answer (a stalled stream), or sending
        its request, for the idle timeout: one line in the log, no traceback, no answer."""
        self.close_connection = True
        if not self.headers_sent or self.write_timeout:
            what, seconds = (("stopped reading its answer", self.write_timeout) if self.headers_sent else
                             ("sent nothing more of its request", self.server.idle_timeout))
            log.warning("closed %s %s: the phone %s for %g s", self.command, self.path, what, seconds)
        else:
            log.warning("closed %s %s: the phone read its answer too slowly", self.command, self.path)

    def _log_error(self, t, v, tb):
        # gevent prints such an error, traceback and request, to stderr itself: through logging
        # instead, where the secrets in a join address are taken out (the phone gets a bare 500)
        if not issubclass(t, GreenletExit):
            log.error("unexpected error while serving %s", self.path, exc_info=(t, v, tb))


class Server(WSGIServer):
    """gevent's WSGIServer with the settings above on every connection."""

    handler_class = Handler
    #: seconds a connection may stay silent, or a write wait, before it is closed
    idle_timeout: float = IDLE_TIMEOUT_S
    #: seconds a request's head may take from its first byte
    head_timeout: float = HEAD_TIMEOUT_S
    #: every connection counted by its client, and what each may hold (companion/clients.py)
    clients: Clients = None
    #: the requests each client may make (None: no limit)
    requests: Requests | None = None
    #: the trusted proxies in front (`--proxy`): a request's client is the address they forwarded
    hops: int = 0
    #: the largest body read for the app
    max_body: int = MAX_BODY
    #: places kept free for new connections (make_room); set from the pool's size in server()
    reserve: int = 0
    #: connections the kernel queues while the server is busy, as `--workers`' sockets do
    #: (gevent's default, 256, dropped part of a burst of connects, which the phones then retried
    #: seconds later)
    backlog = 1024

    def handle(self, sock, address):
        try:
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        except OSError:  # not TCP (a test's Unix socket), or already closed
            pass
        sock.settimeout(self.idle_timeout)
        self.clients.greenlets[sock] = gevent.getcurrent()  # what make_room closes, should it have to
        return super().handle(sock, address)

    def do_handle(self, sock, address):
        """Serve a new connection, counted as its address's; without a trusted proxy, close it at once
        when its address holds its cap already: decided as it is accepted, before a greenlet or a
        place in the pool is given to it (behind a proxy, every connection is the proxy's until its
        request's head names the client)."""
        if not self.clients.enter(sock, peer(address), capped=not self.hops):
            sock.close()
            return
        self.make_room(sock)
        super().do_handle(sock, address)

    def make_room(self, new=None) -> None:
        """Keep `reserve` places free: when fewer are, close the connections that have waited longest
        without a whole request (idle between requests, or a head still coming), as nginx drains its
        idle keep-alive connections when it runs out; then the oldest of the client holding the most
        (companion/clients.py), never `new`. Past the last place the server stops accepting, and a
        phone's tap would wait in the kernel's queue until a slow client gave its place up. A browser
        whose idle keep-alive connection was closed opens another for its next request."""
        # a place closed here is free only once its greenlet has ended (a later callback): counted
        # meanwhile, or a burst of accepts would each close again what the one before already did
        short = self.reserve - self.pool.free_count() - len(self.closing) + 1
        if short <= 0:
            return
        for handler in list(self.waiting)[:short]:
            del self.waiting[handler]
            short -= 1
            self.closed_for_room(handler.socket)
            try:
                handler.socket.shutdown(socket.SHUT_RDWR)  # its greenlet's read ends: it closes as on a hang-up
            except OSError:  # closed meanwhile
                pass
        while short > 0 and (sock := self.clients.evict(spare=new)) is not None:
            short -= 1
            self.closed_for_room(sock)
            # no address in the log (the README's promise); repeated lines are folded (companion/logs.py)
            log.warning("closed the oldest waiting connection of the client holding the most, to make room")

    def closed_for_room(self, sock) -> None:
        """Count `sock` as closing until its greenlet's place in the pool is free: linked after the
        pool's own link, which frees it (the greenlet's last line, do_close, runs before)."""
        greenlet = self.clients.greenlets.get(sock)
        if greenlet is not None and not greenlet.dead:
            self.closing.add(sock)
            greenlet.rawlink(lambda _: self.closing.discard(sock))

    def do_close(self, sock, address):
        try:
            super().do_close(sock, address)
        finally:
            self.clients.leave(sock)


def server(app, host: str = "127.0.0.1", port: int = 8000, sockets: list[socket.socket] | None = None,
           connections: int | None = None) -> Server:
    """Return the server for the app, listening but not yet serving.

    Give `sockets` (one, already listening: a worker's) or host and port. Raises OSError when
    it cannot listen (the port is taken, the host is not this machine's). The app's settings
    give the per-client limits and the trusted proxies (`settings`); a bare WSGI app has none.
    """
    import gevent.socket

    from . import network

    network.resolve = gevent.socket.getaddrinfo  # a slow name lookup waits in gevent's threads, not the server
    listener = sockets[0] if sockets else (host, port)
    if sockets:
        # gevent accepts until the socket has nothing more: a blocking one would block the process
        sockets[0].setblocking(False)
    connections = connections or connection_limit()
    made = Server(listener, app, spawn=Pool(connections), log=None, error_log=log)
    made.idle_timeout = env_seconds("COMPANION_IDLE_TIMEOUT_S", IDLE_TIMEOUT_S, 3600)
    made.head_timeout = env_seconds("COMPANION_HEAD_TIMEOUT_S", HEAD_TIMEOUT_S, 3600)
    made.waiting = {}  # handlers waiting for a whole request head, oldest first (make_room)
    made.closing = set()  # the connections make_room closed whose greenlets have not ended yet
    made.reserve = max(RESERVE_LEAST, connections // RESERVE_SHARE)
    most, rate, made.hops, made.max_body = settings(app)
    made.clients = Clients(most, ceiling=max(1, connections // CLIENT_SHARE))
    made.requests = Requests(*rate) if rate else None
    made.init_socket()  # binds now: a taken port is an error here, not once serving
    return made


def settings(app) -> tuple[int | None, tuple[int, int] | None, int, int]:
    """The app's connections per client (`--connection-limit`), requests per client
    (`--request-limit`), trusted proxies (`--proxy`) and largest body; none for a bare WSGI app."""
    config = getattr(app, "config", None)
    if config is None:  # a bare WSGI app (bench/hello.py)
        return None, None, 0, MAX_BODY
    return (client_cap(config, "CONNECTION_LIMIT"), client_cap(config, "REQUEST_LIMIT"), proxy_hops(config),
            config.get("MAX_CONTENT_LENGTH") or MAX_BODY)


def listening(made: Server) -> tuple[str, int]:
    """Return the (host, port) a server made by server() listens on: the real port when 0 was asked for."""
    return made.socket.getsockname()[:2]


def serve(app, **options) -> None:
    """Serve the app until the process is stopped."""
    server(app, **options).serve_forever()


def serve_until_signal(made) -> bool:
    """Serve until Ctrl-C (SIGINT) or SIGTERM (systemd's stop, `docker stop`) stops the one-process
    server as a clean end, not a KeyboardInterrupt traceback nor death by the signal; return True
    for Ctrl-C (serve says so), False for SIGTERM.

    gevent runs the handler in a greenlet of its own: stop() closes the socket, waits for the
    connections (open streams are ended after the server's stop_timeout, 1 s), and serve_forever()
    returns; the process then ends as after any command, its database closed.
    """
    caught = []

    def stop(signum):
        caught.append(signum)
        made.stop()

    # held while serving: gevent drops a watcher nothing holds
    watchers = [gevent.signal_handler(signum, stop, signum) for signum in (signal.SIGINT, signal.SIGTERM)]
    try:
        made.serve_forever()
    finally:
        for watcher in watchers:
            watcher.cancel()
    return caught[:1] == [signal.SIGINT]
