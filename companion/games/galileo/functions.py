"""Galileo's Truth JSON rules functions (CONTRACT.md "## galileo" plus documented extras).

All document validation lives here: the rules functions' documents, the box profile and the
board values entered at a table (profile.py and table.py call `board`). Each checker returns
a clean copy or raises RulesError naming the JSON path of the offending value (CONTRACT.md
"Errors"). Printed values (RULES.md GAL-B) only ever come from here: the group enters them,
the app ships none.
"""

from __future__ import annotations

from typing import Any

from ..base import RulesFunction
from ..speech import _
from ..validation import RulesError, at, choice, flag, listof, names, obj, places, text, unique_names, whole
from . import rules

MAX_TRACK = 99  # a generous bound on the suspicion track's spaces, to catch typos
MAX_VP = 999
MAX_PRINTED = 99  # any single printed value (Cathedral VP, penance VP and coins, tile back)


# --- suspicion track --------------------------------------------------------------------

def track(value: Any, field: str, need_length: bool = False, ordered: bool = True) -> dict:
    """Check a suspicion track layout: icon boundaries and, optionally, its length (GAL-B2).

    `ordered=False` leaves out the Penance icons' order (issue 38), for a layout stored before it
    was checked: a table or profile that holds one is read as it was, never refused.
    """
    obj(value, field, required=("penance", "prison", "stake") + (("length",) if need_length else ()),
        optional=() if need_length else ("length",))
    length = None
    if "length" in value:
        # the number of spaces, counting the "0" space
        length = whole(value["length"], at(field, "length"), 2, MAX_TRACK + 1)
    # an icon after space k needs a space k+1 on the track; on a board the marker starts on
    # space 1 [GT105], so no icon can sit before it
    hi = length - 2 if length is not None else MAX_TRACK - 1
    lo = rules.START_POSITION if need_length else 0
    penance_field = at(field, "penance")
    def icon(v: Any, f: str) -> int:
        try:
            return whole(v, f, lo, hi)
        except RulesError as err:
            if length is None or isinstance(v, bool) or not isinstance(v, int):
                raise
            raise RulesError(f, _("%(problem)s: an icon after space k needs a space k+1, and the track's %(length)s spaces run from 0 "
                                  "to %(last)s", problem=err.message, length=length, last=length - 1)) from None

    penance = [icon(k, at(penance_field, i)) for i, k in enumerate(listof(value["penance"], penance_field, 3, 3))]
    for i in (1, 2) if ordered else ():
        # [GT99] the cards are levels I, II, III, and [GT158] each icon passed gives "the corresponding
        # Penance Card" (GAL-B2): icons out of that order would hand out card II before card I
        if penance[i] < penance[i - 1]:
            raise RulesError(at(penance_field, i), _("must be at or after Penance icon %(roman)s (after space %(space)s), as the "
                                                     "icons come in the order of their cards, I, II, III",
                                                     roman=rules.PENANCE_LEVELS[i - 1], space=penance[i - 1]))
    prison = icon(value["prison"], at(field, "prison"))
    stake = icon(value["stake"], at(field, "stake"))
    if any(k > stake for k in penance + [prison]):
        # icons past the Stake could never be crossed: the Stake sends the marker to 0 [GT188]
        raise RulesError(at(field, "stake"), _("must be the last icon on the track (at or after every Penance icon and Prison)"))
    clean = {"penance": penance, "prison": prison, "stake": stake}
    if length is not None:
        clean["length"] = length
    return clean


def suspicion_state(value: Any, field: str, layout: dict) -> dict:
    """Check one player's suspicion state on this track (CONTRACT.md galileo suspicion)."""
    obj(value, field, required=("position", "penance_taken", "arrested", "at_stake"))
    hi = layout["length"] - 1 if "length" in layout else MAX_TRACK
    taken_field = at(field, "penance_taken")
    state = {
        "position": whole(value["position"], at(field, "position"), 0, hi),
        "penance_taken": [flag(v, at(taken_field, i)) for i, v in enumerate(listof(value["penance_taken"], taken_field, 3, 3))],
        "arrested": flag(value["arrested"], at(field, "arrested")),
        "at_stake": flag(value["at_stake"], at(field, "at_stake")),
    }
    problem = rules.consistency_problem(layout, state)
    if problem:
        raise RulesError(at(field, problem[0]), problem[1])
    return state


def suspicion_doc(doc: Any) -> dict:
    """Check the `suspicion` function's document."""
    obj(doc, "$", required=("track", "state", "delta"), optional=("stake_overshoot",))
    layout = track(doc["track"], "track")
    return {
        "track": layout,
        "state": suspicion_state(doc["state"], "state", layout),
        "delta": whole(doc["delta"], "delta", -MAX_TRACK, MAX_TRACK),
        "stake_overshoot": choice(doc.get("stake_overshoot", "discard"), "stake_overshoot", rules.OVERSHOOT),
    }


def run_suspicion(doc: Any) -> dict:
    """Move one suspicion marker and report what it triggers [GT142-190]."""
    clean = suspicion_doc(doc)
    state, events = rules.move_suspicion(clean["track"], clean["state"], clean["delta"], clean["stake_overshoot"])
    return {"state": state, "events": events}


# --- printed values ---------------------------------------------------------------------

def cathedral(value: Any, field: str) -> dict:
    """Check the Cathedral VP table, principle x status (GAL-B1)."""
    obj(value, field, required=rules.PRINCIPLES)
    clean = {}
    for principle in rules.PRINCIPLES:
        row_field = at(field, principle)
        obj(value[principle], row_field, required=rules.STATUSES)
        clean[principle] = {s: whole(value[principle][s], at(row_field, s), 0, MAX_PRINTED) for s in rules.STATUSES}
    return clean


def tiles(value: Any, field: str) -> dict:
    """Check the suspicion tiles: the back's value and the VP spaces they sit on (GAL-B3)."""
    obj(value, field, required=("back", "spaces"))
    spaces_field = at(field, "spaces")
    spaces = [whole(s, at(spaces_field, i), 1, MAX_VP) for i, s in enumerate(listof(value["spaces"], spaces_field, 1, 20))]
    for i, s in enumerate(spaces):
        if s in spaces[:i]:
            raise RulesError(at(spaces_field, i), _("space %(space)s is listed twice; each tile sits on its own space", space=s))
    return {"back": whole(value["back"], at(field, "back"), 0, MAX_PRINTED), "spaces": spaces}


def penance_cards(value: Any, field: str) -> dict:
    """Check the penance cards' printed VP loss and coin cost, levels I, II, III (GAL-B6).

    The coins are optional (a final-score calculator needs only the VP); left blank, they are absent.
    """
    obj(value, field, required=("vp",), optional=("coins",))
    clean = {}
    for key, hi in (("vp", MAX_PRINTED), ("coins", 10)):  # coins: the Desk holds at most 10 [GT267]
        if key == "coins" and ("coins" not in value or _blank(value["coins"])):
            continue  # the VP are never optional: a card whose VP is unknown cannot be scored
        f = at(field, key)
        clean[key] = [whole(v, at(f, i), 0, hi) for i, v in enumerate(listof(value[key], f, 3, 3))]
    return clean


def prohibition_suspicion(value: Any, field: str) -> dict:
    """Check the suspicion a failed Prohibition costs, per cycle 2, 3, 5 and principle [GT731]."""
    cycles = tuple(str(c) for c in rules.PROHIBITION_CYCLES)
    obj(value, field, optional=cycles)
    clean = {}
    for c in cycles:
        if c in value:
            clean[c] = penalty(value[c], at(field, c))
    return clean


def penalty(value: Any, field: str) -> dict:
    """Check a Prohibition penalty: suspicion for each principle."""
    obj(value, field, required=rules.PRINCIPLES)
    return {p: whole(value[p], at(field, p), 0, MAX_TRACK) for p in rules.PRINCIPLES}


#: box-profile section -> checker; every section is optional (GAL-B)
SECTIONS = {
    "suspicion_track": lambda v, f: track(v, f, need_length=True),
    "tiles": tiles,
    "cathedral": cathedral,
    "penance_cards": penance_cards,
    "prohibition_suspicion": prohibition_suspicion,
}


def board(value: Any, field: str = "$", ordered: bool = True) -> dict:
    """Check a box profile (or the board values entered at a table): any of SECTIONS.

    A section left completely blank (only empty lists and objects, as a form with no
    boxes filled sends it) counts as not entered. `ordered=False`: `track`'s, for stored values.
    """
    obj(value, field, optional=tuple(SECTIONS))
    checks = {**SECTIONS, "suspicion_track": lambda v, f: track(v, f, need_length=True, ordered=ordered)}
    return {key: checks[key](value[key], at(field, key)) for key in SECTIONS if key in value and not _blank(value[key])}


def _blank(value: Any) -> bool:
    if isinstance(value, dict):
        return all(_blank(v) for v in value.values())
    return isinstance(value, list) and all(_blank(v) for v in value)


# --- final scoring ----------------------------------------------------------------------

def score_doc(doc: Any) -> dict:
    """Check the `score` function's document."""
    obj(doc, "$", required=("cathedral", "players"))
    table = cathedral(doc["cathedral"], "cathedral")
    players_field = "players"
    items = listof(doc["players"], players_field, 1, 4)
    players = [_score_player(p, at(players_field, i), len(items)) for i, p in enumerate(items)]
    unique_names(players, players_field)
    seen: dict[int, int] = {}
    for i, p in enumerate(players):
        if p["turn_order"] in seen:
            raise RulesError(at(at(players_field, i), "turn_order"),
                             f"{p['turn_order']} is already {players[seen[p['turn_order']]]['name']}'s; each player has their own place in the turn order")
        seen[p["turn_order"]] = i
    return {"cathedral": table, "players": players}


def _score_player(value: Any, field: str, count: int) -> dict:
    keys = ("name", "vp", "principle", "status", "suspicion", "penance_vp", "inventions_vp", "mentor_vp", "end_losses", "turn_order")
    obj(value, field, required=keys)
    penance_field = at(field, "penance_vp")
    return {
        "name": text(value["name"], at(field, "name")),
        "vp": whole(value["vp"], at(field, "vp"), 0, MAX_VP),
        "principle": choice(value["principle"], at(field, "principle"), rules.PRINCIPLES),
        "status": choice(value["status"], at(field, "status"), rules.STATUSES),
        "suspicion": whole(value["suspicion"], at(field, "suspicion"), 0, MAX_TRACK),
        "penance_vp": [whole(v, at(penance_field, i), 0, MAX_PRINTED)
                       for i, v in enumerate(listof(value["penance_vp"], penance_field, 0, 3))],
        "inventions_vp": whole(value["inventions_vp"], at(field, "inventions_vp"), 0, MAX_VP),
        "mentor_vp": whole(value["mentor_vp"], at(field, "mentor_vp"), 0, MAX_VP),
        "end_losses": whole(value["end_losses"], at(field, "end_losses"), 0, MAX_VP),
        "turn_order": whole(value["turn_order"], at(field, "turn_order"), 1, count),
    }


def run_score(doc: Any) -> dict:
    """Final scoring [GT741-769]: status, rank, inventions, mentor, penance, Stake, losses."""
    clean = score_doc(doc)
    result = rules.score(clean["cathedral"], clean["players"])
    winners, ranked = places(result.pop("totals"))
    result.update(winners=winners, places=ranked, tie_break="turn_order")
    return result


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
            # [GT248] the Level must show at least the cost; discounts do not lower it
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
