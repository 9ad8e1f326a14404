"""The JSON rules functions of CONTRACT.md "## voynich": check the document, call rules.py.

Each function takes the parsed JSON document and returns the JSON result, or raises
RulesError naming the offending field. All of the Voynich Puzzle's document checks live
here; table.py checks its events, and profile.py the box profile, with them.
"""

from __future__ import annotations

import random
from typing import Any, Iterable

from ..base import RulesFunction
from ..speech import _
from ..validation import RulesError, at, choice, distinct, listof, names, obj, text, unique_names, whole
from . import rules
from .rules import (
    CARD_HI,
    CARD_LO,
    DIFFICULTIES,
    KNOWLEDGE,
    MAX_RESEARCH,
    MAX_TOKENS,
    MULTIPLIERS,
    POS_HI,
    SECTIONS,
    SIDES,
    TIE_RULES,
)


# --- checkers (also used by the table and the box profile) ---------------------------------

def _marker_positions(value: Any, field: str, keys: Iterable[str] = KNOWLEDGE) -> dict[str, int]:
    keys = tuple(keys)
    obj(value, field, required=keys)
    return {k: whole(value[k], at(field, k), 0, POS_HI) for k in keys}


def _position_key(key: str, field: str) -> int:
    if not (isinstance(key, str) and key.isdigit() and key.isascii()):
        raise RulesError(field, "keys must be track positions written as whole numbers, e.g. \"10\"")
    pos = int(key)
    if pos > POS_HI:
        raise RulesError(field, f"a track position must be from 0 to {POS_HI}")
    return pos


def scoring_spaces(value: Any, field: str) -> dict[int, int]:
    """Check a {position: printed GK} map (VOY-B1) and return it with integer positions."""
    if not isinstance(value, dict):
        raise RulesError(field, "must be an object mapping track positions to the GK printed there")
    if not value:
        raise RulesError(field, "must list at least one scoring space (as printed on the score track)")
    clean: dict[int, int] = {}
    for key, gk in value.items():
        path = at(field, str(key))
        pos = _position_key(key, path)
        if pos in clean:  # "7" and "07": one space written twice
            raise RulesError(path, _("position %(position)s is listed twice", position=pos))
        clean[pos] = whole(gk, path, 0, POS_HI)
    return dict(sorted(clean.items()))


def insight_positions(value: Any, field: str) -> list[int]:
    """Check a list of distinct track positions holding an insight symbol (VOY-B2)."""
    items = distinct(value, field, lambda pos, path: whole(pos, path, 1, POS_HI), twice="position {} is listed twice")
    return sorted(items)


def card_number(value: Any, field: str) -> int:
    """Check a Voynich card number (1 to 40)."""
    return whole(value, field, CARD_LO, CARD_HI)


def multiplier(value: Any, field: str, message: str | None = None) -> int:
    """Check a page's scoring multiplier: x1, x2 or x4 as the page shows, 0 in its starting phase [V361] [V91]."""
    if isinstance(value, bool) or not isinstance(value, int) or value not in MULTIPLIERS:
        raise RulesError(field, message or _("must be 0 (starting phase), 1, 2 or 4"))
    return value


def recipe_choices(value: Any, field: str) -> list[str]:
    """Check a Recipes page's two distinct knowledge types [V363]."""
    if isinstance(value, list) and len(value) != 2:  # a page ticks them: say it in what the player sees
        raise RulesError(field, "must hold exactly 2 items", said=_("tick its two types (%(ticked)s ticked)", ticked=len(value)))
    items = listof(value, field, 2, 2)
    for i, kind in enumerate(items):
        choice(kind, at(field, i), KNOWLEDGE)
    if items[0] == items[1]:
        raise RulesError(field, _("a Recipes page shows two different knowledge types"))
    return list(items)


def check_present(value: Any, field: str) -> list[int]:
    """Check a list of distinct numbers 1..40 printed in one part of the solo board (VOY-B7)."""
    return distinct(value, field, card_number, 1, CARD_HI)


def check_cards(value: Any, field: str = "cards") -> dict[str, list[int]]:
    """Check Voynich's ten card numbers: {section: [left, right]}, each 1..40, all distinct (B5)."""
    obj(value, field, required=SECTIONS)
    seen: dict[int, str] = {}
    clean: dict[str, list[int]] = {}
    for section in SECTIONS:
        path = at(field, section)
        pair = listof(value[section], path, 2, 2)
        for i, n in enumerate(pair):
            card_number(n, at(path, i))
            if n in seen:
                raise RulesError(at(path, i), f"card {n} is already used (in {seen[n]}); each card number appears once")
            seen[n] = f"{section} {SIDES[i]}"
        clean[section] = list(pair)
    return clean


# --- score ---------------------------------------------------------------------------------

def _check_page(page: Any, field: str) -> dict:
    obj(page, field, required=("section", "multiplier"), optional=("choices", "chosen"))
    section = choice(page["section"], at(field, "section"), SECTIONS)
    clean = {"section": section, "multiplier": multiplier(page["multiplier"], at(field, "multiplier"))}
    if section == "recipes":
        if "choices" not in page:
            raise RulesError(at(field, "choices"), "a Recipes page lists the two knowledge types it shows")
        clean["choices"] = recipe_choices(page["choices"], at(field, "choices"))
        if page.get("chosen") is not None:
            clean["chosen"] = choice(page["chosen"], at(field, "chosen"), clean["choices"])
    else:
        for key in ("choices", "chosen"):
            if key in page:
                raise RulesError(at(field, key), "only a Recipes page shows two knowledge types to choose from")
    return clean


def _check_player(p: Any, field: str) -> dict:
    obj(p, field, required=("name", "gk", "markers", "research", "pages"))
    clean = {
        "name": text(p["name"], at(field, "name")),
        "gk": whole(p["gk"], at(field, "gk"), 0, POS_HI),
        "markers": _marker_positions(p["markers"], at(field, "markers")),
    }
    research = listof(p["research"], at(field, "research"), 0, MAX_RESEARCH)
    clean["research"] = [whole(v, at(at(field, "research"), i), 0, POS_HI) for i, v in enumerate(research)]
    pages = listof(p["pages"], at(field, "pages"), 0, 2 * len(SECTIONS))
    clean["pages"] = [_check_page(pg, at(at(field, "pages"), i)) for i, pg in enumerate(pages)]
    return clean


def check_score_doc(doc: Any) -> dict:
    """Validate a `score` document (CONTRACT.md "voynich") and return it clean."""
    obj(doc, "$", required=("track", "players"), optional=("solo",))
    obj(doc["track"], "track", required=("scoring_spaces",), optional=("insights", "end"))  # a profile track as is
    spaces = scoring_spaces(doc["track"]["scoring_spaces"], "track.scoring_spaces")
    players = listof(doc["players"], "players", 1, 4)
    clean_players = [_check_player(p, at("players", i)) for i, p in enumerate(players)]
    unique_names(clean_players)
    solo = None
    if "solo" in doc:
        s = obj(doc["solo"], "solo", required=("difficulty", "automa"), optional=("tokens_on_board", "tie_rule"))
        difficulty = choice(s["difficulty"], "solo.difficulty", DIFFICULTIES)
        names_ = [p["name"] for p in clean_players]
        automa = s["automa"]
        if not isinstance(automa, str) or automa.strip() not in names_:
            raise RulesError("solo.automa", "must be the name of the player who is Voynich")
        if len(clean_players) != 2:
            raise RulesError("players", "a solo game has exactly two players: you and Voynich")
        idx = names_.index(automa.strip())
        if clean_players[idx]["research"]:
            raise RulesError(at(at("players", idx), "research"), "must be empty: Voynich never has research tokens [V492]")
        if rules.counts_tokens(difficulty):
            if "tokens_on_board" not in s:
                raise RulesError("solo.tokens_on_board", f"is required at {difficulty.replace('_', ' ')}: count Voynich's tokens on the board")
        tokens = whole(s.get("tokens_on_board", 0), "solo.tokens_on_board", 0, MAX_TOKENS)
        tie_rule = choice(s.get("tie_rule", "strict"), "solo.tie_rule", TIE_RULES)
        solo = {"difficulty": difficulty, "automa": idx, "tokens_on_board": tokens, "tie_rule": tie_rule}
    return {"spaces": spaces, "players": clean_players, "solo": solo}


def score(doc: Any) -> dict:
    """Final scoring, solo included ([V354-367], [V492-497]); CONTRACT.md `voynich score`."""
    d = check_score_doc(doc)
    return rules.final_scores(d["players"], d["spaces"], d["solo"])


# --- the priority number, the deck, the final turns ----------------------------------------

def priority_scan(doc: Any) -> dict:
    """The order in which Voynich checks numbered spaces ([V430-432]); CONTRACT.md."""
    obj(doc, "$", required=("priority", "present"))
    priority = whole(doc["priority"], "priority", CARD_LO, CARD_HI)
    present = check_present(doc["present"], "present")
    return {"order": rules.scan_order(priority, present)}


def solo_turns(doc: Any) -> dict:
    """Run Voynich's deck for a number of turns ([V371-395]); CONTRACT.md `voynich solo_turns`."""
    obj(doc, "$", required=("cards", "difficulty", "turns"), optional=("seed",))
    cards = check_cards(doc["cards"])
    difficulty = choice(doc["difficulty"], "difficulty", DIFFICULTIES)
    turns = whole(doc["turns"], "turns", 0, 1000)
    seed = whole(doc["seed"], "seed") if "seed" in doc else random.SystemRandom().randrange(2**32)
    return rules.run_deck(cards, difficulty, turns, random.Random(seed))


def final_turns(doc: Any) -> dict:
    """The turns still to play once the end is triggered ([V356]); same shapes as codex's."""
    obj(doc, "$", required=("players", "trigger"))
    players = names(doc["players"], "players", 1, 4)
    trigger = doc["trigger"]
    if not isinstance(trigger, str) or trigger.strip() not in players:
        raise RulesError("trigger", "must be one of the players' names")
    return {"turns": rules.final_turns_order(players, players.index(trigger.strip()))}


FUNCTIONS = {
    f.name: f
    for f in (
        RulesFunction("score", "final scoring, solo included: research halved, pages, tie-break [V354-367, V492-497]", score),
        RulesFunction("priority_scan", "the order Voynich checks numbered spaces from a priority number [V430-432]", priority_scan),
        RulesFunction("solo_turns", "run Voynich's deck for a number of turns: skip, reshuffle, odd/even page [V371-395]", solo_turns),
        RulesFunction("final_turns", "the turns still to play once a GK marker reaches 52 [V356]", final_turns),
    )
}
