"""Who holds the server: each connection counted by its client, each client's turn, and which
connection is closed when places run short (issue 40). companion/serving.py calls these.

A probe of the hosted setup filled the server from many addresses: 960 streams from six IPv6
/64s behind Caddy, 9,936 from 50 loopback addresses, 10,500 slow bodies from 21; another wrote
10,000 pipelined requests down 200 connections and held the process for seconds. Caps per address
cannot stop a client that has many. So, as nginx's `limit_conn` and HAProxy's stick tables count a
key's connections, and Envoy's overload manager acts as a resource fills:

- **every connection is counted by its client** (companion/limits.py's `prefixes`: an address and
  its wider networks), from the socket's address as it is accepted, then, behind a trusted proxy,
  from the address the proxy forwarded once a request's head is read (`enter`), until it ends;
- **a client's cap** (`--connection-limit`, `cap`) is checked at each level, at most a
  CLIENT_SHARE-th of all places each; past it the request is answered 429 and closed;
- **the fair pool**: when the free places run short (serving.Server.make_room), after the idle
  connections, the oldest connection of the client holding the most is closed (`evict`): the
  network holding most at the widest level, then within it the address whose networks hold the
  most. A flood from any number of addresses closes its own first, and a phone from a new network
  finds a place; a stream closed so opens again, as after any drop. Only a connection at a point
  where it can stop cleanly is closed (`parked`: waiting for its next version, for its turn, for
  its body, or writing its answer), never one running the app, whose database work must end whole;
- **turns**: at most TURNS_PER_CLIENT of a client's requests are in their turn at once (WIDER
  times that for a wider network); the others wait in line (`turn`). A request's turn begins with a
  pause of TURN_PAUSE_S, in which the loop looks at every socket: the app never yields, so without
  it a connection ran request after pipelined request, and 200 connections of one client each ran
  one before another phone's was read; with it, another phone's request runs after at most a few
  of theirs.

gevent-only, like the server; plain Python otherwise (no Flask).
"""

from __future__ import annotations

import socket
import sys
from contextlib import contextmanager, suppress
from typing import Iterator

import gevent
from gevent import GreenletExit
from gevent.lock import Semaphore

from .limits import Held, prefixes

#: requests of one client address that may be in their turn at once (a wider network: WIDER times as many)
TURNS_PER_CLIENT = 4
#: seconds a request waits in its turn before it runs: 0, gevent.sleep(0), queues it behind every
#: greenlet ready now, and the loop looks at its sockets at least every 50 callbacks once 5 ms have
#: passed. A timer (0.0001 s) made the loop look each time, at 0.2 ms of CPU a bare hello's request
#: instead of 0.14 (bench/run.py's hello_cpu_ms), and the probes (bench/attacks.py) did not need it
TURN_PAUSE_S = 0

#: the greenlets at a point where closing them is safe (see the module)
PARKED: set = set()


@contextmanager
def parked() -> Iterator[None]:
    """Mark the current greenlet as one the fair pool may close while inside."""
    here = gevent.getcurrent()
    PARKED.add(here)
    try:
        yield
    finally:
        PARKED.discard(here)


def heaviest_first(keys, weight) -> Iterator:
    """The keys, the heaviest first; the rest in order only if asked for more (a sort of thousands
    on every accept, when one would do, took 80 ms)."""
    if not keys:
        return
    top = max(keys, key=weight)
    yield top
    yield from (key for key in sorted(keys, key=weight, reverse=True) if key != top)


class Clients(Held):
    """The connections of one server, each counted as its client's (see the module).

    `most` is the cap an address may hold (None: none), `ceiling` the most any network may."""

    def __init__(self, most: int | None, ceiling: int):
        super().__init__(most, ceiling)
        self.holders: dict[str, dict] = {}  # widest network -> an address's networks (prefixes) -> its connections, oldest first
        self.address_of: dict = {}  # connection -> the address it is counted as
        self.greenlets: dict = {}  # connection -> the greenlet serving it
        self.closing: set = set()  # greenlets chosen to be closed (evict), until the loop closes them
        self.turns: dict[str, tuple[Semaphore, list[int]]] = {}  # network -> (its line, how many use it)
        self.closed = 0  # connections closed to make room (tests, benchmarks)
        self.refused = 0  # requests refused past the cap

    def cap(self, times: int) -> int:
        if self.most is None:
            return 1 << 62
        return super().cap(times)

    def enter(self, conn, address: str, capped: bool = True) -> bool:
        """Count `conn` as `address`'s, instead of what it was counted as; False, and counted as
        before, when `capped` and the address or a network of it holds its cap."""
        before = self.address_of.get(conn)
        if before == address:
            return True
        if before is not None:
            self.leave(conn, closed=False)
        if capped and not self.fits(address):
            self.refused += 1
            if before is not None:
                self.enter(conn, before, capped=False)
            return False
        self.count(address, 1)
        self.address_of[conn] = address
        nets = prefixes(address)
        self.holders.setdefault(nets[0][0], {}).setdefault(nets, {})[conn] = None
        return True

    def leave(self, conn, closed: bool = True) -> None:
        """Count `conn` no more: it closed (or, not `closed`, is counted as another address next)."""
        if closed:
            self.greenlets.pop(conn, None)
        address = self.address_of.pop(conn, None)
        if address is None:
            return
        self.count(address, -1)
        nets = prefixes(address)
        widest = self.holders.get(nets[0][0], {})
        held = widest.get(nets)
        if held is not None:
            held.pop(conn, None)
            if not held:
                del widest[nets]
                if not widest:
                    del self.holders[nets[0][0]]

    def evict(self, spare=None):
        """Close the oldest parked connection of the client holding the most: the widest network
        holding the most, then its address whose networks hold the most; return that connection,
        or None when no connection is parked. `spare` is never closed.

        The close runs from the loop, next (`_close`): a greenlet whose wake-up was queued before it
        has left its wait by then, and is never interrupted outside one."""
        def weight(nets: tuple) -> tuple[int, ...]:
            return tuple(self.counts.get(net, 0) for net, _ in nets)

        for widest in heaviest_first(self.holders, lambda net: self.counts.get(net, 0)):
            for nets in heaviest_first(self.holders[widest], weight):
                for conn in self.holders[widest][nets]:
                    greenlet = self.greenlets.get(conn)
                    if conn is not spare and greenlet in PARKED and greenlet not in self.closing:
                        self.closing.add(greenlet)
                        gevent.get_hub().loop.run_callback(self._close, conn, greenlet)
                        self.closed += 1
                        return conn
        return None

    def _close(self, conn, greenlet) -> None:
        """End a connection the fair pool chose: GreenletExit where it waits, if it still waits; else
        its socket's reading side is shut: its answer is written whole, and its next read (a stream:
        its next write, serving.Handler.peer_closed) finds it closed."""
        self.closing.discard(greenlet)
        if greenlet in PARKED and not greenlet.dead:
            try:
                greenlet.throw(GreenletExit)  # as gevent's own kill() does, from the loop
            except BaseException:  # pragma: no cover - said by gevent, as for its own kill()
                gevent.get_hub().handle_error(greenlet, *sys.exc_info())
            return
        with suppress(OSError):
            conn.shutdown(socket.SHUT_RD)

    @contextmanager
    def turn(self, address: str) -> Iterator[None]:
        """Wait for a place in line of the address and each network of it (widest first), then for
        TURN_PAUSE_S, holding it, then run: the loop looks at every socket meanwhile, so the requests
        of other clients are read and run between those of one, however many connections it has."""
        counted, acquired = [], []
        try:
            for net, times in prefixes(address):
                entry = self.turns.get(net)
                if entry is None:
                    entry = self.turns[net] = (Semaphore(TURNS_PER_CLIENT * times), [0])
                line, users = entry
                users[0] += 1
                counted.append(net)
                if line.locked():
                    with parked():
                        line.acquire()
                else:
                    line.acquire()
                acquired.append(net)
            with parked():
                gevent.sleep(TURN_PAUSE_S)
            yield
        finally:
            for net in reversed(counted):
                line, users = self.turns[net]
                if net in acquired:
                    line.release()
                users[0] -= 1
                if not users[0]:
                    del self.turns[net]
