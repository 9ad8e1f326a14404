"""The clients of bench/attacks.py: another phone that is timed, and the attackers. Plain sockets.

Every client binds its own source address before it connects: inside the network namespace that
bench/attacks.py makes (`namespace_ready`), any address of 2001:db8::/32 is this machine's, and
so is all of 127.0.0.0/8. Every loop here stops by itself: a count, a deadline, or both.
"""

from __future__ import annotations

import asyncio
import collections
import http.client
import ipaddress
import json
import re
import shutil
import socket
import subprocess
import threading
import time
from pathlib import Path

#: the documentation prefix (RFC 3849), routed to lo inside the namespace
DOC_PREFIX = "2001:db8::/32"
#: the timed phone gives up on its page after this many seconds
VICTIM_TIMEOUT_S = 10
#: a status line in what a socket received
STATUS = re.compile(rb"HTTP/1\.[01] (\d{3}) ")


def namespace_ready() -> None:
    """Inside a new network namespace (`unshare -rn`): lo up, 2001:db8::/32 local, any of its addresses bindable."""
    ip = shutil.which("ip") or "/usr/sbin/ip"
    subprocess.run([ip, "link", "set", "lo", "up"], check=True)
    subprocess.run([ip, "-6", "route", "add", "local", DOC_PREFIX, "dev", "lo"], check=True)
    Path("/proc/sys/net/ipv6/ip_nonlocal_bind").write_text("1\n")


def sixty_fours(network: str, count: int) -> list[str]:
    """One address in each of the first `count` /64 blocks of `network` (a /48: 2001:db8:1::/48)."""
    base = ipaddress.ip_network(network)
    return [str(subnet[1]) for _, subnet in zip(range(count), base.subnets(new_prefix=64))]


def host_header(host: str, port: int) -> str:
    return f"[{host}]:{port}" if ":" in host else f"{host}:{port}"


def fetch(host: str, port: int, method: str, path: str, source: str, headers: dict | None = None,
          body: bytes | None = None, timeout: float = VICTIM_TIMEOUT_S) -> tuple[int, dict, bytes]:
    """One request on a new connection from `source`; (status, headers in lower case, body)."""
    conn = http.client.HTTPConnection(host, port, timeout=timeout, source_address=(source, 0))
    try:
        conn.request(method, path, body=body, headers=headers or {})
        answer = conn.getresponse()
        return answer.status, {k.lower(): v for k, v in answer.getheaders()}, answer.read()
    finally:
        conn.close()


def new_table(host: str, port: int, source: str) -> dict:
    """A Gutenberg table made from `source`, joined as a phone joins it: its id, token and cookie."""
    doc = json.dumps({"game": "gutenberg", "players": ["Anna", "Tom"]}).encode()
    status, _, body = fetch(host, port, "POST", "/api/v1/tables", source, {"Content-Type": "application/json"}, doc)
    if status != 201:
        raise RuntimeError(f"creating a table from {source} answered {status}: {body[:200]!r}")
    t = json.loads(body)
    join = "/join/" + t["join_url"].split("/join/", 1)[1]
    status, headers, _ = fetch(host, port, "GET", join, source)
    if status != 303:
        raise RuntimeError(f"joining from {source} answered {status}")
    return {**t, "cookie": headers["set-cookie"].split(";", 1)[0]}


class Victim(threading.Thread):
    """Another phone, from another network: every `every` s it opens a new connection and GETs its
    table page with its cookie; each try is (started, seconds, status), status 0 for no answer."""

    def __init__(self, host: str, port: int, source: str, table: dict, every: float = 0.25, most_s: float = 600):
        super().__init__(daemon=True)
        self.where = (host, port, source)
        self.path, self.cookie = f"/t/{table['table']}", table["cookie"]
        self.every, self.most_s = every, most_s
        self.tries: list[tuple[float, float, int, bool]] = []  # (started, seconds, status, timed out)
        self.done = threading.Event()

    def run(self) -> None:
        host, port, source = self.where
        ends = time.monotonic() + self.most_s
        while not self.done.is_set() and time.monotonic() < ends:
            began = time.monotonic()
            status, timed_out = 0, False
            try:
                status = fetch(host, port, "GET", self.path, source, {"Cookie": self.cookie})[0]
            except TimeoutError:
                timed_out = True
            except (OSError, http.client.HTTPException):
                pass
            self.tries.append((began, time.monotonic() - began, status, timed_out))
            self.done.wait(max(0.0, began + self.every - time.monotonic()))

    def between(self, since: float, until: float) -> dict:
        """The tries that started in [since, until): count, p50/p95/max ms, over 1 s, timed out, statuses."""
        tries = [t for t in self.tries if since <= t[0] < until]
        answered = sorted(t[1] * 1000 for t in tries if t[2] == 200)
        statuses: dict[str, int] = {}
        for t in tries:
            key = "timeout" if t[3] else str(t[2])
            statuses[key] = statuses.get(key, 0) + 1
        return {"count": len(tries), "ok": len(answered), "p50_ms": _pct(answered, 50), "p95_ms": _pct(answered, 95),
                "max_ms": round(max((t[1] for t in tries), default=0) * 1000, 1),
                "over_1s": sum(t[1] > 1 or t[2] != 200 for t in tries), "timed_out": sum(t[3] for t in tries),
                "statuses": statuses}


def _pct(values: list[float], p: float) -> float | None:
    if not values:
        return None
    return round(values[min(len(values) - 1, max(0, round(p / 100 * len(values) + 0.5) - 1))], 1)


def seconds_summary(values: list[float]) -> dict:
    ordered = sorted(values)
    return {"count": len(ordered), "min_s": round(ordered[0], 1) if ordered else None,
            "p50_s": round(ordered[len(ordered) // 2], 1) if ordered else None, "max_s": round(ordered[-1], 1) if ordered else None}


# --- streams ---------------------------------------------------------------------------------------


async def hold_streams(host: str, port: int, sources: list[str], table: dict, count: int, seconds: float,
                       window: int = 256, open_wait_s: float = 1.0, pace: float = 25) -> dict:
    """For `seconds`, open event streams of `table`, round-robin over `sources`, as many as it can
    up to `count` sockets at once, and hold them; then close them all.

    At most `window` openings wait for their answer's head at once. One with no head after
    `open_wait_s` is stuck (the kernel or the proxy queues it): it stays open, frees its place in
    the window, and while any is stuck the attacker opens at most `pace` a second, closing its
    oldest stuck one when it holds `count` sockets. So the attack goes on pressing at a bounded
    rate: through a proxy, a new request takes any idle connection the proxy keeps to the server,
    which another phone's page would have used."""
    request = (f"GET /t/{table['table']}/events?v=0 HTTP/1.1\r\nHost: {host_header(host, port)}\r\n"
               f"Cookie: {table['cookie']}\r\nAccept: text/event-stream\r\n\r\n").encode()
    loop = asyncio.get_running_loop()
    window_free = asyncio.Semaphore(window)
    f = {"attempted": 0, "connected": 0, "connect_failed": 0, "statuses": {}, "held_most": 0, "ended_by_server": 0,
         "closed_without_answer": 0, "stuck_given_up": 0}
    held, sockets, stuck = [0], [0], collections.OrderedDict()  # stuck: task -> None, oldest first

    async def one(source: str) -> None:
        task, released, got_head, writer = asyncio.current_task(), False, False, None

        def release() -> None:
            nonlocal released
            if not released:
                released = True
                window_free.release()

        def lapse() -> None:
            stuck[task] = None
            release()

        timer = loop.call_later(open_wait_s, lapse)
        sockets[0] += 1
        try:
            reader, writer = await asyncio.open_connection(host, port, local_addr=(source, 0))
            f["connected"] += 1
            writer.write(request)
            try:
                head = await reader.readuntil(b"\r\n\r\n")
            finally:
                got_head = True  # or closed without one: no longer stuck
                timer.cancel()
                stuck.pop(task, None)
                release()
            status = head.split(b" ", 2)[1].decode()
            f["statuses"][status] = f["statuses"].get(status, 0) + 1
            if status != "200":
                return
            held[0] += 1
            f["held_most"] = max(f["held_most"], held[0])
            try:
                while await reader.read(65536):
                    pass
                f["ended_by_server"] += 1
            finally:
                held[0] -= 1
        except (asyncio.IncompleteReadError, asyncio.LimitOverrunError, ConnectionError) as exc:
            if isinstance(exc, ConnectionRefusedError):
                f["connect_failed"] += 1
            elif got_head:
                f["ended_by_server"] += 1
            else:
                f["closed_without_answer"] += 1
        except OSError:
            f["connect_failed"] += 1
        finally:
            timer.cancel()
            stuck.pop(task, None)
            release()
            sockets[0] -= 1
            if writer is not None:
                writer.transport.abort()

    tasks = []
    ends = time.monotonic() + seconds
    for i in range(count + int(pace * seconds) + window):  # a bound: the deadline ends it first
        if time.monotonic() >= ends:
            break
        try:
            await asyncio.wait_for(window_free.acquire(), timeout=max(0.01, ends - time.monotonic()))
        except asyncio.TimeoutError:
            break
        if stuck:
            await asyncio.sleep(1 / pace)
        if sockets[0] >= count:
            if not stuck:  # every socket it may hold is answered: it holds them
                window_free.release()
                await asyncio.sleep(0.1)
                continue
            oldest = next(iter(stuck))
            stuck.pop(oldest)
            oldest.cancel()
            f["stuck_given_up"] += 1
        f["attempted"] += 1
        tasks.append(asyncio.create_task(one(sources[i % len(sources)])))
    await asyncio.sleep(max(0.0, ends - time.monotonic()))
    f["held_at_end"], f["stuck_at_end"] = held[0], len(stuck)
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    return f


# --- slow bodies -----------------------------------------------------------------------------------


async def slow_bodies(host: str, port: int, sources: list[str], per_source: int, table: dict, length: int,
                      every: float, seconds: float, most_connects: int = 50) -> dict:
    """`per_source` sockets from each source POST a tap's head whole with Content-Length `length`,
    then one byte of the body every `every` s; a socket that is answered or closed connects again
    (at most `most_connects` times), as a flood would, until `seconds` have passed; then all are
    closed. Returns what each connection got back: an answer (its status), a close, a reset, or
    nothing, and after how many seconds."""
    head = (f"POST /api/v1/tables/{table['table']}/events HTTP/1.1\r\nHost: {host_header(host, port)}\r\n"
            f"X-Table-Token: {table['token']}\r\nContent-Type: application/json\r\nContent-Length: {length}\r\n\r\n"
            ).encode()
    outcomes: list[tuple[str, float]] = []
    ends = time.monotonic() + seconds

    async def one(source: str) -> str:
        try:
            reader, writer = await asyncio.open_connection(host, port, local_addr=(source, 0))
        except OSError:
            outcomes.append(("connect failed", 0.0))
            await asyncio.sleep(0.1)
            return "connect failed"
        began = time.monotonic()
        outcome = "nothing"
        try:
            writer.write(head)
            sent = 0
            while time.monotonic() < ends and sent < length:
                try:
                    data = await asyncio.wait_for(reader.read(4096), timeout=min(every, max(0.01, ends - time.monotonic())))
                except asyncio.TimeoutError:
                    writer.write(b" ")
                    sent += 1
                    continue
                if not data:
                    outcome = "closed"
                    break
                found = STATUS.match(data)
                outcome = f"answered {found.group(1).decode()}" if found else "answered"
                break
        except ConnectionError:
            outcome = "reset"
        finally:
            outcomes.append((outcome, time.monotonic() - began))
            writer.transport.abort()
        return outcome

    async def slot(source: str) -> None:
        for _ in range(most_connects):
            if time.monotonic() >= ends or await one(source) == "nothing":
                return

    slots = [asyncio.create_task(slot(source)) for _ in range(per_source) for source in sources]
    await asyncio.gather(*slots, return_exceptions=True)
    kinds: dict[str, dict] = {}
    for kind in sorted({o for o, _ in outcomes}):
        kinds[kind] = seconds_summary([s for o, s in outcomes if o == kind])
    return {"sockets": len(slots), "connections": len(outcomes), "outcomes": kinds}


# --- pipelined requests ----------------------------------------------------------------------------


def pipelined(host: str, port: int, source: str, connections: int, per_connection: int, path: str, cookie: str,
              seconds: float) -> dict:
    """`connections` connections from one source each write `per_connection` GETs of `path` in one
    sendall, and never read for `seconds`; then what each holds unread is read (without waiting) and
    all are closed. Returns the requests written and, over the connections, the answers received."""
    request = f"GET {path} HTTP/1.1\r\nHost: {host_header(host, port)}\r\nCookie: {cookie}\r\n\r\n".encode()
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    socks, written = [], 0
    for _ in range(connections):
        sock = socket.socket(family, socket.SOCK_STREAM)
        sock.settimeout(5)
        socks.append(sock)
        try:
            sock.bind((source, 0))
            sock.connect((host, port))
            sock.sendall(request * per_connection)
            written += per_connection
        except OSError:
            pass
    time.sleep(seconds)
    answers, ends = [], {"closed": 0, "reset": 0, "open": 0}
    for sock in socks:
        got, end = b"", "open"
        sock.setblocking(False)
        for _ in range(1000):  # at most 64 MiB a connection
            try:
                data = sock.recv(65536)
            except BlockingIOError:
                break
            except OSError:
                end = "reset"
                break
            if not data:
                end = "closed"
                break
            got += data
        ends[end] += 1
        answers.append(len(STATUS.findall(got)))
        sock.close()
    statuses: dict[str, int] = {}
    for sock_answers in answers:
        statuses[str(sock_answers)] = statuses.get(str(sock_answers), 0) + 1
    return {"connections": connections, "requests_written": written, "answers_received": sum(answers),
            "answers_per_connection": dict(sorted(statuses.items(), key=lambda kv: int(kv[0]))), "ends": ends}


# --- creation --------------------------------------------------------------------------------------


def create_burst(host: str, port: int, sources: list[str], per_source: int, seconds: float) -> dict:
    """Create tables from each source in turn, `per_source` tries each, for at most `seconds`; the statuses."""
    doc = json.dumps({"game": "gutenberg", "players": ["Anna", "Tom"]}).encode()
    statuses: dict[str, int] = {}
    began = time.monotonic()
    for i in range(per_source * len(sources)):
        if time.monotonic() - began > seconds:
            break
        try:
            status = str(fetch(host, port, "POST", "/api/v1/tables", sources[i % len(sources)],
                               {"Content-Type": "application/json"}, doc)[0])
        except (OSError, http.client.HTTPException) as exc:
            status = f"no answer ({type(exc).__name__})"
        statuses[status] = statuses.get(status, 0) + 1
    return {"tries": sum(statuses.values()), "created": statuses.get("201", 0), "statuses": statuses,
            "seconds": round(time.monotonic() - began, 1)}
