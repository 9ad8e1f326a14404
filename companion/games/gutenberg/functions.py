"""Gutenberg's JSON rules functions (CONTRACT.md "## gutenberg"): check a document, run the rules.

Each `run_*` takes the parsed JSON document and returns the JSON result, or raises
RulesError naming the offending field.
"""

from __future__ import annotations

import random
from functools import partial
from typing import Any

from ..base import RulesFunction
from ..speech import _
from ..validation import RulesError, at, choice, distinct, flag, listof, obj, text, unique_names, whole
from ..validation import names as check_names
from . import automa, rules
from .facts import (
    ACTIONS,
    CHARACTERS,
    EXECUTION_CARDS,
    MARKERS_BY_SEAT,
    MAX_LEVEL,
    MAX_PER_ACTION,
    SPECIALTIES,
)

#: generous upper bounds for counts the text does not limit, so a typo does not pass
BIG = 999
#: [GB43] 48 ink tokens, 12 of each colour
MAX_INKS = 48
#: [GB36] 16 patronage cards in the box
MAX_PATRONAGE = 16
#: arrow ends of a planning card: an action, or min / max [GB360-363]
ARROW_ENDS = ACTIONS + ("min", "max")
#: the automa's markers: 7 at setup [GB318], and like any seat at most 10 [GB77]
AUTOMA_MIN, AUTOMA_MAX = MARKERS_BY_SEAT[0], MARKERS_BY_SEAT[-1]
#: readings for the two Take Orders draws (RULES.md GUT-C9)
ORDER_DECKS = ("reshuffled", "one_deck")
#: a player's counts with their upper bounds, as `score` names them (the table's steppers and a calculator
#: row check the same): fame, guilders and types have none printed (BIG); [GB36] 16 patronage cards; [GB43] 48 inks
COUNTS = {"fame": BIG, "guilders": BIG, "patronage_cards": MAX_PATRONAGE, "types": BIG, "inks": MAX_INKS}
#: a player's end values: their counts and their specialty levels
END_VALUES = (*COUNTS, "specialties")


# --- shared checkers (also used by the table and the box profile) ---------------------------

def check_markers(value: Any, field: str, require_all: bool = False) -> dict[str, int]:
    """Check {action: count} (0 to 6 each [GB114]); return all five actions, missing ones as 0."""
    obj(value, field, required=ACTIONS if require_all else (), optional=ACTIONS)
    return {a: whole(value.get(a, 0), at(field, a), 0, MAX_PER_ACTION) for a in ACTIONS}


def check_automa_markers(value: Any, field: str) -> dict[str, int]:
    """Check the automa's markers: 0 to 6 on each action, 7 to 10 in all."""
    markers = check_markers(value, field)
    total = sum(markers.values())
    if not AUTOMA_MIN <= total <= AUTOMA_MAX:
        # [GB318] the automa has 7 markers and, like a player, at most 10 [GB77]
        raise RulesError(field, _("the automa holds %(least)s to %(most)s markers in all; these add up to %(total)s",
                                  least=AUTOMA_MIN, most=AUTOMA_MAX, total=total))
    return markers


def check_card(value: Any, field: str) -> dict:
    """Check a planning card {centre, moves, patronage?}; return it clean."""
    obj(value, field, required=("centre", "moves"), optional=("patronage",))
    centre = choice(value["centre"], at(field, "centre"), ACTIONS)
    moves_field = at(field, "moves")
    moves = []
    for i, move in enumerate(listof(value["moves"], moves_field, 0, 8)):
        move_field = at(moves_field, i)
        pair = listof(move, move_field, 2, 2)
        source = choice(pair[0], at(move_field, 0), ARROW_ENDS)
        target = choice(pair[1], at(move_field, 1), ARROW_ENDS)
        if source == target:
            raise RulesError(move_field, _("an arrow joins two different ends (an action, min or max)"))
        moves.append([source, target])
    patronage = flag(value.get("patronage", False), at(field, "patronage"))
    return {"centre": centre, "moves": moves, "patronage": patronage}


def check_spaces(value: Any, field: str) -> list[int]:
    """Check a list of distinct execution spaces 1 to 4."""
    space = partial(whole, lo=EXECUTION_CARDS[0], hi=EXECUTION_CARDS[-1])
    return list(distinct(value, field, space, 0, len(EXECUTION_CARDS), twice="space {} is listed twice"))


def check_end_values(player: dict, field: str) -> dict:
    """Check a player's end values (the `score` function's player, a calculator row): counts and levels."""
    levels = obj(player["specialties"], at(field, "specialties"), required=SPECIALTIES)
    values = {key: whole(player[key], at(field, key), 0, hi) for key, hi in COUNTS.items()}
    # [GB166] levels 0 to VI; GUT-C6: the lowest space is 0
    values["specialties"] = {s: whole(levels[s], at(at(field, "specialties"), s), 0, MAX_LEVEL) for s in SPECIALTIES}
    return values


def check_seed(doc: dict) -> random.Random:
    """Return the generator for a document's optional `seed` (a fresh random one without it)."""
    if "seed" in doc:
        return random.Random(whole(doc["seed"], "seed", 0, 2**63 - 1))
    return random.Random(random.SystemRandom().getrandbits(64))


# --- score --------------------------------------------------------------------------------

def run_score(doc: Any) -> dict:
    """Final tallies with places, tie-breaks and (solo) the professional title."""
    obj(doc, "$", required=("players",), optional=("solo",))
    solo = flag(doc.get("solo", False), "solo")
    players = listof(doc["players"], "players", 1, 4)
    if solo and len(players) != 1:
        raise RulesError("players", "a solo game has exactly one player")
    clean = []
    for i, p in enumerate(players):
        f = at("players", i)
        obj(p, f, required=("name", *END_VALUES), optional=("character",))
        clean.append({
            "name": text(p["name"], at(f, "name")),
            **check_end_values(p, f),
            "character": choice(p["character"], at(f, "character"), CHARACTERS) if "character" in p else None,
        })
    unique_names(clean)
    return score_result(clean, solo)


def score_result(players: list[dict], solo: bool) -> dict:
    """Build the score result from checked players (name, their end values, character)."""
    results = []
    for p in players:
        parts = rules.breakdown(p["fame"], p["guilders"], p["specialties"].values(), p["patronage_cards"], p["character"])
        results.append({"name": p["name"], "total": sum(parts.values()), "breakdown": parts,
                        "types": p["types"], "inks": p["inks"]})
    winners, places, deciders = rules.rank(results)
    out = []
    for r in results:
        entry = {"name": r["name"], "total": r["total"], "breakdown": r["breakdown"],
                 "tie_break": deciders[r["name"]]}
        if solo:
            entry["title"] = rules.title(r["total"])
        out.append(entry)
    return {"players": out, "winners": winners, "places": places}


# --- action order ---------------------------------------------------------------------------

def run_action_order(doc: Any) -> dict:
    """Who acts in which order for each action after the reveal."""
    obj(doc, "$", required=("seats", "first", "markers"))
    names = check_names(doc["seats"], "seats", 1, len(MARKERS_BY_SEAT))
    first = choice(doc["first"], "first", names)
    order = rules.round_order(names, names.index(first))
    held = dict(zip(order, rules.holdings(len(order))))
    obj(doc["markers"], "markers", optional=names)
    markers = {}
    for name in names:
        field = at("markers", name)
        markers[name] = check_markers(doc["markers"].get(name, {}), field)
        placed = sum(markers[name].values())
        if placed > held[name]:
            # [GB77] [GB294] by position from the first player: 7, 8, 9, 10 markers
            raise RulesError(field, f"{name} holds {held[name]} markers this round, not {placed}")
    return {"order": rules.action_order(order, markers)}


# --- type cost ------------------------------------------------------------------------------

def run_type_cost(doc: Any) -> dict:
    """Guilders to buy more types: the n-th type costs n."""
    obj(doc, "$", required=("owned", "buy"))
    owned = whole(doc["owned"], "owned", 0, BIG)
    buy = whole(doc["buy"], "buy", 0, BIG)
    return {"cost": rules.type_cost(owned, buy)}


# --- automa ---------------------------------------------------------------------------------

def run_automa_plan(doc: Any) -> dict:
    """Apply a planning card's arrows to the automa's markers."""
    obj(doc, "$", required=("markers", "card"))
    markers = check_automa_markers(doc["markers"], "markers")
    card = check_card(doc["card"], "card")
    markers, steps = automa.apply_card(markers, card)
    return {"markers": markers, "steps": [s.as_json() for s in steps]}


def run_automa_round_end(doc: Any) -> dict:
    """Give one marker or receive markers when the first-player token passes."""
    obj(doc, "$", required=("markers", "centre", "change"))
    markers = check_automa_markers(doc["markers"], "markers")
    centre = choice(doc["centre"], "centre", ACTIONS)
    change = whole(doc["change"], "change", -1, len(MARKERS_BY_SEAT) - 1)
    if change == 0:
        raise RulesError("change", "must be -1 (gives one marker) or 1 to 3 (markers received)")
    total = sum(markers.values()) + change
    if not AUTOMA_MIN <= total <= AUTOMA_MAX:
        raise RulesError("change", f"the automa would hold {total} markers; it holds {AUTOMA_MIN} to {AUTOMA_MAX}")
    markers, moved = automa.token_passed(markers, centre, change)
    return {"markers": markers, ("taken" if change == -1 else "placed"): moved}


def run_automa_execute(doc: Any) -> dict:
    """Draw execution cards for one automa action until one names a space that holds something."""
    obj(doc, "$", required=("action", "available"), optional=("seed", "deck"))
    action = choice(doc["action"], "action", ACTIONS)
    deck_reading = choice(doc.get("deck", "reshuffled"), "deck", ORDER_DECKS)
    rng = check_seed(doc)
    if action != "take_orders":
        available = check_spaces(doc["available"], "available")
        space, drawn = automa.draw(automa.shuffled_deck(rng), available)
        return {"space": space, "drawn": drawn}
    # [GB341] one printing card and one refinement card, "an execution card for each"
    obj(doc["available"], "available", required=("printing", "refinement"))
    printing = check_spaces(doc["available"]["printing"], "available.printing")
    refinement = check_spaces(doc["available"]["refinement"], "available.refinement")
    deck = automa.shuffled_deck(rng)
    p_space, p_drawn = automa.draw(deck, printing)
    if deck_reading == "reshuffled":
        # GUT-C9 (MRR): the refinement card is drawn from the full deck, reshuffled
        deck = automa.shuffled_deck(rng)
    else:
        # GUT-C9 (literal): go on drawing from what is left of the same deck
        deck = deck[len(p_drawn):]
    r_space, r_drawn = automa.draw(deck, refinement)
    return {"printing": {"space": p_space, "drawn": p_drawn}, "refinement": {"space": r_space, "drawn": r_drawn}}


FUNCTIONS: dict[str, RulesFunction] = {f.name: f for f in (
    RulesFunction("score", "final tallies, places with the tie-break named, solo title [GB298-309, GB370-378]", run_score),
    RulesFunction("action_order", "who acts in which order on each action after the reveal [GB116-122]", run_action_order),
    RulesFunction("type_cost", "guilders to buy more types: the n-th type costs n [GB242-244]", run_type_cost),
    RulesFunction("automa_plan", "apply a planning card's arrows to the automa's markers [GB356-367]", run_automa_plan),
    RulesFunction("automa_round_end", "the automa gives or receives markers as the token passes [GB349-354]", run_automa_round_end),
    RulesFunction("automa_execute", "draw execution cards for one automa action [GB337-345]", run_automa_execute),
)}
