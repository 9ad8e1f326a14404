"""Box profiles: list, edit in a form, export and import as a JSON file."""

from __future__ import annotations

import json

from flask import Blueprint, Response, abort, redirect, render_template, request, url_for

from .. import forms, games, profiles, wording
from ..games import colours
from ..games.speech import _
from ..games.validation import RulesError
from .connection import get_db

bp = Blueprint("profiles", __name__, url_prefix="/profiles")


@bp.get("/")
def index():
    """List the saved box profiles, with forms to add or import one."""
    return render_template("profiles/list.html", profiles=profiles.list_profiles(get_db()), games=games.registry(), error=None)


def _profile_or_404(profile_id: int) -> dict:
    try:
        return profiles.get(get_db(), profile_id)
    except profiles.ProfileNotFound:
        abort(404, _("There is no such box profile."))


def _edit_form(game, profile: dict | None, name: str, data: dict, error=None, status=200):
    # the language picker comes back to the form (a post's answer too: its address is the form's)
    here = url_for("profiles.edit", profile_id=profile["id"]) if profile else url_for("profiles.new", game_key=game.key)
    return render_template("profiles/edit.html", game=game, record=profile, name=name, profile=data, error=error, here=here), status


@bp.get("/new/<game_key>")
def new(game_key: str):
    """Show an empty profile form for a game."""
    game = games.get(game_key) or abort(404, _("There is no such game."))
    return _edit_form(game, None, "", {})


@bp.get("/<int:profile_id>")
def edit(profile_id: int):
    """Show a profile's form."""
    record = _profile_or_404(profile_id)
    return _edit_form(games.get(record["game"]), record, record["name"], record["data"])


@bp.post("/new/<game_key>")
@bp.post("/<int:profile_id>")
def save(game_key: str | None = None, profile_id: int | None = None):
    """Save the form; on an error show it beside the field and store nothing."""
    record = _profile_or_404(profile_id) if profile_id is not None else None
    game = games.get(record["game"] if record else game_key) or abort(404, _("There is no such game."))
    doc: dict = {}
    try:
        doc = forms.decode(request.form.items(multi=True))
        name = doc.pop("profile_name", "")
        saved = profiles.save(get_db(), {"game": game.key, "name": name, "data": doc}, profile_id)
    except RulesError as err:
        field = "profile_name" if err.field == "name" else err.field.removeprefix("data.")
        said = wording.said(RulesError(field, err.message), [], {**colours.PROFILE_LABELS, **game.labels, "profile_name": _("the box's name"),
                                                                    "bgg_id": _("the BoardGameGeek id")})
        return _edit_form(game, record, request.form.get("profile_name", ""), doc, said, 400)
    return redirect(url_for("profiles.edit", profile_id=saved["id"]), 303)


@bp.post("/<int:profile_id>/delete")
def delete(profile_id: int):
    """Delete a profile (tables keep their copy)."""
    _profile_or_404(profile_id)
    profiles.delete(get_db(), profile_id)
    return redirect(url_for("profiles.index"), 303)


@bp.get("/<int:profile_id>.json")
def export(profile_id: int):
    """Download the profile as a JSON file."""
    record = _profile_or_404(profile_id)
    body = json.dumps(profiles.export(record), indent=2, ensure_ascii=False)
    filename = f"{record['game']}-{record['id']}.json"
    return Response(body, mimetype="application/json", headers={"Content-Disposition": f'attachment; filename="{filename}"'})


@bp.post("/import")
def import_file():
    """Import a profile file exported here (or written by hand in the same shape)."""
    upload = request.files.get("file")
    try:
        if upload is None or not upload.filename:
            raise RulesError("file", _("choose a profile file (.json) to import"))
        try:
            doc = json.loads(upload.read(256 * 1024 + 1))
        except (ValueError, RecursionError):
            raise RulesError("file", _("is not a JSON profile file")) from None
        saved = profiles.save(get_db(), doc)
    except RulesError as err:
        # the file's own paths, said plainly: "the file's data, suspicion track, stake"
        label = {"file": "", "$": _("the file"), "name": _("the file's name")}.get(err.field)
        if label is None:
            label = _("the file's %(what)s", what=wording.label_of(err.field, []))
        said = wording.Said(err.field, err.message, label.strip())
        return render_template("profiles/list.html", profiles=profiles.list_profiles(get_db()), games=games.registry(), error=said,
                               here=url_for("profiles.index")), 400
    return redirect(url_for("profiles.edit", profile_id=saved["id"]), 303)
