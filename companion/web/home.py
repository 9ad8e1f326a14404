"""The start page: pick a game, name the players, start a table."""

from __future__ import annotations

import re

from flask import Blueprint, abort, jsonify, redirect, render_template, request, url_for

from .. import forms, games, profiles, tables, wording
from ..games.base import is_calculator
from ..games import colours, validation
from ..games.speech import _
from ..games.validation import RulesError
from .connection import get_db
from .render import error_words, page_address, script_words
from .tables import set_table_cookies

bp = Blueprint("home", __name__)
# what base.html asks on every page: the language picker's way back, the page script's words;
# and errors/error.html its message's
for _global in (page_address, script_words, error_words):
    bp.add_app_template_global(_global)


@bp.get("/")
def index():
    """List the games to start a table of, and the tables this device has joined."""
    return render_template("home/index.html", games=games.registry(), mine=tables_on_this_device())


#: the app's colours (static/app.css :root, light and dark): the manifest's, and base.html's theme-color
LIGHT = {"theme_color": "#2f5d8a", "background_color": "#f7f5f0"}
DARK = {"theme_color": "#141312", "background_color": "#141312"}
#: the name under the home-screen icon: the manifest's, and base.html's for iOS
SHORT_NAME = "Companion"
#: what base.html's head says about the home-screen app (the template global `home_screen`)
HOME_SCREEN = {"short_name": SHORT_NAME, "light": LIGHT, "dark": DARK}


@bp.get("/manifest.webmanifest")
def manifest():
    """The web app manifest: a phone's "Add to Home Screen" opens the app full-screen, with its icon.

    Manifests have one theme and background colour; they are the light theme's. Browsers that
    read the proposed `user_preferences` member take the dark ones from it, and base.html's
    theme-color meta tags colour the browser's bar for each scheme while a page is open.
    """
    def icon(name: str, size: int, purpose: str) -> dict:
        return {"src": url_for("static", filename=f"icons/{name}"), "sizes": f"{size}x{size}", "type": "image/png", "purpose": purpose}

    doc = {
        "name": "Table Companion",
        "short_name": SHORT_NAME,
        "description": "Scores, tracks and automata for the board game on the table.",
        "id": url_for("home.index"),
        "start_url": url_for("home.index"),
        "scope": url_for("home.index"),
        "display": "standalone",
        "orientation": "any",
        **LIGHT,
        "user_preferences": {"color_scheme_dark": DARK},
        "icons": [icon("icon-192.png", 192, "any"), icon("icon-512.png", 512, "any"), icon("maskable-512.png", 512, "maskable")],
    }
    response = jsonify(doc)
    response.mimetype = "application/manifest+json"
    response.cache_control.max_age = 3600
    return response


#: the most tc_ cookies looked at: a browser keeps about 150-180 cookies per site, so a
#: request with more is not a browser's, and its cookies past these are not looked up
MAX_TABLE_COOKIES = 200


def tables_on_this_device(limit: int = 20) -> list:
    """Return the tables whose secret this device holds in a cookie, most recently changed first.

    One query for the newest MAX_TABLE_COOKIES cookies (a browser sends the oldest first), one
    for the tables shown, whatever the number of cookies sent.
    """
    held = {name[3:]: secret for name, secret in request.cookies.items() if name.startswith("tc_") and len(name) > 3 and secret}
    held = dict(list(held.items())[-MAX_TABLE_COOKIES:])
    if not held:
        return []
    db = get_db()
    marks = ",".join("?" * len(held))
    rows = db.execute(f"SELECT id, secret_hash, updated FROM tables WHERE id IN ({marks})", list(held)).fetchall()
    mine = sorted((row for row in rows if tables.secret_matches(row[1], held[row[0]])),
                  key=lambda row: row[2], reverse=True)[:limit]
    return sorted(tables.load_many(db, [row[0] for row in mine]), key=lambda t: t.updated, reverse=True)


def _game_or_404(key: str):
    game = games.get(key)
    if game is None:
        abort(404, _("There is no game called %(key)s here.", key=repr(key)))
    return game


#: a game of more seats than this (the score pad's 12) shows this many name rows, and the rest folded
#: under "More players" (a <details>: no JavaScript, nothing posted, nothing moves above the finger)
ROWS_AT_ONCE = 6


def _folded(game, names: list[str], options: dict, error: wording.Said | None) -> int | None:
    """The row from which the start form's rows are folded, or None where every row shows: a game of
    ROWS_AT_ONCE seats or fewer, or a form whose later rows hold a name, a colour or a refusal."""
    if game.max_players <= ROWS_AT_ONCE:
        return None
    used = [i for i, name in enumerate(names) if name.strip()]
    picked = options.get("colours") if isinstance(options.get("colours"), dict) else {}
    used += [int(row) for row, key in picked.items() if key and str(row).isdigit()]
    found = re.match(r"(?:options\.)?(?:players|colours)\[(\d+)\]", error.field) if error else None
    used += [int(found.group(1))] if found else []
    return None if any(i >= ROWS_AT_ONCE for i in used) else ROWS_AT_ONCE


def _new_form(game, doc: dict | None = None, error: wording.Said | None = None, status: int = 200):
    doc = doc or {}
    players, options = doc.get("players"), doc.get("options")
    entered = [n if isinstance(n, str) else "" for n in players] if isinstance(players, list) else []
    entered += [""] * (game.max_players - len(entered))
    options = options if isinstance(options, dict) else {}
    return (
        render_template(
            "home/new.html",
            game=game,
            names=entered[: game.max_players],
            folded=_folded(game, entered[: game.max_players], options, error),
            options=options,
            profile_id=doc.get("profile"),
            profiles=profiles.list_profiles(get_db(), game.key),
            error=error,
            here=url_for("home.new", game_key=game.key),  # the language picker's way back, after a post too
        ),
        status,
    )


@bp.get("/new/<game_key>")
def new(game_key: str):
    """Show the form that starts a table of this game."""
    game = _game_or_404(game_key)
    # the home page's "Final score" link opens the form with "Just the final score" chosen
    return _new_form(game, {"options": {"calculator": True}} if request.args.get("calculator") == "1" else None)


def _in_form_rows(err: RulesError, rows: list[int]) -> RulesError:
    """Say a refused name (or colour) at the form's row it was typed in: blank rows are dropped before
    the names are checked, so the table's `players[0]` may be the form's third row ("Player 3")."""
    found = re.match(r"(players|colours)\[(\d+)\]", err.field)
    if found and int(found.group(2)) < len(rows):
        return err.moved(f"{found.group(1)}[{rows[int(found.group(2))]}]" + err.field[found.end():])
    return err


def _hiding_row(doc: dict, field: str) -> int | None:
    """The form row that `field` (players[k]) names, if the name typed there hides characters."""
    found = re.fullmatch(r"players\[(\d+)\]", field)
    players = doc.get("players")
    if not found or not isinstance(players, list) or int(found.group(1)) >= len(players):
        return None
    typed = players[int(found.group(1))]
    return int(found.group(1)) if isinstance(typed, str) and validation.hidden(typed) else None


#: setup options whose value is a form row ("First player: Player 3")
ROW_OPTIONS = ("first_player",)


def _options_by_name(options: dict, rows: list[int], form_rows: int) -> dict:
    """The options with a form row turned into the place of its name among those typed in
    (a number past the form's rows is left for the table to refuse)."""
    options = dict(options)
    for key in ROW_OPTIONS:
        row = options.get(key)
        if isinstance(row, int) and not isinstance(row, bool) and 0 <= row < form_rows:
            if row not in rows:
                raise RulesError(key, _("Player %(number)s has no name: type one there, or choose another", number=row + 1))
            options[key] = rows.index(row)
    return options


def _colours_by_name(options: dict, rows: list[int]) -> dict:
    """The options with the form's colour per row (options.colours.ROW, "" for none) turned into the
    API's list, one per name typed in (a colour on a row left blank goes with the row)."""
    picked = options.get("colours")
    if not isinstance(picked, dict):
        return options
    seats = [picked.get(str(row)) or None for row in rows]
    rest = {key: value for key, value in options.items() if key != "colours"}
    return {**rest, "colours": seats} if any(seats) else rest


@bp.post("/new/<game_key>")
def create(game_key: str):
    """Start the table, remember its secret on this device, and open it."""
    game = _game_or_404(game_key)
    doc: dict = {}
    rows: list[int] = []
    try:
        doc = forms.decode(request.form.items(multi=True))
        if not isinstance(doc.get("players", []), list):
            raise RulesError("players", _("send the names as players[] fields"))
        if not isinstance(doc.get("options", {}), dict):
            raise RulesError("$", _("send the setup options as options.NAME fields"))
        rows = [i for i, n in enumerate(doc.get("players", [])) if isinstance(n, str) and n.strip()]
        names = [doc["players"][i] for i in rows]
        options = _colours_by_name(doc.get("options", {}), rows)
        create_doc = {"game": game.key, "players": names, **_options_by_name(options, rows, len(doc.get("players", [])))}
        if doc.get("profile") is not None:
            create_doc["profile"] = doc["profile"]
        table, secret = tables.create(get_db(), create_doc, profiles.snapshot_for_table(get_db()))
    except RulesError as err:
        err = _in_form_rows(err, rows)
        row = _hiding_row(doc, err.field)
        if row is not None:
            # its field would look right and be refused again: it comes back empty, and says so
            doc["players"][row] = ""
            err = RulesError(err.field, _("%(why)s; the field is cleared: type the name again", why=err.message))
        if err.field not in ("players", "profile") and not err.field.startswith("players["):
            err = err.moved(f"options.{err.field}" if err.field != "$" else "options")
        return _new_form(game, doc, wording.said(err, [], {**colours.SETUP_LABELS, **game.labels}), 400)
    # a calculator table needs the other phones at once: its page opens with the QR code shown
    invite = "#invite" if is_calculator(table.options) else ""
    response = redirect(url_for("tables.show", table_id=table.id) + invite, 303)
    set_table_cookies(response, table.id, secret)
    return response
