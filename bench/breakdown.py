"""Where a score change's time goes, step by step, inside the process (no server, no network).

    python bench/breakdown.py [GAME] [ROUNDS] [--language LANG]

Appends ROUNDS score changes (default 300) to a table of four in a temporary SQLite file, the
way a tap on the table page's stepper does, timing each step; prints the medians. Then what the
stream does for the new version, in one language (English, or --language's; companion/web/live.py):
the region's context, the parts whose inputs changed drawn from the version before (region.py),
and the parts kept in SQLite for the other processes; and, for comparison, the whole region a
first load draws.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.run import PLAYERS, score_change  # noqa: E402
from companion import create_app, games, tables  # noqa: E402
from companion.web import live, region, steppers  # noqa: E402
from companion.web.connection import get_db  # noqa: E402


def main(game_key: str = "gutenberg", rounds: int = 300, lang: str = "en") -> None:
    with tempfile.TemporaryDirectory() as tmp:
        app = create_app({"DATA_DIR": tmp})
        players = PLAYERS[: games.get(game_key).max_players]
        created = app.test_client().post("/api/v1/tables", json={"game": game_key, "players": players}).get_json()
        table_id, secret = created["table"], created["token"]
        cookie = f"tc_{table_id}={secret}; seat_{table_id}=0"
        steps: dict[str, list[float]] = {"check secret, append, commit": [], "draw the stepper": [],
                                         "the region's context (view, history)": [],
                                         "its parts that changed, drawn": [], "kept for other processes": [],
                                         "(a first load) whole region": []}
        size = answer = drawn = 0
        with app.test_request_context(f"/t/{table_id}/events", method="POST", headers={"HX-Request": "true", "Cookie": cookie}):
            db = get_db()
            version = 0
            before = region.draw(app, tables.authorize(db, table_id, secret), None, lang, None,
                                 region.context_of(db, tables.authorize(db, table_id, secret), None))
            for i in range(rounds):
                type_, data = score_change(game_key, i)
                rest = {k: v for k, v in data.items() if k != "delta"}
                tap = steppers.Tap(steppers.stepper_id(type_, rest), "delta", "Score", 1)
                t0 = time.perf_counter()
                table = tables.append(db, table_id, {"type": type_, "data": data, "expected_version": version}, 0, secret=secret)
                t1 = time.perf_counter()
                alone = steppers.answer(tap, table, type_, data, None) if "delta" in data else None
                t2 = time.perf_counter()
                context = region.context_of(db, table, None)
                t3 = time.perf_counter()
                now = region.draw(app, table, None, lang, before, context)
                t4 = time.perf_counter()
                live._store(db, table_id, "|" + lang, now, sweep=False)  # as live.py keeps it (the claim aside)
                t5 = time.perf_counter()
                whole = region.draw(app, table, None, lang, None, context)
                t6 = time.perf_counter()
                size, drawn, before = len(whole.html), len(now.drawn), now
                version = table.version
                answer = len(alone or "")
                for name, start, end in zip(steps, (t0, t1, t2, t3, t4, t5), (t1, t2, t3, t4, t5, t6)):
                    steps[name].append(end - start)
    how = f"answered by its stepper ({answer} bytes)" if answer else "no stepper: answered with the whole region"
    print(f"{game_key}: one score change ({type_}), median of {rounds}; {how}; live region {size / 1024:.1f} KiB,"
          f" {drawn} of its {len(before.parts)} parts drawn at the last change (one language: {lang})")
    for name, seconds in steps.items():
        print(f"  {name:<30} {statistics.median(seconds) * 1000:6.2f} ms")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("game", nargs="?", default="gutenberg", help="the game's key (default gutenberg)")
    parser.add_argument("rounds", nargs="?", type=int, default=300, help="score changes timed (default 300)")
    parser.add_argument("--language", default="en", help="the language the region is drawn in (default en)")
    args = parser.parse_args()
    main(args.game, args.rounds, args.language)
