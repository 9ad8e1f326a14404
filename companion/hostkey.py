"""The host key: what lets a device see every play in the archive (the host's own browser too).

`companion serve` prints it with the address (as a link that hands it to the device that opens
it; the host's own browser opens it too: no address grants anything), and keeps that address
(`remember_address`) so that `companion host-key` prints the same link. It is made once per data
folder, kept in the database's `settings` table, and survives restarts and backups.
`companion host-key --new` replaces it (`new_host_key`): every request reads the key from the
file, so from then on the old key grants nothing, on a running server too, whether it comes
from an old link, a device's cookie or an old backup. Plain Python: the archive pages and the
command line share it.
"""

from __future__ import annotations

import hmac
import secrets
from urllib.parse import quote

import sqlite_utils

KEY_BYTES = 16  # token_urlsafe(16): 128 bits
NAME = "host_key"
#: the settings row holding the address the last `companion serve` printed (phones open it, and the host's link names it)
ADDRESS = "served_at"


def host_key(db: sqlite_utils.Database) -> str:
    """Return the data folder's host key, making it on first use."""
    row = db.execute("SELECT value FROM settings WHERE name = ?", [NAME]).fetchone()
    if row is not None:
        return row[0]
    db.execute("INSERT OR IGNORE INTO settings (name, value) VALUES (?, ?)", [NAME, secrets.token_urlsafe(KEY_BYTES)])
    return db.execute("SELECT value FROM settings WHERE name = ?", [NAME]).fetchone()[0]


def is_host_key(db: sqlite_utils.Database, candidate: object) -> bool:
    """True when `candidate` is the host key (compared in constant time)."""
    return isinstance(candidate, str) and bool(candidate) and hmac.compare_digest(candidate.encode(), host_key(db).encode())


def new_host_key(db: sqlite_utils.Database) -> str:
    """Replace the data folder's host key with a new random one and return it; the old one grants nothing after."""
    key = secrets.token_urlsafe(KEY_BYTES)
    db.execute("INSERT INTO settings (name, value) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET value = excluded.value",
               [NAME, key])
    return key


def archive_path(key: str) -> str:
    """The plays archive's address with the key, after the server's address (which ends in /): the key is in the fragment."""
    return f"plays#key={quote(key, safe='')}"


def archive_line(url: str, key: str) -> str:
    """The line that hands the host key to the host's devices (its own browser too): the plays archive with every play."""
    return f"Plays archive, every play (your own devices alone, this one too): {url}{archive_path(key)}"


def remember_address(db: sqlite_utils.Database, url: str) -> None:
    """Keep the address `companion serve` printed (ending in /), for `companion host-key` to print the same link."""
    db.execute("INSERT INTO settings (name, value) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET value = excluded.value",
               [ADDRESS, url])


def served_address(db: sqlite_utils.Database) -> str | None:
    """The address the last `companion serve` on this data folder printed; None if none has started."""
    row = db.execute("SELECT value FROM settings WHERE name = ?", [ADDRESS]).fetchone()
    return row[0] if row else None
