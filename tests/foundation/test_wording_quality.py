"""The catalogs read as a fluent player writes them (issue 38, items 10-12).

A fluent reading found errors no placeholder check sees. Each class of them is kept out here:
- French never writes "de"/"que" (or an elided d', qu') before a player's name: the name is typed at
  the table, so "de Anna" cannot be elided in advance; the sentence is built so it needs no elision;
- the tie-break lines are not the English word for word ("remporte l'égalité", "wygrywa remis");
- Polish never stacks two colons: a field's label holds none, since the page says "label: problem";
- no English game word ("track", "Abjure") is left in a Spanish or Polish sentence;
- Codex's two "manuscripts", the player's play area and the object on the cards, are two words;
- the wrong words the reading found stay fixed, and docs/glossary.md names the words the catalogs use.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from companion.games import speech

ROOT = Path(__file__).resolve().parents[2]
FOLDERS = speech.catalog_folders()
TRANSLATED = [lang for lang in speech.LANGUAGES if lang != speech.SOURCE]


def messages(lang: str, folders=FOLDERS):
    """Each translated message of a language: (folder, message, its English, its translations)."""
    for folder in folders:
        with (folder / lang / "LC_MESSAGES" / "messages.po").open("rb") as fp:
            catalog = read_po(fp, locale=lang)
        for message in catalog:
            if not message.id:
                continue
            ids = message.id if isinstance(message.id, (list, tuple)) else (message.id,)
            strings = message.string if isinstance(message.string, (list, tuple)) else (message.string,)
            yield folder, message, ids[-1], [s for s in strings if s]


def translation(lang: str, msgid: str, game: str | None = None) -> str:
    folders = [ROOT / "companion" / "games" / game / "translations"] if game else FOLDERS
    found = [strings[0] for _, message, _, strings in messages(lang, folders)
             if (message.id if isinstance(message.id, str) else message.id[0]) == msgid]
    assert found, (lang, msgid)
    return found[0]


# -- item 10: French and players' names ------------------------------------------------------------

#: the placeholders that hold a player's name (companion/wording.py's {who}, {name}, {nth_name}; the
#: games' sentences); any placeholder the English follows with "'s" holds one too
NAME_HOLDERS = {"who", "name", "names", "nth_name", "owner", "by", "trigger", "winner", "winners", "player"}
#: Voynich's automa is called "Voynich", never typed: "de Voynich" is right
NOT_TYPED = {"automa"}
#: words French elides before a vowel: "de", "que", "le", "la" and their elided forms, and an html tag between
ELIDED = r"(?:\b(?:de|que|le|la|du|au|des|aux)\s+|\b(?:d|qu|l)['’])(?:<[^>]+>)*"


def names_held(english: str) -> set[str]:
    spelt = set(re.findall(r"%\(([a-z_]+)\)s|\{([a-z_]+)\}", english))
    found = {a or b for a, b in spelt}
    possessive = {a or b for a, b in re.findall(r"%\(([a-z_]+)\)s(?:</bdi>)?'s|\{([a-z_]+)\}'s", english)}
    return (found & NAME_HOLDERS | possessive) - NOT_TYPED


def test_french_never_puts_de_or_que_before_a_players_name():
    wrong = []
    for folder, _message, english, strings in messages("fr"):
        for name in names_held(english):
            before = re.compile(ELIDED + rf"(?:%\({name}\)s|\{{{name}\}})", re.IGNORECASE)
            wrong += [f"{folder.relative_to(ROOT)}: {english!r} -> {text!r}" for text in strings if before.search(text)]
    assert not wrong, f"{len(wrong)} French sentences elide (or fail to) before a typed name:\n" + "\n".join(wrong)


def test_the_name_holders_are_found():
    """The test above looks where names are: the possessive and the known holders, not the automa's name."""
    assert names_held("{who}'s markers") == {"who"}
    assert names_held("<bdi>%(by)s</bdi>'s GK reached %(gk)s") == {"by"}
    assert names_held("%(owner)s's %(text)s") == {"owner"}
    assert names_held("count %(automa)s's tokens on the board") == set()
    assert names_held("must be a whole number from %(lo)s to %(hi)s") == set()


# -- item 11: the tie-break said as a native speaker says it ----------------------------------------

#: the English "wins the tie" and "a tie won", word for word
CALQUES = {
    "fr": [r"remporte l['’]égalité", r"égalité gagnée"],
    "de": [r"gewinnt den Gleichstand", r"gewonnenen Gleichstand"],
    "pl": [r"wygrywa remis", r"remisem wygranym"],
    "es": [r"gana el empate", r"empate ganado"],
    "it": [r"vince il pareggio", r"pareggio vinto"],
}


@pytest.mark.parametrize("lang", TRANSLATED)
def test_the_tie_break_is_not_the_english_word_for_word(lang):
    calque = re.compile("|".join(CALQUES[lang]), re.IGNORECASE)
    wrong = [f"{english!r} -> {text!r}" for _, _, english, strings in messages(lang) for text in strings if calque.search(text)]
    assert not wrong, "\n".join(wrong)


@pytest.mark.parametrize("lang", TRANSLATED)
def test_every_tie_won_is_said_in_every_language(lang):
    """The sentences that name who won a tie are each translated (the check above must look at them)."""
    english = [e for _, _, e, _ in messages(lang) if "wins the tie" in e]
    assert len(english) >= 4
