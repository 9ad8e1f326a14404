"""Draw the home-screen icons (static/icons/*.png) from their SVG sources, in Debian's chromium.

    .venv/bin/python scripts/icons.py

The sources are static/icons/icon.svg (static/favicon.svg drawn at 512 px) and maskable.svg
(the same drawing full-bleed, inside the safe circle a launcher's mask keeps). The PNGs are
committed: the app serves them as they are, and never needs a browser to run.
tests/foundation/test_install.py checks that each PNG has the size the manifest names.
"""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

ICONS = Path(__file__).resolve().parent.parent / "static" / "icons"
#: PNG name -> (source SVG, size in px)
TARGETS = {
    "icon-192.png": ("icon.svg", 192),
    "icon-512.png": ("icon.svg", 512),
    "maskable-512.png": ("maskable.svg", 512),
    "apple-touch-icon.png": ("maskable.svg", 180),  # iOS rounds the corners itself
}


def main() -> int:
    from playwright.sync_api import sync_playwright

    chromium = os.environ.get("CHROMIUM", shutil.which("chromium") or "/usr/bin/chromium")
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium,
                                    args=["--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking"])
        for name, (source, size) in TARGETS.items():
            page = browser.new_page(viewport={"width": size, "height": size})
            page.goto((ICONS / source).as_uri())  # an SVG with only a viewBox fills the viewport
            page.screenshot(path=str(ICONS / name), omit_background=True)
            page.close()
            print(f"{ICONS / name}: {size}x{size} from {source}")
        browser.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
