"""nginx as the tests and the probes run it (tests/resilience/test_proxy.py, test_deploy.py, bench/attacks.py).

Debian's nginx in the foreground, one process, its pid, logs and temporary folders in a folder of
the caller's, never the machine's; the reverse proxy as nginx's documentation shows it.
"""

from __future__ import annotations

from pathlib import Path


def nginx_conf(folder: Path, inside: str, access_log: str = "off", connections: int = 64, user: str | None = None) -> str:
    """nginx's main configuration with `inside` in its http block; `access_log` is the directive's
    value (a path, or off); `user`, the user its worker runs as (in a namespace of one's own: root)."""
    temporary = "".join(f"  {kind}_temp_path {folder}/{name};\n" for kind, name in
                        (("client_body", "body"), ("proxy", "proxy"), ("fastcgi", "fastcgi"), ("uwsgi", "uwsgi"), ("scgi", "scgi")))
    return ((f"user {user} {user};\n" if user else "")
            + f"daemon off;\nmaster_process off;\nworker_processes 1;\npid {folder}/nginx.pid;\n"
            + f"error_log {folder}/error.log;\nevents {{ worker_connections {connections}; }}\n"
            + f"http {{\n  access_log {access_log};\n{temporary}{inside}}}\n")


def nginx_proxy(listen: str, upstream: int, real_ip: bool = False) -> str:
    """A server block on `listen` passing every request to the app on 127.0.0.1:`upstream`, the
    phone's Host handed on, its address appended to X-Forwarded-For and its scheme in X-Forwarded-Proto."""
    return (f"  server {{\n    listen {listen};\n    location / {{\n      proxy_pass http://127.0.0.1:{upstream};\n"
            "      proxy_set_header Host $host;\n" + ("      proxy_set_header X-Real-IP $remote_addr;\n" if real_ip else "")
            + "      proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;\n"
            "      proxy_set_header X-Forwarded-Proto $scheme;\n    }\n  }\n")
