"""What the result's image costs (issue 42): ms per image made cold and answered from the cache.

    python bench/result_image.py

Through a real `companion serve` (gevent's pywsgi, a fresh SQLite file) on 127.0.0.1: a finished
calculator table of every game (tests/GAME/examples.py's rows), then `GET /t/ID/result.png` as
the table's phone asks it. Cold: the first request of each table, language and theme (6 x 2 per
table, all distinct, so none is in the cache). Cached: the same image asked again and again. A
bare hello served the same way (bench/hello.py) is timed in the same run, one request at a time
on a kept-alive connection, and each figure is printed beside it with the ratio. These are
measurements: nothing here asserts a speed.

Then what drawing costs the other phones: while one client asks for cold images one after the
other (fresh tables, so each is drawn), another asks the server's `/healthz` (a read of the
database, no image) one at a time, and its times are printed against the same request's on an
idle server. The images are drawn on gevent's thread pool (companion/web/images.py `aside`): a
request that is not an image should barely notice them.
"""

from __future__ import annotations

import json
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.client import Connection  # noqa: E402
from bench.run import HOST, start_companion, start_hello  # noqa: E402
from companion import games  # noqa: E402
from companion.games import speech  # noqa: E402
from tests.examples import examples  # noqa: E402

CACHED = 200
HELLO = 500


def post(conn: Connection, path: str, doc: dict, token: str | None = None) -> dict:
    headers = {"Content-Type": "application/json", **({"X-Table-Token": token} if token else {})}
    answer = conn.request("POST", path, headers, json.dumps(doc).encode())
    if answer.status not in (200, 201):
        raise RuntimeError(f"{path} answered {answer.status}: {answer.body[:200]!r}")
    return json.loads(answer.body)


def finished_table(conn: Connection, key: str) -> dict:
    """A calculator table of the game's examples, every row in."""
    ex = examples(key)
    t = post(conn, "/api/v1/tables", {"game": key, "players": list(ex.CALCULATOR_NAMES), "calculator": True})
    version = t["version"]
    for type_, data in [*ex.CALCULATOR_SETUP, *(("sheet", row) for row in ex.CALCULATOR_ROWS)]:
        version = post(conn, f"/api/v1/tables/{t['table']}/events",
                       {"type": type_, "data": data, "expected_version": version}, t["token"])["version"]
    return t


def image(conn: Connection, t: dict, lang: str, theme: str) -> float:
    """One image's request; its time in ms."""
    answer = conn.request("GET", f"/t/{t['table']}/result.png?theme={theme}",
                          {"Cookie": f"tc_{t['table']}={t['token']}", "Accept-Language": lang})
    if answer.status != 200 or not answer.body.startswith(b"\x89PNG"):
        raise RuntimeError(f"the image answered {answer.status}")
    return answer.seconds * 1000


def main() -> None:
    hello = start_hello()
    conn = Connection(HOST, hello.port)
    try:
        for _ in range(50):
            conn.request("GET", "/")
        hello_ms = statistics.median(conn.request("GET", "/").seconds * 1000 for _ in range(HELLO))
    finally:
        conn.close()
        hello.stop()
    with tempfile.TemporaryDirectory(prefix="bench-image-") as data:
        served = start_companion(Path(data))
        conn = Connection(HOST, served.port)
        try:
            made = [finished_table(conn, key) for key in games.ORDER]
            cold = [image(conn, t, lang, theme) for t in made for lang in speech.LANGUAGES for theme in ("light", "dark")]
            cached = [image(conn, made[0], "en", "light") for _ in range(CACHED)]
            size = len(conn.request("GET", f"/t/{made[0]['table']}/result.png",
                                    {"Cookie": f"tc_{made[0]['table']}={made[0]['token']}"}).body)
            idle, busy, drawn = beside_images(served.port, conn)
        finally:
            conn.close()
            served.stop()
    cold_ms, cached_ms = statistics.median(cold), statistics.median(cached)
    print(f"hello: {hello_ms:.2f} ms per request (median of {HELLO})")
    print(f"image cold: {cold_ms:.1f} ms per image (median of {len(cold)}; max {max(cold):.1f}), "
          f"{cold_ms / hello_ms:.0f} x the hello")
    print(f"image cached: {cached_ms:.2f} ms per image (median of {CACHED}), {cached_ms / hello_ms:.1f} x the hello")
    print(f"image size: {size / 1024:.0f} KiB")
    print(f"another phone's request (/healthz) while {drawn} images were drawn: median {statistics.median(busy):.2f} ms, "
          f"p95 {quantile(busy, 0.95):.2f}, max {max(busy):.1f} (n={len(busy)}); on the idle server: median "
          f"{statistics.median(idle):.2f} ms, p95 {quantile(idle, 0.95):.2f}, max {max(idle):.1f}")
    print(f"image_cold_ms={cold_ms:.1f} image_cached_ms={cached_ms:.2f} hello_ms={hello_ms:.2f} "
          f"cold_ratio={cold_ms / hello_ms:.0f} cached_ratio={cached_ms / hello_ms:.1f} "
          f"beside_images_p95_ms={quantile(busy, 0.95):.2f} idle_p95_ms={quantile(idle, 0.95):.2f}")


def quantile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def beside_images(port: int, conn: Connection) -> tuple[list[float], list[float], int]:
    """/healthz's times on an idle server, then while another client asks for cold images; and how many."""
    other = Connection(HOST, port)
    try:
        idle = [other.request("GET", "/healthz").seconds * 1000 for _ in range(300)]
        fresh = [finished_table(conn, key) for key in games.ORDER]  # not drawn yet: every image is cold
        drawn, done = [0], threading.Event()

        def draw() -> None:
            drawer = Connection(HOST, port)
            try:
                for t in fresh:
                    for lang in speech.LANGUAGES:
                        for theme in ("light", "dark"):
                            image(drawer, t, lang, theme)
                            drawn[0] += 1
            finally:
                drawer.close()
                done.set()

        worker = threading.Thread(target=draw)
        worker.start()
        busy = []
        while not done.is_set():
            busy.append(other.request("GET", "/healthz").seconds * 1000)
            time.sleep(0.005)
        worker.join()
        return idle, busy, drawn[0]
    finally:
        other.close()


if __name__ == "__main__":
    main()
