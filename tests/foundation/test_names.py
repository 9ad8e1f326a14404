"""Names that cannot spoof what the other phones show (issue 13, finding 8).

A name is what every phone at the table shows, so it must show what it holds: it is kept in
NFC; direction controls, invisible characters and code points no phone draws the same are
refused; two names that look alike (case, width, composition) are one name twice; and every
page prints a name inside <bdi>, so a right-to-left name cannot turn the line around it.
"""

from __future__ import annotations

import io
import json
import re
import sqlite3
from html.parser import HTMLParser

import pytest
from werkzeug.datastructures import MultiDict

from companion.games import registry, validation
from tests.conftest import count_rows
from tests.examples import examples

GAME = "gutenberg"




#: one of each kind of character that hides or turns text, as a paste from a chat brings it
REFUSED = {
    "right-to-left override": "\u202eevil",
    "left-to-right embedding": "An\u202ana",
    "pop directional formatting": "Anna\u202c",
    "right-to-left isolate": "\u2067Anna",
    "first strong isolate": "An\u2068na",
    "pop directional isolate": "Anna\u2069",
    "left-to-right mark": "Anna\u200e",
    "right-to-left mark": "\u200fAnna",
    "arabic letter mark": "An\u061cna",
    "zero width space": "An\u200bna",
    "zero width non-joiner between latin letters": "An\u200cna",
    "zero width joiner between latin letters": "An\u200dna",
    "word joiner": "Anna\u2060",
    "invisible times": "An\u2062na",
    "byte order mark": "\ufeffAnna",
    "soft hyphen": "An\u00adna",
    "mongolian vowel separator": "An\u180ena",
    "hangul filler": "An\u3164na",
    "braille blank": "An\u2800na",
    "combining grapheme joiner": "An\u034fna",
    "tag letters hiding text": "Anna\U000e0041\U000e0042",
    "a variation selector on nothing": "\ufe0fAnna",
    "two variation selectors": "Anna\ufe0f\ufe0f",
    "private use": "Anna\ue000",
    "unassigned": "Anna\u0378",
    "noncharacter": "Anna\ufdd0",
    "delete": "Anna\x7f",
    "c1 control": "Anna\x85x",
    "line separator": "An\u2028na",
    "paragraph separator": "An\u2029na",
    "a leading combining mark": "\u0301Anna",
    "lone surrogate": "a\ud800b",
}

#: names whose invisible part is the whole name
INVISIBLE_ONLY = ["\u200b", "\u200b\u200c\u200d", "\ufeff", "\u2800", "\u3164", "\ufe0f", "\u00ad", "\u2060\u2061"]

#: legitimate names in many scripts, with the joiners and selectors those scripts and emoji need
ACCEPTED = {
    "hebrew": "שרה",
    "arabic": "محمد",
    "persian with a zero width non-joiner": "نیک\u200cنام",
    "hindi with a joiner after the virama": "क्\u200dष",
    "sinhala with a joiner after the virama": "ශ්\u200dරී",
    "japanese with an ideographic space": "山田\u3000太郎",
    "korean": "김민준",
    "greek": "Ελένη",
    "thai": "สมชาย",
    "emoji family (zwj sequence)": "👨\u200d👩\u200d👧",
    "emoji with skin tone in a zwj sequence": "👩🏽\u200d💻 Ana",
    "rainbow flag (vs16 + zwj)": "🏳\ufe0f\u200d🌈",
    "red heart with vs16": "❤\ufe0f Tom",
    "scotland's flag (tag sequence)": "🏴\U000e0067\U000e0062\U000e0073\U000e0063\U000e0074\U000e007f",
    "accents": "Zoë Ångström",
    "apostrophe and hyphen": "O'Neil-Smith",
}


def create(client, players):
    return client.post("/api/v1/tables", json={"game": GAME, "players": players})


@pytest.mark.parametrize("name", REFUSED.values(), ids=REFUSED.keys())
def test_api_refuses_a_name_that_hides_or_turns_text_and_stores_nothing(client, app, name):
    response = create(client, ["Tom", name])
    assert response.status_code == 400, response.get_json()
    doc = response.get_json()
    assert doc["field"] == "players[1]"
    assert doc["error"].startswith("must not") and "U+" in doc["error"]
    assert count_rows(app, "tables") == 0


def test_the_message_names_the_character_found(client):
    doc = create(client, ["\u202eevil", "Tom"]).get_json()
    assert doc == {"field": "players[0]",
                   "error": "must not contain direction controls (U+202E RIGHT-TO-LEFT OVERRIDE): they turn the text around them"}
    doc = create(client, ["An\u200bna", "Tom"]).get_json()
    assert doc["error"] == "must not contain invisible characters (U+200B ZERO WIDTH SPACE)"


@pytest.mark.parametrize("name", INVISIBLE_ONLY + [" ", "\u3000", "\u00a0 \u2003"])
def test_a_name_of_nothing_visible_is_refused(client, app, name):
    response = create(client, ["Tom", name])
    assert response.status_code == 400 and response.get_json()["field"] == "players[1]", response.get_json()
    assert count_rows(app, "tables") == 0


@pytest.mark.parametrize("name", ACCEPTED.values(), ids=ACCEPTED.keys())
def test_names_in_every_script_are_accepted_as_typed(api, name):
    t = api.create(GAME, ["Tom", name])
    assert api.get(t)["players"][1] == {"name": name}


def test_names_are_kept_in_nfc():
    # e + combining diaeresis (what some phones' keyboards send) is stored as the one ë
    assert validation.text("Zoe\u0308", "players[0]") == "Zo\u00eb"
    assert validation.text(" \u212bngstr\u00f6m ", "players[0]") == "\u00c5ngstr\u00f6m"  # the Angstrom sign is Å


def test_a_decomposed_name_is_stored_composed(api, app):
    t = api.create(GAME, ["Zoe\u0308", "Tom"])
    assert api.get(t)["players"][0] == {"name": "Zo\u00eb"}
    assert api.stored(t).names == ["Zo\u00eb", "Tom"]


DUPLICATES = {
    "case": ("Anna", "anna"),
    "case beyond ascii": ("Ångström", "åNGSTRÖM"),
    "fullwidth letters": ("Anna", "Ａｎｎａ"),
    "composed and decomposed": ("Zo\u00eb", "Zoe\u0308"),
    "german sharp s": ("Straße", "STRASSE"),
    "ligature": ("ﬁona", "Fiona"),
    "no-break space": ("Anna Maria", "Anna\u00a0Maria"),
    "two spaces, which a page shows as one": ("Anna Maria", "Anna  Maria"),
    "emoji with and without its selector": ("❤\ufe0f Tom", "❤ Tom"),
}


@pytest.mark.parametrize("pair", DUPLICATES.values(), ids=DUPLICATES.keys())
def test_names_that_look_alike_are_duplicates(client, app, pair):
    response = create(client, list(pair))
    assert response.status_code == 400, response.get_json()
    doc = response.get_json()
    assert doc["field"] == "players[1]" and "names must be unique" in doc["error"]
    assert count_rows(app, "tables") == 0


def test_distinct_names_that_share_letters_are_not_duplicates(api):
    t = api.create(GAME, ["Anna", "Ana", "Anna B", "אנה"])
    assert [p["name"] for p in api.get(t)["players"]] == ["Anna", "Ana", "Anna B", "אנה"]


def test_name_key_is_nfkc_casefold():
    assert validation.name_key("Ａnna") == validation.name_key("anna") == "anna"
    assert validation.name_key("Zoe\u0308") == validation.name_key("ZO\u00cb")
    # a Cyrillic А: another letter, so another name's key; look_alike (below) says it passes for Anna
    assert validation.name_key("Anna") != validation.name_key("Аnna")


# --- names that can pass for each other: Unicode's confusable skeletons (issue 40, item 7) ------------

#: (a name at the table, a name that passes for it): each refused beside the first. Each was
#: accepted before issue 40: two names whose NFKC case-folded forms differ were two names.
LOOK_ALIKES = {
    "cyrillic capital a": ("Ann", "\u0410nn"),
    "greek small omicron": ("Bob", "B\u03bfb"),
    "cyrillic capital ve, mapped as a capital only": ("Bob", "\u0412ob"),
    "every letter cyrillic": ("Coe", "\u0421\u043e\u0435"),
    "fullwidth and mixed case beside a cyrillic name": ("\u0410nn", "\uff21NN"),
    "capital i beside small l (the standard's choice)": ("Al", "AI"),
    "m beside rn (the standard's choice)": ("Amie", "Arnie"),
    "digit zero beside capital o": ("Bo", "B0"),
}

#: pairs that stay two names: a letter more, an accent, a lower-case Cyrillic в (a small capital B),
#: a stroke, other scripts' names
NOT_ALIKE = {
    "a letter more": ("Ann", "Anna"),
    "an accent": ("Ana", "\u00c1na"),
    "a diaeresis": ("Zo\u00eb", "Zoe"),
    "cyrillic small ve": ("bob", "\u0432ob"),
    "o with stroke": ("S\u00f8ren", "Soren"),
    "l with stroke": ("\u0141ukasz", "Lukasz"),
    "cyrillic and latin spellings": ("\u0418\u0432\u0430\u043d", "Ivan"),
    "two subdivision flags": ("\U0001f3f4\U000e0067\U000e0062\U000e0065\U000e006e\U000e0067\U000e007f",
                              "\U0001f3f4\U000e0067\U000e0062\U000e0073\U000e0063\U000e0074\U000e007f"),
}


@pytest.mark.parametrize("pair", LOOK_ALIKES.values(), ids=LOOK_ALIKES.keys())
def test_names_that_can_pass_for_each_other_are_refused_through_the_api(client, app, pair):
    response = create(client, list(pair))
    assert response.status_code == 400, response.get_json()
    doc = response.get_json()
    assert doc["field"] == "players[1]" and "looks the same as" in doc["error"] and "names must be unique" in doc["error"]
    assert count_rows(app, "tables") == 0


@pytest.mark.parametrize("pair", NOT_ALIKE.values(), ids=NOT_ALIKE.keys())
def test_names_that_differ_to_the_eye_stay_two_names(api, pair):
    t = api.create(GAME, list(pair))
    assert [p["name"] for p in api.get(t)["players"]] == list(pair)


def test_a_look_alike_is_refused_with_the_character_that_passes_for_another():
    """The message names both names as typed, and the character that makes one pass for the other."""
    with pytest.raises(validation.RulesError) as err:
        validation.names(["Ann", "\u0410nn"], "players")
    assert (err.value.field, err.value.message) == (
        "players[1]", "'\u0410nn' looks the same as 'Ann' (U+0410 CYRILLIC CAPITAL LETTER A looks like A); names must be unique")
    with pytest.raises(validation.RulesError) as err:  # the character may be the other name's: m is taken for rn
        validation.names(["Amie", "Arnie"], "players")
    assert err.value.message == "'Arnie' looks the same as 'Amie' (U+006D LATIN SMALL LETTER M looks like rn); names must be unique"


def test_skeletons_are_unicodes():
    """UTS #39's skeleton, from the vendored confusables.txt: every line read, and the data's own examples."""
    from companion.games import confusables
    header = confusables.DATA.read_text(encoding="utf-8").splitlines()
    total = next(int(line.split(":")[1]) for line in reversed(header) if line.startswith("# total:"))
    assert len(confusables.prototypes()) == total
    assert confusables.version() == "18.0.0"
    assert confusables.skeleton("\u0440\u0430ypal") == confusables.skeleton("paypal") == "paypal"  # Cyrillic р, а
    assert confusables.skeleton("m") == "rn" and confusables.skeleton("I") == "l"
    assert confusables.prototype("\u0410") == "A" and confusables.prototype("A") is None
    assert validation.look_alike("\u0412ob", "Bob") and not validation.look_alike("\u0432ob", "bob")


# --- every way a name comes in ------------------------------------------------------------------


def test_rules_functions_refuse_a_turned_name_at_its_path(api):
    row = {"fame": 1, "guilders": 0, "patronage_cards": 0, "types": 3, "inks": 0,
           "specialties": {"typesetting": 0, "woodcutting": 0, "binding": 0, "illuminating": 0}}
    response = api.rules("gutenberg", "score", {"players": [dict(row, name="Tom"), dict(row, name="\u202eevil")]})
    assert response.status_code == 400 and response.get_json()["field"] == "players[1].name"
    response = api.rules("gutenberg", "score", {"players": [dict(row, name="Tom"), dict(row, name="ＴＯＭ")]})
    assert response.status_code == 400 and response.get_json()["field"] == "players[1].name"
    response = api.rules("gutenberg", "score", {"players": [dict(row, name="Tom"), dict(row, name="\u0422om")]})  # a Cyrillic Т
    assert response.status_code == 400 and response.get_json()["field"] == "players[1].name"
    response = api.rules("codex", "final_turns", {"players": ["A", "B", "\u200b"], "trigger": "B"})
    assert response.status_code == 400 and response.get_json()["field"] == "players[2]"


def test_rename_refuses_a_turned_name_and_keeps_the_old_one(api):
    t = api.create(GAME, ["Anna", "Tom"])
    response = api.event(t, "rename", {"player": 1, "name": "\u202eevil"}, 0)
    assert response.status_code == 400 and response.get_json()["field"] == "data.name"
    assert api.get(t)["version"] == 0 and api.get(t)["players"][1] == {"name": "Tom"}


def test_rename_stores_the_new_name_in_nfc(api):
    t = api.create(GAME, ["Anna", "Tom"])
    assert api.event(t, "rename", {"player": 1, "name": "Zoe\u0308"}, 0).status_code == 200
    assert api.get(t)["players"][1] == {"name": "Zo\u00eb"}


def test_rename_refuses_a_look_alike_of_another_player(api):
    t = api.create(GAME, ["Anna", "Tom"])
    response = api.event(t, "rename", {"player": 1, "name": "Ａｎｎａ"}, 0)
    assert response.status_code == 400 and response.get_json()["field"] == "data.name"


def test_start_form_refuses_a_turned_name_beside_its_field(client, app):
    form = MultiDict([("players[]", "\u202eevil"), ("players[]", "Tom"), ("players[]", ""), ("players[]", "")])
    response = client.post(f"/new/{GAME}", data=form)
    assert response.status_code == 400
    page = response.get_data(as_text=True)
    # the page's words for the field ("Player 1's name"), beside the field, never the path's syntax
    assert 'data-field="players[0]"' in page
    assert "Player 1&#39;s name: must not contain direction controls (U+202E RIGHT-TO-LEFT OVERRIDE)" in page
    assert count_rows(app, "tables") == 0


def test_start_form_refuses_an_invisible_only_name(client, app):
    form = MultiDict([("players[]", "Anna"), ("players[]", "\u200b\u200b"), ("players[]", ""), ("players[]", "")])
    response = client.post(f"/new/{GAME}", data=form)
    assert response.status_code == 400 and "Player 2&#39;s name: must not contain invisible characters" in response.get_data(as_text=True)
    assert count_rows(app, "tables") == 0


@pytest.mark.parametrize("game", list(registry()))
def test_rename_refuses_a_name_that_passes_for_another_players_in_every_game(api, game):
    t = api.create(game, ["Anna", "Tom"])
    response = api.event(t, "rename", {"player": 1, "name": "\u0410nna"}, 0)  # a Cyrillic А
    assert response.status_code == 400, response.get_json()
    assert response.get_json() == {
        "field": "data.name",
        "error": "'\u0410nna' looks the same as 'Anna' (U+0410 CYRILLIC CAPITAL LETTER A looks like A); names must be unique"}
    assert api.get(t)["version"] == 0 and api.get(t)["players"][1] == {"name": "Tom"}
    assert api.event(t, "rename", {"player": 0, "name": "\u0410nna"}, 0).status_code == 200  # her own name, spelt otherwise


def test_a_table_stored_with_look_alikes_before_they_were_refused_still_shows_scores_and_undoes(app, client, api):
    """A check added later refuses new names, never a stored game (games/base.py, Context.replayed): a
    table whose rename made two look-alikes before issue 40 keeps its page, its result, its place in
    the archive, its record and its undo (validation.stored_names). Each answered 500 without it."""
    t = api.create("codex", ["Ann", "Bob"], calculator=True)
    assert api.event(t, "common_objectives", {"cards": [91, 102]}).status_code == 200
    assert api.event(t, "sheet", {"player": 0, **CODEX_ROWS[0]}).status_code == 200
    assert api.event(t, "rename", {"player": 1, "name": "Bill"}).status_code == 200
    assert api.event(t, "sheet", {"player": 1, **CODEX_ROWS[1]}).status_code == 200
    conn = sqlite3.connect(app.config["DATABASE"])  # as the app before issue 40 let it be written
    try:
        conn.execute("UPDATE tables SET names = ? WHERE id = ?", [json.dumps(["Ann", "\u0410nn"]), t["table"]])
        conn.execute("UPDATE events SET data = ? WHERE table_id = ? AND type = 'rename'",
                     [json.dumps({"player": 1, "name": "\u0410nn"}), t["table"]])
        conn.commit()
    finally:
        conn.close()
    response = api.result(t)
    assert response.status_code == 200, response.get_json()
    assert [p["name"] for p in response.get_json()["players"]] == ["Ann", "\u0410nn"]
    client.get(f"/join/{t['table']}/{t['token']}")
    for path in (f"/t/{t['table']}", "/plays", f"/plays/{t['table']}"):
        assert client.get(path).status_code == 200, path
    response = api.undo(t, 4)  # the last row goes: the log, the rename with it, is folded again
    assert response.status_code == 200, response.get_json()
    assert [p["name"] for p in api.get(t)["players"]] == ["Ann", "\u0410nn"] and not api.get(t)["state"]["finished"]
    response = api.event(t, "rename", {"player": 1, "name": "\u0391nn"})  # a new name is checked: a Greek Α
    assert response.status_code == 400 and response.get_json()["field"] == "data.name"
    assert api.event(t, "rename", {"player": 1, "name": "Anne"}).status_code == 200


def test_start_form_refuses_a_name_that_passes_for_another_beside_its_field(client, app):
    form = MultiDict([("players[]", "Ann"), ("players[]", "\u0410nn"), ("players[]", ""), ("players[]", "")])
    response = client.post(f"/new/{GAME}", data=form)
    assert response.status_code == 400
    page = response.get_data(as_text=True)
    assert 'data-field="players[1]"' in _beside(page, 2)
    assert ("Player 2&#39;s name: &#39;\u0410nn&#39; looks the same as &#39;Ann&#39; "
            "(U+0410 CYRILLIC CAPITAL LETTER A looks like A); names must be unique") in page
    assert count_rows(app, "tables") == 0


def test_the_look_alike_refusal_is_said_in_the_phones_language(client, app):
    client.set_cookie("lang", "de")
    response = client.post(f"/new/{GAME}", data=MultiDict([("players[]", "Bob"), ("players[]", "B\u03bfb")]))
    assert response.status_code == 400
    assert ("&#39;B\u03bfb&#39; sieht aus wie &#39;Bob&#39; (U+03BF GREEK SMALL LETTER OMICRON sieht aus wie o); "
            "Namen müssen eindeutig sein") in response.get_data(as_text=True)
    assert count_rows(app, "tables") == 0


def test_start_form_refuses_a_look_alike_duplicate(client, app):
    form = MultiDict([("players[]", "Anna"), ("players[]", "ＡＮＮＡ"), ("players[]", ""), ("players[]", "")])
    response = client.post(f"/new/{GAME}", data=form)
    assert response.status_code == 400 and 'data-field="players[1]"' in response.get_data(as_text=True)
    assert count_rows(app, "tables") == 0


def _beside(page: str, row: int) -> str:
    """The start form's text from the row "Player ROW" up to the next row's label."""
    start = page.index(f'<label class="field">Player {row}')
    end = page.find(f'<label class="field">Player {row + 1}', start)
    return page[start:end if end != -1 else None]


def test_start_form_names_the_row_typed_in_when_a_row_above_is_blank(client, app):
    """Blank rows are dropped before the names are checked: the refused name is the table's 1st,
    but the player typed it in the form's 2nd row, which its message must name and sit beside."""
    form = MultiDict([("players[]", ""), ("players[]", "\u202eevil"), ("players[]", "Tom"), ("players[]", "")])
    response = client.post(f"/new/{GAME}", data=form)
    assert response.status_code == 400
    page = response.get_data(as_text=True)
    assert 'data-field="players[1]"' in _beside(page, 2), _beside(page, 2)
    assert "Player 2&#39;s name: must not contain direction controls" in page and "Player 1&#39;s name" not in page
    assert "data-field" not in _beside(page, 1)
    assert count_rows(app, "tables") == 0


def test_start_form_puts_a_duplicate_beside_its_own_row(client, app):
    form = MultiDict([("players[]", "Anna"), ("players[]", ""), ("players[]", "ＡＮＮＡ"), ("players[]", "")])
    response = client.post(f"/new/{GAME}", data=form)
    assert response.status_code == 400
    page = response.get_data(as_text=True)
    assert 'data-field="players[2]"' in _beside(page, 3) and "Player 3&#39;s name:" in page
    assert count_rows(app, "tables") == 0


def test_start_form_first_player_is_the_row_chosen_when_a_row_above_is_blank(client, api):
    """"First player: Player 3" means the name typed in the form's third row, whatever rows above are blank."""
    form = MultiDict([("players[]", ""), ("players[]", "Anna"), ("players[]", "Tom"), ("players[]", "Zed"),
                      ("options.first_player:int", "2"), ("options.target:int", "20")])
    response = client.post("/new/codex", data=form)
    assert response.status_code == 303
    table = api.stored({"table": response.headers["Location"].rsplit("/", 1)[-1]})
    assert table.names[table.state["first"]] == "Tom"


def test_start_form_refuses_a_blank_row_as_first_player(client, app):
    form = MultiDict([("players[]", "Anna"), ("players[]", ""), ("players[]", "Tom"), ("players[]", ""),
                      ("options.first_player:int", "1"), ("options.target:int", "20")])
    response = client.post("/new/codex", data=form)
    assert response.status_code == 400
    page = response.get_data(as_text=True)
    assert 'data-field="options.first_player"' in page and "Player 2 has no name" in page
    assert count_rows(app, "tables") == 0


def test_calculator_table_names_are_checked_alike(client, app):
    response = client.post("/api/v1/tables", json={"game": "voynich", "players": ["Ana", "\u2067Ben"], "calculator": True})
    assert response.status_code == 400 and response.get_json()["field"] == "players[1]"
    assert count_rows(app, "tables") == 0
    response = client.post("/api/v1/tables", json={"game": "codex", "players": ["Bob", "B\u03bfb"], "calculator": True})
    assert response.status_code == 400 and response.get_json()["field"] == "players[1]", response.get_json()
    assert count_rows(app, "tables") == 0


# --- box profiles ---------------------------------------------------------------------------------


def test_profile_form_refuses_a_turned_name(client, app):
    response = client.post(f"/profiles/new/{GAME}", data={"profile_name": "Our \u202ebox"})
    assert response.status_code == 400
    page = response.get_data(as_text=True)
    assert 'data-field="profile_name"' in page and "The box&#39;s name: must not contain direction controls" in page
    assert count_rows(app, "profiles") == 0


def test_profile_names_are_nfc_and_unique_beyond_ascii_case(client, app):
    response = client.post(f"/profiles/new/{GAME}", data={"profile_name": "A\u030angstr\u00f6m box"})
    assert response.status_code == 303
    exported = client.get(response.headers["Location"] + ".json").get_json()
    assert exported["name"] == "\u00c5ngstr\u00f6m box"
    # SQLite's NOCASE folds ASCII only: "ÅNGSTRÖM BOX" passed as another name
    for twin in ("ÅNGSTRÖM BOX", "Ångström\u00a0box", "Ａ\u030angström box"):  # no-break space; fullwidth A + ring
        response = client.post(f"/profiles/new/{GAME}", data={"profile_name": twin})
        assert response.status_code == 400, twin
        assert 'data-field="profile_name"' in response.get_data(as_text=True)
    assert count_rows(app, "profiles") == 1


def test_profile_import_refuses_a_turned_name(client, app):
    doc = {"game": GAME, "name": "\u202eevil box", "data": {}}
    response = client.post("/profiles/import", data={"file": (io.BytesIO(json.dumps(doc).encode()), "p.json")})
    assert response.status_code == 400
    assert "The file&#39;s name: must not contain direction controls" in response.get_data(as_text=True)
    assert count_rows(app, "profiles") == 0


# --- <bdi> on every page that shows a name ---------------------------------------------------------


class _Texts(HTMLParser):
    """Collect each text node with the elements it sits in (attribute values are not text nodes)."""

    VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}

    def __init__(self):
        super().__init__()
        self.stack: list[str] = []
        self.found: list[tuple[str, list[str]]] = []

    def handle_starttag(self, tag, attrs):
        if tag not in self.VOID:
            attrs = dict(attrs)
            classes = "".join(f".{c}" for c in (attrs.get("class") or "").split())
            self.stack.append(tag + classes + (f"#{attrs['id']}" if attrs.get("id") else ""))

    def handle_startendtag(self, tag, attrs):
        pass

    def handle_endtag(self, tag):
        for i in range(len(self.stack) - 1, -1, -1):
            if _parts(self.stack[i])[0] == tag:
                del self.stack[i:]
                break

    def handle_data(self, data):
        self.found.append((data, list(self.stack)))


def _parts(element: str) -> tuple[str, set[str], str | None]:
    """"p.winner.gb-winners#x" -> ("p", {"winner", "gb-winners"}, "x")."""
    element, _, ident = element.partition("#")
    tag, *classes = element.split(".")
    return tag, set(classes), ident or None


def name_nodes(html: str, name: str) -> list[tuple[str, list[str]]]:
    parser = _Texts()
    parser.feed(html)
    return [(text, stack) for text, stack in parser.found if name in text]


def outside_bdi(html: str, name: str) -> list[tuple[str, list[str]]]:
    """The places a page prints a name outside a <bdi>, in a template's words or a sentence Python
    wrote (companion/games/sentence.py). A <title>, <option> or <textarea> holds text only, and an
    SVG <text> holding the name alone is a line of its own."""
    found = []
    for text, stack in name_nodes(html, name):
        parts = [_parts(s) for s in stack]
        if any(tag in ("bdi", "title", "option", "textarea") for tag, _, _ in parts):
            continue
        if parts and parts[-1][0] == "text" and text.strip() == name:
            continue
        found.append((text, stack))
    return found


def test_the_checker_sees_a_name_outside_bdi():
    """The check fails on a name printed bare, and on one in a sentence a template or Python builds."""
    assert outside_bdi(f"<p><span class='pname'>{HEBREW}</span></p>", HEBREW)
    assert outside_bdi(f"<details id='history'><ol><li><span>{HEBREW}: +1 fame</span></li></ol></details>", HEBREW)
    assert outside_bdi(f"<p class='winner' id='cx-winner'>{HEBREW} wins with 20 points</p>", HEBREW)
    assert outside_bdi(f"<h2>{HEBREW}'s manuscript</h2>", HEBREW)
    assert outside_bdi(f"<button><span>Correct {HEBREW}'s row</span></button>", HEBREW)
    assert not outside_bdi(f"<h2><bdi>{HEBREW}</bdi>'s manuscript</h2>", HEBREW)


HEBREW, ARABIC = "שרה", "محمد"
GALILEO_TRACK = {"length": 20, "penance": [3, 6, 9], "prison": 11, "stake": 14}  # the Galileo tests below


def table_pages(client, api, game: str) -> dict[str, str]:
    """A table's pages as a phone that joined it sees them, at its start and a few events in."""
    t = api.create(game, [HEBREW, ARABIC, "Tom"][:registry()[game].max_players])  # three, or as many as it takes
    client.get(f"/join/{t['table']}/{t['token']}")

    def page(screen=None):
        return client.get(f"/t/{t['table']}" + (f"?screen={screen}" if screen else "")).get_data(as_text=True)

    pages = {"start": page()}
    for events, shown in examples(game).NAMED_PAGES:
        for type_, data in events:
            assert api.event(t, type_, data).status_code == 200, (type_, data)
        pages.update({name: page(screen) for name, screen in shown.items()})
    return pages


@pytest.mark.parametrize("game", list(registry()))
def test_a_table_page_prints_names_inside_bdi(client, api, game):
    for what, html in table_pages(client, api, game).items():
        for name in (HEBREW, ARABIC)[:registry()[game].max_players]:
            assert name_nodes(html, name), (what, name)
            assert outside_bdi(html, name) == [], what


@pytest.mark.parametrize("game", list(registry()))
def test_a_calculator_table_page_prints_names_inside_bdi(client, api, game):
    t = api.create(game, [HEBREW, "Tom"], calculator=True)
    client.get(f"/join/{t['table']}/{t['token']}")
    page = client.get(f"/t/{t['table']}").get_data(as_text=True)
    assert name_nodes(page, HEBREW)
    assert outside_bdi(page, HEBREW) == []


def test_the_galileo_turn_order_line_prints_names_inside_bdi(client, api):
    page = table_pages(client, api, "galileo")["turn"]
    line = re.search(r'<section class="card gal-order".*?</section>', page, re.S).group(0)
    assert f'<span class="gal-marker"><bdi>{HEBREW}</bdi></span>' in line
    assert f'<span class="gal-marker"><bdi>{ARABIC}</bdi></span>' in line


def test_the_home_page_and_profiles_print_names_inside_bdi(client, api):
    t = api.create(GAME, [HEBREW, "Tom"])
    client.get(f"/join/{t['table']}/{t['token']}")
    page = client.get("/").get_data(as_text=True)
    assert name_nodes(page, HEBREW) and outside_bdi(page, HEBREW) == []
    assert client.post(f"/profiles/new/{GAME}", data={"profile_name": "קופסה"}).status_code == 303
    page = client.get("/profiles/").get_data(as_text=True)
    assert name_nodes(page, "קופסה") and outside_bdi(page, "קופסה") == []


SPECIALTIES = ("typesetting", "woodcutting", "binding", "illuminating")


def finished_gutenberg(api, names) -> dict:
    """A Gutenberg calculator table, finished once every row is in."""
    t = api.create("gutenberg", list(names), calculator=True)
    for seat, fame in enumerate([30, 20][: len(names)]):
        response = api.event(t, "sheet", {"player": seat, "fame": fame, "guilders": 3, "patronage_cards": 1, "types": 2,
                                          "inks": 1, "specialties": {s: 2 for s in SPECIALTIES}})
        assert response.status_code == 200, response.get_json()
    assert api.get(t)["state"]["finished"]
    return t


def test_the_end_screen_and_the_plays_archive_print_names_inside_bdi(client, api):
    t = finished_gutenberg(api, [HEBREW, ARABIC])
    client.get(f"/join/{t['table']}/{t['token']}")
    pages = {"end screen": f"/t/{t['table']}", "plays": "/plays", "record": f"/plays/{t['table']}",
             "stats": "/plays/stats", "plays of one player": f"/plays?player={HEBREW}"}
    for what, path in pages.items():
        page = client.get(path).get_data(as_text=True)
        for name in (HEBREW, ARABIC):
            assert name_nodes(page, name), (what, name)
            assert outside_bdi(page, name) == [], what


#: where each name's letters are drawn on the line (a range over its text, wherever a <bdi> puts it)
WHERE_DRAWN = """([selector, names]) => {
  const line = document.querySelector(selector), out = {};
  const walker = document.createTreeWalker(line, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    for (const name of names) {
      const at = node.data.indexOf(name);
      if (at < 0 || name in out) continue;
      const range = document.createRange();
      range.setStart(node, at);
      range.setEnd(node, at + name.length);
      const box = range.getBoundingClientRect();
      out[name] = {left: box.left, top: box.top};
    }
  }
  return out;
}"""


@pytest.mark.browser
def test_the_turn_order_line_shows_right_to_left_names_in_seat_order(server, phone):
    """Two right-to-left names side by side read as one right-to-left run: without <bdi>, the
    line "Turn order: שרה → محمد → Tom" is drawn with محمد first, as if she played before שרה."""
    t = server.api("/api/v1/tables", {"game": "codex", "players": [HEBREW, ARABIC, "Tom"], "first_player": 0})
    phone.goto(f"{server.url}/join/{t['table']}/{t['token']}")
    drawn = phone.evaluate(WHERE_DRAWN, [".cx-order", [HEBREW, ARABIC, "Tom"]])
    assert len({round(d["top"]) for d in drawn.values()}) == 1, drawn  # one line at 360 px
    assert drawn[HEBREW]["left"] < drawn[ARABIC]["left"] < drawn["Tom"]["left"], drawn


# --- the automa's name beside a player's -----------------------------------------------------------

VOYNICH_SPACES = {"5": 1, "10": 3, "15": 6, "20": 10, "25": 15}


def voynich_row(player, gk, **extra):
    pages = {s: [0, 0] for s in ("botany", "astrology", "baths", "writings", "recipes")}
    return {"player": player, "gk": gk, "markers": {"botany": 10, "astrology": 10, "baths": 10, "writings": 10},
            "pages": pages, **extra}


@pytest.mark.parametrize("name", ["Voynich", "voynich", "Ｖｏｙｎｉｃｈ", "ＶＯＹＮＩＣＨ", "VOYNICH", "V\u043eynich"])
def test_a_solo_player_named_like_voynich_plays_against_voynich_the_automa(client, api, name):
    """Voynich sits beside a lone player; a player whose name can pass for his (validation.look_alike:
    case and width folded, or confusable, as a Cyrillic о) makes him "Voynich (automa)", as "Voynich"
    did. "Ｖｏｙｎｉｃｈ" made two names that look alike, which the score function refuses: the result
    and the page answered 500."""
    t = api.create("voynich", [name], calculator=True, solo_tie="strict")
    client.get(f"/join/{t['table']}/{t['token']}")
    assert api.event(t, "track", {"scoring_spaces": VOYNICH_SPACES}).status_code == 200
    assert api.event(t, "sheet", voynich_row(0, 30)).status_code == 200
    assert api.event(t, "sheet", voynich_row(1, 25, difficulty="hard", tokens_on_board=2)).status_code == 200
    assert api.get(t)["state"]["finished"]
    response = api.result(t)
    assert response.status_code == 200, response.get_json()
    assert [p["name"] for p in response.get_json()["players"]] == [name, "Voynich (automa)"]
    assert client.get(f"/t/{t['table']}").status_code == 200


# --- names inside the sentences Python writes (companion/games/sentence.py) -------------------------

def joined_page(client, t, screen=None) -> str:
    client.get(f"/join/{t['table']}/{t['token']}")
    return client.get(f"/t/{t['table']}" + (f"?screen={screen}" if screen else "")).get_data(as_text=True)


def assert_isolated(page: str, *names: str) -> None:
    for name in names:
        assert name_nodes(page, name), name
        assert outside_bdi(page, name) == [], name


#: Codex rows: the 1st and 3rd tie on 29, the 3rd with more from objectives (tests/codex/test_calculator.py)
CODEX_ROWS = [
    {"placement_points": 21, "secret": 99, "visible": {"quill": 3, "inkwell": 2, "manuscript": 1}, "patterns": {"91": 1}},
    {"placement_points": 22, "secret": 96, "visible": {"quill": 2, "plant": 7}, "patterns": {"91": 0}},
    {"placement_points": 18, "secret": 88, "visible": {"quill": 4}, "patterns": {"91": 1, "88": 2}},
]


def test_codex_notice_tie_note_and_winner_print_names_inside_bdi(client, api):
    t = api.create("codex", [HEBREW, "Tom", ARABIC], calculator=True)
    assert api.event(t, "common_objectives", {"cards": [91, 102]}).status_code == 200
    assert api.event(t, "sheet", {"player": 0, **CODEX_ROWS[0]}).status_code == 200
    page = joined_page(client, t)
    assert f"Row saved; waiting for <bdi>Tom</bdi>, <bdi>{ARABIC}</bdi>" in page  # beside שרה's card
    assert_isolated(page, HEBREW, ARABIC)
    for seat in (1, 2):
        assert api.event(t, "sheet", {"player": seat, **CODEX_ROWS[seat]}).status_code == 200
    page = joined_page(client, t)
    assert f"<bdi>{ARABIC}</bdi> wins the tie on 29 with the most points from objectives (11)" in page
    assert f"<bdi>{HEBREW}</bdi> and <bdi>{ARABIC}</bdi> tie on 29: most objective points ranks first." in page
    assert_isolated(page, HEBREW, ARABIC)


def test_galileo_still_needed_notice_and_tie_break_print_names_inside_bdi(client, api):
    board = {"cathedral": {"copernican": {"free": 15, "prison": 10, "stake": 5}, "ptolemaic": {"free": 10, "prison": 5, "stake": 0}},
             "penance_cards": {"vp": [1, 2, 3]}}
    t = api.create("galileo", [HEBREW, ARABIC], calculator=True)
    assert api.event(t, "board", board).status_code == 200
    row = {"principle": "copernican", "status": "free", "vp": 61, "inventions_vp": 9}
    assert api.event(t, "sheet", dict(row, player=0, turn_order=1)).status_code == 200
    page = joined_page(client, t)
    assert f"Still needed: <bdi>{ARABIC}</bdi>&#39;s row." in page
    assert f"<bdi>{HEBREW}</bdi>&#39;s row is in." in page
    assert_isolated(page, HEBREW, ARABIC)
    assert api.event(t, "sheet", dict(row, player=1, turn_order=2)).status_code == 200
    page = joined_page(client, t)
    assert (f"Tie-break: <bdi>{HEBREW}</bdi> and <bdi>{ARABIC}</bdi> tie on 85: <bdi>{HEBREW}</bdi> wins "
            "as the earliest in turn order.") in page
    assert_isolated(page, HEBREW, ARABIC)


def test_voynich_winner_and_tie_break_print_names_inside_bdi(client, api):
    t = api.create("voynich", [HEBREW, ARABIC, "Tom"], calculator=True)
    assert api.event(t, "track", {"scoring_spaces": VOYNICH_SPACES}).status_code == 200
    for seat, gk, markers in ((0, 20, (25, 1, 1, 1)), (1, 20, (20, 20, 20, 20)), (2, 3, (0, 0, 0, 0))):
        row = voynich_row(seat, gk)
        row["markers"] = dict(zip(("botany", "astrology", "baths", "writings"), markers))
        assert api.event(t, "sheet", row).status_code == 200
    page = joined_page(client, t)
    assert f"<bdi>{HEBREW}</bdi> wins." in page
    assert f"The tie-break (the furthest knowledge marker) favours <bdi>{HEBREW}</bdi>." in page
    assert_isolated(page, HEBREW, ARABIC)


def test_a_refused_event_says_the_name_inside_bdi(client, api):
    """The label ("שרה's VP change") and a message that names a player ("it is שרה's turn")."""
    t = api.create("galileo", [HEBREW, ARABIC, "Tom"])
    assert api.event(t, "board", {"suspicion_track": GALILEO_TRACK}).status_code == 200
    client.get(f"/join/{t['table']}/{t['token']}")
    for type_, data, said in (("vp", {"player": 0, "delta": 0}, f"<bdi>{HEBREW}</bdi>&#39;s VP change: 0 changes nothing"),
                              ("pass", {"player": 1}, f"it is <bdi>{HEBREW}</bdi>&#39;s turn")):
        version = api.get(t)["version"]
        form = MultiDict([("type", type_), ("expected_version:int", str(version))]
                         + [(f"data.{k}:json", json.dumps(v)) for k, v in data.items()])
        response = client.post(f"/t/{t['table']}/events", data=form)
        assert response.status_code == 400
        page = response.get_data(as_text=True)
        assert said in page, type_
        assert outside_bdi(page, HEBREW) == [], type_


def test_the_result_in_plain_text_isolates_names_and_the_json_verdict_stays_plain(client, api):
    """The share text leaves the app for a chat, where no <bdi> exists: each name is between U+2068
    and U+2069, so "محمد 30" keeps its number after the name. The API's and the export's `verdict`
    is the contract's plain line (CONTRACT.md "results"), without those marks."""
    t = finished_gutenberg(api, [ARABIC, HEBREW])
    page = joined_page(client, t)
    share = re.search(r'<textarea id="share-text"[^>]*>(.*?)</textarea>', page, re.S).group(1)
    assert f"\u2068{ARABIC}\u2069 " in share and f"\u2068{HEBREW}\u2069 " in share
    assert share.endswith(f"\u2068{ARABIC}\u2069 wins")
    verdict = api.result(t).get_json()["verdict"]
    assert verdict == f"{ARABIC} wins"
    exported = client.get("/plays/export.json").get_json()
    assert [doc["verdict"] for doc in exported["plays"]] == [f"{ARABIC} wins"]


@pytest.mark.browser
def test_a_history_line_draws_the_number_after_a_right_to_left_name(server, phone, dark_phone, shot):
    """"محمد: +5 points": without <bdi>, the +5 after Arabic letters joins their right-to-left run
    and is drawn left of the name, as if the line said "5+ :محمد". In <bdi>, the name is one word
    and the line reads on from it."""
    t = server.api("/api/v1/tables", {"game": "codex", "players": [HEBREW, ARABIC, "Tom"], "first_player": 0})
    status, answer = server.call("POST", f"/api/v1/tables/{t['table']}/events",
                                 {"type": "points", "data": {"player": 1, "delta": 5}, "expected_version": t["version"]}, t["token"])
    assert status == 200, answer
    for page, theme in ((phone, "light"), (dark_phone, "dark")):
        page.goto(f"{server.url}/join/{t['table']}/{t['token']}")
        page.evaluate("document.querySelector('#history').open = true")
        line = page.locator("#history li").first
        assert line.inner_text().startswith(f"{ARABIC}: +5 points")
        drawn = page.evaluate(WHERE_DRAWN, ["#history li", [ARABIC, "+5"]])
        assert drawn[ARABIC]["top"] == drawn["+5"]["top"], drawn
        assert drawn[ARABIC]["left"] < drawn["+5"]["left"], drawn
        line.scroll_into_view_if_needed()
        shot(page, f"names-history-rtl-{theme}")


def test_a_sentence_is_plain_as_text_isolated_for_a_chat_and_in_bdi_on_a_page():
    from markupsafe import escape

    from companion.games.sentence import Sentence, name, naming

    said = Sentence(f"{name(ARABIC)} wins on {name('Tom')}'s <turn> & more")
    assert said == f"{ARABIC} wins on Tom's <turn> & more" and json.dumps(said) == json.dumps(str(said))
    assert said.isolated == f"\u2068{ARABIC}\u2069 wins on \u2068Tom\u2069's <turn> & more"
    assert str(escape(said)) == f"<bdi>{ARABIC}</bdi> wins on <bdi>Tom</bdi>&#39;s &lt;turn&gt; &amp; more"
    # a name is text, never markup
    assert str(escape(Sentence(name("<img src=x onerror=alert(1)>") + " wins"))) == (
        "<bdi>&lt;img src=x onerror=alert(1)&gt;</bdi> wins")
    # marks inside a name cannot unbalance the sentence
    assert Sentence(name("a\u2069b\u2068c")).isolated == "\u2068abc\u2069"
    # text written before it could mark: the longest name first, every occurrence
    assert naming("Anna B and Anna: Anna B wins", ["Anna", "Anna B"]).isolated == (
        "\u2068Anna B\u2069 and \u2068Anna\u2069: \u2068Anna B\u2069 wins")
    assert naming("nobody here", []) == "nobody here"
    import pickle
    assert pickle.loads(pickle.dumps(said)).isolated == said.isolated


def test_a_name_that_looks_like_markup_stays_text_in_every_sentence(client, api):
    evil = "<b onclick=x>Eve</b>"
    t = finished_gutenberg(api, [evil, ARABIC])
    page = joined_page(client, t)
    assert "<b onclick" not in page and "<bdi>&lt;b onclick=x&gt;Eve&lt;/b&gt;</bdi> wins" in page
    record = client.get(f"/plays/{t['table']}").get_data(as_text=True)
    assert "<b onclick" not in record and "<bdi>&lt;b onclick=x&gt;Eve&lt;/b&gt;</bdi>: final" in record


def test_a_stray_mark_cannot_open_a_bdi_it_does_not_close():
    from markupsafe import escape

    from companion.games.sentence import Sentence

    for marked in ("a\u2068b", "a\u2069b", "\u2068a\u2068b\u2069c\u2069", "\u2069\u2068"):
        html = str(escape(Sentence(marked)))
        assert html.count("<bdi>") == html.count("</bdi>"), html
        assert "\u2068" not in Sentence(marked) and "\u2069" not in Sentence(marked)


def test_start_form_clears_a_name_refused_for_what_it_hides_and_says_so(client, app):
    """A player review found the refused field given back with its zero-width space: it looked
    empty, the player typed "Ann" after it, and the same refusal came back every time."""
    form = MultiDict([("players[]", "\u200b"), ("players[]", "Bob"), ("players[]", ""), ("players[]", "")])
    page = client.post(f"/new/{GAME}", data=form).get_data(as_text=True)
    assert "Player 1&#39;s name: must not contain invisible characters (U+200B ZERO WIDTH SPACE); the field is cleared: type the name again" in page
    values = re.findall(r'name="players\[\]"[^>]*value="([^"]*)"', page)
    assert values[:2] == ["", "Bob"], values
    form = MultiDict([("players[]", "Ann"), ("players[]", "Bob\u202e"), ("players[]", ""), ("players[]", "")])
    page = client.post(f"/new/{GAME}", data=form).get_data(as_text=True)
    assert re.findall(r'name="players\[\]"[^>]*value="([^"]*)"', page)[:2] == ["Ann", ""]
    assert count_rows(app, "tables") == 0


def test_start_form_says_how_many_names_a_game_takes_in_words(client):
    page = client.post("/new/galileo", data=MultiDict([("players[]", "Ann")] + [("players[]", " ")] * 3))  # 2 to 4
    assert page.status_code == 400
    assert "The players: must be" in page.get_data(as_text=True) and "items" not in page.get_data(as_text=True)


@pytest.mark.parametrize("key", list(registry()))
def test_a_table_stored_with_look_alikes_before_they_were_refused_can_still_be_finished(app, api, key):
    """Every game's new events on such a table go on: Galileo's sheet scores the table's names, and
    refused the pair, so the table was never finished (found by review)."""
    from tests.examples import examples

    ex = examples(key)
    names = list(ex.CALCULATOR_NAMES)
    t = api.create(key, names, calculator=True)
    for type_, data in ex.CALCULATOR_SETUP:
        assert api.event(t, type_, data).status_code == 200
    first = names[0]  # as the app before issue 40 let it be written: the second player a Cyrillic look-alike
    twin = first.replace("A", "\u0410").replace("a", "\u0430").replace("o", "\u043e").replace("e", "\u0435")
    assert twin != first
    conn = sqlite3.connect(app.config["DATABASE"])
    try:
        conn.execute("UPDATE tables SET names = ? WHERE id = ?", [json.dumps([first, twin, *names[2:]]), t["table"]])
        conn.commit()
    finally:
        conn.close()
    for row in ex.CALCULATOR_ROWS:
        answer = api.event(t, "sheet", row)
        assert answer.status_code == 200, answer.get_json()
    assert api.get(t)["state"]["finished"]
    assert api.result(t).status_code == 200


def test_the_start_form_puts_the_focus_in_the_refused_names_field(client):
    # the first field had it whatever was refused: a phone's keyboard opened on Player 1's name, beside
    # a message about Player 4's
    form = MultiDict([("players[]", "Ann"), ("players[]", ""), ("players[]", "Bob"), ("players[]", "B\u03bfb")])
    page = client.post(f"/new/{GAME}", data=form).get_data(as_text=True)
    fields = re.findall(r"<input name=\"players\[\]\"[^>]*>", page)
    assert len(fields) == 4
    focused = [i for i, field in enumerate(fields) if "autofocus" in field]
    assert focused == [3] and 'aria-invalid="true"' in fields[3], fields  # the row the name was typed in
    page = client.get(f"/new/{GAME}").get_data(as_text=True)
    assert [i for i, f in enumerate(re.findall(r"<input name=\"players\[\]\"[^>]*>", page)) if "autofocus" in f] == [0]
