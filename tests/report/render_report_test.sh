#!/usr/bin/env bash
# The HTML report as a student opens it: headless Chromium renders report.html from the file system
# (no server); every image must load (the page counts them into <body data-images="loaded/total">)
# and no script error may be logged. A screenshot is kept in the output folder for a person to look at.
# Usage: render_report_test.sh path/to/crawlq output-folder
set -euo pipefail
crawlq=$1
out=$2
browser=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$browser" ]; then
  echo "FAIL: chromium is not installed (.ci/install-deps installs Debian's chromium)" >&2
  exit 1
fi
rm -rf "$out"
mkdir -p "$out"
"$crawlq" reproduce --quick --seed 3 --out "$out/report" > "$out/reproduce.txt"
images=$(grep -o '<img ' "$out/report/report.html" | wc -l)
for figure in figure-1 figure-2 figure-3 figure-4 sample-path; do
  if ! grep -q "<img src=\"$figure.svg\"" "$out/report/report.html"; then
    echo "FAIL: report.html does not show $figure.svg" >&2
    exit 1
  fi
done
flags=(--headless --no-sandbox --disable-gpu --hide-scrollbars --user-data-dir="$out/profile")
page="file://$(cd "$out/report" && pwd)/report.html"
timeout 120 "$browser" "${flags[@]}" --enable-logging=stderr --v=0 --virtual-time-budget=10000 --dump-dom "$page" \
  > "$out/dom.html" 2> "$out/console.log"
timeout 120 "$browser" "${flags[@]}" --window-size=1280,2400 --screenshot="$out/screenshot.png" "$page" \
  > /dev/null 2>> "$out/console.log"
status=0
if ! grep -q "data-images=\"$images/$images\"" "$out/dom.html"; then
  echo "FAIL: not every image loaded: $(grep -o 'data-images="[^"]*"' "$out/dom.html" || echo 'no count (script did not run)')" >&2
  status=1
fi
if grep -E 'CONSOLE.*(Uncaught|Error)' "$out/console.log" >&2; then
  echo "FAIL: script errors logged (above)" >&2
  status=1
fi
if [ ! -s "$out/screenshot.png" ]; then
  echo "FAIL: no screenshot" >&2
  status=1
fi
[ "$status" -eq 0 ] && echo "report.html: $images/$images images loaded, no script error; screenshot $out/screenshot.png"
exit "$status"
