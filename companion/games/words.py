"""The words every game says about numbers: ordinals, plurals, and a player's standing at the end.

One place for them, so that the games' scoreboards and messages read alike;
companion/wording.py gives the same functions to the templates (`|plural`, `|ordinal`).

Each speaks the language spoken (games/speech.py): an ordinal as the language writes it, a
plural in the form the language needs for the number (Polish has three), English unchanged.
"""

from __future__ import annotations

from . import speech

#: an ordinal as each language writes it in figures (CLDR's and the languages' usual written forms):
#: French 1er, 2e (the Académie's abbreviations); German and Polish "2." (the full stop is the
#: ordinal); Spanish "2.º" (RAE: full stop, then the masculine ordinal indicator); Italian "2º"
_ORDINALS = {
    "fr": lambda n: f"{n}er" if n == 1 else f"{n}e",
    "de": lambda n: f"{n}.",
    "pl": lambda n: f"{n}.",
    "es": lambda n: f"{n}.º",
    "it": lambda n: f"{n}º",
}


def ordinal(n: int) -> str:
    """1 -> "1st", 2 -> "2nd", 11 -> "11th", 23 -> "23rd"; "1er", "2." , "2.º", "2º" in the language spoken."""
    other = _ORDINALS.get(speech.language())
    if other is not None:
        return other(n)
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def _counted(count: int, word: str, words: str | None) -> str:
    """The language's "%(num)d coin(s)" for `count`, its placeholder left in: the catalogs' own
    ngettext entry of these English words when one is marked somewhere, else the English."""
    word, words = word.replace("%", "%%"), (words or word + "s").replace("%", "%%")
    singular, several = f"%(num)d {word}", f"%(num)d {words}"
    return speech.translations(speech.language()).ungettext(singular, several, count)


def plural(count: int, word: str, words: str | None = None) -> str:
    """Return "1 coin", "2 coins", "0 coins"; `words` for an irregular plural ("1 penalty").

    Translated where a catalog holds `ngettext("%(num)d coin", "%(num)d coins", n)` (the way a
    sentence says a count: prefer calling ngettext with a whole sentence); else as English says it.
    """
    if isinstance(count, bool) or not isinstance(count, int):
        return f"{count} {word if count == 1 else (words or word + 's')}"
    return _counted(count, word, words) % {"num": count}


def standing(place: int, winner: bool) -> str:
    """A finished table's scoreboard status: "winner", else the place ("2nd")."""
    # Translators: a finished game's scoreboard, beside the player who won (else their place: "2nd")
    return speech.gettext("winner") if winner else ordinal(place)


def signed(count: int, word: str, words: str | None = None) -> str:
    """Return a change with its sign: "+1 point", "-3 points", "+0 points" (a stored line's odd value as it is)."""
    if isinstance(count, bool) or not isinstance(count, int):
        return plural(count, word, words)
    # the plural's sentence, its number written with the sign (the form chosen for the number without it)
    return _counted(abs(count), word, words).replace("%(num)d", f"{count:+d}").replace("%%", "%")
