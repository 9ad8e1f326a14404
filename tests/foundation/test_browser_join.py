"""Two real browsers: one starts a table, a phone joins by decoding the QR code, and the change goes live."""

import io

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def decode_qr_svg(page) -> str:
    """Decode the QR code drawn on the page (an inline SVG) from its pixels, not from the page text."""
    import zxingcpp
    from PIL import Image

    page.locator("#invite").evaluate("d => d.open = true")
    png = page.locator(".qr svg").screenshot()
    results = zxingcpp.read_barcodes(Image.open(io.BytesIO(png)))
    assert len(results) == 1, "exactly one QR code expected"
    return results[0].text


def test_phone_joins_by_qr_and_rename_reaches_the_host_without_reload(server, browser, phone, shot):
    host_ctx = browser.new_context(viewport={"width": 1000, "height": 900})
    host = host_ctx.new_page()
    try:
        host.goto(server.url + "/")
        host.get_by_role("link", name="Gutenberg", exact=True).click()
        names = host.locator("input[name='players[]']")
        names.nth(0).fill("Anna")
        names.nth(1).fill("Tom")
        host.get_by_role("button", name="Start the table").click()
        host.wait_for_url("**/t/*")
        host.locator(".players-line").wait_for()
        join_url = decode_qr_svg(host)
        # the test server listens on 127.0.0.1 alone: the code names that, an address it answers on
        assert join_url.startswith(server.url + "/join/"), join_url
        shot(host, "join-host-before")

        phone.goto(join_url)
        phone.wait_for_url("**/t/*")
        assert "/join/" not in phone.url  # the secret left the address bar
        phone.locator(".seat-chooser").get_by_role("button", name="Tom").click()
        phone.wait_for_selector(".player.you")
        assert phone.locator(".player.you .sb-name").inner_text() == "Tom"
        phone.locator("summary", has_text="Players and seats").click()
        field = phone.locator("input[data-rename='1']")
        field.fill("Kate")
        field.locator("xpath=ancestor::form").get_by_role("button", name="Rename").click()
        host.locator(".players-line .player", has_text="Kate").wait_for(timeout=5000)
        assert host.locator(".players-line .sb-name").all_inner_texts() == ["Anna", "Kate"]
        # A figure, not an assertion: the time from the phone sending a change to the host showing it,
        # read from the two pages' own clocks (same machine), so no test-driver overhead is counted.
        phone.evaluate("""() => document.body.addEventListener('htmx:beforeRequest', e => {
            if (e.detail.requestConfig.verb === 'post') window.__sent = Date.now(); })""")
        host.evaluate("""() => { window.__seen = {}; new MutationObserver(() => {
            document.querySelectorAll('.players-line .sb-name').forEach(p => {
                if (!(p.textContent in window.__seen)) window.__seen[p.textContent] = Date.now(); }); })
            .observe(document.body, {childList: true, subtree: true}); }""")
        delays = []
        for i in range(10):
            phone.locator("input[data-rename='1']").fill(f"Kate{i}")
            phone.locator("input[data-rename='1']").locator("xpath=ancestor::form").get_by_role("button", name="Rename").click()
            host.locator(".players-line .player", has_text=f"Kate{i}").wait_for(timeout=5000)
            delays.append(host.evaluate(f"() => window.__seen['Kate{i}']") - phone.evaluate("() => window.__sent"))
        delays.sort()
        print(f"\nchange reached the second browser: n={len(delays)} min={delays[0]} ms "
              f"median={delays[len(delays) // 2]} ms max={delays[-1]} ms (poll every 750 ms)")
        assert phone.locator("#players-and-seats").evaluate("d => d.open"), "a live swap closed the open panel"
        phone.locator("input[data-rename='1']").fill("Kate")
        phone.locator("input[data-rename='1']").locator("xpath=ancestor::form").get_by_role("button", name="Rename").click()
        host.locator(".players-line .player", has_text="Kate").wait_for(timeout=5000)
        shot(phone, "join-phone-after-rename")
        shot(host, "join-host-after-rename")
        # a reload keeps the seat
        phone.reload()
        assert phone.locator(".player.you .sb-name").inner_text() == "Kate"
    finally:
        host_ctx.close()


def test_live_update_keeps_what_someone_is_typing(server, browser, phone):
    host_ctx = browser.new_context(viewport={"width": 1000, "height": 900})
    host = host_ctx.new_page()
    try:
        host.goto(server.url + "/new/gutenberg")
        host.locator("input[name='players[]']").nth(0).fill("Anna")
        host.locator("input[name='players[]']").nth(1).fill("Tom")
        host.get_by_role("button", name="Start the table").click()
        host.wait_for_url("**/t/*")
        join_url = decode_qr_svg(host)
        phone.goto(join_url)
        phone.locator(".seat-chooser").get_by_role("button", name="Just watch").click()
        phone.locator("summary", has_text="Players and seats").click()
        typing = phone.locator("input[data-rename='0']")
        typing.click()
        typing.fill("Annabel")
        # meanwhile the host renames the other player
        host.locator("summary", has_text="Players and seats").click()
        host.locator("input[data-rename='1']").fill("Tomas")
        host.locator("input[data-rename='1']").locator("xpath=ancestor::form").get_by_role("button", name="Rename").click()
        phone.wait_for_timeout(2000)
        assert typing.input_value() == "Annabel"
        # leaving the field lets the update in, and the typed text survives it
        phone.locator("h1").click()
        phone.locator(".players-line .player", has_text="Tomas").wait_for(timeout=5000)
        assert phone.locator("input[data-rename='0']").input_value() == "Annabel"
    finally:
        host_ctx.close()
