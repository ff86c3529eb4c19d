#!/usr/bin/env bash
# Render a report's index.html in headless Chromium and save a PNG of the page, to look at it as a browser shows it.
#
#   tools/screenshot_report.sh [REPORT_DIR] [OUT.png] [WIDTHxHEIGHT]
#
# Defaults: results/, /tmp/smear-report.png, 1280x2400. Needs Debian's chromium (apt-get install chromium). The
# browser runs with a throwaway profile and no network features, so the picture shows exactly what the page
# holds by itself.
set -euo pipefail
report=${1:-results}
out=${2:-/tmp/smear-report.png}
size=${3:-1280x2400}
page=$(cd "$report" && pwd)/index.html
[[ -f $page ]] || { echo "no $page: make it with 'smear-sim report --out $report'" >&2; exit 2; }
browser=$(command -v chromium || command -v chromium-browser || true)
[[ -n $browser ]] || { echo "chromium is not installed: apt-get install -y chromium" >&2; exit 2; }
profile=$(mktemp -d)
trap 'rm -rf "$profile"' EXIT
"$browser" --headless --no-sandbox --disable-gpu --no-first-run --disable-background-networking \
  --disable-component-update --disable-sync --user-data-dir="$profile" --hide-scrollbars \
  --window-size="${size/x/,}" --screenshot="$out" "file://$page" 2>/dev/null
echo "$out"
