"""The test servers listen on 127.0.0.1 alone, on a port they take themselves (issue 27, finding 20).

A fresh-clone run on a busy machine had 20 failures and 24 errors: `free_port()` found a free
port on 127.0.0.1 and freed it, and the server bound 0.0.0.0 on that number later, so another
connection could take it in between; and every test server listened on every interface while
the suite ran. Now a server is started with `--host 127.0.0.1 --port 0` and the test reads the
port from its first line (tests/conftest.py, Server). These tests hold every test to it: in the
tests' source, and in what the kernel says a started server listens on.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from tests.conftest import ROOT, listening_addresses

TESTS = ROOT / "tests"
HERE = Path(__file__).relative_to(ROOT).as_posix()


def sources() -> dict[str, str]:
    return {path.relative_to(ROOT).as_posix(): path.read_text() for path in sorted(TESTS.rglob("*.py"))
            if path.relative_to(ROOT).as_posix() != HERE}


def test_no_test_picks_a_free_port_and_frees_it_for_a_server_to_take():
    found = [name for name, text in sources().items() if re.search(r"\bfree_port\b|\"0\.0\.0\.0\", 0", text)]
    assert found == [], found


def serve_commands(tree: ast.AST):
    """Every list or tuple written in the source that runs `... serve ...` with options."""
    for node in ast.walk(tree):
        if isinstance(node, (ast.List, ast.Tuple)):
            items = node.elts
            texts = [item.value if isinstance(item, ast.Constant) else None for item in items]
            if "serve" in texts[1:]:
                yield node, items, texts


def test_every_companion_serve_a_test_starts_names_127_0_0_1():
    wrong = []
    for name, text in sources().items():
        for node, items, texts in serve_commands(ast.parse(text)):
            at = texts.index("--host") if "--host" in texts else None
            host = items[at + 1] if at is not None and at + 1 < len(items) else None
            # conftest's Server passes its `host` field, which defaults to 127.0.0.1 (checked below)
            named = isinstance(host, ast.Constant) and host.value == "127.0.0.1"
            field = name == "tests/conftest.py" and isinstance(host, ast.Attribute) and host.attr == "host"
            if not (named or field):
                wrong.append(f"{name}:{node.lineno}")
    assert wrong == [], wrong


def test_no_test_gives_a_server_another_address():
    """A page that must be opened at a LAN-like name uses NAME.test, which the browser maps to loopback."""
    givers = set()
    for name, text in sources().items():
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "Server" and any(
                    keyword.arg == "host" for keyword in node.keywords):
                givers.add(name)
    assert givers == set(), givers


@pytest.mark.slow
def test_the_server_fixture_listens_on_127_0_0_1_alone_on_the_port_it_printed(server):
    listening = listening_addresses(server.process.pid)
    if listening is None:
        pytest.skip("no /proc to read the listening sockets from")
    assert listening == {("127.0.0.1", server.port)}, listening
    assert server.url == f"http://127.0.0.1:{server.port}" and server.port != 0
