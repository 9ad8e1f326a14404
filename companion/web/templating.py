"""Templates compiled once per language, their constant sentences translated as they compile (issue 29).

A template's `{{ _("Undo") }}` is a call at every render: Jinja's newstyle gettext looks the
sentence up, wraps it and formats it. The live region says about two hundred of them, and a
table whose phones read two languages is drawn twice a change (companion/web/live.py): they took
the region's render from 3.3 to 4.9 ms (bench/README.md). Yet the sentence is the same at every
render in one language. So each language spoken has its own copy of the app's Jinja environment
(`Environment.overlay()`, with its own cache of compiled templates), and, as a template compiles
there, each call of `_` or `gettext` whose sentence is written out is replaced by that sentence's
translation:

- without variables: the translation itself, marked safe (what gettext gave), folded into the
  template's text;
- with variables: `filled(translation, **variables)`, which formats it as Jinja's gettext does
  (escaping each variable), without looking it up again.

A sentence given by an expression, and every `ngettext`, are translated at render, as before.

Public Jinja only (issue 43): `overlay()`, an `Extension`'s `filter_stream` (the token stream,
before it is parsed), and the public `get_template`/`select_template`, which hand each name to
the copy of the language spoken. No private method of Jinja's is overridden
(tests/foundation/test_templating.py walks the classes to keep it so).
"""

from __future__ import annotations

from typing import Iterable, Iterator

from flask.templating import Environment as FlaskEnvironment
from jinja2 import pass_context
from jinja2.ext import Extension
from jinja2.lexer import Token, TokenStream
from markupsafe import Markup

from ..games import speech

#: the template calls whose written-out sentence is translated as the template compiles
TRANSLATED = {"_", "gettext"}
#: the compiled templates each language's copy keeps (the app has about sixty)
CACHE_SIZE = 400


@pass_context
def filled(__context, __string: str, **variables) -> str:
    """A translated sentence with its variables, as Jinja's newstyle gettext fills it (jinja2.ext)."""
    rv = __string
    if __context.eval_ctx.autoescape:
        rv = Markup(rv)
    return rv % variables


class TranslateAsCompiled(Extension):
    """Replace `_("written")` with its translation in the language of the environment compiling it."""

    def filter_stream(self, stream: TokenStream) -> Iterable[Token]:
        lang = getattr(self.environment, "speaks", None)
        if lang is None:
            return stream
        autoescape = self.environment.autoescape
        if callable(autoescape):
            autoescape = autoescape(stream.filename)
        return _translated(list(stream), speech.translations(lang).ugettext, bool(autoescape))


def _translated(tokens: list[Token], say, autoescape: bool) -> Iterator[Token]:
    """The tokens, each `_ ( "written" )` or `_ ( "written" ,` rewritten with its translation."""
    at = 0
    while at < len(tokens):
        token = tokens[at]
        call = tokens[at:at + 4]
        if (len(call) == 4 and token.type == "name" and token.value in TRANSLATED
                and (at == 0 or tokens[at - 1].type != "dot")
                and call[1].type == "lparen" and call[2].type == "string" and call[3].type in ("rparen", "comma")):
            line, said = token.lineno, say(call[2].value)
            if call[3].type == "rparen" and "%" not in said:
                # ("translation"|safe): a constant Jinja folds into the template's text
                yield Token(line, "lparen", "(")
                yield Token(line, "string", said)
                if autoescape:
                    yield Token(line, "pipe", "|")
                    yield Token(line, "name", "safe")
                yield Token(line, "rparen", ")")
            else:
                yield Token(line, "name", "filled")
                yield call[1]
                yield Token(call[2].lineno, "string", said)
                yield call[3]
            at += 4
            continue
        yield token
        at += 1


class SpeakingEnvironment(FlaskEnvironment):
    """Flask's environment, handing each template name to its copy for the language spoken."""

    #: the language this copy compiles its templates in; None: the app's own, which compiles none
    speaks: str | None = None

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.globals["filled"] = filled
        self.copies: dict[str, SpeakingEnvironment] = {}

    def spoken(self, lang: str) -> "SpeakingEnvironment":
        """The copy of this environment that compiles in `lang`: made at its first use, then kept.

        It shares everything the app set (globals, filters, the loader, the extensions) but its cache."""
        copy = self.copies.get(lang)
        if copy is None:
            copy = self.overlay(extensions=[TranslateAsCompiled], cache_size=CACHE_SIZE)
            copy.speaks = lang
            copy = self.copies.setdefault(lang, copy)
        copy.auto_reload = self.auto_reload
        return copy

    def get_template(self, name, parent=None, globals=None):
        if self.speaks is None:
            return self.spoken(speech.language()).get_template(name, parent, globals)
        return super().get_template(name, parent, globals)

    def select_template(self, names, parent=None, globals=None):
        if self.speaks is None:
            return self.spoken(speech.language()).select_template(names, parent, globals)
        return super().select_template(names, parent, globals)
