"""Gutenberg's rules functions: the rulebook's examples (RULES.md section E) and bad input."""

import copy
import dataclasses

import pytest

from companion.games import get
from companion.games.gutenberg import rules
from companion.games.validation import RulesError

GAME = get("gutenberg")


def run(name, doc):
    return GAME.functions[name].run(doc)


def error(name, doc):
    before = copy.deepcopy(doc)
    with pytest.raises(RulesError) as info:
        run(name, doc)
    assert doc == before, "a rejected document must not be changed"
    return info.value


def player(name, **kw):
    p = {"name": name, "fame": 0, "guilders": 0,
         "specialties": {"typesetting": 0, "woodcutting": 0, "binding": 0, "illuminating": 0},
         "patronage_cards": 0, "types": 3, "inks": 0}
    p.update(kw)
    return p


JOHN = player("John", fame=84, guilders=4, patronage_cards=2, types=5, inks=1,
              specialties={"typesetting": 6, "woodcutting": 3, "binding": 4, "illuminating": 5})


# --- RULES.md section E -----------------------------------------------------------------------

def test_johns_111_points():
    result = run("score", {"solo": True, "players": [JOHN]})
    john = result["players"][0]
    assert john["breakdown"] == {"fame_track": 84, "specialties": 10, "patronage": 16, "guilders": 1}
    assert john["total"] == 111
    assert john["title"] == "Apprentice"
    assert result["winners"] == ["John"] and result["places"] == {"John": 1}


def test_vietors_5_guilders_give_2_points():
    plain = run("score", {"players": [player("Ann", guilders=4), player("Bea", guilders=5)]})
    assert [p["breakdown"]["guilders"] for p in plain["players"]] == [1, 1]
    vietor = run("score", {"players": [player("Hieronymus", guilders=5, character="hieronymus_vietor")]})
    assert vietor["players"][0]["breakdown"]["guilders"] == 2


def test_guilders_score_plainly_unless_vietor_is_named():
    # [GB305] 1 point for every 3 guilders; [GB407] only Hieronymus Vietor doubles them
    assert rules.guilder_points(5) == 1
    assert rules.guilder_points(5, True) == 2
    assert rules.guilder_points(5, False) == 1


def test_annas_9_guilders_for_two_types():
    assert run("type_cost", {"owned": 3, "buy": 2}) == {"cost": 9}


def test_johns_ink_set_costs_3_guilders():
    # the left ink is gone; John takes the centre and the right ink
    assert rules.ink_cost(2, 2) == 3
    assert rules.ink_cost(1, 3) == 3
    assert rules.ink_cost(1, 1) == 0
    assert rules.ink_cost(3, 1) == 2


def test_anna_tom_kate_action_order():
    doc = {"seats": ["Anna", "Tom", "Kate"], "first": "Anna",
           "markers": {"Anna": {"take_orders": 2, "take_inks": 2, "develop_specialties": 1, "patronage": 1},
                       "Tom": {"take_orders": 2, "take_inks": 2, "develop_specialties": 2,
                               "improve_printing_houses": 1, "patronage": 1},
                       "Kate": {"take_orders": 1, "take_inks": 1, "develop_specialties": 3,
                                "improve_printing_houses": 2}}}
    assert run("action_order", doc) == {"order": {
        "take_orders": ["Anna", "Tom", "Kate"],
        "take_inks": ["Anna", "Tom", "Kate"],
        "develop_specialties": ["Kate", "Tom", "Anna"],
        "improve_printing_houses": ["Kate", "Tom"],
        "patronage": ["Anna", "Tom"],
    }}


def test_anna_tom_kate_patronage_tie_follows_player_order():
    doc = {"seats": ["Anna", "Tom", "Kate"], "first": "Anna",
           "markers": {"Anna": {"patronage": 1}, "Tom": {"patronage": 1}}}
    assert run("action_order", doc)["order"]["patronage"] == ["Anna", "Tom"]
    doc["first"] = "Tom"
    assert run("action_order", doc)["order"]["patronage"] == ["Tom", "Anna"]


def test_johns_reward_track():
    # Typesetting III -> IV earns the next reward space; he already took his level II reward
    typesetting = rules.develop(3, 1, {2})
    assert (typesetting.level, typesetting.new_reward_levels) == (4, (4,))
    illuminating = rules.develop(1, 1, {2, 4})
    assert (illuminating.level, illuminating.new_reward_levels) == (2, ())


def test_players_without_markers_on_an_action_do_not_act_on_it():
    # [GB122] "A player must have at least one marker on a given action to do that action."
    # The rules take sparse markers too (CONTRACT: missing actions mean 0 markers): a missing
    # action or a player with no entry at all means no marker there
    result = rules.action_order(["Anna", "Tom", "Kate"], {"Anna": {"patronage": 1}, "Tom": {"take_inks": 2}})
    assert result == {"take_orders": [], "take_inks": ["Tom"], "develop_specialties": [],
                      "improve_printing_houses": [], "patronage": ["Anna"]}


def test_passing_the_first_player_token():
    seats = ["A", "B", "C", "D"]
    counts = rules.holdings(4)
    assert counts == [7, 8, 9, 10]
    first, after = rules.pass_token(counts, 0)
    assert seats[first] == "B"
    assert after == [10, 7, 8, 9]
    # from the new first player clockwise: 7, 8, 9, 10 again
    assert [after[(first + i) % 4] for i in range(4)] == [7, 8, 9, 10]


# --- more tallies -------------------------------------------------------------------------------

def test_specialty_points_only_from_level_iv():
    assert rules.specialty_points([0, 1, 2, 3]) == 0
    assert rules.specialty_points([4, 5, 6, 6]) == 1 + 3 + 6 + 6


@pytest.mark.parametrize("total,title", [
    (0, "Student"), (99, "Student"), (100, "Student"), (101, "Senior Student"), (110, "Senior Student"),
    (111, "Apprentice"), (120, "Apprentice"), (121, "Senior Apprentice"), (131, "Junior Master"),
    (141, "Master of Printing"), (150, "Master of Printing"), (151, "Guildmaster"), (400, "Guildmaster"),
])
def test_solo_titles(total, title):
    assert rules.title(total) == title


def test_ties_fewer_types_then_fewer_inks_then_shared():
    doc = {"players": [
        player("Ann", fame=50, types=6, inks=0),
        player("Ben", fame=50, types=5, inks=3),
        player("Cid", fame=50, types=5, inks=2),
        player("Dot", fame=40),
    ]}
    result = run("score", doc)
    assert result["places"] == {"Cid": 1, "Ben": 2, "Ann": 3, "Dot": 4}
    assert result["winners"] == ["Cid"]
    deciders = {p["name"]: p["tie_break"] for p in result["players"]}
    assert deciders == {"Ann": "fewer types", "Ben": "fewer inks", "Cid": "fewer inks", "Dot": None}


def test_unbroken_tie_shares_the_place():
    doc = {"players": [player("Ann", fame=30, types=4, inks=1), player("Ben", fame=30, types=4, inks=1),
                       player("Cid", fame=10)]}
    result = run("score", doc)
    assert result["places"] == {"Ann": 1, "Ben": 1, "Cid": 3}
    assert result["winners"] == ["Ann", "Ben"]
    assert result["players"][0]["tie_break"] == "unbroken tie"


def test_score_breakdown_adds_up_and_no_title_outside_solo():
    result = run("score", {"players": [JOHN]})
    john = result["players"][0]
    assert sum(john["breakdown"].values()) == john["total"]
    assert "title" not in john


def test_type_cost_general():
    assert run("type_cost", {"owned": 3, "buy": 1}) == {"cost": 4}
    assert run("type_cost", {"owned": 5, "buy": 3}) == {"cost": 6 + 7 + 8}
    assert run("type_cost", {"owned": 7, "buy": 0}) == {"cost": 0}


def test_develop_at_six_gives_three_guilders_per_blocked_step():
    d = rules.develop(5, 2, {2, 4, 5})
    assert (d.level, d.guilders, d.new_reward_levels) == (6, 3, (6,))
    d = rules.develop(6, 1, {2, 4, 5, 6})
    assert (d.level, d.guilders, d.new_reward_levels) == (6, 3, ())


def test_a_development_once_worked_out_cannot_be_altered():
    # [GB162] [GB166] what one development did (level, guilders, reward levels) is a read-only record
    d = rules.develop(1, 1, set())
    assert (d.level, d.guilders, d.new_reward_levels) == (2, 0, (2,))
    with pytest.raises(dataclasses.FrozenInstanceError):
        d.level = 3


def test_develop_jumping_two_levels_triggers_each_reward_level():
    d = rules.develop(3, 2, {2})
    assert (d.level, d.new_reward_levels) == (5, (4, 5))


# --- bad input -------------------------------------------------------------------------------

@pytest.mark.parametrize("doc,field", [
    ({"players": [dict(JOHN, specialties=dict(JOHN["specialties"], binding=7))]}, "players[0].specialties.binding"),
    ({"players": [dict(JOHN, specialties=dict(JOHN["specialties"], binding=-1))]}, "players[0].specialties.binding"),
    ({"players": [dict(JOHN, guilders=-3)]}, "players[0].guilders"),
    ({"players": [dict(JOHN, fame=1.5)]}, "players[0].fame"),
    ({"players": [dict(JOHN, inks="2")]}, "players[0].inks"),
    ({"players": [dict(JOHN, guilder=3)]}, "players[0].guilder"),
    ({"players": [dict(JOHN, character="gutenberg")]}, "players[0].character"),
    ({"players": [JOHN, JOHN]}, "players[1].name"),
    ({"players": [JOHN, dict(JOHN, name="Ann")], "solo": True}, "players"),
    ({"players": []}, "players"),
    ({}, "players"),
    ([], "$"),
])
def test_score_bad_input(doc, field):
    assert error("score", doc).field == field


# Bounds of each player's counts in `score`:
# - fame, guilders, types: 0 (a count) to 999, a generous bound to catch typing slips (the fame
#   track's length is printed on the board only, GUT-B8; guilders and types are unlimited [GB71]
#   [GB249]; types can drop to 0 by a gear's "discards one type" [GB387]);
# - specialty levels 0 (the lowest space, GUT-C6) to VI [GB166];
# - patronage_cards 0 to 16, the cards in the box [GB36];
# - inks 0 to 48, the ink tokens in the box [GB43];
# - players 1 to 4 (first to fourth player [GB77]).
@pytest.mark.parametrize("changes,part,points", [
    ({"fame": 0}, "fame_track", 0),
    ({"fame": 999}, "fame_track", 999),
    ({"guilders": 0}, "guilders", 0),
    ({"guilders": 999}, "guilders", 333),  # [GB305] 999 // 3
    ({"specialties": {"typesetting": 0, "woodcutting": 0, "binding": 0, "illuminating": 0}}, "specialties", 0),
    ({"specialties": {"typesetting": 6, "woodcutting": 6, "binding": 6, "illuminating": 6}}, "specialties", 24),
    ({"patronage_cards": 0}, "patronage", 0),
    ({"patronage_cards": 16}, "patronage", 128),  # [GB304] 8 each
    ({"types": 0}, "fame_track", 0),
    ({"types": 999}, "fame_track", 0),
    ({"inks": 0}, "fame_track", 0),
    ({"inks": 48}, "fame_track", 0),
])
def test_score_player_bounds_accepted(changes, part, points):
    result = run("score", {"players": [player("Ann", **changes)]})
    assert result["players"][0]["breakdown"][part] == points


@pytest.mark.parametrize("field,value", [
    ("fame", -1), ("fame", 1000),
    ("guilders", -1), ("guilders", 1000),
    ("patronage_cards", -1), ("patronage_cards", 17),
    ("types", -1), ("types", 1000),
    ("inks", -1), ("inks", 49),
])
def test_score_player_bounds_refused(field, value):
    e = error("score", {"players": [player("Ann", **{field: value})]})
    assert e.field == f"players[0].{field}"
    assert e.message.startswith("must be a whole number from ")


def test_score_player_count_bounds():
    # [GB77] a game seats a first to a fourth player; a solo game has one
    one = run("score", {"players": [player("Ann", fame=5)]})
    assert one["places"] == {"Ann": 1}
    four = run("score", {"players": [player(n, fame=f) for n, f in (("A", 4), ("B", 3), ("C", 2), ("D", 1))]})
    assert four["places"] == {"A": 1, "B": 2, "C": 3, "D": 4}
    e = error("score", {"players": [player(n) for n in "ABCDE"]})
    assert e.field == "players" and e.message == "must hold 1 to 4 items"
    e = error("score", {"players": []})
    assert e.field == "players" and e.message == "must hold 1 to 4 items"


def test_bad_level_message_says_what_is_allowed():
    doc = {"players": [dict(JOHN, specialties=dict(JOHN["specialties"], binding=7))]}
    assert error("score", doc).message == "must be a whole number from 0 to 6"


@pytest.mark.parametrize("markers,field,words", [
    ({"Anna": {"take_orders": 7}}, "markers.Anna.take_orders", "from 0 to 6"),
    ({"Anna": {"take_orders": 4, "take_inks": 4}}, "markers.Anna", "holds 7"),
    ({"Tom": {"take_orders": 3, "take_inks": 3, "patronage": 3}}, "markers.Tom", "holds 8"),
    ({"Anna": {"take_order": 1}}, "markers.Anna.take_order", "unknown key"),
    ({"Zed": {}}, "markers.Zed", "unknown key"),
    ({"Anna": {"patronage": -1}}, "markers.Anna.patronage", "from 0 to 6"),
])
def test_action_order_bad_markers(markers, field, words):
    e = error("action_order", {"seats": ["Anna", "Tom"], "first": "Anna", "markers": markers})
    assert e.field == field and words in e.message


def test_action_order_seat_count_and_holding_bounds():
    # [GB77] one to four seats; the first player holds 7, the fourth 10, all of which may be placed
    one = {"seats": ["Anna"], "first": "Anna", "markers": {"Anna": {"take_orders": 6, "patronage": 1}}}
    assert run("action_order", one)["order"]["take_orders"] == ["Anna"]
    four = {"seats": ["A", "B", "C", "D"], "first": "B",
            "markers": {"B": {"take_orders": 6, "patronage": 1},  # first: 7
                        "A": {"take_orders": 4, "take_inks": 6}}}  # fourth from B: 10
    assert run("action_order", four)["order"]["take_orders"] == ["B", "A"]
    e = error("action_order", {"seats": ["A", "B", "C", "D", "E"], "first": "A", "markers": {}})
    assert e.field == "seats" and e.message == "must be 1 to 4 names"
    e = error("action_order", {"seats": [], "first": "A", "markers": {}})
    assert e.field == "seats" and e.message == "must be 1 to 4 names"
    e = error("action_order", {"seats": ["Anna"], "first": "Anna", "markers": {"Anna": {"take_orders": 6, "patronage": 2}}})
    assert e.field == "markers.Anna" and "holds 7" in e.message


def test_action_order_first_must_be_seated():
    assert error("action_order", {"seats": ["Anna", "Tom"], "first": "Kate", "markers": {}}).field == "first"


def test_holding_follows_position_from_the_token():
    # with Tom first, Anna is second and may place 8
    doc = {"seats": ["Anna", "Tom"], "first": "Tom", "markers": {"Anna": {"take_orders": 4, "take_inks": 4}}}
    assert run("action_order", doc)["order"]["take_orders"] == ["Anna"]


# owned and buy: 0 to 999. Types are unlimited and bought in any number [GB249]; 999 is a
# generous bound to catch typing slips. [GB242-244] the n-th type costs n guilders.
@pytest.mark.parametrize("owned,buy,cost", [
    (0, 0, 0),
    (0, 999, 999 * 1000 // 2),  # 1 + 2 + ... + 999
    (999, 0, 0),
    (999, 999, 999 * (1000 + 1998) // 2),  # 1000 + 1001 + ... + 1998
])
def test_type_cost_bounds_accepted(owned, buy, cost):
    assert run("type_cost", {"owned": owned, "buy": buy}) == {"cost": cost}


@pytest.mark.parametrize("doc,field", [
    ({"owned": -1, "buy": 1}, "owned"),
    ({"owned": 1000, "buy": 1}, "owned"),
    ({"owned": 3, "buy": -1}, "buy"),
    ({"owned": 3, "buy": 1000}, "buy"),
])
def test_type_cost_bounds_refused(doc, field):
    e = error("type_cost", doc)
    assert e.field == field and e.message == "must be a whole number from 0 to 999"


@pytest.mark.parametrize("doc,field", [
    ({"owned": -1, "buy": 1}, "owned"),
    ({"owned": 3, "buy": -2}, "buy"),
    ({"owned": 3}, "buy"),
    ({"owned": 3, "buy": 1, "extra": 1}, "extra"),
])
def test_type_cost_bad_input(doc, field):
    assert error("type_cost", doc).field == field


# --- properties -------------------------------------------------------------------------------

from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

ACTIONS = ["take_orders", "take_inks", "develop_specialties", "improve_printing_houses", "patronage"]


@st.composite
def plans(draw):
    seats = draw(st.integers(1, 4))
    names = [f"P{i}" for i in range(seats)]
    first = draw(st.sampled_from(names))
    order = names[names.index(first):] + names[:names.index(first)]
    markers = {}
    for position, name in enumerate(order):
        counts = {}
        left = 7 + position
        for action in ACTIONS:
            n = draw(st.integers(0, min(6, left)))
            counts[action] = n
            left -= n
        markers[name] = counts
    return {"seats": names, "first": first, "markers": markers}, order


@settings(max_examples=200, deadline=None)
@given(plans())
def test_action_order_lists_each_acting_player_once_most_markers_first(plan):
    doc, order = plan
    result = run("action_order", doc)["order"]
    for action in ACTIONS:
        listed = result[action]
        assert sorted(listed) == sorted(n for n in doc["seats"] if doc["markers"][n][action] > 0)
        counts = [doc["markers"][n][action] for n in listed]
        assert counts == sorted(counts, reverse=True)
        for a, b in zip(listed, listed[1:]):
            if doc["markers"][a][action] == doc["markers"][b][action]:
                assert order.index(a) < order.index(b)


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 60), st.integers(0, 20))
def test_type_cost_is_the_sum_of_each_types_price(owned, buy):
    cost = run("type_cost", {"owned": owned, "buy": buy})["cost"]
    assert cost == sum(owned + k for k in range(1, buy + 1))
    if buy:
        assert cost == run("type_cost", {"owned": owned, "buy": buy - 1})["cost"] + owned + buy


def test_action_order_seats_are_unique_names():
    e = error("action_order", {"seats": ["Anna", "anna"], "first": "Anna", "markers": {}})
    assert e.field == "seats[1]"
    assert error("action_order", {"seats": [], "first": "Anna", "markers": {}}).field == "seats"
