"""Calculator mode on phones: a 4-player final score typed in, each phone its own row (issue 11)."""

import pytest

from companion.games import get
from tests.conftest import PHONE, Taps, fits_a_phone, scoreboard, start_final_score_table, take_seat

from .test_calculator import NAMES, ROWS, SPECIALTIES, expected

pytestmark = [pytest.mark.browser, pytest.mark.slow]

GAME = get("gutenberg")
PARTS = ("fame_track", "specialties", "patronage", "guilders")


def version(page) -> int:
    return int(page.locator("body").get_attribute("data-version"))


def wait_for_version(page, at_least: int) -> None:
    page.wait_for_function("v => Number(document.body.dataset.version) >= v", arg=at_least)


def fill_row(taps: Taps, page, i: int, values: dict) -> None:
    """Type one player's row as they would: each number once, the character if they kept one, Save."""
    card = page.locator(f"#sheet-{i}")
    taps.fill(card.locator("input[name='data.fame:int']"), values["fame"])
    taps.fill(card.locator("input[name='data.guilders:int']"), values["guilders"])
    for s in SPECIALTIES:
        taps.fill(card.locator(f"input[name='data.specialties.{s}:int']"), values["specialties"][s])
    for key in ("patronage_cards", "types", "inks"):
        taps.fill(card.locator(f"input[name='data.{key}:int']"), values[key])
    if values.get("character"):
        taps.tap(card.locator(f"input[name='data.character:json'][value='\"{values['character']}\"']"))  # one tap
    before = version(page)
    taps.tap(card.get_by_role("button", name=f"Save {NAMES[i]}'s row"))
    wait_for_version(page, before + 1)


def test_four_player_final_score_typed_in_on_phones(server, browser, phone, dark_phone, shot):
    page = phone
    start_final_score_table(page, server, "gutenberg", NAMES)
    # the phone that started it sees the QR code first, open, for the others to join
    assert page.evaluate("document.getElementById('invite').open") is True
    assert page.evaluate("document.getElementById('invite').compareDocumentPosition(document.getElementById('table-live'))") & 4
    take_seat(page, "Anna")
    # opened straight at final scoring, this phone's own card first
    assert page.locator(".gb-sheets > .seat-card").first.get_attribute("data-you") == "0"
    assert page.locator("#gb-calc-title").inner_text() == "Final scoring"
    join = page.locator(".join-url a").get_attribute("href")

    # a second phone joins and takes Dan's seat
    other_ctx = browser.new_context(**PHONE)
    other = other_ctx.new_page()
    other.set_default_timeout(10_000)
    try:
        other.goto(join)
        take_seat(other, "Dan")
        assert other.locator(".gb-sheets > .seat-card").first.get_attribute("data-you") == "3"

        taps = Taps(page)  # counts the sheet itself, on both phones
        fill_row(taps, other, 3, ROWS[3])
        for i in range(3):
            if i == 1:
                shot(page, "gutenberg_calculator_typing")
            fill_row(taps, page, i, ROWS[i])
        # the other phone sees the result too, by polling
        other.locator(".gb-winners").wait_for()
    finally:
        other_ctx.close()

    result = expected(ROWS)
    by_name = {p["name"]: p for p in result["players"]}
    winner = result["winners"][0]
    assert page.locator(".gb-winners").inner_text() == f"{winner} wins on {by_name[winner]['tie_break']}"
    assert winner == "Cleo" and by_name[winner]["tie_break"] == "fewer types"
    articles = page.locator(".gb-result")
    assert articles.count() == 4
    for k in range(4):
        article = articles.nth(k)
        name = article.get_attribute("data-name")
        assert name in article.locator("h3").inner_text()
        expect = by_name[name]
        assert int(article.locator(".gb-total").inner_text()) == expect["total"]
        points = [int(x) for x in article.locator("td").all_inner_texts()]
        assert points == [expect["breakdown"][p] for p in PARTS] + [expect["total"]]
    board = scoreboard(page)
    assert board == {n: str(by_name[n]["total"]) for n in NAMES}

    numbers = sum(9 + (1 if r.get("character") else 0) for r in ROWS)  # what the players' areas show
    taps.report("gutenberg calculator, 4 players", numbers=numbers, players=4)
    assert taps.count <= numbers + 4

    fits_a_phone(page)
    shot(page, "gutenberg_calculator_result")

    # the same table in the dark theme, on a third phone that only watches
    dark_phone.goto(join)
    take_seat(dark_phone, "Just watch")
    # a phone that opens the finished table sees the result first (issue 42), the game's own end screen
    # one tap away, saying the same
    verdict = dark_phone.locator("#log-play .verdict")
    verdict.wait_for()
    assert verdict.inner_text() == page.locator("#log-play .verdict").inner_text()
    dark_phone.get_by_text("Correct the scores").click()
    dark_phone.locator(".gb-winners").wait_for()
    fits_a_phone(dark_phone)
    shot(dark_phone, "gutenberg_calculator_dark")


def test_a_refused_row_keeps_what_was_typed_and_says_it_beside_the_field(server, phone, shot):
    page = phone
    start_final_score_table(page, server, "gutenberg", ["Ada", "Ben"])
    take_seat(page, "Ben")
    card = page.locator("#sheet-1")
    values = ROWS[1]
    for key in ("fame", "guilders", "patronage_cards", "types", "inks"):
        card.locator(f"input[name='data.{key}:int']").fill(str(values[key]))
    for s in SPECIALTIES:
        card.locator(f"input[name='data.specialties.{s}:int']").fill("8" if s == "binding" else str(values["specialties"][s]))
    card.get_by_role("button", name="Save Ben's row").click()
    page.locator(".table-head .error").wait_for()
    assert page.locator(".table-head .error").inner_text().startswith("Ben's Binding level: must be a whole number from 0 to 6")
    card = page.locator("#sheet-1")
    assert card.locator(".error").first.inner_text() == "Ben's Binding level: must be a whole number from 0 to 6"
    assert card.locator("input[name='data.fame:int']").input_value() == str(values["fame"])
    assert card.locator("input[name='data.specialties.binding:int']").input_value() == "8"
    assert version(page) == 0
    fits_a_phone(page)
    shot(page, "gutenberg_calculator_refused")


def test_just_the_final_score_shows_no_empty_gutenberg_options(server, phone, shot):
    """Every Gutenberg option is for a tracked table: with "Just the final score" chosen the whole
    "Gutenberg" box goes, heading too, rather than an empty heading (issue 27, the second round)."""
    page = phone
    page.goto(f"{server.url}/new/gutenberg")
    box = page.locator("fieldset", has=page.locator("legend", has_text="Gutenberg"))
    page.get_by_text("Track the game").click()
    assert box.is_visible() and page.locator("select[name='options.automa:json']").is_visible()
    page.get_by_text("Just the final score").click()
    assert not box.is_visible()
    shot(page, "gutenberg_new_final_score")
    page.get_by_text("Track the game").click()
    assert box.is_visible()
