"""`--proxy N` checked against the forwarding hops requests arrive with (issue 40).

A wrong count fails silently. Too few proxies trusted, and the address counted is a proxy's: every
phone behind it shares one creation limit and one stream cap. Too many, and werkzeug's ProxyFix
finds fewer X-Forwarded-For entries than it trusts: it keeps the proxy's address for every phone,
and a client that writes its own X-Forwarded-For (nginx passes it on, appending) picks the address
it is counted as. So each request's entries are counted here, and a count that does not fit is
said once in the log and in `/healthz`'s body, with the number seen. It only reports: nothing is
granted, refused or changed by it.

What is counted. The entries of X-Forwarded-For, parsed as ProxyFix parses them (werkzeug's
`parse_list_header`: empty entries are dropped), all of the request's header lines together (the
WSGI server joins them with commas). Each proxy of nginx's recipe (`$proxy_add_x_forwarded_for`)
appends the address it was reached from. Caddy does too when the hop before it is in its
`trusted_proxies`; otherwise (its default) it replaces the header with that address alone (both
measured with Caddy 2.6). So through N proxies a request carries at least N entries, more only
when a client wrote some. Not X-Forwarded-Proto: nginx's recipe (`$scheme`) and Caddy each set it
to one value, so it holds one value however many proxies there are, and says nothing of their
number.

How it is judged. Requests are taken a window of WINDOW at a time (only counted ones: below), and
each full window gives the verdict /healthz shows until the next one:
- with `--proxy N` (N of 1 or more), the fewest entries among the window's requests that carry
  any: fewer than N, and N is too many (a correct chain never gives fewer, and what a client
  writes only adds); more than N, on every one of them, and N is too few. One forged request
  cannot raise the fewest: a client alone for a whole window can, and then the warning is wrong
  (a nuisance line, no more). Requests with no entry are left out: a proxy's own health check
  (Caddy's active check sends none, measured with Caddy 2.6) or a curl on the server itself. But
  a window where no request carries any says that no proxy forwards to this server (or it sets no
  X-Forwarded-For), while any client may write one and be counted as whoever it likes: reported
  as 0 seen.
- with no `--proxy` (0), only a window where every request carries X-Forwarded-For is reported
  (the fewest entries): a proxy is in front, and every phone counts as its address. One request
  without it (a phone that reached the server itself) and the window says nothing: a client can
  write the header to a server with no proxy in front, and the phones of a LAN send none. A
  client alone for a whole window can make this warning too, and gains nothing by it.
`/healthz` itself is never counted: monitors and proxies poll it, and a quiet night behind Caddy
would otherwise be a window of its checks alone. Nor is a request the Host check refused.

What it cannot see: a proxy that replaces the header. Caddy behind another proxy that is not in
its `trusted_proxies` hands on one entry for a chain of two (measured with Caddy 2.6); then
`--proxy 1` looks right by its count, while every phone is the outer proxy's address.

Each distinct warning is written once per process (logger "table_companion.server"), never per
request, and never again when it comes back; the number seen is capped at MOST_SEEN, so the
lines one process can write are few. With `--workers N` each process counts its own requests
and writes its own line.
"""

from __future__ import annotations

import logging

from werkzeug.http import parse_list_header

#: requests counted for one verdict: enough that one odd request rarely decides it, few enough that
#: a club's first phones give one within minutes (a page comes with its scripts and styles)
WINDOW = 32
#: a count above this is shown as this (a header of many entries is a forged one)
MOST_SEEN = 32
#: never counted (see the module)
NOT_COUNTED = frozenset({"/healthz"})

log = logging.getLogger("table_companion.server")


def entries(environ) -> int:
    """Return how many X-Forwarded-For entries a request carries, as ProxyFix counts them."""
    value = environ.get("HTTP_X_FORWARDED_FOR")
    return len(parse_list_header(value)) if value else 0


def warning(trusted: int, seen: int) -> str:
    """What the log and /healthz say when `seen` forwarding hops arrive where `trusted` are trusted."""
    fix = "Set --proxy (or COMPANION_PROXY) to the number of proxies in front"
    if seen == 0:
        return (f"no request arrives with X-Forwarded-For, but --proxy trusts {trusted}. No proxy in front sets it, "
                f"and a client that writes its own is counted as the address it chose. {fix} (0 for none).")
    if seen < trusted:
        return (f"requests arrive with {seen} X-Forwarded-For {_entries(seen)}, but --proxy trusts {trusted}. "
                f"Every phone is counted as the proxy's address, and a client that writes its own is counted as "
                f"the address it chose. {fix}: {seen}, unless one of them replaces the header (Caddy without trusted_proxies).")
    if trusted == 0:
        return (f"every request arrives with X-Forwarded-For ({seen} {_entries(seen)} or more), but --proxy is 0. "
                f"Every phone behind the proxy is counted as its address and shares its limits. {fix}: {seen}.")
    return (f"every request arrives with {seen} X-Forwarded-For entries or more, but --proxy trusts {trusted}. "
            f"Every phone is counted as a proxy's address and shares its limits. {fix}: {seen}, "
            f"unless the phones' own proxies add entries.")


def _entries(count: int) -> str:
    return "entry" if count == 1 else "entries"


class Hops:
    """The forwarding hops of each request counted against `--proxy`, a window at a time (see the module)."""

    def __init__(self, trusted: int, window: int = WINDOW):
        self.trusted = trusted
        self.window = window
        self.verdict: dict | None = None  # what /healthz says: the last full window's warning, or None
        self.written: set[str] = set()  # warnings already in the log
        self.windows = 0  # full windows judged (tests)
        self._reset()

    def _reset(self) -> None:
        self.counted = 0  # requests counted in this window
        self.bare = 0  # of them, those without X-Forwarded-For
        self.fewest: int | None = None  # the fewest entries among those with some

    def count(self, environ) -> None:
        """Count one request's entries; judge the window when it is full."""
        if environ.get("PATH_INFO") in NOT_COUNTED:
            return
        found = entries(environ)
        self.counted += 1
        if found == 0:
            self.bare += 1
        elif self.fewest is None or found < self.fewest:
            self.fewest = found
        if self.counted >= self.window:
            self.judge()

    def judge(self) -> None:
        """Set the verdict from the window counted, write a new warning once, and start the next window."""
        seen = self.seen()
        self.windows += 1
        self._reset()
        if seen is None or seen == self.trusted:
            self.verdict = None
            return
        said = warning(self.trusted, seen)
        self.verdict = {"trusted": self.trusted, "seen": seen, "warning": said}
        if said not in self.written:
            self.written.add(said)
            log.warning("--proxy: %s", said)

    def seen(self) -> int | None:
        """The number of hops the window shows where it tells one, else None (see the module)."""
        if self.trusted == 0:
            return min(self.fewest, MOST_SEEN) if self.bare == 0 and self.fewest is not None else None
        return 0 if self.fewest is None else min(self.fewest, MOST_SEEN)


class CountHops:
    """WSGI layer just inside the Host check, before ProxyFix: each request's hops counted, nothing changed."""

    def __init__(self, wsgi_app, hops: Hops):
        self.wsgi_app = wsgi_app
        self.hops = hops

    def __call__(self, environ, start_response):
        self.hops.count(environ)
        return self.wsgi_app(environ, start_response)
