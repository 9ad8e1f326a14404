"""What a player typed survives a refusal and another phone's change, each value in its own field.

static/js/typed.js keeps typed values across a swap of the live region. Fields that share a name (a row of
research[] tokens, Penance I/II/III checkboxes) once all came back with the last one's value,
and a hidden field took a checkbox's, so a second Save stored wrong values (issue 11 playtest).
"""

from urllib.parse import urlparse

import pytest

from tests.galileo.test_calculator import BOARD


def checked(card) -> list[bool]:
    return [card.locator(f'input[type=checkbox][name="data.penance[]:int"][value="{v}"]').is_checked() for v in (1, 2, 3)]


@pytest.mark.browser
@pytest.mark.slow
def test_typed_values_come_back_each_in_its_own_field(server, phone):
    t = server.api("/api/v1/tables", {"game": "galileo", "players": ["Ann", "Ben"], "calculator": True})
    events = f"/api/v1/tables/{t['table']}/events"
    server.api(events, {"type": "board", "data": BOARD, "expected_version": 0}, t["token"])
    phone.goto(server.url + urlparse(t["join_url"]).path)
    phone.locator(".seat-chooser").get_by_role("button", name="Ann").click()
    ann = phone.locator("#gal-row-0")
    ann.locator('input[type=radio][name="data.status"][value="stake"]').check()
    ann.locator('input[name="data.vp:int"]').fill("40")
    ann.locator('input[type=checkbox][value="2"]').check()
    ann.get_by_role("button", name="Save Ann").click()
    # refused: at the Stake the suspicion is needed; everything typed is back where it was typed
    phone.locator('#gal-row-0 .error[data-field="data.suspicion"]').wait_for()
    assert checked(ann) == [False, True, False]
    assert ann.locator('input[name="data.vp:int"]').input_value() == "40"
    assert ann.locator('input[type=radio][name="data.status"][value="stake"]').is_checked()
    assert ann.locator('input[type=hidden][name="data.penance[]:int"]').input_value() == ""

    # the refusal put her on the field it names; a pushed region waits while she is in a field,
    # so she leaves it, as a player looks up from the row
    assert phone.evaluate("document.activeElement.name") == "data.suspicion:int"
    phone.evaluate("document.activeElement.blur()")
    # another phone saves Ben's row: this phone's push redraws the region, Ann's typing stays
    version = int(phone.locator("body").get_attribute("data-version"))
    server.api(events, {"type": "sheet", "expected_version": version, "data": {
        "player": 1, "principle": "ptolemaic", "status": "free", "vp": 50}}, t["token"])
    phone.wait_for_selector(f'body[data-version="{version + 1}"]')
    assert checked(ann) == [False, True, False]
    assert ann.locator('input[name="data.vp:int"]').input_value() == "40"

    ann.locator('input[name="data.suspicion:int"]').fill("5")
    ann.get_by_role("button", name="Save Ann").click()
    phone.wait_for_selector('#gal-row-0[data-saved="yes"]')
    row = server.api(f"/api/v1/tables/{t['table']}", token=t["token"])["state"]["players"][0]["sheet"]
    assert row["penance"] == [2] and row["vp"] == 40 and row["suspicion"] == 5
