"""Calculator mode (issue 11): one `sheet` row per player, the common objectives table-wide,
finished once every row is in, the tally the `score` function's; and the tracked end card."""

from __future__ import annotations

import html
import re

import pytest

from companion.games.codex import functions
from companion.games.codex.calculator import needs

NAMES = ["Anna", "Ben", "Cleo", "Dan"]
COMMON = [91, 102]  # a pattern (3 per occurrence) and pairs of quills (2 per pair)
#: what each player's area shows at the end; Anna and Cleo tie on 29, Cleo with more from objectives
ROWS = [
    {"placement_points": 21, "secret": 99, "visible": {"quill": 3, "inkwell": 2, "manuscript": 1}, "patterns": {"91": 1}},
    {"placement_points": 22, "secret": 96, "visible": {"quill": 2, "plant": 7}, "patterns": {"91": 0}},
    {"placement_points": 18, "secret": 88, "visible": {"quill": 4}, "patterns": {"91": 1, "88": 2}},
    {"placement_points": 20, "secret": 101, "visible": {"quill": 0, "inkwell": 5}, "patterns": {"91": 0}},
]


def expected(rows=ROWS, common=COMMON) -> dict:
    """The `score` function's result on the same values, built the way the contract documents it."""
    players = []
    for name, row in zip(NAMES, rows):
        objectives = []
        for oid in list(common) + [row["secret"]]:
            objectives.append({"card": oid, "count": row["patterns"][str(oid)]} if needs(oid)[1] else {"card": oid})
        players.append({"name": name, "placement_points": row["placement_points"], "visible": row["visible"],
                        "objectives": objectives})
    return functions.FUNCTIONS["score"].run({"players": players})


def numbers_on_the_table(rows=ROWS) -> int:
    """The numbers and choices the board and the areas show: 2 common cards, then per player the
    track, the secret card, each visible count and each pattern count their objectives need."""
    return 2 + sum(2 + len(r["visible"]) + len(r["patterns"]) for r in rows)


def calc_table(api, names=NAMES):
    t = api.create("codex", names, calculator=True)
    assert t["state"]["rows"] == [None] * len(names) and t["state"]["finished"] is False
    return t


def sheet(api, t, seat, row):
    return api.event(t, "sheet", {"player": seat, **row})


def test_the_table_finishes_once_every_row_is_in_with_the_score_functions_result(api, client):
    t = calc_table(api)
    assert api.event(t, "common_objectives", {"cards": COMMON}).status_code == 200
    for seat in (3, 0, 2):
        r = sheet(api, t, seat, ROWS[seat])
        assert r.status_code == 200, r.get_json()
        assert r.get_json()["state"]["finished"] is False
    r = sheet(api, t, 1, ROWS[1])
    state = r.get_json()["state"]
    assert state["finished"] is True
    result = expected()
    assert result["winners"] == ["Cleo"]  # the tie on 29 is decided by objective points [CN56]
    from companion.games.codex.calculator import final_score
    assert final_score(state, NAMES) | {"players": None} == result | {"players": None}
    assert [p["total"] for p in final_score(state, NAMES)["players"]] == [p["total"] for p in result["players"]]
    # the page shows the breakdown, the winner and the tie-break by name
    join(client, t)
    page = client.get(f"/t/{t['table']}").get_data(as_text=True)
    assert "<bdi>Cleo</bdi> wins the tie on 29 with the most points from objectives (11)" in page
    for p in result["players"]:
        assert re.search(rf'data-name="{p["name"]}">\s*<td><bdi>{p["name"]}</bdi></td><td>{p["breakdown"]["placement"]}</td>'
                         rf'<td>{p["breakdown"]["objectives"]}</td>\s*<td><strong>{p["total"]}</strong></td>', page)
    board = re.findall(r'<span class="sb-name"><bdi>(\w+)</bdi></span> <strong class="sb-score">(\d+)</strong>', page)
    assert dict(board) == {p["name"]: str(p["total"]) for p in result["players"]}


def test_a_row_saved_again_corrects_the_result_and_undo_reopens(api):
    t = calc_table(api)
    api.event(t, "common_objectives", {"cards": COMMON})
    for seat, row in enumerate(ROWS):
        sheet(api, t, seat, row)
    better = dict(ROWS[0], placement_points=25)
    state = sheet(api, t, 0, better).get_json()["state"]
    assert state["finished"] is True and state["rows"][0]["placement_points"] == 25
    from companion.games.codex.calculator import final_score
    assert final_score(state, NAMES)["winners"] == expected([better] + ROWS[1:])["winners"] == ["Anna"]
    assert api.undo(t).status_code == 200  # takes back the correction: Cleo again
    assert final_score(api.get(t)["state"], NAMES)["winners"] == ["Cleo"]
    assert api.undo(t).status_code == 200  # takes back Dan's row: open again
    state = api.get(t)["state"]
    assert state["finished"] is False and state["rows"][3] is None


def test_changing_a_common_objective_asks_for_what_the_new_one_needs(api):
    t = calc_table(api)
    api.event(t, "common_objectives", {"cards": COMMON})
    for seat, row in enumerate(ROWS):
        sheet(api, t, seat, row)
    # pairs of manuscripts instead of quills: only Anna typed her manuscripts
    state = api.event(t, "common_objectives", {"cards": [91, 100]}).get_json()["state"]
    assert state["finished"] is False
    api.event(t, "common_objectives", {"cards": COMMON})
    assert api.get(t)["state"]["finished"] is True


def test_a_row_needs_the_common_objectives_first_and_the_table_takes_nothing_else(api):
    t = calc_table(api)
    r = sheet(api, t, 0, ROWS[0])
    assert r.status_code == 400 and "common objectives first" in r.get_json()["error"]
    api.event(t, "common_objectives", {"cards": COMMON})
    r = api.event(t, "points", {"player": 0, "delta": 3})
    assert r.status_code == 400 and r.get_json()["field"] == "type" and "just the final score" in r.get_json()["error"]


BAD = [
    ({"placement_points": -1}, "data.placement_points"),
    ({"placement_points": "21"}, "data.placement_points"),
    ({"placement_points": None}, "data.placement_points"),
    ({"secret": 50}, "data.secret"),
    ({"secret": 91}, "data.secret"),  # a common objective
    ({"secret": 96}, "data.secret"),  # Ben's
    ({"visible": {"quill": -2, "inkwell": 2, "manuscript": 1}}, "data.visible.quill"),
    ({"visible": {"inkwell": 2, "manuscript": 1}}, "data.visible.quill"),  # needed by 102 and 99
    ({"visible": {"quill": 3, "inkwell": 2, "manuscript": 1, "gold": 1}}, "data.visible.gold"),
    ({"visible": [3]}, "data.visible"),
    ({"patterns": {"91": -1}}, "data.patterns.91"),
    ({"patterns": {}}, "data.patterns.91"),  # needed by 91
    ({"patterns": {"91": 1, "88": 2}}, "data.patterns.88"),  # not Anna's objective
    ({"patterns": {"91": 1, "12": 2}}, "data.patterns.12"),
    ({"player": 4}, "data.player"),
    ({"colour": "red"}, "data.colour"),
]


@pytest.mark.parametrize("change,field", BAD)
def test_bad_input_in_every_field_is_a_400_naming_it_and_changes_nothing(api, change, field):
    t = calc_table(api)
    api.event(t, "common_objectives", {"cards": COMMON})
    sheet(api, t, 1, ROWS[1])
    before = api.get(t)
    data = {"player": 0, **ROWS[0]}
    for key, value in change.items():
        if value is None:
            data.pop(key)
        else:
            data[key] = value
    r = api.event(t, "sheet", data)
    assert r.status_code == 400, r.get_json()
    assert r.get_json()["field"] == field
    assert api.get(t) == before


def join(client, t, seat="watch"):
    assert client.get(f"/join/{t['table']}/{t['token']}").status_code == 303
    client.post(f"/t/{t['table']}/seat", data={"seat": seat})


def form(t, version, seat, **fields):
    data = {"type": "sheet", "expected_version:int": str(version), "data.player:int": str(seat)}
    data.update(fields)
    return data


PAGE_BAD = [
    ({"data.placement_points:int": "-3"}, "<bdi>Ben</bdi>'s points on the score track"),
    ({"data.placement_points:int": ""}, "<bdi>Ben</bdi>'s points on the score track"),
    ({"data.secret:int": "102"}, "<bdi>Ben</bdi>'s secret objective"),
    ({"data.visible.quill:int": "-1"}, "<bdi>Ben</bdi>'s visible quills"),
    ({"data.visible.plant:int": ""}, "<bdi>Ben</bdi>'s visible plants"),
    ({"data.patterns.91:int": "-1"}, "<bdi>Ben</bdi>'s count of pattern #91"),
    ({"data.patterns.91:int": ""}, "<bdi>Ben</bdi>'s count of pattern #91"),
    ({"data.visible.quill:int": "two"}, "<bdi>Ben</bdi>'s visible quills"),  # refused by the form's reading
]


@pytest.mark.parametrize("change,words", PAGE_BAD)
def test_a_refused_row_on_the_page_names_the_field_in_players_words(api, client, change, words):
    t = calc_table(api)
    api.event(t, "common_objectives", {"cards": COMMON})
    join(client, t, "1")
    version = api.get(t)["version"]
    fields = form(t, version, 1, **{"data.placement_points:int": "22", "data.secret:int": "96",
                                    "data.visible.quill:int": "2", "data.visible.plant:int": "7",
                                    "data.patterns.91:int": "0"})
    fields.update(change)
    answer = client.post(f"/t/{t['table']}/events", data=fields)
    assert answer.status_code == 400
    page = answer.get_data(as_text=True)
    # the line as shown, Ben's name in <bdi> (companion/games/sentence.py)
    shown = [html.unescape(s) for s in re.findall(r'<p class="error"[^>]*>(.*?)</p>', page)]
    assert shown and shown[0].startswith(words + ": "), shown
    assert all("data." not in line and "[" not in line and "]" not in line for line in shown), shown
    # the message also stands beside the field in Ben's card, and nowhere in another's
    ben = page.split('id="cx-sheet-1"')[1].split('id="cx-sheet-2"')[0]
    assert 'class="error"' in ben
    assert 'class="error"' not in page.split('id="cx-sheet-0"')[1].split('id="cx-sheet-1"')[0]
    assert api.get(t)["version"] == version


def test_the_calculator_page_asks_only_what_the_objectives_need(api, client):
    t = calc_table(api)
    join(client, t, "0")
    page = client.get(f"/t/{t['table']}").get_data(as_text=True)
    assert "cx-sheet-0" not in page and "Choose them" in page  # the common objectives first
    api.event(t, "common_objectives", {"cards": COMMON})
    sheet(api, t, 2, ROWS[2])
    page = client.get(f"/t/{t['table']}").get_data(as_text=True)
    anna = page.split('id="cx-sheet-0"')[1].split('id="cx-sheet-1"')[0]
    shown = [s.strip() for s in re.findall(r'<div class="cx-if[^"]*" data-needs="[^"]*">\s*<label class="field"><span>([^<]+)<', anna)]
    assert shown == ["Visible quills", "Pattern #91: times found"]  # before her secret is known
    cleo = page.split('id="cx-sheet-2"')[1].split('id="cx-sheet-3"')[0]
    shown = [s.strip() for s in re.findall(r'<div class="cx-if[^"]*" data-needs="[^"]*">\s*<label class="field"><span>([^<]+)<', cleo)]
    assert shown == ["Visible quills", "Pattern #88: times found", "Pattern #91: times found"]
    assert 'value="18"' in cleo and "Row saved; waiting for <bdi>Anna</bdi>, <bdi>Ben</bdi>, <bdi>Dan</bdi>" in cleo  # prefilled, said beside it
    assert "JSON" not in page and ":json" not in page.split('id="cx-common"')[1]
    board = re.findall(r'<span class="sb-name"><bdi>(\w+)</bdi></span>\s*<small class="sb-status">([\w ]+)</small>', page)
    assert board == [("Anna", "waiting"), ("Ben", "waiting"), ("Cleo", "row in"), ("Dan", "waiting")]
    for seat in range(4):
        assert f'class="card seat-card cx-row" id="cx-sheet-{seat}" data-you="{seat}"' in page


# --- the tracked end card -------------------------------------------------------------------------------

def test_the_tracked_end_card_saves_secret_counts_and_patterns_at_once(api, client):
    t = api.create("codex", ["Anna", "Ben"], first_player=0)
    api.event(t, "common_objectives", {"cards": [91, 95]})
    r = api.event(t, "sheet", {"player": 0, "secret": 102, "visible": {"fungi": 7, "quill": 5}, "patterns": {"91": 2}})
    state = r.get_json()["state"]
    assert state["secret"][0] == 102 and state["counts"][0]["fungi"] == 7 and state["counts"][0]["quill"] == 5
    assert state["patterns"][0] == {"91": {"count": 2}}
    r = api.event(t, "sheet", {"player": 0, "placement_points": 3})
    assert r.status_code == 400 and r.get_json()["field"] == "data.placement_points"
    join(client, t, "1")
    page = client.get(f"/t/{t['table']}?screen=end").get_data(as_text=True)
    anna = page.split('id="cx-counter-0"')[1].split('id="cx-counter-1"')[0]
    assert anna.count('type="submit"><span>Save') == 1  # one Save for the card
    assert re.search(r'name="data.visible.fungi:int"[^>]*value="7"', anna)
    assert re.search(r'name="data.patterns.91:int"[^>]*value="2"', anna)
    assert 'class="card cx-counter seat-card" id="cx-counter-1" data-you="1"' in page


def test_the_tracked_end_card_keeps_a_laid_out_pattern_when_its_count_is_unchanged(api):
    t = api.create("codex", ["Anna", "Ben"], first_player=0)
    api.event(t, "common_objectives", {"cards": [91, 95]})
    column = [{"x": 0, "y": y, "kingdom": "fungi"} for y in (0, -2, -4, -6)] + \
             [{"x": 1, "y": y, "kingdom": "plant"} for y in (-3, -5, -7)]
    api.event(t, "pattern_grid", {"player": 0, "card": 91, "cells": column})
    state = api.event(t, "sheet", {"player": 0, "visible": {"fungi": 4}, "patterns": {"91": 2}}).get_json()["state"]
    assert "cells" in state["patterns"][0]["91"]
    state = api.event(t, "sheet", {"player": 0, "patterns": {"91": 1}}).get_json()["state"]
    assert state["patterns"][0]["91"] == {"count": 1}


def test_the_tracked_end_card_is_refused_for_a_manuscript_player(api):
    t = api.create("codex", ["Anna", "Ben"], first_player=0)
    api.event(t, "play_card", {"player": 0, "id": 81, "side": "front", "x": 0, "y": 0})
    r = api.event(t, "sheet", {"player": 0, "visible": {"fungi": 4}})
    assert r.status_code == 400 and r.get_json()["field"] == "data.player"
    assert api.event(t, "sheet", {"player": 0, "secret": 99}).status_code == 200


# --- small hole: points after the last turn -------------------------------------------------------------

def last_turns_played(api):
    t = api.create("codex", ["Anna", "Ben"], first_player=0)
    api.event(t, "points", {"player": 1, "delta": 20})  # Ben (last) triggers: one more round
    for _ in range(2):
        assert api.event(t, "turn_played", {}).status_code == 200
    return t


def test_points_after_the_last_turn_count_with_a_word_beside_the_tapped_card(api, client):
    t = last_turns_played(api)
    r = api.event(t, "points", {"player": 0, "delta": 3})
    assert r.status_code == 200
    state = r.get_json()["state"]
    assert state["scores"][0] == 3
    assert state["notice"]["player"] == 0 and "Every last turn is played" in state["notice"]["text"]
    join(client, t, "0")
    page = client.get(f"/t/{t['table']}").get_data(as_text=True)
    anna = page.split('id="cx-player-0"')[1].split('id="cx-player-1"')[0]
    assert re.search(r'<p class="cx-said" role="status" aria-live="polite">Every last turn is played: \+3 counted', anna)
    assert "Every last turn" not in page.split('id="cx-player-1"')[1]
    # the next event clears it; gold cards warn the same way
    state = api.event(t, "gold_corners", {"player": 1, "corners": 2}).get_json()["state"]
    assert state["notice"]["player"] == 1 and "+4" in state["notice"]["text"]
    state = api.event(t, "points", {"player": 1, "delta": -1}).get_json()["state"]
    assert state["notice"] is None  # taking points back (a correction) needs no word


def test_points_before_the_last_turns_are_played_say_nothing(api):
    t = api.create("codex", ["Anna", "Ben"], first_player=0)
    api.event(t, "points", {"player": 1, "delta": 20})
    api.event(t, "turn_played", {})
    assert api.event(t, "points", {"player": 0, "delta": 3}).get_json()["state"]["notice"] is None


# --- every field said in players' words -------------------------------------------------------------------

def test_every_event_field_and_option_has_a_label_of_its_own():
    from companion.games import get
    from companion.games.codex.calculator import FIELDS
    from companion.games.codex.table import OPTIONAL, SHAPES
    from companion.games.codex.view import LABELS
    from companion.wording import label_of

    paths = {(type_, f"data.{key}") for type_, keys in SHAPES.items() for key in keys}
    paths |= {(type_, f"data.{key}") for type_, keys in OPTIONAL.items() for key in keys}
    paths |= {("sheet", f"data.visible.{s}") for s in ("fungi", "plant", "animal", "insect", "quill", "inkwell", "manuscript")}
    paths |= {("sheet", f"data.patterns.{oid}") for oid in range(87, 95)}
    paths |= {("common_objectives", "data.cards[1]"), ("pattern_grid", "data.cells[2].kingdom"), ("play_card", "data.cell[0]")}
    paths |= {(None, "target"), (None, "first_player")}
    assert set(FIELDS) <= {p.split(".", 1)[1] for t, p in paths if t == "sheet"}
    labels = get("codex").labels
    for type_, path in sorted(paths, key=str):
        words = label_of(path, NAMES, labels, type_, {"player": 1})
        pattern = re.sub(r"\[\d+\]", "[]", path.removeprefix("data."))
        assert any(k in LABELS for k in (f"{type_}.{pattern}", pattern, pattern.rsplit(".", 1)[-1])), path
        assert words and not re.search(r"[\[\]_]|\bdata\b|\w\.\w", words), (path, words)
    assert label_of("data.visible.quill", NAMES, labels, "sheet", {"player": 1}) == "Ben's visible quills"
    assert label_of("data.cards[1]", NAMES, labels, "common_objectives", {}) == "the 2nd common objective"


def test_the_secret_objective_is_typed_as_its_card_number_and_a_common_one_is_refused(client, api):
    """A secret objective is never one of the commons (issue 11 playtest). Since issue 27 it is typed as the
    number printed on the card (one interaction, where a select took two): the page says the range, lists
    the cards' words for the typed number, and a common card's number is refused in the players' words."""
    t = api.create("codex", ["Ann", "Ben"], calculator=True)
    assert api.event(t, "common_objectives", {"cards": [95, 99]}).status_code == 200
    client.set_cookie(f"tc_{t['table']}", t["token"])
    page = client.get(f"/t/{t['table']}").get_data(as_text=True)
    field = page.split('name="data.secret:int"', 1)[1].split("</label>", 1)[0]
    assert 'inputmode="numeric"' in field
    assert "Secret objective: its card number <small class=\"muted\">87 to 102</small>" in page
    words = re.findall(r'<li data-card="(\d+)">#\d+: [^<]+</li>', page.split('id="cx-cards"', 1)[1].split("</ul>", 1)[0])
    assert words == [str(n) for n in range(87, 103)]
    version = api.get(t)["version"]
    answer = client.post(f"/t/{t['table']}/events", data={"type": "sheet", "expected_version:int": str(version),
                                                          "data.player:int": "0", "data.placement_points:int": "20",
                                                          "data.secret:int": "95"})
    assert answer.status_code == 400
    said = [html.unescape(re.sub(r"<[^>]+>", "", e)) for e in re.findall(r'class="error"[^>]*>(.*?)</p>', answer.get_data(as_text=True), re.S)]
    assert "Ann's secret objective: card 95 is a common objective; the secret one is another card" in said, said
    assert api.get(t)["version"] == version


# --- the mode is the table's options alone (issue 30) ------------------------------------------------------

def folded(names, options, events, state=None):
    """Fold events as the framework does, from the given stored state or a new table's."""
    from companion.games.base import Context
    from companion.games.codex import GAME

    clean = {**GAME.validate_options({k: v for k, v in options.items() if k != "calculator"}, len(names)),
             **({"calculator": True} if options.get("calculator") else {})}
    if state is None:
        state = GAME.initial_state(list(names), clean, {})
    for type_, data in events:
        state = GAME.apply(state, type_, data, Context(names=tuple(names), options=clean, seed=1))
    return state, clean


def test_a_calculator_table_is_told_from_its_options_never_from_its_states_keys():
    from companion.games.codex import GAME

    # a tracked table: its running score is the score track whatever keys its state carries
    state, options = folded(NAMES, {"first_player": 0}, [("points", {"player": 1, "delta": 7})])
    assert GAME.running_score(state, options) == [0, 7, 0, 0]
    assert GAME.running_score({**state, "rows": [None] * 4}, options) == [0, 7, 0, 0]
    # a calculator table keeps no running score, told by its options
    calc, calc_options = folded(NAMES, {"calculator": True}, [("common_objectives", {"cards": COMMON})])
    assert GAME.running_score(calc, calc_options) is None
    assert "calculator" not in calc  # the state writes no mode flag: the rows it keeps are data


def test_a_stored_calculator_state_with_a_mode_flag_still_loads_and_plays():
    from companion.games.codex import GAME

    # a state stored with a "calculator" key, the flag some tables kept: the events fold over it as over any
    stored, options = folded(NAMES, {"calculator": True}, [("common_objectives", {"cards": COMMON})])
    stored = {**stored, "calculator": True}
    state, _ = folded(NAMES, {"calculator": True}, [("sheet", {"player": s, **row}) for s, row in enumerate(ROWS)], stored)
    assert state["finished"] is True
    assert GAME.final_result(state, NAMES, options, {}) == expected()
    assert GAME.running_score(state, options) is None
    assert GAME.view(state, NAMES, options, {}, None)["decided"].startswith("Cleo wins the tie on 29")
