"""Choosing plays for BG Stats on a 360 px phone, light and dark (issue 42): a tap on "Choose" per play,
then "Download for BG Stats", with JavaScript off too (a plain GET form); the file downloaded decodes
to the plays chosen.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion import bgsplay
from tests.conftest import fits_a_phone, open_key_link
from tests.foundation.test_plays_browser import finished_plays

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def choose_and_download(page, server, shot, name: str) -> dict:
    page.goto(f"{server.url}/plays")
    open_key_link(page, server.key_link())
    picks = page.locator(".play-pick")
    assert picks.count() == 3
    assert all(picks.nth(i).bounding_box()["height"] >= 44 for i in range(3))  # the label is the target
    fits_a_phone(page, "main")
    picks.nth(0).click()  # the newest (Codex) and the oldest
    picks.nth(2).click()
    shot(page, name)
    with page.expect_download() as download:
        page.get_by_role("button", name="Download for BG Stats").click()
    assert download.value.suggested_filename == "plays-2.bgsplay"
    return json.loads(Path(download.value.path()).read_text(encoding="utf-8"))


@pytest.mark.parametrize("dark", [False, True])
def test_a_phone_chooses_plays_and_gets_one_file_for_them(server, phone, dark_phone, shot, dark):
    codex = finished_plays(server)
    page = dark_phone if dark else phone
    file = choose_and_download(page, server, shot, "bgsplay-choose" + ("-dark" if dark else ""))
    assert len(file["plays"]) == 2 and file["plays"][-1]["uuid"] == bgsplay._uuid("play", codex["table"])  # oldest first
    assert {g["name"] for g in file["games"]} == {"Gutenberg", "Codex Naturalis"}


def test_choosing_works_without_javascript(server, browser, shot):
    context = browser.new_context(viewport={"width": 360, "height": 740}, java_script_enabled=False, accept_downloads=True)
    try:
        page = context.new_page()
        codex = finished_plays(server)
        # without the page's script the host key is typed in the archive's form, as the page offers
        page.goto(f"{server.url}/plays")
        page.fill("#host-key-field", server.key_link().split("#key=", 1)[1])
        page.get_by_role("button", name="Show every play").click()
        page.locator(".play-pick").nth(0).click()
        with page.expect_download() as download:
            page.get_by_role("button", name="Download for BG Stats").click()
        file = json.loads(Path(download.value.path()).read_text(encoding="utf-8"))
        assert [p["uuid"] for p in file["plays"]] == [bgsplay._uuid("play", codex["table"])]
    finally:
        context.close()
