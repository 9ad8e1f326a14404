"""Calculator mode on phones: a 4-player Codex final score typed in, each phone its own row (issue 11)."""

import pytest

from tests.conftest import PHONE, Taps, fits_a_phone, scoreboard, start_final_score_table, take_seat

from .test_calculator import COMMON, NAMES, ROWS, expected, numbers_on_the_table

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def version(page) -> int:
    return int(page.locator("body").get_attribute("data-version"))


def wait_for_version(page, at_least: int) -> None:
    page.wait_for_function("v => Number(document.body.dataset.version) >= v", arg=at_least)


def fill_row(taps: Taps, page, i: int, row: dict) -> None:
    """Type one player's row as they would: the track, the secret card, each count asked for, Save."""
    card = page.locator(f"#cx-sheet-{i}")
    taps.fill(card.locator("input[name='data.placement_points:int']"), row["placement_points"])
    taps.fill(card.locator("input[name='data.secret:int']"), row["secret"])  # the number printed on the card
    asked = card.locator(".cx-if:visible input").evaluate_all("els => els.map(e => e.name)")
    wanted = [f"data.visible.{s}:int" for s in row["visible"]] + [f"data.patterns.{k}:int" for k in row["patterns"]]
    assert sorted(asked) == sorted(wanted)  # only what the objectives need, nothing else
    for field in [f"visible.{s}" for s in row["visible"]] + [f"patterns.{k}" for k in row["patterns"]]:
        n = row[field.split(".")[0]][field.split(".")[1]]
        box = card.locator(f"input[name='data.{field}:int']")
        if box.input_value() != str(n):  # a count left at its prefilled 0 is no interaction (issue 27)
            taps.fill(box, n)
    before = version(page)
    taps.tap(card.get_by_role("button", name=f"Save {NAMES[i]}'s row"))
    wait_for_version(page, before + 1)


def test_four_player_final_score_typed_in_on_phones(server, browser, phone, dark_phone, shot):
    page = phone
    start_final_score_table(page, server, "codex", NAMES)
    take_seat(page, "Anna")
    join = page.locator(".join-url a").get_attribute("href")

    taps = Taps(page)  # counts the whole end of the game, on both phones
    # the two common objectives: their card numbers typed, then set with their button (issue 27)
    fields = page.locator("#cx-common input[name='data.cards[]:int']")
    taps.fill(fields.nth(0), COMMON[0])
    taps.fill(fields.nth(1), COMMON[1])
    taps.tap(page.get_by_role("button", name="Set the common objectives"))
    wait_for_version(page, 1)
    # opened straight at final scoring, this phone's own card first
    assert page.locator(".cx-sheets > .seat-card").first.get_attribute("data-you") == "0"

    other_ctx = browser.new_context(**PHONE)
    other = other_ctx.new_page()
    other.set_default_timeout(10_000)
    try:
        other.goto(join)
        take_seat(other, "Dan")
        assert other.locator(".cx-sheets > .seat-card").first.get_attribute("data-you") == "3"
        other_taps = Taps(other)
        fill_row(other_taps, other, 3, ROWS[3])
        assert "Row saved; waiting for Anna, Ben, Cleo" in other.locator("#cx-sheet-3 .cx-said").inner_text()
        for i in range(3):
            if i == 1:
                shot(page, "codex_calculator_typing")
            fill_row(taps, page, i, ROWS[i])
        other.locator("#cx-winner").wait_for()  # the other phone sees the result by polling
        taps.count += other_taps.count
    finally:
        other_ctx.close()

    result = expected()
    by_name = {p["name"]: p for p in result["players"]}
    winner = result["winners"][0]
    top = by_name[winner]
    assert page.locator("#cx-winner").inner_text() == \
        f"{winner} wins the tie on {top['total']} with the most points from objectives ({top['breakdown']['objectives']})"
    rows = page.locator("#cx-results tbody tr")
    assert rows.count() == 4
    for k in range(4):
        row = rows.nth(k)
        name = row.get_attribute("data-name")
        cells = row.locator("td").all_inner_texts()
        want = by_name[name]
        assert cells == [name, str(want["breakdown"]["placement"]), str(want["breakdown"]["objectives"]),
                         str(want["total"]), str(result["places"][name])]
    # each card's breakdown: the track, then every objective's points, as the score function gives them
    for seat, name in enumerate(NAMES):
        pts = page.locator(f"#cx-sheet-{seat} .cx-breakdown .cx-pts").all_inner_texts()
        assert pts == [f"{by_name[name]['breakdown']['placement']} pts"] + [f"{p} pts" for p in by_name[name]["objectives_detail"]]
    board = scoreboard(page)
    assert board == {n: str(by_name[n]["total"]) for n in NAMES}

    numbers = numbers_on_the_table()
    taps.report("codex calculator, 4 players", numbers=numbers, players=4)
    assert taps.count <= numbers + 4

    fits_a_phone(page)
    shot(page, "codex_calculator_result")

    dark_phone.goto(join)
    take_seat(dark_phone, "Just watch")
    # a phone that opens the finished table sees the result first (issue 42), the game's own end screen
    # one tap away, saying the same
    verdict = dark_phone.locator("#log-play .verdict")
    verdict.wait_for()
    assert verdict.inner_text() == page.locator("#log-play .verdict").inner_text()
    dark_phone.get_by_text("Correct the scores").click()
    dark_phone.locator("#cx-winner").wait_for()
    fits_a_phone(dark_phone)
    shot(dark_phone, "codex_calculator_dark")


def ben_after_the_common_objectives(page, server) -> None:
    """A two-player calculator table on Ben's phone, the common objectives set (version 1)."""
    start_final_score_table(page, server, "codex", ["Anna", "Ben"])
    take_seat(page, "Ben")
    page.locator("#cx-common input[name='data.cards[]:int']").nth(0).fill(str(COMMON[0]))
    page.locator("#cx-common input[name='data.cards[]:int']").nth(1).fill(str(COMMON[1]))
    page.get_by_role("button", name="Set the common objectives").click()
    wait_for_version(page, 1)


def test_a_refused_row_keeps_what_was_typed_and_says_it_beside_the_field(server, phone, shot):
    page = phone
    ben_after_the_common_objectives(page, server)
    card = page.locator("#cx-sheet-1")
    card.locator("input[name='data.placement_points:int']").fill("22")
    card.locator("input[name='data.secret:int']").fill("96")
    card.locator("input[name='data.visible.quill:int']").fill("2")
    card.locator("input[name='data.patterns.91:int']").fill("0")
    card.locator("input[name='data.visible.plant:int']").fill("")  # the plants forgotten: their 0 cleared
    card.get_by_role("button", name="Save Ben's row").click()
    page.locator(".table-head .error").wait_for()
    assert page.locator(".table-head .error").inner_text().startswith("Ben's visible plants: objective #96")
    card = page.locator("#cx-sheet-1")
    assert "objective #96" in card.locator(".error").first.inner_text()
    assert card.locator("input[name='data.placement_points:int']").input_value() == "22"
    assert card.locator("input[name='data.secret:int']").input_value() == "96"
    assert card.locator("input[name='data.visible.plant:int']").is_visible()  # asked for, beside its message
    assert version(page) == 1
    fits_a_phone(page)
    shot(page, "codex_calculator_refused")


def test_a_pushed_change_keeps_the_fields_a_typed_secret_asks_for_and_moves_nothing(server, phone):
    # The new region comes with the secret's fields hidden (nothing saved yet); the page's script
    # puts the typed secret back, and codex.js must show its fields before the place is kept
    # (tc:restored), not in a later task: a push is settled at once, and fields shown after it
    # pushed the Save button down under the player's finger.
    page = phone
    ben_after_the_common_objectives(page, server)
    card = page.locator("#cx-sheet-1")
    card.locator("input[name='data.secret:int']").fill("96")
    plants = card.locator("input[name='data.visible.plant:int']")
    assert plants.is_visible()  # asked for by objective #96, as it is typed
    page.evaluate("() => document.activeElement.blur()")  # done typing: a push may come in
    save = card.get_by_role("button", name="Save Ben's row")
    # the Save button just below a third of the screen: what the page keeps in place at a push
    save.evaluate("el => window.scrollBy(0, el.getBoundingClientRect().top - innerHeight / 3 + 2)")
    before = save.evaluate("el => el.getBoundingClientRect().top")
    table = page.url.rsplit("/", 1)[-1]
    token = next(c["value"] for c in page.context.cookies() if c["name"] == f"tc_{table}")
    anna = {"type": "sheet", "data": {"player": 0, **ROWS[0]}, "expected_version": 1}
    server.api(f"/api/v1/tables/{table}/events", anna, token)  # Anna's row, from another phone
    wait_for_version(page, 2)
    page.wait_for_timeout(300)  # any later task that moves things has run
    card = page.locator("#cx-sheet-1")
    assert card.locator("input[name='data.secret:int']").input_value() == "96"
    assert card.locator("input[name='data.visible.plant:int']").is_visible()
    after = card.get_by_role("button", name="Save Ben's row").evaluate("el => el.getBoundingClientRect().top")
    assert abs(after - before) < 2, f"the Save button moved by {after - before:.0f} px"
