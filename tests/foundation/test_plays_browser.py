"""The plays archive on a 360 px phone, light and dark: the list, a record with its chart, the stats (issue 12).

The plays are finished through the real server's JSON API; the browser is the host's own: it
opens the host-key link `companion serve` printed (issue 27: opening 127.0.0.1 grants nothing),
so it sees every play.
"""

from __future__ import annotations

import re

import pytest

from tests.conftest import fits_a_phone, open_key_link

pytestmark = [pytest.mark.browser, pytest.mark.slow]

SPECIALTIES = ("typesetting", "woodcutting", "binding", "illuminating")
CODEX = ["Anna", "Benedikt", "Cleo", "Dora"]
CODEX_POINTS = [(0, 3), (1, 5), (2, 2), (3, 4), (0, 4), (1, 1), (2, 7), (3, 3), (0, 6), (1, 6), (2, 3), (3, 8), (0, 8)]


def event(server, t: dict, type_: str, data: dict) -> dict:
    version = server.api(f"/api/v1/tables/{t['table']}", token=t["token"])["version"]
    return server.api(f"/api/v1/tables/{t['table']}/events", {"type": type_, "data": data, "expected_version": version}, t["token"])


def finished_plays(server) -> dict:
    """Two Gutenberg calculator tables and a tracked four-player Codex game, finished in that order."""
    for names, fames in ((["Anna", "Benedikt"], [40, 52]), (["Cleo", "Anna", "Benedikt"], [61, 45, 30])):
        t = server.api("/api/v1/tables", {"game": "gutenberg", "players": names, "calculator": True})
        for seat, fame in enumerate(fames):
            event(server, t, "sheet", {"player": seat, "fame": fame, "guilders": 3, "patronage_cards": 1, "types": 2,
                                       "inks": 1, "specialties": {s: 2 for s in SPECIALTIES}})
    codex = server.api("/api/v1/tables", {"game": "codex", "players": CODEX, "first_player": 0})
    for seat, delta in CODEX_POINTS:
        state = event(server, codex, "points", {"player": seat, "delta": delta})["state"]
    for _ in state["end"]["turns"]:  # [CN54] the last turns, then the objectives [CN55]
        event(server, codex, "turn_played", {})
    assert event(server, codex, "finish", {})["state"]["finished"]
    return codex


def watch_console(page) -> list[str]:
    """Collect the page's console errors (a CSP violation is one)."""
    errors: list[str] = []
    page.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
    return errors


def series_colours(page) -> list[str]:
    return page.locator("svg.chart-line polyline").evaluate_all("els => els.map(e => getComputedStyle(e).stroke)")


def luminance(rgb: str) -> float:
    """WCAG's relative luminance of a computed colour, "rgb(r, g, b)"."""
    channels = [int(c) / 255 for c in re.findall(r"\d+", rgb)[:3]]
    r, g, b = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: str, b: str) -> float:
    high, low = sorted((luminance(a), luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def assert_lines_stand_out(page) -> None:
    """Every series line against the chart's card: at least 4:1 (WCAG asks 3:1 of a graphic)."""
    card = page.locator(".play-chart").evaluate("e => getComputedStyle(e).backgroundColor")
    for colour in series_colours(page):
        assert contrast(colour, card) >= 4, (colour, card)


def tour(page, server, shot, codex: dict, suffix: str) -> list[str]:
    """Open the archive, the Codex record and the stats as a player does; return the chart's series colours."""
    errors = watch_console(page)
    page.goto(f"{server.url}/plays")
    assert page.locator(".play-entry").count() == 0  # 127.0.0.1 is no key (issue 27)
    open_key_link(page, server.key_link())
    assert page.url == f"{server.url}/plays"  # the key left the address
    entries = page.locator(".play-entry")
    assert entries.count() == 3
    assert entries.first.locator(".play-game").inner_text() == "Codex Naturalis"  # newest first
    fits_a_phone(page, "main")
    assert entries.first.bounding_box()["height"] >= 44
    shot(page, f"plays-list{suffix}")

    entries.first.click()
    page.wait_for_url(f"**/plays/{codex['table']}")
    chart = page.locator("svg.chart-line")
    assert chart.is_visible() and chart.bounding_box()["width"] >= 280
    assert page.locator(".chart-legend .name").all_inner_texts() == CODEX
    page.locator("#history summary").click()
    # every event: the points, the 7 last turns (Anna, first, reached 20) and the finish
    assert page.locator("#history li").count() == len(CODEX_POINTS) + 7 + 1
    fits_a_phone(page, "main")
    shot(page, f"plays-record{suffix}")
    colours = series_colours(page)
    assert_lines_stand_out(page)

    page.goto(f"{server.url}/plays")
    page.get_by_role("link", name="Stats").click()
    page.wait_for_url("**/plays/stats")
    assert page.locator("section.game-stats").count() == 2
    assert page.locator("svg.chart-bars").count() == 2
    fits_a_phone(page, "main")
    shot(page, f"plays-stats{suffix}")
    assert errors == []
    return colours


def test_the_archive_on_a_phone_light_and_dark(server, phone, dark_phone, shot):
    codex = finished_plays(server)
    light = tour(phone, server, shot, codex, "")
    dark = tour(dark_phone, server, shot, codex, "-dark")
    # four distinct series colours in each scheme, and each scheme its own
    assert len(set(light)) == 4 and len(set(dark)) == 4
    assert light != dark
    background = dark_phone.evaluate("getComputedStyle(document.body).backgroundColor")
    assert background not in dark


def test_a_wrong_host_key_is_said_where_the_phone_shows_it(server, phone, dark_phone, shot):
    """Typed on a phone at 360 px: the refusal is on the screen beside the field, which keeps the
    focus, and nothing is granted; an old ?key= link says why the same way."""
    in_view = """e => { const r = document.querySelector(e).getBoundingClientRect();
                        return r.height > 0 && r.top >= 0 && r.bottom <= innerHeight; }"""
    for page, theme in ((phone, "light"), (dark_phone, "dark")):
        page.goto(f"{server.url}/plays")
        page.fill("#host-key-field", "not-the-key")
        page.get_by_role("button", name="Show every play").click()
        page.locator("#host-key-error").wait_for()
        assert page.evaluate(in_view, "#host-key-error") and page.evaluate(in_view, "#host-key-field"), theme
        assert page.evaluate("document.activeElement.id") == "host-key-field"
        assert page.locator(".plays-backup").count() == 0 and not any(c["name"] == "host_key" for c in page.context.cookies())
        fits_a_phone(page)
        shot(page, f"plays-wrong-key-{theme}")
        page.goto(f"{server.url}/plays?key=anything")
        assert page.evaluate(in_view, "#host-key-error"), theme
        assert "not taken" in page.locator("#host-key-error").inner_text()
