"""Each game's example data for the tests that run for every game: tests/GAME/examples.py.

The tests that run once per game find the games through companion.games.registry(), so a game
package added under companion/games/ is tested with the others at once. What such a test needs
to know of one game (a table's players, a finished calculator table, the screens its page
opens...) it reads from that game's examples module, `examples(key).NAME`: each game's data is
in one place. A game without the module, or without the name a test reads, fails that test
with a message saying which file to write and what the name gives (GIVES); a name OPTIONAL lists
may be left out (the module too), and reads as its default there; so may a name UNTRACKED lists,
for a game that tracks nothing (companion/games/base.py `Game.tracks`: every table is its end).
"""

from __future__ import annotations

import importlib
import json
from dataclasses import dataclass, field
from typing import Any, Callable

import pytest

#: every name a tests/GAME/examples.py gives, and what it is for
GIVES = {
    "PLAYERS": "the players of a table any test of every game may start (two names)",
    "TRACKED_SETUP": "the events (type, data) a tracked table takes before its panel shows every stepper "
                     "(a game that tracks nothing: UNTRACKED, none)",
    "STEPPERS_SCREEN": "the screen of the table page that shows them (None: its main screen; a game that tracks "
                       "nothing: UNTRACKED, None)",
    "STEPPERS_ALONE": "the event types whose stepper answers a tap alone (each has a counter in view.py; a game "
                      "that tracks nothing: UNTRACKED, none)",
    "SCREENS": "the screens of a tracked table's page a phone opens (None: its main screen; a game that tracks "
               "nothing: UNTRACKED, [None])",
    "CALCULATOR_NAMES": "the players of a finished calculator table, one per row of CALCULATOR_ROWS",
    "CALCULATOR_SETUP": "the events (type, data) a calculator table takes before its rows: what is printed on the board",
    "CALCULATOR_ROWS": "each player's `sheet` row of a finished calculator table, as the API takes it (player included)",
    "CALCULATOR_HIDES": "the start form's fields a tracked table asks and a calculator table hides (their names)",
    "SHEET_FORM": "the class of a calculator row's <form>",
    "FINAL_SCORES": "the selector of the final scores a finished calculator table shows",
    "END_ON_PHONES": "a three-player calculator end typed on two phones, as tests/examples.py's EndOnPhones "
                     "(every game gives it, one that tracks nothing too)",
    "NAMED_PAGES": "the pages of a tracked table of three players (or as many as the game takes: "
                   "tests/foundation/test_names.py) as the game goes on: [(events, {page name: screen})] "
                   "(a game that tracks nothing: UNTRACKED, its calculator table's pages as CALCULATOR_SETUP "
                   "and CALCULATOR_ROWS come in)",
    "TEMPLATE_ALLOWS": "OPTIONAL, default {} (none): what the game's templates keep that "
                       "tests/foundation/test_templates.py would call a rule computed or worded in a template: "
                       "{(template file, the finding as the test says it): the one-line reason}",
    "play_tracked_to_the_end": "a function (app, api) -> a tracked table played to its end, or None where no test "
                               "plays one (a game that tracks nothing: UNTRACKED, None)",
    "BEGUN": "(events, words): on a tracked table of tests/foundation/test_first_player.py's names (three, or as many "
             "as the game takes), the events (type, data) after which the first player can no longer be chosen "
             "(the game begun, or over), and words the refusal then says (a game that tracks nothing: UNTRACKED, "
             "never read: every table of it refuses the first player from the start)",
    "OPTIONS": "OPTIONAL, default {} (none needed): the setup options a table of the game needs, what its start "
               "form asks the players to type ({option: value}, as the API's create document takes them)",
    "SHEET_STARTS": "OPTIONAL, default {} (every count starts at 0): a calculator row's fields (their form names, "
                    "`data.lives:int`) that start elsewhere, each with the value its empty row shows (a string), or "
                    "None for a field that is not a count (a card's number, a place) and may start empty",
}

#: the names a game may leave out of its examples, and what they read as then (GIVES says why)
OPTIONAL: dict[str, Any] = {"SHEET_STARTS": {}, "OPTIONS": {}, "TEMPLATE_ALLOWS": {}}


def calculator_pages(ex: "Examples") -> list:
    """A game that tracks nothing: its table's pages as its calculator rows come in (NAMED_PAGES), the
    rows of the seats the table has (three, or as many as the game takes)."""
    from companion.games import get

    seats = min(3, get(ex.key).max_players)
    rows = [("sheet", row) for row in ex.CALCULATOR_ROWS if row.get("player", 0) < seats]
    return [([*ex.CALCULATOR_SETUP, *rows[:1]], {"a row in": None}), (rows[1:], {"every row in": None})]


#: the names a game that tracks nothing (Game.tracks) may leave out, each read as what it gives then
UNTRACKED: dict[str, Callable[["Examples"], Any]] = {
    "TRACKED_SETUP": lambda ex: [], "STEPPERS_SCREEN": lambda ex: None, "STEPPERS_ALONE": lambda ex: set(),
    "SCREENS": lambda ex: [None], "BEGUN": lambda ex: None, "play_tracked_to_the_end": lambda ex: None,
    "NAMED_PAGES": calculator_pages,
}


def tracks(key: str) -> bool:
    """Whether the registry's game KEY tracks a table (a key no game has: as if it did)."""
    from companion.games import get

    game = get(key)
    return game is None or game.tracks


class Examples:
    """One game's tests/KEY/examples.py: reading a name it lacks fails the test, saying what to add."""

    def __init__(self, key: str):
        self.key = key

    def __getattr__(self, name: str) -> Any:
        if name not in GIVES:
            raise AttributeError(f"no example is called {name}: tests/examples.py GIVES lists them")
        where = f"tests/{self.key}/examples.py"
        try:
            module = importlib.import_module(f"tests.{self.key}.examples")
        except ModuleNotFoundError as missing:
            if missing.name not in (f"tests.{self.key}", f"tests.{self.key}.examples"):
                raise  # the module is there and an import inside it failed
            if name in OPTIONAL:  # a new game's first steps run before it writes the module
                return OPTIONAL[name]
            if name in UNTRACKED and not tracks(self.key):
                return UNTRACKED[name](self)
            pytest.fail(f"{where} is missing: it gives {name}, {GIVES[name]}; and every other name tests/examples.py's "
                        f"GIVES lists, to the tests every game in companion.games.registry() runs", pytrace=False)
        if not hasattr(module, name) and name in OPTIONAL:
            return OPTIONAL[name]
        if not hasattr(module, name) and name in UNTRACKED and not tracks(self.key):
            return UNTRACKED[name](self)
        if not hasattr(module, name):
            pytest.fail(f"{where} has no {name}: it gives {GIVES[name]}", pytrace=False)
        return getattr(module, name)


def examples(key: str) -> Examples:
    """Return the game's examples (tests/KEY/examples.py), each name read when a test asks for it."""
    return Examples(key)


def create_doc(key: str, players: list[str], **more) -> dict:
    """The API's create document of a table of the game: its players, the setup options it needs
    (OPTIONS), then `more` (calculator, colours, other options...), which wins over OPTIONS."""
    return {"game": key, "players": list(players), **examples(key).OPTIONS, **more}


def start_form(key: str) -> list[tuple[str, str]]:
    """The start form's fields (name, value) that type the game's OPTIONS, as templates/KEY/setup.html
    names them for companion/forms.py: a string as it is, a number as `:int`, anything else as `:json`."""
    fields = []
    for name, value in examples(key).OPTIONS.items():
        if isinstance(value, str):
            fields.append((f"options.{name}", value))
        elif isinstance(value, int) and not isinstance(value, bool):
            fields.append((f"options.{name}:int", str(value)))
        else:
            fields.append((f"options.{name}:json", json.dumps(value)))
    return fields


# --- the shapes of the examples that are more than a constant ------------------------------------


@dataclass
class Row:
    """One player's end-of-game row on a phone: (selector inside their card, value) in the order they are set."""

    values: list[tuple[str, object]]
    #: how many numbers and choices the player reads off the board (zeros too)
    numbers: int


@dataclass
class EndOnPhones:
    """A calculator table's end typed on phones (tests/foundation/test_end_interactions_browser.py)."""

    names: list[str]
    rows: list[Row]
    card: str  # the player's card, "{i}" for the seat
    result: str  # what shows once every row is in
    #: the box profile chosen on the start page, and what saves it before the game night (not counted)
    profile: str | None = None
    save_profile: Callable[[Any], None] | None = None
    table: list[tuple[str, object]] = field(default_factory=list)  # typed once for the table
    table_save: str | None = None  # the button that saves `table`
