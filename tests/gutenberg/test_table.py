"""A Gutenberg table folded from its events, as the framework does it (no Flask)."""

import copy

import pytest

from companion.games import get
from companion.games.base import Context
from companion.games.validation import RulesError

GAME = get("gutenberg")
ACTIONS = ["take_orders", "take_inks", "develop_specialties", "improve_printing_houses", "patronage"]
START = {"take_orders": 2, "take_inks": 1, "develop_specialties": 1, "improve_printing_houses": 2, "patronage": 1}
CARD = {"centre": "develop_specialties", "moves": [["take_orders", "take_inks"]], "patronage": True}


def m(*counts):
    return dict(zip(ACTIONS, counts))


class Table:
    """A table's event log and the state folded from it, with undo like the framework's."""

    def __init__(self, names, options=None, profile=None, seed=42):
        self.names = list(names)
        self.options = GAME.validate_options(options or {}, len(names))
        self.profile = GAME.validate_profile(profile or {})
        self.ctx = Context(names=tuple(names), options=self.options, profile=self.profile, seed=seed)
        self.log = []

    @property
    def state(self):
        state = GAME.initial_state(self.names, self.options, self.profile)
        for type_, data in self.log:
            state = GAME.apply(state, type_, data, self.ctx)
        return state

    def do(self, type_, **data):
        before = self.state
        frozen = copy.deepcopy(before)
        GAME.apply(before, type_, data, self.ctx)  # raises before anything is logged
        assert before == frozen, "apply must not change the state it is given"
        self.log.append((type_, data))
        return self.state

    def fails(self, type_, **data):
        before = self.state
        with pytest.raises(RulesError) as info:
            GAME.apply(before, type_, data, self.ctx)
        assert self.state == before
        return info.value

    def undo(self):
        self.log.pop()
        return self.state


def solo(**profile):
    return Table(["Ada"], {"automa": True}, profile)


# --- setup --------------------------------------------------------------------------------

def test_new_table_starting_resources():
    state = Table(["Anna", "Tom", "Kate"]).state
    assert state["round"] == 1 and state["first"] == 0 and state["seats"] == [0, 1, 2]
    assert state["players"][0] == {
        "fame": 0, "guilders": 10, "types": 3, "inks": 0,
        "specialties": {"typesetting": 0, "woodcutting": 0, "binding": 0, "illuminating": 0},
        "rewards": [], "patronage_cards": 0, "character": None, "markers": None, "used": {}}
    assert state["automa"] is None


def test_automa_takes_the_first_player_token_in_its_seat():
    table = Table(["Anna", "Tom"], {"automa": True, "automa_seat": 1})
    state = table.state
    assert state["seats"] == [0, "automa", 1]
    assert state["first"] == 1
    view = GAME.view(state, table.names, table.options, table.profile, None)
    assert [(o["name"], o["holds"]) for o in view["order"]] == [("Automa", 7), ("Tom", 8), ("Anna", 9)]


def test_starting_layout_from_the_box_profile():
    state = solo(automa_start=START).state
    assert state["automa"]["markers"] == START


@pytest.mark.parametrize("options,field", [
    ({"automa": True, "first_player": 1}, "first_player"),
    ({"automa_seat": 1}, "automa_seat"),
    ({"automa": "yes"}, "automa"),
    ({"first_player": 3}, "first_player"),
    ({"automa": True, "take_orders_deck": "two"}, "take_orders_deck"),
    ({"colour": "red"}, "colour"),
])
def test_bad_options(options, field):
    with pytest.raises(RulesError) as info:
        GAME.validate_options(options, 3)
    assert info.value.field == field


def test_automa_needs_a_free_seat():
    with pytest.raises(RulesError) as info:
        GAME.validate_options({"automa": True}, 4)
    assert info.value.field == "automa"


# --- one solo round with the automa, step by step -------------------------------------------

def test_solo_round_from_setup_to_round_end():
    table = solo()
    table.do("automa_layout", layout=START)
    table.do("markers", player=0, markers=m(1, 2, 2, 1, 2))
    state = table.do("automa_card", card=CARD)
    # the arrow moves one marker from take_orders to take_inks
    assert state["automa"]["markers"] == m(1, 2, 1, 2, 1)
    view = GAME.view(state, table.names, table.options, table.profile, None)
    # ties go to the automa: it holds the first-player token
    assert [[e["name"] for e in row["entries"]] for row in view["acting"]] == [
        ["Automa", "Ada"], ["Automa", "Ada"], ["Ada", "Automa"], ["Automa", "Ada"], ["Ada", "Automa"]]
    for action in ACTIONS:
        state = table.do("automa_act", action=action)
        while state["automa"]["step"]:
            state = table.do("automa_answer", available=True)
        assert len(state["automa"]["done"][action]) == (2 if action == "take_orders" else 1)
    state = table.do("end_round")
    assert state["round"] == 2
    # the automa passed the token, so it received Ada's marker on its emptiest action:
    # fewest (1): take_orders, develop, patronage; scan from develop -> develop
    assert state["automa"]["markers"] == m(1, 2, 2, 2, 1)
    assert state["seats"][state["first"]] == 0
    assert state["players"][0]["markers"] is None
    assert state["automa"]["card"] is None and state["automa"]["done"] == {}


def test_automa_gives_a_marker_when_the_human_passes_the_token():
    table = solo()
    table.do("automa_layout", layout=START)
    table.do("automa_card", card=CARD)
    table.do("end_round")
    table.do("automa_card", card={"centre": "take_orders", "moves": []})
    state = table.do("end_round")
    # 8 markers after round 1: m(1,2,2,2,1); most (2): take_inks, develop, improve; scan from take_orders
    assert state["automa"]["markers"] == m(1, 1, 2, 2, 1)
    assert sum(state["automa"]["markers"].values()) == 7


def test_execution_draw_asks_until_a_space_holds_something():
    table = solo()
    table.do("automa_layout", layout=START)
    table.do("automa_card", card=CARD)
    state = table.do("automa_act", action="take_inks")
    deck = state["automa"]["step"]["items"][0]["deck"]
    assert sorted(deck) == [1, 2, 3, 4]
    state = table.do("automa_answer", available=False)
    state = table.do("automa_answer", available=False)
    state = table.do("automa_answer", available=True)
    assert state["automa"]["step"] is None
    assert state["automa"]["done"]["take_inks"] == [f"Put every ink of ink set {deck[2]} back into the bag."]


def test_execution_draw_with_every_space_empty_removes_nothing():
    table = solo()
    table.do("automa_layout", layout=START)
    table.do("automa_card", card=CARD)
    table.do("automa_act", action="improve_printing_houses")
    for _ in range(4):
        state = table.do("automa_answer", available=False)
    assert state["automa"]["done"]["improve_printing_houses"] == ["No gear to take: the automa removes nothing."]


def test_each_automa_action_reshuffles_the_full_deck():
    table = solo()
    table.do("automa_layout", layout=m(2, 2, 1, 1, 1))
    table.do("automa_card", card={"centre": "patronage", "moves": []})
    decks = []
    for action in ACTIONS:
        state = table.do("automa_act", action=action)
        decks.append(state["automa"]["step"]["items"][0]["deck"])
        while state["automa"]["step"]:
            state = table.do("automa_answer", available=True)
    assert all(sorted(d) == [1, 2, 3, 4] for d in decks)
    assert state["automa"]["draws"] == 6  # one shuffle per item: 2 for take orders, 1 for each other


def test_undone_draw_redone_draws_the_same_card():
    table = solo()
    table.do("automa_layout", layout=START)
    table.do("automa_card", card=CARD)
    before = table.state
    first = table.do("automa_act", action="develop_specialties")
    assert table.undo() == before
    again = table.do("automa_act", action="develop_specialties")
    assert again == first
    # the same holds for an answer that moves on to the next card
    after_no = table.do("automa_answer", available=False)
    table.undo()
    assert table.do("automa_answer", available=False) == after_no


def test_different_tables_shuffle_differently():
    decks = set()
    for seed in range(30):
        table = Table(["Ada"], {"automa": True}, {"automa_start": START}, seed=seed)
        table.do("automa_card", card=CARD)
        decks.add(tuple(table.do("automa_act", action="take_inks")["automa"]["step"]["items"][0]["deck"]))
    assert len(decks) > 5


def test_take_orders_draws_two_items_from_reshuffled_decks():
    table = solo(automa_start=START)
    table.do("automa_card", card=CARD)
    table.do("automa_act", action="take_orders")
    state = table.do("automa_answer", available=True)
    items = state["automa"]["step"]["items"]
    assert [i["kind"] for i in items] == ["printing", "refinement"]
    assert sorted(items[1]["deck"]) == [1, 2, 3, 4]
    state = table.do("automa_answer", available=True)
    p, r = state["automa"]["done"]["take_orders"]
    assert p.startswith("Discard the printing card") and r.startswith("Discard the refinement card")


def test_take_orders_one_deck_reading_continues_the_same_deck():
    table = Table(["Ada"], {"automa": True, "take_orders_deck": "one_deck"}, {"automa_start": START})
    table.do("automa_card", card=CARD)
    state = table.do("automa_act", action="take_orders")
    deck = state["automa"]["step"]["items"][0]["deck"]
    state = table.do("automa_answer", available=True)
    assert state["automa"]["step"]["items"][1]["deck"] == deck[1:]


def test_automa_patronage_card_from_round_3_when_its_card_shows_one():
    table = solo(automa_start=START)
    for _ in range(2):
        table.do("automa_card", card=CARD)
        state = table.do("automa_act", action="patronage")
        # rounds 1 and 2: it must take a reward [GB345]
        assert state["automa"]["step"]["items"][0]["kind"] == "reward"
        table.do("automa_answer", available=True)
        table.do("end_round")
    table.do("automa_card", card=CARD)
    state = table.do("automa_act", action="patronage")
    assert state["automa"]["step"]["items"][0]["kind"] == "patronage_card"
    yes = table.do("automa_answer", available=True)
    assert yes["automa"]["done"]["patronage"] == ["Remove the leftmost available patronage card from the game."]
    table.undo()
    state = table.do("automa_answer", available=False)
    assert state["automa"]["step"]["items"][-1]["kind"] == "reward"
    state = table.do("automa_answer", available=True)
    assert state["automa"]["done"]["patronage"][0].startswith("Put the automa's marker on patronage reward")


def test_automa_does_not_act_without_markers_or_twice():
    table = solo(automa_start=m(3, 2, 2, 0, 0))
    table.do("automa_card", card={"centre": "patronage", "moves": []})
    assert table.fails("automa_act", action="patronage").field == "data.action"
    table.do("automa_act", action="take_inks")
    assert "finish" in table.fails("automa_act", action="take_orders").message
    table.do("automa_answer", available=True)
    assert "already" in table.fails("automa_act", action="take_inks").message


def test_planning_card_by_number_and_drawn_by_the_app():
    cards = {str(n): {"centre": ACTIONS[n % 5], "moves": [["min", "max"]], "patronage": n % 2 == 0}
             for n in range(1, 11)}
    table = solo(automa_start=START, planning_cards=cards)
    state = table.do("automa_card", number=4)
    assert state["automa"]["card"]["number"] == 4 and state["automa"]["card"]["centre"] == ACTIONS[4]
    table.undo()
    state = table.do("automa_card", draw=True)
    assert len(state["automa"]["deck"]) == 5
    drawn = [state["automa"]["card"]["number"]]
    for _ in range(5):
        table.do("end_round")
        drawn.append(table.do("automa_card", draw=True)["automa"]["card"]["number"])
    assert len(set(drawn)) == 6 and table.state["automa"]["deck"] == []


def test_planning_card_by_number_needs_the_catalogue():
    table = solo(automa_start=START)
    assert table.fails("automa_card", number=3).field == "data.number"
    assert table.fails("automa_card", draw=True).field == "data.draw"


# --- bad input changes nothing -------------------------------------------------------------------

def test_bad_markers():
    table = Table(["Anna", "Tom"])
    assert table.fails("markers", player=0, markers=m(7, 0, 0, 0, 0)).field == "data.markers.take_orders"
    e = table.fails("markers", player=0, markers=m(2, 2, 2, 2, 0))
    assert e.field == "data.markers" and "holds 7" in e.message
    table.do("markers", player=1, markers=m(2, 2, 2, 2, 0))  # Tom holds 8
    assert table.fails("markers", player=2, markers={}).field == "data.player"
    assert table.fails("markers", player=0, markers={"gears": 1}).field == "data.markers.gears"


def test_planning_card_arrow_to_an_action_that_does_not_exist():
    table = solo(automa_start=START)
    e = table.fails("automa_card", card={"centre": "patronage", "moves": [["take_orders", "print"]]})
    assert e.field == "data.card.moves[0][1]"
    e = table.fails("automa_card", card={"centre": "patronage", "from": ["take_orders"], "to": ["print"]})
    assert e.field == "data.card.moves[0][1]"
    e = table.fails("automa_card", card={"centre": "patronage", "from": ["take_orders", ""], "to": ["", ""]})
    assert e.field == "data.card.to[0]"


def test_automa_layout_must_hold_seven():
    table = solo()
    assert table.fails("automa_layout", layout=m(2, 2, 2, 2, 2)).field == "data.layout"
    assert table.fails("automa_layout", layout=m(7, 0, 0, 0, 0)).field == "data.layout.take_orders"


def test_negative_counts_are_refused():
    table = Table(["Anna", "Other"])
    assert table.fails("guilders", player=0, delta=-11).field == "data.delta"
    assert table.fails("inks", player=0, delta=-1).field == "data.delta"
    assert table.fails("fame", player=0, delta=1.5).field == "data.delta"
    assert table.fails("fame", player=-1, delta=1).field == "data.player"


def test_specialty_must_be_one_of_four_and_steps_in_range():
    table = Table(["Anna", "Other"])
    assert table.fails("develop", player=0, specialty="printing").field == "data.specialty"
    assert table.fails("develop", player=0, specialty="binding", steps=7).field == "data.steps"
    assert table.fails("develop", player=0, specialty="binding", steps=0).field == "data.steps"


def test_execution_answer_without_a_draw_and_unknown_event():
    table = solo(automa_start=START)
    assert table.fails("automa_answer", available=True).field == "data.available"
    assert table.fails("deal_cards").field == "type"
    assert Table(["Anna", "Other"]).fails("automa_act", action="take_inks").field == "type"


def test_end_round_needs_the_automa_card_and_no_draw_in_progress():
    table = solo(automa_start=START)
    assert table.fails("end_round").field == "data"
    table.do("automa_card", card=CARD)
    table.do("automa_act", action="take_inks")
    assert table.fails("end_round").field == "data"


# --- economy and characters ----------------------------------------------------------------------

def test_buy_types_pays_the_nth_type_price():
    table = Table(["Anna", "Other"])
    state = table.do("buy_types", player=0, count=2)
    assert (state["players"][0]["types"], state["players"][0]["guilders"]) == (5, 1)
    assert table.fails("buy_types", player=0, count=1).field == "data.count"  # the 6th costs 6


def test_take_inks_pays_by_position():
    table = Table(["John", "Other"])
    state = table.do("take_inks", player=0, first=2, count=2)
    assert (state["players"][0]["inks"], state["players"][0]["guilders"]) == (2, 7)
    assert table.fails("take_inks", player=0, first=3, count=2).field == "data.count"


def test_reward_track_announced_once_per_level():
    table = Table(["John", "Other"], profile={"reward_track": ["ink", "order", "type", "ink"]})
    state = table.do("develop", player=0, specialty="typesetting", steps=2)
    assert "space 1, take 1 ink" in state["notice"]["text"]
    state = table.do("develop", player=0, specialty="illuminating", steps=2)
    assert state["notice"] is None and state["players"][0]["rewards"] == [2]
    state = table.do("develop", player=0, specialty="typesetting", steps=2)
    assert "space 2, take 1 new order" in state["notice"]["text"]
    state = table.do("develop", player=0, specialty="typesetting", steps=3)
    assert state["players"][0]["specialties"]["typesetting"] == 6
    assert state["players"][0]["guilders"] == 13
    assert "space 3" in state["notice"]["text"] and "space 4" in state["notice"]["text"]


def test_develop_at_vi_gives_3_guilders():
    table = Table(["John", "Other"])
    table.do("develop", player=0, specialty="binding", steps=6)
    state = table.do("develop", player=0, specialty="binding")
    assert state["players"][0]["specialties"]["binding"] == 6
    assert state["players"][0]["guilders"] == 13


def test_passing_the_token_with_four_players():
    table = Table(["A", "B", "C", "D"])
    state = table.do("end_round")
    view = GAME.view(state, table.names, table.options, table.profile, None)
    assert [(o["name"], o["holds"]) for o in view["order"]] == [("B", 7), ("C", 8), ("D", 9), ("A", 10)]


def test_six_rounds_then_the_end():
    table = Table(["A", "B"])
    for _ in range(6):
        state = table.do("end_round")
    assert state["finished"] and state["round"] == 6
    assert table.fails("end_round").field == "type"
    # counts can still be corrected at the end
    table.do("fame", player=0, delta=5)


def test_helena_setup():
    table = Table(["Helena", "Other"])
    assert table.fails("helena", player=0, level_one="binding", level_two="typesetting").field == "data.player"
    table.do("character", player=0, character="helena_ungler")
    state = table.do("helena", player=0, level_one="binding", level_two="typesetting")
    p = state["players"][0]
    assert p["specialties"]["binding"] == 1 and p["specialties"]["typesetting"] == 2
    assert p["rewards"] == [2] and p["inks"] == 1
    assert table.fails("helena", player=0, level_one="woodcutting", level_two="illuminating").field == "data.player"


def test_plantinus_swaps_once_a_round():
    table = Table(["Chris", "Other"])
    table.do("character", player=0, character="christophorus_plantinus")
    table.do("develop", player=0, specialty="binding", steps=3)
    state = table.do("plantinus_swap", player=0, first="binding", second="woodcutting")
    assert state["players"][0]["specialties"]["woodcutting"] == 3
    assert state["players"][0]["specialties"]["binding"] == 0
    assert table.fails("plantinus_swap", player=0, first="binding", second="woodcutting").field == "data.player"
    table.do("end_round")
    table.do("plantinus_swap", player=0, first="binding", second="woodcutting")


def test_gutenberg_shifts_one_marker_after_the_reveal():
    table = Table(["Jo", "Tom"])
    table.do("character", player=0, character="johannes_gutenberg")
    assert table.fails("gutenberg_shift", player=0, **{"from": "take_orders", "to": "patronage"}).field == "data.player"
    table.do("markers", player=0, markers=m(1, 2, 2, 1, 1))
    state = table.do("gutenberg_shift", player=0, **{"from": "take_orders", "to": "patronage"})
    assert state["players"][0]["markers"] == m(0, 2, 2, 1, 2)
    assert table.fails("gutenberg_shift", player=0, **{"from": "take_inks", "to": "patronage"}).field == "data.player"


def test_torinus_gains_3_fame_once_a_round():
    table = Table(["Geo", "Other"])
    assert table.fails("torinus", player=0).field == "data.player"
    table.do("character", player=0, character="godofredus_torinus")
    state = table.do("torinus", player=0)
    assert state["players"][0]["fame"] == 3
    assert table.fails("torinus", player=0).field == "data.player"


def test_final_tally_with_vietor_and_the_solo_title():
    table = solo(automa_start=START)  # [GB313] a game alone is played against the automa
    table.do("character", player=0, character="hieronymus_vietor")
    table.do("fame", player=0, delta=84)
    table.do("guilders", player=0, delta=-5)  # 5 guilders left
    table.do("patronage_cards", player=0, delta=2)
    for specialty, steps in (("typesetting", 6), ("binding", 4), ("illuminating", 5)):
        table.do("develop", player=0, specialty=specialty, steps=steps)
    state = table.state
    guilders = state["players"][0]["guilders"]
    for _ in range(6):
        table.do("automa_card", card=CARD)
        state = table.do("end_round")
    view = GAME.view(state, table.names, table.options, table.profile, None)
    row = view["final"]["rows"][0]
    assert row["breakdown"]["guilders"] == 2 * (guilders // 3)
    assert row["breakdown"]["specialties"] == 10 and row["breakdown"]["patronage"] == 16
    assert row["title"] == GAME.functions["score"].run({"solo": True, "players": [{
        "name": "John", "fame": 84, "guilders": guilders, "patronage_cards": 2, "types": 3, "inks": 0,
        "character": "hieronymus_vietor",
        "specialties": {"typesetting": 6, "woodcutting": 0, "binding": 4, "illuminating": 5}}]})["players"][0]["title"]


def test_final_places_name_the_tie_break():
    table = Table(["Ann", "Ben"])
    table.do("buy_types", player=1, count=1)
    table.do("guilders", player=1, delta=4)  # both have 10 guilders, Ben has 4 types
    for _ in range(6):
        state = table.do("end_round")
    final = GAME.view(state, table.names, table.options, table.profile, None)["final"]
    assert [(r["name"], r["place"], r["tie_break"]) for r in final["rows"]] == [
        ("Ann", 1, "fewer types"), ("Ben", 2, "fewer types")]


def test_every_event_is_described():
    for type_ in GAME.events:
        assert GAME.describe(type_, {"player": 0}, ["Anna"])


# --- box profile -------------------------------------------------------------------------------

def test_profile_cards_from_the_form_shape():
    clean = GAME.validate_profile({"planning_cards": {
        "1": {"centre": "take_inks", "from": ["take_orders", "min", ""], "to": ["take_inks", "max", ""],
              "patronage": True},
        "2": {"centre": "", "from": ["", ""], "to": ["", ""]},
    }, "automa_start": START})
    assert clean["planning_cards"] == {"1": {"centre": "take_inks", "moves": [["take_orders", "take_inks"],
                                                                              ["min", "max"]], "patronage": True}}
    assert clean["automa_start"] == START


@pytest.mark.parametrize("doc,field", [
    ({"planning_cards": {"11": {"centre": "patronage", "moves": []}}}, "planning_cards.11"),
    ({"planning_cards": {"1": {"centre": "patronage", "moves": [["take_orders", "gears"]]}}},
     "planning_cards.1.moves[0][1]"),
    ({"automa_start": m(2, 2, 2, 2, 2)}, "automa_start"),
    ({"reward_track": ["ink", "order"]}, "reward_track"),
    ({"reward_track": ["ink", "order", "type", "gold"]}, "reward_track[3]"),
    ({"colours": []}, "colours"),
])
def test_bad_profile(doc, field):
    with pytest.raises(RulesError) as info:
        GAME.validate_profile(doc)
    assert info.value.field == field


def test_history_lines_in_plain_words():
    names = ["Anna", "Tom"]
    assert GAME.describe("fame", {"player": 0, "delta": 3}, names) == "Anna: +3 fame"
    assert GAME.describe("guilders", {"player": 1, "delta": -2}, names) == "Tom: -2 guilders"
    assert GAME.describe("develop", {"player": 0, "specialty": "binding", "steps": 2}, names) == "Anna: Binding +2"
    assert GAME.describe("automa_act", {"action": "take_inks"}, names) == "Automa: Take inks"
    assert GAME.describe("markers", {"player": 1, "markers": {"take_orders": 2, "patronage": 0}}, names) == \
        "Tom: markers Take orders 2"


@pytest.mark.parametrize("humans,seat", [(1, 0), (1, 1), (2, 1), (3, 0), (3, 2)])
def test_automa_holds_what_its_seat_holds_every_round(humans, seat):
    from companion.games.gutenberg import table as gt
    table = Table([f"P{i}" for i in range(humans)], {"automa": True, "automa_seat": seat}, {"automa_start": START})
    for round_ in range(1, 7):
        state = table.state
        markers = state["automa"]["markers"]
        # RULES.md D2 step 5.6: the automa's total reads what its position from the token holds
        assert sum(markers.values()) == gt.holding(state, "automa"), round_
        assert all(0 <= n <= 6 for n in markers.values())
        table.do("automa_card", card={"centre": ACTIONS[round_ % 5], "moves": [["max", "min"]]})
        table.do("end_round")
    assert table.state["finished"]
