"""What the Gutenberg templates show, computed with the rules (no Flask here)."""

from __future__ import annotations

from . import rules, solo, table
from .facts import ACTION_LABELS, ACTIONS, CHARACTERS, MAX_PER_ACTION, PLANNING_CARDS, ROUNDS, SPECIALTIES, SPECIALTY_LABELS
from .functions import score_result

SCREENS = ("table", "end")
END_LABELS = {"fame_track": "Fame track", "specialties": "Specialties", "patronage": "Patronage cards",
              "guilders": "Guilders"}


def seat_name(who, names: list[str]) -> str:
    """Return the display name of a seat."""
    return "Automa" if who == table.AUTOMA else names[who]


def round_order(state: dict) -> list:
    """Return this round's player order from the first-player token (player indexes and "automa")."""
    return rules.round_order(state["seats"], state["first"])


def orders(state: dict) -> dict[str, list]:
    """Return who acts in turn on each action, for the seats whose markers are known."""
    known = {}
    for who in state["seats"]:
        markers = (state["automa"] or {}).get("markers") if who == table.AUTOMA else state["players"][who]["markers"]
        if who == table.AUTOMA and not state["automa"].get("card"):
            markers = None  # the automa's plan is known once its card is revealed
        if markers:
            known[who] = markers
    return rules.action_order([w for w in round_order(state) if w in known], known)


#: how a page names a refused field (companion/wording.py)
LABELS = {
    "fame.delta": "{who}'s fame change",
    "guilders.delta": "{who}'s guilders change",
    "delta": "{who}'s change",
}


def view(state: dict, names: list[str], options: dict, profile: dict, seat: int | None, screen: str | None) -> dict:
    """Return the acting orders, the automa's prompts and the final tally for the templates."""
    order = round_order(state)
    held = {who: table.holding(state, who) for who in state["seats"]}
    the = state["automa"]
    players = []
    for i, p in enumerate(state["players"]):
        character = CHARACTERS.get(p["character"] or "")
        players.append({
            "index": i,
            "name": names[i],
            "p": p,
            "holds": held[i],
            "placed": sum(p["markers"].values()) if p["markers"] else None,
            "next_type_cost": rules.type_cost(p["types"], 1),
            "character": character,
            "levels": [{"key": s, "label": SPECIALTY_LABELS[s], "level": p["specialties"][s],
                        "roman": table.ROMAN[p["specialties"][s]]} for s in SPECIALTIES],
            "rewards_taken": len(p["rewards"]),
            "can_shift": p["character"] == "johannes_gutenberg" and p["markers"] is not None
            and p["used"].get("gutenberg") != state["round"],
            "can_swap": p["character"] == "christophorus_plantinus" and p["used"].get("plantinus") != state["round"],
            "can_torinus": p["character"] == "godofredus_torinus" and p["used"].get("torinus") != state["round"],
            "can_helena": p["character"] == "helena_ungler" and "helena" not in p["used"] and not p["rewards"]
            and not any(p["specialties"].values()),
        })
    acting = orders(state)
    order_rows = []
    for action in ACTIONS:
        entries = []
        for who in acting[action]:
            count = the["markers"][action] if who == table.AUTOMA else state["players"][who]["markers"][action]
            entries.append({"name": seat_name(who, names), "count": count, "automa": who == table.AUTOMA,
                            "done": who == table.AUTOMA and action in the["done"]})
        order_rows.append({"action": action, "label": ACTION_LABELS[action], "entries": entries})
    missing = [names[i] for i, p in enumerate(state["players"]) if p["markers"] is None]
    context = {
        "actions": [{"key": a, "label": ACTION_LABELS[a]} for a in ACTIONS],
        "specialties": [{"key": s, "label": SPECIALTY_LABELS[s]} for s in SPECIALTIES],
        "characters": list(CHARACTERS.values()),
        "max_per_action": MAX_PER_ACTION,
        "rounds": ROUNDS,
        "order": [{"name": seat_name(w, names), "holds": held[w], "automa": w == table.AUTOMA} for w in order],
        "first_name": seat_name(order[0], names),
        "players": players,
        "acting": order_rows,
        "missing_markers": missing,
        "automa": automa_view(state, profile) if the else None,
        "screen": screen if screen in SCREENS else ("end" if state["finished"] else "table"),
    }
    if state["finished"] or context["screen"] == "end":
        context["final"] = final(state, names)
    return context


def counter(state: dict, type_: str, data: dict) -> int | None:
    """A player card's steppers: fame, guilders, inks, types, patronage cards."""
    if type_ in table.COUNTS and isinstance(data.get("player"), int):
        return state["players"][data["player"]][type_]
    return None


def automa_view(state: dict, profile: dict) -> dict:
    """Return the automa's step for the panel: layout, card, question, what it removed."""
    the = state["automa"]
    catalogue = profile.get("planning_cards") or {}
    question = None
    if the["step"]:
        item = the["step"]["items"][-1]
        question = {"action": ACTION_LABELS[the["step"]["action"]], "text": solo.question_text(item),
                    "card": solo.current_card(item), "drawn": list(item["drawn"])}
    can_act = [a for a in ACTIONS if the["card"] and the["markers"] and the["markers"][a] > 0
               and a not in the["done"] and not the["step"]]
    return {
        "markers": the["markers"],
        "needs_layout": the["markers"] is None,
        "card": the["card"],
        "centre": ACTION_LABELS[the["card"]["centre"]] if the["card"] else None,
        "steps": [step_text(s) for s in the["steps"]],
        "question": question,
        "can_act": can_act,
        "done": [{"label": ACTION_LABELS[a], "outcomes": o} for a, o in the["done"].items()],
        "idle": [ACTION_LABELS[a] for a in ACTIONS if the["card"] and the["markers"] and the["markers"][a] == 0],
        "catalogue": sorted(int(n) for n in catalogue),
        "can_draw": len(catalogue) == PLANNING_CARDS and (the["deck"] is None or bool(the["deck"])),
        "cards_left": len(the["deck"]) if the["deck"] is not None else None,
    }


def end_label(end: str) -> str:
    """Return how a planning card's arrow end reads: an action, min. or max."""
    return {"min": "min.", "max": "max."}.get(end) or ACTION_LABELS[end]


def step_text(step: dict) -> str:
    """Say what one arrow of the planning card did."""
    arrow = f"{end_label(step['arrow'][0])} → {end_label(step['arrow'][1])}"
    source, target = ACTION_LABELS[step["from"]], ACTION_LABELS[step["to"]]
    if step["moved"] == "forward":
        return f"{arrow}: one marker moves from {source} to {target}."
    if step["moved"] == "reverse":
        return f"{arrow}: {source} is empty, so one marker moves from {target} to {source}."
    if step["from"] == step["to"]:
        return f"{arrow}: both are {source}, nothing moves."
    if "already has" in step["reason"]:
        return f"{arrow}: {target} already has 6 markers, nothing moves."
    return f"{arrow}: neither {source} nor {target} has a marker, nothing moves."


def final(state: dict, names: list[str]) -> dict:
    """Return the final tally: every total with its breakdown, places and what decided ties."""
    players = [{"name": names[i], "fame": p["fame"], "guilders": p["guilders"],
                "levels": [p["specialties"][s] for s in SPECIALTIES], "patronage_cards": p["patronage_cards"],
                "types": p["types"], "inks": p["inks"], "character": p["character"]}
               for i, p in enumerate(state["players"])]
    # [GB369] titles are for solitaire players
    result = score_result(players, solo=len(players) == 1)
    by_name = {p["name"]: p for p in players}
    rows = sorted(result["players"], key=lambda r: (result["places"][r["name"]], r["name"]))
    for r in rows:
        r["place"] = result["places"][r["name"]]
        r["types"] = by_name[r["name"]]["types"]
        r["inks"] = by_name[r["name"]]["inks"]
        vietor = by_name[r["name"]]["character"] == "hieronymus_vietor"
        r["parts"] = [{"label": END_LABELS[k] + (" (doubled: Vietor)" if k == "guilders" and vietor else ""),
                       "points": v} for k, v in r["breakdown"].items()]
    return {"rows": rows, "winners": result["winners"], "solo": len(players) == 1}
