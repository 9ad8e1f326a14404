"""companion/web/templating.py: each template compiled once per language, its written-out sentences
translated as it compiles, rendering what the runtime gettext would have (issue 29)."""

from __future__ import annotations

from companion.games import speech


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
    assert polish is not french and history != "History"
    source = env.loader.get_source(env, "tables/table.html")[0]
    compiled = env.compile(source, "tables/table.html", raw=True)  # English: the sentence as written
    with speech.speaking("pl"):
        compiled_pl = env.compile(source, "tables/table.html", raw=True)
    # folded into the template's own text: nothing is looked up as it renders
    assert f"<summary>{history}</summary>" in compiled_pl and "<summary>History</summary>" in compiled


def test_a_sentence_compiled_in_renders_as_the_runtime_gettext_would(app):
    env = app.jinja_env
    sources = ['{{ _("History") }}', '{{ _("%(name)s\'s turn", name=who) }}', '{{ gettext("History") }}']
    for lang in ("en", "pl", "de"):
        with app.test_request_context("/"), speech.speaking(lang):
            for source in sources:
                compiled = env.from_string(source).render(who="<b>Ana</b>")
                # the same sentence through the runtime call, under a name the compiler does not translate
                runtime = env.from_string("{% set say = gettext %}" + source.replace("{{ _(", "{{ say(").replace("{{ gettext(", "{{ say(")
                                          ).render(who="<b>Ana</b>")
                assert compiled == runtime, (lang, source, compiled, runtime)
                assert "<b>" not in compiled  # a variable is escaped as ever
