"""The score pad on a phone at 360 px: a tracked table started on the start page, two rounds typed and
tapped in, the game ended, the winner seen; and twelve players who still fit the screen."""

import pytest

from tests.conftest import fits_a_phone, scoreboard, take_seat

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def version(page) -> int:
    return int(page.locator("body").get_attribute("data-version"))


def wait_for_version(page, at_least: int) -> None:
    page.wait_for_function("v => Number(document.body.dataset.version) >= v", arg=at_least)


def start(page, server, names, title) -> None:
    """The start page as a player fills it: the game's name, the names, Start."""
    page.goto(f"{server.url}/new/pad")
    page.get_by_label("Its name").fill(title)
    for i, name in enumerate(names):
        field = page.locator("input[name='players[]']").nth(i)
        if not field.is_visible():  # the rows past the first few are folded: open them
            page.locator("summary", has_text="More players").click()
        field.fill(name)
    page.get_by_role("button", name="Start the table").click()
    page.wait_for_url("**/t/*")


def type_score(page, seat: int, value: int) -> None:
    """Type a round's score on the number pad and Save it, as a player at the table does."""
    before = version(page)
    form = page.locator(f"#pad-type-{seat}")
    form.locator("input[name='data.value:int']").fill(str(value))
    form.get_by_role("button", name="Save").click()
    wait_for_version(page, before + 1)


def test_one_phone_plays_two_rounds_to_the_winner(server, phone, shot):
    page = phone
    start(page, server, ["Anna", "Ben", "Cleo"], "Skull King")
    take_seat(page, "Anna")
    assert page.locator("h1").inner_text() == "Skull King"
    fits_a_phone(page)

    for seat, score in enumerate((30, 20, -10)):
        type_score(page, seat, score)
    # a tap on Ben's + in the round: the stepper answers alone, the total follows
    before = version(page)
    page.get_by_role("button", name="Ben: Round 1 plus 1").click()
    wait_for_version(page, before + 1)
    page.wait_for_function("() => document.querySelector('#pad-total-1 .pad-total').textContent.trim() === '21'")
    assert scoreboard(page)["Ben"] == "21"

    before = version(page)
    page.get_by_role("button", name="New round").click()
    wait_for_version(page, before + 1)
    assert page.locator(".pad-table thead th").nth(1).inner_text().strip() == "Round 2"
    for seat, score in enumerate((5, 40, 0)):
        type_score(page, seat, score)
    fits_a_phone(page)
    # the table is wider than the phone: its rounds scroll in their box, the page does not
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    shot(page, "pad-two-rounds")

    before = version(page)
    page.get_by_role("button", name="End the game").click()
    wait_for_version(page, before + 1)
    winner = page.locator("#pad-winner")
    winner.wait_for()
    assert winner.inner_text() == "Ben wins with 61 points"
    assert "Ben wins with 61 points" in page.locator("#log-play").inner_text()
    shot(page, "pad-end")


def test_twelve_players_fit_the_phone(server, phone, shot):
    page = phone
    names = ["Anna", "Ben", "Cleo", "Dora", "Emil", "Fay", "Gus", "Hana", "Ivo", "Jana", "Karl", "Lea Wróblewska-Kowalczyk"]
    start(page, server, names, "Wizard")
    take_seat(page, "Fay")
    for _ in range(3):
        before = version(page)
        page.get_by_role("button", name="New round").click()
        wait_for_version(page, before + 1)
    fits_a_phone(page)
    box = page.locator(".pad-scroll").first
    assert page.evaluate("el => el.scrollWidth > el.clientWidth", box.element_handle())  # the rounds scroll, inside
    shot(page, "pad-twelve")
