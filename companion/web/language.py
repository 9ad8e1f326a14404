"""Which language a phone reads (issue 29): its own choice, else its browser's, else English.

Chosen once per request by `choose()`: the `lang` cookie the picker on every page sets (kept a
year), then the best of the browser's Accept-Language, then English. The request then speaks it
(companion/games/speech.py), so every sentence the page's templates and the games' Python say is
in it. The JSON API always speaks English: its messages are the contract's (CONTRACT.md),
whatever the phone reads. (Flask-Babel did the choosing until issue 43: this module used only its
`locale_selector`, and overwrote the Jinja callables it installed.)
"""

from __future__ import annotations

from urllib.parse import urlsplit

from flask import Blueprint, g, redirect, request

from ..games import speech
from . import guard

bp = Blueprint("language", __name__)

COOKIE = "lang"
#: a year, in seconds: the picker's choice outlives a season of game nights
KEPT = 365 * 24 * 3600


def choose() -> str:
    """The language a page request speaks: the phone's chosen one, else its browser's, else English."""
    chosen = request.cookies.get(COOKIE)
    if chosen in speech.LANGUAGES:
        return chosen
    return request.accept_languages.best_match(list(speech.LANGUAGES), default=speech.SOURCE)


def init(app) -> None:
    """Choose each request's language, and have the pages speak it."""
    # the templates' _(), gettext() and ngettext() are speech's (Jinja's i18n extension, newstyle):
    # the language the request (or the push's render for one language) speaks, the one catalog
    # the Python sentences use too
    app.jinja_env.add_extension("jinja2.ext.i18n")
    said = speech.Unfilled  # Jinja fills the placeholders (every variable, escaped), not speech
    app.jinja_env.install_gettext_callables(said.gettext, said.ngettext, newstyle=True,
                                            pgettext=said.pgettext, npgettext=said.npgettext)
    app.jinja_env.globals["language"] = speech.language
    app.jinja_env.globals["LANGUAGES"] = speech.LANGUAGES
    app.jinja_env.filters["number"] = speech.number
    app.jinja_env.filters["day"] = speech.day
    app.before_request(speak)
    app.after_request(vary)
    app.teardown_request(stop_speaking)
    app.register_blueprint(bp)


def speak() -> None:
    """Speak the phone's language for this request; the API speaks English (the contract's words)."""
    if request.path.startswith("/api/"):
        return
    g.speech_token = speech.begin(choose())


def vary(response):
    """A page's words depend on the phone's cookie and Accept-Language: say so to every cache between."""
    if "speech_token" in g and response.mimetype in ("text/html", "text/event-stream"):
        response.vary.add("Accept-Language")
        response.vary.add("Cookie")
    return response


def stop_speaking(exc=None) -> None:
    token = g.pop("speech_token", None)
    if token is not None:
        speech.end(token)


@bp.post("/language")
def pick():
    """The picker: keep the chosen language a year and go back to the page it was chosen on."""
    lang = request.form.get("lang", "")
    back = request.form.get("next", "")
    parts = urlsplit(back)
    # only a path of this site: never a redirect elsewhere
    target = back if back.startswith("/") and not back.startswith("//") and not parts.scheme and not parts.netloc else "/"
    response = redirect(target, code=303)
    if lang in speech.LANGUAGES:
        response.set_cookie(COOKIE, lang, max_age=KEPT, **guard.cookie_settings())
    return response
