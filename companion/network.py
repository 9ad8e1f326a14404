"""The address phones use to reach this machine on the local network."""

from __future__ import annotations

import ipaddress
import socket
import struct
import time

LOCAL_NAMES = {"localhost", "0.0.0.0", "::", "::1", ""}
#: what `serve --host` takes for every interface: the address to show is then the LAN's
EVERY_INTERFACE = ("", "0.0.0.0", "::")

#: how the host name is resolved to addresses. `companion serve` (companion/serving.py) puts
#: gevent's in its place, which waits for the answer without stopping the server: a host name
#: that no file answers (macOS's NAME.local with no network) can take seconds to resolve, and
#: the server runs every request in one thread
resolve = socket.getaddrinfo


def _interface_addresses() -> list[str]:
    """Return the IPv4 addresses of this machine's interfaces (Linux ioctl; elsewhere the host name's)."""
    found: list[str] = []
    try:
        import fcntl  # POSIX only

        sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        try:
            for _, name in socket.if_nameindex():
                try:
                    packed = fcntl.ioctl(sock.fileno(), 0x8915, struct.pack("256s", name[:15].encode()))  # SIOCGIFADDR
                    found.append(socket.inet_ntoa(packed[20:24]))
                except OSError:
                    continue
        finally:
            sock.close()
    except (ImportError, OSError, AttributeError):
        pass
    try:
        for info in resolve(socket.gethostname(), None, socket.AF_INET):
            found.append(info[4][0])
    except OSError:
        pass
    return list(dict.fromkeys(found))


#: how long a looked-up LAN address is reused: every table page shows it, and asking the
#: kernel for every interface's address costs more than rendering the page
LAN_ADDRESS_TTL_S = 10.0
_looked_up: tuple[float, str | None] = (float("-inf"), None)


def lan_address() -> str | None:
    """Return the best LAN IPv4 address: a private one first, never loopback; None if there is none.

    Looked up again at most every LAN_ADDRESS_TTL_S seconds, so a laptop that changes network
    shows its new address within seconds.
    """
    global _looked_up
    when, address = _looked_up
    now = time.monotonic()
    if now - when > LAN_ADDRESS_TTL_S:
        address = _best_lan_address()
        _looked_up = (now, address)
    return address


def _best_lan_address() -> str | None:
    candidates = []
    for text in _interface_addresses():
        try:
            ip = ipaddress.ip_address(text)
        except ValueError:
            continue
        if ip.is_loopback or ip.is_unspecified or ip.is_link_local:
            continue
        candidates.append((0 if ip.is_private else 1, text))
    return min(candidates)[1] if candidates else None


def where_to_open(host: str, port: int) -> tuple[str, bool]:
    """Return the address `serve` prints (and draws) for a server listening on host:port, and
    whether phones can reach it there: never an address the server does not listen on.

    On every interface (the default), the machine's LAN address; on one address or name, that
    one; on loopback alone (127.0.0.1, ::1, localhost), that, which only this machine reaches.
    """
    if host in EVERY_INTERFACE:
        return f"http://{lan_address() or '127.0.0.1'}:{port}/", others_reach(host)
    shown = f"[{host}]" if ":" in host else host
    return f"http://{shown}:{port}/", others_reach(host)


def others_reach(host: str) -> bool:
    """True when a server listening on `host` (serve's --host) is reached by more than this machine:
    every interface, or an address of its own that is not loopback. Phones open it there; and
    trusting a proxy there lets any client that reaches it directly write its own X-Forwarded-For
    (serve says so)."""
    return host in EVERY_INTERFACE or not is_local(host)


def is_local(host: str) -> bool:
    """True for names that another device cannot use to reach this one."""
    host = host.strip("[]")
    if host in LOCAL_NAMES:
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return host.endswith(".localhost")


#: how long an answer of is_own_address is reused: a laptop that joins another network has
#: its new address answered within seconds, without a system call per request
OWN_ADDRESS_TTL_S = 10.0
#: the most addresses remembered: a client sending many made-up ones cannot grow the memory
OWN_ADDRESS_CACHE = 256
_own: dict[str, tuple[float, bool]] = {}


def is_own_address(text: str) -> bool:
    """True if `text` is an IP address of this machine: loopback, or one a socket can bind to.

    Binding asks the kernel itself, so every interface's addresses count (secondary IPv4
    addresses and IPv6 ones too, which the interface list above misses), and an address
    the machine no longer has stops counting. Answers are kept OWN_ADDRESS_TTL_S seconds.
    """
    try:
        ip = ipaddress.ip_address(text)
    except ValueError:
        return False
    if ip.is_loopback:
        return True
    if ip.is_unspecified or ip.is_multicast:
        return False
    key = ip.compressed
    now = time.monotonic()
    when, mine = _own.get(key, (float("-inf"), False))
    if now - when <= OWN_ADDRESS_TTL_S:
        return mine
    mine = _can_bind(ip)
    if len(_own) >= OWN_ADDRESS_CACHE:
        _own.clear()
    _own[key] = (now, mine)
    return mine


def _can_bind(ip) -> bool:
    family = socket.AF_INET6 if ip.version == 6 else socket.AF_INET
    try:
        with socket.socket(family, socket.SOCK_DGRAM) as sock:
            sock.bind((ip.compressed, 0))
        return True
    except OSError:
        return False


def own_names() -> set[str]:
    """Return this machine's names, lower case: its host name, the name before the first dot, and their .local forms (mDNS)."""
    name = socket.gethostname().lower().rstrip(".")
    names = {name, name.split(".")[0]} - {""}
    return names | {f"{n}.local" for n in names}
