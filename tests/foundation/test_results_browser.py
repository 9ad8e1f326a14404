"""The end screen's "Log this play" card on a phone (issue 12): BG Stats in one tap, the result as text.

A real server, Debian's chromium at 360 px, light and dark. The table is finished through the
API (each game's own browser tests enter rows by hand); what is checked here is the card.
"""


import pytest


from ..conftest import Taps, fits_a_phone, take_seat
from .test_results import NAMES, ROWS, decoded, score

pytestmark = pytest.mark.browser


def finished_table(server):
    t = server.api("/api/v1/tables", {"game": "gutenberg", "players": NAMES, "calculator": True})
    for i, r in enumerate(ROWS):
        version = server.api(f"/api/v1/tables/{t['table']}", token=t["token"])["version"]
        server.api(f"/api/v1/tables/{t['table']}/events",
             {"type": "sheet", "data": dict(r, player=i), "expected_version": version}, t["token"])
    return t


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_log_in_bgstats_is_one_tap_and_the_result_copies_as_text(server, phone, dark_phone, shot, scheme):
    page = phone if scheme == "light" else dark_phone
    t = finished_table(server)
    page.goto(t["join_url"].replace(t["join_url"].split("/join/")[0], server.url))
    take_seat(page, "Tom")
    card = page.locator("#log-play")
    card.wait_for()
    fits_a_phone(page, "#log-play")
    doc = server.api(f"/api/v1/tables/{t['table']}/result", token=t["token"])
    link = card.get_by_role("link", name="Log in BG Stats")
    assert link.get_attribute("href") == doc["bgstats_url"]
    assert decoded(link.get_attribute("href"))["players"][0]["score"] == score()["players"][0]["total"]
    # the card is on the first screen, where the group looks at the result
    assert card.bounding_box()["y"] < 740
    shot(page, f"results-end-card-{scheme}")

    taps = Taps(page)
    # the tap on "Log in BG Stats" opens BG Stats' page in a new tab; there is no network here, so
    # BG Stats' answer is played by the test and what is checked is the address the phone asked for
    asked = []
    page.context.route("https://app.bgstatsapp.com/**", lambda route: (
        asked.append(route.request.url), route.fulfill(body="<title>BG Stats</title>", content_type="text/html")))
    with page.context.expect_page() as opened:
        taps.tap(link)
    opened.value.wait_for_load_state()
    assert asked == [doc["bgstats_url"]] and decoded(asked[0]) == doc["play"]
    opened.value.close()
    assert taps.count == 1

    # issue 42: Share is a link to the image (it downloads it without JavaScript); with it, the image is
    # downloaded here (no share sheet) and the text copied (tests/foundation/test_share_browser.py has the rest)
    with page.expect_download():
        page.get_by_role("link", name="Share result").click()
    status = card.locator("[data-share-status]")
    page.wait_for_function("document.querySelector('[data-share-status]').textContent.startsWith('Image downloaded')")
    assert status.inner_text() in {"Image downloaded and result copied: paste them in your group's chat.",
                                   "Image downloaded; the text is selected: copy it with your phone's menu."}
    # the names between U+2068 and U+2069, the plain-text <bdi> a chat app keeps (companion/results.py share_text)
    assert card.locator("#share-text").input_value().endswith("\u2068Tom\u2069 wins on fewer types")
