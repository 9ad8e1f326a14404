"""Benchmark The Voynich Puzzle's rules: end scoring, the deck, and folding a long table log.

Run: /work/venv/bin/python bench/voynich_rules.py   (prints figures; asserts nothing)
"""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from companion.games.base import Context  # noqa: E402
from companion.games.voynich import GAME, rules  # noqa: E402

CARDS = {"botany": [3, 8], "astrology": [12, 15], "baths": [21, 24], "writings": [30, 33], "recipes": [36, 39]}
PROFILE = {"track": {"scoring_spaces": {str(p): p // 4 for p in range(4, 80, 4)}, "insights": list(range(5, 80, 7))}}


def timed(label: str, n: int, fn) -> None:
    start = time.perf_counter()
    for _ in range(n):
        fn()
    per = (time.perf_counter() - start) / n
    print(f"{label:<48} {per * 1e3:9.3f} ms per call  ({n} calls)")


def score_doc(rng: random.Random) -> dict:
    players = []
    for i in range(4):
        pages = []
        for k in range(10):
            section = rules.SECTIONS[k // 2]
            page = {"section": section, "multiplier": rng.choice(rules.MULTIPLIERS)}
            if section == "recipes":
                page["choices"] = rng.sample(rules.KNOWLEDGE, 2)
            pages.append(page)
        players.append({"name": f"P{i}", "gk": rng.randrange(60), "research": [rng.randrange(9) for _ in range(6)],
                        "markers": {k: rng.randrange(70) for k in rules.KNOWLEDGE}, "pages": pages})
    return {"track": PROFILE["track"], "players": players}


def fold(events: list[tuple[str, dict]]) -> dict:
    """Fold a log as the framework does (no insight symbols, so no exchange tokens to place)."""
    profile = {"track": {"scoring_spaces": PROFILE["track"]["scoring_spaces"]}}
    ctx = Context(names=("Ana",), profile=profile, seed=1)
    state = GAME.initial_state(["Ana"], {}, profile)
    for type_, data in events:
        state = GAME.apply(state, type_, data, ctx)
    return state


def solo_log(turns: int) -> list[tuple[str, dict]]:
    """A solo game's log: each round Ana gains knowledge and studies, Voynich flips and researches."""
    log = [("solo_setup", {"cards": CARDS, "difficulty": "very_hard"})]
    for t in range(turns):
        log += [("move", {"player": 0, "marker": rules.KNOWLEDGE[t % 4], "delta": 2}),
                ("study", {"player": 0, "page": t % 10}) if t < 30 else ("move", {"player": 0, "marker": "gk", "delta": 1}),
                ("end_turn", {}), ("voynich_flip", {}), ("voynich_research", {}), ("end_turn", {})]
    return log


def main() -> None:
    rng = random.Random(1)
    doc = score_doc(rng)
    timed("score: 4 players x 10 pages", 2000, lambda: GAME.functions["score"].run(doc))
    timed("priority_scan: 40 numbers", 5000, lambda: GAME.functions["priority_scan"].run({"priority": 18, "present": list(range(1, 41))}))
    timed("solo_turns: 1000 turns", 20, lambda: GAME.functions["solo_turns"].run({"cards": CARDS, "difficulty": "hard", "turns": 1000, "seed": 3}))
    log = solo_log(25)
    timed(f"fold a solo table log of {len(log)} events", 20, lambda: fold(log))
    state = fold(log)
    timed("view of that table (end screen)", 500, lambda: GAME.view(state, ["Ana"], {}, PROFILE, "end"))


if __name__ == "__main__":
    main()
