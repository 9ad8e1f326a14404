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
from dataclasses import dataclass, field

import pytest

from tests.conftest import FIGURES, PHONE

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


@dataclass
class Row:
    """One player's end-of-game row: (selector inside their card, value) in the order they are set."""

    values: list[tuple[str, object]]
    #: how many numbers and choices the player reads off the board (zeros too)
    numbers: int


@dataclass
class Game:
    key: str
    names: list[str]
    rows: list[Row]
    card: str  # the player's card, "{i}" for the seat
    result: str  # what shows once every row is in
    profile: str | None = None
    table: list[tuple[str, object]] = field(default_factory=list)  # typed once for the table
    table_save: str | None = None  # the button that saves `table`


def codex() -> Game:
    rows = [
        # track, secret card, then the counts its objectives and the common ones (#91, #102) ask
        Row([("input[name='data.placement_points:int']", 21), ("[name='data.secret:int']", 99),
             ("input[name='data.visible.quill:int']", 3), ("input[name='data.visible.inkwell:int']", 2),
             ("input[name='data.visible.manuscript:int']", 1), ("input[name='data.patterns.91:int']", 1)], 6),
        Row([("input[name='data.placement_points:int']", 22), ("[name='data.secret:int']", 96),
             ("input[name='data.visible.quill:int']", 2), ("input[name='data.visible.plant:int']", 7),
             ("input[name='data.patterns.91:int']", 0)], 5),
        Row([("input[name='data.placement_points:int']", 18), ("[name='data.secret:int']", 88),
             ("input[name='data.visible.quill:int']", 0), ("input[name='data.patterns.91:int']", 1),
             ("input[name='data.patterns.88:int']", 2)], 5),
    ]
    return Game("codex", ["Ana", "Ben", "Cleo"], rows, "#cx-sheet-{i}", "#cx-winner",
                table=[("#cx-common [name='data.cards[]:int'] >> nth=0", 91), ("#cx-common [name='data.cards[]:int'] >> nth=1", 102)],
                table_save="#cx-common button[type=submit]")


def choice(i: int, side: str, n: int, kind: str) -> tuple[str, object]:
    """A Recipes page's type: its tick (a checkbox: ticked), or before issue 27 the n-th of two selects."""
    return f"#choice-{i}-{side}-{kind}, select#choice-{i}-{side}-{n}", f'"{kind}"'


def voynich() -> Game:
    sheets = [  # GK, the 4 markers, research tokens' GK, the 10 pages' multipliers, the Recipes types
        dict(gk=34, markers=(22, 15, 9, 30), research=[4, 6, 3], pages=[2, 1, 4, 0, 1, 0, 2, 4, 2, 0],
             choices={"left": ["baths", "writings"]}),
        dict(gk=18, markers=(12, 30, 18, 8), research=[5, 5], pages=[1, 0, 2, 4, 4, 1, 0, 0, 1, 2],
             choices={"left": ["botany", "astrology"], "right": ["astrology", "writings"]}),
        dict(gk=20, markers=(8, 10, 25, 14), research=[2, 6, 4, 3], pages=[0, 0, 1, 1, 2, 4, 1, 2, 0, 0], choices={}),
    ]
    rows = []
    for i, s in enumerate(sheets):
        values = [(f"#gk-{i}", s["gk"])]
        values += [(f"#{k}-{i}", v) for k, v in zip(("botany", "astrology", "baths", "writings"), s["markers"])]
        values += [(f"#research-{i}-{k}", v) for k, v in enumerate(s["research"])]
        values += [(f"#page-{i}-{k}", v) for k, v in enumerate(s["pages"])]
        values += [choice(i, side, n, kind) for side, kinds in s["choices"].items() for n, kind in enumerate(kinds)]
        chosen = sum(len(k) for k in s["choices"].values())
        rows.append(Row(values, 1 + 4 + len(s["research"]) + 10 + chosen))
    spaces = {3: 1, 8: 2, 14: 4, 21: 6, 29: 9, 38: 12}
    table = []
    for k, (pos, gk) in enumerate(spaces.items()):
        table += [(f"#space-pos-{k}", pos), (f"#space-gk-{k}", gk)]
    return Game("voynich", ["Ana", "Ben", "Cy"], rows, "#sheet-{i}", "#result", table=table,
                table_save="#track-values button[type=submit]")


def galileo() -> Game:
    sheets = [  # principle, philosopher, VP, suspicion at the Stake, penance cards held, inventions, mentor, losses, turn order
        dict(principle="copernican", status="free", vp=61, penance=[1], inventions_vp=9, mentor_vp=4, end_losses=0, turn_order=2),
        dict(principle="ptolemaic", status="prison", vp=72, penance=[1, 2], inventions_vp=3, mentor_vp=0, end_losses=0, turn_order=1),
        dict(principle="copernican", status="stake", vp=80, suspicion=4, penance=[], inventions_vp=6, mentor_vp=0,
             end_losses=2, turn_order=3),
    ]
    rows = []
    for s in sheets:
        values = [("[name='data.principle'][value='{}'], select[name='data.principle']".format(s["principle"]), s["principle"]),
                  ("[name='data.status'][value='{}'], select[name='data.status']".format(s["status"]), s["status"]),
                  ("input[name='data.vp:int']", s["vp"])]
        if "suspicion" in s:
            values.append(("input[name='data.suspicion:int']", s["suspicion"]))
        values += [(f"input[name='data.penance[]:int'][value='{lvl}']", True) for lvl in s["penance"]]
        values += [(f"input[name='data.{k}:int']", s[k]) for k in ("inventions_vp", "mentor_vp", "end_losses", "turn_order")]
        # principle, philosopher, VP, (suspicion), each card held, inventions, mentor, losses, turn order
        rows.append(Row(values, 3 + ("suspicion" in s) + len(s["penance"]) + 4))
    return Game("galileo", ["Ann", "Ben", "Cy"], rows, "#gal-row-{i}", ".gal-end p.winner", profile="Our box")


def gutenberg() -> Game:
    specialties = ("typesetting", "woodcutting", "binding", "illuminating")
    sheets = [
        dict(fame=62, guilders=7, specialties=(4, 2, 3, 1), patronage_cards=2, types=6, inks=2, character="hieronymus_vietor"),
        dict(fame=72, guilders=0, specialties=(5, 3, 2, 0), patronage_cards=0, types=7, inks=1),
        dict(fame=78, guilders=5, specialties=(3, 0, 6, 1), patronage_cards=1, types=5, inks=0, character="johannes_gutenberg"),
    ]
    rows = []
    for s in sheets:
        values = [("input[name='data.fame:int']", s["fame"]), ("input[name='data.guilders:int']", s["guilders"])]
        values += [(f"input[name='data.specialties.{k}:int']", v) for k, v in zip(specialties, s["specialties"])]
        values += [(f"input[name='data.{k}:int']", s[k]) for k in ("patronage_cards", "types", "inks")]
        if s.get("character"):
            values.append(("[name='data.character:json']", f'"{s["character"]}"'))
        rows.append(Row(values, 9 + bool(s.get("character"))))
    return Game("gutenberg", ["Anna", "Ben", "Cleo"], rows, "#sheet-{i}", ".gb-winners")


def save_galileo_profile(server) -> None:
    from tests.galileo.test_calculator_browser import save_profile

    save_profile(server)  # the group's box profile, saved before the game night: not counted


def fill_row(counter: Counter, page, game: Game, i: int) -> None:
    card = page.locator(game.card.format(i=i))
    for selector, value in game.rows[i].values:
        counter.set(card.locator(selector).first, value)
    before = version(page)
    counter.tap(card.get_by_role("button", name=re.compile(r"^Save ")).first)
    wait_for_version(page, before + 1)


def play_the_end(server, browser, shot, game: Game) -> dict:
    """Both phones through one game's end; returns the counts."""
    if game.profile:
        save_galileo_profile(server)
    a_ctx, b_ctx = browser.new_context(**PHONE), browser.new_context(**PHONE)
    a, b = a_ctx.new_page(), b_ctx.new_page()
    for p in (a, b):
        p.set_default_timeout(15_000)
    once, board, per_player = Counter(), Counter(), [Counter() for _ in game.names]
    try:
        # the first phone: the start page, the names, "Just the final score", (the box), Start, its seat
        once.open(a, f"{server.url}/new/{game.key}")
        for k, name in enumerate(game.names):
            once.set(a.locator("input[name='players[]']").nth(k), name)
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
        shot(a, f"interactions_{game.key}_end")
    finally:
        a_ctx.close()
        b_ctx.close()
    counts = {"once": once.count, "players": [c.count for c in per_player], "numbers": [r.numbers for r in game.rows],
              "board": board.count, "board_numbers": len(game.table), "dear": board.dear + [d for c in per_player for d in c.dear]}
    # a row of the table issue 27 gave: game | once per table | per player | numbers on the board
    line = (f"interactions | {game.key} | once per table {counts['once']} (the board's values: {counts['board']} for "
            f"{counts['board_numbers']} numbers + {1 if game.table else 0} Save) | per player "
            f"{' / '.join(map(str, counts['players']))} | numbers on the board {' / '.join(map(str, counts['numbers']))}"
            f" (total {sum(counts['numbers'])}) |")
    FIGURES.append(line)
    print(line)
    return counts


@pytest.mark.parametrize("make", [codex, voynich, galileo, gutenberg], ids=lambda f: f.__name__)
def test_a_three_player_end_takes_one_interaction_per_number_plus_one_per_player(server, browser, shot, make):
    game = make()
    counts = play_the_end(server, browser, shot, game)
    over = {game.names[i]: (n, counts["numbers"][i]) for i, n in enumerate(counts["players"]) if n > counts["numbers"][i] + 1}
    assert not over, f"{game.key}: interactions > numbers on the board + 1 for {over}"
    # the once-per-table forms: one interaction per number typed there, plus their one Save
    assert counts["board"] <= counts["board_numbers"] + (1 if game.table else 0), counts
    # and every fact read off the board takes one interaction at most, in a row or a table's form
    assert not counts["dear"], counts["dear"]
