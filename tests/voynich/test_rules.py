"""The Voynich Puzzle's rules functions: end scoring, the priority scan, the deck, the final turns."""

import copy
import random

import pytest

from companion.games.base import Context
from companion.games.validation import RulesError
from companion.games.voynich import GAME, functions, rules

SPACES = {"10": 3, "20": 6, "30": 10}
CARDS = {"botany": [3, 8], "astrology": [12, 15], "baths": [21, 24], "writings": [30, 33], "recipes": [36, 39]}


def run(fn, doc):
    return GAME.functions[fn].run(doc)


def player(name="Ana", gk=0, markers=(0, 0, 0, 0), research=(), pages=()):
    return {"name": name, "gk": gk, "markers": dict(zip(rules.KNOWLEDGE, markers)),
            "research": list(research), "pages": list(pages)}


def score(*players, spaces=SPACES, solo=None):
    doc = {"track": {"scoring_spaces": spaces}, "players": list(players)}
    if solo:
        doc["solo"] = solo
    return run("score", doc)


def by_name(result):
    return {p["name"]: p for p in result["players"]}


def fails(fn, doc, field):
    before = copy.deepcopy(doc)
    with pytest.raises(RulesError) as err:
        run(fn, doc)
    assert err.value.field == field, err.value
    assert err.value.message
    assert doc == before  # nothing changed
    return err.value


# --- RULES.md section E --------------------------------------------------------------------

def test_priority_18_with_7_and_22_present_starts_at_7():
    # [V432] "if the priority number is 18 and the nearest numbers ... are 7 and 22, start checking from 7"
    assert run("priority_scan", {"priority": 18, "present": [22, 7]}) == {"order": [7, 22]}
    assert run("priority_scan", {"priority": 18, "present": [22, 7, 30]}) == {"order": [7, 22, 30]}


def voynich_to_play():
    """A solo table on Voynich's turn, his card flipped: (state, context)."""
    ctx = Context(names=("Ana",), seed=3)
    state = GAME.initial_state(["Ana"], {}, {})
    for type_, data in (("solo_setup", {"cards": CARDS, "difficulty": "medium"}), ("end_turn", {}), ("voynich_flip", {})):
        state = GAME.apply(state, type_, data, ctx)
    return state, ctx


def voynich_gk(state):
    return state["players"][1]["markers"]["gk"]


def test_instead_of_placing_2_research_tokens_he_gains_1_gk():
    # [V382] a research action "x2" is worth 1 GK to Voynich, once per icon (VOY-C7): one
    # `voynich_research` event per icon, whatever its number
    assert rules.RESEARCH_GK == 1
    state, ctx = voynich_to_play()
    assert voynich_gk(GAME.apply(state, "voynich_research", {}, ctx)) == voynich_gk(state) + 1


def test_no_research_icon_gives_voynich_no_gk():
    # [V382] VOY-C7: 1 GK per research icon, so a page without one gives him nothing: his flip
    # and study give no GK (VOY-C8)
    state, ctx = voynich_to_play()
    assert voynich_gk(state) == 0
    assert voynich_gk(GAME.apply(state, "end_turn", {}, ctx)) == 0


def test_two_research_icons_give_two_gk():
    # [V382] the table takes one research action at a time: 1 GK each (VOY-C7)
    state, ctx = voynich_to_play()
    for _ in range(2):
        state = GAME.apply(state, "voynich_research", {}, ctx)
    assert voynich_gk(state) == 2


# --- end scoring ---------------------------------------------------------------------------

def test_contract_example_scores_every_part():
    result = score(
        player("Ana", 50, (30, 27, 20, 10), [4, 3, 6],
               [{"section": "astrology", "multiplier": 2},
                {"section": "recipes", "multiplier": 1, "choices": ["baths", "writings"]},
                {"section": "botany", "multiplier": 0}]),
        player("Voynich", 44, (12, 31, 8, 20), [], [{"section": "astrology", "multiplier": 4}]),
        solo={"difficulty": "hard", "automa": "Voynich", "tokens_on_board": 11},
    )
    ana, voy = by_name(result)["Ana"], by_name(result)["Voynich"]
    # astrology 27 reached space 20 (6) x2 = 12; recipes: baths 20 -> 6, writings 10 -> 3: baths 6
    assert ana["pages_detail"] == [{"section": "astrology", "points": 12},
                                   {"section": "baths", "points": 6},
                                   {"section": "botany", "points": 0}]
    assert ana["breakdown"] == {"gk": 50, "research": 6, "pages": 18, "tokens": 0}
    assert ana["total"] == 74
    # Voynich: astrology 31 -> 10 x4 = 40; hard: 2 x 11 tokens = 22
    assert voy["breakdown"] == {"gk": 44, "research": 0, "pages": 40, "tokens": 22}
    assert voy["total"] == 106
    assert ana["outcome"] == "loss"
    assert result["winners"] == ["Voynich"]
    assert result["places"] == {"Voynich": 1, "Ana": 2}


def test_breakdown_adds_up_to_total():
    result = score(player("A", 17, (12, 25, 3, 40), [5, 2], [{"section": "writings", "multiplier": 4}]))
    p = result["players"][0]
    assert sum(p["breakdown"].values()) == p["total"] == 17 + 3 + 40


def test_research_gk_is_summed_then_halved_once():
    # [V360] 3 + 3 + 3 = 9, halved = 4; halving each token first would give 3
    p = score(player(research=[3, 3, 3]))["players"][0]
    assert p["breakdown"]["research"] == 4
    p = score(player(research=[1]))["players"][0]
    assert p["breakdown"]["research"] == 0


def test_page_below_first_scoring_space_scores_nothing():
    p = score(player(markers=(9, 0, 0, 0), pages=[{"section": "botany", "multiplier": 4}]))["players"][0]
    assert p["pages_detail"] == [{"section": "botany", "points": 0}]


def test_page_scores_furthest_space_reached_or_passed():
    pages = [{"section": "botany", "multiplier": 1}]
    assert score(player(markers=(10, 0, 0, 0), pages=pages))["players"][0]["breakdown"]["pages"] == 3
    assert score(player(markers=(29, 0, 0, 0), pages=pages))["players"][0]["breakdown"]["pages"] == 6
    assert score(player(markers=(95, 0, 0, 0), pages=pages))["players"][0]["breakdown"]["pages"] == 10


def test_starting_phase_page_scores_nothing():
    p = score(player(markers=(30, 0, 0, 0), pages=[{"section": "botany", "multiplier": 0}]))["players"][0]
    assert p["breakdown"]["pages"] == 0


def test_recipes_page_picks_the_better_type_and_honours_an_override():
    page = {"section": "recipes", "multiplier": 2, "choices": ["botany", "writings"]}
    p = score(player(markers=(12, 0, 0, 31), pages=[page]))["players"][0]
    assert p["pages_detail"] == [{"section": "writings", "points": 20}]
    p = score(player(markers=(12, 0, 0, 31), pages=[dict(page, chosen="botany")]))["players"][0]
    assert p["pages_detail"] == [{"section": "botany", "points": 6}]


def test_recipes_page_whose_types_score_alike_names_the_first_listed():
    # [V363] the player chooses; VOY-A15 the app picks the higher, the first listed when equal:
    # botany 12 and writings 18 both reach the scoring space at 10 (3 GK), x2 = 6
    page = {"section": "recipes", "multiplier": 2, "choices": ["writings", "botany"]}
    p = score(player(markers=(12, 0, 0, 18), pages=[page]))["players"][0]
    assert p["pages_detail"] == [{"section": "writings", "points": 6}]


def test_starting_phase_recipes_page_scores_nothing_under_its_chosen_or_first_type():
    # [V91] the starting phase gives no points, so no type is picked for being better: the page
    # is shown under the type the player chose, else the first it lists (rules.page_points)
    page = {"section": "recipes", "multiplier": 0, "choices": ["botany", "writings"]}
    p = score(player(markers=(0, 0, 0, 31), pages=[page]))["players"][0]
    assert p["pages_detail"] == [{"section": "botany", "points": 0}]
    p = score(player(markers=(0, 0, 0, 31), pages=[dict(page, chosen="writings")]))["players"][0]
    assert p["pages_detail"] == [{"section": "writings", "points": 0}]


def test_tie_break_compares_sorted_knowledge_markers():
    # Both 40 GK. Bea's markers sorted: 30, 20, 5, 1; Ana's: 30, 19, 19, 19. Bea wins on the second.
    ana = player("Ana", 40, (19, 30, 19, 19))
    bea = player("Bea", 40, (1, 5, 20, 30))
    result = score(ana, bea)
    assert result["winners"] == ["Bea"]
    assert result["places"] == {"Bea": 1, "Ana": 2}


def test_tie_break_ignores_the_gk_marker_and_marker_types():
    ana = player("Ana", 40, (30, 0, 0, 0))
    bea = player("Bea", 40, (0, 0, 0, 30))
    result = score(ana, bea)
    assert sorted(result["winners"]) == ["Ana", "Bea"]


def test_shared_victory_when_all_four_markers_tie():
    a = player("Ana", 40, (10, 20, 30, 5))
    b = player("Bea", 40, (30, 5, 10, 20))
    c = player("Cy", 39, (40, 40, 40, 40))
    result = score(a, b, c)
    assert result["winners"] == ["Ana", "Bea"]
    assert result["places"] == {"Ana": 1, "Bea": 1, "Cy": 3}


def test_higher_total_wins_before_any_tie_break():
    result = score(player("Ana", 41), player("Bea", 40, (50, 50, 50, 50)))
    assert result["winners"] == ["Ana"]


# --- solo scoring, every difficulty --------------------------------------------------------

def solo_game(difficulty, tokens=None, human_gk=60, voy_gk=40, voy_markers=(14, 22, 9, 31)):
    solo = {"difficulty": difficulty, "automa": "Voynich"}
    if tokens is not None:
        solo["tokens_on_board"] = tokens
    voy = player("Voynich", voy_gk, voy_markers, [],
                 [{"section": "botany", "multiplier": 1}, {"section": "astrology", "multiplier": 2},
                  {"section": "recipes", "multiplier": 1, "choices": ["baths", "writings"]}])
    return score(player("Ana", human_gk), voy, solo=solo)


def test_easy_moves_voynichs_markers_back_5_before_his_pages():
    voy = by_name(solo_game("easy"))["Voynich"]
    # markers 14, 22, 9, 31 become 9, 17, 4, 26: botany 0, astrology 3 x2, recipes writings 6
    assert voy["pages_detail"] == [{"section": "botany", "points": 0},
                                   {"section": "astrology", "points": 6},
                                   {"section": "writings", "points": 6}]
    assert voy["breakdown"] == {"gk": 40, "research": 0, "pages": 12, "tokens": 0}


def test_easy_setback_is_exactly_5_spaces():
    # [V492] "back 5 spaces": 15, 25, 14, 35 become 10, 20, 9, 30. Botany lands on the scoring
    # space at 10 (3), astrology on 20 (6 x2 = 12), recipes: baths 9 scores 0, writings 30 scores 10
    voy = by_name(solo_game("easy", voy_markers=(15, 25, 14, 35)))["Voynich"]
    assert voy["pages_detail"] == [{"section": "botany", "points": 3},
                                   {"section": "astrology", "points": 12},
                                   {"section": "writings", "points": 10}]
    # VOY-C16: the moved-back positions also decide the tie-break, furthest first
    assert voy["tie_break"] == [30, 20, 10, 9]


def test_easy_setback_stops_at_zero_and_counts_for_the_tie_break():
    result = solo_game("easy", human_gk=0, voy_gk=0, voy_markers=(3, 0, 0, 0))
    assert by_name(result)["Voynich"]["tie_break"] == [0, 0, 0, 0]


def test_medium_scores_pages_only():
    voy = by_name(solo_game("medium"))["Voynich"]
    # 14 -> 3, 22 -> 6 x2, recipes: writings 31 -> 10
    assert voy["breakdown"] == {"gk": 40, "research": 0, "pages": 25, "tokens": 0}


@pytest.mark.parametrize("difficulty", ["easy", "medium"])
def test_easy_and_medium_give_nothing_for_his_tokens_on_the_board(difficulty):
    # [V492-493] easy and medium: "Voynich totals the points from his pages just like any player",
    # nothing per token; a count typed anyway changes nothing and is not asked for
    assert by_name(solo_game(difficulty, tokens=7))["Voynich"]["breakdown"]["tokens"] == 0
    assert not rules.counts_tokens(difficulty)


@pytest.mark.parametrize("difficulty,per_token", [("hard", 2), ("very_hard", 2), ("extremely_hard", 5)])
def test_hard_levels_add_gk_per_token_on_the_board(difficulty, per_token):
    voy = by_name(solo_game(difficulty, tokens=7))["Voynich"]
    assert voy["breakdown"] == {"gk": 40, "research": 0, "pages": 25, "tokens": 7 * per_token}


def test_hard_needs_the_token_count():
    doc = {"track": {"scoring_spaces": SPACES},
           "players": [player("Ana"), player("Voynich")],
           "solo": {"difficulty": "hard", "automa": "Voynich"}}
    fails("score", doc, "solo.tokens_on_board")


def test_voynich_with_no_token_count_gains_nothing_for_tokens():
    # [V494-495] GK per token on the board: with no count given (the table before his tokens
    # are counted) no tokens are counted, whatever the difficulty
    voy = {"name": "Voynich", "gk": 10, "markers": dict.fromkeys(rules.KNOWLEDGE, 0), "research": [], "pages": []}
    for difficulty in ("hard", "very_hard", "extremely_hard"):
        result = rules.score_player(voy, {10: 3}, difficulty)
        assert result["breakdown"]["tokens"] == 0
        assert result["total"] == 10


def test_solo_human_wins_only_with_strictly_more_gk():
    result = solo_game("medium", human_gk=66)  # Voynich 40 + 25 = 65
    assert by_name(result)["Ana"]["outcome"] == "win"
    assert result["winners"] == ["Ana"]
    result = solo_game("medium", human_gk=65)
    assert by_name(result)["Ana"]["outcome"] == "loss"
    assert result["winners"] == ["Voynich"]
    assert result["places"] == {"Voynich": 1, "Ana": 2}
    # VOY-C11: on a tie the normal tie-break is shown for information
    assert result["tie_break_winners"] == ["Voynich"]


def test_solo_tie_goes_to_the_tie_break_only_when_that_rule_is_chosen():
    voy = player("Voynich", 40, (1, 1, 1, 1))
    human = player("Ana", 40, (2, 1, 1, 1))
    doc = {"difficulty": "medium", "automa": "Voynich"}
    assert score(human, voy, solo=doc)["winners"] == ["Voynich"]
    result = score(human, voy, solo=dict(doc, tie_rule="tie_break"))
    assert result["winners"] == ["Ana"]
    assert result["tie_rule"] == "tie_break"


# --- bad input -----------------------------------------------------------------------------

def base_doc():
    return {"track": {"scoring_spaces": dict(SPACES)},
            "players": [player("Ana", 10, (1, 2, 3, 4), [2], [{"section": "baths", "multiplier": 1}])]}


@pytest.mark.parametrize("mult", [3, -1, 8, 1.0, "2", True])
def test_multiplier_must_be_0_1_2_or_4(mult):
    doc = base_doc()
    doc["players"][0]["pages"][0]["multiplier"] = mult
    err = fails("score", doc, "players[0].pages[0].multiplier")
    assert "0" in err.message and "4" in err.message


def test_markers_below_zero_are_refused():
    doc = base_doc()
    doc["players"][0]["markers"]["baths"] = -1
    fails("score", doc, "players[0].markers.baths")
    doc = base_doc()
    doc["players"][0]["gk"] = -3
    fails("score", doc, "players[0].gk")


def test_recipes_page_needs_two_distinct_types():
    doc = base_doc()
    doc["players"][0]["pages"][0] = {"section": "recipes", "multiplier": 1}
    fails("score", doc, "players[0].pages[0].choices")
    doc["players"][0]["pages"][0]["choices"] = ["baths", "baths"]
    fails("score", doc, "players[0].pages[0].choices")
    doc["players"][0]["pages"][0]["choices"] = ["baths"]
    fails("score", doc, "players[0].pages[0].choices")
    doc["players"][0]["pages"][0]["choices"] = ["baths", "recipes"]
    fails("score", doc, "players[0].pages[0].choices[1]")


def test_only_recipes_pages_list_choices():
    doc = base_doc()
    doc["players"][0]["pages"][0]["choices"] = ["baths", "botany"]
    fails("score", doc, "players[0].pages[0].choices")


def test_unknown_keys_are_errors_at_their_own_path():
    doc = base_doc()
    doc["players"][0]["marker"] = {}
    fails("score", doc, "players[0].marker")
    doc = base_doc()
    doc["players"][0]["pages"][0]["phase"] = 2
    fails("score", doc, "players[0].pages[0].phase")


def test_unknown_difficulty_is_refused():
    doc = base_doc()
    doc["players"].append(player("Voynich"))
    doc["solo"] = {"difficulty": "nightmare", "automa": "Voynich"}
    err = fails("score", doc, "solo.difficulty")
    assert "extremely_hard" in err.message


def test_voynich_has_no_research_tokens():
    doc = base_doc()
    doc["players"].append(player("Voynich", research=[3]))
    doc["solo"] = {"difficulty": "medium", "automa": "Voynich"}
    fails("score", doc, "players[1].research")


@pytest.mark.parametrize("automa", ["Zed", 5, None])
def test_solo_automa_must_name_one_of_the_players(automa):
    # [V371] in solo the opponent is Voynich: `automa` names which of the two players he is
    doc = base_doc()
    doc["players"].append(player("Voynich"))
    doc["solo"] = {"difficulty": "medium", "automa": automa}
    fails("score", doc, "solo.automa")


def test_scoring_spaces_must_be_positions():
    doc = base_doc()
    doc["track"]["scoring_spaces"] = {"ten": 3}
    fails("score", doc, "track.scoring_spaces.ten")
    doc["track"]["scoring_spaces"] = {}
    fails("score", doc, "track.scoring_spaces")
    # one space written twice ("7" and "07") is refused, not silently overwritten
    doc["track"]["scoring_spaces"] = {"7": 3, "07": 5}
    fails("score", doc, "track.scoring_spaces.07")


def test_the_highest_track_position_is_accepted_and_one_more_refused():
    # POS_HI bounds typing slips, not the rules: a marker or a scoring space on it is fine
    top = rules.POS_HI
    result = score(player("Ana", gk=top, markers=(top, 0, 0, 0), pages=[{"section": "botany", "multiplier": 1}]),
                   spaces={str(top): 7})
    assert result["players"][0]["breakdown"] == {"gk": top, "research": 0, "pages": 7, "tokens": 0}
    doc = base_doc()
    doc["track"]["scoring_spaces"] = {str(top + 1): 3}
    fails("score", doc, f"track.scoring_spaces.{top + 1}")
    doc = base_doc()
    doc["players"][0]["markers"]["botany"] = top + 1
    fails("score", doc, "players[0].markers.botany")


def test_insight_symbols_sit_on_spaces_1_and_up():
    # [V170] a token for each insight symbol a marker reaches or passes moving forward; the
    # markers start on space 0 [V64], so a symbol there could never be reached
    assert functions.insight_positions([1, rules.POS_HI], "insights") == [1, rules.POS_HI]
    with pytest.raises(RulesError) as err:
        functions.insight_positions([4, 0], "insights")
    assert err.value.field == "insights[1]"
    with pytest.raises(RulesError) as err:
        functions.insight_positions([rules.POS_HI + 1], "insights")
    assert err.value.field == "insights[0]"


def test_an_insight_symbol_under_the_starting_space_was_already_reached():
    # [V170] a token for each symbol "reached or passed": a marker leaving a symbol's space took
    # that token when it arrived there, so from 4 to 10 only the symbol on 9 counts
    assert rules.insights_reached(4, 10, [4, 9, 15]) == [9]
    assert rules.insights_reached(3, 15, [4, 9, 15]) == [4, 9, 15]  # reaching 15 counts it


def test_each_insight_symbol_gives_its_token_once_per_marker():
    # [V170], RULES.md VOY-A2: reached again after a correction back, a symbol already given gives nothing
    assert rules.insights_reached(0, 10, [4, 9, 15]) == [4, 9]
    assert rules.insights_reached(0, 10, [4, 9, 15], given=[4]) == [9]
    assert rules.insights_reached(4, 15, [4, 9, 15], given=[4, 9]) == [15]
    # a correction back takes back only unused tokens, the furthest symbol first [V325]
    assert rules.insights_taken_back(10, 0, [4, 9, 15], given=[4, 9], unused=1) == [9]
    assert rules.insights_taken_back(10, 0, [4, 9, 15], given=[4, 9], unused=0) == []
    assert rules.insights_taken_back(10, 5, [4, 9, 15], given=[4, 9], unused=2) == [9]
    assert rules.insights_taken_back(10, 0, [4, 9, 15], given=[9], unused=2) == [9]
    # a marker back on a symbol's space still reaches it; one leaving it does not
    assert rules.insights_taken_back(10, 9, [4, 9, 15], given=[4, 9], unused=2) == []
    assert rules.insights_taken_back(9, 5, [4, 9, 15], given=[4, 9], unused=2) == [9]


def test_duplicate_player_names_are_refused():
    doc = base_doc()
    doc["players"].append(player("ana"))
    fails("score", doc, "players[1].name")


#: the highest track position or printed value accepted: not a rule, a generous bound to catch
#: typing slips (the end-of-game symbol is on the 52nd space [V80]); written out, not read from
#: rules.POS_HI, so that a changed bound shows
TOP = 999


def with_players(n):
    def change(doc):
        doc["players"] = [player(f"P{i}") for i in range(n)]
    return change


def with_value(*path, value):
    def change(doc):
        target = doc
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = value
    return change


def with_recipes_types(types):
    return with_value("players", 0, "pages", 0, value={"section": "recipes", "multiplier": 1, "choices": types})


def with_solo_tokens(count):
    def change(doc):
        doc["players"].append(player("Voynich"))
        doc["solo"] = {"difficulty": "hard", "automa": "Voynich", "tokens_on_board": count}
    return change


# (id, change to base_doc(), the refused field or None when accepted, what the message says)
SCORE_BOUNDS = [
    # players: 1 (scored alone) to 4, the four books and player colours in the box [V22] [V50]
    ("1 player", with_players(1), None, None),
    ("4 players", with_players(4), None, None),
    ("no player", with_players(0), "players", "1 to 4"),
    ("5 players", with_players(5), "players", "1 to 4"),
    # GK and knowledge markers: from the "0" mark where all five start [V64]; 999 is a
    # generous bound to catch typing slips
    ("gk 0", with_value("players", 0, "gk", value=0), None, None),
    ("gk 999", with_value("players", 0, "gk", value=TOP), None, None),
    ("gk -1", with_value("players", 0, "gk", value=-1), "players[0].gk", f"0 to {TOP}"),
    ("gk 1000", with_value("players", 0, "gk", value=TOP + 1), "players[0].gk", f"0 to {TOP}"),
    ("marker 0", with_value("players", 0, "markers", "baths", value=0), None, None),
    ("marker 999", with_value("players", 0, "markers", "baths", value=TOP), None, None),
    ("marker -1", with_value("players", 0, "markers", "baths", value=-1), "players[0].markers.baths", f"0 to {TOP}"),
    ("marker 1000", with_value("players", 0, "markers", "baths", value=TOP + 1), "players[0].markers.baths",
     f"0 to {TOP}"),
    # research tokens: none to the 6 of the player's colour [V34]
    ("no research token", with_value("players", 0, "research", value=[]), None, None),
    ("6 research tokens", with_value("players", 0, "research", value=[1] * 6), None, None),
    ("7 research tokens", with_value("players", 0, "research", value=[1] * 7), "players[0].research", "0 to 6"),
    # a research token's GK, read off the puzzle grid: never below 0; 999 is generous
    ("research gk 0", with_value("players", 0, "research", value=[0]), None, None),
    ("research gk 999", with_value("players", 0, "research", value=[TOP]), None, None),
    ("research gk -1", with_value("players", 0, "research", value=[-1]), "players[0].research[0]", f"0 to {TOP}"),
    ("research gk 1000", with_value("players", 0, "research", value=[TOP + 1]), "players[0].research[0]",
     f"0 to {TOP}"),
    # pages: none (a short example) to the 10 of a book, 2 per spread [V58]
    ("no page", with_value("players", 0, "pages", value=[]), None, None),
    ("10 pages", with_value("players", 0, "pages", value=[{"section": "baths", "multiplier": 1}] * 10), None, None),
    ("11 pages", with_value("players", 0, "pages", value=[{"section": "baths", "multiplier": 1}] * 11),
     "players[0].pages", "0 to 10"),
    # a Recipes page shows exactly two knowledge types [V363]
    ("recipes 1 type", with_recipes_types(["baths"]), "players[0].pages[0].choices", "exactly 2"),
    ("recipes 3 types", with_recipes_types(["baths", "writings", "botany"]), "players[0].pages[0].choices",
     "exactly 2"),
    # scoring spaces: positions from the "0" mark [V64]; positions and printed GK up to 999, generous
    ("space at 0", with_value("track", "scoring_spaces", value={"0": 3}), None, None),
    ("space at 999", with_value("track", "scoring_spaces", value={str(TOP): 3}), None, None),
    ("space at -1", with_value("track", "scoring_spaces", value={"-1": 3}), "track.scoring_spaces.-1", None),
    ("space at 1000", with_value("track", "scoring_spaces", value={str(TOP + 1): 3}),
     f"track.scoring_spaces.{TOP + 1}", f"0 to {TOP}"),
    ("space gk 0", with_value("track", "scoring_spaces", value={"10": 0}), None, None),
    ("space gk 999", with_value("track", "scoring_spaces", value={"10": TOP}), None, None),
    ("space gk -1", with_value("track", "scoring_spaces", value={"10": -1}), "track.scoring_spaces.10", f"0 to {TOP}"),
    ("space gk 1000", with_value("track", "scoring_spaces", value={"10": TOP + 1}), "track.scoring_spaces.10",
     f"0 to {TOP}"),
    # Voynich's tokens on the board: 0 to 16, 4 each of Leaf, Water Drop, Star, Text [V25-28] (VOY-B10)
    ("0 tokens", with_solo_tokens(0), None, None),
    ("16 tokens", with_solo_tokens(16), None, None),
    ("-1 tokens", with_solo_tokens(-1), "solo.tokens_on_board", "0 to 16"),
    ("17 tokens", with_solo_tokens(17), "solo.tokens_on_board", "0 to 16"),
]


@pytest.mark.parametrize("change,field,says", [b[1:] for b in SCORE_BOUNDS], ids=[b[0] for b in SCORE_BOUNDS])
def test_score_input_bounds(change, field, says):
    doc = base_doc()
    change(doc)
    if field is None:
        before = copy.deepcopy(doc)
        result = run("score", doc)
        assert [p["name"] for p in result["players"]] == [p["name"] for p in doc["players"]]
        assert doc == before
    else:
        err = fails("score", doc, field)
        if says:
            assert says in err.message  # the message names the accepted range


# --- the priority scan ---------------------------------------------------------------------

def test_priority_scan_starts_on_the_priority_number_when_present():
    assert run("priority_scan", {"priority": 22, "present": [7, 22, 30]}) == {"order": [22, 30, 7]}


def test_priority_scan_wraps_from_40_to_1():
    assert run("priority_scan", {"priority": 35, "present": [40, 3, 33, 12]}) == {"order": [33, 40, 3, 12]}


def test_priority_scan_with_nothing_lower_wraps_to_the_highest():
    # VOY-C13: below the lowest number present, wrap to the highest
    assert run("priority_scan", {"priority": 2, "present": [5, 17, 29]}) == {"order": [29, 5, 17]}


@pytest.mark.parametrize("doc,field", [
    ({"priority": 0, "present": [1]}, "priority"),
    ({"priority": 41, "present": [1]}, "priority"),
    ({"priority": 5, "present": [1, 41]}, "present[1]"),
    ({"priority": 5, "present": [4, 4]}, "present[1]"),
    ({"priority": 5, "present": []}, "present"),
    ({"priority": 5, "present": [3], "extra": 1}, "extra"),
])
def test_priority_scan_bad_input(doc, field):
    fails("priority_scan", doc, field)


@pytest.mark.parametrize("doc,expected", [
    # the priority number is a card's page number, 1 to 40 [V23] [V430]
    ({"priority": 1, "present": [7, 30]}, [30, 7]),  # nothing lower: wrap to the highest (VOY-C13)
    ({"priority": 40, "present": [7, 30]}, [30, 7]),
    ({"priority": 0, "present": [7, 30]}, "priority"),
    ({"priority": 41, "present": [7, 30]}, "priority"),
    # a part of the solo board shows 1 to all 40 of those numbers, each once (VOY-B7)
    ({"priority": 18, "present": [7]}, [7]),
    ({"priority": 18, "present": list(range(40, 0, -1))}, list(range(18, 41)) + list(range(1, 18))),
    ({"priority": 18, "present": []}, "present"),
    ({"priority": 18, "present": list(range(1, 41)) + [1]}, "present"),
    ({"priority": 18, "present": [1, 40]}, [1, 40]),
    ({"priority": 18, "present": [0, 40]}, "present[0]"),
    ({"priority": 18, "present": [1, 41]}, "present[1]"),
])
def test_priority_scan_input_bounds(doc, expected):
    if isinstance(expected, str):
        fails("priority_scan", doc, expected)
    else:
        assert run("priority_scan", doc) == {"order": expected}


# --- the Voynich deck ----------------------------------------------------------------------

SECTIONS = rules.card_sections(CARDS)


def test_flip_skips_cards_of_the_open_spread():
    f = rules.flip([12, 15, 3], [], "astrology", SECTIONS, random.Random(0))
    assert f["card"] == 3
    assert f["skipped"] == [12, 15]
    assert f["discard"] == [12, 15, 3]
    assert f["deck"] == []
    assert f["reshuffled"] is False


def test_reshuffle_keeps_the_top_card_out_of_the_new_deck():
    for seed in range(30):
        f = rules.flip([], [3, 8, 12, 21], "baths", SECTIONS, random.Random(seed))
        assert f["reshuffled"] is True
        assert f["discard"][0] == 21 and len(f["discard"]) == 2
        assert sorted(f["deck"] + [f["card"]]) == [3, 8, 12]


def test_reshuffle_then_skip_still_opens_a_new_spread():
    # the deck runs out while skipping: the rebuilt deck keeps going
    f = rules.flip([24], [3, 12, 21], "baths", SECTIONS, random.Random(4))
    assert f["reshuffled"] is True
    assert f["skipped"][0] == 24
    assert SECTIONS[f["card"]] != "baths"


def test_odd_page_number_studies_the_left_page_even_the_right():
    assert rules.page_side(15) == "left"
    assert rules.page_side(12) == "right"


def test_solo_turns_follow_parity_skip_and_reshuffle_rules():
    for seed in range(40):
        result = run("solo_turns", {"cards": CARDS, "difficulty": "medium", "turns": 25, "seed": seed})
        deck = result["deck"]
        assert sorted(deck) == sorted(n for pair in CARDS.values() for n in pair)
        assert SECTIONS[deck[0]] != "recipes"  # [V373]
        phases = {int(k): v for k, v in result["phases"].items()}
        assert set(phases.values()) == {1}
        open_spread = None
        remaining = 10  # deck + discard always hold all ten cards
        for turn in result["turns"]:
            for card in turn["skipped"]:
                assert SECTIONS[card] == open_spread
            assert turn["spread"] == SECTIONS[turn["card"]] != open_spread
            assert turn["page"] == ("left" if turn["card"] % 2 else "right")
            page_card = CARDS[turn["spread"]][0 if turn["page"] == "left" else 1]
            phases[page_card] = min(4, phases[page_card] + 1)
            assert turn["phase"] == phases[page_card]
            open_spread = turn["spread"]
            rebuilt = False
            for _ in range(len(turn["skipped"]) + 1):
                if remaining == 0:
                    remaining, rebuilt = 9, True  # all but the discard's top card
                remaining -= 1
            assert turn["reshuffled"] == rebuilt


def test_solo_turns_reshuffles_when_the_tenth_flip_is_done():
    result = run("solo_turns", {"cards": CARDS, "difficulty": "medium", "turns": 30, "seed": 3})
    turns = result["turns"]
    flips, first = 0, None
    for i, turn in enumerate(turns):
        before = flips
        flips += len(turn["skipped"]) + 1
        if flips > 10:
            first = i
            break
        assert turn["reshuffled"] is False, before
    assert turns[first]["reshuffled"] is True


def test_solo_turns_same_seed_same_game():
    doc = {"cards": CARDS, "difficulty": "hard", "turns": 15, "seed": 99}
    assert run("solo_turns", doc) == run("solo_turns", copy.deepcopy(doc))


def test_unseeded_solo_turns_draw_a_32_bit_seed_from_the_system(monkeypatch):
    # CONTRACT.md: randomness takes an optional seed; without one each run is seeded afresh from
    # the system's randomness, over the whole 32-bit range (this stand-in draws its top)
    drawn = []

    class TopDraw:
        def randrange(self, n):
            drawn.append(n)
            return n - 1

    monkeypatch.setattr(rules.random, "SystemRandom", TopDraw)
    doc = {"cards": CARDS, "difficulty": "medium", "turns": 20}
    unseeded = run("solo_turns", doc)
    assert drawn == [2**32]
    assert unseeded == run("solo_turns", dict(doc, seed=2**32 - 1))


@pytest.mark.parametrize("difficulty", rules.DIFFICULTIES)
def test_every_difficulty_setup_advance(difficulty):
    result = run("solo_turns", {"cards": CARDS, "difficulty": difficulty, "turns": 0, "seed": 1})
    advanced = {"3", "21", "15", "33"}  # Botany-L, Baths-L, Astrology-R, Writings-R [V375]
    for card, phase in result["phases"].items():
        expected = 2 if difficulty in ("very_hard", "extremely_hard") and card in advanced else 1
        assert phase == expected, (card, phase)
    assert result["turns"] == []


def test_study_stops_at_the_final_phase():
    assert rules.study({3: 4, 8: 1}, 3) == {3: 4, 8: 1}
    assert rules.study({3: 3, 8: 1}, 3) == {3: 4, 8: 1}


@pytest.mark.parametrize("change,field", [
    (("botany", 0, 41), "cards.botany[0]"),
    (("botany", 0, 0), "cards.botany[0]"),
    (("baths", 1, 3), "cards.baths[1]"),
])
def test_solo_turns_card_numbers_checked(change, field):
    cards = copy.deepcopy(CARDS)
    section, i, n = change
    cards[section][i] = n
    fails("solo_turns", {"cards": cards, "difficulty": "easy", "turns": 1}, field)


@pytest.mark.parametrize("change,field", [
    # card numbers: the 40 Voynich cards are numbered 1 to 40 [V23] [V430]
    ({"cards": dict(CARDS, botany=[1, 8], recipes=[36, 40])}, None),
    ({"cards": dict(CARDS, botany=[0, 8])}, "cards.botany[0]"),
    ({"cards": dict(CARDS, recipes=[36, 41])}, "cards.recipes[1]"),
    # turns: 0 (the setup alone) to 1000, a generous bound to catch typing slips
    ({"turns": 0}, None),
    ({"turns": 1000}, None),
    ({"turns": -1}, "turns"),
    ({"turns": 1001}, "turns"),
])
def test_solo_turns_input_bounds(change, field):
    doc = dict({"cards": CARDS, "difficulty": "medium", "turns": 12, "seed": 5}, **change)
    if field is None:
        result = run("solo_turns", doc)
        assert len(result["turns"]) == doc["turns"]
        assert sorted(result["deck"]) == sorted(n for pair in doc["cards"].values() for n in pair)
    else:
        fails("solo_turns", doc, field)


def test_each_spread_holds_exactly_two_cards():
    # [V58] each spread holds 2 pages, one card each: a third number in a section is refused
    for section in rules.SECTIONS:
        cards = copy.deepcopy(CARDS)
        cards[section].append(40)
        fails("solo_turns", {"cards": cards, "difficulty": "easy", "turns": 3}, f"cards.{section}")


def test_solo_turns_needs_all_five_spreads_and_a_real_difficulty():
    cards = copy.deepcopy(CARDS)
    del cards["recipes"]
    fails("solo_turns", {"cards": cards, "difficulty": "easy", "turns": 1}, "cards.recipes")
    fails("solo_turns", {"cards": CARDS, "difficulty": "insane", "turns": 1}, "difficulty")
    fails("solo_turns", {"cards": dict(CARDS, botany=[3]), "difficulty": "easy", "turns": 1}, "cards.botany")


# --- final turns ---------------------------------------------------------------------------

def test_final_turns_finish_the_round_then_one_more_each():
    assert run("final_turns", {"players": ["A", "B", "C"], "trigger": "B"}) == {"turns": ["C", "A", "B", "C"]}
    assert run("final_turns", {"players": ["A", "B", "C"], "trigger": "C"}) == {"turns": ["A", "B", "C"]}
    assert run("final_turns", {"players": ["A", "B", "C"], "trigger": "A"}) == {"turns": ["B", "C", "A", "B", "C"]}


def test_solo_final_turns_when_voynich_triggers():
    # VOY-C21: the human is first, so Voynich's trigger completes the round: one more each
    assert run("final_turns", {"players": ["Ana", "Voynich"], "trigger": "Voynich"}) == {"turns": ["Ana", "Voynich"]}


def test_final_turns_with_four_players():
    # [V356] up to four players [V50]; the fourth triggering leaves exactly one more round
    players = ["A", "B", "C", "D"]
    assert run("final_turns", {"players": players, "trigger": "D"}) == {"turns": players}
    assert run("final_turns", {"players": players, "trigger": "B"}) == {"turns": ["C", "D", "A", "B", "C", "D"]}
    fails("final_turns", {"players": players + ["E"], "trigger": "A"}, "players")


@pytest.mark.parametrize("players,expected", [
    # 1 to 4 players [V22] [V50]; [V356] alone, the round is already complete: one more turn
    (["A"], ["A"]),
    (["A", "B", "C", "D"], ["A", "B", "C", "D"]),
    ([], "players"),
    (["A", "B", "C", "D", "E"], "players"),
])
def test_final_turns_input_bounds(players, expected):
    doc = {"players": players, "trigger": players[-1] if players else "A"}
    if isinstance(expected, str):
        fails("final_turns", doc, expected)
    else:
        assert run("final_turns", doc) == {"turns": expected}


def test_final_turns_bad_trigger():
    fails("final_turns", {"players": ["A", "B"], "trigger": "Z"}, "trigger")
    fails("final_turns", {"players": ["A", "A"], "trigger": "A"}, "players[1]")
