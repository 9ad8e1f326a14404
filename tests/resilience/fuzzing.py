"""Strategies and invariants shared by the fuzz tests.

Random JSON alone rarely gets past a document's first check, so documents are grown from
seeds (the contract's examples, copied here: the tests read nothing outside this repository):
each value kept, nudged (a near miss of its own kind: an edge number, a float, a string, a
name used elsewhere in the document) or replaced by anything; keys dropped and unknown keys
added. A function without a seed here (a game merged later) still gets random documents.
"""

from __future__ import annotations

import os
import re
from typing import Any

from hypothesis import HealthCheck, Phase, settings
from hypothesis import strategies as st

#: FUZZ_SCALE=N (N > 1) runs N times the examples, freshly randomized: a bug hunt, not CI
SCALE = max(1, int(os.environ.get("FUZZ_SCALE", "1")))

#: derandomized: CI runs the same examples every time, so a failure found once stays found
#: and an xfail marks a reproducible bug; no deadline: timing is the benchmark's job
FUZZ = settings(
    derandomize=SCALE == 1,
    max_examples=100 * SCALE,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much],
    print_blob=True,
    # no explain phase: it replays a failure many times over and costs minutes on a table's pages
    phases=(Phase.explicit, Phase.reuse, Phase.generate, Phase.target, Phase.shrink),
)

# --- seeds: CONTRACT.md's examples -----------------------------------------------------------

SEEDS: dict[tuple[str, str], list[Any]] = {
    ("pad", "score"): [
        {"players": [{"name": "Anna", "rounds": [30, 5]}, {"name": "Ben", "rounds": [21, 14]}, {"name": "Cleo", "total": -10}],
         "lowest_wins": False, "ties": "rule", "tie_rule": "most cards left", "tie_winner": "Ben"},
        {"players": [{"name": "Solo", "total": 12}]},
    ],
    ("gutenberg", "score"): [
        {"solo": False, "players": [
            {"name": "John", "fame": 84, "guilders": 4,
             "specialties": {"typesetting": 6, "woodcutting": 3, "binding": 4, "illuminating": 5},
             "patronage_cards": 2, "types": 5, "inks": 1, "character": "hieronymus_vietor"},
            {"name": "Anna", "fame": 84, "guilders": 4,
             "specialties": {"typesetting": 6, "woodcutting": 3, "binding": 4, "illuminating": 5},
             "patronage_cards": 2, "types": 5, "inks": 1}]},
        {"solo": True, "players": [
            {"name": "Solo", "fame": 60, "guilders": 12,
             "specialties": {"typesetting": 2, "woodcutting": 0, "binding": 6, "illuminating": 1},
             "patronage_cards": 0, "types": 3, "inks": 0, "character": "johannes_gutenberg"}]},
    ],
    ("gutenberg", "action_order"): [
        {"seats": ["Anna", "Tom", "Kate"], "first": "Anna",
         "markers": {"Anna": {"take_orders": 2, "take_inks": 2, "develop_specialties": 1},
                     "Tom": {"take_orders": 2, "take_inks": 2, "develop_specialties": 2, "improve_printing_houses": 1},
                     "Kate": {"take_orders": 1, "take_inks": 1, "develop_specialties": 3, "improve_printing_houses": 2}}},
    ],
    ("gutenberg", "type_cost"): [{"owned": 3, "buy": 2}],
    ("gutenberg", "automa_plan"): [
        {"markers": {"take_orders": 2, "take_inks": 1, "develop_specialties": 1, "improve_printing_houses": 2, "patronage": 1},
         "card": {"centre": "develop_specialties", "moves": [["take_orders", "take_inks"], ["min", "max"]]}},
    ],
    ("gutenberg", "automa_round_end"): [
        {"markers": {"take_orders": 2, "take_inks": 1, "develop_specialties": 1, "improve_printing_houses": 2, "patronage": 1},
         "centre": "take_inks", "change": -1},
        {"markers": {"take_orders": 2, "take_inks": 1, "develop_specialties": 1, "improve_printing_houses": 2, "patronage": 1},
         "centre": "patronage", "change": 2},
    ],
    ("gutenberg", "automa_execute"): [
        {"action": "take_inks", "available": [2, 3], "seed": 7},
        {"action": "take_orders", "available": {"printing": [1, 4], "refinement": [2]}, "seed": 3},
    ],
    ("galileo", "score"): [
        {"cathedral": {"copernican": {"free": 15, "prison": 10, "stake": 5},
                       "ptolemaic": {"free": 10, "prison": 5, "stake": 0}},
         "players": [
             {"name": "Luna", "vp": 80, "principle": "copernican", "status": "free", "suspicion": 0,
              "penance_vp": [3], "inventions_vp": 6, "mentor_vp": 5, "end_losses": 0, "turn_order": 1},
             {"name": "Sol", "vp": 84, "principle": "ptolemaic", "status": "prison", "suspicion": 7,
              "penance_vp": [], "inventions_vp": 2, "mentor_vp": 0, "end_losses": 1, "turn_order": 2}]},
    ],
    ("galileo", "suspicion"): [
        {"track": {"penance": [3, 6, 9], "prison": 11, "stake": 14},
         "state": {"position": 1, "penance_taken": [False, False, False], "arrested": False, "at_stake": False},
         "delta": 3},
    ],
    # galileo's own functions beyond the contract, from docs/galileo.md
    ("galileo", "round"): [
        {"order": ["Luna", "Sol", "Mars"], "passes": ["Sol"], "future": [], "inquisition_up": False},
        {"order": ["Luna", "Mars"], "passes": ["Mars", "Luna"], "future": ["Sol"], "inquisition_up": True,
         "passing": "first_passer_first"},
    ],
    ("galileo", "books"): [
        {"levels": [1, 2, 3, 4], "markers": {"astronomy": 2, "physics": 0, "mathematics": 3, "philosophy": 1},
         "costs": {"astronomy": 2, "mathematics": 1}, "discounts": {"astronomy": 1}},
    ],
    ("voynich", "score"): [
        {"track": {"scoring_spaces": {"10": 3, "20": 6, "30": 10}},
         "players": [
             {"name": "Ana", "gk": 50, "markers": {"botany": 30, "astrology": 27, "baths": 20, "writings": 10},
              "research": [4, 3, 6],
              "pages": [{"section": "astrology", "multiplier": 2},
                        {"section": "recipes", "multiplier": 1, "choices": ["baths", "writings"]},
                        {"section": "botany", "multiplier": 0}]},
             {"name": "Voynich", "gk": 44, "markers": {"botany": 12, "astrology": 31, "baths": 8, "writings": 20},
              "research": [], "pages": [{"section": "astrology", "multiplier": 4}]}],
         "solo": {"difficulty": "hard", "automa": "Voynich", "tokens_on_board": 11}},
    ],
    ("voynich", "priority_scan"): [{"priority": 18, "present": [22, 7, 30]}],
    ("voynich", "solo_turns"): [
        {"cards": {"botany": [3, 8], "astrology": [12, 15], "baths": [21, 24], "writings": [30, 33], "recipes": [36, 39]},
         "difficulty": "very_hard", "turns": 12, "seed": 1},
    ],
    ("voynich", "final_turns"): [{"players": ["A", "B", "C"], "trigger": "B"}],
    ("codex", "score"): [
        {"players": [{"name": "A", "placement_points": 18,
                      "visible": {"quill": 5, "inkwell": 2, "manuscript": 1, "fungi": 8, "plant": 0, "animal": 3, "insect": 1},
                      "objectives": [{"kind": "object_pairs", "object": "quill", "points": 2},
                                     {"kind": "object_set", "points": 3},
                                     {"kind": "resource_triples", "resource": "fungi", "points": 2},
                                     {"kind": "pattern", "points": 3, "count": 2}]},
                     {"name": "B", "placement_points": 20, "visible": {"plant": 6, "insect": 3},
                      "objectives": [{"card": 99}, {"card": 91, "count": 2}]}]},
    ],
    ("codex", "manuscript"): [
        {"cards": [{"id": 81, "side": "front", "x": 0, "y": 0},
                   {"id": 33, "side": "front", "x": 1, "y": -1},
                   {"id": 75, "side": "front", "x": 0, "y": -2}],
         "objectives": [90, 97, 99]},
    ],
    ("codex", "patterns"): [
        {"cells": [{"x": 0, "y": 0, "kingdom": "fungi"}, {"x": 1, "y": 1, "kingdom": "fungi"},
                   {"x": 2, "y": 2, "kingdom": "fungi"}, {"x": 3, "y": 3, "kingdom": "plant"}], "objective": 91},
    ],
    ("codex", "final_turns"): [{"players": ["A", "B", "C"], "trigger": "B"}],
}

# --- strategies ------------------------------------------------------------------------------

EDGE_INTS = [-(2**63), -1000, -1, 0, 1, 2, 3, 4, 5, 6, 7, 9, 10, 11, 40, 99, 999, 1000, 2**31, 2**63]

LEAF = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(2**70), 2**70),
    st.sampled_from(EDGE_INTS),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=12),
)
#: any JSON document (no NaN or infinity: they are not JSON)
ANY_JSON = st.recursive(
    LEAF, lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=10,
)

_MISSING = object()


def examples(n: int) -> settings:
    """Return FUZZ with n examples (times FUZZ_SCALE)."""
    return settings(FUZZ, max_examples=n * SCALE)


def strings_in(value: Any) -> list[str]:
    """Return every key and string value in a document (names, enum values), sorted."""
    found: set[str] = set()

    def walk(v):
        if isinstance(v, str):
            found.add(v)
        elif isinstance(v, list):
            for x in v:
                walk(x)
        elif isinstance(v, dict):
            for k, x in v.items():
                found.add(k)
                walk(x)

    walk(value)
    return sorted(found)


def mutants(value: Any, words: list[str]) -> st.SearchStrategy:
    """Values like `value`: itself, a near miss of its own kind, or any JSON at all."""
    if isinstance(value, bool):
        near = st.booleans() | st.sampled_from([0, 1, "true", None])
    elif isinstance(value, int):
        near = st.one_of(st.integers(min(value, 0) - 3, max(value, 0) * 2 + 10), st.sampled_from(EDGE_INTS),
                         st.just(float(value)), st.just(str(value)), st.just(value + 0.5))
    elif isinstance(value, str):
        near = st.one_of(st.sampled_from(words), st.text(max_size=45), st.just(value.upper()),
                         st.just(f" {value} "), st.just(""), st.just(value * 9))
    elif isinstance(value, list):
        items = [mutants(v, words) for v in value]
        element = st.one_of(*items) if items else ANY_JSON
        near = st.one_of(st.tuples(*items).map(list), st.lists(element, max_size=len(value) + 3))
    elif isinstance(value, dict):
        entries = {k: st.one_of(mutants(v, words), st.just(_MISSING)) for k, v in value.items()}
        extra = st.none() | st.tuples(st.sampled_from(words) | st.text(max_size=10), ANY_JSON)
        near = st.builds(_rebuild, st.fixed_dictionaries(entries), extra)
    else:
        near = ANY_JSON
    return st.one_of(st.just(value), near, ANY_JSON)


def _rebuild(entries: dict, extra) -> dict:
    out = {k: v for k, v in entries.items() if v is not _MISSING}
    if extra is not None:
        out[extra[0]] = extra[1]
    return out


def documents(game: str, function: str) -> st.SearchStrategy:
    """Documents for one rules function: its seeds, mutated, and random JSON."""
    seeds = SEEDS.get((game, function), [])
    words = strings_in(seeds) or ["name"]
    grown = [mutants(seed, words) for seed in seeds]
    return st.one_of(*grown, ANY_JSON) if grown else ANY_JSON


# --- invariants of results -------------------------------------------------------------------


def is_whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def check_result(result: Any) -> None:
    """Check what every rules result keeps (CONTRACT.md, Conventions)."""
    for player in _scored(result):
        breakdown = player["breakdown"]
        assert isinstance(breakdown, dict) and breakdown, player
        assert all(is_whole(v) for v in breakdown.values()), player
        assert is_whole(player["total"]) and sum(breakdown.values()) == player["total"], player
    if isinstance(result, dict) and "winners" in result and "places" in result:
        check_ranking(result)


def _scored(value: Any):
    """Yield every object in the result that carries a total and a breakdown."""
    if isinstance(value, dict):
        if "total" in value and "breakdown" in value:
            yield value
        for v in value.values():
            yield from _scored(v)
    elif isinstance(value, list):
        for v in value:
            yield from _scored(v)


def check_ranking(result: dict) -> None:
    """Winners have the top total and place 1; places are competition ranks (1, 1, 3)."""
    players = result["players"]
    names = [p["name"] for p in players]
    totals = {p["name"]: p["total"] for p in players}
    places, winners = result["places"], result["winners"]
    assert sorted(places) == sorted(names), (places, names)
    assert all(is_whole(p) for p in places.values()), places
    assert winners and len(set(winners)) == len(winners), winners
    assert set(winners) == {n for n, p in places.items() if p == 1}, (winners, places)
    top = max(totals.values())
    assert all(totals[w] == top for w in winners), (winners, totals)
    for n in names:
        assert places[n] == 1 + sum(places[m] < places[n] for m in names), places
    for a in names:
        for b in names:
            if totals[a] > totals[b]:
                assert places[a] < places[b], (a, b, totals, places)


# --- text stays text --------------------------------------------------------------------------

#: markup a player might paste into any text field; a page must show it, never run it
HOSTILE = ['<script>window.__pwned=1</script>', '"><img src=x onerror="window.__pwned=1">', "</textarea><b>x</b>"]


def assert_inert(html: str, where: object = "") -> None:
    """Check that no hostile markup reached a page unescaped."""
    for payload in HOSTILE:
        assert payload not in html, (where, payload)
    assert not re.search(r"<img[^>]*\bonerror", html, re.I), where


# --- table events ----------------------------------------------------------------------------

KEY_IN_DOC = re.compile(r"[{,]\s*\"?([a-z_]+)\"?\??\s*:")
WORD_IN_DOC = re.compile(r"\"([a-z_]+)\"")


def event_vocabulary(game, state: Any) -> tuple[list[str], list[str]]:
    """Return (keys, words) an event's data may use, read off the game's event docs and state."""
    keys: set[str] = {"player", "delta", "name"}
    words: set[str] = set(strings_in(state))
    for doc in list(game.events.values()) + list(getattr(game, "options_doc", {}).values()):
        keys.update(KEY_IN_DOC.findall(doc))
        words.update(WORD_IN_DOC.findall(doc))
    words.update(keys)
    words.update(HOSTILE)
    return sorted(keys), sorted(words)


def event_data(keys: list[str], words: list[str]) -> st.SearchStrategy:
    """Event data built from the keys and words a game's docs name, with small numbers."""
    small = st.integers(-3, 12)
    value = st.one_of(
        small, st.booleans(), st.sampled_from(words), st.none(),
        st.dictionaries(st.sampled_from(words), small, max_size=5),
        st.lists(small, max_size=5), st.lists(st.sampled_from(words), max_size=3),
        st.fixed_dictionaries({}, optional={k: small | st.sampled_from(words) | st.booleans() for k in keys[:12]}),
        ANY_JSON,
    )
    return st.dictionaries(st.sampled_from(keys), value, max_size=4) | ANY_JSON


def options_for(game) -> st.SearchStrategy:
    """Setup options named in the game's options_doc, with values from its words."""
    _, words = event_vocabulary(game, {})
    keys = list(getattr(game, "options_doc", {}))
    if not keys:
        return st.just({})
    value = st.one_of(st.booleans(), st.integers(-1, 5), st.sampled_from(words), ANY_JSON)
    return st.fixed_dictionaries({}, optional={k: value for k in keys})


def some_profile(client) -> int:
    """Save a box profile through its form and return its id (0, which none has, if no game takes a bare name)."""
    from companion import games

    for key in games.registry():
        made = client.post(f"/profiles/new/{key}", data={"profile_name": f"Box {key}"})
        if made.status_code == 303:
            return int(made.headers["Location"].rstrip("/").rsplit("/", 1)[-1])
    return 0
