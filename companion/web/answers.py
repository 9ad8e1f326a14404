"""What a tap and a poll are answered with: each decided once, here, for every path that answers.

A table's commonest requests are a tap (`tables.post_event`) and a new version, which reaches
a phone by a poll (`tables.live`, where push is unavailable) or on its open stream
(`tables.events`, push.py). All call the functions below, so that they cannot drift apart:

- who a request is: the table's secret and the device's seat, read from its cookies
  (`secret_of`, `seat_of`), and the screen it asks for (`screen_of`);
- who may write, and what a stale version means: `companion.tables.append` decides both in
  the write's transaction (a wrong secret is NotFound, an expected_version that is not the
  table's is Conflict); the answers below are drawn only once a write went through;
- what a poll gets (`poll`): 304 while the version it names is current, else the parts of the
  live region that changed since the version the page shows (parts.py); a stream (push.py) asks
  the same on each change;
- what a stepper's tap gets (`after_tap`): the stepper alone, or the parts that changed when the
  game cannot draw the stepper alone.

The version travels as data, never in the HTML (static/js/versions.js): a page names the
version it shows in the X-Table-Has header (a stream: its Last-Event-ID, or ?v= as it opens),
and the parts of the region it holds drawn with a refusal's message in X-Table-Redraw; every
answer that draws parts names the version they show in X-Table-Version, and X-Table-Partial when
it brings only some of that version's changes (a stepper's own answer).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Container, Mapping

from .. import tables
from ..games import speech
from . import steppers


def secret_cookie(table_id: str) -> str:
    """Return the name of the cookie that holds a table's secret on this device."""
    return f"tc_{table_id}"


def seat_cookie(table_id: str) -> str:
    """Return the name of the cookie that remembers this device's seat."""
    return f"seat_{table_id}"


def secret_of(cookies: Mapping[str, str], table_id: str) -> str | None:
    """Return the table's secret this device holds, or None."""
    return cookies.get(secret_cookie(table_id)) or None


def seat_of(cookies: Mapping[str, str], table_id: str) -> int | None:
    """Return the seat this device's cookie names (the write checks it against the table), or None."""
    return seat_number(cookies.get(seat_cookie(table_id), ""))


def seat_number(raw: str) -> int | None:
    """Return a seat written as a short number of ASCII digits, else None (see short_number)."""
    return short_number(raw, 3)


def short_number(raw: str | None, most_digits: int) -> int | None:
    """Return `raw` as a number of at most `most_digits` ASCII digits, else None: "²" and "١" are
    digits to str.isdigit, and int() of 5,000 nines raises."""
    raw = raw or ""
    return int(raw) if raw.isascii() and raw.isdigit() and len(raw) <= most_digits else None


def screen_of(value: str | None) -> str | None:
    """Return the screen asked for (the first `screen` of the query, else of the form), trimmed."""
    value = (value or "").strip()
    return value[:40] or None


def live_tag(table_id: str, version: int) -> str:
    """Return the live region's validator: it changes exactly when the table's version does, and
    names the language it is drawn in (a phone that changed language never revalidates the other's)."""
    return f"{table_id}-{version}-{speech.language()}"


def version_number(raw: str | None) -> int | None:
    """Return a version a phone names (a stream's Last-Event-ID or ?v=), else None."""
    return short_number(raw, 15)


#: the request header naming the version a page shows, and the one naming the parts it holds drawn
#: otherwise (with a refusal's message: they are sent again, clean, with the next answer)
HAS, REDRAW = "X-Table-Has", "X-Table-Redraw"
#: the answer's headers: the version its parts show, and whether they are only some of its changes
VERSION, PARTIAL = "X-Table-Version", "X-Table-Partial"


def has_of(raw: str | None) -> int | None:
    """Return the version a page says it shows (X-Table-Has), else None (it then gets everything)."""
    return version_number(raw)


def redraw_of(raw: str | None) -> tuple[str, ...]:
    """Return the part ids an X-Table-Redraw header names (at most 50, each a plain id)."""
    ids = (raw or "").split()[:50]
    return tuple(i for i in ids if len(i) <= 64 and i.replace("-", "").replace("_", "").isalnum() and i.isascii())


def version_headers(version: int, partial: bool = False) -> tuple[tuple[str, str], ...]:
    """The headers of an answer whose parts show `version`."""
    return ((VERSION, str(version)), (PARTIAL, "1")) if partial else ((VERSION, str(version)),)


@dataclass(frozen=True)
class Poll:
    """A poll's answer: its validator, and whether the page shows the table as it is (304); else the
    caller draws the parts that changed."""

    tag: str
    unchanged: bool


def poll(db, table_id: str, secret: str | None, seen: Container[str], has: int | None = None) -> Poll:
    """Decide a poll's answer from the tags the phone has seen (its If-None-Match, parsed) or the
    version it shows (X-Table-Has).

    Raises tables.NotFound for an unknown table or a wrong secret, alike.
    """
    version = tables.version_if_authorized(db, table_id, secret)
    tag = live_tag(table_id, version)
    return Poll(tag, tag in seen or has == version)


def after_tap(tap: steppers.Tap, table: tables.Table, type_: str, data: Any, screen: str | None,
              update: Callable[[], str]) -> tuple[str, tuple[tuple[str, str], ...]]:
    """Return a written tap's answer and its headers: the stepper alone, else the parts that changed."""
    html = steppers.answer(tap, table, type_, data, screen)
    if html is not None:
        return html, version_headers(table.version, partial=True)
    return update(), version_headers(table.version)
