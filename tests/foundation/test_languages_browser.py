"""Two languages at one table, and the longest words at 360 px (issue 29), in Debian's chromium.

- A French phone and a Polish phone join one table by its join address, each with its browser
  set to its language (Playwright's locale sends Accept-Language). Each sees the other's tap
  pushed, in its own language, without a reload: its newest history line is the line the server
  renders for its language, and not the other's nor the English.
- Every language's pages (en, fr, de, pl, es, it) fit a 360 px phone, light and dark (issue 29;
  issue 38, items 2 to 4): no horizontal scroll, no column hidden in a sideways scroller, no
  button's words past its edge, on every game's table (Galileo's at its turn's actions), its
  calculator empty and finished, a finished four-player table with long names, the new-table and
  box-profile forms, and, once the phone has joined all those tables, the start page that lists
  them (each link whole, "Anna, Ben"), the archive and the stats; and on Galileo's and Voynich's
  pages, the start page and the stats, no word broken mid-word without a hyphen (the Cathedral's
  headings, Voynich's markers: Debian's chromium does not hyphenate by itself). Screenshots:
  tests/screenshots/lang-*.png.
"""

from __future__ import annotations

import re
from html import unescape
from urllib.parse import urlparse

import pytest

from companion.games import registry
from tests.conftest import PHONE, SCREENSHOTS, Server, take_seat
from tests.examples import create_doc, examples
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


#: four long names (a finished table of each game lists them all on the start page and in the stats)
LONG_NAMES = ("Maximiliane", "Bartholomäus", "Przemysław", "Wojciechowska")

#: how wide the page is, and the first elements past a 360 px screen's right edge
OVERFLOW = """() => ({wide: document.documentElement.scrollWidth,
    culprits: [...document.querySelectorAll('body *')].filter(e => e.getBoundingClientRect().right > 361)
        .slice(0, 5).map(e => e.tagName + '.' + e.className + ': ' + (e.textContent || '').trim().slice(0, 40))})"""

#: a box that scrolls sideways and hides some of what it holds (a column off screen)
HIDDEN_BY_A_SCROLLER = """() => [...document.querySelectorAll('main *')]
    .filter(e => ['auto', 'scroll'].includes(getComputedStyle(e).overflowX) && e.scrollWidth > e.clientWidth + 1)
    .map(e => `${e.tagName.toLowerCase()}.${e.className}: ${e.scrollWidth - e.clientWidth} px hidden`)"""

#: a button or a link drawn as one whose words run past its edge ("Naturphilosophen einsetzen")
SPILLING_BUTTONS = """() => [...document.querySelectorAll('main button, main .btn')]
    .filter(e => e.getClientRects().length && e.scrollWidth > e.clientWidth + 1)
    .map(e => `${e.textContent.trim()}: ${e.scrollWidth - e.clientWidth} px past its edge`)"""

#: every word of the page's visible text that the layout breaks across two lines at a place that
#: is not a hyphen ("Gefäng|nis"): each word's characters, one Range each, and where the line
#: changes, the character before it must be a hyphen, a soft hyphen or a slash. Players' names
#: (<bdi>) may break anywhere, and so may what is set to (word-break: break-all: the join address).
BROKEN_WORDS = r"""() => {
  const found = [];
  const walker = document.createTreeWalker(document.querySelector('main'), NodeFilter.SHOW_TEXT);
  // a character's box; its last, for the one after a soft hyphen that broke the line has the drawn hyphen's box first
  const box = (node, i) => { const r = document.createRange(); r.setStart(node, i); r.setEnd(node, i + 1);
                             return [...r.getClientRects()].filter(b => b.width > 0).pop() || null; };
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const el = node.parentElement;
    if (!el.getClientRects().length || el.closest('bdi, option, select, textarea, svg')) continue;
    if (getComputedStyle(el).wordBreak === 'break-all') continue;
    for (const word of node.data.matchAll(/\S{2,}/g)) {
      let before = null;
      for (let i = word.index; i < word.index + word[0].length; i++) {
        const b = box(node, i);
        if (!b) continue;
        if (before && b.top >= before.b.bottom - 2 && !/[-\u00ad\u2010\u2011\/–—]/.test(node.data[before.i])) {
          const cut = before.i - word.index + 1;
          found.push(`${word[0].slice(0, cut)}|${word[0].slice(cut)} in ${el.tagName.toLowerCase()}.${el.className}`);
          break;
        }
        before = {b, i};
      }
    }
  }
  return found;
}"""

#: the pages whose words are held whole (issue 38 #4): every game's screens and forms, the start page and the stats
WORDS_WHOLE_ON = ("galileo", "voynich", "codex", "gutenberg", "new-", "home", "stats")

#: the start page's list of this device's tables: each link's words inside its box, and each name
#: followed at once by its comma ("Anna, Ben", never "Anna , Ben")
TABLE_LINKS = r"""() => {
  const found = [];
  for (const a of document.querySelectorAll('.game-list a[href*="/t/"]')) {
    const edge = a.getBoundingClientRect(), r = document.createRange();
    r.selectNodeContents(a);
    if ([...r.getClientRects()].some(b => b.width > 0 && (b.left < edge.left - 0.5 || b.right > edge.right + 0.5)))
      found.push(`cut: ${a.textContent.trim()}`);
    for (const name of a.querySelectorAll('bdi')) {
      const next = name.nextSibling;
      if (!next || next.nodeType !== Node.TEXT_NODE || !next.data.startsWith(',')) continue;
      const comma = document.createRange(); comma.setStart(next, 0); comma.setEnd(next, 1);
      const gap = comma.getBoundingClientRect().left - name.getBoundingClientRect().right;
      if (Math.abs(gap) > 1) found.push(`${Math.round(gap)} px between ${name.textContent} and its comma`);
    }
  }
  return found;
}"""


def pages_to_fit(server: Server) -> list[tuple[str, str, dict | None]]:
    """(name, path, the table whose join address gives the phone its secret) for the pages checked at 360 px.

    The phone joins every table before it opens the start page and the archive, so they list them:
    a finished four-player table of each game, with long names, among them."""
    found: list[tuple[str, str, dict | None]] = [("new-gutenberg", "/new/gutenberg", None),
                                                 ("new-galileo", "/new/galileo", None)]
    for key in registry():
        ex = examples(key)
        t = told(server, create(server, key, tuple(ex.PLAYERS)), ex.TRACKED_SETUP)
        found.append((f"{key}-table", f"/t/{t['table']}", t))
        empty = server.api("/api/v1/tables", create_doc(key, ex.CALCULATOR_NAMES, calculator=True))
        found.append((f"{key}-calculator-empty", f"/t/{empty['table']}", empty))
        done = create_finished(server, key)
        found.append((f"{key}-calculator", f"/t/{done['table']}", done))
        long = create_finished(server, key, LONG_NAMES)
        found.append((f"{key}-four-long-names", f"/t/{long['table']}", long))
    found += [("voynich-profile", "/profiles/new/voynich", None), ("galileo-profile", "/profiles/new/galileo", None),
              ("home", "/", None), ("plays", "/plays", None), ("stats", "/plays/stats", None)]
    return found


def told(server: Server, t: dict, events) -> dict:
    """The table `t`, told these (type, data) events through the API, each at its version."""
    version = t["version"]
    for type_, data in events:
        version = server.api(f"/api/v1/tables/{t['table']}/events",
                             {"type": type_, "data": data, "expected_version": version}, t["token"])["version"]
    return t


def create_finished(server: Server, key: str, names: tuple[str, ...] = ()) -> dict:
    """A finished calculator table of the game's examples, through the API (each event at its version);
    with `names`, as many players as names, each row after the examples' a copy of the last one."""
    ex = examples(key)
    rows = [dict(row) for row in ex.CALCULATOR_ROWS]
    rows += [dict(rows[-1]) for _ in range(len(names) - len(rows))]
    t = server.api("/api/v1/tables", create_doc(key, names or ex.CALCULATOR_NAMES, calculator=True))
    return told(server, t, [*ex.CALCULATOR_SETUP, *(("sheet", dict(row, player=seat)) for seat, row in enumerate(rows))])


@pytest.mark.parametrize("lang", ["en", "fr", "de", "pl", "es", "it"])
def test_every_language_fits_a_360_px_phone_light_and_dark(browser, lang, tmp_path):
    """No sideways scroll, no column hidden in a scroller, no word broken mid-word, and the start
    page's tables listed whole (issue 38, items 2, 3 and 4)."""
    server = Server(data=tmp_path / "data").start()
    try:
        pages = pages_to_fit(server)
        wrong = []
        for dark in (False, True):
            scheme = "dark" if dark else "light"
            context, page = phone_in(browser, lang, dark)
            for name, path, t in pages:
                if t is not None:
                    page.goto(server.url + urlparse(t["join_url"]).path)
                    page.wait_for_url("**/t/*")
                    page.locator(".seat-chooser button").first.click()  # its page as a player sees it
                    page.wait_for_selector(".seat-chooser", state="detached")
                page.goto(server.url + path)
                page.wait_for_load_state("load")
                page.evaluate("() => document.querySelectorAll('main details').forEach(d => { d.open = true; })")
                assert page.locator("html").get_attribute("lang") == lang, name
                over = page.evaluate(OVERFLOW)
                if over["wide"] > 360:
                    wrong.append(f"{name} ({scheme}): {over['wide']}px {over['culprits']}")
                wrong += [f"{name} ({scheme}): {e}" for e in page.evaluate(HIDDEN_BY_A_SCROLLER)]
                wrong += [f"{name} ({scheme}): {e}" for e in page.evaluate(SPILLING_BUTTONS)]
                if name.startswith(WORDS_WHOLE_ON):
                    wrong += [f"{name} ({scheme}): broken mid-word: {e}" for e in page.evaluate(BROKEN_WORDS)]
                if name == "home":
                    assert page.locator(".game-list a[href*='/t/']").count() == len([p for p in pages if p[2]]), "not every table listed"
                    wrong += [f"home ({scheme}): {e}" for e in page.evaluate(TABLE_LINKS)]
                if name == "stats":
                    assert page.locator(".game-stats").count() == len(registry())
                SCREENSHOTS.mkdir(parents=True, exist_ok=True)
                page.screenshot(path=str(SCREENSHOTS / f"lang-{lang}-{name}-{scheme}.png"), full_page=True)
            context.close()
        assert not wrong, "\n".join(wrong)
    finally:
        server.stop()
