"""The Voynich Puzzle's table: setup options, state, the events and what each one did.

Players are referred to by index in seat order (turns go round from `first`, order.py). At a one-player
table Voynich sits after the human (solo.py, which handles his turn's events). Each handler
validates `data` fully before changing `s` (a clone), so a refused event changes nothing.
"""

from __future__ import annotations

from typing import Any

from ..base import Context, EventLines, clone, describe_event, is_calculator
from ..turns import clockwise
from ..speech import N_, _, ngettext
from ..validation import RulesError, at, choice, listof, obj, whole
from . import calculator, functions, rules, solo
from .calculator import MARKER_LABELS, PAGE_NAMES
from .profile import CELL_GK_HI, check_track, effective_track
from .rules import KNOWLEDGE, MARKERS, SECTIONS
from .solo import AUTOMA, DIFFICULTY_NAMES, flip_due, seat_names, study_page, voynich_seat, voynich_turn_check

MAX_DELTA = 60

EVENTS = {
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
    "track": "{scoring_spaces?: {position: GK} | spaces?: {ROW: {position, gk}} (a form's numbered rows), insights?: "
             "[positions], end?}: enter the score track's printed values at the table (over the box profile's)",
    "positions": "{player, gk?, markers?: {botany?, astrology?, baths?, writings?}}: type where a player's markers "
                 "stand (as a move: insight symbols crossed give exchange tokens, GK at the end symbol triggers the end)",
    calculator.SHEET: "{player, gk, markers: {botany, astrology, baths, writings}, research?: [GK], pages: {botany: "
                      "[left ×, right ×], ..., recipes: [...]}, choices?: {left?: [type, type], right?: [type, type]}, "
                      "difficulty? and tokens_on_board? (Voynich)}: one player's end-of-game row; saved again, it "
                      "replaces the row (calculator) or sets the tracked values (end scoring)",
    "solo_setup": "{cards: {botany: [left, right], ...}, difficulty: easy|medium|hard|very_hard|extremely_hard}: "
                  "Voynich's book and deck; very hard and extremely hard pre-advance 4 pages [V371-377]",
    "voynich_flip": "{}: Voynich's turn: flip his deck (skipping the open spread, rebuilding when empty), "
                    "open the spread, study the odd (left) or even (right) page [V387-395]",
    "voynich_reflip": "{}: no benefit but from research: flip again, open the new page without studying [V407]",
    "voynich_research": "{}: Voynich's research action: +1 GK instead of placing research tokens [V382]",
    "voynich_tokens": "{count: 0-16}: Voynich's tokens on the board at the end (hard and above) [V494-495]",
}
OPTIONS = {
    "solo_tie": "solo only: \"strict\" (default; a tie is a loss, [V497]) or \"tie_break\" (a tie goes to the "
                "normal marker tie-break) (RULES.md VOY-C11)",
}


def validate_options(options: dict, player_count: int) -> dict:
    """Check the setup options: only the solo tie rule, at a one-player table."""
    obj(options, "$", optional=("solo_tie",))
    clean = {}
    if options.get("solo_tie") in ("", None):
        options = {k: v for k, v in options.items() if k != "solo_tie"}  # the form's "default" choice
    if "solo_tie" in options:
        if player_count != 1:
            raise RulesError("solo_tie", _("applies to a solo game (one player against Voynich) only"))
        clean["solo_tie"] = choice(options["solo_tie"], "solo_tie", rules.TIE_RULES)
    return clean


def initial_state(names: list[str], options: dict, profile: dict) -> dict:
    """Return a new table: every marker on 0, every page in its first phase, the first player's turn."""
    solo = len(names) == 1
    return {
        "solo": solo,
        "players": [new_player() for _ in seat_names(names)],
        "turn": 0,  # [V377] in solo "You are the first player"; else the first listed, till one is chosen
        "first": None, "draws": 0,  # who goes first, once chosen or drawn, and the draws so far (order.py)
        "round": 1,
        "end": None,  # {"trigger": index, "remaining": [indexes still to play after the current turn]}
        "over": False,
        "track": {},
        "voynich": None,
        # a calculator table's rows of end values, one per player (calculator.py); finished once all are in
        "sheets": [None] * len(seat_names(names)),
        "finished": False,
    }


def new_player() -> dict:
    """Return one player's (or Voynich's) pieces at setup."""
    return {
        "markers": {m: 0 for m in MARKERS},  # [V64] all five on the "0" mark
        "exchange": {k: 0 for k in KNOWLEDGE},
        # the insight symbols whose token each marker took, used or not: each gives it once [V170]
        "insights": {k: [] for k in KNOWLEDGE},
        "pages": [{"phase": rules.STARTING_PHASE} for _ in PAGE_NAMES],
        "research": [],
        "cards": None,
    }


def end_gk(track: dict) -> int:
    """[V80] the end-of-game symbol on the 52nd space, or the number the group confirmed (VOY-C12)."""
    return track.get("end", rules.END_GK)


def placed_gk(data: dict, profile: dict, missing: RulesError) -> int:
    """Return the GK of a puzzle space, typed (`gk`) or tapped (`cell` of the profile's grid);
    raise `missing` when the event gives neither."""
    if "cell" in data:
        return grid_gk(profile, data["cell"], "data.cell")
    if "gk" in data:
        return whole(data["gk"], "data.gk", 0, CELL_GK_HI)
    raise missing


def grid_gk(profile: dict, cell: Any, field: str) -> int:
    """Return the GK of a puzzle cell [row, column] from the profile's grid (B3)."""
    grid = profile.get("grid")
    if not grid:
        raise RulesError(field, _("the box profile has no puzzle grid: enter the GK instead"))
    pair = listof(cell, field, 2, 2)
    r = whole(pair[0], at(field, 0), 0, len(grid) - 1)
    c = whole(pair[1], at(field, 1), 0, len(grid[r]) - 1)
    if grid[r][c] is None:
        raise RulesError(field, _("that is not a puzzle space"))
    return grid[r][c]


def apply(state: dict, type_: str, data: Any, ctx: Context) -> dict:
    """Return the state after one event; raise RulesError for an invalid one."""
    handler = HANDLERS[type_]  # Game.apply refused unknown types
    if not isinstance(data, dict):
        raise RulesError("data", "must be an object")
    new = clone(state)
    handler(new, data, ctx)
    # `finished`: over and scorable, or every calculator row in; after every event, so that a
    # value entered after the end finishes the game and a correction can reopen it
    calculator.update_finished(new, ctx.names, ctx.options, ctx.profile)
    return new


def _player(s: dict, data: dict, human_only: bool = False) -> int:
    n = len(s["players"])
    i = whole(data.get("player"), "data.player", 0, n - 1)
    if human_only and i == voynich_seat(s):
        raise RulesError("data.player", _("%(automa)s has no research tokens (RULES.md VOY-C9)", automa=AUTOMA))
    return i


def _advance(s: dict, i: int, marker: str, delta: int, field: str, ctx: Context) -> None:
    """Move a marker, queue exchange tokens for insight symbols, trigger the end at 52."""
    player = s["players"][i]
    old = player["markers"][marker]
    new = old + delta
    if new < 0:
        raise RulesError(field, _("the %(marker)s marker is on %(old)s: it cannot go below 0", marker=_(KINDS[marker]), old=old))
    if new > rules.POS_HI:
        raise RulesError(field, _("must keep the marker at most %(hi)s", hi=rules.POS_HI))
    player["markers"][marker] = new
    track = effective_track(s, ctx.profile)
    if marker in KNOWLEDGE and "insights" in track:
        given = _insights_given(player, marker, old, track["insights"])
        if delta > 0:
            # [V170] each insight symbol reached or passed: one exchange token of that type,
            # once per symbol and marker (a correction back and forth does not give it again)
            got = rules.insights_reached(old, new, track["insights"], given)
            player["exchange"][marker] += len(got)
            given = sorted(given + got)
        else:
            # a correction back over a symbol takes back the token it gave, if still unused [V325]
            back = rules.insights_taken_back(old, new, track["insights"], given, player["exchange"][marker])
            player["exchange"][marker] -= len(back)
            given = [pos for pos in given if pos not in back]
        player.setdefault("insights", {})[marker] = given
    # [V174] GK crossing an insight does nothing
    if marker == "gk":
        _end_if_reached(s, i, track)


def _insights_given(player: dict, marker: str, position: int, insights: list[int]) -> list[int]:
    """The insight symbols whose token this marker took; a table stored before they were kept
    took one for every symbol up to the marker's position [V170]."""
    given = player.get("insights", {}).get(marker)
    return list(given) if given is not None else [pos for pos in insights if pos <= position]


def _end_if_reached(s: dict, i: int, track: dict) -> None:
    """Trigger the end when player i's GK marker is at the end-of-game symbol and it was not yet."""
    if s["players"][i]["markers"]["gk"] >= end_gk(track) and s["end"] is None:
        # [V354-356] finish the round, then one more turn each (RULES.md VOY-A11, VOY-C12)
        order = clockwise(s.get("first") or 0, len(s["players"]))  # the round counts from the first player [V55]
        s["end"] = {"trigger": s["turn"], "by": i, "remaining": rules.final_turns_order(order, order.index(s["turn"]))}


def _on_sheet(s: dict, data: dict, ctx: Context) -> None:
    """A player's row of end values (calculator.py); on a tracked table a GK at the end triggers it [V354]."""
    calculator.on_sheet(s, data, ctx)
    if not is_calculator(ctx.options):
        _end_if_reached(s, data["player"], effective_track(s, ctx.profile))


def _on_move(s: dict, data: dict, ctx: Context) -> None:
    obj(data, "data", required=("player", "marker", "delta"))
    i = _player(s, data)
    marker = choice(data["marker"], "data.marker", MARKERS)
    delta = whole(data["delta"], "data.delta", -MAX_DELTA, MAX_DELTA)
    if delta == 0:
        raise RulesError("data.delta", _("must be a whole number from -%(hi)s to %(hi)s, not 0", hi=MAX_DELTA))
    _advance(s, i, marker, delta, "data.delta", ctx)


def _on_exchange(s: dict, data: dict, ctx: Context) -> None:
    obj(data, "data", required=("player", "type"), optional=("gk", "cell"))
    i = _player(s, data)
    kind = choice(data["type"], "data.type", KNOWLEDGE)
    player = s["players"][i]
    if player["exchange"][kind] < 1:
        raise RulesError("data.type", _("no %(kind)s exchange token to use", kind=_(KINDS[kind])))
    gk = 0
    if i == voynich_seat(s):
        # [V424] for each piece placed, Voynich gains the GK of that space
        gk = placed_gk(data, ctx.profile, RulesError("data.gk", _("enter the GK of the space where %(automa)s's piece went", automa=AUTOMA)))
    elif "gk" in data or "cell" in data:
        raise RulesError("data.gk" if "gk" in data else "data.cell", _("only Voynich gains GK for placing a piece"))
    # [V325] each token is returned for one puzzle piece of the same type
    player["exchange"][kind] -= 1
    if gk:
        _advance(s, i, "gk", gk, "data.gk", ctx)


def _on_end_turn(s: dict, data: dict, ctx: Context) -> None:
    obj(data, "data")
    if s["over"]:
        raise RulesError("data", _("the game is over: see the end scoring"))
    if s["solo"] and s["voynich"] is None:
        raise RulesError("data", _("set up %(automa)s's book and deck first", automa=AUTOMA))
    current = s["players"][s["turn"]]
    if any(current["exchange"].values()):
        # [V121] [V325] exchange tokens must be used in the turn
        raise RulesError("data", _("place the puzzle pieces for the knowledge exchange tokens first"))
    if flip_due(s):
        raise RulesError("data", _("flip %(automa)s's card first", automa=AUTOMA))
    if s["turn"] == voynich_seat(s):
        s["voynich"]["turn"] = None  # his turn is done
    n = len(s["players"])
    if s["end"] is not None:
        if not s["end"]["remaining"]:
            s["over"] = True
            return
        s["turn"] = s["end"]["remaining"].pop(0)
    else:
        s["turn"] = (s["turn"] + 1) % n
    if s["turn"] == (s.get("first") or 0):
        s["round"] += 1


def _page(s: dict, data: dict) -> tuple[int, int]:
    i = _player(s, data)
    return i, whole(data.get("page"), "data.page", 0, len(PAGE_NAMES) - 1)


def _on_study(s: dict, data: dict, ctx: Context) -> None:
    obj(data, "data", required=("player", "page"))
    i, p = _page(s, data)
    if not study_page(s["players"][i]["pages"][p]):  # [V134] one phase on, up to the final phase
        raise RulesError("data.page", _("%(page)s is in its final phase: nothing more to study", page=_(PAGE_NAMES[p])))


def _on_page(s: dict, data: dict, ctx: Context) -> None:
    obj(data, "data", required=("player", "page"), optional=("phase", "multiplier", "choices", "chosen"))
    i, p = _page(s, data)
    if not any(k in data for k in ("phase", "multiplier", "choices", "chosen")):
        raise RulesError("data", _("give the page's phase, multiplier, types or chosen type"))
    page = dict(s["players"][i]["pages"][p])
    section = SECTIONS[p // 2]
    if "phase" in data:
        phase = whole(data["phase"], "data.phase", rules.STARTING_PHASE, rules.LAST_PHASE)
        if phase != page["phase"]:
            page.pop("multiplier", None)
        page["phase"] = phase
    if "multiplier" in data:
        m = functions.multiplier(data["multiplier"], "data.multiplier")
        if page["phase"] == rules.STARTING_PHASE and m != 0:
            raise RulesError("data.multiplier", _("the starting phase gives no points [V91]: 0"))
        page["multiplier"] = m
    if "choices" in data:
        if section != "recipes":
            raise RulesError("data.choices", _("only a Recipes page shows two knowledge types"))
        if data["choices"] == []:
            page.pop("choices", None)  # both type selects left empty: no types entered
        else:
            page["choices"] = functions.recipe_choices(data["choices"], "data.choices")
    if "chosen" in data:
        if section != "recipes":
            raise RulesError("data.chosen", _("only a Recipes page lets you choose the type it scores"))
        if data["chosen"] in (None, ""):
            page.pop("chosen", None)
        else:
            options = calculator.page_choices(page, s["players"][i], p, ctx.profile.get("cards", {}))
            if not options:
                raise RulesError("data.chosen", _("enter the page's two knowledge types first"))
            page["chosen"] = choice(data["chosen"], "data.chosen", options)
    elif page.get("chosen") and page.get("choices") and page["chosen"] not in page["choices"]:
        page.pop("chosen")  # new types entered: the old override no longer applies
    s["players"][i]["pages"][p] = page


def _on_book(s: dict, data: dict, ctx: Context) -> None:
    obj(data, "data", required=("player", "cards"))
    i = _player(s, data)
    if i == voynich_seat(s):
        raise RulesError("data.player", _("%(automa)s's book is entered with his solo setup", automa=AUTOMA))
    s["players"][i]["cards"] = rules.book(functions.check_cards(data["cards"], "data.cards"))  # [V58]


def _on_research(s: dict, data: dict, ctx: Context) -> None:
    obj(data, "data", required=("player",), optional=("gk", "cell"))
    i = _player(s, data, human_only=True)
    gk = placed_gk(data, ctx.profile, RulesError(
        "data.gk", "give the GK at the token's row and column as \"gk\", or its cell as \"cell\": [row, column]",
        said=_("enter the GK at the token's row and column, or tap its cell")))
    research = s["players"][i]["research"]
    if len(research) >= rules.MAX_RESEARCH:
        raise RulesError("data.gk", _("a player has %(num)s research tokens [V34]", num=rules.MAX_RESEARCH))
    research.append(gk)


def _on_research_remove(s: dict, data: dict, ctx: Context) -> None:
    obj(data, "data", required=("player", "index"))
    i = _player(s, data, human_only=True)
    research = s["players"][i]["research"]
    if not research:
        raise RulesError("data.index", _("no research token entered"))
    del research[whole(data["index"], "data.index", 0, len(research) - 1)]


def _on_track(s: dict, data: dict, ctx: Context) -> None:
    values = check_track(data, "data")
    if not values:
        raise RulesError("data", _("enter the scoring spaces, the insight positions or the end number"))
    s["track"].update(values)


def _on_positions(s: dict, data: dict, ctx: Context) -> None:
    obj(data, "data", required=("player",), optional=("gk", "markers"))
    i = _player(s, data)
    typed = {k: whole(v, at("data.markers", k), 0, rules.POS_HI)
             for k, v in obj(data.get("markers", {}), "data.markers", optional=KNOWLEDGE).items()}
    if "gk" in data:
        typed["gk"] = whole(data["gk"], "data.gk", 0, rules.POS_HI)
    moves = {k: v - s["players"][i]["markers"][k] for k, v in typed.items() if v != s["players"][i]["markers"][k]}
    if not moves:
        raise RulesError("data", _("type a new position for at least one marker"))
    for marker, delta in moves.items():
        # the same as a move by the difference: insight symbols [V170], the end trigger [V354-356]
        _advance(s, i, marker, delta, "data.gk" if marker == "gk" else at("data.markers", marker), ctx)


def _on_voynich_research(s: dict, data: dict, ctx: Context) -> None:
    voynich_turn_check(s, data, flipped=True)
    # [V382] a research action is exchanged for 1 GK (VOY-C7: 1 per icon)
    _advance(s, voynich_seat(s), "gk", rules.RESEARCH_GK, "data", ctx)


HANDLERS = {
    "move": _on_move,
    "exchange": _on_exchange,
    "end_turn": _on_end_turn,
    "study": _on_study,
    "page": _on_page,
    "book": _on_book,
    "research": _on_research,
    "research_remove": _on_research_remove,
    "track": _on_track,
    "positions": _on_positions,
    calculator.SHEET: _on_sheet,
    "solo_setup": solo.on_solo_setup,
    "voynich_flip": solo.on_voynich_flip,
    "voynich_reflip": solo.on_voynich_reflip,
    "voynich_research": _on_voynich_research,
    "voynich_tokens": solo.on_voynich_tokens,
}


# --- words for the history panel -------------------------------------------------------------

#: the knowledge types and markers as a sentence says them ("the botany marker", "scores botany")
KINDS = {"botany": N_("botany"), "astrology": N_("astrology"), "baths": N_("baths"), "writings": N_("writings"),
         "gk": N_("gk")}


def _page_name(page: Any) -> str:
    return _(PAGE_NAMES[page]) if isinstance(page, int) and 0 <= page < len(PAGE_NAMES) else _("a page")


def _kind(kind: Any) -> str:
    """A knowledge type as a line says it: its word, or a stored line's odd value as it is."""
    return _(KINDS[kind]) if kind in KINDS else str(kind)


def _page_line(d: dict, who: str) -> str:
    parts = [_("phase %(phase)s", phase=d["phase"]) if "phase" in d else "", f"×{d['multiplier']}" if "multiplier" in d else "",
             _("scores %(kind)s", kind=_kind(d["chosen"])) if d.get("chosen") else ""]
    # Translators: a page corrected with no value shown, as in "Ana: Botany left set"
    changes = ", ".join(p for p in parts if p) or _("set")
    return _("%(who)s: %(page)s %(changes)s", who=who, page=_page_name(d.get("page")), changes=changes)


def _marker(marker: Any) -> str:
    """A marker as a line names it: "GK", "Botany" (a stored line's odd value capitalised)."""
    return _(MARKER_LABELS[marker]) if marker in MARKER_LABELS else str(marker).capitalize()


LINES: EventLines = {
    "move": lambda d, who: _("%(who)s: %(delta)s %(marker)s", who=who, delta=format(d.get("delta", 0), "+d"),
                             marker=_marker(d.get("marker", ""))),
    "exchange": lambda d, who: (
        _("%(who)s: %(kind)s puzzle piece placed, +%(gk)s GK", who=who, kind=_kind(d.get("type")), gk=d["gk"]) if "gk" in d
        else _("%(who)s: %(kind)s puzzle piece placed (cell)", who=who, kind=_kind(d.get("type"))) if "cell" in d
        else _("%(who)s: %(kind)s puzzle piece placed", who=who, kind=_kind(d.get("type")))),
    "end_turn": lambda d, who: _("turn ended"),
    "study": lambda d, who: _("%(who)s: studied %(page)s", who=who, page=_page_name(d.get("page"))),
    "page": _page_line,
    "book": lambda d, who: _("%(who)s: card numbers entered", who=who),
    "research": lambda d, who: _("%(who)s: research token %(gk)s GK", who=who, gk=d["gk"]) if "gk" in d
    else _("%(who)s: research token (cell)", who=who),
    "research_remove": lambda d, who: _("%(who)s: research token removed", who=who),
    "track": lambda d, who: _("score track values entered"),
    "positions": lambda d, who: _("%(who)s: markers set to %(positions)s", who=who, positions=", ".join(
        f"{_marker(k)} {v}" for k, v in {**(d.get("markers") or {}), **({"gk": d["gk"]} if "gk" in d else {})}.items())),
    calculator.SHEET: calculator.line,
    "solo_setup": lambda d, who: _("%(automa)s set up (%(difficulty)s)", automa=AUTOMA, difficulty=_(
        DIFFICULTY_NAMES[d["difficulty"]]) if d.get("difficulty") in DIFFICULTY_NAMES else str(d.get("difficulty", "")).replace("_", " ")),
    "voynich_flip": lambda d, who: _("%(automa)s flips his card", automa=AUTOMA),
    "voynich_reflip": lambda d, who: _("%(automa)s: no benefit, flips again", automa=AUTOMA),
    "voynich_research": lambda d, who: _("%(automa)s: research action, +%(gk)s GK", automa=AUTOMA, gk=rules.RESEARCH_GK),
    # Translators: the English says "tokens" for one token too (as it always has); use the plural forms your language needs
    "voynich_tokens": lambda d, who: ngettext("%(automa)s: %(num)s tokens on the board", "%(automa)s: %(num)s tokens on the board",
                                              d["count"], automa=AUTOMA) if isinstance(d.get("count"), int)
    else _("%(automa)s: %(count)s tokens on the board", automa=AUTOMA, count=d.get("count")),
}


def describe(type_: str, data: Any, names: list[str]) -> str:
    """Say in plain words what an event did; at a solo table Voynich is named too."""
    return describe_event(LINES, type_, data, seat_names(names), nobody="?")
