"""Turn an HTML form into the same JSON document the API takes.

One naming convention serves every form (events, setup options, box profiles), so no
game needs form-parsing code of its own:

    name=Anna               -> {"name": "Anna"}
    data.player:int=2       -> {"data": {"player": 2}}       (dots nest objects)
    data.solo:bool=on       -> {"data": {"solo": true}}      (a checkbox; absent means absent)
    choices[]=baths         -> {"choices": ["baths", ...]}   (repeated fields make a list)
    counts[]:int=3          -> {"counts": [3, ...]}
    data.card:json={"a":1}  -> {"data": {"card": {"a": 1}}}
    data.x:int=             -> (left out: an empty number field is an absent key)

A value that is not what its suffix says raises RulesError naming the field, so the form
shows the message beside it.
"""

from __future__ import annotations

import json
from typing import Any, Iterable

from .games.speech import gettext
from .games.validation import RulesError, no_lone_surrogates

#: form fields that belong to the page machinery, not to the document
RESERVED = {"csrf", "screen", "next", "stepper"}  # stepper: web/steppers.py


def decode(items: Iterable[tuple[str, str]]) -> dict:
    """Build a document from (field name, value) pairs, in order."""
    doc: dict[str, Any] = {}
    for raw_name, value in items:
        if raw_name in RESERVED:
            continue
        name, _, kind = raw_name.partition(":")
        is_list = name.endswith("[]")
        if is_list:
            name = name[:-2]
        path = name.split(".")
        if not all(path):
            raise RulesError(raw_name, gettext("is not a valid field name"))
        converted = _convert(value, kind, name)
        if converted is _ABSENT:
            if is_list:
                _place(doc, path, [], raw_name, merge_list=True)
            continue
        if is_list:
            _place(doc, path, [converted], raw_name, merge_list=True)
        else:
            _place(doc, path, converted, raw_name)
    return doc


_ABSENT = object()


def _convert(value: str, kind: str, name: str) -> Any:
    value = value.strip() if kind else value
    if kind == "":
        return value
    if kind == "int":
        if value == "":
            return _ABSENT
        try:
            return int(value, 10)
        except ValueError:
            raise RulesError(name, gettext("must be a whole number")) from None
    if kind == "bool":
        return value.lower() not in ("", "0", "false", "off", "no")
    if kind == "json":
        if value == "":
            return _ABSENT
        try:
            decoded = json.loads(value)
        except ValueError:
            raise RulesError(name, gettext("must be valid JSON")) from None
        except RecursionError:  # [[[[...]]]] nested past what Python's parser can follow
            raise RulesError(name, gettext("is nested too deeply")) from None
        # outside the try: its RulesError is a ValueError, not "must be valid JSON"
        return no_lone_surrogates(decoded, name)
    raise RulesError(name, gettext("unknown field kind %(kind)s", kind=repr(kind)))


def _place(doc: dict, path: list[str], value: Any, raw_name: str, merge_list: bool = False) -> None:
    node = doc
    for part in path[:-1]:
        child = node.setdefault(part, {})
        if not isinstance(child, dict):
            raise RulesError(raw_name, gettext("clashes with another field"))
        node = child
    last = path[-1]
    if merge_list:
        existing = node.setdefault(last, [])
        if not isinstance(existing, list):
            raise RulesError(raw_name, gettext("clashes with another field"))
        existing.extend(value)
    elif last in node:
        raise RulesError(raw_name, gettext("is given twice"))
    else:
        node[last] = value
