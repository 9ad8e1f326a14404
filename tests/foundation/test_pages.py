"""Every page route with the Flask test client: joining, seats, forms, live polling, profiles, safety."""

import json
import re
import sqlite3

import pytest
from werkzeug.datastructures import MultiDict

from companion import games
from tests.examples import examples

GAME = "gutenberg"


def count(app, table):
    conn = sqlite3.connect(app.config["DATABASE"])
    try:
        return conn.execute(f"SELECT count(*) FROM {table}").fetchone()[0]
    finally:
        conn.close()


def start(client, names=("Anna", "Tom")):
    """Start a table through the form, as the first phone does; return its id."""
    form = [("players[]", n) for n in names] + [("players[]", "")] * (4 - len(names))
    response = client.post(f"/new/{GAME}", data=MultiDict(form))
    assert response.status_code == 303, response.data
    return response.headers["Location"].rsplit("/", 1)[-1]


def test_home_lists_games(client):
    page = client.get("/").get_data(as_text=True)
    assert "Start a table" in page and f"/new/{GAME}" in page


def test_unknown_game_page_is_404(client):
    assert client.get("/new/chess").status_code == 404


def test_start_a_table_sets_cookie_and_opens_it(client, app):
    table_id = start(client)
    page = client.get(f"/t/{table_id}").get_data(as_text=True)
    assert "Anna" in page and "Tom" in page
    assert "<svg" in page and "/join/" + table_id in page
    assert count(app, "tables") == 1


@pytest.mark.parametrize(
    "names, message_field",
    [((), "players"), (("Anna", "anna"), "players[1]"), (("x" * 41,), "players[0]")],
)
def test_new_table_form_errors_beside_field_and_store_nothing(client, app, names, message_field):
    form = [("players[]", n) for n in names] + [("players[]", "")] * (4 - len(names))
    response = client.post(f"/new/{GAME}", data=MultiDict(form))
    assert response.status_code == 400
    page = response.get_data(as_text=True)
    assert f'data-field="{message_field}"' in page or f"{message_field}:" in page
    assert count(app, "tables") == 0


def test_html_in_names_is_escaped(client):
    table_id = start(client, ["<script>alert(1)</script>", "<b>Tom</b>"])
    page = client.get(f"/t/{table_id}").get_data(as_text=True)
    assert "<script>alert(1)</script>" not in page and "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    assert "<b>Tom</b>" not in page


def test_without_the_secret_a_table_does_not_exist(client, app):
    table_id = start(client)
    stranger = app.test_client()
    missing = stranger.get("/t/doesnotexist")
    for path in (f"/t/{table_id}", f"/t/{table_id}/live"):
        response = stranger.get(path)
        assert response.status_code == 404 and response.get_data() == missing.get_data()
    for path in (f"/t/{table_id}/events", f"/t/{table_id}/undo", f"/t/{table_id}/seat"):
        assert stranger.post(path, data={"type": "rename", "expected_version:int": "0", "data.player:int": "0", "data.name": "X"}).status_code == 404
    assert stranger.get(f"/join/{table_id}/wrongsecret").status_code == 404
    assert count(app, "events") == 0


def test_join_address_sets_cookie_and_redirects_without_secret(client, app, api):
    t = api.create(GAME, ["Anna", "Tom"])
    phone = app.test_client()
    path = t["join_url"].split("://", 1)[1].split("/", 1)[1]
    response = phone.get("/" + path)
    assert response.status_code == 303
    assert response.headers["Location"].endswith(f"/t/{t['table']}")
    assert t["token"] not in response.headers["Location"]
    assert "HttpOnly" in response.headers["Set-Cookie"] and "SameSite=Lax" in response.headers["Set-Cookie"]
    assert "Anna" in phone.get(f"/t/{t['table']}").get_data(as_text=True)


def test_seat_is_remembered(client):
    table_id = start(client)
    page = client.get(f"/t/{table_id}").get_data(as_text=True)
    assert "Who are you?" in page and '<body data-table="' in page and 'data-seat=""' in page and "data-seat-chosen" not in page
    response = client.post(f"/t/{table_id}/seat", data={"seat": "1"})
    assert response.status_code == 303
    page = client.get(f"/t/{table_id}").get_data(as_text=True)
    # the page says the seat (static/js/seat.js marks "you" and app.css hides the chooser; the browser tests look)
    assert re.search(r'<body [^>]*data-seat="1" data-seat-chosen>', page)
    assert re.search(r'class="player" data-you="1">\s*<span class="sb-name"><bdi>Tom<', page)
    assert client.post(f"/t/{table_id}/seat", data={"seat": "7"}).status_code == 400
    assert client.post(f"/t/{table_id}/seat", data={"seat": "watch"}).status_code == 303
    assert re.search(r'<body [^>]*data-seat="" data-seat-chosen>', client.get(f"/t/{table_id}").get_data(as_text=True))


def rename_form(version, player, name, **extra):
    return {"type": "rename", "expected_version:int": str(version), "data.player:int": str(player), "data.name": name, **extra}


def test_form_event_without_js_redirects(client, app):
    table_id = start(client)
    response = client.post(f"/t/{table_id}/events", data=rename_form(0, 0, "Anne"))
    assert response.status_code == 303
    assert "Anne" in client.get(f"/t/{table_id}").get_data(as_text=True)
    assert count(app, "events") == 1


def test_a_pages_form_sent_without_javascript_names_no_version_and_is_applied(client, app):
    """The page's forms carry no expected_version (the page's script adds it): without JavaScript the
    browser posts the form as it is, and the write is taken on the table as it is now."""
    table_id = start(client)
    form = {k: v for k, v in rename_form(0, 0, "Anne").items() if k != "expected_version:int"}
    assert client.post(f"/t/{table_id}/events", data=form).status_code == 303
    assert client.post(f"/t/{table_id}/undo", data={}).status_code == 303
    assert count(app, "events") == 2
    # with htmx, the page's script always sends it: one missing is refused, as the API refuses it
    refused = client.post(f"/t/{table_id}/events", data=form, headers={"HX-Request": "true"})
    assert refused.status_code == 400 and count(app, "events") == 2


def test_form_event_with_htmx_returns_only_the_live_region(client):
    table_id = start(client)
    whole = client.post(f"/t/{table_id}/events", data=rename_form(0, 0, "Anne"), headers={"HX-Request": "true"})
    body = whole.get_data(as_text=True)
    assert whole.status_code == 200 and whole.headers["X-Table-Version"] == "1"
    # a page that does not say which version it shows gets the whole region, morphed in out of band
    assert body.lstrip().startswith('<div hx-swap-oob="morph" data-v="1" id="table-live"') and "<html" not in body
    assert "Anne" in body
    # one that does gets the parts that changed: the renamed player's row, not the region
    parts = client.post(f"/t/{table_id}/events", data=rename_form(1, 0, "Anny"), headers={"HX-Request": "true", "X-Table-Has": "1"})
    body = parts.get_data(as_text=True)
    assert parts.status_code == 200 and parts.headers["X-Table-Version"] == "2"
    assert 'id="table-live"' not in body and '<li hx-swap-oob="morph" data-v="2" id="sb-0"' in body and "Anny" in body


def test_form_errors_show_and_change_nothing(client, app):
    table_id = start(client)
    response = client.post(f"/t/{table_id}/events", data=rename_form(0, 0, "Tom"), headers={"HX-Request": "true"})
    assert response.status_code == 400
    assert 'data-field="data.name"' in response.get_data(as_text=True)
    response = client.post(f"/t/{table_id}/events", data=rename_form(0, 0, "X", **{"data.player:int": "abc"}))
    assert response.status_code == 400 and "must be a whole number" in response.get_data(as_text=True)
    response = client.post(f"/t/{table_id}/events", data=rename_form(3, 0, "Zed"), headers={"HX-Request": "true"})
    assert response.status_code == 409 and "changed on another phone" in response.get_data(as_text=True)
    assert count(app, "events") == 0


def test_undo_form(client):
    table_id = start(client)
    assert client.post(f"/t/{table_id}/undo", data={"expected_version:int": "0"}).status_code == 400
    client.post(f"/t/{table_id}/events", data=rename_form(0, 0, "Anne"))
    assert client.post(f"/t/{table_id}/undo", data={"expected_version:int": "1"}).status_code == 303
    page = client.get(f"/t/{table_id}").get_data(as_text=True)
    assert "Undo: Player 1 is now called <bdi>Anne</bdi>" in page
    assert re.search(r'class="player" data-you="0">\s*<span class="sb-name"><bdi>Anna<', page)


def test_live_poll_answers_304_until_the_table_changes(client):
    table_id = start(client)
    first = client.get(f"/t/{table_id}/live", headers={"HX-Request": "true"})
    tag = first.headers["ETag"]
    assert first.status_code == 200 and first.get_data(as_text=True).lstrip().startswith('<div hx-swap-oob="morph" data-v="0" id="table-live"')
    assert client.get(f"/t/{table_id}/live", headers={"If-None-Match": tag}).status_code == 304
    client.post(f"/t/{table_id}/events", data=rename_form(0, 1, "Kate"))
    changed = client.get(f"/t/{table_id}/live", headers={"If-None-Match": tag})
    assert changed.status_code == 200 and "Kate" in changed.get_data(as_text=True) and changed.headers["ETag"] != tag


def test_page_and_fragment_come_from_one_template(client):
    table_id = start(client)
    page = client.get(f"/t/{table_id}").get_data(as_text=True)
    fragment = client.get(f"/t/{table_id}", headers={"HX-Request": "true"}).get_data(as_text=True)
    assert "<html" in page and "<html" not in fragment
    assert fragment.strip() in page


def test_history_in_plain_words(client):
    table_id = start(client)
    client.post(f"/t/{table_id}/events", data=rename_form(0, 1, "Kate"))
    assert "Player 2 is now called <bdi>Kate</bdi>" in client.get(f"/t/{table_id}").get_data(as_text=True)


def test_security_headers(client):
    response = client.get("/")
    csp = response.headers["Content-Security-Policy"]
    assert "script-src 'self'" in csp and "unsafe-inline" not in csp.split("script-src", 1)[1].split(";")[0]
    assert response.headers["X-Content-Type-Options"] == "nosniff"
    assert response.headers["Referrer-Policy"] == "same-origin"


def test_pages_have_no_inline_scripts(client):
    table_id = start(client)
    for path in ("/", f"/new/{GAME}", f"/t/{table_id}", "/profiles/"):
        page = client.get(path).get_data(as_text=True)
        assert not re.search(r"<script(?![^>]*\bsrc=)[^>]*>", page), path
        assert not re.search(r"\son[a-z]+=", page), path


def test_cross_site_post_is_refused(client, app):
    for headers in ({"Sec-Fetch-Site": "cross-site"}, {"Sec-Fetch-Site": "same-site"}, {"Origin": "http://evil.example"},
                    {"Origin": "null"}, {"Sec-Fetch-Site": "cross-site", "Origin": "http://localhost"}):
        response = client.post(f"/new/{GAME}", data={"players[]": "Anna"}, headers=headers)
        assert response.status_code == 403
        response = client.post("/api/v1/tables", json={"game": GAME, "players": ["A"]}, headers=headers)
        assert response.status_code == 403
    assert count(app, "tables") == 0
    ok = client.post(f"/new/{GAME}", data=MultiDict([("players[]", "Anna"), ("players[]", "Tom")]), headers={"Origin": "http://localhost", "Sec-Fetch-Site": "same-origin"})
    assert ok.status_code == 303


def test_htmx_is_vendored_with_its_checksum(client):
    import hashlib
    from pathlib import Path

    from companion.paths import STATIC

    sums = (STATIC / "vendor" / "SHA256SUMS").read_text().split()
    name = sums[1]
    assert re.fullmatch(r"htmx-2\.\d+\.\d+\.min\.js", name)
    assert hashlib.sha256(Path(STATIC / "vendor" / name).read_bytes()).hexdigest() == sums[0]
    page = client.get("/").get_data(as_text=True)
    assert f"/static/vendor/{name}" in page and "https://" not in page
    with client.get(f"/static/vendor/{name}") as response:
        assert response.status_code == 200


def vendored(pattern: str) -> str:
    """The name of the one vendored file that matches `pattern`, checked against its SHA256SUMS line."""
    import hashlib

    from companion.paths import STATIC

    sums = dict(reversed(line.split()) for line in (STATIC / "vendor" / "SHA256SUMS").read_text().splitlines())
    (name,) = [n for n in sums if re.fullmatch(pattern, n)]
    assert hashlib.sha256((STATIC / "vendor" / name).read_bytes()).hexdigest() == sums[name]
    return name


def test_the_sse_extension_is_vendored_with_its_checksum_and_pulled_by_table_pages(client, api):
    name = vendored(r"htmx-ext-sse-2\.\d+\.\d+\.min\.js")
    t = api.create("codex", ["Anna", "Tom"])
    client.get(f"/join/{t['table']}/{t['token']}")
    page = client.get(f"/t/{t['table']}").get_data(as_text=True)
    assert f"/static/vendor/{name}" in page and 'sse-connect="/t/' in page
    assert f"/static/vendor/{name}" not in client.get("/").get_data(as_text=True)  # only where there is a table


def test_idiomorph_is_vendored_with_its_checksum_and_table_pages_morph_with_it(client, api):
    name = vendored(r"idiomorph-ext-0\.\d+\.\d+\.min\.js")
    t = api.create("gutenberg", ["Anna", "Tom"])
    client.get(f"/join/{t['table']}/{t['token']}")
    page = client.get(f"/t/{t['table']}").get_data(as_text=True)
    assert f"/static/vendor/{name}" in page and re.search(r'<body [^>]*hx-ext="morph"', page)


@pytest.mark.parametrize("key", sorted(games.registry()))
def test_the_live_region_never_names_the_version_so_a_part_changes_only_with_what_it_shows(client, api, key):
    """The version travels as data (X-Table-Version, the event's id), never in the region: a form's
    expected_version is added by the page as it is sent (companion/web/parts.py)."""
    t = api.create(key, examples(key).PLAYERS)
    client.get(f"/join/{t['table']}/{t['token']}")
    for version in range(3):
        region = client.get(f"/t/{t['table']}/live", headers={"HX-Request": "true"})
        assert region.headers["X-Table-Version"] == str(version)
        html = region.get_data(as_text=True)
        assert "expected_version" not in html and "data-version" not in html and "If-None-Match" not in html
        assert f'data-v="{version}"' in html and html.count("data-v=") == 1  # the region sent whole: one part
        assert 'aria-live' not in html.split(">", 1)[0] and 'role="status"' not in html.split(">", 1)[0]
        api.event(t, "rename", {"player": 0, "name": f"Anna{version}"})


# --- box profiles --------------------------------------------------------------------------


def test_profile_create_export_import_and_errors(client, app):
    assert client.get("/profiles/").status_code == 200
    assert client.get(f"/profiles/new/{GAME}").status_code == 200
    response = client.post(f"/profiles/new/{GAME}", data={"profile_name": "Our box"})
    assert response.status_code == 303
    pid = int(response.headers["Location"].rsplit("/", 1)[-1])
    exported = client.get(f"/profiles/{pid}.json")
    doc = json.loads(exported.data)
    assert doc["game"] == GAME and doc["name"] == "Our box" and "attachment" in exported.headers["Content-Disposition"]
    # same name again is refused, nothing stored
    response = client.post(f"/profiles/new/{GAME}", data={"profile_name": "our box"})
    assert response.status_code == 400 and 'data-field="profile_name"' in response.get_data(as_text=True)
    assert count(app, "profiles") == 1
    # import under a new name
    import io

    doc["name"] = "Copy"
    response = client.post("/profiles/import", data={"file": (io.BytesIO(json.dumps(doc).encode()), "p.json")})
    assert response.status_code == 303
    assert count(app, "profiles") == 2
    for bad in (b"{nope", json.dumps({"game": "chess", "name": "x", "data": {}}).encode()):
        response = client.post("/profiles/import", data={"file": (io.BytesIO(bad), "p.json")})
        assert response.status_code == 400
    assert count(app, "profiles") == 2
    assert client.get("/profiles/999").status_code == 404


def test_table_started_with_profile_keeps_a_copy(client, app, api):
    response = client.post(f"/profiles/new/{GAME}", data={"profile_name": "Box"})
    pid = int(response.headers["Location"].rsplit("/", 1)[-1])
    t = api.create(GAME, ["Anna", "Tom"], profile=pid)
    assert t["version"] == 0
    response = client.post("/api/v1/tables", json={"game": GAME, "players": ["A", "B"], "profile": 999})
    assert response.status_code == 400 and response.get_json()["field"] == "profile"


def test_home_lists_the_tables_this_device_joined(client, app):
    table_id = start(client, ["Mia", "Noa"])
    page = client.get("/").get_data(as_text=True)
    assert "Your tables on this device" in page and f"/t/{table_id}" in page and "<bdi>Mia</bdi>, <bdi>Noa</bdi>" in page
    stranger = app.test_client()
    assert "Your tables on this device" not in stranger.get("/").get_data(as_text=True)
    stranger.set_cookie(f"tc_{table_id}", "forged")
    assert f"/t/{table_id}" not in stranger.get("/").get_data(as_text=True)
