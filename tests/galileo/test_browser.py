"""Galileo's Truth on a phone: a player crosses into Prison and out again."""

from urllib.parse import urlparse

import pytest

from .test_table import PROFILE


@pytest.mark.browser
@pytest.mark.slow
def test_player_crosses_into_prison_and_out_again_on_a_phone(server, phone, shot):
    t = server.api("/api/v1/tables", {"game": "galileo", "players": ["Meg", "Luna", "Dan"]})
    server.api(f"/api/v1/tables/{t['table']}/events",
         {"type": "board", "data": {"suspicion_track": PROFILE["suspicion_track"]}, "expected_version": 0}, t["token"])
    phone.goto(server.url + urlparse(t["join_url"]).path)
    phone.locator(".seat-chooser button", has_text="Luna").click()

    luna = phone.locator("#gal-player-1")
    assert luna.get_attribute("data-status") == "free"
    luna.get_by_label("Suspicion ±N").fill("11")
    luna.get_by_role("button", name="Move").click()
    phone.wait_for_selector('#gal-player-1[data-status="prison"]')
    notices = luna.locator(".gal-notices").inner_text()
    assert "Luna: arrested: your Natural Philosopher goes to Prison" in notices
    assert "Luna: take Penance card III" in notices
    assert luna.locator("[data-testid=status]").inner_text() == "In Prison"
    assert luna.locator(".gal-space.here").inner_text() == "12"
    shot(phone, "galileo_prison_phone")

    # the stepper's minus: 12 -> 11 moves back past the Prison icon (after space 11)
    minus = luna.get_by_role("button", name="Suspicion minus 1")
    box = minus.bounding_box()
    assert box["width"] >= 44 and box["height"] >= 44
    minus.click()
    phone.wait_for_selector('#gal-player-1[data-status="free"]')
    assert "Luna: released" in luna.locator(".gal-notices").inner_text()
    assert phone.locator("#gal-player-1 [data-testid=status]").inner_text() == "Free"

    # and in again: arrested every time
    phone.locator("#gal-player-1").get_by_role("button", name="Suspicion plus 1").click()
    phone.wait_for_selector('#gal-player-1[data-status="prison"]')
    assert "arrested" in luna.locator(".gal-notices").inner_text()
    # nothing wider than the phone
    assert phone.evaluate("document.documentElement.scrollWidth") <= 360
    shot(phone, "galileo_prison_again_phone")


@pytest.mark.browser
@pytest.mark.slow
def test_box_profile_form_fits_a_phone_and_saves(server, phone, shot):
    phone.goto(server.url + "/profiles/new/galileo")
    assert phone.evaluate("document.documentElement.scrollWidth") <= 360
    phone.get_by_label("Name of this box").fill("Our box")
    phone.get_by_label("Number of spaces, counting the \"0\" space").fill("20")
    for label, value in (("Penance I after space", "3"), ("Penance II after space", "6"), ("Penance III after space", "9"),
                         ("Prison after space", "11"), ("Stake after space", "19")):
        phone.get_by_label(label, exact=True).fill(value)
    phone.get_by_role("button", name="Save").click()
    # the Stake after space 19 has no space 20 on a 20-space track: refused beside the field
    error = phone.locator('[data-field="suspicion_track.stake"]').first
    assert "0 to 19" in error.inner_text()
    shot(phone, "galileo_profile_error_phone")
    phone.get_by_label("Stake after space", exact=True).fill("14")
    phone.get_by_role("button", name="Save").click()
    phone.wait_for_url("**/profiles/*")
    assert phone.get_by_label("Prison after space", exact=True).input_value() == "11"
