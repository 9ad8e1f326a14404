"""Galileo's Truth rules as plain functions over plain data (no Flask, no validation).

Line references `[GTnnn]` point into the rulebook text (shared/rules/galileos_truth.txt);
`GAL-Cn` into the rules inventory's readings, which this module follows.

Inputs are assumed valid here; `functions.py` checks documents before they reach these. A reason
or step said to the players is in the language spoken (companion/games/speech.py; English for the API).
"""

from __future__ import annotations

from ..speech import _

PRINCIPLES = ("copernican", "ptolemaic")
STATUSES = ("free", "prison", "stake")
PENANCE_LEVELS = ("I", "II", "III")

#: the marker starts "on the second space (marked "1")" [GT105]; values are space numbers (GAL-C15)
START_POSITION = 1
#: Main Action names [GT342-350]; "pass" has its own event
MAIN_ACTIONS = ("invention", "academic", "treatise", "philosopher")
#: Stake overshoot readings (GAL-C3): drop the leftover steps (MRR) or keep counting from 0
OVERSHOOT = ("discard", "continue")
#: passing-area readings (GAL-C5): later passers go left (literal, MRR) or right
PASSING = ("literal", "first_passer_first")

# Where two icons share a gap, resolve in this order: the card, then the arrest (GAL-C12).
_ICON_RANK = {"penance_1": 0, "penance_2": 1, "penance_3": 2, "prison": 3, "stake": 4}


def new_suspicion() -> dict:
    """Return a player's suspicion state at setup [GT105]."""
    return {"position": START_POSITION, "penance_taken": [False, False, False], "arrested": False, "at_stake": False}


def icons(track: dict) -> list[tuple[int, str]]:
    """Return the track's icons as (boundary k, name), in track order.

    An icon at k sits between space k and space k+1: the icons "are not considered
    spaces" [GT148], so every trigger is a crossing (GAL-A2).
    """
    found = [(k, f"penance_{i + 1}") for i, k in enumerate(track["penance"])]
    found += [(track["prison"], "prison"), (track["stake"], "stake")]
    return sorted(found, key=lambda icon: (icon[0], _ICON_RANK[icon[1]]))


def _clamp(position: int, track: dict) -> int:
    # [GT146] "Your Marker can never move below the "0" space."; the last space is the track's end
    position = max(0, position)
    if track.get("length") is not None:
        position = min(position, track["length"] - 1)
    return position


def move_suspicion(track: dict, state: dict, delta: int, overshoot: str = "discard") -> tuple[dict, list[str]]:
    """Move one marker by delta; return (new state, triggered events in order).

    Events are "penance_1".."penance_3", "arrested", "released", "stake" (CONTRACT.md).
    """
    new = {
        "position": state["position"],
        "penance_taken": list(state["penance_taken"]),
        "arrested": state["arrested"],
        "at_stake": state["at_stake"],
    }
    events: list[str] = []
    start = new["position"]
    end = _clamp(start + delta, track)
    if new["at_stake"]:
        # [GT189] after the Stake "the Penance, Prison, and Stake icons no longer affect you"
        new["position"] = end
        return new, events
    if end > start:
        # forward crossing: from k or below to k+1 or above, in track order (GAL-A2, GAL-C12)
        for k, name in icons(track):
            if not start <= k < end:
                continue
            if name == "stake":
                # [GT186-188] figure to the Stake for good, marker "back onto the "0" space"
                new["at_stake"] = True
                new["arrested"] = False
                # GAL-C3: the leftover steps are dropped (MRR) or counted on from 0 (setting);
                # counted from the whole move, not from `end`, which stops at the track's end
                # [GT186-190]: 13 +3 on 16 spaces crosses after 14 and keeps 1 step
                left = start + delta - (k + 1)
                new["position"] = _clamp(left, track) if overshoot == "continue" else 0
                events.append("stake")
                return new, events
            if name == "prison":
                # [GT164] arrested every time the marker moves past Prison [GT182]
                new["arrested"] = True
                events.append("arrested")
            else:
                level = int(name[-1]) - 1
                # [GT152][GT158] a Penance Card only the first time the icon is passed
                if not new["penance_taken"][level]:
                    new["penance_taken"][level] = True
                    events.append(name)
    elif end < start:
        # backward crossing: from k+1 or above to k or below, nearest icon first
        for k, name in reversed(icons(track)):
            if name == "prison" and end <= k < start and new["arrested"]:
                # [GT177] moving back past Prison releases the figure immediately
                new["arrested"] = False
                events.append("released")
    new["position"] = end
    return new, events


def consistency_problem(track: dict, state: dict) -> tuple[str, str] | None:
    """Return (key, message) when a suspicion state cannot arise on this track, else None.

    Before the Stake the flags follow from the position: past Prison means arrested,
    past a Penance icon means its card was taken.
    """
    if state["at_stake"]:
        if state["arrested"]:
            return "arrested", "must be false at the Stake (the figure is at the Stake, not in Prison)"
        return None
    position = state["position"]
    if position > track["stake"]:
        return "position", f"is past the Stake icon (after space {track['stake']}) but at_stake is false"
    if state["arrested"] != (position > track["prison"]):
        where = "past" if position > track["prison"] else "not past"
        return "arrested", f"must be {str(position > track['prison']).lower()}: space {position} is {where} the Prison icon (after space {track['prison']})"
    for i, k in enumerate(track["penance"]):
        if position > k and not state["penance_taken"][i]:
            return f"penance_taken[{i}]", f"must be true: space {position} is past the Penance {PENANCE_LEVELS[i]} icon (after space {k})"
    return None


#: [GT398] while the Inquisition token is face up, a Main Action costs +1 "at the beginning of
#: their turn"; "Passing does not cause you an increase in Suspicion" [GT400]
INQUISITION_SUSPICION = 1


def main_action_suspicion(inquisition_up: bool) -> int:
    """Return the suspicion a Main Action other than Pass costs before it resolves [GT396-400].

    GAL-C13: the +1 is applied as soon as the Main Action is declared, before it resolves,
    so it can send the figure to Prison before the player uses it.
    """
    return INQUISITION_SUSPICION if inquisition_up else 0


def philosopher_unavailable(suspicion: dict, used: bool, track: dict | None = None,
                            inquisition_up: bool = False, overshoot: str = "discard") -> str | None:
    """Return why the Natural Philosopher cannot be assigned now, or None [GT531].

    With the `track` and the token face up, the check is made after the Inquisition's +1
    (GAL-C13): a +1 that moves the marker past Prison arrests the figure at once [GT164], past
    the Stake sends it there [GT186], and either way it is no longer available [GT531].
    """
    why = _philosopher_unavailable_now(suspicion, used)
    delta = main_action_suspicion(inquisition_up)
    if why or track is None or not delta:
        return why
    after, _events = move_suspicion(track, suspicion, delta, overshoot)
    status = status_of(after)
    if status == "free":
        return None
    # no colon: the panel says "Natural Philosopher: " before it, a refusal "Ana's Natural Philosopher "
    if status == "prison":
        return _("would go to Prison, since the Inquisition's +%(n)s at the beginning of the turn moves the "
                 "suspicion marker past the Prison icon; choose another Main Action or pass", n=delta)
    return _("would go to the Stake, since the Inquisition's +%(n)s at the beginning of the turn moves the "
             "suspicion marker past the Stake icon; choose another Main Action or pass", n=delta)


def _philosopher_unavailable_now(suspicion: dict, used: bool) -> str | None:
    if suspicion["at_stake"]:
        return _("is at the Stake: it can no longer be used for the rest of the game")  # [GT186]
    if suspicion["arrested"]:
        return _("is in Prison: it cannot be used while imprisoned")  # [GT164]
    if used:
        # a used figure lies down until the End of Cycle, even if released meanwhile [GT166][GT180]
        return _("has already been used this cycle")
    return None


def penance_held(taken: list[bool], removed: list[bool]) -> list[int]:
    """Return the Penance levels (1..3) a player possesses: taken [GT158] and not removed from the game
    by paying its coins [GT485]; each loses its printed VP at the end [GT763]."""
    return [level + 1 for level in range(len(PENANCE_LEVELS)) if taken[level] and not removed[level]]


#: [GT484] a Penance card played while the Inquisition token is face down: "reduce your Suspicion by 1"
PENANCE_RELIEF = 1


def penance_card_suspicion(inquisition_up: bool) -> int:
    """Return the suspicion playing a Penance card changes [GT484]: -1 with the token face down,
    nothing face up (GAL-C14: the Main Action's +1 is main_action_suspicion's)."""
    return 0 if inquisition_up else -PENANCE_RELIEF


def status_of(suspicion: dict) -> str:
    """Return the Cathedral status a suspicion state gives: free, prison or stake [GT745-749]."""
    if suspicion["at_stake"]:
        return "stake"
    return "prison" if suspicion["arrested"] else "free"


# --- suspicion tiles on the scoring track ----------------------------------------------

#: [GT206-208] which reacher (1st, 2nd, 3rd) flips or removes a tile, by player count
TILE_FLIP_AT = 1
TILE_REMOVE_AT = {2: None, 3: 2, 4: 3}


def tile_value(face: str, back: int) -> int:
    """Return a tile's suspicion: the "2" side starts up [GT64]; the back from the box."""
    return 2 if face == "front" else back


def tile_after_reach(face: str, reached: int, players: int) -> str:
    """Return a tile's face after its `reached`-th reacher resolved the increase [GT204-208]."""
    if TILE_REMOVE_AT.get(players) == reached:
        return "removed"
    if reached == TILE_FLIP_AT:
        return "back"
    return face


#: [GT210] "If a player exceeds 100 Victory Points, they no longer increase Suspicion from Suspicion Tiles"
TILES_UNTIL_VP = 100


def tiles_affect(vp: int) -> bool:
    """Return whether tiles still add suspicion at this VP: not once it "exceeds 100" [GT210] (GAL-C6)."""
    return vp <= TILES_UNTIL_VP


# --- turn order -------------------------------------------------------------------------

def place_passer(passing: list[int], player: int, reading: str = "literal") -> list[int]:
    """Return the Passing Area (left to right) after `player` passes [GT367-371].

    Later passers of the same round go "to the left of any markers already present"
    (GAL-C5 literal reading); the other reading puts them on the right.
    """
    return [player] + passing if reading == "literal" else passing + [player]


def round_end(passing: list[int], future: list[int], remaining: int, inquisition_up: bool) -> dict:
    """Resolve the end of a round of actions [GT373-392].

    `remaining` counts players still active after this round. Returns the new
    `passing`, `future`, `inquisition_up`, whether it `flipped` now, and `over`.
    """
    # [GT388] markers move down keeping left-to-right order; the ones already there stay
    future = future + passing
    flipped = False
    if passing and remaining:
        # some passed, others still active: the Inquisition Suspects [GT383-386]
        flipped = not inquisition_up
        inquisition_up = True
    # ALL passed this round (GAL-A9 edge case): no flip; the Action Phase is over [GT390-392]
    return {"passing": [], "future": future, "inquisition_up": inquisition_up, "flipped": flipped, "over": remaining == 0}


# --- cycles -----------------------------------------------------------------------------

#: [GT298-302] Period I = Cycles 1-2, II = 3-4, III = 5
PERIOD = {1: "I", 2: "I", 3: "II", 4: "II", 5: "III"}
PROHIBITION_CYCLES = (2, 3, 5)  # [GT726]
LAST_CYCLE = 5  # [GT737]


def turning_points(cycle: int) -> list[str]:
    """Return the Turning Points the cycle marker passes at this cycle's end [GT714-731]."""
    points = []
    if cycle in (1, 3):
        points.append(_("Workshop: remove the bottommost Invention, shift the others down, reveal a new one from the current deck."))
    if cycle in (2, 4):
        points.append(_("Change the Inventions deck: remove the current deck and the Workshop's cards; reveal 4 from the next "
                        "Period's deck."))
    if cycle in PROHIBITION_CYCLES:
        points.append(_("Prohibition check: each player who possesses the limit or more of the depicted elements gains suspicion."))
    return points


def fails_prohibition(count: int, limit: int) -> bool:
    """Return whether a player fails a Prohibition: you pass only with "fewer" than the limit [GT728]."""
    return count >= limit


#: [GT416-419] Abjuring: "reduce the Suspicion by 5" for you, "increase the Suspicion by 1" for
#: all other Copernican players
ABJURE_SELF = -5
ABJURE_OTHERS = 1


def can_abjure(principle: str, cycle: int) -> str | None:
    """Return why the player may not Abjure now, or None [GT408-419]."""
    if principle != "copernican":
        return _("has already abjured: the choice is final and irreversible")
    if cycle == LAST_CYCLE:
        return _("may not Abjure during the third Period (Cycle %(cycle)s)", cycle=LAST_CYCLE)
    return None


# --- final scoring ----------------------------------------------------------------------

RANK_VP = 4  # [GT753]
STAKE_FACTOR = 2  # [GT765]


def stake_loss(suspicion: int) -> int:
    """Return the VP a player at the Stake loses at the end: "your current Suspicion level multiplied
    by 2" [GT765-767] (GAL-C2: the final position)."""
    return STAKE_FACTOR * suspicion


def score(cathedral: dict, players: list[dict]) -> dict:
    """Score the game [GT741-769]; players are contract player objects (valid)."""
    status_vp = [cathedral[p["principle"]][p["status"]] for p in players]
    results = []
    totals: dict[str, tuple] = {}
    for i, p in enumerate(players):
        # [GT753] 4 VP per other player with strictly fewer status VP (GAL-C7)
        lower = sum(1 for j, other in enumerate(status_vp) if j != i and other < status_vp[i])
        breakdown = {
            "track": p["vp"],
            "status": status_vp[i],  # [GT751] VP above the figure's Cathedral space
            "rank": RANK_VP * lower,
            "inventions": p["inventions_vp"],  # [GT755]
            "mentor": p["mentor_vp"],  # [GT757] only if unlocked (the caller sends 0 otherwise)
            "penance": -sum(p["penance_vp"]),  # [GT763] each card still possessed
            # [GT765-767] at the Stake: current suspicion x 2 (GAL-C2: final position)
            "stake": -stake_loss(p["suspicion"]) if p["status"] == "stake" else 0,
            "end_losses": -p["end_losses"],  # [GT687] deferred losses (GAL-C17)
        }
        total = sum(breakdown.values())
        results.append({"name": p["name"], "total": total, "breakdown": breakdown})
        # [GT769] ties go to the earliest in the Turn Order
        totals[p["name"]] = (total, -p["turn_order"])
    return {"players": results, "totals": totals}
