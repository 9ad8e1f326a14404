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


def test_a_game_without_an_examples_module_reads_an_optional_name_as_its_default():
    """The checklist's first steps run before tests/KEY/examples.py is written (a game with no setup option)."""
    assert examples("fifth").OPTIONS == {} and examples("fifth").TEMPLATE_ALLOWS == {}


def test_a_game_that_tracks_nothing_may_leave_out_what_a_tracked_table_gives(monkeypatch):
    from companion.games.codex import calculator
    from tests.examples import UNTRACKED
    from tests.foundation.test_calculator_only import UNTRACKED as STAND_IN

    assert set(UNTRACKED) <= set(GIVES) and all("UNTRACKED" in GIVES[name] for name in UNTRACKED)
    codex = importlib.import_module("tests.codex.examples")
    for name in UNTRACKED:
        monkeypatch.delattr(codex, name)
    with pytest.raises(pytest.fail.Exception, match="has no TRACKED_SETUP"):
        examples("codex").TRACKED_SETUP  # Codex tracks a table: it must say how
    monkeypatch.setitem(games.registry(), "codex", STAND_IN)  # Codex taking its calculator's events alone
    ex = examples("codex")
    assert (ex.TRACKED_SETUP, ex.STEPPERS_SCREEN, ex.STEPPERS_ALONE, ex.SCREENS) == ([], None, set(), [None])
    assert ex.BEGUN is None and ex.play_tracked_to_the_end is None
    # its calculator table's pages as the rows of three seats come in, the table's setup first
    rows = [("sheet", row) for row in codex.CALCULATOR_ROWS if row["player"] < 3]
    assert ex.NAMED_PAGES == [([*codex.CALCULATOR_SETUP, rows[0]], {"a row in": None}), (rows[1:], {"every row in": None})]
    assert {type_ for type_, _ in codex.CALCULATOR_SETUP} <= set(calculator.CALCULATOR_EVENTS)


def test_the_calculator_pages_of_a_game_that_tracks_nothing_are_named_pages(client, api, monkeypatch):
    """The default NAMED_PAGES plays on the stand-in's table as test_names plays them."""
    from tests.foundation.test_calculator_only import UNTRACKED as STAND_IN
    from tests.foundation.test_names import table_pages

    codex = importlib.import_module("tests.codex.examples")
    monkeypatch.delattr(codex, "NAMED_PAGES")
    monkeypatch.setitem(games.registry(), "codex", STAND_IN)
    assert set(table_pages(client, api, "codex")) == {"start", "a row in", "every row in"}
