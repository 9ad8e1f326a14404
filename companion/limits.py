"""Per-client limits, and the one way every limit counts a client (issues 31 and 40).

One client must not take what the server holds from the others: a probe opened 19,936 streams with
one table's secret; another, spread over six IPv6 /64s, filled the connections of a server behind
Caddy; a third pipelined 10,000 requests down 200 connections. So every limit counts a client the
same way (`prefixes`), by the address the app sees (`client_address`: behind a trusted proxy,
`--proxy N`, the one the proxy forwarded, picked as werkzeug's ProxyFix picks it):

- **nested networks.** A client is counted in its address and in the wider networks one owner is
  given whole: an IPv6 address by its /64, its /56 and its /48 (a home gets a /56 or a /48, and a
  /48 comes free from a tunnel broker); a public IPv4 address by itself and its /24. Each wider
  network may hold WIDER times what one address may (twice for a /56, four times for a /48 or a
  /24), so the /64s of one /48 share four addresses' worth. An IPv4 address of a LAN, loopback or
  link-local range is counted alone: its /24 is the room's, every phone of a game night in it; a
  link-local or unique-local IPv6 address by its /64 alone, ::1 alone;
- what is counted: open event streams (`serve --stream-limit`, companion/web/push.py),
  connections (`--connection-limit`, companion/serving.py, never more than a CLIENT_SHARE-th of
  all the server holds at any level), requests in a moving window (`--request-limit`,
  companion/serving.py) and creations of tables and box profiles (`--create-limit`,
  companion/web/guard.py).

The phones of a whole café, or a hall's Wi-Fi, may share one NAT address: the defaults are far
above one group's needs, and every cap takes 'off'. $COMPANION_STREAM_LIMIT,
$COMPANION_CONNECTION_LIMIT and $COMPANION_REQUEST_LIMIT set them where the options are not given.
Each process counts its own: with `--workers N` a client may hold up to N times each.

Plain Python: the command line reads the options here without loading the server.
"""

from __future__ import annotations

import argparse
import functools
import ipaddress
import math
import os
import time

#: open event streams one client address may hold: a stream a phone (two, for two tabs), and a
#: café's phones may share one address
STREAMS_PER_CLIENT = 200
#: connections one client address may hold at once: a phone holds its stream and one or two more
#: for its taps and pages
CONNECTIONS_PER_CLIENT = 500
#: and never more than this share of all the connections the server holds, at any level
#: (serving.connection_limit(): under a 1024 open-file limit, 960, so 240 an address or a network)
CLIENT_SHARE = 4
#: requests one client address may make in a moving minute: a table page's first load asks for 34
#: files (chromium at 360 px; the static ones are then kept an hour) and a tap is one request, so 88
#: phones behind one router can open their pages in the same minute; a flood's requests past it are
#: answered 429 at once, and its connection closed (companion/admission.py)
REQUESTS_PER_CLIENT = "3000/1"

#: how many times an address's cap each wider network may hold (see the module)
WIDER = {56: 2, 48: 4, 24: 4}
#: the IPv4 ranges counted by the address alone: a LAN's /24 is one room's phones, not one owner's
LOCAL_V4 = [ipaddress.ip_network(net) for net in ("10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "127.0.0.0/8",
                                                   "169.254.0.0/16", "100.64.0.0/10")]
#: the IPv6 ranges counted by their /64 alone: link-local and unique-local, a LAN's
LOCAL_V6 = [ipaddress.ip_network("fe80::/10"), ipaddress.ip_network("fc00::/7")]
#: NAT64's well-known prefix: the IPv4 address it carries is the client
NAT64 = ipaddress.ip_network("64:ff9b::/96")

#: serve's options, and create_app's settings they give
OPTIONS = {"--stream-limit": "STREAM_LIMIT", "--connection-limit": "CONNECTION_LIMIT", "--request-limit": "REQUEST_LIMIT"}
DEFAULTS = {"STREAM_LIMIT": STREAMS_PER_CLIENT, "CONNECTION_LIMIT": CONNECTIONS_PER_CLIENT,
            "REQUEST_LIMIT": REQUESTS_PER_CLIENT}


def serve_options() -> argparse.ArgumentParser:
    """Return the parser of serve's per-client options, to give `serve` as a parent (its own group in --help)."""
    parser = argparse.ArgumentParser(add_help=False)
    group = parser.add_argument_group("per-client limits (each counted per process with --workers; an IPv6"
                                      " client by its /64, /56 and /48, a public IPv4 one by itself and its /24)")
    group.add_argument("--stream-limit", default=None, metavar="N",
                       help=f"live streams one client address may hold open (default {STREAMS_PER_CLIENT}, or"
                            " $COMPANION_STREAM_LIMIT; a café's phones may share one address): past it a page polls;"
                            " 'off' lifts it")
    group.add_argument("--connection-limit", default=None, metavar="N",
                       help=f"connections one client address may hold (default {CONNECTIONS_PER_CLIENT}, at most a"
                            " quarter of all, or $COMPANION_CONNECTION_LIMIT; behind --proxy, counted by the address"
                            " the proxy forwards); 'off' lifts it")
    group.add_argument("--request-limit", default=None, metavar="N[/MINUTES]",
                       help=f"requests one client address may make in a moving window (default {REQUESTS_PER_CLIENT},"
                            " or $COMPANION_REQUEST_LIMIT): past it, 429 and the connection is closed; 'off' lifts it")
    return parser


def parse_cap(text) -> int | None:
    """Parse a cap: a whole number from 1, or 'off' (None: no cap)."""
    value = str(text).strip().lower()
    if value == "off":
        return None
    if not value.isdigit() or int(value) < 1:
        raise ValueError(f"must be a whole number from 1, or 'off', not {str(text).strip()!r}")
    return int(value)


def parse_rate(text: str | None) -> tuple[int, int] | None:
    """Parse `N` (a minute) or `N/MINUTES`; `off` (or None) is no limit. Raise ValueError otherwise."""
    if text is None:
        return None
    text = str(text).strip().lower()
    if text in ("off", "none", "0"):
        return None
    count, _, minutes = text.partition("/")
    if not count.isdigit() or (minutes and not minutes.isdigit()):
        raise ValueError(f"must be N (a minute), N/MINUTES or off, not {text!r}")
    count, minutes = int(count), int(minutes or 1)
    if count < 1 or minutes < 1 or count > 10**9 or minutes > 60 * 24 * 365:
        raise ValueError(f"must be N (a minute), N/MINUTES or off with N and MINUTES 1 or more, not {text!r}")
    return count, minutes


PARSERS = {"STREAM_LIMIT": parse_cap, "CONNECTION_LIMIT": parse_cap, "REQUEST_LIMIT": parse_rate}


def read_options(args, config: dict) -> tuple[str, str] | None:
    """Put serve's per-client options into config; return (option, what is wrong) or None."""
    for option, key in OPTIONS.items():
        value = getattr(args, key.lower(), None)
        if value is not None:
            try:
                PARSERS[key](value)
            except ValueError as exc:
                return option, str(exc)
            config[key] = value
    return None


def client_cap(config, key: str):
    """Return the cap `key` for one client address: STREAM_LIMIT and CONNECTION_LIMIT a number,
    REQUEST_LIMIT (count, minutes); None for none.

    From config (the option), else $COMPANION_<key>, else its default. A value that is not a cap
    stops the server with one line.
    """
    value, name = config.get(key), next(option for option, known in OPTIONS.items() if known == key)
    if value is None:
        value, name = os.environ.get(f"COMPANION_{key}"), f"COMPANION_{key}"
    if value is None:
        value = DEFAULTS[key]
    try:
        return PARSERS[key](value)
    except ValueError as exc:
        raise SystemExit(f"error: {name}: {exc}") from None


#: more proxies than this in a chain is a mistake, not a configuration
MAX_PROXIES = 10


def parse_proxies(text: object) -> int:
    """Parse how many reverse proxies in front are trusted (`--proxy`): a whole number from 0 to MAX_PROXIES."""
    value = str(text).strip()
    if not value.isdigit() or int(value) > MAX_PROXIES:
        raise ValueError(f"must be a whole number from 0 (no proxy trusted) to {MAX_PROXIES}, not {value!r}")
    return int(value)


def proxy_hops(config: dict) -> int:
    """Return how many reverse proxies in front are trusted: PROXY (--proxy), else $COMPANION_PROXY, else 0."""
    value = config.get("PROXY")
    if value is None:
        try:
            return parse_proxies(os.environ.get("COMPANION_PROXY", "0"))
        except ValueError as exc:  # refuse to start rather than guess whom to trust
            raise SystemExit(f"error: COMPANION_PROXY: {exc}") from None
    return parse_proxies(value)


# --- one way to count a client -------------------------------------------------------------------

def client_address(peer: str, forwarded: str | None, hops: int) -> str:
    """Return the address a request is counted as: its connection's `peer`, or behind `hops` trusted
    proxies the X-Forwarded-For entry the outermost one appended (the hops-th from the right), as
    werkzeug's ProxyFix sets REMOTE_ADDR for the app (tests/resilience/test_fair_pool.py keeps
    the two the same). With fewer entries than hops, the peer, as ProxyFix leaves it."""
    if not hops or not forwarded:
        return peer
    from werkzeug.http import parse_list_header

    values = parse_list_header(forwarded)
    return values[-hops] if len(values) >= hops else peer


@functools.lru_cache(maxsize=16384)
def prefixes(address: str) -> tuple[tuple[str, int], ...]:
    """Return the networks a client address is counted in, widest first, each with how many times an
    address's cap it may hold: an IPv6 address's /48, /56 and /64; a public IPv4 address's /24 and
    itself; a LAN's IPv4 address (LOCAL_V4) alone, a link-local or unique-local IPv6 one by its /64;
    an IPv4-mapped or NAT64 (64:ff9b::/96) IPv6 address as its IPv4 address; anything else (a Unix
    socket's name, a proxy's odd value) as given."""
    try:
        parsed = ipaddress.ip_address(address.split("%", 1)[0])
    except ValueError:
        return ((address, 1),)
    if parsed.version == 6:
        if parsed.ipv4_mapped is not None:
            parsed = parsed.ipv4_mapped
        elif parsed in NAT64:
            parsed = ipaddress.IPv4Address(int(parsed) & 0xFFFFFFFF)
    if parsed.version == 4:
        if any(parsed in net for net in LOCAL_V4):
            return ((str(parsed), 1),)
        return ((f"{ipaddress.IPv4Address(int(parsed) & 0xFFFFFF00)}/24", WIDER[24]), (str(parsed), 1))
    value = int(parsed)

    def net(bits: int) -> str:
        return f"{ipaddress.IPv6Address(value >> (128 - bits) << (128 - bits))}/{bits}"

    if parsed.is_loopback:
        return ((str(parsed), 1),)
    if any(parsed in local for local in LOCAL_V6):
        return ((net(64), 1),)
    return tuple((net(bits), WIDER.get(bits, 1)) for bits in (48, 56, 64))


class Held:
    """What each client holds of one thing (connections, or event streams), at most `most` an
    address and WIDER times that a wider network (`prefixes`), and never more than `ceiling` at any
    level: serving.Server counts connections with it, push.StreamLimit streams."""

    def __init__(self, most: int, ceiling: int | None = None):
        self.most = most
        self.ceiling = ceiling
        self.counts: dict[str, int] = {}  # network -> how many it holds

    def cap(self, times: int) -> int:
        cap = self.most * times
        return min(cap, self.ceiling) if self.ceiling else cap

    def fits(self, address: str) -> bool:
        """True when `address` and every network of it hold less than their caps."""
        return all(self.counts.get(net, 0) < self.cap(times) for net, times in prefixes(address))

    def count(self, address: str, more: int) -> None:
        """Count `more` (1, or -1) for `address` and each network of it."""
        for net, _ in prefixes(address):
            held = self.counts.get(net, 0) + more
            if held > 0:
                self.counts[net] = held
            else:
                self.counts.pop(net, None)

    def take(self, address: str) -> bool:
        """Count one more for `address`; False (nothing counted) when it, or a network of it, holds its cap."""
        if not self.fits(address):
            return False
        self.count(address, 1)
        return True

    def give_back(self, address: str) -> None:
        """One fewer for `address` (after a take() that counted)."""
        self.count(address, -1)


class Requests:
    """The requests each client makes, at most `count` an address in a moving window of `minutes`,
    and WIDER times that a wider network.

    Two counts a network, this window's and the last's, the last weighed by the part of it still
    inside the moving window: `limits`' sliding window counter (issue 40 asks for a moving window,
    and one entry a request, `limits`' moving window, would let a flood from many /64s choose the
    memory it takes). Written here rather than with `limits`' MemoryStorage, whose expiry runs in a
    thread every 10 ms over every key: 300,000 keys (a flood from 100,000 /48s) took 114 ms each
    time, beside the server. A request is counted only where every network of it has room, so one
    address past its cap does not spend its /24's or /48's share for its neighbours."""

    #: networks counted in one window before those seen once are dropped (a flood from many); a
    #: sweep that keeps many waits for twice as many before the next, so a sweep costs O(1) a request
    MOST_NETWORKS = 200_000

    def __init__(self, count: int, minutes: int):
        self.count, self.minutes = count, minutes
        self.window = minutes * 60
        self.index = 0  # which window `current` counts
        self.current: dict[str, int] = {}
        self.previous: dict[str, int] = {}
        self.sweep_at = self.MOST_NETWORKS  # the networks counted at which those seen once are dropped
        self.refused = 0  # requests refused (tests, benchmarks)

    def wait(self, address: str, now: float | None = None) -> int | None:
        """Count one request of `address`; None if it may go ahead, else the seconds to wait (the
        longest any of its networks asks)."""
        now = time.time() if now is None else now
        index = int(now // self.window)
        if index != self.index:
            self.previous = self.current if index == self.index + 1 else {}
            self.current, self.index, self.sweep_at = {}, index, self.MOST_NETWORKS
        weight = 1 - (now % self.window) / self.window  # of the last window, still inside the moving one
        nets = prefixes(address)
        waits = [self.seconds(before, held, cap, now) for before, held, cap in
                 ((self.previous.get(net, 0), self.current.get(net, 0), self.count * times) for net, times in nets)
                 if before * weight + held + 1 > cap]
        if waits:
            self.refused += 1
            return max(waits)
        for net, _ in nets:
            self.current[net] = self.current.get(net, 0) + 1
        if len(self.current) > self.sweep_at:  # those seen once go; the next sweep waits for as many again
            self.current = {net: held for net, held in self.current.items() if held > 1}
            self.sweep_at = max(self.MOST_NETWORKS, 2 * len(self.current))
        return None

    def seconds(self, before: int, held: int, cap: int, now: float) -> int:
        """The seconds until a network with `before` requests last window and `held` in this one may make one more."""
        into = now % self.window
        if held + 1 <= cap:  # the last window's weight must fall enough
            share = 1 - (cap - 1 - held) / before
            return max(1, math.ceil(share * self.window - into))
        share = 1 - (cap - 1) / held  # this window alone is full: once it is the last, its weight must fall
        return max(1, math.ceil(self.window - into + share * self.window))
