"""What the app says, in the language of the phone that reads it (issue 29).

Every sentence a person reads is English in the code, marked for translation:

- `_("Undo")`, `gettext("%(who)s: +%(n)s fame", who=..., n=...)`: translated now, in the
  language being spoken, then its `%(name)s` placeholders filled;
- `ngettext("%(num)d coin", "%(num)d coins", n)`: the plural form the language needs for n
  (Polish has three), `num` filled with n;
- `pgettext("suspicion", "Stake", ...)`: a word whose English is ambiguous, with its context;
- `N_("...")`: a sentence kept in a module-level table (a game's LABELS), only marked, so that
  the extractor finds it; whoever shows it translates it then with `_(text)`; `NC_(context,
  "...")` the same with a context, translated with `said(marked)`;
- `later.gettext("%(name)s: suspicion %(delta)s, now %(at)s.", name=..., ...)`,
  `later.ngettext("%(num)d coin", "%(num)d coins", n)`: a sentence said LATER, on every phone in
  its own language: what an event did (a game's notice) is written into a table's state when
  the event is applied, but read on each page. `later` translates nothing: it keeps the marked
  English and its values as plain JSON, one format for every game:
  `{"msg": ENGLISH, "values": {...}}`, a plural `{"msg": SINGULAR, "plural": PLURAL, "n": NUM,
  "values": {...}}`; a value may itself be such a sentence, or a list of them (said joined by
  ", "), and `later.joined("; ", [...])` keeps `{"join": SEPARATOR, "parts": [...]}` for another
  separator. Its methods are named gettext/ngettext so that the catalogs' extractor finds their
  sentences. `told(kept)` says a kept sentence in the language spoken now (anything else as it
  is: a name, a number, the English text of a state stored before its sentence was kept);
  inside `english()` it gives the English the state and the JSON API keep, unchanged.

Which language is spoken is a context variable, English unless a page said otherwise: a page's
request speaks its phone's language (companion/web/language.py chooses it), the
push renders a table's region once per language present (`speaking(lang)`), and everything
else (the JSON API, the CLI, exports, BG Stats) speaks English, unchanged, because nothing
set another. The variable is per greenlet and per thread, so two phones never mix.

The catalogs: every `translations/` folder inside the `companion` package, each with
`LANG/LC_MESSAGES/messages.po` (the source, in the repository) and `messages.mo` (compiled by the
package build, scripts/catalogs.py). The folders are merged into one catalog per language: the
app's pages (`companion/web/translations`), its shared words (`companion/translations`), and
each game's own (`companion/games/KEY/translations`), so a game's words live in its package. A
checkout without compiled files reads the `.po` directly (compiled in memory, once).

Plain Python: Babel, no Flask.
"""

from __future__ import annotations

import io
from contextlib import contextmanager
from contextvars import ContextVar
from datetime import date, datetime
from functools import lru_cache
from pathlib import Path
from typing import Any, Iterator

from babel import Locale
from babel.dates import format_date
from babel.lists import format_list
from babel.numbers import format_decimal
from babel.support import NullTranslations, Translations

#: the languages the app speaks, each named in itself (the picker shows these)
LANGUAGES = {
    "en": "English",
    "fr": "Français",
    "de": "Deutsch",
    "pl": "Polski",
    "es": "Español",
    "it": "Italiano",
}
#: the language of the code and of everything that leaves the app
SOURCE = "en"
#: the package whose `translations/` folders hold the catalogs
PACKAGE = Path(__file__).resolve().parents[1]

_speaking: ContextVar[str] = ContextVar("companion_language", default=SOURCE)


def language() -> str:
    """The language being spoken here: a key of LANGUAGES."""
    return _speaking.get()


def known(lang: str | None) -> str:
    """The language `lang` names if the app speaks it, else the source language."""
    return lang if lang in LANGUAGES else SOURCE


@contextmanager
def speaking(lang: str | None) -> Iterator[str]:
    """Speak `lang` inside the block (an unknown one is English), then what was spoken before."""
    token = _speaking.set(known(lang))
    try:
        yield _speaking.get()
    finally:
        _speaking.reset(token)


def english():
    """Speak English inside the block: what leaves the app (downloads, BG Stats) whatever the page speaks."""
    return speaking(SOURCE)


def begin(lang: str | None) -> object:
    """Speak `lang` from now on in this context (a request); give the token to `end`."""
    return _speaking.set(known(lang))


def end(token: object) -> None:
    """Speak again what was spoken before `begin` gave this token."""
    _speaking.reset(token)  # type: ignore[arg-type]


def catalog_folders() -> list[Path]:
    """Every `translations/` folder in the package, in a stable order (the app's first, then the games')."""
    return sorted((p for p in PACKAGE.rglob("translations") if p.is_dir()), key=lambda p: (len(p.parts), str(p)))


def _read(folder: Path, lang: str) -> Translations | None:
    """One folder's catalog for `lang`: its compiled file when it is as new as its source, else the source."""
    here = folder / lang / "LC_MESSAGES"
    mo, po = here / "messages.mo", here / "messages.po"
    if mo.is_file() and (not po.is_file() or mo.stat().st_mtime >= po.stat().st_mtime):
        with mo.open("rb") as fp:
            return Translations(fp, domain="messages")
    if not po.is_file():
        return None
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    with po.open("rb") as fp:
        catalog = read_po(fp, locale=lang)
    compiled = io.BytesIO()
    write_mo(compiled, catalog)  # fuzzy entries are left out, as the package build leaves them out
    compiled.seek(0)
    return Translations(compiled, domain="messages")


@lru_cache(maxsize=None)
def translations(lang: str) -> NullTranslations:
    """Every catalog of `lang` merged into one (English: the code's own words)."""
    if known(lang) == SOURCE:
        return NullTranslations()
    merged: Translations | None = None
    for folder in catalog_folders():
        found = _read(folder, lang)
        if found is not None:
            merged = found if merged is None else merged.merge(found)
    return merged if merged is not None else NullTranslations()


class Unfilled:
    """The translations alone, their placeholders left for the caller: Jinja's newstyle gettext
    fills them itself, escaping each value (companion/web/language.py installs these)."""

    @staticmethod
    def gettext(message: str) -> str:
        return translations(_speaking.get()).ugettext(message)

    @staticmethod
    def ngettext(singular: str, plural: str, num: int) -> str:
        return translations(_speaking.get()).ungettext(singular, plural, num)

    @staticmethod
    def pgettext(context: str, message: str) -> str:
        return translations(_speaking.get()).upgettext(context, message)

    @staticmethod
    def npgettext(context: str, singular: str, plural: str, num: int) -> str:
        return translations(_speaking.get()).unpgettext(context, singular, plural, num)


def gettext(message: str, **variables) -> str:
    """`message` in the language spoken, its `%(name)s` placeholders filled from `variables`."""
    text = Unfilled.gettext(message)
    return text % variables if variables else text


_ = gettext


def ngettext(singular: str, plural: str, num: int, **variables) -> str:
    """The form of `singular`/`plural` the language uses for `num`, with `%(num)d` and the rest filled."""
    return Unfilled.ngettext(singular, plural, num) % dict(variables, num=num)


def pgettext(context: str, message: str, **variables) -> str:
    """`message` in the sense `context` gives it (an English word with two meanings)."""
    text = Unfilled.pgettext(context, message)
    return text % variables if variables else text


def npgettext(context: str, singular: str, plural: str, num: int, **variables) -> str:
    """ngettext with a context."""
    return Unfilled.npgettext(context, singular, plural, num) % dict(variables, num=num)


def N_(message: str) -> str:
    """Mark `message` for the catalogs without translating it: it is translated where it is shown."""
    return message


def NC_(context: str, message: str) -> tuple[str, str]:
    """Mark `message` in the sense `context` gives it, without translating it: `said(NC_(...))` says it."""
    return context, message


def said(marked: str | tuple[str, str]) -> str:
    """A sentence N_ or NC_ marked, in the language spoken."""
    return pgettext(*marked) if isinstance(marked, tuple) else gettext(marked)


class later:
    """Sentences kept to be said later (`told`), each in the language then spoken: plain JSON, for a
    table's state. Named like the functions above so that the catalogs' extractor finds them."""

    @staticmethod
    def gettext(message: str, **values: Any) -> dict:
        """`message` (marked English) and its placeholders' values, kept unsaid."""
        return {"msg": message, "values": values}

    @staticmethod
    def ngettext(singular: str, plural: str, num: int, **values: Any) -> dict:
        """A plural kept unsaid: its form is chosen for `num` when it is told (`num` fills `%(num)d`)."""
        return {"msg": singular, "plural": plural, "n": num, "values": values}

    @staticmethod
    def joined(separator: str, parts: list) -> dict:
        """Kept sentences said one after the other with `separator` between them (a list says ", ")."""
        return {"join": separator, "parts": list(parts)}


def told(kept: Any) -> Any:
    """A sentence `later` kept, said in the language spoken now: its values told first (a list of
    them joined by ", ", a `joined` one by its separator); anything else as it is."""
    if isinstance(kept, list):
        return ", ".join(str(told(one)) for one in kept)
    if not isinstance(kept, dict):
        return kept
    if isinstance(kept.get("join"), str) and isinstance(kept.get("parts"), list):
        return kept["join"].join(str(told(one)) for one in kept["parts"])
    if not isinstance(kept.get("msg"), str):
        return kept
    values = {key: told(value) for key, value in kept.get("values", {}).items()}
    if "plural" in kept:
        return ngettext(kept["msg"], kept["plural"], kept["n"], **values)
    return gettext(kept["msg"], **values)


def listed(items: list[str]) -> str:
    """Items said together in the language spoken, as CLDR writes a list: "Ann, Ben and Cy", "Ann, Ben et Cy"
    (Babel's format_list; English's serial comma included)."""
    return format_list(list(items), locale=locale()) if items else ""


def number(value: float | int, digits: int | None = None) -> str:
    """A number as the language writes it: 12.5 -> "12,5" in French; `digits` fixes the decimals shown."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return str(value)
    if digits is not None:
        pattern = "#,##0" + ("." + "0" * digits if digits else "")
        return format_decimal(value, format=pattern, locale=_speaking.get())
    return format_decimal(value, locale=_speaking.get())


def day(value: date | datetime, style: str = "medium") -> str:
    """A date as the language writes it: "5 Dec 2026", "5 déc. 2026", "05.12.2026"."""
    return format_date(value, format=style, locale=_speaking.get())


def locale() -> Locale:
    """The Babel locale of the language spoken (its plural rules, its names of things)."""
    return Locale.parse(_speaking.get())
