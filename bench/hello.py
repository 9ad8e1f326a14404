"""A bare WSGI "hello", served by waitress the way `companion serve` serves the app.

The latency benchmark's baseline: whatever the app costs above this is ours to cut. It is
served exactly as `companion serve` serves the app: the same waitress options and channel
(companion/serving.py, which keeps connections open after a 304) and, given a
number of workers (`companion serve --workers N`, companion/workers.py), the same workers on
SO_REUSEPORT sockets, so the ratio measures the app and not the way it is served.

Run: python bench/hello.py PORT [WORKERS]
"""

from __future__ import annotations

import sys

BODY = b"hello"


def hello(environ, start_response):
    """Answer every request with five bytes."""
    start_response("200 OK", [("Content-Type", "text/plain"), ("Content-Length", str(len(BODY)))])
    return [BODY]


def main() -> None:
    from companion import serving, workers
    from companion.cli import waitress_options

    port = int(sys.argv[1])
    count = int(sys.argv[2]) if len(sys.argv) > 2 else 1
    options = waitress_options()
    print(f"hello on 127.0.0.1:{port}, {count} process(es)", flush=True)
    if count == 1:
        serving.serve(hello, host="127.0.0.1", port=port, ident="hello", **options)
        return
    sockets = [workers.listening_socket("127.0.0.1", port) for _ in range(count)]
    workers.run(lambda sock: serving.serve(hello, sockets=[sock], ident="hello", **options), sockets)


if __name__ == "__main__":
    main()
