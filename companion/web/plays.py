"""The plays archive: finished tables newest first, each play's record with its chart, the stats
per game, and the downloads of the plays (JSON, CSV) and of a backup.

Who sees what (issue 12, issue 27): a device sees the plays of the tables it joined (it holds
their secret cookie), or every play once it holds the host key. `companion serve` prints it as a
link, `/plays#key=KEY`: the key is in the fragment, which a browser never sends, so no proxy's log
and no server log keeps it; the page posts it once, in a form's body (`POST /plays/key`, the
form the page shows for typing it too), and it lives on in a cookie. A key in the address
(`?key=`, the old link) is refused: the request line that carried it is already in some log. The
host's own browser is no exception: it opens that link too. No address grants anything, loopback
included: behind a reverse proxy on the same machine every request comes from 127.0.0.1.
Nobody else sees anything, and a record a device may not see answers 404 exactly as a missing
one does.
"""

from __future__ import annotations

import os
import tempfile
from datetime import datetime
from io import BytesIO

from babel.dates import format_time
from flask import Blueprint, abort, current_app, make_response, redirect, render_template, request, send_file, url_for
from markupsafe import Markup

from .. import charts, games, hostkey, players, result_image, results, stats, tables
from ..wording import breakdown_label
from ..games import speech
from ..games.base import is_calculator
from ..games.speech import N_, _
from ..games.validation import RulesError
from . import answers, guard
from .connection import get_db

bp = Blueprint("plays", __name__)

NO_PLAY = N_("There is no such play here.")
WRONG_KEY = N_("That host key is not this server's.")
NO_KEY = N_("Type the host key that companion serve or companion host-key printed.")
KEY_IN_ADDRESS = N_("A host key in the address (?key=) is not taken: proxies and servers keep addresses in their logs. "
                    "Open the link companion serve prints now (…/plays#key=…), or type the key below.")
#: what a device without the host key reads at /plays/backup: what the backup is, and how the host's devices get it
BACKUP_FOR_HOST = N_("This device gets no backup: the backup is for the host's own devices. Open the host-key link that "
                     "companion serve prints (companion host-key prints it again) on this device, then download it from "
                     "the plays archive.")
#: what a backup download says of itself, in its name and beside its button: it holds the host key
BACKUP_CARRIES_KEY = "host-key-inside"
#: the cookie that holds the host key on another device: about a year (browsers keep 400 days at most)
HOST_COOKIE = "host_key"
HOST_COOKIE_AGE = 60 * 60 * 24 * 365


# --- who may see what ------------------------------------------------------------------------------

def is_host() -> bool:
    """True for a device holding the host key in its cookie, and for nothing else (never an address)."""
    return hostkey.is_host_key(get_db(), request.cookies.get(HOST_COOKIE))


def joined_ids() -> set[str]:
    """Return the ids of the tables whose secret this device holds (as home.tables_on_this_device reads them)."""
    found = set()
    for name, secret in request.cookies.items():
        if name.startswith("tc_"):
            try:
                found.add(tables.authorize(get_db(), name[3:], secret).id)
            except tables.NotFound:
                continue
    return found


def visible(game: str | None = None, player: str = "", newest_first: bool = True) -> list[dict]:
    """Return the results this device may see, of one game and with one player where asked."""
    if player.strip():
        return merged(game, player, newest_first)[0]
    ids = None if is_host() else joined_ids()
    return results.results(get_db(), game, ids, newest_first) if ids is None or ids else []


def merged(game: str | None = None, player: str = "", newest_first: bool = True) -> tuple[list[dict], players.Merges]:
    """Return the results `visible` returns and the merges of names they were read with: every play
    this device may see is read once, for the merges (which span games), then narrowed."""
    everything = visible(None, "", newest_first)
    key = merges(everything)
    found = [doc for doc in everything if game is None or doc["game"] == game]
    return (stats.plays_with(found, player, key) if player.strip() else found), key


def merges(docs: list[dict]) -> players.Merges:
    """The host's merges of names, as far as this device may see them: the host's devices all of
    them; another device those between names of the plays it may see (players.merges). `docs`: every
    play this device may see (`visible()`)."""
    return players.merges(get_db(), docs, restrict=not is_host())


def visible_table(table_id: str) -> tables.Table:
    """Return the finished table of a record this device may see; 404 with one body otherwise."""
    db = get_db()
    try:
        if is_host():
            return tables.load(db, table_id)
        return tables.authorize(db, table_id, answers.secret_of(request.cookies, table_id))
    except tables.NotFound:
        abort(404, _(NO_PLAY))


def withdrawn(table: tables.Table) -> bool:
    """True for a play the host deleted, seen by any device but the host's: it is in no list, and its
    record, its image and its file answer 404 as a missing play, on its table's own link too (issue 42:
    a finished table's link keeps its result "for as long as the play is in the archive"). A table whose
    end was undone since is a game being played again, not a play: it is withdrawn again once finished."""
    return bool(table.finished) and results.is_deleted(get_db(), table.id) and not is_host()


@bp.after_request
def private(response):
    """Plays are private to those who may see them: never kept by a cache, never shared between cookies."""
    response.headers["Cache-Control"] = "no-store"
    response.vary.add("Cookie")
    return response


# --- the filters -----------------------------------------------------------------------------------

def filters() -> tuple[str | None, str, str | None]:
    """Return (game key or None, player name, the message for an unknown game) from the query string."""
    game = request.args.get("game", "").strip() or None
    player = request.args.get("player", "").strip()[:80]
    if game is not None and games.get(game) is None:
        return None, player, _("There is no game called %(key)s here: showing every game.", key=repr(game))
    return game, player, None


def filter_args(game: str | None, player: str) -> dict:
    """The query string that keeps the filters (the downloads and the other pages carry it)."""
    return {k: v for k, v in (("game", game), ("player", player)) if v}


def when(stamp: str) -> str:
    """"2026-12-03T21:14:05Z" -> "3 Dec 2026, 21:14", in the host's local time (the table's clock);
    another language writes it its own way ("3 déc. 2026, 21:14", "3.12.2026, 21:14")."""
    moment = datetime.fromisoformat(stamp.replace("Z", "+00:00")).astimezone()
    if speech.language() == speech.SOURCE:
        return f"{moment.day} {moment:%b %Y, %H:%M}"
    here = speech.locale()  # the language's date (|day's) and short time, joined its way ("{1}, {0}")
    return here.datetime_formats["medium"].replace("'", "").format(format_time(moment, "short", locale=here), speech.day(moment))


def titled(key: str, title: str | None = None) -> str:
    """A game as a page names it: a play's `title` the players gave (the pad's) as typed, the game's own
    title in the language spoken (Game.shown_title); a game no longer installed by its key."""
    game = games.get(key)
    return game.shown_title(title) if game else (title or key)


def entry(doc: dict) -> dict:
    """What the list shows of one play."""
    ranked = sorted(doc["players"], key=lambda p: p["place"])
    return {"table": doc["table"], "title": titled(doc["game"], doc.get("title")), "when": when(doc["finished_at"]),
            "players": [{**p, "won": p["name"] in doc["winners"]} for p in ranked],
            "winners": doc["winners"], "verdict": doc["verdict"]}


def _common(game: str | None, player: str, error: str | None) -> dict:
    return {"games": games.registry(), "game": game or "", "player": player, "error": error,
            "args": filter_args(game, player), "host": is_host()}


# --- pages -----------------------------------------------------------------------------------------

@bp.get("/plays")
def index():
    """List the plays this device may see, newest first; a key in the address is refused (see the module)."""
    return list_page(_(KEY_IN_ADDRESS) if "key" in request.args else None)


@bp.post("/plays/key")
def take_key():
    """Hand this device the host key, sent in the form's body: a cookie, then the archive (303)."""
    key = request.form.get("key", "").strip()
    if key and hostkey.is_host_key(get_db(), key):
        response = redirect(url_for("plays.index"), 303)
        # Secure over HTTPS (a trusted proxy's X-Forwarded-Proto, or an https --public-url): never sent in clear after
        response.set_cookie(HOST_COOKIE, key, max_age=HOST_COOKIE_AGE, **guard.cookie_settings())
        return response
    return list_page(_(WRONG_KEY) if key else _(NO_KEY), 403 if key else 400)


def list_page(key_error: str | None = None, status: int | None = None):
    """The list of plays, with what is wrong with a host key given (then 400, or `status`)."""
    game, player, error = filters()
    shown = visible(game, player)
    names = sorted({p["name"] for doc in shown for p in doc["players"]}, key=stats.name_key)
    deleted = deleted_entries() if is_host() else []
    body = render_template("plays/list.html", plays=[entry(doc) for doc in shown], names=names, deleted=deleted,
                           key_error=key_error, **_common(game, player, error),
                           # the language picker's way back: the list with its filters, never a key the
                           # address carried (?key=, refused) nor the key's form's address (POST)
                           here=url_for("plays.index", **filter_args(game, player)))
    return body, status or (400 if key_error or error else 200)


def deleted_entries() -> list[dict]:
    """The plays the host deleted, the latest first, each with its restore (issue 41)."""
    db = get_db()
    ids = results.deleted(db)
    order = {table_id: i for i, table_id in enumerate(ids)}
    found = []
    for t in results.finished(db, ids=set(ids), deleted=True):
        try:
            found.append(entry(results.result(t)))
        except results.NotOver:  # a score that cannot be computed any more: left out, as the archive does
            continue
    return sorted(found, key=lambda e: order[e["table"]])


@bp.get("/plays/stats")
def stats_page():
    """The stats per game across the plays this device may see, each with a chart of wins per player."""
    game, player, error = filters()
    per_game = stats.per_game(*merged(game, player))  # the host's merges of names too
    for g in per_game:
        g["title"] = titled(g["game"], g["title"])
        label = _("Wins per player at %(game)s", game=g["title"])
        g["chart"] = Markup(charts.bar_chart([(p["name"], p["wins"]) for p in g["players"]], label))
    return render_template("plays/stats.html", per_game=per_game, **_common(game, player, error)), 400 if error else 200


@bp.get("/plays/<table_id>")
def record(table_id: str):
    """One play's record: the result, each player's score over the game, and the history."""
    table = visible_table(table_id)
    db = get_db()
    deleted = results.is_deleted(db, table.id)  # issue 41: the host's alone then, to restore it
    try:
        doc = results.result(table)
    except results.NotOver:
        abort(404, _(NO_PLAY))
    if deleted and not is_host():
        abort(404, _(NO_PLAY))
    # each player ranked, a solo title or outcome in the reader's words (Game.extra_words)
    ranked = [{**p, "extra": table.rules.extra_words(p)} for p in sorted(doc["players"], key=lambda p: p["place"])]
    keys = list(dict.fromkeys(k for p in ranked for k in p["breakdown"]))
    chart = None
    try:
        points = results.series(db, table)
    except RulesError as err:  # a stored event the game no longer folds: the record stands without its chart
        current_app.logger.warning("play %s: no chart, its events no longer fold (%s: %s)", table_id, err.field, err.message)
        points = None
    if points is not None:
        scores = [pt["scores"] for pt in points]
        # the result names every scored seat in seat order, a scored solo opponent too (such a solo
        # table has one player's name but two running scores)
        names = [p["name"] for p in doc["players"]]
        label = _("%(game)s: each player's %(score)s over the game", game=table.rules.title_of(table.options),
                  score=_(table.rules.running_label))
        chart = {"svg": Markup(charts.line_chart(names, scores, label)), "label": label, "changes": len(points) - 1,
                 "legend": [{"name": n, "swatch": Markup(charts.swatch(i)), "last": scores[-1][i]} for i, n in enumerate(names)
                            if i < len(scores[-1])],
                 # the final totals are more than the running score's last values (the end's scoring), or are them (a pad)
                 "end_scoring": any(i >= len(scores[-1]) or p["total"] != scores[-1][i] for i, p in enumerate(doc["players"]))}
    secret = answers.secret_of(request.cookies, table.id)
    joined = bool(secret) and table.id in joined_ids()
    return render_template(
        "plays/record.html", doc=doc, play=entry(doc), table=table, ranked=ranked,
        labels={k: breakdown_label(table.rules, k) for k in keys},
        chart=chart, calculator=is_calculator(table.options), running=_(table.rules.running_label),
        history=tables.history(table, tables.events(db, table.id)), joined=joined, host=is_host(), deleted=deleted,
        share_text=results.share_text(table, doc),  # issue 42: the result as text, beside its image
        image_name=result_image.file_name(table))


# --- downloads -------------------------------------------------------------------------------------

def _download(body: str | bytes, mimetype: str, name: str):
    response = make_response(body)
    response.mimetype = mimetype
    if mimetype.startswith(("text/", "application/json")):
        response.charset = "utf-8"
    response.headers["Content-Disposition"] = f'attachment; filename="{name}"'
    return response


def _stamp() -> str:
    return datetime.now().strftime("%Y-%m-%d")


@bp.get("/plays/export.json")
def export_json():
    """Download the plays this device may see (as filtered), oldest first, as the export's JSON."""
    from .. import export

    game, player, _ = filters()
    return _download(export.to_json(visible(game, player, newest_first=False)), "application/json", f"plays-{_stamp()}.json")


@bp.get("/plays/export.csv")
def export_csv():
    """Download the plays this device may see (as filtered), oldest first, as the export's CSV."""
    from .. import export

    game, player, _ = filters()
    return _download(export.to_csv(visible(game, player, newest_first=False)), "text/csv", f"plays-{_stamp()}.csv")


@bp.get("/plays/backup")
def backup():
    """Download a consistent copy of the database (SQLite's online backup): the host's alone.

    The copy holds the host key (its `settings` table), so whoever holds the file can open every
    play of a server restored from it: its name says so, as the button beside it does.
    """
    from .. import export

    if not is_host():
        abort(404, _(BACKUP_FOR_HOST))
    with tempfile.TemporaryDirectory(prefix="companion-backup-") as folder:
        path = os.path.join(folder, "companion.db")
        export.backup(current_app.config["DATABASE"], path)
        with open(path, "rb") as copy:
            data = BytesIO(copy.read())
    return send_file(data, mimetype="application/vnd.sqlite3", as_attachment=True,
                     download_name=f"companion-backup-{_stamp()}-{BACKUP_CARRIES_KEY}.db")

