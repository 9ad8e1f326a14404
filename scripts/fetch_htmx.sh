#!/usr/bin/env bash
# Fetch the vendored htmx again from the npm registry and check it against the recorded checksum.
# Usage: scripts/fetch_htmx.sh [VERSION]   (needs npm; writes static/vendor/htmx-VERSION.min.js)
set -euo pipefail
cd "$(dirname "$0")/.."
version="${1:-2.0.11}"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
(cd "$work" && npm pack --silent "htmx.org@$version" >/dev/null && tar -xzf "htmx.org-$version.tgz")
target="static/vendor/htmx-$version.min.js"
cp "$work/package/dist/htmx.min.js" "$target"
sum=$(sha256sum "$target" | cut -d' ' -f1)
recorded=$(awk -v f="htmx-$version.min.js" '$2 == f {print $1}' static/vendor/SHA256SUMS 2>/dev/null || true)
if [ -z "$recorded" ]; then
  echo "$sum  htmx-$version.min.js" >> static/vendor/SHA256SUMS
  echo "recorded $target sha256 $sum"
elif [ "$recorded" != "$sum" ]; then
  echo "checksum mismatch for $target: recorded $recorded, fetched $sum" >&2
  exit 1
else
  echo "$target matches its recorded sha256 $sum"
fi
