"""Installable like real software: the shipped folders, the data folder, the home-screen manifest.

The wheel itself is built, installed and run outside the checkout in test_wheel.py.
"""

from __future__ import annotations

import json
import re
import shutil
import struct
import subprocess
import sys
from pathlib import Path

import pytest

from companion import paths
from companion.web import home

from .test_wheel import run_shown

ROOT = Path(__file__).resolve().parents[2]


def png_size(path: Path) -> tuple[int, int]:
    """Return a PNG file's width and height, read from its header."""
    head = path.read_bytes()[:24]
    assert head[:8] == b"\x89PNG\r\n\x1a\n", f"{path} is not a PNG"
    return struct.unpack(">II", head[16:24])


def test_a_checkout_reads_its_own_folders_and_keeps_its_data_in_data():
    assert not paths.installed()
    assert paths.TEMPLATES == ROOT / "templates" and paths.STATIC == ROOT / "static" and paths.FACTS == ROOT / "data"
    assert paths.default_data_folder() == ROOT / "data"


def test_data_folder_is_the_option_then_the_environment_then_the_default(monkeypatch, tmp_path):
    monkeypatch.setenv("COMPANION_DATA", str(tmp_path / "env"))
    assert paths.data_folder(tmp_path / "opt") == tmp_path / "opt"
    assert paths.data_folder(None) == tmp_path / "env"
    monkeypatch.delenv("COMPANION_DATA")
    assert paths.data_folder(None) == paths.default_data_folder()
    with pytest.raises(ValueError):
        paths.shipped("docs")


def test_setup_py_ships_every_file_of_the_carried_folders_but_the_database(tmp_path):
    """Every file git tracks under templates/, static/ and data/ matches a pattern the wheel ships."""
    import fnmatch

    setup = (ROOT / "setup.py").read_text()
    patterns = re.search(r"SHIPPED_FILES = (\[.*?\])", setup).group(1)
    shipped = eval(patterns)  # a literal list of glob patterns
    tracked = run_shown(["git", "ls-files", "templates", "static", "data"], cwd=ROOT).stdout.split()
    assert len(tracked) > 40
    missing = [f for f in tracked if not any(fnmatch.fnmatch(Path(f).name, p) for p in shipped)]
    assert missing == [], "add their pattern to SHIPPED_FILES in setup.py"
    assert not any(fnmatch.fnmatch(paths.DB_NAME, p) for p in shipped)


def test_manifest_makes_a_full_screen_app_with_its_icons(client):
    response = client.get("/manifest.webmanifest")
    assert response.status_code == 200
    assert response.mimetype == "application/manifest+json"
    doc = response.get_json()
    assert doc["name"] == "Table Companion" and 0 < len(doc["short_name"]) <= 12
    assert doc["display"] == "standalone" and doc["start_url"] == "/" and doc["scope"] == "/"
    assert doc["theme_color"] == home.LIGHT["theme_color"] and doc["background_color"] == home.LIGHT["background_color"]
    assert doc["user_preferences"]["color_scheme_dark"] == home.DARK
    sizes = {(icon["sizes"], icon["purpose"]) for icon in doc["icons"]}
    assert {("192x192", "any"), ("512x512", "any"), ("512x512", "maskable")} <= sizes
    for icon in doc["icons"]:
        served = client.get(icon["src"])
        assert served.status_code == 200 and served.mimetype == "image/png", icon["src"]
        file = paths.STATIC / icon["src"].removeprefix("/static/")
        assert "x".join(map(str, png_size(file))) == icon["sizes"], icon["src"]
        served.close()


def test_maskable_icon_fills_its_square_and_apple_icon_is_180px():
    from PIL import Image

    with Image.open(paths.STATIC / "icons" / "maskable-512.png") as im:
        corners = [im.convert("RGBA").getpixel(xy) for xy in ((0, 0), (511, 0), (0, 511), (511, 511))]
    assert all(alpha == 255 for *_, alpha in corners), "a maskable icon is full-bleed: the launcher cuts the shape"
    assert png_size(paths.STATIC / "icons" / "apple-touch-icon.png") == (180, 180)


def test_theme_colours_are_the_stylesheets(client):
    """The manifest's and the meta tags' colours are app.css's light and dark --accent and --bg."""
    css = (paths.STATIC / "app.css").read_text()
    light, dark = css.split("@media (prefers-color-scheme: dark)", 1)

    def var(block, name):
        return re.search(rf"--{name}:\s*(#[0-9a-f]+)", block).group(1)

    assert home.LIGHT == {"theme_color": var(light, "accent"), "background_color": var(light, "bg")}
    assert home.DARK == {"theme_color": var(dark, "bg"), "background_color": var(dark, "bg")}


@pytest.mark.parametrize("path", ["/", "/tables/new/gutenberg", "/profiles/", "/no-such-page"])
def test_every_page_links_the_manifest_and_theme_colours(client, path):
    html = client.get(path).get_data(as_text=True)
    assert '<link rel="manifest" href="/manifest.webmanifest">' in html
    assert f'<meta name="theme-color" content="{home.LIGHT["theme_color"]}" media="(prefers-color-scheme: light)">' in html
    assert f'<meta name="theme-color" content="{home.DARK["theme_color"]}" media="(prefers-color-scheme: dark)">' in html
    assert 'rel="apple-touch-icon"' in html
    assert f'<meta name="apple-mobile-web-app-title" content="{home.SHORT_NAME}">' in html


def test_a_table_page_links_the_manifest(client, api):
    t = api.create("codex", ["Ana", "Ben"])
    html = client.get(f"/join/{t['table']}/{t['token']}", follow_redirects=True).get_data(as_text=True)
    assert "Ana" in html and '<link rel="manifest"' in html


def test_icons_script_draws_every_icon_the_app_serves():
    sys.path.insert(0, str(ROOT / "scripts"))
    try:
        import icons
    finally:
        sys.path.pop(0)
    drawn = set(icons.TARGETS)
    on_disk = {p.name for p in (paths.STATIC / "icons").glob("*.png")}
    assert drawn == on_disk
    for name, (source, size) in icons.TARGETS.items():
        assert (paths.STATIC / "icons" / source).exists()
        assert png_size(paths.STATIC / "icons" / name) == (size, size), name


#: run before `companion serve` to take away what Windows lacks (and macOS lacks the last three of)
WITHOUT_POSIX = """
import builtins, os, select, socket, sys
real_import = builtins.__import__
def no_posix(name, *args, **kwargs):
    if name.split(".")[0] in ("resource", "fcntl", "termios", "pwd", "grp"):
        raise ImportError(f"no module named {name!r} on this platform")
    return real_import(name, *args, **kwargs)
builtins.__import__ = no_posix
for module, names in ((select, ("poll", "epoll")), (socket, ("SO_REUSEPORT", "if_nameindex")), (os, ("fork", "sched_getaffinity"))):
    for name in names:
        if hasattr(module, name):
            delattr(module, name)
        if name in getattr(module, "__all__", ()):  # a platform's own modules list only what they have
            module.__all__.remove(name)
for name in [m for m in sys.modules if m.split(".")[0] in ("resource", "fcntl", "termios", "pwd", "grp")]:
    del sys.modules[name]
from companion.cli import main
sys.exit(main(sys.argv[1:]))
"""


@pytest.mark.slow
def test_serve_without_workers_needs_nothing_linux_only(tmp_path):
    """`companion serve` runs where there is no resource, fcntl, poll(), fork() or SO_REUSEPORT (Windows)."""
    from tests.conftest import Server

    server = Server(data=tmp_path / "data",
                    companion=(sys.executable, "-c", WITHOUT_POSIX)).start()
    try:
        table = server.api("/api/v1/tables", {"game": "codex", "players": ["Ana", "Ben"]})
        answer = server.api(f"/api/v1/tables/{table['table']}/events",
                            {"type": "points", "data": {"player": 0, "delta": 3}, "expected_version": 0}, table["token"])
        assert answer["version"] == 1
    finally:
        server.stop()
    printed = server.log.read_text()
    assert "Table Companion is running" in printed and "(sync normal; 1 process)" in printed, printed
    assert "Traceback" not in printed, printed


def test_workers_refuse_politely_where_the_port_cannot_be_shared(tmp_path):
    result = subprocess.run([sys.executable, "-c", WITHOUT_POSIX, "serve", "--host", "127.0.0.1", "--workers", "2", "--data", str(tmp_path), "--quiet"],
                            cwd=ROOT, capture_output=True, text=True, timeout=30)
    assert result.returncode == 2
    assert result.stderr.strip() == "error: --workers: must be 1 or more (more than 1 only on Linux)"


@pytest.mark.browser
def test_chromium_reads_the_manifest_and_finds_the_app_installable(server, browser, tmp_path):
    """Chromium's own manifest parser: no errors, the icons fetched, nothing stopping "Add to Home Screen".

    In a profile of its own: Playwright's usual contexts are incognito, where nothing installs.
    """
    from tests.conftest import CHROMIUM, PHONE

    context = browser.browser_type.launch_persistent_context(
        str(tmp_path / "profile"), executable_path=CHROMIUM, headless=True, **PHONE,
        args=["--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"])
    try:
        page = context.new_page()
        page.goto(server.url + "/")
        cdp = context.new_cdp_session(page)
        manifest = cdp.send("Page.getAppManifest")
        assert manifest["url"] == server.url + "/manifest.webmanifest"
        assert manifest["errors"] == []
        assert json.loads(manifest["data"])["display"] == "standalone"
        assert cdp.send("Page.getInstallabilityErrors")["installabilityErrors"] == []
    finally:
        context.close()


# --- the vendored scripts, fetched again (scripts/fetch_htmx.sh) --------------------------------------

VENDOR = paths.STATIC / "vendor"
FETCH = ROOT / "scripts" / "fetch_htmx.sh"


def recorded_sums(folder: Path) -> dict[str, str]:
    """static/vendor/SHA256SUMS: each file's name and its recorded sum."""
    return {name: digest for digest, name in (line.split() for line in (folder / "SHA256SUMS").read_text().splitlines())}


def test_the_fetch_script_writes_every_vendored_file_and_each_is_recorded():
    """Issue 38, item 17: scripts/fetch_htmx.sh could not fetch idiomorph again; now it names every file
    static/vendor holds (its --list), each with its sum in SHA256SUMS."""
    listed = run_shown(["bash", FETCH, "--list"], timeout=30).stdout.split()
    vendored = sorted(p.name for p in VENDOR.iterdir() if p.name != "SHA256SUMS")
    assert sorted(listed) == vendored == sorted(recorded_sums(VENDOR)), (listed, vendored)


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("npm") is None, reason="npm is missing (Debian's npm package): the script fetches with npm pack")
def test_the_fetch_script_fetches_every_vendored_file_again_from_the_npm_registry(tmp_path):
    """The script run for real, on a copy of scripts/ and static/vendor/: every file fetched matches its
    recorded sum and is the vendored one; a sum that differs fails it and leaves the file as it was."""
    copy = tmp_path / "checkout"
    shutil.copytree(VENDOR, copy / "static" / "vendor")
    (copy / "scripts").mkdir()
    shutil.copy2(FETCH, copy / "scripts" / FETCH.name)
    done = run_shown(["bash", copy / "scripts" / FETCH.name], timeout=300)
    for name, digest in recorded_sums(VENDOR).items():
        assert f"static/vendor/{name} matches its recorded sha256 {digest}" in done.stdout, done.stdout
        assert (copy / "static" / "vendor" / name).read_bytes() == (VENDOR / name).read_bytes(), name
    assert recorded_sums(copy / "static" / "vendor") == recorded_sums(VENDOR)
    # a recorded sum the registry's file does not match: the script fails, and the file stays
    name = max(recorded_sums(VENDOR))
    sums = copy / "static" / "vendor" / "SHA256SUMS"
    sums.write_text(sums.read_text().replace(recorded_sums(VENDOR)[name], "0" * 64))
    (copy / "static" / "vendor" / name).write_bytes(b"the file as it was")
    failed = subprocess.run(["bash", str(copy / "scripts" / FETCH.name)], capture_output=True, text=True, timeout=300)
    assert failed.returncode != 0 and f"checksum mismatch for static/vendor/{name}" in failed.stderr, failed.stdout + failed.stderr
    assert (copy / "static" / "vendor" / name).read_bytes() == b"the file as it was"


def test_the_readmes_htmx_section_names_every_vendored_file_and_the_morph():
    section = (ROOT / "README.md").read_text().split("\n## htmx\n", 1)[1].split("\n## ", 1)[0]
    for name in recorded_sums(VENDOR):
        assert name in section, name
    assert "idiomorph" in section and "morph" in section.split("How a change reaches a phone", 1)[1]
