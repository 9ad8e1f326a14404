#!/usr/bin/env python3
"""Seed small faults into each game's rules modules and count how many the game's tests catch.

    python scripts/mutation.py                  # every game (the four: 25 minutes on a quiet 2-core machine)
    python scripts/mutation.py codex voynich    # some games
    python scripts/mutation.py --list galileo   # only list the faults it would seed
    python scripts/mutation.py --jobs 1 gutenberg
    python scripts/mutation.py galileo --match "rules.py:202"   # the faults on one line

The games are the ones companion.games.registry() finds: a game package added under
companion/games/ is mutated with the others, its fast tests in tests/GAME.

One fault at a time, each of the kinds a slip of the pen makes in rule code:
- a comparison turned (< and <=, > and >=, == and !=, in and not in, is and is not);
- a whole-number constant one higher or one lower, True and False swapped;
- `and` and `or` swapped, `min` and `max` swapped;
- a sign: + and -, += and -=, a unary minus or a `not` dropped.
Strings are left alone (messages are for people; the tests pin their field paths, not their
prose), and so are annotations and the insides of f-strings.

For each fault the game's fast tests (`tests/GAME -m "not browser and not slow"`, its rules
tests first, stopping at the first failure) run in private copies of the checkout, taken
when the run starts, so the working tree is never touched and editing it during a run
changes nothing the run reports. Hypothesis runs derandomized with no example database
(the "mutation" profile of tests/conftest.py), so two runs of the same code give the same
figures. A fault is caught when the tests fail or time out, survived when they pass.

Survivors judged equivalent (no input the rules accept can tell them apart from the
original) are listed, each with why, in scripts/mutation_equivalent.toml; the score leaves
them out. The last line is `mutation_score=CAUGHT/NON_EQUIVALENT=PERCENT`.

It is a tool, like the benchmarks, not a test: CI does not run it (it is slow).
"""

from __future__ import annotations

import argparse
import ast
import concurrent.futures
import copy
import os
import queue
import shutil
import subprocess
import sys
import tempfile
import time
import tomllib
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # this checkout's own companion package, whatever else is installed

from companion.games import registry  # noqa: E402

GAMES_DIR = ROOT / "companion" / "games"
#: every game's key, in the registry's order; each is the name of its package (tests/foundation/test_architecture.py)
GAMES = tuple(registry())
EQUIVALENT_FILE = ROOT / "scripts" / "mutation_equivalent.toml"
#: the modules of a game package that are not rules (companion/games/base.py): the plug-in, its table
#: events (a solo opponent's too), its views and its box profile
NOT_RULES = {"__init__.py", "table.py", "solo.py", "calculator.py", "track.py", "view.py", "profile.py"}
#: a run of a game's fast tests takes under 10 s; a fault that hangs is stopped by pytest-timeout
#: (tests/conftest.py) first and by this as a last resort
RUN_TIMEOUT = 300

COMPARE_SWAP = {
    ast.Lt: ast.LtE, ast.LtE: ast.Lt, ast.Gt: ast.GtE, ast.GtE: ast.Gt,
    ast.Eq: ast.NotEq, ast.NotEq: ast.Eq, ast.In: ast.NotIn, ast.NotIn: ast.In,
    ast.Is: ast.IsNot, ast.IsNot: ast.Is,
}
BINOP_SWAP = {ast.Add: ast.Sub, ast.Sub: ast.Add}
BOOLOP_SWAP = {ast.And: ast.Or, ast.Or: ast.And}
CALL_SWAP = {"min": "max", "max": "min"}


@dataclass(frozen=True)
class Mutant:
    """One fault: the `index`-th candidate node of a module, changed by `change`."""

    module: str  # path from the checkout's root, e.g. companion/games/codex/packing.py
    index: int
    change: str  # what is done, e.g. "< -> <=", "1 -> 2", "drop -"
    line: int
    function: str  # the enclosing function's qualified name, or "<module>"
    before: str  # the changed expression, as written
    after: str

    @property
    def key(self) -> tuple[str, str, str, str]:
        """What names the fault across edits that only move lines (scripts/mutation_equivalent.toml)."""
        return (self.module, self.function, self.before, self.after)

    def describe(self) -> str:
        return f"{self.module}:{self.line} in {self.function}: {self.before}  ->  {self.after}"


# --- finding the faults ----------------------------------------------------------------------

def _skipped_nodes(tree: ast.AST) -> set[int]:
    """Return ids of nodes left alone: docstrings, annotations, f-string parts."""
    skip: set[int] = set()

    def drop(node: ast.AST | None) -> None:
        if node is not None:
            skip.update(id(n) for n in ast.walk(node))

    for node in ast.walk(tree):
        if isinstance(node, ast.JoinedStr):
            drop(node)
        elif isinstance(node, ast.arg):
            drop(node.annotation)
        elif isinstance(node, ast.AnnAssign):
            drop(node.annotation)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            drop(node.returns)
        elif isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "__all__" for t in node.targets):
            drop(node)
    return skip


def _changes(node: ast.AST) -> list[str]:
    """Return the changes this node admits, each as a short description."""
    if isinstance(node, ast.Compare):
        return [f"op{i}" for i, op in enumerate(node.ops) if type(op) in COMPARE_SWAP]
    if isinstance(node, ast.Constant):
        if isinstance(node.value, bool):
            return ["not"]
        if isinstance(node.value, int):
            return ["+1", "-1"]
        return []
    if isinstance(node, ast.BoolOp):
        return ["swap"]
    if isinstance(node, (ast.BinOp, ast.AugAssign)) and type(node.op) in BINOP_SWAP:
        return ["swap"]
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.Not)):
        return ["drop"]
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in CALL_SWAP:
        return ["swap"]
    return []


def _apply(node: ast.AST, change: str) -> ast.AST:
    """Return the node with the change made (a new node for a dropped unary operator)."""
    if isinstance(node, ast.Compare):
        i = int(change[2:])
        node.ops[i] = COMPARE_SWAP[type(node.ops[i])]()
    elif isinstance(node, ast.Constant):
        node.value = (not node.value) if change == "not" else node.value + int(change)
    elif isinstance(node, ast.BoolOp):
        node.op = BOOLOP_SWAP[type(node.op)]()
    elif isinstance(node, (ast.BinOp, ast.AugAssign)):
        node.op = BINOP_SWAP[type(node.op)]()
    elif isinstance(node, ast.UnaryOp):
        return node.operand
    elif isinstance(node, ast.Call):
        node.func = ast.Name(id=CALL_SWAP[node.func.id], ctx=ast.Load())
    return node


class _Walker:
    """Walk a module in a fixed order, numbering every (node, change) candidate."""

    def __init__(self, tree: ast.AST):
        self.skip = _skipped_nodes(tree)
        self.found: list[tuple[ast.AST, str, str, ast.AST | None, str | None]] = []
        self._visit(tree, [], None, None)

    def _visit(self, node: ast.AST, scope: list[str], parent: ast.AST | None, field: str | None) -> None:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            scope = scope + [node.name]
        if id(node) not in self.skip:
            for change in _changes(node):
                self.found.append((node, change, ".".join(scope) or "<module>", parent, field))
        for name, value in ast.iter_fields(node):
            if isinstance(value, list):
                for item in value:
                    if isinstance(item, ast.AST):
                        self._visit(item, scope, node, name)
            elif isinstance(value, ast.AST):
                self._visit(value, scope, node, name)


def _replace(parent: ast.AST, field: str, old: ast.AST, new: ast.AST) -> None:
    value = getattr(parent, field)
    if isinstance(value, list):
        value[value.index(old)] = new
    else:
        setattr(parent, field, new)


def find_mutants(path: Path, module: str | None = None) -> list[Mutant]:
    """Return every fault this script seeds into one module (named `module`, by default its path)."""
    source = path.read_text()
    tree = ast.parse(source)
    if module is None:
        module = path.relative_to(ROOT).as_posix() if path.is_relative_to(ROOT) else path.as_posix()
    mutants = []
    seen: dict[tuple[str, str, str], int] = {}
    for index, (node, change, function, parent, field) in enumerate(_Walker(tree).found):
        before, after = _shown(source, node, change, parent)
        # the n-th identical change in one function is told apart by its rank
        rank = seen[(function, before, after)] = seen.get((function, before, after), 0) + 1
        if rank > 1:
            after += f"  #{rank}"
        mutants.append(Mutant(module, index, change, node.lineno, function, before, after))
    return mutants


def _shown(source: str, node: ast.AST, change: str, parent: ast.AST | None) -> tuple[str, str]:
    """Return the changed expression before and after, inside its parent expression or simple statement."""
    simple = isinstance(parent, ast.expr) or (isinstance(parent, ast.stmt) and not hasattr(parent, "body"))
    context = parent if simple and len(ast.unparse(parent)) <= 120 else node
    before = ast.get_source_segment(source, context) or ast.unparse(context)
    twin = copy.deepcopy(context)
    # deepcopy keeps the shape, so the node has the same place in the copy's walk
    position = next(i for i, n in enumerate(ast.walk(context)) if n is node)
    target = list(ast.walk(twin))[position]
    changed = _apply(target, change)
    if changed is not target:
        if target is twin:
            twin = changed
        else:
            holder = next(n for n in ast.walk(twin) for _, v in ast.iter_fields(n)
                          if v is target or (isinstance(v, list) and any(x is target for x in v)))
            field = next(f for f, v in ast.iter_fields(holder) if v is target or (isinstance(v, list) and any(x is target for x in v)))
            _replace(holder, field, target, changed)
    return " ".join(before.split()), " ".join(ast.unparse(twin).split())


def mutated_source(path: Path, index: int) -> str:
    """Return the module's source with its index-th fault seeded."""
    tree = ast.parse(path.read_text())
    node, change, _function, parent, field = _Walker(tree).found[index]
    new = _apply(node, change)
    if new is not node:
        _replace(parent, field, node, new)
    return ast.unparse(ast.fix_missing_locations(tree)) + "\n"


def rules_modules(game: str) -> list[Path]:
    """Return a game's rules modules: every module of its package but the plug-in, table and views."""
    return sorted(p for p in (GAMES_DIR / game).glob("*.py") if p.name not in NOT_RULES)


# --- running the tests -----------------------------------------------------------------------

def test_command(game: str) -> list[str]:
    """The game's fast tests, its rules tests first, stopping at the first failure."""
    tests = sorted((ROOT / "tests" / game).glob("test_*.py"), key=lambda p: ("rules" not in p.name, p.name))
    return [sys.executable, "-m", "pytest", "-x", "-q", "-p", "no:cacheprovider", "-m", "not browser and not slow",
            "--hypothesis-profile=mutation", *[p.relative_to(ROOT).as_posix() for p in tests]]


def make_copy(into: Path) -> Path:
    """Copy the checkout's tracked files (and untracked, unignored ones) into a private folder."""
    listed = subprocess.run(["git", "ls-files", "-co", "--exclude-standard"], cwd=ROOT, check=True,
                            capture_output=True, text=True).stdout.splitlines()
    for name in listed:
        source = ROOT / name
        if source.is_file():
            target = into / name
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target)
    return into


def run_tests(workdir: Path, game: str) -> tuple[bool, float, str]:
    """Run the game's fast tests in workdir; return (passed, seconds, last lines of output)."""
    env = dict(os.environ, PYTHONPATH=str(workdir), PYTHONDONTWRITEBYTECODE="1")
    start = time.perf_counter()
    try:
        done = subprocess.run(test_command(game), cwd=workdir, env=env, capture_output=True, text=True,
                              timeout=RUN_TIMEOUT)
    except subprocess.TimeoutExpired:
        return False, time.perf_counter() - start, "timed out"
    tail = "\n".join((done.stdout + done.stderr).strip().splitlines()[-3:])
    return done.returncode == 0, time.perf_counter() - start, tail


def check_copy(workdir: Path) -> None:
    """Stop unless the copy's own `companion` package is the one its tests import."""
    env = dict(os.environ, PYTHONPATH=str(workdir))
    found = subprocess.run([sys.executable, "-c", "import companion; print(companion.__file__)"], cwd=workdir,
                           env=env, capture_output=True, text=True, check=True).stdout.strip()
    if not Path(found).resolve().is_relative_to(workdir.resolve()):
        sys.exit(f"error: the tests would import {found}, not the copy in {workdir}")


def load_equivalent() -> dict[tuple[str, str, str, str], str]:
    """Read the survivors judged equivalent: key -> why."""
    if not EQUIVALENT_FILE.exists():
        return {}
    data = tomllib.loads(EQUIVALENT_FILE.read_text())
    return {(e["module"], e["function"], e["before"], e["after"]): e["why"] for e in data.get("equivalent", [])}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("games", nargs="*", metavar="GAME", help=f"any of {', '.join(GAMES)} (default: all)")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="test runs at once (default: one per core)")
    parser.add_argument("--list", action="store_true", help="list the faults, run nothing")
    parser.add_argument("--module", help="only the modules whose path contains this")
    parser.add_argument("--match", help="only the faults whose description (as --list prints it) contains this")
    args = parser.parse_args(argv)
    for game in args.games:
        if game not in GAMES:
            parser.error(f"unknown game {game!r}: choose from {', '.join(GAMES)}")
    games = args.games or list(GAMES)
    equivalent = load_equivalent()

    def make_plan(root: Path) -> dict[str, list[Mutant]]:
        """The faults to try, read from the modules under root (named as in the checkout)."""
        return {g: [m for p in rules_modules(g) if not args.module or args.module in p.as_posix()
                    for m in find_mutants(root / p.relative_to(ROOT), p.relative_to(ROOT).as_posix())
                    if not args.match or args.match in m.describe()]
                for g in games}

    if args.list:
        plan = make_plan(ROOT)
        for game, mutants in plan.items():
            for m in mutants:
                print(f"{game} {m.describe()}")
        print(f"{sum(map(len, plan.values()))} faults")
        return 0

    with tempfile.TemporaryDirectory(prefix="mutation-") as tmp:
        # One snapshot of the checkout, taken now: the faults are planned and seeded from it,
        # so editing the working tree during a run changes nothing the run reports.
        snapshot = make_copy(Path(tmp) / "w0")
        plan = make_plan(snapshot)
        workers: queue.Queue[Path] = queue.Queue()
        for i in range(max(1, args.jobs)):
            workdir = snapshot if i == 0 else Path(shutil.copytree(snapshot, Path(tmp) / f"w{i}"))
            check_copy(workdir)
            workers.put(workdir)
        # the unchanged code must pass, or every fault would look caught
        for game in games:
            workdir = workers.get()
            passed, seconds, tail = run_tests(workdir, game)
            workers.put(workdir)
            if not passed:
                sys.exit(f"error: {game}'s tests fail before any fault is seeded:\n{tail}")
            print(f"{game}: {len(plan[game])} faults in {', '.join(p.name for p in rules_modules(game))}; "
                  f"the tests take {seconds:.1f} s", flush=True)

        def trial(game: str, m: Mutant) -> tuple[bool, float, str]:
            workdir = workers.get()
            target = workdir / m.module
            original = target.read_text()
            try:
                target.write_text(mutated_source(target, m.index))
                return run_tests(workdir, game)
            finally:
                target.write_text(original)
                workers.put(workdir)

        totals = []
        with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
            for game in games:
                futures = [(m, pool.submit(trial, game, m)) for m in plan[game]]
                caught = survived = judged = 0
                for m, future in futures:
                    passed, _seconds, _tail = future.result()
                    if not passed:
                        caught += 1
                    elif m.key in equivalent:
                        judged += 1
                    else:
                        survived += 1
                        print(f"  survived: {m.describe()}", flush=True)
                counted = caught + survived
                pct = 100 * caught / counted if counted else 100.0
                totals.append((game, len(plan[game]), caught, survived, judged))
                print(f"{game}: tried={len(plan[game])} caught={caught} survived={survived} "
                      f"equivalent={judged} score={pct:.1f}%", flush=True)
    caught = sum(t[2] for t in totals)
    counted = caught + sum(t[3] for t in totals)
    listed = {k for k in equivalent if any(k[0].startswith(f"companion/games/{g}/") for g in games)}
    used = {m.key for g in games for m in plan[g]}
    for stale in sorted(listed - used if not (args.match or args.module) else ()):
        print(f"note: an equivalent fault no longer seeded: {stale[0]} in {stale[1]}: {stale[2]} -> {stale[3]}")
    pct = 100 * caught / counted if counted else 100.0
    print(f"mutation_score={caught}/{counted}={pct:.1f}%")
    return 0


if __name__ == "__main__":
    sys.exit(main())
