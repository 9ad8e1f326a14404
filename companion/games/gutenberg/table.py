"""A Gutenberg table: its setup options, its state, and the events that change it.

The state refers to players by index and to the automa as "automa" in `seats` (the
clockwise order). Every event handler takes a deep copy of the state and either
returns it changed or raises RulesError (a field under `data`) with nothing changed.
"""

from __future__ import annotations

from typing import Any

from ..base import Context, clone
from ..validation import RulesError, at, choice, flag, listof, obj, whole
from . import automa, rules
from .facts import (
    ACTION_LABELS,
    ACTIONS,
    AUTOMA_MARKERS,
    CHARACTERS,
    MAX_LEVEL,
    MAX_PER_ACTION,
    PLANNING_CARDS,
    PLANNING_DEALT,
    REWARD_LEVELS,
    ROUNDS,
    SPECIALTIES,
    SPECIALTY_LABELS,
    STARTING_GUILDERS,
    STARTING_TYPES,
    TORINUS_FAME,
)
from .functions import BIG, MAX_INKS, MAX_PATRONAGE, ORDER_DECKS, check_card, check_markers

AUTOMA = "automa"
#: patronage cards become available from round 3 [GB207]
PATRONAGE_CARDS_FROM_ROUND = 3
#: reward-track rewards as the board may show them [GB168-172]
REWARD_KINDS = ("ink", "order", "type")
REWARD_TEXT = {"ink": "take 1 ink of your choice from the bag", "order": "take 1 new order (order as a reward)",
               "type": "take 1 type of your choice for free"}

OPTIONS_DOC = {
    "automa": "true to add the automa (with 1 to 3 players) [GB313]",
    "automa_seat": "where the automa sits clockwise: 0 = before the first listed player, N = after the N-th (default 0)",
    "first_player": "index of the player who starts with the first-player token, without the automa (default 0) [GB72]",
    "take_orders_deck": "automa's two Take Orders draws: reshuffled (default, RULES.md GUT-C9) or one_deck (literal)",
}

EVENTS = {
    "markers": '{"player": I, "markers": {ACTION: N}}: the markers a player revealed on the actions this round',
    "automa_layout": '{"markers": {ACTION: N}}: the automa\'s starting layout from the rulebook\'s picture (7 markers)',
    "automa_card": '{"card": {"centre": ACTION, "moves": [[FROM, TO]], "patronage": BOOL}} or {"number": 1-10} '
                   'or {"draw": true}: this round\'s planning card (tapped icons, a catalogued card, or drawn by the app)',
    "automa_act": '{"action": ACTION}: the automa does this action now (draws its first execution card)',
    "automa_answer": '{"available": BOOL}: answer the question about the drawn space (is something there?)',
    "fame": '{"player": I, "delta": N}: fame track up or down',
    "guilders": '{"player": I, "delta": N}: guilders gained or spent',
    "inks": '{"player": I, "delta": N}: inks gained or spent',
    "take_inks": '{"player": I, "first": 1-3, "count": 1-3}: take inks from a set, paying 0/1/2 per position',
    "types": '{"player": I, "delta": N}: types gained or lost without paying (rewards, gears)',
    "buy_types": '{"player": I, "count": N}: buy types, the n-th type costing n guilders',
    "develop": '{"player": I, "specialty": S, "steps": N}: develop a specialty (steps default 1)',
    "patronage_cards": '{"player": I, "delta": N}: patronage cards taken (or a correction)',
    "character": '{"player": I, "character": KEY or null}: the character a player keeps',
    "helena": '{"player": I, "level_one": S, "level_two": S}: Helena Ungler\'s setup (levels I and II, reward II)',
    "plantinus_swap": '{"player": I, "first": S, "second": S}: Plantinus swaps two specialty levels (once a round)',
    "gutenberg_shift": '{"player": I, "from": ACTION, "to": ACTION}: Johannes Gutenberg shifts 1 marker after the reveal',
    "torinus": '{"player": I}: Godofredus Torinus can assign all his inks to his orders: +3 fame (end of round)',
    "end_round": '{}: prepare the next round (token passes, markers given) or, after round 6, end the game',
}

#: events whose stepper shows one count of one player (Gutenberg.counter)
COUNTERS = ("fame", "guilders", "inks", "types", "patronage_cards")

# --- options ---------------------------------------------------------------------------------


def validate_options(options: Any, player_count: int) -> dict:
    """Check the setup options of a new table and return them with their defaults."""
    obj(options, "$", optional=tuple(OPTIONS_DOC))
    with_automa = flag(options.get("automa", False), "automa")
    clean: dict[str, Any] = {"automa": with_automa}
    if with_automa:
        # [GB313] the automa plays solo or with 2 or 3 players; with 4 humans there is no seat left [GB77]
        if player_count > 3:
            raise RulesError("automa", "the automa plays with 1 to 3 players")
        if "first_player" in options:
            raise RulesError("first_player", "with the automa, the automa takes the first-player token [GB327]")
        clean["automa_seat"] = whole(options.get("automa_seat", 0), "automa_seat", 0, player_count)
        clean["take_orders_deck"] = choice(options.get("take_orders_deck", ORDER_DECKS[0]), "take_orders_deck",
                                           ORDER_DECKS)
    else:
        for key in ("automa_seat", "take_orders_deck"):
            if key in options:
                raise RulesError(key, "is a setting of the automa; set automa to true to use it")
        clean["first_player"] = whole(options.get("first_player", 0), "first_player", 0, player_count - 1)
    return clean


# --- box profile -----------------------------------------------------------------------------

def validate_profile(data: Any) -> dict:
    """Check a box profile: planning cards by number, the automa's start layout, the reward track."""
    obj(data, "$", optional=("planning_cards", "automa_start", "reward_track"))
    clean: dict[str, Any] = {}
    if "planning_cards" in data:
        # B1: each card's icons, by the number the group gives it (1 to 10) [GB330]
        numbers = [str(n) for n in range(1, PLANNING_CARDS + 1)]
        cards = obj(data["planning_cards"], "planning_cards", optional=numbers)
        clean["planning_cards"] = {}
        for number in numbers:
            if number in cards and not _blank_card(cards[number]):
                field = at("planning_cards", number)
                clean["planning_cards"][number] = check_card(card_from_form(cards[number], field), field)
    if "automa_start" in data:
        # B2: the starting layout "as shown" [GB328]: the automa's 7 markers [GB318]
        clean["automa_start"] = check_start_layout(data["automa_start"], "automa_start")
    if "reward_track" in data:
        # B4 / GUT-C3 reading (a): the rewards of the 4 reward-track spaces, in order
        track = listof(data["reward_track"], "reward_track", 0, len(REWARD_LEVELS))
        if track and len(track) != len(REWARD_LEVELS):
            raise RulesError("reward_track", f"lists all {len(REWARD_LEVELS)} spaces or none")
        clean["reward_track"] = [choice(r, at("reward_track", i), REWARD_KINDS) for i, r in enumerate(track)]
    return clean


def _blank_card(card: Any) -> bool:
    """True for a card left empty on the profile form (no centre picked, no arrows)."""
    if not isinstance(card, dict):
        return False
    ends = [*_as_list(card.get("from")), *_as_list(card.get("to"))]
    return (card.get("centre", "") == "" and all(e == "" for e in ends)
            and not card.get("moves") and not card.get("patronage"))


def _as_list(value: Any) -> list:
    return value if isinstance(value, list) else [] if value is None else [value]


def card_from_form(card: Any, field: str) -> Any:
    """Turn the form shape of a card (`from[]`, `to[]` lists) into `moves` pairs."""
    if not isinstance(card, dict) or ("from" not in card and "to" not in card):
        return card
    if "moves" in card:
        raise RulesError(at(field, "moves"), "give moves, or from and to, not both")
    card = dict(card)
    sources = listof(card.pop("from", []), at(field, "from"))
    targets = listof(card.pop("to", []), at(field, "to"))
    if len(sources) != len(targets):
        raise RulesError(at(field, "to"), "every arrow needs a from and a to")
    moves = []
    for i, (a, b) in enumerate(zip(sources, targets)):
        if a == "" and b == "":
            continue
        if a == "" or b == "":
            raise RulesError(at(at(field, "from" if a == "" else "to"), i), f"pick both ends of arrow {i + 1}, or neither")
        moves.append([a, b])
    card["moves"] = moves
    return card


def check_start_layout(value: Any, field: str) -> dict[str, int]:
    """Check the automa's starting layout: 0 to 6 per action [GB367], 7 markers in all [GB318]."""
    markers = check_markers(value, field)
    total = sum(markers.values())
    if total != AUTOMA_MARKERS:
        raise RulesError(field, f"the automa starts with {AUTOMA_MARKERS} markers; these add up to {total}")
    return markers


# --- state -----------------------------------------------------------------------------------

def initial_state(names: list[str], options: dict, profile: dict) -> dict:
    """Return a new table's state: round 1, everyone's starting resources, the automa if any."""
    seats: list[Any] = list(range(len(names)))
    first = options.get("first_player", 0)
    the_automa = None
    if options.get("automa"):
        seats.insert(options.get("automa_seat", 0), AUTOMA)
        # [GB327] "The automa takes the first player token."
        first = seats.index(AUTOMA)
        the_automa = {
            # [GB328] its starting layout, entered once in the box profile or at the table (B2)
            "markers": dict(profile["automa_start"]) if profile.get("automa_start") else None,
            "deck": None,  # planning cards dealt by the app (numbers), top first
            "card": None,  # this round's planning card
            "steps": [],  # what this round's card did
            "draws": 0,  # seeded draw counter: an undone shuffle redone gives the same cards
            "step": None,  # the action being executed, question by question
            "done": {},  # action -> outcomes this round
        }
    return {
        "round": 1,
        "seats": seats,
        "first": first,
        "players": [new_player() for _ in names],
        "automa": the_automa,
        "notice": None,
        "finished": False,
    }


def new_player() -> dict:
    """Return a player's starting resources."""
    return {
        "fame": 0,  # [GB80] disk on "0" of the fame track
        "guilders": STARTING_GUILDERS,  # [GB81] 10 guilders
        "types": STARTING_TYPES,  # [GB89] 3 types chosen at setup
        "inks": 0,
        "specialties": {s: 0 for s in SPECIALTIES},  # [GB79] lowest space; GUT-C6: level 0
        "rewards": [],  # [GB162] reward levels already reached (II, IV, V, VI)
        "patronage_cards": 0,
        "character": None,
        "markers": None,  # this round's plan, once revealed
        "used": {},  # once-a-round character powers: name -> round used
    }


def seat_of(state: dict, who: Any) -> int:
    """Return the seat index of a player index or the automa."""
    return state["seats"].index(who)


def holding(state: dict, who: Any) -> int:
    """Return how many initiative markers a seat holds this round."""
    # [GB77] [GB294] 7, 8, 9, 10 by position from the first player
    position = (seat_of(state, who) - state["first"]) % len(state["seats"])
    return rules.holdings(len(state["seats"]))[position]


def round_order(state: dict) -> list:
    """Return this round's player order from the first-player token (player indexes and "automa")."""
    return rules.round_order(state["seats"], state["first"])


def orders(state: dict) -> dict[str, list]:
    """Return who acts in turn on each action, for the seats whose markers are known."""
    known = {}
    for who in state["seats"]:
        markers = (state["automa"] or {}).get("markers") if who == AUTOMA else state["players"][who]["markers"]
        if who == AUTOMA and not state["automa"].get("card"):
            markers = None  # the automa's plan is known once its card is revealed
        if markers:
            known[who] = markers
    return rules.action_order([w for w in round_order(state) if w in known], known)


# --- events ----------------------------------------------------------------------------------

def apply(state: dict, type_: str, data: Any, ctx: Context) -> dict:
    """Return the state after one event; raise RulesError for an invalid one."""
    handler = HANDLERS[type_]
    new = clone(state)
    new["notice"] = None
    handler(new, data if data is not None else {}, ctx)
    return new


def _player(state: dict, data: dict, extra: tuple[str, ...] = (), required: tuple[str, ...] = ()) -> dict:
    obj(data, "data", required=("player",) + required, optional=extra)
    index = whole(data["player"], "data.player", 0, len(state["players"]) - 1)
    return state["players"][index]


def _playing(state: dict) -> None:
    if state["finished"]:
        raise RulesError("type", "the game is over; only counts can still be corrected")


def _delta(player: dict, key: str, data: dict, hi: int = BIG) -> None:
    delta = whole(data["delta"], "data.delta", -hi, hi)
    value = player[key] + delta
    if value < 0:
        raise RulesError("data.delta", f"would leave {value} {key.replace('_', ' ')}; counts cannot go below 0")
    if value > hi:
        raise RulesError("data.delta", f"would leave {value} {key.replace('_', ' ')}; at most {hi}")
    player[key] = value


def ev_fame(state, data, ctx):
    player = _player(state, data, required=("delta",))
    _delta(player, "fame", data)


def ev_guilders(state, data, ctx):
    player = _player(state, data, required=("delta",))
    _delta(player, "guilders", data)


def ev_inks(state, data, ctx):
    player = _player(state, data, required=("delta",))
    # [GB43] 48 ink tokens in all
    _delta(player, "inks", data, MAX_INKS)


def ev_types(state, data, ctx):
    player = _player(state, data, required=("delta",))
    _delta(player, "types", data)


def ev_patronage_cards(state, data, ctx):
    player = _player(state, data, required=("delta",))
    # [GB36] 16 patronage cards in the box
    _delta(player, "patronage_cards", data, MAX_PATRONAGE)


def ev_buy_types(state, data, ctx):
    player = _player(state, data, required=("count",))
    count = whole(data["count"], "data.count", 1, 20)
    # [GB242-244] the n-th type costs n guilders
    cost = rules.type_cost(player["types"], count)
    if cost > player["guilders"]:
        raise RulesError("data.count", f"{count} more type(s) cost {cost} guilders; the player has {player['guilders']}")
    player["guilders"] -= cost
    player["types"] += count
    state["notice"] = {"player": data["player"], "text": f"paid {cost} guilders for {count} type(s)"}


def ev_take_inks(state, data, ctx):
    player = _player(state, data, required=("first", "count"))
    first = whole(data["first"], "data.first", 1, 3)
    count = whole(data["count"], "data.count", 1, 3)
    # [GB145] inks are taken left to right from one set of 3
    if first + count - 1 > 3:
        raise RulesError("data.count", f"a set has 3 inks; from position {first} at most {4 - first} can be taken")
    cost = rules.ink_cost(first, count)
    if cost > player["guilders"]:
        raise RulesError("data.count", f"these inks cost {cost} guilders; the player has {player['guilders']}")
    if player["inks"] + count > MAX_INKS:
        raise RulesError("data.count", f"there are only {MAX_INKS} inks in the game")
    player["guilders"] -= cost
    player["inks"] += count
    state["notice"] = {"player": data["player"], "text": f"took {count} ink(s) for {cost} guilders"}


def ev_develop(state, data, ctx):
    player = _player(state, data, required=("specialty",), extra=("steps",))
    specialty = choice(data["specialty"], "data.specialty", SPECIALTIES)
    # a specialty card moves a track one level per symbol [GB155]; at most VI steps can matter
    steps = whole(data.get("steps", 1), "data.steps", 1, MAX_LEVEL)
    result = rules.develop(player["specialties"][specialty], steps, set(player["rewards"]))
    player["specialties"][specialty] = result.level
    player["guilders"] += result.guilders
    texts = []
    if result.guilders:
        texts.append(f"already at VI: +{result.guilders} guilders")
    for level in result.new_reward_levels:
        player["rewards"].append(level)
        texts.append(reward_text(len(player["rewards"]), level, ctx.profile))
    if texts:
        state["notice"] = {"player": data["player"], "text": "; ".join(texts)}


ROMAN = {0: "0", 1: "I", 2: "II", 3: "III", 4: "IV", 5: "V", 6: "VI"}


def reward_text(space: int, level: int, profile: dict) -> str:
    """Say what reaching a reward level for the first time gives: the next reward-track space."""
    # [GB162] the disk moves to the next space "and takes the indicated reward"; GUT-C3 (a): the
    # reward is what that space shows (from the box profile when entered, else read off the board)
    track = profile.get("reward_track") or []
    what = REWARD_TEXT[track[space - 1]] if track else "take the reward it shows"
    return f"level {ROMAN[level]} reached for the first time: reward track space {space}, {what}"


def ev_character(state, data, ctx):
    player = _player(state, data, required=("character",))
    character = data["character"]
    if character is not None:
        choice(character, "data.character", CHARACTERS)
    if player["character"] == "helena_ungler" and "helena" in player["used"] and character != "helena_ungler":
        raise RulesError("data.character", "Helena Ungler's setup was applied; undo it before changing character")
    player["character"] = character
    if character:
        state["notice"] = {"player": data["player"], "text": CHARACTERS[character]["rule"]}


def _require_character(player: dict, key: str) -> None:
    if player["character"] != key:
        raise RulesError("data.player", f"only {CHARACTERS[key]['name']} has this power")


def ev_helena(state, data, ctx):
    player = _player(state, data, required=("level_one", "level_two"))
    _require_character(player, "helena_ungler")
    one = choice(data["level_one"], "data.level_one", SPECIALTIES)
    two = choice(data["level_two"], "data.level_two", SPECIALTIES)
    if one == two:
        raise RulesError("data.level_two", "pick another specialty than the one at level I")
    if "helena" in player["used"] or player["rewards"] or any(player["specialties"].values()):
        raise RulesError("data.player", "Helena Ungler's setup happens once, at the start, on untouched tracks")
    # [GB404] one specialty to I, another to II, reward marker to level II and its reward (ink)
    player["specialties"][one] = 1
    player["specialties"][two] = 2
    player["rewards"].append(2)
    player["inks"] += 1
    player["used"]["helena"] = state["round"]
    state["notice"] = {"player": data["player"], "text": "reward track space 1 (level II): 1 ink taken"}


def ev_plantinus_swap(state, data, ctx):
    _playing(state)
    player = _player(state, data, required=("first", "second"))
    _require_character(player, "christophorus_plantinus")
    a = choice(data["first"], "data.first", SPECIALTIES)
    b = choice(data["second"], "data.second", SPECIALTIES)
    if a == b:
        raise RulesError("data.second", "pick two different specialties")
    # [GB401] "Once per round ... swap the levels of 2 of their specialties" (permanently)
    if player["used"].get("plantinus") == state["round"]:
        raise RulesError("data.player", "Plantinus already swapped this round")
    levels = player["specialties"]
    levels[a], levels[b] = levels[b], levels[a]
    player["used"]["plantinus"] = state["round"]


def ev_gutenberg_shift(state, data, ctx):
    _playing(state)
    player = _player(state, data, required=("from", "to"))
    _require_character(player, "johannes_gutenberg")
    source = choice(data["from"], "data.from", ACTIONS)
    target = choice(data["to"], "data.to", ACTIONS)
    if source == target:
        raise RulesError("data.to", "pick a different action")
    markers = player["markers"]
    if markers is None:
        raise RulesError("data.player", "enter the revealed markers first; the shift comes after the reveal [GB398]")
    # [GB398] after the reveal, before actions: "may shift 1 initiative marker ... to a different action"
    if player["used"].get("gutenberg") == state["round"]:
        raise RulesError("data.player", "Gutenberg already shifted a marker this round")
    if markers[source] == 0:
        raise RulesError("data.from", f"no marker on {ACTION_LABELS[source]}")
    if markers[target] >= MAX_PER_ACTION:
        raise RulesError("data.to", f"{ACTION_LABELS[target]} already has {MAX_PER_ACTION} markers [GB114]")
    markers[source] -= 1
    markers[target] += 1
    player["used"]["gutenberg"] = state["round"]


def ev_torinus(state, data, ctx):
    _playing(state)
    player = _player(state, data)
    _require_character(player, "godofredus_torinus")
    # [GB405] at the end of each round, +3 fame if all his inks can be assigned to his orders
    if player["used"].get("torinus") == state["round"]:
        raise RulesError("data.player", "Torinus already scored this round")
    player["fame"] += TORINUS_FAME
    player["used"]["torinus"] = state["round"]


def ev_markers(state, data, ctx):
    _playing(state)
    player = _player(state, data, required=("markers",))
    index = data["player"]
    markers = check_markers(data["markers"], "data.markers")
    placed = sum(markers.values())
    held = holding(state, index)
    if placed > held:
        # [GB77] [GB294] a player holds 7, 8, 9 or 10 markers by position from the first player
        raise RulesError("data.markers", f"this player holds {held} markers this round, not {placed}")
    if player["used"].get("gutenberg") == state["round"]:
        raise RulesError("data.markers", "Gutenberg already shifted a marker; undo the shift to re-enter the plan")
    player["markers"] = markers


# --- the automa --------------------------------------------------------------------------------

def _automa(state: dict) -> dict:
    if state["automa"] is None:
        raise RulesError("type", "this table plays without the automa")
    _playing(state)
    return state["automa"]


def ev_automa_layout(state, data, ctx):
    the = _automa(state)
    obj(data, "data", required=("layout",))
    if state["round"] != 1 or the["card"]:
        raise RulesError("data.layout", "the starting layout is set before the first planning card")
    the["markers"] = check_start_layout(data["layout"], "data.layout")


def ev_automa_card(state, data, ctx):
    the = _automa(state)
    obj(data, "data", optional=("card", "number", "draw"))
    if len(data) != 1:
        raise RulesError("data", "give one of: card (its icons), number (a catalogued card) or draw")
    if the["markers"] is None:
        raise RulesError("data", "enter the automa's starting layout first (or save it in the box profile)")
    if the["card"]:
        raise RulesError("data", "this round's planning card is already revealed")
    catalogue = ctx.profile.get("planning_cards") or {}
    if "card" in data:
        card = check_card(card_from_form(data["card"], "data.card"), "data.card")
    elif "number" in data:
        number = str(whole(data["number"], "data.number", 1, PLANNING_CARDS))
        if number not in catalogue:
            raise RulesError("data.number", f"card {number} is not catalogued in the box profile; tap its icons instead")
        card = dict(catalogue[number], number=int(number))
    else:
        if data["draw"] is not True:
            raise RulesError("data.draw", "must be true")
        if len(catalogue) < PLANNING_CARDS:
            raise RulesError("data.draw", f"the app deals only when all {PLANNING_CARDS} cards are in the box profile")
        if the["deck"] is None:
            # [GB330] shuffle the 10 planning cards, deal 6, return 4 unseen
            deck = list(range(1, PLANNING_CARDS + 1))
            ctx.rng("planning", the["draws"]).shuffle(deck)
            the["draws"] += 1
            the["deck"] = deck[:PLANNING_DEALT]
        if not the["deck"]:
            raise RulesError("data.draw", "the automa's planning deck is empty")
        number = the["deck"].pop(0)
        card = dict(catalogue[str(number)], number=number)
    # [GB335] reveal the top planning card and rearrange the automa's markers as it directs
    the["markers"], steps = automa.apply_card(the["markers"], card)
    the["card"] = card
    the["steps"] = [s.as_json() for s in steps]


QUESTIONS = {
    "printing": "Is there a printing card on space {n}?",
    "refinement": "Is there a refinement card on space {n}?",
    "ink_set": "Is there any ink left in ink set {n}?",
    "specialty": "Is there a specialty card on space {n}?",
    "gear": "Is there a gear on space {n}?",
    "reward": "Is patronage reward {n} free (no marker on it)?",
    "patronage_card": "Is a patronage card available (below or left of the round marker)?",
}
OUTCOMES = {
    # [GB347] inks go back to the bag, other resources to their discard piles
    "printing": "Discard the printing card on space {n}.",
    "refinement": "Discard the refinement card on space {n}.",
    "ink_set": "Put every ink of ink set {n} back into the bag.",
    "specialty": "Discard the specialty card on space {n}.",
    "gear": "Discard the gear on space {n}.",
    "reward": "Put the automa's marker on patronage reward {n}.",
    # GUT-C12: the leftmost available card leaves the game
    "patronage_card": "Remove the leftmost available patronage card from the game.",
}
#: [GB341-345] what the automa takes in each action
KINDS = {"take_orders": ("printing", "refinement"), "take_inks": ("ink_set",), "develop_specialties": ("specialty",),
         "improve_printing_houses": ("gear",), "patronage": ("reward",)}


def new_item(kind: str, deck: list[int] | None) -> dict:
    """Return one thing the automa takes in an action, drawn card by card from `deck`."""
    return {"kind": kind, "deck": deck, "drawn": [], "space": None, "over": False}


def outcome_text(item: dict) -> str:
    """Say what the automa removes for one finished item."""
    if item["kind"] == "patronage_card":
        return OUTCOMES["patronage_card"]
    if item["space"] is None:
        # GUT-C10: no valid space after all four cards: the automa removes nothing
        return f"No {item['kind'].replace('_', ' ')} to take: the automa removes nothing."
    return OUTCOMES[item["kind"]].format(n=item["space"])


def current_card(item: dict) -> int | None:
    """Return the execution card the table is being asked about (None for the patronage question)."""
    return item["deck"][len(item["drawn"])] if item["deck"] is not None else None


def question_text(item: dict) -> str:
    """Ask the table about the item's current card."""
    return QUESTIONS[item["kind"]].format(n=current_card(item))


def _shuffle(the: dict, ctx: Context) -> list[int]:
    # the counter lives in the state: undoing this event and redoing it draws the same deck
    deck = automa.shuffled_deck(ctx.rng("execution", the["draws"]))
    the["draws"] += 1
    return deck


def ev_automa_act(state, data, ctx):
    the = _automa(state)
    obj(data, "data", required=("action",))
    action = choice(data["action"], "data.action", ACTIONS)
    if not the["card"]:
        raise RulesError("data.action", "reveal this round's planning card first [GB335]")
    if the["step"]:
        raise RulesError("data.action", f"finish the automa's {ACTION_LABELS[the['step']['action']]} first")
    if action in the["done"]:
        raise RulesError("data.action", f"the automa already did {ACTION_LABELS[action]} this round")
    # [GB122] at least one marker to do an action; GUT-C13: the automa too
    if the["markers"][action] == 0:
        raise RulesError("data.action", f"the automa has no marker on {ACTION_LABELS[action]}, so it does not act")
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
        raise RulesError("data.available", "the automa is not drawing right now")
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
    outcomes = [outcome_text(i) for i in step["items"] if not i.get("skipped")]
    the["done"][step["action"]] = outcomes
    the["step"] = None
    state["notice"] = {"player": None, "text": f"Automa, {ACTION_LABELS[step['action']]}: " + " ".join(outcomes)}


# --- round end -----------------------------------------------------------------------------------

def ev_end_round(state, data, ctx):
    _playing(state)
    obj(data, "data")
    the = state["automa"]
    if the:
        if the["step"]:
            raise RulesError("data", f"finish the automa's {ACTION_LABELS[the['step']['action']]} first")
        if not the["card"]:
            raise RulesError("data", "reveal the automa's planning card first: its centre icon settles round-end ties")
    for player in state["players"]:
        player["markers"] = None  # [GB290] E. initiative markers come off the boards
    if state["round"] >= ROUNDS:
        # [GB93] 6 rounds; GUT-C20: no token passing after the last round
        state["finished"] = True
        state["notice"] = {"player": None, "text": "The game is over: final scoring."}
        return
    passer = state["seats"][state["first"]]
    # [GB291] F. pass the first player token clockwise
    state["first"] = (state["first"] + 1) % len(state["seats"])
    if the:
        centre = the["card"]["centre"]
        if passer == AUTOMA:
            # [GB352] the automa receives one marker from every other player, one after another
            the["markers"], placed = automa.receive_markers(the["markers"], centre, len(state["seats"]) - 1)
            text = "the automa receives markers on " + ", ".join(ACTION_LABELS[a] for a in placed)
        else:
            # [GB351] it gives one from its fullest action
            the["markers"], taken = automa.give_marker(the["markers"], centre)
            text = f"the automa gives the marker from {ACTION_LABELS[taken]}"
        # [GB354] it keeps its layout for the next Plan step
        the.update(card=None, steps=[], step=None, done={})
        state["notice"] = {"player": None, "text": text[0].upper() + text[1:] + "."}
    state["round"] += 1


HANDLERS = {
    "markers": ev_markers,
    "automa_layout": ev_automa_layout,
    "automa_card": ev_automa_card,
    "automa_act": ev_automa_act,
    "automa_answer": ev_automa_answer,
    "fame": ev_fame,
    "guilders": ev_guilders,
    "inks": ev_inks,
    "take_inks": ev_take_inks,
    "types": ev_types,
    "buy_types": ev_buy_types,
    "develop": ev_develop,
    "patronage_cards": ev_patronage_cards,
    "character": ev_character,
    "helena": ev_helena,
    "plantinus_swap": ev_plantinus_swap,
    "gutenberg_shift": ev_gutenberg_shift,
    "torinus": ev_torinus,
    "end_round": ev_end_round,
}
assert set(HANDLERS) == set(EVENTS)


# --- history ---------------------------------------------------------------------------------

def describe(type_: str, data: Any, names: list[str]) -> str:
    """Say in plain words what an event did."""
    data = data or {}
    who = names[data["player"]] if isinstance(data.get("player"), int) and 0 <= data["player"] < len(names) else ""
    signed = lambda n: f"+{n}" if n > 0 else str(n)  # noqa: E731
    simple = {"fame": "fame", "guilders": "guilders", "inks": "inks", "types": "types",
              "patronage_cards": "patronage cards"}
    if type_ in simple:
        return f"{who}: {signed(data.get('delta', 0))} {simple[type_]}"
    if type_ == "buy_types":
        return f"{who}: bought {data.get('count')} type(s)"
    if type_ == "take_inks":
        return f"{who}: took {data.get('count')} ink(s) from position {data.get('first')}"
    if type_ == "develop":
        steps = data.get("steps", 1)
        return f"{who}: {SPECIALTY_LABELS.get(data.get('specialty'), '?')} +{steps}"
    if type_ == "markers":
        counts = data.get("markers") or {}
        return f"{who}: markers " + ", ".join(f"{ACTION_LABELS[a]} {n}" for a, n in counts.items() if a in ACTION_LABELS and n)
    if type_ == "character":
        char = CHARACTERS.get(data.get("character") or "")
        return f"{who}: character {char['name'] if char else 'none'}"
    if type_ == "helena":
        return f"{who}: Helena Ungler's setup"
    if type_ == "plantinus_swap":
        return f"{who}: swapped {SPECIALTY_LABELS.get(data.get('first'), '?')} and {SPECIALTY_LABELS.get(data.get('second'), '?')}"
    if type_ == "gutenberg_shift":
        return f"{who}: shifted a marker from {ACTION_LABELS.get(data.get('from'), '?')} to {ACTION_LABELS.get(data.get('to'), '?')}"
    if type_ == "torinus":
        return f"{who}: Torinus +{TORINUS_FAME} fame"
    if type_ == "automa_layout":
        return "Automa: starting layout"
    if type_ == "automa_card":
        if "number" in data:
            return f"Automa: planning card {data['number']}"
        return "Automa: planning card drawn" if "draw" in data else "Automa: planning card tapped"
    if type_ == "automa_act":
        return f"Automa: {ACTION_LABELS.get(data.get('action'), '?')}"
    if type_ == "automa_answer":
        return "Automa: " + ("yes, it is there" if data.get("available") else "no, draw again")
    if type_ == "end_round":
        return "End of round"
    return type_.replace("_", " ")
