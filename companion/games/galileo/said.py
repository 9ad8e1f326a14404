"""What a Galileo table says of its events, in the language of each page that shows it (issue 29).

A notice ("Luna: suspicion +3, now 4.") is written when an event is applied, but read later, on
every phone, each in its own language, while the state (which the JSON API returns) keeps it in
English. So a handler writes it with `note(state, later.gettext("...", **values))`: the English
goes to `state["notices"]`, as before, and the sentence with its values to `state["notes"]`
(JSON), which `told` says again in the language spoken where a page shows it (view.notices). A
value may itself be a sentence to say later (`later.gettext`, a plural `later.ngettext`) or a
list of them (said joined by commas). `later`'s methods are named like speech's so the
catalogs' extraction finds their sentences.

The history's lines (LINES, describe) are said when the history is shown. Plain Python, no Flask.
"""

from __future__ import annotations

from functools import reduce
from typing import Any

from .. import speech
from ..base import EventLines, SHEET, describe_event
from ..speech import N_, _
from . import rules


class later:
    """Sentences to say later, each in the language then spoken (`told`): plain JSON, kept in a state."""

    @staticmethod
    def gettext(message: str, **values: Any) -> dict:
        return {"msg": message, "values": values}

    @staticmethod
    def ngettext(singular: str, plural: str, num: int, **values: Any) -> dict:
        return {"msg": singular, "plural": plural, "n": num, "values": values}


def told(said: Any) -> Any:
    """A sentence kept by `later`, in the language spoken now; a list of them joined by commas;
    any other value (a name, a number, an English notice of an older state) as it is."""
    if isinstance(said, list):
        return ", ".join(str(told(one)) for one in said)
    if not isinstance(said, dict) or not isinstance(said.get("msg"), str):
        return said
    values = {key: told(value) for key, value in said.get("values", {}).items()}
    if "plural" in said:
        return speech.ngettext(said["msg"], said["plural"], said["n"], **values)
    return speech.gettext(said["msg"], **values)


def and_list(names: list[str]) -> str:
    """Names said one after the other, in the language spoken: "Ann and Ben and Cy"."""
    return reduce(lambda said, one: _("%(names)s and %(name)s", names=said, name=one), names)


def note(s: dict, said: dict) -> None:
    """Say what an event did: in English in the state's notices, and kept to be told on each page."""
    with speech.english():
        s["notices"].append(told(said))
    s.setdefault("notes", []).append(said)


#: the board values' sections, as the notice of a `board` event names them
SECTION_WORDS = {
    "suspicion_track": N_("suspicion track"), "tiles": N_("tiles"), "cathedral": N_("cathedral"),
    "penance_cards": N_("penance cards"), "prohibition_suspicion": N_("prohibition suspicion"),
}


def sections(keys) -> list[dict]:
    """The sections saved, to be said later: "suspicion track, tiles"."""
    return [later.gettext(SECTION_WORDS.get(key, key.replace("_", " "))) for key in keys]


def triggered(event: str, name: str) -> dict:
    """What a suspicion marker's crossing triggers for the player [GT142-190], to be said later."""
    if event.startswith("penance_"):
        roman = rules.PENANCE_LEVELS[int(event[-1]) - 1]
        return later.gettext("%(name)s: take Penance card %(roman)s and put it face down on your draw deck.", name=name, roman=roman)
    if event == "arrested":
        return later.gettext("%(name)s: arrested: your Natural Philosopher goes to Prison (if it stood on an action space, "
                             "lay it down; that space is free again).", name=name)
    if event == "released":
        return later.gettext("%(name)s: released: take your Natural Philosopher back (standing if it was unused, otherwise "
                             "lying until the End of Cycle).", name=name)
    # [GT186-190][GT765]
    return later.gettext("%(name)s: the Stake: your Natural Philosopher goes to the Stake for good; marker back to 0; from now "
                         "on every point of suspicion costs %(factor)s VP at the end.", name=name, factor=rules.STAKE_FACTOR)


def inquisition_suspects() -> dict:
    """The round's end turned the Inquisition token face up [GT396-398]."""
    return later.gettext("The Inquisition Suspects: the token is face up; every Main Action but Pass now costs "
                         "+%(n)s suspicion.", n=rules.INQUISITION_SUSPICION)


# --- history -------------------------------------------------------------------------------

#: the Main Actions as a history line names them (the event's own key, in English)
ACTION_WORDS = {
    # Translators: a Main Action in a history line: "Ann: Main Action (invention)"
    "invention": N_("invention"), "academic": N_("academic"), "treatise": N_("treatise"), "philosopher": N_("philosopher"),
}


def _signed(data: dict) -> str:
    delta = data.get("delta")
    return f"{delta:+d}" if isinstance(delta, int) else ""


def _group(data: dict, who: str) -> str:
    if data.get("group") == "others":
        return _("%(who)s: every other player suspicion %(delta)s", who=who, delta=_signed(data))
    return _("%(who)s: every Copernican suspicion %(delta)s", who=who, delta=_signed(data))


def _penance(data: dict, who: str) -> str:
    level = data.get("level")
    roman = rules.PENANCE_LEVELS[level - 1] if level in (1, 2, 3) else "?"
    if data.get("remove"):
        return _("%(who)s: plays Penance card %(roman)s and removes it", who=who, roman=roman)
    return _("%(who)s: plays Penance card %(roman)s", who=who, roman=roman)


def _action(data: dict, who: str) -> str:
    action = data.get("action", "?")
    return _("%(who)s: Main Action (%(action)s)", who=who, action=_(ACTION_WORDS[action]) if isinstance(action, str) and action in ACTION_WORDS else action)


def _tile(data: dict, who: str) -> str:
    tile = data["tile"] + 1 if isinstance(data.get("tile"), int) else "?"
    return _("%(who)s: reaches suspicion tile %(tile)s", who=who, tile=tile)


#: what each event did, in plain words, in the language spoken; `who` is "?" for an event that names no player
LINES: EventLines = {
    "board": lambda data, who: _("board values entered"),
    "suspicion": lambda data, who: _("%(who)s: suspicion %(delta)s", who=who, delta=_signed(data)),
    "suspicion_group": _group,
    "vp": lambda data, who: _("%(who)s: %(delta)s VP", who=who, delta=_signed(data)),
    "tile": _tile,
    "income_done": lambda data, who: _("Income done: Actions phase"),
    "action": _action,
    "abjure": lambda data, who: _("%(who)s: abjures", who=who),
    "penance": _penance,
    "pass": lambda data, who: _("%(who)s: passes", who=who),
    "prohibition": lambda data, who: _("Prohibition checked"),
    "next_cycle": lambda data, who: _("End of Cycle done"),
    "final": lambda data, who: _("%(who)s: final-scoring entries", who=who),
    SHEET: lambda data, who: _("%(who)s: final-score row saved", who=who),
}


def describe(type_: str, data: Any, names: list[str]) -> str:
    """Say in plain words what an event did, for the history panel."""
    return describe_event(LINES, type_, data, names, nobody="?")
