"""What a game plugs into the app: its rules functions, its table events, its box profile.

A game is a package under `companion/games/` whose `__init__.py` defines `GAME`, a
`Game` made of the package's modules. Nothing here imports Flask: the web pages, the CLI and
the HTTP API all call these same methods (CONTRACT.md).

Every game package has the same modules, each with one role (docs/architecture.md;
tests/foundation/test_architecture.py keeps the list true):

    __init__.py   the thin plug-in: GAME = Game(...), whose methods hand on to the modules below
    rules.py      pure rule computations, each citing its line in the rule text ([GB307])
    functions.py  the contract's JSON rules functions: validate the document, call rules.py
    table.py      a table: setup options, initial state, the events and what each one did
    view.py       what the game's templates show, computed with the rules
    order.py      who goes first and whose turn follows whose: whether the rules or the game's
                  progress fix the first player, what choosing one changes, the next seat
    profile.py    the box profile: the values printed on components, entered once
    calculator.py final scoring of a finished table, calculator or tracked (`final_result`), and
                  calculator mode: each player's end values as one `sheet` event; finished once all are in

Beside them, modules a game alone needs keep their own names: `automa.py` (Gutenberg's
automa decks), `facts.py` (Gutenberg's facts read from data/), `cards.py` and
`packing.py` (Codex's card data and pattern counting), `track.py` (Codex's score track and
the end it triggers), and `solo.py` (the events of a solo opponent's turn on the table, in
Voynich and Gutenberg). The imports run one way, each module importing only those to its right
(docs/architecture.md writes the same chain, and a test holds the games to it):
`__init__` -> view -> order -> table -> calculator, track -> solo -> profile -> functions -> rules
-> automa, packing -> cards, facts; never back.

A table's state is the fold of its events in force, oldest first (companion/tables.py stores it
after each event, applying that one event to the state stored, and folds the log again after an
undo):

    state = game.initial_state(names, options, profile)
    for each event: state = game.apply(state, type, data, ctx)

`apply` never mutates the state it is given and raises RulesError for an invalid event (naming
the field: a path under `data`, or `type` for a type the game or a calculator table does not
take), so that nothing is stored.

A state is stored, and the JSON API and the exports read it: whatever it keeps in words (a
notice) is English, whichever language the page that posted the event speaks (`Game.apply`
speaks English; a refusal is said in the page's language, games/speech.py).
"""

from __future__ import annotations

import hashlib
import random
from dataclasses import dataclass, field
from types import ModuleType, SimpleNamespace
from typing import Any, Callable, Mapping

from . import clock, colours, seats, speech
# the games take these from here (notices.py: the last event's words and the history's lines)
from .notices import EventLines, clone, describe_event, keep_notice, shown_notice  # noqa: F401
from .speech import _
from .validation import RulesError, stored_names


#: calculator mode's event: one player's row of end values, in every game (each calculator.py)
SHEET = "sheet"


#: each module every game package has, and what it must define (docs/architecture.md, "A game
#: package", says the same; Game checks it, so a game missing a piece fails at start-up, naming it)
ROLES: dict[str, dict[str, str]] = {
    "functions": {"FUNCTIONS": "the contract's JSON rules functions, name -> RulesFunction"},
    "table": {
        "EVENTS": "event type -> one-line description with its data shape",
        "OPTIONS": "setup option -> one-line description",
        "HANDLERS": "event type -> the function that applies it, written out",
        "LINES": "event type -> its history line (describe_event)",
        "validate_options": "(options, player_count) -> the options, checked",
        "initial_state": "(names, options, profile) -> a new table's state",
        "apply": "(state, type_, data, ctx) -> the state after one event",
        "describe": "(type_, data, names) -> the event's history line",
    },
    "view": {
        "LABELS": "field path -> the words a page names it in",
        "form": "(name, data) -> what a form without a table (setup, box profile) shows, from the rules",
        "RUNNING_LABEL": "what the running score is, for the archive's chart",
        "view": "(state, names, options, profile, screen) -> what the templates show",
        "screen_of": "(screen, player_count) -> the screen a page asks for, or None",
        "counter": "(state, type_, data) -> the number a stepper shows, or None",
        "running_score": "(state, options) -> each seat's running score, or None",
        "start_player": "(state, options) -> the seat that played first, or None",
        "verdict": "(result) -> who won, in one line",
    },
    "calculator": {
        "final_result": "(state, names, options, profile) -> the `score` function's result, or None",
        "RESULT_EXTRAS": "the fields a result's player keeps beyond name, total and breakdown",
        "BREAKDOWN": "breakdown key -> the words (N_ or NC_ marked) the archive's record names it in",
        "CALCULATOR_EVENTS": "the events a calculator table takes",
        "CALCULATOR_HINT": "what a calculator table's refusal of any other event tells the players",
    },
    "profile": {"validate_profile": "(data) -> the box profile, checked"},
    "order": {
        "ruled": "(state, options) -> the sentence of a rule that decides the first player, or None",
        "begun": "(state) -> why it is too late to choose the first player (begun, over), or None",
        "set_first": "(state, seat) -> None: the first player chosen, and what follows from it in the state",
        "first_of": "(state) -> the seat going first, once known, or None",
        "to_play": "(state) -> the seat whose turn it is now, where the table keeps it, else the first's, or None",
        "next_seat": "(state, seat) -> the seat whose turn follows, or None",
    },
}


#: what a game's modules MAY define (ROLES' shape): core asks each where the game has it and falls
#: back where it has not (the fallback is after the colon). A game whose title, BoardGameGeek id and
#: winning side the players choose per table (the score pad) says so here.
OPTIONAL: dict[str, dict[str, str]] = {
    "view": {
        "table_title": "(options) -> the title the players gave this table, or None: GAME.title",
        "table_bgg_id": "(options) -> the BoardGameGeek id the players gave this table, or None: "
                        "the box profile's, else GAME.bgg_id",
    },
    "calculator": {
        "lowest_wins": "(options) -> True where the lowest total wins: False",
        "breakdown_label": "(key) -> a breakdown key's words in the language spoken, for keys BREAKDOWN "
                           "cannot list, or None: the key's own words",
    },
    "table": {
        "QUIET": "state key -> its empty value: the keys beyond `notice` that hold the last event's words, "
                 "emptied when the first player is chosen: {}",
    },
}


def missing_roles(key: str, modules: Mapping[str, ModuleType | None]) -> list[str]:
    """Return what a game's modules lack of ROLES, each said as "companion/games/KEY/view.py: RUNNING_LABEL (...)"."""
    out = []
    for role, names in ROLES.items():
        module = modules.get(role)
        for name, what in names.items():
            if module is None or not hasattr(module, name):
                out.append(f"companion/games/{key}/{role}.py: {name} ({what})")
    return out


def is_calculator(options: Mapping[str, Any]) -> bool:
    """True for a table created with "calculator": true (companion/tables.py keeps it only when true)."""
    return bool(options.get("calculator"))


@dataclass(frozen=True)
class RulesFunction:
    """One JSON rules function: `run(document) -> result`, raising RulesError on bad input."""

    name: str
    summary: str
    run: Callable[[Any], Any]


@dataclass(frozen=True)
class Context:
    """What an event may read besides the state: the table's current names, options and seed.

    `replayed` is true where a stored event is folded again (an undo, the record's chart): a check
    added after the event was stored refuses new events, never one the table already holds, so
    no stored game is lost to it.
    """

    names: tuple[str, ...]
    options: dict = field(default_factory=dict)
    profile: dict = field(default_factory=dict)
    seed: int = 0
    replayed: bool = False
    #: when the event is written (ISO 8601 UTC, to the millisecond; stored with it and read again on a
    #: replay): the turn clock's time (clock.py), so that nothing ticks between taps; "" outside a table
    at: str = ""

    def rng(self, *keys: Any) -> random.Random:
        """Return a random generator fixed by the table's seed and the given keys.

        Derive the keys from the state (round, action, a draw counter kept in the state),
        never from the clock: an undone draw redone then draws the same card.
        """
        digest = hashlib.sha256(repr((self.seed,) + keys).encode()).digest()
        return random.Random(int.from_bytes(digest[:8], "big"))


class Game:
    """A game made of its package's modules: each method hands on to the module of its role.

    A game's `__init__.py` is only its facts and its modules:

        GAME = Game(key="codex", title="Codex Naturalis", min_players=2, max_players=4,
                    rule_text="codex_naturalis.txt", cites="CN",
                    functions=functions, table=table, view=view, profile=profile, calculator=calculator)

    and each module offers the same names in every game (ROLES), and may offer those of OPTIONAL,
    which core asks through this class (`title_of`, `bgg_id_of`, `lowest_wins`, `breakdown_label`).

    The view is the same for every phone (one render per version and screen is shared by all of a
    table's phones, companion/web/live.py): it is never given which seat asks.
    """

    def __init__(self, *, key: str, title: str, min_players: int, max_players: int, functions: ModuleType,
                 table: ModuleType, view: ModuleType, profile: ModuleType, calculator: ModuleType, order: ModuleType | None = None,
                 scripts: tuple[str, ...] = (), styles: tuple[str, ...] = (), bgg_id: int | None = None,
                 rule_text: str | None = None, cites: str | None = None):
        given = {"functions": functions, "table": table, "view": view, "profile": profile, "calculator": calculator,
                 "order": order}
        if lacking := missing_roles(key, given):
            raise TypeError(f"the game {key!r} lacks: " + "; ".join(lacking))
        if not 1 <= min_players <= max_players <= len(colours.PALETTE):  # a colour for every seat (colours.py)
            raise TypeError(f"the game {key!r} takes {min_players} to {max_players} players: a game takes 1 to "
                            f"{len(colours.PALETTE)}, one seat per colour of the palette")
        self.key, self.title = key, title
        self.min_players, self.max_players = min_players, max_players
        #: the rule text under docs/rules/ the game's code cites, and the tag its citations start with:
        #: `# [GB307]` is line 307 of docs/rules/gutenberg.txt (tests/foundation/test_docs.py checks every one);
        #: None for a game with no rule text to cite (the score pad), which then cites nothing
        self.rule_text, self.cites = rule_text, cites
        #: name -> RulesFunction, reachable as `companion rules KEY NAME` and POST /api/v1/KEY/NAME
        self.functions: dict[str, RulesFunction] = functions.FUNCTIONS
        #: event type -> one-line description with its data shape (README, help): the game's own, then the
        #: ones every game takes (seats.py: who goes first; clock.py: the turn clock)
        self.events: dict[str, str] = {**table.EVENTS, **COMMON_EVENTS}
        #: setup option -> one-line description (table creation, README)
        self.options_doc: dict[str, str] = table.OPTIONS
        #: the events a calculator table takes, and what its refusal of any other tells the players
        self.calculator_events: tuple[str, ...] = tuple(calculator.CALCULATOR_EVENTS)
        self.calculator_hint: str = calculator.CALCULATOR_HINT
        #: what a result's player keeps from the `score` function's besides name, total and breakdown
        #: (Gutenberg's solo title, Voynich's solo outcome; companion/results.py)
        self.result_extras: tuple[str, ...] = tuple(calculator.RESULT_EXTRAS)
        #: breakdown key -> its words, marked for the catalogs: the archive's record says them (speech.said)
        self.breakdown: dict = dict(calculator.BREAKDOWN)
        #: what the running score is, for the archive's chart ("fame on the fame track")
        self.running_label: str = view.RUNNING_LABEL
        #: field path pattern -> the words a page says it in ("vp.delta": "{who}'s VP change"; companion/wording.py)
        self.labels: dict[str, str] = view.LABELS
        #: static files (paths under static/) the table page includes for this game
        self.scripts, self.styles = scripts, styles
        #: the game's BoardGameGeek id, only where verified (the package says where); BG Stats' push
        #: document and the .bgsplay file carry it, a box profile's own `bgg_id` before it (results.play)
        self.bgg_id = bgg_id
        self.modules = SimpleNamespace(functions=functions, table=table, view=view, profile=profile, calculator=calculator,
                                       order=order)

    @property
    def tracks(self) -> bool:
        """Whether the game tracks a table: it takes an event beyond its calculator's and the common ones.
        A game that tracks nothing (a game whose EVENTS are its calculator's alone) makes every table a
        calculator table (validate_options), and its start page asks no mode."""
        return bool(set(self.events) - set(COMMON_EVENTS) - set(self.calculator_events))

    # --- tables -------------------------------------------------------------------------
    def validate_options(self, options: dict, player_count: int) -> dict:
        """Check a table's setup options (the create request minus game, players, profile); a game that
        tracks nothing makes every table a calculator table (`"calculator": true`, whatever was asked)."""
        checked = self.modules.table.validate_options(options, player_count)
        return checked if self.tracks else {**checked, "calculator": True}

    def initial_state(self, names: list[str], options: dict, profile: dict) -> dict:
        """Return the state of a new table (JSON-serialisable; players referred to by index), its words English.

        The profile's `colours` and `bgg_id` are the app's, not the game's (colours.py, profiles.py): the
        game is handed the rest.
        """
        with speech.english():
            return self.modules.table.initial_state(names, options, {k: v for k, v in profile.items()
                                                                     if k not in ("colours", "bgg_id")})

    def apply(self, state: dict, type_: str, data: Any, ctx: Context) -> dict:
        """Return the state after one event; raise RulesError for an invalid one.

        The game's `apply` sees only its own event types (`rename` is companion/tables.py's).
        The state is stored: it is made speaking English (the words it keeps are the API's and
        the exports'), and a refusal is asked again in the language spoken, for the page's words.
        """
        spoken = speech.language()
        try:
            # the table's names were checked when it was made (or renamed: companion/tables.py), and
            # a game's event names nobody new: a table stored with look-alikes before issue 40 goes on
            # (Galileo's sheet scores the table's names, and refused them: it never finished)
            with speech.english(), stored_names():
                return self._apply(state, type_, data, ctx)
        except RulesError:
            if spoken != speech.SOURCE:  # apply never changes the state it is given: the same refusal, in its words
                self._apply(state, type_, data, ctx)
            raise

    def _apply(self, state: dict, type_: str, data: Any, ctx: Context) -> dict:
        if type_ not in self.events:
            raise RulesError("type", _("unknown event type for %(game)s: %(type)s; allowed: %(allowed)s",
                                       game=self.title_of(ctx.options), type=repr(type_), allowed=", ".join([*self.events, "rename"])))
        if is_calculator(ctx.options) and type_ not in self.calculator_events:
            # Translators: the end is what the game's calculator_hint says: what such a table takes
            raise RulesError("type", _("this table is just the final score: %(hint)s", hint=_(self.calculator_hint)))
        if type_ in seats.EVENTS:
            return seats.apply(self, state, type_, data, ctx)
        if type_ in clock.EVENTS:
            return clock.apply(self, state, data, ctx)
        # an event that ends the game stops its clock
        return clock.settle(self.modules.table.apply(state, type_, data, ctx), ctx)

    def describe(self, type_: str, data: Any, names: list[str]) -> str:
        """Say in plain words what an event did ("Anna: +3 fame"), for the history panel."""
        if type_ in COMMON_LINES:
            return describe_event(COMMON_LINES, type_, data, names)
        return self.modules.table.describe(type_, data, names)

    def next_seat(self, state: dict, seat: int) -> int | None:
        """Return the seat whose turn follows `seat`'s in the game's turn order, or None where the
        game does not say (the turn clock then passes clockwise, in seat order)."""
        return self.modules.order.next_seat(state, seat)

    # --- web ----------------------------------------------------------------------------
    def first_card(self, state: dict, options: dict, names: list[str]) -> dict | None:
        """Return what the card "Who goes first?" shows (templates/tables/_first.html), or None (seats.card)."""
        return seats.card(self, state, options, names)

    def view(self, state: dict, names: list[str], options: dict, profile: dict, screen: str | None) -> dict:
        """Return what templates/KEY/panel.html needs beyond the state (computed with the rules).

        The same for every phone of the table: it is rendered once and shared (companion/web/live.py).
        Its names were accepted when stored (validation.stored_names).
        """
        with stored_names():
            return self.modules.view.view(state, names, options, profile, screen)

    def form(self, name: str, data: Any = None) -> dict:
        """Return what a form without a table shows (`setup.html`, `profile.html` call `game.form("setup")`).

        The values come from the rules, as a table's page gets them from `view`; `data` is what the
        form holds (a box profile's values, or the fields of a refused one).
        """
        return self.modules.view.form(name, data)

    def screen_of(self, screen: str | None, names: list[str]) -> str | None:
        """Return the screen a page asks for as the game reads it (None: its main screen).

        Two addresses that show the same screen give the same answer, so a table's phones share
        one render of each screen however they spell it (companion/web/live.py): a made-up
        `?screen=` is the main screen, never a render of its own.
        """
        return self.modules.view.screen_of(screen, len(names))

    def counter(self, state: dict, type_: str, data: dict) -> int | None:
        """Return the number a stepper for this event shows in `state`, or None.

        A stepper's tap is answered with the stepper alone (companion/web/steppers.py) when its
        game can say its new value; `data` is the event's data without the stepper's own field
        (the delta). None answers with the whole live region, which is always right.
        The value must be the one the panel shows (tests/foundation/test_steppers.py checks).
        """
        return self.modules.view.counter(state, type_, data)

    # --- what the players may choose per table (OPTIONAL; core asks these, never the hooks) ----------
    def optional(self, role: str, name: str) -> Any:
        """The game's optional piece `name` of its `role` module (OPTIONAL), or None where it has none."""
        return getattr(getattr(self.modules, role), name, None)

    def title_of(self, options: Mapping | None = None) -> str:
        """The title a table of this game goes by: the one its players gave (view.table_title), else
        GAME.title in the language spoken. Without options, the game's own title (a list of games)."""
        hook = self.optional("view", "table_title")
        own = hook(options) if hook and options is not None else None
        return own if isinstance(own, str) and own else speech.said(self.title)

    def shown_title(self, title: str | None) -> str:
        """A result document's `title` as a page says it: the game's own in the language spoken (the
        document keeps its English), a title the players gave as they typed it."""
        return speech.said(self.title) if not title or title == self.title else title

    def bgg_id_of(self, options: Mapping, profile: Mapping | None = None) -> int | None:
        """The table's BoardGameGeek id: the one its players gave (view.table_bgg_id), else its box
        profile copy's `bgg_id` (a group's own edition), else the one the package ships, else None."""
        hook = self.optional("view", "table_bgg_id")
        for found in (hook(options) if hook else None, (profile or {}).get("bgg_id")):
            if isinstance(found, int) and not isinstance(found, bool):
                return found
        return self.bgg_id

    def lowest_wins(self, options: Mapping) -> bool:
        """True where the lowest total wins at this table (calculator.lowest_wins); False by default."""
        hook = self.optional("calculator", "lowest_wins")
        return bool(hook(options)) if hook else False

    def breakdown_label(self, key: str) -> str | None:
        """A breakdown key's words that BREAKDOWN cannot list (the pad's "round_3": "Round 3"), in the
        language spoken (calculator.breakdown_label), or None."""
        hook = self.optional("calculator", "breakdown_label")
        return hook(key) if hook else None

    # --- results (companion/results.py: the archive, BG Stats, export) ----------------------
    def final_result(self, state: dict, names: list[str], options: dict, profile: dict) -> dict | None:
        """Return exactly what the game's `score` rules function gives for the table's final values.

        What every result of a finished table, calculator or tracked, is read through
        (calculator.final_result; companion/results.py: the archive, the result endpoint, the
        exports, BG Stats); a game's end screen shows the same `score` function's result, reached by
        its view's own path. None until `state["finished"]`. The result is the contract's: players (in seat order, each
        with name, total, breakdown and whatever else `score` gives), winners and places. The table's
        names were accepted when stored (validation.stored_names).
        """
        with stored_names():
            return self.modules.calculator.final_result(state, names, options, profile)

    def running_score(self, state: dict, options: dict) -> list[int] | None:
        """Return each seat's running score in this state (the archive's chart), or None.

        Codex points, Galileo VP, Gutenberg fame, Voynich GK; None where the table keeps no
        running score (a calculator table).
        """
        return self.modules.view.running_score(state, options)

    def start_player(self, state: dict, options: dict) -> int | None:
        """Return the seat that took the game's first turn where the table knows it, else None."""
        return self.modules.view.start_player(state, options)

    def verdict(self, result: dict) -> str:
        """Say who won a finished table in one line, naming the tie-break that decided it."""
        return self.modules.view.verdict(result)

    def extra_words(self, entry: Mapping) -> str:
        """A result player's extra (`result_extras`: Gutenberg's solo title, Voynich's solo outcome) in
        the language spoken, "" for none: the calculator's EXTRA_WORDS say a value, else it is its own words."""
        said = getattr(self.modules.calculator, "EXTRA_WORDS", {})
        for key in self.result_extras:
            value = entry.get(key)
            if isinstance(value, str) and value:
                return speech._(said.get(value, value))
        return ""

    # --- box profiles -------------------------------------------------------------------
    def validate_profile(self, data: Any) -> dict:
        """Check a box profile document (paths from `$`) and return it clean."""
        return self.modules.profile.validate_profile(data)


#: the table events every game takes, beside its own: who goes first (seats.py), the turn clock (clock.py)
COMMON_EVENTS: dict[str, str] = {**seats.EVENTS, **clock.EVENTS}


#: the history lines of COMMON_EVENTS (describe_event's shape)
COMMON_LINES: EventLines = {**seats.LINES, **clock.LINES}
