"""Say things in the players' words: a refused field as the player sees it, and plurals.

The JSON API and the CLI report a refused value by its path (`data.delta`, `players[1].vp`,
CONTRACT.md "Errors"). A page must not: it names the field as the player sees it ("Ben's VP",
"the 2nd name"). This module turns one into the other, for every game alike:

- a game's view module may give `LABELS`, patterns of paths to words. A pattern is the path
  without its leading `data.`, with every index written `[]`, optionally after the event type:
  `"vp.delta": "{who}'s VP change"`, `"players[].vp": "{name}'s VP"`, `"delta": "{who}'s change"`;
  a pattern may also name one item by its index (`"sheet.pages.botany[0]"`), which goes first.
  `{who}` is the player the event's `data.player` names, `{name}` the player whose index follows
  `players` in the path, `{nth}` the ordinal of the path's last index ("2nd"), and `{nth_name}`
  the player at the path's last index, for a list with one entry per player.
- without a label, the path's words are said plainly ("Ben's inventions VP"), never its syntax.

A label and a whole line are games/sentence.py Sentences: plain as a str, each player's name in
<bdi> on a page, so "محمد's VP: must be ..." keeps its words in order.

Plain Python: the pages use it, and nothing here knows Flask.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Mapping, Sequence

from .games import sentence
from .games.sentence import Sentence
from .games.validation import RulesError
from .games.words import ordinal, plural  # noqa: F401  (the templates' filters, web/__init__.py)

_INDEX = re.compile(r"\[(\d+)\]")
_TOKEN = re.compile(r"\[(\d+)\]|\[\"[^\"]*\"\]|[^.\[]+")
#: paths that name the whole document or event: the message says it all
WHOLE = {"", "$", "data", "type", "options", "expected_version"}
#: abbreviations a path holds in lower case, as the rulebooks print them ("gk" -> "GK")
ABBREVIATIONS = {"gk": "GK", "vp": "VP"}
#: the start page's and every table's own fields
COMMON_LABELS = {
    "players[]": "Player {number}'s name",  # the start form's rows are "Player 1", "Player 2"...
    "players": "the players",
    "name": "{who}'s new name",
    "rename.name": "{who}'s new name",
    "profile": "the box profile",
    "calculator": "\"Just the final score\"",
    "seat": "your seat",
}


@dataclass(frozen=True)
class Said:
    """A refused value, said for a page: `field` stays the path (for data-field), `text` is shown."""

    field: str
    message: str
    label: str
    #: the seat the refused event was about (its data.player), so its player's card shows it
    player: int | None = None
    #: the table's names, which the message ("it is Tom's turn") may hold: marked for the page's <bdi>
    names: tuple[str, ...] = ()

    @property
    def text(self) -> Sentence:
        """The whole line a page shows: "Ben's VP: must be a whole number from 0 to 999".

        A label or message that opens with a name keeps the name as typed (no capital forced on it).
        """
        message = sentence.naming(self.message, self.names).isolated
        label = sentence.said(self.label).isolated
        if not label:
            return Sentence(message[:1].upper() + message[1:])
        label = label[:1].upper() + label[1:]
        be = "are" if several(self.label) else "is"  # "Ana's markers are missing"
        if message == "is required":  # a field left empty: "Ana's GK is missing", not "Ana's GK: is required"
            return Sentence(f"{label} {be} missing")
        if message.startswith("is "):  # "Cy's suspicion is required at the Stake: ..."
            return Sentence(f"{label} {be} {message[3:]}")
        return Sentence(f"{label}: {message}")

    def __str__(self) -> str:
        return self.text


#: words that open a clause ("where Ana starts taking inks"): one thing, whatever its last word
_CLAUSE = ("where ", "how ", "who ", "which ", "what ", "whether ")
#: a field's head noun ends its first part: "Ana's markers | on Take orders", "The suspicion change | for the others"
_AFTER_HEAD = re.compile(r" (?:on|for|each|at|of|in|to|from) ")
#: a marked name followed by a word: a verb ("the second specialty Ben swaps")
_NAME_THEN_WORD = re.compile(f"{sentence.PDI} [a-z]")


def several(label: str) -> bool:
    """Whether a field's words name several things, and so take "are": "Ana's markers", "the
    scoring spaces"; not "Ana's GK", "Ana's status", "The suspicion change for the others"."""
    marked = str(getattr(label, "isolated", label))
    plain = sentence.unmarked(marked)
    if plain.lower().startswith(_CLAUSE) or _NAME_THEN_WORD.search(marked):
        return False
    words = _AFTER_HEAD.split(plain, 1)[0].split()
    last = words[-1] if words else ""
    return last.endswith("s") and not last.endswith(("ss", "us", "'s")) and not last.isupper()


def _name(names: Sequence[str], index: Any) -> str | None:
    if isinstance(index, int) and not isinstance(index, bool) and 0 <= index < len(names):
        return names[index]
    return None


def label_of(field: str, names: Sequence[str], labels: Mapping[str, str] = {},
             type_: str | None = None, data: Any = None) -> Sentence:
    """Return the words for `field` as a player sees it, or "" for the whole document."""
    return Sentence(_label(field, sentence.names(names), labels, type_, data))


def _label(field: str, names: Sequence[str], labels: Mapping[str, str], type_: str | None, data: Any) -> str:
    """label_of's words, from the names marked (sentence.name)."""
    path = field
    for prefix in ("data.", "options."):
        if path.startswith(prefix):
            path = path[len(prefix):]
    if field in WHOLE or path in WHOLE:
        return ""
    who = _name(names, data.get("player")) if isinstance(data, dict) else None
    indices = [int(i) for i in _INDEX.findall(path)]
    player = re.search(r"players\[(\d+)\]", path)
    pattern = _INDEX.sub("[]", path)
    values = {
        "who": who or "the player",
        "name": _name(names, int(player.group(1))) if player else None,
        "nth": ordinal(indices[-1] + 1) if indices else "",
        "number": indices[-1] + 1 if indices else "",
        # for a list with one entry per player: the last index's player
        "nth_name": (_name(names, indices[-1]) if indices else None) or "the player",
    }
    if values["name"] is None:
        values["name"] = f"the {values['nth']} player" if indices else "the player"
    table = {**COMMON_LABELS, **labels}
    exact = [f"{type_}.{path}", path] if type_ else [path]  # a label for one item ("pages.botany[0]")
    for key in exact + ([f"{type_}.{pattern}"] if type_ else []) + [pattern, pattern.rsplit(".", 1)[-1]]:
        if key in table:
            return table[key].format(**values)
    return _plainly(path, names, who)


def _plainly(path: str, names: Sequence[str], who: str | None) -> str:
    """Say a path without a label: `players[1].inventions_vp` -> "Ben's inventions VP"."""
    words: list[str] = []
    owner = who
    tokens = [m.group(0) for m in _TOKEN.finditer(path)]
    if tokens and tokens[0] in ("data", "options", "$"):
        tokens = tokens[1:]
    for i, token in enumerate(tokens):
        index = _INDEX.fullmatch(token)
        if index:
            n = int(index.group(1))
            if i and tokens[i - 1] == "players" and _name(names, n):
                owner = names[n]
                if words and words[-1] == "players":
                    words.pop()
            else:
                words.append(f"number {n + 1}")
        elif token.startswith("["):
            words.append(token[2:-2] or "a blank name")
        else:
            words.append(" ".join(ABBREVIATIONS.get(w, w) for w in token.split("_")))
    text = ", ".join(words) or "this value"
    return f"{owner}'s {text}" if owner else text


def said(error: RulesError, names: Sequence[str], labels: Mapping[str, str] = {},
         type_: str | None = None, data: Any = None) -> Said:
    """Return a refused value as a page shows it: its label in the players' words, and the message."""
    player = data.get("player") if isinstance(data, dict) else None
    player = player if isinstance(player, int) and not isinstance(player, bool) else None
    # a page says what the player sees where the rule gave its words for a page (RulesError.said)
    message = getattr(error, "said", None) or error.message
    return Said(error.field, message, label_of(error.field, names, labels, type_, data), player, tuple(names))
