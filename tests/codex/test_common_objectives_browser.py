"""Issue 27, finding 3 (and the second round's interactions): the common objectives are typed as their
cards' numbers, one interaction each, each card said in words under its field as it is typed; nothing
is sent until the button, which sets both at once."""

import pytest

from tests.conftest import start_final_score_table, take_seat

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def version(page) -> int:
    return int(page.locator("body").get_attribute("data-version"))


def test_typing_the_common_objectives_numbers_sends_nothing_until_the_button(server, phone):
    page = phone
    start_final_score_table(page, server, "codex", ["Ana", "Ben"])
    take_seat(page, "Ana")
    posts = []
    page.on("request", lambda r: posts.append(r.url) if r.method == "POST" else None)
    fields = page.locator("#cx-common input[name='data.cards[]:int']")
    assert fields.count() == 2 and page.locator("#cx-common select").count() == 0
    assert [fields.nth(i).get_attribute("inputmode") for i in range(2)] == ["numeric", "numeric"]
    said = page.locator("#cx-common .cx-card-text")
    fields.nth(0).click()
    page.keyboard.type("91")
    fields.nth(1).click()
    page.keyboard.type("88")
    page.wait_for_timeout(300)
    assert version(page) == 0 and posts == []  # both typed: still nothing sent
    # each card in words under its field, so a wrong number shows at once
    words = said.all_inner_texts()
    assert words[0].startswith("#91: ") and words[1].startswith("#88: "), words
    # the second corrected: nothing sent on the way
    page.keyboard.press("Backspace")
    page.keyboard.press("Backspace")
    page.keyboard.type("97")
    page.wait_for_timeout(300)
    assert posts == [] and version(page) == 0 and said.nth(1).inner_text().startswith("#97: ")
    page.keyboard.type("0")
    assert said.nth(1).inner_text() == "no objective card #970"
    page.keyboard.press("Backspace")
    # Tab to the button, Enter: the two typed cards are set, once
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.textContent.trim()") == "Set the common objectives"
    page.keyboard.press("Enter")
    page.wait_for_function("() => Number(document.body.dataset.version) >= 1")
    page.wait_for_timeout(300)
    assert version(page) == 1 and len(posts) == 1
    assert page.locator("#cx-common .cx-objectives b").all_inner_texts() == ["#91", "#97"]
    # the "Change them" form (folded) holds the cards typed, in numbers and words
    assert [fields.nth(i).input_value() for i in range(2)] == ["91", "97"]
    assert " ".join(said.nth(0).text_content().split()).startswith("#91 ")
