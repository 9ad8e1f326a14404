"""Templates compiled once per language, their constant sentences translated as they compile (issue 29).

A template's `{{ _("Undo") }}` is a call at every render: Jinja's newstyle gettext looks the
sentence up, wraps it and formats it. The live region says about two hundred of them, and a
table whose phones read two languages is drawn twice a change (companion/web/live.py): they took
the region's render from 3.3 to 4.9 ms (bench/README.md). Yet the sentence is the same at every
render in one language. So the app's Jinja environment compiles each template once per language
spoken (its cache key carries the language), and, as it compiles, replaces each call of `_` or
`gettext` whose sentence is written out by that sentence's translation:

- without variables and without a `%`: the translation itself, marked safe (what gettext gave);
- with variables: `filled(translation, **variables)`, which formats it as Jinja's gettext does
  (escaping each variable), without looking it up again.

A sentence given by an expression, and every `ngettext`, are translated at render, as before.
Plain Jinja: an Environment subclass Flask builds (`Flask.jinja_environment`).
"""

from __future__ import annotations

import weakref

from flask.templating import Environment as FlaskEnvironment
from jinja2 import nodes, pass_context
from jinja2.visitor import NodeTransformer
from markupsafe import Markup

from ..games import speech

#: the template calls whose written-out sentence is translated as the template compiles
TRANSLATED = {"_", "gettext"}


@pass_context
def filled(__context, __string: str, **variables) -> str:
    """A translated sentence with its variables, as Jinja's newstyle gettext fills it (jinja2.ext)."""
    rv = __string
    if __context.eval_ctx.autoescape:
        rv = Markup(rv)
    return rv % variables


class _Translate(NodeTransformer):
    """Replace `_("written")` with its translation in the language spoken while compiling."""

    def visit_Call(self, node: nodes.Call) -> nodes.Node:
        self.generic_visit(node)
        if not (isinstance(node.node, nodes.Name) and node.node.name in TRANSLATED and len(node.args) == 1
                and isinstance(node.args[0], nodes.Const) and isinstance(node.args[0].value, str)
                and node.dyn_args is None and node.dyn_kwargs is None):
            return node
        said = speech.Unfilled.gettext(node.args[0].value)
        if not node.kwargs and "%" not in said:
            return nodes.MarkSafeIfAutoescape(nodes.Const(said, lineno=node.lineno), lineno=node.lineno)
        return nodes.Call(nodes.Name("filled", "load", lineno=node.lineno), [nodes.Const(said, lineno=node.lineno)],
                          node.kwargs, None, None, lineno=node.lineno)


class SpeakingEnvironment(FlaskEnvironment):
    """Flask's environment, keeping one compiled template per name and language."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.globals["filled"] = filled

    def _parse(self, source, name, filename):
        return _Translate().visit(super()._parse(source, name, filename))

    def _load_template(self, name, globals):
        if self.loader is None:
            raise TypeError("no loader for this environment specified")
        key = (weakref.ref(self.loader), name, speech.language())
        template = self.cache.get(key) if self.cache is not None else None
        if template is not None and (not self.auto_reload or template.is_up_to_date):
            if globals:
                template.globals.update(globals)
            return template
        template = self.loader.load(self, name, self.make_globals(globals))
        if self.cache is not None:
            self.cache[key] = template
        return template
