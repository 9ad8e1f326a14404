"""Benchmark Gutenberg's rules: fold a whole solo game with the automa, and the JSON functions.

Prints figures; asserts nothing. Run: python bench/gutenberg_fold.py
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from companion.games import get  # noqa: E402
from companion.games.base import Context  # noqa: E402

GAME = get("gutenberg")
ACTIONS = ("take_orders", "take_inks", "develop_specialties", "improve_printing_houses", "patronage")
START = {"take_orders": 2, "take_inks": 1, "develop_specialties": 1, "improve_printing_houses": 2, "patronage": 1}
CARD = {"centre": "develop_specialties", "moves": [["take_orders", "take_inks"], ["min", "max"]], "patronage": True}


def solo_game_log() -> list[tuple[str, dict]]:
    """Return the events of a six-round solo game: plan, card, every automa draw, counts, round end."""
    names, options = ["Ada"], GAME.validate_options({"automa": True}, 1)
    ctx = Context(names=tuple(names), options=options, profile={}, seed=7)
    state = GAME.initial_state(names, options, {})
    log: list[tuple[str, dict]] = []

    def do(type_, data):
        nonlocal state
        state = GAME.apply(state, type_, data, ctx)
        log.append((type_, data))

    do("automa_layout", {"layout": START})
    for _ in range(6):
        # every marker Ada holds this round goes on an action [GB114]: 7 or 8 as the token passes
        markers = {"take_orders": 2, "take_inks": 2, "develop_specialties": 2, "patronage": 1}
        if GAME.modules.table.holding(state, 0) == 8:
            markers["improve_printing_houses"] = 1
        do("markers", {"player": 0, "markers": markers})
        do("automa_card", {"card": CARD})
        for action in ACTIONS:
            if state["automa"]["markers"][action]:
                do("automa_act", {"action": action})
                while state["automa"]["step"]:
                    do("automa_answer", {"available": len(state["automa"]["step"]["items"][-1]["drawn"]) >= 1})
        for type_, data in (("fame", {"delta": 7}), ("guilders", {"delta": 4}), ("develop", {"specialty": "binding"}),
                            ("take_inks", {"first": 1, "count": 2}), ("buy_types", {"count": 1})):
            try:
                GAME.apply(state, type_, dict(data, player=0), ctx)
            except Exception:  # noqa: BLE001 - a purchase the player cannot afford is simply skipped
                continue
            do(type_, dict(data, player=0))
        do("end_round", {})
    return log


def fold(log):
    names, options = ["Ada"], GAME.validate_options({"automa": True}, 1)
    ctx = Context(names=tuple(names), options=options, profile={}, seed=7)
    state = GAME.initial_state(names, options, {})
    for type_, data in log:
        state = GAME.apply(state, type_, data, ctx)
    return state


def timed(fn, repeat: int) -> list[float]:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return times


def report(label: str, times: list[float], per: int = 1) -> None:
    ms = [t * 1000 / per for t in times]
    print(f"{label:<48} median {statistics.median(ms):8.3f} ms   max {max(ms):8.3f} ms")


def main() -> None:
    log = solo_game_log()
    final = fold(log)
    assert final["finished"]
    print(f"solo game with the automa: {len(log)} events")
    report("fold the whole game (initial state + events)", timed(lambda: fold(log), 50))
    state = fold(log[:-1])
    report("view of the last round (acting order, automa)", timed(
        lambda: GAME.view(state, ["Ada"], {"automa": True}, {}, None), 200))
    report("view of the end screen", timed(lambda: GAME.view(final, ["Ada"], {"automa": True}, {}, "end"), 200))
    score = GAME.functions["score"].run
    doc = {"players": [{"name": f"P{i}", "fame": 80 + i, "guilders": 4, "patronage_cards": 2, "types": 5, "inks": 1,
                        "specialties": {"typesetting": 6, "woodcutting": 3, "binding": 4, "illuminating": 5}}
                       for i in range(4)]}
    report("score, 4 players (per call, 1000 calls)", timed(lambda: [score(doc) for _ in range(1000)], 5), 1000)
    execute = GAME.functions["automa_execute"].run
    report("automa_execute take_orders (per call, 1000 calls)", timed(
        lambda: [execute({"action": "take_orders", "seed": s, "available": {"printing": [1, 3], "refinement": [2]}})
                 for s in range(1000)], 5), 1000)


if __name__ == "__main__":
    main()
