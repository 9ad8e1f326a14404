"""The Gutenberg automa as an algorithm (RULES.md D2): planning cards, round end, execution draws.

Markers are a dict {action: count} over the five actions. A planning card is
{"centre": ACTION, "moves": [[FROM, TO], ...], "patronage": bool}, FROM/TO being an action
or "min" / "max". Nothing here chooses randomly by itself: draws take a `random.Random`.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from .facts import ACTIONS, EXECUTION_CARDS, MAX_PER_ACTION


def scan(tied: set[str], centre: str) -> str:
    """Return the tied action reached first scanning down from the centre icon, wrapping to the top."""
    # [GB365] "starting at the action printed in the middle of the planning card, then scanning
    # downward, possibly wrapping around to the top action"; the start itself counts (GUT-A26)
    start = ACTIONS.index(centre)
    for i in range(len(ACTIONS)):
        action = ACTIONS[(start + i) % len(ACTIONS)]
        if action in tied:
            return action
    raise ValueError("no tied action to scan for")


def min_action(markers: dict[str, int], centre: str) -> str:
    """Return the action with the fewest markers, ties broken by the centre-icon scan."""
    # [GB362] "min. – the action with the fewest initiative markers"
    low = min(markers[a] for a in ACTIONS)
    return scan({a for a in ACTIONS if markers[a] == low}, centre)


def max_action(markers: dict[str, int], centre: str) -> str:
    """Return the action with the most markers, ties broken by the centre-icon scan."""
    # [GB363] "max. – the action with the most initiative markers"
    high = max(markers[a] for a in ACTIONS)
    return scan({a for a in ACTIONS if markers[a] == high}, centre)


def resolve(end: str, markers: dict[str, int], centre: str) -> str:
    """Return the action an arrow end names: itself, or min / max on the markers now."""
    if end == "min":
        return min_action(markers, centre)
    if end == "max":
        return max_action(markers, centre)
    return end


#: why an arrow moved nothing, besides a full destination (Step.reason; the panel words each, view.step_text)
SAME, EMPTY = "both ends are the same action", "neither action has a marker"


@dataclass(frozen=True)
class Step:
    """One arrow of a planning card as applied: the resolved ends, what moved and why."""

    arrow: tuple[str, str]
    source: str
    target: str
    moved: str | None  # "forward", "reverse" or None
    reason: str

    def as_json(self) -> dict:
        return {"arrow": list(self.arrow), "from": self.source, "to": self.target,
                "moved": self.moved, "reason": self.reason}


def arrow(markers: dict[str, int], source: str, target: str, centre: str) -> tuple[dict[str, int], Step]:
    """Apply one arrow to the automa's markers; return the new markers and what happened."""
    new = dict(markers)
    # GUT-C15: min and max are resolved on the markers as they are before this arrow
    a, b = resolve(source, new, centre), resolve(target, new, centre)
    if a == b:
        # GUT-C15: "If min and max resolve to the same action, do nothing."
        return new, Step((source, target), a, b, None, SAME)
    # [GB358] "move an initiative marker from the first action to the second action"
    if new[a] > 0:
        # [GB367] "If an action already has 6 initiative markers, do not move another marker to it."
        # GUT-C14: no fallback reversal when the destination is full
        if new[b] >= MAX_PER_ACTION:
            return new, Step((source, target), a, b, None, f"{b} already has {MAX_PER_ACTION}")
        new[a] -= 1
        new[b] += 1
        return new, Step((source, target), a, b, "forward", "moved one marker")
    # [GB358] "If the first action has no marker, then instead move a marker from the second
    # action to the first. If neither has any markers, then do nothing."
    if new[b] > 0:
        # GUT-C14: the 6-cap is checked on the reverse move's destination too (moot: a has 0)
        new[b] -= 1
        new[a] += 1
        return new, Step((source, target), a, b, "reverse", f"{a} was empty, so one marker moved back")
    return new, Step((source, target), a, b, None, EMPTY)


def apply_card(markers: dict[str, int], card: dict) -> tuple[dict[str, int], list[Step]]:
    """Apply a planning card's arrows in printed order; return the new markers and each step."""
    # [GB335] reveal the card and rearrange the markers; GUT-C15: in printed order, min and max
    # re-evaluated before each arrow
    steps: list[Step] = []
    for source, target in card["moves"]:
        markers, step = arrow(markers, source, target, card["centre"])
        steps.append(step)
    return markers, steps


def give_marker(markers: dict[str, int], centre: str) -> tuple[dict[str, int], str]:
    """Take one marker off the automa's fullest action (when another player passes the token)."""
    # [GB351] "If the automa passes a marker, it takes it from its action that has the most markers."
    # [GB354] ties broken with this round's planning card's centre icon
    new = dict(markers)
    action = max_action(new, centre)
    new[action] -= 1
    return new, action


def receive_markers(markers: dict[str, int], centre: str, count: int) -> tuple[dict[str, int], list[str]]:
    """Place received markers one after another on the emptiest action; return where each went."""
    # [GB352] "put them one after another onto whichever action has the fewest markers at the
    # moment a marker is placed"; GUT-C19: min and the scan recomputed for each marker
    new = dict(markers)
    placed: list[str] = []
    for _ in range(count):
        action = min_action(new, centre)
        # [GB367] the 6-cap: with at most 10 markers the emptiest action never holds 6
        if new[action] >= MAX_PER_ACTION:
            raise ValueError("every action already holds 6 markers")
        new[action] += 1
        placed.append(action)
    return new, placed


def token_passed(markers: dict[str, int], centre: str, change: int) -> tuple[dict[str, int], list[str]]:
    """Give one marker (`change` -1: another seat passed the first-player token) or receive `change`
    markers (the automa passed it); return the new markers and the action of each marker moved."""
    if change == -1:
        # [GB351] the automa gives one marker, from its fullest action
        new, taken = give_marker(markers, centre)
        return new, [taken]
    # [GB352] it passed the token: one marker from every other seat, one after another
    return receive_markers(markers, centre, change)


def shuffled_deck(rng: random.Random) -> list[int]:
    """Return the four execution cards in a fresh random order."""
    # [GB337] "for each action, the automa starts drawing from its full deck of 4 execution cards"
    deck = list(EXECUTION_CARDS)
    rng.shuffle(deck)
    return deck


def draw(deck: list[int], available) -> tuple[int | None, list[int]]:
    """Draw from a deck until a card names an available space; return (space or None, cards drawn)."""
    drawn: list[int] = []
    for card in deck:
        drawn.append(card)
        # [GB337] no resource on that space: "then draw the next execution card"
        if card in available:
            return card, drawn
    # GUT-C10: all four cards drawn and no valid space: the automa removes nothing
    return None, drawn
