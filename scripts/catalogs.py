"""Update and compile the translation catalogs: `python scripts/catalogs.py` (README "Languages").

The catalogs are split the way the code is (companion/games/speech.py merges them back into
one per language):

| catalog folder | the sentences of |
|---|---|
| `companion/web/translations` | the pages: `templates/` but the games' folders, `companion/web/` |
| `companion/translations` | the shared words: `companion/*.py`, `companion/games/*.py` |
| `companion/games/KEY/translations` | one game: `companion/games/KEY/`, `templates/KEY/` |

For each: extract the marked sentences (babel.cfg) into `messages.pot`, the English catalog;
bring every language's `messages.po` up to date with it; compile each into `messages.mo`.

A changed English sentence keeps its translations as guesses, as gettext's msgmerge does: the
new sentence arrives in each language holding the old sentence's translation, flagged `#, fuzzy`,
with the old English above it (`#| msgid`, until the next run: Babel does not read it back). A new sentence close enough to one already
translated gets that one's translation as its guess; a new sentence like none arrives empty; a
removed one is dropped. A fuzzy guess is never shown (the compiled catalogs and the app leave
it out) and tests/foundation/test_catalogs.py fails while one is left, so the round trip is:

1. change the sentence in the code, run this script;
2. in each language's messages.po, correct the guess under the new `msgid`, then delete its
   `#, fuzzy` line (or just the word `fuzzy` from a `#, fuzzy, python-format` line);
3. run this script again (it compiles), then tests/foundation/test_catalogs.py.

    python scripts/catalogs.py            # extract, update, compile
    python scripts/catalogs.py --compile  # compile only (the package build runs this)
    python scripts/catalogs.py --check    # exit 1 if an extraction would change a .pot
"""

from __future__ import annotations

import argparse
import io
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "companion"
LANGUAGES = ("fr", "de", "pl", "es", "it")
HEADER = ("# The {language} sentences of {folder}: update with python scripts/catalogs.py (README \"Languages\").\n"
          "# A translator comment \"unofficial: check against your edition\" marks a game term no published\n"
          "# edition's text gave us (docs/glossary.md).")
KEYWORDS = ["_", "gettext", "ngettext:1,2", "pgettext:1c,2", "npgettext:1c,2,3", "N_", "NC_:1c,2"]


def games() -> list[str]:
    return sorted(p.name for p in (PACKAGE / "games").iterdir() if (p / "__init__.py").is_file())


def sources() -> dict[Path, list[Path]]:
    """Each catalog folder and the files whose sentences it holds."""
    game_templates = {ROOT / "templates" / key for key in games()}
    pages = [p for p in sorted((ROOT / "templates").rglob("*.html")) if not game_templates & set(p.parents)]
    table = {
        PACKAGE / "web" / "translations": pages + sorted((PACKAGE / "web").glob("*.py")),
        PACKAGE / "translations": sorted(PACKAGE.glob("*.py")) + sorted((PACKAGE / "games").glob("*.py")),
    }
    for key in games():
        table[PACKAGE / "games" / key / "translations"] = (
            sorted((PACKAGE / "games" / key).glob("*.py")) + sorted((ROOT / "templates" / key).rglob("*.html")))
    return table


def extract(files: list[Path]):
    """The English catalog of these files' marked sentences."""
    from babel.messages.catalog import Catalog
    from babel.messages.extract import extract_from_file

    catalog = Catalog(project="Table Companion", charset="utf-8")
    keywords = {}
    for spec in KEYWORDS:
        name, _, args = spec.partition(":")
        keywords[name] = tuple(int(a) if a[-1].isdigit() else (int(a[:-1]), "c") for a in args.split(",")) if args else None
    for path in files:
        method = "python" if path.suffix == ".py" else "jinja2"
        for lineno, message, comments, context in extract_from_file(method, str(path), keywords=keywords,
                                                                    comment_tags=("Translators:",)):
            catalog.add(message, None, [(_where(path), lineno)], auto_comments=comments, context=context)
    return catalog


def _where(path: Path) -> str:
    """A source file's name in a catalog: from the project's folder (a file outside it, by its own name)."""
    return str(path.relative_to(ROOT)) if ROOT in path.parents else path.name


def write_po(catalog, path: Path, **options) -> bytes:
    from babel.messages.pofile import write_po as write

    out = io.BytesIO()
    write(out, catalog, width=100, omit_header=False, sort_output=True, include_lineno=False, **options)
    return out.getvalue()


def update(folder: Path, files: list[Path], check: bool) -> bool:
    """Extract into folder/messages.pot and update each language's .po; True if the .pot changed."""
    from babel.messages.catalog import Catalog
    from babel.messages.pofile import read_po

    template = extract(files)
    pot = folder / "messages.pot"
    text = write_po(template, pot, ignore_obsolete=True)
    old = pot.read_bytes() if pot.is_file() else b""
    changed = _body(old) != _body(text)
    if check:
        return changed
    folder.mkdir(parents=True, exist_ok=True)
    if changed:
        pot.write_bytes(text)
    for lang in LANGUAGES:
        po = folder / lang / "LC_MESSAGES" / "messages.po"
        if po.is_file():
            with po.open("rb") as fp:
                catalog = read_po(fp, locale=lang)
        else:
            catalog = Catalog(locale=lang, project="Table Companion", charset="utf-8", fuzzy=False,
                              header_comment=HEADER.format(language=lang, folder=_where(folder)))
        catalog.update(template, update_header_comment=False)  # a changed sentence keeps its translation, fuzzy
        catalog.obsolete.clear()  # a sentence the code no longer says is gone from the catalog
        po.parent.mkdir(parents=True, exist_ok=True)
        new = write_po(catalog, po, ignore_obsolete=True, include_previous=True)
        if not po.is_file() or _body(po.read_bytes()) != _body(new):
            po.write_bytes(new)
    return changed


def _body(text: bytes) -> bytes:
    """A catalog without its header's dates, which change on every run."""
    return b"\n".join(line for line in text.splitlines() if not line.startswith((b'"POT-Creation-Date', b'"PO-Revision-Date')))


def compile_all() -> int:
    """Compile every .po into the .mo beside it; return how many."""
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    count = 0
    for po in sorted(PACKAGE.rglob("translations/*/LC_MESSAGES/messages.po")):
        with po.open("rb") as fp:
            catalog = read_po(fp, locale=po.parts[-3])
        with po.with_suffix(".mo").open("wb") as fp:
            write_mo(fp, catalog)
        count += 1
    return count


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--compile", action="store_true", help="compile the .po files only")
    parser.add_argument("--check", action="store_true", help="exit 1 if a .pot is out of date")
    args = parser.parse_args(argv)
    if args.compile:
        print(f"compiled {compile_all()} catalogs")
        return 0
    stale = [folder for folder, files in sources().items() if update(folder, files, args.check)]
    if args.check:
        for folder in stale:
            print(f"out of date: {folder.relative_to(ROOT)}/messages.pot (run python scripts/catalogs.py)")
        return 1 if stale else 0
    print(f"compiled {compile_all()} catalogs")
    return 0


if __name__ == "__main__":
    sys.exit(main())
