"""The server's edge: which Host names it answers to, and how fast one device may create things.

**The Host check.** A web page can make a phone's browser talk to the laptop under the page's
own name: its DNS answer switches to the laptop's address (DNS rebinding), and the browser
then takes the app for the page's own site, same-origin, and sends `Host: attacker.example`.
So `HostCheck` sits outermost, in front of Flask and everything else, and answers 400 to any Host
that is not one of this machine's own: its addresses (loopback included, with or without a
port), `localhost` and `*.localhost`, its host name and that name's `.local` (mDNS) form, and
each `companion serve --allow-host NAME` (ALLOWED_HOSTS). A malformed Host gets the same 400.
A request with no Host at all is served in HTTP/1.0, which had none, and refused in HTTP/1.1,
which requires it (RFC 9112, 3.2); a browser, the only client such a page can drive, always
sends one.

**The creation limit.** Creating tables (the start page's form and the API) and box profiles
(the form and the import) is limited per client (REMOTE_ADDR, counted as every limit counts a
client: an IPv6 address by its /64, /56 and /48, companion/limits.py): past the limit, 429
with Retry-After. The limit counts attempts, in a moving window, with the `limits` library
(the core of Flask-Limiter, without its Flask layer: our answers must be the contract's JSON
on the API and our own short page elsewhere, and the routes stay as they are). Its memory is
each process's own: with `--workers N` a device may create up to N times the limit.

**Behind a reverse proxy** every request comes from the proxy's address, so every phone would
share one bucket. `companion serve --proxy N` (or $COMPANION_PROXY) says N proxies in front are
trusted: werkzeug's ProxyFix, just inside the Host check, then takes the client's address from
the Nth X-Forwarded-For entry from the right (the one the outermost trusted proxy appended, which
no client can forge) and the scheme from X-Forwarded-Proto (behind an HTTPS proxy every cookie
is then Secure). `--public-url URL` (or $COMPANION_PUBLIC_URL) names the address phones open,
the proxy's: the QR codes and join links name it instead of the server's own address, its host
name is answered as the machine's own are, and when it is HTTPS every cookie is Secure and every
answer carries HSTS. Not X-Forwarded-Host: nginx and Caddy hand the phone's own Host on (nginx's documented
`proxy_set_header Host $host`, Caddy by default), which the Host check judges, while nginx passes
a client's own X-Forwarded-Host through untouched, so trusting it would let any client choose the
Host the app sees. Without `--proxy` forwarding headers are ignored. The address is only ever
counted: no right comes from it (web/plays.py).
"""

from __future__ import annotations

import ipaddress
import math
import re
import time
from typing import Callable, Iterable

from .. import network
from ..limits import WIDER, prefixes
from ..games.speech import gettext, ngettext

# --- the Host check ----------------------------------------------------------------------------

#: a host name's label (RFC 1123), with the underscore some machines' names carry
LABEL = re.compile(r"[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?")
PORT = re.compile(r"[0-9]{1,5}")
#: what the 400 says: nothing from the request is echoed back
REFUSED = (b"this server does not answer to that name: open it at its own address "
           b"(its host can allow another name with companion serve --allow-host NAME)\n")
MISSING = b"the request has no Host header\n"


def split_host(value: str) -> tuple[str, str] | None:
    """Return a Host header's (host, port), the host in lower case and IPv6 without brackets; None if malformed."""
    if value.startswith("["):
        host, bracket, rest = value[1:].partition("]")
        if not bracket or (rest and not rest.startswith(":")):
            return None
        port = rest[1:]
        try:
            if ipaddress.ip_address(host).version != 6:
                return None
        except ValueError:
            return None
    else:
        host, _, port = value.partition(":")
    if port and not (PORT.fullmatch(port) and int(port) <= 65535):
        return None
    host = host.lower()
    if not value.startswith("[") and not is_host_name(host):
        return None
    return host, port


def is_host_name(name: str) -> bool:
    """True for a well-formed host name or IPv4 address: ASCII labels of 1-63 characters, 253 in all."""
    name = name[:-1] if name.endswith(".") else name
    return 0 < len(name) <= 253 and all(LABEL.fullmatch(label) for label in name.split("."))


class AllowedHosts:
    """Decides whether a Host names this machine (see the module)."""

    def __init__(self, extra: Iterable[str] = ()):
        self.extra = {name.lower().rstrip(".") for name in extra}
        self._names: tuple[float, set[str]] = (float("-inf"), set())

    def names(self) -> set[str]:
        """Return the machine's names, looked up again at most every network.OWN_ADDRESS_TTL_S seconds."""
        when, names = self._names
        now = time.monotonic()
        if now - when > network.OWN_ADDRESS_TTL_S:
            names = network.own_names() | self.extra
            self._names = (now, names)
        return names

    def __call__(self, host: str) -> bool:
        host = host.rstrip(".")
        if host == "localhost" or host.endswith(".localhost") or host in self.names():
            return True
        return network.is_own_address(host)


class HostCheck:
    """WSGI middleware, outermost: 400 to a request whose Host is not one of the machine's own."""

    def __init__(self, wsgi_app, allowed: Callable[[str], bool], headers: Callable[[], Iterable[tuple[str, str]]]):
        self.wsgi_app = wsgi_app
        self.allowed = allowed
        self.headers = headers  # () -> the security headers every answer carries
        self.refused = 0  # requests refused here (tests)

    def __call__(self, environ, start_response):
        value = environ.get("HTTP_HOST")
        if value is None and environ.get("SERVER_PROTOCOL") == "HTTP/1.0":
            return self.wsgi_app(environ, start_response)
        if not value:
            return self.refuse(start_response, MISSING)
        found = split_host(value)
        if found is None or not self.allowed(found[0]):
            return self.refuse(start_response, REFUSED)
        return self.wsgi_app(environ, start_response)

    def refuse(self, start_response, body: bytes):
        self.refused += 1
        start_response("400 Bad Request", [("Content-Type", "text/plain; charset=utf-8"),
                                           ("Content-Length", str(len(body))), *self.headers()])
        return [body]


# --- a trusted proxy ----------------------------------------------------------------------------

def behind_proxies(wsgi_app, hops: int):
    """Return wsgi_app behind werkzeug's ProxyFix trusting `hops` proxies (for, proto), or as it is for 0."""
    if not hops:
        return wsgi_app
    from werkzeug.middleware.proxy_fix import ProxyFix

    # X-Forwarded-Proto: the nearest proxy's one value. nginx's recipe and Caddy each set it, where
    # X-Forwarded-For is appended to, so with --proxy 2 ProxyFix would look for a second value and
    # ignore the header: behind two proxies the host key's cookie was not Secure (issue 40)
    return ProxyFix(wsgi_app, x_for=hops, x_proto=1, x_host=0, x_port=0, x_prefix=0)


# --- the public address -------------------------------------------------------------------------

#: what an HTTPS public address adds to every answer: a browser that reached the app over HTTPS
#: once goes there over HTTPS only, for a year (RFC 6797). Not includeSubDomains: the operator's
#: other names are none of this app's business. A browser ignores it over plain HTTP.
HSTS = ("Strict-Transport-Security", "max-age=31536000")


def parse_public_url(text: object) -> str:
    """Parse `--public-url`: http(s)://NAME or ADDRESS, an optional :PORT, an optional final /.

    Return it without the final / (paths are appended to it); raise ValueError otherwise. A path
    under the name is refused: the app's own links are absolute from / (a proxy that serves it
    under /companion/ would need them all rewritten).
    """
    from urllib.parse import urlsplit

    value = str(text).strip()
    wanted = "give the address phones open, as https://NAME or https://NAME:PORT"
    try:
        parts = urlsplit(value)
        port = parts.port  # ValueError for a port out of range or not a number
    except ValueError:
        raise ValueError(f"{value!r} is not an address: {wanted}") from None
    host = parts.hostname or ""
    if parts.scheme not in ("http", "https") or not host or parts.username is not None or parts.password is not None:
        raise ValueError(f"{value!r} is not an address: {wanted}")
    if parts.path not in ("", "/") or parts.query or parts.fragment or "?" in value or "#" in value:
        raise ValueError(f"{value!r} has more than a name and a port: {wanted} (the app is served from its /)")
    if not is_host_name(host) and not _is_address(host):
        raise ValueError(f"{host!r} in {value!r} is not a host name")
    shown = f"[{host}]" if ":" in host else host
    return f"{parts.scheme}://{shown}" + (f":{port}" if port is not None else "")


def _is_address(text: str) -> bool:
    try:
        ipaddress.ip_address(text)
    except ValueError:
        return False
    return True


def public_host(url: str | None) -> str | None:
    """The host name of a public address parse_public_url returned, as the Host check compares it."""
    from urllib.parse import urlsplit

    return urlsplit(url).hostname if url else None


def cookie_settings() -> dict:
    """How every cookie of the app is set: not for scripts, not sent by other sites' posts, and
    Secure (never sent over plain HTTP) when the request came over HTTPS (a trusted proxy's
    X-Forwarded-Proto, --proxy) or the public address is HTTPS (--public-url)."""
    from flask import current_app, request

    public = current_app.config.get("PUBLIC_URL") or ""
    return {"httponly": True, "samesite": "Lax", "secure": request.is_secure or public.startswith("https://")}


# --- the creation limit ------------------------------------------------------------------------

#: the default: 60 creations a minute per client address, for tables and for box profiles each.
#: A group starts one table per game and a host typing a hall's tables in makes a few a minute
#: (each form needs its names), so no person meets it; a flooding script did 600 a second
DEFAULT_CREATE_LIMIT = "60/1"
#: the routes that create, as Flask endpoints, and what each creates (the limit counts each kind apart)
CREATING = {"home.create": "tables", "api.create_table": "tables", "profiles.save": "profiles",
            "profiles.import_file": "profiles",
            # "Play again" makes a table too: counted, or a token's holder could make tables past the limit
            "rematch.start": "tables", "api.rematch_table": "tables"}


class CreateLimit:
    """Counts each client's creations in a moving window; says how long to wait past the limit.

    An address may create `count` every `minutes`, and each wider network of it WIDER times that
    (companion/limits.py): ten addresses of one /64 share one address's count."""

    def __init__(self, count: int, minutes: int):
        from limits import RateLimitItemPerMinute
        from limits.storage import MemoryStorage
        from limits.strategies import MovingWindowRateLimiter

        self.count, self.minutes = count, minutes
        self.items = {times: RateLimitItemPerMinute(count * times, minutes) for times in {1, *WIDER.values()}}
        self.limiter = MovingWindowRateLimiter(MemoryStorage())
        self.refused = 0  # requests refused (tests, benchmarks)

    def wait(self, kind: str, address: str) -> int | None:
        """Count one creation; return None if it may go ahead, else the seconds to wait.

        Every network of the address is checked first, then counted: a refused creation counts nowhere."""
        nets = [(self.items[times], net) for net, times in prefixes(address)]
        for item, net in nets:
            if not self.limiter.test(item, kind, net):
                self.refused += 1
                reset = self.limiter.get_window_stats(item, kind, net).reset_time
                return max(1, math.ceil(reset - time.time()))
        for item, net in nets:
            self.limiter.hit(item, kind, net)
        return None


def creation_kind(endpoint: str | None, view_args: dict | None) -> str | None:
    """Return what a POST to this endpoint creates ("tables", "profiles"), or None; saving an existing profile creates nothing."""
    kind = CREATING.get(endpoint or "")
    if endpoint == "profiles.save" and (view_args or {}).get("profile_id") is not None:
        return None
    return kind


def limit_creation():
    """Flask before_request: 429 with Retry-After when this address has created too much, too fast.

    Raised as werkzeug's TooManyRequests, which the app's error handler answers as every HTTP
    error: the contract's JSON on the API, the short page elsewhere, the exception's headers kept.
    """
    from flask import current_app, request
    from werkzeug.exceptions import TooManyRequests

    limit: CreateLimit | None = current_app.extensions.get("companion.create_limit")
    if limit is None or request.method != "POST":
        return None
    kind = creation_kind(request.endpoint, request.view_args)
    if kind is None:
        return None
    seconds = limit.wait(kind, request.remote_addr or "")
    if seconds is None:
        return None
    # the error page speaks the phone's language (language.speak runs before this check); the API, English
    raise TooManyRequests(too_many(kind, limit.count, limit.minutes, seconds), retry_after=seconds)


def too_many(kind: str, count: int, minutes: int, seconds: int) -> str:
    """What a 429 says: what was made too often, the limit, and how long to wait."""
    every = ngettext("every minute", "every %(num)d minutes", minutes)
    if kind == "profiles":
        # Translators: %(every)s is "every minute" or "every 5 minutes"; "s" are seconds
        return gettext("too many new box profiles from this device: at most %(most)s %(every)s; try again in %(seconds)s s",
                       most=count, every=every, seconds=seconds)
    # Translators: %(every)s is "every minute" or "every 5 minutes"; "s" are seconds
    return gettext("too many new tables from this device: at most %(most)s %(every)s; try again in %(seconds)s s",
                   most=count, every=every, seconds=seconds)
