"""The Voynich Puzzle's computed rules: end scoring, the solo opponent's deck, the priority scan.

Plain functions over plain data (no Flask), on documents functions.py has already checked.
Line references such as [V360] point into the rulebook; "VOY-C11" and "D1" into RULES.md,
whose readings these functions follow. Printed values (the score track's scoring spaces,
the puzzle grid's GK, the solo board's numbered spaces) always come in as arguments:
nothing printed is guessed here.
"""

from __future__ import annotations

import random
from typing import Any, Iterable

from ..turns import last_turns
from ..validation import places


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
#: [V84-95] a page's four phases: the starting phase, which "gives no points" [V91], then 2, 3 and 4 (final)
STARTING_PHASE, LAST_PHASE = 1, 4
#: a generous bound on track positions and printed values, to catch typing slips
POS_HI = 999
#: [V382] "he exchanges them for 1 General Knowledge (GK)": per research action icon, whatever its number (VOY-C7)
RESEARCH_GK = 1
SIDES = ("left", "right")
#: VOY-C11: a solo tie is a loss ("strict", the literal reading) or goes to the marker tie-break
TIE_RULES = ("strict", "tie_break")


# --- the score track -----------------------------------------------------------------------

def track_gk(position: int, spaces: dict[int, int]) -> int:
    """Return the GK of the furthest scoring space reached or passed, 0 below the first [V361]."""
    reached = [pos for pos in spaces if pos <= position]
    # MRR (VOY-A14): a marker short of every scoring space scores 0
    return spaces[max(reached)] if reached else 0


def insights_reached(old: int, new: int, insights: Iterable[int], given: Iterable[int] = ()) -> list[int]:
    """Return the insight symbols a forward move from old to new reaches or passes that have
    not yet given this marker their token, in track order [V170]; each gives one token.

    "Every time you reach or pass an insight symbol" [V170]: in play a knowledge marker only
    moves forward, so each symbol is reached once per marker per game. A move back is a
    correction, and reaching the symbol again is the same reach: `given` holds the symbols
    whose token this marker already took, used or not. MRR (VOY-A2): one move crossing two
    symbols gives two tokens.
    """
    done = set(given)
    return [pos for pos in sorted(insights) if old < pos <= new and pos not in done]


def insights_taken_back(old: int, new: int, insights: Iterable[int], given: Iterable[int], unused: int) -> list[int]:
    """Return the symbols whose token a correction back from old to new takes back.

    Only a token still unused comes back (a used one was returned for a puzzle piece placed
    at once [V325], so its symbol stays given); the furthest symbol first, at most `unused`.
    """
    done = set(given)
    crossed = [pos for pos in sorted(insights, reverse=True) if new < pos <= old and pos in done]
    return crossed[:unused]


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


def final_scores(players: list[dict], spaces: dict[int, int], solo: dict | None) -> dict:
    """Score everyone and rank them, solo included ([V354-367], [V492-497]).

    `solo` is None, or {"difficulty", "automa": the index of Voynich, "tokens_on_board",
    "tie_rule"}.
    """
    results = []
    for i, p in enumerate(players):
        if solo and i == solo["automa"]:
            results.append(score_player(p, spaces, solo["difficulty"], solo["tokens_on_board"]))
        else:
            results.append(score_player(p, spaces))
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


# --- books and pages -------------------------------------------------------------------------

def book(cards: dict[str, list[int]]) -> list[int]:
    """Return the ten card numbers in book order: Botany left, Botany right, ..., Recipes right [V58]."""
    return [cards[section][side] for section in SECTIONS for side in range(len(SIDES))]


def next_phase(phase: int) -> int | None:
    """Return the phase a study moves a page to, the next one [V134]; None in its final phase:
    there is nothing more to study ("if possible" [V395])."""
    return phase + 1 if phase < LAST_PHASE else None


def counts_tokens(difficulty: str) -> bool:
    """Whether Voynich's tokens on the board score at this difficulty: hard and above [V494-495]."""
    return TOKEN_GK[difficulty] != 0


# --- the Voynich deck ----------------------------------------------------------------------

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
    phases[page_card] = next_phase(phases[page_card]) or phases[page_card]
    return phases


def voynich_turn(cards: dict[str, list[int]], deck: list[int], discard: list[int], open_spread: str | None,
                 rng: random.Random) -> dict:
    """Flip Voynich's card and pick his page [V387-395] (D1 Voynich's turn, steps 1 and 2).

    Returns flip's deck, discard, card, skipped and reshuffled, with the spread the card opens,
    the page side its number picks and the card number of that page in his book.
    """
    sections = card_sections(cards)
    f = flip(deck, discard, open_spread, sections, rng)
    spread = sections[f["card"]]
    side = page_side(f["card"])
    return dict(f, spread=spread, page=side, page_card=cards[spread][SIDES.index(side)])


def run_deck(cards: dict[str, list[int]], difficulty: str, turns: int, rng: random.Random) -> dict:
    """Run Voynich's deck for a number of turns [V371-395]: his setup, then each turn's flip and study."""
    phases = initial_phases(cards, difficulty)
    deck = new_deck(cards, rng)
    result = {"deck": list(deck), "phases": {str(n): p for n, p in sorted(phases.items())}, "turns": []}
    discard: list[int] = []
    open_spread = None
    for _ in range(turns):
        turn = voynich_turn(cards, deck, discard, open_spread, rng)
        deck, discard, open_spread = turn["deck"], turn["discard"], turn["spread"]
        phases = study(phases, turn["page_card"])
        result["turns"].append({
            "card": turn["card"], "spread": open_spread, "page": turn["page"],
            "skipped": turn["skipped"], "reshuffled": turn["reshuffled"], "phase": phases[turn["page_card"]],
        })
    return result
