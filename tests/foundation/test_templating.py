"""companion/web/templating.py: each template compiled once per language, its written-out sentences
translated as it compiles, rendering what the runtime gettext would have (issue 29); on Jinja's
public API only (issue 43)."""

from __future__ import annotations

import importlib
import inspect
import pkgutil

import companion
from companion.games import speech

#: the libraries a page's words go through, whose private methods no class of ours may override (their
#: next version may drop them). (companion/serving.py overrides three of gevent's pywsgi handler, with
#: gevent pinned: tests/foundation/test_library_seams.py.)
LIBRARIES = ("jinja2", "flask", "werkzeug", "babel", "markupsafe")


def test_each_language_compiles_its_own_template_with_its_sentences_in_it(app):
    env = app.jinja_env
    with app.test_request_context("/"):
        with speech.speaking("pl"):
            polish = env.get_template("tables/table.html")
            history = speech.Unfilled.gettext("History")
        with speech.speaking("fr"):
            french = env.get_template("tables/table.html")
        with speech.speaking("pl"):
            assert env.get_template("tables/table.html") is polish  # kept, not compiled again
            assert env.get_or_select_template(["tables/table.html"]) is polish  # select_template too
    assert polish is not french and history != "History"
    assert polish.environment is env.spoken("pl") and french.environment is env.spoken("fr")
    source = env.loader.get_source(env, "tables/table.html")[0]
    compiled = env.spoken("en").compile(source, "tables/table.html", raw=True)  # English: the sentence as written
    compiled_pl = env.spoken("pl").compile(source, "tables/table.html", raw=True)
    # folded into the template's own text: nothing is looked up as it renders
    assert f"<summary>{history}</summary>" in compiled_pl and "<summary>History</summary>" in compiled


def test_a_sentence_compiled_in_renders_as_the_runtime_gettext_would(app):
    env = app.jinja_env
    sources = ['{{ _("History") }}', '{{ _("%(name)s\'s turn", name=who) }}', '{{ gettext("History") }}',
               '{{ _("History").upper() }}', '{% set t = _("History") %}{{ t ~ who }}', '{{ _("History")|length }}']
    for lang in ("en", "pl", "de"):
        with app.test_request_context("/"), speech.speaking(lang):
            for source in sources:
                compiled = env.spoken(lang).from_string(source).render(who="<b>Ana</b>")
                # the same sentence through the runtime call, under a name the compiler does not translate
                runtime = env.from_string("{% set say = gettext %}" + source.replace("_(", "say(").replace("gettext(", "say(")
                                          ).render(who="<b>Ana</b>")
                assert compiled == runtime, (lang, source, compiled, runtime)
                assert "<b>" not in compiled  # a variable is escaped as ever


def test_a_page_after_the_app_changed_its_globals_still_sees_them(app):
    """A language's copy shares the app's globals and filters: one set later reaches it too."""
    env = app.jinja_env
    with app.test_request_context("/"), speech.speaking("it"):
        env.spoken("it")
        env.globals["late_global"] = "late"
        assert env.from_string("{{ late_global }}").render() == "late"
        assert env.spoken("it").from_string("{{ late_global }} {{ 1234.5|number }}").render() == "late 1.234,5"
    del env.globals["late_global"]


def _ours():
    """Every class defined in the companion package (`python -m companion` aside: it runs the CLI)."""
    for info in pkgutil.walk_packages(companion.__path__, "companion."):
        if info.name.endswith(".__main__"):
            continue
        module = importlib.import_module(info.name)
        for _name, cls in inspect.getmembers(module, inspect.isclass):
            if cls.__module__ == module.__name__:
                yield cls


def test_no_class_of_ours_overrides_a_private_method_of_a_library():
    """Jinja, Flask, Werkzeug or Babel may rename or drop a `_name` method in any release, unpinned
    as they are (pyproject.toml): a subclass of ours that overrides one would break without a word.
    So none does (docs/architecture.md "Every phone's language")."""
    found = []
    for cls in _ours():
        theirs = [base for base in cls.__mro__[1:] if base.__module__.split(".")[0] in LIBRARIES]
        for name, value in vars(cls).items():
            if not (name.startswith("_") and not name.startswith("__")) or not callable(value):
                continue
            for base in theirs:
                if name in vars(base):
                    found.append(f"{cls.__module__}.{cls.__qualname__}.{name} overrides {base.__module__}.{base.__qualname__}.{name}")
    assert not found, "use the library's public API instead:\n" + "\n".join(found)
