"""The phone keyboard's "next" key in a Codex calculator row: Enter in a field marked
enterkeyhint="next" moves to the row's next field and sends nothing; Enter in its last field sends
the row as before (static/js/nextfield.js)."""

import pytest

from tests.conftest import start_final_score_table, take_seat

from .test_calculator import COMMON, NAMES

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def version(page) -> int:
    return int(page.locator("body").get_attribute("data-version"))


def test_enter_moves_to_the_next_field_and_the_last_one_sends_the_row(server, phone):
    page = phone
    start_final_score_table(page, server, "codex", NAMES)
    take_seat(page, "Anna")
    fields = page.locator("#cx-common input[name='data.cards[]:int']")
    fields.nth(0).fill(str(COMMON[0]))
    fields.nth(1).fill(str(COMMON[1]))
    page.get_by_role("button", name="Set the common objectives").click()
    page.wait_for_function("() => Number(document.body.dataset.version) >= 1")
    at = version(page)
    posts = []  # a form sent by htmx leaves at once, in the submit's own handler
    page.on("request", lambda r: posts.append(r.url) if r.method == "POST" else None)
    card = page.locator("#cx-sheet-0")
    points = card.locator("input[name='data.placement_points:int']")
    assert points.get_attribute("enterkeyhint") == "next"
    points.fill("9")
    points.press("Enter")  # Codex's playtest: this posted the row
    secret = card.locator("input[name='data.secret:int']")
    assert page.evaluate("document.activeElement.name") == "data.secret:int"
    secret.press_sequentially("99")  # Anna's secret objective (tests/codex/test_calculator.py)
    secret.press("Enter")  # the secret objective: this saved a row with zeros
    assert page.evaluate("document.activeElement.name") != "data.secret:int"
    assert posts == [] and version(page) == at and points.input_value() == "9"
    # the row's fields, one Enter after another, to its last: that one sends the row
    visible = card.locator("input:visible:not([type=hidden])")
    names = visible.evaluate_all("els => els.map(e => e.name)")
    at_field = names.index(page.evaluate("document.activeElement.name"))
    assert at_field == names.index("data.secret:int") + 1  # the field after the secret objective
    for _ in range(len(names) - at_field - 1):
        page.keyboard.press("Enter")
        assert posts == [] and version(page) == at
    assert page.evaluate("document.activeElement.name") == names[-1]
    page.keyboard.press("Enter")
    page.wait_for_function("v => Number(document.body.dataset.version) > v", arg=at)
    assert len(posts) == 1
