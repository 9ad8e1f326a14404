"""Where the project's folders are: the app runs from a checkout (see README)."""

from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
#: game facts shipped with the app (data/GAME/...) and, by default, the SQLite file
DATA = ROOT / "data"
TEMPLATES = ROOT / "templates"
STATIC = ROOT / "static"
DB_NAME = "companion.db"
