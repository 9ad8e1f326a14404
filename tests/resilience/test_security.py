"""Security: a table's secret guards every route, text stays text, other sites cannot post, headers hold.

tests/foundation covers the four API calls and three pages by hand; these read the routes
off the app's URL map, so a route added later is held to the same rules.
"""

from __future__ import annotations

import base64
import re
import sqlite3
import tempfile

import pytest
from werkzeug.datastructures import MultiDict

from companion import create_app, games

from tests.foundation.test_plays import host_client

from .fuzzing import some_profile

GAME = next(iter(games.registry()))
PAYLOADS = ['<script>window.__pwned=1</script>', '"><img src=x onerror="window.__pwned=1">', "';alert(1)//<b>"]


def _routes():
    with tempfile.TemporaryDirectory() as tmp:
        app = create_app({"TESTING": True, "DATA_DIR": tmp})
        return sorted(((r.endpoint, r.rule, m) for r in app.url_map.iter_rules() if r.endpoint != "static"
                       for m in r.methods - {"HEAD", "OPTIONS"}))


ROUTES = _routes()
TABLE_ROUTES = [r for r in ROUTES if "<table_id>" in r[1]]
POST_ROUTES = [r for r in ROUTES if r[2] == "POST"]


def counts(app) -> tuple[int, int, int]:
    conn = sqlite3.connect(app.config["DATABASE"])
    try:
        return tuple(conn.execute(f"SELECT count(*) FROM {t}").fetchone()[0] for t in ("tables", "events", "profiles"))
    finally:
        conn.close()


def build(app, endpoint: str, method: str, **values) -> str:
    rule = next(r for r in app.url_map.iter_rules() if r.endpoint == endpoint and method in r.methods)
    known = {"game_key": GAME, "game": GAME, "function": "score", "secret": "x", "profile_id": 1}
    args = {name: values.get(name, known.get(name)) for name in rule.arguments}
    return app.url_map.bind("localhost").build(endpoint, args, method=method)


def event_body(method: str):
    if method != "POST":
        return {}
    return {"json": {"type": "rename", "data": {"player": 0, "name": "Hijack"}, "expected_version": 0}}


# --- a table's secret --------------------------------------------------------------------------


@pytest.mark.parametrize("endpoint, rule, method", TABLE_ROUTES, ids=[f"{m} {r}" for _, r, m in TABLE_ROUTES])
def test_every_table_route_is_404_without_its_own_secret(app, api, endpoint, rule, method):
    mine = api.create(GAME, ["Anna", "Tom"])
    other = api.create(GAME, ["Zed", "Ann"])
    before = counts(app)
    path = build(app, endpoint, method, table_id=mine["table"], secret=other["token"])
    missing_path = build(app, endpoint, method, table_id="nosuchtable", secret=other["token"])
    form = {"type": "rename", "expected_version:int": "0", "data.player:int": "0", "data.name": "Hijack", "seat": "0"}
    for credential in ("none", "other table's secret", "wrong", "own secret in a cookie of the API"):
        client = app.test_client()
        headers = {}
        if credential == "other table's secret":
            client.set_cookie(f"tc_{mine['table']}", other["token"])
            headers["X-Table-Token"] = other["token"]
        elif credential == "wrong":
            client.set_cookie(f"tc_{mine['table']}", mine["token"][:-1])
            headers["X-Table-Token"] = mine["token"][:-1]
        elif credential == "own secret in a cookie of the API":
            if not path.startswith("/api/"):
                continue
            client.set_cookie(f"tc_{mine['table']}", mine["token"])  # the API takes its header only
        kwargs = event_body(method) if path.startswith("/api/") else ({"data": form} if method == "POST" else {})
        response = client.open(path, method=method, headers=headers, **kwargs)
        missing = client.open(missing_path, method=method, headers=headers, **kwargs)
        assert response.status_code == 404, (credential, path, response.status_code)
        assert response.get_data() == missing.get_data(), (credential, path)
    assert counts(app) == before
    assert api.get(mine)["players"] == [{"name": "Anna"}, {"name": "Tom"}]


def test_secrets_carry_at_least_128_bits(api, client):
    made = [api.create(GAME, ["Anna", "Tom"]) for _ in range(64)]
    tokens = [t["token"] for t in made]
    assert len(set(tokens)) == len(tokens)
    for t in made:
        raw = base64.urlsafe_b64decode(t["token"] + "=" * (-len(t["token"]) % 4))
        assert len(raw) * 8 >= 128, t["token"]
        assert t["token"] in t["join_url"] and t["table"] not in t["token"]
    # drawn from the whole alphabet, not a counter or a clock: 64 tokens use nearly all 64 symbols
    assert len(set("".join(tokens))) >= 60
    # the cookies that hold a secret are out of reach of scripts and of other sites' posts
    response = client.post(f"/new/{GAME}", data=MultiDict([("players[]", "Anna"), ("players[]", "Tom")]))
    cookie = response.headers["Set-Cookie"]
    assert "HttpOnly" in cookie and "SameSite=Lax" in cookie


# --- text stays text -----------------------------------------------------------------------------


def assert_inert(html: str, where: str) -> None:
    for payload in PAYLOADS:
        assert payload not in html, (where, payload)
    assert not re.search(r"<script(?![^>]*\bsrc=)", html), where
    assert not re.search(r"<img[^>]*onerror", html, re.I), where


def test_html_in_every_text_field_renders_as_text(app, client, api):
    hostile = PAYLOADS[1][:40]
    # player names, through the form and the API
    response = client.post(f"/new/{GAME}", data=MultiDict([("players[]", PAYLOADS[0][:40]), ("players[]", PAYLOADS[2])]))
    table_id = response.headers["Location"].rsplit("/", 1)[-1]
    t = api.create(GAME, [hostile, "Tom"])
    client.set_cookie(f"tc_{t['table']}", t["token"])
    # a rename through the page's form, and one refused (its error message quotes the name)
    client.post(f"/t/{t['table']}/events", data={"type": "rename", "expected_version:int": "0", "data.player:int": "1",
                                                  "data.name": PAYLOADS[2]})
    refused = client.post(f"/t/{t['table']}/events", headers={"HX-Request": "true"},
                          data={"type": "rename", "expected_version:int": "1", "data.player:int": "0", "data.name": PAYLOADS[2]})
    assert refused.status_code == 400
    # a form field's own name is echoed in the error (data-field); a screen is echoed in a hidden input
    odd_field = client.post(f"/t/{t['table']}/events", headers={"HX-Request": "true"},
                            data={"type": "rename", "expected_version:int": "1", f'{PAYLOADS[1]}:int': "x"})
    # profile names
    client.post(f"/profiles/new/{GAME}", data={"profile_name": PAYLOADS[2]})
    bad_profile = client.post(f"/profiles/new/{GAME}", data={"profile_name": PAYLOADS[0] * 3})
    pages = {
        "start form": client.get(f"/new/{GAME}"),
        "table from the form": client.get(f"/t/{table_id}"),
        "table": client.get(f"/t/{t['table']}", query_string={"screen": PAYLOADS[1]}),
        "live": client.get(f"/t/{t['table']}/live", query_string={"screen": PAYLOADS[0]}),
        "refused rename": refused,
        "odd field": odd_field,
        "profiles": client.get("/profiles/"),
        "refused profile": bad_profile,
        "missing game": client.get("/new/" + PAYLOADS[0].replace("/", "")),
    }
    for where, response in pages.items():
        assert response.status_code < 500, where
        assert_inert(response.get_data(as_text=True), where)
    table_page = pages["table"].get_data(as_text=True)
    assert "&lt;img src=x onerror=" in table_page and "&#39;;alert(1)//&lt;b&gt;" in table_page
    # the JSON API quotes text as JSON, never as a page a browser would render
    for response in (client.get(f"/api/v1/tables/{t['table']}", headers={"X-Table-Token": t["token"]}),
                     client.post("/api/v1/tables", json={"game": GAME, "players": [PAYLOADS[0] * 2]})):
        assert response.mimetype == "application/json" and response.headers["X-Content-Type-Options"] == "nosniff"


# --- other sites cannot post -----------------------------------------------------------------------

CROSS_SITE = [{"Sec-Fetch-Site": "cross-site"}, {"Sec-Fetch-Site": "same-site"}, {"Origin": "http://evil.example"},
              {"Origin": "null"}, {"Sec-Fetch-Site": "cross-site", "Origin": "http://localhost"}]


@pytest.mark.parametrize("endpoint, rule, method", POST_ROUTES, ids=[r for _, r, _ in POST_ROUTES])
def test_every_post_route_refuses_another_site(app, api, endpoint, rule, method):
    t = api.create(GAME, ["Anna", "Tom"])
    profile_id = some_profile(app.test_client())
    path = build(app, endpoint, method, table_id=t["table"], secret=t["token"], profile_id=profile_id)
    before = counts(app)
    # as the host (the host key's cookie), so that a host-only route's 403 to anyone else is not taken
    # for the cross-site refusal: every refusal below is the cross-site check's
    client = host_client(app)
    client.set_cookie(f"tc_{t['table']}", t["token"])
    before = counts(app)
    kwargs = event_body(method) if path.startswith("/api/") else {"data": {"players[]": "Anna", "profile_name": "X",
                                                                            "expected_version:int": "0", "seat": "0"}}
    for headers in CROSS_SITE:
        response = client.post(path, headers=dict(headers, **{"X-Table-Token": t["token"]}), **kwargs)
        assert response.status_code == 403, (headers, response.status_code)
    assert counts(app) == before
    # the same post from the app's own page goes through the check (whatever the route makes of it)
    same = client.post(path, headers={"Sec-Fetch-Site": "same-origin", "Origin": "http://localhost",
                                      "X-Table-Token": t["token"]}, **kwargs)
    assert same.status_code != 403


# --- headers ----------------------------------------------------------------------------------------


def csp_directives(value: str) -> dict[str, list[str]]:
    out = {}
    for part in filter(None, (p.strip() for p in value.split(";"))):
        name, *sources = part.split()
        out[name] = sources
    return out


def test_every_kind_of_answer_carries_the_security_headers(app, client, api):
    t = api.create(GAME, ["Anna", "Tom"])
    client.set_cookie(f"tc_{t['table']}", t["token"])
    live = client.get(f"/t/{t['table']}/live")
    answers = {
        "home": client.get("/"),
        "table page": client.get(f"/t/{t['table']}"),
        "live 200": live,
        "live 304": client.get(f"/t/{t['table']}/live", headers={"If-None-Match": live.headers["ETag"]}),
        "join redirect": client.get("/" + t["join_url"].split("://", 1)[1].split("/", 1)[1]),
        "api 200": client.get(f"/api/v1/tables/{t['table']}", headers={"X-Table-Token": t["token"]}),
        "api 400": client.post("/api/v1/tables", data="{"),
        "api 404": client.get("/api/v1/tables/nope"),
        "page 404": client.get("/t/nope"),
        "405": client.put("/"),
        "403 cross-site": client.post("/api/v1/tables", json={}, headers={"Sec-Fetch-Site": "cross-site"}),
        "static": client.get("/static/js/main.js"),
    }
    assert answers["live 304"].status_code == 304 and answers["join redirect"].status_code == 303
    for where, response in answers.items():
        csp = csp_directives(response.headers.get("Content-Security-Policy", ""))
        assert csp.get("script-src") == ["'self'"], where  # own scripts only: no inline, no eval, no other host
        assert csp.get("default-src") == ["'self'"], where
        assert csp.get("object-src") == ["'none'"] and csp.get("frame-ancestors") == ["'none'"], where
        assert csp.get("base-uri") in (["'none'"], ["'self'"]) and csp.get("form-action") == ["'self'"], where
        assert response.headers.get("X-Content-Type-Options") == "nosniff", where
        # join addresses carry the secret: the Referer must never take it to another site
        assert response.headers.get("Referrer-Policy") in ("no-referrer", "same-origin"), where
        response.close()


@pytest.mark.parametrize("game_key", list(games.registry()))
def test_every_game_page_keeps_to_the_policy(client, api, game_key):
    game = games.get(game_key)
    t = api.create(game_key, ["Anna", "Tom", "Kate", "Ben"][: max(game.min_players, 2)])
    client.set_cookie(f"tc_{t['table']}", t["token"])
    for path in (f"/t/{t['table']}", f"/new/{game_key}", f"/profiles/new/{game_key}"):
        page = client.get(path).get_data(as_text=True)
        assert not re.search(r"<script(?![^>]*\bsrc=)[^>]*>", page), path  # inline scripts are blocked by the CSP
        assert not re.search(r"\son[a-z]+\s*=", page, re.I), path  # so are inline handlers
        assert not re.search(r"\shx-on[:-]", page) and "javascript:" not in page.lower(), path  # hx-on needs eval
        for src in re.findall(r"<script[^>]*\bsrc=\"([^\"]+)\"", page):
            assert src.startswith("/static/"), (path, src)  # own scripts, served from here
    meta = re.search(r'<meta name="htmx-config" content=\'([^\']+)\'', client.get(f"/t/{t['table']}").get_data(as_text=True))
    assert meta and '"allowEval": false' in meta.group(1) and '"includeIndicatorStyles": false' in meta.group(1)


# --- in a real browser --------------------------------------------------------------------------------


@pytest.mark.browser
@pytest.mark.slow
def test_hostile_names_stay_text_and_htmx_works_under_the_policy(server, phone):
    names = [PAYLOADS[0][:40], PAYLOADS[1][:40]]
    t = server.api("/api/v1/tables", {"game": GAME, "players": names})
    violations = []
    phone.on("console", lambda msg: violations.append(msg.text) if "Content Security Policy" in msg.text else None)
    phone.goto(f"{server.url}/join/{t['table']}/{t['token']}")
    phone.wait_for_url("**/t/*")
    shown = phone.locator(".players-line .sb-name").all_inner_texts()
    assert shown == [n.strip() for n in names]
    assert phone.evaluate("window.__pwned") is None
    # htmx runs under the policy: a rename swaps the live region in place (no page load)
    phone.evaluate("window.__same_page = true")
    phone.locator(".seat-chooser").get_by_role("button", name="Just watch").click()
    phone.wait_for_load_state()
    phone.evaluate("window.__same_page = true")
    phone.locator("summary", has_text="Players and seats").click()
    phone.locator("input[data-rename='0']").fill("Anna")
    phone.locator("input[data-rename='0']").locator("xpath=ancestor::form").get_by_role("button", name="Rename").click()
    phone.locator(".players-line .player", has_text="Anna").wait_for(timeout=5000)
    assert phone.evaluate("window.__same_page") is True
    assert phone.evaluate("window.__pwned") is None
    assert violations == []
