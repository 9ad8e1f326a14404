#!/usr/bin/env bash
# Fetch the vendored scripts again from the npm registry (npm pack) and check each against its
# recorded checksum in static/vendor/SHA256SUMS: htmx, its SSE extension and idiomorph's htmx
# extension, every file the page loads from static/vendor/. A file whose sum differs from the one
# recorded is left as it was and the script fails; a file not yet recorded is written and added.
# Usage: scripts/fetch_htmx.sh [HTMX_VERSION] [SSE_VERSION] [IDIOMORPH_VERSION]
#        scripts/fetch_htmx.sh --list    (the files it writes, one a line; fetches nothing)
#   (needs npm; writes static/vendor/htmx-VERSION.min.js, htmx-ext-sse-VERSION.min.js and
#   idiomorph-ext-VERSION.min.js)
set -euo pipefail
cd "$(dirname "$0")/.."

list=no
if [ "${1:-}" = "--list" ]; then
  list=yes
  shift
fi
htmx="${1:-2.0.11}"
sse="${2:-2.2.4}"
idiomorph="${3:-0.8.0}"

# package, version, the file in its dist/, its name in static/vendor/
files=(
  "htmx.org $htmx htmx.min.js htmx-$htmx.min.js"
  # server-sent events: a table page's live updates (companion/web/push.py)
  "htmx-ext-sse $sse sse.min.js htmx-ext-sse-$sse.min.js"
  # htmx's morph swap: every update morphed into the page, its nodes kept (static/js/morph.js)
  "idiomorph $idiomorph idiomorph-ext.min.js idiomorph-ext-$idiomorph.min.js"
)

if [ "$list" = yes ]; then
  for entry in "${files[@]}"; do
    set -- $entry
    echo "$4"
  done
  exit 0
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# fetch PACKAGE VERSION FILE-IN-ITS-dist NAME-IN-static/vendor
fetch() {
  local package=$1 version=$2 file=$3 name=$4
  mkdir -p "$work/$package"
  (cd "$work/$package" && npm pack --silent "$package@$version" >/dev/null && tar -xzf ./*.tgz)
  local fetched="$work/$package/package/dist/$file" target="static/vendor/$name"
  local sum recorded
  sum=$(sha256sum "$fetched" | cut -d' ' -f1)
  recorded=$(awk -v f="$name" '$2 == f {print $1}' static/vendor/SHA256SUMS 2>/dev/null || true)
  if [ -z "$recorded" ]; then
    cp "$fetched" "$target"
    echo "$sum  $name" >> static/vendor/SHA256SUMS
    echo "recorded $target sha256 $sum"
  elif [ "$recorded" != "$sum" ]; then
    echo "checksum mismatch for $target: recorded $recorded, fetched $sum (the file is left as it was)" >&2
    exit 1
  else
    cp "$fetched" "$target"
    echo "$target matches its recorded sha256 $sum"
  fi
}

for entry in "${files[@]}"; do
  fetch $entry
done
