"""Each server thread's own connection to the database, and each request's use of it.

`companion serve` runs every request in a greenlet of one thread (companion/serving.py), so its
requests share one connection. They take turns with it safely: nothing in a request yields to
another greenlet between a transaction's start and its end (SQLite's calls do not; only
network I/O does). Elsewhere (Flask's test client, a threaded server) each thread has its own.
"""

from __future__ import annotations

from flask import current_app, g

from .. import db as database


def thread_db(app):
    """Return the calling server thread's own connection to the app's database, opened on first use."""
    mine = app.extensions["companion.db"]
    if getattr(mine, "db", None) is None:
        mine.db = database.connect(app.config["DATABASE"], app.config["SYNC"])
    return mine.db


def get_db():
    """Return this request's database connection: the worker thread's own, opened on first use.

    Each server thread keeps its connection between requests: opening one costs its pragmas,
    and closing the last one checkpoints the WAL with fsyncs, which used to double the cost of
    every request (bench/README.md).
    """
    if "db" not in g:
        g.db = thread_db(current_app)
    return g.db


def close_db(_exc=None) -> None:
    """End the request's use of its connection; a transaction a failure left open is rolled back."""
    conn = g.pop("db", None)
    if conn is not None and conn.conn.in_transaction:
        conn.conn.execute("ROLLBACK")
