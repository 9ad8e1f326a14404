"""scripts/mutation.py seeds the faults it says it does, one at a time, and its list of
equivalent survivors names only faults it still seeds."""

import ast
import importlib.util
import sys
from pathlib import Path

import pytest

from companion import games

ROOT = Path(__file__).resolve().parents[2]
spec = importlib.util.spec_from_file_location("mutation", ROOT / "scripts" / "mutation.py")
mutation = importlib.util.module_from_spec(spec)
sys.modules.setdefault("mutation", mutation)  # dataclasses look their module up there
spec.loader.exec_module(mutation)

SAMPLE = '''
"""A docstring with 1 in it stays."""
LIMIT: int = 3


def f(a: int, b: list[int]) -> int:
    """Nor is this one touched."""
    if a < LIMIT and a in b:
        return max(a, -b[0])
    x = a + 1
    x -= 2
    return not x or f"{a + 1}" == "2"
'''


@pytest.fixture
def sample(tmp_path):
    path = tmp_path / "sample.py"
    path.write_text(SAMPLE)
    return path


def test_every_kind_of_fault_is_seeded_and_nothing_else(sample):
    shown = [(m.function, m.before, m.after) for m in mutation.find_mutants(sample)]
    assert shown == [
        ("<module>", "LIMIT: int = 3", "LIMIT: int = 4"), ("<module>", "LIMIT: int = 3", "LIMIT: int = 2"),
        ("f", "a < LIMIT and a in b", "a < LIMIT or a in b"),
        ("f", "a < LIMIT and a in b", "a <= LIMIT and a in b"),
        ("f", "a < LIMIT and a in b", "a < LIMIT and a not in b"),
        ("f", "return max(a, -b[0])", "return min(a, -b[0])"),
        ("f", "max(a, -b[0])", "max(a, b[0])"),
        ("f", "b[0]", "b[1]"), ("f", "b[0]", "b[-1]"),
        ("f", "x = a + 1", "x = a - 1"),
        ("f", "a + 1", "a + 2"), ("f", "a + 1", "a + 0"),
        ("f", "x -= 2", "x += 2"),
        ("f", "x -= 2", "x -= 3"), ("f", "x -= 2", "x -= 1"),
        ("f", 'return not x or f"{a + 1}" == "2"', "return not x and f'{a + 1}' == '2'"),
        ("f", 'not x or f"{a + 1}" == "2"', "x or f'{a + 1}' == '2'"),
        ("f", 'not x or f"{a + 1}" == "2"', "not x or f'{a + 1}' != '2'"),
    ]


def test_each_fault_changes_only_its_own_place(sample):
    original = ast.dump(ast.parse(SAMPLE))
    seen = set()
    for m in mutation.find_mutants(sample):
        source = mutation.mutated_source(sample, m.index)
        tree = ast.dump(ast.parse(source))  # still valid Python
        assert tree != original, m.describe()
        assert m.after.split("  #")[0] in " ".join(source.split()).replace('"', "'") or m.change == "drop", m.describe()
        seen.add(tree)
    assert len(seen) == len(mutation.find_mutants(sample))  # no two faults are the same


def test_the_games_are_the_ones_the_registry_finds():
    """A game package added under companion/games/ has its faults seeded with the others'."""
    assert list(mutation.GAMES) == list(games.registry())


def test_the_rules_modules_are_every_module_but_the_table_and_views():
    for game in mutation.GAMES:
        names = {p.name for p in mutation.rules_modules(game)}
        assert "rules.py" in names
        assert not names & mutation.NOT_RULES


def test_every_equivalent_survivor_names_a_fault_still_seeded_and_says_why():
    equivalent = mutation.load_equivalent()
    seeded = {m.key for game in mutation.GAMES for p in mutation.rules_modules(game) for m in mutation.find_mutants(p)}
    for key, why in equivalent.items():
        assert key in seeded, key
        assert len(why.split()) >= 5, key
