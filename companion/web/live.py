"""One render of a table's live region per version and screen, shared by every phone at the table.

After a change, each phone's next poll gets the whole live region (3-5 ms to render on the
larger games). The region does not depend on which phone asks: the device's seat is on the
page around it and applied by static/js/seat.js (templates/tables/table.html). So the first poll after a
change renders it and the table's other phones get the same text (bench/README.md).

The key is the table, its version and the screen asked for: the version changes with every
event, undo and rename, so a stale render is never served. Only the newest version of each
(table, screen) is kept, and the least recently used tables are dropped past `size`.

A screen is whatever `?screen=` says, and the games take an unknown one for their main
screen, so a client could ask for thousands of them (2,500 made-up screens once took 150 MB).
So each table keeps at most SCREENS_PER_TABLE screens, the least recently used dropped first:
the phones at a table look at a handful.
"""

from __future__ import annotations

import threading
from collections import OrderedDict


class LiveCache:
    """Rendered live regions by (table id, screen), each with the version it shows."""

    #: the most screens kept for one table (four phones, each on its own screen, and some to spare)
    SCREENS_PER_TABLE = 8

    def __init__(self, size: int = 1000):
        self.size = size
        self._entries: OrderedDict[tuple[str, str | None], tuple[int, str]] = OrderedDict()
        self._screens: dict[str, OrderedDict[str | None, None]] = {}  # each table's kept screens, oldest first
        self._lock = threading.Lock()
        self.hits = self.misses = 0  # for tests and benchmarks

    def __len__(self) -> int:
        return len(self._entries)

    def get(self, table_id: str, screen: str | None, version: int) -> str | None:
        """Return the region rendered at this version, or None."""
        key = (table_id, screen)
        with self._lock:
            entry = self._entries.get(key)
            if entry is None or entry[0] != version:
                self.misses += 1
                return None
            self._entries.move_to_end(key)
            self._screens[table_id].move_to_end(screen)
            self.hits += 1
            return entry[1]

    def put(self, table_id: str, screen: str | None, version: int, html: str) -> None:
        """Keep a render, unless a newer version of the same region is already kept."""
        key = (table_id, screen)
        with self._lock:
            entry = self._entries.get(key)
            if entry is not None and entry[0] > version:
                return
            screens = self._screens.setdefault(table_id, OrderedDict())
            if entry is None and len(screens) >= self.SCREENS_PER_TABLE:
                self._drop((table_id, next(iter(screens))))
            self._entries[key] = (version, html)
            self._entries.move_to_end(key)
            screens[screen] = None
            screens.move_to_end(screen)
            while len(self._entries) > self.size:
                self._drop(next(iter(self._entries)))

    def _drop(self, key: tuple[str, str | None]) -> None:
        del self._entries[key]
        screens = self._screens[key[0]]
        del screens[key[1]]
        if not screens:
            del self._screens[key[0]]

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()
            self._screens.clear()
