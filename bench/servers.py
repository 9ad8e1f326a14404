"""Which Python server holds many open server-sent-event streams best.

    /tmp/servers-venv/bin/python bench/servers.py [--streams 800 5000] [--candidates NAME ...]

Needs a venv of its own, not the project's:

    python3 -m venv /tmp/servers-venv
    /tmp/servers-venv/bin/pip install waitress uvicorn httptools a2wsgi gevent hypercorn

A candidate whose package is missing prints "skipped: not installed". This script does not
import the companion package: every candidate serves the same small app written here.

- GET /hello answers 5 bytes;
- GET /events answers 200 text/event-stream, sends ": open" and holds the stream; a comment
  ": keep-alive" every 15 s;
- POST /publish writes "data: <n> <2 KB of filler>" to every open stream and answers 200 with n.

Candidates, each served by its own process (this script with --server NAME):

- waitress: a thread per stream (threads = streams + 16), the WSGI generator waits on a
  threading.Condition;
- uvicorn-h11, uvicorn-httptools: an ASGI app, SSE and /hello native;
- uvicorn-a2wsgi: /hello is a WSGI app behind a2wsgi.WSGIMiddleware (the way a Flask app would
  be hosted), /events and /publish native ASGI;
- gevent: gevent.pywsgi.WSGIServer with a Pool, no monkey patching, a greenlet per stream
  waiting on a gevent.event.Event;
- gevent-nodelay: the same with TCP_NODELAY on each connection. pywsgi sends the headers and
  the body in two writes, so without it a keep-alive client's delayed ACK holds the body ~40 ms;
- hypercorn: the ASGI app.

For each candidate and stream count it prints one line:

- start_s: from spawning the server to its first 200 on /hello;
- open_s, held: time to open the streams, and how many were answered with headers;
- push_p50/p95/max_ms: from a publish's answer to each stream holding that event (20 publishes,
  0.5 s apart, over all streams). A stream can get its event before the publisher gets its
  answer, so a figure can be below zero; missed counts events a stream never got;
- hello_p50/p99_ms: 200 GET /hello one after another on one keep-alive connection, streams held;
- cpu_ms_per_publish: the server's CPU over the publishes, divided by their number (the cost of
  writing one event to every stream, whatever the client's share of the cores);
- idle_cpu_pct: the server's CPU over 5 s with the streams held and nothing published;
- rss_mb: the server's VmRSS after the publishes, streams held;
- client_cpu_pct: this process's CPU during the publishes; over 90 (of one core) the client is
  saturated and the push figures measure the client as much as the server.

Then, per candidate, the server under an open-files limit of 1024 (connection cap 960 where
the server has one) takes 1100 idle TCP connections: alive, its CPU over 2 s, whether /hello
answers while they are held and after they close, and what it logged.

Figures only; nothing is asserted.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import resource
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

CANDIDATES = ["waitress", "uvicorn-h11", "uvicorn-httptools", "uvicorn-a2wsgi", "gevent", "gevent-nodelay", "hypercorn"]
NEEDS = {
    "waitress": ["waitress"],
    "uvicorn-h11": ["uvicorn", "h11"],
    "uvicorn-httptools": ["uvicorn", "httptools"],
    "uvicorn-a2wsgi": ["uvicorn", "httptools", "a2wsgi"],
    "gevent": ["gevent"],
    "gevent-nodelay": ["gevent"],
    "hypercorn": ["hypercorn"],
}
FILLER = ("Table Companion keeps the score while the players keep the table. " * 32)[:2048]
KEEPALIVE_S = 15
BACKLOG = 2048
OPEN = b": open\n\n"
KEEP = b": keep-alive\n\n"
FD_LIMIT = 1024
FD_IDLE = 1100


def event(n: int) -> bytes:
    return b"data: %d %s\n\n" % (n, FILLER.encode())


# --- the servers (run in the child process) -------------------------------------------------


def wsgi_hello(environ, start_response):
    start_response("200 OK", [("Content-Type", "text/plain"), ("Content-Length", "5")])
    return [b"hello"]


def threaded_wsgi_app():
    """The WSGI app for waitress: a thread per stream waits on one Condition."""
    import threading

    cond = threading.Condition()
    hub = {"n": 0, "payload": b""}

    def stream():
        seen = hub["n"]
        yield OPEN
        while True:
            with cond:
                cond.wait_for(lambda: hub["n"] != seen, timeout=KEEPALIVE_S)
                n, payload = hub["n"], hub["payload"]
            if n == seen:
                yield KEEP
            else:
                seen = n
                yield payload

    def app(environ, start_response):
        path = environ.get("PATH_INFO", "")
        if path == "/events":
            start_response("200 OK", [("Content-Type", "text/event-stream"), ("Cache-Control", "no-cache")])
            return stream()
        if path == "/publish" and environ["REQUEST_METHOD"] == "POST":
            with cond:
                hub["n"] += 1
                hub["payload"] = event(hub["n"])
                body = str(hub["n"]).encode()
                cond.notify_all()
            start_response("200 OK", [("Content-Type", "text/plain"), ("Content-Length", str(len(body)))])
            return [body]
        return wsgi_hello(environ, start_response)

    return app


def gevent_wsgi_app():
    """The WSGI app for gevent: a greenlet per stream waits on the current Event."""
    from gevent.event import Event

    hub = {"n": 0, "next": (Event(), [])}  # the event the next publish sets, and its payload

    def stream():
        yield OPEN
        while True:
            ready, payload = hub["next"]
            if ready.wait(timeout=KEEPALIVE_S):
                yield payload[0]
            else:
                yield KEEP

    def app(environ, start_response):
        path = environ.get("PATH_INFO", "")
        if path == "/events":
            start_response("200 OK", [("Content-Type", "text/event-stream"), ("Cache-Control", "no-cache")])
            return stream()
        if path == "/publish" and environ["REQUEST_METHOD"] == "POST":
            hub["n"] += 1
            (ready, payload), hub["next"] = hub["next"], (Event(), [])
            payload.append(event(hub["n"]))
            ready.set()
            body = str(hub["n"]).encode()
            start_response("200 OK", [("Content-Type", "text/plain"), ("Content-Length", str(len(body)))])
            return [body]
        return wsgi_hello(environ, start_response)

    return app


def asgi_app(hello=None):
    """The ASGI app: a queue per stream, one task putting the keep-alive in every queue.

    hello, if given, is an ASGI app answering everything but /events and /publish."""
    queues: set[asyncio.Queue] = set()
    state = {"n": 0, "ticker": None}

    async def tick():
        while True:
            await asyncio.sleep(KEEPALIVE_S)
            for q in queues:
                q.put_nowait(KEEP)

    async def start(send, status, kind, body=None, more=False):
        headers = [(b"content-type", kind)]
        if body is not None and not more:
            headers.append((b"content-length", str(len(body)).encode()))
        await send({"type": "http.response.start", "status": status, "headers": headers})
        if body is not None:
            await send({"type": "http.response.body", "body": body, "more_body": more})

    async def events(receive, send):
        if state["ticker"] is None:
            state["ticker"] = asyncio.get_running_loop().create_task(tick())
        q: asyncio.Queue = asyncio.Queue()

        async def watch():
            while True:
                message = await receive()
                if message["type"] == "http.disconnect":
                    q.put_nowait(None)
                    return

        watcher = asyncio.get_running_loop().create_task(watch())
        queues.add(q)
        try:
            await start(send, 200, b"text/event-stream", OPEN, more=True)
            while True:
                payload = await q.get()
                if payload is None:
                    return
                await send({"type": "http.response.body", "body": payload, "more_body": True})
        finally:
            queues.discard(q)
            watcher.cancel()

    async def app(scope, receive, send):
        if scope["type"] == "lifespan":
            while True:
                message = await receive()
                if message["type"] == "lifespan.startup":
                    await send({"type": "lifespan.startup.complete"})
                elif message["type"] == "lifespan.shutdown":
                    await send({"type": "lifespan.shutdown.complete"})
                    return
        if scope["type"] != "http":
            return
        path = scope["path"]
        if path == "/events":
            return await events(receive, send)
        if path == "/publish" and scope["method"] == "POST":
            state["n"] += 1
            payload = event(state["n"])
            for q in queues:
                q.put_nowait(payload)
            return await start(send, 200, b"text/plain", str(state["n"]).encode())
        if hello is not None:
            return await hello(scope, receive, send)
        return await start(send, 200, b"text/plain", b"hello")

    return app


def serve(name: str, port: int, streams: int, cap: int) -> None:
    """Run one candidate on 127.0.0.1:port until killed."""
    if name == "waitress":
        import waitress

        waitress.serve(threaded_wsgi_app(), host="127.0.0.1", port=port, threads=streams + 16,
                       connection_limit=cap, backlog=BACKLOG, asyncore_use_poll=True, _quiet=True)
    elif name.startswith("uvicorn-"):
        import uvicorn

        if name == "uvicorn-a2wsgi":
            from a2wsgi import WSGIMiddleware

            app, http = asgi_app(hello=WSGIMiddleware(wsgi_hello)), "httptools"
        else:
            app, http = asgi_app(), name.split("-", 1)[1]
        config = uvicorn.Config(app, host="127.0.0.1", port=port, http=http, loop="asyncio", lifespan="off",
                                access_log=False, log_level="warning", backlog=BACKLOG)
        uvicorn.Server(config).run()
    elif name.startswith("gevent"):
        from gevent.pool import Pool
        from gevent.pywsgi import WSGIHandler, WSGIServer

        class NoDelay(WSGIHandler):
            def handle(self):
                self.socket.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
                return super().handle()

        handler = NoDelay if name == "gevent-nodelay" else WSGIHandler
        WSGIServer(("127.0.0.1", port), gevent_wsgi_app(), spawn=Pool(cap), log=None, backlog=BACKLOG,
                   handler_class=handler).serve_forever()
    elif name == "hypercorn":
        from hypercorn.asyncio import serve as hypercorn_serve
        from hypercorn.config import Config

        config = Config()
        config.bind = [f"127.0.0.1:{port}"]
        config.backlog = BACKLOG
        config.accesslog = None
        config.errorlog = "-"
        asyncio.run(hypercorn_serve(asgi_app(), config))
    else:
        raise SystemExit(f"unknown server {name}")


# --- the benchmark (this process) -----------------------------------------------------------


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def installed(name: str) -> bool:
    from importlib.util import find_spec

    return all(find_spec(module) is not None for module in NEEDS[name])


def cpu_s(pid: int) -> float:
    """User + system CPU seconds of a process, all its threads (Linux /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def hello_once(port: int, timeout: float) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=timeout) as sock:
            sock.settimeout(timeout)
            sock.sendall(b"GET /hello HTTP/1.1\r\nHost: bench\r\nConnection: close\r\n\r\n")
            data = b""
            deadline = time.monotonic() + timeout
            while b"hello" not in data and time.monotonic() < deadline:
                chunk = sock.recv(4096)
                if not chunk:
                    break
                data += chunk
            return data.startswith(b"HTTP/1.1 200") and b"hello" in data
    except OSError:
        return False


class Server:
    """One candidate's process, its stderr kept in a file (a pipe could fill and block it)."""

    def __init__(self, name: str, streams: int, cap: int, fd_limit: int | None = None):
        self.name, self.port = name, free_port()
        self.log = tempfile.TemporaryFile()
        preexec = None
        if fd_limit is not None:
            def preexec():
                resource.setrlimit(resource.RLIMIT_NOFILE, (fd_limit, fd_limit))
        self.started = time.perf_counter()
        self.process = subprocess.Popen(
            [sys.executable, __file__, "--server", name, "--port", str(self.port), "--streams", str(streams),
             "--cap", str(cap)], stdout=self.log, stderr=self.log, start_new_session=True, preexec_fn=preexec)
        self.pid = self.process.pid

    def wait_ready(self, timeout: float = 60) -> float:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"exited {self.process.returncode}: {self.logged()[-500:]}")
            if hello_once(self.port, 1):
                return time.perf_counter() - self.started
            time.sleep(0.02)
        raise RuntimeError("no 200 on /hello within 60 s")

    def alive(self) -> bool:
        return self.process.poll() is None

    def stop(self) -> None:
        if self.process.poll() is None:
            try:
                os.killpg(self.pid, signal.SIGTERM)
                self.process.wait(3)
            except (subprocess.TimeoutExpired, ProcessLookupError):
                try:
                    os.killpg(self.pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
                self.process.wait(5)

    def logged(self) -> str:
        self.log.seek(0)
        return self.log.read().decode(errors="replace")


class Stream(asyncio.Protocol):
    """One open /events stream: when its headers came, and when each event n arrived."""

    def __init__(self, answered: asyncio.Future):
        self.answered = answered
        self.buf = bytearray()
        self.headers = False
        self.got: dict[int, float] = {}
        self.transport = None

    def connection_made(self, transport):
        self.transport = transport
        transport.write(b"GET /events HTTP/1.1\r\nHost: bench\r\nAccept: text/event-stream\r\n\r\n")

    def data_received(self, data):
        now = time.perf_counter()
        self.buf += data
        if not self.headers:
            end = self.buf.find(b"\r\n\r\n")
            if end < 0:
                return
            head = bytes(self.buf[:end]).lower()
            self.headers = head.startswith(b"http/1.1 200") and b"text/event-stream" in head
            del self.buf[:end + 4]
            if not self.answered.done():
                self.answered.set_result(self.headers)
        # Chunked framing ("\r\n800\r\n") never holds "data: " or "\n\n", so events are found as is.
        while True:
            start = self.buf.find(b"data: ")
            if start < 0:
                if len(self.buf) > 64:
                    del self.buf[:-64]
                return
            end = self.buf.find(b"\n\n", start)
            if end < 0:
                if start:
                    del self.buf[:start]
                return
            number = self.buf[start + 6:self.buf.find(b" ", start + 6)]
            self.got[int(number)] = now
            del self.buf[:end + 2]

    def connection_lost(self, exc):
        if not self.answered.done():
            self.answered.set_result(False)


async def request(reader, writer, head: bytes, timeout: float = 10) -> bytes:
    """One request on a keep-alive connection; its body (Content-Length answers only)."""
    writer.write(head)
    head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), timeout)
    length = 0
    for line in head.split(b"\r\n"):
        if line.lower().startswith(b"content-length:"):
            length = int(line.split(b":")[1])
    return await asyncio.wait_for(reader.readexactly(length), timeout) if length else b""


def percentile(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    values = sorted(values)
    return values[min(len(values) - 1, int(round(p / 100 * (len(values) - 1))))]


async def measure(server: Server, streams: int, publishes: int) -> dict:
    loop = asyncio.get_running_loop()
    figures: dict = {}
    opened: list[Stream] = []
    gate = asyncio.Semaphore(200)

    async def open_one():
        answered = loop.create_future()
        async with gate:
            try:
                _, stream = await asyncio.wait_for(
                    loop.create_connection(lambda: Stream(answered), "127.0.0.1", server.port), 20)
            except (OSError, asyncio.TimeoutError):
                return
            opened.append(stream)
            try:
                await asyncio.wait_for(asyncio.shield(answered), 20)
            except asyncio.TimeoutError:
                pass

    start = time.perf_counter()
    try:
        await asyncio.wait_for(asyncio.gather(*(open_one() for _ in range(streams))), 90)
    except asyncio.TimeoutError:
        pass
    figures["open_s"] = time.perf_counter() - start
    held = [s for s in opened if s.headers]
    figures["held"] = len(held)

    await asyncio.sleep(1)
    before = cpu_s(server.pid)
    await asyncio.sleep(5)
    figures["idle_cpu_pct"] = (cpu_s(server.pid) - before) / 5 * 100

    times = []
    try:
        reader, writer = await asyncio.wait_for(asyncio.open_connection("127.0.0.1", server.port), 10)
        for _ in range(200):
            t = time.perf_counter()
            await request(reader, writer, b"GET /hello HTTP/1.1\r\nHost: bench\r\n\r\n")
            times.append((time.perf_counter() - t) * 1000)
        writer.close()
    except (OSError, asyncio.TimeoutError, asyncio.IncompleteReadError) as error:
        figures["hello_error"] = type(error).__name__
    figures["hello_p50_ms"], figures["hello_p99_ms"] = percentile(times, 50), percentile(times, 99)

    answers: dict[int, float] = {}
    cpu_before, wall_before, server_before = time.process_time(), time.perf_counter(), cpu_s(server.pid)
    try:
        reader, writer = await asyncio.wait_for(asyncio.open_connection("127.0.0.1", server.port), 10)
        for i in range(publishes):
            body = await request(reader, writer,
                                 b"POST /publish HTTP/1.1\r\nHost: bench\r\nContent-Length: 0\r\n\r\n", 30)
            answers[int(body)] = time.perf_counter()
            if i < publishes - 1:
                await asyncio.sleep(0.5)
        writer.close()
    except (OSError, ValueError, asyncio.TimeoutError, asyncio.IncompleteReadError) as error:
        figures["publish_error"] = type(error).__name__
    last = max(answers, default=None)
    deadline = time.monotonic() + 20
    while last is not None and time.monotonic() < deadline and any(last not in s.got for s in held):
        await asyncio.sleep(0.05)
    wall = time.perf_counter() - wall_before
    figures["client_cpu_pct"] = (time.process_time() - cpu_before) / wall * 100
    figures["server_cpu_ms_per_publish"] = (cpu_s(server.pid) - server_before) * 1000 / max(1, len(answers))
    figures["rss_mb"] = rss_mb(server.pid)

    latencies, missed = [], 0
    for s in held:
        for n, answered in answers.items():
            if n in s.got:
                latencies.append((s.got[n] - answered) * 1000)
            else:
                missed += 1
    figures["push_p50_ms"], figures["push_p95_ms"] = percentile(latencies, 50), percentile(latencies, 95)
    figures["push_max_ms"] = max(latencies, default=float("nan"))
    figures["missed"] = missed
    figures["publishes"] = len(answers)
    for s in opened:
        if s.transport is not None:
            s.transport.close()
    await asyncio.sleep(0.2)
    return figures


def run_streams(name: str, streams: int, publishes: int) -> str:
    server = Server(name, streams, cap=streams + 64)
    try:
        start_s = server.wait_ready()
        f = asyncio.run(measure(server, streams, publishes))
        alive = server.alive()
    except RuntimeError as error:
        return f"{name:18} streams={streams:5} failed: {error}"
    finally:
        server.stop()
    saturated = " client saturated" if f["client_cpu_pct"] > 90 else ""
    errors = "".join(f" {k}={f[k]}" for k in ("hello_error", "publish_error") if k in f)
    return (f"{name:18} streams={streams:5} start_s={start_s:5.2f} open_s={f['open_s']:5.2f} held={f['held']:5} "
            f"push_p50_ms={f['push_p50_ms']:7.1f} push_p95_ms={f['push_p95_ms']:7.1f} push_max_ms={f['push_max_ms']:7.1f} "
            f"missed={f['missed']} hello_p50_ms={f['hello_p50_ms']:5.2f} hello_p99_ms={f['hello_p99_ms']:5.2f} "
            f"cpu_ms_per_publish={f['server_cpu_ms_per_publish']:6.1f} idle_cpu_pct={f['idle_cpu_pct']:5.1f} rss_mb={f['rss_mb']:6.1f} client_cpu_pct={f['client_cpu_pct']:5.1f}"
            f"{saturated} alive={alive}{errors}")


def run_fd_limit(name: str) -> str:
    """The server under a 1024 open-files limit takes 1100 idle connections."""
    cap = FD_LIMIT - 64
    server = Server(name, streams=cap, cap=cap, fd_limit=FD_LIMIT)
    idle: list[socket.socket] = []
    try:
        server.wait_ready()
        refused = 0
        for _ in range(FD_IDLE):
            try:
                idle.append(socket.create_connection(("127.0.0.1", server.port), timeout=5))
            except OSError:
                refused += 1
        time.sleep(1)
        before = cpu_s(server.pid) if server.alive() else 0.0
        time.sleep(2)
        cpu = (cpu_s(server.pid) - before) / 2 * 100 if server.alive() else float("nan")
        alive_held = server.alive()
        hello_held = hello_once(server.port, 3)
        for sock in idle:
            sock.close()
        idle.clear()
        time.sleep(1)
        hello_after = hello_once(server.port, 5)
        alive = server.alive()
    except RuntimeError as error:
        return f"{name:18} fd_limit={FD_LIMIT} failed: {error}"
    finally:
        for sock in idle:
            sock.close()
        server.stop()
    log = server.logged()
    return (f"{name:18} fd_limit={FD_LIMIT} idle={FD_IDLE} refused={refused} alive_held={alive_held} "
            f"cpu_pct={cpu:5.1f} hello_while_held={hello_held} hello_after={hello_after} alive={alive} "
            f"too_many_open_files={log.count('Too many open files')} tracebacks={log.count('Traceback')} "
            f"log_lines={len(log.splitlines())}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--streams", type=int, nargs="+", default=[800, 5000])
    parser.add_argument("--candidates", nargs="+", default=CANDIDATES, choices=CANDIDATES)
    parser.add_argument("--publishes", type=int, default=20)
    parser.add_argument("--no-fd-check", action="store_true")
    parser.add_argument("--server", help="serve this candidate (the child process)")
    parser.add_argument("--port", type=int)
    parser.add_argument("--cap", type=int)
    args = parser.parse_args()
    if args.server:
        serve(args.server, args.port, args.streams[0], args.cap)
        return 0
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    want = max(args.streams) + FD_IDLE + 256
    if soft < want:
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, want), hard))
    print(f"python {sys.version.split()[0]} loadavg {Path('/proc/loadavg').read_text().strip()}", flush=True)
    for name in args.candidates:
        if not installed(name):
            print(f"{name:18} skipped: not installed", flush=True)
            continue
        for streams in args.streams:
            print(run_streams(name, streams, args.publishes), flush=True)
        if not args.no_fd_check:
            print(run_fd_limit(name), flush=True)
    print(f"loadavg {Path('/proc/loadavg').read_text().strip()}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
