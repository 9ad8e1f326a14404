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
