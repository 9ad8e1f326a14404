"""Hosted on the internet (issue 31): Debian's Caddy with HTTPS in front of a real `companion serve
--proxy 1 --public-url https://NAME`, and chromium at 360 px driving two phones through it.

Caddy runs deploy/Caddyfile, its site named companion.test (RFC 2606), which the test browser maps
to 127.0.0.1, so every byte stays on this machine, and served with `tls internal` (Caddy's own local
authority, never installed in the machine's trust store: skip_install_trust), and the browser trusts exactly the certificate Caddy
made for it (chromium's --ignore-certificate-errors-spki-list with that certificate's key), not
every certificate. What a phone on the internet sees, checked:

- it joins by the QR code's address, which is the public one (not the server's own 127.0.0.1);
- the page is a secure context, so the Wake Lock is taken (no fallback video);
- every cookie is Secure, and HSTS is sent;
- two phones see each other's taps on their event streams, through the proxy (no polling);
- the host-key link leaves nothing of the key in Caddy's access log.
"""

from __future__ import annotations

import base64
import hashlib
import socket
import ssl
import subprocess

import pytest

from tests.conftest import BROWSER_ARGS, CHROMIUM, PHONE, open_key_link, printed_key_link
from tests.foundation.test_browser_join import decode_qr_svg
from tests.foundation.test_push_browser import requests_seen, wait_for_version, wait_push_open
from tests.resilience.test_deploy import TEST_NAME, on_loopback
from tests.resilience.test_proxy import loopback_port, processes, serve, start_caddy, wait_for  # noqa: F401 (processes: a fixture)

pytestmark = [pytest.mark.browser, pytest.mark.slow]

#: the name the phones open: deploy/Caddyfile's site, as the deployment's tests run it
NAME = TEST_NAME


def caddyfile(port: int, upstream: int, folder) -> str:
    """deploy/Caddyfile as test_deploy runs it on loopback (tls internal), with an access log added:
    the file has none, and an operator who adds one must find no host key in it."""
    text = on_loopback(port, upstream)
    assert text.count("\ttls internal\n") == 1, text
    return text.replace("\ttls internal\n", f"\ttls internal\n\tlog {{\n\t\toutput file {folder}/access.log\n\t}}\n", 1)


def tls_get(port: int, path: str) -> tuple[int, bytes]:
    """GET path from Caddy on 127.0.0.1:port, naming NAME (SNI and Host); return the status and the certificate (DER)."""
    context = ssl.create_default_context()
    context.check_hostname = False
    context.verify_mode = ssl.CERT_NONE  # the certificate is read here, to be pinned in the browser
    with socket.create_connection(("127.0.0.1", port), timeout=10) as raw, context.wrap_socket(raw, server_hostname=NAME) as tls:
        tls.sendall(f"GET {path} HTTP/1.1\r\nHost: {NAME}:{port}\r\nConnection: close\r\n\r\n".encode())
        head = tls.recv(64)
        return int(head.split()[1]), tls.getpeercert(binary_form=True)


def spki_pin(der: bytes) -> str:
    """The certificate's key as chromium's --ignore-certificate-errors-spki-list takes it: base64 of SHA-256 of the DER SubjectPublicKeyInfo."""
    pem = ssl.DER_cert_to_PEM_cert(der).encode()
    key = subprocess.run(["openssl", "x509", "-pubkey", "-noout"], input=pem, capture_output=True, check=True).stdout
    spki = subprocess.run(["openssl", "pkey", "-pubin", "-outform", "der"], input=key, capture_output=True, check=True).stdout
    return base64.b64encode(hashlib.sha256(spki).digest()).decode()


@pytest.fixture
def hosted(processes, tmp_path):
    """`companion serve --proxy 1 --public-url https://companion.test:PORT` behind Caddy on that port; (port, serve's folder, Caddy's folder, pin)."""
    for attempt in range(5):
        port = loopback_port()
        upstream = serve(processes, tmp_path / f"companion-{attempt}", "--proxy", "1", "--public-url", f"https://{NAME}:{port}")
        folder = tmp_path / f"caddy-{attempt}"
        folder.mkdir()
        (folder / "Caddyfile").write_text(caddyfile(port, upstream, folder))
        log = folder / "caddy.log"
        caddy = start_caddy(processes, folder, log)

        def answered():
            if caddy.poll() is not None:
                return "exited"
            try:
                return tls_get(port, "/")
            except (OSError, ssl.SSLError, ValueError, IndexError):
                return None

        found = wait_for(answered, "Caddy answered over HTTPS", log.read_text)
        if found != "exited":
            status, der = found
            assert status == 200, log.read_text()
            return port, tmp_path / f"companion-{attempt}", folder, spki_pin(der)
        assert "in use" in log.read_text(), log.read_text()  # else a real failure, not a port taken meanwhile
    raise AssertionError("Caddy found no free port in 5 tries")


def fame_plus(page, seat: int):
    """The Fame + on the phone's own card (the others' are folded)."""
    return page.locator(f"#player-{seat}").get_by_role("button", name="Fame plus 1")


def test_two_phones_play_over_https_through_caddy(hosted, browser, shot):
    port, companion, caddy, pin = hosted
    public = f"https://{NAME}:{port}"
    # chromium as the other tests start it, trusting the one certificate Caddy made for companion.test
    pinned = browser.browser_type.launch(executable_path=CHROMIUM, args=[*BROWSER_ARGS, f"--ignore-certificate-errors-spki-list={pin}"])
    try:
        host = pinned.new_context(**PHONE).new_page()
        guest = pinned.new_context(**PHONE, color_scheme="dark").new_page()
        for page in (host, guest):
            page.set_default_timeout(15_000)

        # the host starts a table on the public address, as a phone on the internet does
        first = host.goto(public + "/")
        assert first.status == 200
        assert first.headers["strict-transport-security"] == "max-age=31536000"
        host.get_by_role("link", name="Gutenberg", exact=True).click()
        names = host.locator("input[name='players[]']")
        names.nth(0).fill("Anna")
        names.nth(1).fill("Tom")
        host.get_by_role("button", name="Start the table").click()
        host.wait_for_url(f"{public}/t/*")
        host.locator(".seat-chooser").get_by_role("button", name="Anna").click()
        host.wait_for_selector(".seat-chooser", state="detached")

        # the other phone joins by the QR code: the public address, never the server's own
        join_url = decode_qr_svg(host)
        assert join_url.startswith(f"{public}/join/"), join_url
        guest.goto(join_url)
        guest.wait_for_url(f"{public}/t/*")
        guest.locator(".seat-chooser").get_by_role("button", name="Tom").click()
        guest.wait_for_selector(".seat-chooser", state="detached")

        for page in (host, guest):
            assert page.evaluate("window.isSecureContext") is True
            page.wait_for_function("() => document.body.dataset.awake === 'lock'")  # the Wake Lock, not the video
            assert page.locator("video.keep-awake").count() == 0
            cookies = page.context.cookies()
            assert cookies and all(c["secure"] and c["httpOnly"] for c in cookies), cookies

        shot(host, "https-host-light")
        # each phone's tap reaches the other on its event stream, through Caddy: no polling
        for tapper, seat, watcher, version in ((host, 0, guest, 1), (guest, 1, host, 2)):
            wait_push_open(watcher)
            sent = requests_seen(watcher)
            with tapper.expect_response(lambda r: r.request.method == "POST" and r.url.endswith("/events")) as answer:
                fame_plus(tapper, seat).click()
            assert answer.value.status == 200
            wait_for_version(watcher, version)
            assert [r for r in sent if r.endswith("/live")] == [], sent
        assert host.locator("#player-1 .gb-fame").inner_text().startswith("1")  # Tom's tap, on Anna's phone
        shot(guest, "https-guest-dark")

        # the host's own link to the archive: the key goes in a form's body, never into Caddy's log
        link = public + printed_key_link((companion / "serve.log").read_text())
        assert link.startswith(f"{public}/plays#key=")
        open_key_link(host, link)
        assert all(c["secure"] for c in host.context.cookies() if c["name"] == "host_key")
        assert host.locator(".plays-backup").count() == 1  # the host's: the backup is offered
        key = link.split("#key=", 1)[1]
        access = caddy / "access.log"
        logged = wait_for(lambda: "/plays/key" in access.read_text() and access.read_text(), "Caddy logged the key's post", access.read_text)
        assert "/plays" in logged and key not in logged
    finally:
        pinned.close()
