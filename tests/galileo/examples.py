"""Galileo's Truth's data for the tests every game runs: tests/examples.py says what each name gives.

The calculator's end is the one tests/galileo/test_calculator.py scores.
"""

from tests.examples import EndOnPhones, Row
from tests.galileo.test_calculator import BOARD, NAMES, ROWS
from tests.galileo.test_calculator_browser import save_profile
from tests.galileo.test_table import PROFILE

PLAYERS = ["Anna", "Tom"]

TRACKED_SETUP = [("board", {"suspicion_track": PROFILE["suspicion_track"]})]
STEPPERS_SCREEN = None
STEPPERS_ALONE = {"vp"}
SCREENS = [None]

CALCULATOR_NAMES = NAMES
CALCULATOR_SETUP = [("board", BOARD)]
CALCULATOR_ROWS = ROWS
CALCULATOR_HIDES = ["options.passing_order", "options.stake_overshoot"]
SHEET_FORM = "gal-sheet"
FINAL_SCORES = ".gal-end"


def _end_on_phones() -> EndOnPhones:
    sheets = [  # principle, philosopher, VP, suspicion at the Stake, penance cards held, inventions, mentor, losses, turn order
        dict(principle="copernican", status="free", vp=61, penance=[1], inventions_vp=9, mentor_vp=4, end_losses=0, turn_order=2),
        dict(principle="ptolemaic", status="prison", vp=72, penance=[1, 2], inventions_vp=3, mentor_vp=0, end_losses=0, turn_order=1),
        dict(principle="copernican", status="stake", vp=80, suspicion=4, penance=[], inventions_vp=6, mentor_vp=0,
             end_losses=2, turn_order=3),
    ]
    rows = []
    for s in sheets:
        values = [("[name='data.principle'][value='{}'], select[name='data.principle']".format(s["principle"]), s["principle"]),
                  ("[name='data.status'][value='{}'], select[name='data.status']".format(s["status"]), s["status"]),
                  ("input[name='data.vp:int']", s["vp"])]
        if "suspicion" in s:
            values.append(("input[name='data.suspicion:int']", s["suspicion"]))
        values += [(f"input[name='data.penance[]:int'][value='{lvl}']", True) for lvl in s["penance"]]
        values += [(f"input[name='data.{k}:int']", s[k]) for k in ("inventions_vp", "mentor_vp", "end_losses", "turn_order")]
        # principle, philosopher, VP, (suspicion), each card held, inventions, mentor, losses, turn order
        rows.append(Row(values, 3 + ("suspicion" in s) + len(s["penance"]) + 4))
    # the group's box profile, saved before the game night: not counted
    return EndOnPhones(["Ann", "Ben", "Cy"], rows, "#gal-row-{i}", ".gal-end p.winner", profile="Our box", save_profile=save_profile)


END_ON_PHONES = _end_on_phones()


def play_tracked_to_the_end(app, api) -> dict:
    """Two players to the final scoring, through tests/galileo/test_web.py's own helper, and every final row in."""
    from tests.galileo.test_web import TRACK, play_to_final

    t = api.create("galileo", ["Meg", "Luna"])
    assert api.event(t, "board", {"suspicion_track": TRACK, "cathedral": PROFILE["cathedral"]}).status_code == 200
    play_to_final(api, t, 2)
    for p in (0, 1):
        assert api.event(t, "final", {"player": p, "inventions_vp": 0, "mentor_vp": 0, "end_losses": 0}).status_code == 200
    return t


#: the pages of a three-player table a phone sees as the game goes on: (events, {page: screen}) steps
NAMED_PAGES = [
    # the turn and the turn order show once the track is in
    ([("board", {"suspicion_track": {"length": 20, "penance": [3, 6, 9], "prison": 11, "stake": 14}})], {"turn": None}),
    # a notice beside the card ("Ann: suspicion +4, now 4.") and the history's line
    ([("suspicion", {"player": 0, "delta": 4}), ("suspicion", {"player": 1, "delta": 2})], {"notice": None}),
]

#: what the templates keep that tests/foundation/test_templates.py would call a rule computed in a template
TEMPLATE_ALLOWS = {
    # the tiles' form offers two spare boxes beyond those filled, at least 8 in all, each labelled "Tile N space"
    ("_board_fields.html", "arithmetic: spaces|length + 2"): "the tiles' form: two spare boxes beyond those filled",
    ("_board_fields.html", "the number 2 in spaces|length + 2"): "the tiles' form: two spare boxes beyond those filled",
    ("_board_fields.html", "the number 8 in [spaces|length + 2, 8]"): "the tiles' form: at least 8 boxes, a form's size",
    ("_board_fields.html", "the max filter: [spaces|length + 2, 8]|max"): "the tiles' form: at least 8 boxes, a form's size",
    ("_board_fields.html", "arithmetic: i + 1"): "the tiles' form: box i is labelled Tile i+1 (a count from 1)",
    ("_board_fields.html", "a word compared: key == 'suspicion_track'"): "the profile form picks a section's fields by its key",
    ("_board_fields.html", "a word compared: key == 'tiles'"): "the profile form picks a section's fields by its key",
    ("_board_fields.html", "a word compared: key == 'cathedral'"): "the profile form picks a section's fields by its key",
    ("_board_fields.html", "a word compared: key == 'penance_cards'"): "the profile form picks a section's fields by its key",
    # the sentences below are marked for translation (issue 29): each is one finding in its words, for the same reasons
    ("_board_fields.html", "a number in its words: 'Number of spaces, counting the \"0\" space'"): "names the space printed \"0\" on the board",
    ("_board_fields.html", "a number in its words: 'Each icon sits after space k (between k and k+1).'"):
        "the notation of an icon's place, not a value",
    ("panel.html", "a number in its words: 'Read it off the main board (or save it once in a box profile). An icon \"after space k\" "
                   "sits between space k and k+1; the marker starts on space 1.'"):
        "the notation of an icon's place, and a rule value in words (the marker's start), kept for now: reported to move into the view",
    ("panel.html", "a number in its words: 'Scoring Mentor VP (0 unless unlocked)'"):
        "a rule value in words, kept for now: reported to move into the view",
    ("setup.html", "a number in its words: 'ends on 0 (the leftover steps are dropped)'"):
        "the Stake overshoot option's words (docs/RULES.md's reading, the \"0\" space)",
    ("setup.html", "a number in its words: 'counts its leftover steps on from 0'"):
        "the Stake overshoot option's words (docs/RULES.md's reading, the \"0\" space)",
    ("panel.html", "an attribute's number: value=\"0\""): "the Prohibition form's count starts at zero",
    ("panel.html", "a word compared: state.phase == 'actions'"): "the panel shows the part of the phase the table is in",
    ("panel.html", "a word compared: state.phase == 'income'"): "the panel shows the part of the phase the table is in",
    ("panel.html", "a word compared: state.phase == 'end'"): "the panel shows the part of the phase the table is in",
    ("panel.html", "a word compared: state.phase == 'final'"): "the panel shows the part of the phase the table is in",
    ("panel.html", "a word compared: state.phase != 'final'"): "the panel shows the part of the phase the table is in",
    ("panel.html", "a word compared: c.kind == 'space'"): "the track drawing: a cell is a space or an icon between spaces",
    # shortcuts for the commonest effects on others [GT696-697]: +1 (any other amount goes through the API)
    ("panel.html", "a number in its words: '+1 every other player'"): "a shortcut for the commonest effect on others [GT696-697]",
    ("panel.html", "a number in its words: '+1 every Copernican'"): "a shortcut for the commonest effect on others [GT696-697]",
}

#: the first player can no longer be chosen once the first turn is played
BEGUN = ([("pass", {"player": 0})], "first turn is played")
#: a calculator row's suspicion counts only at the Stake, and its turn order is a place: neither starts at 0
SHEET_STARTS = {"data.suspicion:int": None, "data.turn_order:int": None}
