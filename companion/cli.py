"""The command line: `companion serve`, `rules`, `init-db`, `export`, `backup` and `host-key`."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from . import games, limits, rules
from .games.validation import RulesError
from .db import SYNC_MODES
from .paths import DB_NAME, data_folder, default_data_folder

def game_keys() -> str:
    """The games the app knows, for the help texts: their keys, "a, b or c", in the registry's order."""
    keys = list(games.registry())
    return " or ".join(filter(None, [", ".join(keys[:-1]), keys[-1]])) if keys else "none"


def build_parser() -> argparse.ArgumentParser:
    """Return the parser; `companion --help` lists every command."""
    parser = argparse.ArgumentParser(
        prog="companion",
        description="Table Companion: the companion app serious board gamers keep open beside the board.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    serve = sub.add_parser("serve", parents=[limits.serve_options()], help="serve the app to the phones at the table (gevent's production WSGI server)")
    serve.add_argument("--host", default="0.0.0.0", help="interface to listen on (default: all interfaces)")
    serve.add_argument("--port", type=int, default=8000, help="port (default: 8000)")
    serve.add_argument("--data", default=None, help=f"data folder holding {DB_NAME} (default: $COMPANION_DATA, else {default_data_folder()})")
    serve.add_argument("--workers", type=int, default=1,
                       help="server processes sharing the port (default 1; for a hall of more than ~250 tables, one per CPU core past 2; Linux only)")
    serve.add_argument("--quiet", action="store_true", help="do not draw the QR code in the terminal")
    serve.add_argument("--sync", choices=SYNC_MODES, default=None,
                       help="normal (default, or $COMPANION_SYNC): an acknowledged event survives any crash of the server"
                            " and is flushed to disk within 50 ms; full: fsync before every acknowledgement (power cuts)")
    serve.add_argument("--allow-host", action="append", default=[], metavar="NAME",
                       help="also answer to this host name (repeatable); the machine's own addresses, localhost and its"
                            " host name are always answered, any other name gets 400 (against DNS rebinding)")
    serve.add_argument("--proxy", default=None, metavar="N",
                       help="trust N reverse proxies in front (nginx, Caddy) for the client's address and scheme"
                            " (default 0, or $COMPANION_PROXY: forwarding headers are ignored)")
    serve.add_argument("--public-url", default=None, metavar="URL",
                       help="the address phones open when a reverse proxy serves the app (https://NAME, or $COMPANION_PUBLIC_URL):"
                            " the QR codes and join links name it, its name is answered without --allow-host, and with"
                            " https cookies are Secure and HSTS is sent")
    serve.add_argument("--create-limit", default=None, metavar="N[/MINUTES]",
                       help="tables, and box profiles, one device may create per MINUTES (default 60/1: 60 a minute);"
                            " 'off' lifts it, for benchmarks and scripts; counted per process with --workers")

    rl = sub.add_parser("rules", help="run one rules function on a JSON document (see --list)")
    rl.add_argument("--list", action="store_true", help="list every GAME FUNCTION pair with a one-line description")
    rl.add_argument("game", nargs="?", help=game_keys())
    rl.add_argument("function", nargs="?", help="the function's name, e.g. score")
    rl.add_argument("file", nargs="?", default="-", help="JSON input file (default: standard input, also '-')")

    init = sub.add_parser("init-db", help="create or migrate the SQLite file and exit")
    init.add_argument("--data", default=None, help="data folder (as for serve)")

    ex = sub.add_parser("export", help="write every finished table's result as JSON or CSV")
    # no argparse `choices`: a wrong format gets the one-line `error: format: ...` of every other field
    ex.add_argument("--format", default="json", help=f"{' or '.join(EXPORT_FORMATS)} (default: json)")
    ex.add_argument("--game", default=None, help=f"only this game's plays: {game_keys()}")
    ex.add_argument("--data", default=None, help="data folder (as for serve)")
    ex.add_argument("--output", default=None, help="write to this file (replaced whole, or left as it was) instead of standard output")

    bk = sub.add_parser("backup", help="copy the SQLite file consistently, even while the server runs")
    bk.add_argument("file", help="the copy to write; restore it as companion.db in a data folder")
    bk.add_argument("--data", default=None, help="data folder (as for serve)")

    hk = sub.add_parser("host-key", help="print the plays archive's host-key link; --new replaces the key")
    hk.add_argument("--new", action="store_true",
                    help="make a new host key: the old one (old links, devices' cookies, old backups) grants nothing after,"
                         " on a running server too")
    hk.add_argument("--data", default=None, help="data folder (as for serve)")
    return parser


def main(argv: list[str] | None = None) -> int:
    """Run the command line; return the exit status."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command == "serve":
        try:
            return serve(args)
        except KeyboardInterrupt:  # Ctrl-C while starting, before serve() took it over
            from .workers import STOPPED

            print(STOPPED, flush=True)
            return 0
    if args.command == "rules":
        return run_rules(args, parser)
    if args.command == "export":
        return run_export(args)
    if args.command == "backup":
        return run_backup(args)
    if args.command == "host-key":
        return run_host_key(args)
    if args.command == "init-db":
        from . import db

        path = data_folder(args.data) / DB_NAME
        applied = db.migrate(path)
        print(f"{path}: {', '.join(applied) if applied else 'up to date'}")
        return 0
    parser.print_help()
    return 0


def run_rules(args, parser) -> int:
    """`companion rules GAME FUNCTION [FILE]`: one JSON document in, one out; errors on stderr, exit 2."""
    if args.list:
        for game, name, summary in rules.listing():
            print(f"{game} {name}\t{summary}")
        return 0
    if not args.game or not args.function:
        print("error: $: name a GAME and a FUNCTION (companion rules --list shows them)", file=sys.stderr)
        return 2
    try:
        fn = rules.find(args.game, args.function)
    except rules.UnknownFunction as exc:
        print(f"error: $: {exc}", file=sys.stderr)
        return 2
    try:
        data = sys.stdin.buffer.read() if args.file == "-" else Path(args.file).read_bytes()
    except OSError as exc:
        print(f"error: $: cannot read {args.file}: {exc.strerror}", file=sys.stderr)
        return 2
    try:
        # utf-8-sig: a file saved by an editor that writes a byte-order mark is the same document
        doc = json.loads(data.decode("utf-8-sig"))
    except UnicodeDecodeError:
        print("error: $: the input must be UTF-8 text", file=sys.stderr)
        return 2
    except (ValueError, RecursionError):
        print("error: $: the input must be one JSON document", file=sys.stderr)
        return 2
    try:
        result = fn.run(doc)
    except RulesError as err:
        print(f"error: {err.field}: {err.message}", file=sys.stderr)
        return 2
    _write_stdout(json_text(result) + "\n")
    return 0


def json_text(value) -> str:
    """Return one JSON document as text, whole before any of it is written.

    Readable UTF-8 where it can be; a string no UTF-8 can hold (a lone surrogate, which JSON's
    \\ud800 escape allows) keeps its escape instead, so the output is still the same document.
    """
    text = json.dumps(value, ensure_ascii=False)
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return json.dumps(value, ensure_ascii=True)
    return text


#: `companion export --format`, each with the function that writes it (companion/export.py)
EXPORT_FORMATS = ("json", "csv")


def fail(field: str, message: str) -> int:
    """Print the one line `error: FIELD: MESSAGE` on standard error; return the exit status 2."""
    print(f"error: {field}: {message}", file=sys.stderr)
    return 2


def existing_database(given: str | None) -> Path:
    """Return the data folder's SQLite file; raise export.Refused when there is none (never make one)."""
    from .export import Refused

    folder = data_folder(given)
    path = folder / DB_NAME
    if not path.is_file():
        raise Refused("data", f"no database in {folder} (no {DB_NAME}); name the data folder of companion serve with --data")
    return path


def run_export(args) -> int:
    """`companion export`: every finished table's result, oldest first, to stdout or --output."""
    import sqlite3

    from . import db, export, games, results

    if args.format not in EXPORT_FORMATS:
        return fail("format", f"must be {' or '.join(EXPORT_FORMATS)}, not {args.format!r}")
    if args.game is not None and games.get(args.game) is None:
        return fail("game", f"unknown game {args.game!r}; one of {', '.join(games.registry())}")
    output = Path(args.output) if args.output else None
    try:
        path = existing_database(args.data)
        if output is not None:
            export.refuse_live_files(path, output, "output")
            export.check_destination(output, "output")
        if not _is_companion_database(path):
            raise export.Refused("data", f"{path} is not a Table Companion database")
        db.migrate(path)  # the file exists: bring an older one up to date (finished_at)
        conn = db.connect(path)
        try:
            plays = results.results(conn, args.game, newest_first=False)
        finally:
            conn.conn.close()
    except export.Refused as err:
        return fail(err.field, err.message)
    except (sqlite3.Error, OSError) as exc:  # a locked, read-only or damaged file
        return fail("data", f"cannot read {path}: {getattr(exc, 'strerror', None) or exc}")
    # a byte-order mark for a file a spreadsheet opens, not for standard output, which programs read
    text = export.to_json(plays) if args.format == "json" else export.to_csv(plays, bom=output is not None)
    if output is None:
        _write_stdout(text)
        return 0
    try:
        export.write_atomically(output, text.encode("utf-8"), "output")
    except export.Refused as err:
        return fail(err.field, err.message)
    except OSError as exc:
        return fail("output", f"cannot write {output}: {exc.strerror or exc}")
    print(f"{output}: {len(plays)} play{'' if len(plays) == 1 else 's'} ({args.format})")
    return 0


def _is_companion_database(path: Path) -> bool:
    """True when the file is SQLite and holds the app's tables (so migrate would touch nothing foreign)."""
    import sqlite3

    try:
        conn = sqlite3.connect(str(path))
        try:
            names = {row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        finally:
            conn.close()
    except sqlite3.Error:
        return False
    return {"tables", "events", "_migrations"} <= names


def _write_stdout(text: str) -> None:
    """Write UTF-8 to standard output whatever the console's encoding (a file redirect gets UTF-8)."""
    sys.stdout.flush()
    buffer = getattr(sys.stdout, "buffer", None)
    if buffer is None:
        sys.stdout.write(text)
        return
    buffer.write(text.encode("utf-8"))
    buffer.flush()


def run_backup(args) -> int:
    """`companion backup FILE`: SQLite's online backup of the data folder's file, renamed into place whole."""
    import sqlite3

    from . import export

    dest = Path(args.file)
    try:
        path = existing_database(args.data)
        export.backup(path, dest)
    except export.Refused as err:
        return fail(err.field, err.message)
    except OSError as exc:
        return fail("file", f"cannot write {dest}: {exc.strerror or exc}")
    except sqlite3.Error as exc:
        return fail("data", f"cannot copy {path}: {exc}")
    print(f"{dest}: a copy of {path}; to restore it, put it as {DB_NAME} in a data folder and run companion serve --data FOLDER")
    print("It carries the host key: whoever has the file can open every play of a server restored from it. Keep it as you"
          " keep the key (companion host-key --new makes the copies' key worthless).")
    return 0


def run_host_key(args) -> int:
    """`companion host-key [--new]`: print the archive's key link as serve does (after making a new key with --new)."""
    import sqlite3

    from . import db, export, hostkey

    try:
        path = existing_database(args.data)
        if not _is_companion_database(path):
            raise export.Refused("data", f"{path} is not a Table Companion database")
        db.migrate(path)  # an older file gets its settings table
        conn = db.connect(path)
        try:
            key = hostkey.new_host_key(conn) if args.new else hostkey.host_key(conn)
            url = hostkey.served_address(conn)
        finally:
            conn.conn.close()
    except export.Refused as err:
        return fail(err.field, err.message)
    except (sqlite3.Error, OSError) as exc:
        return fail("data", f"cannot use {path}: {getattr(exc, 'strerror', None) or exc}")
    if args.new:
        print("A new host key: the old one, its links, devices' cookies and old backups' key grant nothing from now on.")
    print(f"Host key: {key}")
    if url:  # the address the last companion serve on this folder printed
        print(hostkey.archive_line(url, key))
    else:
        print(f"Plays archive, every play: open /{hostkey.archive_path(key)} at the address companion serve prints"
              " (none has started on this data folder yet), on your own devices alone")
    return 0


def archive_line(path: Path, url: str) -> str:
    """Return serve's line that hands the host key to the host's devices, and keep `url` for `companion host-key`."""
    from . import db, hostkey

    conn = db.connect(path)
    try:
        hostkey.remember_address(conn, url)
        return hostkey.archive_line(url, hostkey.host_key(conn))
    finally:
        conn.conn.close()


def serve(args) -> int:
    """Serve the app (companion/serving.py); print the address phones open and draw it as a QR code.

    With more than one worker (companion/workers.py) the parent only migrates the database,
    binds the port and watches the workers; each worker builds its own app after the fork.
    A mistake in the options (a taken port, a name that is not a host) is one line, exit 2.
    """
    from . import create_app, logs, network, qr, serving, workers
    from .web import push
    from .web import database_settings, proxy_hops, public_url

    config, problem = serve_config(args)
    if problem:
        return fail(*problem)
    logs.fold_repeats()  # a line repeated within a minute is counted, not written (the workers inherit it)
    public = public_url(config)  # --public-url, else $COMPANION_PUBLIC_URL (a wrong one stops here)
    count = args.workers
    if count < 1 or (count > 1 and not workers.can_share_port()):
        return fail("--workers", "must be 1 or more (more than 1 only on Linux)")
    connections = serving.connection_limit()
    path, sync = database_settings(config)
    if count == 1:
        app = create_app(dict(config, SHARED_REGIONS=False))  # no other process reads its regions (web/live.py)
        push.enable(app)
        try:
            made = serving.server(app, host=args.host, port=args.port, connections=connections)
        except (OSError, ValueError) as exc:
            return fail(*cannot_listen(args, exc))
        port = app.config["LISTEN_PORT"] = serving.listening(made)[1]
    else:
        from . import db

        db.migrate(path)  # once, before any worker opens the file
        db.forget_regions(path)  # drawn by the code that ran before: its templates may have changed
        try:
            sockets = workers.listening_sockets(args.host, args.port, count)
        except OSError as exc:
            return fail(*cannot_listen(args, exc))
        port = config["LISTEN_PORT"] = sockets[0].getsockname()[1]
    url, phones = network.where_to_open(args.host, port)
    if public:  # behind a reverse proxy: phones open its address, never this one
        url, phones = public + "/", True
        print(f"Table Companion is running at {url} (through the proxy in front; it listens on {args.host}:{port})", flush=True)
    elif phones:
        print(f"Table Companion is running. Open {url} on any phone on this network.", flush=True)
    else:
        print(f"Table Companion is running only on this machine: {url} (it listens on {args.host} alone, which no phone"
              " reaches but through a proxy on this machine; --host 0.0.0.0 lets phones in)", flush=True)
    print(f"Data: {path} (sync {sync}; {count} process{'es' if count > 1 else ''})", flush=True)
    if (hops := proxy_hops(config)) and network.others_reach(args.host):
        print(f"Note: --proxy {hops} believes the X-Forwarded-For of whatever reaches {args.host}:{port}, which picks the address it is counted"
              " as (for limits, never rights): listen on 127.0.0.1 behind a proxy here, or let only the proxy reach the port.", flush=True)
    if phones and not args.quiet:
        print(qr.terminal(url), flush=True)
    # after the QR code, which is only the address: the key is the host's to hand to a device of its own
    print(archive_line(path, url), flush=True)
    if count == 1 and workers.hall_workers() >= workers.ADVISE_FROM_CORES:
        print(f"For a hall of more than about 250 tables: companion serve --workers {workers.hall_workers()}", flush=True)
    if count == 1:
        if serving.serve_until_signal(made):  # Ctrl-C; SIGTERM (systemd's stop) is as clean an end, said by nobody
            print(workers.STOPPED, flush=True)
        return 0

    def serve_on(sock):
        app = create_app(dict(config, WAL_FLUSHER=False))
        push.enable(app)
        serving.serve(app, sockets=[sock], connections=connections)

    if sync == "normal":  # one flusher for the file, in the parent, started after the fork
        return workers.run(serve_on, sockets, on_started=lambda: db.WalFlusher.start(path))
    return workers.run(serve_on, sockets)


def serve_config(args) -> tuple[dict, tuple[str, str] | None]:
    """Return create_app's settings from serve's options, or the option and what is wrong with it."""
    from .web.guard import is_host_name, parse_public_url, split_host

    config: dict = {"LISTEN_HOST": args.host}
    if args.data:
        config["DATA_DIR"] = args.data
    if args.sync:
        config["SYNC"] = args.sync
    if not 0 <= args.port <= 65535:
        return config, ("--port", f"must be a number from 0 to 65535, not {args.port}")
    allowed = []
    for name in args.allow_host:
        found = split_host(name.strip())
        if found is None or found[1] or not (is_host_name(found[0]) or ":" in found[0]):
            return config, ("--allow-host", f"{name!r} is not a host name or address (give the name alone, without a port)")
        allowed.append(found[0])
    config["ALLOWED_HOSTS"] = allowed
    if args.proxy is not None:
        try:
            config["PROXY"] = limits.parse_proxies(args.proxy)
        except ValueError as exc:
            return config, ("--proxy", str(exc))
    if args.public_url is not None:
        try:
            config["PUBLIC_URL"] = parse_public_url(args.public_url)
        except ValueError as exc:
            return config, ("--public-url", str(exc))
    if args.create_limit is not None:
        try:
            limits.parse_rate(args.create_limit)
        except ValueError as exc:
            return config, ("--create-limit", str(exc))
        config["CREATE_LIMIT"] = args.create_limit
    return config, limits.read_options(args, config)


def cannot_listen(args, exc: Exception) -> tuple[str, str]:
    """Return the option to blame for a socket that cannot listen, and why, in one line."""
    import errno
    import os
    import socket

    if not isinstance(exc, OSError):
        return "--host", f"cannot listen on {args.host}:{args.port}: not a name or address of this machine"
    field = "--host" if isinstance(exc, socket.gaierror) or exc.errno == errno.EADDRNOTAVAIL else "--port"
    if exc.errno == errno.EADDRINUSE:
        return field, (f"{args.port} is already in use on {args.host} (by another program, or another companion serve:"
                       " pick another port with --port)")
    # the system's words alone: gevent's strerror adds the address as a Python tuple
    plain = os.strerror(exc.errno) if isinstance(exc.errno, int) and exc.errno > 0 and not isinstance(exc, socket.gaierror) else None
    return field, f"cannot listen on {args.host}:{args.port}: {plain or exc.strerror or exc}"


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
