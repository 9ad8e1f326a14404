"""The JSON API of CONTRACT.md: tables, their events, and every game's rules functions."""

from __future__ import annotations

import json

from flask import Blueprint, jsonify, request

from .. import profiles, rematch, results, rules, tables
from ..games.validation import RulesError, no_lone_surrogates
from .connection import get_db
from .tables import join_url

bp = Blueprint("api", __name__, url_prefix="/api/v1")

NOT_FOUND = {"error": "no such table", "field": "$"}


class BadBody(Exception):
    """The body is not one JSON document."""


def body() -> object:
    """Return the request's JSON document, or raise BadBody; RulesError at a lone surrogate's path.

    JSON's "\\ud800" escape gives Python a string no UTF-8 can hold: refused here, in any string
    or key, so that nothing later fails to store, log or show it.
    """
    raw = request.get_data(cache=True)
    try:
        doc = json.loads(raw)
    except (ValueError, RecursionError):
        raise BadBody() from None
    return no_lone_surrogates(doc)


def error(err: RulesError, status: int = 400):
    """Answer the contract's error document."""
    return jsonify(error=err.message, field=err.field), status


def bad_body():
    return jsonify(error="the body must be one JSON document", field="$"), 400


def authorized(table_id: str) -> tables.Table | None:
    """Return the table if X-Table-Token is its secret, else None (answered as 404)."""
    try:
        return tables.authorize(get_db(), table_id, request.headers.get("X-Table-Token"))
    except tables.NotFound:
        return None


@bp.post("/tables")
def create_table():
    """Create a table: {"game", "players", options...} -> 201 with its secret and join address."""
    try:
        doc = body()
        table, secret = tables.create(get_db(), doc, profiles.snapshot_for_table(get_db()))
    except BadBody:
        return bad_body()
    except RulesError as err:
        return error(err)
    return jsonify(created(table, secret)), 201


def created(table: tables.Table, secret: str) -> dict:
    """The contract's answer to a table made: its id, secret, join address, version and state."""
    return {"table": table.id, "token": secret, "join_url": join_url(table.id, secret), "version": table.version,
            "state": table.state}


@bp.get("/tables/<table_id>")
def get_table(table_id: str):
    """Answer the table's players, version and state."""
    table = authorized(table_id)
    if table is None:
        return jsonify(NOT_FOUND), 404
    return jsonify(table.public())


@bp.get("/tables/<table_id>/events")
def list_events(table_id: str):
    """List the table's log, oldest first."""
    if authorized(table_id) is None:
        return jsonify(NOT_FOUND), 404
    log = tables.events(get_db(), table_id)
    return jsonify([{"seq": e["seq"], "type": e["type"], "data": e["data"], "at": e["at"]} for e in log])


@bp.get("/tables/<table_id>/result")
def get_result(table_id: str):
    """Answer the finished table's result (CONTRACT.md "results"); 409 while the game is not over."""
    table = authorized(table_id)
    if table is None:
        return jsonify(NOT_FOUND), 404
    try:
        return jsonify(results.result(table))
    except results.NotOver:
        return jsonify(error="the game is not over yet: its result comes once the final scores are in", field="table"), 409


def _write(table_id: str, operation):
    """Run a write: the secret (404), then the body (400), expected_version (409), the event (400)."""
    if authorized(table_id) is None:
        return jsonify(NOT_FOUND), 404
    try:
        table = operation(get_db(), table_id, body())
    except BadBody:
        return bad_body()
    except tables.Conflict as conflict:
        return jsonify(error=f"the table is at version {conflict.version}; reload and try again", version=conflict.version), 409
    except RulesError as err:
        return error(err)
    return jsonify(version=table.version, state=table.state)


@bp.post("/tables/<table_id>/events")
def post_event(table_id: str):
    """Append one event, checked against expected_version."""
    return _write(table_id, tables.append)


@bp.post("/tables/<table_id>/undo")
def undo(table_id: str):
    """Take back the latest event still in force."""
    return _write(table_id, tables.undo)


# --- rematch (issue 41): a finished table played again, answered as a table made ------------------

@bp.post("/tables/<table_id>/rematch")
def rematch_table(table_id: str):
    """Play the table again: 201 with the new table as POST /tables answers it; 200 with the same
    table when it was played again already. No body is read."""
    if authorized(table_id) is None:
        return jsonify(NOT_FOUND), 404
    try:
        table, secret, made = rematch.start(get_db(), table_id, request.headers.get("X-Table-Token"))
    except tables.NotFound:
        return jsonify(NOT_FOUND), 404
    except RulesError as err:
        return error(err)
    return jsonify(created(table, secret)), 201 if made else 200


@bp.get("/rules")
def list_rules():
    """List every GAME FUNCTION pair with its one-line description."""
    return jsonify([{"game": g, "function": f, "summary": s} for g, f, s in rules.listing()])


@bp.post("/<game>/<function>")
def call_rules(game: str, function: str):
    """Run one rules function on the posted JSON document."""
    try:
        fn = rules.find(game, function)
    except rules.UnknownFunction as exc:
        return jsonify(error=str(exc), field="$"), 404
    try:
        return jsonify(fn.run(body()))
    except BadBody:
        return bad_body()
    except RulesError as err:
        return error(err)
