"""Secrets never reach a log line, and repeated lines cannot fill a disk.

A table's secret travels in its join address (/join/ID/SECRET), in the device's tc_ID cookie
and in the API's X-Table-Token header; the host key in the archive's old ?key= link (refused, but still sent by an old bookmark). Any of
them written to the server's log (the server's "error while serving /join/...", a bug's
traceback naming the path) hands the table to whoever reads the terminal or the log file.

`redact_secrets()` installs a log record factory, once per process, so every record made by
any logger (the server's, Flask's app logger, ours) has its message, and its traceback's text,
redacted before any handler formats it: no handler can be missed.

`fold_repeats()` writes the first line of a kind, then only counts the lines of that kind for
FOLD_S seconds; the next line of the kind after that says how many were left out. One line per
stalled stream let a client that cycles its streams write about 270 MB a day (issue 40). A kind
is the logger, the level, the message's template before its arguments are filled in ("closed %s
%s: the phone %s for %g s") and the class of its exception, if any. A line written whole, as
gevent writes a malformed request's (its socket, the client's address and the request line in
it), has as its template its words alone: its numbers and quoted parts are taken out (`shape`).
A logger's filters see only the records made by that logger, never those its children pass up,
so the fold is added to each logger as it makes its first record. `companion serve` installs it
(cli.py), not create_app: a test's process logs the same lines in one test after another, and
must see each. With `serve --workers N`, each process folds its own lines.
"""

from __future__ import annotations

import logging
import os
import re
import threading
import time
import traceback

HIDDEN = "[redacted]"

PATTERNS = [
    # the join address: /join/ID/SECRET, also percent-encoded slashes
    (re.compile(r"(/join/[^/\s?#\"']+/|%2Fjoin%2F[^\s?#\"'%]+%2F)[^\s?#\"'&]+", re.I), r"\1" + HIDDEN),
    # the archive's host key, and any token in a query string
    (re.compile(r"([?&;](?:key|token)=)[^&\s#\"']+", re.I), r"\1" + HIDDEN),
    # a table's cookie tc_ID=SECRET, as a header or in a dict's repr ('tc_ID': 'SECRET')
    (re.compile(r"(\btc_[A-Za-z0-9_-]+(?:=|['\"]\s*:\s*['\"]))[^;\s\"',}]+"), r"\1" + HIDDEN),
    # the API's header, as a header line, in an environ (HTTP_X_TABLE_TOKEN) or a dict's repr
    (re.compile(r"((?:X-Table-Token|HTTP_X_TABLE_TOKEN)['\"]?\s*[:=,]\s*['\"]?)[^\s\"',;}]+", re.I), r"\1" + HIDDEN),
    # a create answer's "token" (the API's 201), should one ever be logged
    (re.compile(r"(['\"]token['\"]\s*:\s*['\"])[^\"']+"), r"\1" + HIDDEN),
]

#: seconds in which the lines of one kind after the first are counted, not written;
#: $COMPANION_LOG_FOLD_S shortens it (a test's storm)
FOLD_S = 60
#: the kinds a fold remembers: past it, those whose seconds are over are forgotten first
MOST_KINDS = 1000
#: the characters of a line written whole that make its template
SHAPE_CHARS = 200

#: the parts of a line written whole that change from one line of a kind to the next: a quoted
#: text (a repr, as gevent quotes a request line), a <...> repr (a socket), a word with a digit
#: (a number, an address, a port, a time)
VARYING = re.compile(r"""[bru]?'(?:[^'\\\n]|\\.)*'|[bru]?"(?:[^"\\\n]|\\.)*"|<[^<>\n]*>|[\w.:]*\d[\w.:]*""")

_installed = threading.Lock()
_done = False
_folding = False


def redact(text: str) -> str:
    """Return text with every secret replaced by [redacted]."""
    for pattern, replacement in PATTERNS:
        text = pattern.sub(replacement, text)
    return text


def redact_secrets() -> None:
    """Make every log record of this process redacted (idempotent)."""
    global _done
    with _installed:
        if _done:
            return
        make = logging.getLogRecordFactory()

        def redacted_record(*args, **kwargs) -> logging.LogRecord:
            record = make(*args, **kwargs)
            _redact_record(record)
            return record

        logging.setLogRecordFactory(redacted_record)
        _done = True


def _redact_record(record: logging.LogRecord) -> None:
    record.template = template(record.msg, record.args)  # the fold's kind, kept before msg is filled in
    try:
        message = record.getMessage()
    except Exception:  # a message whose arguments do not fit: keep its parts, redacted
        message = f"{record.msg} {record.args!r}"
    record.msg, record.args = redact(message), ()
    if record.exc_info and record.exc_info[0] is not None:
        # formatted now, as a handler's Formatter would (it uses exc_text when set)
        record.exc_text = redact("".join(traceback.format_exception(*record.exc_info)).rstrip("\n"))
    if record.stack_info:
        record.stack_info = redact(record.stack_info)


def shape(text: str) -> str:
    """The template of a line written whole: its first line, with what changes taken out."""
    return VARYING.sub("_", text.split("\n", 1)[0][:SHAPE_CHARS])


def template(msg, args) -> str:
    """A record's message before its arguments are filled in (redacted: records may be dumped whole)."""
    text = redact(str(msg))
    return text if args else shape(text)


class Fold(logging.Filter):
    """Lets the first record of a kind through, then counts those of its kind for `seconds`;
    the first one after them says how many were left out, and since when."""

    def __init__(self, seconds: float = FOLD_S, clock=time.monotonic) -> None:
        super().__init__()
        self.seconds = seconds
        self.clock = clock
        self.kinds: dict[tuple, list] = {}  # kind -> [written at (clock), written at (time.time), left out]
        self.lock = threading.Lock()

    def filter(self, record: logging.LogRecord) -> bool:
        made = getattr(record, "template", None)
        kind = (record.name, record.levelno, made if made is not None else template(record.msg, record.args),
                record.exc_info[0] if record.exc_info else None)  # another exception is another bug
        now = self.clock()
        with self.lock:
            seen = self.kinds.get(kind)
            if seen is not None and now - seen[0] < self.seconds:
                seen[2] += 1
                return False
            if seen is not None and seen[2]:
                since = time.strftime("%H:%M:%S", time.localtime(seen[1]))
                record.msg = f"{record.msg} (and {seen[2]} more like it since {since})"
            elif len(self.kinds) >= MOST_KINDS:
                self.forget(now)
            self.kinds[kind] = [now, record.created, 0]
        return True

    def forget(self, now: float) -> None:
        """Forget the kinds whose seconds are over (what they left out goes unsaid), or every kind."""
        self.kinds = {kind: seen for kind, seen in self.kinds.items() if now - seen[0] < self.seconds}
        if len(self.kinds) >= MOST_KINDS:  # a flood of new kinds: each is written once more
            self.kinds = {}


def fold_seconds() -> float:
    """FOLD_S, or the seconds in $COMPANION_LOG_FOLD_S (more than 0, at most an hour)."""
    text = os.environ.get("COMPANION_LOG_FOLD_S")
    try:
        seconds = float(text) if text else FOLD_S
    except ValueError:
        raise SystemExit(f"error: COMPANION_LOG_FOLD_S: {text!r} is not a number of seconds") from None
    if not 0 < seconds <= 3600:
        raise SystemExit(f"error: COMPANION_LOG_FOLD_S: must be more than 0 and at most 3600, not {text}")
    return seconds


def fold_repeats() -> None:
    """Fold the repeated lines of every logger of this process (idempotent)."""
    global _folding
    with _installed:
        if _folding:
            return
        fold = Fold(fold_seconds())
        folded: set[str] = set()
        make = logging.getLogRecordFactory()

        def folded_record(*args, **kwargs) -> logging.LogRecord:
            record = make(*args, **kwargs)
            if record.name not in folded:
                # read from the loggers' table, not getLogger(): no lock taken while a handler may hold its own
                loggers = logging.Logger.manager.loggerDict
                logger = logging.root if record.name == logging.root.name else loggers.get(record.name)
                if isinstance(logger, logging.Logger):
                    logger.addFilter(fold)
                    folded.add(record.name)
            return record

        logging.setLogRecordFactory(folded_record)
        _folding = True
