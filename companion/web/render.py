"""One source for page and fragment: render a whole template, or just one of its blocks for htmx;
and what every page's layout asks (base.html: the picker's way back, the script's words)."""

from __future__ import annotations

import re
from functools import lru_cache

from babel import Locale
from flask import current_app, request, url_for

from ..games import speech
from ..games.speech import N_


def is_htmx() -> bool:
    """True when htmx sent the request (it then wants a fragment, not the layout)."""
    return request.headers.get("HX-Request") == "true" and request.headers.get("HX-History-Restore-Request") != "true"


def render_block(template_name: str, block: str, **context) -> str:
    """Render one named block of a page template with the same context the page gets."""
    env = current_app.jinja_env
    template = env.get_or_select_template(template_name)
    current_app.update_template_context(context)
    ctx = template.new_context(context)
    return "".join(template.blocks[block](ctx))



def page_address() -> str:
    """Where the language picker goes back to: this page's path and query (base.html), or the
    start page after a form's post, whose address shows no page (a table page names its own)."""
    if request.method not in ("GET", "HEAD"):
        return url_for("home.index")
    query = request.query_string.decode("latin-1")
    return request.script_root + request.path + ("?" + query if query else "")


# --- the page script's words (issue 29) ------------------------------------------------------------

_PLACEHOLDER = re.compile(r"%\((\w+)\)[sd]")


def _braces(text: str) -> str:
    """A sentence's %(name)s placeholders as the page's script fills them: {name}."""
    return _PLACEHOLDER.sub(r"{\1}", text)


@lru_cache(maxsize=None)
def _samples(lang: str) -> tuple[tuple[str, int], ...]:
    """One whole number for each plural category the language has ("one": 1, "few": 2, "many": 5)."""
    rule, found = Locale.parse(lang).plural_form, {}
    for n in [*range(0, 1000), 10**6]:
        found.setdefault(rule(n), n)
    return tuple(found.items())


class _ForScript:
    """The script's sentences as the language says them, placeholders left for the script ({num}).

    Its methods are named as speech's are, so that the catalogs' extraction finds the sentences.
    """

    @staticmethod
    def gettext(message: str) -> str:
        return _braces(speech.gettext(message))

    @staticmethod
    def ngettext(singular: str, plural: str) -> dict[str, str]:
        """Every form the language has, by plural category (Intl.PluralRules picks one in the page)."""
        said = speech.translations(speech.language())
        return {category: _braces(said.ungettext(singular, plural, n)) for category, n in _samples(speech.language())}


def script_words() -> dict:
    """The words static/js writes into the page, in the language spoken (base.html's #words)."""
    return _script_words(speech.language())


@lru_cache(maxsize=None)
def _script_words(lang: str) -> dict:
    """script_words() for one language: the same at every page, so said once (never changed by its callers)."""
    say = _ForScript
    return {
        # static/js/marks.js: a tap's mark on its control
        "sending": say.gettext("sending…"),
        "taps_sending": say.ngettext("%(num)d tap sending…", "%(num)d taps sending…"),
        "not_saved": say.gettext("not saved"),
        "taps_not_saved": say.ngettext("%(num)d tap not saved", "%(num)d taps not saved"),
        "changed": say.gettext("not saved: the table changed, tap again"),
        "taps_changed": say.ngettext("%(num)d tap not saved: the table changed, tap again",
                                     "%(num)d taps not saved: the table changed, tap again"),
        # static/js/banner.js: why taps are not saved
        "taps_kept": say.ngettext("%(num)d tap kept", "%(num)d taps kept"),
        "no_connection": say.gettext("No connection"),
        "unreachable": say.gettext("Can’t reach the server"),
        # Translators: %(trouble)s is "No connection" or "Can’t reach the server"; %(taps)s is "3 taps kept"
        "offline_kept": say.gettext("%(trouble)s: %(taps)s, sent when it is back."),
        # Translators: %(trouble)s is "No connection" or "Can’t reach the server"
        "offline_stale": say.gettext("%(trouble)s: the table shown may be out of date."),
        # Translators: %(trouble)s is the server's own sentence; %(taps)s is "3 taps kept"
        "server_kept": say.gettext("%(trouble)s %(taps)s, sent again by itself."),
        "disk_full": say.gettext("the server's disk is full: nothing was saved"),
        "server_error": say.gettext("The server could not save that (error %(status)s)."),
        # static/js/share.js: what sharing the result did (issue 42: the image and the text)
        "shared": say.gettext("Shared."),
        "share_getting": say.gettext("Getting the image…"),
        "share_saved_copied": say.gettext("Image downloaded and result copied: paste them in your group's chat."),
        "share_saved_selected": say.gettext("Image downloaded; the text is selected: copy it with your phone's menu."),
        "share_no_image_copied": say.gettext("The image could not be fetched (no connection?); the result is copied as text."),
        "share_no_image_selected": say.gettext("The image could not be fetched (no connection?); the text is selected: copy it with your phone's menu."),
        "share_no_image_shared": say.gettext("The image could not be fetched (no connection?): the result was shared as text."),
        "share_gone": say.gettext("This play is no longer in the archive: reload the page."),
        # static/js/seat.js: "You are: watching"
        "watching": say.gettext("watching"),
    }


# --- the error page's words -----------------------------------------------------------------------

#: what the error page shows that no code of ours translated where it was said: werkzeug's own
#: descriptions (an address no route has, a body too large...) and the app's for a bug
#: (web/__init__.py); marked here so that the catalogs hold them (render.error_words says them)
ERROR_WORDS = (
    N_("The browser (or proxy) sent a request that this server could not understand."),
    N_("The requested URL was not found on the server. If you entered the URL manually please check "
       "your spelling and try again."),
    N_("The method is not allowed for the requested URL."),
    N_("The data value transmitted exceeds the capacity limit."),
    N_("The length of the requested URL exceeds the capacity limit for this server. The request cannot "
       "be processed."),
    N_("One or more header fields exceeds the maximum size."),
    N_("something went wrong on the server; nothing was changed"),
)


def error_words(message: str) -> str:
    """The error page's message in the page's language where a catalog holds it, else as it came
    (a message of ours was translated as it was said). A lookup, never a format: it may hold a %."""
    return speech.gettext(message)
