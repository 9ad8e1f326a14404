"""The translation catalogs (issue 29): whole, faithful to the English, and up to date with the code.

Every catalog folder (scripts/catalogs.py: the pages', the shared words', each game's) holds a
messages.pot extracted from the code and one messages.po per language. Checked here:
- the .pot files are what the code says now (`scripts/catalogs.py --check`);
- every language holds every sentence, translated: none empty, none fuzzy, every plural form
  the language has filled (Polish three);
- each translation has the placeholders of its English, no more and no fewer, so a name or a
  number is never lost or invented, and keeps a number the English spells out as it is;
- a sentence said in two catalogs is translated the same in both (the merged catalog keeps one);
- a changed English sentence keeps its translations as fuzzy guesses for a translator to confirm,
  never shown until confirmed (the round trip of README "Languages", issue 38).
"""

from __future__ import annotations

import importlib.util
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from companion.games import speech

ROOT = Path(__file__).resolve().parents[2]
TRANSLATED = [lang for lang in speech.LANGUAGES if lang != speech.SOURCE]
FOLDERS = speech.catalog_folders()
PLACEHOLDER = re.compile(r"%\([a-z_0-9]+\)[sdif]|%[sdif]|\{[a-z_0-9]*\}")
DIGITS = re.compile(r"\d+")


def catalog(folder: Path, lang: str):
    with (folder / lang / "LC_MESSAGES" / "messages.po").open("rb") as fp:
        return read_po(fp, locale=lang)


def template(folder: Path):
    with (folder / "messages.pot").open("rb") as fp:
        return read_po(fp)


def test_every_part_of_the_app_has_a_catalog_in_every_language():
    names = {str(f.relative_to(ROOT)) for f in FOLDERS}
    games = {p.name for p in (ROOT / "companion" / "games").iterdir() if (p / "__init__.py").is_file()}
    assert names == {"companion/translations", "companion/web/translations",
                     *(f"companion/games/{key}/translations" for key in games)}
    for folder in FOLDERS:
        assert (folder / "messages.pot").is_file()
        for lang in TRANSLATED:
            assert (folder / lang / "LC_MESSAGES" / "messages.po").is_file(), (folder, lang)


def test_the_english_catalogs_are_what_the_code_says_now():
    done = subprocess.run([sys.executable, "scripts/catalogs.py", "--check"], cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr


@pytest.mark.parametrize("folder", FOLDERS, ids=lambda f: str(f.relative_to(ROOT)))
def test_each_catalog_holds_sentences(folder):
    assert len([m for m in template(folder) if m.id]) >= 5, f"{folder}: nothing marked for translation"


@pytest.mark.parametrize("lang", TRANSLATED)
@pytest.mark.parametrize("folder", FOLDERS, ids=lambda f: str(f.relative_to(ROOT)))
def test_every_sentence_is_translated_with_the_same_placeholders(folder, lang):
    found = problems(folder, lang)
    assert not found, f"{folder} [{lang}]:\n" + "\n".join(found[:40])


def problems(folder: Path, lang: str) -> list[str]:
    """What keeps one language's catalog of a folder from being whole and faithful to its English."""
    english = {m.id: m for m in template(folder) if m.id}
    translated = catalog(folder, lang)
    forms = translated.num_plurals
    problems = []
    held = {m.id: m for m in translated if m.id}
    problems += [f"missing: {key!r}" for key in english if key not in held]
    problems += [f"not in the code: {key!r}" for key in held if key not in english]
    for key, message in held.items():
        if message.fuzzy:
            problems.append(f"fuzzy: {key!r}")
        strings = message.string if isinstance(message.string, (list, tuple)) else (message.string,)
        if isinstance(key, (list, tuple)):
            if len(strings) != forms:
                problems.append(f"{len(strings)} plural forms, {lang} has {forms}: {key!r}")
            source = key[1]
        else:
            source = key
        for text in strings:
            if not text or not text.strip():
                problems.append(f"empty: {key!r}")
                continue
            wanted = sorted(set(PLACEHOLDER.findall(source)))
            got = sorted(set(PLACEHOLDER.findall(text)))
            if isinstance(key, (list, tuple)) and forms > 1 and "%(num)d" in wanted and "%(num)d" not in got:
                got = sorted(set(got) | {"%(num)d"})  # a form for exactly one may say "one" in words
            if wanted != got:
                problems.append(f"placeholders {got} for {wanted}: {key!r} -> {text!r}")
            if not set(DIGITS.findall(source)) <= set(DIGITS.findall(text)):
                problems.append(f"a number of the English is missing: {key!r} -> {text!r}")
    return problems


def load_script():
    """scripts/catalogs.py as a module, to run its update on a catalog folder of the test's own."""
    spec = importlib.util.spec_from_file_location("catalogs_script", ROOT / "scripts" / "catalogs.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_a_changed_english_sentence_keeps_its_translations_as_fuzzy_guesses(tmp_path):
    """Change a sentence, run the update: each language holds its old translation as a fuzzy guess,
    which the app never shows and the check refuses; the translator confirms it, and it is used."""
    script = load_script()
    source = ROOT / "companion" / "games" / "codex" / "translations"
    folder = tmp_path / "translations"
    shutil.copytree(source, folder, ignore=shutil.ignore_patterns("*.mo"))
    plain = sorted(m.id for m in template(source) if isinstance(m.id, str) and m.id and not m.context
                   and not set(m.id) & set("%\"\\\\") and 20 < len(m.id) < 60)
    kept, old = plain[:2]
    new = old + " (changed)"
    before = {lang: {m.id: m.string for m in catalog(folder, lang)} for lang in TRANSLATED}
    code = tmp_path / "words.py"
    code.write_text(f"_({kept!r})\n_({new!r})\n", encoding="utf-8")

    script.update(folder, [code], check=False)

    for lang in TRANSLATED:
        held = catalog(folder, lang)
        assert held.get(old) is None
        guess = held.get(new)
        assert guess is not None and guess.fuzzy, (lang, guess)
        assert guess.string == before[lang][old]
        assert f'#, fuzzy\n#| msgid "{old}"\nmsgid "{new}"' in (folder / lang / "LC_MESSAGES" / "messages.po").read_text(encoding="utf-8")
        assert not held.get(kept).fuzzy and held.get(kept).string == before[lang][kept]
        assert f"fuzzy: {new!r}" in problems(folder, lang)
        assert speech._read(folder, lang).ugettext(new) == new  # a guess is never shown

    for lang in TRANSLATED:  # the translator confirms: the flag goes
        po = folder / lang / "LC_MESSAGES" / "messages.po"
        text = po.read_text(encoding="utf-8")
        assert text.count("#, fuzzy\n") == 1  # the guess alone
        po.write_text(text.replace("#, fuzzy\n#| msgid", "#| msgid"), encoding="utf-8")
    script.update(folder, [code], check=False)

    for lang in TRANSLATED:
        held = catalog(folder, lang)
        assert not held.get(new).fuzzy
        assert "#| msgid" not in (folder / lang / "LC_MESSAGES" / "messages.po").read_text(encoding="utf-8")
        assert problems(folder, lang) == []
        assert speech._read(folder, lang).ugettext(new) == before[lang][old]


@pytest.mark.parametrize("lang", TRANSLATED)
def test_a_sentence_in_two_catalogs_is_translated_alike(lang):
    seen: dict[object, tuple[Path, object]] = {}
    clashes = []
    for folder in FOLDERS:
        for message in catalog(folder, lang):
            if not message.id:
                continue
            key = (message.context, message.id if isinstance(message.id, str) else tuple(message.id))
            string = message.string if isinstance(message.string, str) else tuple(message.string)
            if key in seen and seen[key][1] != string:
                clashes.append(f"{key}: {seen[key][0].relative_to(ROOT)} {seen[key][1]!r}, {folder.relative_to(ROOT)} {string!r}")
            seen.setdefault(key, (folder, string))
    assert not clashes, "\n".join(clashes)


def test_the_glossary_has_every_game_and_every_language_and_each_term_says_where_it_comes_from():
    from companion.games import registry

    text = (ROOT / "docs" / "glossary.md").read_text(encoding="utf-8")
    header = "| English | " + " | ".join(TRANSLATED) + " | source |"
    for game in registry().values():
        assert f"## {game.title}" in text, game.title
        section = text.split(f"## {game.title}", 1)[1].split("\n## ", 1)[0]
        assert header in section, game.title
        rows = [line for line in section.splitlines() if line.startswith("| ") and not line.startswith(("| English", "|---"))]
        assert rows, game.title  # a small game may have few terms, but none is no section
        for row in rows:
            cells = [c.strip() for c in row.strip("|").split(" | ")]
            assert len(cells) >= len(TRANSLATED) + 2 and all(cells), row
