"""A table's live region drawn once per version, screen and language, for every process, and kept.

After a change each phone needs the parts of the region that changed since the version it
shows. The region is the same for every phone (the device's seat is on the page's body, applied
by static/js/seat.js), so it is drawn once per version for each (screen, language) some phone
reads, and every phone, stream and process gets the same text:

- **Drawn a part at a time** (region.py): from the version before, only the parts whose inputs
  changed run their templates.
- **Kept in SQLite beside the events** (migration 0004_regions), so that a second process
  (`serve --workers`) reads what the first drew instead of drawing it again. `serve` with one
  process (SHARED_REGIONS off) keeps them in its memory alone: nobody else would read them. A version's row in
  `region_versions` names each of its parts by id and *ref* (its inputs' key, or the hash of its
  text for a part drawn every time), with its fingerprint; the parts' text is in `region_parts`
  under (id, ref): a part unchanged since the version before is not written again.
- **Claimed before it is drawn**: the process that first needs a version inserts its row empty
  (`INSERT OR IGNORE`), draws it and fills it in; another that needs it meanwhile waits for it
  (CLAIM_WAIT_S), then draws it alone, unkept, if it never comes. A claim older than CLAIM_S
  is taken over (its process stopped). Each row counts the drawings made of it (`draws`):
  tests/foundation/test_region_workers.py checks that two workers draw each version once.
- **Remembered in memory too** (`LiveCache`): each process keeps the newest region of each
  (table, screen, language) it serves and the fingerprints of VERSIONS_KEPT versions before it,
  so a phone one or a few changes behind gets only what changed; one further behind gets the
  whole region.

This store is the seam a PostgreSQL version would replace (docs/scaling.md): the rows are plain,
and the claim is one INSERT.

A made-up `?screen=` is the game's main screen (Game.screen_of): one drawing for all. Each table
keeps at most SCREENS_PER_TABLE (screen, language) regions in memory, the least recently used
dropped first.
"""

from __future__ import annotations

import json
import os
import sqlite3
import threading
import time
from collections import OrderedDict

from ..games import speech
from ..db import BUSY_TIMEOUT_MS
from . import region
from .region import Drawn, Parts

#: what a drawing of the region is kept under beside its table: the screen as the game reads it
#: (None: the main one) and the language it is drawn in (web/tables.drawn_as)
DrawnAs = tuple[str | None, str]
#: seconds after which a claim with no region is taken over by another process
CLAIM_S = 2.0
#: seconds a process waits for the region another one claimed, before it draws it alone
CLAIM_WAIT_S = 0.5
#: seconds between two looks at a claimed region while waiting
CLAIM_LOOK_S = 0.005


def drawn_key(drawn: DrawnAs) -> str:
    """A (screen, language) as the region tables store it: "screen|lang" ("|en" for the main screen)."""
    return f"{drawn[0] or ''}|{drawn[1]}"


class LiveCache:
    """Drawn regions by (table id, (screen, language)), with older fingerprints; and the SQLite store."""

    #: the most (screen, language) regions kept for one table (four phones, each on its own screen, in two languages, and some to spare)
    SCREENS_PER_TABLE = 16
    #: the older versions whose fingerprints are kept (a phone further behind gets the whole region)
    VERSIONS_KEPT = 8

    def __init__(self, size: int = 1000):
        self.size = size
        self._entries: OrderedDict[tuple[str, DrawnAs], Parts] = OrderedDict()
        self._older: dict[tuple[str, DrawnAs], OrderedDict[int, dict]] = {}
        self._screens: dict[str, OrderedDict[DrawnAs, None]] = {}  # each table's kept screens, oldest first
        self._lock = threading.Lock()
        self.hits = self.misses = 0  # for tests and benchmarks
        self.drawn = self.read = 0  # regions this process drew, and read from the store another drew
        self.stored = 0  # regions this process drew and stored
        self._swept: dict[tuple[str, DrawnAs], int] = {}  # (table, screen) -> the SWEEP_EVERY bucket last swept
        #: (table, screen) -> (when, the version, its (part, ref)): the last this process stored or read
        self._known: dict[tuple[str, DrawnAs], tuple[float, int, set]] = {}

    def __len__(self) -> int:
        return len(self._entries)

    def get(self, table_id: str, screen: DrawnAs, version: int) -> Parts | None:
        """Return the region drawn at this version, or None."""
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

    def newest(self, table_id: str, screen: DrawnAs) -> Parts | None:
        """Return the newest region kept in memory for the table and screen, whatever its version."""
        with self._lock:
            return self._entries.get((table_id, screen))

    def fingerprint(self, table_id: str, screen: DrawnAs, version: int) -> dict | None:
        """Return the fingerprint of the region at `version` kept in memory (newest or older), or None."""
        key = (table_id, screen)
        with self._lock:
            entry = self._entries.get(key)
            if entry is not None and entry.version == version:
                return entry.fingerprint
            return self._older.get(key, {}).get(version)

    def put(self, table_id: str, screen: DrawnAs, found: Parts) -> None:
        """Keep a region, unless a newer version of the same region is already kept."""
        key = (table_id, screen)
        with self._lock:
            entry = self._entries.get(key)
            if entry is not None and entry.version >= found.version:
                return
            screens = self._screens.setdefault(table_id, OrderedDict())
            if entry is None and len(screens) >= self.SCREENS_PER_TABLE:
                self._drop((table_id, next(iter(screens))))
            if entry is not None:
                older = self._older.setdefault(key, OrderedDict())
                older[entry.version] = entry.fingerprint
                while len(older) > self.VERSIONS_KEPT:
                    older.popitem(last=False)
            self._entries[key] = found
            self._entries.move_to_end(key)
            screens[screen] = None
            screens.move_to_end(screen)
            while len(self._entries) > self.size:
                self._drop(next(iter(self._entries)))

    def _drop(self, key: tuple[str, DrawnAs]) -> None:
        del self._entries[key]
        self._older.pop(key, None)
        screens = self._screens[key[0]]
        del screens[key[1]]
        if not screens:
            del self._screens[key[0]]

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()
            self._older.clear()
            self._screens.clear()

    # --- every process: the store in SQLite ------------------------------------------------------

    def region(self, app, db, table, screen: DrawnAs) -> Parts:
        """Return the table's region at its version on `screen` (a screen key and a language): from
        memory, else from the store, else drawn here (claimed first) from the newest version before
        it, and stored for the other processes."""
        found = self.get(table.id, screen, table.version)
        if found is not None:
            return found
        shared = app.config.get("SHARED_REGIONS", True)  # off: `serve` alone, nobody else to draw for
        if shared:
            try:
                return self._kept_or_drawn(app, db, table, screen)
            except sqlite3.Error:  # a full or read-only disk, a busy file: drawn here, not kept for the others
                pass
        return self._draw(app, db, table, screen, keep=False, shared=shared)

    def _kept_or_drawn(self, app, db, table, screen: DrawnAs) -> Parts:
        where = (table.id, drawn_key(screen), table.version)
        deadline = time.monotonic() + CLAIM_WAIT_S
        while True:
            row = db.execute("SELECT refs, claimed_at FROM region_versions WHERE table_id = ? AND drawn_as = ? AND version = ?",
                             where).fetchone()
            if row is not None and row[0] is not None:
                found = self._load(db, table.id, screen, table.version, row[0])
                if found is None:  # its parts were dropped meanwhile: drawn alone
                    return self._draw(app, db, table, screen, keep=False)
                self.read += 1
                self.put(table.id, screen, found)
                self._remember(table.id, screen, found)
                return found
            if row is None or (row[0] is None and time.time() - row[1] > CLAIM_S):
                if _briefly(db, lambda: _claim(db, where, row)):
                    return self._draw(app, db, table, screen, keep=True)
                continue  # another process claimed it between the two statements
            if time.monotonic() > deadline:
                return self._draw(app, db, table, screen, keep=False)  # never came: drawn alone, unkept
            _pause(CLAIM_LOOK_S)

    def _draw(self, app, db, table, screen: DrawnAs, keep: bool, shared: bool = True) -> Parts:
        """Draw the region from the newest kept before it; keep it in memory, and in the store if
        this process claimed it. A drawing the store cannot take is still answered and remembered."""
        before = self.newest(table.id, screen)
        if shared and (before is None or before.version >= table.version):
            try:
                before = self._newest_stored(db, table.id, screen, table.version)
            except sqlite3.Error:
                before = None
        key, lang = screen
        with speech.speaking(lang):  # the history and the view's words, in the language drawn
            context = region.context_of(db, table, key)
        drawn = region.draw(app, table, key, lang, before, context)
        self.drawn += 1
        self.put(table.id, screen, drawn)
        if not shared:
            return drawn
        where = (table.id, drawn_key(screen), table.version)
        try:
            if keep:
                known = self._known_refs(table.id, screen, drawn.version)
                _briefly(db, lambda: _store(db, table.id, drawn_key(screen), drawn, self._sweep_due(table.id, screen, drawn.version),
                                            known))
                self._remember(table.id, screen, drawn)
                self.stored += 1
                if self.stored % FORGET_EVERY == 0:
                    self._known.clear()  # the forgetting may drop what it knew
                    _briefly(db, lambda: forget_idle(db))
            else:
                _briefly(db, lambda: db.execute("UPDATE region_versions SET draws = draws + 1 WHERE table_id = ? AND drawn_as = ?"
                                                " AND version = ?", where))
        except sqlite3.Error:  # not kept (the disk, a busy file): the phone still gets what was drawn
            if keep:  # our claim goes, so that no process waits for it
                try:
                    _briefly(db, lambda: db.execute("DELETE FROM region_versions WHERE table_id = ? AND drawn_as = ? AND version = ?"
                                                    " AND refs IS NULL AND claimed_by = ?", [*where, os.getpid()]))
                except sqlite3.Error:
                    pass
        return drawn

    def _known_refs(self, table_id: str, screen: DrawnAs, version: int) -> set | None:
        """The (part, ref) of the last version this process stored or read for the table and screen,
        which the store still holds: that version is still kept (so none of its parts was swept),
        and it was within KNOWN_S (so the table was not forgotten since); else None."""
        found = self._known.get((table_id, screen))
        if found is None:
            return None
        when, then, refs = found
        return refs if time.monotonic() - when < KNOWN_S and version - then <= self.VERSIONS_KEPT else None

    def _remember(self, table_id: str, screen: DrawnAs, found: Parts) -> None:
        """Note the parts of a version this process stored or read, as in the store."""
        if len(self._known) > 10 * self.size:
            self._known.clear()
        refs = {(pid, d.key if d.key is not None else "=" + d.own_hash) for pid, d in found.parts.items()}
        self._known[(table_id, screen)] = (time.monotonic(), found.version, refs)

    def _sweep_due(self, table_id: str, screen: DrawnAs, version: int) -> bool:
        """True once every SWEEP_EVERY versions of a (table, screen, language) this process stores,
        whichever versions they are."""
        bucket = version // SWEEP_EVERY
        key = (table_id, screen)
        if self._swept.get(key) == bucket:
            return False
        if len(self._swept) > 10 * self.size:
            self._swept.clear()
        self._swept[key] = bucket
        return True

    def _newest_stored(self, db, table_id: str, screen: DrawnAs, below: int) -> Parts | None:
        row = db.execute("SELECT version, refs FROM region_versions WHERE table_id = ? AND drawn_as = ? AND version < ?"
                         " AND refs IS NOT NULL ORDER BY version DESC LIMIT 1", [table_id, drawn_key(screen), below]).fetchone()
        return self._load(db, table_id, screen, row[0], row[1]) if row else None

    def _load(self, db, table_id: str, screen: DrawnAs, version: int, refs_json: str) -> Parts | None:
        """A stored version's region: its parts as this process holds them where their refs match
        (its newest region in memory), the others read by (id, ref); None if one is missing."""
        doc = json.loads(refs_json)
        refs: dict[str, str] = doc["refs"]
        held = self.newest(table_id, screen)
        parts, missing = {}, []
        for pid, ref in refs.items():
            mine = held.parts.get(pid) if held is not None else None
            if mine is not None and (mine.key if mine.key is not None else "=" + mine.own_hash) == ref:
                parts[pid] = mine
            else:
                missing.append((pid, ref))
        for pid, ref in missing:
            row = db.execute("SELECT own, children FROM region_parts WHERE table_id = ? AND drawn_as = ? AND part = ? AND ref = ?",
                             [table_id, drawn_key(screen), pid, ref]).fetchone()
            if row is not None:
                parts[pid] = Drawn(None if ref.startswith("=") else ref, row[0], region.digest(row[0]), tuple(json.loads(row[1])))
        if len(parts) != len(refs):
            return None
        return Parts(version, doc["root"], parts)

    def fingerprint_of(self, db, table_id: str, screen: DrawnAs, version: int) -> dict | None:
        """Return the fingerprint of the region at `version`: from memory, else from the store, else None."""
        found = self.fingerprint(table_id, screen, version)
        if found is not None:
            return found
        row = db.execute("SELECT refs FROM region_versions WHERE table_id = ? AND drawn_as = ? AND version = ?",
                         [table_id, drawn_key(screen), version]).fetchone()
        if row is None or row[0] is None:
            return None
        older = self._load(db, table_id, screen, version, row[0])
        return older.fingerprint if older is not None else None


#: the busy timeout of the store's writes, in ms: a write that finds the file locked by another
#: process fails at once and is tried again after a pause that lets the process's other greenlets
#: run (SQLite's own wait sleeps in C, where gevent cannot switch: the whole process would stop)
BRIEF_BUSY_MS = 0
#: how many times, and seconds apart, a store's write finding the file locked is tried
BRIEF_TRIES, BRIEF_PAUSE_S = 20, 0.002


def _briefly(db, write):
    """Run one of the store's writes without waiting on SQLite's lock inside C: tried again after a
    gevent pause while another process holds the file; sqlite3.Error after BRIEF_TRIES."""
    for attempt in range(BRIEF_TRIES):
        db.execute(f"PRAGMA busy_timeout = {BRIEF_BUSY_MS}")
        try:
            return write()
        except sqlite3.OperationalError as exc:
            if "locked" not in str(exc) and "busy" not in str(exc):
                raise
        finally:  # the connection is the process's: its other writes wait as ever
            db.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
        if attempt + 1 < BRIEF_TRIES:
            _pause(BRIEF_PAUSE_S)
    raise sqlite3.OperationalError("database is locked")


def _pause(seconds: float) -> None:
    """Wait without holding up the process's other greenlets (gevent's sleep where it serves)."""
    try:
        import gevent

        gevent.sleep(seconds)
    except ImportError:  # pragma: no cover - gevent is a dependency
        time.sleep(seconds)


def _claim(db, where: tuple, row) -> bool:
    """Claim the drawing of a version's region: True if this process is to draw it."""
    now = time.time()
    if row is None:
        done = db.execute("INSERT OR IGNORE INTO region_versions (table_id, drawn_as, version, claimed_by, claimed_at, draws)"
                          " VALUES (?, ?, ?, ?, ?, 0)", [*where, os.getpid(), now])
    else:  # a stale claim, taken over unless another process took it first
        done = db.execute("UPDATE region_versions SET claimed_by = ?, claimed_at = ? WHERE table_id = ? AND drawn_as = ?"
                          " AND version = ? AND refs IS NULL AND claimed_at = ?", [os.getpid(), now, *where, row[1]])
    return done.rowcount == 1


#: seconds for which a process takes the parts of the last version it stored or read as still in
#: the store (a part a kept version names is never swept; a table is forgotten only after IDLE_S)
KNOWN_S = 600
#: every this many regions a process stores, it drops the regions of tables idle IDLE_S
FORGET_EVERY = 1000
#: every this many versions of a (table, screen, language), the parts no kept version names are dropped
SWEEP_EVERY = 16


def _store(db, table_id: str, drawn_as: str, found: Parts, sweep: bool, known: set | None = None) -> None:
    """Keep a drawn version: its parts (those already kept are passed over), its refs and
    fingerprint; drop the versions past those kept, and with `sweep` the parts none names.

    Every part is offered but those `known` to be stored (the last version this process stored or
    read, still kept: LiveCache._known_refs), not only those drawn at this version: a part taken
    from this process's memory may be gone from the store (an idle table forgotten, a store that
    failed, a value come back to one swept since)."""
    refs = {pid: (d.key if d.key is not None else "=" + d.own_hash) for pid, d in found.parts.items()}
    new = [(table_id, drawn_as, pid, refs[pid], d.own, json.dumps(d.children)) for pid, d in found.parts.items()
           if known is None or (pid, refs[pid]) not in known]
    doc = json.dumps({"root": found.root, "refs": refs}, separators=(",", ":"))
    oldest = found.version - LiveCache.VERSIONS_KEPT
    db.execute("BEGIN IMMEDIATE")
    try:
        db.conn.executemany("INSERT OR IGNORE INTO region_parts (table_id, drawn_as, part, ref, own, children)"
                            " VALUES (?, ?, ?, ?, ?, ?)", new)
        db.execute("UPDATE region_versions SET refs = ?, draws = draws + 1 WHERE table_id = ? AND drawn_as = ? AND version = ?",
                   [doc, table_id, drawn_as, found.version])
        db.execute("DELETE FROM region_versions WHERE table_id = ? AND drawn_as = ? AND version < ?", [table_id, drawn_as, oldest])
        if sweep:
            _sweep(db, table_id, drawn_as)
        db.execute("COMMIT")
    except BaseException:
        db.execute("ROLLBACK")
        raise


def _sweep(db, table_id: str, drawn_as: str) -> None:
    """Drop the parts of a (table, screen, language) that no kept version names."""
    named = set()
    for (refs,) in db.execute("SELECT refs FROM region_versions WHERE table_id = ? AND drawn_as = ? AND refs IS NOT NULL",
                              [table_id, drawn_as]).fetchall():
        named.update(json.loads(refs)["refs"].items())
    rows = db.execute("SELECT part, ref FROM region_parts WHERE table_id = ? AND drawn_as = ?", [table_id, drawn_as]).fetchall()
    gone = [(table_id, drawn_as, p, r) for p, r in rows if (p, r) not in named]
    db.conn.executemany("DELETE FROM region_parts WHERE table_id = ? AND drawn_as = ? AND part = ? AND ref = ?", gone)


#: seconds after its last drawing when a table's kept regions are dropped (they are a cache: a
#: phone that comes back later gets its region drawn again)
IDLE_S = 3600


def forget_idle(db, now: float | None = None) -> int:
    """Drop the kept regions of every table none was drawn for in IDLE_S; return how many tables."""
    before = (now if now is not None else time.time()) - IDLE_S
    idle = [row[0] for row in db.execute("SELECT table_id FROM region_versions GROUP BY table_id HAVING max(claimed_at) < ?",
                                         [before]).fetchall()]
    for table_id in idle:
        db.execute("BEGIN IMMEDIATE")
        try:
            db.execute("DELETE FROM region_parts WHERE table_id = ?", [table_id])
            db.execute("DELETE FROM region_versions WHERE table_id = ?", [table_id])
            db.execute("COMMIT")
        except BaseException:
            db.execute("ROLLBACK")
            raise
    return len(idle)
