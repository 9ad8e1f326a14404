"""The score pad's data for the tests every game runs: tests/examples.py says what each name gives."""

from tests.examples import EndOnPhones, Row

#: the setup options every pad table needs: the players' own title for their game
OPTIONS = {"title": "Skull King"}

PLAYERS = ["Anna", "Tom"]

TRACKED_SETUP = []
STEPPERS_SCREEN = None
STEPPERS_ALONE = {"score"}
SCREENS = [None, "round-1"]

CALCULATOR_NAMES = ["Anna", "Ben", "Cleo"]
CALCULATOR_SETUP = []
CALCULATOR_ROWS = [{"player": 0, "total": 112}, {"player": 1, "total": 97}, {"player": 2, "total": -8}]
#: a calculator table takes one total each: how a tracked table keeps its scores goes
CALCULATOR_HIDES = ["options.scoring"]
SHEET_FORM = "pad-type"
FINAL_SCORES = "#pad-result"

END_ON_PHONES = EndOnPhones(
    ["Ana", "Ben", "Cleo"],
    [Row([("input[name='data.total:int']", 112)], 1), Row([("input[name='data.total:int']", 97)], 1),
     Row([("input[name='data.total:int']", 130)], 1)],
    "#pad-row-{i}", "#pad-winner",
)


def play_tracked_to_the_end(app, api) -> dict:
    """Three players, two rounds typed in, then the end."""
    t = api.create("pad", ["Anna", "Tom", "Kate"], **OPTIONS)
    for n, scores in ((1, (30, 20, -10)), (2, (5, 40, 0))):
        if n > 1:
            assert api.event(t, "new_round").status_code == 200
        for seat, value in enumerate(scores):
            assert api.event(t, "set_score", {"player": seat, "round": n, "value": value}).status_code == 200
    assert api.event(t, "end").status_code == 200
    return t


#: the first score closes the choice of who goes first
BEGUN = ([("set_score", {"player": 0, "round": 1, "value": 12})], "the scores have begun")

#: the pages of a three-player table a phone sees as the game goes on: (events, {page: screen}) steps
NAMED_PAGES = [
    ([("set_score", {"player": 0, "round": 1, "value": 12}), ("new_round", {})], {"round 2": None, "round 1 corrected": "round-1"}),
    ([("end", {})], {"end": None}),
]

#: what the templates keep that tests/foundation/test_templates.py would call a rule computed in a template
TEMPLATE_ALLOWS = {
    ("_rounds.html", "an attribute's number: tabindex=\"0\""): "the rounds' scrolling box is reached by the keyboard (WCAG 2.1.1)",
    ("_end.html", "an attribute's number: tabindex=\"0\""): "the rounds' scrolling box is reached by the keyboard (WCAG 2.1.1)",
}
