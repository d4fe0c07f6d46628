#!/usr/bin/env bash
# `npm test`, in four lanes:
#   static    the linter, then the site's build and the type check;
#   unit      the engine, CLI, model and browser-code tests, each file in its own module graph;
#   services  the app, services and jobs on real databases, one per worker emptied between files;
#   browser   Playwright in Chromium against the built site.
# unit and services are vitest's two projects, run by one vitest (one Auth Emulator). The build and
# the type check run beside it: a third of vitest's time is spent waiting on sockets, child
# processes and timers, which is room enough for them. The browser lane starts when vitest ends.
# Measured on the 2-core CI machine: vitest 253 s alone, Playwright 357 s alone, and the two side by
# side 1159 s with failures, because each starved the other's timers and the emulator's answers.
# Each lane's output is printed whole when it ends, with its time.
set -uo pipefail
cd "$(dirname "$0")/.."

started=$SECONDS
logs=$(mktemp -d)
trap 'rm -rf "$logs"' EXIT

lane() {
  local name=$1 log=$2 status=$3 took=$4
  echo
  echo "> lane $name ($took s)"
  cat "$log"
  return "$status"
}

timed() {
  local out=$1
  shift
  local from=$SECONDS
  "$@" >"$out" 2>&1
  local status=$?
  echo "$((SECONDS - from))" >"$out.took"
  return "$status"
}

npm run lint || exit 1

timed "$logs/vitest" vitest run &
vitest=$!

if ! timed "$logs/build" npm run build; then
  cat "$logs/build"
  kill "$vitest" 2>/dev/null
  exit 1
fi
timed "$logs/check" astro check
checked=$?
wait "$vitest"
unit=$?
timed "$logs/e2e" playwright test
browsed=$?

lane "static: build" "$logs/build" 0 "$(cat "$logs/build.took")"
lane "static: astro check" "$logs/check" "$checked" "$(cat "$logs/check.took")"
lane "unit + services: vitest" "$logs/vitest" "$unit" "$(cat "$logs/vitest.took")"
lane "browser: playwright" "$logs/e2e" "$browsed" "$(cat "$logs/e2e.took")"
echo
echo "npm test: $((SECONDS - started)) s"

for status in "$unit" "$checked" "$browsed"; do
  [ "$status" -eq 0 ] || exit "$status"
done
