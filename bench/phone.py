"""A slow phone at the table: what a pushed change costs it, and where a Save leaves it (issues 28, 39). Prints figures.

    python bench/phone.py              # 6x CPU throttle, 8 changes 2.5 s apart, then the calculator's Save
    python bench/phone.py --rate 1     # the same phone unthrottled, for comparison
    python bench/phone.py --json phone.json

Debian's chromium (/usr/bin/chromium, or $CHROMIUM) driven by Playwright, against a real
`companion serve` (as bench/run.py starts it) on a fresh data folder. Everything
is measured at the network and CDP level, so it does not depend on how the page is built
(bench/README.md, "A slow phone", says it at length):

1. A 4-player Gutenberg table gets HISTORY events through the API; a 360 px phone (the test
   suite's) takes Anna's seat, its CPU slowed by CDP `Emulation.setCPUThrottlingRate`. Once its
   event stream delivers, 8 changes are made through the API, 2.5 s apart. For each: the KiB of
   SSE data it brought (Network.eventSourceMessageReceived, keep-alives left out); the main
   thread's work, from CDP Tracing (devtools.timeline): the tasks (`RunTask`, wall time, which
   the throttle stretches) from the one its message arrived in until the thread is idle (no task
   within IDLE_GAP_MS), with the longest of them, their thread time (`tdur`, "on the CPU": the
   figure to compare on a busy machine), and where the time went (issue 39): each task's direct
   parts by KIND (script, style, layout, paint), the rest "other", and the style and layout that
   script forced. Performance.getMetrics' TaskDuration is printed beside. A quiet stretch before
   the first change gives the page's own noise floor. The summary line:
       phone_main_ms=… phone_kib_per_change=… phone_longest_task_ms=… phone_main_cpu_ms=… hello_ms=…
   (medians over the changes; the longest task of them all; the hello of 3.)
2. A Gutenberg calculator table, the same phone: Anna's row filled in, its Save scrolled to 60%
   of the screen's height and tapped; once answered, two frames and 0.3 s later: scrollY and the
   Save's top before and after, and what has the focus.
3. The machine's bare hello, as bench/run.py measures it (bench/hello.py, served as `companion
   serve` serves the app): the median of HELLO_SAMPLES requests on one keep-alive connection.
   Issue 39 compares machines by it.

A measurement, not a test: it asserts nothing about speed. Every wait is bounded; the browser
and the server are closed on any error.
"""

from __future__ import annotations

import argparse
import bisect
import json
import os
import shutil
import statistics
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from urllib.parse import urlparse

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.client import Connection  # noqa: E402
from bench.run import HOST, PLAYERS, score_change, start_companion, start_hello  # noqa: E402

CHROMIUM = os.environ.get("CHROMIUM", shutil.which("chromium") or "/usr/bin/chromium")
#: the test suite's phone (tests/conftest.py PHONE)
PHONE = {"viewport": {"width": 360, "height": 740}, "device_scale_factor": 2, "is_mobile": True, "has_touch": True}
GAME = "gutenberg"
HISTORY = 120  # events of history before the page opens
IDLE_GAP_MS = 200.0  # a main thread with no task for this long is idle: the change's work ended
WAIT_S = 20.0  # the longest wait for anything (a server start, a page, a message)
TRACE_CATEGORIES = ["devtools.timeline", "disabled-by-default-devtools.timeline"]
#: one player's final-scoring row on a Gutenberg calculator table, by the names forms.py gives its fields
SHEET = {"fame": 31, "guilders": 14, "specialties.typesetting": 3, "specialties.woodcutting": 2,
         "specialties.binding": 1, "specialties.illuminating": 0, "patronage_cards": 2, "types": 5, "inks": 4}
#: where things are: scrollY, the element's top on the screen, and what has the focus
WHERE = """(selector) => { const el = document.querySelector(selector), a = document.activeElement;
  return {scrollY: scrollY, top: el ? el.getBoundingClientRect().top : null, height: document.documentElement.scrollHeight,
          focus: a ? {tag: a.tagName.toLowerCase(), name: a.getAttribute('name'), id: a.id || null,
                      text: (a.textContent || '').trim().slice(0, 40)} : null, focus_is_it: !!el && a === el}; }"""
TWO_FRAMES = "() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))"
HELLO_SAMPLES = 2000  # bare hello requests timed (after 200 not timed)
#: what a task's direct parts in the trace are: the page's script, or the frame's rendering steps
KIND = {"FunctionCall": "script", "EventDispatch": "script", "TimerFire": "script", "FireAnimationFrame": "script",
        "RunMicrotasks": "script", "ParseHTML": "script", "UpdateLayoutTree": "style", "Layout": "layout",
        "PrePaint": "paint", "Paint": "paint", "Layerize": "paint", "Commit": "paint"}
KINDS = ("script", "style", "layout", "paint", "other", "forced")


# --- the server -----------------------------------------------------------------------------


class Server:
    """`companion serve` as bench/run.py starts it (127.0.0.1, a free port), and the app's JSON API."""

    def __init__(self, data: Path):
        self.data, self.served, self.url = data, None, ""

    def start(self) -> "Server":
        self.served = start_companion(self.data)
        self.url = f"http://{HOST}:{self.served.port}"
        return self

    def api(self, path: str, doc: dict | None = None, token: str | None = None) -> dict:
        """One JSON call: POST doc (GET without one); an error answer raises urllib's HTTPError."""
        headers = {"Content-Type": "application/json", **({"X-Table-Token": token} if token else {})}
        request = urllib.request.Request(self.url + path, None if doc is None else json.dumps(doc).encode(), headers)
        with urllib.request.urlopen(request, timeout=10) as answer:
            return json.loads(answer.read())

    def stop(self) -> None:
        if self.served is not None:
            self.served.stop()


def change(server: Server, table: dict, i: int, version: int) -> int:
    """Make the i-th score change through the API on the table at `version`; return the new version."""
    type_, data = score_change(GAME, i)
    answer = server.api(f"/api/v1/tables/{table['table']}/events",
                        {"type": type_, "data": data, "expected_version": version}, table["token"])
    return answer["version"]


# --- the phone ------------------------------------------------------------------------------


def launch(playwright):
    """Debian's chromium, as the test suite launches it (no browser download)."""
    if not Path(CHROMIUM).exists():
        raise SystemExit(f"chromium not found at {CHROMIUM}: set $CHROMIUM to a Chromium or Chrome")
    return playwright.chromium.launch(
        executable_path=CHROMIUM,
        args=["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
              "--disable-component-update", "--disable-sync", "--disable-dev-shm-usage", "--disable-background-timer-throttling",
              "--disable-renderer-backgrounding", "--disable-backgrounding-occluded-windows"])


class Phone:
    """A 360 px page at a table, seated, its CPU throttled, with CDP listening to its network."""

    def __init__(self, browser, server: Server, table: dict, seat: str, rate: float):
        self.context = browser.new_context(**PHONE)
        self.page = self.context.new_page()
        self.page.set_default_timeout(WAIT_S * 1000)
        self.messages: list[dict] = []  # every SSE message: {ts (CDP, s), bytes, event, at (change index)}
        self.streams = 0  # EventSource responses received
        self.current = -1  # the change being made: the messages that arrive now are its
        # the session is the page's: it stays through the navigations below, throttling every one
        self.cdp = self.context.new_cdp_session(self.page)
        self.cdp.on("Network.eventSourceMessageReceived", self._message)
        self.cdp.on("Network.responseReceived", self._response)
        self.cdp.send("Network.enable")
        self.cdp.send("Performance.enable")
        self.cdp.send("Emulation.setCPUThrottlingRate", {"rate": rate})
        join = urlparse(table["join_url"])  # on a server listening on 127.0.0.1 alone, it names that address
        if join.hostname != "127.0.0.1":
            raise RuntimeError(f"join_url {table['join_url']} is not on loopback")
        self.page.goto(table["join_url"])
        take_seat(self.page, seat)

    def _message(self, params: dict) -> None:
        self.messages.append({"ts": params["timestamp"], "bytes": len(params.get("data", "").encode()),
                              "event": params.get("eventName", "message"), "at": self.current})

    def _response(self, params: dict) -> None:
        mime = (params.get("response") or {}).get("mimeType", "")
        if params.get("type") == "EventSource" or mime.startswith("text/event-stream"):
            self.streams += 1

    def wait_for(self, test, what: str) -> None:
        """Let the page (and Playwright's event dispatch) run until test() is true, at most WAIT_S."""
        deadline = time.monotonic() + WAIT_S
        while not test():
            if time.monotonic() > deadline:
                raise RuntimeError(f"no {what} within {WAIT_S:.0f} s")
            self.page.wait_for_timeout(20)

    def task_seconds(self) -> float:
        """The page's running total of main-thread task time (Performance.getMetrics TaskDuration), in seconds."""
        metrics = self.cdp.send("Performance.getMetrics")["metrics"]
        return next((m["value"] for m in metrics if m["name"] == "TaskDuration"), float("nan"))

    def pushes(self, at: int) -> list[dict]:
        return [m for m in self.messages if m["at"] == at and m["event"] != "alive"]

    def close(self) -> None:
        self.context.close()


def take_seat(page, name: str) -> None:
    """Tap "Who are you?" -> NAME and wait for the page the choice opens (as tests/conftest.py's take_seat)."""
    page.locator(".seat-chooser").get_by_role("button", name=name).click()
    page.wait_for_selector(".seat-chooser", state="detached")
    page.wait_for_selector("body[data-seat-chosen]", state="attached")
    page.wait_for_load_state("domcontentloaded")


# --- the trace ------------------------------------------------------------------------------


def main_thread(trace: dict, url: str) -> list[dict]:
    """Every complete event of the main thread of the renderer showing `url`, by start (the longest first)."""
    events = trace["traceEvents"] if isinstance(trace, dict) else trace
    pids = set()
    for e in events:  # the renderer process of the page's main frame, as the trace names it
        data = (e.get("args") or {}).get("data") or {}
        if e.get("name") == "TracingStartedInBrowser":
            pids |= {f["processId"] for f in data.get("frames", []) if not f.get("parent") and f.get("url", "").startswith(url)}
        elif e.get("name") == "FrameCommittedInBrowser" and data.get("url", "").startswith(url) and not data.get("parent"):
            pids.add(data.get("processId"))
    threads = {(e["pid"], e["tid"]) for e in events
               if e.get("ph") == "M" and e.get("name") == "thread_name" and e["args"].get("name") == "CrRendererMain"
               and (not pids or e["pid"] in pids)}
    return sorted((e for e in events if e.get("ph") == "X" and (e["pid"], e["tid"]) in threads),
                  key=lambda e: (e["ts"], -e.get("dur", 0)))


def main_thread_tasks(main: list[dict]) -> list[tuple[float, float, float]]:
    """(start, end, thread time) in microseconds of every top-level task of the main thread's events."""
    tasks = [(e["ts"], e["ts"] + e.get("dur", 0), e.get("tdur", float("nan"))) for e in main if e["name"] == "RunTask"]
    merged: list[tuple[float, float, float]] = []  # a task within another (a nested loop) is the other's time
    for start, end, cpu in tasks:
        if merged and start < merged[-1][1]:
            merged[-1] = (merged[-1][0], max(merged[-1][1], end), max(merged[-1][2], cpu))
        else:
            merged.append((start, end, cpu))
    return merged


def work_after(tasks: list[tuple[float, float, float]], at_us: float, until_us: float) -> dict:
    """The main thread's work from the task running at `at_us` (or the next one) until idle, at most until_us."""
    chosen: list[tuple[float, float, float]] = []
    for start, end, cpu in tasks:
        if end < at_us or start >= until_us:
            continue
        if chosen and start - chosen[-1][1] >= IDLE_GAP_MS * 1000:
            break
        chosen.append((start, end, cpu))
    if not chosen:
        return {"main_ms": 0.0, "cpu_ms": 0.0, "longest_task_ms": 0.0, "tasks": 0, "span_ms": 0.0, "in_task": False}
    return {"main_ms": sum(e - s for s, e, _ in chosen) / 1000, "cpu_ms": sum(c for *_, c in chosen) / 1000,
            "longest_task_ms": max(e - s for s, e, _ in chosen) / 1000,
            "tasks": len(chosen), "span_ms": (chosen[-1][1] - at_us) / 1000, "spans": [(s, e) for s, e, _ in chosen],
            # the message arrived within a traced task: the trace's clock and CDP's agree
            "in_task": chosen[0][0] <= at_us <= chosen[0][1]}


def time_by_kind(main: list[dict], spans: list[tuple[float, float]]) -> dict:
    """Within the tasks `spans`: ms by KIND of each task's direct parts (a part within another is the other's),
    "other" the rest of the tasks' time, and "forced" the style and layout done within script."""
    found, starts = dict.fromkeys(KINDS, 0.0), [e["ts"] for e in main]
    for start, end in spans:
        covered = script_end = start
        for e in main[bisect.bisect_left(starts, start):bisect.bisect_left(starts, end)]:
            kind, dur = KIND.get(e["name"]), e.get("dur", 0) / 1000
            if kind in ("style", "layout") and e["ts"] < script_end:
                found["forced"] += dur
            if kind is None or e["ts"] < covered:
                continue
            found[kind] += dur
            covered = e["ts"] + e.get("dur", 0)
            script_end = covered if kind == "script" else script_end
        found["other"] += (end - start) / 1000
    found["other"] -= sum(found[k] for k in KINDS[:4])
    return found


def tasks_between(tasks: list[tuple[float, float, float]], from_us: float, to_us: float) -> dict:
    """Every task's time within [from_us, to_us): the noise floor of a quiet page."""
    inside = [(max(s, from_us), min(e, to_us)) for s, e, _ in tasks if e > from_us and s < to_us]
    return {"main_ms": sum(e - s for s, e in inside) / 1000, "longest_task_ms": max((e - s for s, e in inside), default=0) / 1000,
            "tasks": len(inside)}


# --- the two parts --------------------------------------------------------------------------


def pushed_changes(browser, server: Server, rate: float, changes: int, gap_s: float, trace: bool = True) -> dict:
    """Part 1: a throttled phone on a 4-player Gutenberg table with history, `changes` changes made through the API."""
    table = server.api("/api/v1/tables", {"game": GAME, "players": PLAYERS})
    version = table["version"]
    for i in range(HISTORY):
        version = change(server, table, i, version)
    phone = Phone(browser, server, table, "Anna", rate)
    try:
        phone.wait_for(lambda: phone.streams > 0, "event stream opening (CDP Network.responseReceived, type EventSource)")
        page = phone.page
        page.wait_for_timeout(1000)  # the page's first load and its stream's opening settle
        phone.current = 0  # a first change, not measured: it shows the stream delivers, and warms the page's code
        version = change(server, table, HISTORY, version)
        phone.wait_for(lambda: phone.pushes(0), "SSE message after a change (CDP Network.eventSourceMessageReceived)")
        page.wait_for_timeout(gap_s * 1000)
        if trace:
            browser.start_tracing(page=page, categories=TRACE_CATEGORIES)
        totals = []  # TaskDuration before each stretch: the quiet one, then each change's
        try:
            phone.current = -2  # a quiet stretch, for the noise floor
            page.wait_for_timeout(100)
            totals.append(phone.task_seconds())
            quiet_from = time.monotonic()
            page.wait_for_timeout(gap_s * 1000)
            quiet_to = time.monotonic()
            for k in range(1, changes + 1):
                totals.append(phone.task_seconds())
                phone.current = k
                version = change(server, table, HISTORY + k, version)
                phone.wait_for(lambda: phone.pushes(k), f"SSE message after change {k}")
                page.wait_for_timeout(gap_s * 1000)
            totals.append(phone.task_seconds())
            phone.current = -3
        finally:
            traced = json.loads(browser.stop_tracing()) if trace else {"traceEvents": []}
        main = main_thread(traced, server.url)
        tasks = main_thread_tasks(main)
        rows = []
        for k in range(1, changes + 1):
            got = phone.pushes(k)
            at = min(m["ts"] for m in got) * 1e6
            nxt = phone.pushes(k + 1)
            until = min(m["ts"] for m in nxt) * 1e6 if nxt else at + gap_s * 1e6
            work = work_after(tasks, at, until)
            rows.append({"change": k, "messages": len(got), "kib": sum(m["bytes"] for m in got) / 1024,
                         "task_duration_ms": (totals[k + 1] - totals[k]) * 1000, **work,
                         "where": time_by_kind(main, work.pop("spans", []))})
        quiet = tasks_between(tasks, quiet_from * 1e6, quiet_to * 1e6)
        quiet["task_duration_ms"] = (totals[1] - totals[0]) * 1000
        clock_ok = all(r["in_task"] for r in rows) if trace else None
    finally:
        phone.close()
    return {"rate": rate, "history": HISTORY, "changes": rows, "quiet": quiet, "quiet_s": quiet_to - quiet_from,
            "main_tasks_traced": len(tasks), "clock_ok": clock_ok, "traced": trace, "version": version}


def calculator_save(browser, server: Server, rate: float) -> dict:
    """Part 2: a throttled phone fills Anna's row on a 4-player Gutenberg calculator table and taps Save."""
    table = server.api("/api/v1/tables", {"game": GAME, "players": PLAYERS, "calculator": True})
    phone = Phone(browser, server, table, "Anna", rate)
    try:
        page = phone.page
        form = 'form:has(input[name=type][value=sheet]):has(input[name="data.player:int"][value="0"])'
        save = form + " button[type=submit]"
        for name, value in SHEET.items():
            page.locator(f'{form} input[name="data.{name}:int"]').fill(str(value))
        page.evaluate("""(s) => { const el = document.querySelector(s);
                                  window.scrollBy(0, el.getBoundingClientRect().top - innerHeight * 0.6); }""", save)
        page.evaluate(TWO_FRAMES)
        before = page.evaluate(WHERE, save)
        with page.expect_response(lambda r: r.request.method == "POST" and f"/t/{table['table']}" in r.url) as answered:
            page.locator(save).first.click()
        status = answered.value.status
        page.evaluate(TWO_FRAMES)
        page.wait_for_timeout(300)
        after = page.evaluate(WHERE, save)
    finally:
        phone.close()
    return {"rate": rate, "status": status, "before": before, "after": after}


def hello_ms(samples: int = HELLO_SAMPLES) -> float:
    """Part 3: the median of `samples` bare hello requests on one keep-alive connection, in ms (bench/run.py's hello)."""
    hello = start_hello()
    conn = Connection(HOST, hello.port)
    try:
        timed = [conn.request("GET", "/").seconds for _ in range(200 + samples)][200:]  # the first 200 warm it up
    finally:
        conn.close()
        hello.stop()
    return statistics.median(timed) * 1000


# --- the run --------------------------------------------------------------------------------


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rate", type=float, default=6.0, help="CPU throttling rate (CDP Emulation.setCPUThrottlingRate), default 6")
    parser.add_argument("--changes", type=int, default=8, help="changes measured (default 8)")
    parser.add_argument("--gap", type=float, default=2.5, help="seconds between two changes (default 2.5)")
    parser.add_argument("--json", metavar="FILE", help="also write every figure to FILE as JSON")
    parser.add_argument("--no-trace", action="store_true",
                        help="no CDP tracing (what it costs the page): main-thread time from TaskDuration alone, "
                             "over each change's whole stretch, and no longest task")
    args = parser.parse_args(argv)
    from playwright.sync_api import sync_playwright

    print(f"load average at the start: {os.getloadavg()[0]:.2f} {os.getloadavg()[1]:.2f} {os.getloadavg()[2]:.2f} "
          f"({os.cpu_count()} cores)", flush=True)
    with tempfile.TemporaryDirectory(prefix="companion-phone-") as tmp:
        server = Server(Path(tmp) / "data").start()
        try:
            with sync_playwright() as p:
                browser = launch(p)
                try:
                    print(f"{browser.version} at {CHROMIUM}; phone 360 x 740, CPU throttled {args.rate:g}x", flush=True)
                    push = pushed_changes(browser, server, args.rate, args.changes, args.gap, not args.no_trace)
                    save = calculator_save(browser, server, args.rate)
                finally:
                    browser.close()
        finally:
            server.stop()

    rows = push["changes"]
    print(f"\npushed changes: a 4-player {GAME} table with {push['history']} events of history, "
          f"{len(rows)} changes made through the API {args.gap:g} s apart", flush=True)
    def where(w: dict) -> str:
        return ", ".join(f"{k} {w[k]:.1f}" for k in KINDS[:5]) + f" ms (style and layout forced by script {w['forced']:.1f})"
    for r in rows:
        traced = (f"main thread {r['main_ms']:6.1f} ms ({r['cpu_ms']:6.1f} on the CPU) in {r['tasks']:2d} task(s), "
                  f"longest {r['longest_task_ms']:6.1f} ms, "
                  f"idle {r['span_ms']:5.0f} ms after the message; " if push["traced"] else "")
        print(f"  change {r['change']}: {r['kib']:6.1f} KiB of SSE data in {r['messages']} message(s); {traced}"
              f"TaskDuration over its {args.gap:g} s {r['task_duration_ms']:6.1f} ms", flush=True)
        if push["traced"]:
            print(f"            where: {where(r['where'])}", flush=True)
    kib = statistics.median(r["kib"] for r in rows)
    duration = statistics.median(r["task_duration_ms"] for r in rows)
    q = push["quiet"]
    if push["traced"]:
        main_ms = statistics.median(r["main_ms"] for r in rows)
        longest = max(r["longest_task_ms"] for r in rows)
        cpu_ms = statistics.median(r["cpu_ms"] for r in rows)
        print(f"  median: {kib:.1f} KiB, main thread {main_ms:.1f} ms ({cpu_ms:.1f} on the CPU), longest task {statistics.median(r['longest_task_ms'] for r in rows):.1f} ms "
              f"(the longest of all: {longest:.1f} ms); TaskDuration {duration:.1f} ms", flush=True)
        print(f"  where (medians): {where({k: statistics.median(r['where'][k] for r in rows) for k in KINDS})}", flush=True)
        print(f"  noise floor, {push['quiet_s']:.1f} s with no change: main thread {q['main_ms']:.1f} ms in {q['tasks']} task(s) "
              f"(longest {q['longest_task_ms']:.1f} ms); TaskDuration {q['task_duration_ms']:.1f} ms", flush=True)
        if not push["clock_ok"]:
            print("  some message's arrival fell in no traced main-thread task: the trace's clock and CDP's did not line up, "
                  "or the renderer was not found; the main-thread figures are not to be read", flush=True)
    else:
        main_ms, longest, cpu_ms = duration, float("nan"), float("nan")
        print(f"  median: {kib:.1f} KiB, TaskDuration {duration:.1f} ms over a change's whole stretch (not traced: no longest task)", flush=True)
        print(f"  noise floor, {push['quiet_s']:.1f} s with no change: TaskDuration {q['task_duration_ms']:.1f} ms", flush=True)

    b, a = save["before"], save["after"]
    print(f"\ncalculator Save: Anna's row on a 4-player {GAME} calculator table, the Save at 60% of the screen, "
          f"answered {save['status']}", flush=True)
    print(f"  scrollY {b['scrollY']:.0f} -> {a['scrollY']:.0f}; the Save's top on the screen {b['top']:.0f} -> {a['top']:.0f} px; "
          f"the page's height {b['height']:.0f} -> {a['height']:.0f} px", flush=True)
    f = a["focus"] or {}
    print(f"  focus after: <{f.get('tag')}> name={f.get('name')!r} id={f.get('id')!r} text={f.get('text')!r}"
          f"{' (the Save itself)' if a['focus_is_it'] else ''}", flush=True)
    hello = hello_ms()
    print(f"\nbare hello (bench/hello.py, served as companion serve serves the app): median {hello:.3f} ms over {HELLO_SAMPLES}", flush=True)
    print(f"load average at the end: {' '.join(f'{x:.2f}' for x in os.getloadavg())}", flush=True)

    figures = {"push": push, "save": save, "phone_main_ms": main_ms, "phone_kib_per_change": kib, "phone_longest_task_ms": longest,
               "phone_main_cpu_ms": cpu_ms, "hello_ms": hello}
    if args.json:
        Path(args.json).write_text(json.dumps(figures, indent=2) + "\n")
    print(f"phone_main_ms={main_ms:.1f} phone_kib_per_change={kib:.1f} phone_longest_task_ms={longest:.1f} "
          f"phone_main_cpu_ms={cpu_ms:.1f} hello_ms={hello:.3f}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
