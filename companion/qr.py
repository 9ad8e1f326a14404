"""QR codes of the join address: an inline SVG for the table page, text for the terminal."""

from __future__ import annotations

import functools
import io

import qrcode
import qrcode.image.svg


@functools.lru_cache(maxsize=512)
def svg(data: str) -> str:
    """Return an inline <svg> element (no XML declaration) encoding data.

    Cached: drawing one takes tens of milliseconds, and a table's join address never changes.
    """
    image = qrcode.make(data, image_factory=qrcode.image.svg.SvgPathImage, box_size=10, border=2)
    text = image.to_string(encoding="unicode")
    start = text.find("<svg")
    return text[start:] if start >= 0 else text


def terminal(data: str) -> str:
    """Return the QR code drawn with block characters, for `companion serve`."""
    code = qrcode.QRCode(border=2)
    code.add_data(data)
    code.make(fit=True)
    out = io.StringIO()
    code.print_ascii(out=out, invert=True)
    return out.getvalue()
