"""One render of a table's live region per version and screen, shared by every phone at the table.

After a change, each phone needs the parts of the live region that changed (parts.py), and
finding them needs the region drawn at the new version (3-5 ms to render on the larger games)
and the fingerprint of the one the phone shows. The region does not depend on which phone
asks: the device's seat is on the page's body and applied by static/js/seat.js
(templates/tables/table.html). So it is drawn once, by whatever needs it first after the change
(the push to the table's streams, push.py; a form's answer; a poll where a phone has no
stream), and everything after gets the same text (bench/README.md).

Kept per (table, screen, language): the newest version's region, cut into its parts (parts.Parts), and
the fingerprints of the VERSIONS_KEPT versions before it, so that a phone one or a few changes
behind gets only what changed; one further behind gets the whole region.

The key is the table, its version and the screen as the game reads it (Game.screen_of): the
version changes with every event, undo and rename, so a stale render is never served. Only the
newest version of each (table, screen) is rendered and kept, and the least recently used tables
are dropped past `size`.

A made-up `?screen=` is the game's main screen, one render for all (2,500 made-up screens once
took 150 MB when each was a render of its own). Each table keeps at most SCREENS_PER_TABLE
screens all the same, the least recently used dropped first: the phones at a table look at a
handful, and a game's own screens (Codex's pattern grids) are many.
"""

from __future__ import annotations

import threading
from collections import OrderedDict

from . import region
from .region import Parts

#: what a render is kept under beside its table: the screen as the game reads it (None: the main
#: one) and the language it is drawn in (web/tables.drawn_as)
Drawn = tuple[str | None, str]


class LiveCache:
    """Rendered live regions by (table id, screen), each cut into parts, with older fingerprints."""

    #: the most (screen, language) regions kept for one table (four phones, each on its own screen, in two languages, and some to spare)
    SCREENS_PER_TABLE = 16
    #: the older versions whose fingerprints are kept (a phone further behind gets the whole region)
    VERSIONS_KEPT = 8

    def __init__(self, size: int = 1000):
        self.size = size
        self._entries: OrderedDict[tuple[str, Drawn], Parts] = OrderedDict()
        self._older: dict[tuple[str, Drawn], OrderedDict[int, dict]] = {}
        self._screens: dict[str, OrderedDict[Drawn, None]] = {}  # each table's kept screens, oldest first
        self._lock = threading.Lock()
        self.hits = self.misses = 0  # for tests and benchmarks

    def __len__(self) -> int:
        return len(self._entries)

    def get(self, table_id: str, screen: Drawn, version: int) -> Parts | None:
        """Return the region rendered at this version, cut into parts, or None."""
        key = (table_id, screen)
        with self._lock:
            entry = self._entries.get(key)
            if entry is None or entry.version != version:
                self.misses += 1
                return None
            self._entries.move_to_end(key)
            self._screens[table_id].move_to_end(screen)
            self.hits += 1
            return entry

    def fingerprint(self, table_id: str, screen: Drawn, version: int) -> dict | None:
        """Return the fingerprint of the region at `version` (newest or one of the older kept), or None."""
        key = (table_id, screen)
        with self._lock:
            entry = self._entries.get(key)
            if entry is not None and entry.version == version:
                return entry.fingerprint
            return self._older.get(key, {}).get(version)

    def put(self, table_id: str, screen: Drawn, split: Parts) -> None:
        """Keep a render, unless a newer version of the same region is already kept."""
        key = (table_id, screen)
        with self._lock:
            entry = self._entries.get(key)
            if entry is not None and entry.version >= split.version:
                return
            screens = self._screens.setdefault(table_id, OrderedDict())
            if entry is None and len(screens) >= self.SCREENS_PER_TABLE:
                self._drop((table_id, next(iter(screens))))
            if entry is not None:
                older = self._older.setdefault(key, OrderedDict())
                older[entry.version] = entry.fingerprint
                while len(older) > self.VERSIONS_KEPT:
                    older.popitem(last=False)
            self._entries[key] = split
            self._entries.move_to_end(key)
            screens[screen] = None
            screens.move_to_end(screen)
            while len(self._entries) > self.size:
                self._drop(next(iter(self._entries)))

    def _drop(self, key: tuple[str, Drawn]) -> None:
        del self._entries[key]
        self._older.pop(key, None)
        screens = self._screens[key[0]]
        del screens[key[1]]
        if not screens:
            del self._screens[key[0]]

    def newest(self, table_id: str, screen: Drawn) -> Parts | None:
        """Return the newest region kept for the table and screen, whatever its version."""
        with self._lock:
            return self._entries.get((table_id, screen))

    def region(self, app, db, table, screen: Drawn) -> Parts:
        """Return the table's region at its version on `screen`: kept, else drawn from the newest
        kept (only the parts whose inputs changed are drawn: region.py) and kept."""
        found = self.get(table.id, screen, table.version)
        if found is not None:
            return found
        before = self.newest(table.id, screen)
        if before is not None and before.version > table.version:
            before = None  # the table went back (an undo read late): drawn whole, never kept
        key, lang = screen
        context = region.context_of(db, table, key)
        drawn = region.draw(app, table, key, lang, before, context)
        self.put(table.id, screen, drawn)
        return drawn

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()
            self._older.clear()
            self._screens.clear()
