#!/usr/bin/env bash
# Run the whole test suite on a fresh machine: a virtualenv in .venv, the project with its
# test extra, Debian's chromium for the browser tests and nginx and Caddy for the reverse-proxy
# tests (tests/resilience/test_proxy.py), each installed with apt when missing, then pytest.
# (Debian's packages also start nginx's and Caddy's own services on port 80; the tests run their
# own instances on loopback and need neither service.)
# Extra arguments go to pytest (e.g. scripts/test.sh -k gutenberg).
set -euo pipefail
cd "$(dirname "$0")/.."
PY="${PYTHON:-python3}"
if [ ! -x .venv/bin/python ]; then
  "$PY" -m venv .venv
fi
.venv/bin/python -m pip install --quiet --upgrade pip
.venv/bin/python -m pip install --quiet -e '.[test]'
MISSING=""
command -v chromium >/dev/null 2>&1 || MISSING="$MISSING chromium fonts-dejavu-core"
command -v nginx >/dev/null 2>&1 || [ -x /usr/sbin/nginx ] || MISSING="$MISSING nginx-light"
command -v caddy >/dev/null 2>&1 || MISSING="$MISSING caddy"
if [ -n "$MISSING" ]; then
  echo "installing Debian's$MISSING for the browser and proxy tests" >&2
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  $SUDO apt-get update -qq
  # shellcheck disable=SC2086 # one word per package
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq $MISSING >/dev/null
fi
exec .venv/bin/python -m pytest "$@"
