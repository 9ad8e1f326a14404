#!/usr/bin/env bash
# Run the whole test suite on a fresh machine: a virtualenv in .venv, the project with its
# test extra, Debian's chromium for the browser tests (installed with apt when missing), then pytest.
# Extra arguments go to pytest (e.g. scripts/test.sh -k gutenberg).
set -euo pipefail
cd "$(dirname "$0")/.."
PY="${PYTHON:-python3}"
if [ ! -x .venv/bin/python ]; then
  "$PY" -m venv .venv
fi
.venv/bin/python -m pip install --quiet --upgrade pip
.venv/bin/python -m pip install --quiet -e '.[test]'
if ! command -v chromium >/dev/null 2>&1; then
  echo "installing Debian's chromium for the browser tests" >&2
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium fonts-dejavu-core >/dev/null
fi
exec .venv/bin/python -m pytest "$@"
