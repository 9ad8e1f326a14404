"""The solo opponent on the table: Voynich's seat, his setup and the events of his turn [V369-407].

A one-player table is a solo game against Voynich [V369-377]: he sits after the human, at
index 1 of `state["players"]`, and his deck lives in `state["voynich"]`. table.py hands
these events on to the handlers here; his research action, which moves his GK marker,
stays with the table's marker moves.
"""

from __future__ import annotations

from ..base import Context
from ..sentence import unmarked
from ..speech import N_, _, ngettext, pgettext
from ..validation import RulesError, choice, look_alike, obj, whole
from . import functions, rules
from .profile import SOLO_PARTS
from .rules import KNOWLEDGE, SIDES

AUTOMA = "Voynich"


def seat_names(names: list[str] | tuple[str, ...]) -> list[str]:
    """Return the names of everyone on the score track: Voynich after a lone human.

    A player whose name can pass for his (validation.look_alike: "voynich", "Ｖｏｙｎｉｃｈ", a
    Cyrillic "Vоynich") plays "Voynich (automa)": two names that look alike are one name twice,
    which `score` refuses. A name marked for a sentence (the history's, sentence.name) compares as the name.
    """
    names = list(names)
    if len(names) == 1:
        clash = look_alike(unmarked(names[0]), AUTOMA)
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
        raise RulesError("data", _("only a one-player table plays against %(automa)s", automa=AUTOMA))
    if s["voynich"] is not None:
        raise RulesError("data", _("%(automa)s is already set up: undo to change it", automa=AUTOMA))
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
        raise RulesError("data", _("only a one-player table plays against %(automa)s", automa=AUTOMA))
    v = s["voynich"]
    if v is None:
        raise RulesError("data", _("set up %(automa)s's book and deck first", automa=AUTOMA))
    if s["over"]:
        raise RulesError("data", _("the game is over"))
    if s["turn"] != voynich_seat(s):
        raise RulesError("data", _("it is not %(automa)s's turn: end your turn first", automa=AUTOMA))
    if flipped and v["turn"] is None:
        raise RulesError("data", _("flip %(automa)s's card first", automa=AUTOMA))
    if not flipped and v["turn"] is not None:
        raise RulesError("data", _("%(automa)s has flipped this turn already (no benefit? flip again instead)", automa=AUTOMA))
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
        raise RulesError("data", _("only a solo game with %(automa)s set up counts his tokens", automa=AUTOMA))
    s["voynich"]["tokens_on_board"] = whole(data["count"], "data.count", 0, rules.MAX_TOKENS)


# --- what his turn shows, step by step (RULES.md D1) -------------------------------------------------

#: the difficulties by name, as the solo card and the history say them
DIFFICULTY_NAMES = {"easy": N_("easy"), "medium": N_("medium"), "hard": N_("hard"), "very_hard": N_("very hard"),
                    "extremely_hard": N_("extremely hard")}
#: the numbered parts of the solo board that each spread's actions mainly use (VOY-B7)
SPREAD_PARTS = {
    "botany": ("botany_roots", "botany_branches"),
    "astrology": ("astrology",),
    "baths": ("baths_springs", "first_basin", "second_basin"),
    "writings": ("writings",),
    "recipes": ("recipes",),
}
ADVANCED, TOKEN_GK = len(rules.PRE_ADVANCE), rules.TOKEN_GK


def difficulty_labels() -> dict:
    """[V492-495] each difficulty's end scoring, [V375] with the pages the hardest two advance at setup."""
    return {
        "easy": _("Easy: his %(markers)s knowledge markers go back %(back)s spaces before his pages score",
                  markers=len(KNOWLEDGE), back=rules.EASY_SETBACK),
        "medium": _("Medium: his pages only"),
        "hard": _("Hard: +%(gk)s GK per token of his on the board, then his pages", gk=TOKEN_GK["hard"]),
        "very_hard": _("Very hard: %(pages)s pages advanced at setup; +%(gk)s GK per token on the board, then his pages",
                       pages=ADVANCED, gk=TOKEN_GK["very_hard"]),
        "extremely_hard": _("Extremely hard: %(pages)s pages advanced at setup; +%(gk)s GK per token on the board, "
                            "then his pages", pages=ADVANCED, gk=TOKEN_GK["extremely_hard"]),
    }


def tokens_hint() -> str:
    """[V494-495] the row's field for his tokens, counted from the first difficulty that scores them."""
    first = next(filter(rules.counts_tokens, rules.DIFFICULTIES))
    return _("leaves, drops, stars, texts; %(difficulty)s and above", difficulty=_(DIFFICULTY_NAMES[first]))


def solo_setup() -> str:
    """[V371-377] what the players set up by hand for a game against Voynich (RULES.md D1 setup 1 and 4)."""
    return _("Deal Voynich %(cards)s cards of each type and enter their numbers in book order, left page first. Use the "
             "solo side of the board; stack his text tokens at random, untranslated side up; put 7 dirty drops on "
             "numbered spaces of the first basin and the 8th under the right-hand spring; he gets no research tokens.",
             cards=len(SIDES))


#: [V395] the page the card's number picks: an odd number the left-hand page, an even one the right-hand page
# Translators: "odd" and "even" describe the card's number: "(odd number)"
PARITY = {"left": N_("odd"), "right": N_("even")}
#: [V403] the option of an "X / Y" choice he takes, on the left or the right page
def side_said(side: str) -> str:
    """A page's side of the book ("left", "right"), as "the left page" says it."""
    return pgettext("side of the book", "left") if side == "left" else pgettext("side of the book", "right")
#: [V428-445] where his tokens come from (RULES.md D1 Voynich's turn, step 4.3)
TOKEN_SOURCES = N_("Tokens come from his supply (text: the top of the stack); Recipes actions take them from the board "
                   "only. From the board, never from the section they go to: Botany branches or upper flowers, then "
                   "Astrology inner circle, then either Baths basin, then Writings text in rows without a star or stars "
                   "in rows with ≤ 1 text, then any.")


def scan_said() -> str:
    """[V430-432] the scan from the priority number, wrapping at the top (VOY-C13)."""
    return _("check numbered spaces from it (or the nearest lower one), going up and wrapping from %(hi)s to %(lo)s.",
             hi=rules.CARD_HI, lo=rules.CARD_LO)


def voynich_view(v: dict, profile: dict, player: dict, round_: int, sections: dict) -> dict:
    """Return Voynich's deck, his current turn and the scan orders for its priority number, in the language
    spoken (view.py shows it): `player` is his as the panel shows it, `sections` the sections' names."""
    turn = v["turn"]
    page_names = [page["name"] for page in player["pages"]]
    out = {
        "difficulty": _(DIFFICULTY_NAMES[v["difficulty"]]), "difficulty_label": difficulty_labels()[v["difficulty"]],
        "deck_said": ngettext("Deck: %(num)d card left", "Deck: %(num)d cards left", len(v["deck"])),
        "open": sections[v["open"]] if v["open"] else None, "turn": turn, "tokens_on_board": v["tokens_on_board"],
        "advanced": [_("%(page)s (card %(card)s)", page=page_names[player["cards"].index(c)], card=c) for c in v["advanced"]],
        # [V375] the pages advanced at setup, to turn before his first flip
        "show_advanced": bool(v["advanced"]) and turn is None and round_ == 1,
        "book": [{"name": page_names[k], "card": c, "phase": player["pages"][k]["phase"]} for k, c in enumerate(player["cards"])],
        "research_said": _("Research action: +%(gk)s GK", gk=rules.RESEARCH_GK),  # [V382]
        "token_sources": _(TOKEN_SOURCES), "scan_said": scan_said(),
    }
    out["advanced_said"] = ngettext(
        "Set up: his pages %(pages)s start one phase on: rotate or flip this %(num)d card as its arrow shows.",
        "Set up: his pages %(pages)s start one phase on: rotate or flip these %(num)d cards as their arrows show.",
        len(out["advanced"]), pages=", ".join(out["advanced"]))
    if turn is not None:
        # [V403] an "X / Y" choice: the left option on the left page, the right on the right page
        out["slash"], out["parity"] = side_said(turn["page"]), _(PARITY[turn["page"]])
        out["side_said"] = {"left": _("left page"), "right": _("right page")}[turn["page"]]
        out["spread_said"] = sections[turn["spread"]]
        out["abandoned_said"] = ngettext("card %(cards)s", "cards %(cards)s", len(turn["abandoned"]),
                                         cards=", ".join(map(str, turn["abandoned"])))
        out["page_name"] = page_names[turn["page_index"]]
        # [V430-432] each numbered part of the board, scanned from the priority number
        spaces = profile.get("solo_spaces", {})
        scans = [
            {"part": part, "label": _(label), "order": rules.scan_order(turn["priority"], spaces[part]),
             "in_spread": part in SPREAD_PARTS[turn["spread"]]}
            for part, label in SOLO_PARTS.items() if part in spaces
        ]
        # the open spread's own parts first; its actions may still reach the others
        out["scans"] = sorted(scans, key=lambda sc: not sc["in_spread"])
    return out
