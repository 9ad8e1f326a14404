"""The command line: `companion serve`, `companion rules`, `companion init-db`."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from . import rules
from .games.validation import RulesError
from .db import SYNC_MODES
from .paths import DATA, DB_NAME

#: how `companion serve` runs waitress (bench/hello.py serves its baseline the same way)
WAITRESS_OPTIONS = {"threads": 16, "connection_limit": 2000, "channel_timeout": 30}


def build_parser() -> argparse.ArgumentParser:
    """Return the parser; `companion --help` lists every command."""
    parser = argparse.ArgumentParser(
        prog="companion",
        description="Table Companion: the companion app serious board gamers keep open beside the board.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    serve = sub.add_parser("serve", help="serve the app to the phones at the table (production WSGI server)")
    serve.add_argument("--host", default="0.0.0.0", help="interface to listen on (default: all interfaces)")
    serve.add_argument("--port", type=int, default=8000, help="port (default: 8000)")
    serve.add_argument("--data", default=None, help=f"data folder holding {DB_NAME} (default: {DATA}, or $COMPANION_DATA)")
    serve.add_argument("--threads", type=int, default=WAITRESS_OPTIONS["threads"],
                       help=f"worker threads (default: {WAITRESS_OPTIONS['threads']})")
    serve.add_argument("--quiet", action="store_true", help="do not draw the QR code in the terminal")
    serve.add_argument("--sync", choices=SYNC_MODES, default=None,
                       help="normal (default, or $COMPANION_SYNC): an acknowledged event survives any crash of the server"
                            " and is flushed to disk within 50 ms; full: fsync before every acknowledgement (power cuts)")

    rl = sub.add_parser("rules", help="run one rules function on a JSON document (see --list)")
    rl.add_argument("--list", action="store_true", help="list every GAME FUNCTION pair with a one-line description")
    rl.add_argument("game", nargs="?", help="voynich, galileo, gutenberg or codex")
    rl.add_argument("function", nargs="?", help="the function's name, e.g. score")
    rl.add_argument("file", nargs="?", default="-", help="JSON input file (default: standard input, also '-')")

    init = sub.add_parser("init-db", help="create or migrate the SQLite file and exit")
    init.add_argument("--data", default=None, help="data folder (as for serve)")
    return parser


def main(argv: list[str] | None = None) -> int:
    """Run the command line; return the exit status."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command == "serve":
        return serve(args)
    if args.command == "rules":
        return run_rules(args, parser)
    if args.command == "init-db":
        from . import db

        path = Path(args.data or _default_data()) / DB_NAME
        applied = db.migrate(path)
        print(f"{path}: {', '.join(applied) if applied else 'up to date'}")
        return 0
    parser.print_help()
    return 0


def _default_data() -> str:
    import os

    return os.environ.get("COMPANION_DATA", str(DATA))


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
        raw = sys.stdin.read() if args.file == "-" else Path(args.file).read_text(encoding="utf-8")
    except OSError as exc:
        print(f"error: $: cannot read {args.file}: {exc.strerror}", file=sys.stderr)
        return 2
    try:
        doc = json.loads(raw)
    except (ValueError, RecursionError):
        print("error: $: the input must be one JSON document", file=sys.stderr)
        return 2
    try:
        result = fn.run(doc)
    except RulesError as err:
        print(f"error: {err.field}: {err.message}", file=sys.stderr)
        return 2
    json.dump(result, sys.stdout, ensure_ascii=False)
    sys.stdout.write("\n")
    return 0


def serve(args) -> int:
    """Serve the app with waitress; print the address phones open and draw it as a QR code."""
    import waitress

    from . import create_app, qr
    from .network import lan_address

    config = {}
    if args.data:
        config["DATA_DIR"] = args.data
    if args.sync:
        config["SYNC"] = args.sync
    app = create_app(config)
    host = lan_address() if args.host in ("0.0.0.0", "::", "") else args.host
    url = f"http://{host or '127.0.0.1'}:{args.port}/"
    print(f"Table Companion is running. Open {url} on any phone on this network.", flush=True)
    print(f"Data: {app.config['DATABASE']} (sync {app.config['SYNC']})", flush=True)
    if not args.quiet:
        print(qr.terminal(url), flush=True)
    options = dict(WAITRESS_OPTIONS, threads=args.threads)
    waitress.serve(app, host=args.host, port=args.port, ident="companion", _quiet=True, **options)
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
