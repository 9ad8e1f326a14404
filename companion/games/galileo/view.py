"""What the Galileo panel shows, computed from the state with the rules (no Flask)."""

from __future__ import annotations

from .. import sentence
from ..base import is_calculator
from ..sentence import Sentence
from ..words import plural, standing
from . import calculator, rules
from .functions import SECTIONS, run_score
from .profile import prohibition_penalty, removal_cost
from .table import current_player, has_passed, prohibition_pending

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


#: the readings in force (OPTIONS), as the phase card says them
READINGS = {
    "literal": "to the left (the rulebook's wording)", "first_passer_first": "to the right",  # GAL-C5
    "discard": "ends on 0", "continue": "counts its leftover steps on from 0",  # GAL-C3
}

_PRINCIPLE = {"copernican": "Copernican", "ptolemaic": "Ptolemaic"}
_STATUS = {"free": "free", "prison": "in Prison", "stake": "at the Stake"}
#: a figure's place as its badge says it ("In Prison")
STATUS_BADGE = {key: words[:1].upper() + words[1:] for key, words in _STATUS.items()}

#: what the forms offer for the rules' values, in their words (_board_fields.html, _sheet.html; the
#: profile page reads it as game.form("board")): the Penance levels (value, roman numeral), the
#: principles, a figure's place (the Cathedral's columns and a row's choice), the Prohibition's cycles,
#: and the board-value sections in the order the table and the profile list them
FORM = {
    "penance": list(enumerate(rules.PENANCE_LEVELS, 1)),
    "penance_columns": list(enumerate(rules.PENANCE_LEVELS)),  # a list's places 0, 1, 2 (the printed values' forms)
    "principles": [(p, _PRINCIPLE[p]) for p in rules.PRINCIPLES],
    "cathedral": [(st, {"free": "Free", "prison": "Prison", "stake": "Stake"}[st]) for st in rules.STATUSES],
    "statuses": [(st, {"free": "Free", "prison": "In Prison", "stake": "Stake"}[st]) for st in rules.STATUSES],
    "cycles": [(str(c), str(c)) for c in rules.PROHIBITION_CYCLES],
    "table_sections": ("cathedral", "tiles", "penance_cards", "prohibition_suspicion", "suspicion_track"),
    "profile_sections": tuple(SECTIONS),
    # the printed values a calculator table asks for (the rest is for tracking)
    "calculator_sections": ("cathedral", "penance_cards"),
}

def form(name: str, data: object = None) -> dict:
    """What a form without a table shows (Game.form): the board values' fields, on the profile page too."""
    return {"board": FORM}[name]

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


#: a figure's place on the scoreboard: said only when it is not free
STATUS_WORDS = {**_STATUS, "free": None}


def _row_said(player: dict) -> str:
    """Whether a calculator row is saved, as its card and the scoreboard say it."""
    return "row in" if player.get("sheet") else "waiting"


def scoreboard(state: dict, names: list[str], result: dict | None, now: int | None, calc: bool) -> list[dict]:
    """The compact scoreboard: each player's score (the total once known, else the track's VP)."""
    totals = {p["name"]: p["total"] for p in result["players"]} if result else {}
    rows = []
    for i, p in enumerate(state["players"]):
        if calc:
            score, status = totals.get(names[i]), _row_said(p)
            if result:
                status = standing(result["places"][names[i]], names[i] in result["winners"])
        else:
            score = totals.get(names[i], p["vp"])
            status = STATUS_WORDS[rules.status_of(p["suspicion"])]
            if status is None and has_passed(state, i):
                status = "passed"
        rows.append({"seat": i, "name": names[i], "score": score, "status": status, "turn": i == now})
    return rows


def calculator_view(state: dict, names: list[str], options: dict) -> dict:
    """What a calculator table shows: the rows, the printed values still needed, the result."""
    result = calculator.final_result(state, names, options, {})
    rows = []
    for i, p in enumerate(state["players"]):
        # an empty row shows what a player who types nothing saves: Copernican, free, the seat's place
        row = p.get("sheet") or {"principle": "copernican", "status": "free", "vp": 0, "suspicion": None, "penance": [],
                                 **calculator.ROW_DEFAULTS, "turn_order": i + 1}
        rows.append({
            "index": i, "name": names[i], "row": row, "saved": p.get("sheet") is not None,
            "badge": _row_said(p),
            # the position counts only at the Stake [GT765]: shown there alone
            "suspicion": row["suspicion"] if row["status"] == "stake" else None,
            "penance": [{"level": level, "roman": roman, "held": level in row["penance"]} for level, roman in FORM["penance"]],
        })
    return {
        "calculator": True,
        "rows": rows,
        "form": FORM,
        "needs_board": [key for key in FORM["calculator_sections"] if key not in state["board"]],
        "missing_final": missing_final(state, names, options),
        "notices": notices(state, names),
        **_result_words(result),
        "scoreboard": scoreboard(state, names, result, None, True),
        "notice_player": state.get("notice_player"),
    }


def track_cells(track: dict, position: int) -> list[dict]:
    """Return the suspicion track as cells: spaces, with the icons between them."""
    between: dict[int, list[str]] = {}
    for k, name in rules.icons(track):
        between.setdefault(k, []).append(name)
    label = {**{f"penance_{level}": roman for level, roman in FORM["penance"]}, "prison": "Prison", "stake": "Stake"}
    cells = []
    for space in range(track["length"]):
        cells.append({"kind": "space", "value": space, "here": space == position})
        for name in between.get(space, []):
            cells.append({"kind": name.split("_")[0], "label": label[name]})
    return cells


def _card(state: dict, i: int, names: list[str], options: dict, now: int | None) -> dict:
    """One player's card: their suspicion track, place, Penance cards, VP and what the rules say of them."""
    p, track = state["players"][i], state["board"].get("suspicion_track")
    sus, vp = p["suspicion"], p["vp"]
    held = rules.penance_held(sus["penance_taken"], p["penance_removed"])
    status = rules.status_of(sus)
    return {
        "index": i,
        "name": names[i],
        "principle": p["principle"],
        "principle_text": _PRINCIPLE[p["principle"]],
        "status": status,
        "status_text": STATUS_BADGE[status],
        "position": sus["position"],
        "penance_held": [rules.PENANCE_LEVELS[level - 1] for level in held],
        "penance_levels": held,
        "vp": vp,
        # [GT210] past 100 VP the tiles add nothing
        "tiles_note": None if rules.tiles_affect(vp) else Sentence(
            f"Over {rules.TILES_UNTIL_VP} VP: suspicion tiles no longer affect {sentence.name(names[i])}."),
        # [GT765-767] at the Stake the final position costs VP
        "stake_warning": (f"At the Stake: each point of suspicion costs {rules.STAKE_FACTOR} VP at the end "
                          f"({rules.stake_loss(sus['position'])} now).") if status == "stake" else None,
        "cells": track_cells(track, sus["position"]) if track else [],
        "can_abjure": rules.can_abjure(p["principle"], state["cycle"]) is None,
        # on the player's turn, after the Inquisition's +1 a Main Action would cost (GAL-C13)
        "philosopher": rules.philosopher_unavailable(sus, p.get("philosopher_used", False), track,
                                                     state["inquisition"] and i == now,
                                                     options.get("stake_overshoot", "discard")),
        "passed": has_passed(state, i),
        "final": p["final"],
        "entries": p["final"] or calculator.ROW_DEFAULTS,  # what the final-entries form shows: 0 until entered
        "tiles": [t for t, tile in enumerate(state["tiles"]) if tile["face"] != "removed" and i not in tile["reached_by"]],
    }


def _turn(state: dict, card: dict) -> dict:
    """What the player whose turn it is may do: the Main Actions, each Penance card held, Abjure."""
    board = state["board"]
    actions = [(key, label) for key, label in ACTION_TEXT.items() if key != "philosopher" or not card["philosopher"]]
    penance = []
    for level in card["penance_levels"]:
        roman = rules.PENANCE_LEVELS[level - 1]
        penance += [{"level": level, "remove": False, "label": f"Play Penance {roman}"},
                    {"level": level, "remove": True,  # [GT485] pay the printed coins to remove it
                     "label": f"Play Penance {roman} and pay {removal_cost(board, level)} to remove it"}]
    # [GT416-419] -5 for you, +1 for every other Copernican
    abjure = f"Abjure (\u2212{-rules.ABJURE_SELF} you, +{rules.ABJURE_OTHERS} other Copernicans)"
    return {"actions": actions, "penance": penance, "abjure": abjure if card["can_abjure"] else None}


def _tile(tile: dict, space: int, back: int, names: list[str]) -> dict:
    # [GT64] the front shows 2; the back's value is printed (the board values)
    value = rules.tile_value(tile["face"], back) if tile["face"] != "removed" else None
    side = {"front": f"{value} (front)", "back": f"back: {value}", "removed": "removed"}[tile["face"]]
    return {"space": space, "face": tile["face"], "value": value, "side": side, "reached_by": [names[i] for i in tile["reached_by"]]}


def _result_words(result: dict | None) -> dict:
    """The result as _result.html shows it: ranked, the tie-break named where it decided a place [GT769]."""
    return {
        "result": result,
        "ranked": sorted(result["players"], key=lambda p: result["places"][p["name"]]) if result else [],
        "tie_break": tie_break(result) if result else None,
        "breakdown_rows": BREAKDOWN_ROWS,
    }


def _cycle5_said(state: dict, names: list[str], options: dict, result: dict | None) -> tuple[list[str] | None, Sentence | None]:
    """GAL-C5: the tie-break by the order in force during Cycle 5, shown when it differs from the
    Current track's after the End of Cycle 5; returns (its winners, the end screen's line)."""
    if not result or not state["cycle5_order"] or state["cycle5_order"] == state["order"]:
        return None, None
    doc = calculator.score_document(state, names, options, order=state["cycle5_order"])
    winners = run_score(doc)["winners"]
    said = f"During Cycle {rules.LAST_CYCLE} the order was {', '.join(sentence.names(names[i] for i in state['cycle5_order']))}"
    if winners != result["winners"]:
        return winners, Sentence(f"{said}: by that order the winner would be {', '.join(sentence.names(winners))}.")
    return winners, Sentence(f"{said}; the winner is the same by that order.")


def build(state: dict, names: list[str], options: dict) -> dict:
    """Return the panel's context."""
    board = state["board"]
    now = current_player(state)
    players = [_card(state, i, names, options, now) for i in range(len(state["players"]))]
    missing = [label for key, label in (
        ("suspicion_track", "the suspicion track (length and icon positions)"),
        ("tiles", "the suspicion tiles (spaces and back value)"),
        ("cathedral", "the Cathedral values (after setup)"),
        ("penance_cards", "the penance cards' VP and coins"),
    ) if key not in board]
    result = calculator.final_result(state, names, options, {})  # None until every final entry is in
    alt_winners, cycle5_said = _cycle5_said(state, names, options, result)
    checked = state["prohibition"]
    cycle, up = state["cycle"], state["inquisition"]
    return {
        "calculator": False,
        "form": FORM,
        "players": players,
        "tiles": [_tile(tile, board["tiles"]["spaces"][t], board["tiles"]["back"], names) for t, tile in enumerate(state["tiles"])],
        "missing": missing,
        "needs_track": "suspicion_track" not in board,
        "current": now,
        "current_name": names[now] if now is not None else None,
        "turn": _turn(state, players[now]) if now is not None else None,
        "period": rules.PERIOD[cycle],
        "phase_text": PHASE_TEXT[state["phase"]],
        # [GT66][GT398] the token's side, and what it costs a Main Action now
        "inquisition_text": f"face up: +{rules.INQUISITION_SUSPICION} per Main Action" if up else "face down",
        "main_action_cost": f"Any Main Action but Pass: +{rules.main_action_suspicion(up)} suspicion first." if up else None,
        "readings": (f"Readings in force: later passers of a round go {READINGS[options.get('passing_order', 'literal')]}; "
                     f"a move across the Stake {READINGS[options.get('stake_overshoot', 'discard')]}."),
        # markers still on the Current track (passers' markers have moved on [GT369])
        "order": [names[i] for i in state["order"] if not has_passed(state, i)],
        "passing": [names[i] for i in state["passing"]],
        "future": [names[i] for i in state["future"]],
        "turning_points": rules.turning_points(cycle) if state["phase"] == "end" else [],
        "needs_prohibition": prohibition_pending(state),
        "prohibition_penalty": prohibition_penalty(board, cycle),
        "prohibition_said": None if checked is None else "Prohibition checked: " + (
            f"{plural(len(checked['failed']), 'player')} failed." if checked["failed"] else "everyone followed it."),
        "clean_up": state["phase"] == "end" and cycle != rules.LAST_CYCLE,
        # [GT737] the game ends after the End of Cycle 5
        "next_cycle_label": f"Start Cycle {cycle + 1}" if cycle < rules.LAST_CYCLE else "Final scoring",
        "before_final": (None if state["phase"] == "final" else
                         f"The game ends after the End of Cycle {rules.LAST_CYCLE}; final scoring comes then."),
        **_result_words(result),
        "missing_final": missing_final(state, names, options) if state["phase"] == "final" and result is None else [],
        "notices": notices(state, names),
        "scoreboard": scoreboard(state, names, result, now, False),
        "notice_player": state.get("notice_player"),
        "alt_winners": alt_winners,
        "cycle5_said": cycle5_said,
        # [GT769] ties go to the earliest in turn order: the Current track after the End of Cycle 5 (GAL-C5)
        "tie_order_said": Sentence(f"Ties go to the earliest in turn order. The app used the Current turn order track after the End of "
                                   f"Cycle {rules.LAST_CYCLE}: {', '.join(sentence.names(names[i] for i in state['order']))}."),
    }


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
