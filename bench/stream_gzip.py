"""Would compressing the event stream pay? Prints the memory a stream's compressor holds against the bytes it saves.

    python bench/stream_gzip.py            # about a minute
    python bench/stream_gzip.py --quick    # fewer compressors and repeats

The server gzips pages, fragments and static files (companion/web/compress.py) but not the
event stream, `GET /t/ID/events`: a stream lives as long as the phone watches, so its
compressor would be held all that time, one per phone, and the hall holds thousands. This
prints what each way of compressing it would cost and save, on realistic pushes:

(a) today's push, the whole live region of a 4-player Gutenberg table with 120 events of
    history (about 70 KB raw), for successive changes;
(b) small pushes of 2-8 KB, the parts of that region a change touches: the changed player's
    card, the scoreboard, the history list, and the three together.

Each payload is framed as push.event frames it. Two ways to compress a stream:
- "alone": each event compressed by itself, from an empty dictionary (a full flush): its bytes
  do not depend on the stream, so a server could compress each version once for every phone,
  and no stream holds a compressor between events;
- "shared": one compressor per stream, flushed after each event (Z_SYNC_FLUSH): later events
  find matches in earlier ones, but the compressor (its window and hash tables) lives as long
  as the stream, and each event is compressed once per stream.
Memory is measured two ways over many compressors at each zlib setting (wbits: the window;
memLevel: the hash tables): what tracemalloc sees zlib allocate, and the process's resident
memory after each compressor has compressed one event of the payload (a fresh process for
each setting). Nothing here asserts anything: it prints figures.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import time
import tracemalloc
import zlib
from pathlib import Path
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from companion.web.compress import PAGE_LEVEL as LEVEL  # noqa: E402  the level pages and fragments get

PLAYERS = ["Anna", "Tom", "Kate", "Ben"]
HISTORY_EVENTS = 120
CHANGES = 12  # successive pushes measured after the history
#: (wbits, memLevel): zlib's default first, then smaller windows and tables
SETTINGS = [(15, 9), (15, 8), (14, 8), (13, 7), (12, 6), (11, 5), (10, 4), (9, 2), (9, 1)]


def regions(changes: int = CHANGES) -> list[tuple[int, str, int]]:
    """Return (version, live region, player changed) after each of the last `changes` score changes of a
    4-player Gutenberg table that has HISTORY_EVENTS events, through the app's own API and poll."""
    from bench.run import score_change
    from companion import create_app

    app = create_app({"DATA_DIR": tempfile.mkdtemp(prefix="stream-gzip-"), "TESTING": True})
    client = app.test_client()
    t = client.post("/api/v1/tables", json={"game": "gutenberg", "players": PLAYERS}).get_json()
    token = {"X-Table-Token": t["token"]}
    client.get(urlsplit(t["join_url"]).path)  # the phone's cookie
    version, found = t["version"], []
    for i in range(HISTORY_EVENTS + changes):
        type_, data = score_change("gutenberg", i)
        answer = client.post(f"/api/v1/tables/{t['table']}/events", headers=token,
                             json={"type": type_, "data": data, "expected_version": version})
        assert answer.status_code in (200, 201), answer.get_data(as_text=True)
        version = answer.get_json()["version"]
        if i >= HISTORY_EVENTS:
            live = client.get(f"/t/{t['table']}/live")
            assert live.status_code == 200, live.status_code
            found.append((version, live.get_data(as_text=True), data["player"]))
    return found


def element(html: str, marker: str) -> str:
    """Return the element whose start tag contains `marker`, up to its own closing tag."""
    start = html.index(marker)
    start = html.rindex("<", 0, start)
    name = re.match(r"<([a-z0-9]+)", html[start:]).group(1)
    depth, at = 0, start
    for tag in re.finditer(rf"<(/?){name}\b[^>]*>", html[start:]):
        depth += -1 if tag.group(1) else 1
        if depth == 0:
            return html[start:start + tag.end()]
    raise ValueError(marker)


def payloads(found) -> dict[str, list[bytes]]:
    """Return each kind's successive events, framed as the stream frames them."""
    from companion.web.push import event

    kinds: dict[str, list[bytes]] = {"(a) whole live region": [], "(b) player's card": [], "(b) scoreboard": [],
                                     "(b) history list": [], "(b) card+scoreboard+history": []}
    for version, html, player in found:
        card = element(html, f'id="player-{player}"')
        board = element(html, 'class="players-line scoreboard"')
        history = element(html, 'id="history"')
        for kind, part in zip(kinds, (html, card, board, history, card + board + history)):
            kinds[kind].append(event(version, part))
    return kinds


def alone(events: list[bytes], wbits: int, mem: int, level: int = LEVEL) -> list[int]:
    """Bytes each event takes compressed by itself (a fresh dictionary, as after a full flush)."""
    sizes = []
    for data in events:
        c = zlib.compressobj(level, zlib.DEFLATED, -wbits, mem)
        sizes.append(len(c.compress(data) + c.flush(zlib.Z_SYNC_FLUSH)))
    return sizes


def shared(events: list[bytes], wbits: int, mem: int, level: int = LEVEL) -> list[int]:
    """Bytes each event takes through one compressor kept across the stream, sync-flushed after each."""
    c = zlib.compressobj(level, zlib.DEFLATED, -wbits, mem)
    return [len(c.compress(data) + c.flush(zlib.Z_SYNC_FLUSH)) for data in events]


def traced_kib(wbits: int, mem: int, count: int) -> float:
    """KiB that tracemalloc sees allocated per compressor, `count` of them alive at once."""
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    held = [zlib.compressobj(LEVEL, zlib.DEFLATED, -wbits, mem) for _ in range(count)]
    after = tracemalloc.get_traced_memory()[0]
    tracemalloc.stop()
    del held
    return (after - before) / count / 1024


def rss_kib() -> float:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 1024


def resident_kib(wbits: int, mem: int, count: int, payload: Path) -> float:
    """KiB of resident memory per compressor, each having compressed one event, in a fresh process."""
    out = subprocess.run([sys.executable, __file__, "--resident", str(wbits), str(mem), str(count), str(payload)],
                         capture_output=True, text=True, check=True)
    return float(out.stdout)


def resident_child(wbits: int, mem: int, count: int, payload: Path) -> None:
    data = payload.read_bytes()
    before = rss_kib()
    held = []
    for _ in range(count):
        c = zlib.compressobj(LEVEL, zlib.DEFLATED, -wbits, mem)
        c.compress(data)
        c.flush(zlib.Z_SYNC_FLUSH)
        held.append(c)
    print((rss_kib() - before) / count)


def micros(function, repeat: int) -> float:
    """Best of three runs of `repeat` calls, in microseconds a call."""
    best = float("inf")
    for _ in range(3):
        start = time.perf_counter()
        for _ in range(repeat):
            function()
        best = min(best, (time.perf_counter() - start) / repeat)
    return best * 1e6


def mean(values) -> float:
    values = list(values)
    return sum(values) / len(values)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="fewer compressors and repeats")
    parser.add_argument("--resident", nargs=4, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.resident:
        wbits, mem, count, payload = args.resident
        resident_child(int(wbits), int(mem), int(count), Path(payload))
        return
    count = 200 if args.quick else 1000
    repeat = 20 if args.quick else 100

    print(f"building a 4-player Gutenberg table with {HISTORY_EVENTS} events, then {CHANGES} more changes ...", flush=True)
    kinds = payloads(regions())
    region = kinds["(a) whole live region"]

    print("\npayloads (raw bytes an event, framed as push.event frames it):")
    for kind, events in kinds.items():
        print(f"  {kind:<30} {mean(map(len, events)):8.0f} B  (min {min(map(len, events))}, max {max(map(len, events))})")

    print(f"\ngzip of one live region ({len(region[-1])} B) at each level, as compress.py sends a page or fragment")
    for level in (1, 2, 3, 4, 5, 6, 9):
        size = len(zlib.compress(region[-1], level))
        took = micros(lambda: zlib.compress(region[-1], level), repeat)
        print(f"  level {level}: {size:6d} B ({size / len(region[-1]):5.1%}), {took:7.0f} µs")
    try:
        import brotli
    except ImportError:
        print("  brotli: not installed")
    else:
        for quality in (1, 4, 5):
            size = len(brotli.compress(region[-1], quality=quality))
            took = micros(lambda: brotli.compress(region[-1], quality=quality), repeat)
            print(f"  brotli quality {quality}: {size:6d} B ({size / len(region[-1]):5.1%}), {took:7.0f} µs")

    with tempfile.NamedTemporaryFile(suffix=".sse", delete=False) as f:
        f.write(region[-1])
        payload = Path(f.name)
    print(f"\nmemory one stream's compressor holds, over {count} compressors (level {LEVEL}):")
    print(f"  {'wbits':>5} {'memLevel':>8} {'traced KiB':>10} {'resident KiB':>12} {'5,000 streams MiB':>17}")
    memory = {}
    for wbits, mem in SETTINGS:
        traced = traced_kib(wbits, mem, count)
        resident = resident_kib(wbits, mem, count, payload)
        memory[wbits, mem] = traced
        print(f"  {wbits:>5} {mem:>8} {traced:10.1f} {resident:12.1f} {traced * 5000 / 1024:17.0f}")
    payload.unlink()

    print(f"\nbytes an event, mean over {CHANGES} successive changes (first one left out of 'shared'), level {LEVEL}:")
    print(f"  {'payload':<30} {'wbits':>5} {'mem':>3} {'raw':>7} {'alone':>7} {'shared':>7} {'saved alone':>11} "
          f"{'saved shared':>12} {'shared, B saved per KiB held':>28}")
    for kind, events in kinds.items():
        raw = mean(map(len, events[1:]))
        for wbits, mem in SETTINGS:
            one = mean(alone(events, wbits, mem)[1:])
            kept = mean(shared(events, wbits, mem)[1:])
            print(f"  {kind:<30} {wbits:>5} {mem:>3} {raw:7.0f} {one:7.0f} {kept:7.0f} {raw - one:11.0f} "
                  f"{raw - kept:12.0f} {(one - kept) / memory[wbits, mem]:28.1f}")

    print(f"\nCPU an event at wbits 15, memLevel 8 (µs; 'alone' is paid once per version, 'shared' once per stream):")
    for kind, events in kinds.items():
        for level in (LEVEL, 6):
            one = micros(lambda: alone(events[-1:], 15, 8, level), repeat)
            print(f"  {kind:<30} level {level}: {one:7.0f} µs")
    print("\nsummary: " + json.dumps({kind: {"raw": round(mean(map(len, ev))), "alone_15_8": round(mean(alone(ev, 15, 8)[1:])),
                                             "shared_15_8": round(mean(shared(ev, 15, 8)[1:]))} for kind, ev in kinds.items()}))


if __name__ == "__main__":
    main()
