#!/usr/bin/env bash
# `npm test`: the linter first; then, once the site is built, the unit tests, the type check and the
# browser tests side by side. The browser tests spend most of their time waiting on pages, scans and
# the Auth Emulator, so they fit beside the unit tests on two cores. Each side's output is printed
# whole when it ends, so the log reads as if they had run one after another.
set -uo pipefail
cd "$(dirname "$0")/.."

npm run lint || exit 1
npm run build || exit 1

logs=$(mktemp -d)
trap 'rm -rf "$logs"' EXIT
astro check >"$logs/check" 2>&1 &
check=$!
playwright test >"$logs/e2e" 2>&1 &
e2e=$!

vitest run
unit=$?

wait "$check"
checked=$?
echo
echo "> astro check"
cat "$logs/check"

wait "$e2e"
browsed=$?
echo
echo "> playwright test"
cat "$logs/e2e"

for status in "$unit" "$checked" "$browsed"; do
  [ "$status" -eq 0 ] || exit "$status"
done
