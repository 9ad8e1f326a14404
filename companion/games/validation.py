"""Validate JSON documents for the rules functions and the table events.

Every checker takes the value and its path (`players[1].guilders`, `$` for the
document's root) and either returns the clean value or raises RulesError naming
that path, so that the CLI, the HTTP API and the web forms all report the same
field and message (CONTRACT.md, "Errors").
"""

from __future__ import annotations

import unicodedata
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any, Callable, Iterable, Iterator

from .confusables import prototype, skeleton
from .speech import N_, _, ngettext

NAME_MAX = 40


class RulesError(ValueError):
    """Invalid input: `field` is the path to the offending value, `message` says what is allowed.

    `message` is what the JSON API and the CLI say, in the document's terms ("automa": true); `said`,
    when given, is what a page says instead, in what the player sees ("With the automa"): the page
    takes it through companion/wording.py. Without it both say `message`.
    """

    def __init__(self, field: str, message: str, said: str | None = None):
        super().__init__(f"{field}: {message}")
        self.field = field
        self.message = message
        self.said = said

    def moved(self, field: str) -> "RulesError":
        """The same refusal about a value found at another path (an option's "automa" as "options.automa")."""
        return RulesError(field, self.message, self.said)


def at(parent: str, key: str | int) -> str:
    """Return the path of `key` inside `parent` (`players` + 1 -> `players[1]`)."""
    if isinstance(key, int):
        return f"{'' if parent == '$' else parent}[{key}]"
    if key == "":  # an empty key still needs a path that names it, never an empty field
        return f"{parent or '$'}[\"\"]"
    return key if parent in ("$", "") else f"{parent}.{key}"


def obj(value: Any, field: str, required: Iterable[str] = (), optional: Iterable[str] = ()) -> dict:
    """Check an object: every required key present, no key outside required + optional."""
    if not isinstance(value, dict):
        raise RulesError(field, _("must be an object"))
    required = tuple(required)
    allowed = set(required) | set(optional)
    for key in value:
        if not isinstance(key, str) or key not in allowed:
            # Translators: what "unknown key; allowed: ..." lists when no key is allowed
            listed = ", ".join(sorted(allowed)) or _("none")
            raise RulesError(at(field, str(key)), _("unknown key; allowed: %(allowed)s", allowed=listed))
    for key in required:
        if key not in value:
            raise RulesError(at(field, key), _("is required"))
    return value


def whole(value: Any, field: str, lo: int | None = None, hi: int | None = None) -> int:
    """Check a whole number (a JSON integer, not a float, string or boolean) within lo..hi."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise RulesError(field, _range_text(lo, hi))
    if (lo is not None and value < lo) or (hi is not None and value > hi):
        raise RulesError(field, _range_text(lo, hi))
    return value


def _range_text(lo: int | None, hi: int | None) -> str:
    if lo is not None and hi is not None:
        return _("must be a whole number from %(lo)s to %(hi)s", lo=lo, hi=hi)
    if lo is not None:
        return _("must be a whole number of at least %(lo)s", lo=lo)
    if hi is not None:
        return _("must be a whole number of at most %(hi)s", hi=hi)
    return _("must be a whole number")


def flag(value: Any, field: str) -> bool:
    """Check a JSON boolean."""
    if not isinstance(value, bool):
        raise RulesError(field, _("must be true or false"))
    return value


def choice(value: Any, field: str, options: Iterable[str]) -> str:
    """Check that value is one of the given strings."""
    options = list(options)
    if not isinstance(value, str) or value not in options:
        raise RulesError(field, _("must be one of: %(options)s", options=", ".join(options)))
    return value


def text(value: Any, field: str, max_len: int = NAME_MAX) -> str:
    """Check a name or other short text the other phones show: trimmed, in NFC, non-empty, at most
    max_len characters, and showing what it holds (see `hidden`)."""
    if not isinstance(value, str):
        raise RulesError(field, _("must be a string"))
    surrogate = _lone_surrogate(value)
    if surrogate:
        raise RulesError(field, surrogate)
    # NFC: "ë" typed as e + U+0308 and as one character are stored alike
    value = unicodedata.normalize("NFC", value).strip()
    if not value:
        raise RulesError(field, _("must not be empty"))
    if len(value) > max_len:
        # the English says "characters" whatever the number (as it always did); other languages choose the form
        raise RulesError(field, ngettext("must be at most %(num)d characters", "must be at most %(num)d characters", max_len))
    problem = hidden(value)
    if problem:
        raise RulesError(field, problem)
    return value


# --- text that shows what it holds (issue 13) ------------------------------------------------------
#
# A name is drawn on every phone at the table, so it must look like what it is. Refused:
# - controls (Cc) and line or paragraph separators (Zl, Zp): they break the line, and a paragraph
#   separator ends the <bdi> that isolates the name;
# - direction controls: U+202E turns "evil" into what reads "live", and the line around it too;
# - other format characters (Cf) and the fillers that draw nothing (U+3164 Hangul filler, U+2800
#   braille blank...): a zero-width space makes "Anna" and "An<ZWSP>na" two names that look one, and
#   an invisible-only name a blank seat; tag characters can carry a whole hidden text;
# - private-use (Co) and unassigned (Cn) code points: each phone draws them its own way, or as a
#   box, so players would not see the same name; except unassigned code points in the emoji blocks,
#   which are emoji newer than this Python's Unicode tables and are drawn as emoji;
# - lone surrogates (Cs): half of a UTF-16 pair, no character at all (and no UTF-8 can hold one);
# - a combining mark or variation selector with nothing of its own to sit on.
# Allowed, because scripts and emoji need them, each only where it has an effect:
# - the zero width joiner and non-joiner after a virama (Devanagari, Sinhala... RFC 5892 A.1, A.2),
#   the non-joiner between two letters of a joining script (in Persian names), and the joiner
#   between two emoji (a ZWJ sequence such as a family, or the rainbow flag);
# - one variation selector right after a character (U+2764 U+FE0F is the red heart emoji);
# - the tag characters of the three subdivision flags in Unicode's emoji set (England, Scotland, Wales).

ZWNJ, ZWJ = "\u200c", "\u200d"
#: direction controls: embeddings, overrides, isolates and marks
BIDI = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f\u061c")
#: letters and symbols that draw nothing (Unicode's default-ignorable ones outside Cf, and the braille blank)
FILLERS = frozenset("\u034f\u115f\u1160\u17b4\u17b5\u3164\uffa0\u2800")
#: the only tag sequences in Unicode's emoji set: 🏴 + "gbeng", "gbsct", "gbwls" + cancel tag
FLAG_TAGS = frozenset("\U0001f3f4" + "".join(chr(0xE0000 + ord(c)) for c in code) + "\U000e007f"
                      for code in ("gbeng", "gbsct", "gbwls"))
#: what may follow an emoji before a ZWJ: a skin tone (U+1F3FB..U+1F3FF) or the emoji style (U+FE0F)
_EMOJI_TAILS = "".join(chr(c) for c in range(0x1F3FB, 0x1F400)) + "\ufe0f"


def _is_selector(ch: str) -> bool:
    cp = ord(ch)
    return 0xFE00 <= cp <= 0xFE0F or 0xE0100 <= cp <= 0xE01EF or 0x180B <= cp <= 0x180D or cp == 0x180F


def _is_emoji(ch: str) -> bool:
    """A pictographic symbol, or an emoji newer than this Python's Unicode tables."""
    category = unicodedata.category(ch)
    return category == "So" or (category == "Cn" and 0x1F000 <= ord(ch) <= 0x1FAFF)


def _joins(ch: str) -> bool:
    """A letter of a script whose letters join (Arabic, Syriac, N'Ko, Mongolian, Adlam...)."""
    cp = ord(ch)
    return unicodedata.category(ch).startswith("L") and (
        0x0600 <= cp <= 0x08FF or 0x1800 <= cp <= 0x18AF or 0xA840 <= cp <= 0xA87F or 0xFB50 <= cp <= 0xFDFF
        or 0xFE70 <= cp <= 0xFEFF or 0x10AC0 <= cp <= 0x10FFF or 0x1E900 <= cp <= 0x1E95F)


def _said(ch: str) -> str:
    name = unicodedata.name(ch, "")
    return f"U+{ord(ch):04X}" + (f" {name}" if name else "")


def _lone_surrogate(value: str) -> str | None:
    for ch in value:
        if 0xD800 <= ord(ch) <= 0xDFFF:
            return _("must not contain a lone surrogate (%(char)s): half of a UTF-16 pair is no character", char=_said(ch))
    return None


def _joiner_has_effect(value: str, i: int) -> bool:
    """A ZWJ or ZWNJ where a script or an emoji sequence needs it (see above)."""
    if i == 0 or i == len(value) - 1:
        return False
    if unicodedata.combining(value[i - 1]) == 9:  # after a virama
        return True
    if value[i] == ZWJ:  # between two emoji; the first may carry a skin tone or the emoji style
        before = value[:i].rstrip(_EMOJI_TAILS)
        return bool(before) and _is_emoji(before[-1]) and _is_emoji(value[i + 1])
    # ZWNJ: between two joining letters, with any marks (which do not join) between
    left, right = i - 1, i + 1
    while left >= 0 and unicodedata.category(value[left]) == "Mn":
        left -= 1
    while right < len(value) and unicodedata.category(value[right]) == "Mn":
        right += 1
    return left >= 0 and right < len(value) and _joins(value[left]) and _joins(value[right])


def hidden(value: str) -> str | None:
    """Say what in `value` hides or turns text (the list above), or None when it shows what it holds."""
    surrogate = _lone_surrogate(value)
    if surrogate:
        return surrogate
    skip = 0
    for i, ch in enumerate(value):
        if skip:
            skip -= 1
            continue
        category = unicodedata.category(ch)
        if ch == "\U0001f3f4":  # a black flag, maybe a subdivision's: its tags are part of it
            tags = next((f for f in FLAG_TAGS if value.startswith(f, i)), None)
            skip = len(tags) - 1 if tags else 0
            continue
        if category == "Cc":
            return _("must not contain control characters (%(char)s)", char=_said(ch))
        if category in ("Zl", "Zp"):
            return _("must not contain line or paragraph separators (%(char)s)", char=_said(ch))
        if ch in BIDI:
            return _("must not contain direction controls (%(char)s): they turn the text around them", char=_said(ch))
        if ch in (ZWJ, ZWNJ):
            if not _joiner_has_effect(value, i):
                return _("must not contain invisible characters (%(char)s)", char=_said(ch))
            continue
        if category == "Cf" or ch in FILLERS:
            return _("must not contain invisible characters (%(char)s)", char=_said(ch))
        if category == "Co":
            return _("must not contain private-use characters (%(char)s): each phone draws them its own way", char=_said(ch))
        if category == "Cn" and not _is_emoji(ch):
            return _("must not contain unassigned characters (%(char)s)", char=_said(ch))
        if _is_selector(ch):
            previous = value[i - 1] if i else ""
            if not previous or previous.isspace() or _is_selector(previous) or unicodedata.category(previous) in ("Cf", "Mn"):
                return _("must not contain invisible characters (%(char)s): a variation selector must follow the character it varies",
                         char=_said(ch))
            continue
        if i == 0 and category in ("Mn", "Me", "Mc"):
            return _("must not start with a combining mark (%(char)s): it would sit on the text before the name", char=_said(ch))
    return None


def _shown(name: str) -> str:
    """The name as a page draws it: NFKC, without joiners and variation selectors, and with runs
    of spaces as one (a page shows them as one); its case kept."""
    folded = unicodedata.normalize("NFKC", name)
    folded = "".join(ch for ch in folded if ch not in (ZWJ, ZWNJ) and not _is_selector(ch))
    return " ".join(folded.split())


def name_key(name: str) -> str:
    """The form two names are the same name in: `_shown`, case-folded, so that "Anna", "anna",
    "Ａｎｎａ" and "Anna" with a decomposed letter are one name twice."""
    return " ".join(unicodedata.normalize("NFKC", _shown(name).casefold()).split())


# --- names that can pass for each other (issue 40, item 7) -----------------------------------------
#
# Two names can pass for each other when their confusable skeletons are equal (Unicode's UTS #39,
# games/confusables.py): a Cyrillic "Аnn" beside "Ann", a Greek "Bοb" beside "Bob". The skeletons
# are compared twice, because confusables.txt maps some letters in one case only:
# - of the name as `name_key` folds it, so that case and width do not matter ("ＡNN", "Аnn");
# - of the name in its own case, case-folded after, for the capitals that look like another
#   letter only as capitals ("AI" with a capital i beside "Al"; "Вob" with a Cyrillic В beside "Bob").
# That is the standard's choice of what looks alike, and it refuses some pairs of real names at one
# table: "Al" and "AI", "Amie" and "Arnie" (m is taken for rn), "Bo" and "B0", "Iris" and "lris";
# "Ann" and "Anna", "Ana" and "Ána", a lower-case Cyrillic "вob" (it looks like a small capital B)
# and "bob" stay two names.


#: True while a stored table is read (games/base.py: its view, its result, its events folded again):
#: a table stored before issue 40 may hold two look-alikes, and a later check never loses a stored
#: game (base.Context.replayed); there, only the same name (`name_key`) is one name twice
_STORED = ContextVar("stored_names", default=False)


@contextmanager
def stored_names() -> Iterator[None]:
    """Check names as a table stored before issue 40 held them: the same name twice is refused, a look-alike is not."""
    token = _STORED.set(True)
    try:
        yield
    finally:
        _STORED.reset(token)


def _skeletons(name: str) -> tuple[str, str]:
    return skeleton(name_key(name)), skeleton(skeleton(_shown(name)).casefold())


def look_alike(name: str, other: str) -> bool:
    """Whether two names can pass for each other at one table: the same name (`name_key`), or
    confusable (the comment above)."""
    return any(a == b for a, b in zip(_skeletons(name), _skeletons(other)))


def _taken_for(name: str, other: str) -> tuple[str, str] | None:
    """A character of one of the names that is taken for something the other holds, with that
    something ("А", "A"): the name's first, else the other's; None when none alone explains it."""
    for mine, theirs in ((name, other), (other, name)):
        for ch in unicodedata.normalize("NFC", mine):
            like = prototype(ch)
            if like is not None and ch not in theirs:
                return ch, like
    return None


def twice(name: str, others: Iterable[str]) -> str | None:
    """Say why `name` cannot sit at one table beside `others`, naming the first of them it can pass
    for; None when it can sit there."""
    for other in others:
        if other == name:
            return _("duplicate name %(name)s; names must be unique", name=repr(name))
        if not (name_key(name) == name_key(other) if _STORED.get() else look_alike(name, other)):
            continue
        taken = _taken_for(name, other) if name_key(name) != name_key(other) else None
        if taken is None:
            return _("%(name)s looks the same as %(other)s; names must be unique", name=repr(name), other=repr(other))
        return _("%(name)s looks the same as %(other)s (%(char)s looks like %(like)s); names must be unique",
                 name=repr(name), other=repr(other), char=_said(taken[0]), like=taken[1])
    return None


def no_lone_surrogates(value: Any, field: str = "$") -> Any:
    """Check a whole JSON document for lone surrogates (JSON's "\\ud800" escape allows one) in any
    string or key; raise RulesError at the first one's path. Nothing past this holds text no UTF-8
    can encode, so nothing can fail later when it is stored, logged or shown."""
    stack = [(value, field)]
    while stack:
        item, path = stack.pop()
        if isinstance(item, str):
            problem = _lone_surrogate(item)
            if problem:
                raise RulesError(path, problem)
        elif isinstance(item, dict):
            for key, child in item.items():
                problem = _lone_surrogate(key)
                if problem:  # the key said with its escape, so the path itself is text
                    raise RulesError(at(path, key.encode("utf-8", "backslashreplace").decode("utf-8")), problem)
                stack.append((child, at(path, key)))
        elif isinstance(item, list):
            stack.extend((child, at(path, i)) for i, child in enumerate(item))
    return value


def listof(value: Any, field: str, lo: int = 0, hi: int | None = None) -> list:
    """Check a JSON array whose length is within lo..hi."""
    if not isinstance(value, list):
        raise RulesError(field, _("must be a list"))
    if len(value) < lo or (hi is not None and len(value) > hi):
        # the English says "items" whatever the number (as it always did); other languages choose the form
        if hi is None:
            raise RulesError(field, ngettext("must hold at least %(num)d items", "must hold at least %(num)d items", lo))
        if lo == hi:
            raise RulesError(field, ngettext("must hold exactly %(num)d items", "must hold exactly %(num)d items", lo))
        raise RulesError(field, ngettext("must hold %(lo)s to %(num)d items", "must hold %(lo)s to %(num)d items", hi, lo=lo))
    return value


def distinct(value: Any, field: str, check: Callable[[Any, str], Any], lo: int = 0, hi: int | None = None,
             twice: str = N_("{} is listed twice")) -> list:
    """Check a list of lo..hi items, each passing `check(item, path)`, none listed twice.

    `twice` is the message for a repeat, with `{}` for the item ("objective {} is listed twice"):
    marked with N_ where it is written, translated here.
    """
    items = listof(value, field, lo, hi)
    seen = set()
    for i, item in enumerate(items):
        check(item, at(field, i))
        if item in seen:
            raise RulesError(at(field, i), _(twice).format(item))
        seen.add(item)
    return items


def names(value: Any, field: str, lo: int = 1, hi: int = 4) -> list[str]:
    """Check a list of player names: lo..hi names, each a `text`, no two alike (`twice`)."""
    items = listof(value, field)
    if not lo <= len(items) <= hi:
        raise RulesError(field, ngettext("must be %(num)d name", "must be %(num)d names", lo) if lo == hi else
                         ngettext("must be %(lo)s to %(num)d names", "must be %(lo)s to %(num)d names", hi, lo=lo))
    clean: list[str] = []
    for i, item in enumerate(items):
        clean.append(text(item, at(field, i)))
    unique(clean, lambda i: at(field, i))
    return clean


def unique_names(players: list[dict], field: str = "players") -> None:
    """Check that the `name` of each player object is unique within the document (`twice`)."""
    unique([p["name"] for p in players], lambda i: at(at(field, i), "name"))


def unique(names: list[str], path: Callable[[int], str]) -> None:
    """Refuse the first name that can pass for one before it (`twice`: the same name, or a look-alike)."""
    for i, name in enumerate(names):
        problem = twice(name, names[:i])
        if problem:
            raise RulesError(path(i), problem)


def places(totals: dict[str, tuple]) -> tuple[list[str], dict[str, int]]:
    """Rank players by a sort key (higher is better); equal keys share a place and the next place skips.

    `totals` maps each name to a tuple compared as a whole (total first, then tie-breaks),
    e.g. (fame, -types, -inks). Returns (winners, places) in the contract's shape.
    """
    ordered = sorted(totals, key=lambda n: totals[n], reverse=True)
    result: dict[str, int] = {}
    for i, name in enumerate(ordered):
        if i and totals[name] == totals[ordered[i - 1]]:
            result[name] = result[ordered[i - 1]]
        else:
            result[name] = i + 1
    winners = [n for n in ordered if result[n] == 1]
    return winners, result
