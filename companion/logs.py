"""Secrets never reach a log line.

A table's secret travels in its join address (/join/ID/SECRET), in the device's tc_ID cookie
and in the API's X-Table-Token header; the host key in the archive's old ?key= link (refused, but still sent by an old bookmark). Any of
them written to the server's log (the server's "error while serving /join/...", a bug's
traceback naming the path) hands the table to whoever reads the terminal or the log file.

`redact_secrets()` installs a log record factory, once per process, so every record made by
any logger (the server's, Flask's app logger, ours) has its message, and its traceback's text,
redacted before any handler formats it: no handler can be missed.
"""

from __future__ import annotations

import logging
import re
import threading
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

_installed = threading.Lock()
_done = False


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
