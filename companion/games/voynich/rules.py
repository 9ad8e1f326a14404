"""The Voynich Puzzle's computed rules: end scoring, the solo opponent's deck, the priority scan.

Plain functions over plain data (no Flask). Line references such as [V360] point into
the rulebook; "VOY-C11" and "D1" into RULES.md, whose readings these functions follow.
Printed values (the score track's scoring spaces, the puzzle grid's GK, the solo board's
numbered spaces) always come in as arguments: nothing printed is guessed here.
"""

from __future__ import annotations

import random
from typing import Any, Iterable

from ..validation import RulesError, at, choice, listof, names, obj, places, text, unique_names, whole
from ..turns import last_turns

#: the four knowledge markers besides GK [V64]
KNOWLEDGE = ("botany", "astrology", "baths", "writings")
#: the sections in book order; each spread holds 2 pages [V58]
SECTIONS = KNOWLEDGE + ("recipes",)
#: all five markers of a player on the score track [V64]
MARKERS = KNOWLEDGE + ("gk",)
#: a page's scoring multiplier: 0 for the starting phase [V91], else x1, x2 or x4 [V361]
MULTIPLIERS = (0, 1, 2, 4)
DIFFICULTIES = ("easy", "medium", "hard", "very_hard", "extremely_hard")
#: GK Voynich gains per token of his on the board at the end [V494-495] (VOY-C2)
TOKEN_GK = {"easy": 0, "medium": 0, "hard": 2, "very_hard": 2, "extremely_hard": 5}
#: [V492] easy: his knowledge markers go back 5 spaces before scoring
EASY_SETBACK = 5
#: [V375] very hard and extremely hard pre-advance these pages once (VOY-C19)
PRE_ADVANCE = (("botany", 0), ("baths", 0), ("astrology", 1), ("writings", 1))
PRE_ADVANCED = ("very_hard", "extremely_hard")
#: [V80] the end-of-game symbol is on the 52nd space; MRR GK >= 52 triggers (VOY-C12)
END_GK = 52
#: [V34] 6 research tokens per colour
MAX_RESEARCH = 6
#: [V25-28] 4 each of Leaf, Water Drop, Star and Text: at most 16 tokens on the board (VOY-B10)
MAX_TOKENS = 16
#: Voynich cards and the priority numbers run from 1 to 40 [V23] [V430]
CARD_LO, CARD_HI = 1, 40
LAST_PHASE = 4
#: a generous bound on track positions and printed values, to catch typing slips
POS_HI = 999
SIDES = ("left", "right")
#: VOY-C11: a solo tie is a loss ("strict", the literal reading) or goes to the marker tie-break
TIE_RULES = ("strict", "tie_break")


# --- validation helpers ------------------------------------------------------------------

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
            raise RulesError(path, f"position {pos} is listed twice")
        clean[pos] = whole(gk, path, 0, POS_HI)
    return dict(sorted(clean.items()))


def insight_positions(value: Any, field: str) -> list[int]:
    """Check a list of distinct track positions holding an insight symbol (VOY-B2)."""
    items = listof(value, field)
    seen: set[int] = set()
    for i, pos in enumerate(items):
        whole(pos, at(field, i), 1, POS_HI)
        if pos in seen:
            raise RulesError(at(field, i), f"position {pos} is listed twice")
        seen.add(pos)
    return sorted(seen)


def card_number(value: Any, field: str) -> int:
    """Check a Voynich card number (1 to 40)."""
    return whole(value, field, CARD_LO, CARD_HI)


# --- the score track -----------------------------------------------------------------------

def track_gk(position: int, spaces: dict[int, int]) -> int:
    """Return the GK of the furthest scoring space reached or passed, 0 below the first [V361]."""
    reached = [pos for pos in spaces if pos <= position]
    # MRR (VOY-A14): a marker short of every scoring space scores 0
    return spaces[max(reached)] if reached else 0


def insights_crossed(old: int, new: int, insights: Iterable[int]) -> int:
    """Count insight symbols reached or passed moving forward from old to new [V170].

    MRR (VOY-A2): one move crossing two symbols gives two tokens. Moving back gives none.
    """
    return sum(1 for pos in insights if old < pos <= new)


def final_turns_order(players: list, trigger: int) -> list:
    """Return the turns still to play after the turn of players[trigger] triggered the end [V356].

    "Finish the round so that all players have taken the same number of turns, then all
    players take one more turn each": the players after the trigger, then everyone once.
    """
    return last_turns(players, trigger)


# --- end scoring ---------------------------------------------------------------------------

def page_points(page: dict, markers: dict[str, int], spaces: dict[int, int]) -> tuple[str, int]:
    """Score one page: (the knowledge type scored, GK) [V361-363].

    A Recipes page scores the better of its two types unless `chosen` overrides it
    (VOY-A15: the app picks the higher result; the player may override).
    """
    if page["multiplier"] == 0:
        # [V91] the starting phase gives no points, whichever type it would have scored
        return (page.get("chosen") or (page.get("choices") or [page["section"]])[0]), 0
    if page["section"] == "recipes":
        options = page["choices"]
        if page.get("chosen"):
            kind = page["chosen"]
        else:
            # [V363] the player chooses; the app picks the higher (first listed on a tie)
            kind = max(options, key=lambda k: (track_gk(markers[k], spaces), -options.index(k)))
    else:
        # VOY-B11: each section's pages score that section's own marker
        kind = page["section"]
    # [V361] the GK of the furthest scoring space reached, times the page's 1, 2 or 4
    return kind, track_gk(markers[kind], spaces) * page["multiplier"]


def tie_key(markers: dict[str, int]) -> tuple[int, ...]:
    """Return the 4 knowledge positions, furthest first, for the tie-break [V367] (VOY-A17)."""
    return tuple(sorted((markers[k] for k in KNOWLEDGE), reverse=True))


def _check_page(page: Any, field: str) -> dict:
    obj(page, field, required=("section", "multiplier"), optional=("choices", "chosen"))
    section = choice(page["section"], at(field, "section"), SECTIONS)
    mult = page["multiplier"]
    if isinstance(mult, bool) or not isinstance(mult, int) or mult not in MULTIPLIERS:
        raise RulesError(at(field, "multiplier"), "must be 0 (starting phase), 1, 2 or 4")
    clean = {"section": section, "multiplier": mult}
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


def recipe_choices(value: Any, field: str) -> list[str]:
    """Check a Recipes page's two distinct knowledge types [V363]."""
    items = listof(value, field, 2, 2)
    for i, kind in enumerate(items):
        choice(kind, at(field, i), KNOWLEDGE)
    if items[0] == items[1]:
        raise RulesError(field, "a Recipes page shows two different knowledge types")
    return list(items)


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
        if TOKEN_GK[difficulty]:
            if "tokens_on_board" not in s:
                raise RulesError("solo.tokens_on_board", f"is required at {difficulty.replace('_', ' ')}: count Voynich's tokens on the board")
        tokens = whole(s.get("tokens_on_board", 0), "solo.tokens_on_board", 0, MAX_TOKENS)
        tie_rule = choice(s.get("tie_rule", "strict"), "solo.tie_rule", TIE_RULES)
        solo = {"difficulty": difficulty, "automa": idx, "tokens_on_board": tokens, "tie_rule": tie_rule}
    return {"spaces": spaces, "players": clean_players, "solo": solo}


def score_player(p: dict, spaces: dict[int, int], difficulty: str | None = None,
                 tokens_on_board: int = 0) -> dict:
    """Return one player's final score; `difficulty` set when the player is Voynich."""
    markers = dict(p["markers"])
    tokens = 0
    if difficulty is not None:
        if difficulty == "easy":
            # [V492] back 5 spaces; MRR clamp at 0, used for pages and tie-break (VOY-C16)
            markers = {k: max(0, v - EASY_SETBACK) for k, v in markers.items()}
        # [V494-495] 2 (hard, very hard) or 5 (extremely hard) GK per token on the board (VOY-C10)
        tokens = TOKEN_GK[difficulty] * tokens_on_board
    # [V360] research GK summed, then halved once, rounding down (VOY-A13)
    research = sum(p["research"]) // 2
    detail = []
    for page in p["pages"]:
        kind, points = page_points(page, markers, spaces)
        detail.append({"section": kind, "points": points})
    pages = sum(d["points"] for d in detail)
    breakdown = {"gk": p["gk"], "research": research, "pages": pages, "tokens": tokens}
    return {
        "name": p["name"],
        "total": sum(breakdown.values()),  # [V365] VOY-A16
        "breakdown": breakdown,
        "pages_detail": detail,
        "tie_break": list(tie_key(markers)),
    }


def score(doc: Any) -> dict:
    """Final scoring, solo included ([V354-367], [V492-497]); CONTRACT.md `voynich score`."""
    d = check_score_doc(doc)
    solo = d["solo"]
    results = []
    for i, p in enumerate(d["players"]):
        if solo and i == solo["automa"]:
            results.append(score_player(p, d["spaces"], solo["difficulty"], solo["tokens_on_board"]))
        else:
            results.append(score_player(p, d["spaces"]))
    # [V367] ties: furthest knowledge marker, then the second furthest, ...; else shared
    keys = {r["name"]: (r["total"],) + tuple(r["tie_break"]) for r in results}
    winners, ranks = places(keys)
    out: dict[str, Any] = {"players": results}
    if solo:
        automa = results[solo["automa"]]
        human = results[1 - solo["automa"]]
        tie_winners = winners
        # [V497] "If you have more GK than Voynich, you win": strictly more (VOY-C11)
        if human["total"] > automa["total"]:
            won = True
        elif human["total"] == automa["total"] and solo["tie_rule"] == "tie_break":
            won = winners == [human["name"]]
        else:
            won = False
        human["outcome"] = "win" if won else "loss"
        winners = [human["name"]] if won else [automa["name"]]
        loser = automa if won else human
        ranks = {winners[0]: 1, loser["name"]: 2}
        out["tie_rule"] = solo["tie_rule"]
        if human["total"] == automa["total"]:
            # D1 end scoring 6: on a tie, show the normal tie-break too
            out["tie_break_winners"] = tie_winners
    out["winners"] = winners
    out["places"] = ranks
    return out


# --- the priority number -------------------------------------------------------------------

def scan_order(priority: int, present: Iterable[int]) -> list[int]:
    """Return the order Voynich checks numbered spaces from `priority` [V430-432].

    Start at the priority number, or the nearest lower number present; with none lower,
    wrap to the highest (VOY-C13); then go up, wrapping from 40 to 1.
    """
    numbers = sorted(set(present))
    if not numbers:
        return []
    lower = [n for n in numbers if n <= priority]
    start = max(lower) if lower else numbers[-1]
    i = numbers.index(start)
    return numbers[i:] + numbers[:i]


def check_present(value: Any, field: str) -> list[int]:
    """Check a list of distinct numbers 1..40 printed in one part of the solo board (VOY-B7)."""
    items = listof(value, field, 1, CARD_HI)
    seen: set[int] = set()
    for i, n in enumerate(items):
        whole(n, at(field, i), CARD_LO, CARD_HI)
        if n in seen:
            raise RulesError(at(field, i), f"{n} is listed twice")
        seen.add(n)
    return items


def priority_scan(doc: Any) -> dict:
    """The order in which Voynich checks numbered spaces ([V430-432]); CONTRACT.md."""
    obj(doc, "$", required=("priority", "present"))
    priority = whole(doc["priority"], "priority", CARD_LO, CARD_HI)
    present = check_present(doc["present"], "present")
    return {"order": scan_order(priority, present)}


# --- the Voynich deck ----------------------------------------------------------------------

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


def card_sections(cards: dict[str, list[int]]) -> dict[int, str]:
    """Map each of Voynich's card numbers to its section."""
    return {n: section for section, pair in cards.items() for n in pair}


def initial_phases(cards: dict[str, list[int]], difficulty: str) -> dict[int, int]:
    """Return the phase of each of Voynich's cards at setup [V58] [V375]."""
    phases = {n: 1 for pair in cards.values() for n in pair}
    if difficulty in PRE_ADVANCED:
        # [V375] once on Botany-left, Baths-left, Astrology-right, Writings-right (VOY-C19)
        for section, side in PRE_ADVANCE:
            phases[cards[section][side]] += 1
    return phases


def new_deck(cards: dict[str, list[int]], rng: random.Random) -> list[int]:
    """Shuffle Voynich's ten cards into a deck, top first; the top is never Recipes [V373]."""
    sections = card_sections(cards)
    deck = sorted(sections)
    rng.shuffle(deck)
    while sections[deck[0]] == "recipes":  # D1 setup 2: reshuffle while the top is Recipes
        rng.shuffle(deck)
    return deck


def flip(deck: list[int], discard: list[int], open_spread: str | None,
         sections: dict[int, str], rng: random.Random) -> dict:
    """Flip cards until one opens a new spread [V387-391]; D1 Voynich's turn, step 1.

    `deck` is top first, `discard` bottom first (its last item is on top). Returns the new
    deck and discard, the card, the cards skipped and whether the deck was rebuilt.
    """
    deck, discard = list(deck), list(discard)
    skipped: list[int] = []
    reshuffled = False
    while True:
        if not deck:
            # [V391] all the discard pile except the top card, shuffled, is the new deck
            deck = discard[:-1]
            rng.shuffle(deck)
            discard = discard[-1:]
            reshuffled = True
        card = deck.pop(0)
        discard.append(card)
        if sections[card] == open_spread:
            skipped.append(card)  # [V389] the spread already open: flip again
            continue
        return {"deck": deck, "discard": discard, "card": card, "skipped": skipped, "reshuffled": reshuffled}


def page_side(card: int) -> str:
    """[V395] an odd page number studies the left-hand page, an even one the right-hand page."""
    return "left" if card % 2 else "right"


def study(phases: dict[int, int], page_card: int) -> dict[int, int]:
    """[V395] advance a page one phase "if possible" (not past the final phase)."""
    phases = dict(phases)
    if phases[page_card] < LAST_PHASE:
        phases[page_card] += 1
    return phases


def solo_turns(doc: Any) -> dict:
    """Run Voynich's deck for a number of turns ([V371-395]); CONTRACT.md `voynich solo_turns`."""
    obj(doc, "$", required=("cards", "difficulty", "turns"), optional=("seed",))
    cards = check_cards(doc["cards"])
    difficulty = choice(doc["difficulty"], "difficulty", DIFFICULTIES)
    turns = whole(doc["turns"], "turns", 0, 1000)
    seed = whole(doc["seed"], "seed") if "seed" in doc else random.SystemRandom().randrange(2**32)
    rng = random.Random(seed)
    sections = card_sections(cards)
    phases = initial_phases(cards, difficulty)
    deck = new_deck(cards, rng)
    result = {"deck": list(deck), "phases": {str(n): p for n, p in sorted(phases.items())}, "turns": []}
    discard: list[int] = []
    open_spread = None
    for _ in range(turns):
        f = flip(deck, discard, open_spread, sections, rng)
        deck, discard, card = f["deck"], f["discard"], f["card"]
        open_spread = sections[card]
        side = page_side(card)
        page_card = cards[open_spread][SIDES.index(side)]
        phases = study(phases, page_card)
        result["turns"].append({
            "card": card, "spread": open_spread, "page": side,
            "skipped": f["skipped"], "reshuffled": f["reshuffled"], "phase": phases[page_card],
        })
    return result


def final_turns(doc: Any) -> dict:
    """The turns still to play once the end is triggered ([V356]); same shapes as codex's."""
    obj(doc, "$", required=("players", "trigger"))
    players = names(doc["players"], "players", 1, 4)
    trigger = doc["trigger"]
    if not isinstance(trigger, str) or trigger.strip() not in players:
        raise RulesError("trigger", "must be one of the players' names")
    return {"turns": final_turns_order(players, players.index(trigger.strip()))}


def voynich_research_gk(times: int = 1) -> int:
    """GK Voynich takes for one research action icon, whatever its number [V382] (VOY-C7)."""
    # "instead of placing 2 research tokens, he gains 1 GK": 1 per icon, not per token
    return 1 if times >= 1 else 0
