#!/usr/bin/env bash
# Run the whole test suite on a fresh Debian or Ubuntu machine: a virtualenv in .venv, the project with
# its test extra, Debian's chromium for the browser tests (installed with apt-get, through sudo, when
# missing and $CHROMIUM names none), then pytest. Elsewhere, README.md ("Tests") gives the same steps.
# Extra arguments go to pytest (e.g. scripts/test.sh -k gutenberg, or -m "not slow and not browser").
set -euo pipefail
cd "$(dirname "$0")/.."
PY="${PYTHON:-python3}"
if [ ! -x .venv/bin/python ]; then
  "$PY" -m venv .venv
fi
.venv/bin/python -m pip install --quiet --upgrade pip
.venv/bin/python -m pip install --quiet -e '.[test]'
if [ -z "${CHROMIUM:-}" ] && ! command -v chromium >/dev/null 2>&1; then
  if ! command -v apt-get >/dev/null 2>&1; then
    echo "no chromium, and no apt-get to install it: set CHROMIUM=/path/to/chromium (or Chrome)," \
         "or run without the browser tests: .venv/bin/python -m pytest -m 'not browser' (README.md, Tests)" >&2
    exit 2
  fi
  echo "installing Debian's chromium for the browser tests" >&2
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium fonts-dejavu-core >/dev/null
fi
exec .venv/bin/python -m pytest "$@"
