#!/usr/bin/env bash
# Runs every test suite (installing what they need first) and ends with one line
# "tests: N passed, N failed".
set -uo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh || exit 1

fixtures="$(cd .. && pwd)/shared/fixtures"
[ -d "$fixtures" ] || { echo "test: $fixtures is missing (shared/ must sit beside the checkout)"; exit 1; }

log=$(mktemp)
bazel test //... --nocache_test_results --test_env=TH_FIXTURES_DIR="$fixtures" "$@" 2>&1 | tee "$log"
status=${PIPESTATUS[0]}
passed=$(grep -cE '^//[^ ]+ +(\(cached\) )?PASSED' "$log")
failed=$(grep -cE '^//[^ ]+ +(\(cached\) )?(FAILED|TIMEOUT|NO STATUS|FAILED TO BUILD)' "$log")
rm -f "$log"
if [ "$status" -ne 0 ] && [ "$failed" -eq 0 ]; then failed=1; fi  # a build error fails too
echo "tests: $passed passed, $failed failed"
exit "$status"
