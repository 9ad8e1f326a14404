"""Issue 27 on a 360 px phone: the end screens fit with a 40-character name (6), /plays/stats fits and
shows whole names (7), the start form shows only what a calculator table uses (9), and every stepper
button says whose counter it is (10). Light and dark screenshots in tests/screenshots/."""

from __future__ import annotations

import urllib.parse

import pytest

from companion import games
from tests.examples import create_doc, examples
from tests.conftest import open_key_link

pytestmark = [pytest.mark.browser, pytest.mark.slow]

LONG = "Maximiliana Wilhelmina von Hohenzollern!"  # 40 characters, as many as a name may have
assert len(LONG) == 40


def local(server, url: str) -> str:
    """The same address on loopback: the tests never leave it."""
    return server.url + urllib.parse.urlparse(url).path


def told(server, game: str, names: list[str], events: list[tuple[str, dict]], calculator: bool) -> dict:
    """A table started and told these events through the API."""
    t = server.api("/api/v1/tables", create_doc(game, names, calculator=calculator))
    version = t["version"]
    for type_, data in events:
        version = server.api(f"/api/v1/tables/{t['table']}/events",
                       {"type": type_, "data": data, "expected_version": version}, t["token"])["version"]
    return t


def finished(server, game: str, names: list[str], events: list[tuple[str, dict]]) -> str:
    """A calculator table finished through the API; return its join URL."""
    return local(server, told(server, game, names, events, calculator=True)["join_url"])


def ends(server):
    """Each game's calculator table, finished (its examples' rows), a 40-character name first."""
    for key in games.registry():
        game = examples(key)
        yield key, game.FINAL_SCORES, finished(server, key, [LONG, *game.CALCULATOR_NAMES[1:]],
                                               game.CALCULATOR_SETUP + [("sheet", r) for r in game.CALCULATOR_ROWS])


def overflow(page) -> int:
    return page.evaluate("document.scrollingElement.scrollWidth")


def test_every_games_final_scores_fit_a_phone_with_a_40_character_name(server, phone, dark_phone, shot):
    wide = {}
    for key, table, join in ends(server):
        for page, theme in ((phone, "light"), (dark_phone, "dark")):
            page.goto(join)
            page.locator(".seat-chooser").get_by_role("button", name="Just watch").click()
            # issue 42: a finished table opens on its result; the game's own screens are one tap away
            page.get_by_text("Correct the scores").click()
            page.locator(table).first.wait_for()
            if overflow(page) > 360:
                wide[f"{key} {theme}"] = overflow(page)
            # the whole name is there to read (a title or the text itself), never only its start
            whole = page.evaluate("""name => [...document.querySelectorAll('#table-live td, #table-live th, #table-live h3, #table-live bdi')]
                .some(e => e.textContent.includes(name) || (e.title || '').includes(name))""", LONG)
            assert whole, key
            shot(page, f"end_40_characters_{key}_{theme}")
    assert wide == {}, wide


def test_stats_fit_a_phone_and_show_a_long_name_whole(server, phone, dark_phone, shot):
    for _ in ends(server):
        pass  # a finished table of every game, a 40-character name in each
    for page, theme in ((phone, "light"), (dark_phone, "dark")):
        open_key_link(page, server.key_link())  # the host's own link: the archive is every play
        page.goto(server.url + "/plays/stats")
        page.locator(".game-stats").first.wait_for()
        shot(page, f"stats_40_characters_{theme}")
        assert overflow(page) <= 360, theme
        # no table hides a column behind a sideways scroll, nor runs past its card: every cell inside it
        hidden = page.evaluate("""() => [...document.querySelectorAll('.game-stats')].filter(card => {
                const edge = card.getBoundingClientRect();
                return [...card.querySelectorAll('th, td')].some(c => c.getBoundingClientRect().right > edge.right + 0.5)
                    || [...card.querySelectorAll('*')].some(e => e.scrollWidth > e.clientWidth + 1 && getComputedStyle(e).overflowX !== 'visible');
            }).map(card => card.dataset.game)""")
        assert hidden == [], hidden
        # the whole name in each bar chart, inside the chart's box
        cut = page.evaluate("""name => [...document.querySelectorAll('.chart-bars g')].filter(g => g.dataset.name === name)
            .filter(g => { const t = g.querySelector('text'), b = t.getBBox(), w = g.ownerSVGElement.viewBox.baseVal.width;
                           return !t.textContent.includes(name) || b.x < 0 || b.x + b.width > w + 0.5; }).length""", LONG)
        assert cut == 0


def test_the_start_form_asks_a_calculator_table_only_what_it_uses(server, phone):
    for game in games.registry():
        hidden = examples(game).CALCULATOR_HIDES
        phone.goto(f"{server.url}/new/{game}")
        for name in hidden:
            assert phone.locator(f"[name='{name}']").first.is_visible(), (game, name)  # a tracked table asks them
        phone.get_by_text("Just the final score").click()
        for name in hidden:
            assert not phone.locator(f"[name='{name}']").first.is_visible(), (game, name)
    phone.goto(f"{server.url}/new/voynich")
    phone.get_by_text("Just the final score").click()
    assert phone.locator("[name='options.solo_tie']").is_visible()  # a solo calculator row is scored with it


def test_every_stepper_button_says_whose_counter_it_is(server, phone):
    for game in games.registry():  # a tracked table, told what it needs before its panel shows every stepper
        example = examples(game)
        t = told(server, game, ["Ana", "Tom"], example.TRACKED_SETUP, calculator=False)
        phone.goto(local(server, t["join_url"]))
        phone.locator(".seat-chooser").get_by_role("button", name="Ana").click()
        phone.wait_for_selector(".seat-chooser", state="detached")
        if example.STEPPERS_SCREEN:
            phone.goto(f"{server.url}/t/{t['table']}?screen={example.STEPPERS_SCREEN}")
        names = phone.evaluate("""() => [...document.querySelectorAll('form.stepper button')].map(b => b.getAttribute('aria-label'))""")
        if not names:  # a game may have no stepper (one that tracks nothing): then none answers a tap alone
            assert not example.STEPPERS_ALONE, game
            continue
        assert len(names) == len(set(names)), (game, names)  # no two alike
        assert all(n.startswith(("Ana: ", "Tom: ")) for n in names), (game, names)
        # read as a screen reader does: the accessible name, also after the stepper is drawn again by a tap
        if not phone.locator("form.stepper button:visible").count():  # in a box the player opens first
            phone.locator("details:not(#table-game):has(form.stepper) > summary").first.click()  # (#table-game: the whole game, open)
        plus = phone.locator("form.stepper button:visible", has_text="+").first
        label = plus.get_attribute("aria-label")
        plus.click()
        phone.wait_for_timeout(500)
        assert phone.get_by_role("button", name=label, exact=True).count() == 1, (game, label)


def test_voynich_row_fields_stay_in_line_and_a_bad_number_gets_our_message(server, phone, dark_phone, shot):
    t = server.api("/api/v1/tables", {"game": "voynich", "players": ["Ana", "Ben"], "calculator": True})
    for page, theme in ((phone, "light"), (dark_phone, "dark")):
        page.goto(local(server, t["join_url"]))
        page.locator(".seat-chooser").get_by_role("button", name="Ana").click()
        page.wait_for_selector(".seat-chooser", state="detached")
        # the fields of one line of numbers share their top, the GK label on one line
        rows = page.evaluate("""() => { const tops = {};
            document.querySelectorAll('#sheet-0 .voy-nums:not(.voy-research) .field').forEach(l => {
                const box = l.getBoundingClientRect(), input = l.querySelector('input').getBoundingClientRect();
                (tops[Math.round(box.top)] = tops[Math.round(box.top)] || []).push(Math.round(input.top)); });
            return Object.values(tops); }""")
        assert rows and all(len(set(r)) == 1 for r in rows), (theme, rows)
        label = page.locator("label[for='gk-0'] > span").first
        assert label.evaluate("e => e.getClientRects().length") == 1 and label.bounding_box()["height"] < 30, theme
        assert overflow(page) <= 360
        shot(page, f"voynich_row_{theme}")
    # -3, 2.5 or letters: our message beside the field, never the browser's
    page = phone
    for value in ("-3", "2.5", "abc"):
        field = page.locator("#gk-0")
        field.fill(value)
        page.locator("#sheet-0").get_by_role("button", name="Save Ana's row").click()
        page.locator("#sheet-0 .error").first.wait_for()
        assert field.evaluate("e => e.validationMessage") == ""
        said = page.locator("#sheet-0 .error").first.inner_text()
        assert said.startswith("Ana's GK: must be a whole number"), said
