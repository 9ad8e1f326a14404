"""What templates/voynich/panel.html shows, computed with the rules (plain Python, no Flask)."""

from __future__ import annotations

from typing import Any

from .. import sentence
from ..base import is_calculator
from ..sentence import Sentence
from ..words import ordinal, plural, standing
from . import calculator, rules
from .calculator import NO_DIFFICULTY, PAGE_NAMES, resolve_page
from .functions import FUNCTIONS
from .profile import form as box_form
from .profile import CELL_GK_HI, INSIGHT_FIELDS, SOLO_PARTS, SPACE_FIELDS, SPACE_ROWS, effective_track, padded
from .rules import KNOWLEDGE, MARKERS, SECTIONS, SIDES
from .solo import flip_due, seat_names, voynich_seat
from .table import end_gk

MARKER_LABELS = {"botany": "Botany", "astrology": "Astrology", "baths": "Baths", "writings": "Writings", "gk": "GK"}
SECTION_LABELS = {s: s.capitalize() for s in SECTIONS}
#: the +N button beside each marker's stepper: a common move in one tap (a convenience, no rule)
QUICK_STEP = 3
#: the numbered parts of the solo board that each spread's actions mainly use (VOY-B7)
SPREAD_PARTS = {
    "botany": ("botany_roots", "botany_branches"),
    "astrology": ("astrology",),
    "baths": ("baths_springs", "first_basin", "second_basin"),
    "writings": ("writings",),
    "recipes": ("recipes",),
}
ADVANCED, TOKEN_GK = len(rules.PRE_ADVANCE), rules.TOKEN_GK
#: [V492-495] each difficulty's end scoring, [V375] with the pages the hardest two advance at setup
DIFFICULTY_LABELS = {
    "easy": f"Easy: his {len(KNOWLEDGE)} knowledge markers go back {rules.EASY_SETBACK} spaces before his pages score",
    "medium": "Medium: his pages only",
    "hard": f"Hard: +{TOKEN_GK['hard']} GK per token of his on the board, then his pages",
    "very_hard": f"Very hard: {ADVANCED} pages advanced at setup; +{TOKEN_GK['very_hard']} GK per token on the board, then his pages",
    "extremely_hard": f"Extremely hard: {ADVANCED} pages advanced at setup; +{TOKEN_GK['extremely_hard']} GK per token on the "
                      "board, then his pages",
}
#: [V494-495] the row's field for his tokens, counted from the first difficulty that scores them
TOKENS_HINT = f"leaves, drops, stars, texts; {next(filter(rules.counts_tokens, rules.DIFFICULTIES)).replace('_', ' ')} and above"
#: [V361] [V91] the multipliers a page shows, as the row's form says them
MULTIPLIERS_SAID = (f"×{', ×'.join(map(str, rules.MULTIPLIERS[1:-1]))} or ×{rules.MULTIPLIERS[-1]} shown; "
                    f"{rules.MULTIPLIERS[0]} in the starting phase")
#: [V371-377] what the players set up by hand for a game against Voynich (RULES.md D1 setup 1 and 4)
SOLO_SETUP = (f"Deal Voynich {len(SIDES)} cards of each type and enter their numbers in book order, left page first. Use the "
              "solo side of the board; stack his text tokens at random, untranslated side up; put 7 dirty drops on numbered "
              "spaces of the first basin and the 8th under the right-hand spring; he gets no research tokens.")
#: [V395] the page the card's number picks: an odd number the left-hand page, an even one the right-hand page
PARITY = {"left": "odd", "right": "even"}
#: [V428-445] where his tokens come from (RULES.md D1 Voynich's turn, step 4.3)
TOKEN_SOURCES = ("Tokens come from his supply (text: the top of the stack); Recipes actions take them from the board only. "
                 "From the board, never from the section they go to: Botany branches or upper flowers, then Astrology inner "
                 "circle, then either Baths basin, then Writings text in rows without a star or stars in rows with ≤ 1 text, "
                 "then any.")
#: [V430-432] the scan from the priority number, wrapping at the top (VOY-C13)
SCAN = f"check numbered spaces from it (or the nearest lower one), going up and wrapping from {rules.CARD_HI} to {rules.CARD_LO}."
#: [V411-424] how his puzzle pieces are placed: the card just flipped's condition (VOY-C4, C5; D1 Voynich's turn, step 6)
PLACEMENT = (", following the study condition on card {} if possible (group: next to a same-colour group of at least X; "
             "edge: an edge or a corner; circle: part of a circle; ≠: touching 3 colours; else anywhere legal)")
#: what the end screen counts a value not yet entered as (calculator.tracked_doc)
MISSING_SAID, MISSING_SHOWN = "counted as 0 until then", 8


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
    **{f"sheet.choices.{side}{end}": f"{{who}}'s Recipes {side} types" for side in SIDES for end in ("", "[]")},
    "tokens_on_board": "Voynich's tokens on the board",
    # the score track: the table's `track` event and the box profile's `track`
    **{f"{pre}{k}": said for pre in ("", "track.") for k, said in (
        ("scoring_spaces", "the scoring spaces"), ("spaces", "the scoring spaces"), ("insights", "the insight positions"),
        ("insights[]", "the {nth} insight position"), ("end", "the number at the end-of-game symbol"))},
    # the form's numbered rows (profile.spaces_from_rows), on the table and in the box profile
    **{f"{pre}spaces.{k}.{part}": f"the {ordinal(k + 1)} scoring space's {word}"
       for pre in ("", "track.") for k in range(SPACE_ROWS) for part, word in (("position", "position"), ("gk", "GK"))},
    "grid": "the puzzle grid",
    "grid[]": "the puzzle grid's {nth} row",
    "grid[][]": "the puzzle grid's cell",
    "grid_cells": "the puzzle grid",
    "solo_spaces": "the solo board's numbered spaces",
    **{f"solo_spaces.{part}": f"the solo board's {label}" for part, label in SOLO_PARTS.items()},
    **{f"solo_spaces.{part}[]": f"the solo board's {label}: the {{nth}} number" for part, label in SOLO_PARTS.items()},
    **{f"cards.{n}{path}": f"card {n}{said}" for n in range(rules.CARD_LO, rules.CARD_HI + 1) for path, said in (
        ("", ""), (".section", "'s section"), (".multipliers", "'s multipliers"), (".multipliers[]", "'s multiplier"),
        (".choices", "'s Recipes types"), (".choices[]", "'s Recipes types"))},
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
        exchange = {k: n for k, n in p["exchange"].items() if n}
        # his pieces follow the study condition of the card just flipped (VOY-C4)
        card = v["turn"]["card"] if i == automa and v and v["turn"] else None
        players.append({
            "index": i, "name": everyone[i], "automa": i == automa, "first": i == 0,
            "markers": [{"key": m, "label": MARKER_LABELS[m], "value": p["markers"][m],
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
        "difficulty_labels": DIFFICULTY_LABELS, "marker_labels": MARKER_LABELS, "default_difficulty": NO_DIFFICULTY,
        "solo": solo, "automa": automa, "solo_setup": SOLO_SETUP, "card_lo": rules.CARD_LO, "card_hi": rules.CARD_HI,
        "screen": screen_of(screen, len(everyone)),
        "calculator": is_calculator(options),
        "rows": [sheet_row(state, p, i, options) for i, p in enumerate(players)],
        "quick_step": QUICK_STEP, "cell_gk_hi": CELL_GK_HI, "multipliers_said": MULTIPLIERS_SAID,
        "tokens_hint": TOKENS_HINT,
    }
    out["calc"] = calculator.result(state, everyone, options, track) if out["calculator"] else None
    if out["calc"]:
        out["calc"]["words"] = end_words(out["calc"])
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
        out["voynich"] = voynich_view(v, profile, players[automa], state["round"])
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
    return [{"section": section, "label": SECTION_LABELS[section], "pages": [
        {"k": k, "side": side, "label": f"{side.capitalize()} ×", "value": multipliers[k] or 0,
         "phase": phases[k] if phases else None, "fixed": bool(phases) and phases[k] == rules.STARTING_PHASE}
        for k, side in ((len(SIDES) * n + j, side) for j, side in enumerate(SIDES))]}
        for n, section in enumerate(SECTIONS)]


def exchange_said(exchange: dict, card: int | None) -> str:
    """The puzzle pieces a player's exchange tokens ask for [V325] ("1 Botany, 2 Baths puzzle pieces"),
    Voynich's with the card whose study condition they follow."""
    pieces = ", ".join(f"{n} {MARKER_LABELS[k]}" for k, n in exchange.items())
    return f"{pieces} puzzle piece{'s' if sum(exchange.values()) > 1 else ''}" + (PLACEMENT.format(card) if card else "")


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


def voynich_view(v: dict, profile: dict, player: dict, round_: int) -> dict:
    """Return Voynich's deck, his current turn and the scan orders for its priority number."""
    turn = v["turn"]
    out = {
        "difficulty": v["difficulty"], "difficulty_label": DIFFICULTY_LABELS[v["difficulty"]],
        "deck_said": plural(len(v["deck"]), "card"),
        "open": v["open"], "turn": turn, "tokens_on_board": v["tokens_on_board"],
        "advanced": [PAGE_NAMES[player["cards"].index(c)] + f" (card {c})" for c in v["advanced"]],
        # [V375] the pages advanced at setup, to turn before his first flip
        "show_advanced": bool(v["advanced"]) and turn is None and round_ == 1,
        "book": [{"name": PAGE_NAMES[k], "card": c, "phase": player["pages"][k]["phase"]} for k, c in enumerate(player["cards"])],
        "research_said": f"Research action: +{rules.RESEARCH_GK} GK",  # [V382]
        "token_sources": TOKEN_SOURCES, "scan_said": SCAN,
    }
    if turn is not None:
        # [V403] an "X / Y" choice: the left option on the left page, the right on the right page
        out["slash"], out["parity"] = turn["page"], PARITY[turn["page"]]
        out["abandoned_said"] = f"card{'s' if len(turn['abandoned']) > 1 else ''} {', '.join(map(str, turn['abandoned']))}"
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
    out["missing_shown"], out["missing_more"] = out["missing"][:MISSING_SHOWN], max(0, len(missing) - MISSING_SHOWN)
    out["missing_said"] = MISSING_SAID
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
    A name is never capitalised: it is shown as its player typed it. `note`: a solo tie under the strict reading
    is a loss whatever the markers say, shown for information [V497] (VOY-C11, D1 end scoring 6)."""
    words = {k: Sentence(v[0].upper() + v[1:] + ".") if v else None for k, v in _phrases(result, you=True).items()}
    strict = result.get("tie_rule") == rules.TIE_RULES[0]
    return dict(words, note="(Shown for information: in solo a tie is a loss.)" if strict else None)


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


def form(name: str, data: Any = None) -> dict:
    """What a form without a table shows (Game.form): the box profile's, from its values or a refused form's."""
    return {"profile": box_form}[name](data)
