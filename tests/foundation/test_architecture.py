"""The folder layout tells the architecture: rules are plain Python and never load Flask."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_rules_import_nothing_from_flask():
    code = (
        "import sys, companion.games as g, companion.rules, companion.tables\n"
        "g.registry()\n"
        "bad = sorted(m for m in sys.modules if m.split('.')[0] in ('flask', 'werkzeug', 'jinja2'))\n"
        "print(bad)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_no_game_source_mentions_flask():
    for path in (ROOT / "companion" / "games").rglob("*.py"):
        text = path.read_text()
        assert "import flask" not in text and "from flask" not in text, path


def test_app_and_tests_do_not_read_shared():
    for folder in ("companion", "tests", "templates", "static"):
        for path in (ROOT / folder).rglob("*"):
            if path.suffix in (".py", ".html", ".js") and path.name != "test_architecture.py":
                assert "../shared" not in path.read_text() and "/work/shared" not in path.read_text(), path


# --- docs/architecture.md: one shape for every game, imports one way, modules of a readable size ---

import ast
import re

import pytest

from companion.games import get, registry

ARCHITECTURE = ROOT / "docs" / "architecture.md"
GAMES = ROOT / "companion" / "games"
MAX_LINES = 450


def section(title: str) -> str:
    """Return the text of one `## title` section of docs/architecture.md."""
    text = ARCHITECTURE.read_text()
    start = text.index(f"## {title}")
    end = text.find("\n## ", start + 1)
    return text[start:end if end != -1 else None]


def table_rows(title: str) -> list[list[str]]:
    """Return the cells of each row of the tables in one section whose first cell is `code`."""
    return [[c.strip() for c in line.split("|")[1:-1]] for line in section(title).splitlines() if line.startswith("| `")]


def documented_modules() -> tuple[set[str], dict[str, set[str]]]:
    """Return (the modules every game has, {module a game alone needs: the games that have it})."""
    common = {cells[0].strip(" `") for cells in table_rows("A game package")}
    own = {cells[0].strip(" `"): {g.strip() for g in cells[1].split(",")} for cells in table_rows("Modules a game alone needs")}
    return common, own


def game_packages() -> list[Path]:
    return sorted(p for p in GAMES.iterdir() if (p / "__init__.py").exists())


def test_architecture_page_lists_a_shape_and_every_game_follows_it():
    common, own = documented_modules()
    assert {"__init__.py", "rules.py", "functions.py", "table.py", "view.py", "profile.py"} <= common
    assert own, "the page lists the modules a game alone needs"
    from companion.games import registry

    keys = {p.name for p in game_packages()}
    assert keys == set(registry()), "every package under companion/games/ is a game the registry finds"
    for games in own.values():
        assert games <= keys
    for package in game_packages():
        expected = common | {name for name, games in own.items() if package.name in games}
        assert {p.name for p in package.glob("*.py")} == expected, package.name


def test_base_docstring_names_the_same_modules_as_the_architecture_page():
    import companion.games.base as base

    common, own = documented_modules()
    for name in common | set(own):
        assert name in base.__doc__, name


def test_every_path_the_architecture_page_names_exists():
    named = re.findall(r"`((?:companion|templates|static|data|tests|bench|scripts|docs)/[^`\s:]*)", ARCHITECTURE.read_text())
    assert len(named) > 10
    for path in named:
        assert (ROOT / path.rstrip("/")).exists() or "KEY" in path, path


def test_each_game_plugs_in_through_the_one_plug_in_class():
    from companion.games import registry
    from companion.games.base import Game

    for key, game in registry().items():
        assert type(game) is Game, key  # no subclass: the modules hold the game
        tree = ast.parse((GAMES / key / "__init__.py").read_text())
        assert not [n for n in tree.body if isinstance(n, (ast.ClassDef, ast.FunctionDef))], f"{key}/__init__.py holds logic"


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports_of(name: str, source: str, known: set[str], package: bool = False) -> set[str]:
    """Return the modules in `known` that module `name` imports, at its top or inside a function alike."""
    parent = name if package else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                parts = parent.split(".")
                origin = ".".join(parts[: len(parts) - node.level + 1] + ([node.module] if node.module else []))
            else:
                origin = node.module or ""
            found |= {f"{origin}.{alias.name}" if f"{origin}.{alias.name}" in known else origin for alias in node.names}
    return {m for m in found if m in known and m != name}


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """Return one import cycle (a list of modules, the first one again at the end), or None."""
    done: set[str] = set()

    def visit(name: str, trail: list[str]) -> list[str] | None:
        if name in trail:
            return trail[trail.index(name):] + [name]
        if name in done:
            return None
        for other in sorted(graph[name]):
            if cycle := visit(other, trail + [name]):
                return cycle
        done.add(name)
        return None

    return next((c for name in sorted(graph) if (c := visit(name, []))), None)


def test_no_import_cycles_in_companion():
    paths = {module_name(p): p for p in (ROOT / "companion").rglob("*.py")}
    graph = {name: imports_of(name, path.read_text(), set(paths), path.name == "__init__.py") for name, path in paths.items()}
    assert sum(len(v) for v in graph.values()) > 50  # the imports were read
    cycle = find_cycle(graph)
    assert cycle is None, "import cycle: " + " -> ".join(cycle or [])


def test_the_cycle_finder_sees_an_import_inside_a_function():
    known = {"pkg", "pkg.a", "pkg.b", "pkg.c"}
    graph = {"pkg": imports_of("pkg", "from . import a\n", known, package=True),
             "pkg.a": imports_of("pkg.a", "from . import b\nimport os\n", known),
             "pkg.b": imports_of("pkg.b", "def f():\n    from .c import x\n", known),
             "pkg.c": imports_of("pkg.c", "from .a import y\n", known)}
    assert graph == {"pkg": {"pkg.a"}, "pkg.a": {"pkg.b"}, "pkg.b": {"pkg.c"}, "pkg.c": {"pkg.a"}}
    assert find_cycle(graph) == ["pkg.a", "pkg.b", "pkg.c", "pkg.a"]
    graph["pkg.c"] = set()
    assert find_cycle(graph) is None


def test_no_module_runs_past_450_lines():
    long = {str(p.relative_to(ROOT)): n for p in (ROOT / "companion").rglob("*.py")
            if (n := len(p.read_text().splitlines())) > MAX_LINES}
    assert not long, f"split these by role (docs/architecture.md): {long}"


def test_every_event_of_every_game_has_a_handler_and_a_history_line():
    from companion.games import registry
    from companion.games.base import COMMON_EVENTS, COMMON_LINES

    for key, game in registry().items():
        table = game.modules.table
        own = set(game.events) - set(COMMON_EVENTS)  # the events every game takes: games/seats.py, clock.py
        assert set(table.HANDLERS) == own, key
        assert set(table.LINES) == own, key
    assert set(COMMON_LINES) == set(COMMON_EVENTS)


def test_every_game_refuses_an_unknown_event_once_in_the_plug_in_class():
    """Game.apply refuses a type the game does not list, naming the ones it does; nothing reaches the table module."""
    import pytest

    from companion.games import registry
    from companion.games.base import Context
    from companion.games.validation import RulesError
    from tests.examples import examples

    for key, game in registry().items():
        names = ["Ana", "Ben", "Cy", "Dee"][:max(game.min_players, min(2, game.max_players))]  # a table the game takes
        state = game.initial_state(names, game.validate_options(examples(key).OPTIONS, len(names)), {})
        with pytest.raises(RulesError) as err:
            game.apply(state, "jump", {}, Context(names=tuple(names)))
        assert err.value.field == "type", key
        assert err.value.message == f"unknown event type for {game.title}: 'jump'; allowed: {', '.join(game.events)}, rename"


# --- the adding-a-game checklist (docs/architecture.md): every piece, checked from the files -------------

def documented_templates() -> list[str]:
    """The templates every game has, from the page's table ("A game's templates")."""
    return [cells[0].strip(" `") for cells in table_rows("A game's templates")]


def defined_names(path: Path) -> set[str]:
    """The names a module defines at its top: assignments, functions, classes and imports."""
    found = set()
    for node in ast.parse(path.read_text()).body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            found.add(node.name)
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            found |= {t.id for t in targets if isinstance(t, ast.Name)}
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            found |= {(a.asname or a.name).split(".")[0] for a in node.names}
    return found


#: the fixtures that hand a test Debian's chromium (tests/conftest.py): a browser test takes one
BROWSER_FIXTURES = {"browser", "phone", "dark_phone"}


def _is_skip_call(node: ast.AST) -> bool:
    """`pytest.skip(...)` (or `skip(...)` imported from pytest)."""
    return (isinstance(node, ast.Call) and (isinstance(node.func, ast.Attribute) and node.func.attr == "skip"
                                            or isinstance(node.func, ast.Name) and node.func.id == "skip"))


def _is_skip_mark(node: ast.AST) -> bool:
    """`pytest.mark.skip`, `pytest.mark.skip(...)`, or `pytest.mark.skipif(True, ...)`: a skip whatever runs."""
    if isinstance(node, ast.Call):
        if isinstance(node.func, ast.Attribute) and node.func.attr == "skipif":
            return bool(node.args) and isinstance(node.args[0], ast.Constant) and bool(node.args[0].value)
        node = node.func
    return isinstance(node, ast.Attribute) and node.attr == "skip"


def browser_test_problems(path: Path) -> list[str]:
    """Why a `*_browser.py` file is no real browser test (empty when it is one): it must define a test that
    takes the browser (a fixture of BROWSER_FIXTURES, or one of its own that does) and is not skipped
    whatever runs (a module-level `pytest.skip`, a `pytestmark` skip, a skip mark, a body that only skips)."""
    tree = ast.parse(path.read_text())
    problems = []
    for node in tree.body:
        if isinstance(node, ast.Expr) and _is_skip_call(node.value):
            problems.append("skips the whole module (pytest.skip at its top)")
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "pytestmark" for t in node.targets):
            marks = node.value.elts if isinstance(node.value, (ast.List, ast.Tuple)) else [node.value]
            if any(_is_skip_mark(m) for m in marks):
                problems.append("skips the whole module (a skip in pytestmark)")
    functions = [n for n in tree.body if isinstance(n, ast.FunctionDef)]
    # a fixture of the file's own drives the browser only where it takes one that does (followed to a fixed point):
    # `def nothing(): return 1` taken by a test is no browser
    drives = set(BROWSER_FIXTURES)
    while True:
        more = {f.name for f in functions if not f.name.startswith("test") and {a.arg for a in f.args.args} & drives}
        if more <= drives:
            break
        drives |= more
    takes_browser = {f.name for f in functions if {a.arg for a in f.args.args} & drives}
    real = []
    for f in functions:
        if not f.name.startswith("test") or f.name not in takes_browser:
            continue
        body = f.body[1:] if f.body and isinstance(f.body[0], ast.Expr) and isinstance(f.body[0].value, ast.Constant) else f.body
        only_skips = all(isinstance(n, ast.Expr) and _is_skip_call(n.value) or isinstance(n, ast.Pass) for n in body)
        if not only_skips and not any(_is_skip_mark(d) for d in f.decorator_list):
            real.append(f.name)
    if not real:
        problems.append(f"defines no test that drives the browser (a test taking {' or '.join(sorted(BROWSER_FIXTURES))} "
                        "from tests/conftest.py, whose body does more than skip)")
    return problems


def order_keys(path: Path) -> list[str]:
    """The keys the registry's ORDER lists (companion/games/__init__.py), read from the file."""
    for node in ast.parse(path.read_text()).body:
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "ORDER" for t in node.targets):
            return [e.value for e in node.value.elts if isinstance(e, ast.Constant)]
    return []


def missing_pieces(root: Path, key: str, title: str, rule_text: str | None, tracks: bool = True,
                   events: tuple[str, ...] = ()) -> list[str]:
    """Return every piece of the checklist (docs/architecture.md, "Adding a game: a checklist") that the game
    KEY lacks under `root`, each named as the path to write and what it is for.

    `rule_text` None: a game with no rule text to cite (no docs/rules/ file). `tracks` False: a game whose
    every table is its end (it takes no event beyond the common ones and its calculator's), which needs no
    end screen. `events`: the event types docs/KEY.md names.
    """
    from companion.games.base import ROLES
    from companion.games.speech import LANGUAGES, SOURCE

    out = []
    package = root / "companion" / "games" / key
    common, _ = documented_modules()
    for name in sorted(common):
        path = package / name
        if not path.exists():
            out.append(f"companion/games/{key}/{name} (a module every game has: docs/architecture.md, A game package)")
            continue
        role = name.removesuffix(".py")
        needs = {"GAME": "the plug-in"} if role == "__init__" else ROLES.get(role, {})
        out += [f"companion/games/{key}/{name}: {n} ({what})" for n, what in needs.items() if n not in defined_names(path)]
    # the registry's ORDER: where the game shows among the others
    if key not in order_keys(root / "companion" / "games" / "__init__.py"):
        out.append(f"companion/games/__init__.py: '{key}' in ORDER (where it shows among the games)")
    # the templates: one per role, but the end screen of a game that tracks nothing
    for t in documented_templates():
        if t == "_end.html" and not tracks:
            continue
        if not (root / "templates" / key / t).exists():
            out.append(f"templates/{key}/{t} (its role: docs/architecture.md, A game's templates)")
    shown = "".join(p.read_text() for p in (root / "templates" / key).glob("*.html"))
    if "data-result" not in shown:
        out.append(f"templates/{key}/: a section marked data-result (the result every phone brings into view)")
    # the catalogs: the game's sentences in every language the app speaks (scripts/catalogs.py makes them)
    catalogs = package / "translations"
    if not (catalogs / "messages.pot").exists():
        out.append(f"companion/games/{key}/translations/messages.pot (run scripts/catalogs.py: the English its code marks)")
    for lang in sorted(set(LANGUAGES) - {SOURCE}):
        if not (catalogs / lang / "LC_MESSAGES" / "messages.po").exists():
            out.append(f"companion/games/{key}/translations/{lang}/LC_MESSAGES/messages.po (run scripts/catalogs.py, "
                       f"then translate its sentences)")
    # the documents
    rules_md = (root / "docs" / "RULES.md").read_text()
    if not re.search(rf"^# \d+\. {re.escape(title)}\b", rules_md, re.M):
        out.append(f"docs/RULES.md: a part '# N. {title}' (what the app computes, the readings it follows)")
    if not re.search(rf"^## {re.escape(key)}\s*$", (root / "docs" / "CONTRACT.md").read_text(), re.M):
        out.append(f"docs/CONTRACT.md: a section '## {key}' (its JSON functions and table events)")
    if rule_text is not None:
        if not (root / "docs" / "rules" / rule_text).exists():
            out.append(f"docs/rules/{rule_text} (the rule text its citations are lines of: Game's rule_text)")
        if f"`rules/{rule_text}`" not in rules_md:
            out.append(f"docs/RULES.md: names `rules/{rule_text}` (its rule text)")
    page = root / "docs" / f"{key}.md"
    if not page.exists():
        out.append(f"docs/{key}.md (what the app does for the game)")
    else:
        said = page.read_text()
        out += [f"docs/{key}.md: the event `{e}` (every event the game takes, the common ones too)" for e in events
                if f"`{e}`" not in said]
    if f"(docs/{key}.md)" not in (root / "README.md").read_text():
        out.append(f"README.md: a link to docs/{key}.md")
    glossary = (root / "docs" / "glossary.md").read_text()
    if not re.search(rf"^## {re.escape(title)}\s*$", glossary, re.M):
        out.append(f"docs/glossary.md: a section '## {title}' (the terms its pages show, in every language, with their source)")
    # the tests
    tests = root / "tests" / key
    for name, what in (("__init__.py", "the folder as a package"), ("examples.py", "what the shared tests play with: tests/examples.py GIVES"),
                       ("test_rules.py", "a test per rule"), ("test_table.py", "its table events"),
                       ("test_web.py", "its pages, through the real app"),
                       ("test_region_parts.py", "its live region drawn in parts is the region drawn whole: "
                                                "docs/architecture.md, Drawing only what changed")):
        if not (tests / name).exists():
            out.append(f"tests/{key}/{name} ({what})")
    browser = sorted(tests.glob("*_browser.py"))
    if not browser:
        out.append(f"tests/{key}/: a browser test at 360 px (*_browser.py: a test taking the `phone` fixture)")
    elif all(browser_test_problems(p) for p in browser):
        out += [f"tests/{key}/{p.name}: {why}" for p in browser for why in browser_test_problems(p)]
    return out


@pytest.mark.parametrize("key", list(registry()))
def test_every_game_has_every_piece(key):
    game = get(key)
    lacking = missing_pieces(ROOT, key, game.title, game.rule_text, game.tracks, tuple(game.events))
    assert lacking == [], f"the game {key} lacks (docs/architecture.md, Adding a game: a checklist):\n  " + "\n  ".join(lacking)


def test_the_page_says_what_each_module_must_define_as_the_code_checks_it():
    from companion.games.base import ROLES

    rows = {cells[0].strip(" `").removesuffix(".py"): cells for cells in table_rows("A game package")}
    for role, names in ROLES.items():
        said = set(re.findall(r"`(\w+)`", rows[role][2]))
        assert said == set(names), f"docs/architecture.md, {role}.py must define: {sorted(said ^ set(names))}"


def test_the_page_says_what_each_module_may_define_as_core_asks_it():
    """The fourth column of "A game package" names exactly base.OPTIONAL's names, each in its module's row."""
    from companion.games.base import OPTIONAL

    rows = {cells[0].strip(" `").removesuffix(".py"): cells for cells in table_rows("A game package")}
    assert set(OPTIONAL) <= set(rows), "a module OPTIONAL names is no row of the page"
    for role, cells in rows.items():
        said = set(re.findall(r"(?:^|\), )`(\w+)`", cells[3]))  # the names the cell opens with, not the defaults it says
        assert said == set(OPTIONAL.get(role, {})), f"docs/architecture.md, {role}.py may define: {sorted(said ^ set(OPTIONAL.get(role, {})))}"


def test_a_fifth_game_missing_a_piece_is_told_which(tmp_path):
    """The checklist on a copy of the repository's documents with a half-made game "chess"."""
    for name in ("docs/RULES.md", "docs/CONTRACT.md", "docs/glossary.md", "README.md", "companion/games/__init__.py"):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text((ROOT / name).read_text())
    package = tmp_path / "companion" / "games" / "chess"
    package.mkdir()
    for name in ("__init__.py", "rules.py", "functions.py", "table.py", "profile.py", "calculator.py"):
        (package / name).write_text((GAMES / "codex" / name).read_text())
    (package / "view.py").write_text((GAMES / "codex" / "view.py").read_text().replace("RUNNING_LABEL =", "RUNNING ="))
    (package / "translations" / "fr" / "LC_MESSAGES").mkdir(parents=True)
    (package / "translations" / "fr" / "LC_MESSAGES" / "messages.po").write_text("")
    (tmp_path / "templates" / "chess").mkdir(parents=True)
    (tmp_path / "templates" / "chess" / "panel.html").write_text("<section data-result></section>")
    (tmp_path / "tests" / "chess").mkdir(parents=True)
    (tmp_path / "docs" / "chess.md").write_text("Chess: `move`.")
    # a browser test that only skips does not count
    (tmp_path / "tests" / "chess" / "test_board_browser.py").write_text(
        "import pytest\n\npytestmark = [pytest.mark.browser, pytest.mark.skip(reason='later')]\n\n\n"
        "def test_board(phone):\n    phone.goto('/')\n")

    said = missing_pieces(tmp_path, "chess", "Chess", "chess.txt", events=("move", "castle"))
    assert "companion/games/chess/view.py: RUNNING_LABEL (what the running score is, for the archive's chart)" in said
    assert "templates/chess/_result.html (its role: docs/architecture.md, A game's templates)" in said
    assert "templates/chess/_end.html (its role: docs/architecture.md, A game's templates)" in said
    assert "templates/chess/panel.html (its role: docs/architecture.md, A game's templates)" not in said
    assert "docs/RULES.md: a part '# N. Chess' (what the app computes, the readings it follows)" in said
    assert "docs/CONTRACT.md: a section '## chess' (its JSON functions and table events)" in said
    assert "docs/rules/chess.txt (the rule text its citations are lines of: Game's rule_text)" in said
    assert "docs/chess.md: the event `castle` (every event the game takes, the common ones too)" in said
    assert not [p for p in said if "`move`" in p]
    assert "docs/glossary.md: a section '## Chess' (the terms its pages show, in every language, with their source)" in said
    assert "companion/games/chess/translations/messages.pot (run scripts/catalogs.py: the English its code marks)" in said
    assert ("companion/games/chess/translations/de/LC_MESSAGES/messages.po (run scripts/catalogs.py, then translate its "
            "sentences)") in said
    assert not [p for p in said if p.startswith("companion/games/chess/translations/fr/")]
    assert "tests/chess/examples.py (what the shared tests play with: tests/examples.py GIVES)" in said
    assert [p for p in said if p.startswith("tests/chess/test_region_parts.py (its live region drawn in parts")]
    assert "tests/chess/test_board_browser.py: skips the whole module (a skip in pytestmark)" in said
    assert "companion/games/__init__.py: 'chess' in ORDER (where it shows among the games)" in said
    assert not [p for p in said if p.startswith(("companion/games/chess/table.py", "companion/games/chess/calculator.py"))]

    # a game with no rule text and nothing to track: no docs/rules/ file, no end screen
    said = missing_pieces(tmp_path, "chess", "Chess", None, tracks=False)
    assert not [p for p in said if "docs/rules/" in p or "rules/" in p.split(":")[0] or "_end.html" in p]
    assert "templates/chess/_result.html (its role: docs/architecture.md, A game's templates)" in said

    # a real browser test counts; so does one in a second file beside a placeholder
    (tmp_path / "tests" / "chess" / "test_more_browser.py").write_text(
        "import pytest\n\npytestmark = [pytest.mark.browser]\n\n\ndef test_board(phone, server):\n    phone.goto(server)\n")
    assert not [p for p in missing_pieces(tmp_path, "chess", "Chess", None) if "browser" in p]
    # the key must be in ORDER itself, not anywhere in the file
    registry_file = tmp_path / "companion" / "games" / "__init__.py"
    registry_file.write_text(registry_file.read_text() + "\n# chess comes later\n")
    assert "companion/games/__init__.py: 'chess' in ORDER (where it shows among the games)" in missing_pieces(
        tmp_path, "chess", "Chess", None)


@pytest.mark.parametrize("source, problems", [
    ("import pytest\n\npytest.skip('later', allow_module_level=True)\n\ndef test_a(phone):\n    phone.goto('/')\n",
     ["skips the whole module (pytest.skip at its top)"]),
    ("import pytest\n\npytestmark = pytest.mark.skipif(True, reason='x')\n\ndef test_a(phone):\n    phone.goto('/')\n",
     ["skips the whole module (a skip in pytestmark)"]),
    ("import pytest\n\ndef test_a(phone):\n    \"\"\"Later.\"\"\"\n    pytest.skip('later')\n", ["defines no test"]),
    ("import pytest\n\n@pytest.mark.skip\ndef test_a(phone):\n    phone.goto('/')\n", ["defines no test"]),
    ("def test_a(server):\n    assert server\n", ["defines no test"]),
    ("import pytest\n\n@pytest.fixture\ndef table_page(phone, server):\n    return phone\n\n"
     "def test_a(table_page):\n    table_page.click('#x')\n", []),
    ("import pytest\n\npytestmark = pytest.mark.skipif(not FAST, reason='x')\n\ndef test_a(dark_phone):\n    dark_phone.goto('/')\n", []),
    # a fixture of its own that takes no browser is no browser; one taking such a fixture that does, is
    ("import pytest\n\n@pytest.fixture\ndef nothing():\n    return 1\n\ndef test_a(nothing):\n    assert nothing\n",
     ["defines no test"]),
    ("import pytest\n\n@pytest.fixture\ndef page_(phone):\n    return phone\n\n@pytest.fixture\ndef table(page_):\n"
     "    return page_\n\ndef test_a(table):\n    table.click('#x')\n", []),
])
def test_a_browser_test_that_only_skips_is_told(tmp_path, source, problems):
    path = tmp_path / "test_x_browser.py"
    path.write_text(source)
    said = browser_test_problems(path)
    assert len(said) == len(problems) and all(s.startswith(p) for s, p in zip(said, problems)), said


def test_every_games_browser_tests_drive_the_browser():
    """Each game's own browser tests are real: every `*_browser.py` of a game's tests (not only one of them)."""
    from companion.games import registry

    found = {f"tests/{key}/{p.name}": why for key in registry() for p in sorted((ROOT / "tests" / key).glob("*_browser.py"))
             if (why := browser_test_problems(p))}
    assert found == {}


def test_a_game_lacking_a_role_fails_as_it_is_registered():
    import pytest

    from companion.games.base import Game
    from companion.games.codex import calculator, functions, profile, table, view

    class Half:  # the codex view without its running score's label
        def __getattr__(self, name):
            if name == "RUNNING_LABEL":
                raise AttributeError(name)
            return getattr(view, name)

    with pytest.raises(TypeError) as err:
        Game(key="chess", title="Chess", min_players=2, max_players=2, rule_text="chess.txt", cites="CH",
             functions=functions, table=table,
             view=Half(), profile=profile, calculator=calculator)
    assert "companion/games/chess/view.py: RUNNING_LABEL (what the running score is" in str(err.value)


# --- the page's lists of modules: every module of these folders named, every module named there -------

def subsection(title: str, heading: str) -> str:
    """Return the text of one `### heading` part of a `## title` section of docs/architecture.md."""
    text = section(title)
    start = text.index(f"### {heading}\n")
    end = text.find("\n### ", start + 1)
    return text[start:end if end != -1 else None]


def first_cells(text: str) -> list[str]:
    """The `code` of each table row's first cell in `text`."""
    return [line.split("|")[1].strip(" `") for line in text.splitlines() if line.startswith("| `")]


#: a folder of modules -> where the page lists them: (section, subsection or None), and the suffix
LISTED = {
    "companion": (("The modules", "`companion/`"), ".py"),
    "companion/web": (("The modules", "`companion/web/`"), ".py"),
    "companion/games": (("The modules", "`companion/games/`"), ".py"),
    "static/js": (("The page's script", None), ".js"),
}


def listed_modules(folder: str) -> list[str]:
    (title, heading), _ = LISTED[folder]
    return first_cells(subsection(title, heading) if heading else section(title))


@pytest.mark.parametrize("folder", sorted(LISTED))
def test_the_page_lists_every_module_of_a_folder_and_only_those(folder):
    _, suffix = LISTED[folder]
    listed = listed_modules(folder)
    assert len(listed) == len(set(listed)), f"{folder}: a module listed twice"
    present = {p.name for p in (ROOT / folder).glob(f"*{suffix}")}
    assert set(listed) - present == set(), f"docs/architecture.md lists modules {folder}/ does not hold"
    assert present - set(listed) == set(), f"docs/architecture.md does not list these modules of {folder}/"


def named_modules(text: str) -> set[str]:
    """Every .py or .js file a `code` span of the page names, as written (a path, or a bare name;
    not a pattern such as `*_browser.py`)."""
    return {m for span in re.findall(r"`([^`]+)`", text) for m in re.findall(r"(?<![\w*./-])[\w./-]+\.(?:py|js)\b", span)}


def code_files() -> set[str]:
    """The checkout's .py and .js files, as paths from its root."""
    folders = ("companion", "static", "scripts", "bench", "tests", "templates")
    found = {p.relative_to(ROOT).as_posix() for f in folders for p in (ROOT / f).rglob("*") if p.suffix in (".py", ".js")}
    return found | {p.name for p in ROOT.glob("*.py")}


def test_every_module_the_page_names_exists():
    files = code_files()
    named = named_modules(ARCHITECTURE.read_text())
    assert {"health.py", "static/js/versions.js", "words.js", "packing.py"} <= named  # the page was read
    # a path through KEY is any game's (the checklist's `tests/KEY/test_web.py`): some game has it
    missing = sorted(n for n in named if n not in files and not any(f.endswith("/" + n) for f in files)
                     and not ("KEY/" in n and any(n.replace("KEY", key) in files for key in registry())))
    assert missing == [], f"docs/architecture.md names modules that do not exist: {missing}"


def test_a_module_named_that_does_not_exist_is_seen():
    files = {"companion/web/tables.py", "static/js/taps.js"}
    named = named_modules("a second way in, `taps.py`, and `companion/web/tables.py:post_event`; `static/js/taps.js`, `*_browser.py`")
    assert named == {"taps.py", "companion/web/tables.py", "static/js/taps.js"}
    assert [n for n in sorted(named) if n not in files and not any(f.endswith("/" + n) for f in files)] == ["taps.py"]


# --- a game's imports run one way, as the page writes them ---------------------------------------------

def import_chain() -> list[set[str]]:
    """The page's chain of a game's modules (`a` → `b`, `c` → …), each step's modules."""
    line = next(line for line in section("Modules a game alone needs").splitlines() if line.startswith("`__init__` →"))
    return [{m.strip(" `") for m in step.split(",")} for step in line.split("→")]


def test_a_games_modules_import_one_another_in_the_direction_the_page_writes():
    chain = import_chain()
    rank = {name: i for i, step in enumerate(chain) for name in step}
    common, own = documented_modules()
    assert {m.removesuffix(".py") for m in common | set(own)} == set(rank), "the chain names every module of a game"
    for package in game_packages():
        names = {p.stem for p in package.glob("*.py")}
        known = {f"companion.games.{package.name}.{n}" for n in names}
        for path in package.glob("*.py"):
            name = module_name(path)
            for other in imports_of(name, path.read_text(), known, path.name == "__init__.py"):
                here, there = path.stem, other.rpartition(".")[2]
                assert rank[here] < rank[there], f"{package.name}: {here}.py imports {there}.py, against docs/architecture.md's chain"


def test_each_games_plug_in_names_its_modules():
    """A game's `__init__.py` docstring lists its modules: every one it has, none it lacks."""
    for package in game_packages():
        doc = ast.get_docstring(ast.parse((package / "__init__.py").read_text()))
        named = set(re.findall(r"(?<![/\w])(\w+\.py)\b", doc))  # not a path: companion/games/base.py
        assert named == {p.name for p in package.glob("*.py") if p.name != "__init__.py"}, package.name
