"""What templates/voynich/panel.html shows, computed with the rules (plain Python, no Flask)."""

from __future__ import annotations

from typing import Any

from .. import sentence
from ..base import is_calculator
from ..sentence import Sentence
from ..words import ordinal, plural, standing
from . import calculator, rules
from .calculator import PAGE_NAMES, resolve_page
from .functions import FUNCTIONS
from .profile import SOLO_PARTS, SPACE_ROWS, effective_track
from .rules import KNOWLEDGE, MARKERS, SECTIONS
from .solo import seat_names, voynich_seat
from .table import end_gk

MARKER_LABELS = {"botany": "Botany", "astrology": "Astrology", "baths": "Baths", "writings": "Writings", "gk": "GK"}
#: the numbered parts of the solo board that each spread's actions mainly use (VOY-B7)
SPREAD_PARTS = {
    "botany": ("botany_roots", "botany_branches"),
    "astrology": ("astrology",),
    "baths": ("baths_springs", "first_basin", "second_basin"),
    "writings": ("writings",),
    "recipes": ("recipes",),
}
DIFFICULTY_LABELS = {
    "easy": "Easy: his 4 knowledge markers go back 5 spaces before his pages score",
    "medium": "Medium: his pages only",
    "hard": "Hard: +2 GK per token of his on the board, then his pages",
    "very_hard": "Very hard: 4 pages advanced at setup; +2 GK per token on the board, then his pages",
    "extremely_hard": "Extremely hard: 4 pages advanced at setup; +5 GK per token on the board, then his pages",
}


#: what the running score is, for the archive's chart (Game.running_label)
RUNNING_LABEL = "GK on the track"

#: how a page names a refused field (companion/wording.py)
LABELS = {
    "move.delta": "{who}'s marker move",
    "delta": "{who}'s change",
    "player": "the player",
    "marker": "the marker",
    "gk": "{who}'s GK",
    "research.gk": "{who}'s research token GK",
    "exchange.gk": "the GK of the puzzle space",
    "cell": "the puzzle space",
    "cell[]": "the puzzle space",
    "type": "the knowledge type",
    "page": "the page",
    "phase": "the page's phase",
    "multiplier": "the page's multiplier",
    "choices": "the Recipes page's two types",
    "choices[]": "the Recipes page's {nth} type",
    "chosen": "the type the Recipes page scores",
    "index": "the research token",
    "count": "Voynich's tokens on the board",
    "cards": "the card numbers",
    **{f"cards.{sec}": f"the {sec.capitalize()} card numbers" for sec in SECTIONS},
    **{f"cards.{sec}[]": f"the {sec.capitalize()} {{nth}} card number" for sec in SECTIONS},
    "difficulty": "Voynich's difficulty",
    "solo_tie": "the solo tie rule",
    "markers": "{who}'s markers",
    **{f"markers.{k}": f"{{who}}'s {k.capitalize()} marker" for k in KNOWLEDGE},
    "sheet.research": "{who}'s research tokens",
    "sheet.research[]": "{who}'s {nth} research token",
    "sheet.pages": "{who}'s pages",
    **{f"sheet.pages.{sec}": f"{{who}}'s {sec.capitalize()} pages" for sec in SECTIONS},
    **{f"sheet.pages.{sec}[]": f"{{who}}'s {sec.capitalize()} {{nth}} page multiplier" for sec in SECTIONS},
    # the card's fields say "Left ×" and "Right ×": the message says the same
    **{f"sheet.pages.{sec}[{k}]": f"{{who}}'s {sec.capitalize()} {side} ×" for sec in SECTIONS
       for k, side in enumerate(("left", "right"))},
    "sheet.choices": "{who}'s Recipes types",
    "sheet.choices.left": "{who}'s Recipes left types",
    "sheet.choices.right": "{who}'s Recipes right types",
    "sheet.choices.left[]": "{who}'s Recipes left types",
    "sheet.choices.right[]": "{who}'s Recipes right types",
    "tokens_on_board": "Voynich's tokens on the board",
    # the score track: the table's `track` event and the box profile's `track`
    "scoring_spaces": "the scoring spaces",
    "spaces": "the scoring spaces",
    # the form's numbered rows (profile.spaces_from_rows), on the table and in the box profile
    **{f"{pre}spaces.{k}.{part}": f"the {ordinal(k + 1)} scoring space's {word}"
       for pre in ("", "track.") for k in range(SPACE_ROWS) for part, word in (("position", "position"), ("gk", "GK"))},
    "insights": "the insight positions",
    "insights[]": "the {nth} insight position",
    "end": "the number at the end-of-game symbol",
    "track.scoring_spaces": "the scoring spaces",
    "track.spaces": "the scoring spaces",
    "track.insights": "the insight positions",
    "track.insights[]": "the {nth} insight position",
    "track.end": "the number at the end-of-game symbol",
    "grid": "the puzzle grid",
    "grid[]": "the puzzle grid's {nth} row",
    "grid[][]": "the puzzle grid's cell",
    "grid_cells": "the puzzle grid",
    "solo_spaces": "the solo board's numbered spaces",
    **{f"solo_spaces.{part}": f"the solo board's {label}" for part, label in SOLO_PARTS.items()},
    **{f"solo_spaces.{part}[]": f"the solo board's {label}: the {{nth}} number" for part, label in SOLO_PARTS.items()},
    **{f"cards.{n}": f"card {n}" for n in range(rules.CARD_LO, rules.CARD_HI + 1)},
    **{f"cards.{n}.section": f"card {n}'s section" for n in range(rules.CARD_LO, rules.CARD_HI + 1)},
    **{f"cards.{n}.multipliers": f"card {n}'s multipliers" for n in range(rules.CARD_LO, rules.CARD_HI + 1)},
    **{f"cards.{n}.multipliers[]": f"card {n}'s multiplier" for n in range(rules.CARD_LO, rules.CARD_HI + 1)},
    **{f"cards.{n}.choices": f"card {n}'s Recipes types" for n in range(rules.CARD_LO, rules.CARD_HI + 1)},
    **{f"cards.{n}.choices[]": f"card {n}'s Recipes types" for n in range(rules.CARD_LO, rules.CARD_HI + 1)},
}


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
        return "Score track values"
    if state["track"].get("scoring_spaces"):
        return f"Score track saved: {plural(len(spaces), 'space')}"
    return f"Score track: {plural(len(spaces), 'space')} from the box profile"


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
        pages = [dict(resolve_page(p, k, catalogue), index=k, name=name,
                      can_study=rules.next_phase(p["pages"][k]["phase"]) is not None)  # [V134] up to the final phase
                 for k, name in enumerate(PAGE_NAMES)]
        players.append({
            "index": i, "name": everyone[i], "automa": i == automa,
            "markers": [{"key": m, "label": MARKER_LABELS[m], "value": p["markers"][m]} for m in MARKERS],
            "positions": dict(p["markers"]),
            "exchange": {k: n for k, n in p["exchange"].items() if n},
            "pages": pages, "research": p["research"], "cards": p["cards"],
        })
    result = score_table(state, players, everyone, options, profile)
    out: dict[str, Any] = {
        "players": players,
        "turn": state["turn"], "turn_name": everyone[state["turn"]], "round": state["round"],
        "track": track, "has_spaces": bool(spaces), "has_insights": "insights" in track,
        "end_gk": end_gk(track), "grid": profile.get("grid"), "has_catalogue": bool(catalogue),
        "track_said": track_said(state, spaces),
        "result": result,
        "knowledge": KNOWLEDGE, "sections": SECTIONS, "difficulties": rules.DIFFICULTIES,
        "difficulty_labels": DIFFICULTY_LABELS, "marker_labels": MARKER_LABELS,
        "solo": solo, "automa": automa,
        "screen": screen_of(screen, len(everyone)),
        "calculator": is_calculator(options),
        "rows": [sheet_row(state, p, i, options) for i, p in enumerate(players)],
        "page_names": PAGE_NAMES,
    }
    if out["calculator"]:
        out["calc"] = calculator.result(state, everyone, options, track)
        if out["calc"]:
            out["calc"]["words"] = end_words(out["calc"])
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
        out["voynich"] = voynich_view(v, profile, players[automa])
    else:
        out["voynich"] = None
    return out


def sheet_row(state: dict, p: dict, i: int, options: dict) -> dict:
    """What one player's end-scoring form shows: the saved row (calculator), or the tracked values."""
    if is_calculator(options):
        row = state["sheets"][i]
        if row is None:
            return {"in": False, "gk": None, "markers": {k: None for k in KNOWLEDGE}, "research": [],
                    "pages": [0] * len(PAGE_NAMES), "phases": None, "choices": {}, "difficulty": None,
                    "tokens_on_board": None}
        return {"in": True, "gk": row["gk"], "markers": row["markers"], "research": row["research"],
                "pages": [m for sec in SECTIONS for m in row["pages"][sec]], "phases": None,
                "choices": row["choices"], "difficulty": row.get("difficulty"),
                "tokens_on_board": row.get("tokens_on_board")}
    v = state.get("voynich") or {}
    return {"in": False, "gk": p["positions"]["gk"], "markers": {k: p["positions"][k] for k in KNOWLEDGE},
            "research": p["research"], "pages": [pg["multiplier"] for pg in p["pages"]],
            "phases": [pg["phase"] for pg in p["pages"]],
            "choices": {side: pg["choices"] for side, pg in zip(("left", "right"), p["pages"][-2:]) if pg["choices"]},
            "difficulty": None, "tokens_on_board": v.get("tokens_on_board")}


def scoreboard(state: dict, out: dict, everyone: list[str]) -> list[dict]:
    """The compact scoreboard at the top of the table page: totals once known, else GK or the row's state."""
    rows = []
    if out["calculator"]:
        calc = out["calc"]
        for i, name in enumerate(everyone):
            total = calc["players"][i]["total"] if calc else None
            status = standing(calc["places"][name], name in calc["winners"]) if calc else (
                "row in" if state["sheets"][i] is not None else "waiting")
            rows.append({"seat": i, "name": name, "score": None if total is None else str(total), "status": status, "turn": False})
        return rows
    over = bool(state["over"])
    result = out["result"]
    for i, name in enumerate(everyone):
        score = result["players"][i]["total"] if over else f"GK {state['players'][i]['markers']['gk']}"
        status = standing(result["places"][name], name in result["winners"]) if over else None
        rows.append({"seat": i, "name": name, "score": str(score), "status": status,
                     "turn": not over and state["turn"] == i})
    return rows


def voynich_view(v: dict, profile: dict, player: dict) -> dict:
    """Return Voynich's deck, his current turn and the scan orders for its priority number."""
    turn = v["turn"]
    out = {
        "difficulty": v["difficulty"], "difficulty_label": DIFFICULTY_LABELS[v["difficulty"]],
        "deck_left": len(v["deck"]), "discard_top": v["discard"][-1] if v["discard"] else None,
        "open": v["open"], "turn": turn, "tokens_on_board": v["tokens_on_board"],
        "advanced": [PAGE_NAMES[player["cards"].index(c)] + f" (card {c})" for c in v["advanced"]],
        "needs_tokens": rules.counts_tokens(v["difficulty"]),  # [V494-495]
        "book": [{"name": PAGE_NAMES[k], "card": c, "phase": player["pages"][k]["phase"]} for k, c in enumerate(player["cards"])],
    }
    if turn is not None:
        # [V403] an "X / Y" choice: the left option on the left page, the right on the right page
        out["slash"] = "left" if turn["page"] == "left" else "right"
        out["page_name"] = PAGE_NAMES[turn["page_index"]]
        # [V430-432] each numbered part of the board, scanned from the priority number
        spaces = profile.get("solo_spaces", {})
        scans = [
            {"part": part, "label": label, "order": rules.scan_order(turn["priority"], spaces[part]),
             "in_spread": part in SPREAD_PARTS[turn["spread"]]}
            for part, label in SOLO_PARTS.items() if part in spaces
        ]
        # the open spread's own parts first; its actions may still reach the others
        out["scans"] = sorted(scans, key=lambda sc: not sc["in_spread"])
    return out


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
    out["words"] = end_words(out)
    return out


# --- who won, in words: the end screen and the verdict say it alike [V365-367] [V497] ---------------

#: the rulebook's tie-break [V367], as the end screen and the verdict name it, with the marker that decided
TIE_BREAK = "the tie-break (the {} knowledge marker)"
#: [V367] "the furthest knowledge marker ... then the second furthest, and so on": each marker compared, in words
MARKER_WORDS = ("furthest", "second furthest", "third furthest", "fourth furthest")
#: [V367] "If the tie is not resolved after comparing all 4 markers, the players share the victory"
STILL_EQUAL = "still equal after all four"
#: [V497] "If you have more General Knowledge (GK) than Voynich, you win" (RULES.md VOY-C11)
STRICTLY = "only with strictly more GK"


def _solo_sides(result: dict) -> tuple[dict, dict] | None:
    """Return the solo player's result and Voynich's from a `score` result (the player's carries the outcome)."""
    player = next((r for r in result["players"] if "outcome" in r), None)
    if player is None:
        return None
    return player, next(r for r in result["players"] if r is not player)


def tie_break(result: dict) -> str:
    """Name the tie-break with the marker that decided it [V367]: the furthest, or the second, third or
    fourth furthest where the ones before were equal; the last comparison the favoured player needed."""
    _, tied, favoured = calculator.tie(result)
    markers = {r["name"]: r["tie_break"] for r in result["players"]}
    mine = markers[favoured[0]]
    decided = max((next((k for k, (a, b) in enumerate(zip(mine, markers[n])) if a != b), 0)
                   for n in tied if n != favoured[0]), default=0)
    return TIE_BREAK.format(MARKER_WORDS[min(decided, len(MARKER_WORDS) - 1)])


def _phrases(result: dict, you: bool) -> dict:
    """Say who won, the solo condition when Voynich won, and what the tie-break says, from a `score` result.
    Each name is marked (sentence.name): the callers say the phrases as Sentences."""
    winners = result["winners"]
    _, tied, favoured = calculator.tie(result)
    sides = _solo_sides(result)
    tie = None
    if len(tied) > 1:
        # [V367] still equal: a shared victory, but never against Voynich, who wins a tie [V497]
        shared = STILL_EQUAL if sides else f"{STILL_EQUAL}: the victory is shared"
        tie = shared if len(favoured) > 1 else f"{tie_break(result)} favours {sentence.name(favoured[0])}"
    condition = None
    if sides:
        player, automa = sides
        they = "You win" if you else f"{sentence.name(player['name'])} wins"
        if player["outcome"] == "win":
            winner = f"{they} against {sentence.name(automa['name'])}"
        else:
            winner = f"{sentence.name(automa['name'])} wins"
            condition = f"{they} {STRICTLY}" + (" (or a tie won on the markers)" if result.get("tie_rule") == "tie_break" else "")
    elif len(winners) > 1:
        winner = "Shared victory: " + ", ".join(sentence.names(winners))
    else:
        winner = f"{sentence.name(winners[0])} wins"
    return {"winner": winner, "condition": condition, "tie": tie}


def end_words(result: dict) -> dict:
    """Return the end screen's sentences (templates/voynich/_result.html), addressing the solo player as "You".
    A name is never capitalised: it is shown as its player typed it."""
    return {k: Sentence(v[0].upper() + v[1:] + ".") if v else None for k, v in _phrases(result, you=True).items()}


def verdict(result: dict) -> Sentence:
    """Say who won in one line from the `score` result alone, naming the tie-break where it decided.
    A Sentence: plain as a str, each name in <bdi> on a page (games/sentence.py)."""
    said = _phrases(result, you=False)
    top, tied, favoured = calculator.tie(result)
    if len(tied) < 2:
        return Sentence(said["winner"])
    on = f"the tie on {top} GK"
    sides = _solo_sides(result)
    if sides:
        player, automa = sides
        you, him = sentence.name(player["name"]), sentence.name(automa["name"])
        if player["outcome"] == "win":  # only the tie rule "tie_break" lets a tie win [V497] (VOY-C11)
            return Sentence(f"{you} wins {on} against {him} by {tie_break(result)}")
        if result.get("tie_rule") == "tie_break" and favoured == [automa["name"]]:
            return Sentence(f"{him} wins {on} by {tie_break(result)}")
        return Sentence(f"{him} wins {on}: {said['condition']}")
    if len(result["winners"]) > 1:
        return Sentence(f"{said['winner']} (tie on {top} GK, {STILL_EQUAL} knowledge markers)")
    return Sentence(f"{sentence.name(result['winners'][0])} wins {on} by {tie_break(result)}")


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
    return 0
