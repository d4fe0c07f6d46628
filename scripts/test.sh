#!/usr/bin/env bash
# `npm test`, in four lanes:
#   static    the linter, then the site's build and the type check;
#   unit      the engine, CLI, model and browser-code tests, each file in its own module graph;
#   services  the app, services and jobs on real databases, one per worker emptied between files;
#   browser   Playwright in Chromium against the built site.
# unit and services are vitest's two projects, run by one vitest (one Auth Emulator); they start
# beside the build, which they do not need. The browser lane starts once the site is built, and
# the type check beside it. Most of the browser and service tests wait on sockets, pages, timers
# and the emulator, so the lanes fit side by side on two cores. Each lane's output is printed
# whole when it ends, with its time, so the log reads as if they had run one after another.
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
timed "$logs/check" astro check &
check=$!
timed "$logs/e2e" playwright test &
e2e=$!

wait "$vitest"
unit=$?
wait "$check"
checked=$?
wait "$e2e"
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
