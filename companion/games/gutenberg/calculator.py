"""Gutenberg's calculator mode: the table opens at final scoring, one `sheet` row per player.

A calculator table (`options["calculator"]`) tracks nothing before the end. Each player's row
is one `sheet` event holding what their areas show after round 6 [GB298]: the fame track, their
guilders, the four specialty levels, patronage cards, and the types and inks that break ties
[GB307], with the kept character (Hieronymus Vietor doubles guilder points [GB407]). A row is
self-contained, so two phones saving two players' rows at once both land; saving a row again
replaces it. The table is finished once every row is in, and the tally is the contract's `score`
function's (functions.FUNCTIONS["score"]); the automa of a solo game has no score (RULES.md D2
step 6), so its row is never asked for.

On a tracked table the same `sheet` event is the final-scoring correction of one player's
counts, once the game is over.
"""

from __future__ import annotations

from typing import Any

from ..base import SHEET, is_calculator, keep_notice
from ..speech import N_, _, later
from ..validation import RulesError, obj, whole
from .facts import CHARACTERS
from .functions import END_VALUES, FUNCTIONS, check_end_values

#: what a calculator table takes; Game.apply refuses any other event with this hint
CALCULATOR_EVENTS = (SHEET,)
CALCULATOR_HINT = N_('each player saves their row')
#: what a result's player keeps beyond name, total and breakdown: a solo player's professional title [GB369]
RESULT_EXTRAS = ("title",)
#: the breakdown's keys in words, as the archive's record names them (the English is what it always said)
BREAKDOWN = {"fame_track": N_("Fame track"), "guilders": N_("Guilders"), "patronage": N_("Patronage"), "specialties": N_("Specialties")}
#: how a page names the fields of calculator mode's row (view.LABELS takes them in), named as the player's board shows them
SHEET_LABELS = {
    "sheet.fame": N_("{who}'s fame track"),
    "fame": N_("{who}'s fame track"),
    "guilders": N_("{who}'s guilders"),
    "patronage_cards": N_("{who}'s patronage cards"),
    "types": N_("{who}'s types"),
    "inks": N_("{who}'s inks"),
    "specialties": N_("{who}'s specialty levels"),
    "specialties.typesetting": N_("{who}'s Typesetting level"),
    "specialties.woodcutting": N_("{who}'s Woodcutting level"),
    "specialties.binding": N_("{who}'s Binding level"),
    "specialties.illuminating": N_("{who}'s Illuminating level"),
    "sheet.guilders": N_("{who}'s guilders"),
    "sheet.specialties": N_("{who}'s specialty levels"),
    "sheet.specialties.typesetting": N_("{who}'s Typesetting level"),
    "sheet.specialties.woodcutting": N_("{who}'s Woodcutting level"),
    "sheet.specialties.binding": N_("{who}'s Binding level"),
    "sheet.specialties.illuminating": N_("{who}'s Illuminating level"),
    "sheet.patronage_cards": N_("{who}'s patronage cards"),
    "sheet.types": N_("{who}'s types"),
    "sheet.inks": N_("{who}'s inks"),
    "sheet.character": N_("{who}'s character"),
}
EVENT = ('{"player": I, "fame": N, "guilders": N, "specialties": {S: 0-6}, "patronage_cards": N, "types": N, '
         '"inks": N, "character": KEY or null}: one player\'s final-scoring row (saved again, it replaces the row)')


def check_row(data: Any, players: int) -> tuple[int, dict]:
    """Check one player's row (the `score` function's end values); return their index and the clean row
    (absent character is none)."""
    obj(data, "data", required=("player", *END_VALUES), optional=("character",))
    index = whole(data["player"], "data.player", 0, players - 1)
    row: dict[str, Any] = check_end_values(data, "data")
    character = data.get("character")
    if character is not None and (not isinstance(character, str) or character not in CHARACTERS):
        raise RulesError("data.character", _("is one of the %(tiles)s character tiles, or none", tiles=len(CHARACTERS)))
    row["character"] = character
    return index, row


def ev_sheet(state: dict, data: Any, ctx) -> None:
    """Store one player's row; a calculator table is finished once every row is in."""
    index, row = check_row(data, len(state["players"]))
    calculator = is_calculator(ctx.options)
    if not calculator and not state["finished"]:
        raise RulesError("type", _("the final sheet comes after round 6; during the game the counts change as you play"))
    player = state["players"][index]
    player.update(row)
    missing = []
    if calculator:
        state["rows_in"][index] = True
        # [GB298] final scoring once every player's end values are in
        state["finished"] = all(state["rows_in"])
        missing = waiting(state, ctx.names)
    if missing:
        keep_notice(state, index, later.gettext("row saved; waiting for %(names)s", names=", ".join(missing)))
    else:
        keep_notice(state, index, later.gettext("row saved; final scores at the top"))


def waiting(state: dict, names: list[str] | tuple[str, ...]) -> list[str]:
    """Return the players whose row a calculator table still waits for (its `rows_in`: whose rows are in)."""
    return [names[i] for i, done in enumerate(state["rows_in"]) if not done]


def sheet_line(d: dict, who: str) -> str:
    """The history line of a row."""
    return _("%(who)s: final row, fame track %(fame)s", who=who, fame=d.get("fame", "?"))


def score(state: dict, names: list[str]) -> dict | None:
    """Return the `score` function's result for the players' values as the state holds them.

    A calculator table is scored once finished, that is once every row is in (its callers,
    final_result and the view, ask then); a tracked table also for "Score so far".
    """
    players = []
    for i, p in enumerate(state["players"]):
        entry = {"name": names[i], "fame": p["fame"], "guilders": p["guilders"], "specialties": dict(p["specialties"]),
                 "patronage_cards": p["patronage_cards"], "types": p["types"], "inks": p["inks"]}
        if p["character"]:
            entry["character"] = p["character"]
        players.append(entry)
    # [GB369] professional titles are for solitaire players: one human (with the automa)
    try:
        return FUNCTIONS["score"].run({"players": players, "solo": len(players) == 1})
    except RulesError:
        return None  # names made equal by a rename: no tally until they differ again


def final_result(state: dict, names: list[str], options: dict, profile: dict) -> dict | None:
    """Return the `score` function's result for the table's final values; None until the game is over.

    What every result of a finished table is read through, calculator or tracked (Game.final_result:
    the archive, the result endpoint, the exports, BG Stats); a fresh document on every call. The
    end screen reaches the same `score` function by its own path (`score`, decorated by the view's `final`).
    """
    if not state.get("finished"):
        return None
    # [GB298] final scoring after round 6 (a tracked table), or once every row is in (a calculator)
    return score(state, names)
