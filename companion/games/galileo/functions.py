"""Galileo's Truth JSON rules functions (CONTRACT.md "## galileo" plus documented extras)."""

from __future__ import annotations

from typing import Any

from ..base import RulesFunction
from ..validation import RulesError, at, choice, flag, listof, names, obj, places, whole
from . import rules, schema


def run_score(doc: Any) -> dict:
    """Final scoring [GT741-769]: status, rank, inventions, mentor, penance, Stake, losses."""
    clean = schema.score_doc(doc)
    result = rules.score(clean["cathedral"], clean["players"])
    winners, ranked = places(result.pop("totals"))
    result.update(winners=winners, places=ranked, tie_break="turn_order")
    return result


def run_suspicion(doc: Any) -> dict:
    """Move one suspicion marker and report what it triggers [GT142-190]."""
    clean = schema.suspicion_doc(doc)
    state, events = rules.move_suspicion(clean["track"], clean["state"], clean["delta"], clean["stake_overshoot"])
    return {"state": state, "events": events}


# --- books (the Bookshelf's spending requirement) ----------------------------------------

SUBJECTS = ("astronomy", "physics", "mathematics", "philosophy")  # [GT218]
#: [GT221-224] Level I and II: 3 spaces each, Level III: 4, Level IV: 5
LEVEL_SPACES = (3, 3, 4, 5)
SHELF = sum(LEVEL_SPACES)


def level_of(space: int) -> int:
    """Return the Level (1..4) of a Bookshelf space counted from 0 at the leftmost."""
    edge = 0
    for level, size in enumerate(LEVEL_SPACES, start=1):
        edge += size
        if space < edge:
            return level
    raise ValueError(space)


def run_books(doc: Any) -> dict:
    """Check and pay a Books cost: each marker's Level must show at least the cost [GT241-251].

    Input: `levels` (Books shown at Level I..IV: printed on the personal board, GAL-B7),
    `markers` {subject: space, 0 = leftmost}, `costs` {subject: books}, optional
    `discounts` {subject: books off}: a discount lowers the price, not the requirement.
    """
    obj(doc, "$", required=("levels", "markers", "costs"), optional=("discounts",))
    levels = [whole(v, at("levels", i), 0, SHELF) for i, v in enumerate(listof(doc["levels"], "levels", 4, 4))]
    obj(doc["markers"], "markers", optional=SUBJECTS)
    markers = {s: whole(v, at("markers", s), 0, SHELF - 1) for s, v in doc["markers"].items()}
    obj(doc["costs"], "costs", optional=SUBJECTS)
    costs = {s: whole(v, at("costs", s), 1, SHELF) for s, v in doc["costs"].items()}
    obj(doc.get("discounts", {}), "discounts", optional=SUBJECTS)
    discounts = {s: whole(v, at("discounts", s), 0, SHELF) for s, v in doc.get("discounts", {}).items()}
    for s in list(costs) + list(discounts):
        if s not in markers:
            raise RulesError(at("markers", s), f"is required: where is the {s} marker?")
    problems: dict[str, str] = {}
    after = dict(markers)
    for s, cost in costs.items():
        space = markers[s]
        level = level_of(space)
        pay = max(0, cost - discounts.get(s, 0))
        if space == 0:
            # [GT244] "If your marker is already on the leftmost space, you cannot spend any Books."
            problems[s] = "the marker is on the leftmost space: it cannot spend Books"
        elif levels[level - 1] < cost:
            # [GT243] the Level must show at least the cost; discounts do not lower it
            problems[s] = f"Level {level} shows {levels[level - 1]} Books, fewer than the cost of {cost}"
        elif pay > space:
            problems[s] = f"the marker can move back only {space} spaces, not {pay}"
        else:
            after[s] = space - pay  # [GT244] move left by the amount spent
    ok = not problems
    return {"ok": ok, "problems": problems, "markers": after if ok else markers}


# --- inquisition round ------------------------------------------------------------------

#: the most players a game has: the suspicion tiles are set out for 2, 3 or 4 [GT206-208]
MAX_PLAYERS = 4


def run_round(doc: Any) -> dict:
    """Resolve one round of actions: passers, the Passing Area, the Future track and the token.

    Input: `order` (the round's players in turn order, names), `passes` (who passes this
    round, names), `future` (markers already on the Future track, left to right),
    `inquisition_up` (the token's side), optional `passing` (`literal` or
    `first_passer_first`, RULES.md GAL-C5). Result: the new `passing_area` before it moves
    down, `future`, `inquisition_up`, `flipped`, `over`, `suspects` (who takes +1 per
    Main Action from now on) [GT367-402].
    """
    obj(doc, "$", required=("order", "passes", "future", "inquisition_up"), optional=("passing",))
    order = names(doc["order"], "order", 1, 4)
    passes = listof(doc["passes"], "passes", 0, 4)
    for i, n in enumerate(passes):
        if n not in order:
            raise RulesError(at("passes", i), f"must be one of the round's players: {', '.join(order)}")
        if n in passes[:i]:
            raise RulesError(at("passes", i), f"{n} is listed twice")
    future = listof(doc["future"], "future", 0, 4)
    for i, n in enumerate(future):
        if not isinstance(n, str) or n in order or n in future[:i]:
            raise RulesError(at("future", i), "must name a player who passed in an earlier round, once")
    if len(order) + len(future) > MAX_PLAYERS:
        raise RulesError("future", f"a game has at most {MAX_PLAYERS} players: {len(order)} in this round and "
                                   f"{len(future)} on the Future track make {len(order) + len(future)}")
    up = flag(doc["inquisition_up"], "inquisition_up")
    reading = choice(doc.get("passing", "literal"), "passing", rules.PASSING)
    area: list[str] = []
    for n in order:  # passers in turn order within the round
        if n in passes:
            area = rules.place_passer(area, n, reading)
    remaining = [n for n in order if n not in passes]
    end = rules.round_end(area, future, len(remaining), up)
    return {"passing_area": area, "future": end["future"], "inquisition_up": end["inquisition_up"],
            "flipped": end["flipped"], "over": end["over"], "suspects": remaining if end["inquisition_up"] else []}


FUNCTIONS = {
    "score": RulesFunction("score", "final scoring: Cathedral status, rank, inventions, mentor, penance, Stake, losses, winner [GT741-769]", run_score),
    "suspicion": RulesFunction("suspicion", "move a suspicion marker: Penance cards, arrest, release, the Stake [GT142-190]", run_suspicion),
    "round": RulesFunction("round", "end a round of actions: Passing Area, Future turn order, Inquisition token [GT367-402]", run_round),
    "books": RulesFunction("books", "check and pay a Books cost against the Bookshelf Levels [GT241-251]", run_books),
}
