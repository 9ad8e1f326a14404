"""`GET /healthz`: is this server fit to take taps? For Caddy's health check, systemd's watchers, a monitor.

200 `{"status": "ok"}` when the data folder's database file answers a query and every migration
this code knows (companion/db.py MIGRATIONS) is recorded in it; 503 `{"status": "unavailable",
"error": WHY}` otherwise: the file is gone, is no database, or holds an older schema (an old
backup put in place under a running server; a restart, or `companion init-db`, migrates it).

Each check opens the file afresh, read-only (`mode=ro`, so a missing file is never made anew),
reads the migrations table and closes it: the server's own connection would keep answering from
a file that was deleted or replaced under it. It costs a few hundred microseconds, fine for a
proxy polling every few seconds. The answer is never cached (`no-store`), sets no cookie, and
names no path or key: anyone who reaches the server may ask. It passes the Host check like every
other path, so it answers for every name the app accepts (Caddy's check comes as 127.0.0.1:PORT).

When the forwarding hops requests arrive with do not fit `--proxy` (companion/web/forwarded.py),
the body also carries `"proxy": {"trusted": N, "seen": M, "warning": WORDS}`. The status stays as
the database says: a wrong count is a warning for the operator, not an outage.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

from flask import Blueprint, current_app, jsonify

from .. import db as database

bp = Blueprint("health", __name__)

#: seconds the check waits for a lock (a WAL reader rarely waits at all); a proxy's check gives up after 5
BUSY_TIMEOUT_S = 2


def missing_migrations(path: str | Path) -> list[str]:
    """Return the code's migrations the database file has not applied, oldest first.

    Raises sqlite3.Error when the file cannot be opened or read as the app's database.
    """
    uri = f"{Path(path).resolve().as_uri()}?mode=ro"
    conn = sqlite3.connect(uri, uri=True, timeout=BUSY_TIMEOUT_S)
    try:
        applied = {row[0] for row in conn.execute("SELECT name FROM _migrations")}
    finally:
        conn.close()
    return [name for name, _ in database.MIGRATIONS if name not in applied]


def problem(path: str | Path) -> str | None:
    """Return why the database is unfit, in words for the operator, or None when it is fine."""
    try:
        missing = missing_migrations(path)
    except sqlite3.Error as exc:
        # SQLite's own words ("unable to open database file", "file is not a database") name no path
        return f"the database does not answer: {exc}"
    if missing:
        return f"the database's schema is older than the app's: not applied {', '.join(missing)} (restart the server to migrate it)"
    return None


@bp.get("/healthz")
def healthz():
    """200 or 503, never cached, no cookie (see the module)."""
    why = problem(current_app.config["DATABASE"])
    body = {"status": "ok"} if why is None else {"status": "unavailable", "error": why}
    hops = current_app.extensions.get("companion.hops")
    if hops is not None and hops.verdict is not None:
        body["proxy"] = hops.verdict
    response = jsonify(body)
    response.status_code = 200 if why is None else 503
    response.headers["Cache-Control"] = "no-store"
    return response
