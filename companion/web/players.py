"""A page per player (issue 41): `/players`, everyone this device may see, and `/players/NAME`, one
player's numbers across games, the latest plays and the head-to-head; the host's merges of two names
and their undo; the host's delete and restore of a play; and the same as JSON (`/api/v1/players`).

Who sees what is the archive's (companion/web/plays.py): a device sees the plays of the tables it
joined, the host key every play, and a player's page counts only those. A name nobody among them
has answers 404 exactly as a name nobody has at all. The numbers come from companion/players.py.
"""

from __future__ import annotations

from urllib.parse import quote, urlencode

from babel.numbers import format_percent
from flask import Blueprint, abort, jsonify, redirect, render_template, request, url_for

from .. import players, results, stats, tables
from ..games import speech
from ..games.speech import N_, _
from ..games.validation import RulesError
from . import plays
from .connection import get_db

bp = Blueprint("players", __name__)

NO_PLAYER = N_("There is no player of that name here.")
HOST_ONLY = N_("Only the host's devices can do that: open the host-key link on this device first.")
#: the longest name looked up: a name at a table is shorter (validation.py), so a longer one is nobody
LONGEST = 200


@bp.app_template_filter("player_path")
def player_path(name: str) -> str:
    """What follows /players in the address of a player's page: "/" and the name, every character
    a browser reads as a path's (a "/", a "%") escaped, so that "a/../b" is one segment; a name of dots
    alone ("..") goes in the query, since a browser folds such a segment away (WHATWG URL: /players/..
    is /)."""
    if not name.strip(".") or name.startswith("/"):  # and "/x": werkzeug folds /players//x into /players/x
        return "?" + urlencode({"name": name})
    return "/" + quote(name, safe="")


@bp.app_template_global()
def player_url(name: str) -> str:
    """The address of a player's page, from any of their names."""
    return url_for("players.index") + player_path(name)


@bp.app_template_filter("percent")
def percent(rate: float) -> str:
    """A rate from 0 to 1 as its language writes a percentage: "67%", "67 %"."""
    return format_percent(rate, locale=speech.locale())


@bp.after_request
def private(response):
    """As private as the archive: never kept by a cache, never shared between cookies."""
    return plays.private(response)


def seen() -> tuple[list[dict], players.Merges]:
    """The plays this device may see (the archive's rights) and the merges in force."""
    return plays.merged()


def found(name: str) -> tuple[dict, list[dict], players.Merges]:
    """The player of a name among the plays this device sees; 404 (the archive's way) when nobody is."""
    docs, key = seen()
    who = players.player(docs, name, key) if len(name) <= LONGEST else None
    if who is None:
        abort(404, _(NO_PLAYER))
    return who, docs, key


#: a game as a page names it (the archive's way)
titled = plays.titled


# --- pages -----------------------------------------------------------------------------------------

@bp.get("/players")
def index():
    """Everyone in the plays this device may see, the most plays first; with `?name=`, that player's
    page (player_path: a name a browser would fold out of a path)."""
    if "name" in request.args:
        return player_page(request.args.get("name", ""))
    docs, key = seen()
    return render_template("players/list.html", everyone=players.everyone(docs, key), titles=titled, host=plays.is_host())


@bp.get("/players/<path:name>")
def page(name: str):
    return player_page(name)


def player_page(name: str, error: RulesError | None = None, status: int = 200):
    """One player's page; with a refused merge or undo, its message beside its field (then `status`)."""
    who, docs, key = found(name)
    host = plays.is_host()
    latest = [{**p, "title": titled(p["game"], p["title"]), "when": plays.when(p["finished_at"])} for p in who["latest"]]
    others = []
    if host:  # the merge form's choices: everyone else, by name
        others = sorted((p["name"] for p in players.everyone(docs, key) if p["key"] != who["key"]), key=stats.name_key)
    merged = players.merged_into(get_db(), who["key"], docs) if host else []
    for m in merged:
        m["when"] = plays.when(m["at"])
    return render_template("players/player.html", who=who, latest=latest, titles=titled, host=host, others=others,
                           merged=merged, error=error, said=(error.said or error.message) if error else None,
                           clocked=any("ms_per_turn" in g for g in who["games"])), status


def host_or_403() -> None:
    if not plays.is_host():
        abort(403, _(HOST_ONLY))


def host_or_404() -> None:
    """A play's delete and restore: to anyone but the host, no such play (as its record answers a
    device that may not see it), so that the answer tells nobody which tables exist."""
    if not plays.is_host():
        abort(404, _(plays.NO_PLAY))


@bp.post("/players/merge")
def merge():
    """Merge the form's `other` into the player `name` is (the host's alone); 303 to the player's page."""
    host_or_403()
    name, other = request.form.get("name", "")[:LONGEST], request.form.get("other", "")[:LONGEST]
    found(name)
    try:
        players.merge(get_db(), plays.visible(), name, other)
    except RulesError as err:
        return player_page(name, err, 400)
    return redirect(player_url(name), 303)


@bp.post("/players/unmerge")
def unmerge():
    """Take a merge back (the host's alone); 303 to the page of the player `name` is."""
    host_or_403()
    name = request.form.get("name", "")[:LONGEST]
    try:
        players.undo_merge(get_db(), request.form.get("merge", ""))
    except RulesError as err:
        return player_page(name, err, 400)
    return redirect(player_url(name), 303)


@bp.post("/plays/<table_id>/delete")
def delete_play(table_id: str):
    """Hide a play from the archive, the stats and the players' pages (the host's alone); restorable."""
    host_or_404()
    try:
        results.delete(get_db(), table_id)
    except tables.NotFound:
        abort(404, _(plays.NO_PLAY))
    return redirect(url_for("plays.index") + "#deleted-plays", 303)


@bp.post("/plays/<table_id>/restore")
def restore_play(table_id: str):
    """Bring a deleted play back (the host's alone); 303 to its record."""
    host_or_404()
    if table_id not in results.deleted(get_db()):
        abort(404, _(plays.NO_PLAY))
    results.restore(get_db(), table_id)
    return redirect(url_for("plays.record", table_id=table_id), 303)


# --- JSON ------------------------------------------------------------------------------------------

@bp.get("/api/v1/players")
def api_list():
    """Everyone in the plays this device may see (CONTRACT.md "players")."""
    docs, key = seen()
    return jsonify(players=players.everyone(docs, key))


@bp.get("/api/v1/players/<path:name>")
def api_player(name: str):
    """One player, by any of their names; 404 `{"error", "field": "$"}` for a name nobody here has."""
    docs, key = seen()
    who = players.player(docs, name, key) if len(name) <= LONGEST else None
    if who is None:
        return jsonify(error="no player of that name here", field="$"), 404
    return jsonify(who)
