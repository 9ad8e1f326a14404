"""Serve from several processes on one port, so a busy table hall can use every core.

One Python process serves on one core at a time (the GIL): about 250 tables of four phones within
the hall's targets on this project's 2-core benchmark machine (docs/scaling.md). There two workers
held the same 250, at 1.8 times the CPU per change (a table's phones land on both workers, and each
change is drawn in each), so `serve` suggests workers only where there are more than 2 cores,
where they spread a bigger hall (not measured here). `companion serve --workers N` (Linux) starts N worker processes:
the parent binds one listening socket per worker, all with SO_REUSEPORT on the same port, so
the kernel spreads new connections over them, then forks the workers. Each worker builds its
own app (its connections, its render cache, its push hub) and serves on its socket. Nothing else is
shared but the SQLite file, whose locks already serialise the writes.

One process stays the default: at a table it answers a tap about 0.1 ms sooner (measured, not
explained), and it is half the memory. `hall_workers()` is the number to use for a hall, and
`ADVISE_FROM_CORES` the cores from which `serve` suggests it.

The parent restarts a worker that dies and stops them all on SIGTERM or Ctrl-C; a worker dies
with its parent (PR_SET_PDEATHSIG), so killing `companion serve` never leaves one behind.
Elsewhere (macOS, Windows) the kernel does not balance SO_REUSEPORT, and one process serves.
"""

from __future__ import annotations

import gc
import multiprocessing
import os
import signal
import socket
import sys
import time
from typing import Callable

MAX_WORKERS = 4
#: `serve` suggests --workers only with more cores than this: on 2, two workers held no more tables than one
ADVISE_FROM_CORES = 3
#: what `companion serve` says when Ctrl-C stopped it, with one process or several
STOPPED = "Table Companion stopped (Ctrl-C)."
BACKLOG = 1024


def can_share_port() -> bool:
    """True where the kernel balances connections over sockets sharing a port (Linux)."""
    return sys.platform.startswith("linux") and hasattr(socket, "SO_REUSEPORT")


def hall_workers() -> int:
    """Return the number of workers for a convention hall: one per core, at most MAX_WORKERS (1 off Linux)."""
    return max(1, min(os.cpu_count() or 1, MAX_WORKERS)) if can_share_port() else 1


def listening_socket(host: str, port: int) -> socket.socket:
    """Bind and listen on host:port with SO_REUSEPORT (raises OSError if the port is taken by another program)."""
    family, type_, proto, _, address = socket.getaddrinfo(host or None, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)[0]
    sock = socket.socket(family, type_, proto)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
        sock.bind(address)
        sock.listen(BACKLOG)
    except OSError:
        sock.close()
        raise
    return sock


def listening_sockets(host: str, port: int, count: int) -> list[socket.socket]:
    """Return count sockets listening on one host:port (port 0: one free port, the same for all).

    Raises OSError if the port is taken, even by another `companion serve --workers`: sockets
    with SO_REUSEPORT would share it with that server without a word, so a plain socket, which
    cannot share it, is bound first to find out.
    """
    if port:
        family, type_, proto, _, address = socket.getaddrinfo(host or None, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)[0]
        with socket.socket(family, type_, proto) as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            probe.bind(address)
            probe.listen(1)
    sockets = [listening_socket(host, port)]
    try:
        port = sockets[0].getsockname()[1]
        sockets += [listening_socket(host, port) for _ in range(count - 1)]
    except OSError:
        for sock in sockets:
            sock.close()
        raise
    return sockets


def _die_with_parent(parent: int) -> None:
    """Ask the kernel to kill this process when its parent dies; exit now if it already has."""
    import ctypes

    pr_set_pdeathsig = 1
    ctypes.CDLL(None, use_errno=True).prctl(pr_set_pdeathsig, signal.SIGKILL)
    if os.getppid() != parent:
        os._exit(0)


def _worker(serve: Callable[[socket.socket], None], sock: socket.socket, parent: int) -> None:
    _die_with_parent(parent)
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C reaches the whole group: the parent stops us
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    serve(sock)


def run(serve: Callable[[socket.socket], None], sockets: list[socket.socket], on_started: Callable[[], object] | None = None) -> int:
    """Run serve(sock) in one forked process per socket until SIGTERM or SIGINT; return 0.

    on_started runs in the parent once the workers are forked (threads are started only then:
    forking a process that runs threads is unsafe).
    """
    context = multiprocessing.get_context("fork")
    parent = os.getpid()
    stopping = []
    signal.signal(signal.SIGTERM, lambda signum, _: stopping.append(signum))
    signal.signal(signal.SIGINT, lambda signum, _: stopping.append(signum))

    def start(sock):
        process = context.Process(target=_worker, args=(serve, sock, parent), daemon=False, name="companion-worker")
        process.start()
        return process

    gc.freeze()  # what the workers inherit is never scanned by their collector, so it stays shared, not copied
    workers = [start(sock) for sock in sockets]
    started = [time.monotonic()] * len(workers)
    if on_started is not None:
        on_started()
    while not stopping:
        for i, process in enumerate(workers):
            if not process.is_alive() and not stopping:
                print(f"worker {process.pid} exited with {process.exitcode}; starting another", file=sys.stderr, flush=True)
                if time.monotonic() - started[i] < 1:
                    time.sleep(1)  # a worker that cannot start must not spin
                workers[i], started[i] = start(sockets[i]), time.monotonic()
        time.sleep(0.2)
    for process in workers:
        process.terminate()
    for process in workers:
        process.join(10)
        if process.is_alive():
            process.kill()
    if stopping[0] == signal.SIGINT:
        print(STOPPED, flush=True)
    return 0
