"""Calculator mode and the end-scoring rows: each player's end values as ONE `sheet` event.

A table created with `"calculator": true` opens at final scoring: it needs no tracking before.
Each player's row (`sheet`) holds what the `score` rules function takes for that player at the
end ([V358-367]): the GK marker, the four knowledge markers, the research tokens' GK and the
multipliers of the ten pages in book order (with a scoring Recipes page's two types). Voynich's
row (a solo table) adds his difficulty and his tokens on the board ([V492-497]). Saving a row
again replaces it; the table is finished once every row is in and the score track's scoring
spaces are known (box profile or the `track` event). The totals always come from
functions.FUNCTIONS["score"]: through `final_result` for every result read (Game.final_result), and
through `tracked_doc` for the view's end screen.

A tracked table's `score` document is built here too (tracked_doc), from its markers, research
and pages: the table is finished once the game is over and nothing that document needs is missing
(update_finished, after every event).

On a tracked table the same row, saved from the end-scoring screen, sets that player's markers,
research and page multipliers in one go (one Save per player card).
"""

from __future__ import annotations

from typing import Any

from ..base import SHEET, Context, is_calculator
from ..speech import N_, _
from ..validation import RulesError, at, choice, listof, obj, whole
from . import functions, rules
from .profile import CELL_GK_HI, effective_track
from .rules import KNOWLEDGE, SECTIONS, SIDES
from .solo import AUTOMA, seat_names, voynich_seat

#: what a calculator table takes; Game.apply refuses any other event with this hint
CALCULATOR_EVENTS = (SHEET, "track")
CALCULATOR_HINT = N_("enter each player's row, and the score track's values if they are missing")
#: what a result's player keeps beyond name, total and breakdown: the solo game's outcome, won or lost [V497]
RESULT_EXTRAS = ("outcome",)
#: the solo outcome in words, where a page or the result image shows it (Game.extra_words)
EXTRA_WORDS = {"win": N_("Victory over Voynich"), "loss": N_("Defeat by Voynich")}
#: the breakdown's keys in words, as the archive's record names them (the English is what it always said)
BREAKDOWN = {"gk": N_("GK"), "research": N_("Research"), "pages": N_("Pages"), "tokens": N_("Tokens")}
#: the markers and sections as a page names them (translated where shown: speech._)
MARKER_LABELS = {"botany": N_("Botany"), "astrology": N_("Astrology"), "baths": N_("Baths"), "writings": N_("Writings"),
                 "gk": N_("GK")}
SECTION_LABELS = {**{k: MARKER_LABELS[k] for k in KNOWLEDGE}, "recipes": N_("Recipes")}
#: the ten pages in book order [V58], as the pages and messages name them (translated where shown: speech._)
PAGE_NAMES = [N_("Botany left"), N_("Botany right"), N_("Astrology left"), N_("Astrology right"), N_("Baths left"),
              N_("Baths right"), N_("Writings left"), N_("Writings right"), N_("Recipes left"), N_("Recipes right")]


def check_sheet(data: Any, players: int, automa: int | None) -> tuple[int, dict]:
    """Check one player's row of end values; return (seat, the clean row)."""
    if not isinstance(data, dict):
        raise RulesError("data", "must be an object")
    i = whole(data.get("player"), "data.player", 0, players - 1)
    voynich = i == automa
    optional = ("research",) if not voynich else ("difficulty", "tokens_on_board")
    obj(data, "data", required=("player", "gk", "markers", "pages"), optional=optional + ("choices",))
    row: dict[str, Any] = {"player": i, "gk": whole(data["gk"], "data.gk", 0, rules.POS_HI)}
    row["markers"] = functions._marker_positions(data["markers"], "data.markers")
    # [V360] the GK printed at each research token's row and column, at most 6 tokens [V34]
    research = listof(data.get("research", []), "data.research", 0, rules.MAX_RESEARCH)
    row["research"] = [whole(v, at("data.research", k), 0, CELL_GK_HI) for k, v in enumerate(research)]
    obj(data["pages"], "data.pages", required=SECTIONS)
    pages = {}
    for section in SECTIONS:
        path = at("data.pages", section)
        pair = data["pages"][section]
        if not isinstance(pair, list) or len(pair) != 2:
            raise RulesError(path, _("give both pages' multipliers, left then right (0 for a page in its starting phase)"))
        pages[section] = [functions.multiplier(m, at(path, k)) for k, m in enumerate(pair)]
    row["pages"] = pages
    # [V363] a Recipes page shows two knowledge types; the better one scores (VOY-A15)
    choices = obj(data.get("choices", {}), "data.choices", optional=SIDES)
    row["choices"] = {}
    for k, side in enumerate(SIDES):
        given = choices.get(side) or []
        if given:
            row["choices"][side] = functions.recipe_choices(given, at("data.choices", side))
        elif pages["recipes"][k]:
            raise RulesError(at("data.choices", side), _("a scoring %(page)s page: give the two knowledge types it shows",
                                                            page=_(PAGE_NAMES[len(PAGE_NAMES) - len(SIDES) + k])))
    if voynich:
        if "difficulty" in data:
            row["difficulty"] = choice(data["difficulty"], "data.difficulty", rules.DIFFICULTIES)
        if data.get("tokens_on_board") is not None:
            row["tokens_on_board"] = whole(data["tokens_on_board"], "data.tokens_on_board", 0, rules.MAX_TOKENS)
    return i, row


def score_pages(row: dict) -> list[dict]:
    """The row's pages as the `score` document takes them (a Recipes page at ×0 without types left out)."""
    out = []
    for section in SECTIONS:
        for k, side in enumerate(SIDES):
            page = {"section": section, "multiplier": row["pages"][section][k]}
            if section == "recipes":
                if side not in row["choices"]:
                    continue  # ×0 and no types given: it scores nothing either way [V91]
                page["choices"] = row["choices"][side]
            out.append(page)
    return out


def spaces_known(s: dict, profile: dict) -> bool:
    """Whether the score track's scoring spaces are entered (the table's, or the box profile's)."""
    return bool(effective_track(s, profile).get("scoring_spaces"))


def update_finished(s: dict, names: tuple[str, ...] | list[str], options: dict, profile: dict) -> None:
    """Keep `finished` true exactly while the game is over and its `score` can be computed.

    A calculator table: every row is in and the scoring spaces are known. A tracked table: the
    game is over ([V356]: the last of the final turns ended) and nothing the score needs is
    missing (tracked_doc); a value entered after the end (the scoring spaces, a multiplier)
    finishes it then. Table.apply calls this after every event, so an undo (the events folded
    again) and any later correction keep it right.
    """
    if is_calculator(options):
        s["finished"] = all(r is not None for r in s["sheets"]) and spaces_known(s, profile)
    else:
        s["finished"] = bool(s["over"]) and not tracked_doc(s, names, options, profile)[1]


def on_sheet(s: dict, data: dict, ctx: Context) -> None:
    """Record (calculator) or apply (tracked table) one player's row of end values."""
    automa = voynich_seat(s)
    i, row = check_sheet(data, len(s["players"]), automa)
    if is_calculator(ctx.options):
        if i == automa:
            if "difficulty" not in row:
                raise RulesError("data.difficulty", _("choose the difficulty %(automa)s played at", automa=AUTOMA))
            if rules.counts_tokens(row["difficulty"]) and "tokens_on_board" not in row:
                # [V494-495] hard and above: Voynich's tokens on the board count at the end
                raise RulesError("data.tokens_on_board", _("count %(automa)s's tokens on the board (hard and above)", automa=AUTOMA))
        s["sheets"][i] = row
        return
    player = s["players"][i]
    for k, section in enumerate(p for p in SECTIONS for _ in SIDES):
        m = row["pages"][section][k % 2]
        if m and player["pages"][k]["phase"] == rules.STARTING_PHASE:
            raise RulesError(at(at("data.pages", section), k % 2),
                             _("%(page)s is in its starting phase: it scores ×0 (study it first)", page=_(PAGE_NAMES[k])))  # [V91]
    if i == automa:
        if "difficulty" in row:
            raise RulesError("data.difficulty", _("%(automa)s's difficulty is set with his solo setup", automa=AUTOMA))
        if "tokens_on_board" in row and s["voynich"] is not None:
            s["voynich"]["tokens_on_board"] = row["tokens_on_board"]
    # the end values replace the tracked ones; no insight symbols or end trigger at the end
    player["markers"] = dict(row["markers"], gk=row["gk"])
    player["research"] = row["research"]
    for k, section in enumerate(p for p in SECTIONS for _ in SIDES):
        page = player["pages"][k]
        if page["phase"] != rules.STARTING_PHASE:
            page["multiplier"] = row["pages"][section][k % 2]
        if section == "recipes" and SIDES[k % 2] in row["choices"]:
            page["choices"] = row["choices"][SIDES[k % 2]]
            if page.get("chosen") not in page["choices"]:
                page.pop("chosen", None)


def line(d: dict, who: str) -> str:
    """The history line of a row."""
    return _("%(who)s: end-of-game row entered (GK %(gk)s)", who=who, gk=d.get("gk", "?"))


# --- the result, through the `score` rules function ------------------------------------------

#: the solo difficulty counted until Voynich's setup is entered: medium changes nothing at scoring [V493]
NO_DIFFICULTY = "medium"
#: the score track counted until its scoring spaces are entered: every marker scores 0 [V361]
NO_SPACES = {"0": 0}


def catalogue_card(player: dict, index: int, catalogue: dict) -> tuple[int | None, dict | None]:
    """Return the card number on a page of a player's book, and the box profile's entry for it (B4, B5)."""
    card = player["cards"][index] if player.get("cards") else None
    return card, (catalogue.get(str(card)) if card is not None else None)


def page_choices(page: dict, player: dict, index: int, catalogue: dict) -> list[str] | None:
    """Return a Recipes page's two knowledge types [V363]: as entered, else its card's in the catalogue."""
    return page.get("choices") or (catalogue_card(player, index, catalogue)[1] or {}).get("choices")


def resolve_page(player: dict, index: int, catalogue: dict) -> dict:
    """Return a page's scoring data: section, phase, multiplier (None if unknown), choices, chosen."""
    page = player["pages"][index]
    section = SECTIONS[index // 2]
    card, info = catalogue_card(player, index, catalogue)
    out = {"section": section, "phase": page["phase"], "card": card, "chosen": page.get("chosen")}
    if page["phase"] == rules.STARTING_PHASE:
        out["multiplier"] = 0  # [V91] the starting phase gives no points
    elif page.get("multiplier") is not None:
        out["multiplier"] = page["multiplier"]
    elif info is not None:
        out["multiplier"] = info["multipliers"][page["phase"] - 2]
    else:
        out["multiplier"] = None
    out["choices"] = page_choices(page, player, index, catalogue)
    out["from_catalogue"] = info is not None and page.get("multiplier") is None
    return out


def tracked_doc(state: dict, names: list[str] | tuple[str, ...], options: dict, profile: dict) -> tuple[dict, list[str]]:
    """Return the `score` document of a tracked table and what it still lacks, in the players' words.

    Each missing value counts as 0 in the document (the end screen shows the scores so, with the
    list); the game is finished, and final_result scores it, only once the list is empty. A
    Recipes page without its two types scores nothing and is left out of the document.
    """
    everyone = seat_names(names)
    track = effective_track(state, profile)
    catalogue = profile.get("cards", {})
    missing: list[str] = []
    if not track.get("scoring_spaces"):
        missing.append(_("the score track's scoring spaces (box profile, or enter them at the table)"))
    players = []
    for i, p in enumerate(state["players"]):
        pages = []
        for k in range(len(p["pages"])):
            page = resolve_page(p, k, catalogue)
            m = page["multiplier"]
            if m is None:
                missing.append(_("%(name)s: the multiplier of %(page)s (phase %(phase)s)", name=everyone[i],
                                 page=_(PAGE_NAMES[k]), phase=page["phase"]))
                m = 0
            entry: dict[str, Any] = {"section": page["section"], "multiplier": m}
            if page["section"] == "recipes":
                if not page["choices"]:
                    if m:
                        missing.append(_("%(name)s: the two knowledge types of %(page)s", name=everyone[i], page=_(PAGE_NAMES[k])))
                    continue  # [V363] no types known: it scores nothing until they are entered
                entry["choices"] = page["choices"]
                if page["chosen"]:
                    entry["chosen"] = page["chosen"]
            pages.append(entry)
        players.append({"name": everyone[i], "gk": p["markers"]["gk"],
                        "markers": {k: p["markers"][k] for k in KNOWLEDGE},
                        "research": list(p["research"]), "pages": pages})
    doc: dict[str, Any] = {"track": {"scoring_spaces": dict(track.get("scoring_spaces") or NO_SPACES)},
                           "players": players}
    automa = voynich_seat(state)
    if automa is not None:
        v = state["voynich"]
        if v is None:
            missing.append(_("%(automa)s's setup (his cards and the difficulty)", automa=AUTOMA))
        elif rules.counts_tokens(v["difficulty"]) and v["tokens_on_board"] is None:
            missing.append(_("the number of %(automa)s's tokens on the board", automa=AUTOMA))  # [V494-495]
        doc["solo"] = solo_doc(v["difficulty"] if v else NO_DIFFICULTY, everyone[automa],
                               (v or {}).get("tokens_on_board") or 0, options)
    return doc, missing


def solo_doc(difficulty: str, automa: str, tokens_on_board: int, options: dict) -> dict:
    """The `score` document's `solo`: Voynich's difficulty and tokens, and the table's tie rule (VOY-C11)."""
    return {"difficulty": difficulty, "automa": automa, "tokens_on_board": tokens_on_board,
            "tie_rule": options.get("solo_tie", rules.TIE_RULES[0])}


def score_doc(state: dict, names: list[str], options: dict, track: dict) -> dict | None:
    """The `score` document of a calculator table, or None while a row or the scoring spaces are missing."""
    everyone = seat_names(names)
    if not track.get("scoring_spaces") or any(r is None for r in state["sheets"]):
        return None
    players = [{"name": everyone[i], "gk": r["gk"], "markers": r["markers"], "research": r["research"],
                "pages": score_pages(r)} for i, r in enumerate(state["sheets"])]
    doc: dict[str, Any] = {"track": {"scoring_spaces": track["scoring_spaces"]}, "players": players}
    automa = voynich_seat(state)
    if automa is not None:
        v = state["sheets"][automa]
        doc["solo"] = solo_doc(v["difficulty"], everyone[automa], v.get("tokens_on_board", 0), options)
    return doc


def result(state: dict, names: list[str], options: dict, track: dict) -> dict | None:
    """Return the calculator's final scores from functions.FUNCTIONS["score"], as the end screen shows them."""
    doc = score_doc(state, names, options, track)
    if doc is None:
        return None
    return decorate(functions.FUNCTIONS["score"].run(doc))


def tie(result: dict) -> tuple[int, list[str], list[str]]:
    """Return a `score` result's top total, the names on it, and those of them the tie-break favours [V367].

    In solo the winners follow [V497]; `tie_break_winners` keeps the markers' say (D1 end scoring 6).
    """
    top = max(r["total"] for r in result["players"])
    tied = [r["name"] for r in result["players"] if r["total"] == top]
    favoured = [w for w in result.get("tie_break_winners", result["winners"]) if w in tied]
    return top, tied, favoured


def decorate(out: dict) -> dict:
    """Add to a `score` result what the end screen shows besides: the tie on the top total, the solo outcome."""
    top, tied, favoured = tie(out)
    out["tie_break"] = None
    if len(tied) > 1:
        # [V367] the furthest knowledge marker, then the second furthest, ...; else shared
        out["tie_break"] = {"total": top, "winners": favoured,
                            "players": [{"name": r["name"], "markers": r["tie_break"]} for r in out["players"] if r["name"] in tied]}
    outcome = [r["outcome"] for r in out["players"] if "outcome" in r]  # [V497] the human's, in solo
    if outcome:
        out["outcome"] = outcome[0]
    return out


def final_result(state: dict, names: list[str], options: dict, profile: dict) -> dict | None:
    """Return exactly what functions.FUNCTIONS["score"] gives for the table's final values; None until finished.

    What every result of a finished table is read through, calculator or tracked (Game.final_result). The score
    document's players are the table's seats in order (solo.seat_names): at a one-player table
    Voynich is the second, a scored player that `solo.automa` names (CONTRACT.md voynich `score`).
    """
    if not state.get("finished"):
        return None
    if is_calculator(options):
        doc = score_doc(state, names, options, effective_track(state, profile))
    else:
        doc, missing = tracked_doc(state, names, options, profile)
        if missing:  # never while finished (update_finished): nothing is guessed
            return None
    return None if doc is None else functions.FUNCTIONS["score"].run(doc)
