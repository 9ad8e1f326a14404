"""The Voynich Puzzle's table: events, state and views, on top of rules.py.

Players are referred to by index in turn order (the first player first). A one-player
table is a solo game against Voynich [V369-377]: Voynich then sits after the human, at
index 1 of `state["players"]`, and his deck lives in `state["voynich"]`.
"""

from __future__ import annotations

from typing import Any

from ..base import Context, Game, RulesFunction, clone
from ..validation import RulesError, at, choice, listof, obj, whole
from . import rules
from .rules import KNOWLEDGE, MARKERS, SECTIONS, SIDES

AUTOMA = "Voynich"
#: the numbered parts of the solo board, in board order (VOY-B7, D1 step 4.5)
SOLO_PARTS = {
    "botany_roots": "Botany: root tips (water drop)",
    "botany_branches": "Botany: branches and flowers (plant growth)",
    "astrology": "Astrology: sectors (star or text)",
    "writings": "Writings: rows (text, star, translate)",
    "baths_springs": "Baths: springs (water drop)",
    "first_basin": "Baths: first basin (purify)",
    "second_basin": "Baths: second basin rewards",
    "recipes": "Recipes: spaces",
}
PAGE_NAMES = [f"{s.capitalize()} {side}" for s in SECTIONS for side in SIDES]
MAX_DELTA = 60
GRID_MAX = 20


def page_index(section: str, side: int) -> int:
    """Return the book position (0-9) of a section's left (0) or right (1) page [V58]."""
    return 2 * SECTIONS.index(section) + side


def seat_names(names: list[str] | tuple[str, ...]) -> list[str]:
    """Return the names of everyone on the score track: Voynich after a lone human."""
    names = list(names)
    if len(names) == 1:
        return names + [AUTOMA if names[0].casefold() != AUTOMA.casefold() else f"{AUTOMA} (automa)"]
    return names


# --- box profile -----------------------------------------------------------------------------

def check_track(value: Any, field: str) -> dict:
    """Check the score track's printed values: scoring spaces, insight symbols, end symbol (B1, B2)."""
    obj(value, field, optional=("scoring_spaces", "insights", "end"))
    clean: dict[str, Any] = {}
    if "scoring_spaces" in value:
        spaces = rules.scoring_spaces(value["scoring_spaces"], at(field, "scoring_spaces"))
        clean["scoring_spaces"] = {str(k): v for k, v in spaces.items()}
    if "insights" in value:
        clean["insights"] = rules.insight_positions(value["insights"], at(field, "insights"))
    if "end" in value:
        # VOY-C12: the number printed at the end-of-game symbol, confirmed by the group
        clean["end"] = whole(value["end"], at(field, "end"), 1, rules.POS_HI)
    return clean


def check_grid(value: Any, field: str) -> list[list[int | None]]:
    """Check the puzzle grid: rows of the GK printed per cell, null where there is no space (B3)."""
    rows = listof(value, field, 1, GRID_MAX)
    clean = []
    for r, row in enumerate(rows):
        cells = listof(row, at(field, r), 1, GRID_MAX)
        clean.append([None if c is None else whole(c, at(at(field, r), i), 0, 99) for i, c in enumerate(cells)])
    if not any(c is not None for row in clean for c in row):
        raise RulesError(field, "must hold at least one cell with its GK")
    return clean


def check_catalogue(value: Any, field: str) -> dict:
    """Check the optional card catalogue: number -> section, phases 2-4 multipliers, Recipes types (B4, B5)."""
    obj(value, field, optional=tuple(str(n) for n in range(rules.CARD_LO, rules.CARD_HI + 1)))
    clean = {}
    for key, card in value.items():
        path = at(field, key)
        obj(card, path, required=("section", "multipliers"), optional=("choices",))
        section = choice(card["section"], at(path, "section"), SECTIONS)
        mults = listof(card["multipliers"], at(path, "multipliers"), 3, 3)
        for i, m in enumerate(mults):
            if isinstance(m, bool) or m not in rules.MULTIPLIERS:
                raise RulesError(at(at(path, "multipliers"), i), "must be 0, 1, 2 or 4 (phases 2, 3 and 4)")
        entry = {"section": section, "multipliers": list(mults)}
        if section == "recipes" and "choices" in card:
            entry["choices"] = rules.recipe_choices(card["choices"], at(path, "choices"))
        elif "choices" in card:
            raise RulesError(at(path, "choices"), "only a Recipes card shows two knowledge types")
        clean[key] = entry
    return clean


def check_profile(data: Any) -> dict:
    """Check a Voynich box profile: only values printed on the components (RULES.md VOY-B)."""
    obj(data, "$", optional=("track", "grid", "solo_spaces", "cards"))
    clean: dict[str, Any] = {}
    if "track" in data:
        clean["track"] = check_track(data["track"], "track")
    if "grid" in data:
        clean["grid"] = check_grid(data["grid"], "grid")
    if "solo_spaces" in data:
        obj(data["solo_spaces"], "solo_spaces", optional=tuple(SOLO_PARTS))
        clean["solo_spaces"] = {
            part: rules.check_present(nums, at("solo_spaces", part)) for part, nums in data["solo_spaces"].items()
        }
    if "cards" in data:
        clean["cards"] = check_catalogue(data["cards"], "cards")
    return clean


# --- state helpers ---------------------------------------------------------------------------

def new_player() -> dict:
    return {
        "markers": {m: 0 for m in MARKERS},  # [V64] all five on the "0" mark
        "exchange": {k: 0 for k in KNOWLEDGE},
        "pages": [{"phase": 1} for _ in range(2 * len(SECTIONS))],
        "research": [],
        "cards": None,
    }


def effective_track(state: dict, profile: dict) -> dict:
    """Return the score track values: the table's entries over the box profile's."""
    track = dict((profile or {}).get("track", {}))
    track.update(state.get("track") or {})
    return track


def end_gk(track: dict) -> int:
    """[V80] the end-of-game symbol on the 52nd space, or the number the group confirmed (VOY-C12)."""
    return track.get("end", rules.END_GK)


def grid_gk(profile: dict, cell: Any, field: str) -> int:
    """Return the GK of a puzzle cell [row, column] from the profile's grid (B3)."""
    grid = (profile or {}).get("grid")
    if not grid:
        raise RulesError(field, "the box profile has no puzzle grid: enter the GK instead")
    pair = listof(cell, field, 2, 2)
    r = whole(pair[0], at(field, 0), 0, len(grid) - 1)
    c = whole(pair[1], at(field, 1), 0, len(grid[r]) - 1)
    if grid[r][c] is None:
        raise RulesError(field, "that is not a puzzle space")
    return grid[r][c]


def resolve_page(player: dict, index: int, catalogue: dict) -> dict:
    """Return a page's scoring data: section, phase, multiplier (None if unknown), choices, chosen."""
    page = player["pages"][index]
    section = SECTIONS[index // 2]
    card = player["cards"][index] if player.get("cards") else None
    info = catalogue.get(str(card)) if card is not None else None
    out = {"section": section, "phase": page["phase"], "card": card, "chosen": page.get("chosen")}
    if page["phase"] == 1:
        out["multiplier"] = 0  # [V91] the starting phase gives no points
    elif page.get("multiplier") is not None:
        out["multiplier"] = page["multiplier"]
    elif info is not None:
        out["multiplier"] = info["multipliers"][page["phase"] - 2]
    else:
        out["multiplier"] = None
    out["choices"] = page.get("choices") or (info or {}).get("choices")
    out["from_catalogue"] = info is not None and page.get("multiplier") is None
    return out


class VoynichGame(Game):
    key = "voynich"
    title = "The Voynich Puzzle"
    min_players = 1
    max_players = 4
    styles = ("voynich/voynich.css",)
    functions = {
        f.name: f
        for f in (
            RulesFunction("score", "final scoring, solo included: research halved, pages, tie-break [V354-367, V492-497]", rules.score),
            RulesFunction("priority_scan", "the order Voynich checks numbered spaces from a priority number [V430-432]", rules.priority_scan),
            RulesFunction("solo_turns", "run Voynich's deck for a number of turns: skip, reshuffle, odd/even page [V371-395]", rules.solo_turns),
            RulesFunction("final_turns", "the turns still to play once a GK marker reaches 52 [V356]", rules.final_turns),
        )
    }
    events = {
        "move": "{player, marker: botany|astrology|baths|writings|gk, delta}: move a marker on the score track; "
                "insight symbols crossed give knowledge exchange tokens; GK reaching the end symbol triggers the end",
        "exchange": "{player, type, gk?, cell?}: use one knowledge exchange token (a puzzle piece placed); "
                    "for Voynich, the GK of the cell (typed, or cell [row, column] of the profile's grid) [V424]",
        "end_turn": "{}: the current player's turn ends; the next player (or the next of the final turns) plays",
        "study": "{player, page: 0-9}: a page advances one phase (1 to 4) [V134]",
        "page": "{player, page: 0-9, phase?, multiplier?: 0|1|2|4, choices?: [type, type], chosen?: type|null}: "
                "correct a page or enter its end-scoring data; a Recipes page lists two types",
        "book": "{player, cards: {botany: [left, right], ..., recipes: [...]}}: a player's card numbers in book order "
                "(lets the box profile's card catalogue give the multipliers)",
        "research": "{player, gk? | cell?: [row, column]}: add one research token's GK for end scoring (at most 6)",
        "research_remove": "{player, index}: take back one research token entry",
        "track": "{scoring_spaces?: {position: GK}, insights?: [positions], end?}: enter the score track's printed "
                 "values at the table (over the box profile's)",
        "solo_setup": "{cards: {botany: [left, right], ...}, difficulty: easy|medium|hard|very_hard|extremely_hard}: "
                      "Voynich's book and deck; very hard and extremely hard pre-advance 4 pages [V371-377]",
        "voynich_flip": "{}: Voynich's turn: flip his deck (skipping the open spread, rebuilding when empty), "
                        "open the spread, study the odd (left) or even (right) page [V387-395]",
        "voynich_reflip": "{}: no benefit but from research: flip again, open the new page without studying [V407]",
        "voynich_research": "{}: Voynich's research action: +1 GK instead of placing research tokens [V382]",
        "voynich_tokens": "{count: 0-16}: Voynich's tokens on the board at the end (hard and above) [V494-495]",
    }
    options_doc = {
        "solo_tie": "solo only: \"strict\" (default; a tie is a loss, [V497]) or \"tie_break\" (a tie goes to the "
                    "normal marker tie-break) (RULES.md VOY-C11)",
    }

    # --- tables ----------------------------------------------------------------------------
    def validate_options(self, options: dict, player_count: int) -> dict:
        obj(options, "$", optional=("solo_tie",))
        clean = {}
        if options.get("solo_tie") in ("", None):
            options = {k: v for k, v in options.items() if k != "solo_tie"}  # the form's "default" choice
        if "solo_tie" in options:
            if player_count != 1:
                raise RulesError("solo_tie", "applies to a solo game (one player against Voynich) only")
            clean["solo_tie"] = choice(options["solo_tie"], "solo_tie", rules.TIE_RULES)
        return clean

    def initial_state(self, names: list[str], options: dict, profile: dict) -> dict:
        solo = len(names) == 1
        return {
            "solo": solo,
            "players": [new_player() for _ in seat_names(names)],
            "turn": 0,  # [V377] in solo "You are the first player"
            "round": 1,
            "end": None,  # {"trigger": index, "remaining": [indexes still to play after the current turn]}
            "over": False,
            "track": {},
            "voynich": None,
        }

    def apply(self, state: dict, type_: str, data: Any, ctx: Context) -> dict:
        handler = getattr(self, f"_on_{type_}", None) if type_ in self.events else None
        if handler is None:
            return super().apply(state, type_, data, ctx)
        if not isinstance(data, dict):
            raise RulesError("data", "must be an object")
        new = clone(state)
        handler(new, data, ctx)
        return new

    # each handler validates `data` fully before changing `s` (a clone), so a refused
    # event changes nothing

    def _player(self, s: dict, data: dict, human_only: bool = False) -> int:
        n = len(s["players"])
        i = whole(data.get("player"), "data.player", 0, n - 1)
        if human_only and s["solo"] and i == n - 1:
            raise RulesError("data.player", f"{AUTOMA} has no research tokens (RULES.md VOY-C9)")
        return i

    def _voynich(self, s: dict) -> int | None:
        return len(s["players"]) - 1 if s["solo"] else None

    def _advance(self, s: dict, i: int, marker: str, delta: int, field: str, ctx: Context) -> None:
        """Move a marker, queue exchange tokens for insight symbols, trigger the end at 52."""
        player = s["players"][i]
        old = player["markers"][marker]
        new = old + delta
        if new < 0:
            raise RulesError(field, f"the {marker} marker is on {old}: it cannot go below 0")
        if new > rules.POS_HI:
            raise RulesError(field, f"must keep the marker at most {rules.POS_HI}")
        player["markers"][marker] = new
        track = effective_track(s, ctx.profile)
        if marker in KNOWLEDGE and "insights" in track:
            if delta > 0:
                # [V170] each insight symbol reached or passed: one exchange token of that type
                player["exchange"][marker] += rules.insights_crossed(old, new, track["insights"])
            else:
                # a correction back over a symbol takes back the token it gave, if still unused
                back = rules.insights_crossed(new, old, track["insights"])
                player["exchange"][marker] = max(0, player["exchange"][marker] - back)
        # [V174] GK crossing an insight does nothing
        if marker == "gk" and new >= end_gk(track) and s["end"] is None:
            # [V354-356] finish the round, then one more turn each (RULES.md VOY-A11, VOY-C12)
            order = list(range(len(s["players"])))
            s["end"] = {"trigger": s["turn"], "by": i, "remaining": rules.final_turns_order(order, s["turn"])}

    def _on_move(self, s: dict, data: dict, ctx: Context) -> None:
        obj(data, "data", required=("player", "marker", "delta"))
        i = self._player(s, data)
        marker = choice(data["marker"], "data.marker", MARKERS)
        delta = whole(data["delta"], "data.delta", -MAX_DELTA, MAX_DELTA)
        if delta == 0:
            raise RulesError("data.delta", f"must be a whole number from -{MAX_DELTA} to {MAX_DELTA}, not 0")
        self._advance(s, i, marker, delta, "data.delta", ctx)

    def _on_exchange(self, s: dict, data: dict, ctx: Context) -> None:
        obj(data, "data", required=("player", "type"), optional=("gk", "cell"))
        i = self._player(s, data)
        kind = choice(data["type"], "data.type", KNOWLEDGE)
        player = s["players"][i]
        if player["exchange"][kind] < 1:
            raise RulesError("data.type", f"no {kind} exchange token to use")
        gk = 0
        if i == self._voynich(s):
            # [V424] for each piece placed, Voynich gains the GK of that space
            if "cell" in data:
                gk = grid_gk(ctx.profile, data["cell"], "data.cell")
            elif "gk" in data:
                gk = whole(data["gk"], "data.gk", 0, 99)
            else:
                raise RulesError("data.gk", f"enter the GK of the space where {AUTOMA}'s piece went")
        elif "gk" in data or "cell" in data:
            raise RulesError("data.gk" if "gk" in data else "data.cell", "only Voynich gains GK for placing a piece")
        # [V325] each token is returned for one puzzle piece of the same type
        player["exchange"][kind] -= 1
        if gk:
            self._advance(s, i, "gk", gk, "data.gk", ctx)

    def _on_end_turn(self, s: dict, data: dict, ctx: Context) -> None:
        obj(data, "data")
        if s["over"]:
            raise RulesError("data", "the game is over: see the end scoring")
        if s["solo"] and s["voynich"] is None:
            raise RulesError("data", f"set up {AUTOMA}'s book and deck first")
        current = s["players"][s["turn"]]
        if any(current["exchange"].values()):
            # [V121] [V325] exchange tokens must be used in the turn
            raise RulesError("data", "place the puzzle pieces for the knowledge exchange tokens first")
        v = s["voynich"]
        if s["turn"] == self._voynich(s):
            if v is None:
                raise RulesError("data", f"set up {AUTOMA}'s book and deck first")
            if v["turn"] is None:
                raise RulesError("data", f"flip {AUTOMA}'s card first")
            v["turn"] = None
        n = len(s["players"])
        if s["end"] is not None:
            if not s["end"]["remaining"]:
                s["over"] = True
                return
            s["turn"] = s["end"]["remaining"].pop(0)
        else:
            s["turn"] = (s["turn"] + 1) % n
        if s["turn"] == 0:
            s["round"] += 1

    def _page(self, s: dict, data: dict) -> tuple[int, int]:
        i = self._player(s, data)
        return i, whole(data.get("page"), "data.page", 0, 2 * len(SECTIONS) - 1)

    def _on_study(self, s: dict, data: dict, ctx: Context) -> None:
        obj(data, "data", required=("player", "page"))
        i, p = self._page(s, data)
        page = s["players"][i]["pages"][p]
        if page["phase"] >= rules.LAST_PHASE:
            raise RulesError("data.page", f"{PAGE_NAMES[p]} is in its final phase: nothing more to study")
        page["phase"] += 1
        page.pop("multiplier", None)  # a new phase shows a new multiplier

    def _on_page(self, s: dict, data: dict, ctx: Context) -> None:
        obj(data, "data", required=("player", "page"), optional=("phase", "multiplier", "choices", "chosen"))
        i, p = self._page(s, data)
        if not any(k in data for k in ("phase", "multiplier", "choices", "chosen")):
            raise RulesError("data", "give the page's phase, multiplier, types or chosen type")
        page = dict(s["players"][i]["pages"][p])
        section = SECTIONS[p // 2]
        if "phase" in data:
            phase = whole(data["phase"], "data.phase", 1, rules.LAST_PHASE)
            if phase != page["phase"]:
                page.pop("multiplier", None)
            page["phase"] = phase
        if "multiplier" in data:
            m = data["multiplier"]
            if isinstance(m, bool) or m not in rules.MULTIPLIERS:
                raise RulesError("data.multiplier", "must be 0 (starting phase), 1, 2 or 4")
            if page["phase"] == 1 and m != 0:
                raise RulesError("data.multiplier", "the starting phase gives no points [V91]: 0")
            page["multiplier"] = m
        if "choices" in data:
            if section != "recipes":
                raise RulesError("data.choices", "only a Recipes page shows two knowledge types")
            if data["choices"] == []:
                page.pop("choices", None)  # both type selects left empty: no types entered
            else:
                page["choices"] = rules.recipe_choices(data["choices"], "data.choices")
        if "chosen" in data:
            if section != "recipes":
                raise RulesError("data.chosen", "only a Recipes page lets you choose the type it scores")
            if data["chosen"] in (None, ""):
                page.pop("chosen", None)
            else:
                card = (s["players"][i]["cards"] or [None] * 10)[p]
                options = page.get("choices") or (ctx.profile or {}).get("cards", {}).get(str(card), {}).get("choices")
                if not options:
                    raise RulesError("data.chosen", "enter the page's two knowledge types first")
                page["chosen"] = choice(data["chosen"], "data.chosen", options)
        elif page.get("chosen") and page.get("choices") and page["chosen"] not in page["choices"]:
            page.pop("chosen")  # new types entered: the old override no longer applies
        s["players"][i]["pages"][p] = page

    def _on_book(self, s: dict, data: dict, ctx: Context) -> None:
        obj(data, "data", required=("player", "cards"))
        i = self._player(s, data)
        if i == self._voynich(s):
            raise RulesError("data.player", f"{AUTOMA}'s book is entered with his solo setup")
        cards = rules.check_cards(data["cards"], "data.cards")
        s["players"][i]["cards"] = [cards[sec][side] for sec in SECTIONS for side in range(2)]

    def _on_research(self, s: dict, data: dict, ctx: Context) -> None:
        obj(data, "data", required=("player",), optional=("gk", "cell"))
        i = self._player(s, data, human_only=True)
        if "cell" in data:
            gk = grid_gk(ctx.profile, data["cell"], "data.cell")
        elif "gk" in data:
            gk = whole(data["gk"], "data.gk", 0, 99)
        else:
            raise RulesError("data.gk", "enter the GK at the token's row and column, or tap its cell")
        research = s["players"][i]["research"]
        if len(research) >= rules.MAX_RESEARCH:
            raise RulesError("data.gk", f"a player has {rules.MAX_RESEARCH} research tokens [V34]")
        research.append(gk)

    def _on_research_remove(self, s: dict, data: dict, ctx: Context) -> None:
        obj(data, "data", required=("player", "index"))
        i = self._player(s, data, human_only=True)
        research = s["players"][i]["research"]
        if not research:
            raise RulesError("data.index", "no research token entered")
        del research[whole(data["index"], "data.index", 0, len(research) - 1)]

    def _on_track(self, s: dict, data: dict, ctx: Context) -> None:
        values = check_track(data, "data")
        if not values:
            raise RulesError("data", "enter the scoring spaces, the insight positions or the end number")
        s["track"].update(values)

    def _on_solo_setup(self, s: dict, data: dict, ctx: Context) -> None:
        obj(data, "data", required=("cards", "difficulty"))
        if not s["solo"]:
            raise RulesError("data", f"only a one-player table plays against {AUTOMA}")
        if s["voynich"] is not None:
            raise RulesError("data", f"{AUTOMA} is already set up: undo to change it")
        cards = rules.check_cards(data["cards"], "data.cards")
        difficulty = choice(data["difficulty"], "data.difficulty", rules.DIFFICULTIES)
        voy = s["players"][self._voynich(s)]
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

    def _flip(self, s: dict, ctx: Context) -> dict:
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

    def _voynich_turn_check(self, s: dict) -> dict:
        if not s["solo"]:
            raise RulesError("data", f"only a one-player table plays against {AUTOMA}")
        v = s["voynich"]
        if v is None:
            raise RulesError("data", f"set up {AUTOMA}'s book and deck first")
        if s["over"]:
            raise RulesError("data", "the game is over")
        if s["turn"] != self._voynich(s):
            raise RulesError("data", f"it is not {AUTOMA}'s turn: end your turn first")
        return v

    def _on_voynich_flip(self, s: dict, data: dict, ctx: Context) -> None:
        obj(data, "data")
        v = self._voynich_turn_check(s)
        if v["turn"] is not None:
            raise RulesError("data", f"{AUTOMA} has flipped this turn already (no benefit? flip again instead)")
        turn = self._flip(s, ctx)
        page = s["players"][self._voynich(s)]["pages"][turn["page_index"]]
        # [V381] [V395] he studies that page "if possible", ignoring conditions; no GK (VOY-C8)
        turn["studied"] = page["phase"] < rules.LAST_PHASE
        if turn["studied"]:
            page["phase"] += 1
        turn["phase"] = page["phase"]
        turn["abandoned"] = []
        v["turn"] = turn

    def _on_voynich_reflip(self, s: dict, data: dict, ctx: Context) -> None:
        obj(data, "data")
        v = self._voynich_turn_check(s)
        if v["turn"] is None:
            raise RulesError("data", f"flip {AUTOMA}'s card first")
        abandoned = v["turn"]["abandoned"] + [v["turn"]["card"]]
        # [V407] no benefit but research: flip again; the new page is not studied (VOY-C15)
        turn = self._flip(s, ctx)
        turn["studied"] = False
        turn["phase"] = s["players"][self._voynich(s)]["pages"][turn["page_index"]]["phase"]
        turn["abandoned"] = abandoned
        v["turn"] = turn

    def _on_voynich_research(self, s: dict, data: dict, ctx: Context) -> None:
        obj(data, "data")
        v = self._voynich_turn_check(s)
        if v["turn"] is None:
            raise RulesError("data", f"flip {AUTOMA}'s card first")
        # [V382] a research action is exchanged for 1 GK (VOY-C7: 1 per icon)
        self._advance(s, self._voynich(s), "gk", rules.voynich_research_gk(), "data", ctx)

    def _on_voynich_tokens(self, s: dict, data: dict, ctx: Context) -> None:
        obj(data, "data", required=("count",))
        if not s["solo"] or s["voynich"] is None:
            raise RulesError("data", f"only a solo game with {AUTOMA} set up counts his tokens")
        s["voynich"]["tokens_on_board"] = whole(data["count"], "data.count", 0, rules.MAX_TOKENS)

    # --- words for the history panel ---------------------------------------------------------
    def describe(self, type_: str, data: Any, names: list[str]) -> str:
        everyone = seat_names(names)

        def who() -> str:
            i = data.get("player") if isinstance(data, dict) else None
            return everyone[i] if isinstance(i, int) and 0 <= i < len(everyone) else "?"

        d = data if isinstance(data, dict) else {}
        if type_ == "move":
            label = "GK" if d.get("marker") == "gk" else str(d.get("marker", "")).capitalize()
            return f"{who()}: {d.get('delta', 0):+d} {label}"
        if type_ == "exchange":
            extra = f", +{d['gk']} GK" if "gk" in d else (" (cell)" if "cell" in d else "")
            return f"{who()}: {d.get('type')} puzzle piece placed{extra}"
        if type_ == "end_turn":
            return "turn ended"
        if type_ == "study":
            return f"{who()}: studied {PAGE_NAMES[d['page']] if isinstance(d.get('page'), int) and 0 <= d['page'] < 10 else 'a page'}"
        if type_ == "page":
            page = d.get("page")
            name = PAGE_NAMES[page] if isinstance(page, int) and 0 <= page < len(PAGE_NAMES) else "a page"
            parts = [f"phase {d['phase']}" if "phase" in d else "", f"×{d['multiplier']}" if "multiplier" in d else "",
                     f"scores {d['chosen']}" if d.get("chosen") else ""]
            return f"{who()}: {name} " + (", ".join(p for p in parts if p) or "set")
        if type_ == "book":
            return f"{who()}: card numbers entered"
        if type_ == "research":
            return f"{who()}: research token" + (f" {d['gk']} GK" if "gk" in d else " (cell)")
        if type_ == "research_remove":
            return f"{who()}: research token removed"
        if type_ == "track":
            return "score track values entered"
        if type_ == "solo_setup":
            return f"{AUTOMA} set up ({str(d.get('difficulty', '')).replace('_', ' ')})"
        if type_ == "voynich_flip":
            return f"{AUTOMA} flips his card"
        if type_ == "voynich_reflip":
            return f"{AUTOMA}: no benefit, flips again"
        if type_ == "voynich_research":
            return f"{AUTOMA}: research action, +1 GK"
        if type_ == "voynich_tokens":
            return f"{AUTOMA}: {d.get('count')} tokens on the board"
        return super().describe(type_, data, names)

    # --- views -------------------------------------------------------------------------------
    def counter(self, state: dict, type_: str, data: dict) -> int | None:
        """A player's marker steppers: the knowledge tracks and GK."""
        player, marker = data.get("player"), data.get("marker")
        if type_ == "move" and isinstance(player, int) and 0 <= player < len(state["players"]):
            return state["players"][player]["markers"].get(marker)
        return None

    def view(self, state: dict, names: list[str], options: dict, profile: dict, seat: int | None, screen: str | None) -> dict:
        from .view import build_view

        return build_view(state, seat_names(names), options or {}, profile or {}, seat, screen)

    # --- box profiles ------------------------------------------------------------------------
    def validate_profile(self, data: Any) -> dict:
        return check_profile(data)


GAME = VoynichGame()
