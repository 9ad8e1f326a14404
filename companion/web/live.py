"""One render of a table's live region per version and screen, shared by every phone at the table.

After a change, each phone's next poll gets the whole live region (3-5 ms to render on the
larger games). The region does not depend on which phone asks: the device's seat is on the
page around it and applied by app.js (templates/tables/table.html). So the first poll after a
change renders it and the table's other phones get the same text (bench/README.md).

The key is the table, its version and the screen asked for: the version changes with every
event, undo and rename, so a stale render is never served. Only the newest version of each
(table, screen) is kept, and the least recently used tables are dropped past `size`.
"""

from __future__ import annotations

import threading
from collections import OrderedDict


class LiveCache:
    """Rendered live regions by (table id, screen), each with the version it shows."""

    def __init__(self, size: int = 1000):
        self.size = size
        self._entries: OrderedDict[tuple[str, str | None], tuple[int, str]] = OrderedDict()
        self._lock = threading.Lock()
        self.hits = self.misses = 0  # for tests and benchmarks

    def get(self, table_id: str, screen: str | None, version: int) -> str | None:
        """Return the region rendered at this version, or None."""
        key = (table_id, screen)
        with self._lock:
            entry = self._entries.get(key)
            if entry is None or entry[0] != version:
                self.misses += 1
                return None
            self._entries.move_to_end(key)
            self.hits += 1
            return entry[1]

    def put(self, table_id: str, screen: str | None, version: int, html: str) -> None:
        """Keep a render, unless a newer version of the same region is already kept."""
        key = (table_id, screen)
        with self._lock:
            entry = self._entries.get(key)
            if entry is not None and entry[0] > version:
                return
            self._entries[key] = (version, html)
            self._entries.move_to_end(key)
            while len(self._entries) > self.size:
                self._entries.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()
