"""A number field tapped on a phone: the first digit typed replaces what it shows (static/js/numbers.js).

Found playing issue 41: Codex's "Points on the score track" shows 0; a tap put the caret before the 0,
and 21 typed there was 210, saved without a word.
"""

from __future__ import annotations

import pytest

from tests.foundation.test_lost_taps_browser import open_table
from tests.foundation.test_page_stays_browser import NAMES, calculator_example, create

pytestmark = pytest.mark.browser


def test_a_tapped_number_field_takes_the_number_typed_not_a_digit_more(server, phone):
    setup, _rows = calculator_example("codex")  # the common objectives: then each player's row
    t = create(server, "codex", calculator=True, setup=setup)
    open_table(phone, server, t, NAMES[0])
    field = phone.locator("#cx-points-0")
    field.scroll_into_view_if_needed()
    assert field.input_value() == "0"
    box = field.bounding_box()
    # a tap at the field's left edge, where the caret would sit before the 0
    phone.touchscreen.tap(box["x"] + 4, box["y"] + box["height"] / 2)
    phone.keyboard.type("21")
    assert field.input_value() == "21"
    # and a tap on a field holding a number already: the number typed replaces it
    phone.locator("body").click(position={"x": 5, "y": 5})
    phone.touchscreen.tap(box["x"] + box["width"] - 4, box["y"] + box["height"] / 2)
    phone.keyboard.type("7")
    assert field.input_value() == "7"


def test_a_digit_typed_before_the_finger_lifts_is_kept(server, phone):
    """The field is selected again as the press lifts: never once a digit was typed (CI at 832d9d8
    saw "21" become "1" when the late select came after the first digit)."""
    setup, _rows = calculator_example("codex")
    t = create(server, "codex", calculator=True, setup=setup)
    open_table(phone, server, t, NAMES[0])
    field = phone.locator("#cx-points-0")
    field.scroll_into_view_if_needed()
    box = field.bounding_box()
    phone.mouse.move(box["x"] + 4, box["y"] + box["height"] / 2)
    phone.mouse.down()
    phone.keyboard.type("2")
    phone.mouse.up()
    phone.keyboard.type("1")
    assert field.input_value() == "21"
