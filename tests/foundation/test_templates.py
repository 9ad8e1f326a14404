"""A game's templates show the words and numbers its view computes (issue 30, docs/architecture.md,
"A game's templates"): no rule arithmetic, no rule's value, no comparison with a rule's words.

One check for every game in companion.games.registry(): each template of templates/KEY/ is parsed with
the app's Jinja environment and its expressions are walked; its own words and attributes (the Jinja
parts blanked out) are read for digits. What a game legitimately keeps is in its tests/KEY/examples.py,
TEMPLATE_ALLOWS: {(template, finding): the reason}.
"""

from __future__ import annotations

import re
from pathlib import Path

import jinja2
import pytest
from jinja2 import nodes

from companion import games
from tests.examples import examples

ROOT = Path(__file__).resolve().parents[2]
KEYS = list(games.registry())

ARITHMETIC = {nodes.Add: "+", nodes.Sub: "-", nodes.Mul: "*", nodes.Div: "/", nodes.FloorDiv: "//",
              nodes.Mod: "%", nodes.Pow: "**"}
ORDER = {"lt": "<", "gt": ">", "lteq": "<=", "gteq": ">="}
SAME = {"eq": "==", "ne": "!=", "in": "in", "notin": "not in"}
#: filters that pick, add up or order: the view says the number or the item
COMPUTING_FILTERS = {"sum", "min", "max", "selectattr", "rejectattr", "select", "reject", "first", "last", "sort",
                     "groupby", "unique", "round", "abs", "batch", "slice"}
#: tests that compute with numbers
COMPUTING_TESTS = {"divisibleby", "odd", "even", "gt", "ge", "lt", "le", "eq", "ne", "greaterthan", "lessthan",
                   "equalto", "==", "!=", "<", ">", "<=", ">="}
#: what a template may compare with a word: the screen shown, the field a refusal names
ROUTING = {"screen", "scr", "field"}
#: a position in a list (a player's seat, loop.index) may be compared with a number: which one to open or preselect
POSITIONS = {"index", "index0"}
#: attributes whose digits are the page's own: names and addresses
OWN_ATTRIBUTES = ("class=", "id=", "for=", "href=")


# --- what a template says, as text a finding and an allowance can name ----------------------------

def said(node: nodes.Node) -> str:
    """The expression as it is written (near enough to name it in a finding)."""
    if isinstance(node, nodes.Name):
        return node.name
    if isinstance(node, nodes.Const):
        return repr(node.value)
    if isinstance(node, nodes.Getattr):
        return f"{said(node.node)}.{node.attr}"
    if isinstance(node, nodes.Getitem):
        return f"{said(node.node)}[{said(node.arg)}]"
    if isinstance(node, (nodes.Filter, nodes.Test)):
        args = ", ".join(said(a) for a in node.args)
        sign = "|" if isinstance(node, nodes.Filter) else " is "
        return f"{said(node.node) if node.node else ''}{sign}{node.name}{f'({args})' if args else ''}"
    if isinstance(node, nodes.Call):
        args = [said(a) for a in node.args] + [f"{k.key}={said(k.value)}" for k in node.kwargs]
        return f"{said(node.node)}({', '.join(args)})"
    if isinstance(node, nodes.Pair):
        return f"{said(node.key)}: {said(node.value)}"
    if isinstance(node, nodes.Dict):
        return "{" + ", ".join(said(i) for i in node.items) + "}"
    if isinstance(node, (nodes.List, nodes.Tuple)):
        inner = ", ".join(said(i) for i in node.items)
        return f"[{inner}]" if isinstance(node, nodes.List) else f"({inner})"
    if type(node) in ARITHMETIC:
        return f"{said(node.left)} {ARITHMETIC[type(node)]} {said(node.right)}"
    if isinstance(node, nodes.Neg):
        return f"-{said(node.node)}"
    if isinstance(node, nodes.Compare):
        return " ".join([said(node.expr)] + [f"{ORDER.get(o.op) or SAME.get(o.op, o.op)} {said(o.expr)}" for o in node.ops])
    return f"({type(node).__name__.lower()})"


def number(node: nodes.Node) -> bool:
    """A number written in the template (a minus sign included)."""
    while isinstance(node, (nodes.Neg, nodes.Pos)):
        node = node.node
    return isinstance(node, nodes.Const) and isinstance(node.value, (int, float)) and not isinstance(node.value, bool)


def value(node: nodes.Node) -> float:
    sign = 1
    while isinstance(node, (nodes.Neg, nodes.Pos)):
        sign, node = sign * (-1 if isinstance(node, nodes.Neg) else 1), node.node
    return sign * node.value


def last_name(node: nodes.Node) -> str | None:
    return node.name if isinstance(node, nodes.Name) else node.attr if isinstance(node, nodes.Getattr) else None


def words(node: nodes.Node) -> list[str]:
    """The words a side of a comparison writes: a string, or a list or tuple of strings."""
    items = node.items if isinstance(node, (nodes.List, nodes.Tuple)) else [node]
    return [i.value for i in items if isinstance(i, nodes.Const) and isinstance(i.value, str)]


def field_paths(items: list[nodes.Node]) -> bool:
    return all(isinstance(i, nodes.Const) and isinstance(i.value, str) and i.value.startswith(("data.", "options."))
               for i in items)


def walk(node: nodes.Node, parent: nodes.Node | None = None):
    """Every node with the node it is written in."""
    yield node, parent
    for child in node.iter_child_nodes():
        yield from walk(child, node)


# --- the check ------------------------------------------------------------------------------------

def expression_slips(tree: nodes.Template) -> list[tuple[int, str]]:
    """(line, what) for each place an expression computes or words a rule."""
    found = []
    seen_numbers = set()  # numbers a finding already names (a compared position, range's, indent's)
    for node, parent in walk(tree):
        line = node.lineno
        if type(node) in ARITHMETIC or (isinstance(node, nodes.Neg) and not number(node)):
            found.append((line, f"arithmetic: {said(node)}"))
        elif isinstance(node, nodes.Compare):
            sides = [node.expr] + [o.expr for o in node.ops]
            ops = [o.op for o in node.ops]
            by_position = any(last_name(s) in POSITIONS for s in sides)
            by_length = any(isinstance(s, nodes.Filter) and s.name == "length" for s in sides)
            if any(op in ORDER for op in ops) and not by_length:
                found.append((line, f"an order compared: {said(node)}"))
            if any(number(s) for s in sides):
                seen_numbers |= {id(s) for s in sides if number(s)}
                if not (by_position and all(op in ("eq", "ne") for op in ops)):
                    found.append((line, f"a number compared: {said(node)}"))
            written = [w for s in sides for w in words(s)]
            routing = any(last_name(s) in ROUTING for s in sides)
            if written and not routing:
                found.append((line, f"a word compared: {said(node)}"))
        elif isinstance(node, nodes.Call) and isinstance(node.node, nodes.Name) and node.node.name == "range":
            if any(number(a) for a in node.args):
                seen_numbers |= {id(a) for a in node.args}
                found.append((line, f"range over numbers of its own: {said(node)}"))
        elif isinstance(node, nodes.Filter) and node.name in COMPUTING_FILTERS:
            found.append((line, f"the {node.name} filter: {said(node)}"))
        elif isinstance(node, nodes.Filter) and node.name == "indent":  # the page's own spacing
            seen_numbers |= {id(a) for a in node.args}
        elif isinstance(node, nodes.Test) and node.name in COMPUTING_TESTS:
            found.append((line, f"a computing test: {said(node)}"))
        elif isinstance(node, (nodes.List, nodes.Tuple)) and len(node.items) >= 3 and not field_paths(node.items):
            consts = all(isinstance(i, nodes.Const) or (isinstance(i, (nodes.Tuple, nodes.List))
                                                       and all(isinstance(j, nodes.Const) for j in i.items))
                         for i in node.items)
            if consts:  # ("I", "II", "III"), the statuses, the sections: the rules' list written out
                found.append((line, f"a list of values written out: {said(node)}"))
        elif isinstance(node, nodes.Const) and isinstance(node.value, str) and re.search(r"\d", node.value) \
                and not isinstance(parent, (nodes.Include, nodes.Import, nodes.FromImport)):
            found.append((line, f"a number in its words: {node.value!r}"))
        if number(node) and not isinstance(parent, (nodes.Neg, nodes.Pos)) and id(node) not in seen_numbers \
                and abs(value(node)) > 1:  # 0 and 1: a default, a first place, a single step
            found.append((line, f"the number {value(node)!r} in {said(parent)}"))
    return found


def html_slips(source: str) -> list[tuple[int, str]]:
    """(line, what) for each digit in the page's own words and attributes (its Jinja parts blanked)."""
    found = []
    html = re.sub(r"{{.*?}}|{%.*?%}|{#.*?#}", lambda m: "\n" * m.group(0).count("\n") + " ", source, flags=re.S)
    for tag in re.finditer(r"<[^>]*>", html):
        for attribute in re.findall(r'\b[\w-]+="[^"]*\d[^"]*"', tag.group(0)):
            if not attribute.startswith(OWN_ATTRIBUTES) and attribute != 'min="0"':  # no count is below 0
                found.append((html.count("\n", 0, tag.start()) + 1, f"an attribute's number: {' '.join(attribute.split())}"))
    text = re.sub(r"<[^>]*>", lambda m: " " * len(m.group(0)), html)
    for digit in re.finditer(r"(?:[^\s\d]+ +){0,3}\S*\d\S*", text):
        found.append((text.count("\n", 0, digit.start()) + 1, f"a number in the text: {digit.group(0)!r}"))
    return found


def slips(source: str, env: jinja2.Environment | None = None) -> list[tuple[int, str]]:
    """Every place a template computes or words a rule itself: (line, what), in the template's order."""
    tree = (env or jinja2.Environment()).parse(source)
    return sorted(expression_slips(tree) + html_slips(source))


def allowances(key: str) -> dict[tuple[str, str], str]:
    return examples(key).TEMPLATE_ALLOWS


@pytest.mark.parametrize("key", KEYS)
def test_a_games_templates_compute_no_rule(app, key):
    """Each finding is a slip unless the game's TEMPLATE_ALLOWS keeps it, with its reason; an allowance
    that no template needs any more goes too."""
    allowed = allowances(key)
    assert all(isinstance(reason, str) and reason.strip() and "\n" not in reason for reason in allowed.values()), \
        f"tests/{key}/examples.py TEMPLATE_ALLOWS: each allowance has a one-line reason"
    found, used = [], set()
    for path in sorted((ROOT / "templates" / key).glob("*.html")):
        for line, what in slips(path.read_text("utf-8"), app.jinja_env):
            if (path.name, what) in allowed:
                used.add((path.name, what))
            else:
                found.append(f"templates/{key}/{path.name}:{line}: {what}")
    assert not found, (f"the view computes these (or tests/{key}/examples.py TEMPLATE_ALLOWS keeps one, saying why):\n"
                       + "\n".join(found))
    stale = sorted(set(allowed) - used)
    assert not stale, f"tests/{key}/examples.py TEMPLATE_ALLOWS keeps what no template has: {stale}"


# --- the check can fail: each kind of slip is seen -----------------------------------------------------

@pytest.mark.parametrize("source, seen", [
    ("{{ 2 * k }}", "arithmetic: 2 * k"),
    ("{{ p.vp - p.loss }}", "arithmetic: p.vp - p.loss"),
    ("{{ -p.loss }}", "arithmetic: -p.loss"),
    ("{% if cycle < 5 %}{% endif %}", "an order compared: cycle < 5"),
    ("{% if a.vp >= b.vp %}{% endif %}", "an order compared: a.vp >= b.vp"),
    ("{{ b.count }} card{{ 's' if b.count != 1 }}", "a number compared: b.count != 1"),
    ("{% if page.phase == 4 %}{% endif %}", "a number compared: page.phase == 4"),
    ("{% if v.banner.reason == 'target' %}{% endif %}", "a word compared: v.banner.reason == 'target'"),
    ("{% if r.tie_rule in ('strict', 'shared') %}{% endif %}", "a word compared"),
    ("{% for k in range(1, 5) %}{% endfor %}", "range over numbers of its own: range(1, 5)"),
    ("{{ (turns | selectattr('next') | first).name }}", "the selectattr filter"),
    ("{{ xs|sum }}", "the sum filter: xs|sum"),
    ("{{ rows|map(attribute='vp')|max }}", "the max filter"),
    ("{% if n is divisibleby 3 %}{% endif %}", "a computing test"),
    ("{% for r in ['I', 'II', 'III'] %}{% endfor %}", "a list of values written out"),
    ('{{ ui.event_button(table, "vp", {"delta": 3}, "Score") }}', "the number 3 in 'delta': 3"),
    ('{{ ui.event_button(table, "vp", {"delta": 1}, "+1 VP") }}', "a number in its words: '+1 VP'"),
    ("<p>Scores 2 VP per coin</p>", "a number in the text: 'Scores 2'"),
    ("<p>The marker starts on space 1.</p>", "a number in the text: 'starts on space 1.'"),
    ('<input type="number" max="40" class="h2">', 'an attribute\'s number: max="40"'),
])
def test_the_check_sees_each_kind_of_slip(source, seen):
    assert any(seen in what for _, what in slips(source)), slips(source)


@pytest.mark.parametrize("source", [
    "{% if screen == 'end' %}{% endif %}{% if v.screen == 'table' %}{% endif %}{% if scr == 'book' %}{% endif %}",
    "{% if error.field == 'data' %}{% endif %}{% if e.field in ('data.a', 'data.b', 'data.c') %}{% endif %}",
    "{% for f in ('data.fame', 'data.inks', 'data.types') %}{{ f }}{% endfor %}",
    "{% if pl.index == 0 %} open{% endif %}{% if loop.index == 2 %} selected{% endif %}",
    "{% if i < moves|length %}{{ moves[i] }}{% endif %}{{ v.missing|length }}",
    "{{ val.points or 0 }}{{ error.field.split('.')[1] }}{{ x|indent(6, blank=True) }}",
    '{% include "game/_result.html" %}<p class="h2" id="p-1"><a href="/t/1">{{ v.said }}</a></p>',
    '<input type="number" min="0" max="{{ v.most }}">',
])
def test_what_only_shows_or_routes_is_no_slip(source):
    assert slips(source) == []


def test_the_check_sees_what_old_templates_did():
    """Slips the four games' templates had before issue 30, each seen."""
    page = ('{% if page.phase < 4 %}{{ n * 2 }}{% endif %}{% if r.tie_rule == "strict" %}{{ xs|sum }}{% endif %}\n'
            '<p>+1 GK</p><input max="40" class="h2">{% if scr == "end" %}{{ p.name ~ "x" }}{% endif %}{# [V91] #}')
    assert slips(page) == [
        (1, "a number compared: page.phase < 4"), (1, "a word compared: r.tie_rule == 'strict'"),
        (1, "an order compared: page.phase < 4"), (1, "arithmetic: n * 2"), (1, "the number 2 in n * 2"),
        (1, "the sum filter: xs|sum"), (2, "a number in the text: '+1'"), (2, 'an attribute\'s number: max="40"')]


# --- the names of a game's templates -----------------------------------------------------------------

def entry_templates() -> set[str]:
    """The templates core looks up in a game's folder (`{% include game.key ~ "/panel.html" %}`)."""
    found = set()
    for path in (ROOT / "templates").rglob("*.html"):
        found |= set(re.findall(r'~\s*"/(\w+\.html)"', path.read_text("utf-8")))
    return found


def partials_used(key: str, env: jinja2.Environment) -> dict[str, set[str]]:
    """{template: the game's templates it includes or imports}."""
    used = {}
    for path in (ROOT / "templates" / key).glob("*.html"):
        tree = env.parse(path.read_text("utf-8"))
        names = {n.template.value for n in tree.find_all((nodes.Include, nodes.Import, nodes.FromImport))
                 if isinstance(n.template, nodes.Const)}
        used[path.name] = {n.split("/", 1)[1] for n in names if n.startswith(f"{key}/")}
    return used


def reached(used: dict[str, set[str]], start: str) -> set[str]:
    """The game's templates `start` draws: those it includes or imports, and theirs (a macro of its own too)."""
    seen, todo = set(), [start]
    while todo:
        for name in used.get(todo.pop(), set()) - seen:
            seen.add(name)
            todo.append(name)
    return seen


def test_core_looks_up_the_entry_templates_the_page_names():
    assert entry_templates() == {"panel.html", "setup.html", "profile.html"}


@pytest.mark.parametrize("key", KEYS)
def test_a_games_templates_are_entries_or_partials_each_included(app, key):
    """docs/architecture.md, "A game's templates": an entry template core looks up, or a partial named
    `_...` that the game's own templates include; the calculator and the end screen draw the one result."""
    used = partials_used(key, app.jinja_env)
    names = set(used)
    entries = entry_templates()
    assert {"panel.html", "setup.html"} <= names
    assert sorted(n for n in names - entries if not n.startswith("_")) == [], "a partial's name starts with _"
    assert set().union(*used.values()) == names - entries, "each partial is included by the game's templates"
    # the one result, drawn by the calculator and the end screen (a game that tracks nothing may have no end
    # screen: tests/foundation/test_architecture.py's checklist says which game needs one)
    for role in ("_calculator.html", "_end.html"):
        if role in used:
            assert "_result.html" in reached(used, role), f"templates/{key}/{role} draws {key}/_result.html"


def test_a_result_drawn_through_a_macro_of_the_games_own_is_drawn():
    used = {"_end.html": {"_macros.html"}, "_macros.html": {"_result.html"}, "_calculator.html": {"_sheet.html"}}
    assert "_result.html" in reached(used, "_end.html")
    assert "_result.html" not in reached(used, "_calculator.html")
