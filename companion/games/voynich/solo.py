"""The solo opponent on the table: Voynich's seat, his setup and the events of his turn [V369-407].

A one-player table is a solo game against Voynich [V369-377]: he sits after the human, at
index 1 of `state["players"]`, and his deck lives in `state["voynich"]`. table.py hands
these events on to the handlers here; his research action, which moves his GK marker,
stays with the table's marker moves.
"""

from __future__ import annotations

from ..base import Context
from ..sentence import unmarked
from ..validation import RulesError, choice, name_key, obj, whole
from . import functions, rules
from .rules import SECTIONS, SIDES

AUTOMA = "Voynich"


def seat_names(names: list[str] | tuple[str, ...]) -> list[str]:
    """Return the names of everyone on the score track: Voynich after a lone human.

    A player whose name compares as his (validation.name_key: "voynich", "Ｖｏｙｎｉｃｈ") plays
    "Voynich (automa)": two names that look alike are one name twice, which `score` refuses.
    A name marked for a sentence (the history's, sentence.name) compares as the name.
    """
    names = list(names)
    if len(names) == 1:
        clash = name_key(unmarked(names[0])) == name_key(AUTOMA)
        return names + [f"{AUTOMA} (automa)" if clash else AUTOMA]
    return names


def page_index(section: str, side: int) -> int:
    """Return the book position (0-9) of a section's left (0) or right (1) page [V58]."""
    return 2 * SECTIONS.index(section) + side


def _voynich(s: dict) -> int | None:
    """Return Voynich's seat at a solo table, None at any other."""
    return len(s["players"]) - 1 if s["solo"] else None


def _on_solo_setup(s: dict, data: dict, ctx: Context) -> None:
    obj(data, "data", required=("cards", "difficulty"))
    if not s["solo"]:
        raise RulesError("data", f"only a one-player table plays against {AUTOMA}")
    if s["voynich"] is not None:
        raise RulesError("data", f"{AUTOMA} is already set up: undo to change it")
    cards = functions.check_cards(data["cards"], "data.cards")
    difficulty = choice(data["difficulty"], "data.difficulty", rules.DIFFICULTIES)
    voy = s["players"][_voynich(s)]
    voy["cards"] = [cards[sec][side] for sec in SECTIONS for side in range(2)]
    phases = rules.initial_phases(cards, difficulty)  # [V375] the pre-advance
    for p, card in enumerate(voy["cards"]):
        voy["pages"][p]["phase"] = phases[card]
    s["voynich"] = {
        "difficulty": difficulty,
        "cards": cards,
        "deck": rules.new_deck(cards, ctx.rng("voynich", "deck")),  # [V373] top not Recipes
        "discard": [],
        "open": None,
        "flips": 0,
        "turn": None,
        "tokens_on_board": None,
        "advanced": [c for c in voy["cards"] if phases[c] > 1],
    }


def _flip(s: dict, ctx: Context) -> dict:
    v = s["voynich"]
    sections = rules.card_sections(v["cards"])
    # the flip counter keys the shuffle: an undone flip, redone, flips the same card
    f = rules.flip(v["deck"], v["discard"], v["open"], sections, ctx.rng("voynich", "flip", v["flips"]))
    v["flips"] += 1
    v["deck"], v["discard"] = f["deck"], f["discard"]
    card = f["card"]
    v["open"] = sections[card]
    side = rules.page_side(card)  # [V395] odd: left page, even: right page
    return {
        "card": card, "spread": v["open"], "page": side,
        "page_index": page_index(v["open"], SIDES.index(side)),
        "skipped": f["skipped"], "reshuffled": f["reshuffled"],
        # [V430] the card just flipped gives the priority number (VOY-C4)
        "priority": card,
    }


def _voynich_turn_check(s: dict, data: dict, flipped: bool) -> dict:
    """Check an event of Voynich's turn (data `{}`): his card flipped already or not yet."""
    obj(data, "data")
    if not s["solo"]:
        raise RulesError("data", f"only a one-player table plays against {AUTOMA}")
    v = s["voynich"]
    if v is None:
        raise RulesError("data", f"set up {AUTOMA}'s book and deck first")
    if s["over"]:
        raise RulesError("data", "the game is over")
    if s["turn"] != _voynich(s):
        raise RulesError("data", f"it is not {AUTOMA}'s turn: end your turn first")
    if flipped and v["turn"] is None:
        raise RulesError("data", f"flip {AUTOMA}'s card first")
    if not flipped and v["turn"] is not None:
        raise RulesError("data", f"{AUTOMA} has flipped this turn already (no benefit? flip again instead)")
    return v


def _on_voynich_flip(s: dict, data: dict, ctx: Context) -> None:
    v = _voynich_turn_check(s, data, flipped=False)
    turn = _flip(s, ctx)
    page = s["players"][_voynich(s)]["pages"][turn["page_index"]]
    # [V381] [V395] he studies that page "if possible", ignoring conditions; no GK (VOY-C8)
    turn["studied"] = page["phase"] < rules.LAST_PHASE
    if turn["studied"]:
        page["phase"] += 1
        page.pop("multiplier", None)  # a new phase shows a new multiplier, as a player's study (table.py)
    turn["phase"] = page["phase"]
    turn["abandoned"] = []
    v["turn"] = turn


def _on_voynich_reflip(s: dict, data: dict, ctx: Context) -> None:
    v = _voynich_turn_check(s, data, flipped=True)
    abandoned = v["turn"]["abandoned"] + [v["turn"]["card"]]
    # [V407] no benefit but research: flip again; the new page is not studied (VOY-C15)
    turn = _flip(s, ctx)
    turn["studied"] = False
    turn["phase"] = s["players"][_voynich(s)]["pages"][turn["page_index"]]["phase"]
    turn["abandoned"] = abandoned
    v["turn"] = turn


def _on_voynich_tokens(s: dict, data: dict, ctx: Context) -> None:
    obj(data, "data", required=("count",))
    if not s["solo"] or s["voynich"] is None:
        raise RulesError("data", f"only a solo game with {AUTOMA} set up counts his tokens")
    s["voynich"]["tokens_on_board"] = whole(data["count"], "data.count", 0, rules.MAX_TOKENS)


#: the events of the solo opponent handled here (table.py adds them to its own)
HANDLERS = {
    "solo_setup": _on_solo_setup,
    "voynich_flip": _on_voynich_flip,
    "voynich_reflip": _on_voynich_reflip,
    "voynich_tokens": _on_voynich_tokens,
}
