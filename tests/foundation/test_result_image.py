"""The result as an image (issue 42): companion/result_image.py and its routes (companion/web/images.py).

Each image is decoded with Pillow: a PNG of 1080 x 1350, not blank, the same bytes for the same
play, language and theme, other bytes in another language or theme, no text chunk. The routes
answer as the pages they stand beside: the table's page and the play's record.
"""

from __future__ import annotations

import re
from io import BytesIO

import pytest
from PIL import Image

from companion import games, result_image, results
from companion.games import speech
from tests.conftest import ROOT
from tests.examples import examples

COLOURS = ["red", "blue", "yellow", "white"]


def finished(api, key: str, names: list[str] | None = None) -> dict:
    """A finished calculator table of the game's examples, each seat with a colour."""
    ex = examples(key)
    names = list(names or ex.CALCULATOR_NAMES)
    t = api.create(key, names, calculator=True, colours=COLOURS[:len(names)])
    for type_, data in [*ex.CALCULATOR_SETUP, *(("sheet", row) for row in ex.CALCULATOR_ROWS)]:
        assert api.event(t, type_, data).status_code == 200
    return t


def joined(client, t: dict) -> None:
    client.set_cookie(f"tc_{t['table']}", t["token"])


def decoded(body: bytes) -> Image.Image:
    image = Image.open(BytesIO(body))
    image.load()
    return image


def text_chunks(body: bytes) -> list[bytes]:
    """The PNG's chunk types that carry text (tEXt, zTXt, iTXt), walked from the bytes themselves."""
    found, at = [], 8
    while at < len(body):
        length = int.from_bytes(body[at:at + 4], "big")
        kind = body[at + 4:at + 8]
        if kind in (b"tEXt", b"zTXt", b"iTXt", b"eXIf"):
            found.append(kind)
        at += 12 + length
    return found


@pytest.mark.parametrize("key", list(games.registry()))
def test_each_game_gives_a_png_of_the_stated_size_with_text_on_it(client, api, key):
    t = finished(api, key)
    joined(client, t)
    answer = client.get(f"/t/{t['table']}/result.png")
    assert answer.status_code == 200
    assert answer.mimetype == "image/png"
    image = decoded(answer.data)
    assert image.format == "PNG" and image.size == (1080, 1350)
    rgb = image.convert("RGB")
    counts = {colour: n for n, colour in rgb.getcolors(1080 * 1350)}
    assert len(counts) > 200  # anti-aliased type and swatches, not a blank page
    fg = tuple(int(result_image.THEMES["light"]["fg"][i:i + 2], 16) for i in (1, 3, 5))
    assert counts.get(fg, 0) > 2000  # the text's own colour, drawn
    assert text_chunks(answer.data) == []
    assert answer.headers["Cache-Control"] == "private, no-cache"
    assert answer.headers["ETag"]
    assert re.fullmatch(rf'inline; filename="{key}-\d{{4}}-\d\d-\d\d-\d{{4}}\.png"', answer.headers["Content-Disposition"])
    assert {"Cookie", "Accept-Language"} <= set(answer.vary)
    assert t["token"].encode() not in answer.data


def test_the_same_play_language_and_theme_give_the_same_bytes_and_others_differ(app, client, api):
    t = finished(api, "gutenberg")
    joined(client, t)
    url = f"/t/{t['table']}/result.png"
    first = client.get(url, headers={"Accept-Language": "pl"}).data
    app.extensions["companion.images"] = result_image.Images()  # nothing kept: drawn again
    assert client.get(url, headers={"Accept-Language": "pl"}).data == first
    assert client.get(url, headers={"Accept-Language": "de"}).data != first
    assert client.get(url + "?theme=dark", headers={"Accept-Language": "pl"}).data != first
    dark = decoded(client.get(url + "?theme=dark").data).convert("RGB")
    assert dark.getpixel((5, 5)) == (0x14, 0x13, 0x12)  # --bg of the dark theme


def test_an_etag_revalidates_for_free(client, api):
    t = finished(api, "codex")
    joined(client, t)
    url = f"/t/{t['table']}/result.png"
    first = client.get(url)
    again = client.get(url, headers={"If-None-Match": first.headers["ETag"]})
    assert again.status_code == 304 and again.data == b""


def test_a_phone_holding_the_image_is_answered_without_drawing_it(app, client, api):
    """After a restart (or in another worker) the kept images are gone: the ETag a phone holds is
    still known without drawing, so the 304 costs no image."""
    t = finished(api, "codex")
    joined(client, t)
    url = f"/t/{t['table']}/result.png?theme=dark"
    etag = client.get(url).headers["ETag"]
    app.extensions.pop("companion.images")  # as a restart leaves it
    again = client.get(url, headers={"If-None-Match": etag})
    assert again.status_code == 304 and again.headers["ETag"] == etag
    assert len(app.extensions.get("companion.images") or ()) == 0
    assert client.get(url.replace("dark", "light"), headers={"If-None-Match": etag}).status_code == 200


def test_a_rename_after_the_end_is_a_new_image(client, api):
    t = finished(api, "codex")
    joined(client, t)
    url = f"/t/{t['table']}/result.png"
    before = client.get(url).data
    assert api.event(t, "rename", {"player": 1, "name": "Zofia"}).status_code == 200
    assert client.get(url).data != before


def test_every_player_count_and_a_long_polish_name_fit(api, app):
    from companion import tables
    from companion.web.connection import get_db

    for key in list(games.registry()):
        names = list(examples(key).CALCULATOR_NAMES)
        names[0] = "ŻÓŁWĄŚĆ" * 5 + "ĘŃÓŻŚ"  # 40 letters, the most a name holds, and wide ones
        t = finished(api, key, names)
        with app.app_context():
            table = tables.load(get_db(), t["table"])
            for lang in speech.LANGUAGES:
                assert decoded(result_image.png(table, lang, "light")).size == (1080, 1350)


def test_the_table_image_answers_only_its_phones_once_over(client, api):
    ex = examples("gutenberg")
    t = api.create("gutenberg", list(ex.CALCULATOR_NAMES), calculator=True)
    url = f"/t/{t['table']}/result.png"
    missing = client.get("/t/nosuchtable/result.png")
    assert missing.status_code == 404
    joined(client, t)
    early = client.get(url)  # not over yet: as a missing table
    assert early.status_code == 404 and early.data == missing.data
    for row in ex.CALCULATOR_ROWS:
        assert api.event(t, "sheet", row).status_code == 200
    assert client.get(url).status_code == 200
    client.delete_cookie(f"tc_{t['table']}")  # another device
    other = client.get(url)
    assert other.status_code == 404 and other.data == missing.data


def test_the_archive_image_follows_the_records_rights(app, client, api):
    from companion import hostkey
    from companion.web.connection import get_db

    t = finished(api, "voynich")
    url = f"/plays/{t['table']}/result.png"
    missing = client.get("/plays/nosuchplay/result.png")
    assert missing.status_code == 404
    assert client.get(url).data == missing.data  # a device that never joined
    joined(client, t)
    assert client.get(url).status_code == 200
    with app.app_context():
        key = hostkey.host_key(get_db())
        from companion import results
        results.delete(get_db(), t["table"])
    assert client.get(url).data == missing.data  # deleted: the host's alone
    client.set_cookie("host_key", key)
    assert client.get(url).status_code == 200


@pytest.mark.parametrize("query", ["?theme=", "?theme=%FF%FE", "?theme=dark&theme=light", "?theme[]=1", "?%00=%00",
                                   "?theme=" + "x" * 5000, "?theme=DARK"])
def test_no_query_breaks_it(client, api, query):
    t = finished(api, "galileo")
    joined(client, t)
    answer = client.get(f"/t/{t['table']}/result.png{query}")
    assert answer.status_code == 200 and answer.mimetype == "image/png"


def test_the_colours_are_the_stylesheets():
    css = (ROOT / "static" / "app.css").read_text()
    light = css[css.index(":root {"):css.index("}", css.index(":root {"))]
    dark_at = css.index(":root {", css.index("prefers-color-scheme: dark"))
    dark = css[dark_at:css.index("}", dark_at)]
    for theme, block in (("light", light), ("dark", dark)):
        for name, value in result_image.THEMES[theme].items():
            assert re.search(rf"--{name}:\s*{value}\b", block, re.I), (theme, name, value)


def test_the_font_is_shipped_with_its_license():
    fonts = ROOT / "data" / "fonts"
    assert {p.name for p in fonts.iterdir()} >= {"DejaVuSans.ttf", "DejaVuSans-Bold.ttf", "LICENSE.txt"}
    assert "bitstream-vera" in (fonts / "LICENSE.txt").read_text()


def test_a_solo_voynich_with_its_scored_opponent_and_the_turn_clock(app, api):
    """Voynich solo scores its opponent: two rows for one player; the clock's play time is drawn where it ran."""
    import json

    from companion import tables
    from companion.web.connection import get_db
    from tests.voynich.test_result import SPACES, ZERO, row

    rows = [row(0, 38, (14, 21, 9, 6), (5, 4), {**ZERO, "astrology": [2, 1], "baths": [1, 0]}),
            row(1, 30, (11, 19, 16, 8), (), {**ZERO, "botany": [1, 2], "recipes": [0, 1]}, {"right": ["baths", "astrology"]},
                difficulty="extremely_hard", tokens_on_board=3)]
    t = api.create("voynich", ["Łucja Żółkiewska-Ąęńść"], calculator=True, colours=["green"])
    for type_, data in (("track", {"scoring_spaces": SPACES}), ("sheet", rows[1]), ("sheet", rows[0])):
        assert api.event(t, type_, data).status_code == 200
    with app.app_context():
        db = get_db()
        table = tables.load(db, t["table"])
        assert len(result_image.content(table, results.result(table)).rows) == 2
        outcome = results.result(table)["players"][0]["outcome"]
        with speech.speaking("fr"):  # the solo outcome in the reader's words, not the result's "win"/"loss"
            extra = result_image.content(table, results.result(table)).rows[0].extra
        assert extra == {"win": "Victoire contre Voynich", "loss": "Défaite contre Voynich"}[outcome]
        untimed = result_image.png(table, "pl", "dark")
        state = dict(table.state, clock={"ms": [3_725_000], "turns": [9], "running": None, "since": None,
                                         "turn_ms": 0, "paused": False, "limit_s": None})
        db.execute("UPDATE tables SET state = ? WHERE id = ?", [json.dumps(state), t["table"]])
        timed_table = tables.load(db, t["table"])
        with speech.speaking("pl"):
            assert result_image.content(timed_table, results.result(timed_table)).time.endswith("1 godz. 02 min")
        assert decoded(result_image.png(timed_table, "pl", "dark")).size == (1080, 1350)
        assert result_image.png(timed_table, "pl", "dark") != untimed


def test_the_kept_images_are_bounded_and_the_oldest_leaves_first(api, app):
    from companion import tables
    from companion.web.connection import get_db

    t = finished(api, "codex")
    kept = result_image.Images(size=3)
    with app.app_context():
        table = tables.load(get_db(), t["table"])
        first = kept.get(table, "en", "light")
        for lang in ("fr", "de", "pl"):
            kept.get(table, lang, "light")
        assert len(kept) == 3
        again = kept.get(table, "en", "light")  # drawn again: the same bytes, not the same object
        assert again == first and again is not first
        assert kept.get(table, "en", "light") is again  # kept now


def test_a_name_too_long_is_cut_to_fit():
    face = result_image.font(60, True)
    cut = result_image.fit("ŻÓŁWĄŚĆ" * 6, face, 400)
    assert cut.endswith("…") and face.getlength(cut) <= 400
    assert result_image.fit("Ben", face, 400) == "Ben"
    hyphen = "Żaneta Wróblewska-Kowalczyk"
    cuts = {result_image.fit(hyphen, face, room) for room in range(200, int(face.getlength(hyphen)), 4)}
    assert not any(c.endswith(("-…", " …")) for c in cuts) and any("Wróblewska…" == c[-11:] for c in cuts)


def test_the_play_time_reads_as_a_length_not_a_clock():
    """The playtest read "Play time: 0:09" (nine seconds) as hours and minutes."""
    assert result_image.lasted(9_000) == "less than a minute"
    assert result_image.lasted(42 * 60_000 + 20_000) == "42 min"
    assert result_image.lasted(3_725_000) == "1 h 02 min"
    with speech.speaking("de"):
        assert result_image.lasted(3_725_000) == "1 Std. 02 Min."


def test_the_image_leaves_out_parts_worth_nothing(api, app):
    """Galileo's calculator example has parts worth 0 (the Stake for most): the image shows the parts
    that scored, the result keeps every part."""
    from companion import tables
    from companion.web.connection import get_db

    t = finished(api, "galileo")
    with app.app_context():
        table = tables.load(get_db(), t["table"])
        doc = results.result(table)
        rows = result_image.content(table, doc).rows
    assert any(v == 0 for p in doc["players"] for v in p["breakdown"].values())
    assert all(v != 0 for row in rows for _label, v in row.parts)
    assert sum(len(row.parts) for row in rows) == sum(1 for p in doc["players"] for v in p["breakdown"].values() if v != 0)


@pytest.mark.parametrize("lang", speech.LANGUAGES)
def test_four_players_keep_every_part_in_every_language(api, app, monkeypatch, lang):
    """Galileo's example at four seats: the type shrinks a little before a part is left out (German's
    longer words dropped Dee's Penance, and her parts no longer added up to her total)."""
    from companion import tables
    from companion.web.connection import get_db

    squeezed = []
    original = result_image.Layout.squeeze

    def squeeze(self, room):
        before = list(self.lines)
        original(self, room)
        squeezed.append(before != self.lines)

    monkeypatch.setattr(result_image.Layout, "squeeze", squeeze)
    t = finished(api, "galileo", ["Żaneta Wróblewska-Kowalczyk", "Cy", "Ben", "Dee"])
    with app.app_context():
        result_image.png(tables.load(get_db(), t["table"]), lang, "light")
    assert squeezed == [False]
