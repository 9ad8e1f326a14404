"""Two languages at one table, and the longest words at 360 px (issue 29), in Debian's chromium.

- A French phone and a Polish phone join one table by its join address, each with its browser
  set to its language (Playwright's locale sends Accept-Language). Each sees the other's tap
  pushed, in its own language, without a reload: its newest history line is the line the server
  renders for its language, and not the other's nor the English.
- German and Polish pages (German's words are the longest) fit a 360 px phone with no
  horizontal scroll, light and dark: every game's table and finished calculator, the start
  page, a new-table form and the archive. Screenshots: tests/screenshots/lang-*.png.
"""

from __future__ import annotations

import re
from html import unescape
from urllib.parse import urlparse

import pytest

from companion.games import registry
from tests.conftest import PHONE, SCREENSHOTS, Server, take_seat
from tests.examples import examples
from tests.foundation.test_lost_taps import create

pytestmark = [pytest.mark.browser, pytest.mark.slow]

NEWEST_LINE = re.compile(r'<ol class="history" id="history-list"[^>]*>\s*<li[^>]*>(.*?)</li>', re.S)


def phone_in(browser, lang: str, dark: bool = False):
    context = browser.new_context(**PHONE, locale=lang, color_scheme="dark" if dark else "light")
    page = context.new_page()
    page.set_default_timeout(10_000)
    return context, page


def rendered_newest_line(server: Server, t: dict, lang: str) -> str:
    """The history's newest line as the server renders the table page for a phone reading `lang`."""
    status, _, body = server.send("GET", f"/t/{t['table']}", headers={
        "Cookie": f"tc_{t['table']}={t['token']}", "Accept-Language": lang})
    assert status == 200
    found = NEWEST_LINE.search(body.decode())
    assert found, "no history on the table page"
    return " ".join(unescape(re.sub(r"<[^>]+>", "", found.group(1))).split())


def newest_line(page) -> str:
    return " ".join(page.locator("#history-list li").first.text_content().split())


def plus(page, player: int):
    """The first + stepper on a player's card (its words are the page's language: found by its place)."""
    return page.locator(f"#player-{player} button.step[value='1']").first


def test_a_french_and_a_polish_phone_each_read_the_others_tap_in_their_own_language(browser, tmp_path):
    server = Server(data=tmp_path / "data").start()
    try:
        t = create(server, "gutenberg", ("Anna", "Tom"))
        phones = {}
        for lang, seat in (("fr", "Anna"), ("pl", "Tom")):
            context, page = phone_in(browser, lang)
            page.goto(server.url + urlparse(t["join_url"]).path)
            page.wait_for_url("**/t/*")
            take_seat(page, seat)
            assert page.locator("html").get_attribute("lang") == lang
            page.evaluate("() => { window.__notReloaded = true; }")
            phones[lang] = (context, page)
        french, polish = phones["fr"][1], phones["pl"][1]

        plus(french, 0).click()  # Anna taps on the French phone
        polish.wait_for_function("() => parseInt(document.body.getAttribute('data-version'), 10) >= 1")
        said = {lang: rendered_newest_line(server, t, lang) for lang in ("fr", "pl", "en")}
        assert len(set(said.values())) == 3, said  # three languages, three sentences
        assert newest_line(polish) == said["pl"]
        french.wait_for_function("() => parseInt(document.body.getAttribute('data-version'), 10) >= 1")
        assert newest_line(french) == said["fr"]

        plus(polish, 1).click()  # Tom taps on the Polish phone
        french.wait_for_function("() => parseInt(document.body.getAttribute('data-version'), 10) >= 2")
        said = {lang: rendered_newest_line(server, t, lang) for lang in ("fr", "pl")}
        assert newest_line(french) == said["fr"] != said["pl"]
        polish.wait_for_function("() => parseInt(document.body.getAttribute('data-version'), 10) >= 2")
        assert newest_line(polish) == said["pl"]
        for _, page in phones.values():
            assert page.evaluate("() => window.__notReloaded === true")  # pushed, never reloaded
        for context, _ in phones.values():
            context.close()
    finally:
        server.stop()


def pages_to_fit(server: Server) -> list[tuple[str, str, dict | None]]:
    """(name, path, the table whose join address gives the phone its secret) for the pages checked at 360 px."""
    found: list[tuple[str, str, dict | None]] = [("home", "/", None), ("new-gutenberg", "/new/gutenberg", None)]
    for key in registry():
        ex = examples(key)
        t = create(server, key, tuple(ex.PLAYERS))
        found.append((f"{key}-table", f"/t/{t['table']}", t))
        done = create_finished(server, key)
        found.append((f"{key}-calculator", f"/t/{done['table']}", done))
    found.append(("plays", "/plays", None))
    return found


def create_finished(server: Server, key: str) -> dict:
    """A finished calculator table of the game's examples, through the API (each event at its version)."""
    ex = examples(key)
    t = server.api("/api/v1/tables", {"game": key, "players": list(ex.CALCULATOR_NAMES), "calculator": True})
    version = t["version"]
    for type_, data in [*ex.CALCULATOR_SETUP, *(("sheet", row) for row in ex.CALCULATOR_ROWS)]:
        version = server.api(f"/api/v1/tables/{t['table']}/events",
                             {"type": type_, "data": data, "expected_version": version}, t["token"])["version"]
    return t


@pytest.mark.parametrize("lang", ["de", "pl"])
def test_german_and_polish_pages_fit_a_360_px_phone_light_and_dark(browser, lang, tmp_path):
    server = Server(data=tmp_path / "data").start()
    try:
        pages = pages_to_fit(server)
        overflowing = []
        for dark in (False, True):
            context, page = phone_in(browser, lang, dark)
            for name, path, t in pages:
                if t is not None:
                    page.goto(server.url + urlparse(t["join_url"]).path)
                    page.wait_for_url("**/t/*")
                page.goto(server.url + path)
                page.wait_for_load_state("load")
                assert page.locator("html").get_attribute("lang") == lang, name
                wide = page.evaluate("() => document.documentElement.scrollWidth")
                if wide > 360:
                    culprits = page.evaluate("""() => [...document.querySelectorAll('body *')]
                        .filter(e => e.getBoundingClientRect().right > 361)
                        .slice(0, 5).map(e => e.tagName + '.' + e.className + ': ' + (e.textContent || '').trim().slice(0, 40))""")
                    overflowing.append(f"{name} ({'dark' if dark else 'light'}): {wide}px {culprits}")
                SCREENSHOTS.mkdir(parents=True, exist_ok=True)
                page.screenshot(path=str(SCREENSHOTS / f"lang-{lang}-{name}-{'dark' if dark else 'light'}.png"), full_page=True)
            context.close()
        assert not overflowing, "\n".join(overflowing)
    finally:
        server.stop()
