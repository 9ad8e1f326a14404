"""A live region cut into parts, so that a change sends a phone only the parts it changed.

The live region (templates/tables/table.html's `live` block) is drawn whole, once per version
and screen, and shared by every phone (live.py). Each element in it with an `id` is a *part*.
A part's own text is its HTML with the parts inside it left out (each replaced by its id), and
a version's parts are fingerprinted by a hash of that own text. Between two versions the parts
to send are found from the top: a part whose own text changed is sent whole, with the parts
inside it; one whose own text is the same is looked into. A score tap on a 4-player table
sends the stepper, the scoreboard's row, the card's summary, the history and the tools,
not its 70 KB region.

So a part's text must not change when nothing it shows changed: the version, above all, is
never written into the region (the answers carry it as data: the SSE event's id, the
X-Table-Version header), and a form's expected_version is added by the page as it is sent.

Each part sent is an htmx out-of-band element, morphed into the page by idiomorph
(static/vendor/idiomorph-ext, through htmx's `morph` swap): `hx-swap-oob="morph"` and
`data-v`, the version it shows, are added to its opening tag. The page never draws a part over
one that shows a newer version (static/js/).

Cutting is done with a regular expression over the tags, not an HTML parser: the region is our
own templates' output, every element closed, attribute values quoted and escaped. An id used
twice in one region is no part (neither element can be found by it).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

#: a comment, or a tag: (1) "/" for an end tag, (2) its name, (3) its attributes
# (an attribute's run of plain characters taken whole and never given back: possessive, so a tag
# left open cannot make the search backtrack, and a region is read in half the time)
TAG = re.compile(r"<(?:!--.*?--|(/?)([A-Za-z][A-Za-z0-9-]*)((?:[^>\"']++|\"[^\"]*+\"|'[^']*+')*+)>)", re.S)
ID = re.compile(r"""\sid=(?:"([^"]*)"|'([^']*)')""")
#: elements that have no end tag
VOID = frozenset("area base br col embed hr img input link meta source track wbr".split())
#: what marks a part sent out of band (htmx) to be morphed in place (idiomorph's htmx extension)
OOB = 'hx-swap-oob="morph"'


@dataclass(frozen=True)
class Part:
    """One element with an id: where it is in the region, its own text's hash and its parts."""

    start: int
    end: int
    own: int
    children: tuple[str, ...]
    name_end: int  # where its tag name ends: the attributes sent out of band go there


@dataclass
class Split:
    """A region drawn at one version, and its parts by id (`root` is the region's own element)."""

    html: str
    version: int
    parts: dict[str, Part]
    root: str | None
    fingerprint: dict[str, tuple[int, tuple[str, ...]]] = field(init=False)

    def __post_init__(self):
        self.fingerprint = {pid: (p.own, p.children) for pid, p in self.parts.items()}

    def changed_since(self, then: dict | None, redraw: tuple[str, ...] = ()) -> list[str]:
        """Return the ids of the parts to send to a page showing `then` (a fingerprint; None: all).

        `redraw` names parts the page holds drawn otherwise (with a refusal's message): each is
        sent too unless a part sent already holds it.
        """
        if self.root is None:
            return []
        if then is None:
            return [self.root]
        found: list[str] = []

        def walk(pid: str) -> None:
            part = self.parts[pid]
            if then.get(pid) != (part.own, part.children):
                found.append(pid)
                return
            for child in part.children:
                walk(child)

        walk(self.root)
        sent = set(found)
        for pid in dict.fromkeys(redraw):
            if pid in self.parts and not self._inside_any(pid, sent):
                found.append(pid)
                sent.add(pid)
        return found

    def _inside_any(self, pid: str, ids: set[str]) -> bool:
        part = self.parts[pid]
        return any(self.parts[o].start <= part.start and part.end <= self.parts[o].end for o in ids)

    def out_of_band(self, ids: list[str]) -> str:
        """Return the parts named, each marked to be morphed in out of band, with this version."""
        pieces = []
        for pid in ids:
            part = self.parts[pid]
            pieces.append(self.html[part.start:part.name_end] + marks(self.version) + self.html[part.name_end:part.end])
        return "\n".join(pieces)

    def since(self, then: dict | None, redraw: tuple[str, ...] = ()) -> str:
        """Return what a page showing `then` needs to show this version (see changed_since)."""
        return self.out_of_band(self.changed_since(then, redraw))


def marks(version: int) -> str:
    """The attributes that send a part out of band, morphed in, showing `version`."""
    return f' {OOB} data-v="{version}"'


def mark(html: str, version: int) -> str:
    """Return one element's HTML (drawn alone: a stepper, the tools) marked as a part of `version`."""
    html = html.strip()
    tag = TAG.match(html)
    if tag is None or tag.group(2) is None:
        raise ValueError("not an element")
    at = tag.start(2) + len(tag.group(2))
    return html[:at] + marks(version) + html[at:]


def split(html: str, version: int) -> Split:
    """Cut a rendered region into its parts (see the module)."""
    html = html.strip()
    flat: list[tuple[str, int, int, int]] = []  # (id, start, end, name_end), in order of their ends
    stack: list[tuple[str, int, int, str | None]] = []  # open elements: (name, start, name_end, id)
    keep, open_ = flat.append, stack.append  # the loop runs once per tag: about 1,500 in a large region
    for tag in TAG.finditer(html):
        closing, name, attrs = tag.groups()
        if name is None:
            continue  # a comment
        lower = name.lower()
        if not closing:
            found = ID.search(attrs) if "id=" in attrs else None
            pid = (found.group(1) or found.group(2)) if found else None
            start = tag.start()
            name_end = start + 1 + len(name)
            if lower in VOID or attrs.endswith("/"):
                if pid:  # an element with no end: a part of its own (a field)
                    keep((pid, start, tag.end(), name_end))
                continue
            open_((lower, start, name_end, pid))
            continue
        for at in range(len(stack) - 1, -1, -1):  # close the nearest open element of that name
            if stack[at][0] == lower:
                for _, start, name_end, pid in stack[at + 1:]:
                    if pid:  # left open inside: not a part
                        keep(("\0", start, start, name_end))
                _, start, name_end, pid = stack[at]
                del stack[at:]
                if pid:
                    keep((pid, start, tag.end(), name_end))
                break
    return Split(html, version, *_tree(html, flat))


def _tree(html: str, flat: list[tuple[str, int, int, int]]) -> tuple[dict[str, Part], str | None]:
    """Nest the elements found by where they are, drop ids used twice, and hash each part's own text."""
    seen: dict[str, int] = {}
    for pid, *_ in flat:
        seen[pid] = seen.get(pid, 0) + 1
    kept = sorted((start, -end, pid, name_end) for pid, start, end, name_end in flat if seen[pid] == 1 and pid != "\0")
    children: dict[str | None, list[str]] = {None: []}
    spans: dict[str, tuple[int, int, int]] = {}
    open_: list[str] = []
    for start, neg_end, pid, name_end in kept:
        while open_ and spans[open_[-1]][1] <= start:
            open_.pop()
        children[open_[-1] if open_ else None].append(pid)
        children[pid] = []
        spans[pid] = (start, -neg_end, name_end)
        open_.append(pid)
    parts = {}
    for pid, (start, end, name_end) in spans.items():
        inner = children[pid]
        pieces, at = [], start
        for child in inner:
            c_start, c_end, _ = spans[child]
            pieces.append(html[at:c_start])
            pieces.append("\0" + child)
            at = c_end
        pieces.append(html[at:end])
        parts[pid] = Part(start, end, hash("".join(pieces)), tuple(inner), name_end)
    top = children[None]
    root = top[0] if len(top) == 1 and spans[top[0]][0] == 0 and spans[top[0]][1] == len(html) else None
    return parts, root
