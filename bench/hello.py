"""A bare WSGI "hello", served the way `companion serve` serves the app.

The latency benchmark's baseline: whatever the app costs above this is ours to cut. It is
served exactly as `companion serve` serves the app: the same server and settings
(companion/serving.py: gevent's pywsgi, TCP_NODELAY, the connection limit) and, given a
number of workers (`companion serve --workers N`, companion/workers.py), the same workers on
SO_REUSEPORT sockets, so the ratio measures the app and not the way it is served.

Run: python bench/hello.py PORT [WORKERS]
"""

from __future__ import annotations

import argparse

BODY = b"hello"


def hello(environ, start_response):
    """Answer every request with five bytes."""
    start_response("200 OK", [("Content-Type", "text/plain"), ("Content-Length", str(len(BODY)))])
    return [BODY]


def main() -> None:
    from companion import serving, workers

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("port", type=int)
    parser.add_argument("workers", nargs="?", type=int, default=1, help="processes, as `companion serve --workers N` (default 1)")
    args = parser.parse_args()
    port, count = args.port, args.workers
    print(f"hello on 127.0.0.1:{port}, {count} process(es)", flush=True)
    if count == 1:
        serving.serve(hello, host="127.0.0.1", port=port)
        return
    sockets = [workers.listening_socket("127.0.0.1", port) for _ in range(count)]
    workers.run(lambda sock: serving.serve(hello, sockets=[sock]), sockets)


if __name__ == "__main__":
    main()
