"""Each test's time limit: a test past it fails alone, and the run goes on to its summary (issue 38).

A test's limit is pytest-timeout's, as everyone sets it: `timeout` in pyproject.toml (30 s), the
longer `SLOW_TIMEOUT` tests/conftest.py gives a browser or server test, or a test's own
`@pytest.mark.timeout(N)`. This plugin enforces it in the test itself: a SIGALRM timer, armed
for each phase (set-up, call, tear-down) with what is left of the test's budget, raises
`TimedOut` in the main thread where the test runs, with every other thread's stack in its message.
pytest records that test as failed and runs the next one.

`TimedOut` is a BaseException, not an Exception, on purpose: hypothesis takes an Exception (and
pytest's own `Failed`, which pytest-timeout's "signal" method raises) for a failing example and
replays it to shrink it, which for a test stuck in a loop meant hanging again with no alarm left;
a BaseException it lets through at once (tests/foundation/test_suite_hygiene.py).

pytest-timeout stays as the backstop, with its "thread" method, at the limit plus `BACKSTOP_S`:
only a test stuck where no signal reaches it (inside C code that retries on EINTR) gets that
far, and then it stops the whole run printing every thread's stack, as before.
"""

from __future__ import annotations

import signal
import sys
import threading
import time
import traceback

import pytest

#: how long past a test's limit pytest-timeout ends the whole run (the test could not be interrupted)
BACKSTOP_S = 60
#: a test that ran out of time still gets this long to tear down (stop its servers, close its pages)
TEARDOWN_GRACE_S = 30

LIMIT = pytest.StashKey[float]()
DEADLINE = pytest.StashKey[float]()
_depth = 0  # an in-process inner pytest run (pytester) leaves the outer test's timer alone


class TimedOut(BaseException):
    """A test ran past its limit (a BaseException, so hypothesis does not replay it)."""


def limit_of(item: pytest.Item) -> float:
    """The test's limit in seconds, as pytest-timeout reads it: its marker, else --timeout, else the ini's."""
    marker = item.get_closest_marker("timeout")
    if marker is not None:
        value = marker.args[0] if marker.args else marker.kwargs.get("timeout")
        return float(value or 0)
    option = item.config.getoption("timeout", None)
    return float(option if option is not None else item.config.getini("timeout") or 0)


@pytest.hookimpl(trylast=True)  # after tests/conftest.py has given the slow tests their longer limit
def pytest_collection_modifyitems(config, items):
    """Keep each test's limit for the alarm, and move pytest-timeout's kill of the whole run past it."""
    for item in items:
        limit = limit_of(item)
        item.stash[LIMIT] = limit
        if limit:
            item.add_marker(pytest.mark.timeout(limit + BACKSTOP_S), append=False)


def _stacks() -> str:
    """Every thread's stack but the main one's (pytest prints that one as the failure's traceback)."""
    names = {thread.ident: thread.name for thread in threading.enumerate()}
    lines = []
    for ident, frame in sys._current_frames().items():
        if ident != threading.main_thread().ident:
            lines.append(f"--- thread {names.get(ident, ident)} ---\n" + "".join(traceback.format_stack(frame)))
    return "\n".join(lines)


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_runtest_protocol(item, nextitem):
    global _depth
    _depth += 1
    limit = item.stash.get(LIMIT, 0.0)
    if limit:
        item.stash[DEADLINE] = time.monotonic() + limit
    try:
        return (yield)
    finally:
        _depth -= 1


def _phase(item: pytest.Item, grace: float = 0.0):
    """Arm the alarm for one phase of `item` with what is left of its budget (at least `grace`), and disarm it after."""
    deadline = item.stash.get(DEADLINE, None)
    armed = (deadline is not None and _depth == 1 and threading.current_thread() is threading.main_thread()
             and hasattr(signal, "setitimer"))
    if not armed:
        return (yield)
    limit = item.stash[LIMIT]

    def expired(signum, frame):
        raise TimedOut(f"Timeout: {item.nodeid} ran past its limit of {limit:g} s (tests/timeouts.py); "
                       f"the other threads were at:\n{_stacks()}")

    previous = signal.signal(signal.SIGALRM, expired)
    signal.setitimer(signal.ITIMER_REAL, max(deadline - time.monotonic(), grace, 0.001))
    try:
        return (yield)
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_runtest_setup(item):
    return (yield from _phase(item))


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_runtest_call(item):
    return (yield from _phase(item))


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_runtest_teardown(item, nextitem):
    return (yield from _phase(item, grace=TEARDOWN_GRACE_S))
