"""What the Galileo panel shows, computed from the state with the rules (no Flask)."""

from __future__ import annotations

from . import rules
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


def _missing_final(state: dict, names: list[str]) -> list[str]:
    """Say what final scoring still needs."""
    missing = []
    if "cathedral" not in state["board"]:
        missing.append("the Cathedral values (Board values)")
    if "penance_cards" not in state["board"] and any(
            any(t and not r for t, r in zip(p["suspicion"]["penance_taken"], p["penance_removed"])) for p in state["players"]):
        missing.append("the penance cards' VP (Board values)")
    missing += [f"{names[i]}'s final entries" for i, p in enumerate(state["players"]) if p["final"] is None]
    return missing


def score_document(state: dict, names: list[str]) -> dict | None:
    """Build the `score` function's document from a finished table, or None if values are missing."""
    if _missing_final(state, names):
        return None
    board = state["board"]
    rank = {p: i + 1 for i, p in enumerate(state["order"])}
    players = []
    for i, p in enumerate(state["players"]):
        held = [board["penance_cards"]["vp"][lvl] for lvl in range(3)
                if p["suspicion"]["penance_taken"][lvl] and not p["penance_removed"][lvl]]
        players.append({
            "name": names[i], "vp": p["vp"], "principle": p["principle"],
            "status": rules.status_of(p["suspicion"]), "suspicion": p["suspicion"]["position"],
            "penance_vp": held, **p["final"], "turn_order": rank[i],
        })
    return {"cathedral": board["cathedral"], "players": players}


def final_result(state: dict, names: list[str]) -> dict | None:
    """Score a finished table with the `score` rules function, or None if values are missing."""
    doc = score_document(state, names)
    return run_score(doc) if doc else None


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
            "philosopher": rules.philosopher_unavailable(sus, p.get("philosopher_used", False)),
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
    result = final_result(state, names) if state["phase"] == "final" else None
    order_now = [names[i] for i in state["order"]]
    cycle5 = [names[i] for i in state["cycle5_order"]] if state["cycle5_order"] else None
    penalty = board.get("prohibition_suspicion", {}).get(str(state["cycle"]))
    alt_winners = None
    if result and cycle5 and cycle5 != order_now:
        # GAL-C5: the tie-break by the order in force during Cycle 5, shown when it differs
        doc = score_document(state, names)
        for i, p in enumerate(doc["players"]):
            p["turn_order"] = state["cycle5_order"].index(i) + 1
        alt_winners = run_score(doc)["winners"]
    return {
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
        "missing_final": _missing_final(state, names) if state["phase"] == "final" and result is None else [],
        "alt_winners": alt_winners,
        "breakdown_rows": BREAKDOWN_ROWS,
        "tie_order": order_now,
        "cycle5_order": cycle5 if cycle5 and cycle5 != order_now else None,
        "passing_order": options.get("passing_order", "literal"),
        "stake_overshoot": options.get("stake_overshoot", "discard"),
    }


#: how a page names a refused field (companion/wording.py)
LABELS = {
    "vp.delta": "{who}'s VP change",
    "suspicion.delta": "{who}'s suspicion change",
    "delta": "{who}'s change",
}


def view(state: dict, names: list[str], options: dict, profile: dict, seat: int | None, screen: str | None) -> dict:
    """Return what templates/galileo/panel.html shows: turn, tracks, checks and the score."""
    return build(state, list(names), options)


def counter(state: dict, type_: str, data: dict) -> int | None:
    """The VP stepper answers alone. Suspicion does not: crossing a threshold brings up
    Penance, Prison or the Stake, which the whole panel must show at once."""
    player = data.get("player")
    if type_ == "vp" and isinstance(player, int) and 0 <= player < len(state["players"]):
        return state["players"][player]["vp"]
    return None
