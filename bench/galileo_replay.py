"""Benchmark: rebuild a long Galileo's Truth table from its events, and render its view.

A table's state is folded from its whole event log, so this is what every change and every
phone's refresh costs. Prints figures; asserts nothing.

    /work/venv/bin/python bench/galileo_replay.py
"""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from companion.games.base import Context  # noqa: E402
from companion.games.galileo import GAME  # noqa: E402
from companion.games.galileo.table import current_player  # noqa: E402
from companion.games.galileo.view import build  # noqa: E402
from companion.games.validation import RulesError  # noqa: E402

# Placeholder printed values: a benchmark needs some; they are not any board's.
PROFILE = {
    "suspicion_track": {"length": 20, "penance": [3, 6, 9], "prison": 11, "stake": 14},
    "tiles": {"back": 3, "spaces": [20, 40, 60, 80]},
    "cathedral": {"copernican": {"free": 9, "prison": 6, "stake": 3}, "ptolemaic": {"free": 6, "prison": 3, "stake": 0}},
    "penance_cards": {"vp": [1, 2, 3], "coins": [1, 2, 3]},
    "prohibition_suspicion": {c: {"copernican": 2, "ptolemaic": 1} for c in ("2", "3", "5")},
}
NAMES = ["Meg", "Luna", "Dan", "Domy"]


def game_log(seed: int) -> list[tuple[str, dict]]:
    """Play a random but valid 4-player game; return its events."""
    rnd = random.Random(seed)
    ctx = Context(tuple(NAMES), GAME.validate_options({}, 4), GAME.validate_profile(PROFILE))
    state = GAME.initial_state(NAMES, ctx.options, ctx.profile)
    log = []

    def do(type_, data):
        nonlocal state
        try:
            state = GAME.apply(state, type_, data, ctx)
            log.append((type_, data))
        except RulesError:
            pass

    while state["phase"] != "final":
        if state["phase"] == "income":
            do("income_done", {})
        elif state["phase"] == "end":
            if state["cycle"] in (2, 3, 5) and state["prohibition"] is None:
                do("prohibition", {"limit": 3, "counts": [rnd.randint(0, 4) for _ in NAMES]})
            do("next_cycle", {})
        else:
            p = current_player(state)
            for _ in range(rnd.randint(0, 3)):
                do("suspicion", {"player": rnd.randrange(4), "delta": rnd.choice([-2, -1, 1, 1, 2, 3])})
                do("vp", {"player": rnd.randrange(4), "delta": rnd.randint(1, 4)})
            if rnd.random() < 0.1:
                do("tile", {"player": p, "tile": rnd.randrange(4)})
            roll = rnd.random()
            if roll < 0.2 + state["round"] * 0.02:
                do("pass", {"player": p})
            elif roll < 0.25:
                do("abjure", {"player": p})
            else:
                do("action", {"player": p, "action": rnd.choice(["invention", "academic", "treatise", "philosopher"])})
    for p in range(4):
        do("final", {"player": p, "inventions_vp": 5, "mentor_vp": 0, "end_losses": 0})
    return log


def main() -> None:
    log = game_log(7)
    ctx = Context(tuple(NAMES), GAME.validate_options({}, 4), GAME.validate_profile(PROFILE))
    runs = 20
    start = time.perf_counter()
    for _ in range(runs):
        state = GAME.initial_state(NAMES, ctx.options, ctx.profile)
        for type_, data in log:
            state = GAME.apply(state, type_, data, ctx)
    fold = (time.perf_counter() - start) / runs
    start = time.perf_counter()
    for _ in range(runs):
        view = build(state, NAMES, ctx.options)
    render = (time.perf_counter() - start) / runs
    print(f"events in one game: {len(log)}")
    print(f"replay whole log:   {fold * 1000:.1f} ms ({len(log) / fold:,.0f} events/s)")
    print(f"view with scoring:  {render * 1000:.2f} ms")
    print(f"winner: {view['result']['winners']}")


if __name__ == "__main__":
    main()
