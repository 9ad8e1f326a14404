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
