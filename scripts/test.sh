#!/usr/bin/env bash
# Run the whole test suite on a fresh Debian or Ubuntu machine: a virtualenv in .venv, the project with
# its test extra, then what the tests drive that pip cannot bring, each installed with apt-get (through
# sudo) when missing: Debian's chromium for the browser tests (unless $CHROMIUM names one), and nginx and
# Caddy for the reverse-proxy tests (tests/resilience/test_proxy.py; Debian's packages also start their
# own services on port 80, which the tests do not use). Then pytest. Elsewhere, README.md ("Tests")
# gives the same steps.
# Extra arguments go to pytest (e.g. scripts/test.sh -k gutenberg, or -m "not slow and not browser").
set -euo pipefail
cd "$(dirname "$0")/.."
PY="${PYTHON:-python3}"
if [ ! -x .venv/bin/python ]; then
  "$PY" -m venv .venv
fi
.venv/bin/python -m pip install --quiet --upgrade pip
.venv/bin/python -m pip install --quiet -e '.[test]'
MISSING=""
[ -n "${CHROMIUM:-}" ] || command -v chromium >/dev/null 2>&1 || MISSING="$MISSING chromium fonts-dejavu-core"
command -v nginx >/dev/null 2>&1 || [ -x /usr/sbin/nginx ] || MISSING="$MISSING nginx-light"
command -v caddy >/dev/null 2>&1 || MISSING="$MISSING caddy"
# the deployment's tests (tests/resilience/test_deploy.py): systemd-analyze checks the unit, curl is the operator's check,
# and the app is installed in a venv of Debian's python3
command -v systemd-analyze >/dev/null 2>&1 || MISSING="$MISSING systemd"
command -v curl >/dev/null 2>&1 || MISSING="$MISSING curl"
/usr/bin/python3 -c 'import ensurepip' >/dev/null 2>&1 || MISSING="$MISSING python3-venv"
# the attack probes (tests/resilience/test_attack_probes.py) make their own network namespace: unshare and ip
command -v unshare >/dev/null 2>&1 || MISSING="$MISSING util-linux"
command -v ip >/dev/null 2>&1 || [ -x /usr/sbin/ip ] || MISSING="$MISSING iproute2"
# the HTTPS browser test (tests/resilience/test_https_browser.py) pins Caddy's certificate by its key, read with openssl
command -v openssl >/dev/null 2>&1 || MISSING="$MISSING openssl"
if [ -n "$MISSING" ]; then
  if ! command -v apt-get >/dev/null 2>&1; then
    echo "missing:$MISSING, and no apt-get to install them: install them yourself (CHROMIUM=/path/to/chromium" \
         "names a browser), or leave their tests out: .venv/bin/python -m pytest -m 'not browser and not slow' (README.md, Tests)" >&2
    exit 2
  fi
  echo "installing Debian's$MISSING for the browser and proxy tests" >&2
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  $SUDO apt-get update -qq
  # shellcheck disable=SC2086 # one word per package
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq $MISSING >/dev/null
fi
exec .venv/bin/python -m pytest "$@"
