"""The live region drawn from (table, version, screen, language) alone, a part at a time.

The live region (templates/tables/table.html's `live` block, and each game's panel) is made of
*parts*: elements with an id, each written in the templates as

    {% call part("player-" ~ pl.index, pl, view.actions) %}<details id="player-{{ pl.index }}">…{% endcall %}

with the inputs it is drawn from after its id. A region is drawn knowing the parts of the
version before it (`Parts`): a part whose inputs are the same as then is not drawn again, its
text is taken as it was; only a part whose inputs changed runs its template. So a +1 on Anna's
fame draws the region's skeleton, Anna's card and its fame stepper, the scoreboard's row, the
history and the tools, and takes the rest as it was (Phoenix LiveView's change tracking, done
per part: what depends on unchanged data is neither drawn nor sent).

A part's inputs must hold everything its template reads, its parts' included (a part taken as
it was is not looked into). What every part reads alike is in every key already: the table's
id, names, options and box profile, the screen and the language. `part(id)` with no inputs is
drawn at every version (the region's root and a game's panel: the skeletons around the parts).
tests/foundation/test_region.py draws every game's tables a change at a time and checks each
region against one drawn whole with nothing kept: a missing input shows there.

What a phone is sent is decided as before (parts.py): each part's *own* text, its HTML with
the parts inside it left out, is fingerprinted; a part whose own text changed is sent whole,
one whose own text is the same is looked into. A card drawn again for its fame stepper sends
the stepper, not the card.

Nothing here reads the request: the region is drawn in the app's context alone, its addresses
built from the app's URL map (`url_for`), `request` and `session` hidden from its templates, in the
language it is given.
The page, a poll, a tap's answer, a refusal and the stream all draw through `draw`.
"""

from __future__ import annotations

import hashlib
import json
import re
import threading
from contextlib import nullcontext
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any, Callable

from markupsafe import Markup

from ..games import speech
from .parts import marks

#: the start of a part's tag name (the attributes sent out of band go after it)
_TAG = re.compile(r"\s*<[A-Za-z][A-Za-z0-9-]*")
#: the history lines the live region shows, newest first: every push sends the list again when a
#: change adds a line, and 60 lines were half of a push's bytes and of a slow phone's time to draw it
#: (bench/README.md, issue 28); the whole log is the API's (GET /api/v1/tables/ID/events) and the play's record
HISTORY_LINES = 20
#: what stands for a part inside its parent's own text: "\0" id "\1"
_OPEN, _CLOSE = "\0", "\1"


def digest(text: str) -> str:
    """A short hash of `text`, the same in every process (Python's hash() is not)."""
    return hashlib.blake2b(text.encode(), digest_size=8).hexdigest()


def _plain(value: Any) -> Any:
    """What json.dumps makes of a value it does not know: a set in a stable order, else its repr."""
    if isinstance(value, (set, frozenset)):
        return sorted(value, key=repr)
    return repr(value)


def _written(value: Any) -> str:
    """An input written out the same way in every process."""
    return json.dumps(value, default=_plain, separators=(",", ":"), ensure_ascii=False)


@dataclass(frozen=True)
class Drawn:
    """A part as drawn: the key of its inputs (None: drawn at every version), its own text (its
    parts as "\\0id\\1"), the hash of that text, and its parts in order."""

    key: str | None
    own: str
    own_hash: str
    children: tuple[str, ...]


@dataclass
class Parts:
    """A region at one version: every part by id, and the root's id."""

    version: int
    root: str | None
    parts: dict[str, Drawn]
    drawn: tuple[str, ...] = ()  # the parts whose template ran for this version (the others were taken as they were)
    twice: tuple[str, ...] = ()  # ids met more than once in one drawing (a template's mistake: tests look here)
    _html: dict[str, str] = field(default_factory=dict, repr=False)
    _parents: dict[str, str] | None = field(default=None, repr=False)

    @property
    def fingerprint(self) -> dict[str, tuple[str, tuple[str, ...]]]:
        return {pid: (d.own_hash, d.children) for pid, d in self.parts.items()}

    @property
    def html(self) -> str:
        """The whole region."""
        return self.html_of(self.root) if self.root else ""

    def html_of(self, pid: str) -> str:
        """One part's HTML, its parts put back into its own text."""
        found = self._html.get(pid)
        if found is None:
            found = self._html[pid] = assemble(self.parts, pid)
        return found

    def changed_since(self, then: dict | None, redraw: tuple[str, ...] = ()) -> list[str]:
        """The ids of the parts a page showing `then` (a fingerprint; None: nothing) is sent, and
        those in `redraw` (drawn otherwise on the page) unless a part sent holds them."""
        if self.root is None:
            return []
        if then is None:
            return [self.root]
        found: list[str] = []

        def walk(pid: str) -> None:
            part = self.parts[pid]
            if tuple(then.get(pid) or ()) != (part.own_hash, part.children):
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
        if self._parents is None:
            self._parents = {c: p for p, d in self.parts.items() for c in d.children}
        at: str | None = pid
        while at is not None:
            if at in ids:
                return True
            at = self._parents.get(at)
        return False

    def out_of_band(self, ids: list[str]) -> str:
        """The parts named, each marked to be morphed in out of band, showing this version."""
        pieces = []
        for pid in ids:
            html = self.html_of(pid)
            at = _TAG.match(html)
            end = at.end() if at else 0
            pieces.append(html[:end] + marks(self.version) + html[end:])
        return "\n".join(pieces)

    def since(self, then: dict | None, redraw: tuple[str, ...] = ()) -> str:
        """What a page showing `then` needs to show this version."""
        return self.out_of_band(self.changed_since(then, redraw))


def assemble(parts: dict[str, Drawn], pid: str) -> str:
    """A part's HTML from its own text and its parts' (recursively)."""
    drawn = parts[pid]
    if not drawn.children:
        return drawn.own
    pieces = drawn.own.split(_OPEN)
    out = [pieces[0]]
    for piece in pieces[1:]:
        cid, _, rest = piece.partition(_CLOSE)
        out.append(assemble(parts, cid) if cid in parts else "")
        out.append(rest)
    return "".join(out)


class _Run:
    """One drawing of a region: the parts of the version before, and those drawn now."""

    def __init__(self, before: "Parts | None", salt: str, force: bool):
        self.before = before.parts if before is not None else {}
        self.before_html = before._html if before is not None else {}
        self.salt = salt
        self.force = force
        self.after: dict[str, Drawn] = {}
        self.stack: list[list[tuple[str, str]]] = [[]]  # the parts met inside the part being drawn
        self.drawn: list[str] = []
        self.twice: list[str] = []  # ids met more than once (a template's mistake: tests look here)
        self.written: dict[int, tuple[Any, str]] = {}  # id(input) -> (the input, written out)
        self.html: dict[str, str] = {}  # each part's HTML met in this drawing (kept parts' from before)

    def key(self, inputs: tuple) -> str:
        """The key of a part's inputs; each input written out once a drawing (a card's parts share them)."""
        said = []
        for value in inputs:
            found = self.written.get(id(value))
            if found is None:
                found = self.written[id(value)] = (value, _written(value))  # the value held: its id stays its own
            said.append(found[1])
        return digest(self.salt + "\x1e".join(said))

    def part(self, pid: str, inputs: tuple | None, caller: Callable[[], str]) -> Markup:
        key = None if inputs is None else self.key(inputs)
        old = self.before.get(pid)
        if pid in self.after:
            self.twice.append(pid)
        if key is not None and not self.force and old is not None and old.key == key:
            html = self._keep(pid)
        else:
            self.stack.append([])
            html = str(caller()).strip()
            children = self.stack.pop()
            own, at, kept = [], 0, []
            for cid, child in children:
                where = html.find(child, at)
                if where < 0:  # changed on its way out (a filter): its text stays in ours
                    continue
                own += [html[at:where], _OPEN, cid, _CLOSE]
                at = where + len(child)
                kept.append(cid)
            own.append(html[at:])
            text = "".join(own)
            self.after[pid] = Drawn(key, text, digest(text), tuple(kept))
            self.drawn.append(pid)
        self.html[pid] = html
        self.stack[-1].append((pid, html))
        return Markup(html)

    def _keep(self, pid: str) -> str:
        """Take a part and its parts as they were; return its HTML."""
        todo = [pid]
        while todo:
            at = todo.pop()
            drawn = self.before[at]
            self.after[at] = drawn
            todo.extend(c for c in drawn.children if c in self.before)
        html = self.before_html.get(pid)
        return html if html is not None else assemble(self.before, pid)


_running: ContextVar[_Run | None] = ContextVar("companion_region_run", default=None)


def url_for(endpoint: str, **values: Any) -> str:
    """The templates' url_for: inside a region's drawing built from the app's URL map alone (the
    app is served at its root: guard.py trusts no X-Forwarded-Prefix), elsewhere Flask's."""
    import flask

    if _running.get() is None and flask.has_request_context():
        return flask.url_for(endpoint, **values)
    app = flask.current_app
    adapter = app.extensions.get("companion.urls")
    if adapter is None:
        adapter = app.extensions["companion.urls"] = app.url_map.bind(
            "localhost", script_name=app.config.get("APPLICATION_ROOT") or "/", url_scheme="http")
    return adapter.build(endpoint, values)


def part(pid: str, *inputs: Any, caller: Callable[[], str]) -> Markup:
    """The templates' `{% call part(id, inputs…) %}`: a part drawn only when its inputs changed.

    Outside a region's drawing (a stepper drawn alone, a page) the part is simply drawn.
    """
    run = _running.get()
    if run is None:
        return Markup(str(caller()).strip())
    return run.part(pid, inputs if inputs else None, caller)


class Counts:
    """What was drawn in this process: whole regions and parts (for tests and benchmarks)."""

    def __init__(self):
        self.lock = threading.Lock()
        self.regions = self.whole = self.parts = 0

    def add(self, drawn: int, whole: bool) -> None:
        with self.lock:
            self.regions += 1
            self.whole += whole
            self.parts += drawn


COUNTS = Counts()


def salt_of(table, screen: str | None, lang: str, extra: str = "") -> str:
    """What every part of a table's region reads alike: in every part's key."""
    return digest(json.dumps([table.id, table.names, table.options, table.profile, screen, lang, extra],
                             default=_plain, separators=(",", ":"), ensure_ascii=False))


def context_of(db, table, screen: str | None, error=None, notice: str | None = None, posted=None,
               history_lines: int = HISTORY_LINES) -> dict:
    """What the region is drawn from: the table, the game's view of it, its recent history and
    whether it can undo, and a refusal or notice said to one phone. Read from the table and the
    database alone, never from a request.

    A refused value is said in the players' words (companion/wording.py), from the event
    `posted`: "Ben's VP", never `data.delta`.
    """
    from .. import tables, wording
    from . import ending
    from ..games.validation import RulesError

    try:
        view = table.rules.view(table.state, table.names, table.options, table.profile, screen)
    except RulesError as err:
        view, error = {}, error or err
    if isinstance(error, RulesError):
        posted = posted if isinstance(posted, dict) else {}
        type_ = posted.get("type") if isinstance(posted.get("type"), str) else None
        error = wording.said(error, table.names, table.rules.labels, type_, posted.get("data"))
    outcome = ending.outcome(table)  # issue 42: the result card every phone keeps after the end
    return {
        "table": table,
        "state": table.state,
        "view": view,
        "screen": screen,
        "error": error,
        "notice": notice,
        "history": tables.recent_history(db, table, history_lines),
        "can_undo": tables.can_undo(db, table.id),
        "game": table.rules,
        # a finished table's result card: the result, its image, Share, BG Stats (web/ending.py)
        "outcome": outcome,
    }


def _in_app(app) -> bool:
    import flask

    return flask.has_app_context() and flask.current_app._get_current_object() is app


def draw(app, table, screen: str | None, lang: str, before: Parts | None, context: dict, *,
         force: bool = False, salt_extra: str = "") -> Parts:
    """Draw a table's region at its version, on `screen` (as the game reads it) in `lang`, from
    `context` (`tables.region_context`), taking each part whose inputs did not change from
    `before` (the same screen and language, an older version).

    `force` draws every part (a refusal's region, never kept). No client's cookie or header can
    reach it: `request` and `session` are None to its templates, and its addresses come from the
    app (`url_for`).
    """
    run = _Run(before, salt_of(table, screen, lang, salt_extra), force)
    token = _running.set(run)
    try:
        with speech.speaking(lang), (nullcontext() if _in_app(app) else app.app_context()):
            template = app.jinja_env.get_or_select_template("tables/table.html")
            ctx = template.new_context({**context, "request": None, "session": None})
            html = "".join(template.blocks["live"](ctx))
    finally:
        _running.reset(token)
    top = run.stack[0]
    root = top[0][0] if len(top) == 1 and top[0][1] == html.strip() else None
    found = Parts(table.version, root, run.after, tuple(run.drawn), tuple(run.twice), run.html)
    COUNTS.add(len(run.drawn), before is None or force)
    return found
