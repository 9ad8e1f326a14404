"""companion/games/speech.py: the language spoken, per request and per greenlet; the catalogs read
from source or compiled; plurals, numbers and dates per language (issue 29)."""

from __future__ import annotations

import json
import re
import threading
from datetime import date

import gevent
import pytest
from babel.messages.pofile import read_po

from companion.games import speech


def plural_entries(lang: str):
    for folder in speech.catalog_folders():
        with (folder / lang / "LC_MESSAGES" / "messages.po").open("rb") as fp:
            for m in read_po(fp, locale=lang):
                if m.id and isinstance(m.id, (list, tuple)) and all(m.string):
                    yield m


def test_english_unless_told_and_an_unknown_language_is_english():
    assert speech.language() == "en"
    with speech.speaking("pl"):
        assert speech.language() == "pl"
        with speech.english():
            assert speech.language() == "en"
        assert speech.language() == "pl"
    with speech.speaking("xx"):
        assert speech.language() == "en"
    with speech.speaking(None):
        assert speech.language() == "en"
    assert speech.language() == "en"


def test_each_greenlet_and_thread_speaks_its_own_language():
    heard = {}

    def phone(lang: str):
        with speech.speaking(lang):
            gevent.sleep(0.01)  # the other phone speaks meanwhile
            heard[lang] = speech.language()

    gevent.joinall([gevent.spawn(phone, lang) for lang in ("fr", "pl", "de")])
    threads = [threading.Thread(target=phone, args=(lang,)) for lang in ("es", "it")]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert heard == {lang: lang for lang in ("fr", "pl", "de", "es", "it")}
    assert speech.language() == "en"


def test_english_is_the_code_itself_and_placeholders_are_filled():
    assert speech.gettext("%(who)s wins", who="Anna") == "Anna wins"
    assert speech.ngettext("%(num)d coin", "%(num)d coins", 1) == "1 coin"
    assert speech.ngettext("%(num)d coin", "%(num)d coins", 22) == "22 coins"
    assert speech.N_("Undo") == "Undo"


def test_polish_says_one_two_five_and_twenty_two_of_a_thing_in_three_forms():
    """1 punkt, 2 punkty, 5 punktów, 22 punkty: every Polish plural of the catalogs, by ngettext."""
    entries = list(plural_entries("pl"))
    assert entries, "no plural sentence is translated into Polish"
    with speech.speaking("pl"):
        for m in entries:
            blank = _blank(m.id[1])
            said = [speech.ngettext(*m.id, n, **blank) for n in (1, 2, 5, 22)]
            wanted = [m.string[form] % dict(blank, num=n) for n, form in ((1, 0), (2, 1), (5, 2), (22, 1))]
            assert said == wanted, m.id


@pytest.mark.parametrize("lang", ["fr", "de", "es", "it"])
def test_every_other_language_says_one_and_many_apart(lang):
    entries = list(plural_entries(lang))
    assert entries, f"no plural sentence is translated into {lang}"
    with speech.speaking(lang):
        for m in entries:
            blank = _blank(m.id[1])
            assert speech.ngettext(*m.id, 1, **blank) == m.string[0] % dict(blank, num=1), m.id
            assert speech.ngettext(*m.id, 5, **blank) == m.string[-1] % dict(blank, num=5), m.id


def _blank(text: str) -> dict:
    """A word for every placeholder of a plural but its count."""
    return {name: "X" for name in re.findall(r"%\(([a-z_0-9]+)\)", text) if name != "num"}



# --- speech.later / speech.told: a game's notice kept as JSON, said on each phone in its language ------------

PAYS = "%(name)s pays %(cost)s and removes Penance card %(roman)s from the game."  # Galileo's catalog


def pays(coins: int) -> dict:
    return speech.later.gettext(PAYS, name="Meg", roman="II", cost=speech.later.ngettext("%(num)d coin", "%(num)d coins", coins))


@pytest.mark.parametrize("coins, polish", [(1, "1 monetę"), (2, "2 monety"), (5, "5 monet"), (22, "22 monety")])
def test_a_kept_sentence_says_its_nested_plural_in_each_polish_form_and_english_unchanged(coins, polish):
    with speech.speaking("pl"):
        kept = pays(coins)  # kept, not said: the language spoken while keeping it changes nothing
        assert speech.told(kept) == f"Meg płaci {polish} i usuwa z gry kartę Pokuty II."
    assert kept == {"msg": PAYS, "values": {"name": "Meg", "roman": "II", "cost": {
        "msg": "%(num)d coin", "plural": "%(num)d coins", "n": coins, "values": {}}}}
    assert speech.told(kept) == f"Meg pays {coins} coin{'s' if coins != 1 else ''} and removes Penance card II from the game."


def test_a_kept_sentence_is_plain_json_and_says_the_same_once_stored():
    kept = pays(5)
    stored = json.loads(json.dumps(kept))
    assert stored == kept
    with speech.speaking("pl"):
        assert speech.told(stored) == speech.told(kept) == "Meg płaci 5 monet i usuwa z gry kartę Pokuty II."


def test_a_list_of_kept_sentences_is_said_joined_by_commas_and_joined_by_its_own_separator():
    parts = [speech.later.gettext("suspicion track"), speech.later.gettext("tiles")]
    kept = speech.later.gettext("Board values saved: %(sections)s", sections=parts)
    assert speech.told(kept) == "Board values saved: suspicion track, tiles"
    assert speech.told(speech.later.joined("; ", parts)) == "suspicion track; tiles"
    with speech.speaking("pl"):
        assert speech.told(kept) == "Zapisano wartości z planszy: tor podejrzeń, żetony"
        assert speech.told(speech.later.joined(" ", parts)) == "tor podejrzeń żetony"


@pytest.mark.parametrize("value", ["Anna: suspicion +2, now 3.", 7, None, {"player": 0, "text": "Saved"}, {"msg": 3}])
def test_what_is_not_a_kept_sentence_is_told_as_it_is(value):
    """A name, a number, the English text of a state stored before its sentence was kept, a dict of another shape."""
    with speech.speaking("pl"):
        assert speech.told(value) == value
    assert speech.told(value) == value


def test_a_value_that_is_not_a_sentence_fills_its_placeholder_untouched():
    """A player named like a game word stays their name; a number stays a number."""
    row = speech.later.gettext("%(name)s's row is in.", name="tiles")  # "tiles" is "żetony" as a game word
    cycle = speech.later.gettext("Everyone has passed: End of Cycle %(cycle)s.", cycle=2)
    with speech.speaking("pl"):
        assert speech.told(row) == "Wiersz gracza tiles jest zapisany."
        assert speech.told(cycle) == "Wszyscy spasowali: koniec cyklu 2."
    assert (speech.told(row), speech.told(cycle)) == ("tiles's row is in.", "Everyone has passed: End of Cycle 2.")


def test_numbers_and_dates_follow_the_language():
    assert speech.number(12.5) == "12.5" and speech.number(1234) == "1,234"
    with speech.speaking("fr"):
        assert speech.number(12.5) == "12,5"
        assert speech.number(3, digits=1) == "3,0"
        assert "déc." in speech.day(date(2026, 12, 5))
    with speech.speaking("de"):
        assert speech.number(1234.5) == "1.234,5"
        assert speech.day(date(2026, 12, 5)) == "05.12.2026"
    with speech.speaking("pl"):
        assert speech.number(12.5) == "12,5"
        assert "gru" in speech.day(date(2026, 12, 5))
    assert speech.number(True) == "True"  # not a number: said as it is


def test_a_checkout_without_compiled_catalogs_reads_the_sources(tmp_path, monkeypatch):
    """The package build compiles .mo files (setup.py); a checkout reads each .po when its .mo is missing or older."""
    folder = tmp_path / "companion" / "translations" / "pl" / "LC_MESSAGES"
    folder.mkdir(parents=True)
    (folder / "messages.po").write_text(
        'msgid ""\nmsgstr ""\n"Language: pl\\n"\n"Content-Type: text/plain; charset=utf-8\\n"\n'
        '"Plural-Forms: nplurals=3; plural=(n==1 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2);\\n"\n\n'
        'msgid "Undo"\nmsgstr "Cofnij"\n\n'
        '#, fuzzy\nmsgid "Redo"\nmsgstr "Ponów"\n', encoding="utf-8")
    monkeypatch.setattr(speech, "PACKAGE", tmp_path / "companion")
    speech.translations.cache_clear()
    try:
        with speech.speaking("pl"):
            assert speech.gettext("Undo") == "Cofnij"
            assert speech.gettext("Redo") == "Redo"  # a fuzzy guess is never shown
    finally:
        speech.translations.cache_clear()


def test_a_template_plural_takes_every_placeholder_and_escapes_it(app):
    """Jinja's newstyle ngettext fills the sentence itself: a plural may name more than its count."""
    from flask import render_template_string

    with app.test_request_context("/"):
        said = render_template_string('{{ ngettext("%(who)s has %(num)d coin", "%(who)s has %(num)d coins", n, who=who) }}',
                                      n=2, who="<b>Ana 100%</b>")
    assert said == "&lt;b&gt;Ana 100%&lt;/b&gt; has 2 coins"
