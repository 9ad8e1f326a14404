"""What the Gutenberg templates show, computed with the rules (no Flask here)."""

from __future__ import annotations

from .. import sentence
from ..base import is_calculator, shown_notice
from ..sentence import Sentence
from ..speech import N_, SOURCE, _, gettext, language, ngettext, pgettext
from ..words import standing
from . import automa, calculator, profile as box, rules, solo, table
from .calculator import SHEET_LABELS
from .facts import (
    ACTIONS, AUTOMA_MARKERS, CHARACTERS, INK_SET_COSTS, MARKERS_BY_SEAT, MAX_LEVEL, MAX_PER_ACTION,
    PLANNING_CARDS, REWARD_LEVELS, ROUNDS, SPECIALTIES, TORINUS_FAME, guilders, specialty,
)
from .profile import PROFILE_LABELS

SCREENS = ("table", "end")
#: the tie-breaks a result names ([GB307], rules.TIE_BREAKS), as a page says them
TIE_BREAKS = {"fewer types": N_("fewer types"), "fewer inks": N_("fewer inks")}
END_LABELS = {"fame_track": N_("Fame track"), "specialties": N_("Specialties"), "patronage": N_("Patronage cards"),
              "guilders": N_("Guilders")}
#: [GB145] the inks of a set, left to right, as the board lays them out
INK_POSITIONS = (N_("left"), N_("centre"), N_("right"))
#: [GB360-363] a planning card's arrow ends besides the actions
ARROW_END_LABELS = {"min": N_("min."), "max": N_("max.")}
#: [GB170-172] the rewards a reward-track space may show (profile.REWARD_KINDS), as the box profile form names them
REWARD_LABELS = {"ink": N_("1 ink"), "order": N_("1 order"), "type": N_("1 free type")}
#: [GB403] a character's setup the app leaves to the players, recalled on their card
REMINDERS = {"carola_guillard": N_("Carola Guillard: draw 4 random gears, keep 2 and install them.")}


def action_rows() -> list[dict]:
    """The five actions as the forms list them, board order [GB97-102], in the language spoken."""
    return [{"key": a, "label": table.action(a)} for a in ACTIONS]


def seat_name(who, names: list[str]) -> str:
    """Return the display name of a seat."""
    return _("Automa") if who == table.AUTOMA else names[who]


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
RUNNING_LABEL = N_("fame on the fame track")

#: how a page names a refused field (companion/wording.py): event fields, setup options, box profile;
#: marked here, translated where a page shows one
LABELS = {
    "player": "{who}",
    "fame.delta": N_("{who}'s fame change"),
    "guilders.delta": N_("{who}'s guilders change"),
    "inks.delta": N_("{who}'s inks change"),
    "types.delta": N_("{who}'s types change"),
    "patronage_cards.delta": N_("{who}'s patronage cards change"),
    "delta": N_("{who}'s change"),
    "buy_types.count": N_("{who}'s types to buy"),
    "take_inks.first": N_("where {who} starts taking inks"),
    "take_inks.count": N_("how many inks {who} takes"),
    "develop.specialty": N_("{who}'s specialty"),
    "develop.steps": N_("{who}'s development steps"),
    "character": N_("{who}'s character"),
    "level_one": N_("{who}'s level I specialty"),
    "level_two": N_("{who}'s level II specialty"),
    "plantinus_swap.first": N_("the first specialty {who} swaps"),
    "plantinus_swap.second": N_("the second specialty {who} swaps"),
    "gutenberg_shift.from": N_("the action {who} shifts a marker from"),
    "gutenberg_shift.to": N_("the action {who} shifts a marker to"),
    "markers": N_("{who}'s markers"),
    "markers.take_orders": N_("{who}'s markers on Take orders"),
    "markers.take_inks": N_("{who}'s markers on Take inks"),
    "markers.develop_specialties": N_("{who}'s markers on Develop specialties"),
    "markers.improve_printing_houses": N_("{who}'s markers on Improve printing houses"),
    "markers.patronage": N_("{who}'s markers on Patronage"),
    "layout": N_("the automa's starting layout"),
    "layout.take_orders": N_("the automa's starting markers on Take orders"),
    "layout.take_inks": N_("the automa's starting markers on Take inks"),
    "layout.develop_specialties": N_("the automa's starting markers on Develop specialties"),
    "layout.improve_printing_houses": N_("the automa's starting markers on Improve printing houses"),
    "layout.patronage": N_("the automa's starting markers on Patronage"),
    "card": N_("the planning card"),
    "card.centre": N_("the planning card's centre icon"),
    "card.moves": N_("the planning card's arrows"),
    "card.moves[]": N_("the planning card's {nth} arrow"),
    "card.moves[][]": N_("an end of a planning card arrow"),
    "card.from": N_("the planning card's arrows"),
    "card.from[]": N_("where the planning card's {nth} arrow starts"),
    "card.to": N_("the planning card's arrows"),
    "card.to[]": N_("where the planning card's {nth} arrow points"),
    "card.patronage": N_("the planning card's patronage icon"),
    "number": N_("the planning card's number"),
    "draw": N_("drawing the planning card"),
    "action": N_("the automa's action"),
    "available": N_("the answer"),
    # setup options
    "automa": N_("the automa"),
    "automa_seat": N_("the automa's seat"),
    "first_player": N_("the first player"),
    "take_orders_deck": N_("the automa's Take Orders draws"),
    **PROFILE_LABELS,  # the box profile's fields (profile.py)
    **SHEET_LABELS,  # calculator mode's row (calculator.py)
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
            "buy_label": _("Buy a type: %(cost)s", cost=guilders(rules.type_cost(p["types"], 1))),
            "character": said_character(character),
            "reminder": _(REMINDERS[p["character"]]) if p["character"] in REMINDERS else None,
            "levels": [{"key": s, "label": specialty(s), "level": p["specialties"][s],
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
        order_rows.append({"action": action, "label": table.action(action), "entries": entries})
    missing = [names[i] for i, p in enumerate(state["players"]) if p["markers"] is None]
    context = {
        **_common(),
        "actions": action_rows(),
        "max_per_action": MAX_PER_ACTION,
        "arrow_ends": arrow_ends(),
        # [GB93] the game lasts 6 rounds: the next end of round ends it
        "last_round": state["round"] >= ROUNDS,
        "ink_positions": ink_positions(),
        "ink_counts": list(range(1, len(INK_SET_COSTS) + 1)),
        "reward_spaces": len(REWARD_LEVELS),  # [GB162] one space for each of II, IV, V and VI
        # Translators: a button's words before a player's name, which the page adds after them
        "torinus_yes": _("Yes: +%(fame)s fame for ", fame=TORINUS_FAME),  # [GB405]
        "helena_label": ngettext("Helena's setup (+%(num)d ink)", "Helena's setup (+%(num)d inks)", table.HELENA_INKS),  # [GB404]
        "shift_label": ngettext("Gutenberg shifts %(num)d marker from", "Gutenberg shifts %(num)d markers from", table.SHIFTED),  # [GB398]
        "order": [{"name": seat_name(w, names), "holds": held[w], "automa": w == table.AUTOMA} for w in order],
        "players": players,
        "acting": order_rows,
        "missing_markers": missing,
        # the last event's words ("row saved; waiting for Tom"): plain text in the state, its names marked here
        "notice": shown_notice(state, names),
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


def said_character(character: dict | None) -> dict | None:
    """A character tile as a page shows it: its name as printed, its rule in the language spoken."""
    return dict(character, rule=_(character["rule"])) if character else None


def arrow_ends() -> list[tuple[str, str]]:
    """A planning card's arrow ends besides the actions: min. and max. [GB360-363]"""
    return [(key, _(label)) for key, label in ARROW_END_LABELS.items()]


def _common() -> dict:
    """What a tracked table's panel and a calculator table's share: the end values' names and bounds."""
    return {"specialties": [{"key": s, "label": specialty(s)} for s in SPECIALTIES],
            "characters": [said_character(c) for c in CHARACTERS.values()],
            "rounds": ROUNDS,  # [GB93]
            # [GB166] levels 0 to VI; GUT-C6: the lowest space is 0
            "level_hint": _("level 0–%(most)s (%(roman)s = %(most)s)", most=MAX_LEVEL, roman=table.ROMAN[MAX_LEVEL])}


def ink_positions() -> list[dict]:
    """Where a player may start taking inks from a set, each with what its ink costs [GB145]."""
    return [{"first": first, "label": _("%(where)s (%(cost)s)", where=_(where), cost=rules.ink_cost(first, 1) or pgettext("cost", "free"))}
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
        if final_row["winner"]:
            return ngettext("Row in: %(num)d point, winner", "Row in: %(num)d points, winner", final_row["total"])
        return ngettext("Row in: %(num)d point, place %(place)s", "Row in: %(num)d points, place %(place)s", final_row["total"],
                        place=final_row["place"])
    if known:
        return Sentence(_("Row in; waiting for %(names)s", names=", ".join(sentence.names(waiting))))
    return _("Not in yet")


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
            score, status = None, _("row in") if state["rows_in"][i] else _("waiting")
        else:
            score = p["fame"]
            status = _("first player") if first == i else None
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
        question = {"action": table.action(the["step"]["action"]), "text": solo.question_text(item),
                    "card": solo.current_card(item), "drawn": list(item["drawn"])}
    return {
        "markers": the["markers"],
        "needs_layout": the["markers"] is None,
        "start_markers": AUTOMA_MARKERS,  # [GB318]
        "card": the["card"],
        "centre": table.action(the["card"]["centre"]) if the["card"] else None,
        "steps": [step_text(s) for s in the["steps"]],
        "question": question,
        "can_act": [a for a in ACTIONS if solo.act_refusal(the, a) is None],
        "done": [{"label": table.action(a), "outcomes": [solo.said_outcome(text) for text in o]} for a, o in the["done"].items()],
        "idle": [table.action(a) for a in solo.idle(the)],
        "catalogue": sorted(int(n) for n in catalogue),
        "can_draw": len(catalogue) == PLANNING_CARDS and (the["deck"] is None or bool(the["deck"])),
        "cards_left": len(the["deck"]) if the["deck"] is not None else None,
    }


def end_label(end: str) -> str:
    """Return how a planning card's arrow end reads: an action, min. or max."""
    return _(ARROW_END_LABELS[end]) if end in ARROW_END_LABELS else table.action(end)


def step_text(step: dict) -> str:
    """Say what one arrow of the planning card did."""
    arrow = f"{end_label(step['arrow'][0])} → {end_label(step['arrow'][1])}"
    words = {"arrow": arrow, "source": table.action(step["from"]), "target": table.action(step["to"])}
    if step["moved"] == "forward":
        return _("%(arrow)s: one marker moves from %(source)s to %(target)s.", **words)
    if step["moved"] == "reverse":
        return _("%(arrow)s: %(source)s is empty, so one marker moves from %(target)s to %(source)s.", **words)
    if step["reason"] == automa.SAME:
        return _("%(arrow)s: both are %(source)s, nothing moves.", **words)
    if step["reason"] == automa.EMPTY:
        return _("%(arrow)s: neither %(source)s nor %(target)s has a marker, nothing moves.", **words)
    # [GB367] no marker moves to an action that already has 6 (GUT-C14)
    return _("%(arrow)s: %(target)s already has %(most)s markers, nothing moves.", most=MAX_PER_ACTION, **words)


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
        if "title" in r:
            r["title"] = _(r["title"])  # the end screen's copy; the result keeps the English
        r["parts"] = [{"label": _("Guilders (doubled: Vietor)") if k == "guilders" and vietor else _(END_LABELS[k]),
                       "points": v} for k, v in r["breakdown"].items()]
    return {"rows": rows, "winners": result["winners"], "winner_line": line}


def tie_line(r: dict) -> str | None:
    """Say how a player's tie on their total was settled [GB307]: by fewer types or inks, or not at all."""
    if not r["tie_break"]:
        return None
    how = _("decided by %(what)s", what=_(TIE_BREAKS[r["tie_break"]])) if r["tie_break"] in rules.TIE_BREAKS else _("the tie stands")
    return _("Tied on %(total)s: %(how)s (%(types)s, %(inks)s)", total=r["total"], how=how,
             types=ngettext("%(num)d type", "%(num)d types", r["types"]), inks=ngettext("%(num)d ink", "%(num)d inks", r["inks"]))


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
    first = state.get("start", options.get("first_player", 0))  # chosen at the table (order.py), or at setup
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
        return Sentence(_("%(who)s earns the title %(title)s", who=first, title=gettext(players[winners[0]]["title"])))
    if len(winners) > 1:
        names = _("%(names)s and %(last)s", names=", ".join(sentence.names(winners[:-1])), last=sentence.name(winners[-1]))
        return Sentence(_("Shared victory: %(names)s (the tie stands after types and inks)", names=names))
    decided = players[winners[0]]["tie_break"]
    if decided:
        return Sentence(_("%(who)s wins on %(what)s", who=first, what=_(TIE_BREAKS.get(decided, decided))))
    return Sentence(_("%(who)s wins", who=first))


# --- the forms without a table: the box profile and the setup options ---------------------------------

def profile_form() -> dict:
    """What templates/gutenberg/profile.html asks, with the rules' numbers (its page has no table, so no view)."""
    levels = [table.ROMAN[level] for level in REWARD_LEVELS]
    return {
        "actions": action_rows(),
        "arrow_ends": arrow_ends(),
        "max_per_action": MAX_PER_ACTION,  # [GB114]
        "start_markers": AUTOMA_MARKERS,  # [GB318]
        "planning_cards": PLANNING_CARDS,  # [GB330]
        "card_numbers": list(range(1, PLANNING_CARDS + 1)),
        "reward_spaces": len(REWARD_LEVELS),  # [GB162]
        "reward_levels": _("%(levels)s or %(last)s", levels=", ".join(levels[:-1]), last=levels[-1]),
        "reward_kinds": [(kind, _(REWARD_LABELS[kind])) for kind in box.REWARD_KINDS],
        # a catalogued card's centre, as its summary names it: the key's words in English (as before), the action's name elsewhere
        "action_names": {a: a.replace("_", " ") if language() == SOURCE else table.action(a) for a in ACTIONS},
    }


def setup_form() -> dict:
    """What templates/gutenberg/setup.html offers, with the rules' numbers (the new-table page has no table)."""
    return {
        "automa_players": _("1 to %(most)s", most=table.AUTOMA_MAX_PLAYERS),  # [GB313]
        "automa_seats": table.AUTOMA_MAX_PLAYERS,  # players sitting before it: 0 to all of them
        # [GB56] 2 to 4 players, [GB77] a marker count for each seat: the first player is one of them
        "first_players": [{"index": i, "label": _("Player %(number)s", number=i + 1)} for i in range(1, len(MARKERS_BY_SEAT))],
    }


def form(name: str, data: object = None) -> dict:
    """What a form without a table shows (Game.form): setup.html's options and profile.html's rule values."""
    return {"setup": setup_form, "profile": profile_form}[name]()
