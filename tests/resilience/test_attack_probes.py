"""No client, from however many addresses, takes the server from another phone (issue 40, Targets).

Each test runs one probe of bench/attacks.py as a subprocess, smaller than the bench's and with a
short attack: the script makes its own network namespace (`unshare -rn`), in which every address
of 2001:db8::/32 and 127.0.0.0/8 is this machine's, and starts a real `companion serve` (with an
open-file limit of 1024: a pool of 960 connections) and, through a proxy, Debian's Caddy (the
README's deploy/Caddyfile) or nginx. Another phone, from another network, GETs its table page on
a new connection every 0.25 s. The targets, with generous margins (the bench prints the figures
against the issue's 1 s):

- the other phone's page is answered 200 every time, each within 5 s, during the attack and
  after the attacker left;
- through Caddy or nginx, 10 addresses of one /64 create at most the creation limit in a minute;
- and the attack happened: the attacker's connections outnumbered the server's pool by 100 (it
  connected them all, and its streams were answered; the bench prints how many the server held),
  or its 10,000 pipelined requests were written.

Skipped, saying why, where unshare cannot make the namespace or Caddy or nginx is missing.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys

import pytest

from companion.serving import FD_HEADROOM
from tests.conftest import ROOT

pytestmark = pytest.mark.slow

#: the server's open-file limit in every probe (bench/attacks.py --files), and the pool it makes
FILES = 1024
POOL = FILES - FD_HEADROOM
#: the other phone's every page within this (the issue's target is 1 s: bench/attacks.py prints it)
GENEROUS_MS = 5000
#: the streams probes, smaller than the bench's; held longer than GENEROUS_MS, or a page that waited
#: for the attacker to leave would pass
STREAMS = ("--count", str(POOL + 140), "--seconds", "12", "--after", "4")


def namespace_missing() -> str | None:
    """Why the probes cannot run here, or None."""
    if shutil.which("unshare") is None:
        return "unshare (util-linux) is not installed"
    done = subprocess.run(["unshare", "-rn", "true"], capture_output=True, text=True, timeout=30)
    if done.returncode != 0:
        return f"unshare -rn cannot make a network namespace here: {done.stderr.strip()}"
    if shutil.which("ip") is None and not shutil.which("/usr/sbin/ip"):
        return "ip (iproute2) is not installed"
    return None


def tools_missing(*names: str) -> str | None:
    why = namespace_missing()
    if why:
        return why
    for name, path in (("caddy", "/usr/bin/caddy"), ("nginx", "/usr/sbin/nginx")):
        if name in names and shutil.which(name) is None and shutil.which(path) is None:
            return f"Debian's {name} is not installed (scripts/test.sh installs it)"
    return None


def probe(name: str, *options: str, needs: tuple[str, ...] = ()) -> dict:
    """Run one probe; print its summary; return its figures (the JSON line it printed)."""
    why = tools_missing(*needs)
    if why:
        pytest.skip(why)
    done = subprocess.run([sys.executable, str(ROOT / "bench" / "attacks.py"), "--probe", name, "--no-hello",
                           "--files", str(FILES), *options], cwd=ROOT, capture_output=True, text=True, timeout=200)
    print(done.stdout)
    assert done.returncode == 0, done.stderr[-3000:]
    lines = [line for line in done.stdout.splitlines() if line.startswith('{"probe"')]
    assert len(lines) == 1, done.stdout
    return json.loads(lines[0])


def assert_the_other_phone_was_answered(figures: dict) -> None:
    for phase in ("during", "after"):
        seen = figures["victim"][phase]
        assert seen["count"] >= 1, (phase, seen)
        assert seen["ok"] == seen["count"] and seen["max_ms"] < GENEROUS_MS, (phase, seen)
    assert figures["server_alive"] and figures["tracebacks"] == 0, figures


@pytest.mark.parametrize("name, needs", [pytest.param(name, needs, id=name) for name, needs in (
    ("caddy-6", ("caddy",)), ("caddy-64", ("caddy",)), ("streams-24", ()), ("streams-spread", ()), ("streams-150", ()))])
def test_streams_from_many_addresses_leave_another_phones_page_answered(name, needs):
    figures = probe(name, *STREAMS, needs=needs)
    attacker = figures["attacker"]
    # the attack happened: more connections than the pool holds, and streams answered on them
    assert attacker["connected"] >= POOL + 100, attacker
    assert attacker["statuses"].get("200", 0) >= 100, attacker
    assert_the_other_phone_was_answered(figures)


def test_slow_bodies_from_21_addresses_leave_another_phones_page_answered():
    figures = probe("slow-bodies", "--slow-seconds", "20", "--after", "4")
    attacker = figures["attacker"]
    # 1,260 sockets, each with a whole head and a body that drips: more than the pool holds
    assert attacker["sockets"] >= POOL + 100 and "connect failed" not in attacker["outcomes"], attacker
    assert_the_other_phone_was_answered(figures)


def test_one_addresss_10000_pipelined_requests_leave_another_phones_page_answered():
    figures = probe("pipeline", "--pipeline-seconds", "10", "--after", "4")
    attacker = figures["attacker"]
    assert attacker["connections"] == 200 and attacker["requests_written"] >= 9000, attacker
    assert_the_other_phone_was_answered(figures)


def test_ten_addresses_of_one_64_create_at_most_the_limit_through_caddy_and_nginx():
    figures = probe("creation", "--create-limit", "60/1", "--create-tries", "70", needs=("caddy", "nginx"))
    for kind in ("caddy", "nginx"):
        burst = figures[kind]
        assert burst["tries"] == 700, (kind, burst)
        assert burst["created"] <= 60, (kind, burst)
