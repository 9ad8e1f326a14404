"""What the Galileo panel shows, computed from the state with the rules (no Flask).

Every word is said in the language spoken when the view is built (companion/games/speech.py):
module-level tables of words are only marked (N_) and translated where they are used.
"""

from __future__ import annotations

from .. import sentence
from ..base import is_calculator
from ..sentence import Sentence
from ..speech import N_, _, ngettext, pgettext, told
from ..words import standing
from . import calculator, rules
from .calculator import and_list as _and
from .functions import SECTIONS, run_score
from .profile import prohibition_penalty, removal_cost
from .table import current_player, has_passed, prohibition_pending

PHASE_TEXT = {
    "income": N_("Income"),
    "actions": N_("Actions"),
    "end": N_("End of Cycle"),
    "final": N_("Final scoring"),
}

ACTION_TEXT = {
    "invention": N_("Use an Invention"),
    "academic": N_("Upgrade Academic Level"),
    "treatise": N_("Play Treatise Cards"),
    "philosopher": N_("Use Natural Philosopher"),
}


#: the readings in force (OPTIONS), as the phase card says them
READINGS = {
    "literal": N_("later passers of a round go to the left (the rulebook's wording)"),  # GAL-C5
    "first_passer_first": N_("later passers of a round go to the right"),
    "discard": N_("a move across the Stake ends on 0"),  # GAL-C3
    "continue": N_("a move across the Stake counts its leftover steps on from 0"),
}

_PRINCIPLE = {"copernican": N_("Copernican"), "ptolemaic": N_("Ptolemaic")}
_STATUS = {"free": N_("free"), "prison": N_("in Prison"), "stake": N_("at the Stake")}
#: a figure's place as its badge says it ("In Prison")
STATUS_BADGE = {"free": N_("Free"), "prison": N_("In Prison"), "stake": N_("At the Stake")}

#: what the forms offer for the rules' values (_board_fields.html, _sheet.html; the profile page reads
#: it as game.form("board")): the Penance levels (value, roman numeral), the Prohibition's cycles, and
#: the board-value sections in the order the table and the profile list them; said_form adds the words
FORM = {
    "penance": list(enumerate(rules.PENANCE_LEVELS, 1)),
    "penance_columns": list(enumerate(rules.PENANCE_LEVELS)),  # a list's places 0, 1, 2 (the printed values' forms)
    "cycles": [(str(c), str(c)) for c in rules.PROHIBITION_CYCLES],
    "table_sections": ("cathedral", "tiles", "penance_cards", "prohibition_suspicion", "suspicion_track"),
    "profile_sections": tuple(SECTIONS),
    # the printed values a calculator table asks for (the rest is for tracking)
    "calculator_sections": ("cathedral", "penance_cards"),
}


def stake() -> str:
    """The Stake alone (a column heading, the track's icon), in the language spoken."""
    # Translators: the Stake where the Inquisition burns a heretic (the suspicion track's last icon), not a wager
    return pgettext("pyre", "Stake")


def said_form() -> dict:
    """FORM with its words in the language spoken: the principles, a figure's place as the
    Cathedral's columns and as a row's choice."""
    places = {"free": _("Free"), "prison": _("Prison"), "stake": stake()}
    return {**FORM, "principles": [(p, _(_PRINCIPLE[p])) for p in rules.PRINCIPLES],
            "cathedral": [(st, places[st]) for st in rules.STATUSES],
            "statuses": [(st, _(STATUS_BADGE["prison"]) if st == "prison" else places[st]) for st in rules.STATUSES]}


def form(name: str, data: object = None) -> dict:
    """What a form without a table shows (Game.form): the board values' fields, on the profile page too."""
    return {"board": said_form}[name]()

BREAKDOWN_ROWS = (
    ("track", N_("Scoring track")),
    ("status", N_("Status (Cathedral)")),
    ("rank", N_("Rank")),
    ("inventions", N_("End-game Inventions")),
    ("mentor", N_("Scoring Mentor")),
    ("penance", N_("Penance cards")),
    ("stake", N_("The Stake")),
    ("end_losses", N_("End-of-game losses")),
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
    return state.get("first") or 0  # chosen or drawn (order.py), else the first listed


def _ties(result: dict) -> dict[int, str]:
    """Total -> the line naming how a tie on it was broken: the earliest in turn order first [GT769].
    Each name is marked (sentence.name): the callers say the lines as Sentences."""
    said = {}
    for total in sorted({p["total"] for p in result["players"]}, reverse=True):
        tied = sorted((p["name"] for p in result["players"] if p["total"] == total), key=lambda n: result["places"][n])
        if len(tied) > 1:
            values = {"names": _and(sentence.names(tied)), "total": total, "first": sentence.name(tied[0])}
            said[total] = (_("%(names)s tie on %(total)s: %(first)s wins as the earliest in turn order", **values)
                           if tied[0] in result["winners"] else
                           _("%(names)s tie on %(total)s: %(first)s places ahead as the earliest in turn order", **values))
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
    return Sentence(ngettext("%(names)s wins", "%(names)s win", len(winners), names=_and(sentence.names(winners))))


def missing_final(state: dict, names: list[str], options: dict) -> list[Sentence]:
    """What final scoring still needs ("Still needed: the rows of Anna and Tom"), each a Sentence:
    calculator.missing writes it from the names marked."""
    return [Sentence(line) for line in calculator.missing(state, sentence.names(names), options)]


def notices(state: dict, names: list[str]) -> list[Sentence]:
    """What the last event did ("Anna: suspicion +3, now 4."), in the language spoken (speech.told):
    the state keeps plain text, so its names are marked here (sentence.naming) for the page's <bdi>.
    A state stored before its notices were kept to be said (notices_later) says its English notices."""
    notices, kept = state.get("notices", []), state.get("notices_later")
    lines = [told(said) for said in kept] if kept is not None and len(kept) == len(notices) else notices
    return [sentence.naming(line, names) for line in lines]


#: a figure's place on the scoreboard: said only when it is not free
STATUS_WORDS = {**_STATUS, "free": None}


def _row_said(player: dict) -> str:
    """Whether a calculator row is saved, as its card and the scoreboard say it."""
    return _("row in") if player.get("sheet") else _("waiting")


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
            status = _(status) if status else _("passed") if has_passed(state, i) else None
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
        "form": said_form(),
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
    label = {**{f"penance_{level}": roman for level, roman in FORM["penance"]}, "prison": _("Prison"), "stake": stake()}
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
        "principle_text": _(_PRINCIPLE[p["principle"]]),
        "status": status,
        "status_text": _(STATUS_BADGE[status]),
        "position": sus["position"],
        "penance_held": [rules.PENANCE_LEVELS[level - 1] for level in held],
        "penance_levels": held,
        "vp": vp,
        # [GT210] past 100 VP the tiles add nothing
        "tiles_note": None if rules.tiles_affect(vp) else Sentence(_(
            "Over %(vp)s VP: suspicion tiles no longer affect %(name)s.", vp=rules.TILES_UNTIL_VP, name=sentence.name(names[i]))),
        # [GT765-767] at the Stake the final position costs VP
        "stake_warning": _("At the Stake: each point of suspicion costs %(factor)s VP at the end (%(loss)s now).",
                           factor=rules.STAKE_FACTOR, loss=rules.stake_loss(sus["position"])) if status == "stake" else None,
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
    actions = [(key, _(label)) for key, label in ACTION_TEXT.items() if key != "philosopher" or not card["philosopher"]]
    penance = []
    for level in card["penance_levels"]:
        roman = rules.PENANCE_LEVELS[level - 1]
        penance += [{"level": level, "remove": False, "label": _("Play Penance %(roman)s", roman=roman)},
                    {"level": level, "remove": True,  # [GT485] pay the printed coins to remove it
                     "label": _("Play Penance %(roman)s and pay %(cost)s to remove it", roman=roman, cost=removal_cost(board, level))}]
    # [GT416-419] -5 for you, +1 for every other Copernican
    abjure = _("Abjure (\u2212%(self)s you, +%(others)s other Copernicans)", self=-rules.ABJURE_SELF, others=rules.ABJURE_OTHERS)
    return {"actions": actions, "penance": penance, "abjure": abjure if card["can_abjure"] else None}


def _tile(tile: dict, space: int, back: int, names: list[str]) -> dict:
    # [GT64] the front shows 2; the back's value is printed (the board values)
    value = rules.tile_value(tile["face"], back) if tile["face"] != "removed" else None
    side = {"front": _("%(value)s (front)", value=value), "back": _("back: %(value)s", value=value),
            "removed": _("removed")}[tile["face"]]
    return {"space": space, "face": tile["face"], "value": value, "side": side, "reached_by": [names[i] for i in tile["reached_by"]]}


def _result_words(result: dict | None) -> dict:
    """The result as _result.html shows it: ranked, the tie-break named where it decided a place [GT769]."""
    return {
        "result": result,
        "ranked": sorted(result["players"], key=lambda p: result["places"][p["name"]]) if result else [],
        "tie_break": tie_break(result) if result else None,
        # the result's first line ("Winner: Ann"); ngettext here, since a page's ngettext fills its num alone
        "winners_said": Sentence(ngettext("Winner: %(names)s", "Winner: %(names)s", len(result["winners"]),
                                          names=", ".join(sentence.names(result["winners"])))) if result else None,
        "breakdown_rows": [(key, _(label)) for key, label in BREAKDOWN_ROWS],
    }


def _cycle5_said(state: dict, names: list[str], options: dict, result: dict | None) -> tuple[list[str] | None, Sentence | None]:
    """GAL-C5: the tie-break by the order in force during Cycle 5, shown when it differs from the
    Current track's after the End of Cycle 5; returns (its winners, the end screen's line)."""
    if not result or not state["cycle5_order"] or state["cycle5_order"] == state["order"]:
        return None, None
    doc = calculator.score_document(state, names, options, order=state["cycle5_order"])
    winners = run_score(doc)["winners"]
    said = {"cycle": rules.LAST_CYCLE, "order": ", ".join(sentence.names(names[i] for i in state["cycle5_order"]))}
    if winners != result["winners"]:
        return winners, Sentence(_("During Cycle %(cycle)s the order was %(order)s: by that order the winner would be %(winners)s.",
                                   winners=", ".join(sentence.names(winners)), **said))
    return winners, Sentence(_("During Cycle %(cycle)s the order was %(order)s; the winner is the same by that order.", **said))


def build(state: dict, names: list[str], options: dict) -> dict:
    """Return the panel's context."""
    board = state["board"]
    now = current_player(state)
    players = [_card(state, i, names, options, now) for i in range(len(state["players"]))]
    missing = [_(label) for key, label in (
        ("suspicion_track", N_("the suspicion track (length and icon positions)")),
        ("tiles", N_("the suspicion tiles (spaces and back value)")),
        ("cathedral", N_("the Cathedral values (after setup)")),
        ("penance_cards", N_("the penance cards' VP and coins")),
    ) if key not in board]
    result = calculator.final_result(state, names, options, {})  # None until every final entry is in
    alt_winners, cycle5_said = _cycle5_said(state, names, options, result)
    checked = state["prohibition"]
    cycle, up = state["cycle"], state["inquisition"]
    return {
        "calculator": False,
        "form": said_form(),
        "players": players,
        "tiles": [_tile(tile, board["tiles"]["spaces"][t], board["tiles"]["back"], names) for t, tile in enumerate(state["tiles"])],
        "missing": missing,
        "needs_track": "suspicion_track" not in board,
        "current": now,
        "current_name": names[now] if now is not None else None,
        "turn": _turn(state, players[now]) if now is not None else None,
        "period": rules.PERIOD[cycle],
        "phase_text": _(PHASE_TEXT[state["phase"]]),
        # [GT66][GT398] the token's side, and what it costs a Main Action now
        "inquisition_text": _("Inquisition face up: +%(n)s per Main Action", n=rules.INQUISITION_SUSPICION) if up else
                            _("Inquisition face down"),
        "main_action_cost": _("Any Main Action but Pass: +%(n)s suspicion first.", n=rules.main_action_suspicion(up)) if up else None,
        "readings": _("Readings in force: %(passing)s; %(overshoot)s.", passing=_(READINGS[options.get("passing_order", "literal")]),
                      overshoot=_(READINGS[options.get("stake_overshoot", "discard")])),
        # markers still on the Current track (passers' markers have moved on [GT369])
        "order": [names[i] for i in state["order"] if not has_passed(state, i)],
        "passing": [names[i] for i in state["passing"]],
        "future": [names[i] for i in state["future"]],
        "turning_points": rules.turning_points(cycle) if state["phase"] == "end" else [],
        "needs_prohibition": prohibition_pending(state),
        "prohibition_penalty": prohibition_penalty(board, cycle),
        "prohibition_said": None if checked is None else ngettext(
            "Prohibition checked: %(num)d player failed.", "Prohibition checked: %(num)d players failed.", len(checked["failed"]))
        if checked["failed"] else _("Prohibition checked: everyone followed it."),
        "clean_up": state["phase"] == "end" and cycle != rules.LAST_CYCLE,
        # [GT737] the game ends after the End of Cycle 5
        "next_cycle_label": _("Start Cycle %(cycle)s", cycle=cycle + 1) if cycle < rules.LAST_CYCLE else _("Final scoring"),
        "before_final": (None if state["phase"] == "final" else
                         _("The game ends after the End of Cycle %(cycle)s; final scoring comes then.", cycle=rules.LAST_CYCLE)),
        **_result_words(result),
        "missing_final": missing_final(state, names, options) if state["phase"] == "final" and result is None else [],
        "notices": notices(state, names),
        "scoreboard": scoreboard(state, names, result, now, False),
        "notice_player": state.get("notice_player"),
        "alt_winners": alt_winners,
        "cycle5_said": cycle5_said,
        # [GT769] ties go to the earliest in turn order: the Current track after the End of Cycle 5 (GAL-C5)
        "tie_order_said": Sentence(_("Ties go to the earliest in turn order. The app used the Current turn order track after the End of "
                                     "Cycle %(cycle)s: %(order)s.", cycle=rules.LAST_CYCLE,
                                     order=", ".join(sentence.names(names[i] for i in state["order"])))),
    }


#: what the running score is, for the archive's chart (Game.running_label)
RUNNING_LABEL = N_("VP on the scoring track")

#: how a page names a refused field (companion/wording.py): every event field, option and printed
#: value, so no path (`data.delta`, `counts[2]`, `suspicion_track.stake`) is ever shown. Only marked
#: (N_): the page translates a label when it says it, then fills its {who}, {name}, {nth}... A label
#: opens the line a page shows ("The Stake icon: must be ..."), so it starts with a capital.
LABELS = {
    "player": N_("The player"), "delta": N_("{who}'s change"), "suspicion.delta": N_("{who}'s suspicion change"),
    "suspicion_group.delta": N_("The suspicion change for the others"), "suspicion_group.group": N_("Who the effect reaches"),
    "vp.delta": N_("{who}'s VP change"), "tile.tile": N_("The suspicion tile"), "tile.vp": N_("{who}'s VP on reaching the tile"),
    "action.action": N_("The Main Action"), "penance.level": N_("The Penance card"),
    "penance.remove": N_("Paying to remove the Penance card"), "prohibition.limit": N_("The limit on the Prohibition tile"),
    "prohibition.counts": N_("The elements each player possesses"), "prohibition.counts[]": N_("{nth_name}'s elements"),
    "prohibition.penalty": N_("The suspicion for failing"), "final.inventions_vp": N_("{who}'s End-game Inventions VP"),
    "final.mentor_vp": N_("{who}'s Scoring Mentor VP"), "final.end_losses": N_("{who}'s VP lost at the end"),
    "sheet.principle": N_("{who}'s principle"), "sheet.status": N_("{who}'s place in the Cathedral"),
    "sheet.vp": N_("{who}'s VP"), "sheet.suspicion": N_("{who}'s suspicion"), "sheet.penance": N_("{who}'s Penance cards"),
    "sheet.penance[]": N_("{who}'s Penance cards"), "sheet.inventions_vp": N_("{who}'s End-game Inventions VP"),
    "sheet.mentor_vp": N_("{who}'s Scoring Mentor VP"), "sheet.end_losses": N_("{who}'s VP lost at the end"),
    "sheet.turn_order": N_("{who}'s place in turn order"), "passing_order": N_("Where later passers go"),
    "stake_overshoot": N_("A move across the Stake"),
    # printed values: the box profile's sections and the board event's (RULES.md GAL-B)
    "suspicion_track": N_("The suspicion track"), "suspicion_track.length": N_("The suspicion track's number of spaces"),
    "suspicion_track.penance": N_("The Penance icons"), "suspicion_track.penance[]": N_("The {nth} Penance icon"),
    "suspicion_track.prison": N_("The Prison icon"), "suspicion_track.stake": N_("The Stake icon"),
    "tiles": N_("The suspicion tiles"), "tiles.back": N_("The value on the tiles' back"), "tiles.spaces": N_("The tiles' spaces"),
    "tiles.spaces[]": N_("The {nth} tile's space"), "cathedral": N_("The Cathedral values"),
    "penance_cards": N_("The penance cards"), "penance_cards.vp": N_("The penance cards' VP"),
    "penance_cards.vp[]": N_("The {nth} Penance card's VP"), "penance_cards.coins": N_("The penance cards' coins"),
    "penance_cards.coins[]": N_("The {nth} Penance card's coins"),
    "prohibition_suspicion": N_("The suspicion for a failed Prohibition"),
    "cathedral.copernican": N_("The Copernican Cathedral values"), "cathedral.ptolemaic": N_("The Ptolemaic Cathedral values"),
    "cathedral.copernican.free": N_("The Cathedral VP, Copernican free"),
    "cathedral.copernican.prison": N_("The Cathedral VP, Copernican in Prison"),
    "cathedral.copernican.stake": N_("The Cathedral VP, Copernican at the Stake"),
    "cathedral.ptolemaic.free": N_("The Cathedral VP, Ptolemaic free"),
    "cathedral.ptolemaic.prison": N_("The Cathedral VP, Ptolemaic in Prison"),
    "cathedral.ptolemaic.stake": N_("The Cathedral VP, Ptolemaic at the Stake"),
    "prohibition_suspicion.2": N_("The suspicion for failing in Cycle 2"),
    "prohibition_suspicion.3": N_("The suspicion for failing in Cycle 3"),
    "prohibition_suspicion.5": N_("The suspicion for failing in Cycle 5"),
    "prohibition_suspicion.2.copernican": N_("The Copernican suspicion for failing in Cycle 2"),
    "prohibition_suspicion.2.ptolemaic": N_("The Ptolemaic suspicion for failing in Cycle 2"),
    "prohibition_suspicion.3.copernican": N_("The Copernican suspicion for failing in Cycle 3"),
    "prohibition_suspicion.3.ptolemaic": N_("The Ptolemaic suspicion for failing in Cycle 3"),
    "prohibition_suspicion.5.copernican": N_("The Copernican suspicion for failing in Cycle 5"),
    "prohibition_suspicion.5.ptolemaic": N_("The Ptolemaic suspicion for failing in Cycle 5"),
    "prohibition.penalty.copernican": N_("The Copernican suspicion for failing"),
    "prohibition.penalty.ptolemaic": N_("The Ptolemaic suspicion for failing"),
}


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
