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

Every word is said in the language spoken (games/speech.py): a label's pattern is translated
before its placeholders are filled (a game marks its LABELS with N_, the patterns keep their
braces), and a whole line is one translated pattern ("%(label)s is missing"), never English
glued around translated words. A message is compared with its English and its translation
alike, so a refusal raised in either language is said the same way.

A label and a whole line are games/sentence.py Sentences: plain as a str, each player's name in
<bdi> on a page, so "محمد's VP: must be ..." keeps its words in order.

Plain Python: the pages use it, and nothing here knows Flask.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Mapping, Sequence

from .games import sentence, speech
from .games.sentence import Sentence
from .games.speech import N_, _
from .games.validation import RulesError
from .games.words import ordinal, plural  # noqa: F401  (the templates' filters, web/__init__.py)

_INDEX = re.compile(r"\[(\d+)\]")
_TOKEN = re.compile(r"\[(\d+)\]|\[\"[^\"]*\"\]|[^.\[]+")
#: paths that name the whole document or event: the message says it all
WHOLE = {"", "$", "data", "type", "options", "expected_version"}
#: abbreviations a path holds in lower case, as the rulebooks print them ("gk" -> "GK")
ABBREVIATIONS = {"gk": "GK", "vp": "VP"}


def breakdown_label(game: Any, key: str) -> str:
    """A result's breakdown key in the reader's words: the game's own label, else the words its
    calculator gives for a key it cannot list (Game.breakdown_label: the pad's "round_3"), else the
    key's words ("fame_track" -> "Fame track", "gk" -> "GK"). The play's record and the result image
    both say it so."""
    if key in game.breakdown:
        return speech.said(game.breakdown[key])
    own = game.breakdown_label(key)
    if own:
        return own
    text = " ".join(ABBREVIATIONS.get(w, w) for w in key.split("_"))
    return text[:1].upper() + text[1:]


#: the start page's and every table's own fields
COMMON_LABELS = {
    "players[]": N_("Player {number}'s name"),  # the start form's rows are "Player 1", "Player 2"...
    "players": N_("the players"),
    "name": N_("{who}'s new name"),
    "rename.name": N_("{who}'s new name"),
    "profile": N_("the box profile"),
    "calculator": N_("\"Just the final score\""),
    "seat": N_("your seat"),
    # the turn clock's event, every game's (games/clock.py)
    "clock.from": N_("\"Done\""),
    "clock.seat": N_("the player to hand the turn to"),
    "clock.limit_s": N_("the turn limit"),
}
#: the one message a line says otherwise: a field left empty is "missing" (compared in English and translated)
REQUIRED = N_("is required")


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
    #: whether the field's words name several things ("Ana's markers are missing"), when the label
    #: is not English (`said` decides it from the English label); None: decided from `label`
    many: bool | None = None

    @property
    def text(self) -> Sentence:
        """The whole line a page shows: "Ben's VP: must be a whole number from 0 to 999".

        A label or message that opens with a name keeps the name as typed (no capital forced on it).
        In every language the line is one pattern of the catalogs, the label and message filled in.
        """
        message = sentence.naming(self.message, self.names).isolated
        label = sentence.said(self.label).isolated
        if not label:
            return _capital(message)
        many = several(self.label) if self.many is None else self.many  # "Ana's markers are missing"
        if self.message in (REQUIRED, _(REQUIRED)):  # a field left empty: "Ana's GK is missing", not "Ana's GK: is required"
            return _capital(_("%(label)s are missing", label=label) if many else _("%(label)s is missing", label=label))
        if speech.language() == speech.SOURCE and message.startswith("is "):  # "Cy's suspicion is required at the Stake: ..."
            return _capital(f"{label} {'are' if many else 'is'} {message[3:]}")
        # Translators: a refused field and what is wrong with it: "Ben's VP: must be a whole number from 0 to 999"
        return _capital(_("%(label)s: %(problem)s", label=label, problem=message))

    def __str__(self) -> str:
        return self.text


def _capital(line: str) -> Sentence:
    """The line with a capital first letter: a name that opens it stays as typed (its mark comes first)."""
    return Sentence(line[:1].upper() + line[1:])


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
    # Translators: a player the sentence cannot name ("the player's VP")
    anyone = _("the player")
    values = {
        "who": who or anyone,
        "name": _name(names, int(player.group(1))) if player else None,
        "nth": ordinal(indices[-1] + 1) if indices else "",
        "number": indices[-1] + 1 if indices else "",
        # for a list with one entry per player: the last index's player
        "nth_name": (_name(names, indices[-1]) if indices else None) or anyone,
    }
    if values["name"] is None:
        # Translators: a player named by their place at the table: "the 2nd player"
        values["name"] = _("the %(nth)s player", nth=values["nth"]) if indices else anyone
    table = {**COMMON_LABELS, **labels}
    exact = [f"{type_}.{path}", path] if type_ else [path]  # a label for one item ("pages.botany[0]")
    for key in exact + ([f"{type_}.{pattern}"] if type_ else []) + [pattern, pattern.rsplit(".", 1)[-1]]:
        if key in table:  # the pattern in the language spoken (its game marked it with N_), then filled
            return _(table[key]).format(**values)
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
                # Translators: an item of a list, named by its place: "counts, number 3"
                words.append(_("number %(n)s", n=n + 1))
        elif token.startswith("["):
            words.append(token[2:-2] or _("a blank name"))
        else:  # the path's own words, in the language spoken where a catalog holds them ("players")
            said = " ".join(ABBREVIATIONS.get(w, w) for w in token.split("_"))
            words.append(_(said))
    text = ", ".join(words) or _("this value")
    # Translators: a player's value named by its path's words: "Ben's inventions VP"
    return _("%(owner)s's %(text)s", owner=owner, text=text) if owner else text


def said(error: RulesError, names: Sequence[str], labels: Mapping[str, str] = {},
         type_: str | None = None, data: Any = None) -> Said:
    """Return a refused value as a page shows it: its label in the players' words, and the message."""
    player = data.get("player") if isinstance(data, dict) else None
    player = player if isinstance(player, int) and not isinstance(player, bool) else None
    # a page says what the player sees where the rule gave its words for a page (RulesError.said)
    message = getattr(error, "said", None) or error.message
    label = label_of(error.field, names, labels, type_, data)
    many = None
    if speech.language() != speech.SOURCE:  # "is" or "are": the English label says which
        with speech.english():
            many = several(label_of(error.field, names, labels, type_, data))
    return Said(error.field, message, label, player, tuple(names), many)
