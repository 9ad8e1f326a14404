"""Issue 11 on a 360 px phone: a 4-player Voynich calculator table, every number typed once."""

import pytest

from companion.games.voynich.functions import FUNCTIONS
from companion.games.voynich.rules import KNOWLEDGE, SECTIONS
from tests.conftest import PHONE, Taps, fits_a_phone, scoreboard, start_final_score_table, take_seat

expect = pytest.importorskip("playwright.sync_api").expect

#: the score track's scoring spaces of the box profile used here (test values, typed once in the profile)
SPACES = {"3": 1, "8": 2, "14": 4, "21": 6, "29": 9, "38": 12}
SIDES = ("left", "right")
#: what each player's area shows at the end: GK, the 4 markers, research tokens' GK, the 10 pages' x, Recipes types
PLAYERS = {
    "Ana": dict(gk=34, markers=(22, 15, 9, 30), research=[4, 6, 3], pages=[2, 1, 4, 0, 1, 0, 2, 4, 2, 0],
                choices={"left": ["baths", "writings"]}),
    "Ben": dict(gk=None, markers=(12, 30, 18, 8), research=[5, 5], pages=[1, 0, 2, 4, 4, 1, 0, 0, 1, 2],
                choices={"left": ["botany", "astrology"], "right": ["astrology", "writings"]}),
    "Cy": dict(gk=20, markers=(8, 10, 25, 14), research=[2, 6, 4, 3], pages=[0, 0, 1, 1, 2, 4, 1, 2, 0, 0], choices={}),
    "Dan": dict(gk=25, markers=(16, 20, 12, 21), research=[3], pages=[4, 2, 0, 1, 0, 0, 2, 0, 0, 4],
                choices={"right": ["baths", "botany"]}),
}


def score_doc(players):
    out = []
    for name, v in players.items():
        pages = []
        for k, mult in enumerate(v["pages"]):
            section, side = SECTIONS[k // 2], SIDES[k % 2]
            page = {"section": section, "multiplier": mult}
            if section == "recipes":
                if side not in v["choices"]:
                    continue
                page["choices"] = v["choices"][side]
            pages.append(page)
        out.append({"name": name, "gk": v["gk"] or 0, "markers": dict(zip(KNOWLEDGE, v["markers"])),
                    "research": v["research"], "pages": pages})
    return {"track": {"scoring_spaces": SPACES}, "players": out}


def fill_row(page, taps, i, v):
    card = page.locator(f"#sheet-{i}")
    taps.fill(card.locator(f"#gk-{i}"), v["gk"])
    for kind, value in zip(KNOWLEDGE, v["markers"]):
        taps.fill(card.locator(f"#{kind}-{i}"), value)
    for k, gk in enumerate(v["research"]):
        taps.fill(card.locator(f"#research-{i}-{k}"), gk)
    for k, mult in enumerate(v["pages"]):
        if mult:  # a page in its starting phase stays on the prefilled 0
            taps.fill(card.locator(f"#page-{i}-{k}"), mult)
    for side, kinds in v["choices"].items():
        for n, kind in enumerate(kinds):
            taps.tap(card.locator(f"#choice-{i}-{side}-{kind}"))  # its tick
    taps.tap(card.get_by_role("button", name=f"Save {list(PLAYERS)[i]}'s row"))
    expect(page.locator(f"#sheet-{i} h2")).to_contain_text("row in" if i < 3 else "GK")


@pytest.mark.browser
@pytest.mark.slow
def test_four_player_calculator_on_phones(server, phone, browser, shot):
    # the box profile holds the score track's scoring spaces (typed once, before the game)
    phone.goto(f"{server.url}/profiles/new/voynich")
    phone.fill("input[name=profile_name]", "Our box")
    for k, (pos, gk) in enumerate(SPACES.items()):
        phone.fill(f"#p-space-pos-{k}", pos)
        phone.fill(f"#p-space-gk-{k}", str(gk))
    phone.get_by_role("button", name="Save").click()
    expect(phone.get_by_role("link", name="Export as a file")).to_be_visible()
    assert phone.evaluate("document.documentElement.scrollWidth") <= 360
    shot(phone, "voynich_profile_form")

    # the start page: four names, "Just the final score", the box, start
    start_final_score_table(phone, server, "voynich", list(PLAYERS), profile="Our box")
    expect(phone.locator("#sheet-0")).to_be_visible()
    table_url = phone.url
    join_url = phone.locator(".join-url a").get_attribute("href")

    # Ben's GK makes a tie with Ana on the total, so the tie-break decides (computed, not hard-coded)
    draft = FUNCTIONS["score"].run(score_doc(PLAYERS))["players"]
    PLAYERS["Ben"]["gk"] = draft[0]["total"] - draft[1]["total"]
    want = FUNCTIONS["score"].run(score_doc(PLAYERS))
    assert want["players"][0]["total"] == want["players"][1]["total"]

    taps = Taps(phone)
    for i, name in enumerate(list(PLAYERS)[:3]):
        fill_row(phone, taps, i, PLAYERS[name])
    shot(phone, "voynich_calculator_rows")

    # Dan fills his own row on his own phone, after joining through the table's link
    other = browser.new_context(**PHONE)
    dan = other.new_page()
    dan.set_default_timeout(10_000)
    dan.goto(join_url)
    dan.locator(".seat-chooser").get_by_role("button", name="Dan").click()  # joining, as in every game's count
    taps_dan = Taps(dan)
    expect(dan.locator(".voy-sheets > .seat-card").first).to_have_id("sheet-3")  # his own card first
    fill_row(dan, taps_dan, 3, PLAYERS["Dan"])
    other.close()

    # the first phone sees the result on its next poll: breakdown and winner from the score function
    for k, p in enumerate(want["players"]):
        row = phone.locator(f"#result tr[data-player='{k}']")
        expect(row.locator(".b-total")).to_have_text(str(p["total"]), timeout=15_000)
        expect(row.locator(".b-gk")).to_have_text(str(p["breakdown"]["gk"]))
        expect(row.locator(".b-research")).to_have_text(str(p["breakdown"]["research"]))
        expect(row.locator(".b-pages")).to_have_text(str(p["breakdown"]["pages"]))
    assert want["winners"] == ["Ana"]
    expect(phone.locator(".voy-winners")).to_have_text("Ana wins.")
    # the verdict names the marker that decided (issue 27): the first one, furthest first, where Ana's and Ben's differ
    ana, ben = (sorted(PLAYERS[n]["markers"], reverse=True) for n in ("Ana", "Ben"))
    decided = ("furthest", "second furthest", "third furthest", "fourth furthest")[next(k for k in range(4) if ana[k] != ben[k])]
    expect(phone.locator(".voy-tiebreak")).to_contain_text(f"The tie-break (the {decided} knowledge marker) favours Ana")

    taps.count += taps_dan.count
    # the numbers a player reads off: GK, four markers, each research token, each page that scores
    # (a page in its starting phase stays on the prefilled 0), and a scoring Recipes page's two types
    numbers = sum(1 + len(KNOWLEDGE) + len(v["research"]) + sum(1 for m in v["pages"] if m)
                  + sum(len(kinds) for kinds in v["choices"].values()) for v in PLAYERS.values())
    taps.report("voynich calculator, 4 players", numbers=numbers, players=4)
    assert taps.count <= numbers + 4
    fits_a_phone(phone)
    shot(phone, "voynich_calculator_result")


@pytest.mark.browser
@pytest.mark.slow
def test_calculator_in_the_dark(server, dark_phone, shot):
    dark_phone.goto(f"{server.url}/new/voynich?calculator=1")
    names = dark_phone.locator("input[name='players[]']")
    names.nth(0).fill("Ana")
    names.nth(1).fill("Ben")
    dark_phone.get_by_role("button", name="Start the table").click()
    expect(dark_phone.locator("#sheet-1")).to_be_visible()
    dark_phone.locator("#gk-1").fill("5000")
    for kind in KNOWLEDGE:
        dark_phone.locator(f"#{kind}-1").fill("7")
    dark_phone.locator("#sheet-1").get_by_role("button", name="Save Ben's row").click()
    expect(dark_phone.locator(".table-head .error")).to_contain_text("Ben's GK")
    assert dark_phone.input_value("#gk-1") == "5000"  # typed input kept through the refusal
    assert dark_phone.evaluate("document.documentElement.scrollWidth") <= 360
    shot(dark_phone, "voynich_calculator_dark")
