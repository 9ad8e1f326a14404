"""Three solo turns against Voynich on a phone-sized screen, through a real server and chromium."""

import re

import pytest
expect = pytest.importorskip("playwright.sync_api").expect

CARDS = {"botany": [3, 8], "astrology": [12, 15], "baths": [21, 24], "writings": [30, 33], "recipes": [36, 39]}


@pytest.mark.browser
def test_three_solo_turns_on_a_phone(server, phone, shot):
    t = server.api("/api/v1/tables", {"game": "voynich", "players": ["Ana"]})
    join = t["join_url"].split("/join/", 1)[1]
    phone.goto(f"{server.url}/join/{join}")
    phone.get_by_role("button", name="Just watch").first.click()
    # Voynich's book in book order, then the difficulty
    inputs = phone.locator("#voynich-setup input[type=number]")
    numbers = [n for s in CARDS for n in CARDS[s]]
    for i, n in enumerate(numbers):
        inputs.nth(i).fill(str(n))
    phone.select_option("#voynich-setup select", "very_hard")
    shot(phone, "voynich_solo_setup")
    phone.get_by_role("button", name="Shuffle his deck and start").click()
    phone.wait_for_selector("#voynich-turn")
    assert "rotate or flip these 4 cards" in phone.inner_text("#voynich-turn")

    seen = []
    for turn in range(3):
        # Ana gains 1 Botany, then ends her turn
        phone.locator("#player-0 li.botany button[aria-label$=': Botany plus 1']").click()
        expect(phone.locator("#player-0 li.botany .num")).to_have_text(re.compile(rf"\D{turn + 1}\s*$"))
        phone.locator(".voy-turn").get_by_role("button", name="End turn ▸").click()
        phone.get_by_role("button", name="Flip Voynich's card").click()
        phone.wait_for_selector(".voy-card-number")
        card = int(phone.inner_text(".voy-card-number"))
        page_side = phone.inner_text(".voy-page")
        assert page_side == ("left page" if card % 2 else "right page")
        seen.append(card)
        if turn == 0:
            phone.get_by_role("button", name="Research action: +1 GK").click()
            expect(phone.locator("#player-1 li.gk .num")).to_have_text(re.compile(r"\D1\s*$"))
            shot(phone, "voynich_solo_turn")
        phone.locator(".voy-turn").get_by_role("button", name="End turn ▸").click()
        expect(phone.locator(".voy-current")).to_have_text("Ana")
    state = server.api(f"/api/v1/tables/{t['table']}", token=t["token"])["state"]
    assert state["voynich"]["flips"] == 3
    assert state["players"][0]["markers"]["botany"] == 3
    assert state["players"][1]["markers"]["gk"] == 1
    assert len(set(seen)) == 3
    # the page fits a 360 px phone: nothing wider than the viewport
    assert phone.evaluate("document.documentElement.scrollWidth") <= 360
    # undo takes back Voynich's end of turn; a reload shows the same state
    phone.get_by_role("button", name="↶ Undo").click()
    phone.wait_for_selector(".voy-card-number")
    phone.reload()
    assert int(phone.inner_text(".voy-card-number")) == seen[-1]
    shot(phone, "voynich_solo_after_undo")
    phone.goto(f"{server.url}/t/{t['table']}?screen=end")
    shot(phone, "voynich_end_screen")
    assert "Final scoring" in phone.inner_text("#result")


@pytest.mark.browser
def test_end_triggered_and_exchange_tokens_on_a_phone(server, phone, shot):
    t = server.api("/api/v1/tables", {"game": "voynich", "players": ["Ana", "Bea", "Cy"]})
    for event in ({"type": "track", "data": {"scoring_spaces": {"10": 3, "20": 6}, "insights": [2, 9]}},
                  {"type": "move", "data": {"player": 1, "marker": "gk", "delta": 52}}):
        version = server.api(f"/api/v1/tables/{t['table']}", token=t["token"])["version"]
        server.api(f"/api/v1/tables/{t['table']}/events", dict(event, expected_version=version), token=t["token"])
    phone.goto(f"{server.url}/join/{t['join_url'].split('/join/', 1)[1]}")
    phone.get_by_role("button", name="Ana").first.click()
    expect(phone.locator(".voy-remaining")).to_have_text("Bea, Cy, Ana, Bea, Cy")
    botany_plus = phone.locator("#player-0 li.botany button[aria-label$=': Botany plus 1']")
    botany_plus.click()
    expect(phone.locator("#player-0 li.botany .num")).to_have_text(re.compile(r"\D1\s*$"))
    botany_plus.click()  # reaches the insight symbol on 2
    expect(phone.locator("#player-0 .voy-exchange")).to_contain_text("1 Botany")
    phone.locator(".voy-turn").get_by_role("button", name="End turn ▸").click()
    expect(phone.locator(".error").first).to_contain_text("puzzle pieces")
    shot(phone, "voynich_exchange_due")
    phone.get_by_role("button", name="Botany piece placed").click()
    expect(phone.locator("#player-0 .voy-exchange")).to_have_count(0)
    phone.locator(".voy-turn").get_by_role("button", name="End turn ▸").click()
    expect(phone.locator(".voy-current")).to_have_text("Bea")
    assert phone.evaluate("document.documentElement.scrollWidth") <= 360
    shot(phone, "voynich_end_triggered")


@pytest.mark.browser
def test_box_profile_form_on_a_phone(server, phone, shot):
    phone.goto(f"{server.url}/profiles/new/voynich")
    phone.fill("input[name=profile_name]", "Our box")
    for k, (pos, gk) in enumerate([(10, 3), (20, 6), (30, 10)]):
        phone.fill(f"#p-space-pos-{k}", str(pos))
        phone.fill(f"#p-space-gk-{k}", str(gk))
    for k, pos in enumerate([4, 9, 15]):
        phone.fill(f"#p-insight-{k}", str(pos))
    for name, value in (("grid_cells.0.0:int", "1"), ("grid_cells.0.1:int", "2"), ("grid_cells.1.0:int", "3"), ("grid_cells.1.1:int", "4")):
        phone.fill(f"input[name='{name}']", value)
    phone.get_by_text("Recipes: spaces").click()  # the part as the panel names it (profile.SOLO_PARTS)
    phone.fill("#p-recipes-0", "2")
    phone.fill("#p-recipes-1", "2")
    phone.get_by_role("button", name="Save").click()
    expect(phone.locator("p.error[data-field='solo_spaces.recipes[1]']")).to_contain_text("listed twice")
    assert phone.input_value("#p-space-pos-2") == "30"  # typed values kept through the refusal
    shot(phone, "voynich_profile_error")
    phone.fill("#p-recipes-1", "17")
    phone.get_by_role("button", name="Save").click()
    expect(phone.get_by_role("link", name="Export as a file")).to_be_visible()
    assert phone.input_value("#p-insight-2") == "15"
    assert phone.locator("textarea").count() == 0
    assert phone.evaluate("document.documentElement.scrollWidth") <= 360
    shot(phone, "voynich_profile_saved")
