"""One solo round with the automa, from setup to round end, on a phone-sized screen."""

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.slow]

LAYOUT = {"take_orders": "2", "take_inks": "1", "develop_specialties": "1", "improve_printing_houses": "2", "patronage": "1"}
PLAN = {"take_orders": "1", "take_inks": "2", "develop_specialties": "2", "improve_printing_houses": "1", "patronage": "2"}


def live_version(page) -> int:
    return int(page.locator("body").get_attribute("data-version"))


def submit(page, button):
    """Press a button and wait until the live region shows the next version."""
    version = live_version(page)
    button.click()
    page.wait_for_function(
        "v => Number(document.body.dataset.version) > v", arg=version)


def test_solo_round_with_the_automa_on_a_phone(server, phone, shot):
    page = phone
    page.goto(server.url + "/new/gutenberg")
    page.locator("input[name='players[]']").nth(0).fill("Ada")
    page.locator("select[name='options.automa:json']").select_option("true")
    page.get_by_role("button", name="Start the table").click()
    page.wait_for_url("**/t/*")
    page.locator("#table-live").wait_for()
    page.locator(".seat-chooser").get_by_role("button", name="Ada").click()
    page.wait_for_selector(".seat-chooser", state="detached")
    shot(page, "gutenberg-setup")

    # the automa's starting layout, as the rulebook's picture shows it
    panel = page.locator("#automa")
    for action, n in LAYOUT.items():
        panel.locator(f"input[name='data.layout.{action}:int']").fill(n)
    submit(page, panel.get_by_role("button", name="Place the starting layout"))

    # Ada reveals her plan
    form = page.locator(".gb-marker-form").first
    for action, n in PLAN.items():
        form.locator(f"input[name='data.markers.{action}:int']").fill(n)
    assert form.locator(".gb-sum").inner_text() == "Placed 8 of 8"
    submit(page, form.get_by_role("button", name="Save Ada's markers"))

    # the planning card, tapped icon by icon
    panel = page.locator("#automa")
    panel.locator("select[name='data.card.centre']").select_option("develop_specialties")
    panel.locator("select[name='data.card.from[]']").nth(0).select_option("take_orders")
    panel.locator("select[name='data.card.to[]']").nth(0).select_option("take_inks")
    shot(page, "gutenberg-card")
    submit(page, panel.get_by_role("button", name="Apply the card"))
    assert "one marker moves from Take orders to Take inks" in page.locator("#automa").inner_text()
    order = page.locator(".gb-order").inner_text()
    assert "Automa" in order and "Ada" in order

    # the automa acts on each action where it has markers; the first answer is "no" once
    answered_no = False
    while page.locator(".gb-acts button").count():
        submit(page, page.locator(".gb-acts button").first)
        while page.locator(".gb-question").count():
            if not answered_no:
                asked = page.locator(".gb-card-no").inner_text()
                submit(page, page.get_by_role("button", name="No", exact=True))
                shot(page, "gutenberg-draw")
                answered_no = True
                assert page.locator(".gb-card-no").inner_text() != asked
            else:
                submit(page, page.get_by_role("button", name="Yes", exact=True))
    done = page.locator(".gb-done").all_inner_texts()
    assert len(done) == 5
    assert any("Discard the printing card" in d and "Discard the refinement card" in d for d in done)
    shot(page, "gutenberg-executed")

    # round end: the automa passed the token and receives Ada's marker
    submit(page, page.get_by_role("button", name="End round 1"))
    assert page.locator("#gb-round-title").inner_text() == "Round 2 of 6"
    seats = page.locator(".gb-seats").inner_text()
    assert seats.index("Ada") < seats.index("Automa")
    assert "The automa receives markers on Develop specialties." in page.locator(".gb-notice").inner_text()
    shot(page, "gutenberg-round-2")

    # nothing is wider than the phone
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
