"""What the Galileo panel shows, computed from the state with the rules (no Flask)."""

from __future__ import annotations

from .. import sentence
from ..base import is_calculator
from ..sentence import Sentence
from ..words import standing
from . import calculator, rules
from .functions import run_score
from .table import current_player

PHASE_TEXT = {
    "income": "Income",
    "actions": "Actions",
    "end": "End of Cycle",
    "final": "Final scoring",
}

ACTION_TEXT = {
    "invention": "Use an Invention",
    "academic": "Upgrade Academic Level",
    "treatise": "Play Treatise Cards",
    "philosopher": "Use Natural Philosopher",
}


BREAKDOWN_ROWS = (
    ("track", "Scoring track"),
    ("status", "Status (Cathedral)"),
    ("rank", "Rank"),
    ("inventions", "End-game Inventions"),
    ("mentor", "Scoring Mentor"),
    ("penance", "Penance cards"),
    ("stake", "The Stake"),
    ("end_losses", "End-of-game losses"),
)


def running_score(state: dict, options: dict) -> list[int] | None:
    """Each seat's VP on the Scoring Track, where the game tracks Victory Points [GT101, GT196];
    None on a calculator table, which tracks nothing."""
    if is_calculator(options):
        return None
    return [p["vp"] for p in state["players"]]


def start_player(state: dict, options: dict) -> int | None:
    """The seat that took the first turn: the turn order starts with the first player and the
    table lists the players in that order [GT103] (table.initial_state); None on a calculator table."""
    if is_calculator(options):
        return None
    return 0


def _ties(result: dict) -> dict[int, str]:
    """Total -> the line naming how a tie on it was broken: the earliest in turn order first [GT769].
    Each name is marked (sentence.name): the callers say the lines as Sentences."""
    said = {}
    for total in sorted({p["total"] for p in result["players"]}, reverse=True):
        tied = sorted((p["name"] for p in result["players"] if p["total"] == total), key=lambda n: result["places"][n])
        if len(tied) > 1:
            first = tied[0]
            verb = "wins" if first in result["winners"] else "places ahead"
            said[total] = (f"{' and '.join(sentence.names(tied))} tie on {total}: {sentence.name(first)} {verb} "
                           "as the earliest in turn order")
    return said


def tie_break(result: dict) -> Sentence | None:
    """Name the tie-break wherever it decided a place (the end screen's "Tie-break:" line)."""
    lines = "; ".join(_ties(result).values())
    return Sentence(lines) if lines else None


def verdict(result: dict) -> Sentence:
    """Who won, in one line; where a tie on the top total was broken, the end screen's own words for it.
    A Sentence: plain as a str, each name in <bdi> on a page (games/sentence.py)."""
    winners = result["winners"]
    top = next(p["total"] for p in result["players"] if p["name"] == winners[0])
    decided = _ties(result).get(top) if len(winners) == 1 else None
    if decided:
        return Sentence(decided)
    return Sentence(f"{' and '.join(sentence.names(winners))} {'wins' if len(winners) == 1 else 'win'}")


def missing_final(state: dict, names: list[str], options: dict) -> list[Sentence]:
    """What final scoring still needs ("Still needed: the rows of Anna and Tom"), each a Sentence:
    calculator.missing writes it from the names marked."""
    return [Sentence(line) for line in calculator.missing(state, sentence.names(names), options)]


def notices(state: dict, names: list[str]) -> list[Sentence]:
    """What the last event did ("Anna: suspicion +3, now 4."): the state keeps plain text, so its
    names are marked here (sentence.naming) for the page's <bdi>."""
    return [sentence.naming(line, names) for line in state.get("notices", [])]


STATUS_WORDS = {"free": None, "prison": "in Prison", "stake": "at the Stake"}


def scoreboard(state: dict, names: list[str], result: dict | None, now: int | None, calc: bool) -> list[dict]:
    """The compact scoreboard: each player's score (the total once known, else the track's VP)."""
    totals = {p["name"]: p["total"] for p in result["players"]} if result else {}
    rows = []
    for i, p in enumerate(state["players"]):
        if calc:
            score, status = totals.get(names[i]), "row in" if p.get("sheet") else "waiting"
            if result:
                status = standing(result["places"][names[i]], names[i] in result["winners"])
        else:
            score = totals.get(names[i], p["vp"])
            status = STATUS_WORDS[rules.status_of(p["suspicion"])]
            if status is None and (i in state["passing"] or i in state["future"]):
                status = "passed"
        rows.append({"seat": i, "name": names[i], "score": score, "status": status, "turn": i == now})
    return rows


def calculator_view(state: dict, names: list[str], options: dict) -> dict:
    """What a calculator table shows: the rows, the printed values still needed, the result."""
    result = calculator.final_result(state, names, options, {})
    board = state["board"]
    rows = []
    for i, p in enumerate(state["players"]):
        row = p.get("sheet")
        rows.append({"index": i, "name": names[i], "row": row or {"principle": "copernican", "status": "free",
                                                                    "penance": [], "turn_order": i + 1}, "saved": row is not None})
    return {
        "calculator": True,
        "rows": rows,
        "needs_board": [key for key in ("cathedral", "penance_cards") if key not in board],
        "missing_final": missing_final(state, names, options),
        "notices": notices(state, names),
        "result": result,
        "ranked": sorted(result["players"], key=lambda p: result["places"][p["name"]]) if result else [],
        "tie_break": tie_break(result) if result else None,
        "breakdown_rows": BREAKDOWN_ROWS,
        "scoreboard": scoreboard(state, names, result, None, True),
        "notice_player": state.get("notice_player"),
    }


def track_cells(track: dict, position: int) -> list[dict]:
    """Return the suspicion track as cells: spaces, with the icons between them."""
    between: dict[int, list[str]] = {}
    for k, name in rules.icons(track):
        between.setdefault(k, []).append(name)
    label = {"penance_1": "I", "penance_2": "II", "penance_3": "III", "prison": "Prison", "stake": "Stake"}
    cells = []
    for space in range(track["length"]):
        cells.append({"kind": "space", "value": space, "here": space == position})
        for name in between.get(space, []):
            cells.append({"kind": name.split("_")[0], "label": label[name]})
    return cells


def build(state: dict, names: list[str], options: dict) -> dict:
    """Return the panel's context."""
    board = state["board"]
    track = board.get("suspicion_track")
    now = current_player(state)
    players = []
    for i, p in enumerate(state["players"]):
        sus = p["suspicion"]
        held = [rules.PENANCE_LEVELS[lvl] for lvl in range(3) if sus["penance_taken"][lvl] and not p["penance_removed"][lvl]]
        players.append({
            "index": i,
            "name": names[i],
            "principle": p["principle"],
            "status": rules.status_of(sus),
            "position": sus["position"],
            "penance_held": held,
            "penance_levels": [lvl + 1 for lvl in range(3) if sus["penance_taken"][lvl] and not p["penance_removed"][lvl]],
            "vp": p["vp"],
            "over_100": not rules.tiles_affect(p["vp"]),
            "cells": track_cells(track, sus["position"]) if track else [],
            "can_abjure": rules.can_abjure(p["principle"], state["cycle"]) is None,
            # on the player's turn, after the Inquisition's +1 a Main Action would cost (GAL-C13)
            "philosopher": rules.philosopher_unavailable(sus, p.get("philosopher_used", False), track,
                                                         state["inquisition"] and i == now,
                                                         options.get("stake_overshoot", "discard")),
            "passed": i in state["passing"] or i in state["future"],
            "final": p["final"],
            "tiles": [t for t in range(len(state["tiles"]))
                      if state["tiles"][t]["face"] != "removed" and i not in state["tiles"][t]["reached_by"]],
        })
    tiles = []
    for t, tile in enumerate(state["tiles"]):
        tiles.append({
            "index": t,
            "space": board["tiles"]["spaces"][t],
            "face": tile["face"],
            "value": rules.tile_value(tile["face"], board["tiles"]["back"]) if tile["face"] != "removed" else None,
            "reached_by": [names[i] for i in tile["reached_by"]],
        })
    missing = [label for key, label in (
        ("suspicion_track", "the suspicion track (length and icon positions)"),
        ("tiles", "the suspicion tiles (spaces and back value)"),
        ("cathedral", "the Cathedral values (after setup)"),
        ("penance_cards", "the penance cards' VP and coins"),
    ) if key not in board]
    result = calculator.final_result(state, names, options, {})  # None until every final entry is in
    order_now = [names[i] for i in state["order"]]
    cycle5 = [names[i] for i in state["cycle5_order"]] if state["cycle5_order"] else None
    penalty = board.get("prohibition_suspicion", {}).get(str(state["cycle"]))
    alt_winners = None
    if result and cycle5 and cycle5 != order_now:
        # GAL-C5: the tie-break by the order in force during Cycle 5, shown when it differs
        doc = calculator.score_document(state, names, options)
        for i, p in enumerate(doc["players"]):
            p["turn_order"] = state["cycle5_order"].index(i) + 1
        alt_winners = run_score(doc)["winners"]
    return {
        "calculator": False,
        "players": players,
        "tiles": tiles,
        "missing": missing,
        "current": now,
        "current_name": names[now] if now is not None else None,
        "period": rules.PERIOD[state["cycle"]],
        "phase_text": PHASE_TEXT[state["phase"]],
        # markers still on the Current track (passers' markers have moved on [GT361])
        "order": [names[i] for i in state["order"] if i not in state["passing"] and i not in state["future"]],
        "passing": [names[i] for i in state["passing"]],
        "future": [names[i] for i in state["future"]],
        "turning_points": rules.turning_points(state["cycle"]) if state["phase"] == "end" else [],
        "needs_prohibition": state["phase"] == "end" and state["cycle"] in rules.PROHIBITION_CYCLES and state["prohibition"] is None,
        "prohibition_penalty": penalty,
        "clean_up": state["phase"] == "end" and state["cycle"] != rules.LAST_CYCLE,
        "actions": ACTION_TEXT,
        "result": result,
        "ranked": sorted(result["players"], key=lambda p: result["places"][p["name"]]) if result else [],
        "missing_final": missing_final(state, names, options) if state["phase"] == "final" and result is None else [],
        "notices": notices(state, names),
        "tie_break": tie_break(result) if result else None,
        "scoreboard": scoreboard(state, names, result, now, False),
        "notice_player": state.get("notice_player"),
        "alt_winners": alt_winners,
        "breakdown_rows": BREAKDOWN_ROWS,
        "tie_order": order_now,
        "cycle5_order": cycle5 if cycle5 and cycle5 != order_now else None,
        "passing_order": options.get("passing_order", "literal"),
        "stake_overshoot": options.get("stake_overshoot", "discard"),
    }


_PRINCIPLE = {"copernican": "Copernican", "ptolemaic": "Ptolemaic"}
_STATUS = {"free": "free", "prison": "in Prison", "stake": "at the Stake"}

#: what the running score is, for the archive's chart (Game.running_label)
RUNNING_LABEL = "VP on the scoring track"

#: how a page names a refused field (companion/wording.py): every event field, option and
#: printed value, so no path (`data.delta`, `counts[2]`, `suspicion_track.stake`) is ever shown
LABELS = {
    "player": "the player",
    "delta": "{who}'s change",
    "suspicion.delta": "{who}'s suspicion change",
    "suspicion_group.delta": "the suspicion change for the others",
    "suspicion_group.group": "who the effect reaches",
    "vp.delta": "{who}'s VP change",
    "tile.tile": "the suspicion tile",
    "tile.vp": "{who}'s VP on reaching the tile",
    "action.action": "the Main Action",
    "penance.level": "the Penance card",
    "penance.remove": "paying to remove the Penance card",
    "prohibition.limit": "the limit on the Prohibition tile",
    "prohibition.counts": "the elements each player possesses",
    "prohibition.counts[]": "{nth_name}'s elements",
    "prohibition.penalty": "the suspicion for failing",
    "final.inventions_vp": "{who}'s End-game Inventions VP",
    "final.mentor_vp": "{who}'s Scoring Mentor VP",
    "final.end_losses": "{who}'s VP lost at the end",
    "sheet.principle": "{who}'s principle",
    "sheet.status": "{who}'s place in the Cathedral",
    "sheet.vp": "{who}'s VP",
    "sheet.suspicion": "{who}'s suspicion",
    "sheet.penance": "{who}'s Penance cards",
    "sheet.penance[]": "{who}'s Penance cards",
    "sheet.inventions_vp": "{who}'s End-game Inventions VP",
    "sheet.mentor_vp": "{who}'s Scoring Mentor VP",
    "sheet.end_losses": "{who}'s VP lost at the end",
    "sheet.turn_order": "{who}'s place in turn order",
    "passing_order": "where later passers go",
    "stake_overshoot": "a move across the Stake",
    # printed values: the box profile's sections and the board event's (RULES.md GAL-B)
    "suspicion_track": "the suspicion track",
    "suspicion_track.length": "the suspicion track's number of spaces",
    "suspicion_track.penance": "the Penance icons",
    "suspicion_track.penance[]": "the {nth} Penance icon",
    "suspicion_track.prison": "the Prison icon",
    "suspicion_track.stake": "the Stake icon",
    "tiles": "the suspicion tiles",
    "tiles.back": "the value on the tiles' back",
    "tiles.spaces": "the tiles' spaces",
    "tiles.spaces[]": "the {nth} tile's space",
    "cathedral": "the Cathedral values",
    "penance_cards": "the penance cards",
    "penance_cards.vp": "the penance cards' VP",
    "penance_cards.vp[]": "the {nth} Penance card's VP",
    "penance_cards.coins": "the penance cards' coins",
    "penance_cards.coins[]": "the {nth} Penance card's coins",
    "prohibition_suspicion": "the suspicion for a failed Prohibition",
    **{f"cathedral.{p}": f"the {name} Cathedral values" for p, name in _PRINCIPLE.items()},
    **{f"cathedral.{p}.{st}": f"the Cathedral VP, {name} {words}"
       for p, name in _PRINCIPLE.items() for st, words in _STATUS.items()},
    **{f"prohibition_suspicion.{c}": f"the suspicion for failing in Cycle {c}" for c in rules.PROHIBITION_CYCLES},
    **{f"prohibition_suspicion.{c}.{p}": f"the {name} suspicion for failing in Cycle {c}"
       for c in rules.PROHIBITION_CYCLES for p, name in _PRINCIPLE.items()},
    **{f"prohibition.penalty.{p}": f"the {name} suspicion for failing" for p, name in _PRINCIPLE.items()},
}
# a label opens the line a page shows ("The Stake icon: must be ..."): a capital first
LABELS = {path: words[:1].upper() + words[1:] for path, words in LABELS.items()}


def view(state: dict, names: list[str], options: dict, profile: dict, screen: str | None) -> dict:
    """Return what templates/galileo/panel.html shows: turn, tracks, checks and the score."""
    if is_calculator(options):
        return calculator_view(state, list(names), options)
    return build(state, list(names), options)


def screen_of(screen: str | None, n: int) -> str | None:
    """Return "end" for the end screen (templates/galileo/panel.html), else None: the main screen."""
    return "end" if screen == "end" else None


def counter(state: dict, type_: str, data: dict) -> int | None:
    """The VP stepper answers alone. Suspicion does not: crossing a threshold brings up
    Penance, Prison or the Stake, which the whole panel must show at once."""
    player = data.get("player")
    if type_ == "vp" and isinstance(player, int) and 0 <= player < len(state["players"]):
        return state["players"][player]["vp"]
    return None
