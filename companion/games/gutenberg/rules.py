"""Gutenberg's rules over plain data: player order, costs, specialties and the final tally.

Every function here takes already-checked values; `functions.py` checks JSON documents
and `table.py` checks table events before calling them.
"""

from __future__ import annotations

from dataclasses import dataclass

from .facts import (
    ACTIONS,
    AT_MAX_GUILDERS,
    GUILDERS_PER_POINT,
    INK_SET_COSTS,
    MARKERS_BY_SEAT,
    MAX_LEVEL,
    PATRONAGE_POINTS,
    REWARD_LEVELS,
    SPECIALTY_POINTS,
    TITLES,
)


# --- player order -----------------------------------------------------------------------

def round_order(seats: list, first: int) -> list:
    """Return the seats in this round's player order: clockwise from the first-player token."""
    # [GB120] "Ties in markers are broken by player order"; GUT-C18: this round's order, from the token
    return [seats[(first + i) % len(seats)] for i in range(len(seats))]


def holdings(seat_count: int) -> list[int]:
    """Return how many initiative markers each position holds, counted from the first player."""
    # [GB77] first player 7, second 8, third 9, fourth 10; [GB294] the same again every round
    return list(MARKERS_BY_SEAT[:seat_count])


def pass_token(counts: list[int], first: int) -> tuple[int, list[int]]:
    """Pass the first-player token clockwise; return the new first seat and each seat's markers.

    `counts` are the markers each seat (in seat order) holds; the passer receives one from
    every other seat.
    """
    # [GB291] "Pass the first player token to the next player (clockwise)."
    # [GB292] "Each player gives one initiative marker to the player who just passed the first player token."
    new = [c - 1 for c in counts]
    new[first] = counts[first] + len(counts) - 1
    return (first + 1) % len(counts), new


def action_order(order: list, markers: dict) -> dict[str, list]:
    """Return, for each action, who acts in turn: most markers first, ties by player order.

    `order` is this round's player order (from the first player, clockwise); `markers`
    maps each of them to {action: count}.
    """
    result: dict[str, list] = {}
    for action in ACTIONS:
        # [GB122] "A player must have at least one marker on a given action to do that action."
        acting = [p for p in order if markers.get(p, {}).get(action, 0) > 0]
        # [GB120] most markers first; sorted() is stable, so ties keep player order
        result[action] = sorted(acting, key=lambda p: -markers[p][action])
    return result


# --- economy ----------------------------------------------------------------------------

def type_cost(owned: int, buy: int) -> int:
    """Return what buying `buy` more types costs a player who owns `owned`."""
    # [GB242-244] "the n-th type costs n guilders": owned+1, owned+2, ... owned+buy
    return sum(range(owned + 1, owned + buy + 1))


def ink_cost(first: int, count: int) -> int:
    """Return the guilders for taking `count` inks of a set, starting at position `first` (1 to 3)."""
    # [GB145] left ink free, centre 1 guilder, right 2, taken left to right; the costs stay
    # the same for a set a previous player already took from
    return sum(INK_SET_COSTS[first - 1:first - 1 + count])


@dataclass(frozen=True)
class Development:
    """What developing one specialty by some steps did."""

    level: int
    guilders: int
    new_reward_levels: tuple[int, ...]


def develop(level: int, steps: int, reward_levels_taken: set[int] | frozenset[int]) -> Development:
    """Move a specialty up `steps` levels; report guilders gained and reward levels first reached."""
    guilders = 0
    new: list[int] = []
    for _ in range(steps):
        if level >= MAX_LEVEL:
            # [GB166] at VI the marker stays and the player gains 3 guilders; GUT-C5: per blocked step
            guilders += AT_MAX_GUILDERS
            continue
        level += 1
        # [GB162] the first time a player reaches II, IV, V or VI on any track: next reward-track space
        # [GB164] the same level in another specialty gives nothing more; GUT-C4: each level in turn
        if level in REWARD_LEVELS and level not in reward_levels_taken and level not in new:
            new.append(level)
    return Development(level, guilders, tuple(new))


# --- final tally ------------------------------------------------------------------------

def specialty_points(levels) -> int:
    """Return the end-game points of a player's specialty levels."""
    # [GB301-303] VI gives 6, V gives 3, IV gives 1, lower levels nothing
    return sum(SPECIALTY_POINTS.get(level, 0) for level in levels)


#: [GB407] Hieronymus Vietor "doubles their fame points gained from guilders"
VIETOR = "hieronymus_vietor"


def guilder_points(guilders: int, vietor: bool = False) -> int:
    """Return the end-game points for guilders, doubled for Hieronymus Vietor."""
    # [GB305] 1 point for every 3 guilders (GUT-C17: rounded down)
    points = guilders // GUILDERS_PER_POINT
    # [GB407] Vietor "doubles their fame points gained from guilders": 5 guilders give 2, not 3
    return 2 * points if vietor else points


def breakdown(fame: int, guilders: int, levels, patronage_cards: int, character: str | None) -> dict[str, int]:
    """Return a player's final tally by part: fame track, specialties, patronage, guilders."""
    return {
        "fame_track": fame,
        "specialties": specialty_points(levels),
        # [GB304] 8 points for each acquired patronage card
        "patronage": PATRONAGE_POINTS * patronage_cards,
        "guilders": guilder_points(guilders, character == VIETOR),
    }


def title(total: int) -> str:
    """Return a solo player's professional title for a final score."""
    # [GB371-378]; GUT-C1: 100 (missing from the table) counts as Student
    for highest, name in TITLES:
        if highest is None or total <= highest:
            return name
    raise AssertionError("the last title has no upper bound")


TIE_BREAKS = ("fewer types", "fewer inks")


def rank(entries: list[dict]) -> tuple[list[str], dict[str, int], dict[str, str | None]]:
    """Rank players by total, then fewer types, then fewer inks; return winners, places, deciders.

    Each entry has `name`, `total`, `types`, `inks`. The decider of a player is the tie-break
    that set their place apart from players with the same total ("fewer types",
    "fewer inks"), "unbroken tie" when even that does not, or None when nobody shares
    their total.
    """
    # [GB307] "Ties are broken in favor of players with fewer types. Remaining ties are broken
    # in favor of players with fewer inks. Remaining ties remain unbroken ties."
    keys = {e["name"]: (e["total"], -e["types"], -e["inks"]) for e in entries}
    ordered = sorted(keys, key=lambda n: keys[n], reverse=True)
    places: dict[str, int] = {}
    for i, name in enumerate(ordered):
        places[name] = places[ordered[i - 1]] if i and keys[name] == keys[ordered[i - 1]] else i + 1
    winners = [n for n in ordered if places[n] == 1]
    deciders: dict[str, str | None] = {}
    for name, key in keys.items():
        same_total = [k for n, k in keys.items() if n != name and k[0] == key[0]]
        if not same_total:
            deciders[name] = None
        elif all(k[1] != key[1] for k in same_total):
            deciders[name] = TIE_BREAKS[0]
        elif all(k[2] != key[2] for k in same_total if k[1] == key[1]):
            deciders[name] = TIE_BREAKS[1]
        else:
            deciders[name] = "unbroken tie"
    return winners, places, deciders
