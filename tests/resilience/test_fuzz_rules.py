"""Fuzz every rules function of every game in the registry, called directly and over HTTP.

A document is either answered (a JSON result that keeps the contract's invariants) or
refused with the contract's error (RulesError naming a field; HTTP 400 {"error", "field"}),
the same way on both paths. Never an exception, a 500 or a traceback. Games merged later are
covered as soon as `companion.rules.listing()` lists them.
"""

from __future__ import annotations

import copy
import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion import create_app, rules
from companion.games.validation import RulesError

from .fuzzing import FUZZ, SEEDS, check_result, documents

#: bugs found in games this branch may not edit: (game, function) -> the bug, reported to its author
KNOWN_BUGS: dict[tuple[str, str], str] = {}

FUNCTIONS = [
    pytest.param(game, name, id=f"{game}.{name}",
                 marks=[pytest.mark.xfail(strict=True, reason=KNOWN_BUGS[(game, name)])] if (game, name) in KNOWN_BUGS else [])
    for game, name, _ in rules.listing()
]


@pytest.fixture(scope="module")
def http(tmp_path_factory):
    """One app for all examples (a fresh one per example would be slower than the rules)."""
    return create_app({"TESTING": True, "DATA_DIR": str(tmp_path_factory.mktemp("fuzz-rules"))}).test_client()


def outcome(game: str, name: str, doc):
    """Run the function directly: ("ok", result) or ("error", field)."""
    try:
        result = rules.call(game, name, doc)
    except RulesError as err:
        assert isinstance(err.field, str) and err.field, err
        assert isinstance(err.message, str) and err.message, err
        return "error", err.field
    json.dumps(result, allow_nan=False)  # a JSON document, nothing Python-only
    return "ok", result


@pytest.mark.parametrize("game, name", FUNCTIONS)
@FUZZ
@given(data=st.data())
def test_rules_function_answers_or_names_the_field(http, game, name, data):
    doc = data.draw(documents(game, name), label="document")
    before = copy.deepcopy(doc)
    kind, value = outcome(game, name, doc)
    if kind == "ok":
        check_result(value)
        if isinstance(doc, dict) and "seed" in doc:  # CONTRACT.md: the same seed gives the same result
            assert outcome(game, name, copy.deepcopy(before)) == (kind, value)
    response = http.post(f"/api/v1/{game}/{name}", data=json.dumps(before), content_type="application/json")
    assert response.status_code in (200, 400), response.data[:500]
    answer = response.get_json()
    if kind == "ok":
        assert response.status_code == 200
    else:
        assert response.status_code == 400 and answer == {"error": answer["error"], "field": value}


@pytest.mark.parametrize("game, name", FUNCTIONS)
@FUZZ
@given(body=st.one_of(st.binary(max_size=64), st.text(max_size=64).map(str.encode),
                      st.sampled_from([b"", b"{", b"[1,", b"NaN", b"\xff\xfe", b'{"a": 1}{', b"[" * 5000])))
def test_rules_route_refuses_what_is_not_one_json_document(http, game, name, body):
    response = http.post(f"/api/v1/{game}/{name}", data=body, content_type="application/json")
    assert response.status_code in (200, 400), response.data[:500]
    if response.status_code == 400:
        assert set(response.get_json()) == {"error", "field"}


def test_every_seed_names_a_registered_function():
    # a seed whose function was renamed or removed fuzzes nothing
    listed = {(game, name) for game, name, _ in rules.listing()}
    assert listed and sorted(set(SEEDS) - listed) == []


def test_every_rules_function_has_a_seed():
    # without a seed a function gets random documents only, which rarely pass its first check;
    # a game's new function is still fuzzed, and this says so until fuzzing.SEEDS has one
    unseeded = sorted({(game, name) for game, name, _ in rules.listing()} - set(SEEDS))
    if unseeded:
        pytest.skip(f"fuzzed with random documents only until fuzzing.SEEDS has a seed: {unseeded}")
