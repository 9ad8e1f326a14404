"""Every page in every language (issue 29): no English left on a page read in another language,
the phone's language chosen as the issue says, one render per version and language, and the API,
exports and BG Stats in English whatever the phone reads.

The English sentences looked for are the catalogs' own (every messages.pot): a sentence, or
the longest run of words between its placeholders, that its language's catalog translates
differently and that no translation of that language contains. A page is read as a person reads
it: its text and the words of its aria-label, title, placeholder and alt attributes.
"""

from __future__ import annotations

import html
import re
from functools import lru_cache
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from companion.games import registry, speech
from tests.examples import examples
from tests.foundation.test_plays import host_client

TRANSLATED = [lang for lang in speech.LANGUAGES if lang != speech.SOURCE]
GAMES = tuple(registry())
PLACEHOLDER = re.compile(r"%\([a-z_0-9]+\)[sdif]|%[sdif]|\{[a-z_0-9]*\}")
ROOT = Path(__file__).resolve().parents[2]
#: names no language translates: the app's own, and the games' titles as their editions print them
PROPER_NAMES = ("Table Companion", *(game.title for game in registry().values()))
SHOWN_ATTRIBUTES = re.compile(r'\s(?:aria-label|title|placeholder|alt)="([^"]*)"')


def messages(path: Path):
    with path.open("rb") as fp:
        return [m for m in read_po(fp) if m.id]


def _ids(message) -> list[str]:
    return list(message.id) if isinstance(message.id, (list, tuple)) else [message.id]


@lru_cache(maxsize=None)
def english_phrases(lang: str) -> tuple[str, ...]:
    """The English a page in `lang` must not show: each catalog sentence's longest literal run of words."""
    translations: list[str] = []
    pairs = []
    for folder in speech.catalog_folders():
        with (folder / lang / "LC_MESSAGES" / "messages.po").open("rb") as fp:
            for m in read_po(fp, locale=lang):
                if m.id:
                    strings = list(m.string) if isinstance(m.string, (list, tuple)) else [m.string]
                    translations += [s for s in strings if s]
                    pairs.append((_ids(m), strings))
    phrases = set()
    for ids, strings in pairs:
        for english in ids:
            runs = [r.strip(" .,:;!?()\"'“”…-–—") for r in PLACEHOLDER.split(english)]
            run = max(runs, key=len)
            if len(re.findall(r"[A-Za-z]{2,}", run)) == 0 or len(run) < 4:
                continue  # "+", "%(n)s/%(m)s": nothing English in it
            if run in strings or any(run in t for t in translations):
                continue  # the language says it the same (a proper name, "OK", "Total")
            phrases.add(run)
    return tuple(sorted(phrases, key=len, reverse=True))


def shown_text(page: str) -> str:
    """What a person reads on a page: the text (no script, style or template bodies) and the shown attributes."""
    body = re.sub(r"<(script|style|template)\b.*?</\1>", " ", page, flags=re.S | re.I)
    attributes = " | ".join(SHOWN_ATTRIBUTES.findall(body))
    text = re.sub(r"<[^>]+>", " | ", body)
    return html.unescape(re.sub(r"\s+", " ", text + " | " + attributes))


def english_found(page: str, lang: str, names=()) -> list[str]:
    text = shown_text(page)
    for name in names:
        text = text.replace(name, " | ")
    # A phrase as a substring first (microseconds), its word boundaries only where it is one: a
    # pattern per phrase over every page took 1-1.8 s a page on a busy machine (issue 38).
    return [phrase for phrase in english_phrases(lang)
            if phrase in text and re.search(r"(?<![\w'’])" + re.escape(phrase) + r"(?![\w'’])", text)]


def reader(app, lang: str):
    """A phone whose browser reads `lang` first, holding the host key (it sees the archive)."""
    phone = host_client(app)
    phone.environ_base["HTTP_ACCEPT_LANGUAGE"] = f"{lang},en;q=0.5"
    return phone


def seat_cookies(phone, api, t: dict) -> None:
    """Let `phone` open table `t` as a phone that joined it (its secret in the cookie)."""
    phone.set_cookie(f"tc_{t['table']}", t["token"])


def finished_calculator(api, key: str) -> dict:
    ex = examples(key)
    t = api.create(key, list(ex.CALCULATOR_NAMES), calculator=True)
    for type_, data in ex.CALCULATOR_SETUP:
        assert api.event(t, type_, data).status_code == 200
    for row in ex.CALCULATOR_ROWS:
        answer = api.event(t, "sheet", row)
        assert answer.status_code == 200, answer.get_json()
    return t


def pages(api, phone, key: str):
    """(what it is, its address, the page) for every page of one game a phone opens, as the game goes on."""
    ex = examples(key)

    def opened(what: str, address: str):
        answer = phone.get(address)
        assert answer.status_code == 200, (what, address, answer.status_code)
        return what, address, answer.get_data(as_text=True)

    yield opened("home", "/")
    yield opened(f"new {key} table", f"/new/{key}")
    yield opened(f"new {key} calculator", f"/new/{key}?calculator=1")
    if (ROOT / "templates" / key / "profile.html").is_file():
        yield opened(f"new {key} profile", f"/profiles/new/{key}")
    t = api.create(key, ["Anna", "Ben", "Cleo"][:registry()[key].max_players])  # NAMED_PAGES' table: three, or fewer
    seat_cookies(phone, api, t)
    yield opened(f"{key} table: start", f"/t/{t['table']}")
    for events, screens in ex.NAMED_PAGES:  # one table, the steps in turn
        for type_, data in events:
            answer = api.event(t, type_, data)
            assert answer.status_code == 200, (type_, data, answer.get_json())
        for name, screen in screens.items():
            yield opened(f"{key} table: {name}", f"/t/{t['table']}" + (f"?screen={screen}" if screen else ""))
    empty = api.create(key, ["Anna", "Ben"], calculator=True)
    done = finished_calculator(api, key)
    for made in (empty, done):
        seat_cookies(phone, api, made)
    yield opened(f"{key} calculator", f"/t/{empty['table']}")
    yield opened(f"{key} calculator finished", f"/t/{done['table']}")
    yield opened(f"{key} play record", f"/plays/{done['table']}")
    yield opened("archive", "/plays")
    yield opened("stats", "/plays/stats")
    yield opened("profiles", "/profiles/")


@pytest.mark.parametrize("key", GAMES)
@pytest.mark.parametrize("lang", TRANSLATED)
def test_no_page_shows_an_english_sentence_in_another_language(app, api, key, lang):
    phone = reader(app, lang)
    names = ["Anna", "Ben", "Cleo", *examples(key).CALCULATOR_NAMES, *PROPER_NAMES]
    shown = []
    for what, address, page in pages(api, phone, key):
        assert f'lang="{lang}"' in page[:300], f"{what}: the page does not say it is in {lang}"
        english = english_found(page, lang, names)
        if english:
            shown.append(f"{what} ({address}): {english[:8]}")
    assert not shown, f"English on {lang} pages:\n" + "\n".join(shown)


def test_the_check_finds_english_where_it_is(app):
    """The test above can fail: an English sentence of the catalogs on a page is found."""
    phrases = english_phrases("pl")
    assert phrases, "no English sentence to look for: the catalogs are empty"
    page = f'<html lang="pl"><body><p>{html.escape(phrases[-1])}</p></body></html>'
    assert english_found(page, "pl") == [phrases[-1]] or phrases[-1] in english_found(page, "pl")


def test_a_phone_reads_its_choice_then_its_browser_then_english(app):
    phone = app.test_client()
    assert 'lang="en"' in phone.get("/").get_data(as_text=True)[:300]
    phone.environ_base["HTTP_ACCEPT_LANGUAGE"] = "de-CH,de;q=0.9,en;q=0.8"
    assert 'lang="de"' in phone.get("/").get_data(as_text=True)[:300]
    phone.environ_base["HTTP_ACCEPT_LANGUAGE"] = "ja,ko;q=0.9"  # none the app speaks
    assert 'lang="en"' in phone.get("/").get_data(as_text=True)[:300]
    chosen = phone.post("/language", data={"lang": "pl", "next": "/plays?game=codex"})
    assert chosen.status_code == 303 and chosen.headers["Location"].endswith("/plays?game=codex")
    cookie = chosen.headers["Set-Cookie"]
    assert cookie.startswith("lang=pl;") and "Max-Age=31536000" in cookie and "HttpOnly" in cookie
    phone.environ_base["HTTP_ACCEPT_LANGUAGE"] = "de"
    assert 'lang="pl"' in phone.get("/").get_data(as_text=True)[:300]  # the choice wins over the browser


@pytest.mark.parametrize("sent", [{"lang": "xx", "next": "/"}, {"lang": "fr", "next": "https://evil.example/"},
                                  {"lang": "fr", "next": "//evil.example/x"}, {}])
def test_the_picker_never_sends_a_phone_elsewhere_nor_keeps_a_language_it_does_not_speak(client, sent):
    answer = client.post("/language", data=sent)
    assert answer.status_code == 303
    location = answer.headers["Location"]
    assert location == "/" or location.startswith("/") and not location.startswith("//"), location
    cookie = answer.headers.get("Set-Cookie") or ""
    assert ("lang=" in cookie) == (sent.get("lang") == "fr")


def test_the_api_and_the_downloads_speak_english_whatever_the_phone_reads(app, api):
    key = "gutenberg"
    done = finished_calculator(api, key)
    english_phone, polish_phone = reader(app, "en"), reader(app, "pl")
    polish_phone.set_cookie("lang", "pl")
    headers = {"X-Table-Token": done["token"]}
    for path in (f"/api/v1/tables/{done['table']}", f"/api/v1/tables/{done['table']}/result",
                 f"/api/v1/tables/{done['table']}/events"):
        assert polish_phone.get(path, headers=headers).get_json() == english_phone.get(path, headers=headers).get_json()
    bad = {"type": "sheet", "data": {"player": 0, "fame": "lots"}, "expected_version": 0}
    a = english_phone.post(f"/api/v1/tables/{done['table']}/events", json=bad, headers=headers).get_json()
    b = polish_phone.post(f"/api/v1/tables/{done['table']}/events", json=bad, headers=headers).get_json()
    assert a == b and a["error"]
    for path in ("/plays/export.json", "/plays/export.csv"):
        assert polish_phone.get(path).get_data() == english_phone.get(path).get_data()
    # BG Stats gets the English play from a Polish page's "Log this play" too
    bgstats = english_phone.get(f"/api/v1/tables/{done['table']}/result", headers=headers).get_json()["bgstats_url"]
    seat_cookies(polish_phone, api, done)
    page = polish_phone.get(f"/t/{done['table']}").get_data(as_text=True)
    assert 'lang="pl"' in page[:300] and html.escape(bgstats) in page


def test_a_table_region_is_rendered_once_per_version_and_language(app, api):
    t = api.create("codex", ["Anna", "Tom"])
    cache = app.extensions["companion.live"]
    phones = {lang: [reader(app, lang) for _ in range(2)] for lang in ("fr", "pl")}
    for group in phones.values():
        for phone in group:
            seat_cookies(phone, api, t)
    misses = cache.misses
    bodies = {lang: [phone.get(f"/t/{t['table']}/live").get_data(as_text=True) for phone in group]
              for lang, group in phones.items()}
    assert cache.misses - misses == 2  # one render for the two French phones, one for the two Polish
    assert bodies["fr"][0] == bodies["fr"][1] and bodies["pl"][0] == bodies["pl"][1]
    assert bodies["fr"][0] != bodies["pl"][0]


def test_a_poll_never_revalidates_a_region_drawn_in_another_language(app, api):
    """The browser revalidates a cached poll by its ETag: one drawn in French must not pass for Polish."""
    t = api.create("codex", ["Anna", "Tom"])
    french, polish = reader(app, "fr"), reader(app, "pl")
    for phone in (french, polish):
        seat_cookies(phone, api, t)
    first = french.get(f"/t/{t['table']}/live")
    assert first.status_code == 200
    assert french.get(f"/t/{t['table']}/live", headers={"If-None-Match": first.headers["ETag"]}).status_code == 304
    again = polish.get(f"/t/{t['table']}/live", headers={"If-None-Match": first.headers["ETag"]})
    assert again.status_code == 200 and again.headers["ETag"] != first.headers["ETag"]
    assert {"accept-language", "cookie"} <= {v.strip().lower() for v in again.headers["Vary"].split(",")}


@pytest.mark.slow
def test_one_tables_stream_in_two_languages_each_gets_the_change_in_its_own(server):
    """A real `companion serve`: a French and a Polish phone's streams of one table, and a write by the API.

    Each gets the new version; the two French streams get the same bytes (one render for both), the
    Polish one its own, with the history line its language says (the page in that language says the same).
    """
    from tests.foundation.test_lost_taps import api_post, create
    from tests.foundation.test_push import Stream

    t = create(server, game="gutenberg", players=("Anna", "Tom"))
    streams = {name: Stream(server.port, t, "v=0", {"Accept-Language": lang}, seat=seat)
               for name, lang, seat in (("fr", "fr", 0), ("fr again", "fr-CA,fr;q=0.9", 1), ("pl", "pl", 1))}
    try:
        for stream in streams.values():
            stream.read_until(rb"retry: 1000\n\n")
        assert api_post(server, t, "events", {"type": "fame", "data": {"player": 0, "delta": 2}, "expected_version": 0})[0] == 200
        for stream in streams.values():
            stream.read_until(rb"id: 1\nevent: live\n(?:data: [^\n]*\n)+\n")  # the whole event
        sent = {name: stream.event_data(1) for name, stream in streams.items()}
        assert all(sent.values()), sent
        assert sent["fr"] == sent["fr again"] != sent["pl"]
        for lang in ("fr", "pl"):
            status, _, page = server.send("GET", f"/t/{t['table']}", headers={
                "Cookie": f"tc_{t['table']}={t['token']}", "Accept-Language": lang})
            line = re.search(r'<ol class="history" id="history-list"[^>]*>\s*<li[^>]*><span>(.*?)</span>', page.decode(), re.S)
            assert status == 200 and line, lang
            assert line.group(1).encode() in sent[lang].replace(b"\ndata: ", b"\n"), (lang, line.group(1))
    finally:
        for stream in streams.values():
            stream.close()
