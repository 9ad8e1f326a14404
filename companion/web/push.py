"""Push each new version of a table to its phones as it is written (server-sent events).

A table page holds one stream open, `GET /t/ID/events` (the route is `tables.events`), through
htmx's SSE extension (static/vendor/). The stream sends the live region of each new version:
the same text a poll gets, from the same shared render (companion/web/live.py), cut by the
same `tables.update` (the parts changed since the version the phone names), so a stream and a
poll cannot disagree. An idle phone sends nothing
at all; it polls only while push is unavailable (static/js/push.js).

How a stream learns of a change: the Hub below watches the database, not the code that writes
it, so a write made by another process (`serve --workers`, the CLI) reaches every stream too.
One greenlet per process asks SQLite's `PRAGMA data_version` every TICK_S: a number that
changes whenever another connection has committed, read from shared memory without touching
the tables. Only when it changed, and an event was written since (the newest rowid of `events`:
a region kept by live.py commits too, and moves no table), does it read the versions of the
tables that have streams open, and wake the streams whose table moved. With no stream open it does not run.

This needs gevent (companion/serving.py): a stream is a greenlet that waits on a gevent
Event. Served any other way (Flask's test client, a debugger), there is no Hub and the route
answers 204: "no push here", on which the page polls.
"""

from __future__ import annotations

import sqlite3
import time
from itertools import islice
from typing import Iterator

import gevent
from gevent.event import AsyncResult, Event
from gevent.hub import Waiter

from ..clients import parked

#: seconds between two looks at the database while streams are open (a change reaches an
#: open stream within this, plus the render)
TICK_S = 0.02
#: seconds between two keep-alives on an idle stream: they find a phone that left (before each,
#: serving.py looks whether the phone closed its side, so its place is given back within this;
#: it was 10, and a write to a closed socket fails only the second time: 15 to 30 s), stay
#: under serving.IDLE_TIMEOUT_S, after which a silent connection is closed, and under a proxy's
#: read timeout (nginx's proxy_read_timeout is 60 s), and tell the page the server is there:
#: one that hears nothing for two of them says its table may be out of date (static/js/push.js;
#: a stalled server keeps its connections open). 200 idle phones write 40 a second.
KEEP_ALIVE_S = 5
#: a keep-alive: an event (a comment would reach no script), whose data is the seconds until the next
ALIVE = f"event: alive\ndata: {KEEP_ALIVE_S}\n\n".encode()
#: what the browser waits before it opens a stream that dropped again (the SSE `retry` field)
RETRY_MS = 1000
#: seconds a slice of the streams woken by a change may take before the loop answers other
#: requests (Hub._wake), and the most streams in a slice
SLICE_S = 0.01
SLICE_MOST = 200
#: seconds between two slices (a timer: see Hub._wake)
PAUSE_S = 0.0005
#: the (screen, language) pairs of one table brought up to date at every change, in each process:
#: the first opened (four phones in two languages on a screen or two); a stream on a further pair
#: is brought up to date at most every SPARE_PAIR_S, so that one guest holding streams on 200
#: pairs of one table costs a bounded drawing a second, not 200 a change (bench/guest.py)
LIVE_PAIRS = 8
SPARE_PAIR_S = 5.0
#: seconds a pair whose last stream closed keeps its place among its table's first pairs: a phone
#: that reopens its stream (a Wi-Fi blip, a phone woken) is not put behind pairs opened meanwhile
PAIR_GRACE_S = 60.0


class Hub:
    """The open streams of one process, and the greenlet that wakes them when their table changes.

    The answer to a change is computed once and shared: every stream of a table that holds the
    same version and asks for the same screen key gets the same bytes (`next`), from the first
    of them to ask, until the table moves again. And the streams are woken a slice at a time
    (`_wake`), so that a change on a table with thousands of phones does not hold up the rest
    of the process: between two slices the loop answers the other requests.
    """

    def __init__(self, database: str, tick: float = TICK_S):
        self.database = database
        self.tick = tick
        self.versions: dict[str, int] = {}  # table id -> the newest version seen, for tables with streams
        self.streams: dict[str, int] = {}  # table id -> how many streams are open on it
        self.parked: dict[str, dict[Waiter, None]] = {}  # table id -> the streams waiting for it to move
        #: table id -> {(screen key, version the stream holds): what it is sent}, until the table moves
        self.answers: dict[str, dict[tuple, tuple[int, bytes] | None]] = {}
        self.computed = 0  # answers computed, not shared (for tests and benchmarks)
        #: (table id, screen key, version) -> the answer one stream is computing, which the others wait for
        self.coming: dict[tuple, AsyncResult] = {}
        #: table id -> {screen key: its streams (or, closed, minus when: PAIR_GRACE_S)}, in the order first opened (LIVE_PAIRS)
        self.pairs: dict[str, dict] = {}
        #: (table id, screen key) -> when a spare pair was last brought up to date
        self.spare_at: dict[tuple, float] = {}
        #: a table new to the Hub: its version may have moved between its read and `open`, after the
        #: watcher last looked, so the next look reads the versions however little changed
        self.fresh = False
        self._watcher: gevent.Greenlet | None = None
        self._wake_up = Event()  # set when the first stream opens: the watcher runs only while there are some

    def open(self, table_id: str, version: int, key=None) -> None:
        """Count a stream on the table, which has shown `version`.

        Only the first stream of a table sets the version the Hub knows: a newer one read by a
        later stream is left for the watcher to find, which then wakes the table's streams and
        drops its stored answers. Raised here, the watcher would not count the table as moved,
        and its other streams would be handed the keep-alive stored for their old version, again
        and again, instead of the new one (tests/resilience/test_keep_alive_flood.py).
        """
        self.streams[table_id] = self.streams.get(table_id, 0) + 1
        pairs = self.pairs.setdefault(table_id, {})
        now = time.monotonic()
        for gone in [k for k, n in pairs.items() if n <= 0 and k != key and now + n > PAIR_GRACE_S]:
            del pairs[gone]  # closed longer than the grace: its place goes
            self.spare_at.pop((table_id, gone), None)
        pairs[key] = max(pairs.get(key, 0), 0) + 1
        if table_id not in self.versions:
            self.fresh = True  # the watcher reads the versions at its next look, whatever moved

        self.versions.setdefault(table_id, version)
        if self._watcher is None or self._watcher.dead:
            self._watcher = gevent.spawn(self._watch)
        self._wake_up.set()

    def close(self, table_id: str, key=None) -> None:
        """Forget a stream that ended."""
        pairs = self.pairs.get(table_id, {})
        if key in pairs:
            pairs[key] -= 1
            if pairs[key] <= 0:  # its place is kept for PAIR_GRACE_S (open drops it after)
                pairs[key] = -time.monotonic()
        left = self.streams.get(table_id, 0) - 1
        if left > 0:
            self.streams[table_id] = left
            return
        self.streams.pop(table_id, None)
        self.pairs.pop(table_id, None)
        self.versions.pop(table_id, None)
        self.spare_at = {k: v for k, v in self.spare_at.items() if k[0] != table_id}
        self.answers.pop(table_id, None)
        self.parked.pop(table_id, None)  # none left: each parked waiter is a stream counted above

    def wait(self, table_id: str, version: int, timeout: float) -> bool:
        """Wait until the table is seen past `version`, or timeout seconds; True if it moved."""
        if self.versions.get(table_id, -1) > version:
            return True
        waiter = Waiter()
        parked = self.parked.setdefault(table_id, {})
        parked[waiter] = None
        try:
            with gevent.Timeout(timeout, False):
                waiter.get()
        finally:
            parked.pop(waiter, None)  # timed out (or ended): no longer to be woken
        return self.versions.get(table_id, -1) > version

    def hold(self, table_id: str, key, version: int) -> None:
        """Wait, for a stream on a spare pair of its table (past the first LIVE_PAIRS opened), until
        that pair may be brought up to date again (SPARE_PAIR_S after the last time); at once where
        another stream of the pair has its answer already."""
        pairs = self.pairs.get(table_id, {})
        if key not in pairs or key in islice(pairs, LIVE_PAIRS):
            return
        if (key, version) in self.answers.get(table_id, {}) or (table_id, key, version) in self.coming:
            return
        last = self.spare_at.get((table_id, key))
        if last is not None:
            wait = last + SPARE_PAIR_S - time.monotonic()
            if wait > 0:
                gevent.sleep(wait)
        self.spare_at[(table_id, key)] = time.monotonic()

    def next(self, table_id: str, key, version: int, next_region) -> tuple[int, bytes] | None:
        """Return what a stream holding `version` of the table, on screen `key`, is sent next:
        (the version it then holds, the bytes: an event, or a keep-alive when nothing is newer),
        or None when the table is gone. Computed by `next_region` (see `stream`) once for all the
        streams that ask the same, while the table's version is unchanged.

        Sharing one stream's answer with the others is sound because each was authorized as it
        opened, and a table's secret never changes: what opened it for one opens it for all.
        """
        answers = self.answers.setdefault(table_id, {})
        if (key, version) in answers:
            return answers[(key, version)]
        coming = self.coming.get((table_id, key, version))
        if coming is not None:  # another stream is computing it (waiting for another process's drawing)
            return coming.get()
        self.computed += 1
        coming = self.coming[(table_id, key, version)] = AsyncResult()
        try:
            found = next_region(version)
            if found is None:
                answer = None
            else:
                newer, text = found
                answer = (version, ALIVE) if text is None else (newer, event(newer, text))
            if table_id in self.streams:  # a table forgotten meanwhile keeps nothing
                self.answers.setdefault(table_id, {})[(key, version)] = answer
            coming.set(answer)
        except BaseException as exc:
            coming.set_exception(exc)
            raise
        finally:
            self.coming.pop((table_id, key, version), None)
        return answer

    def _wake(self, moved) -> None:
        """Wake the streams of the tables that moved (or went), a slice at a time.

        gevent's Event.set would run every waiting stream in one of the loop's callbacks: the
        loop answers nothing else until the last stream of the table has written (5,000 streams
        held an unrelated tap for seconds). Here a slice of streams is put on the loop's queue,
        and this greenlet behind a timer of PAUSE_S: the slice runs, the loop looks at its
        sockets and serves what they brought (a tap on another table, a new connection's
        greenlet is queued) before the next slice. Not gevent.sleep(0), which queues this
        greenlet right behind the slice, in the same batch of callbacks (the loop looks at its
        sockets only every 50 callbacks, once 5 ms passed), nor gevent.idle(), which waits for
        an iteration with nothing pending and so waits for ever on a busy server. A slice is sized to take about SLICE_S: a stream's turn is a few
        microseconds when it shares an answer already made, and a whole render when it asks
        for a screen nobody else at the table shows.
        """
        loop = gevent.get_hub().loop
        size, woken = 1, 0
        # every moved table's stored answers go before the first pause: `_read_versions` raised
        # all their versions at once, and a stream of a table not yet reached that asks meanwhile
        # must compute its answer, not be handed the keep-alive stored for its old version
        for table_id in moved:
            self.answers.pop(table_id, None)
        for table_id in moved:
            for waiter in list(self.parked.pop(table_id, {})):
                loop.run_callback(waiter.switch, None)
                woken += 1
                if woken >= size:
                    began = time.perf_counter()
                    gevent.sleep(PAUSE_S)
                    took = time.perf_counter() - began
                    size, woken = max(1, min(SLICE_MOST, int(size * SLICE_S / max(took, 1e-5)))), 0

    def _watch(self) -> None:
        conn = sqlite3.connect(self.database, timeout=0.5)
        try:
            seen = last_event = None
            while True:
                if not self.streams:
                    self._wake_up.clear()
                    self._wake_up.wait()  # no stream open: nothing to look for
                    seen = last_event = None
                gevent.sleep(self.tick)
                try:
                    fresh, self.fresh = self.fresh, False
                    now = conn.execute("PRAGMA data_version").fetchone()[0]
                    if now == seen and not fresh:
                        continue
                    seen = now
                    # a table moves only with an event written (tables._write): a commit that wrote
                    # none (a region kept by live.py, a setting) needs no look at the tables
                    newest = conn.execute("SELECT max(rowid) FROM events").fetchone()[0]
                    if newest == last_event and not fresh:
                        continue
                    last_event = newest
                    moved = self._read_versions(conn)
                except sqlite3.Error:  # the disk, or a busy file: the streams' own polls see it; look again
                    seen = last_event = None
                    gevent.sleep(1)
                    continue
                self._wake(moved)
        finally:
            conn.close()

    def _read_versions(self, conn: sqlite3.Connection) -> list[str]:
        """Read the versions of the tables with streams; return those that moved or went."""
        ids = list(self.streams)
        moved = []
        for start in range(0, len(ids), 500):  # SQLite takes at most 999 parameters a statement
            part = ids[start:start + 500]
            marks = ",".join("?" * len(part))
            found = dict(conn.execute(f"SELECT id, version FROM tables WHERE id IN ({marks})", part).fetchall())
            for table_id in part:
                version = found.get(table_id)
                if version is None:  # gone from the file: its streams find out and end
                    moved.append(table_id)
                elif version > self.versions.get(table_id, -1):
                    self.versions[table_id] = version
                    moved.append(table_id)
        return moved


def enable(app) -> None:
    """Push to the app's table pages: called by `companion serve`, which serves with gevent.

    $COMPANION_PUSH_TICK_S sets the seconds between looks at the database (default TICK_S);
    a test slows it to have pushes arrive after the taps they follow. The streams one client
    address may hold open are capped (StreamLimit, `--stream-limit`).
    """
    from ..limits import client_cap
    from ..serving import env_seconds

    seconds = env_seconds("COMPANION_PUSH_TICK_S", TICK_S)
    app.extensions["companion.push"] = Hub(app.config["DATABASE"], seconds)
    most = client_cap(app.config, "STREAM_LIMIT")
    if most is not None:  # its refusal carries the headers every answer does, as the Host check's does
        app.wsgi_app = StreamLimit(app.wsgi_app, most, app.extensions["companion.headers"])


#: seconds a refused stream is told to wait before it asks again (Retry-After)
REFUSED_RETRY_S = 30
#: what a stream past its address's cap is answered (docs/CONTRACT.md)
REFUSED = ("this network holds as many live streams as one address may (companion serve --stream-limit):"
           " the page checks for changes every second instead\n").encode()


class StreamLimit:
    """WSGI middleware: at most `most` open event streams per client address, past which 429.

    Outermost, around the Host check and werkzeug's ProxyFix: the app's answer says whether it
    is an event stream (its Content-Type), and the address is read once the app has answered,
    when ProxyFix has put the one the trusted proxy forwarded in REMOTE_ADDR (it sets the
    environ it is given). A stream past the cap is closed before its first byte, so it never
    counts on its table (Hub.open runs at its first), and the phone is answered 429 with
    Retry-After: its browser's EventSource fails, and the page polls (static/js/push.js) while
    htmx's SSE extension tries the stream again, less and less often (at most every 64 s).
    A stream is counted until the server closes its answer (a phone that left: serving.py).
    """

    def __init__(self, wsgi_app, most: int, headers=()):
        from ..limits import Held

        self.wsgi_app = wsgi_app
        self.headers = list(headers)
        self.open = Held(most)  # the event streams each client address holds open

    def __call__(self, environ, start_response):
        started: list = []
        body = self.wsgi_app(environ, lambda status, headers, exc_info=None: started.append((status, headers, exc_info)))
        if not started:  # a streaming app that starts its answer later: not one of ours
            return body
        status, headers, exc_info = started[0]
        if not (status.startswith("200") and any(name.lower() == "content-type" and value.startswith("text/event-stream")
                                                  for name, value in headers)):
            start_response(status, headers, exc_info)
            return body
        address = environ.get("REMOTE_ADDR") or ""
        if not self.open.take(address):
            if hasattr(body, "close"):
                body.close()
            start_response("429 Too Many Requests", [
                ("Content-Type", "text/plain; charset=utf-8"), ("Content-Length", str(len(REFUSED))),
                ("Retry-After", str(REFUSED_RETRY_S)), ("Cache-Control", "no-store"), *self.headers])
            return [REFUSED]
        start_response(status, headers, exc_info)
        return _Counted(body, lambda: self.open.give_back(address))


class _Counted:
    """A stream's answer, which gives its place back when the server closes it."""

    def __init__(self, body, release):
        self.body = body
        self.release = release

    def __iter__(self):
        return iter(self.body)

    def close(self) -> None:
        try:
            if hasattr(self.body, "close"):
                self.body.close()
        finally:
            self.release()


def event(version: int, html: str) -> bytes:
    """Return one server-sent event carrying a live region: its id is the version it shows."""
    data = "".join(f"data: {line}\n" for line in html.strip().split("\n"))
    return f"id: {version}\nevent: live\n{data}\n".encode()


def stream(hub: Hub, table_id: str, version: int, first: str | None, next_region, key=None) -> Iterator[bytes]:
    """Yield a stream's bytes: the retry delay, the region the phone lacks, then each new version.

    `version` is the table's version as the stream opens; `first` its region, when the phone
    holds an older one (None if it is current). `next_region(version)` returns (version,
    region) newer than `version`, (version, None) if there is none, or None when the table is
    gone or the secret no longer opens it. `key` names what the stream shows (its screen): the
    streams of a table with the same key and version share one call of `next_region` (Hub.next).
    """
    hub.open(table_id, version, key)
    try:
        yield f"retry: {RETRY_MS}\n\n".encode() + ALIVE  # the page learns the cadence at once
        if first is not None:
            yield event(version, first)
        while True:
            with parked():  # the fair pool may close a stream while it waits (companion/clients.py)
                woke = hub.wait(table_id, version, KEEP_ALIVE_S)
            if woke:
                hub.hold(table_id, key, version)  # a spare pair: brought up to date every SPARE_PAIR_S
            found = hub.next(table_id, key, version, next_region)
            if found is None:
                return  # gone: the browser opens the stream again, and gets 404, on which the page polls
            version, data = found
            yield data
    finally:
        hub.close(table_id, key)
