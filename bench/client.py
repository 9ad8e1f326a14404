"""A small HTTP/1.1 client over one keep-alive connection, blocking or asyncio.

The load test simulates hundreds of phones from one process: a thread each would cost the
server's CPU more than the server does, so each phone is a coroutine holding one connection
the way a browser tab holds one. Only what our server sends is handled: Content-Length or
chunked bodies, status and headers.
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


class AsyncConnection:
    """One keep-alive connection driven by asyncio; reconnects after the server closes it."""

    def __init__(self, host: str, port: int):
        self.host, self.port = host, port
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def _open(self) -> None:
        self.reader, self.writer = await asyncio.open_connection(self.host, self.port)

    async def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
            try:
                await self.writer.wait_closed()
            except OSError:
                pass
            self.writer = None

    async def request(self, method: str, path: str, headers: dict[str, str] | None = None, body: bytes = b"") -> Response:
        """Send one request and read its whole answer."""
        if self.writer is None:
            await self._open()
        started = time.perf_counter()
        self.writer.write(build_request(method, path, f"{self.host}:{self.port}", headers, body))
        await self.writer.drain()
        head = await self.reader.readuntil(b"\r\n\r\n")
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
