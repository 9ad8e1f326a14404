"""A small HTTP/1.1 client over one keep-alive connection, blocking or asyncio, and a reader of server-sent events.

The load test simulates hundreds of phones from one process: a thread each would cost the
server's CPU more than the server does, so each phone is a coroutine holding the connections
a browser tab holds (one for its requests, one for its event stream). Only what our server
sends is handled: Content-Length or chunked bodies, status and headers. A body is kept as it
came: a `Content-Encoding: gzip` answer (sent only to a request that accepts it) stays
compressed, so its length is the bytes the server sent; whoever asked for it decodes it.
"""

from __future__ import annotations

import asyncio
import socket
import time
from dataclasses import dataclass, field


@dataclass
class Response:
    """One answer: status, headers (lower-case names), body, and the seconds it took."""

    status: int
    headers: dict[str, str]
    body: bytes
    seconds: float = 0.0
    cookies: dict[str, str] = field(default_factory=dict)

    def text(self) -> str:
        return self.body.decode("utf-8", "replace")


def build_request(method: str, path: str, host: str, headers: dict[str, str] | None = None, body: bytes = b"") -> bytes:
    """Return the bytes of one request."""
    lines = [f"{method} {path} HTTP/1.1", f"Host: {host}", "Connection: keep-alive"]
    for name, value in (headers or {}).items():
        lines.append(f"{name}: {value}")
    if body or method in ("POST", "PUT"):
        lines.append(f"Content-Length: {len(body)}")
    return ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1") + body


def parse_head(head: bytes) -> tuple[int, dict[str, str], dict[str, str]]:
    """Parse a status line and headers; return (status, headers, cookies set)."""
    lines = head.decode("latin-1").split("\r\n")
    status = int(lines[0].split(" ", 2)[1])
    headers: dict[str, str] = {}
    cookies: dict[str, str] = {}
    for line in lines[1:]:
        if not line:
            continue
        name, _, value = line.partition(":")
        name, value = name.strip().lower(), value.strip()
        if name == "set-cookie":
            key, _, rest = value.partition("=")
            cookies[key] = rest.split(";", 1)[0]
        headers[name] = value
    return status, headers, cookies


def local(source: str | None) -> tuple[str, int] | None:
    """The local_addr to connect from: the source address and any free port, or None."""
    return (source, 0) if source else None


class AsyncConnection:
    """One keep-alive connection driven by asyncio; reconnects after the server closes it.

    `source`: the local address to connect from (bench/capacity.py spreads its phones over
    loopback addresses, 127.x.y.z, as phones come from addresses of their own); None: any.
    """

    def __init__(self, host: str, port: int, source: str | None = None):
        self.host, self.port, self.source = host, port, source
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def _open(self) -> None:
        self.reader, self.writer = await asyncio.open_connection(self.host, self.port, local_addr=local(self.source))

    async def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
            try:
                await self.writer.wait_closed()
            except OSError:
                pass
            self.writer = None

    def drop(self) -> None:
        """Close at once, without waiting (usable while the task using it is being cancelled)."""
        if self.writer is not None:
            self.writer.close()
            self.writer = None

    async def request(self, method: str, path: str, headers: dict[str, str] | None = None, body: bytes = b"") -> Response:
        """Send one request and read its whole answer.

        On a connection used before, a close by the server before any byte of the answer
        (its idle timeout ran out while the phone was silent) is answered as a browser does:
        the request goes again, once, on a new connection.
        """
        if self.writer is not None and self.reader.at_eof():
            await self.close()
        reused = self.writer is not None
        if not reused:
            await self._open()
        started = time.perf_counter()
        try:
            self.writer.write(build_request(method, path, f"{self.host}:{self.port}", headers, body))
            await self.writer.drain()
            head = await self.reader.readuntil(b"\r\n\r\n")
        except (ConnectionError, asyncio.IncompleteReadError) as exc:
            if not reused or (isinstance(exc, asyncio.IncompleteReadError) and exc.partial):
                raise
            await self.close()
            return await self.request(method, path, headers, body)
        status, got, cookies = parse_head(head[:-4])
        if status in (204, 304) or method == "HEAD":
            data = b""
        elif got.get("transfer-encoding", "").lower() == "chunked":
            parts = []
            while True:
                size = int((await self.reader.readuntil(b"\r\n")).split(b";")[0], 16)
                chunk = await self.reader.readexactly(size + 2)
                if size == 0:
                    break
                parts.append(chunk[:-2])
            data = b"".join(parts)
        else:
            data = await self.reader.readexactly(int(got.get("content-length", "0")))
        if got.get("connection", "").lower() == "close":
            await self.close()
        return Response(status, got, data, time.perf_counter() - started, cookies)


class Connection:
    """The blocking twin of AsyncConnection, for measuring one request at a time."""

    def __init__(self, host: str, port: int):
        self.host, self.port = host, port
        self.sock: socket.socket | None = None
        self.buffer = b""

    def close(self) -> None:
        if self.sock is not None:
            self.sock.close()
            self.sock = None
            self.buffer = b""

    def _read_until(self, marker: bytes) -> bytes:
        while marker not in self.buffer:
            data = self.sock.recv(65536)
            if not data:
                raise ConnectionError("the server closed the connection")
            self.buffer += data
        head, _, self.buffer = self.buffer.partition(marker)
        return head

    def _read_exactly(self, n: int) -> bytes:
        while len(self.buffer) < n:
            data = self.sock.recv(65536)
            if not data:
                raise ConnectionError("the server closed the connection")
            self.buffer += data
        out, self.buffer = self.buffer[:n], self.buffer[n:]
        return out

    def request(self, method: str, path: str, headers: dict[str, str] | None = None, body: bytes = b"") -> Response:
        """Send one request and read its whole answer."""
        if self.sock is None:
            self.sock = socket.create_connection((self.host, self.port), timeout=30)
            self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        started = time.perf_counter()
        self.sock.sendall(build_request(method, path, f"{self.host}:{self.port}", headers, body))
        status, got, cookies = parse_head(self._read_until(b"\r\n\r\n"))
        if status in (204, 304) or method == "HEAD":
            data = b""
        elif got.get("transfer-encoding", "").lower() == "chunked":
            parts = []
            while True:
                size = int(self._read_until(b"\r\n").split(b";")[0], 16)
                chunk = self._read_exactly(size + 2)
                if size == 0:
                    break
                parts.append(chunk[:-2])
            data = b"".join(parts)
        else:
            data = self._read_exactly(int(got.get("content-length", "0")))
        if got.get("connection", "").lower() == "close":
            self.close()
        return Response(status, got, data, time.perf_counter() - started, cookies)


@dataclass
class Event:
    """One server-sent event as the browser's EventSource hands it to the page."""

    id: str | None
    event: str
    data: str
    raw: bytes = b""  # the event's lines as they came on the stream (id:, event:, data:, the blank line ending it)


class EventStream:
    """One server-sent-event stream on a connection of its own, read as it arrives.

    The table page holds such a stream open beside the connection it posts taps on, so the
    benchmark's phones do too. AsyncConnection reads whole answers and cannot serve here: a
    stream's answer never ends. This reads the status line and headers, then the body as it
    comes (chunked, as gevent's pywsgi sends an answer of unknown length, or until the server
    closes), and splits it into events on blank lines the way the EventSource specification
    does: `id:`, `event:`, `data:` (lines joined by newlines) and `retry:` fields, comments
    (lines starting with a colon) counted and skipped.
    """

    def __init__(self, host: str, port: int, source: str | None = None):
        self.host, self.port, self.source = host, port, source  # source: as AsyncConnection's
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None
        self.chunked = False
        self.left: int | None = None  # bytes of a Content-Length body still to read
        self.ended = False
        self.pending = b""  # bytes received, not yet a whole line
        self.fields: dict[str, list[str]] = {}  # the event being read
        self.comments = 0  # comment lines read (the server's keep-alives)
        self.retry_ms: int | None = None  # the last `retry:` the server sent
        self.received = 0  # bytes of the stream's body received so far (its SSE text; not HTTP's chunk framing)
        self.block = b""  # the lines of the event being read, as they came

    async def open(self, path: str, headers: dict[str, str] | None = None) -> Response:
        """Send the GET and read the answer's head; the body too when it is not a stream.

        The Response's seconds are the time to the head, the time a browser waits before its
        EventSource is open.
        """
        self.reader, self.writer = await asyncio.open_connection(self.host, self.port, local_addr=local(self.source))
        started = time.perf_counter()
        self.writer.write(build_request("GET", path, f"{self.host}:{self.port}", headers))
        await self.writer.drain()
        head = await self.reader.readuntil(b"\r\n\r\n")
        status, got, cookies = parse_head(head[:-4])
        seconds = time.perf_counter() - started
        self.chunked = got.get("transfer-encoding", "").lower() == "chunked"
        self.left = int(got["content-length"]) if "content-length" in got else None
        if status in (204, 304):
            self.ended = True
        stream = status == 200 and got.get("content-type", "").split(";")[0].strip() == "text/event-stream"
        body = b""
        if not stream and not self.ended:  # an error page: read it whole (it names what went wrong)
            parts = []
            while (part := await self._read()) is not None:
                parts.append(part)
            body = b"".join(parts)
        return Response(status, got, body, seconds, cookies)

    async def _read(self) -> bytes | None:
        """Return the next bytes of the body, or None at its end."""
        data = await self._read_body()
        if data is not None:
            self.received += len(data)
        return data

    async def _read_body(self) -> bytes | None:
        if self.ended:
            return None
        if self.chunked:
            size = int((await self.reader.readuntil(b"\r\n")).split(b";")[0], 16)
            chunk = await self.reader.readexactly(size + 2)
            if size == 0:
                self.ended = True
                return None
            return chunk[:-2]
        if self.left is not None:
            if self.left == 0:
                self.ended = True
                return None
            data = await self.reader.read(min(self.left, 65536))
            if not data:
                raise asyncio.IncompleteReadError(b"", self.left)
            self.left -= len(data)
            return data
        data = await self.reader.read(65536)  # no length: the body ends when the server closes
        if not data:
            self.ended = True
            return None
        return data

    async def next(self) -> Event | None:
        """Return the next event with data, or None when the server ended the stream.

        A block without data (the opening `retry:`, a keep-alive comment) dispatches nothing,
        as in a browser.
        """
        while True:
            while b"\n" not in self.pending:
                data = await self._read()
                if data is None:
                    return None
                self.pending += data
            raw, _, self.pending = self.pending.partition(b"\n")
            self.block += raw + b"\n"
            line = raw.decode("utf-8", "replace").removesuffix("\r")
            if line == "":
                event, self.fields = self.fields, {}
                block, self.block = self.block, b""
                if "data" in event:
                    return Event((event.get("id") or [None])[-1], (event.get("event") or ["message"])[-1],
                                 "\n".join(event["data"]), block)
                continue
            if line.startswith(":"):
                self.comments += 1
                continue
            name, _, value = line.partition(":")
            value = value.removeprefix(" ")
            if name == "retry" and value.isdigit():
                self.retry_ms = int(value)
            elif name in ("id", "event", "data"):
                self.fields.setdefault(name, []).append(value)

    def close(self) -> None:
        """Drop the connection at once (usable while the task reading it is being cancelled)."""
        if self.writer is not None:
            self.writer.close()
            self.writer = None
