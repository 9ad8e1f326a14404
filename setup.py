"""The wheel's packages: companion/, and the top-level folders it carries inside the package.

templates/, static/ and data/ stay at the top of the repository; the wheel installs them as
companion/templates, companion/static and companion/data, where companion/paths.py finds
them. Every folder is listed as a package (setuptools warns about data folders that are not),
so this file walks them rather than keeping a hand-written list. Everything else about the
project is in pyproject.toml.

The translation catalogs (`translations/` folders inside companion/, companion/games/speech.py) are
compiled here, by the build: the wheel ships each `messages.mo`, so an installed app speaks every
language with no step of its own; the `.po` sources stay in the repository.
"""

from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

ROOT = Path(__file__).resolve().parent
#: top-level folder -> the package the wheel installs it as
CARRIED = {"templates": "companion.templates", "static": "companion.static", "data": "companion.data"}
#: the files the carried folders ship; never the SQLite file a checkout keeps in data/
SHIPPED_FILES = ["*.html", "*.css", "*.js", "*.svg", "*.png", "*.mp4", "*.webm", "*.json", "*.md", "*.txt", "*.ttf", "SHA256SUMS"]


def folders(top: str) -> list[Path]:
    """Return `top` and every folder below it, relative to the repository."""
    below = [p for p in sorted((ROOT / top).rglob("*")) if p.is_dir() and p.name != "__pycache__" and not p.name.startswith(".")]
    return [Path(top)] + [p.relative_to(ROOT) for p in below]


code = [".".join(p.parts) for p in folders("companion") if (ROOT / p / "__init__.py").exists()]
carried = [".".join((package, *p.parts[1:])) for top, package in CARRIED.items() for p in folders(top)]

#: the translations/ folders and those below them: data folders listed as packages, as above,
#: each shipping its compiled catalog (never the .pot or .po, which the build compiled)
catalogs = [".".join(p.parts) for p in folders("companion") if "translations" in p.parts]


class BuildWithCatalogs(build_py):
    """Compile every catalog (scripts/catalogs.py --compile) before the files are copied into the build."""

    def run(self):
        import importlib.util

        spec = importlib.util.spec_from_file_location("catalogs", ROOT / "scripts" / "catalogs.py")
        catalogs = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(catalogs)
        catalogs.compile_all()
        super().run()


setup(
    packages=code + carried + catalogs,
    package_dir={package: top for top, package in CARRIED.items()},
    package_data={**{package: SHIPPED_FILES for package in carried}, **{package: ["*.mo"] for package in catalogs}},
    cmdclass={"build_py": BuildWithCatalogs},
)
