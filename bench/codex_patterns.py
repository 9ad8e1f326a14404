"""Time the Codex `manuscript` and `patterns` rules functions on generated play areas.

    /work/venv/bin/python bench/codex_patterns.py [--repeat N] [--seed S]

For 20, 40 and 80 cards (after the starter) it builds random legal manuscripts from the
real card data (face up when the card may be, face down otherwise), then prints the
median time of one `manuscript` call (replay, checks, all 16 objectives) and of one
`patterns` call per pattern objective. It also times the worst grids for the pattern
search: 80 cards of one kingdom (diagonals everywhere) and 80 cards of two kingdoms
(overlapping L-shapes everywhere). A figure, not a test: nothing here asserts a time.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from companion.games.codex import functions  # noqa: E402
from companion.games.codex import cards as catalogue  # noqa: E402
from companion.games.codex.packing import max_disjoint  # noqa: E402
from companion.games.codex.rules import Layout, find_occurrences  # noqa: E402
from companion.games.validation import RulesError  # noqa: E402


def generate(n: int, rng: random.Random) -> list[dict]:
    """Return a legal manuscript of a starter and n resource or gold cards."""
    layout = Layout()
    starter = rng.choice([i for i in catalogue.playable_ids() if catalogue.card(i)["kind"] == "starter"])
    layout.place(starter, rng.choice(["front", "back"]), 0, 0, "cards[0]")
    plays = [{"id": starter, "side": layout.placed[0].side, "x": 0, "y": 0}]
    deck = [i for i in catalogue.playable_ids() if catalogue.card(i)["kind"] != "starter"]
    rng.shuffle(deck)
    for card_id in deck[:n]:
        cells = layout.free_cells()
        rng.shuffle(cells)
        for side in ("front", "back"):
            try:
                x, y = cells[0]
                layout.place(card_id, side, x, y, f"cards[{len(plays)}]")
            except RulesError:
                continue
            plays.append({"id": card_id, "side": side, "x": x, "y": y})
            break
    return plays


def timed(fn, doc, repeat: int) -> float:
    """Return the median wall time of fn(doc) in milliseconds."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn(doc)
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def diamond(n: int) -> list[tuple[int, int]]:
    """Return n grid cells (x + y even) packed around the origin."""
    cells = sorted(((x, y) for x in range(-12, 13) for y in range(-12, 13) if (x + y) % 2 == 0),
                   key=lambda c: (abs(c[0]) + abs(c[1]), c))
    return cells[:n]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=25)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    objectives = catalogue.objective_ids()
    patterns = catalogue.pattern_ids()

    print(f"median of {args.repeat} runs, milliseconds")
    print(f"{'cards':>5}  {'manuscript':>10}  {'patterns (each)':>15}  {'patterns (max)':>14}  occurrences found")
    for n in (20, 40, 80):
        plays = generate(n, rng)
        doc = {"cards": plays, "objectives": objectives}
        t_manuscript = timed(functions.manuscript, doc, args.repeat)
        kingdoms = {(p["x"], p["y"]): catalogue.card(p["id"])["kingdom"] for p in plays}
        cells = [{"x": x, "y": y, "kingdom": k} for (x, y), k in kingdoms.items() if k]
        per = [timed(functions.patterns, {"cells": cells, "objective": oid}, args.repeat) for oid in patterns]
        found = sum(len(find_occurrences(kingdoms, oid)) for oid in patterns)
        print(f"{len(plays) - 1:>5}  {t_manuscript:>10.2f}  {statistics.mean(per):>15.2f}  {max(per):>14.2f}  {found}")

    print()
    print("worst grids for the pattern search (80 cards)")
    grid = diamond(80)
    cases = [
        ("80 fungi, rising diagonal (87)", [{"x": x, "y": y, "kingdom": "fungi"} for x, y in grid], 87),
        ("60/40 fungi/plant, L-shape (91)", [{"x": x, "y": y, "kingdom": rng.choice(["fungi"] * 3 + ["plant"] * 2)} for x, y in grid], 91),
        ("50/50 animal/fungi, L-shape (93)", [{"x": x, "y": y, "kingdom": rng.choice(["animal", "fungi"])} for x, y in grid], 93),
    ]
    for label, cells, oid in cases:
        kingdoms = {(c["x"], c["y"]): c["kingdom"] for c in cells}
        result = functions.patterns({"cells": cells, "objective": oid})
        ms = timed(functions.patterns, {"cells": cells, "objective": oid}, args.repeat)
        print(f"  {label:<40} {ms:8.2f} ms  {len(find_occurrences(kingdoms, oid)):>3} occurrences, {result['count']} disjoint")

    print()
    print("the packing alone, on random 3-card sets (denser conflicts than any real pattern can make;\n"
          "the real patterns only overlap along a line or a column)")
    for n_sets in (40, 80, 120):
        sets = [rng.sample(range(80), 3) for _ in range(n_sets)]
        start = time.perf_counter()
        size = len(max_disjoint(sets))
        ms = (time.perf_counter() - start) * 1000
        print(f"  {n_sets:>3} sets over 80 cards {ms:10.2f} ms  {size} disjoint")


if __name__ == "__main__":
    main()
