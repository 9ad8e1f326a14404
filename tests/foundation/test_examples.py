"""The tests every game runs read each game's data from tests/GAME/examples.py (tests/examples.py):
every game in the registry has one with every name, and a game without one fails, saying so."""

import importlib

import pytest

from companion import games
from tests.examples import GIVES, examples


@pytest.mark.parametrize("key", list(games.registry()))
def test_every_game_in_the_registry_gives_every_example(key):
    for name in GIVES:
        getattr(examples(key), name)


def test_a_game_without_an_examples_module_fails_naming_the_file_and_what_it_gives():
    with pytest.raises(pytest.fail.Exception) as failed:
        examples("fifth").PLAYERS
    assert str(failed.value).startswith(f"tests/fifth/examples.py is missing: it gives PLAYERS, {GIVES['PLAYERS']}")


def test_an_examples_module_without_a_name_fails_naming_it(monkeypatch):
    monkeypatch.delattr(importlib.import_module("tests.codex.examples"), "SCREENS")
    with pytest.raises(pytest.fail.Exception) as failed:
        examples("codex").SCREENS
    assert str(failed.value) == f"tests/codex/examples.py has no SCREENS: it gives {GIVES['SCREENS']}"


def test_a_name_no_example_has_is_a_mistake_in_the_test():
    with pytest.raises(AttributeError, match="no example is called PLAYRES"):
        examples("codex").PLAYRES


def test_an_optional_name_left_out_reads_as_its_default(monkeypatch):
    from tests.examples import OPTIONAL

    assert set(OPTIONAL) <= set(GIVES) and all(GIVES[name].startswith("OPTIONAL, default ") for name in OPTIONAL)
    monkeypatch.delattr(importlib.import_module("tests.codex.examples"), "SHEET_STARTS")
    assert examples("codex").SHEET_STARTS == OPTIONAL["SHEET_STARTS"] == {}
