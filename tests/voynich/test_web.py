"""The Voynich table through the real app: JSON API, HTML forms, the profile form, the rules endpoints."""

import json
from html.parser import HTMLParser
import re
from urllib.parse import urlsplit

from werkzeug.datastructures import MultiDict

CARDS = {"botany": [3, 8], "astrology": [12, 15], "baths": [21, 24], "writings": [30, 33], "recipes": [36, 39]}
PROFILE_FORM = {
    "profile_name": "Our Voynich box",
    "track.scoring_spaces:json": '{"10": 3, "20": 6, "30": 10}',
    "track.insights:json": "[4, 9, 15]",
    "grid:json": "[[2, 3], [4, 5]]",
    "solo_spaces.astrology:json": "[5, 13, 22, 31, 38]",
}


def make_profile(client, form=PROFILE_FORM):
    response = client.post("/profiles/new/voynich", data=form)
    assert response.status_code == 303, response.get_data(as_text=True)
    return int(response.headers["Location"].rsplit("/", 1)[-1])


def open_table(client, api, names, **options):
    t = api.create("voynich", names, **options)
    join(client, t)
    return t


def join(client, t):
    """Open the join address on this client, as the QR code does."""
    assert client.get(urlsplit(t["join_url"]).path).status_code == 303


def post(client, t, type_, fields, htmx=True):
    version = client.get(f"/api/v1/tables/{t['table']}", headers={"X-Table-Token": t["token"]}).get_json()["version"]
    data = MultiDict([("type", type_), ("expected_version:int", str(version))] + list(fields))
    return client.post(f"/t/{t['table']}/events", data=data, headers={"HX-Request": "true"} if htmx else {})


# --- JSON API ------------------------------------------------------------------------------

def test_rules_functions_over_http(api):
    response = api.rules("voynich", "priority_scan", {"priority": 18, "present": [22, 7]})
    assert response.status_code == 200 and response.get_json() == {"order": [7, 22]}
    response = api.rules("voynich", "final_turns", {"players": ["A", "B", "C"], "trigger": "B"})
    assert response.get_json() == {"turns": ["C", "A", "B", "C"]}
    response = api.rules("voynich", "solo_turns", {"cards": CARDS, "difficulty": "easy", "turns": 3, "seed": 5})
    assert len(response.get_json()["turns"]) == 3
    bad = {"track": {"scoring_spaces": {"10": 3}},
           "players": [{"name": "A", "gk": 1, "markers": {"botany": 0, "astrology": 0, "baths": 0, "writings": 0},
                        "research": [], "pages": [{"section": "baths", "multiplier": 3}]}]}
    response = api.rules("voynich", "score", bad)
    assert response.status_code == 400
    assert response.get_json()["field"] == "players[0].pages[0].multiplier"


def test_events_through_the_api_and_bad_input_changes_nothing(api):
    t = api.create("voynich", ["Ana", "Bea"])
    assert api.event(t, "move", {"player": 0, "marker": "botany", "delta": 4}).status_code == 200
    before = api.get(t)
    response = api.event(t, "move", {"player": 0, "marker": "botany", "delta": -5})
    assert response.status_code == 400 and response.get_json()["field"] == "data.delta"
    response = api.event(t, "page", {"player": 1, "page": 2, "phase": 3, "multiplier": 3})
    assert response.status_code == 400 and response.get_json()["field"] == "data.multiplier"
    response = api.event(t, "page", {"player": 1, "page": 9, "phase": 3, "multiplier": 1, "choices": ["baths", "baths"]})
    assert response.status_code == 400 and response.get_json()["field"] == "data.choices"
    assert api.get(t) == before
    assert api.undo(t).status_code == 200
    assert api.get(t)["state"]["players"][0]["markers"]["botany"] == 0


def test_solo_setup_over_the_api_and_bad_cards(api):
    t = api.create("voynich", ["Ana"], solo_tie="tie_break")
    response = api.event(t, "solo_setup", {"cards": dict(CARDS, writings=[30, 3]), "difficulty": "hard"})
    assert response.status_code == 400 and response.get_json()["field"] == "data.cards.writings[1]"
    response = api.event(t, "solo_setup", {"cards": CARDS, "difficulty": "brutal"})
    assert response.status_code == 400 and response.get_json()["field"] == "data.difficulty"
    assert api.get(t)["version"] == 0
    assert api.event(t, "solo_setup", {"cards": CARDS, "difficulty": "very_hard"}).status_code == 200
    state = api.get(t)["state"]
    assert [p["phase"] for p in state["players"][1]["pages"]] == [2, 1, 1, 2, 2, 1, 1, 2, 1, 1]


def test_solo_tie_option_only_for_one_player(client):
    response = client.post("/api/v1/tables", json={"game": "voynich", "players": ["A", "B"], "solo_tie": "tie_break"})
    assert response.status_code == 400 and response.get_json()["field"] == "solo_tie"


def test_redone_flip_draws_the_same_card(api):
    t = api.create("voynich", ["Ana"])
    api.event(t, "solo_setup", {"cards": CARDS, "difficulty": "medium"})
    api.event(t, "end_turn")
    api.event(t, "voynich_flip")
    card = api.get(t)["state"]["voynich"]["turn"]["card"]
    api.undo(t)
    assert api.get(t)["state"]["voynich"]["turn"] is None
    api.event(t, "voynich_flip")
    assert api.get(t)["state"]["voynich"]["turn"]["card"] == card


# --- pages -----------------------------------------------------------------------------------

def test_table_page_shows_markers_and_steppers_work(client, api):
    t = open_table(client, api, ["Ana", "Bea"])
    page = client.get(f"/t/{t['table']}").get_data(as_text=True)
    assert "Astrology" in page and "End turn" in page and "Round 1" in page
    response = post(client, t, "move", [("data.player:json", "1"), ("data.marker:json", '"gk"'), ("data.delta:json", "3")])
    assert response.status_code == 200
    body = response.get_data(as_text=True)
    assert 'hx-swap-oob="morph"' in body and response.headers["X-Table-Version"] == "1"
    assert api.get(t)["state"]["players"][1]["markers"]["gk"] == 3


def test_form_error_is_shown_and_nothing_changes(client, api):
    t = open_table(client, api, ["Ana", "Bea"])
    response = post(client, t, "move", [("data.player:int", "0"), ("data.marker", "gk"), ("data.delta:int", "-1")])
    assert response.status_code == 400
    assert 'data-field="data.delta"' in response.get_data(as_text=True)
    assert api.get(t)["version"] == 0


def test_end_screen_scores_and_names_the_winner(client, api):
    pid = make_profile(client)
    t = api.create("voynich", ["Ana", "Bea"], profile=pid)
    join(client, t)
    api.event(t, "move", {"player": 0, "marker": "gk", "delta": 30})
    for p in (0, 1):
        for page in range(10):
            assert post(client, t, "page", [("data.player:int", str(p)), ("data.page:int", str(page)),
                                            ("data.phase:int", "1"), ("data.multiplier:int", "")]).status_code == 200
    response = post(client, t, "research", [("data.player:int", "0"), ("data.gk:int", "7")])
    assert response.status_code == 200
    response = post(client, t, "research", [("data.player:json", "0"), ("data.cell:json", "[1, 1]")])
    assert response.status_code == 200
    assert api.get(t)["state"]["players"][0]["research"] == [7, 5]
    page = client.get(f"/t/{t['table']}?screen=end").get_data(as_text=True)
    assert "Final scoring" in page and "<bdi>Ana</bdi> wins" in page
    assert re.search(r"<td class=\"b-total\"><strong>36</strong></td>", page)  # 30 GK + (7 + 5) // 2


def test_recipes_page_form_with_types_and_override(client, api):
    t = open_table(client, api, ["Ana", "Bea"])
    fields = [("data.player:int", "0"), ("data.page:int", "9"), ("data.phase:int", "2"), ("data.multiplier:int", "2"),
              ("data.choices[]:json", '"baths"'), ("data.choices[]:json", '"writings"')]
    assert post(client, t, "page", fields).status_code == 200
    assert post(client, t, "page", [("data.player:int", "0"), ("data.page:int", "9"), ("data.chosen:json", '"baths"')]).status_code == 200
    page = api.get(t)["state"]["players"][0]["pages"][9]
    assert page == {"phase": 2, "multiplier": 2, "choices": ["baths", "writings"], "chosen": "baths"}
    # both type selects left empty: the form sends an empty list, which clears the types
    fields = [("data.player:int", "0"), ("data.page:int", "9"), ("data.choices[]:json", ""), ("data.choices[]:json", "")]
    assert post(client, t, "page", fields).status_code == 200
    assert "choices" not in api.get(t)["state"]["players"][0]["pages"][9]
    html = client.get(f"/t/{t['table']}?screen=end").get_data(as_text=True)
    assert "Recipes right" in html


def test_track_screen_enters_printed_values(client, api):
    t = open_table(client, api, ["Ana", "Bea"])
    assert "Enter the track values" in client.get(f"/t/{t['table']}").get_data(as_text=True)
    response = post(client, t, "track", [("data.scoring_spaces:json", '{"10": 3}'), ("data.insights:json", "[5]"),
                                         ("data.end:int", "52")])
    assert response.status_code == 200
    assert api.get(t)["state"]["track"] == {"scoring_spaces": {"10": 3}, "insights": [5], "end": 52}
    response = post(client, t, "track", [("data.scoring_spaces:json", '{"x": 3}')])
    assert response.status_code == 400 and 'data-field="data.scoring_spaces.x"' in response.get_data(as_text=True)
    assert "Score track values" in client.get(f"/t/{t['table']}?screen=track").get_data(as_text=True)


def test_solo_setup_form_then_voynichs_turn(client, api):
    pid = make_profile(client)
    t = api.create("voynich", ["Ana"], profile=pid)
    join(client, t)
    page = client.get(f"/t/{t['table']}").get_data(as_text=True)
    assert "Set up Voynich" in page
    fields = [(f"data.cards.{s}[]:int", str(n)) for s in CARDS for n in CARDS[s]] + [("data.difficulty", "extremely_hard")]
    assert post(client, t, "solo_setup", fields, htmx=False).status_code == 303
    page = client.get(f"/t/{t['table']}").get_data(as_text=True)
    assert "Botany left (card 3)" in page and "rotate or flip these 4 cards" in page
    assert post(client, t, "end_turn", []).status_code == 200
    assert post(client, t, "voynich_flip", []).status_code == 200
    state = api.get(t)["state"]
    card = state["voynich"]["turn"]["card"]
    page = client.get(f"/t/{t['table']}").get_data(as_text=True)
    assert f'<span class="big voy-card-number">{card}</span>' in page
    assert "Astrology: sectors" in page  # the scan order from the profile
    side = "left" if card % 2 else "right"  # [V403] the slash option follows the page
    assert f"take the <strong>{side}</strong> option" in page


def test_profile_form_saves_and_refuses_bad_values(client, app):
    pid = make_profile(client)
    doc = json.loads(client.get(f"/profiles/{pid}.json").data)
    assert doc["data"]["track"]["insights"] == [4, 9, 15]
    assert doc["data"]["solo_spaces"] == {"astrology": [5, 13, 22, 31, 38]}
    form = dict(PROFILE_FORM, profile_name="Another", **{"grid:json": '[[2, "x"]]'})
    response = client.post("/profiles/new/voynich", data=form)
    assert response.status_code == 400
    assert 'data-field="grid[0][1]"' in response.get_data(as_text=True)
    page = client.get(f"/profiles/{pid}").get_data(as_text=True)
    # shown as number fields, one per insight symbol, never as JSON
    assert 'id="p-insight-2" value="15"' in page and "[4, 9, 15]" not in page


def test_card_numbers_form_with_the_catalogue(client, api):
    form = dict(PROFILE_FORM, **{"cards:json": '{"12": {"section": "astrology", "multipliers": [1, 2, 4]}}'})
    pid = make_profile(client, form)
    t = api.create("voynich", ["Ana", "Bea"], profile=pid)
    join(client, t)
    assert "Card numbers" in client.get(f"/t/{t['table']}").get_data(as_text=True)
    assert "Save card numbers" in client.get(f"/t/{t['table']}?screen=book").get_data(as_text=True)
    fields = [(f"data.cards.{s}[]:int", str(n)) for s in CARDS for n in CARDS[s]] + [("data.player:int", "1")]
    assert post(client, t, "book", fields).status_code == 200
    assert post(client, t, "study", [("data.player:int", "1"), ("data.page:int", "2")]).status_code == 200
    html = client.get(f"/t/{t['table']}?screen=end").get_data(as_text=True)
    # card 12 is Bea's Astrology left page, now in phase 2: the catalogue's x1 is already in her row
    assert re.search(r'id="page-1-2" value="1"', html.split('id="sheet-1"', 1)[1])
    fields[0] = ("data.cards.botany[]:int", "8")
    response = post(client, t, "book", fields)
    assert response.status_code == 400 and 'data.cards.botany[1]' in response.get_data(as_text=True)


class Buttons(HTMLParser):
    """Each <button>'s accessible name (its aria-label, else its text), by the player's card or
    card-numbers section (id player-N, book-cards-N) it sits in."""

    OWNER = re.compile(r"(?:player|book-cards)-(\d+)")
    VOID = {"input", "br", "img", "hr", "meta", "link", "source", "col", "wbr"}

    def __init__(self):
        super().__init__()
        self.depth, self.owners, self.button, self.found = 0, [], None, []

    def handle_starttag(self, tag, attrs):
        if tag in self.VOID:
            return
        self.depth += 1
        attrs = dict(attrs)
        owner = self.OWNER.fullmatch(attrs.get("id") or "")
        if owner:
            self.owners.append((self.depth, int(owner.group(1))))
        if tag == "button" and self.owners:
            self.button = {"seat": self.owners[-1][1], "label": attrs.get("aria-label"), "text": ""}

    def handle_data(self, data):
        if self.button is not None:
            self.button["text"] += data

    def handle_endtag(self, tag):
        if tag in self.VOID:
            return
        if tag == "button" and self.button is not None:
            self.found.append((self.button["seat"], self.button["label"] or " ".join(self.button["text"].split())))
            self.button = None
        if self.owners and self.owners[-1][0] == self.depth:
            self.owners.pop()
        self.depth -= 1


def test_every_button_of_a_players_card_and_card_numbers_says_whose_it_is(client, api):
    """"Ana: Botany plus 3", "Ana: Study Botany left": as the steppers and the other games' buttons
    say whose counter they are (issue 38 #8)."""
    form = dict(PROFILE_FORM, **{"cards:json": '{"12": {"section": "astrology", "multipliers": [1, 2, 4]}}'})
    t = api.create("voynich", ["Ana", "Bea"], profile=make_profile(client, form))
    join(client, t)
    found = []
    for screen in ("", "?screen=book"):
        parser = Buttons()
        parser.feed(client.get(f"/t/{t['table']}{screen}").get_data(as_text=True))
        found += parser.found
    names = ["Ana", "Bea"]
    assert {seat for seat, _ in found} == {0, 1}
    assert any(name.endswith("plus 3") for _, name in found) and any("Study" in name for _, name in found)
    assert any("Save card numbers" in name for _, name in found)
    unnamed = [(names[seat], name) for seat, name in found if not name.startswith(f"{names[seat]}: ")]
    assert unnamed == []
