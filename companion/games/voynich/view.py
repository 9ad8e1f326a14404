"""What templates/voynich/panel.html shows, computed with the rules (plain Python, no Flask)."""

from __future__ import annotations

from typing import Any

from ..validation import places
from ..words import ordinal, standing
from . import calculator, rules
from .profile import SOLO_PARTS, SPACE_ROWS, effective_track
from .rules import KNOWLEDGE, MARKERS, SECTIONS
from .solo import AUTOMA, seat_names
from .table import PAGE_NAMES, end_gk

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


def view(state: dict, names: list[str], options: dict, profile: dict, seat: int | None, screen: str | None) -> dict:
    """Return what templates/voynich/panel.html needs beyond the state (Voynich named at a solo table)."""
    return build_view(state, seat_names(names), options, profile, seat, screen)


def counter(state: dict, type_: str, data: dict) -> int | None:
    """A player's marker steppers: the knowledge tracks and GK."""
    player, marker = data.get("player"), data.get("marker")
    if type_ == "move" and isinstance(player, int) and 0 <= player < len(state["players"]):
        return state["players"][player]["markers"].get(marker)
    return None


def build_view(state: dict, everyone: list[str], options: dict, profile: dict, seat: int | None, screen: str | None) -> dict:
    """Return the panel's context: players with their pages and scores, the end, Voynich's turn."""
    track = effective_track(state, profile)
    spaces = {int(k): v for k, v in track.get("scoring_spaces", {}).items()}
    catalogue = profile.get("cards", {})
    solo = state["solo"]
    automa = len(everyone) - 1 if solo else None
    v = state.get("voynich")
    players = []
    for i, p in enumerate(state["players"]):
        pages = [dict(resolve_page(p, k, catalogue), index=k, name=PAGE_NAMES[k]) for k in range(len(p["pages"]))]
        players.append({
            "index": i, "name": everyone[i], "automa": i == automa,
            "markers": [{"key": m, "label": MARKER_LABELS[m], "value": p["markers"][m]} for m in MARKERS],
            "positions": dict(p["markers"]),
            "exchange": {k: n for k, n in p["exchange"].items() if n},
            "pages": pages, "research": p["research"], "cards": p["cards"],
        })
    result = score_table(state, players, spaces, options, automa)
    out: dict[str, Any] = {
        "players": players,
        "turn": state["turn"], "turn_name": everyone[state["turn"]], "round": state["round"],
        "track": track, "has_spaces": bool(spaces), "has_insights": "insights" in track,
        "end_gk": end_gk(track), "grid": profile.get("grid"), "has_catalogue": bool(catalogue),
        "result": result,
        "knowledge": KNOWLEDGE, "sections": SECTIONS, "difficulties": rules.DIFFICULTIES,
        "difficulty_labels": DIFFICULTY_LABELS, "marker_labels": MARKER_LABELS,
        "solo": solo, "automa": automa,
        "screen": screen if screen in ("end", "track", "book") else None,
        "calculator": bool(state.get("calculator")),
        "rows": [sheet_row(state, p, i) for i, p in enumerate(players)],
        "page_names": PAGE_NAMES,
    }
    if out["calculator"]:
        out["calc"] = calculator.result(state, everyone, options, track)
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
        out["voynich"] = voynich_view(state, v, profile, players[automa])
    else:
        out["voynich"] = None
    return out


def sheet_row(state: dict, p: dict, i: int) -> dict:
    """What one player's end-scoring form shows: the saved row (calculator), or the tracked values."""
    if state.get("calculator"):
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


def voynich_view(state: dict, v: dict, profile: dict, player: dict) -> dict:
    """Return Voynich's deck, his current turn and the scan orders for its priority number."""
    turn = v["turn"]
    out = {
        "difficulty": v["difficulty"], "difficulty_label": DIFFICULTY_LABELS[v["difficulty"]],
        "deck_left": len(v["deck"]), "discard_top": v["discard"][-1] if v["discard"] else None,
        "open": v["open"], "turn": turn, "tokens_on_board": v["tokens_on_board"],
        "advanced": [PAGE_NAMES[player["cards"].index(c)] + f" (card {c})" for c in v["advanced"]],
        "needs_tokens": rules.TOKEN_GK[v["difficulty"]] > 0,
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


def score_table(state: dict, players: list[dict], spaces: dict[int, int], options: dict, automa: int | None) -> dict:
    """Score everyone from the table's entries; say what is still missing instead of guessing."""
    missing: list[str] = []
    if not spaces:
        missing.append("the score track's scoring spaces (box profile, or enter them at the table)")
    v = state.get("voynich")
    if automa is not None:
        if v is None:
            missing.append(f"{AUTOMA}'s setup (his cards and the difficulty)")
        elif rules.TOKEN_GK[v["difficulty"]] and v["tokens_on_board"] is None:
            missing.append(f"the number of {AUTOMA}'s tokens on the board")
    scored = []
    for p in players:
        pages = []
        for page in p["pages"]:
            m = page["multiplier"]
            if m is None:
                missing.append(f"{p['name']}: the multiplier of {page['name']} (phase {page['phase']})")
                m = 0
            entry = {"section": page["section"], "multiplier": m}
            if page["section"] == "recipes":
                if m and not page["choices"]:
                    missing.append(f"{p['name']}: the two knowledge types of {page['name']}")
                    entry["multiplier"] = 0
                if page["choices"]:
                    entry["choices"] = page["choices"]
                if page["chosen"]:
                    entry["chosen"] = page["chosen"]
            pages.append(entry)
        raw = {"name": p["name"], "gk": p["positions"]["gk"],
               "markers": {k: p["positions"][k] for k in KNOWLEDGE},
               "research": p["research"], "pages": pages}
        if p["automa"] and v is not None:
            r = rules.score_player(raw, spaces, v["difficulty"], v["tokens_on_board"] or 0)
        else:
            r = rules.score_player(raw, spaces)
        for d, page in zip(r["pages_detail"], p["pages"]):
            d["name"] = page["name"]
            d["multiplier"] = page["multiplier"]
            d["phase"] = page["phase"]
        scored.append(r)
    keys = {r["name"]: (r["total"],) + tuple(r["tie_break"]) for r in scored}
    winners, ranks = places(keys)
    out = {"players": scored, "missing": missing, "complete": not missing, "tie_winners": winners}
    if automa is not None:
        human, voy = scored[0], scored[automa]
        tie_rule = options.get("solo_tie", "strict")
        won = human["total"] > voy["total"] or (
            human["total"] == voy["total"] and tie_rule == "tie_break" and winners == [human["name"]])
        out["winners"] = [human["name"]] if won else [voy["name"]]
        out["outcome"] = "win" if won else "loss"
        out["tied"] = human["total"] == voy["total"]
        out["tie_rule"] = tie_rule
    else:
        out["winners"] = winners
        out["tied"] = len(winners) > 1
    out["places"] = ranks
    top = max(r["total"] for r in scored)
    tied = [r for r in scored if r["total"] == top]
    if len(tied) > 1:
        # [V367] the furthest knowledge marker, then the second furthest, ...; else shared
        out["tie_break"] = {
            "total": top,
            "players": [{"name": r["name"], "markers": r["tie_break"]} for r in tied],
            "winners": [w for w in winners if any(w == r["name"] for r in tied)],
        }
    else:
        out["tie_break"] = None
    return out

