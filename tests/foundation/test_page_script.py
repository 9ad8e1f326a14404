"""The page's script is small ES modules (static/js/), each one job, loaded from one entry.

base.html loads static/js/main.js as a module (no build step, no bundler); every module it
imports, and every module those import, must be served by the app as JavaScript (a module script
with the wrong MIME type, or a 404, stops the whole page's script, silently for the player). No
module grows past MAX_LINES, none puts anything on `window`, and no two define a function of the
same name (app.js once had two `say`s).
"""

import re
from pathlib import Path
from urllib.parse import urljoin, urlparse

import pytest

from companion import games, paths

MODULES = paths.STATIC / "js"
MAX_LINES = 200
IMPORT = re.compile(r'^\s*(?:import|export)\b[^;"\']*?\bfrom\s+"([^"]+)"|^\s*import\s+"([^"]+)"', re.M)
JAVASCRIPT = {"text/javascript", "application/javascript"}


def modules() -> list[Path]:
    return sorted(MODULES.glob("*.js"))


def imports(source: str) -> list[str]:
    """Return the addresses a module imports, as written."""
    return [a or b for a, b in IMPORT.findall(source)]


def loaded(client, page: str) -> dict[str, str]:
    """Request the page and every module it loads, following imports: {module's path: its source}."""
    html = client.get(page).get_data(as_text=True)
    entries = re.findall(r'<script type="module" src="([^"]+)"></script>', html)
    assert entries == ["/static/js/main.js"], "base.html loads one entry module"
    seen: dict[str, str] = {}
    todo = list(entries)
    while todo:
        path = todo.pop()
        if path in seen:
            continue
        response = client.get(path)
        assert response.status_code == 200, path
        assert response.mimetype in JAVASCRIPT, (path, response.mimetype)
        seen[path] = response.get_data(as_text=True)
        response.close()
        for address in imports(seen[path]):
            assert address.startswith("./") and address.endswith(".js"), (path, address)  # relative, no bare names
            todo.append(urlparse(urljoin(path, address)).path)
    return seen


def test_no_module_is_over_max_lines():
    assert len(modules()) >= 10
    long = {p.name: n for p in modules() if (n := len(p.read_text().splitlines())) > MAX_LINES}
    assert long == {}, f"split them: a module does one job in at most {MAX_LINES} lines"


@pytest.mark.parametrize("game_key", list(games.registry()))
def test_a_table_page_loads_every_module_from_its_entry_each_served_as_javascript(client, api, game_key):
    game = games.get(game_key)
    t = api.create(game_key, ["Anna", "Tom", "Kate", "Ben"][: max(game.min_players, 2)])
    client.set_cookie(f"tc_{t['table']}", t["token"])
    served = loaded(client, f"/t/{t['table']}")
    # every module in the folder is part of the page (none left behind, unloaded), and the
    # page's script is what the files say
    assert set(served) == {f"/static/js/{p.name}" for p in modules()}
    for path, source in served.items():
        assert source == (MODULES / Path(path).name).read_text(), path


def test_the_home_page_loads_the_same_entry(client):
    assert set(loaded(client, "/")) == {f"/static/js/{p.name}" for p in modules()}


def test_every_import_names_a_function_the_module_exports():
    export = re.compile(r"^export (?:function|const|var|let) (\w+)", re.M)
    exported = {p.name: set(export.findall(p.read_text())) for p in modules()}
    for path in modules():
        for names, module in re.findall(r'import \{([^}]*)\} from "\./([\w.]+)"', path.read_text()):
            for name in filter(None, (n.strip() for n in names.split(","))):
                assert name in exported[module], f"{path.name} imports {name} from {module}"


def test_modules_share_nothing_through_window_and_no_two_functions_share_a_name():
    defined: dict[str, str] = {}
    for path in modules():
        source = path.read_text()
        assert not re.search(r"\bwindow\.[\w$]+\s*=[^=]|\bglobalThis\b|\bself\.[\w$]+\s*=[^=]", source), path.name
        assert "document.currentScript" not in source, path.name  # null in a module: use import.meta.url
        for name in re.findall(r"\bfunction\s+([\w$]+)\s*\(", source):
            assert name not in defined, f"function {name} in {path.name} and {defined[name]}"
            defined[name] = path.name


def test_no_module_reads_a_version_out_of_html():
    """The version travels as data (issue 28): an answer's X-Table-Version, a pushed event's id, the
    page's <body data-version>; never a regular expression over the HTML an answer carries."""
    for path in modules():
        source = path.read_text()
        assert 'data-version="' not in source and "versionIn" not in source, path.name
        assert not re.search(r"\.match\(/[^/]*version", source) and not re.search(r"/[^/\n]*version[^/\n]*/\.exec", source), path.name


def import_circles(graph: dict[str, list[str]]) -> list[list[str]]:
    """Return the import circles of a graph {module: the modules it imports}, each as the path that closes it."""
    circles, done = [], set()

    def walk(name: str, path: list[str]) -> None:
        if name in path:
            circles.append(path[path.index(name):] + [name])
            return
        if name in done:
            return
        for other in graph.get(name, []):
            walk(other, path + [name])
        done.add(name)

    for name in sorted(graph):
        walk(name, [])
    return circles


def test_import_circles_are_found():
    assert import_circles({"a.js": ["b.js"], "b.js": ["c.js"], "c.js": ["a.js"]}) == [["a.js", "b.js", "c.js", "a.js"]]
    assert import_circles({"a.js": ["b.js", "c.js"], "b.js": ["c.js"], "c.js": []}) == []


def test_no_two_modules_import_each_other_even_through_others():
    """A module's imports form no circle (kept.js and versions.js once imported each other): each module
    can be read, and run, after what it imports, and a circle's half-initialised module (an import read
    before its module has run) cannot happen."""
    graph = {p.name: [Path(a).name for a in imports(p.read_text())] for p in modules()}
    assert import_circles(graph) == []
