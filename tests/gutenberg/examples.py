"""Gutenberg's data for the tests every game runs: tests/examples.py says what each name gives.

The calculator's end is the one tests/gutenberg/test_calculator.py scores.
"""

from companion.games.gutenberg.facts import ACTIONS
from tests.examples import EndOnPhones, Row
from tests.gutenberg.test_calculator import NAMES, ROWS, SPECIALTIES, row

PLAYERS = ["Anna", "Tom"]

TRACKED_SETUP = []
STEPPERS_SCREEN = None
STEPPERS_ALONE = {"fame", "guilders", "inks", "types", "patronage_cards"}
SCREENS = [None]

CALCULATOR_NAMES = NAMES
CALCULATOR_SETUP = []
CALCULATOR_ROWS = [row(i) for i in range(len(ROWS))]
#: the automa goes too: a game alone has it by default [GB313], and it has no final score
CALCULATOR_HIDES = ["options.automa:json", "options.first_player:int", "options.take_orders_deck:json", "options.automa_seat:int"]
SHEET_FORM = "gb-sheet-form"
FINAL_SCORES = ".gb-result"


def _end_on_phones() -> EndOnPhones:
    sheets = [
        dict(fame=62, guilders=7, specialties=(4, 2, 3, 1), patronage_cards=2, types=6, inks=2, character="hieronymus_vietor"),
        dict(fame=72, guilders=0, specialties=(5, 3, 2, 0), patronage_cards=0, types=7, inks=1),
        dict(fame=78, guilders=5, specialties=(3, 0, 6, 1), patronage_cards=1, types=5, inks=0, character="johannes_gutenberg"),
    ]
    rows = []
    for s in sheets:
        values = [("input[name='data.fame:int']", s["fame"]), ("input[name='data.guilders:int']", s["guilders"])]
        values += [(f"input[name='data.specialties.{k}:int']", v) for k, v in zip(SPECIALTIES, s["specialties"])]
        values += [(f"input[name='data.{k}:int']", s[k]) for k in ("patronage_cards", "types", "inks")]
        if s.get("character"):
            values.append(("[name='data.character:json']", f'"{s["character"]}"'))
        rows.append(Row(values, 9 + bool(s.get("character"))))
    return EndOnPhones(["Anna", "Ben", "Cleo"], rows, "#sheet-{i}", ".gb-winners")


END_ON_PHONES = _end_on_phones()


def play_tracked_to_the_end(app, api) -> dict:
    """Three players to the end of round 6, through tests/gutenberg/test_result.py's own helpers."""
    from tests.gutenberg.test_result import Game, play_three_player_game

    game = Game(api, ["Anna", "Tom", "Kate"], first_player=1)
    play_three_player_game(game, app, api)
    return game.t


#: the pages of a three-player table a phone sees as the game goes on: (events, {page: screen}) steps
NAMED_PAGES = [
    ([("fame", {"player": 0, "delta": 3}), ("fame", {"player": 1, "delta": 3})], {"end": "end", "history": None}),
]

#: what the templates keep that tests/foundation/test_templates.py would call a rule computed in a template
TEMPLATE_ALLOWS = {
    ("_player.html", "a number in its words: '+1'"): "a stepper's label: one step of a specialty",
    ("_player.html", "a number in its words: '+2'"): "a shortcut: two steps of one specialty in one tap (the table checks each)",
    ("_player.html", "a number in its words: 'Develop %(specialty)s by 2'"): "the +2 shortcut's title",
    ("_player.html", "the number 2 in 'steps': 2"): "the +2 shortcut's steps",
    ("_widgets.html", "range over numbers of its own: range(3)"):
        "a printed value (arrows on a planning card) kept for now: reported to move into the view",
    ("profile.html", "a number in its words: \"Number your cards 1 to %(cards)s (e.g. with a pencil dot) and enter each card's icons. "
                     "Leave a card blank to skip it; with all %(cards)s the app can also deal the automa's deck itself.\""):
        "the player numbers the cards from 1",
    ("setup.html", "a number in its words: \"Automa's seat: players sitting before it (blank = 0)\""):
        "a blank seat field means no one sits before the automa",
}

#: the first player can no longer be chosen once the markers are revealed
BEGUN = ([("markers", {"player": 0, "markers": {ACTIONS[0]: 6, ACTIONS[1]: 1}})], "markers are revealed")
