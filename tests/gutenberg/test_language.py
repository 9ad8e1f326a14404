"""Gutenberg read in each phone's language (issue 29): the panel, the history and the notices are
translated on the page, Polish plurals take their three forms, and English and the API stay as they were."""

import json
import re
from pathlib import Path

from werkzeug.datastructures import MultiDict

from companion.games import base, speech
from companion.games.gutenberg import facts

ROOT = Path(__file__).resolve().parents[2]


def ok(response):
    assert response.status_code == 200, response.get_json()
    return response.get_json()


def open_table(client, t) -> str:
    """Open the join address on this client, as a phone scanning the QR code does; return the table's page."""
    path = "/" + t["join_url"].split("//", 1)[1].split("/", 1)[1]
    response = client.get(path)
    assert response.status_code == 303
    return response.headers["Location"]


def page(client, url: str, lang: str | None) -> str:
    """The table's page as a phone reading `lang` gets it (None: no choice made, English)."""
    if lang:
        client.set_cookie("lang", lang)
    else:
        client.delete_cookie("lang")
    response = client.get(url)
    assert response.status_code == 200
    return response.get_data(as_text=True)


def post(client, url: str, lang: str, type_: str, **data):
    """Post an event's form from a phone reading `lang`, as htmx does (data.KEY:int fields)."""
    client.set_cookie("lang", lang)
    form = MultiDict([("type", type_), ("expected_version:int", "0")] + [(f"data.{k}:int", str(v)) for k, v in data.items()])
    return client.post(f"/t/{url.rsplit('/', 1)[-1]}/events", data=form, headers={"HX-Request": "true"})


def guilder_table(client, api):
    """A table of two where Ana gained 1, 2, 5 and 22 guilders: four history lines."""
    t = api.create("gutenberg", ["Ana", "Ben"])
    url = open_table(client, t)
    for delta in (1, 2, 5, 22):
        ok(api.event(t, "guilders", {"player": 0, "delta": delta}))
    return t, url


def test_polish_history_says_guilders_in_three_forms(client, api):
    t, url = guilder_table(client, api)
    body = page(client, url, "pl")
    forms = {}
    for n in (1, 2, 5, 22):
        found = re.search(rf"\+{n} (guld[a-zó]*)", body)
        assert found, f"no Polish history line for +{n}"
        forms[n] = found.group(1)
    # Polish: 1 gulden, 2 and 22 guldeny, 5 guldenów
    assert forms == {1: "gulden", 2: "guldeny", 5: "guldenów", 22: "guldeny"}
    assert len(set(forms.values())) == 3
    assert "guilders" not in body.split('id="history"')[1].split("</details>")[0]


def test_french_panel_and_history_use_the_edition_terms(client, api):
    t, url = guilder_table(client, api)
    body = page(client, url, "fr")
    assert "Manche 1 sur 6" in body and "Round 1 of 6" not in body
    assert "Prendre des commandes" in body and "Développer des compétences" in body  # the acting order
    assert "Acheter un caractère : 4 florins" in body  # [GB242-244] the 4th type costs 4
    assert re.search(r"\+1 florin(?!s)", body) and re.search(r"\+22 florins", body)


def test_english_page_is_unchanged(client, api):
    t, url = guilder_table(client, api)
    body = page(client, url, None)
    assert "Round 1 of 6" in body and "Buy a type: 4 guilders" in body and "Take orders" in body
    assert re.search(r"\+1 guilders", body) and re.search(r"\+22 guilders", body)  # the English's one form, as before
    assert "gulden" not in body and "florin" not in body


def test_a_notice_is_said_in_each_phones_language_and_the_api_keeps_english(client, api):
    t = api.create("gutenberg", ["Ana", "Ben"])
    url = open_table(client, t)
    assert post(client, url, "pl", "buy_types", player=0, count=1).status_code == 200
    # posted from a Polish phone: the state keeps the English, as the API always said it
    assert api.get(t)["state"]["notice"]["text"] == "paid 4 guilders for 1 type"
    assert api.get(t)["state"]["notice"] == {"player": 0, "text": "paid 4 guilders for 1 type"}  # its shape as before
    assert "zapłacono 4 guldeny za: 1 czcionka" in page(client, url, "pl")
    assert "a payé 4 florins pour 1 caractère" in page(client, url, "fr")
    assert "paid 4 guilders for 1 type" in page(client, url, None)


def test_a_polish_refusal_on_the_page_and_an_english_one_from_the_api(client, api):
    t = api.create("gutenberg", ["Ana", "Ben"])
    url = open_table(client, t)
    body = post(client, url, "pl", "guilders", player=0, delta=-11).get_data(as_text=True)
    assert "liczby nie mogą spaść poniżej 0" in body
    answer = api.event(t, "guilders", {"player": 0, "delta": -11})
    assert answer.status_code == 400 and answer.get_json()["error"] == "would leave -1 guilders; counts cannot go below 0"


def test_every_word_facts_json_shows_is_marked():
    """facts.json's labels, rules and titles reach pages: each is marked (facts.SHOWN) for the catalogs."""
    data = json.loads((ROOT / "data" / "gutenberg" / "facts.json").read_text("utf-8"))
    shown = [a["label"] for a in data["actions"]] + [s["label"] for s in data["specialties"]]
    shown += [c["rule"] for c in data["characters"]] + [t["title"] for t in data["titles"]]
    assert set(shown) <= set(facts.SHOWN)
    with speech.speaking("de"):
        assert [facts.action(a["key"]) for a in data["actions"]][:2] == ["Aufträge annehmen", "Tinte besorgen"]


def test_a_state_stored_before_its_notice_was_kept_says_its_english_notice():
    state = {"notice": {"player": 0, "text": "paid 4 guilders for 1 type"},
             "notice_later": speech.later.gettext("paid %(guilders)s for %(types)s", guilders=facts.say_guilders(4),
                                                  types=speech.later.ngettext("%(num)d type", "%(num)d types", 1))}
    with speech.speaking("pl"):
        assert base.shown_notice(state, ["Ana", "Ben"])["text"] == "zapłacono 4 guldeny za: 1 czcionka"
        older = {"notice": state["notice"]}
        assert base.shown_notice(older, ["Ana", "Ben"]) == {"player": 0, "text": "paid 4 guilders for 1 type"}
