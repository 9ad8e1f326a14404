"""Galileo's Truth calculator on phones: a 4-player final score, each phone its own row."""

import urllib.parse

import pytest

from companion.games.galileo.functions import FUNCTIONS
from tests.conftest import PHONE, Taps, fits_a_phone, scoreboard, start_final_score_table, take_seat

from .test_table import PROFILE

NAMES = ["Ann", "Ben", "Cy", "Dee"]
PENANCE_VP = [2, 4, 6]

#: what each player's area shows at the end of the game (Dee's row comes from her own phone)
ROWS = [
    {"principle": "copernican", "status": "free", "vp": 61, "suspicion": 0, "penance": [1], "inventions_vp": 9, "mentor_vp": 4,
     "end_losses": 0, "turn_order": 2},
    {"principle": "ptolemaic", "status": "prison", "vp": 72, "suspicion": 0, "penance": [1, 2], "inventions_vp": 3, "mentor_vp": 0,
     "end_losses": 0, "turn_order": 1},
    {"principle": "copernican", "status": "stake", "vp": 80, "suspicion": 4, "penance": [], "inventions_vp": 6, "mentor_vp": 0,
     "end_losses": 2, "turn_order": 3},
    {"principle": "ptolemaic", "status": "free", "vp": 55, "suspicion": 0, "penance": [3], "inventions_vp": 0, "mentor_vp": 7,
     "end_losses": 0, "turn_order": 4},
]
#: per player: principle, status, VP, suspicion, penance cards held, inventions VP, mentor VP,
#: end losses, place in turn order (the Cathedral and penance VP come from the box profile)
VALUES_PER_PLAYER = 9


def save_profile(server):
    """The group's box profile: the Cathedral and penance cards' VP, saved once before the game."""
    fields = [("profile_name", "Our box")]
    for principle, row in PROFILE["cathedral"].items():
        fields += [(f"cathedral.{principle}.{status}:int", str(vp)) for status, vp in row.items()]
    fields += [("penance_cards.vp[]:int", str(v)) for v in PENANCE_VP]
    status, _, page = server.send("POST", "/profiles/new/galileo", urllib.parse.urlencode(fields),
                                  {"Content-Type": "application/x-www-form-urlencoded"})
    assert status == 303, page  # saved: the phone is sent on to the profile's page


def fill_row(taps, card, row):
    """Enter one player's row as the player would: only what differs from what the card shows."""
    # one tap each, on a radio button (Copernican and Free are chosen already)
    if row["principle"] != "copernican":
        taps.tap(card.locator(f'input[type=radio][name="data.principle"][value="{row["principle"]}"]'))
    if row["status"] != "free":
        taps.tap(card.locator(f'input[type=radio][name="data.status"][value="{row["status"]}"]'))
    taps.fill(card.get_by_label("Scoring track VP"), row["vp"])
    if row["status"] == "stake":
        taps.fill(card.get_by_label("Suspicion"), row["suspicion"])
    for level in row["penance"]:
        taps.tap(card.locator(f'input[name="data.penance[]:int"][value="{level}"]'))
    for label, key in (("Inventions VP", "inventions_vp"), ("Mentor VP", "mentor_vp"), ("VP lost", "end_losses")):
        if row[key]:
            taps.fill(card.get_by_label(label), row[key])
    index = int(card.get_attribute("data-you"))
    if row["turn_order"] != index + 1:
        taps.fill(card.get_by_label("Turn order"), row["turn_order"])
    taps.tap(card.get_by_role("button", name=f"Save {NAMES[index]}"))
    card.page.wait_for_selector(f'#gal-row-{index}[data-saved="yes"]')


def expected():
    players = [{"name": NAMES[i], "vp": r["vp"], "principle": r["principle"], "status": r["status"], "suspicion": r["suspicion"],
                "penance_vp": [PENANCE_VP[lvl - 1] for lvl in r["penance"]], "inventions_vp": r["inventions_vp"],
                "mentor_vp": r["mentor_vp"], "end_losses": r["end_losses"], "turn_order": r["turn_order"]}
               for i, r in enumerate(ROWS)]
    return FUNCTIONS["score"].run({"cathedral": PROFILE["cathedral"], "players": players})


@pytest.mark.browser
@pytest.mark.slow
def test_four_player_final_score_typed_on_phones(server, phone, browser, dark_phone, shot):
    save_profile(server)
    start_final_score_table(phone, server, "galileo", NAMES, profile="Our box")
    phone.wait_for_selector("#gal-row-0")
    phone.locator(".seat-chooser button", has_text="Ann").click()
    phone.wait_for_selector("body[data-seat-chosen]")
    assert phone.locator(".gal-rows .seat-card").first.get_attribute("data-you") == "0"
    fits_a_phone(phone)

    taps = Taps(phone)
    for i in range(3):
        fill_row(taps, phone.locator(f"#gal-row-{i}"), ROWS[i])
    assert "Still needed: Dee's row" in phone.locator("#gal-end").inner_text()
    shot(phone, "galileo_calculator_rows_phone")

    # Dee fills her own row on her own phone, joined through the table's link
    join = phone.locator(".join-url a").get_attribute("href")
    context = browser.new_context(**PHONE)
    dee_phone = context.new_page()
    dee_phone.goto(server.url + urllib.parse.urlparse(join).path)
    dee_phone.locator(".seat-chooser button", has_text="Dee").click()
    dee_phone.wait_for_selector("body[data-seat-chosen]")
    # her own card comes first on her phone
    assert dee_phone.locator(".gal-rows .seat-card").first.get_attribute("data-you") == "3"
    dee_taps = Taps(dee_phone)
    fill_row(dee_taps, dee_phone.locator("#gal-row-3"), ROWS[3])
    taps.count += dee_taps.count
    context.close()

    # Ann's phone follows: the breakdown and the winner as soon as every row is in
    want = expected()
    phone.wait_for_selector(".gal-end p.winner")
    assert phone.locator(".gal-end p.winner").inner_text() == "Winner: " + ", ".join(want["winners"])
    for i, p in enumerate(want["players"]):
        assert phone.locator(f'[data-total="{p["name"]}"]').inner_text() == str(p["total"])
        shown = phone.locator(f"#gal-breakdown-{i}")
        for key, value in p["breakdown"].items():
            assert shown.locator(f'tr[data-row="{key}"] td').inner_text() == str(value)
    assert phone.locator('.scoreboard [data-you="2"] .sb-score').inner_text() == str(want["players"][2]["total"])
    fits_a_phone(phone)
    phone.locator("#gal-end").scroll_into_view_if_needed()
    shot(phone, "galileo_calculator_result_phone")

    numbers = VALUES_PER_PLAYER * len(NAMES)
    taps.report("galileo calculator, 4 players", numbers=numbers, players=4)
    assert taps.count <= numbers + 4

    # the same table in the dark theme, on a third phone that just watches
    dark_phone.goto(server.url + urllib.parse.urlparse(join).path)
    dark_phone.locator(".seat-chooser button", has_text="Just watch").click()
    dark_phone.wait_for_selector("body[data-seat-chosen]")
    fits_a_phone(dark_phone)
    shot(dark_phone, "galileo_calculator_result_dark")
    dark_phone.locator("#gal-row-2").scroll_into_view_if_needed()
    shot(dark_phone, "galileo_calculator_row_dark")
