"""Galileo's Truth at the table: the events that drive a game and the state they build.

The state refers to players by index. Printed values (the suspicion track's icons, the
tiles' back, the Cathedral, the penance cards, the prohibition penalties) live in
`state["board"]`: copied from the box profile when the table is created, or entered at
the table with the `board` event (RULES.md GAL-B). What an event did is said with calculator.py's
words (the notices, in English in the state and told on each page in its language; the history's lines).
A refusal is said in the language spoken (the API's is English). Nothing here imports Flask.
"""

from __future__ import annotations

from typing import Any

from ..base import Context, clone, is_calculator
from ..speech import _, later
from ..validation import RulesError, at, choice, flag, listof, obj, whole
from . import calculator, functions, profile, rules
from .calculator import (LINES, SHEET, describe, inquisition_suspects, note, sections,  # noqa: F401  (Game: LINES, describe)
                         triggered)

MAX_DELTA = 30

EVENTS = {
    "board": "enter printed values at the table: {suspicion_track?, tiles?, cathedral?, penance_cards?, prohibition_suspicion?} (box-profile shapes)",
    "suspicion": "change one player's suspicion at any time: {player: INDEX, delta: -30..30, not 0}",
    "suspicion_group": "an effect on several players: {player: INDEX (who caused it), group: \"others\" | \"copernican\", delta: -30..30, not 0}",
    "vp": "move a scoring marker: {player: INDEX, delta: -999..999, not 0}",
    "tile": "a scoring marker reaches or passes a suspicion tile: {player: INDEX, tile: INDEX, vp?: VP when it reached the tile (default: the player's VP)}",
    "income_done": "the Income phase is over, the Actions phase starts: {}",
    "action": "a Main Action other than Pass, Abjure or a penance card: {player: INDEX, action: \"invention\" | \"academic\" | \"treatise\" | \"philosopher\"}",
    "abjure": f"Main Action Abjure: {{player: INDEX}} ({rules.ABJURE_SELF} for them, +{rules.ABJURE_OTHERS} for every other Copernican; not in Cycle {rules.LAST_CYCLE})",
    "penance": "Main Action: play a penance card: {player: INDEX, level: 1..3, remove: true | false (paid its coins to remove it from the game)}",
    "pass": "Main Action Pass: {player: INDEX}",
    "prohibition": "the Prohibition check at the end of Cycle 2, 3 or 5: {limit: N, counts: [elements each player possesses], penalty?: {copernican: N, ptolemaic: N}}",
    "next_cycle": f"finish the End of Cycle phase and start the next cycle (after Cycle {rules.LAST_CYCLE}: final scoring): {{}}",
    "final": "a player's final-scoring entries: {player: INDEX, inventions_vp: N, mentor_vp: N (0 unless unlocked), end_losses: N}",
    SHEET: "calculator mode: one player's row at the end (saved again, it replaces the row): {player: INDEX, principle, status: \"free\" | \"prison\" | \"stake\", vp, suspicion? (required at the Stake), penance?: [levels still held], inventions_vp?, mentor_vp?, end_losses? (default 0), turn_order? (place 1..N, default the seat's)}",
}

#: events tapped on a player's card: what they trigger is said on that card
CARD_EVENTS = ("suspicion", "suspicion_group", "vp", "tile")

OPTIONS = {
    "passing_order": "where a later passer's marker goes in the Passing Area: \"literal\" (to the left, as the rulebook says; default) or \"first_passer_first\" (RULES.md GAL-C5)",
    "stake_overshoot": "steps left over when a move crosses the Stake: \"discard\" (default: the marker ends on 0) or \"continue\" (count on from 0) (RULES.md GAL-C3)",
}

#: the keys that hold the last event's words and their empty value: emptied as the first player is
#: chosen (companion/games/seats.py; base.OPTIONAL)
QUIET = {"notices": [], "notices_later": [], "notice_player": None}

# --- tables ------------------------------------------------------------------------------

def validate_options(options: dict, player_count: int) -> dict:
    """Check the setup options: the two readings a group may switch."""
    obj(options, "$", optional=tuple(OPTIONS))
    return {
        "passing_order": choice(options.get("passing_order", "literal"), "passing_order", rules.PASSING),
        "stake_overshoot": choice(options.get("stake_overshoot", "discard"), "stake_overshoot", rules.OVERSHOOT),
    }


def initial_state(names: list[str], options: dict, profile: dict) -> dict:
    """Start Cycle 1 (no Income [GT310]) with the players' turn order as listed;
    a calculator table starts at final scoring, one row per player to fill."""
    board = functions.board(profile, ordered=False)  # checked when saved; one saved before issue 38 is kept as it is
    return {
        "finished": False,
        "cycle": 1,
        "phase": "final" if is_calculator(options) else "actions",
        "round": 1,
        # [GT103] markers left to right from the first player, clockwise: the names' order
        "order": list(range(len(names))),
        "first": None,  # who goes first, once chosen or drawn (order.py); till then the first listed
        "draws": 0,  # the first-player draws so far (games/seats.py)
        "passing": [],
        "future": [],
        "acted": [],
        "inquisition": False,  # [GT66] face down at setup
        "cycle5_order": None,
        "prohibition": None,
        "board": board,
        "tiles": _fresh_tiles(board),
        "players": [_new_player() for _name in names],
        "notices": [],
        "notices_later": [],  # the notices, kept to say on each page in its language (calculator.note)
        "notice_player": None,
    }


def apply(state: dict, type_: str, data: Any, ctx: Context) -> dict:
    """Return the state after one event (see EVENTS); invalid events raise RulesError."""
    handler = HANDLERS[type_]  # Game.apply refused unknown types
    new = clone(state)
    new["notices"], new["notices_later"] = [], []
    if type_ not in ("board", SHEET) and "suspicion_track" not in new["board"]:
        raise RulesError("type", _("first enter the suspicion track's icon positions (box profile or board values)"))
    handler(new, data, ctx)
    player = data.get("player") if isinstance(data, dict) else None
    new["notice_player"] = player if type_ in CARD_EVENTS + (SHEET,) else None
    calculator.refresh_finished(new, list(ctx.names), ctx.options)
    return new


# --- events ------------------------------------------------------------------------------


def _on_board(s: dict, data: Any, ctx: Context) -> None:
    values = functions.board(data, "data", ordered=not ctx.replayed)  # a stored event is folded as it was accepted
    if not values:
        raise RulesError("data", _("enter at least one of: %(sections)s", sections=", ".join(functions.SECTIONS)))
    if "suspicion_track" in values and s["board"].get("suspicion_track") != values["suspicion_track"]:
        if any(p["suspicion"] != rules.new_suspicion() for p in s["players"]):
            raise RulesError("data.suspicion_track", _("is fixed once a marker has moved; undo back to the start to change it"))
    if "tiles" in values and any(t["reached_by"] for t in s["tiles"]) and values["tiles"] != s["board"].get("tiles"):
        raise RulesError("data.tiles", _("are fixed once a player has reached a tile; undo to change them"))
    s["board"].update(values)
    if "tiles" in values and not any(t["reached_by"] for t in s["tiles"]):
        s["tiles"] = _fresh_tiles(s["board"])
    note(s, later.gettext("Board values saved: %(sections)s", sections=sections(values)))


def _on_suspicion(s: dict, data: Any, ctx: Context) -> None:
    obj(data, "data", required=("player", "delta"))
    player = _player(data, s)
    delta = _delta(data["delta"], "data.delta", MAX_DELTA)
    _suspect(s, ctx, player, delta)


def _on_suspicion_group(s: dict, data: Any, ctx: Context) -> None:
    obj(data, "data", required=("player", "group", "delta"))
    player = _player(data, s)
    group = choice(data["group"], "data.group", ("others", "copernican"))
    delta = _delta(data["delta"], "data.delta", MAX_DELTA)
    # [GT696] "All the other players ..."; [GT697] "All the Copernican players ..."
    targets = [i for i, p in enumerate(s["players"]) if (i != player if group == "others" else p["principle"] == "copernican")]
    if not targets:
        raise RulesError("data.group", _("no player is affected: there is no Copernican player left"))
    for i in _in_turn_order(s, targets):
        _suspect(s, ctx, i, delta)


def _on_vp(s: dict, data: Any, ctx: Context) -> None:
    obj(data, "data", required=("player", "delta"))
    player = _player(data, s)
    delta = _delta(data["delta"], "data.delta", functions.MAX_VP)
    vp = s["players"][player]["vp"] + delta
    if not 0 <= vp <= functions.MAX_VP:
        raise RulesError("data.delta", _("would put the scoring marker at %(vp)s; it stays within 0 to %(max)s", vp=vp, max=functions.MAX_VP))
    s["players"][player]["vp"] = vp


def _on_tile(s: dict, data: Any, ctx: Context) -> None:
    obj(data, "data", required=("player", "tile"), optional=("vp",))
    player = _player(data, s)
    if s["phase"] == "final":
        raise RulesError("type", _("during final scoring the scoring marker gives no suspicion [GT739]"))
    tiles_board = s["board"].get("tiles")
    if not tiles_board:
        raise RulesError("data.tile", _("first enter the suspicion tiles (their spaces and back value) in the board values"))
    index = whole(data["tile"], "data.tile", 0, len(s["tiles"]) - 1)
    tile = s["tiles"][index]
    name = ctx.names[player]
    space = tiles_board["spaces"][index]
    if player in tile["reached_by"]:
        raise RulesError("data.tile", _("%(name)s has already reached the tile at %(space)s", name=name, space=space))
    if tile["face"] == "removed":
        raise RulesError("data.tile", _("the tile at %(space)s was removed: it adds no suspicion any more", space=space))
    vp = whole(data["vp"], "data.vp", 0, functions.MAX_VP) if "vp" in data else s["players"][player]["vp"]
    if not rules.tiles_affect(vp):
        raise RulesError("data.player", _("%(name)s has more than 100 VP (%(vp)s): suspicion tiles no longer affect them [GT210]",
                                          name=name, vp=vp))
    before = tile["face"]
    # [GT202] reaching or passing the space adds the tile's value; then flip or remove [GT204]
    _suspect(s, ctx, player, rules.tile_value(before, tiles_board["back"]), why=later.gettext("tile at %(space)s", space=space))
    tile["reached_by"].append(player)
    tile["face"] = rules.tile_after_reach(before, len(tile["reached_by"]), len(s["players"]))
    if tile["face"] != before:
        note(s, later.gettext("Tile at %(space)s: flip it.", space=space) if tile["face"] == "back" else
             later.gettext("Tile at %(space)s: remove it from the board.", space=space))


def _on_income_done(s: dict, data: Any, ctx: Context) -> None:
    obj(data, "data")
    if s["phase"] != "income":
        raise RulesError("type", _("it is not the Income phase"))
    s["phase"] = "actions"


def _on_action(s: dict, data: Any, ctx: Context) -> None:
    obj(data, "data", required=("player", "action"))
    player = _turn(s, data, ctx)
    action = choice(data["action"], "data.action", rules.MAIN_ACTIONS)
    p = s["players"][player]
    if action == "philosopher":
        # GAL-C13: after the Inquisition's +1 [GT398], which may arrest the figure at once [GT164][GT531]
        why = rules.philosopher_unavailable(p["suspicion"], p.get("philosopher_used", False), s["board"]["suspicion_track"],
                                            s["inquisition"], ctx.options.get("stake_overshoot", "discard"))
        if why:
            # Translators: why is one of the reasons the Natural Philosopher cannot be used ("is in Prison: ...")
            raise RulesError("data.action", _("%(name)s's Natural Philosopher %(why)s", name=ctx.names[player], why=why))
        p["philosopher_used"] = True
    _main_action(s, ctx, player)
    _end_turn(s, player)


def _on_abjure(s: dict, data: Any, ctx: Context) -> None:
    obj(data, "data", required=("player",))
    player = _turn(s, data, ctx)
    why = rules.can_abjure(s["players"][player]["principle"], s["cycle"])
    if why:
        # Translators: why is one of the reasons a player may not Abjure ("has already abjured: ...")
        raise RulesError("data.player", _("%(name)s %(why)s", name=ctx.names[player], why=why))
    _main_action(s, ctx, player)  # GAL-C13: the Inquisition's +1 comes first
    # [GT415-419] flip to Ptolemaic; -5 for you, +1 for every other Copernican
    s["players"][player]["principle"] = "ptolemaic"
    note(s, later.gettext("%(name)s abjures and is now Ptolemaic (final).", name=ctx.names[player]))
    _suspect(s, ctx, player, rules.ABJURE_SELF)
    others = [i for i, p in enumerate(s["players"]) if i != player and p["principle"] == "copernican"]
    for i in _in_turn_order(s, others):
        _suspect(s, ctx, i, rules.ABJURE_OTHERS)
    _end_turn(s, player)


def _on_penance(s: dict, data: Any, ctx: Context) -> None:
    obj(data, "data", required=("player", "level", "remove"))
    player = _turn(s, data, ctx)
    level = whole(data["level"], "data.level", 1, 3)
    remove = flag(data["remove"], "data.remove")
    p = s["players"][player]
    roman = rules.PENANCE_LEVELS[level - 1]
    if not p["suspicion"]["penance_taken"][level - 1]:
        raise RulesError("data.level", _("%(name)s has no Penance card %(roman)s", name=ctx.names[player], roman=roman))
    if p["penance_removed"][level - 1]:
        raise RulesError("data.level", _("%(name)s's Penance card %(roman)s was removed from the game", name=ctx.names[player], roman=roman))
    relief = rules.penance_card_suspicion(s["inquisition"])  # [GT484] read before the turn's +1
    _main_action(s, ctx, player)  # GAL-C14: face up, +1 and no -1
    if relief:
        _suspect(s, ctx, player, relief, why=later.gettext("Penance card %(roman)s", roman=roman))
    if remove:
        # [GT479] pay the printed coins to remove it: it no longer costs VP at the end [GT763]
        p["penance_removed"][level - 1] = True
        note(s, later.gettext("%(name)s pays %(cost)s and removes Penance card %(roman)s from the game.", name=ctx.names[player],
                              cost=profile.removal_cost_later(s["board"], level), roman=roman))
    _end_turn(s, player)


def _on_pass(s: dict, data: Any, ctx: Context) -> None:
    obj(data, "data", required=("player",))
    player = _turn(s, data, ctx)
    # [GT369] the marker goes to the Passing Area; "Passing does not cause you an increase" [GT400]
    s["passing"] = rules.place_passer(s["passing"], player, ctx.options.get("passing_order", "literal"))
    _end_turn(s, player)


def _on_prohibition(s: dict, data: Any, ctx: Context) -> None:
    obj(data, "data", required=("limit", "counts"), optional=("penalty",))
    if s["phase"] != "end" or s["cycle"] not in rules.PROHIBITION_CYCLES:
        raise RulesError("type", _("the Prohibition is checked only in the End of Cycle phase of Cycles 2, 3 and 5"))
    if s["prohibition"] is not None:
        raise RulesError("type", _("this cycle's Prohibition has already been checked (undo it to redo it)"))
    limit = whole(data["limit"], "data.limit", 1, 99)
    counts = [whole(c, at("data.counts", i), 0, 99)
              for i, c in enumerate(listof(data["counts"], "data.counts", len(s["players"]), len(s["players"])))]
    penalty = functions.penalty(data["penalty"], "data.penalty") if "penalty" in data else profile.prohibition_penalty(s["board"], s["cycle"])
    # [GT728] you follow it only with fewer than the limit
    failed = [i for i in _in_turn_order(s, range(len(s["players"]))) if rules.fails_prohibition(counts[i], limit)]
    if failed and penalty is None:
        raise RulesError("data.penalty", _("is required: the suspicion for failing in Cycle %(cycle)s is not in the board values", cycle=s["cycle"]))
    for i in failed:
        # [GT731] the amount depends on the cycle and the side of the Principle Coin
        amount = penalty[s["players"][i]["principle"]]
        if amount:
            _suspect(s, ctx, i, amount, why=later.gettext("Prohibition"))
    s["prohibition"] = {"limit": limit, "counts": counts, "failed": failed}
    if not failed:
        note(s, later.gettext("Prohibition: everyone followed it."))


def _on_next_cycle(s: dict, data: Any, ctx: Context) -> None:
    obj(data, "data")
    if s["phase"] != "end":
        raise RulesError("type", _("the cycle's Actions phase is not over yet: every player must pass"))
    if prohibition_pending(s):
        raise RulesError("type", _("check the Prohibition of Cycle %(cycle)s first", cycle=s["cycle"]))
    if s["cycle"] == rules.LAST_CYCLE:
        # [GT737] the game ends after the End of Cycle of Cycle 5
        s["phase"] = "final"
        note(s, later.gettext("The game is over: final scoring."))
        return
    # Clean Up [GT710]: figures stand up again (in Prison they stay there, standing)
    for p in s["players"]:
        p["philosopher_used"] = False
    s["cycle"] += 1
    s["phase"] = "income"  # [GT310] Income from Cycle 2 on
    s["round"] = 1
    s["acted"] = []
    s["prohibition"] = None
    if s["cycle"] == rules.LAST_CYCLE:
        s["cycle5_order"] = list(s["order"])


#: event type -> its handler `(state, data, ctx)`, which changes the state's copy in place
HANDLERS = {
    "board": _on_board, "suspicion": _on_suspicion, "suspicion_group": _on_suspicion_group, "vp": _on_vp, "tile": _on_tile,
    "income_done": _on_income_done, "action": _on_action, "abjure": _on_abjure, "penance": _on_penance, "pass": _on_pass,
    "prohibition": _on_prohibition, "next_cycle": _on_next_cycle, "final": calculator.on_final, SHEET: calculator.on_sheet,
}


# --- helpers ----------------------------------------------------------------------------

def _new_player() -> dict:
    return {"suspicion": rules.new_suspicion(), "principle": "copernican", "vp": 0,
            "penance_removed": [False, False, False], "philosopher_used": False, "final": None, "sheet": None}


def _fresh_tiles(board: dict) -> list[dict]:
    # [GT64] every tile starts "2" side up
    return [{"face": "front", "reached_by": []} for _space in board.get("tiles", {}).get("spaces", [])]


def _player(data: dict, s: dict) -> int:
    return whole(data["player"], "data.player", 0, len(s["players"]) - 1)


def _delta(value: Any, field: str, limit: int) -> int:
    delta = whole(value, field, -limit, limit)
    if delta == 0:
        raise RulesError(field, _("0 changes nothing: type how many to add (or, with a minus, take away), up to %(limit)s", limit=limit))
    return delta


def _in_turn_order(s: dict, players) -> list[int]:
    """Return these players in the current turn order (timing matters for who flips a tile)."""
    rank = {p: i for i, p in enumerate(s["order"])}
    return sorted(players, key=lambda p: rank[p])


def current_player(s: dict) -> int | None:
    """Return whose turn it is in the Actions phase, or None: the first on the Current track not done this round [GT369][GT379]."""
    if s["phase"] != "actions":
        return None
    return next((p for p in s["order"] if not has_passed(s, p) and p not in s["acted"]), None)


def has_passed(s: dict, player: int) -> bool:
    """Return whether the player passed this cycle: their marker is in the Passing Area, then on the Future track [GT369][GT388]."""
    return player in s["passing"] or player in s["future"]


def prohibition_pending(s: dict) -> bool:
    """Return whether this End of Cycle still waits for its Prohibition check [GT726]."""
    return s["phase"] == "end" and s["cycle"] in rules.PROHIBITION_CYCLES and s["prohibition"] is None


def _turn(s: dict, data: dict, ctx: Context) -> int:
    player = _player(data, s)
    if s["phase"] != "actions":
        raise RulesError("type", {"income": _("finish the Income phase first"),
                                  "end": _("the Actions phase of this cycle is over"),
                                  "final": _("the game is over: final scoring")}.get(s["phase"], _("not now")))
    now = current_player(s)
    if player != now:
        if has_passed(s, player):
            raise RulesError("data.player", _("%(name)s has passed this cycle", name=ctx.names[player]))
        raise RulesError("data.player", _("it is %(name)s's turn", name=ctx.names[now]))
    return player


def _suspect(s: dict, ctx: Context, player: int, delta: int, why: dict | None = None) -> None:
    """Move a player's suspicion marker and say what it triggers."""
    p = s["players"][player]
    track = s["board"]["suspicion_track"]
    p["suspicion"], events = rules.move_suspicion(track, p["suspicion"], delta, ctx.options.get("stake_overshoot", "discard"))
    name = ctx.names[player]
    values = {"name": name, "delta": f"{delta:+d}", "at": p["suspicion"]["position"]}
    note(s, later.gettext("%(name)s: suspicion %(delta)s (%(why)s), now %(at)s.", why=why, **values) if why else
         later.gettext("%(name)s: suspicion %(delta)s, now %(at)s.", **values))
    for event in events:
        note(s, triggered(event, name))


def _main_action(s: dict, ctx: Context, player: int) -> None:
    # [GT396-398] face up: +1 at the beginning of the turn for a Main Action (GAL-C13)
    delta = rules.main_action_suspicion(s["inquisition"])
    if delta:
        _suspect(s, ctx, player, delta, why=later.gettext("the Inquisition"))


def _end_turn(s: dict, player: int) -> None:
    s["acted"].append(player)
    if current_player(s) is not None:
        return
    # [GT379] the last player in the current turn order has taken their turn
    remaining = [p for p in s["order"] if not has_passed(s, p)]
    end = rules.round_end(s["passing"], s["future"], len(remaining), s["inquisition"])
    s["passing"], s["future"], s["inquisition"] = end["passing"], end["future"], end["inquisition_up"]
    if end["flipped"]:
        note(s, inquisition_suspects())
    if not end["over"]:
        s["round"] += 1
        s["acted"] = []
        return
    # [GT704-708] End of Cycle: markers back to the Current track keeping their places,
    # the Inquisition face down
    s["order"] = end["future"]
    s["future"] = []
    s["acted"] = []
    if s["inquisition"]:
        note(s, later.gettext("End of Cycle: the Inquisition token goes face down."))
    s["inquisition"] = False
    s["phase"] = "end"
    note(s, later.gettext("Everyone has passed: End of Cycle %(cycle)s.", cycle=s["cycle"]))
