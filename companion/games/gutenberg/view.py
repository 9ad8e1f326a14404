"""What the Gutenberg templates show, computed with the rules (no Flask here)."""

from __future__ import annotations

from .. import sentence
from ..base import is_calculator
from ..sentence import Sentence
from ..words import plural, standing
from . import automa, calculator, profile as box, rules, solo, table
from .facts import (
    ACTION_LABELS,
    ACTIONS,
    AUTOMA_MARKERS,
    CHARACTERS,
    INK_SET_COSTS,
    MARKERS_BY_SEAT,
    MAX_LEVEL,
    MAX_PER_ACTION,
    PLANNING_CARDS,
    REWARD_LEVELS,
    ROUNDS,
    SPECIALTIES,
    SPECIALTY_LABELS,
    TORINUS_FAME,
)

SCREENS = ("table", "end")
#: the five actions as the forms list them, board order [GB97-102]
ACTION_ROWS = [{"key": a, "label": ACTION_LABELS[a]} for a in ACTIONS]
END_LABELS = {"fame_track": "Fame track", "specialties": "Specialties", "patronage": "Patronage cards",
              "guilders": "Guilders"}
#: [GB145] the inks of a set, left to right, as the board lays them out
INK_POSITIONS = ("left", "centre", "right")
#: [GB360-363] a planning card's arrow ends besides the actions
ARROW_END_LABELS = {"min": "min.", "max": "max."}
#: [GB170-172] the rewards a reward-track space may show (profile.REWARD_KINDS), as the box profile form names them
REWARD_LABELS = {"ink": "1 ink", "order": "1 order", "type": "1 free type"}
#: [GB403] a character's setup the app leaves to the players, recalled on their card
REMINDERS = {"carola_guillard": "Carola Guillard: draw 4 random gears, keep 2 and install them."}


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


#: what the running score is, for the archive's chart (Game.running_label)
RUNNING_LABEL = "fame on the fame track"

#: how a page names a refused field (companion/wording.py): event fields, setup options, box profile
LABELS = {
    "player": "{who}",
    "fame.delta": "{who}'s fame change",
    "guilders.delta": "{who}'s guilders change",
    "inks.delta": "{who}'s inks change",
    "types.delta": "{who}'s types change",
    "patronage_cards.delta": "{who}'s patronage cards change",
    "delta": "{who}'s change",
    "buy_types.count": "{who}'s types to buy",
    "take_inks.first": "where {who} starts taking inks",
    "take_inks.count": "how many inks {who} takes",
    "develop.specialty": "{who}'s specialty",
    "develop.steps": "{who}'s development steps",
    "character": "{who}'s character",
    "level_one": "{who}'s level I specialty",
    "level_two": "{who}'s level II specialty",
    "plantinus_swap.first": "the first specialty {who} swaps",
    "plantinus_swap.second": "the second specialty {who} swaps",
    "gutenberg_shift.from": "the action {who} shifts a marker from",
    "gutenberg_shift.to": "the action {who} shifts a marker to",
    "markers": "{who}'s markers",
    **{f"markers.{a}": f"{{who}}'s markers on {label}" for a, label in ACTION_LABELS.items()},
    "layout": "the automa's starting layout",
    **{f"layout.{a}": f"the automa's starting markers on {label}" for a, label in ACTION_LABELS.items()},
    "card": "the planning card",
    "card.centre": "the planning card's centre icon",
    "card.moves": "the planning card's arrows",
    "card.moves[]": "the planning card's {nth} arrow",
    "card.moves[][]": "an end of a planning card arrow",
    "card.from": "the planning card's arrows",
    "card.from[]": "where the planning card's {nth} arrow starts",
    "card.to": "the planning card's arrows",
    "card.to[]": "where the planning card's {nth} arrow points",
    "card.patronage": "the planning card's patronage icon",
    "number": "the planning card's number",
    "draw": "drawing the planning card",
    "action": "the automa's action",
    "available": "the answer",
    # setup options
    "automa": "the automa",
    "automa_seat": "the automa's seat",
    "first_player": "the first player",
    "take_orders_deck": "the automa's Take Orders draws",
    # box profile
    "planning_cards": "the planning cards",
    "automa_start": "the automa's starting layout",
    **{f"automa_start.{a}": f"the automa's starting markers on {label}" for a, label in ACTION_LABELS.items()},
    **{f"planning_cards.{n}{part}": f"planning card {n}{words}" for n in range(1, PLANNING_CARDS + 1)
       for part, words in (("", ""), (".centre", "'s centre icon"), (".moves", "'s arrows"), (".from", "'s arrows"),
                           (".to", "'s arrows"), (".from[]", "'s {nth} arrow"), (".to[]", "'s {nth} arrow"),
                           (".moves[]", "'s {nth} arrow"), (".moves[][]", "'s arrow ends"),
                           (".patronage", "'s patronage icon"))},
    "reward_track": "the reward track",
    "reward_track[]": "reward-track space {nth}",
    # calculator mode's row (calculator.py), named as the player's board shows it
    "sheet.fame": "{who}'s fame track",
    "fame": "{who}'s fame track",
    "guilders": "{who}'s guilders",
    "patronage_cards": "{who}'s patronage cards",
    "types": "{who}'s types",
    "inks": "{who}'s inks",
    "specialties": "{who}'s specialty levels",
    **{f"specialties.{s}": f"{{who}}'s {label} level" for s, label in SPECIALTY_LABELS.items()},
    "sheet.guilders": "{who}'s guilders",
    "sheet.specialties": "{who}'s specialty levels",
    **{f"sheet.specialties.{s}": f"{{who}}'s {label} level" for s, label in SPECIALTY_LABELS.items()},
    "sheet.patronage_cards": "{who}'s patronage cards",
    "sheet.types": "{who}'s types",
    "sheet.inks": "{who}'s inks",
    "sheet.character": "{who}'s character",
}


def screen_of(screen: str | None, n: int) -> str | None:
    """Return the screen asked for if it is one of SCREENS, else None (view picks by the state)."""
    return screen if screen in SCREENS else None


def view(state: dict, names: list[str], options: dict, profile: dict, screen: str | None) -> dict:
    """Return the acting orders, the automa's prompts and the final tally for the templates."""
    if is_calculator(options):
        return calculator_view(state, names, options)
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
            # [GB242-244] the n-th type costs n guilders
            "buy_label": f"Buy a type: {plural(rules.type_cost(p['types'], 1), 'guilder')}",
            "character": character,
            "reminder": REMINDERS.get(p["character"] or ""),
            "levels": [{"key": s, "label": SPECIALTY_LABELS[s], "level": p["specialties"][s],
                        "roman": table.ROMAN[p["specialties"][s]]} for s in SPECIALTIES],
            "rewards_taken": len(p["rewards"]),
            # each power offered while its event is taken; Gutenberg's shift after the reveal [GB398]
            "can_shift": offers(state, p, "gutenberg") and p["markers"] is not None,
            "can_swap": offers(state, p, "plantinus"),
            "can_torinus": offers(state, p, "torinus"),
            "can_helena": offers(state, p, "helena"),
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
        **_common(),
        "actions": ACTION_ROWS,
        "max_per_action": MAX_PER_ACTION,
        "arrow_ends": list(ARROW_END_LABELS.items()),
        # [GB93] the game lasts 6 rounds: the next end of round ends it
        "last_round": state["round"] >= ROUNDS,
        "ink_positions": ink_positions(),
        "ink_counts": list(range(1, len(INK_SET_COSTS) + 1)),
        "reward_spaces": len(REWARD_LEVELS),  # [GB162] one space for each of II, IV, V and VI
        "torinus_yes": f"Yes: +{TORINUS_FAME} fame for ",  # [GB405]
        "helena_label": f"Helena's setup (+{plural(table.HELENA_INKS, 'ink')})",  # [GB404]
        "shift_label": f"Gutenberg shifts {plural(table.SHIFTED, 'marker')} from",  # [GB398]
        "order": [{"name": seat_name(w, names), "holds": held[w], "automa": w == table.AUTOMA} for w in order],
        "players": players,
        "acting": order_rows,
        "missing_markers": missing,
        # the last event's words ("row saved; waiting for Tom"): plain text in the state, its names marked here
        "notice": dict(state["notice"], text=sentence.naming(state["notice"]["text"], names)) if state.get("notice") else None,
        # the automa's panel while the game is on (its events are refused once it is over)
        "automa": automa_view(state, profile) if the and not state["finished"] else None,
        "screen": screen if screen in SCREENS else ("end" if state["finished"] else "table"),
    }
    if state["finished"] or context["screen"] == "end":
        context["final"] = final(state, names)
    context["sheets"] = sheets(state, names, options, None) if state["finished"] else None
    context["scoreboard"] = scoreboard(state, names, options, context.get("final"), order[0])
    return context


def offers(state: dict, p: dict, power: str) -> bool:
    """True when a player's character has this power (a key of table.POWERS) and it is still to use."""
    return p["character"] == table.POWERS[power] and table.power_open(state, p, power)


def _common() -> dict:
    """What a tracked table's panel and a calculator table's share: the end values' names and bounds."""
    return {"specialties": [{"key": s, "label": SPECIALTY_LABELS[s]} for s in SPECIALTIES],
            "characters": list(CHARACTERS.values()),
            "rounds": ROUNDS,  # [GB93]
            # [GB166] levels 0 to VI; GUT-C6: the lowest space is 0
            "level_hint": f"level 0–{MAX_LEVEL} ({table.ROMAN[MAX_LEVEL]} = {MAX_LEVEL})"}


def ink_positions() -> list[dict]:
    """Where a player may start taking inks from a set, each with what its ink costs [GB145]."""
    return [{"first": first, "label": f"{where} ({rules.ink_cost(first, 1) or 'free'})"}
            for first, where in enumerate(INK_POSITIONS, 1)]


def sheets(state: dict, names: list[str], options: dict, result: dict | None) -> list[dict]:
    """Return each player's final-scoring row for the sheet form: their values as the table knows them,
    and on a calculator table where the row stands (in or not, then its total and place)."""
    calculator_mode = is_calculator(options)
    waiting = calculator.waiting(state, names) if calculator_mode else []
    totals = {r["name"]: r for r in result["rows"]} if result else {}
    rows = []
    for i, p in enumerate(state["players"]):
        known = not calculator_mode or state["rows_in"][i]
        status = row_status(known, totals.get(names[i]), waiting) if calculator_mode else ""
        rows.append({"index": i, "name": names[i], "in": known, "status": status,
                     # a row not in yet starts at 0, as Voynich's and Galileo's do: a zero costs nothing (issue 27)
                     "values": {k: p[k] if known else 0 for k in table.COUNTS},
                     "levels": {s: p["specialties"][s] if known else 0 for s in SPECIALTIES},
                     "character": p["character"] if known else None})
    return rows


def row_status(known: bool, final_row: dict | None, waiting: list[str]) -> str:
    """Say where a calculator table's row stands: not in, in while others are awaited, or its total and place."""
    if final_row:
        standing_words = "winner" if final_row["winner"] else f"place {final_row['place']}"
        return f"Row in: {final_row['total']} points, {standing_words}"
    if known:
        return Sentence("Row in; waiting for " + ", ".join(sentence.names(waiting)))
    return "Not in yet"


def calculator_view(state: dict, names: list[str], options: dict) -> dict:
    """Calculator mode: every player's row, and the tally once all rows are in."""
    result = final(state, names) if state["finished"] else None
    return {**_common(), "calculator": True, "screen": "end", "sheets": sheets(state, names, options, result),
            "final": result, "waiting": calculator.waiting(state, names),
            "scoreboard": scoreboard(state, names, options, result, None)}


def scoreboard(state: dict, names: list[str], options: dict, result: dict | None, first) -> list[dict]:
    """The compact scoreboard: fame (or the final total) and a short status for every player."""
    totals = {r["name"]: r for r in result["rows"]} if result and state["finished"] else {}
    calculator_mode = is_calculator(options)
    board = []
    for i, p in enumerate(state["players"]):
        final_row = totals.get(names[i])
        if final_row:
            score, status = final_row["total"], standing(final_row["place"], final_row["winner"])
        elif calculator_mode:
            score, status = None, "row in" if state["rows_in"][i] else "waiting"
        else:
            score = p["fame"]
            status = "first player" if first == i else None
        board.append({"seat": i, "name": names[i], "score": score, "status": status, "turn": False})
    return board


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
    return {
        "markers": the["markers"],
        "needs_layout": the["markers"] is None,
        "start_markers": AUTOMA_MARKERS,  # [GB318]
        "card": the["card"],
        "centre": ACTION_LABELS[the["card"]["centre"]] if the["card"] else None,
        "steps": [step_text(s) for s in the["steps"]],
        "question": question,
        "can_act": [a for a in ACTIONS if solo.act_refusal(the, a) is None],
        "done": [{"label": ACTION_LABELS[a], "outcomes": o} for a, o in the["done"].items()],
        "idle": [ACTION_LABELS[a] for a in solo.idle(the)],
        "catalogue": sorted(int(n) for n in catalogue),
        "can_draw": len(catalogue) == PLANNING_CARDS and (the["deck"] is None or bool(the["deck"])),
        "cards_left": len(the["deck"]) if the["deck"] is not None else None,
    }


def end_label(end: str) -> str:
    """Return how a planning card's arrow end reads: an action, min. or max."""
    return ARROW_END_LABELS.get(end) or ACTION_LABELS[end]


def step_text(step: dict) -> str:
    """Say what one arrow of the planning card did."""
    arrow = f"{end_label(step['arrow'][0])} → {end_label(step['arrow'][1])}"
    source, target = ACTION_LABELS[step["from"]], ACTION_LABELS[step["to"]]
    if step["moved"] == "forward":
        return f"{arrow}: one marker moves from {source} to {target}."
    if step["moved"] == "reverse":
        return f"{arrow}: {source} is empty, so one marker moves from {target} to {source}."
    if step["reason"] == automa.SAME:
        return f"{arrow}: both are {source}, nothing moves."
    if step["reason"] == automa.EMPTY:
        return f"{arrow}: neither {source} nor {target} has a marker, nothing moves."
    # [GB367] no marker moves to an action that already has 6 (GUT-C14)
    return f"{arrow}: {target} already has {MAX_PER_ACTION} markers, nothing moves."


def final(state: dict, names: list[str]) -> dict:
    """Return the final tally: every total with its breakdown, places and what decided ties."""
    result = calculator.score(state, names)
    if result is None:
        return None
    line = verdict(result)
    by_name = {names[i]: p for i, p in enumerate(state["players"])}
    rows = sorted(result["players"], key=lambda r: (result["places"][r["name"]], r["name"]))
    for r in rows:
        r["place"] = result["places"][r["name"]]
        r["winner"] = r["name"] in result["winners"]
        r["types"] = by_name[r["name"]]["types"]
        r["inks"] = by_name[r["name"]]["inks"]
        r["tie_line"] = tie_line(r)
        vietor = by_name[r["name"]]["character"] == rules.VIETOR
        r["parts"] = [{"label": END_LABELS[k] + (" (doubled: Vietor)" if k == "guilders" and vietor else ""),
                       "points": v} for k, v in r["breakdown"].items()]
    return {"rows": rows, "winners": result["winners"], "winner_line": line}


def tie_line(r: dict) -> str | None:
    """Say how a player's tie on their total was settled [GB307]: by fewer types or inks, or not at all."""
    if not r["tie_break"]:
        return None
    how = f"decided by {r['tie_break']}" if r["tie_break"] in rules.TIE_BREAKS else "the tie stands"
    return f"Tied on {r['total']}: {how} ({plural(r['types'], 'type')}, {plural(r['inks'], 'ink')})"


# --- results (companion/results.py: the archive, the result endpoint, BG Stats) -------------------

def running_score(state: dict, options: dict) -> list[int] | None:
    """Return each player's fame on the fame track, in seat order; None on a calculator table."""
    if is_calculator(options):
        return None  # a calculator table tracks nothing before the end
    # [GB80] each player's disk on the fame track, the points earned during the game [GB298]
    return [p["fame"] for p in state["players"]]


def start_player(state: dict, options: dict) -> int | None:
    """Return the player who held the first-player token in round 1, where a tracked table knows it.

    None on a calculator table, and with the automa: it takes the token [GB327] and is no player
    of the result (it has no score, RULES.md D2 step 6).
    """
    if is_calculator(options) or options.get("automa"):
        return None
    # [GB72] the first player takes the first-player token; [GB86] and picks the first order
    first = options.get("first_player", 0)
    return first if isinstance(first, int) and 0 <= first < len(state["players"]) else None


def verdict(result: dict) -> Sentence:
    """Say who won from a `score` result, naming the tie-break that decided it [GB307]: "Tom wins on fewer types".

    The end screen's line (`final`) is this one. A solo game has no winner to name: the automa
    has no score (RULES.md D2 step 6), so the line gives the professional title [GB369].
    A Sentence: plain as a str, each name in <bdi> on a page (games/sentence.py).
    """
    winners = result["winners"]
    players = {p["name"]: p for p in result["players"]}
    first = sentence.name(winners[0])
    if len(players) == 1 and "title" in players[winners[0]]:
        return Sentence(f"{first} earns the title {players[winners[0]]['title']}")
    if len(winners) > 1:
        names = ", ".join(sentence.names(winners[:-1])) + " and " + sentence.name(winners[-1])
        return Sentence(f"Shared victory: {names} (the tie stands after types and inks)")
    decided = players[winners[0]]["tie_break"]
    if decided:
        return Sentence(f"{first} wins on {decided}")
    return Sentence(f"{first} wins")


# --- the forms without a table: the box profile and the setup options ---------------------------------

def profile_form() -> dict:
    """What templates/gutenberg/profile.html asks, with the rules' numbers (its page has no table, so no view)."""
    levels = [table.ROMAN[level] for level in REWARD_LEVELS]
    return {
        "actions": ACTION_ROWS,
        "arrow_ends": list(ARROW_END_LABELS.items()),
        "max_per_action": MAX_PER_ACTION,  # [GB114]
        "start_markers": AUTOMA_MARKERS,  # [GB318]
        "planning_cards": PLANNING_CARDS,  # [GB330]
        "card_numbers": list(range(1, PLANNING_CARDS + 1)),
        "reward_spaces": len(REWARD_LEVELS),  # [GB162]
        "reward_levels": ", ".join(levels[:-1]) + " or " + levels[-1],
        "reward_kinds": [(kind, REWARD_LABELS[kind]) for kind in box.REWARD_KINDS],
    }


def setup_form() -> dict:
    """What templates/gutenberg/setup.html offers, with the rules' numbers (the new-table page has no table)."""
    return {
        "automa_players": f"1 to {table.AUTOMA_MAX_PLAYERS}",  # [GB313]
        "automa_seats": table.AUTOMA_MAX_PLAYERS,  # players sitting before it: 0 to all of them
        # [GB56] 2 to 4 players, [GB77] a marker count for each seat: the first player is one of them
        "first_players": [{"index": i, "label": f"Player {i + 1}"} for i in range(1, len(MARKERS_BY_SEAT))],
    }


def form(name: str, data: object = None) -> dict:
    """What a form without a table shows (Game.form): setup.html's options and profile.html's rule values."""
    return {"setup": setup_form, "profile": profile_form}[name]()
