"""Issue 38, item 8c: a device without the host key that opens /plays/backup reads what the backup is
(the host's own devices') and how to get there (the host-key link `companion serve` prints), in its
own language, instead of "There is no such play here."; the host's device still gets the file."""

from __future__ import annotations

import html
import re

import pytest

from companion.games import speech
from companion.web.plays import BACKUP_FOR_HOST, NO_PLAY

from .test_plays import host_client


def said(response) -> str:
    """The page's text as a reader reads it: tags out, entities decoded, spaces made one."""
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", response.get_data(as_text=True))).split())


@pytest.mark.parametrize("lang", speech.LANGUAGES)
def test_a_device_without_the_host_key_reads_what_the_backup_is_in_its_language(app, lang):
    stranger = app.test_client()
    answer = stranger.get("/plays/backup", headers={"Accept-Language": lang})
    assert answer.status_code == 404 and answer.mimetype == "text/html" and "Content-Disposition" not in answer.headers
    with speech.speaking(lang):
        sentence, no_play = speech.gettext(BACKUP_FOR_HOST), speech.gettext(NO_PLAY)
    assert (sentence == BACKUP_FOR_HOST) == (lang == "en"), f"{lang}: the sentence is not translated"
    page = said(answer)
    assert sentence in page and no_play not in page, page
    assert f'<html lang="{lang}">' in answer.get_data(as_text=True)


def test_the_hosts_device_still_downloads_the_backup(app):
    answer = host_client(app).get("/plays/backup")
    assert answer.status_code == 200 and answer.data.startswith(b"SQLite format 3\0")
