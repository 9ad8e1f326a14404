"""A Gutenberg table: its setup options, its state, and the events that change it.

The state refers to players by index and to the automa as "automa" in `seats` (the
clockwise order). Every event handler takes a deep copy of the state and either
returns it changed or raises RulesError (a field under `data`) with nothing changed.
The automa's own events (its layout, planning card and execution draws) are in solo.py;
`apply` dispatches to both, and the end of the round, which moves the automa's markers, is here.
"""

from __future__ import annotations

from functools import partial
from typing import Any

from ..base import Context, EventLines, clone, describe_event, is_calculator, keep_notice
from ..speech import N_, _, later, ngettext, pgettext
from ..validation import RulesError, choice, flag, obj, whole
from . import calculator, functions, rules, solo
from .facts import (
    ACTION_LABELS, ACTIONS, CHARACTERS, INK_SET_COSTS, MAX_LEVEL, MAX_PER_ACTION, ROUNDS, SPECIALTIES,
    STARTING_GUILDERS, STARTING_TYPES, TORINUS_FAME, action, guilders,
    say_guilders, specialty,
)
from .functions import MAX_INKS, ORDER_DECKS, check_markers
from .profile import ROMAN, reward_text
from .solo import still_playing

AUTOMA = "automa"
#: [GB313] the automa plays with 1 to 3 players; [GB404] Helena Ungler's level II reward: 1 ink;
#: [GB398] Johannes Gutenberg shifts 1 marker
AUTOMA_MAX_PLAYERS, HELENA_INKS, SHIFTED = 3, 1, 1

OPTIONS = {
    "automa": "true to add the automa (with 1 to 3 players; default: true with 1 player, false otherwise) [GB313]",
    "automa_seat": "where the automa sits clockwise: 0 = before the first listed player, N = after the N-th (default 0)",
    "first_player": "index of the player who starts with the first-player token, without the automa (default 0) [GB72]",
    "take_orders_deck": "automa's two Take Orders draws: reshuffled (default, RULES.md GUT-C9) or one_deck (literal)",
}

EVENTS = {
    "markers": '{"player": I, "markers": {ACTION: N}}: the markers a player revealed on the actions this round',
    **solo.EVENTS,
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
    calculator.SHEET: calculator.EVENT,
}

#: the counts a player's steppers change by a delta, each with its upper bound (the `score` function's;
#: view.counter draws their steppers)
COUNTS = functions.COUNTS


# --- options ---------------------------------------------------------------------------------

def validate_options(options: Any, player_count: int) -> dict:
    """Check the setup options of a new table and return them with their defaults."""
    obj(options, "$", optional=tuple(OPTIONS))
    # [GB56] the game is for 2 to 4 players; [GB313] "The automa enables solitaire play.": a game
    # alone is played against it, so one player has it unless told otherwise, and is then refused
    with_automa = flag(options.get("automa", player_count == 1), "automa")
    clean: dict[str, Any] = {"automa": with_automa}
    if player_count == 1 and not with_automa:
        raise RulesError("automa", "a game alone is played against the automa: set \"automa\": true",
                         said=_("a game alone is played against the automa: choose \"With the automa\""))
    if with_automa:
        # [GB313] the automa plays solo or with 2 or 3 players; with 4 humans there is no seat left [GB77]
        if player_count > AUTOMA_MAX_PLAYERS:
            raise RulesError("automa", _("the automa plays with 1 to %(most)s players", most=AUTOMA_MAX_PLAYERS))
        if "first_player" in options:
            # [GB327]
            raise RulesError("first_player", _("with the automa, the automa takes the first-player token"))
        clean["automa_seat"] = whole(options.get("automa_seat", 0), "automa_seat", 0, player_count)
        clean["take_orders_deck"] = choice(options.get("take_orders_deck", ORDER_DECKS[0]), "take_orders_deck",
                                           ORDER_DECKS)
    else:
        for key in ("automa_seat", "take_orders_deck"):
            if key in options:
                raise RulesError(key, _("is a setting of the automa; set automa to true to use it"))
        clean["first_player"] = whole(options.get("first_player", 0), "first_player", 0, player_count - 1)
    return clean


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
        the_automa = solo.new_automa(profile)
    state = {
        "round": 1,
        "seats": seats,
        "first": first,
        "players": [new_player() for _ in names],
        "automa": the_automa,
        "notice": None,
        "finished": False,
    }
    if is_calculator(options):
        state["rows_in"] = [False] * len(names)  # calculator mode: whose final row is in
    return state


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


# --- events ----------------------------------------------------------------------------------

def apply(state: dict, type_: str, data: Any, ctx: Context) -> dict:
    """Return the state after one event; raise RulesError for an invalid one."""
    handler = HANDLERS[type_]  # Game.apply refused unknown types
    new = clone(state)
    new["notice"] = None
    new.pop("notice_later", None)  # (base.keep_notice)
    handler(new, data if data is not None else {}, ctx)
    return new


def _player(state: dict, data: dict, extra: tuple[str, ...] = (), required: tuple[str, ...] = ()) -> dict:
    obj(data, "data", required=("player",) + required, optional=extra)
    index = whole(data["player"], "data.player", 0, len(state["players"]) - 1)
    return state["players"][index]


#: the counts as the history and the refusals name them
COUNT_WORDS = {"fame": N_("fame"), "guilders": N_("guilders"), "inks": N_("inks"), "types": N_("types"),
               "patronage_cards": N_("patronage cards")}


def _delta(player: dict, key: str, data: dict, hi: int) -> None:
    delta = whole(data["delta"], "data.delta", -hi, hi)
    value = player[key] + delta
    if value < 0:
        raise RulesError("data.delta", _("would leave %(value)s %(what)s; counts cannot go below 0", value=value, what=_(COUNT_WORDS[key])))
    if value > hi:
        raise RulesError("data.delta", _("would leave %(value)s %(what)s; at most %(most)s", value=value, what=_(COUNT_WORDS[key]), most=hi))
    player[key] = value


def ev_count(state, data, ctx, key):
    """Change one of a player's counts by `delta` (the events fame, guilders, inks, types, patronage_cards)."""
    player = _player(state, data, required=("delta",))
    _delta(player, key, data, COUNTS[key])


def ev_buy_types(state, data, ctx):
    player = _player(state, data, required=("count",))
    count = whole(data["count"], "data.count", 1, 20)
    # [GB242-244] the n-th type costs n guilders
    cost = rules.type_cost(player["types"], count)
    if cost > player["guilders"]:
        raise RulesError("data.count", _("%(types)s; the player has %(has)s", has=guilders(player["guilders"]), types=ngettext(
            "%(num)d more type costs %(cost)s", "%(num)d more types cost %(cost)s", count, cost=guilders(cost))))
    player["guilders"] -= cost
    player["types"] += count
    types = later.ngettext("%(num)d type", "%(num)d types", count)
    keep_notice(state, data["player"], later.gettext("paid %(guilders)s for %(types)s", guilders=say_guilders(cost), types=types))


def ev_take_inks(state, data, ctx):
    player = _player(state, data, required=("first", "count"))
    size = len(INK_SET_COSTS)  # [GB145] inks are taken left to right from one set of 3
    first = whole(data["first"], "data.first", 1, size)
    count = whole(data["count"], "data.count", 1, size)
    if first + count - 1 > size:
        raise RulesError("data.count", _("a set has %(size)s inks; from position %(first)s at most %(most)s can be taken", size=size,
                                         first=first, most=size + 1 - first))
    cost = rules.ink_cost(first, count)
    if cost > player["guilders"]:
        raise RulesError("data.count", _("these inks cost %(cost)s; the player has %(has)s", cost=guilders(cost), has=guilders(player["guilders"])))
    if player["inks"] + count > MAX_INKS:
        raise RulesError("data.count", _("there are only %(most)s inks in the game", most=MAX_INKS))
    player["guilders"] -= cost
    player["inks"] += count
    inks = later.ngettext("%(num)d ink", "%(num)d inks", count)
    keep_notice(state, data["player"], later.gettext("took %(inks)s for %(guilders)s", guilders=say_guilders(cost), inks=inks))


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
        texts.append(later.gettext("already at %(level)s: +%(guilders)s guilders", level=ROMAN[MAX_LEVEL], guilders=result.guilders))
    for level in result.new_reward_levels:
        player["rewards"].append(level)
        texts.append(reward_text(len(player["rewards"]), level, ctx.profile))
    if texts:
        keep_notice(state, data["player"], later.joined("; ", texts))


def ev_character(state, data, ctx):
    player = _player(state, data, required=("character",))
    character = data["character"]
    if character is not None:
        choice(character, "data.character", CHARACTERS)
    if player["character"] == "helena_ungler" and "helena" in player["used"] and character != "helena_ungler":
        raise RulesError("data.character", _("Helena Ungler's setup was applied; undo it before changing character"))
    player["character"] = character
    if character:
        keep_notice(state, data["player"], later.gettext(CHARACTERS[character]["rule"]))


#: the character powers the table applies, by the key their use is kept under in a player's `used`
POWERS = {"gutenberg": "johannes_gutenberg", "plantinus": "christophorus_plantinus", "torinus": "godofredus_torinus",
          "helena": "helena_ungler"}


def power_open(state: dict, player: dict, power: str) -> bool:
    """True while a player's power (a key of POWERS) is still to use: Helena's once, the others once a round."""
    if power == "helena":
        # [GB404] "Immediately after selecting this character": once, on untouched tracks
        return "helena" not in player["used"] and not player["rewards"] and not any(player["specialties"].values())
    # [GB398] [GB401] [GB405] once a round, while the game is on
    return not state["finished"] and player["used"].get(power) != state["round"]


def _require_character(player: dict, key: str) -> None:
    if player["character"] != key:
        raise RulesError("data.player", _("only %(name)s has this power", name=CHARACTERS[key]["name"]))


def _two_picks(state: dict, data: dict, character: str, keys: tuple[str, str], among: tuple[str, ...],
               same: str) -> tuple[dict, str, str]:
    """Check a character power's two different picks from `among`; return the player and both picks."""
    player = _player(state, data, required=keys)
    _require_character(player, character)
    first, second = (choice(data[key], f"data.{key}", among) for key in keys)
    if first == second:
        raise RulesError(f"data.{keys[1]}", same)
    return player, first, second


def ev_helena(state, data, ctx):
    player, one, two = _two_picks(state, data, "helena_ungler", ("level_one", "level_two"), SPECIALTIES,
                                  _("pick another specialty than the one at level I"))
    if not power_open(state, player, "helena"):
        raise RulesError("data.player", _("Helena Ungler's setup happens once, at the start, on untouched tracks"))
    # [GB404] one specialty to I, another to II, reward marker to level II and its reward (ink)
    player["specialties"][one] = 1
    player["specialties"][two] = 2
    player["rewards"].append(2)
    player["inks"] += HELENA_INKS
    player["used"]["helena"] = state["round"]
    keep_notice(state, data["player"], later.ngettext("reward track space 1 (level II): %(num)d ink taken",
                                                 "reward track space 1 (level II): %(num)d inks taken", HELENA_INKS))


def ev_plantinus_swap(state, data, ctx):
    still_playing(state)
    player, a, b = _two_picks(state, data, "christophorus_plantinus", ("first", "second"), SPECIALTIES,
                              _("pick two different specialties"))
    # [GB401] "Once per round ... swap the levels of 2 of their specialties" (permanently)
    if not power_open(state, player, "plantinus"):
        raise RulesError("data.player", _("Plantinus already swapped this round"))
    levels = player["specialties"]
    levels[a], levels[b] = levels[b], levels[a]
    player["used"]["plantinus"] = state["round"]


def ev_gutenberg_shift(state, data, ctx):
    still_playing(state)
    player, source, target = _two_picks(state, data, "johannes_gutenberg", ("from", "to"), ACTIONS,
                                       _("pick a different action"))
    markers = player["markers"]
    if markers is None:
        raise RulesError("data.player", _("enter the revealed markers first; the shift comes after the reveal"))
    # [GB398] after the reveal, before actions: "may shift 1 initiative marker ... to a different action"
    if not power_open(state, player, "gutenberg"):
        raise RulesError("data.player", _("Gutenberg already shifted a marker this round"))
    if markers[source] == 0:
        raise RulesError("data.from", _("no marker on %(action)s", action=action(source)))
    if markers[target] >= MAX_PER_ACTION:  # [GB114]
        raise RulesError("data.to", _("%(action)s already has %(most)s markers", action=action(target), most=MAX_PER_ACTION))
    markers[source] -= SHIFTED
    markers[target] += SHIFTED
    player["used"]["gutenberg"] = state["round"]


def ev_torinus(state, data, ctx):
    still_playing(state)
    player = _player(state, data)
    _require_character(player, "godofredus_torinus")
    # [GB405] at the end of each round, +3 fame if all his inks can be assigned to his orders
    if not power_open(state, player, "torinus"):
        raise RulesError("data.player", _("Torinus already scored this round"))
    player["fame"] += TORINUS_FAME
    player["used"]["torinus"] = state["round"]


def ev_markers(state, data, ctx):
    still_playing(state)
    player = _player(state, data, required=("markers",))
    index = data["player"]
    markers = check_markers(data["markers"], "data.markers")
    placed = sum(markers.values())
    held = holding(state, index)
    if placed != held:
        # [GB77] [GB294] a player holds 7, 8, 9 or 10 markers by position from the first player, and
        # [GB114] allocates "their markers among the 5 actions": all of them
        who = ctx.names[index] if index < len(ctx.names) else _("this player")
        if placed > held:
            raise RulesError("data.markers", _("%(who)s holds %(held)s markers this round, not %(placed)s", who=who, held=held, placed=placed))
        raise RulesError("data.markers", _("%(who)s placed %(placed)s of their %(held)s markers; every marker goes on an "
                                           "action", who=who, held=held, placed=placed))
    if not power_open(state, player, "gutenberg"):
        raise RulesError("data.markers", _("Gutenberg already shifted a marker; undo the shift to re-enter the plan"))
    player["markers"] = markers


# --- round end -----------------------------------------------------------------------------------

def ev_end_round(state, data, ctx):
    still_playing(state)
    obj(data, "data")
    the = state["automa"]
    if the:
        if the["step"]:
            raise RulesError("data", solo.unfinished(the))
        if not the["card"]:
            raise RulesError("data", _("reveal the automa's planning card first: its centre icon settles round-end ties"))
    for player in state["players"]:
        player["markers"] = None  # [GB290] E. initiative markers come off the boards
    if state["round"] >= ROUNDS:
        # [GB93] 6 rounds; GUT-C20: no token passing after the last round
        state["finished"] = True
        keep_notice(state, None, later.gettext("The game is over: final scoring."))
        return
    counts = [holding(state, who) for who in state["seats"]]
    # [GB291] F. pass the first player token clockwise; [GB292] G. every other seat gives the passer a marker
    state["first"], held = rules.pass_token(counts, state["first"])
    if the:
        seat = seat_of(state, AUTOMA)
        keep_notice(state, None, solo.round_end(the, held[seat] - counts[seat]))
    state["round"] += 1


HANDLERS = {
    "fame": partial(ev_count, key="fame"), "guilders": partial(ev_count, key="guilders"),
    "inks": partial(ev_count, key="inks"), "types": partial(ev_count, key="types"),
    "patronage_cards": partial(ev_count, key="patronage_cards"), "markers": ev_markers, **solo.HANDLERS,
    "take_inks": ev_take_inks, "buy_types": ev_buy_types, "develop": ev_develop, "character": ev_character,
    "helena": ev_helena, "plantinus_swap": ev_plantinus_swap, "gutenberg_shift": ev_gutenberg_shift,
    "torinus": ev_torinus, "end_round": ev_end_round, calculator.SHEET: calculator.ev_sheet,
}


# --- history ---------------------------------------------------------------------------------

#: each count's history line, "Ana: +2 guilders" (the English keeps its one form whatever the number)
COUNT_LINES = {
    "fame": lambda n, **v: ngettext("%(who)s: %(sign)s%(num)d fame", "%(who)s: %(sign)s%(num)d fame", n, **v),
    "guilders": lambda n, **v: ngettext("%(who)s: %(sign)s%(num)d guilders", "%(who)s: %(sign)s%(num)d guilders", n, **v),
    "inks": lambda n, **v: ngettext("%(who)s: %(sign)s%(num)d inks", "%(who)s: %(sign)s%(num)d inks", n, **v),
    "types": lambda n, **v: ngettext("%(who)s: %(sign)s%(num)d types", "%(who)s: %(sign)s%(num)d types", n, **v),
    "patronage_cards": lambda n, **v: ngettext("%(who)s: %(sign)s%(num)d patronage cards", "%(who)s: %(sign)s%(num)d patronage cards", n, **v),
}


def _count_line(key: str):
    def line(d: dict, who: str) -> str:
        delta = d.get("delta", 0)
        if isinstance(delta, bool) or not isinstance(delta, int):  # a stored line's odd value, as it is
            return f"{who}: {delta} {key.replace('_', ' ')}"
        return COUNT_LINES[key](abs(delta), who=who, sign="+" if delta > 0 else "-" if delta < 0 else "")
    return line


def _markers_line(d: dict, who: str) -> str:
    shown = ", ".join(f"{action(a)} {n}" for a, n in (d.get("markers") or {}).items() if a in ACTION_LABELS and n)
    return _("%(who)s: markers %(markers)s", who=who, markers=shown)


def _character_line(d: dict, who: str) -> str:
    char = CHARACTERS.get(d.get("character") or "")
    return _("%(who)s: character %(name)s", who=who, name=char["name"] if char else pgettext("character", "none"))


#: what each event says in the history panel (describe), in the language spoken when it is said
LINES: EventLines = {
    **{key: _count_line(key) for key in COUNTS},
    "buy_types": lambda d, who: ngettext("%(who)s: bought %(num)d type", "%(who)s: bought %(num)d types", d.get("count") or 0, who=who),
    "take_inks": lambda d, who: ngettext("%(who)s: took %(num)d ink from position %(first)s", "%(who)s: took %(num)d inks from position "
                                         "%(first)s", d.get("count") or 0, who=who, first=d.get("first")),
    "develop": lambda d, who: f"{who}: {specialty(d.get('specialty'))} +{d.get('steps', 1)}",
    "markers": _markers_line,
    "character": _character_line,
    "helena": lambda d, who: _("%(who)s: Helena Ungler's setup", who=who),
    "plantinus_swap": lambda d, who: _("%(who)s: swapped %(first)s and %(second)s", who=who, first=specialty(d.get("first")),
                                       second=specialty(d.get("second"))),
    "gutenberg_shift": lambda d, who: _("%(who)s: shifted a marker from %(source)s to %(target)s", who=who,
                                        source=action(d.get("from")), target=action(d.get("to"))),
    "torinus": lambda d, who: _("%(who)s: Torinus +%(fame)s fame", who=who, fame=TORINUS_FAME),
    **solo.LINES,
    "end_round": lambda d, who: _("End of round"),
    calculator.SHEET: calculator.sheet_line,
}


def describe(type_: str, data: Any, names: list[str]) -> str:
    """Say in plain words what an event did."""
    return describe_event(LINES, type_, data, names, nobody="")
