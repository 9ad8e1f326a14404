"""A colour per seat on a 360 px phone, light and dark: chosen on the start form by tapping its name,
shown beside each name on the table page, and axe finds nothing on either page (issue 41, item 5)."""

from __future__ import annotations

import pytest

from tests.conftest import PHONE, fits_a_phone, take_seat
from tests.foundation.test_axe_browser import violations

pytestmark = [pytest.mark.browser, pytest.mark.slow]


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_colours_are_chosen_and_shown_on_a_phone(server, browser, scheme):
    context = browser.new_context(**PHONE, color_scheme=scheme)
    page = context.new_page()
    page.set_default_timeout(10_000)
    try:
        page.goto(f"{server.url}/new/gutenberg")
        for i, name in enumerate(["Anna", "Tom"]):
            page.locator("input[name='players[]']").nth(i).fill(name)
        # the colour's name is the touch target: the whole chip, not the small radio inside it
        # each row's colours fold under its summary until asked for: one tap opens them
        for i in range(2):
            page.locator("details.colour-details").nth(i).locator("summary").click()
        page.locator("fieldset.colour-pick").nth(0).get_by_text("white", exact=True).click()
        page.locator("fieldset.colour-pick").nth(1).get_by_text("black", exact=True).click()
        fits_a_phone(page, "form")
        chip = page.locator("fieldset.colour-pick").nth(0).locator("label.colour-choice").nth(1).bounding_box()
        assert chip["height"] >= 44
        assert violations(page) == []
        page.get_by_role("button", name="Start the table").click()
        page.wait_for_url("**/t/*")
        take_seat(page, "Anna")
        board = page.locator("#sb-0 .swatch")
        assert board.get_attribute("data-colour") == "white" and page.locator("#sb-1 .swatch").get_attribute("data-colour") == "black"
        # an outlined disc, in the page's own theme's shade; the name stays beside it
        shown = board.evaluate("e => { const s = getComputedStyle(e); return [s.backgroundColor, s.borderTopWidth, e.getBoundingClientRect().width] }")
        assert shown[0] == ("rgb(255, 255, 255)" if scheme == "light" else "rgb(245, 245, 245)")
        assert shown[1] == "2px" and shown[2] >= 12
        assert page.locator("#sb-0 .sb-name").inner_text() == "Anna"
        fits_a_phone(page)
        assert violations(page) == []
    finally:
        context.close()
