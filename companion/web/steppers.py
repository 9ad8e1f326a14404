"""Steppers answer a tap with themselves: the few hundred bytes that changed, not the live region.

A stepper (macros.html) is the − / + form of one counter: fame, guilders, a score marker. Most
taps at a table are on one, and rendering the whole live region to find what changed (60 KiB,
3 ms on Gutenberg) was most of a score change's time (bench/README.md). So once a stepper's
event is applied the server renders that one stepper again, with the value the game's
`counter()` reads from the new state, plus the table's tools (undo) - both as parts of the new
version (parts.mark), its answer marked X-Table-Partial. The rest of the tapping phone's region
(history, totals) is pushed to it with the other phones', on its stream (push.py), or comes
with its next poll where it holds none.

The page sends every form's expected_version from the newest version it has heard of, a partial
answer's included (static/js/versions.js), so a second tap on another counter right after the
first is not refused as stale.

Whenever the stepper cannot answer alone (the game has no counter for the event, the event was
refused, the table changed meanwhile), the answer is the parts that changed, as any form's is.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from typing import Any

from flask import current_app, request

from .parts import mark
from .render import is_htmx

FIELD = "stepper"  # the form field that carries the stepper's own settings (forms.RESERVED)


def stepper_id(type_: str, data: dict) -> str:
    """Return the element id of the stepper for this event and data (the delta left out)."""
    key = json.dumps([type_, data], sort_keys=True, separators=(",", ":"), default=str)
    return "w-" + hashlib.sha1(key.encode()).hexdigest()[:12]


def settings(field: str, label: str | None, step: int) -> str:
    """Return the hidden field's value: what the server needs to draw the stepper again."""
    return json.dumps({"field": field, "label": label, "step": step}, separators=(",", ":"))


@dataclass
class Tap:
    """A post from a stepper: the element htmx will swap and the stepper's own settings."""

    target: str
    field: str
    label: str | None
    step: int


def posted() -> Tap | None:
    """Return the stepper a post came from, or None (not htmx, not a stepper, or malformed)."""
    if not is_htmx():
        return None
    return parse_tap(request.headers.get("HX-Target", ""), request.form.get(FIELD))


def parse_tap(target: str, raw: str | None) -> Tap | None:
    """Read a stepper's post from its HX-Target and its hidden field; None if it is not one."""
    if not target.startswith("w-") or raw is None:
        return None
    try:
        doc = json.loads(raw)
    except ValueError:
        return None
    if not isinstance(doc, dict):
        return None
    field, label, step = doc.get("field"), doc.get("label"), doc.get("step")
    if not isinstance(field, str) or not (label is None or isinstance(label, str)):
        return None
    if not isinstance(step, int) or isinstance(step, bool) or not 1 <= step <= 1000:
        return None
    return Tap(target, field, label[:60] if label else label, step)


def answer(tap: Tap, table, type_: str, data: Any, screen: str | None) -> str | None:
    """Return the stepper drawn again after its event, with the tools out of band; or None."""
    if not isinstance(data, dict) or tap.field not in data:
        return None
    rest = {k: v for k, v in data.items() if k != tap.field}
    if stepper_id(type_, rest) != tap.target:
        return None
    value = table.rules.counter(table.state, type_, rest)
    if value is None:
        return None
    macros = current_app.jinja_env.get_template("macros.html").module
    html = macros.stepper(table, type_, rest, tap.field, value, screen=screen, label=tap.label, step=tap.step)
    return mark(str(html), table.version) + "\n" + mark(str(macros.table_tools(table, screen, True)), table.version)
