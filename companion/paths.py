"""Where the app's files are: the folders it ships, and the data folder it writes to.

The repository keeps `templates/`, `static/` and `data/` at its top. The wheel carries them
inside the package (setup.py maps them to `companion/templates` and so on), and the code
finds them there as package resources. A checkout, plain or installed with `pip install -e .`,
has them only at the top of the repository: setuptools' editable finder maps importable
packages, not folders of data, so there the package's resources are the checkout's folders.

The SQLite file goes into the data folder (`data_folder`): `--data DIR` or `$COMPANION_DATA`
when given; otherwise a checkout's `data/` (git ignores the file), and an installed app the
platform's user data folder. Nothing is ever written inside an installed package.
"""

from __future__ import annotations

import os
from importlib import resources
from pathlib import Path

#: the folders the wheel carries inside the package
SHIPPED = ("templates", "static", "data")
#: the user data folder's name, that of the distribution (pyproject.toml)
APP_NAME = "table-companion"
DB_NAME = "companion.db"

_PACKAGE = Path(str(resources.files("companion")))
_CHECKOUT = _PACKAGE.parent


def installed() -> bool:
    """True when the package carries its folders (a wheel), False in a checkout."""
    return all((_PACKAGE / name).is_dir() for name in SHIPPED)


def shipped(name: str) -> Path:
    """Return the shipped folder `name` (one of SHIPPED): inside the package, else the checkout's."""
    if name not in SHIPPED:
        raise ValueError(f"{name!r} is not one of the shipped folders {SHIPPED}")
    return _PACKAGE / name if installed() else _CHECKOUT / name


def default_data_folder() -> Path:
    """Return where the SQLite file goes when neither --data nor $COMPANION_DATA says."""
    if not installed():
        return _CHECKOUT / "data"
    import platformdirs  # only an installed app needs it

    # Linux ~/.local/share/table-companion, macOS ~/Library/Application Support/table-companion,
    # Windows %LOCALAPPDATA%\table-companion
    return Path(platformdirs.user_data_dir(APP_NAME, appauthor=False))


def data_folder(given: str | os.PathLike | None = None) -> Path:
    """Return the data folder: `given` (--data), else $COMPANION_DATA, else the default."""
    chosen = given or os.environ.get("COMPANION_DATA")
    return Path(chosen) if chosen else default_data_folder()


TEMPLATES = shipped("templates")
STATIC = shipped("static")
#: facts from the rule texts and card data (data/GAME/...), read-only
FACTS = shipped("data")
