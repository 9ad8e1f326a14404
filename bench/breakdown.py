"""Where a score change's time goes, step by step, inside the process (no server, no network).

    python bench/breakdown.py [GAME] [ROUNDS]

Appends ROUNDS score changes (default 300) to a table of four in a temporary SQLite file, the
way the table page's form does, timing each step; prints the medians.
"""

from __future__ import annotations

import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.run import PLAYERS, score_change  # noqa: E402
from companion import create_app, games, tables  # noqa: E402
from companion.web import get_db, render  # noqa: E402
from companion.web import tables as pages  # noqa: E402


def main(game_key: str = "gutenberg", rounds: int = 300) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        app = create_app({"DATA_DIR": tmp})
        players = PLAYERS[: games.get(game_key).max_players]
        created = app.test_client().post("/api/v1/tables", json={"game": game_key, "players": players}).get_json()
        table_id = created["table"]
        cookie = f"tc_{table_id}={created['token']}; seat_{table_id}=0"
        steps: dict[str, list[float]] = {"authorize": [], "append and commit": [], "context": [], "render live region": []}
        size = 0
        with app.test_request_context(f"/t/{table_id}/events", method="POST", headers={"HX-Request": "true", "Cookie": cookie}):
            db = get_db()
            for i in range(rounds):
                type_, data = score_change(game_key, i)
                t0 = time.perf_counter()
                current = pages.current_table(table_id)
                t1 = time.perf_counter()
                table = tables.append(db, table_id, {"type": type_, "data": data, "expected_version": current.version}, 0)
                t2 = time.perf_counter()
                context = pages.table_context(table)
                t3 = time.perf_counter()
                size = len(render.render_block("tables/table.html", "live", **context))
                t4 = time.perf_counter()
                for name, start, end in zip(steps, (t0, t1, t2, t3), (t1, t2, t3, t4)):
                    steps[name].append(end - start)
    print(f"{game_key}: one score change ({type_}), median of {rounds}, live region {size / 1024:.1f} KiB")
    for name, seconds in steps.items():
        print(f"  {name:<20} {statistics.median(seconds) * 1000:6.2f} ms")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "gutenberg", int(sys.argv[2]) if len(sys.argv) > 2 else 300)
