"""The score track of a tracked Codex table and the end it triggers.

The scores, the turn in which each player's score reached the target, the end's trigger (by
points or by the decks) and its last turns, named once the first player is known and named again
when a correction takes the trigger back below the target; and what finishing waits for. The
rules are rules.py's; this keeps the state's record of them (its shape: table.py).
"""

from __future__ import annotations

from ..base import keep_notice
from ..speech import gettext as _, later, ngettext
from ..validation import RulesError
from . import rules

def turn_order(state: dict) -> list[int]:
    """Return the seats in turn order, first player first (clockwise = seat order) [CN36]."""
    n = len(state["scores"])
    first = state["first"] or 0
    return [(first + i) % n for i in range(n)]


def add_points(state: dict, seat: int, delta: int, names) -> None:
    """Move a score, trigger the end when it reaches the target [CN53], and keep who reached it when."""
    new = state["scores"][seat] + delta
    if new < 0:
        raise RulesError("data.delta", _("a score never goes below 0 (it is %(now)s)", now=state["scores"][seat]))
    state["scores"][seat] = new
    end = state["end"]
    if delta > 0 and rules.may_finish(end):
        # [CN54] "everyone plays one last time", then [CN55] only objectives are added: points
        # scored now are a correction at most, so they count, with a word
        keep_notice(state, seat, later.gettext("Every last turn is played: +%(delta)s counted as a correction; cards are no "
                                        "longer played, only objectives are added", delta=delta))
    reached, target = _reached(state), state["target"]
    # [CN53] "as soon as a player reaches or passes 20 points" (30 in the variant [CN67])
    if end is None:
        if rules.reaches_target(new, target):  # nobody had it (else the end would be triggered)
            reached[seat] = seat  # turns are numbered from this round: seat s plays turn s
            trigger(state, seat, "target")
        return
    done, now = _turns_now(state)
    if not rules.reaches_target(new, target):
        reached[seat] = None
    elif reached[seat] is None:
        reached[seat] = rules.reach_turn(seat, now, len(reached))
    if end["reason"] == "target" and reached[end["trigger"]] is None:
        _move_trigger(state, seat, done, names)


def _reached(state: dict) -> list:
    """Return, per seat, the turn its score reached the target in (None: below it now).

    A state stored before this record was kept gets one: a points trigger reached it in its own
    turn (numbered by its seat), anyone else at the target in their latest turn begun.
    """
    if "reached" not in state:
        end, n = state["end"], len(state["scores"])
        state["reached"] = reached = [None] * n
        if end is not None:
            now = _turns_now(state)[1]
            for s, score in enumerate(state["scores"]):
                if rules.reaches_target(score, state["target"]):
                    reached[s] = s if (s, end["reason"]) == (end["trigger"], "target") else rules.reach_turn(s, now, n)
    return state["reached"]


def _turns_now(state: dict) -> tuple[int, int]:
    """Return (the latest turn played, the turn being played) while the end is triggered.

    The end was triggered in a points trigger's reaching turn, or in the seat's turn that found
    the decks empty; its last turns follow. Once all are played, the turn "being played" is the
    last one: later points are a correction of it.
    """
    end = state["end"]
    turn = state["reached"][end["trigger"]] if end["reason"] == "target" else None
    start = end["trigger"] if turn is None else turn
    done = start + end["played"]
    return done, done + 1 if end["turns"] is None else min(done + 1, start + len(end["turns"]))


def _move_trigger(state: dict, seat: int, done: int, names) -> None:
    """The trigger's score went back below the target: the end is the earliest other reach's, if any [CN53-54]."""
    state["end"] = end = rules.retriggered_end(state["reached"], done, turn_order(state) if state["first"] is not None else None)
    back, target = state["scores"][seat], state["target"]
    if end is None:
        # the decks' trigger ("no more cards to draw") never comes here: it stands whatever the scores
        keep_notice(state, seat, later.gettext("Back to %(back)s: nobody has %(target)s points now, so the end is no longer "
                                        "triggered", back=back, target=target))
        return
    said = {"back": back, "who": names[end["trigger"]], "target": target}
    left = rules.last_turns_left(end)
    if left is None:
        keep_notice(state, seat, later.gettext("Back to %(back)s: %(who)s reached %(target)s first now, so the end was triggered "
                                        "by %(who)s; choose the first player to name the last turns", **said))
    elif left:
        keep_notice(state, seat, later.ngettext(
            "Back to %(back)s: %(who)s reached %(target)s first now, so the end was triggered by %(who)s: %(num)d last turn to play",
            "Back to %(back)s: %(who)s reached %(target)s first now, so the end was triggered by %(who)s: %(num)d last turns to play",
            left, **said))
    else:
        keep_notice(state, seat, later.gettext("Back to %(back)s: %(who)s reached %(target)s first now, so the end was triggered "
                                        "by %(who)s: every last turn is played", **said))


def trigger(state: dict, seat: int, reason: str) -> None:
    state["end"] = {"reason": reason, "trigger": seat, "turns": None, "played": 0}
    name_last_turns(state)


def name_last_turns(state: dict) -> None:
    """Name the turns still to play once both the trigger and the first player are known."""
    end = state["end"]
    if end is not None and end["turns"] is None and state["first"] is not None:
        # [CN54] finish the current round, then everyone plays once more
        end["turns"] = rules.final_turns(turn_order(state), end["trigger"])


def finish_blocker(state: dict, names) -> str | None:
    """Return why the objectives cannot be added yet, in players' words, or None.

    [CN53] the end is triggered by 20 points (or 30) or by no more cards to draw; [CN54] the
    round is finished, then everyone plays once more; [CN55] then the objectives are added.
    The decision is rules.may_finish; this only says what comes first.
    """
    end = state["end"]
    if rules.may_finish(end):
        return None
    if end is None:
        return _("The game is not over yet: it ends once a player reaches %(target)s points or both decks "
                 "run out, and everyone has played their last turns", target=state["target"])
    left = rules.last_turns_left(end)
    if left is None:
        # [CN36][CN54] the last turns depend on who played first
        return _("The game is not over yet: choose the first player, so that the last turns can be named")
    name = names[end["turns"][end["played"]]]
    if left == 1:
        return _("The game is not over yet: %(name)s's last turn is still to play", name=name)
    # Translators: never fewer than 2 turns here (1 has its own sentence)
    return ngettext("The game is not over yet: %(num)d last turn is still to play (%(name)s next)",
                    "The game is not over yet: %(num)d last turns are still to play (%(name)s next)", left, name=name)
