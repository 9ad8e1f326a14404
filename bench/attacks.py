"""Attack probes (issue 40): does another phone's page still answer while one client, from many addresses, attacks? Prints figures.

    python bench/attacks.py                       # every probe, one after the other (about 4 minutes)
    python bench/attacks.py --probe caddy-6       # one of them (--list names them)
    python bench/attacks.py --probe streams-spread --count 1200 --seconds 10

The script runs itself again inside a network namespace of its own (`unshare -rn`), where every
address of 2001:db8::/32 and of 127.0.0.0/8 is this machine's: each client binds the source
address it stands for. Each probe starts a fresh `companion serve` (this checkout's) on 127.0.0.1,
with default limits (as the README hosts it) and an open-file limit of --files (1024: a pool of
960 connections), and, for the probes through a proxy, Debian's Caddy (deploy/Caddyfile, served
over plain HTTP on [::1]) or nginx in front with `serve --proxy 1`:

- caddy-6, caddy-64: through Caddy, one client from 6 (64) /64 blocks of one /48 opens event
  streams round-robin, as many as it can up to --count sockets, and holds them for --seconds
  (while one waits a second unanswered, it opens 25 a second more, closing its oldest waiting
  one at --count: attack_clients.hold_streams); then it closes them all;
- streams-24, streams-spread: on loopback, the same from 50 addresses of one /24 (127.0.0.x), or
  of 50 /24s (127.N.0.1); streams-150: from 150 /24s, a few streams each;
- slow-bodies: on loopback, 60 sockets from each of 21 addresses (127.N.0.1) POST a tap's head
  whole with Content-Length: 5000, then send one byte of the body every 5 s, for --slow-seconds
  (one closed or answered connects again);
- pipeline: on loopback, one address opens 200 connections, writes 50 requests for its table's
  page down each in one go, and never reads, for --pipeline-seconds;
- creation: 10 addresses of one /64 create tables through Caddy, then through nginx (fresh
  servers, `--proxy 1`, --create-limit), 70 tries each, for at most a minute.

Meanwhile another phone, from another network (another /48, another /24), which made and joined
its own table first, opens a new connection every 0.25 s and GETs its table page (10 s timeout):
quiet (2 s), during the attack, and for --after s once the attacker has left. Each probe prints a
readable summary, then one JSON line of its figures (`{"probe": ...}`); the run starts with
`uptime` and the bare hello's CPU a request (bench/hello.py), and ends with `uptime`. Figures only;
tests/resilience/test_attack_probes.py runs each probe smaller and checks the issue's targets.
"""

from __future__ import annotations

import argparse
import asyncio
import ctypes
import http.client
import json
import math
import os
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.nginx import nginx_conf, nginx_proxy  # noqa: E402
from bench.attack_clients import (VICTIM_TIMEOUT_S, Victim, create_burst, fetch, hold_streams,  # noqa: E402
                                  namespace_ready, new_table, pipelined, sixty_fours, slow_bodies)

CADDY = shutil.which("caddy") or "/usr/bin/caddy"
NGINX = shutil.which("nginx") or "/usr/sbin/nginx"
#: the server behind the proxy listens here, as the README's unit does
UPSTREAM_HOST = "127.0.0.1"
#: the other phone: another /48 than every IPv6 attacker, another /24 than every IPv4 one
VICTIM_V6, VICTIM_V4 = "2001:db8:ffff::1", "127.250.0.1"


# --- processes ------------------------------------------------------------------------------------


class Process:
    """A process this script started: killed with it (PR_SET_PDEATHSIG), stopped at the end of its probe."""

    def __init__(self, argv: list[str], log: Path, files: int | None = None, **kw):
        self.log, self.port = log, 0

        def prepare() -> None:
            ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG: never outlives us
            if files:
                resource.setrlimit(resource.RLIMIT_NOFILE, (files, files))

        with open(log, "ab") as out:
            self.popen = subprocess.Popen(argv, stdout=out, stderr=subprocess.STDOUT, preexec_fn=prepare, **kw)

    def stop(self) -> None:
        if self.popen.poll() is None:
            self.popen.terminate()
            try:
                self.popen.wait(10)
            except subprocess.TimeoutExpired:
                self.popen.kill()
                self.popen.wait(10)

    def cpu_seconds(self) -> float:
        fields = Path(f"/proc/{self.popen.pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def sockets(self) -> int:
        """The sockets the process holds open now (its listening one too)."""
        count = 0
        for fd in Path(f"/proc/{self.popen.pid}/fd").iterdir():
            try:
                count += os.readlink(fd).startswith("socket:")
            except OSError:  # closed meanwhile
                pass
        return count

    def wait_answer(self, host: str, path: str, what: str) -> None:
        ends = time.monotonic() + 30
        while time.monotonic() < ends:
            if self.popen.poll() is not None:
                break
            try:
                if fetch(host, self.port, "GET", path, host, timeout=2)[0] == 200:
                    return
            except (OSError, http.client.HTTPException):
                time.sleep(0.05)
        raise RuntimeError(f"{what} did not answer on {self.port}: {self.log.read_text(errors='replace')[-2000:]}")


def free_port(host: str) -> int:
    """A free port: nobody else runs in this namespace, so it stays free."""
    import socket

    with socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET) as sock:
        sock.bind((host, 0))
        return sock.getsockname()[1]


def companion(started: list, folder: Path, files: int, *args: str) -> Process:
    """`companion serve` on 127.0.0.1, default limits but `args`, under an open-file limit of `files`."""
    folder.mkdir(parents=True)
    port = free_port(UPSTREAM_HOST)
    process = Process([sys.executable, "-m", "companion", "serve", "--host", UPSTREAM_HOST, "--port", str(port),
                       "--data", str(folder / "data"), "--quiet", *args], folder / "serve.log", files=files, cwd=ROOT,
                      env={**os.environ, "PYTHONUNBUFFERED": "1", "PYTHONPATH": str(ROOT)})
    started.append(process)
    process.port = port
    process.wait_answer(UPSTREAM_HOST, "/healthz", "companion serve")
    return process


def caddyfile(port: int, upstream: int) -> str:
    """deploy/Caddyfile as the README hosts it (the health check, the log's filter, the unbuffered
    stream), with the site at http://[::1]:PORT and no admin endpoint nor certificates."""
    text = (ROOT / "deploy" / "Caddyfile").read_text()
    swaps = [("\n{\n", "\n{\n\tadmin off\n\tauto_https off\n"),
             ("\nYOUR.HOST.NAME {\n", f"\nhttp://[::1]:{port} {{\n\tbind ::1\n"),
             ("127.0.0.1:8000", f"127.0.0.1:{upstream}")]
    for old, new in swaps:
        if old not in text:
            raise RuntimeError(f"deploy/Caddyfile no longer holds {old!r}")
        text = text.replace(old, new, 1)
    return text


def proxy(started: list, kind: str, folder: Path, upstream: int) -> Process:
    """Debian's Caddy or nginx on [::1] in front of the server on `upstream`."""
    folder.mkdir(parents=True)
    port = free_port("::1")
    if kind == "caddy":
        (folder / "Caddyfile").write_text(caddyfile(port, upstream))
        env = {**os.environ, "HOME": str(folder), "XDG_DATA_HOME": str(folder / "data"),
               "XDG_CONFIG_HOME": str(folder / "config")}
        argv = [CADDY, "run", "--config", str(folder / "Caddyfile"), "--adapter", "caddyfile"]
    else:
        # nginx's reverse proxy, as tests/resilience/test_proxy.py runs it, on [::1]; as the namespace's root
        # (nginx's default user, nobody, has no id in it: its temporary folders could not be given to it)
        (folder / "nginx.conf").write_text(nginx_conf(folder, nginx_proxy(f"[::1]:{port}", upstream), connections=4096,
                                                      user="root"))
        env, argv = None, [NGINX, "-p", str(folder), "-c", str(folder / "nginx.conf"), "-e", str(folder / "error.log")]
    process = Process(argv, folder / f"{kind}.log", cwd=folder, env=env)
    started.append(process)
    process.port = port
    process.wait_answer("::1", "/healthz", kind)
    return process


# --- a probe: the other phone timed around an attack ------------------------------------------------


def timed(server: Process, victim: Victim, attack, after_s: float, quiet_s: float = 2) -> dict:
    """Time the other phone quiet, during `attack()` (which returns the attacker's figures) and for
    `after_s` once it has returned; the server's CPU and its most sockets meanwhile."""
    peak, stop = [server.sockets()], threading.Event()

    def count_sockets() -> None:
        while not stop.wait(0.5):
            try:
                peak.append(server.sockets())
            except OSError:  # the server ended
                return

    victim.start()
    time.sleep(quiet_s)
    began, cpu = time.monotonic(), server.cpu_seconds()
    counter = threading.Thread(target=count_sockets, daemon=True)
    counter.start()
    try:
        attacker = attack()
    finally:
        left = time.monotonic()
        stop.set()
    cpu = server.cpu_seconds() - cpu
    time.sleep(after_s)
    still = server.sockets() - 1
    victim.done.set()
    victim.join(VICTIM_TIMEOUT_S + 5)
    return {"attacker": attacker, "attack_s": round(left - began, 1), "server_cpu_s": round(cpu, 1),
            "server_sockets_most": max(peak) - 1, "server_sockets_after": still,
            "victim": {"quiet": victim.between(0, began), "during": victim.between(began, left),
                       "after": victim.between(left, math.inf)}}


def streams_probe(args, started: list, folder: Path, sources: list[str], through_caddy: bool) -> dict:
    server = companion(started, folder / "companion", args.files, *(["--proxy", "1"] if through_caddy else []))
    host, port, mine = UPSTREAM_HOST, server.port, VICTIM_V4
    if through_caddy:
        host, port, mine = "::1", proxy(started, "caddy", folder / "caddy", server.port).port, VICTIM_V6
    theirs, own = new_table(host, port, sources[0]), new_table(host, port, mine)
    attack = lambda: asyncio.run(hold_streams(host, port, sources, theirs, args.count, args.seconds))  # noqa: E731
    return {**timed(server, Victim(host, port, mine, own), attack, args.after), "sources": len(sources)}


def caddy_6(args, started, folder):
    """through Caddy (--proxy 1): streams from 6 /64s of one /48"""
    return streams_probe(args, started, folder, sixty_fours("2001:db8:1::/48", 6), True)


def caddy_64(args, started, folder):
    """through Caddy (--proxy 1): streams from 64 /64s of one /48"""
    return streams_probe(args, started, folder, sixty_fours("2001:db8:1::/48", 64), True)


def streams_24(args, started, folder):
    """loopback: streams from 50 addresses of one /24"""
    return streams_probe(args, started, folder, [f"127.0.0.{10 + i}" for i in range(50)], False)


def streams_spread(args, started, folder):
    """loopback: streams from 50 addresses in 50 /24s"""
    return streams_probe(args, started, folder, [f"127.{1 + i}.0.1" for i in range(50)], False)


def slow_bodies_probe(args, started, folder):
    """loopback: slow bodies (Content-Length 5000, a byte every 5 s) from 21 addresses in 21 /24s"""
    server = companion(started, folder / "companion", args.files)
    sources = [f"127.{1 + i}.0.1" for i in range(21)]
    theirs, own = new_table(UPSTREAM_HOST, server.port, sources[0]), new_table(UPSTREAM_HOST, server.port, VICTIM_V4)
    attack = lambda: asyncio.run(slow_bodies(UPSTREAM_HOST, server.port, sources, args.per_source, theirs,  # noqa: E731
                                             5000, 5, args.slow_seconds))
    return timed(server, Victim(UPSTREAM_HOST, server.port, VICTIM_V4, own), attack, args.after)


def pipeline_probe(args, started, folder):
    """loopback: one address writes 50 pipelined page requests down each of 200 connections, never reads"""
    server = companion(started, folder / "companion", args.files)
    source = "127.0.0.10"
    theirs, own = new_table(UPSTREAM_HOST, server.port, source), new_table(UPSTREAM_HOST, server.port, VICTIM_V4)
    attack = lambda: pipelined(UPSTREAM_HOST, server.port, source, args.connections, args.requests,  # noqa: E731
                               f"/t/{theirs['table']}", theirs["cookie"], args.pipeline_seconds)
    return timed(server, Victim(UPSTREAM_HOST, server.port, VICTIM_V4, own), attack, args.after)


def creation_probe(args, started, folder):
    """10 addresses of one /64 create tables through Caddy and through nginx (--proxy 1)"""
    sources = [f"2001:db8:c:1::{i + 1:x}" for i in range(10)]
    found = {"create_limit": args.create_limit}
    for kind in ("caddy", "nginx"):
        server = companion(started, folder / f"companion-{kind}", args.files, "--proxy", "1",
                           "--create-limit", args.create_limit)
        front = proxy(started, kind, folder / kind, server.port)
        found[kind] = create_burst("::1", front.port, sources, args.create_tries, 60)
    return found


def streams_150(args, started: list, folder: Path) -> dict:
    """loopback: streams from 150 addresses in 150 /24s, a few each (found by review: the fair pool then had a floor)"""
    return streams_probe(args, started, folder, [f"127.{1 + i}.0.1" for i in range(150)], False)


PROBES = {"caddy-6": caddy_6, "caddy-64": caddy_64, "streams-24": streams_24, "streams-spread": streams_spread,
          "streams-150": streams_150,
          "slow-bodies": slow_bodies_probe, "pipeline": pipeline_probe, "creation": creation_probe}


# --- what is printed ------------------------------------------------------------------------------


def victim_line(phase: str, v: dict) -> str:
    return (f"  other phone {phase:6}: n={v['count']} answered={v['ok']} p50={v['p50_ms']} p95={v['p95_ms']}"
            f" max={v['max_ms']} ms; over 1 s or not 200: {v['over_1s']}; timed out: {v['timed_out']}; {v['statuses']}")


def summary(name: str, doc: str, figures: dict) -> list[str]:
    lines = [f"{name}: {doc}"]
    if "victim" in figures:
        lines.append(f"  attacker ({figures['attack_s']} s): {json.dumps(figures['attacker'])}")
        lines += [victim_line(phase, figures["victim"][phase]) for phase in ("quiet", "during", "after")]
        lines.append(f"  server: {figures['server_cpu_s']} s of CPU during the attack, at most"
                     f" {figures['server_sockets_most']} connections ({figures['server_sockets_after']} at the end);"
                     f" {figures['tracebacks']} tracebacks in its log")
    for kind in ("caddy", "nginx"):
        if kind in figures:
            lines.append(f"  through {kind}: created {figures[kind]['created']} of {figures[kind]['tries']} tries in"
                         f" {figures[kind]['seconds']} s (limit {figures['create_limit']}): {figures[kind]['statuses']}")
    return lines


def uptime() -> str:
    return subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()


def run_probe(name: str, args) -> dict:
    started: list[Process] = []
    folder = Path(tempfile.mkdtemp(prefix=f"attack-{name}-"))
    try:
        figures = PROBES[name](args, started, folder)
        logs = [p.log.read_text(errors="replace") for p in started if p.log.name == "serve.log"]
        figures["tracebacks"] = sum(text.count("Traceback") for text in logs)
        figures["server_alive"] = all(p.popen.poll() is None for p in started if p.log.name == "serve.log")
    finally:
        for process in reversed(started):
            process.stop()
        shutil.rmtree(folder, ignore_errors=True)
    return {"probe": name, "files": args.files, **figures}


def inside(args) -> int:
    """Run the probes; this process is in its own network namespace."""
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))  # a clean stop: every process is stopped
    # stopped when the outer run ends: set here, as the namespace's new credentials cleared the one set before
    ctypes.CDLL(None).prctl(1, signal.SIGTERM)
    if os.getppid() == 1:  # it ended meanwhile
        return 143
    namespace_ready()
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))  # the attackers' sockets
    print(f"before: {uptime()}", flush=True)
    hello = None
    if args.hello:
        from bench.run import hello_cpu_ms

        hello = round(hello_cpu_ms(None, 2000), 3)
        print(f"bare hello: {hello} ms of CPU a request (bench/hello.py)", flush=True)
    for name in PROBES if args.probe == "all" else [args.probe]:
        figures = run_probe(name, args)
        figures.update(hello_cpu_ms=hello, uptime=uptime())
        print("\n".join(summary(name, PROBES[name].__doc__, figures)), flush=True)
        print(json.dumps(figures), flush=True)
    print(f"after: {uptime()}", flush=True)
    return 0


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--probe", default="all", choices=["all", *PROBES])
    parser.add_argument("--list", action="store_true", help="name every probe and exit")
    parser.add_argument("--files", type=int, default=1024, help="the server's open-file limit (default 1024: 960 connections)")
    parser.add_argument("--count", type=int, default=1500, help="sockets the stream attacker holds at most")
    parser.add_argument("--seconds", type=float, default=20, help="seconds the stream attack lasts")
    parser.add_argument("--after", type=float, default=5, help="seconds the other phone is timed once the attacker left")
    parser.add_argument("--per-source", type=int, default=60, help="slow-body sockets per address")
    parser.add_argument("--slow-seconds", type=float, default=40, help="seconds the slow bodies drip")
    parser.add_argument("--connections", type=int, default=200, help="pipelining connections")
    parser.add_argument("--requests", type=int, default=50, help="requests pipelined down each")
    parser.add_argument("--pipeline-seconds", type=float, default=20, help="seconds the pipelining client never reads")
    parser.add_argument("--create-limit", default="60/1", help="serve --create-limit for the creation probe")
    parser.add_argument("--create-tries", type=int, default=70, help="creations each address tries")
    parser.add_argument("--no-hello", dest="hello", action="store_false", help="skip the bare hello's CPU")
    parser.add_argument("--inside", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.list:
        print("\n".join(f"{name}: {probe.__doc__}" for name, probe in PROBES.items()))
        return 0
    if args.inside:
        return inside(args)
    unshare = shutil.which("unshare")
    if unshare is None:
        print("error: unshare (util-linux) is needed to make the probe's network namespace", file=sys.stderr)
        return 2
    inner = subprocess.Popen([unshare, "-rn", sys.executable, str(Path(__file__).resolve()), "--inside", *argv])
    try:
        return inner.wait(3600)
    finally:  # interrupted, or past an hour: the inner run stops its own processes on SIGTERM
        if inner.poll() is None:
            inner.terminate()
            try:
                inner.wait(30)
            except subprocess.TimeoutExpired:
                inner.kill()
                inner.wait()


if __name__ == "__main__":
    sys.exit(main())
