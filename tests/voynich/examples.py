"""The Voynich Puzzle's data for the tests every game runs: tests/examples.py says what each name gives.

The calculator's end is the one tests/voynich/test_calculator.py scores.
"""

from tests.examples import EndOnPhones, Row
from tests.voynich.test_calculator import ROWS, SPACES

PLAYERS = ["Anna", "Tom"]

TRACKED_SETUP = []
STEPPERS_SCREEN = None
STEPPERS_ALONE = {"move"}
SCREENS = [None, "end"]

CALCULATOR_NAMES = ["Ana", "Ben", "Cy"]  # tests/voynich/test_calculator.py's `calc` table
CALCULATOR_SETUP = [("track", {"scoring_spaces": SPACES})]
CALCULATOR_ROWS = ROWS
CALCULATOR_HIDES = []  # a solo calculator row is scored with options.solo_tie: the form keeps it
SHEET_FORM = "voy-sheet-form"
FINAL_SCORES = "#result"


def _choice(i: int, side: str, n: int, kind: str) -> tuple[str, object]:
    """A Recipes page's type: its tick (a checkbox: ticked), or before issue 27 the n-th of two selects."""
    return f"#choice-{i}-{side}-{kind}, select#choice-{i}-{side}-{n}", f'"{kind}"'


def _end_on_phones() -> EndOnPhones:
    sheets = [  # GK, the 4 markers, research tokens' GK, the 10 pages' multipliers, the Recipes types
        dict(gk=34, markers=(22, 15, 9, 30), research=[4, 6, 3], pages=[2, 1, 4, 0, 1, 0, 2, 4, 2, 0],
             choices={"left": ["baths", "writings"]}),
        dict(gk=18, markers=(12, 30, 18, 8), research=[5, 5], pages=[1, 0, 2, 4, 4, 1, 0, 0, 1, 2],
             choices={"left": ["botany", "astrology"], "right": ["astrology", "writings"]}),
        dict(gk=20, markers=(8, 10, 25, 14), research=[2, 6, 4, 3], pages=[0, 0, 1, 1, 2, 4, 1, 2, 0, 0], choices={}),
    ]
    rows = []
    for i, s in enumerate(sheets):
        values = [(f"#gk-{i}", s["gk"])]
        values += [(f"#{k}-{i}", v) for k, v in zip(("botany", "astrology", "baths", "writings"), s["markers"])]
        values += [(f"#research-{i}-{k}", v) for k, v in enumerate(s["research"])]
        values += [(f"#page-{i}-{k}", v) for k, v in enumerate(s["pages"])]
        values += [_choice(i, side, n, kind) for side, kinds in s["choices"].items() for n, kind in enumerate(kinds)]
        chosen = sum(len(k) for k in s["choices"].values())
        rows.append(Row(values, 1 + 4 + len(s["research"]) + 10 + chosen))
    spaces = {3: 1, 8: 2, 14: 4, 21: 6, 29: 9, 38: 12}
    table = []
    for k, (pos, gk) in enumerate(spaces.items()):
        table += [(f"#space-pos-{k}", pos), (f"#space-gk-{k}", gk)]
    return EndOnPhones(["Ana", "Ben", "Cy"], rows, "#sheet-{i}", "#result", table=table,
                       table_save="#track-values button[type=submit]")


END_ON_PHONES = _end_on_phones()


def play_tracked_to_the_end(app, api) -> dict:
    """Two players to the game's end, through tests/voynich/test_result.py's own helper."""
    from tests.voynich.test_result import play_two_player_game

    game = play_two_player_game(app, api)
    game.post("end_turn")
    return game.t


#: the pages of a three-player table a phone sees as the game goes on: (events, {page: screen}) steps
NAMED_PAGES = [
    ([("move", {"player": 0, "marker": "gk", "delta": 3}), ("move", {"player": 1, "marker": "gk", "delta": 3})],
     {"end": "end", "book": "book", "history": None}),
]

#: what the templates keep that tests/foundation/test_templates.py would call a rule computed in a template
TEMPLATE_ALLOWS = {}

#: the first player can no longer be chosen once the first turn is under way
BEGUN = ([("end_turn", {})], "first turn is under way")
#: a calculator row's research tokens: a player may have none, so they start empty
SHEET_STARTS = {"data.research[]:int": None}
