#!/bin/sh
# screenshot.sh CHROMIUM PNG WIDTH,HEIGHT URL: a headless Chromium screenshot
# with a private, throw-away profile and no background network traffic.
set -e
chromium=$1 png=$2 size=$3 url=$4
profile=$(mktemp -d)
trap 'rm -rf "$profile"' EXIT
timeout 120 "$chromium" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
  --disable-background-networking --disable-component-update --disable-sync --hide-scrollbars \
  --user-data-dir="$profile" --window-size="$size" --screenshot="$png" "$url" > "$png.log" 2>&1 ||
  { cat "$png.log" >&2; exit 1; }
test -s "$png" || { echo "screenshot.sh: no screenshot written" >&2; cat "$png.log" >&2; exit 1; }
