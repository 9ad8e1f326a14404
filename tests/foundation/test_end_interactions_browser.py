"""Issue 27, finding 12: the interactions a 3-player end of game takes, in every game, counted on two phones.

The count, precisely (the way the issue counted it):
- a tap or click on a button, a link, a checkbox or a radio button is 1;
- typing a number into a field is 1, whatever its length: the tap that focuses the field is part of it;
- choosing in a <select> is 2 (open it, pick);
- a field, select, checkbox or radio button already showing the right value (a prefilled 0, a default
  that is the common case) is 0: the player leaves it alone;
- opening the join link (scanning the QR code) is 1.

Two 360 px phones, as the issue did: the first starts the table on the start page and types its
players' rows (players 1 and 2); the second opens the table's join URL, takes the third seat and types
the third row. The counts are kept apart: once per table (the start page, each phone's seat, the
values printed on the board that a table types once), then per player (one row each, Save included),
beside the numbers that player reads off the board (every number and choice the row holds, zeros too).

The goal (issue 27): per player, at most one interaction per number on the board plus one (the Save);
for the values printed on the board that a table types once (Voynich's score track, Codex's common
objectives), at most one per number typed there plus one per form (its Save).
The table of counts is printed at the end of the run (tests/conftest.py FIGURES).
"""

from __future__ import annotations

import re
import urllib.parse

import pytest

from companion import games
from tests.conftest import FIGURES, PHONE
from tests.examples import EndOnPhones, examples, start_form

pytestmark = [pytest.mark.browser, pytest.mark.slow]


class Counter:
    """Does what a player does on a phone, and counts it as the module's docstring says."""

    def __init__(self):
        self.count = 0
        #: the values that took more than one interaction (a select: a board fact should take one)
        self.dear: list[str] = []

    def tap(self, locator) -> None:
        locator.click()
        self.count += 1

    def open(self, page, url: str) -> None:
        page.goto(url)
        self.count += 1

    def set(self, locator, value) -> None:
        """Give one control the value the board shows: typed, chosen, ticked or tapped, or left alone."""
        locator.wait_for(state="attached")
        tag, kind = locator.evaluate("e => [e.tagName.toLowerCase(), (e.type || '').toLowerCase()]")
        if tag == "select":
            if locator.input_value() != str(value):
                locator.select_option(str(value))
                self.count += 2
                self.dear.append(f"{locator.get_attribute('name')}={value} (a select: 2)")
        elif kind in ("checkbox", "radio"):
            if locator.is_checked() != bool(value):
                locator.click()
                self.count += 1
        elif locator.input_value() != str(value):
            locator.click()  # the tap that focuses it, then the number typed on the pad
            locator.fill("")
            locator.press_sequentially(str(value))
            self.count += 1


def version(page) -> int:
    return int(page.locator("body").get_attribute("data-version") or 0)


def wait_for_version(page, at_least: int) -> None:
    page.wait_for_function("v => Number(document.body.dataset.version) >= v", arg=at_least)


def fill_row(counter: Counter, page, game: EndOnPhones, i: int) -> None:
    card = page.locator(game.card.format(i=i))
    for selector, value in game.rows[i].values:
        counter.set(card.locator(selector).first, value)
    before = version(page)
    counter.tap(card.get_by_role("button", name=re.compile(r"^Save ")).first)
    wait_for_version(page, before + 1)


def play_the_end(server, browser, shot, key: str, game: EndOnPhones) -> dict:
    """Both phones through one game's end; returns the counts."""
    if game.save_profile:
        game.save_profile(server)
    a_ctx, b_ctx = browser.new_context(**PHONE), browser.new_context(**PHONE)
    a, b = a_ctx.new_page(), b_ctx.new_page()
    for p in (a, b):
        p.set_default_timeout(15_000)
    once, board, per_player = Counter(), Counter(), [Counter() for _ in game.names]
    try:
        # the first phone: the start page, the names, "Just the final score", (the box), Start, its seat
        once.open(a, f"{server.url}/new/{key}")
        for k, name in enumerate(game.names):
            once.set(a.locator("input[name='players[]']").nth(k), name)
        for name, value in start_form(key):  # what the game's start form asks the players to type (the pad: its title)
            once.set(a.locator(f"[name='{name}']"), value)
        once.tap(a.get_by_text("Just the final score"))
        if game.profile:
            once.set(a.get_by_label("Box profile"), a.locator("select[name='profile:int'] option", has_text=game.profile).get_attribute("value"))
        once.tap(a.get_by_role("button", name="Start the table"))
        a.wait_for_url("**/t/*")
        once.tap(a.locator(".seat-chooser").get_by_role("button", name=game.names[0]))
        a.wait_for_selector(".seat-chooser", state="detached")
        # what is printed on the board, typed once for the table: counted on its own too
        if game.table:
            before = version(a)
            for selector, value in game.table:
                board.set(a.locator(selector), value)
            a.wait_for_timeout(300)
            if version(a) == before:
                board.tap(a.locator(game.table_save).first)
            wait_for_version(a, before + 1)
            once.count += board.count
        join = server.url + urllib.parse.urlparse(a.locator(".join-url a").get_attribute("href")).path  # on loopback

        fill_row(per_player[0], a, game, 0)
        # the second phone joins by the table's link and types the third row
        once.open(b, join)
        once.tap(b.locator(".seat-chooser").get_by_role("button", name=game.names[2]))
        b.wait_for_selector(".seat-chooser", state="detached")
        fill_row(per_player[2], b, game, 2)
        fill_row(per_player[1], a, game, 1)  # the last row completes the game
        a.locator(game.result).wait_for()
        b.locator(game.result).wait_for()
        shot(a, f"interactions_{key}_end")
    finally:
        a_ctx.close()
        b_ctx.close()
    counts = {"once": once.count, "players": [c.count for c in per_player], "numbers": [r.numbers for r in game.rows],
              "board": board.count, "board_numbers": len(game.table), "dear": board.dear + [d for c in per_player for d in c.dear]}
    # a row of the table issue 27 gave: game | once per table | per player | numbers on the board
    line = (f"interactions | {key} | once per table {counts['once']} (the board's values: {counts['board']} for "
            f"{counts['board_numbers']} numbers + {1 if game.table else 0} Save) | per player "
            f"{' / '.join(map(str, counts['players']))} | numbers on the board {' / '.join(map(str, counts['numbers']))}"
            f" (total {sum(counts['numbers'])}) |")
    FIGURES.append(line)
    print(line)
    return counts


@pytest.mark.parametrize("key", list(games.registry()))
def test_a_three_player_end_takes_one_interaction_per_number_plus_one_per_player(server, browser, shot, key):
    game = examples(key).END_ON_PHONES
    counts = play_the_end(server, browser, shot, key, game)
    over = {game.names[i]: (n, counts["numbers"][i]) for i, n in enumerate(counts["players"]) if n > counts["numbers"][i] + 1}
    assert not over, f"{key}: interactions > numbers on the board + 1 for {over}"
    # the once-per-table forms: one interaction per number typed there, plus their one Save
    assert counts["board"] <= counts["board_numbers"] + (1 if game.table else 0), counts
    # and every fact read off the board takes one interaction at most, in a row or a table's form
    assert not counts["dear"], counts["dear"]
