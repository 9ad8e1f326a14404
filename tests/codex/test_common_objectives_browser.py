"""Issue 27, finding 3: a common objective's select never sends itself; the keyboard sets both, then the button."""

import pytest

from tests.conftest import start_final_score_table, take_seat

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def version(page) -> int:
    return int(page.locator("#table-live").get_attribute("data-version"))


def test_arrow_keys_and_typing_on_a_common_objective_send_nothing_until_the_button(server, phone):
    page = phone
    start_final_score_table(page, server, "codex", ["Ana", "Ben"])
    take_seat(page, "Ana")
    posts = []
    page.on("request", lambda r: posts.append(r.url) if r.method == "POST" else None)
    first, second = page.locator("#cx-common select").nth(0), page.locator("#cx-common select").nth(1)
    first.select_option("91")
    second.select_option("88")
    page.wait_for_timeout(300)
    assert version(page) == 0 and posts == []  # both chosen: still nothing sent
    # the keyboard on the second: ArrowDown twice (#88 -> #90), nothing sent on the way
    second.focus()
    page.keyboard.press("ArrowDown")
    page.wait_for_timeout(300)
    assert posts == [] and version(page) == 0
    page.keyboard.press("ArrowDown")
    page.wait_for_timeout(300)
    assert second.input_value() == "90" and posts == [] and version(page) == 0
    # typing a card's number picks it (the select's type-ahead), still nothing sent
    page.keyboard.type("#97")
    page.wait_for_timeout(800)
    assert second.input_value() == "97" and posts == [] and version(page) == 0
    # Tab to the button, Enter: the two chosen cards are set, once
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.textContent.trim()") == "Set the common objectives"
    page.keyboard.press("Enter")
    page.wait_for_function("() => Number(document.querySelector('#table-live').dataset.version) >= 1")
    page.wait_for_timeout(300)
    assert version(page) == 1 and len(posts) == 1
    assert page.locator("#cx-common .cx-objectives b").all_inner_texts() == ["#91", "#97"]
