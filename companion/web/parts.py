"""How a part of the live region is sent: marked to be morphed in out of band, with its version.

A *part* is an element with an id in the live region (companion/web/region.py draws them and
decides which a phone needs). Each part sent is an htmx out-of-band element, morphed into the
page by idiomorph (static/vendor/idiomorph-ext, through htmx's `morph` swap):
`hx-swap-oob="morph"` and `data-v`, the version it shows, are added to its opening tag. The page
never draws a part over one that shows a newer version (static/js/).

So a part's text must not change when nothing it shows changed: the version, above all, is
never written into the region (the answers carry it as data: the SSE event's id, the
X-Table-Version header), and a form's expected_version is added by the page as it is sent.
"""

from __future__ import annotations

import re

#: a comment, or a tag: (1) "/" for an end tag, (2) its name, (3) its attributes
# (an attribute's run of plain characters taken whole and never given back: possessive, so a tag
# left open cannot make the search backtrack, and a region is read in half the time)
TAG = re.compile(r"<(?:!--.*?--|(/?)([A-Za-z][A-Za-z0-9-]*)((?:[^>\"']++|\"[^\"]*+\"|'[^']*+')*+)>)", re.S)
#: what marks a part sent out of band (htmx) to be morphed in place (idiomorph's htmx extension)
OOB = 'hx-swap-oob="morph"'


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
