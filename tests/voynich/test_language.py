"""The Voynich Puzzle in the players' languages (issue 29): the panel, its history lines, the solo
opponent's turn and the plurals in Polish and Spanish, through the real app; English and the API unchanged.

Each phone picks its language with the `lang` cookie (companion/web/language.py); the sentences
come from companion/games/voynich/translations. A sentence left unmarked stays English on a Polish
or Spanish page, which these tests would see.
"""

import re
from urllib.parse import urlsplit

import pytest

CARDS = {"botany": [3, 8], "astrology": [12, 15], "baths": [21, 24], "writings": [30, 33], "recipes": [36, 39]}


def open_table(client, api, names, **options):
    t = api.create("voynich", names, **options)
    assert client.get(urlsplit(t["join_url"]).path).status_code == 303
    return t


def event(api, t, type_, data):
    response = api.event(t, type_, data)
    assert response.status_code == 200, response.get_json()


def page(client, t, lang, screen=None):
    """The table's page as a phone set to `lang` reads it."""
    client.set_cookie("lang", lang)
    response = client.get(f"/t/{t['table']}" + (f"?screen={screen}" if screen else ""))
    assert response.status_code == 200
    return response.get_data(as_text=True)


def text(html):
    """A page's words, without its markup and the names' isolation marks (a name's <bdi> kept in its sentence)."""
    html = re.sub(r"</?bdi>", "", html)
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html)).replace("\u2068", "").replace("\u2069", "")


@pytest.fixture
def played(client, api):
    """Ana moved her Botany marker 3 on and studied a page; her research token is in."""
    t = open_table(client, api, ["Ana", "Bea"])
    event(api, t, "move", {"player": 0, "marker": "botany", "delta": 3})
    event(api, t, "study", {"player": 0, "page": 2})
    event(api, t, "research", {"player": 0, "gk": 4})
    return t


def test_the_panel_and_its_history_in_polish(client, played):
    said = text(page(client, played, "pl"))
    assert "Botanika" in said and "Astrologia" in said  # the knowledge tracks (glossary: unofficial)
    assert "Zakończ turę ▸" in said and "Runda 1" in said
    # the history lines: the marker move, the page studied, the research token
    assert "Ana: +3 Botanika" in said
    assert "Ana: przestudiowano Astrologia lewa" in said
    assert "Ana: żeton badań 4 WO" in said
    assert "End turn" not in said and "studied" not in said and "research token" not in said


def test_the_panel_and_its_history_in_spanish(client, played):
    said = text(page(client, played, "es"))
    # the Spanish edition's sections (glossary: Salt & Pepper Games' edition, as its Spanish review names them)
    assert "Botánica" in said and "Astrología" in said and "Baños" in said
    assert "Terminar turno ▸" in said
    assert "Ana: +3 Botánica" in said
    assert "Ana: ficha de investigación 4 CG" in said
    assert "End turn" not in said and "Botany" not in said


def test_the_solo_opponents_turn_step_by_step_in_spanish(client, api):
    t = open_table(client, api, ["Eva"])
    setup = text(page(client, t, "es"))
    assert "Preparar a Voynich" in setup and "Botánica izquierda" in setup and "Barajar su mazo y empezar" in setup
    event(api, t, "solo_setup", {"cards": CARDS, "difficulty": "very_hard"})
    event(api, t, "end_turn", {})
    event(api, t, "voynich_flip", {})
    said = text(page(client, t, "es"))
    assert "Voynich · muy difícil" in said
    assert re.search(r"Mazo: \d+ cartas? restantes?", said)
    assert "Número de prioridad" in said and "Acción de investigación: +1 CG" in said
    assert "Voynich da la vuelta a su carta" in said  # the history line of his flip
    assert "Deck:" not in said and "flips his card" not in said


def test_a_polish_plural_has_three_forms(client, api):
    """1, 2, 5 and 22 scoring spaces: "pole", "pola", "pól", and "pola" again (Polish plural rules)."""
    said, english = {}, {}
    for n in (1, 2, 5, 22):
        t = open_table(client, api, ["Ana", "Bea"], calculator=True)
        event(api, t, "track", {"scoring_spaces": {str(10 + k): 1 for k in range(n)}})
        said[n], english[n] = (summary(page(client, t, lang)) for lang in ("pl", "en"))
    assert said == {1: "Tor punktacji zapisany: 1 pole", 2: "Tor punktacji zapisany: 2 pola",
                    5: "Tor punktacji zapisany: 5 pól", 22: "Tor punktacji zapisany: 22 pola"}
    assert english == {1: "Score track saved: 1 space", 2: "Score track saved: 2 spaces",
                       5: "Score track saved: 5 spaces", 22: "Score track saved: 22 spaces"}


def summary(html):
    """What the calculator's closed score-track form says of the track."""
    return re.search(r'<details class="card" id="track-details"><summary>([^<]*)</summary>', html).group(1)


def test_english_pages_and_the_api_are_unchanged(client, api, played):
    said = text(page(client, played, "en"))
    assert "End turn ▸" in said and "Round 1" in said
    assert "Ana: +3 Botany" in said and "Ana: studied Astrology left" in said and "Ana: research token 4 GK" in said
    # a phone reading Polish: the JSON API still answers in the contract's English
    client.set_cookie("lang", "pl")
    refused = api.event(played, "move", {"player": 1, "marker": "baths", "delta": -2})
    assert refused.status_code == 400
    assert refused.get_json()["error"] == "the baths marker is on 0: it cannot go below 0"
    assert refused.get_json()["field"] == "data.delta"


def test_a_refused_move_on_a_polish_page_says_why_in_polish(client, played):
    client.set_cookie("lang", "pl")
    version = client.get(f"/api/v1/tables/{played['table']}", headers={"X-Table-Token": played["token"]}).get_json()["version"]
    response = client.post(f"/t/{played['table']}/events", headers={"HX-Request": "true"}, data={
        "type": "move", "expected_version:int": str(version),
        "data.player:int": "1", "data.marker": "baths", "data.delta:int": "-2"})
    said = text(response.get_data(as_text=True))
    assert "znacznik (łaźnie) jest na polu 0: nie może zejść poniżej 0" in said
    assert "cannot go below" not in said
