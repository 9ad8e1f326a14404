"""Codex Naturalis's data for the tests every game runs: tests/examples.py says what each name gives.

The calculator's end is the one tests/codex/test_calculator.py scores.
"""

from tests.codex.test_calculator import COMMON, NAMES, ROWS
from tests.examples import EndOnPhones, Row

PLAYERS = ["Anna", "Tom"]

TRACKED_SETUP = [("common_objectives", {"cards": [91, 95]})]  # 95 is a pattern: its stepper too
STEPPERS_SCREEN = "end"
STEPPERS_ALONE = {"count", "pattern_count"}
SCREENS = [None, "end", "book-1", "grid-0-95"]

CALCULATOR_NAMES = NAMES
CALCULATOR_SETUP = [("common_objectives", {"cards": COMMON})]
CALCULATOR_ROWS = [dict(row, player=i) for i, row in enumerate(ROWS)]
CALCULATOR_HIDES = ["options.first_player:int", "options.target:int"]
SHEET_FORM = "cx-sheet"
FINAL_SCORES = ".score, #cx-results"

END_ON_PHONES = EndOnPhones(
    ["Ana", "Ben", "Cleo"],
    [
        # track, secret card, then the counts its objectives and the common ones (#91, #102) ask
        Row([("input[name='data.placement_points:int']", 21), ("[name='data.secret:int']", 99),
             ("input[name='data.visible.quill:int']", 3), ("input[name='data.visible.inkwell:int']", 2),
             ("input[name='data.visible.manuscript:int']", 1), ("input[name='data.patterns.91:int']", 1)], 6),
        Row([("input[name='data.placement_points:int']", 22), ("[name='data.secret:int']", 96),
             ("input[name='data.visible.quill:int']", 2), ("input[name='data.visible.plant:int']", 7),
             ("input[name='data.patterns.91:int']", 0)], 5),
        Row([("input[name='data.placement_points:int']", 18), ("[name='data.secret:int']", 88),
             ("input[name='data.visible.quill:int']", 0), ("input[name='data.patterns.91:int']", 1),
             ("input[name='data.patterns.88:int']", 2)], 5),
    ],
    "#cx-sheet-{i}", "#cx-winner",
    table=[("#cx-common [name='data.cards[]:int'] >> nth=0", 91), ("#cx-common [name='data.cards[]:int'] >> nth=1", 102)],
    table_save="#cx-common button[type=submit]",
)

#: Codex's end is being reworked (issue 27, finding 14): its finished table page is checked by its calculator's
play_tracked_to_the_end = None


#: the pages of a three-player table a phone sees as the game goes on: (events, {page: screen}) steps
NAMED_PAGES = [
    # the first player, then the end triggered: the last turns' banner
    ([("first_player", {"player": 0}), ("points", {"player": 1, "delta": 20})], {"banner": None, "book": "book-1", "end": "end"}),
]

#: what the templates keep that tests/foundation/test_templates.py would call a rule computed in a template
TEMPLATE_ALLOWS = {
    ("_track.html", "a number in its words: '−1'"): "the correction button: one point back after a mistap",
    ("_track.html", "a number in its words: '%(name)s minus 1'"): "the correction button's title (a translated sentence)",
    ("_track.html", "an attribute's number: min=\"1\""): "the gold card's count includes its own object: never below 1",
    ("_book.html", "an attribute's number: style=\"grid-column: / span 2; grid-row: \""): "CSS: a card covers 2 by 2 grid cells",
    ("_grid.html", "an attribute's number: style=\"grid-column: / span 2; grid-row: \""): "CSS: a card covers 2 by 2 grid cells",
    ("_macros.html", "an attribute's number: style=\"grid-column: / span 2; grid-row: \""): "CSS: a card covers 2 by 2 grid cells",
    ("_macros.html", "an attribute's number: style=\"grid-template-columns: repeat( , 12px); grid-template-rows: repeat( , 14px)\""):
        "CSS: the pattern drawing's cell sizes",
    ("_macros.html", "a word compared: face.kind == 'gold'"): "the card drawing: a gold card's colour",
    ("_macros.html", "a word compared: face.side == 'front'"): "the card drawing: which side is up",
    ("_macros.html", "a word compared: face.side == 'back'"): "the card drawing: which side is up",
    ("_macros.html", "a word compared: face.raw[corner] == 'hidden'"): "the card drawing: a corner printed without a space",
    ("panel.html", "a word compared: v.kind == 'track'"): "which screen the page shows (the view's screen kind)",
    ("panel.html", "a word compared: v.kind in ('end', 'grid')"): "which screen the page shows (the view's screen kind)",
    ("panel.html", "a word compared: v.kind == 'book'"): "which screen the page shows (the view's screen kind)",
    ("panel.html", "a word compared: v.kind == 'grid'"): "which screen the page shows (the view's screen kind)",
}

#: the first player can no longer be chosen once the end trigger names the last turns from it [CN54]
BEGUN = ([("first_player", {"player": 0}), ("points", {"player": 1, "delta": 20})], "last turns are already named")
#: a calculator row's secret objective is a card's number, not a count
SHEET_STARTS = {"data.secret:int": None}
