"""What templates/voynich/panel.html shows, computed with the rules (plain Python, no Flask)."""

from __future__ import annotations

from collections.abc import Mapping
from functools import partial
from typing import Any

from .. import sentence
from ..base import is_calculator
from ..speech import N_, _, ngettext
from ..sentence import Sentence
from ..words import ordinal, standing
from . import calculator, rules
from .calculator import MARKER_LABELS, NO_DIFFICULTY, PAGE_NAMES, SECTION_LABELS, resolve_page
from .functions import FUNCTIONS
from .profile import form as box_form
from .profile import CELL_GK_HI, INSIGHT_FIELDS, SOLO_PARTS, SPACE_FIELDS, SPACE_ROWS, effective_track, padded
from .rules import KNOWLEDGE, MARKERS, SECTIONS, SIDES
from .solo import difficulty_labels, flip_due, seat_names, side_said, solo_setup, tokens_hint, voynich_seat, voynich_view
from .table import end_gk

#: the +N button beside each marker's stepper: a common move in one tap (a convenience, no rule)
QUICK_STEP = 3
def labels(words: dict) -> dict:
    """A table of marked words (N_) in the language spoken: built at use, never kept."""
    return {k: _(v) for k, v in words.items()}


def multipliers_said() -> str:
    """[V361] [V91] the multipliers a page shows, as the row's form says them."""
    return _("%(multipliers)s or ×%(last)s shown; %(zero)s in the starting phase",
             multipliers=", ".join(f"×{m}" for m in rules.MULTIPLIERS[1:-1]), last=rules.MULTIPLIERS[-1],
             zero=rules.MULTIPLIERS[0])


#: what the end screen counts a value not yet entered as (calculator.tracked_doc)
MISSING_SAID, MISSING_SHOWN = N_("counted as 0 until then"), 8


#: what the running score is, for the archive's chart (Game.running_label)
RUNNING_LABEL = N_("GK on the track")

class Labels(Mapping):
    """LABELS: each fixed label marked (N_, translated where wording.py shows it), and the families of the
    numbered fields ("the 5th scoring space's GK"), whose own words are filled in the language spoken at
    lookup, never at import; {who} and {nth} stay for wording.py."""

    def __init__(self, fixed: dict, families: dict):
        self.fixed, self.families = fixed, families

    def __getitem__(self, key: str) -> str:
        if key in self.fixed:
            return self.fixed[key]
        pattern, fill = self.families[key]
        return _(pattern, **{k: _(v) if isinstance(v, str) else v() if callable(v) else v for k, v in fill.items()})

    def __iter__(self):
        return iter({**self.fixed, **self.families})

    def __len__(self) -> int:
        return len({**self.fixed, **self.families})


#: how a page names a refused field (companion/wording.py)
LABELS = Labels({
    "move.delta": N_("{who}'s marker move"),
    "delta": N_("{who}'s change"),
    "player": N_("the player"),
    "marker": N_("the marker"),
    "gk": N_("{who}'s GK"),
    "research.gk": N_("{who}'s research token GK"),
    "exchange.gk": N_("the GK of the puzzle space"),
    "cell": N_("the puzzle space"),
    "cell[]": N_("the puzzle space"),
    "type": N_("the knowledge type"),
    "page": N_("the page"),
    "phase": N_("the page's phase"),
    "multiplier": N_("the page's multiplier"),
    "choices": N_("the Recipes page's two types"),
    "choices[]": N_("the Recipes page's {nth} type"),
    "chosen": N_("the type the Recipes page scores"),
    "index": N_("the research token"),
    "count": N_("Voynich's tokens on the board"),
    "cards": N_("the card numbers"),
    "difficulty": N_("Voynich's difficulty"),
    "solo_tie": N_("the solo tie rule"),
    "markers": N_("{who}'s markers"),
    "sheet.research": N_("{who}'s research tokens"),
    "sheet.research[]": N_("{who}'s {nth} research token"),
    "sheet.pages": N_("{who}'s pages"),
    "sheet.choices": N_("{who}'s Recipes types"),
    "tokens_on_board": N_("Voynich's tokens on the board"),
    # the score track: the table's `track` event and the box profile's `track`
    **{f"{pre}{k}": said for pre in ("", "track.") for k, said in (
        ("scoring_spaces", N_("the scoring spaces")), ("spaces", N_("the scoring spaces")),
        ("insights", N_("the insight positions")), ("insights[]", N_("the {nth} insight position")),
        ("end", N_("the number at the end-of-game symbol")))},
    "grid": N_("the puzzle grid"),
    "grid[]": N_("the puzzle grid's {nth} row"),
    "grid[][]": N_("the puzzle grid's cell"),
    "grid_cells": N_("the puzzle grid"),
    "solo_spaces": N_("the solo board's numbered spaces"),
}, {
    **{f"cards.{sec}": (N_("the %(section)s card numbers"), {"section": SECTION_LABELS[sec]}) for sec in SECTIONS},
    **{f"cards.{sec}[]": (N_("the %(section)s {nth} card number"), {"section": SECTION_LABELS[sec]}) for sec in SECTIONS},
    **{f"markers.{k}": (N_("{who}'s %(marker)s marker"), {"marker": MARKER_LABELS[k]}) for k in KNOWLEDGE},
    **{f"sheet.pages.{sec}": (N_("{who}'s %(section)s pages"), {"section": SECTION_LABELS[sec]}) for sec in SECTIONS},
    **{f"sheet.pages.{sec}[]": (N_("{who}'s %(section)s {nth} page multiplier"), {"section": SECTION_LABELS[sec]})
       for sec in SECTIONS},
    # the card's fields say "Left ×" and "Right ×": the message says the same
    **{f"sheet.pages.{sec}[{k}]": (N_("{who}'s %(page)s ×"), {"page": PAGE_NAMES[len(SIDES) * n + k]})
       for n, sec in enumerate(SECTIONS) for k in range(len(SIDES))},
    **{f"sheet.choices.{side}{end}": (N_("{who}'s %(page)s types"), {"page": PAGE_NAMES[-len(SIDES) + k]})
       for k, side in enumerate(SIDES) for end in ("", "[]")},
    # the form's numbered rows (profile.spaces_from_rows), on the table and in the box profile
    **{f"{pre}spaces.{k}.{part}": (said, {"row": partial(ordinal, k + 1)}) for pre in ("", "track.") for k in range(SPACE_ROWS)
       for part, said in (("position", N_("the %(row)s scoring space's position")), ("gk", N_("the %(row)s scoring space's GK")))},
    **{f"solo_spaces.{part}": (N_("the solo board's %(part)s"), {"part": label}) for part, label in SOLO_PARTS.items()},
    **{f"solo_spaces.{part}[]": (N_("the solo board's %(part)s: the {nth} number"), {"part": label})
       for part, label in SOLO_PARTS.items()},
    **{f"cards.{n}{path}": (said, {"card": n}) for n in range(rules.CARD_LO, rules.CARD_HI + 1) for path, said in (
        ("", N_("card %(card)s")), (".section", N_("card %(card)s's section")), (".multipliers", N_("card %(card)s's multipliers")),
        (".multipliers[]", N_("card %(card)s's multiplier")), (".choices", N_("card %(card)s's Recipes types")),
        (".choices[]", N_("card %(card)s's Recipes types")))},
})


def view(state: dict, names: list[str], options: dict, profile: dict, screen: str | None) -> dict:
    """Return what templates/voynich/panel.html needs beyond the state (Voynich named at a solo table)."""
    return build_view(state, seat_names(names), options, profile, screen)


#: the screens a page may ask for beside the main one (None)
SCREENS = ("end", "track", "book")


def screen_of(screen: str | None, n: int) -> str | None:
    """Return the screen build_view shows for `screen`: one of SCREENS, else None (the main one)."""
    return screen if screen in SCREENS else None


def counter(state: dict, type_: str, data: dict) -> int | None:
    """A player's marker steppers: the knowledge tracks and GK."""
    player, marker = data.get("player"), data.get("marker")
    if type_ == "move" and isinstance(player, int) and 0 <= player < len(state["players"]):
        return state["players"][player]["markers"].get(marker)
    return None


def track_said(state: dict, spaces: dict) -> str:
    """The score track's scoring spaces in a word, once known: the summary the saved form closes to."""
    if not spaces:
        return _("Score track values")
    if state["track"].get("scoring_spaces"):
        return ngettext("Score track saved: %(num)d space", "Score track saved: %(num)d spaces", len(spaces))
    return ngettext("Score track: %(num)d space from the box profile", "Score track: %(num)d spaces from the box profile",
                    len(spaces))


def build_view(state: dict, everyone: list[str], options: dict, profile: dict, screen: str | None) -> dict:
    """Return the panel's context: players with their pages and scores, the end, Voynich's turn."""
    track = effective_track(state, profile)
    spaces = {int(k): v for k, v in track.get("scoring_spaces", {}).items()}
    catalogue = profile.get("cards", {})
    solo = state["solo"]
    automa = voynich_seat(state)
    v = state.get("voynich")
    players = []
    for i, p in enumerate(state["players"]):
        pages = [dict(resolve_page(p, k, catalogue), index=k, name=_(name),
                      can_study=rules.next_phase(p["pages"][k]["phase"]) is not None)  # [V134] up to the final phase
                 for k, name in enumerate(PAGE_NAMES)]
        exchange = {k: n for k, n in p["exchange"].items() if n}
        # his pieces follow the study condition of the card just flipped (VOY-C4)
        card = v["turn"]["card"] if i == automa and v and v["turn"] else None
        players.append({
            "index": i, "name": everyone[i], "automa": i == automa, "first": i == 0,
            "markers": [{"key": m, "label": _(MARKER_LABELS[m]), "value": p["markers"][m],
                         "field": "data.gk" if m == "gk" else f"data.markers.{m}"} for m in MARKERS],  # `positions`
            "positions": dict(p["markers"]),
            "exchange": exchange, "exchange_said": exchange_said(exchange, card),
            "pages": pages, "research": p["research"], "cards": p["cards"],
        })
    result = score_table(state, players, everyone, options, profile)
    out: dict[str, Any] = {
        "players": players,
        # on Voynich's turn his markers come right after his turn card
        "shown": players[::-1] if solo and state["turn"] == automa else players,
        "turn": state["turn"], "turn_name": everyone[state["turn"]], "round": state["round"],
        "can_end_turn": not flip_due(state),
        "track": track, "has_spaces": bool(spaces), "has_insights": "insights" in track,
        "track_rows": padded(list(track.get("scoring_spaces", {}).items()), *SPACE_FIELDS, (None, None)),
        "insight_fields": padded(track.get("insights", []), *INSIGHT_FIELDS),
        "end_gk": end_gk(track), "grid": profile.get("grid"), "has_catalogue": bool(catalogue),
        "track_said": track_said(state, spaces),
        "result": result,
        "knowledge": KNOWLEDGE, "sections": SECTIONS, "sides": SIDES, "difficulties": rules.DIFFICULTIES,
        "difficulty_labels": difficulty_labels(), "marker_labels": labels(MARKER_LABELS), "default_difficulty": NO_DIFFICULTY,
        "solo": solo, "automa": automa, "solo_setup": solo_setup(),
        "setup_cards": [{"section": sec, "pages": [_(PAGE_NAMES[len(SIDES) * n + k]) for k in range(len(SIDES))]}
                        for n, sec in enumerate(SECTIONS)], "card_lo": rules.CARD_LO, "card_hi": rules.CARD_HI,
        "screen": screen_of(screen, len(everyone)),
        "calculator": is_calculator(options),
        "rows": [sheet_row(state, p, i, options) for i, p in enumerate(players)],
        "quick_step": QUICK_STEP, "cell_gk_hi": CELL_GK_HI, "multipliers_said": multipliers_said(),
        "tokens_hint": tokens_hint(), "recipes_legends": {side: _("Recipes %(side)s: tick its two types", side=side_said(side))
                                                          for side in SIDES},
    }
    out["calc"] = calculator.result(state, everyone, options, track) if out["calculator"] else None
    if out["calc"]:
        out["calc"]["words"] = end_words(out["calc"])
        out["calc"]["ranked"] = ranked(out["calc"])
    scored = out["calc"] if out["calculator"] else result
    for i, row in enumerate(out["rows"]):
        row["score"] = scored["players"][i] if scored else None
    out["rows_in"] = sum(row["in"] for row in out["rows"])
    out["scoreboard"] = scoreboard(state, out, everyone)
    end = state["end"]
    if end is not None:
        out["end"] = {
            "trigger": everyone[end["trigger"]], "by": everyone[end["by"]],
            "remaining": [everyone[i] for i in end["remaining"]], "over": state["over"],
        }
    else:
        out["end"] = None
    if solo and v is not None:
        out["voynich"] = voynich_view(v, profile, players[automa], state["round"], labels(SECTION_LABELS))
    else:
        out["voynich"] = None
    return out


def sheet_row(state: dict, p: dict, i: int, options: dict) -> dict:
    """What one player's end-scoring form shows: the saved row (calculator), or the tracked values;
    a field without a value shows 0."""
    if is_calculator(options):
        row = state["sheets"][i] or {"gk": 0, "markers": dict.fromkeys(KNOWLEDGE, 0), "research": [],
                                     "pages": {s: [0, 0] for s in SECTIONS}, "choices": {}}
        return {"in": state["sheets"][i] is not None, "gk": row["gk"], "markers": row["markers"],
                "research": padded(row["research"], 0, rules.MAX_RESEARCH),
                "spreads": spreads([m for sec in SECTIONS for m in row["pages"][sec]], None),
                "choices": row["choices"], "difficulty": row.get("difficulty", NO_DIFFICULTY),
                "tokens_on_board": row.get("tokens_on_board")}
    v = state.get("voynich") or {}
    return {"in": False, "gk": p["positions"]["gk"], "markers": {k: p["positions"][k] for k in KNOWLEDGE},
            "research": padded(p["research"], 0, rules.MAX_RESEARCH),  # [V34] at most 6 tokens
            "spreads": spreads([pg["multiplier"] for pg in p["pages"]], [pg["phase"] for pg in p["pages"]]),
            "choices": {side: pg["choices"] for side, pg in zip(SIDES, p["pages"][-2:]) if pg["choices"]},
            "difficulty": None, "tokens_on_board": v.get("tokens_on_board")}


def spreads(multipliers: list, phases: list | None) -> list[dict]:
    """A row's page fields by spread, left page then right [V58]; a tracked page in its starting phase is
    fixed at the ×0 it scores [V91], a page whose multiplier is unknown shows 0."""
    sides = {"left": _("Left ×"), "right": _("Right ×")}
    return [{"section": section, "label": _(SECTION_LABELS[section]), "pages": [
        {"k": k, "side": side_said(side), "label": sides[side], "value": multipliers[k] or 0,
         "phase": phases[k] if phases else None, "fixed": bool(phases) and phases[k] == rules.STARTING_PHASE}
        for k, side in ((len(SIDES) * n + j, side) for j, side in enumerate(SIDES))]}
        for n, section in enumerate(SECTIONS)]


def exchange_said(exchange: dict, card: int | None) -> str:
    """The puzzle pieces a player's exchange tokens ask for [V325] ("1 Botany, 2 Baths puzzle pieces"),
    Voynich's with the card whose study condition they follow."""
    pieces = ngettext("%(kinds)s puzzle piece", "%(kinds)s puzzle pieces", sum(exchange.values()),
                      kinds=", ".join(f"{n} {_(MARKER_LABELS[k])}" for k, n in exchange.items()))
    if not card:
        return pieces
    # [V411-424] how his puzzle pieces are placed: the card just flipped's condition (VOY-C4, C5; D1 step 6)
    return _("%(pieces)s, following the study condition on card %(card)s if possible (group: next to a same-colour "
             "group of at least X; edge: an edge or a corner; circle: part of a circle; ≠: touching 3 colours; else "
             "anywhere legal)", pieces=pieces, card=card)


def scoreboard(state: dict, out: dict, everyone: list[str]) -> list[dict]:
    """The compact scoreboard at the top of the table page: totals once known, else GK or the row's state."""
    rows = []
    if out["calculator"]:
        calc = out["calc"]
        for i, name in enumerate(everyone):
            total = calc["players"][i]["total"] if calc else None
            status = standing(calc["places"][name], name in calc["winners"]) if calc else (
                _("row in") if state["sheets"][i] is not None else _("waiting"))
            rows.append({"seat": i, "name": name, "score": None if total is None else str(total), "status": status, "turn": False})
        return rows
    over = bool(state["over"])
    result = out["result"]
    for i, name in enumerate(everyone):
        score = result["players"][i]["total"] if over else _("GK %(gk)s", gk=state["players"][i]["markers"]["gk"])
        status = standing(result["places"][name], name in result["winners"]) if over else None
        rows.append({"seat": i, "name": name, "score": str(score), "status": status,
                     "turn": not over and state["turn"] == i})
    return rows


def score_table(state: dict, players: list[dict], everyone: list[str], options: dict, profile: dict) -> dict:
    """Score everyone from the table's entries with the `score` rules function; say what is missing instead of guessing.

    The document is calculator.tracked_doc's, each missing value counted as 0 until it is entered.
    """
    doc, missing = calculator.tracked_doc(state, everyone, options, profile)
    out = calculator.decorate(FUNCTIONS["score"].run(doc))
    for r, p in zip(out["players"], players):
        # one detail per page of the book again: the document leaves out a Recipes page without its types
        scored = iter(r["pages_detail"])
        r["pages_detail"] = [
            dict({"section": "recipes", "points": 0} if page["section"] == "recipes" and not page["choices"] else next(scored),
                 name=page["name"], multiplier=page["multiplier"], phase=page["phase"])
            for page in p["pages"]]
    # "Anna: the multiplier of ...": the names marked for the page's <bdi> (sentence.naming)
    out["missing"], out["complete"] = [sentence.naming(m, everyone) for m in missing], not missing
    out["missing_shown"], out["missing_more"] = out["missing"][:MISSING_SHOWN], max(0, len(missing) - MISSING_SHOWN)
    out["missing_said"] = _(MISSING_SAID)
    out["words"] = end_words(out)
    out["ranked"] = ranked(out)
    return out


def ranked(result: dict) -> list[dict]:
    """Return a `score` result's players by place, best first, each with its seat (the result keeps
    the seats' order); a shared place keeps the seats' order, as Galileo's and Codex's results do."""
    seated = [dict(r, seat=i) for i, r in enumerate(result["players"])]
    return sorted(seated, key=lambda r: result["places"][r["name"]])


# --- who won, in words: the end screen and the verdict say it alike [V365-367] [V497] ---------------

#: [V367] the rulebook's tie-break, as the end screen and the verdict name it, with the marker that decided: "the
#: furthest knowledge marker ... then the second furthest, and so on"
TIE_BREAKS = (N_("the tie-break (the furthest knowledge marker)"), N_("the tie-break (the second furthest knowledge marker)"),
              N_("the tie-break (the third furthest knowledge marker)"),
              N_("the tie-break (the fourth furthest knowledge marker)"))


def _solo_sides(result: dict) -> tuple[dict, dict] | None:
    """Return the solo player's result and Voynich's from a `score` result (the player's carries the outcome)."""
    player = next((r for r in result["players"] if "outcome" in r), None)
    if player is None:
        return None
    return player, next(r for r in result["players"] if r is not player)


def tie_break(result: dict) -> str:
    """Name the tie-break with the marker that decided it [V367]: the furthest, or the second, third or
    fourth furthest where the ones before were equal; the last comparison the favoured player needed."""
    _top, tied, favoured = calculator.tie(result)
    markers = {r["name"]: r["tie_break"] for r in result["players"]}
    mine = markers[favoured[0]]
    decided = max((next((k for k, (a, b) in enumerate(zip(mine, markers[n])) if a != b), 0)
                   for n in tied if n != favoured[0]), default=0)
    return _(TIE_BREAKS[min(decided, len(TIE_BREAKS) - 1)])


def _phrases(result: dict, you: bool) -> dict:
    """Say who won, the solo condition when Voynich won, and what the tie-break says, from a `score` result.
    Each name is marked (sentence.name): the callers say the phrases as Sentences."""
    winners = result["winners"]
    _top, tied, favoured = calculator.tie(result)
    sides = _solo_sides(result)
    tie = None
    if len(tied) > 1:
        # [V367] "If the tie is not resolved after comparing all 4 markers, the players share the victory",
        # but never against Voynich, who wins a tie [V497]
        shared = _("still equal after all four") if sides else _("still equal after all four: the victory is shared")
        tie = shared if len(favoured) > 1 else _("%(rule)s favours %(name)s", rule=tie_break(result),
                                                  name=sentence.name(favoured[0]))
    condition = None
    if sides:
        player, automa = sides
        name, him = sentence.name(player["name"]), sentence.name(automa["name"])
        if player["outcome"] == "win":
            winner = _("You win against %(automa)s", automa=him) if you else _(
                "%(name)s wins against %(automa)s", name=name, automa=him)
        else:
            winner = _("%(name)s wins", name=him)
            # [V497] "If you have more General Knowledge (GK) than Voynich, you win" (RULES.md VOY-C11)
            markers = result.get("tie_rule") == "tie_break"
            condition = (_("You win only with strictly more GK (or a tie won on the markers)") if markers else
                         _("You win only with strictly more GK")) if you else (
                _("%(name)s wins only with strictly more GK (or a tie won on the markers)", name=name) if markers else
                _("%(name)s wins only with strictly more GK", name=name))
    elif len(winners) > 1:
        winner = _("Shared victory: %(names)s", names=", ".join(sentence.names(winners)))
    else:
        winner = _("%(name)s wins", name=sentence.name(winners[0]))
    return {"winner": winner, "condition": condition, "tie": tie}


def end_words(result: dict) -> dict:
    """Return the end screen's sentences (templates/voynich/_result.html), addressing the solo player as "You".
    A name is never capitalised: it is shown as its player typed it. `note`: a solo tie under the strict reading
    is a loss whatever the markers say, shown for information [V497] (VOY-C11, D1 end scoring 6)."""
    words = {k: Sentence(v[0].upper() + v[1:] + ".") if v else None
             for k, v in _phrases(result, you=True).items()}
    strict = result.get("tie_rule") == rules.TIE_RULES[0]
    return dict(words, note=_("(Shown for information: in solo a tie is a loss.)") if strict else None)


def verdict(result: dict) -> Sentence:
    """Say who won in one line from the `score` result alone, naming the tie-break where it decided.
    A Sentence: plain as a str, each name in <bdi> on a page (games/sentence.py)."""
    said = _phrases(result, you=False)
    top, tied, favoured = calculator.tie(result)
    if len(tied) < 2:
        return Sentence(said["winner"])
    sides = _solo_sides(result)
    if sides:
        player, automa = sides
        you, him = sentence.name(player["name"]), sentence.name(automa["name"])
        if player["outcome"] == "win":  # only the tie rule "tie_break" lets a tie win [V497] (VOY-C11)
            return Sentence(_("%(name)s wins the tie on %(gk)s GK against %(automa)s by %(rule)s", name=you, gk=top,
                              automa=him, rule=tie_break(result)))
        if result.get("tie_rule") == "tie_break" and favoured == [automa["name"]]:
            return Sentence(_("%(name)s wins the tie on %(gk)s GK by %(rule)s", name=him, gk=top, rule=tie_break(result)))
        return Sentence(_("%(name)s wins the tie on %(gk)s GK: %(condition)s", name=him, gk=top,
                          condition=said["condition"]))
    if len(result["winners"]) > 1:
        return Sentence(_("%(winner)s (tie on %(gk)s GK, still equal after all four knowledge markers)",
                          winner=said["winner"], gk=top))
    return Sentence(_("%(name)s wins the tie on %(gk)s GK by %(rule)s", name=sentence.name(result["winners"][0]), gk=top,
                      rule=tie_break(result)))


# --- the results hooks (companion/results.py; games/base.py Game) -----------------------------------

def running_score(state: dict, options: dict) -> list[int] | None:
    """Return each seat's GK marker (Voynich's too, at a solo table); None on a calculator table."""
    if is_calculator(options):
        return None
    return [p["markers"]["gk"] for p in state["players"]]


def start_player(state: dict, options: dict) -> int | None:
    """Return the first seat, which took the first turn; None on a calculator table.

    The table plays its seats in turn order from the first player, chosen at random at setup [V55]
    (docs/voynich.md: "players are numbered from 0 in turn order"); in solo "You are the first
    player" [V377].
    """
    if is_calculator(options):
        return None
    return state.get("first") or 0  # chosen or drawn at the table (order.py), else the first listed


def form(name: str, data: Any = None) -> dict:
    """What a form without a table shows (Game.form): the box profile's, from its values or a refused form's."""
    return {"profile": box_form}[name](data)
