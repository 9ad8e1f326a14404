"""The shared sentences speak the reader's language, and what is stored stays English (issue 29).

companion/wording.py, companion/games/validation.py, companion/games/words.py, companion/history.py
and companion/results.py say their words in the language spoken (games/speech.py); the result
document and a table's state, which the API, the export and BG Stats read, are English whatever
the page that finished the table speaks.
"""

from __future__ import annotations

import io
import json

import pytest
from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.support import Translations
from markupsafe import escape

from companion import db as database, history, results, tables
from companion.games import registry, speech
from companion.games.validation import RulesError, listof, obj, whole
from companion.games.words import ordinal, plural, signed, standing
from companion.wording import said

NAMES = ["Anna", "Ben", "Cleo"]


def test_polish_says_1_2_5_and_22_items_in_its_three_forms():
    def refused(n: int) -> str:
        with pytest.raises(RulesError) as err:
            listof([], "players", lo=n)
        return said(err.value, NAMES).text

    with speech.speaking("pl"):
        lines = [refused(n) for n in (1, 2, 5, 22)]
    assert lines == ["Gracze: musi zawierać co najmniej 1 element", "Gracze: musi zawierać co najmniej 2 elementy",
                     "Gracze: musi zawierać co najmniej 5 elementów", "Gracze: musi zawierać co najmniej 22 elementy"]
    assert len({line.rsplit(" ", 1)[1] for line in lines}) == 3
    assert refused(2) == "The players: must hold at least 2 items"  # English as it was


@pytest.mark.parametrize("lang, said_", [
    ("en", ["1st", "2nd", "3rd", "4th", "11th", "22nd"]),
    ("fr", ["1er", "2e", "3e", "4e", "11e", "22e"]),
    ("de", ["1.", "2.", "3.", "4.", "11.", "22."]),
    ("pl", ["1.", "2.", "3.", "4.", "11.", "22."]),
    ("es", ["1.º", "2.º", "3.º", "4.º", "11.º", "22.º"]),
    ("it", ["1º", "2º", "3º", "4º", "11º", "22º"]),
])
def test_ordinals_are_written_as_each_language_writes_them(lang, said_):
    with speech.speaking(lang):
        assert [ordinal(n) for n in (1, 2, 3, 4, 11, 22)] == said_


def test_a_place_and_the_winner_on_the_scoreboard():
    with speech.speaking("fr"):
        assert (standing(1, True), standing(2, False)) == ("gagnant", "2e")
    with speech.speaking("de"):
        assert (standing(1, True), standing(3, False)) == ("Sieger", "3.")
    assert (standing(1, True), standing(2, False)) == ("winner", "2nd")


def test_a_field_left_empty_is_said_missing_in_french_and_polish():
    english = RulesError("players[1].vp", "is required")
    with speech.speaking("fr"):
        with pytest.raises(RulesError) as in_french:  # the same refusal, raised while a French page asks
            obj({}, "players[1]", required=("vp",))
        fr = [said(e, NAMES).text for e in (english, in_french.value)]
        renamed = said(RulesError("data.name", "is required"), NAMES, {}, "rename", {"player": 1}).text
    with speech.speaking("pl"):
        pl = said(english, NAMES).text
        pl_renamed = said(RulesError("data.name", "is required"), NAMES, {}, "rename", {"player": 1}).text
    assert fr[0] == fr[1] and fr[0].endswith("PV (Ben) : à remplir"), fr
    assert renamed == "Nouveau nom (Ben) : à remplir"
    assert pl.endswith("gracza Ben: do uzupełnienia") and pl_renamed == "Nowe imię gracza Ben: do uzupełnienia"
    assert said(english, NAMES).text == "Ben's VP is missing"  # English unchanged
    with speech.speaking("fr"):  # any other refusal: the label, then the message, one French pattern
        line = said(RulesError("players[1].vp", "must be a whole number from 0 to 999"), NAMES).text
        with pytest.raises(RulesError) as err:
            whole("x", "players[1].vp", 0, 999)
        raised = said(err.value, NAMES).text
    assert line.endswith("(Ben) : must be a whole number from 0 to 999")  # the message as it was raised
    assert err.value.message == "doit être un nombre entier de 0 à 999"
    assert raised.endswith("(Ben) : doit être un nombre entier de 0 à 999")


def test_the_history_says_an_undo_and_a_rename_in_the_language_spoken():
    class Table:
        names = ["Anna", "Bea"]
        rules = None

    log = [{"seq": 1, "type": "rename", "data": {"player": 1, "name": "Bea"}, "at": "", "seat": 0},
           {"seq": 2, "type": "undo", "data": {"seq": 1}, "at": "", "seat": 0}]
    with speech.speaking("de"):
        de = [line["text"] for line in history.history(Table, log)]
    assert de == ["Rückgängig: Spieler 2 heißt jetzt Bea", "Spieler 2 heißt jetzt Bea"]
    assert [line["text"] for line in history.history(Table, log)] == ["Undo: Player 2 is now called Bea",
                                                                       "Player 2 is now called Bea"]


# --- what is stored stays English ------------------------------------------------------------------


def no_profile(game, pid):
    raise AssertionError("no profile expected")


GUTENBERG_ROWS = [
    {"fame": 93, "guilders": 6, "specialties": {"typesetting": 2, "woodcutting": 2, "binding": 2, "illuminating": 2},
     "patronage_cards": 2, "types": 3, "inks": 1},
    {"fame": 90, "guilders": 6, "specialties": {"typesetting": 2, "woodcutting": 2, "binding": 2, "illuminating": 2},
     "patronage_cards": 2, "types": 5, "inks": 1},
]


def finish(conn, game: str, rows: list[dict], names=("Tom", "Anna"), first: list[dict] = ()) -> tables.Table:
    table, _ = tables.create(conn, {"game": game, "players": list(names), "calculator": True}, no_profile)
    for event in first:
        table = tables.append(conn, table.id, {**event, "expected_version": table.version})
    for seat, row in enumerate(rows):
        table = tables.append(conn, table.id, {"type": "sheet", "data": {"player": seat, **row},
                                               "expected_version": table.version})
    return table


def test_a_table_finished_on_a_french_page_stores_and_exports_english(conn, tmp_path):
    with speech.speaking("fr"):
        table = finish(conn, "gutenberg", GUTENBERG_ROWS)
        doc = results.result(tables.load(conn, table.id))
        with pytest.raises(RulesError) as refused:  # a refusal is still said in the page's words
            tables.append(conn, table.id, {"type": "sheet", "data": {"player": 7}, "expected_version": table.version})
    assert table.finished and refused.value.message == "est obligatoire"
    english_path = tmp_path / "en.db"
    database.migrate(english_path)
    other = database.connect(english_path)
    try:
        in_english = finish(other, "gutenberg", GUTENBERG_ROWS)
        same = results.result(tables.load(other, in_english.id))
    finally:
        other.conn.close()
    assert tables.load(conn, table.id).state == in_english.state
    assert doc["verdict"] == same["verdict"] == "Tom wins"
    # the two tables finished a moment apart, maybe in two seconds: what is compared is the words
    unlike = {"table": 0, "finished_at": 0, "bgstats_url": 0}
    assert json.dumps({**doc, **unlike, "play": {**doc["play"], "playDate": 0, "sourcePlayId": 0}}) == json.dumps(
        {**same, **unlike, "play": {**same["play"], "playDate": 0, "sourcePlayId": 0}})


CODEX_ROWS = [
    {"placement_points": 21, "secret": 99, "visible": {"quill": 3, "inkwell": 2, "manuscript": 1}, "patterns": {"91": 1}},
    {"placement_points": 12, "secret": 96, "visible": {"quill": 2, "plant": 7}, "patterns": {"91": 0}},
]


@pytest.fixture
def polish_points():
    """Polish catalog entries for the counts a game says ("25 points", "9 guilders"), as a game's catalog
    gives them (words.plural finds them): so a sentence a game stores or exports would turn Polish."""
    catalog = Catalog(locale="pl")
    catalog.add(("%(num)d point", "%(num)d points"), ("%(num)d punkt", "%(num)d punkty", "%(num)d punktów"))
    catalog.add(("%(num)d guilder", "%(num)d guilders"), ("%(num)d gulden", "%(num)d guldeny", "%(num)d guldenów"))
    compiled = io.BytesIO()
    write_mo(compiled, catalog)
    compiled.seek(0)
    speech.translations.cache_clear()
    speech.translations("pl").merge(Translations(compiled))
    yield
    speech.translations.cache_clear()


def test_a_verdict_is_stored_in_english_and_shown_in_the_readers_language(conn, polish_points):
    common = {"type": "common_objectives", "data": {"cards": [91, 102]}}
    with speech.speaking("pl"):
        table = finish(conn, "codex", CODEX_ROWS, ("Anna", "Ben"), [common])
        doc = results.result(tables.load(conn, table.id))
        shown, page = results.verdict(doc), str(escape(doc["verdict"]))
        with speech.english():
            english_page = str(escape(doc["verdict"]))
    total = doc["players"][0]["total"]
    assert str(doc["verdict"]) == json.loads(json.dumps(doc))["verdict"] == f"Anna wins with {total} points"
    # said again in Polish from the scored result (the Codex catalog's sentence): the same name and total
    assert shown != str(doc["verdict"]) and shown.startswith("Anna ") and f" {total} " in f" {shown} "
    assert page == "<bdi>Anna</bdi>" + shown[len("Anna"):]
    with speech.speaking("pl"):
        assert shown == str(registry()["codex"].verdict(doc["verdict"].scored))
    assert english_page == f"<bdi>Anna</bdi> wins with {total} points"


def test_a_notice_a_table_keeps_is_stored_in_english_on_a_polish_page(conn, polish_points):
    table, _ = tables.create(conn, {"game": "gutenberg", "players": ["Anna", "Ben"]}, no_profile)
    with speech.speaking("pl"):
        assert plural(9, "guilder") == "9 guldenów"  # the catalog is read: a Polish page says it so
        assert [signed(n, "point") for n in (1, 2, -5, 22)] == ["+1 punkt", "+2 punkty", "-5 punktów", "+22 punkty"]
        table = tables.append(conn, table.id, {"type": "buy_types", "data": {"player": 0, "count": 2}, "expected_version": 0})
    stored = tables.load(conn, table.id).state["notice"]["text"]
    assert stored == table.state["notice"]["text"] == "paid 9 guilders for 2 types"


def plural_pl(n: int) -> str:
    return f"{n} " + ("punkt" if n == 1 else "punkty" if n % 10 in (2, 3, 4) and n % 100 not in (12, 13, 14) else "punktów")


def test_english_words_are_unchanged():
    assert [plural(n, "coin") for n in (0, 1, 2)] == ["0 coins", "1 coin", "2 coins"]
    assert [signed(n, "point") for n in (1, -3, 0)] == ["+1 point", "-3 points", "+0 points"]
    assert [ordinal(n) for n in (1, 2, 3, 11, 12, 13, 21, 101, 111)] == \
        ["1st", "2nd", "3rd", "11th", "12th", "13th", "21st", "101st", "111th"]
    with pytest.raises(RulesError) as err:
        listof([1], "x", 2, 3)
    assert err.value.message == "must hold 2 to 3 items"


@pytest.mark.parametrize("lang, line", [
    ("fr", "Nom du joueur 2 : &#39;anna&#39; ressemble à &#39;Anna&#39; ; les noms doivent être uniques"),
    ("pl", "Imię gracza 2: &#39;anna&#39; wygląda tak samo jak &#39;Anna&#39;; imiona muszą być różne"),
    ("en", "Player 2&#39;s name: &#39;anna&#39; looks the same as &#39;Anna&#39;; names must be unique"),
])
def test_a_refused_name_on_the_start_page_is_said_in_the_phones_language(client, lang, line):
    client.set_cookie("lang", lang)
    page = client.post("/new/codex", data={"players[]": ["Anna", "anna"]})
    assert page.status_code == 400 and line in page.get_data(as_text=True)
