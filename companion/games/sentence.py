"""A sentence with player names in it, said on a page and in plain text alike (issue 13, finding 8).

A right-to-left name inside an English sentence turns the words, commas and numbers beside it
around: "محمد 111, Tom wins" is drawn with the 111 before the name. A template prints a name in
<bdi>, but a sentence written here in Python ("Tom wins on fewer types", the history's
"Anna: +1 fame", "Still needed: the rows of Anna and Tom") reaches it whole.

So Python marks each name it puts in a sentence with `name()`: U+2068 FIRST STRONG ISOLATE before
it and U+2069 POP DIRECTIONAL ISOLATE after, the plain-text <bdi>, which no name can hold
(validation refuses them). `Sentence` reads the marks back:

- as a str it is the sentence without them: the JSON `verdict` and the CSV say what they always said;
- on a page (Jinja calls `__html__`) each name is in <bdi>;
- `isolated` keeps the marks, for plain text that leaves the app (the result shared to a chat).

Plain Python: no Flask; a page's escaping is markupsafe's, Jinja's own, imported only by `__html__`.
"""

from __future__ import annotations

import re
from typing import Iterable

FSI, PDI = "\u2068", "\u2069"
_MARKED = re.compile(f"{FSI}([^{FSI}{PDI}]*){PDI}")
#: a marked text whose marks pair up, none inside another: what name() and its callers write
_WELL_FORMED = re.compile(f"[^{FSI}{PDI}]*(?:{FSI}[^{FSI}{PDI}]*{PDI}[^{FSI}{PDI}]*)*")


def name(text: str) -> str:
    """Mark a name for a sentence: between FSI and PDI (any it held dropped, so the marks pair up)."""
    return FSI + unmarked(text) + PDI


def names(texts: Iterable[str]) -> list[str]:
    """Mark every name of a list (a table's names, to hand to a function that writes sentences)."""
    return [name(t) for t in texts]


def unmarked(text: str) -> str:
    """The text without the marks: a marked name as the player typed it."""
    return str(getattr(text, "isolated", text)).replace(FSI, "").replace(PDI, "")


def _paired(marked: str) -> str:
    """The marked text with its marks paired: a stray one is dropped (a name never holds one)."""
    if _WELL_FORMED.fullmatch(marked):
        return marked
    out, at = [], 0
    for m in _MARKED.finditer(marked):
        out += [unmarked(marked[at:m.start()]), name(m.group(1))]
        at = m.end()
    return "".join(out) + unmarked(marked[at:])


class Sentence(str):
    """A sentence whose names are marked: its str is the plain sentence, its HTML puts each name in <bdi>."""

    isolated: str

    def __new__(cls, marked: str) -> "Sentence":
        marked = _paired(str(getattr(marked, "isolated", marked)))
        self = super().__new__(cls, marked.replace(FSI, "").replace(PDI, ""))
        self.isolated = marked
        return self

    def __html__(self) -> str:
        # escaped as Jinja escapes any text (markupsafe, its own escaping, imported only when a
        # page asks); the marks pair up (_paired), so each FSI opens a <bdi> and its PDI closes it
        from markupsafe import escape

        return str(escape(self.isolated)).replace(FSI, "<bdi>").replace(PDI, "</bdi>")

    def __reduce__(self):
        return Sentence, (self.isolated,)


def said(text: str) -> Sentence:
    """A sentence from a marked string (or one already a Sentence)."""
    return text if isinstance(text, Sentence) else Sentence(text)


def naming(text: str, known: Iterable[str]) -> Sentence:
    """Mark the table's names in a sentence written before it could mark them.

    For text a game keeps in its state (a notice) or raises (a refusal): it was written from these
    names, around words of its own. Each occurrence is marked, the longest name first, so "Anna B"
    is one name and not "Anna" then " B". A word that merely holds a left-to-right name is drawn
    the same in <bdi>, and English words hold no right-to-left letters.
    """
    if isinstance(text, Sentence) or FSI in str(text):
        return said(text)
    found = sorted({n for n in known if n and n.strip()}, key=len, reverse=True)
    if not found:
        return Sentence(text)
    pattern = re.compile("|".join(re.escape(n) for n in found))
    return Sentence(pattern.sub(lambda m: name(m.group(0)), str(text)))
