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


def voynich_seat(s: dict) -> int | None:
    """Return Voynich's seat at a solo table (after the human's), None at any other."""
    return len(s["players"]) - 1 if s["solo"] else None


def flip_due(s: dict) -> bool:
    """Whether it is Voynich's turn and his card is not flipped yet: his turn cannot end before [V387]."""
    return s["turn"] == voynich_seat(s) and (s["voynich"] is None or s["voynich"]["turn"] is None)


def study_page(page: dict) -> bool:
    """Study a page one phase on if possible [V134] [V395]; say whether it moved.

    Its new phase shows a new multiplier: the one entered for the old phase is dropped.
    """
    phase = rules.next_phase(page["phase"])
    if phase is None:
        return False
    page["phase"] = phase
    page.pop("multiplier", None)
    return True


def on_solo_setup(s: dict, data: dict, ctx: Context) -> None:
    obj(data, "data", required=("cards", "difficulty"))
    if not s["solo"]:
        raise RulesError("data", f"only a one-player table plays against {AUTOMA}")
    if s["voynich"] is not None:
        raise RulesError("data", f"{AUTOMA} is already set up: undo to change it")
    cards = functions.check_cards(data["cards"], "data.cards")
    difficulty = choice(data["difficulty"], "data.difficulty", rules.DIFFICULTIES)
    voy = s["players"][voynich_seat(s)]
    voy["cards"] = rules.book(cards)
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
    # the flip counter keys the shuffle: an undone flip, redone, flips the same card
    turn = rules.voynich_turn(v["cards"], v["deck"], v["discard"], v["open"], ctx.rng("voynich", "flip", v["flips"]))
    v["flips"] += 1
    v["deck"], v["discard"], v["open"] = turn["deck"], turn["discard"], turn["spread"]
    return {
        # [V395] odd: left page, even: right page
        "card": turn["card"], "spread": turn["spread"], "page": turn["page"],
        "page_index": rules.book(v["cards"]).index(turn["page_card"]),
        "skipped": turn["skipped"], "reshuffled": turn["reshuffled"],
        # [V430] the card just flipped gives the priority number (VOY-C4)
        "priority": turn["card"],
    }


def voynich_turn_check(s: dict, data: dict, flipped: bool) -> dict:
    """Check an event of Voynich's turn (data `{}`): his card flipped already or not yet."""
    obj(data, "data")
    if not s["solo"]:
        raise RulesError("data", f"only a one-player table plays against {AUTOMA}")
    v = s["voynich"]
    if v is None:
        raise RulesError("data", f"set up {AUTOMA}'s book and deck first")
    if s["over"]:
        raise RulesError("data", "the game is over")
    if s["turn"] != voynich_seat(s):
        raise RulesError("data", f"it is not {AUTOMA}'s turn: end your turn first")
    if flipped and v["turn"] is None:
        raise RulesError("data", f"flip {AUTOMA}'s card first")
    if not flipped and v["turn"] is not None:
        raise RulesError("data", f"{AUTOMA} has flipped this turn already (no benefit? flip again instead)")
    return v


def on_voynich_flip(s: dict, data: dict, ctx: Context) -> None:
    v = voynich_turn_check(s, data, flipped=False)
    turn = _flip(s, ctx)
    page = s["players"][voynich_seat(s)]["pages"][turn["page_index"]]
    # [V381] [V395] he studies that page "if possible", ignoring conditions; no GK (VOY-C8)
    turn["studied"] = study_page(page)
    turn["phase"] = page["phase"]
    turn["abandoned"] = []
    v["turn"] = turn


def on_voynich_reflip(s: dict, data: dict, ctx: Context) -> None:
    v = voynich_turn_check(s, data, flipped=True)
    abandoned = v["turn"]["abandoned"] + [v["turn"]["card"]]
    # [V407] no benefit but research: flip again; the new page is not studied (VOY-C15)
    turn = _flip(s, ctx)
    turn["studied"] = False
    turn["phase"] = s["players"][voynich_seat(s)]["pages"][turn["page_index"]]["phase"]
    turn["abandoned"] = abandoned
    v["turn"] = turn


def on_voynich_tokens(s: dict, data: dict, ctx: Context) -> None:
    obj(data, "data", required=("count",))
    if not s["solo"] or s["voynich"] is None:
        raise RulesError("data", f"only a solo game with {AUTOMA} set up counts his tokens")
    s["voynich"]["tokens_on_board"] = whole(data["count"], "data.count", 0, rules.MAX_TOKENS)

