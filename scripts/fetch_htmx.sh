#!/usr/bin/env bash
# Fetch the vendored htmx and its SSE extension again from the npm registry and check each
# against its recorded checksum (static/vendor/SHA256SUMS; a file not yet recorded is added).
# Usage: scripts/fetch_htmx.sh [HTMX_VERSION] [SSE_VERSION]
#   (needs npm; writes static/vendor/htmx-VERSION.min.js and static/vendor/htmx-ext-sse-VERSION.min.js)
set -euo pipefail
cd "$(dirname "$0")/.."
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# fetch PACKAGE VERSION FILE-IN-ITS-dist NAME-IN-static/vendor
fetch() {
  local package=$1 version=$2 file=$3 name=$4
  mkdir -p "$work/$package"
  (cd "$work/$package" && npm pack --silent "$package@$version" >/dev/null && tar -xzf ./*.tgz)
  local target="static/vendor/$name"
  cp "$work/$package/package/dist/$file" "$target"
  local sum recorded
  sum=$(sha256sum "$target" | cut -d' ' -f1)
  recorded=$(awk -v f="$name" '$2 == f {print $1}' static/vendor/SHA256SUMS 2>/dev/null || true)
  if [ -z "$recorded" ]; then
    echo "$sum  $name" >> static/vendor/SHA256SUMS
    echo "recorded $target sha256 $sum"
  elif [ "$recorded" != "$sum" ]; then
    echo "checksum mismatch for $target: recorded $recorded, fetched $sum" >&2
    exit 1
  else
    echo "$target matches its recorded sha256 $sum"
  fi
}

htmx="${1:-2.0.11}"
sse="${2:-2.2.4}"
fetch htmx.org "$htmx" htmx.min.js "htmx-$htmx.min.js"
# server-sent events: a table page's live updates (companion/web/push.py)
fetch htmx-ext-sse "$sse" sse.min.js "htmx-ext-sse-$sse.min.js"
