"""Issue 42, "a link that stays": after the end the table's own link shows the result first, read-only,
with its image, Share and BG Stats; the game's screens wait behind "Correct the scores"; a play the
host deleted is said so. Through the real app (the browser's side: test_share_browser.py)."""

from __future__ import annotations

import html
import re

from tests.foundation.test_plays import host_client, text
from tests.foundation.test_results import NAMES, ROWS, finish


def join(client, t: dict) -> None:
    assert client.get(f"/join/{t['table']}/{t['token']}").status_code == 303


def page_of(client, t: dict, **headers) -> str:
    answer = client.get(f"/t/{t['table']}", headers=headers)
    assert answer.status_code == 200
    return text(answer)


def test_a_finished_tables_link_shows_the_result_first_and_the_game_behind_one_tap(app, api):
    t = finish(api)
    phone = app.test_client()
    join(phone, t)
    page = page_of(phone, t)
    card = page.index('id="log-play"')
    assert card < page.index('id="table-game"') < page.index('id="game-panel"')
    # the game's screens are there, closed, behind one summary
    assert re.search(r'<details class="table-game" id="table-game" data-open-while-playing>\s*<summary class="btn">Correct the scores</summary>', page)
    result = page[card:page.index("</section>", card)]
    assert result.index("Tom") < result.index("Anna")  # ranked: Tom wins the tie on fewer types
    assert "wins on fewer types" in result and 'data-key="fame_track"' in result
    # the image with its box's size before it loads, its dark twin, and a short alt (the list above and the
    # text below say the result: a screen reader heard it three times)
    image = re.search(r'<img src="([^"]+)" width="1080" height="1350" alt="([^"]+)"', result)
    version = api.get(t)["version"]
    assert image and image.group(1) == f"/t/{t['table']}/result.png?v={version}"
    share = html.unescape(re.search(r'<textarea id="share-text"[^>]*>([^<]*)</textarea>', result).group(1))
    assert html.unescape(image.group(2)) == "The result as an image" and share.startswith("Gutenberg, ")
    assert f'srcset="/t/{t["table"]}/result.png?v={version}&amp;theme=dark"' in result
    # without JavaScript, Share is a link that downloads the image; the BG Stats file is a link too
    assert re.search(rf'<a class="btn btn-primary" href="/t/{t["table"]}/result.png\?v={version}" download="gutenberg-[0-9-]+\.png" '
                     r'data-share="share-text"', result)
    assert f'href="/t/{t["table"]}/play.bgsplay" download>BG Stats file</a>' in result
    assert 'data-share-status' in result and f'href="/plays/{t["table"]}"' in result


def test_the_game_being_played_shows_its_screens_open(app, api):
    t = api.create("gutenberg", NAMES, calculator=True)
    assert api.event(t, "sheet", dict(ROWS[0], player=0)).status_code == 200
    phone = app.test_client()
    join(phone, t)
    page = page_of(phone, t)
    assert '<details class="table-game" id="table-game" data-open-while-playing open>' in page and 'id="log-play"' not in page


def test_every_phone_is_sent_the_result_card_with_the_end(app, api):
    """The region a phone is pushed or polls holds the card (one drawing for every phone)."""
    t = api.create("gutenberg", NAMES, calculator=True)
    assert api.event(t, "sheet", dict(ROWS[0], player=0)).status_code == 200
    phone = app.test_client()
    join(phone, t)
    version = api.get(t)["version"]
    assert api.event(t, "sheet", dict(ROWS[1], player=1)).status_code == 200
    answer = phone.get(f"/t/{t['table']}/live", headers={"X-Table-Has": str(version)})
    assert answer.status_code == 200 and 'id="log-play"' in text(answer)


def test_a_play_the_host_deleted_is_said_so_on_its_tables_link(app, api):
    t = finish(api)
    phone = app.test_client()
    join(phone, t)
    host = host_client(app)
    join(host, t)
    assert "deleted from the archive" not in page_of(phone, t)
    version = api.get(t)["version"]
    assert host.post(f"/plays/{t['table']}/delete").status_code == 303
    # every device but the host's: a small page that says so, and nothing of the result
    for answer in (phone.get(f"/t/{t['table']}"), phone.get(f"/t/{t['table']}", headers={"HX-Request": "true"}),
                   phone.get(f"/t/{t['table']}/live", headers={"X-Table-Has": str(version - 1)}),
                   phone.get(f"/t/{t['table']}/events?v={version - 1}")):
        said = text(answer)
        assert answer.status_code == 410 and "This play was deleted from the archive." in said, answer.request.path
        for shown in ('id="log-play"', 'id="table-live"', "result.png", "Log in BG Stats", "bgstats", "share-text",
                      "Open its record to restore it", "Tom wins"):
            assert shown not in said, (shown, answer.request.path)
    assert 'href="/"' in text(phone.get(f"/t/{t['table']}"))
    # the host keeps the page, the result and the way to restore it
    hosts = page_of(host, t)
    assert 'id="log-play"' in hosts and "result.png" in hosts
    assert "This play was deleted from the archive." in hosts
    assert f'href="/plays/{t["table"]}">Open its record to restore it</a>' in hosts
    assert host.post(f"/plays/{t['table']}/restore").status_code == 303
    assert "deleted from the archive" not in page_of(phone, t)


def test_a_deleted_play_whose_end_is_undone_is_a_game_played_again(app, api):
    """Undo after the host deleted the play: the table is a game being played again, on every phone
    (the third review: the other phones got the 410 page of a deleted play on a game in play)."""
    t = finish(api)
    phone = app.test_client()
    join(phone, t)
    host = host_client(app)
    assert host.post(f"/plays/{t['table']}/delete").status_code == 303
    assert phone.get(f"/t/{t['table']}").status_code == 410
    assert api.undo(t).status_code == 200
    again = phone.get(f"/t/{t['table']}")
    assert again.status_code == 200 and "deleted from the archive" not in text(again) and 'id="table-live"' in text(again)


def test_a_device_without_the_tables_secret_gets_404_as_for_no_table(app, api):
    t = finish(api)
    stranger = app.test_client()
    missing = stranger.get("/t/nosuchtable")
    assert stranger.get(f"/t/{t['table']}").status_code == 404 == missing.status_code
    assert text(stranger.get(f"/t/{t['table']}")) == text(missing).replace("nosuchtable", t["table"])


def test_a_plays_record_shows_its_image_and_share(app, api):
    t = finish(api)
    phone = app.test_client()
    join(phone, t)
    page = text(phone.get(f"/plays/{t['table']}"))
    assert re.search(rf'<img src="/plays/{t["table"]}/result.png" width="1080" height="1350" alt="[^"]+"', page)
    assert f'srcset="/plays/{t["table"]}/result.png?theme=dark"' in page
    assert re.search(rf'<a class="btn btn-primary" href="/plays/{t["table"]}/result.png" download="gutenberg-[0-9-]+\.png" '
                     r'data-share="share-text"', page)
    assert '<textarea id="share-text" readonly rows="3">Gutenberg, ' in page


def image_address(page: str, attribute: str = "src") -> str:
    return html.unescape(re.search(rf'<img {attribute}="([^"]+)" width="1080"', page).group(1))


def test_the_image_is_named_by_the_tables_version_and_kept_for_good_only_under_it(app, api):
    """A correction, an undo or a rename is a new address: a phone never shows the picture it holds
    of an older result; the one of the current version may be kept for good (shown and shared offline)."""
    t = finish(api)
    phone = app.test_client()
    join(phone, t)
    url = image_address(page_of(phone, t))
    kept = phone.get(url)
    assert kept.status_code == 200 and kept.mimetype == "image/png"
    assert kept.headers["Cache-Control"] == "private, max-age=31536000, immutable"
    assert {"Cookie", "Accept-Language"} <= set(kept.vary)
    dark = phone.get(url + "&theme=dark")
    assert dark.headers["Cache-Control"] == "private, max-age=31536000, immutable" and dark.data != kept.data
    again = phone.get(url, headers={"If-None-Match": kept.headers["ETag"]})
    assert again.status_code == 304 and again.headers["Cache-Control"] == "private, max-age=31536000, immutable"
    assert api.event(t, "rename", {"player": 1, "name": "Zofia"}).status_code == 200
    renamed = image_address(page_of(phone, t))
    assert renamed != url and renamed.endswith(f"?v={api.get(t)['version']}")
    # the old address, none, or a malformed one: the current image, asked again each time
    base = url.split("?")[0]
    for old in (url, base, base + "?v=", base + "?v=abc", base + "?v=" + "9" * 40, base + "?v=-1", base + "?v=%FF"):
        answer = phone.get(old)
        assert answer.status_code == 200 and answer.headers["Cache-Control"] == "private, no-cache", old
        assert answer.data == phone.get(renamed).data != kept.data
