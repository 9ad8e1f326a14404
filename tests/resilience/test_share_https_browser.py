"""Issue 42, Share over HTTPS through Caddy (the hosting tests' setup, test_https_browser.py), at 360 px:
a secure context, so the text goes to the clipboard (read back here) and the image is downloaded;
and where the browser has a share sheet for files, the image and the text go to it.

Debian's headless chromium has no share sheet: for that branch the test defines navigator.share
and navigator.canShare before the page loads (add_init_script), recording what the page hands
over. That stands in for the phone's share sheet, not for our code: what is checked is the File
(type image/png, the PNG signature) and the text the page gave it.
"""

from __future__ import annotations

import pytest

from tests.conftest import BROWSER_ARGS, CHROMIUM, PHONE
from tests.foundation.test_results import NAMES, ROWS
from tests.resilience.test_https_browser import NAME, hosted  # noqa: F401 (a fixture)
from tests.resilience.test_proxy import processes  # noqa: F401 (a fixture)

pytestmark = [pytest.mark.browser, pytest.mark.slow]

PNG_SIGNATURE = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

#: the phone's share sheet, stood in for: it takes what it is handed, and remembers it (or, told
#: so, is closed by the player: an AbortError, as a real sheet gives)
SHARE_SHEET = """
window.__handed = [];
window.__cancel = false;
navigator.canShare = doc => !!doc && Array.isArray(doc.files) && doc.files.every(f => f.type === 'image/png');
navigator.share = async doc => {
  const files = [];
  for (const f of doc.files || []) files.push({name: f.name, type: f.type, head: [...new Uint8Array(await f.slice(0, 8).arrayBuffer())]});
  window.__handed.push({files, text: doc.text, title: doc.title});
  if (window.__cancel) throw new DOMException('Share canceled', 'AbortError');
};
"""

#: a finished table made from the page itself (through Caddy, with the pinned certificate): its API document
FINISHED = """async ([names, rows]) => {
  const post = async (path, doc, token) => (await fetch(path, {method: 'POST', body: JSON.stringify(doc),
      headers: Object.assign({'Content-Type': 'application/json'}, token ? {'X-Table-Token': token} : {})})).json();
  const t = await post('/api/v1/tables', {game: 'gutenberg', players: names, calculator: true});
  let version = t.version;
  for (let i = 0; i < rows.length; i++) {
    const done = await post(`/api/v1/tables/${t.table}/events`, {type: 'sheet', data: Object.assign({player: i}, rows[i]), expected_version: version}, t.token);
    version = done.version;
  }
  return t;
}"""


def test_share_over_https_copies_to_the_clipboard_and_hands_the_image_to_the_share_sheet(hosted, browser, shot):
    port, _companion, _caddy, pin = hosted
    public = f"https://{NAME}:{port}"
    pinned = browser.browser_type.launch(executable_path=CHROMIUM, args=[*BROWSER_ARGS, f"--ignore-certificate-errors-spki-list={pin}"])
    try:
        # a phone without a share sheet for files: the clipboard (allowed, to read it back) and a download
        context = pinned.new_context(**PHONE, accept_downloads=True)
        context.grant_permissions(["clipboard-read", "clipboard-write"], origin=public)
        page = context.new_page()
        page.set_default_timeout(15_000)
        page.goto(public + "/")
        t = page.evaluate(FINISHED, [NAMES, ROWS])
        page.goto(t["join_url"])
        page.wait_for_url(f"{public}/t/*")
        assert page.evaluate("window.isSecureContext") is True
        page.locator(".seat-chooser").get_by_role("button", name="Tom").click()
        page.wait_for_selector(".seat-chooser", state="detached")
        text = page.locator("#share-text").input_value()
        with page.expect_download() as got:
            page.get_by_role("link", name="Share result").click()
        with open(got.value.path(), "rb") as f:
            assert list(f.read(8)) == PNG_SIGNATURE
        page.wait_for_function("() => document.querySelector('[data-share-status]').textContent.startsWith('Image downloaded')")
        assert page.locator("[data-share-status]").inner_text() == "Image downloaded and result copied: paste them in your group's chat."
        assert page.evaluate("navigator.clipboard.readText()") == text
        shot(page, "result-share-https-copied")

        # a phone with a share sheet: the image and the text handed to it, nothing downloaded
        sheet = pinned.new_context(**PHONE, color_scheme="dark")
        sheet.add_init_script(SHARE_SHEET)
        phone = sheet.new_page()
        phone.set_default_timeout(15_000)
        phone.goto(t["join_url"])
        phone.locator(".seat-chooser").get_by_role("button", name="Anna").click()
        phone.wait_for_selector(".seat-chooser", state="detached")
        downloads = []
        phone.on("download", lambda d: downloads.append(d))
        phone.get_by_role("link", name="Share result").click()
        phone.wait_for_function("() => document.querySelector('[data-share-status]').textContent === 'Shared.'")
        handed = phone.evaluate("window.__handed")
        assert len(handed) == 1 and handed[0]["text"] == text and handed[0]["title"] == "Gutenberg"
        [image] = handed[0]["files"]
        assert image["type"] == "image/png" and image["head"] == PNG_SIGNATURE and image["name"].endswith(".png")
        assert downloads == []
        # the player closes the sheet: nothing alarming is said
        phone.evaluate("window.__cancel = true")
        phone.get_by_role("link", name="Share result").click()
        phone.wait_for_function("() => window.__handed.length === 2")
        phone.wait_for_function("() => document.querySelector('[data-share-status]').textContent === ''")
        assert downloads == []
    finally:
        pinned.close()
