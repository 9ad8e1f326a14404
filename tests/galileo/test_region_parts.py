"""Galileo's live region drawn a part at a time (companion/web/region.py, issue 39).

A whole game and a calculator table are followed a change at a time (tests/regions.py): after
each change the region drawn in parts must equal the region drawn whole, on every screen and in
two languages. Then the bounds: a score change draws and sends a few small parts, not the panel,
and a refused field answers with its player's part and the notice, not every player's card.
"""

import copy

from werkzeug.datastructures import MultiDict

from companion import games, tables
from companion.games.galileo.table import current_player, has_passed, prohibition_pending
from companion.web import region
from companion.web.connection import get_db
from tests.regions import create, follow

from .test_calculator import BOARD, ROWS
from .test_table import PROFILE, Table
from .test_web import join

PLAYERS = ["Anna", "Tom", "Kate", "Ben"]
#: the printed values besides the track, entered at the table in one board event
OTHER_VALUES = {key: value for key, value in PROFILE.items() if key != "suspicion_track"}
SCREENS = (None, "end")  # view.screen_of: the main screen and the end screen
LANGS = ("en", "de")


class Script:
    """Events for a table, folded here too (tests/galileo/test_table.py's Table) to know whose turn it is."""

    def __init__(self, names):
        self.table = Table(names, profile=None)
        self.events: list[dict] = []
        self.kept: list[dict] = []

    @property
    def state(self):
        return self.table.state

    def __call__(self, type_, **data):
        self.kept.append(copy.deepcopy(self.table.state))
        if type_ != "clock":  # the clock reads each event's time, which only a stored table has: the app folds it
            self.table(type_, **data)
        self.events.append({"type": type_, "data": data})

    def undo(self):
        self.table.state = self.kept.pop()
        self.events.append({"type": "undo"})

    def rename(self, player, name):
        self.events.append({"type": "rename", "data": {"player": player, "name": name}})  # the app's event, not the game's


def whole_game(names=PLAYERS) -> list[dict]:
    """Every event type of a tracked game, from the board values to the final scores, with an undo and a rename."""
    s = Script(names)
    s("board", suspicion_track=PROFILE["suspicion_track"])
    s("board", **OTHER_VALUES)
    s("draw_first_player")  # who goes first (games/seats.py): its card, drawn again as it changes
    s("first_player", player=1)
    s.undo()
    s("first_player", player=1)  # Tom starts: the turn order markers from him [GT103]
    s("clock", action="start", limit_s=90)  # the turn clock (games/clock.py): its part, drawn again as it changes
    s("clock", action="pass")
    s("clock", action="pause")
    s("clock", action="resume")
    s("clock", action="pass", seat=3)
    s("vp", player=0, delta=1)
    s("vp", player=1, delta=1)
    s("vp", player=0, delta=-1)
    s("suspicion", player=1, delta=1)
    s("suspicion", player=1, delta=2)  # past Penance I: a card to play
    s("suspicion_group", player=0, group="others", delta=1)
    s("tile", player=2, tile=0)
    s.undo()
    s("tile", player=2, tile=0)
    s.rename(1, "Tomás")
    played = set()  # (player, level): each Penance card played once
    for cycle in range(1, 6):
        if s.state["phase"] == "income":
            s("income_done")
        while s.state["phase"] == "actions":
            now = current_player(s.state)
            held = [lvl for lvl in (1, 2, 3) if s.state["players"][now]["suspicion"]["penance_taken"][lvl - 1]
                    and not s.state["players"][now]["penance_removed"][lvl - 1] and (now, lvl) not in played]
            if cycle == 1 and s.state["round"] == 1 and now == 0:
                s("action", player=now, action="invention")
            elif held:
                played.add((now, held[0]))
                s("penance", player=now, level=held[0], remove=cycle > 1)
            elif cycle == 1 and now == 2 and s.state["players"][2]["principle"] == "copernican":
                s("abjure", player=now)
            elif cycle == 2 and s.state["round"] == 1 and now == 1:
                s("suspicion", player=now, delta=8)  # to Prison
                s("action", player=now, action="academic")
            else:
                assert not has_passed(s.state, now)
                s("pass", player=now)
        if prohibition_pending(s.state):
            counts = [0] * len(names)
            counts[cycle % len(names)] = 4
            s("prohibition", limit=3, counts=counts, **({} if cycle == 2 else {"penalty": {"copernican": 2, "ptolemaic": 1}}))
        s("next_cycle")
    assert s.state["phase"] == "final"
    s("vp", player=3, delta=5)
    for p in range(len(names)):
        s("final", player=p, inventions_vp=p, mentor_vp=0, end_losses=1 if p == 2 else 0)
    assert s.state["finished"]
    s.undo()
    s("final", player=len(names) - 1, inventions_vp=2, mentor_vp=1, end_losses=0)
    s.rename(0, "Anne")
    return s.events


def calculator_game() -> list[dict]:
    """A calculator table: the printed values, every row (one saved twice), an undo and a rename."""
    events = [{"type": "board", "data": BOARD}]
    events += [{"type": "sheet", "data": row} for row in ROWS[:3]]
    events += [{"type": "sheet", "data": {**ROWS[0], "vp": 64}}, {"type": "sheet", "data": ROWS[3]}, {"type": "undo"},
               {"type": "rename", "data": {"player": 2, "name": "Cyd"}}, {"type": "sheet", "data": ROWS[3]}]
    return events


def test_a_whole_game_drawn_in_parts_is_the_region_drawn_whole(app):
    events = whole_game()
    types = {e["type"] for e in events}
    assert types >= set(games.get("galileo").events) - {"sheet"}  # the sheet is the calculator's (below)
    steps = follow(app, "galileo", PLAYERS, events, screens=SCREENS, langs=LANGS)
    assert len(steps) == len(events) * len(SCREENS) * len(LANGS)


def test_a_calculator_table_drawn_in_parts_is_the_region_drawn_whole(app):
    events = calculator_game()
    steps = follow(app, "galileo", ["Ann", "Ben", "Cy", "Dee"], events, options={"calculator": True}, screens=SCREENS,
                   langs=("en", "pl"))
    assert len(steps) == len(events) * len(SCREENS) * 2


def _panel_drawn(parts) -> int:
    """The characters of the panel's templates run for a version: the own text of each part drawn
    inside the game's panel (its skeleton included)."""
    inside, todo = set(), ["game-panel"]
    while todo:
        pid = todo.pop()
        inside.add(pid)
        todo.extend(parts.parts[pid].children)
    return sum(len(parts.parts[pid].own) for pid in parts.drawn if pid in inside)


def test_a_score_change_draws_and_sends_a_few_small_parts(app):
    """A +1 or -1 on one player's VP or suspicion, mid-game on a four-player table: the parts sent
    total under a tenth of the region, and so do the panel's templates run (the own text of each of
    its parts drawn); no other player's card is sent, nor the panel. A tenth (about 4 KB of a region
    of about 40): a suspicion +1 draws the track, the stepper and the row around it, what two cards
    say (the new notice, and the one cleared), those two cards' and the panel's skeletons, 3.5 KB;
    before the panel had parts it ran the whole panel, about 34 KB, and sent it (38 KB) for a
    suspicion change. At most 12 parts drawn in all: those, the region's root, the tools, the history."""
    s = Script(PLAYERS)
    s("board", suspicion_track=PROFILE["suspicion_track"])
    s("board", **OTHER_VALUES)
    s("action", player=0, action="treatise")  # a line in the turn card, cleared by the next card event
    taps = [("vp", {"player": i % 2, "delta": 1 if i % 4 < 2 else -1}) for i in range(6)]
    taps += [("suspicion", {"player": i % 3, "delta": 1}) for i in range(4)]
    taps += [("vp", {"player": 3, "delta": 2})]
    table_id, secret = create(app.test_client(), "galileo", PLAYERS)
    with app.app_context():
        db = get_db()
        table = tables.authorize(db, table_id, secret)
        for event in s.events:
            table = tables.append(db, table_id, {**event, "expected_version": table.version}, None, secret=secret)
        before = region.draw(app, table, None, "en", None, region.context_of(db, table, None))
        seen, wrong = [], []
        for type_, data in taps:
            table = tables.append(db, table_id, {"type": type_, "data": data, "expected_version": table.version}, None, secret=secret)
            now = region.draw(app, table, None, "en", before, region.context_of(db, table, None))
            whole, sent = len(now.html), now.changed_since(before.fingerprint)
            sent_bytes, drawn_text = len(now.since(before.fingerprint)), _panel_drawn(now)
            seen.append(f"{type_} {data}: sent {sent} ({sent_bytes} of {whole} bytes), drawn {now.drawn} "
                        f"({drawn_text} chars of the panel)")
            others = {f"gal-player-{i}" for i in range(len(PLAYERS))} - {f"gal-player-{data['player']}"}
            if (sent_bytes >= whole / 10 or drawn_text >= whole / 10 or len(now.drawn) > 12
                    or others & set(sent) or "game-panel" in sent):
                wrong.append(seen[-1])
            before = now
    assert not wrong, "\n".join(["too much drawn or sent:"] + wrong + ["every tap:"] + seen)


def test_a_rename_sends_that_players_parts_not_the_panel(app):
    """bench/run.py's score change on Galileo is a rename (its tables have no board values, and the
    VP wait for the suspicion track): every part is drawn again (the names are in every part's key),
    but only those showing the name are sent: its scoreboard row, the pieces of its card that name
    it (head, track, steppers), the turn and the turn order, the seat lists; about a quarter of the
    region, bounded at a third. Before the panel had parts: the whole panel, 41,280 of 41,932 bytes."""
    steps = follow(app, "galileo", PLAYERS, [{"type": "board", "data": PROFILE},
                                             {"type": "rename", "data": {"player": 1, "name": "Tomás"}}])
    rename = steps[-1]
    said = f"sent {rename.sent} ({rename.sent_bytes} of {rename.whole} bytes)"
    assert rename.sent_bytes < rename.whole / 3 and "game-panel" not in rename.sent, said
    assert not {"gal-player-0", "gal-player-2", "gal-player-3"} & set(rename.sent), said


def _refused(client, t, fields, has):
    """Post a form the way the page does with htmx: the version it shows in X-Table-Has."""
    form = MultiDict([("expected_version:int", str(has))] + fields)
    return client.post(f"/t/{t['table']}/events", data=form,
                       headers={"HX-Request": "true", "X-Table-Has": str(has)})


def test_a_refused_suspicion_is_answered_on_that_players_card_alone(client, api):
    """A 0 typed in Tom's suspicion box: the answer is the notice and what Tom's card says (about
    600 bytes; bounded at 2,500 and a tenth of the region). Before the panel had parts: the whole
    panel, 37,636 bytes."""
    t = api.create("galileo", PLAYERS)
    assert api.event(t, "board", PROFILE).status_code == 200
    join(client, t)
    whole = len(client.get(f"/t/{t['table']}", headers={"HX-Request": "true"}).data)
    answer = _refused(client, t, [("type", "suspicion"), ("data.player:int", "1"), ("data.delta:int", "0")], 1)
    assert answer.status_code == 400
    body = answer.data.decode()
    assert "0 changes nothing" in body and 'id="table-notice"' in body
    # the refusal beside Tom's suspicion, and nothing of the other cards nor the panel
    assert 'id="gal-card-said-1"' in body and body.count('data-field="data.delta"') == 2
    for other in (0, 2, 3):
        assert f'gal-player-{other}"' not in body and f'gal-card-said-{other}"' not in body
    assert 'id="game-panel"' not in body
    assert len(body) < 2500 and len(body) < whole / 10, (len(body), whole)


def test_a_refused_row_on_a_calculator_table_is_answered_with_that_row(client, api):
    """1,000 VP typed in Cy's row: the answer is the notice and Cy's row, its field errors inside its
    form (about 4 KB of a region of 23; bounded at a quarter). Before: the whole panel, 18,633 bytes."""
    names = ["Ann", "Ben", "Cy", "Dee"]
    t = api.create("galileo", names, calculator=True)
    assert api.event(t, "board", BOARD).status_code == 200
    join(client, t)
    whole = len(client.get(f"/t/{t['table']}", headers={"HX-Request": "true"}).data)
    fields = [("type", "sheet"), ("data.player:int", "2"), ("data.principle", "copernican"), ("data.status", "free"),
              ("data.vp:int", "1000")]
    answer = _refused(client, t, fields, 1)
    assert answer.status_code == 400
    body = answer.data.decode()
    assert 'id="gal-row-2"' in body and 'id="table-notice"' in body and 'data-field="data.vp"' in body
    for other in (0, 1, 3):
        assert f'id="gal-row-{other}"' not in body
    assert 'id="game-panel"' not in body and len(body) < whole / 4, (len(body), whole)
