"""A bare WSGI "hello", served by waitress the way `companion serve` serves the app.

The latency benchmark's baseline: whatever the app costs above this is ours to cut.
Run: python bench/hello.py PORT
"""

from __future__ import annotations

import sys

BODY = b"hello"


def hello(environ, start_response):
    """Answer every request with five bytes."""
    start_response("200 OK", [("Content-Type", "text/plain"), ("Content-Length", str(len(BODY)))])
    return [BODY]


def main() -> None:
    import waitress

    from companion.cli import WAITRESS_OPTIONS

    port = int(sys.argv[1])
    print(f"hello on 127.0.0.1:{port}", flush=True)
    waitress.serve(hello, host="127.0.0.1", port=port, ident="hello", _quiet=True, **WAITRESS_OPTIONS)


if __name__ == "__main__":
    main()
