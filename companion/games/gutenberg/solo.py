"""The automa on a Gutenberg table, step by step (RULES.md D2): its events and what they say.

The automa's decks are run on the table here: its starting layout, this round's planning
card (tapped, catalogued or dealt by the app), and each action's execution draws, asked
question by question. The decks themselves are in automa.py; table.py dispatches these
events (HANDLERS) and ends the round. Nothing here imports table.py: the table imports this.
"""

from __future__ import annotations

from ..base import Context, keep_notice
from ..speech import N_, _, english, gettext, later, told
from ..validation import RulesError, choice, flag, obj, whole
from . import automa
from .facts import ACTION_LABELS, ACTIONS, EXECUTION_CARDS, PLANNING_CARDS, PLANNING_DEALT, action
from .functions import ORDER_DECKS, check_card
from .profile import card_from_form, check_start_layout

#: patronage cards become available from round 3 [GB207]
PATRONAGE_CARDS_FROM_ROUND = 3

#: the automa's events, with their data (table.EVENTS lists them after "markers")
EVENTS = {
    "automa_layout": '{"layout": {ACTION: N}}: the automa\'s starting layout from the rulebook\'s picture (7 markers)',
    "automa_card": '{"card": {"centre": ACTION, "moves": [[FROM, TO]], "patronage": BOOL}} or {"number": 1-10} '
                   'or {"draw": true}: this round\'s planning card (tapped icons, a catalogued card, or drawn by the app)',
    "automa_act": '{"action": ACTION}: the automa does this action now (draws its first execution card)',
    "automa_answer": '{"available": BOOL}: answer the question about the drawn space (is something there?)',
}


def new_automa(profile: dict) -> dict:
    """Return the automa's part of a new table's state."""
    return {
        # [GB328] its starting layout, entered once in the box profile or at the table (B2)
        "markers": dict(profile["automa_start"]) if profile.get("automa_start") else None,
        "deck": None,  # planning cards dealt by the app (numbers), top first
        "card": None,  # this round's planning card
        "steps": [],  # what this round's card did
        "draws": 0,  # seeded draw counter: an undone shuffle redone gives the same cards
        "step": None,  # the action being executed, question by question
        "done": {},  # action -> outcomes this round
    }


def still_playing(state: dict) -> None:
    if state["finished"]:
        raise RulesError("type", _("the game is over; only counts can still be corrected"))


def _automa(state: dict) -> dict:
    if state["automa"] is None:
        raise RulesError("type", _("this table plays without the automa"))
    still_playing(state)
    return state["automa"]


def ev_automa_layout(state, data, ctx):
    the = _automa(state)
    obj(data, "data", required=("layout",))
    if state["round"] != 1 or the["card"]:
        raise RulesError("data.layout", _("the starting layout is set before the first planning card"))
    the["markers"] = check_start_layout(data["layout"], "data.layout")


def ev_automa_card(state, data, ctx):
    the = _automa(state)
    obj(data, "data", optional=("card", "number", "draw"))
    if len(data) != 1:
        raise RulesError("data", _("give one of: card (its icons), number (a catalogued card) or draw"))
    if the["markers"] is None:
        raise RulesError("data", _("enter the automa's starting layout first (or save it in the box profile)"))
    if the["card"]:
        raise RulesError("data", _("this round's planning card is already revealed"))
    catalogue = ctx.profile.get("planning_cards") or {}
    if "card" in data:
        card = check_card(card_from_form(data["card"], "data.card"), "data.card")
    elif "number" in data:
        number = str(whole(data["number"], "data.number", 1, PLANNING_CARDS))
        if number not in catalogue:
            raise RulesError("data.number", f"card {number} is not catalogued in the box profile; give its icons as \"card\" instead",
                            said=_("card %(number)s is not catalogued in the box profile; tap its icons instead", number=number))
        card = dict(catalogue[number], number=int(number))
    else:
        if data["draw"] is not True:
            raise RulesError("data.draw", "must be true")
        if len(catalogue) < PLANNING_CARDS:
            raise RulesError("data.draw", _("the app deals only when all %(cards)s cards are in the box profile", cards=PLANNING_CARDS))
        if the["deck"] is None:
            # [GB330] shuffle the 10 planning cards, deal 6, return 4 unseen
            deck = list(range(1, PLANNING_CARDS + 1))
            ctx.rng("planning", the["draws"]).shuffle(deck)
            the["draws"] += 1
            the["deck"] = deck[:PLANNING_DEALT]
        if not the["deck"]:
            raise RulesError("data.draw", _("the automa's planning deck is empty"))
        number = the["deck"].pop(0)
        card = dict(catalogue[str(number)], number=number)
    # [GB335] reveal the top planning card and rearrange the automa's markers as it directs
    the["markers"], steps = automa.apply_card(the["markers"], card)
    the["card"] = card
    the["steps"] = [s.as_json() for s in steps]


QUESTIONS = {
    "printing": N_("Is there a printing card on space %(n)s?"),
    "refinement": N_("Is there a refinement card on space %(n)s?"),
    "ink_set": N_("Is there any ink left in ink set %(n)s?"),
    "specialty": N_("Is there a specialty card on space %(n)s?"),
    "gear": N_("Is there a gear on space %(n)s?"),
    "reward": N_("Is patronage reward %(n)s free (no marker on it)?"),
    "patronage_card": N_("Is a patronage card available (below or left of the round marker)?"),
}
OUTCOMES = {
    # [GB347] inks go back to the bag, other resources to their discard piles
    "printing": N_("Discard the printing card on space %(n)s."),
    "refinement": N_("Discard the refinement card on space %(n)s."),
    "ink_set": N_("Put every ink of ink set %(n)s back into the bag."),
    "specialty": N_("Discard the specialty card on space %(n)s."),
    "gear": N_("Discard the gear on space %(n)s."),
    "reward": N_("Put the automa's marker on patronage reward %(n)s."),
    # GUT-C12: the leftmost available card leaves the game
    "patronage_card": N_("Remove the leftmost available patronage card from the game."),
}
#: GUT-C10: no valid space after all four cards
NOTHING = {"printing": N_("No printing to take: the automa removes nothing."),
           "refinement": N_("No refinement to take: the automa removes nothing."),
           "ink_set": N_("No ink set to take: the automa removes nothing."),
           "specialty": N_("No specialty to take: the automa removes nothing."),
           "gear": N_("No gear to take: the automa removes nothing."),
           "reward": N_("No reward to take: the automa removes nothing.")}
#: [GB341-345] what the automa takes in each action
KINDS = {"take_orders": ("printing", "refinement"), "take_inks": ("ink_set",), "develop_specialties": ("specialty",),
         "improve_printing_houses": ("gear",), "patronage": ("reward",)}


def new_item(kind: str, deck: list[int] | None) -> dict:
    """Return one thing the automa takes in an action, drawn card by card from `deck`."""
    return {"kind": kind, "deck": deck, "drawn": [], "space": None, "over": False}


def outcome_said(item: dict) -> dict:
    """Say what the automa removes for one finished item, kept to be said (speech.later)."""
    if item["kind"] == "patronage_card":
        return later.gettext(OUTCOMES["patronage_card"])
    if item["space"] is None:
        # GUT-C10: no valid space after all four cards: the automa removes nothing
        return later.gettext(NOTHING[item["kind"]])
    return later.gettext(OUTCOMES[item["kind"]], n=item["space"])


def outcome_text(item: dict) -> str:
    """outcome_said in English: the state keeps it (`done`), as the API shows it."""
    with english():
        return told(outcome_said(item))


def said_outcome(text: str) -> str:
    """An outcome the state keeps in English (outcome_text), in the language spoken."""
    if text in NOTHING.values() or text == OUTCOMES["patronage_card"]:
        return gettext(text)
    for message in OUTCOMES.values():
        for n in EXECUTION_CARDS:
            if text == message % {"n": n}:
                return gettext(message, n=n)
    return text


def current_card(item: dict) -> int | None:
    """Return the execution card the table is being asked about (None for the patronage question)."""
    return item["deck"][len(item["drawn"])] if item["deck"] is not None else None


def question_text(item: dict) -> str:
    """Ask the table about the item's current card."""
    return gettext(QUESTIONS[item["kind"]], n=current_card(item))


def _shuffle(the: dict, ctx: Context) -> list[int]:
    # the counter lives in the state: undoing this event and redoing it draws the same deck
    deck = automa.shuffled_deck(ctx.rng("execution", the["draws"]))
    the["draws"] += 1
    return deck


def idle(the: dict) -> list[str]:
    """Return the actions the automa does not do this round: those without a marker once its card is revealed."""
    # [GB122] at least one marker to do an action; GUT-C13: the automa too
    return [a for a in ACTIONS if the["card"] and the["markers"][a] == 0]


def act_refusal(the: dict, key: str) -> str | None:
    """Say why the automa cannot do `action` now (the table refuses it, the panel offers no button), or None."""
    if not the["card"]:
        return _("reveal this round's planning card first")  # [GB335]
    if the["step"]:
        return unfinished(the)
    if key in the["done"]:
        return _("the automa already did %(action)s this round", action=action(key))
    if key in idle(the):
        return _("the automa has no marker on %(action)s, so it does not act", action=action(key))
    return None


def unfinished(the: dict) -> str:
    """The refusal while the automa is in the middle of an action."""
    return _("finish the automa's %(action)s first", action=action(the["step"]["action"]))


def ev_automa_act(state, data, ctx):
    the = _automa(state)
    obj(data, "data", required=("action",))
    action = choice(data["action"], "data.action", ACTIONS)
    refusal = act_refusal(the, action)
    if refusal:
        raise RulesError("data.action", refusal)
    if action == "patronage" and state["round"] >= PATRONAGE_CARDS_FROM_ROUND and the["card"].get("patronage"):
        # [GB345] the card shows a patronage card: the leftmost card (not in rounds 1 and 2)
        item = new_item("patronage_card", None)
    else:
        # [GB337] "draw a random automa execution card": a full, shuffled deck for each action
        item = new_item(KINDS[action][0], _shuffle(the, ctx))
    the["step"] = {"action": action, "items": [item]}


def ev_automa_answer(state, data, ctx):
    the = _automa(state)
    obj(data, "data", required=("available",))
    available = flag(data["available"], "data.available")
    step = the["step"]
    if not step:
        raise RulesError("data.available", _("the automa is not drawing right now"))
    item = step["items"][-1]
    if item["kind"] == "patronage_card":
        item["over"] = True
        if not available:
            # GUT-C12: no card available: it takes a reward chosen by an execution card
            item["skipped"] = True
            step["items"].append(new_item("reward", _shuffle(the, ctx)))
            return
    else:
        card = current_card(item)
        item["drawn"].append(card)
        if available:
            item["space"] = card
            item["over"] = True
        elif len(item["drawn"]) == len(item["deck"]):
            # GUT-C10: all four cards drawn, none valid
            item["over"] = True
        else:
            # [GB337] "If there is no resource in that space ... then draw the next execution card."
            return
    if step["action"] == "take_orders" and len(step["items"]) == 1:
        if ctx.options.get("take_orders_deck", ORDER_DECKS[0]) == "one_deck":
            # GUT-C9 literal reading: go on with what is left of the same deck
            deck = item["deck"][len(item["drawn"]):]
        else:
            # GUT-C9 (MRR): the refinement card is drawn from the full deck, reshuffled
            deck = _shuffle(the, ctx)
        refinement = new_item("refinement", deck)
        refinement["over"] = not deck
        step["items"].append(refinement)
        if deck:
            return
    # [GB337] after the action, the whole execution deck is reshuffled (the next action shuffles anew)
    items = [i for i in step["items"] if not i.get("skipped")]
    the["done"][step["action"]] = [outcome_text(i) for i in items]
    the["step"] = None
    keep_notice(state, None, later.gettext("Automa, %(action)s: %(outcomes)s", action=later.gettext(ACTION_LABELS[step["action"]]),
                                      outcomes=later.joined(" ", [outcome_said(i) for i in items])))


def round_end(the: dict, change: int) -> dict:
    """Move the automa's markers as the first-player token passes (rules.pass_token's `change` for its
    seat: -1, it gives one; more, it passed the token and receives them); say what moved."""
    the["markers"], moved = automa.token_passed(the["markers"], the["card"]["centre"], change)
    labels = [later.gettext(ACTION_LABELS[a]) for a in moved]  # said joined by ", "
    # [GB354] it keeps its layout for the next Plan step
    the.update(card=None, steps=[], step=None, done={})
    if change < 0:
        return later.gettext("The automa gives the marker from %(actions)s.", actions=labels)
    return later.gettext("The automa receives markers on %(actions)s.", actions=labels)


HANDLERS = {
    "automa_layout": ev_automa_layout,
    "automa_card": ev_automa_card,
    "automa_act": ev_automa_act,
    "automa_answer": ev_automa_answer,
}


def _card_line(data: dict, who: str) -> str:
    if "number" in data:
        return _("Automa: planning card %(number)s", number=data["number"])
    return _("Automa: planning card drawn") if "draw" in data else _("Automa: planning card tapped")


#: the history lines of the automa's events (table.LINES takes them in)
LINES = {
    "automa_layout": lambda d, who: _("Automa: starting layout"),
    "automa_card": _card_line,
    "automa_act": lambda d, who: _("Automa: %(action)s", action=action(d.get("action"))),
    "automa_answer": lambda d, who: _("Automa: yes, it is there") if d.get("available") else _("Automa: no, draw again"),
}
