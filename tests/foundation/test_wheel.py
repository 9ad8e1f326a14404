"""The wheel, installed as people install applications, runs from anywhere and writes only its data folder.

Built once from a copy of the checkout's files (never from the checkout itself: setuptools'
build/ folder would carry files deleted since), then installed three ways, each outside the
checkout: pip into a fresh virtual environment, pipx, and uv's tool install. From an empty
folder, with a HOME of its own, each `companion`:
- runs `companion rules` for every game, answering as the checkout does;
- runs `init-db` with no --data, which lands in the platform's user data folder;
- serves `--data TMP` and answers /, a table page with every static file it links, htmx
  (checked against its recorded checksum) and the web app manifest with its icons;
- writes nothing inside its installed environment.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from companion import rules
from companion.games import speech
from companion.games import registry
from tests.conftest import Server
from tests.resilience.fuzzing import SEEDS

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]
GAMES = tuple(registry())
TOOLS = Path(sys.executable).parent  # pipx and uv come with the test extra


def run_shown(argv: list, **options) -> subprocess.CompletedProcess:
    """Run a build or install step; when it fails, fail with its own output (stdout and stderr) in the message.

    check=True would say only "returned non-zero exit status 1": a TLS failure of pip, say, was seen
    by hand alone.
    """
    done = subprocess.run([str(arg) for arg in argv], capture_output=True, text=True, **options)
    assert done.returncode == 0, (f"{shlex.join(str(arg) for arg in argv)} exited with status {done.returncode}:\n"
                                  f"{done.stdout}{done.stderr}")
    return done


def build_wheel(source: Path, out: Path) -> Path:
    """Build the wheel of the project in `source` into `out`; return it."""
    run_shown([sys.executable, "-m", "pip", "wheel", "--no-deps", "--quiet", "--wheel-dir", out, source])
    (built,) = out.glob("table_companion-*.whl")
    return built


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    """Build the wheel from a copy of every file git would commit (tracked, or new and not ignored)."""
    source = tmp_path_factory.mktemp("source")
    files = run_shown(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"], cwd=ROOT).stdout.split("\0")
    for name in filter(None, files):
        if (ROOT / name).is_file():
            (source / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, source / name)
    built = build_wheel(source, tmp_path_factory.mktemp("dist"))
    import zipfile

    shipped = {n for n in zipfile.ZipFile(built).namelist() if n.endswith((".mo", ".po", ".pot"))}
    wanted = {f"{folder.relative_to(ROOT)}/{lang}/LC_MESSAGES/messages.mo" for folder in speech.catalog_folders()
              for lang in speech.LANGUAGES if lang != speech.SOURCE}
    assert shipped == wanted, shipped ^ wanted  # compiled by the build, every one; no source
    # issue 42: the result image's font and its license, so that nothing is fetched at run time
    fonts = {n for n in zipfile.ZipFile(built).namelist() if n.startswith("companion/data/fonts/")}
    assert fonts >= {f"companion/data/fonts/{name}" for name in ("DejaVuSans.ttf", "DejaVuSans-Bold.ttf", "LICENSE.txt")}, fonts
    return built


def clean_env(home: Path, **extra) -> dict:
    """The environment of someone who just installed the app: no checkout on the path, no data folder chosen."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("COMPANION_DATA", "PYTHONPATH", "VIRTUAL_ENV", "XDG_DATA_HOME", "PYTHONDONTWRITEBYTECODE")}
    return dict(env, HOME=str(home), **extra)


def install(how: str, wheel: Path, tmp: Path) -> Path:
    """Install the wheel the way `how` says; return the `companion` executable."""
    env = clean_env(tmp / "home")
    if how == "pip":
        run_shown([sys.executable, "-m", "venv", tmp / "venv"])
        run_shown([tmp / "venv" / "bin" / "python", "-m", "pip", "install", "--quiet", wheel], env=env)
        return tmp / "venv" / "bin" / "companion"
    if how == "pipx":
        env.update(PIPX_HOME=str(tmp / "pipx"), PIPX_BIN_DIR=str(tmp / "bin"))
        run_shown([TOOLS / "pipx", "install", "--python", sys.executable, wheel], env=env)
        return tmp / "bin" / "companion"
    env.update(UV_TOOL_DIR=str(tmp / "uv-tools"), UV_TOOL_BIN_DIR=str(tmp / "bin"))
    run_shown([TOOLS / "uv", "tool", "install", "--python", sys.executable, wheel], env=env)
    return tmp / "bin" / "companion"


def environment_of(companion: Path) -> Path:
    """Return the prefix of the virtual environment the executable belongs to."""
    return companion.resolve().parent.parent


def snapshot(folder: Path) -> dict[str, tuple[int, int]]:
    """Every file under folder with its size and modification time.

    Python's own bytecode cache is left out: uv installs without compiling it, and then the
    interpreter writes it beside any installed module, ours or Flask's alike.
    """
    return {str(p.relative_to(folder)): (p.stat().st_size, p.stat().st_mtime_ns) for p in folder.rglob("*")
            if p.is_file() and p.parent.name != "__pycache__"}


def readme_serve_example() -> list[str]:
    """Return what the README's "Install for your game nights" says `companion serve` prints."""
    section = (ROOT / "README.md").read_text().split("## Install for your game nights", 1)[1].split("\n## ", 1)[0]
    return section.split("`serve` prints", 1)[1].split("```", 2)[1].strip().splitlines()


def readme_loopback_line() -> str:
    """Return the first line the README says `companion serve --host 127.0.0.1` prints (the test servers' host)."""
    section = (ROOT / "README.md").read_text().split("## Install for your game nights", 1)[1].split("\n## ", 1)[0]
    return section.split("With `--host 127.0.0.1`", 1)[1].split("```", 2)[1].strip()


def shape(line: str) -> str:
    """A printed line with its address and file path taken out."""
    return re.sub(r"http://\S+/", "URL", re.sub(r"Data: \S+", "Data: PATH", line))


@pytest.mark.parametrize("how", ["pip", "pipx", "uv"])
def test_the_installed_app_runs_from_an_empty_folder_and_writes_only_its_data(how, wheel, tmp_path):
    companion = install(how, wheel, tmp_path)
    prefix = environment_of(companion)
    package = Path(run_shown([prefix / "bin" / "python", "-c", "import companion; print(companion.__file__)"],
                             cwd=tmp_path, env=clean_env(tmp_path / "home")).stdout.strip()).parent
    assert package.is_relative_to(prefix) and not package.is_relative_to(ROOT), package
    assert (package / "templates" / "base.html").is_file() and (package / "data" / "gutenberg" / "facts.json").is_file()
    assert (package / "data" / "unicode" / "confusables.txt").is_file()  # the look-alike names' data (issue 40)
    before = snapshot(prefix)
    empty = tmp_path / "empty"
    empty.mkdir()
    home = tmp_path / "home"
    env = clean_env(home, PYTHONUNBUFFERED="1")

    def run(*args, stdin=""):
        return subprocess.run([str(companion), *args], cwd=empty, env=env, input=stdin, capture_output=True, text=True, timeout=60)

    # the rules, for every game, as the checkout computes them
    for game in GAMES:
        doc = SEEDS[(game, "score")][0]
        result = run("rules", game, "score", stdin=json.dumps(doc))
        assert result.returncode == 0, result.stderr
        assert json.loads(result.stdout) == rules.find(game, "score").run(doc), game
    assert len(run("rules", "--list").stdout.splitlines()) == len(rules.listing())

    # no --data: the platform's user data folder (XDG on Linux), never the package
    result = run("init-db")
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith(str(home / ".local" / "share" / "table-companion" / "companion.db") + ":")
    assert (home / ".local" / "share" / "table-companion" / "companion.db").is_file()

    # serve --data TMP: it prints the folder, answers the pages, the static files and the manifest
    data = tmp_path / "data"
    server = Server(data=data, companion=(str(companion),), cwd=empty, env=env).start()
    try:
        status, _, home_page = server.send("GET", "/")
        assert status == 200 and b"Table Companion" in home_page
        printed = server.log.read_text().splitlines()
        assert printed[1].startswith(f"Data: {data / 'companion.db'} ")
        # the test server listens on 127.0.0.1 alone: its first line is the README's loopback one
        assert [shape(line) for line in printed[:2]] == [shape(readme_loopback_line()), shape(readme_serve_example()[1])]

        table = server.api("/api/v1/tables", {"game": "gutenberg", "players": ["Anna", "Tom"]})
        # the join address keeps the table's secret in a cookie and sends the phone on to the table's page
        status, joined, _ = server.send("GET", f"/join/{table['table']}/{table['token']}")
        assert status == 303, status
        status, _, page = server.send("GET", joined["Location"], headers={"Cookie": joined["Set-Cookie"].split(";", 1)[0]})
        html = page.decode()
        assert status == 200 and "Anna" in html and "Tom" in html
        # it speaks every language with no step of its own: the wheel's compiled catalogs (setup.py)
        cookie = joined["Set-Cookie"].split(";", 1)[0]
        for lang in speech.LANGUAGES:
            status, _, page = server.send("GET", joined["Location"], headers={"Cookie": cookie, "Accept-Language": lang})
            with speech.speaking(lang):
                history = speech.gettext("History")
            assert status == 200 and f'<html lang="{lang}">' in page.decode() and f"<summary>{history}</summary>" in page.decode()
            assert (history == "History") == (lang == "en"), lang

        linked = set(re.findall(r'(?:src|href)="(/static/[^"?]+)', html))
        assert any("htmx" in path for path in linked) and any(path.endswith(".css") for path in linked)
        for path in linked:
            status, _, body = server.send("GET", path)
            assert status == 200 and body == (package / path.removeprefix("/")).read_bytes(), path
        # every vendored script the page pulls (htmx, its SSE extension, idiomorph's) is the one its checksum names
        sums = dict(reversed(line.split()) for line in (package / "static" / "vendor" / "SHA256SUMS").read_text().splitlines())
        vendored = [path for path in linked if path.startswith("/static/vendor/")]
        assert len(vendored) == 3, vendored
        for path in vendored:
            assert hashlib.sha256(server.send("GET", path)[2]).hexdigest() == sums[path.rsplit("/", 1)[1]], path

        status, headers, manifest = server.send("GET", "/manifest.webmanifest")
        assert status == 200 and headers["Content-Type"].split(";")[0].strip() == "application/manifest+json"
        for icon in json.loads(manifest)["icons"]:
            status, headers, body = server.send("GET", icon["src"])
            assert status == 200 and body[:8] == b"\x89PNG\r\n\x1a\n", icon["src"]
    finally:
        server.stop()

    assert (data / "companion.db").is_file()
    assert snapshot(prefix) == before, "something was written inside the installed environment"
    assert not list(empty.iterdir()), "something was written into the folder it ran from"


def test_a_failing_step_shows_its_own_output_in_the_failure():
    """What a build or install step said, on both streams, is in the test's failure, with its command and status."""
    with pytest.raises(AssertionError) as failed:
        run_shown([sys.executable, "-c", "import sys; print('said on stdout'); sys.exit('said on stderr')"])
    said = str(failed.value)
    assert "said on stdout" in said and "said on stderr" in said and "exited with status 1" in said, said


def test_an_installer_that_fails_is_heard(tmp_path):
    """pip's own words on a wheel it cannot install (here one that is not there) reach the failure, not only its status."""
    missing = tmp_path / "table_companion-0.0-py3-none-any.whl"
    with pytest.raises(AssertionError) as failed:
        install("pip", missing, tmp_path)
    assert "No such file or directory" in str(failed.value) and str(missing) in str(failed.value)
    with pytest.raises(AssertionError) as failed:
        build_wheel(tmp_path, tmp_path / "dist")  # a folder with no project in it
    assert "not installable" in str(failed.value), str(failed.value)
