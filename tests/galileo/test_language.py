"""Galileo's Truth in the players' languages (issue 29): the panel, its notices and the history in
Polish and French, Polish plurals, English pages and the API's English as they were."""

import re
from urllib.parse import urlparse

import pytest
from werkzeug.datastructures import MultiDict

from companion.games import sentence, speech
from companion.games.galileo import GAME, profile, view

from .test_table import PROFILE, Table

BOARD = {"suspicion_track": PROFILE["suspicion_track"], "penance_cards": PROFILE["penance_cards"]}


def text(html: str) -> str:
    """The page's words: no tags, no <bdi> around names."""
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", html))


def a_table(client, api):
    """Meg and Luna: Meg holds Penance card I and it is her turn; Luna is in Prison, moved from a
    Polish phone (the page's form). Returns the table and its page's address."""
    t = api.create("galileo", ["Meg", "Luna"])
    assert api.event(t, "board", BOARD).status_code == 200
    assert api.event(t, "suspicion", {"player": 0, "delta": 3}).status_code == 200  # past Penance I [GT158]
    assert client.get(urlparse(t["join_url"]).path).status_code == 303
    form = MultiDict([("type", "suspicion"), ("expected_version:int", str(api.get(t)["version"])),
                      ("data.player:int", "1"), ("data.delta:int", "11")])  # past Penance I-III and Prison
    answer = client.post(f"/t/{t['table']}/events", data=form, headers={"HX-Request": "true", "Accept-Language": "pl"})
    assert answer.status_code == 200
    return t, f"/t/{t['table']}"


def page(client, url, lang):
    response = client.get(url, headers={"Accept-Language": lang})
    assert response.status_code == 200
    return text(response.get_data(as_text=True))


#: what each language's page shows of the table, and English words it must not show
PAGES = {
    "pl": (["Tura gracza Meg",  # whose turn
            "W Więzieniu",  # Luna's badge: In Prison
            # what the last event did, on Luna's card, though the state keeps it in English
            "Luna: podejrzenie +11, teraz 12.", "Luna: aresztowanie: twój Filozof przyrody idzie do Więzienia",
            # Meg may play her Penance card and pay its printed coin (accusative after "pay")
            "Zagraj Pokutę I i zapłać 1 monetę, by ją usunąć",
            "Meg: podejrzenie +3"],  # the history
           ["In Prison", "Meg's turn", "suspicion +11", "Play Penance I"]),
    "fr": (["À Meg de jouer", "En Prison", "Luna : soupçon +11, maintenant 12.", "Jouer Pénitence I et payer 1 pièce pour la retirer",
            "Piste de soupçon",  # the board values' form
            "Meg : soupçon +3"],
           ["In Prison", "Suspicion track", "suspicion +11"]),
    "en": (["Meg's turn", "In Prison", "Luna: suspicion +11, now 12.", "Play Penance I and pay 1 coin to remove it",
            "Suspicion track", "Meg: suspicion +3"],
           ["W Więzieniu", "En Prison"]),
}


@pytest.mark.parametrize("lang", PAGES)
def test_the_panel_its_notices_and_the_history_speak_the_phones_language(client, api, lang):
    t, url = a_table(client, api)
    said = page(client, url, lang)
    shown, not_shown = PAGES[lang]
    assert [words for words in shown if words not in said] == []
    assert [words for words in not_shown if words in said] == []


def test_the_api_keeps_its_english_notices(client, api):
    t, url = a_table(client, api)
    # the state's notices stay English whichever language the phone that sent the event spoke
    notices = api.get(t)["state"]["notices"]
    assert notices[0] == "Luna: suspicion +11, now 12."
    assert notices[-1].startswith("Luna: arrested: your Natural Philosopher goes to Prison")


@pytest.mark.parametrize("coins, said", [(1, "1 monetę"), (2, "2 monety"), (5, "5 monet"), (22, "22 monety")])
def test_polish_says_the_coins_in_three_forms(coins, said):
    board = {"penance_cards": {"vp": [1, 2, 3], "coins": [coins, 2, 3]}}
    with speech.speaking("pl"):
        assert profile.removal_cost(board, 1) == said
    assert profile.removal_cost(board, 1) == f"{coins} coin" + ("s" if coins != 1 else "")


@pytest.mark.parametrize("failed, said", [(1, "1 gracz go nie przestrzegał"), (2, "2 gracze go nie przestrzegali"),
                                          (5, "5 graczy go nie przestrzegało"), (22, "22 gracze go nie przestrzegali")])
def test_polish_says_how_many_failed_the_prohibition_in_three_forms(failed, said):
    t = Table(names=["Meg", "Luna"])
    state = dict(t.state, phase="end", cycle=2, prohibition={"limit": 3, "counts": [0, 0], "failed": list(range(failed))})
    with speech.speaking("pl"):
        assert view.build(state, t.names, t.options)["prohibition_said"] == f"Zakaz sprawdzony: {said}."


def test_a_state_stored_before_its_notices_were_kept_says_its_english_notices():
    t = Table(names=["Meg", "Luna"])
    t("suspicion", player=1, delta=2)
    with speech.speaking("pl"):
        assert view.notices(t.state, t.names) == ["Luna: podejrzenie +2, teraz 3."]
        old = {key: value for key, value in t.state.items() if key != "notices_later"}
        assert view.notices(old, t.names) == ["Luna: suspicion +2, now 3."]
    assert [sentence.unmarked(line) for line in view.notices(t.state, t.names)] == t.state["notices"]


def test_the_history_and_the_verdict_speak_each_language():
    t = Table(names=["Meg", "Luna"])
    result = {"players": [{"name": "Meg", "total": 40}, {"name": "Luna", "total": 40}], "winners": ["Meg"],
              "places": {"Meg": 1, "Luna": 2}}
    with speech.speaking("fr"):
        assert GAME.describe("abjure", {"player": 1}, t.names) == "Luna : abjure"
        assert view.verdict(result) == "Meg et Luna sont à égalité à 40 : Meg gagne, étant le plus tôt dans l'ordre du tour"
    with speech.speaking("pl"):
        assert GAME.describe("penance", {"player": 0, "level": 2, "remove": True}, t.names) == "Meg: zagrywa kartę Pokuty II i ją usuwa"
    assert view.verdict(result) == "Meg and Luna tie on 40: Meg wins as the earliest in turn order"


#: the refusal of Penance icons out of order, in each language (the field is named by its label, tested with the others)
OUT_OF_ORDER = {
    "en": "must be at or after Penance icon I (after space 6), as the icons come in the order of their cards, I, II, III",
    "fr": "doit être sur ou après l'icône Pénitence I (après la case 6), car les icônes suivent l'ordre de leurs cartes, I, II, III",
    "de": "muss auf oder nach dem Buße-Symbol I liegen (nach Feld 6), denn die Symbole folgen der Reihenfolge ihrer Karten, I, II, III",
    "pl": "musi być na lub za symbolem Pokuty I (za polem 6), bo symbole idą w kolejności swoich kart, I, II, III",
    "es": "debe estar en o después del icono de Penitencia I (tras la casilla 6), pues los iconos siguen el orden de sus cartas, I, II, III",
    "it": "deve essere su o dopo l'icona Penitenza I (dopo la casella 6), perché le icone seguono l'ordine delle loro carte, I, II, III",
}


@pytest.mark.parametrize("lang", sorted(OUT_OF_ORDER))
def test_penance_icons_out_of_order_are_refused_in_each_language(lang):
    from companion import wording
    from companion.games.validation import RulesError

    t = Table(names=["Meg", "Luna"], profile=None)
    data = {"suspicion_track": {"length": 20, "penance": [6, 3, 9], "prison": 11, "stake": 14}}
    with speech.speaking(lang), pytest.raises(RulesError) as err:
        t("board", **data)
    with speech.speaking(lang):
        said = wording.said(err.value, t.names, view.LABELS, "board", data)
        assert said.message == OUT_OF_ORDER[lang]
