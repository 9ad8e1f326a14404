"""The Voynich table: events folded into state, refused events changing nothing, views."""

import copy

import pytest

from companion.games.base import Context
from companion.games.validation import RulesError
from companion.games.voynich import GAME
from companion.games.voynich.profile import validate_profile

CARDS = {"botany": [3, 8], "astrology": [12, 15], "baths": [21, 24], "writings": [30, 33], "recipes": [36, 39]}
PROFILE = {"track": {"scoring_spaces": {"10": 3, "20": 6, "30": 10}, "insights": [4, 9, 15]}}


class Table:
    """A table driven through the Game interface, the way the framework folds events."""

    def __init__(self, names, options=None, profile=None, seed=7):
        self.names = list(names)
        self.options = GAME.validate_options(options or {}, len(names))
        self.profile = validate_profile(profile or {})
        self.ctx = Context(names=tuple(self.names), options=self.options, profile=self.profile, seed=seed)
        self.state = GAME.initial_state(self.names, self.options, self.profile)
        self.history = []

    def do(self, type_, **data):
        before = copy.deepcopy(self.state)
        new = GAME.apply(self.state, type_, data, self.ctx)
        assert self.state == before  # apply never mutates its input
        self.history.append(self.state)
        self.state = new
        return new

    def undo(self):
        self.state = self.history.pop()

    def refused(self, type_, field, **data):
        before = copy.deepcopy(self.state)
        with pytest.raises(RulesError) as err:
            GAME.apply(self.state, type_, data, self.ctx)
        assert err.value.field == field, err.value
        assert self.state == before
        return err.value

    def view(self, screen=None):
        return GAME.view(self.state, self.names, self.options, self.profile, screen)

    def markers(self, i):
        return self.state["players"][i]["markers"]


def test_markers_start_at_zero_and_move():
    t = Table(["Ana", "Bea"], profile=PROFILE)
    assert t.markers(0) == {"botany": 0, "astrology": 0, "baths": 0, "writings": 0, "gk": 0}
    t.do("move", player=1, marker="baths", delta=3)
    assert t.markers(1)["baths"] == 3


def test_insight_symbols_give_exchange_tokens_of_the_markers_type():
    t = Table(["Ana", "Bea"], profile=PROFILE)
    t.do("move", player=0, marker="botany", delta=3)
    assert t.state["players"][0]["exchange"]["botany"] == 0
    t.do("move", player=0, marker="botany", delta=1)  # reaches 4
    assert t.state["players"][0]["exchange"]["botany"] == 1
    t.do("move", player=0, marker="astrology", delta=10)  # passes 4 and 9
    assert t.state["players"][0]["exchange"]["astrology"] == 2
    t.do("move", player=0, marker="gk", delta=20)  # [V174] GK: nothing
    assert sum(t.state["players"][0]["exchange"].values()) == 3
    assert "botany: 1" in str(t.view()["players"][0]["exchange"]).replace("'", "")


def test_a_used_token_is_not_given_again_after_a_correction_back_and_forth():
    # Issue 27, finding 15. [V170] "Every time you reach or pass an insight symbol": a marker only
    # moves forward in play, so each symbol gives its token once per marker; moving back over it
    # is a correction, and reaching it again is the same reach. Ana's token was used.
    t = Table(["Ana", "Bea"], profile=PROFILE)
    t.do("move", player=0, marker="botany", delta=4)  # reaches 4: one token
    t.do("exchange", player=0, type="botany")  # used: a botany piece placed [V325]
    t.do("move", player=0, marker="botany", delta=-2)  # a correction back over 4
    assert t.state["players"][0]["exchange"]["botany"] == 0
    t.do("move", player=0, marker="botany", delta=2)  # on 4 again: no second token
    assert t.state["players"][0]["exchange"]["botany"] == 0
    t.do("end_turn")  # nothing left to place


def test_a_correction_back_takes_back_an_unused_token_and_the_symbol_gives_it_again():
    # a mis-tap: the token it gave was never used, so the correction takes it back and the
    # symbol has given nothing; the real move then gives it
    t = Table(["Ana", "Bea"], profile=PROFILE)
    t.do("move", player=0, marker="baths", delta=5)
    t.do("move", player=0, marker="baths", delta=-5)
    assert t.state["players"][0]["exchange"]["baths"] == 0
    t.do("move", player=0, marker="baths", delta=4)
    assert t.state["players"][0]["exchange"]["baths"] == 1


def test_two_symbols_one_token_used_then_back_and_forth_gives_only_the_other_again():
    # astrology passes 4 and 9 (two tokens [V170], VOY-A2), one is used; back to 0 takes the
    # unused one back (the symbol on 9's), forward again to 10 gives only that one
    t = Table(["Ana", "Bea"], profile=PROFILE)
    t.do("move", player=0, marker="astrology", delta=10)
    t.do("exchange", player=0, type="astrology")
    t.do("move", player=0, marker="astrology", delta=-10)
    assert t.state["players"][0]["exchange"]["astrology"] == 0
    t.do("positions", player=0, markers={"astrology": 10})  # typed: the same as a move [V170]
    assert t.state["players"][0]["exchange"]["astrology"] == 1


def test_a_table_stored_before_the_symbols_were_kept_counts_those_up_to_each_marker():
    # a state without "insights": every symbol up to a marker's position gave its token [V170]
    t = Table(["Ana", "Bea"], profile=PROFILE)
    t.do("move", player=0, marker="writings", delta=9)  # 4 and 9
    t.do("exchange", player=0, type="writings")
    t.do("exchange", player=0, type="writings")
    del t.state["players"][0]["insights"]
    t.do("move", player=0, marker="writings", delta=-9)
    t.do("move", player=0, marker="writings", delta=10)
    assert t.state["players"][0]["exchange"]["writings"] == 0
    assert t.state["players"][0]["insights"]["writings"] == [4, 9]


def test_without_insight_positions_no_tokens_are_invented():
    t = Table(["Ana", "Bea"])
    t.do("move", player=0, marker="botany", delta=20)
    assert t.state["players"][0]["exchange"]["botany"] == 0


def test_exchange_tokens_must_be_used_before_the_turn_ends():
    t = Table(["Ana", "Bea"], profile=PROFILE)
    t.do("move", player=0, marker="baths", delta=4)
    t.refused("end_turn", "data")
    t.do("exchange", player=0, type="baths")
    t.do("end_turn")
    assert t.state["turn"] == 1


def test_exchange_without_a_token_is_refused():
    t = Table(["Ana", "Bea"], profile=PROFILE)
    t.refused("exchange", "data.type", player=0, type="baths")


def test_markers_below_zero_are_refused_and_nothing_changes():
    t = Table(["Ana", "Bea"])
    t.do("move", player=0, marker="writings", delta=2)
    err = t.refused("move", "data.delta", player=0, marker="writings", delta=-3)
    assert "below 0" in err.message
    t.refused("move", "data.marker", player=0, marker="recipes", delta=1)
    t.refused("move", "data.player", player=2, marker="gk", delta=1)
    t.refused("move", "data.delta", player=0, marker="gk", delta=0)
    t.refused("move", "data.colour", player=0, marker="gk", delta=1, colour="red")


def test_gk_reaching_52_triggers_the_end_and_names_the_turns_left():
    t = Table(["Ana", "Bea", "Cy"], profile=PROFILE)
    t.do("end_turn")  # Bea's turn
    t.do("move", player=1, marker="gk", delta=51)
    assert t.state["end"] is None
    t.do("move", player=1, marker="gk", delta=1)
    end = t.view()["end"]
    assert end["trigger"] == "Bea"
    assert end["remaining"] == ["Cy", "Ana", "Bea", "Cy"]  # [V356]
    for expected in ["Cy", "Ana", "Bea", "Cy"]:
        t.do("end_turn")
        assert t.view()["turn_name"] == expected
        assert not t.state["over"]
    t.do("end_turn")
    assert t.state["over"]
    t.refused("end_turn", "data")


def test_a_gain_outside_your_turn_triggers_on_the_current_players_turn():
    t = Table(["Ana", "Bea"])
    t.do("move", player=1, marker="gk", delta=55)  # during Ana's turn
    assert t.view()["end"]["trigger"] == "Ana"
    assert t.view()["end"]["remaining"] == ["Bea", "Ana", "Bea"]


def test_profile_can_confirm_a_different_end_number():
    t = Table(["Ana", "Bea"], profile={"track": {"end": 51}})
    t.do("move", player=0, marker="gk", delta=51)
    assert t.state["end"] is not None


def test_study_advances_one_phase_up_to_four():
    t = Table(["Ana", "Bea"])
    for phase in (2, 3, 4):
        t.do("study", player=0, page=4)
        assert t.state["players"][0]["pages"][4]["phase"] == phase
    t.refused("study", "data.page", player=0, page=4)
    t.refused("study", "data.page", player=0, page=10)


def full_book(t, i, mult=2):
    for page in range(10):
        t.do("page", player=i, page=page, phase=2, multiplier=mult,
             **({"choices": ["baths", "writings"]} if page >= 8 else {}))


def test_end_scoring_from_table_entries():
    t = Table(["Ana", "Bea"], profile=PROFILE)
    for marker, delta in (("botany", 12), ("astrology", 22), ("baths", 31), ("writings", 5), ("gk", 40)):
        t.do("move", player=0, marker=marker, delta=delta)
        t.state["players"][0]["exchange"] = {k: 0 for k in t.state["players"][0]["exchange"]}
    full_book(t, 0, mult=1)
    full_book(t, 1, mult=1)
    t.do("research", player=0, gk=3)
    t.do("research", player=0, gk=4)
    result = t.view("end")["result"]
    assert result["complete"], result["missing"]
    ana = result["players"][0]
    # pages: botany 3+3, astrology 6+6, baths 10+10, writings 0+0, recipes baths 10+10 = 58; research 7//2 = 3
    assert ana["breakdown"] == {"gk": 40, "research": 3, "pages": 58, "tokens": 0}
    assert [d["section"] for d in ana["pages_detail"]][8:] == ["baths", "baths"]
    assert result["winners"] == ["Ana"]


def test_end_scoring_says_what_is_missing_rather_than_guessing():
    t = Table(["Ana", "Bea"])
    t.do("study", player=0, page=0)
    result = t.view("end")["result"]
    assert not result["complete"]
    assert any("scoring spaces" in m for m in result["missing"])
    assert any("Botany left" in m for m in result["missing"])


def test_recipes_override_and_bad_page_entries():
    t = Table(["Ana", "Bea"], profile=PROFILE)
    t.do("move", player=0, marker="botany", delta=3)
    t.do("move", player=0, marker="writings", delta=30)
    t.state["players"][0]["exchange"] = {k: 0 for k in t.state["players"][0]["exchange"]}
    t.refused("page", "data.multiplier", player=0, page=9, phase=3, multiplier=3)
    t.refused("page", "data.choices", player=0, page=9, phase=3, multiplier=1, choices=["baths", "baths"])
    t.refused("page", "data.choices", player=0, page=2, phase=3, multiplier=1, choices=["baths", "botany"])
    t.refused("page", "data.chosen", player=0, page=9, chosen="botany")
    t.do("page", player=0, page=9, phase=3, multiplier=4, choices=["botany", "writings"])
    detail = t.view()["result"]["players"][0]["pages_detail"][9]
    assert (detail["section"], detail["points"]) == ("writings", 40)
    t.do("page", player=0, page=9, chosen="botany")
    detail = t.view()["result"]["players"][0]["pages_detail"][9]
    assert (detail["section"], detail["points"]) == ("botany", 0)
    t.do("page", player=0, page=9, chosen=None)
    assert t.view()["result"]["players"][0]["pages_detail"][9]["section"] == "writings"


def test_catalogue_gives_multipliers_from_the_phase():
    profile = dict(PROFILE, cards={"3": {"section": "botany", "multipliers": [1, 2, 4]}})
    t = Table(["Ana", "Bea"], profile=profile)
    t.do("book", player=0, cards=CARDS)
    t.do("study", player=0, page=0)
    t.do("study", player=0, page=0)
    page = t.view()["players"][0]["pages"][0]
    assert (page["card"], page["phase"], page["multiplier"]) == (3, 3, 2)


def test_research_tokens_by_gk_or_grid_cell():
    profile = dict(PROFILE, grid=[[1, 2, None], [3, 4, 5]])
    t = Table(["Ana", "Bea"], profile=profile)
    t.do("research", player=0, cell=[1, 2])
    t.do("research", player=0, gk=6)
    assert t.state["players"][0]["research"] == [5, 6]
    t.refused("research", "data.cell", player=0, cell=[0, 2])
    t.refused("research", "data.cell[0]", player=0, cell=[5, 0])
    t.do("research_remove", player=0, index=0)
    assert t.state["players"][0]["research"] == [6]
    for _ in range(5):
        t.do("research", player=0, gk=1)
    t.refused("research", "data.gk", player=0, gk=1)  # [V34] six research tokens


def test_table_entered_track_values():
    t = Table(["Ana", "Bea"])
    t.refused("track", "data.scoring_spaces.x", scoring_spaces={"x": 1})
    t.do("track", scoring_spaces={"10": 3}, insights=[5])
    t.do("move", player=0, marker="baths", delta=6)
    assert t.state["players"][0]["exchange"]["baths"] == 1


def test_profile_validation():
    with pytest.raises(RulesError) as err:
        validate_profile({"grid": [[1, "a"]]})
    assert err.value.field == "grid[0][1]"
    with pytest.raises(RulesError) as err:
        validate_profile({"solo_spaces": {"astrology": [3, 3]}})
    assert err.value.field == "solo_spaces.astrology[1]"
    with pytest.raises(RulesError) as err:
        validate_profile({"cards": {"41": {"section": "botany", "multipliers": [1, 2, 4]}}})
    assert err.value.field == "cards.41"
    with pytest.raises(RulesError) as err:
        validate_profile({"cards": {"4": {"section": "botany", "multipliers": [1, 3, 4]}}})
    assert err.value.field == "cards.4.multipliers[1]"
    with pytest.raises(RulesError) as err:
        validate_profile({"track": {"insights": [4, 4]}})
    assert err.value.field == "track.insights[1]"


# --- solo ----------------------------------------------------------------------------------

def solo(difficulty="medium", profile=PROFILE, options=None, seed=7):
    t = Table(["Ana"], options=options, profile=profile, seed=seed)
    t.do("solo_setup", cards=CARDS, difficulty=difficulty)
    return t


def test_solo_table_seats_voynich_after_the_human():
    t = Table(["Ana"])
    assert t.view()["players"][1]["name"] == "Voynich"
    assert t.view()["turn_name"] == "Ana"  # [V377]


@pytest.mark.parametrize("difficulty", ["very_hard", "extremely_hard"])
def test_pre_advance_at_very_hard_and_extremely_hard(difficulty):
    t = solo(difficulty)
    phases = [p["phase"] for p in t.state["players"][1]["pages"]]
    # Botany-L, Astrology-R, Baths-L, Writings-R [V375]; Recipes untouched
    assert phases == [2, 1, 1, 2, 2, 1, 1, 2, 1, 1]
    assert len(t.view()["voynich"]["advanced"]) == 4


@pytest.mark.parametrize("difficulty", ["easy", "medium", "hard"])
def test_no_pre_advance_below_very_hard(difficulty):
    t = solo(difficulty)
    assert {p["phase"] for p in t.state["players"][1]["pages"]} == {1}


def test_solo_setup_bad_input_changes_nothing():
    t = Table(["Ana"])
    t.refused("solo_setup", "data.difficulty", cards=CARDS, difficulty="impossible")
    t.refused("solo_setup", "data.cards.baths[0]", cards=dict(CARDS, baths=[41, 24]), difficulty="easy")
    t.refused("solo_setup", "data.cards.baths[0]", cards=dict(CARDS, baths=[3, 24]), difficulty="easy")
    t2 = Table(["Ana", "Bea"])
    t2.refused("solo_setup", "data", cards=CARDS, difficulty="easy")


def test_voynich_turn_flips_studies_by_parity_and_gives_the_priority():
    t = solo()
    t.refused("voynich_flip", "data")  # Ana's turn
    t.do("end_turn")
    deck = list(t.state["voynich"]["deck"])
    t.do("voynich_flip")
    turn = t.state["voynich"]["turn"]
    assert turn["card"] == deck[0]
    assert turn["priority"] == deck[0]
    assert turn["page"] == ("left" if deck[0] % 2 else "right")
    assert turn["studied"] and turn["phase"] == 2
    spread = turn["spread"]
    page = CARDS[spread].index(CARDS[spread][0 if turn["page"] == "left" else 1])
    assert t.state["players"][1]["pages"][2 * list(CARDS).index(spread) + page]["phase"] == 2
    t.refused("voynich_flip", "data")  # once per turn
    t.do("voynich_research")
    assert t.markers(1)["gk"] == 1  # [V382]


def test_no_benefit_reflip_opens_a_new_page_without_studying():
    t = solo()
    t.do("end_turn")
    t.do("voynich_flip")
    first = t.state["voynich"]["turn"]
    phases_before = [p["phase"] for p in t.state["players"][1]["pages"]]
    t.do("voynich_reflip")
    turn = t.state["voynich"]["turn"]
    assert turn["spread"] != first["spread"]
    assert not turn["studied"]
    assert turn["abandoned"] == [first["card"]]
    assert [p["phase"] for p in t.state["players"][1]["pages"]] == phases_before


def test_undone_flip_redone_flips_the_same_card():
    t = solo()
    t.do("end_turn")
    for _ in range(12):  # past a reshuffle
        t.do("voynich_flip")
        t.do("end_turn")
        t.do("end_turn")
    t.do("voynich_flip")
    card = t.state["voynich"]["turn"]["card"]
    t.undo()
    t.do("voynich_flip")
    assert t.state["voynich"]["turn"]["card"] == card


def test_voynich_gains_the_cell_gk_for_each_piece_placed():
    t = solo(profile=dict(PROFILE, grid=[[2, 5]]))
    t.do("end_turn")
    t.do("voynich_flip")
    t.do("move", player=1, marker="astrology", delta=4)
    t.refused("end_turn", "data")
    t.refused("exchange", "data.gk", player=1, type="astrology")
    t.do("exchange", player=1, type="astrology", cell=[0, 1])
    assert t.markers(1)["gk"] == 5  # [V424]
    t.do("end_turn")
    assert t.state["turn"] == 0


def test_voynich_scan_orders_from_the_profile():
    profile = dict(PROFILE, solo_spaces={"astrology": [5, 13, 22, 31, 38], "recipes": [2, 40]})
    t = solo(profile=profile)
    t.do("end_turn")
    t.do("voynich_flip")
    p = t.state["voynich"]["turn"]["priority"]
    listed = t.view()["voynich"]["scans"]
    spread = t.state["voynich"]["turn"]["spread"]
    # the open spread's own part comes first
    assert listed[0]["in_spread"] == (spread in ("astrology", "recipes"))
    scans = {s["part"]: s["order"] for s in listed}
    assert set(scans) == {"astrology", "recipes"}
    assert sorted(scans["astrology"]) == [5, 13, 22, 31, 38]
    assert scans["astrology"][0] == max([n for n in [5, 13, 22, 31, 38] if n <= p] or [38])


def test_solo_end_scoring_by_difficulty_and_strict_win():
    t = solo("extremely_hard")
    t.do("move", player=0, marker="gk", delta=30)
    t.do("move", player=1, marker="gk", delta=10)
    for page in range(10):
        t.do("page", player=0, page=page, phase=1)
    result = t.view("end")["result"]
    assert any("tokens on the board" in m for m in result["missing"])
    t.refused("voynich_tokens", "data.count", count=17)
    t.do("voynich_tokens", count=4)
    result = t.view("end")["result"]
    # Voynich's 4 pre-advanced pages need multipliers (no catalogue): entered per page
    for page in (0, 3, 4, 7):
        t.do("page", player=1, page=page, multiplier=1)
    result = t.view("end")["result"]
    assert result["complete"], result["missing"]
    voy = result["players"][1]
    assert voy["breakdown"]["tokens"] == 20  # [V495] 5 x 4
    assert voy["total"] == 30
    assert result["winners"] == ["Voynich"] and result["outcome"] == "loss"  # 30 vs 30: a tie is a loss
    assert result["tie_break"]["total"] == 30


def test_solo_tie_rule_option():
    with pytest.raises(RulesError) as err:
        GAME.validate_options({"solo_tie": "tie_break"}, 2)
    assert err.value.field == "solo_tie"
    t = solo("medium", options={"solo_tie": "tie_break"})
    t.do("move", player=0, marker="botany", delta=1)
    for i in (0, 1):
        for page in range(10):
            t.do("page", player=i, page=page, phase=1)
    result = t.view("end")["result"]
    assert result["winners"] == ["Ana"] and result["tie_rule"] == "tie_break"


def test_voynich_has_no_research_tokens_at_the_table():
    t = solo()
    t.refused("research", "data.player", player=1, gk=3)


def test_describe_names_voynich():
    assert GAME.describe("move", {"player": 1, "marker": "gk", "delta": 2}, ["Ana"]) == "Voynich: +2 GK"
    assert GAME.describe("voynich_research", {}, ["Ana"]) == "Voynich: research action, +1 GK"


def test_unknown_event_is_refused():
    t = Table(["Ana", "Bea"])
    t.refused("teleport", "type")


def test_history_lines_for_pages():
    assert GAME.describe("page", {"player": 0, "page": 9, "phase": 3, "multiplier": 2}, ["Ana", "Bea"]) == "Ana: Recipes right phase 3, ×2"
    assert GAME.describe("study", {"player": 1, "page": 0}, ["Ana", "Bea"]) == "Bea: studied Botany left"


def test_solo_turns_wait_for_voynichs_setup():
    t = Table(["Ana"])
    t.refused("end_turn", "data")
    t.do("solo_setup", cards=CARDS, difficulty="easy")
    t.do("end_turn")
    assert t.view()["turn_name"] == "Voynich"


def test_events_that_would_change_nothing_are_refused():
    t = Table(["Ana", "Bea"])
    t.refused("track", "data")
    t.refused("page", "data", player=0, page=3)
    with pytest.raises(RulesError) as err:
        GAME.apply(t.state, "move", [1, 2], t.ctx)
    assert err.value.field == "data"
