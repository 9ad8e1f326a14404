"""Per-client limits: how many streams and connections one client address may hold (issue 31).

One client must not take every connection the server holds: a probe opened 19,936 streams with
one table's secret, and other tables' pages timed out until they closed. So, per client address:

- at most `serve --stream-limit N` open event streams (STREAMS_PER_CLIENT by default), counted
  in companion/web/push.py (StreamLimit) by the address the app sees: behind a trusted proxy
  (`--proxy N`), the one the proxy forwarded (werkzeug's ProxyFix). Past it the stream is
  answered 429 with Retry-After, and the page polls instead (docs/CONTRACT.md);
- at most `serve --connection-limit N` connections (CONNECTIONS_PER_CLIENT by default, and never
  more than a CLIENT_SHARE-th of all the server holds), counted in companion/serving.py as each
  is accepted, by the socket's own address: past it a new connection is closed unread. Behind a
  trusted proxy every connection comes from the proxy, so there this cap is off unless given
  (the proxy holds the clients' connections, and reads their request heads itself).

The phones of a whole café, or a hall's Wi-Fi, may share one NAT address: the defaults are far
above one group's needs, and both caps take 'off'. $COMPANION_STREAM_LIMIT and
$COMPANION_CONNECTION_LIMIT set them where the options are not given. Each process counts its own:
with `--workers N` an address may hold up to N times either. An IPv6 address is counted by its
/64, which one machine or one home is given whole.

Plain Python: the command line reads the options here without loading the server.
"""

from __future__ import annotations

import argparse
import ipaddress
import os

#: open event streams one client address may hold: a stream a phone (two, for two tabs), and a
#: café's phones may share one address
STREAMS_PER_CLIENT = 200
#: connections one client address may hold at once: a phone holds its stream and one or two more
#: for its taps and pages
CONNECTIONS_PER_CLIENT = 500
#: and never more than this share of all the connections the server holds
#: (serving.connection_limit(): under a 1024 open-file limit, 960, so 240 an address)
CLIENT_SHARE = 4

#: serve's options, and create_app's settings they give
OPTIONS = {"--stream-limit": "STREAM_LIMIT", "--connection-limit": "CONNECTION_LIMIT"}
DEFAULTS = {"STREAM_LIMIT": STREAMS_PER_CLIENT, "CONNECTION_LIMIT": CONNECTIONS_PER_CLIENT}


def serve_options() -> argparse.ArgumentParser:
    """Return the parser of serve's per-client options, to give `serve` as a parent (its own group in --help)."""
    parser = argparse.ArgumentParser(add_help=False)
    group = parser.add_argument_group("per-client limits (each counted per process with --workers)")
    group.add_argument("--stream-limit", default=None, metavar="N",
                       help=f"live streams one client address may hold open (default {STREAMS_PER_CLIENT}, or"
                            " $COMPANION_STREAM_LIMIT; a café's phones may share one address): past it a page polls;"
                            " 'off' lifts it")
    group.add_argument("--connection-limit", default=None, metavar="N",
                       help=f"connections one client address may hold (default {CONNECTIONS_PER_CLIENT}, at most a"
                            " quarter of all, or $COMPANION_CONNECTION_LIMIT; off by default behind --proxy, where"
                            " every connection is the proxy's); 'off' lifts it")
    return parser


def parse_cap(text) -> int | None:
    """Parse a cap: a whole number from 1, or 'off' (None: no cap)."""
    value = str(text).strip().lower()
    if value == "off":
        return None
    if not value.isdigit() or int(value) < 1:
        raise ValueError(f"must be a whole number from 1, or 'off', not {str(text).strip()!r}")
    return int(value)


def read_options(args, config: dict) -> tuple[str, str] | None:
    """Put serve's --stream-limit and --connection-limit into config; return (option, what is wrong) or None."""
    for option, key in OPTIONS.items():
        value = getattr(args, key.lower(), None)
        if value is not None:
            try:
                parse_cap(value)
            except ValueError as exc:
                return option, str(exc)
            config[key] = value
    return None


def client_cap(config, key: str, proxied: bool = False) -> int | None:
    """Return the cap `key` (STREAM_LIMIT or CONNECTION_LIMIT) for one client address, None for none.

    From config (the option), else $COMPANION_<key>, else its default; CONNECTION_LIMIT has none
    by default when `proxied`. A value that is not a cap stops the server with one line.
    """
    value, name = config.get(key), next(option for option, known in OPTIONS.items() if known == key)
    if value is None:
        value, name = os.environ.get(f"COMPANION_{key}"), f"COMPANION_{key}"
    if value is None:
        return None if key == "CONNECTION_LIMIT" and proxied else DEFAULTS[key]
    try:
        return parse_cap(value)
    except ValueError as exc:
        raise SystemExit(f"error: {name}: {exc}") from None


def client_key(address: str) -> str:
    """Return what a client address is counted as: an IPv4 address itself, an IPv6 one by its /64,
    an IPv4-mapped one as its IPv4 address, anything else (a Unix socket's) as given."""
    try:
        parsed = ipaddress.ip_address(address)
    except ValueError:
        return address
    if parsed.version == 6:
        if parsed.ipv4_mapped is not None:
            return str(parsed.ipv4_mapped)
        return str(ipaddress.ip_network(f"{parsed}/64", strict=False).network_address) + "/64"
    return str(parsed)


class Held:
    """What each client address holds of one thing (connections, or event streams), at most `most`
    each: serving.Server counts connections with it, push.StreamLimit streams."""

    def __init__(self, most: int):
        self.most = most
        self.counts: dict[str, int] = {}  # client_key -> how many it holds

    def take(self, address: str) -> bool:
        """Count one more for `address`; False (nothing counted) when it holds `most` already."""
        key = client_key(address)
        held = self.counts.get(key, 0)
        if held >= self.most:
            return False
        self.counts[key] = held + 1
        return True

    def give_back(self, address: str) -> None:
        """One fewer for `address` (after a take() that counted)."""
        key = client_key(address)
        left = self.counts.get(key, 0) - 1
        if left > 0:
            self.counts[key] = left
        else:
            self.counts.pop(key, None)
