"""The app's own pages in the phone's language (issue 29): the start page, a new table's form, a
table, the archive, the stats and the error page, in Polish and French, and in English as before;
the language picker on every page; the page script's words rendered for it in the page's language.

What a page should say is read from the catalogs through companion/games/speech.py (the
language's own words for the English the template marks), never written into the test: a
sentence left unmarked shows its English and fails here.
"""

from __future__ import annotations

import json
import re

import pytest
from markupsafe import escape

from companion import paths, stats
from companion.games import speech
from companion.web import guard, language
from tests.foundation.test_plays import all_results, gutenberg_play

LANGS = ("pl", "fr")


def said(lang: str, message: str, **variables) -> str:
    """`message` as `lang` says it, as a page writes it (escaped)."""
    with speech.speaking(lang):
        text = speech.gettext(message, **variables)
    assert lang == "en" or text != message, f"{message!r} has no {lang} translation"
    return str(escape(text))


def counted(lang: str, singular: str, plural: str, n: int) -> str:
    with speech.speaking(lang):
        return str(escape(speech.ngettext(singular, plural, n)))


def page(client, path: str, lang: str | None = None, status: int = 200) -> str:
    if lang is None:
        client.delete_cookie(language.COOKIE)
    else:
        client.set_cookie(language.COOKIE, lang)
    response = client.get(path)
    assert response.status_code == status, (path, response.status_code)
    return response.get_data(as_text=True)


def joined(client, t: dict) -> None:
    """This device holds the table's secret, as the start page or its QR code leaves it."""
    client.set_cookie(f"tc_{t['table']}", t["token"])


@pytest.fixture
def plays(api, client):
    """Two finished Gutenberg plays this device joined, Anna's fames odd apart (a .5 average)."""
    made = [gutenberg_play(api, ["Anna", "Ben"], fames) for fames in ([10, 4], [17, 9])]
    for t in made:
        joined(client, t)
    return made


# --- the pages ------------------------------------------------------------------------------------

@pytest.mark.parametrize("lang", LANGS)
def test_the_start_page_and_a_new_tables_form_speak_the_phones_language(client, lang):
    home = page(client, "/", lang)
    assert f'<html lang="{lang}">' in home
    for sentence in ("Start a table", "Past plays and stats", "Final score", "Box profiles"):
        assert said(lang, sentence) in home and f">{sentence}<" not in home
    form = page(client, "/new/gutenberg", lang)
    for sentence in ("Track the game", "Just the final score", "Start the table", "How will you use it?"):
        assert said(lang, sentence) in form and sentence not in form
    assert said(lang, "Player %(number)s", number=3) in form


@pytest.mark.parametrize("lang", LANGS)
def test_a_table_page_speaks_the_phones_language(api, client, lang):
    t = api.create("gutenberg", ["Anna", "Ben"])
    joined(client, t)
    html = page(client, f"/t/{t['table']}", lang)
    for sentence in ("Undo", "History", "Who are you?", "Invite: scan to join", "Players and seats", "Rename"):
        assert said(lang, sentence) in html, sentence
    assert f'aria-label="{said(lang, "Scoreboard")}"' in html
    assert said(lang, "Change %(number)s", number=0) in html and ">Change 0<" not in html
    assert said(lang, "I am %(name)s", name="\x00").replace("\x00", "<bdi>Anna</bdi>") in html


@pytest.mark.parametrize("lang", LANGS)
def test_the_archive_and_the_stats_speak_the_phones_language(app, client, plays, lang):
    listing = page(client, "/plays", lang)
    count = counted(lang, "%(num)d play", "%(num)d plays", 2)
    assert said(lang, "%(plays)s, newest first.", plays=count) in listing and "newest first" not in listing
    assert said(lang, "Download these plays") in listing
    # the dates as the language writes them, not the English "5 Dec 2026, 21:14"
    assert not re.search(r"<time class=\"muted\">\d{1,2} [A-Z][a-z]{2} \d{4}, \d\d:\d\d</time>", listing)
    with speech.speaking(lang):
        assert speech.day(_today()) in listing
    table = page(client, "/plays/stats", lang)
    for sentence in ("Wins", "Best", "Latest", "Wins per player"):
        assert said(lang, sentence) in table
    averages = [p["average"] for g in stats.per_game(all_results(app)) for p in g["players"]]
    assert any(a != int(a) for a in averages), "a fractional average, to see its decimal separator"
    with speech.speaking(lang):
        for average in averages:
            assert f"<td>{speech.number(average, 1)}</td>" in table
    record = page(client, f"/plays/{plays[0]['table']}", lang)
    assert said(lang, "Over the game") in record and said(lang, "Plays") in record


def test_the_english_pages_are_as_they_were(app, api, client, plays):
    home = page(client, "/")
    assert '<html lang="en">' in home and '<h1>Start a table</h1>' in home and 'id="words"' not in home
    assert ">Past plays and stats</a>" in home and ': just the final score">Final score</a>' in home
    listing = page(client, "/plays")
    assert '<p class="muted plays-count">2 plays, newest first.</p>' in listing
    assert re.search(r"<time class=\"muted\">\d{1,2} [A-Z][a-z]{2} \d{4}, \d\d:\d\d</time>", listing)
    assert "Winner: <bdi>Anna</bdi>" in listing
    table = page(client, "/plays/stats")
    for p in (p for g in stats.per_game(all_results(app)) for p in g["players"]):
        assert f"<td>{p['average']}</td>" in table  # 13.5, 6.5: as str() wrote them
    assert '<th scope="col"><abbr title="Average">Avg</abbr></th>' in table
    t = api.create("gutenberg", ["Anna", "Ben"])
    joined(client, t)
    html = page(client, f"/t/{t['table']}")
    assert "↶ Undo</button>" in html and '<span class="muted version">Change 0</span>' in html
    assert "<span>I am <bdi>Anna</bdi></span>" in html and "<summary>History</summary>" in html


def test_polish_counts_take_their_three_forms(api, client):
    """1, 2, 5 and 22 plays: one form, then "few" (2, 22) and "many" (5), as Polish says them."""
    seen = {}
    for made in range(1, 23):
        joined(client, gutenberg_play(api, ["Anna", "Ben"], [made, 1]))
        if made in (1, 2, 5, 22):
            count = re.search(r'<p class="muted plays-count">([^<]*)</p>', page(client, "/plays", "pl")).group(1)
            seen[made] = count
            assert count == said("pl", "%(plays)s, newest first.", plays=counted("pl", "%(num)d play", "%(num)d plays", made))
    words = {n: text.split(",")[0].split(" ", 1)[1] for n, text in seen.items()}
    assert words[2] == words[22] and len({words[1], words[2], words[5]}) == 3, seen


@pytest.mark.parametrize("lang", LANGS)
def test_an_error_page_speaks_the_phones_language(client, lang):
    missing = page(client, "/t/nosuchtable", lang, status=404)
    assert said(lang, "Not found") in missing
    assert said(lang, "There is no such table here. Scan the table's QR code to join it.") in missing
    # werkzeug's own words, for an address no route has
    nowhere = page(client, "/no/such/page", lang, status=404)
    assert said(lang, "The requested URL was not found on the server. If you entered the URL manually please "
                      "check your spelling and try again.") in nowhere


def test_werkzeugs_own_words_on_the_error_page_are_in_the_catalog():
    """render.ERROR_WORDS copies werkzeug's descriptions: a werkzeug that words them otherwise is seen here."""
    from werkzeug import exceptions

    from companion.web import render

    for error in (exceptions.BadRequest, exceptions.NotFound, exceptions.MethodNotAllowed, exceptions.RequestEntityTooLarge,
                  exceptions.RequestURITooLarge, exceptions.RequestHeaderFieldsTooLarge):
        assert error.description in render.ERROR_WORDS, error


def test_the_creation_limits_words_are_the_same_in_english_and_translated_on_a_page():
    with speech.english():
        assert guard.too_many("tables", 60, 1, 5) == "too many new tables from this device: at most 60 every minute; try again in 5 s"
        assert guard.too_many("profiles", 3, 10, 42) == ("too many new box profiles from this device: at most 3 every 10 minutes; "
                                                         "try again in 42 s")
    with speech.speaking("pl"):
        polish = guard.too_many("tables", 60, 5, 7)
    assert "too many" not in polish and "60" in polish and "5" in polish and "7" in polish


def test_the_creation_limits_page_speaks_the_phones_language_and_the_api_english(tmp_path):
    from companion import create_app

    app = create_app({"TESTING": True, "DATA_DIR": str(tmp_path), "CREATE_LIMIT": "1/1"})
    phone = app.test_client()
    phone.set_cookie(language.COOKIE, "pl")
    form = {"players[]": ["Anna", "Ben"], "options.calculator:bool": "on"}
    assert phone.post("/new/gutenberg", data=form).status_code == 303
    refused = phone.post("/new/gutenberg", data=form)
    html = refused.get_data(as_text=True)
    assert refused.status_code == 429 and '<html lang="pl">' in html and said("pl", "Sorry") in html
    assert "too many" not in html and said("pl", "Your browser's Back button returns to the form with what you typed.") in html
    api = phone.post("/api/v1/tables", json={"game": "gutenberg", "players": ["Anna", "Ben"]})
    assert api.status_code == 429 and api.get_json()["error"].startswith("too many new tables from this device: at most 1 every minute")


# --- the picker -----------------------------------------------------------------------------------

def test_every_page_has_the_language_picker_at_its_foot(client):
    html = page(client, "/plays?game=gutenberg", "fr")
    foot = html[html.index("</main>"):]
    form = re.search(r'<form method="post" action="/language"[^>]*>(.*?)</form>', foot, re.S)
    assert form, "the picker comes after the page's main part"
    options = re.findall(r'<option value="(\w+)" lang="(\w+)"( selected)?>([^<]+)</option>', form.group(1))
    assert [(code, name) for code, _, _, name in options] == list(speech.LANGUAGES.items())
    assert all(code == tag for code, tag, _, _ in options)
    assert [code for code, _, chosen, _ in options if chosen] == ["fr"]
    assert '<input type="hidden" name="next" value="/plays?game=gutenberg">' in form.group(1)
    assert f'<label for="language-pick">{said("fr", "Language")}</label>' in form.group(1)


def test_the_picker_sets_the_cookie_and_the_page_comes_back_in_the_language(client):
    answer = client.post("/language", data={"lang": "pl", "next": "/plays"})
    assert answer.status_code == 303 and answer.headers["Location"].endswith("/plays")
    assert any(c.startswith(f"{language.COOKIE}=pl;") for c in answer.headers.getlist("Set-Cookie"))
    html = client.get("/plays").get_data(as_text=True)
    assert '<html lang="pl">' in html and said("pl", "Plays") in html


def test_an_error_page_names_no_address_for_the_picker(client):
    """A missing page and one this device may not see are one page (static/js/language.js fills it in)."""
    html = page(client, "/t/nosuchtable", "pl", status=404)
    assert '<input type="hidden" name="next" value="">' in html


# --- the page script's words ----------------------------------------------------------------------

def script_keys() -> set[str]:
    """Every key static/js asks of the page's words."""
    keys = set()
    for module in (paths.STATIC / "js").glob("*.js"):
        keys |= set(re.findall(r'\b(?:word|counted)\("(\w+)"', module.read_text()))
    return keys


def words_of(html: str) -> dict:
    found = re.search(r'<script type="application/json" id="words">(.*?)</script>', html, re.S)
    assert found, "the page's words block"
    return json.loads(found.group(1))


@pytest.mark.parametrize("lang", LANGS)
def test_the_scripts_words_reach_the_page_translated(client, lang):
    words = words_of(page(client, "/", lang))
    keys = script_keys()
    assert {"not_saved", "sending", "taps_kept", "unreachable", "share_saved_copied"} <= keys
    assert keys <= set(words), keys - set(words)
    with speech.speaking(lang):
        assert words["not_saved"] == speech.gettext("not saved") != "not saved"
    # placeholders as the script fills them
    assert "{trouble}" in words["offline_kept"] and "{taps}" in words["offline_kept"]
    # the counted ones: a form for each plural category the language has, {num} for the number
    with speech.speaking(lang):
        categories = set(speech.locale().plural_form.tags) | {"other"}
    assert set(words["taps_kept"]) <= categories and len(words["taps_kept"]) >= 2
    with speech.speaking(lang):
        three = speech.ngettext("%(num)d tap kept", "%(num)d taps kept", 3)
    assert three in {form.replace("{num}", "3") for form in words["taps_kept"].values()}


def test_polish_taps_have_one_few_and_many(client):
    forms = words_of(page(client, "/", "pl"))["taps_not_saved"]
    assert set(forms) == {"one", "few", "many"} and len(set(forms.values())) == 3


def _today():
    from datetime import datetime

    return datetime.now().astimezone()


# --- in a browser: the picker and a word the page's script writes -----------------------------------

@pytest.mark.slow  # a real server process (and a browser)
def test_a_polish_phone_reads_the_scripts_word_then_picks_french_and_stays_on_its_page(browser, tmp_path):
    """static/js/seat.js writes "watching" for a phone that only watches: in Polish on a Polish page.
    The picker (static/js/language.js) then sends French as soon as it is chosen, back to this page."""
    from urllib.parse import urlparse

    from tests.conftest import PHONE, Server, take_seat
    from tests.foundation.test_lost_taps import create

    server = Server(data=tmp_path / "data").start()
    try:
        t = create(server, "gutenberg", ("Anna", "Tom"))
        context = browser.new_context(**PHONE, locale="pl")
        phone = context.new_page()
        phone.set_default_timeout(10_000)
        phone.goto(server.url + urlparse(t["join_url"]).path)
        phone.wait_for_url("**/t/*")
        take_seat(phone, said("pl", "Just watch"))
        assert phone.locator("html").get_attribute("lang") == "pl"
        with speech.speaking("pl"):
            assert phone.locator("[data-you-are]").first.text_content() == speech.gettext("watching") != "watching"
        picker = phone.locator("footer select[name=lang]")
        box = picker.bounding_box()
        assert box["height"] >= 44 and box["y"] > phone.locator("main").bounding_box()["y"]
        with phone.expect_navigation():
            picker.select_option("fr")
        assert urlparse(phone.url).path == f"/t/{t['table']}"
        assert phone.locator("html").get_attribute("lang") == "fr"
        with speech.speaking("fr"):
            assert phone.locator("[data-you-are]").first.text_content() == speech.gettext("watching")
        context.close()
    finally:
        server.stop()
