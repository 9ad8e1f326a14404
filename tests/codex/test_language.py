"""A Codex table read in each phone's language (issue 29): the history, the panel, a notice, a refusal
and the verdict in Polish and French, through the real app; English pages and the JSON API unchanged."""

from __future__ import annotations

import re

from companion.games import base, speech

NAMES = ["Ann", "Ben"]
#: a calculator row whose objectives score nothing: its total is its points on the score track
EMPTY_ROW = {"secret": 95, "visible": {"fungi": 0, "quill": 0, "inkwell": 0, "manuscript": 0}, "patterns": {"87": 0}}
#: another (each card exists once)
OTHER_ROW = {"secret": 96, "visible": {"plant": 0, "quill": 0, "inkwell": 0, "manuscript": 0}, "patterns": {"87": 0}}


def opened(client, api, **options):
    t = api.create("codex", NAMES, **options)
    assert client.get(f"/join/{t['table']}/{t['token']}").status_code == 303
    client.post(f"/t/{t['table']}/seat", data={"seat": "watch"})
    return t


def page(client, t, lang=None, screen=None):
    headers = {"Accept-Language": lang} if lang else {}
    url = f"/t/{t['table']}" + (f"?screen={screen}" if screen else "")
    response = client.get(url, headers=headers)
    assert response.status_code == 200
    return response.get_data(as_text=True)


def said(html, sentence):
    """Whether the page holds the sentence as its text (a name in <bdi>, an apostrophe escaped or not)."""
    text = html.replace("&#39;", "'")
    return sentence in text


def test_the_history_says_points_in_the_three_polish_forms_and_english_is_unchanged(client, api):
    t = opened(client, api, first_player=0)
    for delta in (1, 2, 5, 22):
        assert api.event(t, "points", {"player": 1, "delta": delta}).status_code == 200
    polish = page(client, t, "pl")
    # Polish: one, few (2-4, 22-24), many (5-21)
    for line in ("<bdi>Ben</bdi>: +1 punkt<", "<bdi>Ben</bdi>: +2 punkty<", "<bdi>Ben</bdi>: +5 punktów<",
                 "<bdi>Ben</bdi>: +22 punkty<"):
        assert line in polish, line
    french = page(client, t, "fr")
    assert "<bdi>Ben</bdi> : +1 point<" in french and "<bdi>Ben</bdi> : +22 points<" in french
    english = page(client, t)
    for line in ("<bdi>Ben</bdi>: +1 point<", "<bdi>Ben</bdi>: +2 points<", "<bdi>Ben</bdi>: +5 points<",
                 "<bdi>Ben</bdi>: +22 points<"):
        assert line in english, line
    assert "punkt" not in english


def test_the_panel_speaks_the_editions_terms_in_french_and_polish(client, api):
    t = opened(client, api, first_player=0)
    french, polish, english = (page(client, t, lang) for lang in ("fr", "pl", None))
    # the tabs and the gold card helpers: "piste de score" and "cartes dorure" as the Bombyx box names them
    assert ">Piste de score</a>" in french and ">Objectifs &amp; fin</a>" in french
    assert ">Aides des cartes dorure</summary>" in french and "2 par coin recouvert:" in french
    assert ">Tor punktacji</a>" in polish and ">Pomoc do złotych kart</summary>" in polish
    assert '<option value="quill">pióro</option>' in polish and '<option value="quill">plume</option>' in french
    assert ">Score track</a>" in english and ">Gold card helpers</summary>" in english
    assert '<option value="quill">quill</option>' in english and "2 per covered corner:" in english
    # the end screen's objective cards, in words: a pattern and a set of objects
    end_fr, end_pl = page(client, t, "fr", "end"), page(client, t, "pl", "end")
    assert "#87: 2 par motif : 3 cartes champignon en diagonale montante" in end_fr
    assert "#99: 3 za każdy zestaw pióro + kałamarz + pergamin" in end_pl
    assert ">Objectifs communs</h2>" in end_fr and ">Wspólne cele</h2>" in end_pl
    assert "#87: 2 per pattern: 3 fungi cards on a rising diagonal" in page(client, t, screen="end")


def test_a_notice_is_said_in_each_phones_language_and_the_api_keeps_its_english(client, api):
    t = opened(client, api, calculator=True)
    assert api.event(t, "common_objectives", {"cards": [87, 99]}).status_code == 200
    assert api.event(t, "sheet", {"player": 0, "placement_points": 12, **EMPTY_ROW}).status_code == 200
    # one saved row, read by three phones: each in its own language
    assert said(page(client, t, "pl"), "Wiersz zapisany; czekamy na: <bdi>Ben</bdi>")
    assert said(page(client, t, "fr"), "Ligne enregistrée ; on attend encore <bdi>Ben</bdi>")
    assert said(page(client, t), "Row saved; waiting for <bdi>Ben</bdi>")
    assert api.get(t)["state"]["notice"] == {"player": 0, "text": "Row saved; waiting for Ben"}


def test_the_verdict_counts_points_in_polish(client, api):
    t = opened(client, api, calculator=True)
    assert api.event(t, "common_objectives", {"cards": [87, 99]}).status_code == 200
    for seat, points, row in ((0, 22, EMPTY_ROW), (1, 5, OTHER_ROW)):
        assert api.event(t, "sheet", {"player": seat, "placement_points": points, **row}).status_code == 200
    assert said(page(client, t, "pl"), "<bdi>Ann</bdi> wygrywa z 22 punktami")
    assert said(page(client, t, "fr"), "<bdi>Ann</bdi> gagne avec 22 points")
    assert said(page(client, t), "<bdi>Ann</bdi> wins with 22 points")
    assert api.result(t).get_json()["verdict"] == "Ann wins with 22 points"


def test_a_refusal_on_a_polish_page_is_polish_and_the_api_stays_english(client, api):
    t = opened(client, api, first_player=0)
    bad = {"type": "play_card", "expected_version:int": "0", "data.player:int": "0", "data.id:int": "47",
           "data.side": "front", "data.cell:json": "[0, 0]", "screen": "book-0"}
    polish = client.post(f"/t/{t['table']}/events", data=bad, headers={"Accept-Language": "pl"})
    assert polish.status_code == 400
    assert re.search(r'data-field="data.id">[^<]*<bdi>Ann</bdi>[^:]*: karta 47 jest złotą kartą; pierwsza karta obszaru gry '
                     + re.escape("to karta startowa (od 81 do 86) [CN34]"), polish.get_data(as_text=True))
    answer = api.event(t, "play_card", {"player": 0, "id": 47, "side": "front", "x": 0, "y": 0})
    assert answer.status_code == 400
    assert answer.get_json()["error"] == ("card 47 is a gold card; the first card of a play area is a starter card "
                                          "(81 to 86) [CN34]")


def test_the_scripts_words_come_from_the_page_in_its_language(client, api):
    """static/codex/codex.js says a tapped place and a wrong card number with the words the page gives it."""
    t = opened(client, api, first_player=0)
    assert api.event(t, "common_objectives", {"cards": [87, 95]}).status_code == 200
    assert api.event(t, "secret_objective", {"player": 0, "card": 91}).status_code == 200
    grid = page(client, t, "pl", "grid-0-87")
    assert 'data-place="miejsce {x}, {y}: {kingdom}"' in grid
    assert '&#34;&#34;: &#34;puste&#34;' in grid and '&#34;fungi&#34;: &#34;grzyb&#34;' in grid  # data-words, JSON
    assert 'aria-label="miejsce 0, 0: puste"' in grid
    assert 'data-unknown="pas de carte objectif #{card}"' in page(client, t, "fr", "end")
    english = page(client, t, None, "grid-0-87")
    assert 'data-place="place {x}, {y}: {kingdom}"' in english and 'aria-label="place 0, 0: empty"' in english


def test_a_pattern_counts_label_is_one_sentence_for_every_card():
    """view.LABELS names a refused pattern count with one marked sentence, its card number put in when said."""
    from companion.games import speech
    from companion.games.codex.view import LABELS

    label = LABELS["patterns.91"]
    assert label == "{who}'s count of pattern #91" and label.format(who="Ann") == "Ann's count of pattern #91"
    with speech.speaking("pl"):
        assert label.format(who="Ann") == "Ann – liczba wzoru #91"
    with speech.speaking("fr"):
        assert LABELS["patterns.87"].format(who="Ann") == "Décompte du motif #87 (Ann)"


def test_a_kept_notice_says_its_polish_plural_and_an_older_state_its_english():
    said = {"back": 18, "who": "Ben", "target": 20}
    for left, polish in [(2, "do rozegrania 2 ostatnie tury"), (5, "do rozegrania 5 ostatnich tur")]:
        state = {"notice": None}
        base.keep_notice(state, 0, speech.later.ngettext(
            "Back to %(back)s: %(who)s reached %(target)s first now, so the end was triggered by %(who)s: %(num)d last turn to play",
            "Back to %(back)s: %(who)s reached %(target)s first now, so the end was triggered by %(who)s: %(num)d last turns to play",
            left, **said))
        english = f"Back to 18: Ben reached 20 first now, so the end was triggered by Ben: {left} last turns to play"
        assert state["notice"] == {"player": 0, "text": english}  # the state's English, shaped as before
        with speech.speaking("pl"):
            assert base.shown_notice(state, NAMES)["text"].endswith(polish)
            older = {"notice": state["notice"]}  # stored before its sentence was kept
            assert base.shown_notice(older, NAMES)["text"] == english


#: what a reader of each language expects where a number comes before a kingdom (issue 38): the
#: number's own plural, the cards or symbols said with it (a few objectives, as their cards show them)
AGREEING = {
    "en": {87: "3 fungi cards on a rising diagonal", 91: "2 fungi cards stacked, 1 plant card at",
           94: "2 insect cards stacked, 1 animal card at", 96: "2 per set of 3 visible plant symbols"},
    "fr": {87: "3 cartes champignon en diagonale", 91: "2 cartes champignon empilées, 1 carte végétal au",
           94: "2 cartes insecte empilées, 1 carte animal au", 96: "3 symboles végétal visibles"},
    "de": {87: "3 Pilzkarten in steigender", 91: "2 Pilzkarten übereinander, 1 Pflanzenkarte an",
           94: "2 Insektenkarten übereinander, 1 Tierkarte an", 96: "3 sichtbare Pflanzensymbole"},
    "pl": {87: "3 karty grzybów po przekątnej", 91: "2 karty grzybów jedna nad drugą, 1 karta roślin przy",
           94: "2 karty owadów jedna nad drugą, 1 karta zwierząt przy", 96: "3 widoczne symbole roślin"},
    "es": {87: "3 cartas de hongo en diagonal", 91: "2 cartas de hongo apiladas, 1 carta de planta en",
           94: "2 cartas de insecto apiladas, 1 carta de animal en", 96: "3 símbolos de planta visibles"},
    "it": {87: "3 carte fungo in diagonale", 91: "2 carte fungo impilate, 1 carta vegetale all",
           94: "2 carte insetto impilate, 1 carta animale all", 96: "3 simboli vegetale visibili"},
}
#: an adjective a language may put between a number and its noun
BETWEEN = {"en": "visible ", "de": "sichtbare "}
#: a field's label for the visible fungi: several of them, whatever one of them is called
FUNGI_FIELD = {"en": "Visible fungi", "fr": "champignons visibles", "de": "Sichtbare Pilze", "pl": "Widoczne: grzyby",
               "es": "hongos visibles", "it": "funghi visibili"}


def objective_lines(html):
    """Each objective card's words as the page lists them (#ID: TEXT)."""
    import html as markup

    return {int(card): markup.unescape(text) for card, text in re.findall(r'<li data-card="(\d+)">#\d+: ([^<]*)</li>', html)}


def test_a_number_before_a_kingdom_takes_its_plural_on_every_objective_in_every_language(client, api):
    """Issue 38: "2 champignon empilés", "2 Pilz übereinander", "3 plant on a falling diagonal": every
    objective's wording, on the end screen and the calculator, in each language, puts no number of two
    or more before a kingdom's word for one of it, and says the number's plural."""
    from companion.games.codex import cards

    tracked, calculator = opened(client, api, first_player=0), opened(client, api, calculator=True)
    assert api.event(calculator, "common_objectives", {"cards": [87, 95]}).status_code == 200  # its rows are drawn
    problems = []
    for lang in speech.LANGUAGES:
        with speech.speaking(lang):
            ones = [re.escape(cards.name(k)) for k in cards.KINGDOMS]
        # a number, maybe an adjective or "×", then the kingdom's word for one of it, ending there
        # (English may go on with the noun it qualifies: "3 plant cards")
        bad = re.compile(rf"\b[2-9] (?:{BETWEEN.get(lang, '')}|× )?(?:{'|'.join(ones)})\b"
                         + (r"(?! cards\b| symbols\b)" if lang == "en" else ""))
        for t, screen in ((tracked, "end"), (calculator, None)):
            lines = objective_lines(page(client, t, lang, screen))
            assert sorted(lines) == list(range(87, 103)), (lang, screen)
            problems += [f"{lang} #{card}: {text}" for card, text in lines.items() if bad.search(text)]
            problems += [f"{lang} #{card} lacks {words!r}: {lines[card]}" for card, words in AGREEING[lang].items()
                         if words not in lines[card]]
        if f"<span>{FUNGI_FIELD[lang]}</span>" not in page(client, calculator, lang):
            problems.append(f"{lang}: no field {FUNGI_FIELD[lang]!r}")
    assert not problems, "\n".join(sorted(set(problems)))


def test_a_count_of_symbols_says_each_number_with_its_own_plural():
    """rules.counts_text (a gold card's refusal, the manuscript's visible symbols, the calculator's
    detail): a number before a symbol takes the plural that number needs, Polish's three forms too."""
    from companion.games.codex import rules

    counts = {"fungi": 0, "plant": 1, "animal": 3, "insect": 5, "quill": 22}
    said = {}
    for lang in ("en", "fr", "de", "pl"):
        with speech.speaking(lang):
            said[lang] = rules.counts_text(counts)
    assert said["en"] == "0 fungi, 1 plant, 3 animals, 5 insects, 22 quills"
    assert said["fr"] == "0 champignon, 1 végétal, 3 animaux, 5 insectes, 22 plumes"
    assert said["de"] == "0 Pilze, 1 Pflanze, 3 Tiere, 5 Insekten, 22 Federn"
    assert said["pl"] == "0 grzybów, 1 roślina, 3 zwierzęta, 5 owadów, 22 pióra"
