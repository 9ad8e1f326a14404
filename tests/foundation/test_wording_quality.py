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


# -- item 12: Polish colons -------------------------------------------------------------------------

COLON = re.compile(r":(?=\s|$)")


def test_polish_never_stacks_two_colons():
    wrong = []
    for folder, _message, english, strings in messages("pl"):
        label = re.search(r"\{[a-z_]*\}", english)  # a field's label: the page says "label: problem" after it
        for text in strings:
            colons, theirs = len(COLON.findall(text)), len(COLON.findall(english))
            if (label and colons) or (colons >= 2 and colons > theirs):
                wrong.append(f"{folder.relative_to(ROOT)}: {english!r} -> {text!r}")
    assert not wrong, "\n".join(wrong)


# -- item 12: English game words left in a translation ----------------------------------------------

ENGLISH_WORDS = re.compile(r"\b(?:tracks?|abjure)\b", re.IGNORECASE)


@pytest.mark.parametrize("lang", ["es", "pl"])
def test_no_english_game_word_is_left_in_a_translation(lang):
    wrong = [f"{english!r} -> {text!r}" for _, _, english, strings in messages(lang) for text in strings
             if ENGLISH_WORDS.search(text)]
    assert not wrong, f"{len(wrong)} sentences keep an English word:\n" + "\n".join(wrong)


# -- item 12: Codex's play area and the object are two words ----------------------------------------

AREA = ["Manuscript", "%(name)s's manuscript", "Counted from the manuscript: %(symbols)s",
        "This player's patterns are counted from the manuscript."]
OBJECT = ["manuscript", "manuscripts", "%(points)s per set of quill + inkwell + manuscript", "{who}'s visible manuscripts",
          "%(who)s: gold card, %(num)d manuscript visible: +%(points)s"]


@pytest.mark.parametrize("lang", TRANSLATED)
def test_codex_names_the_play_area_and_the_object_with_two_words(lang):
    stem = translation(lang, "Manuscript", "codex").casefold()[:6]  # "manusk", "manusc", "manosc"
    area = [translation(lang, e, "codex") for e in AREA]
    objects = [translation(lang, e, "codex") for e in OBJECT]
    assert all(stem in text.casefold() for text in area), (stem, area)
    assert not [text for text in objects if stem in text.casefold()], (stem, objects)


# -- item 12: the wrong words the reading found -----------------------------------------------------

#: (language, English, what its translation must not say, why)
WRONG_WORDS = [
    ("it", "Scoreboard", r"\btabellone\b", "the game board, not the scores"),
    ("it", "Take orders", r"\bprendere ordini\b", "to obey orders; a Gutenberg order is a print job"),
    ("es", "Keep", r"^quedarse$", "to stay"),
    ("pl", "Keep", r"^zatrzymaj$", "reads as Stop"),
    ("es", "Status (Cathedral)", r"\bestado\b", "a state, not a standing"),
    ("it", "Status (Cathedral)", r"\bstato\b", "a state, not a standing"),
    ("es", "Status", r"\bestado\b", "a state, not a standing"),
    ("it", "Status", r"\bstato\b", "a state, not a standing"),
    ("pl", "watching", r"oglądam", "'You are: I am watching'"),
    ("es", "watching", r"mirando", "'You are: looking'"),
]


@pytest.mark.parametrize("lang, english, wrong, why", WRONG_WORDS, ids=[f"{lang}-{english}" for lang, english, _, _ in WRONG_WORDS])
def test_a_word_the_reading_found_wrong_stays_fixed(lang, english, wrong, why):
    assert not re.search(wrong, translation(lang, english), re.IGNORECASE), why


@pytest.mark.parametrize("lang", TRANSLATED)
def test_galileos_status_rank_and_place_are_three_words(lang):
    """The end's Status (a standing in the Cathedral), Rank and the result's Place are told apart."""
    words = [translation(lang, english, "galileo").casefold() for english in ("Status", "Rank", "Place")]
    assert len(set(words)) == 3, words


#: what a language must never say anywhere, and why
NEVER = {
    "es": [(r"%\(self\)s tú\b", "the Abjure button's '−5 you', word for word: '−5 para ti'")],
    "it": [(r"\bprendere ordini\b", "Take orders is Accettare ordini"),
           (r"\binnescat", "the end 'scatta'; 'innescata' is a fuse lit"),
           (r"poi tutti ancora una volta", "the banner's 'then everyone once more', word for word: 'un altro turno a testa'")],
    "pl": [(r"\bwszystkie \S+ kart\b", "five and more take the genitive: wszystkich 10 kart jest"),
           (r"\bkart są\b", "five and more take a singular verb: 10 kart jest"),
           (r"koniec gry (?:już )?(?:się )?(?:nie )?(?:się )?rozpoczyna|koniec gry (?:już )?się rozpoczął|uruchomiony",
            "the end of the game is 'wywołany', not begun or switched on"),
           (r"%\(self\)s ty\b", "the Abjure button's '−5 you', word for word: '−5 dla ciebie'"),
           (r"potem każdy jeszcze raz", "the banner's 'then everyone once more', word for word: 'po jednej dla każdego'")],
}


@pytest.mark.parametrize("lang", sorted(NEVER))
def test_a_phrase_the_reading_found_wrong_is_said_nowhere(lang):
    wrong = [f"{why}: {english!r} -> {text!r}" for _, _, english, strings in messages(lang) for text in strings
             for pattern, why in NEVER[lang] if re.search(pattern, text, re.IGNORECASE)]
    assert not wrong, "\n".join(wrong)


# -- the glossary names the words the catalogs use ---------------------------------------------------

#: (game's title in the glossary, the row's English cell, the catalog's English)
GLOSSARY_ROWS = [
    ("Galileo's Truth", "Status (Cathedral status VP, the record's breakdown)", "Status"),
    ("Gutenberg", "Take orders (action)", "Take orders"),
    ("Codex Naturalis", "manuscript (a player's play area)", "Manuscript"),
    ("Codex Naturalis", "manuscript (object)", "manuscript"),
]


def glossary_row(title: str, english: str) -> dict[str, str]:
    text = (ROOT / "docs" / "glossary.md").read_text(encoding="utf-8")
    section = text.split(f"## {title}", 1)[1].split("\n## ", 1)[0]
    for line in section.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split(" | ")]
        if cells[0] == english:
            return dict(zip(TRANSLATED, cells[1:]))
    raise AssertionError(f"no row {english!r} under {title}")


@pytest.mark.parametrize("title, english, msgid", GLOSSARY_ROWS)
def test_the_glossary_names_the_word_the_catalog_uses(title, english, msgid):
    row = glossary_row(title, english)
    game = {"Galileo's Truth": "galileo", "Gutenberg": "gutenberg", "Codex Naturalis": "codex"}[title]
    said = {lang: translation(lang, msgid, game).casefold() for lang in TRANSLATED}
    assert {lang: cell.casefold() for lang, cell in row.items()} == said
