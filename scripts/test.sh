#!/usr/bin/env bash
# Runs every test suite (installing what they need first) and ends with one line
# "tests: N passed, N failed".
set -uo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh || exit 1

fixtures="$(cd .. && pwd)/shared/fixtures"
[ -d "$fixtures" ] || { echo "test: $fixtures is missing (shared/ must sit beside the checkout)"; exit 1; }

log=$(mktemp)
# C/C++ suites (Bazel): one line per suite. THC's suites (tagged gpu) are built and not run:
# there is no GPU here; scripts/device_check.sh runs them on one.
bazel test //... --nocache_test_results --test_tag_filters=-gpu "$@" 2>&1 | tee "$log"
status=${PIPESTATUS[0]}
passed=$(grep -cE '^//[^ ]+ +(\(cached\) )?PASSED' "$log")
failed=$(grep -cE '^//[^ ]+ +(\(cached\) )?(FAILED|TIMEOUT|NO STATUS|FAILED TO BUILD)' "$log")
if [ "$status" -ne 0 ] && [ "$failed" -eq 0 ]; then failed=1; fi  # a build error fails too

# Python suites (pytest): one count per test file, so the totals are comparable.
if ./scripts/build.sh >"$log" 2>&1; then
  python3 -m pytest -q -p no:cacheprovider tests/python -rfE 2>&1 | tee "$log"
  pystatus=${PIPESTATUS[0]}
  pyfiles=$(ls tests/python/test_*.py | wc -l)
  pyfailedfiles=$(grep -E '^(FAILED|ERROR) tests/python/' "$log" | sed -E 's/^(FAILED|ERROR) ([^:]+).*/\2/' | sort -u | wc -l)
  passed=$((passed + pyfiles - pyfailedfiles))
  failed=$((failed + pyfailedfiles))
  if [ "$pystatus" -ne 0 ] && [ "$pyfailedfiles" -eq 0 ]; then failed=$((failed + 1)); fi
  [ "$pystatus" -eq 0 ] || status=1
else
  cat "$log"
  echo "test: building the Python extension failed"
  failed=$((failed + 1))
  status=1
fi
# Lua suites (th): one count per test file, like the Python ones.
if bazel build //lua:th >"$log" 2>&1; then
  for f in tests/lua/test_*.lua; do
    if bazel-bin/lua/th tests/lua/run.lua "$f"; then
      passed=$((passed + 1))
    else
      failed=$((failed + 1))
      status=1
    fi
  done
else
  cat "$log"
  echo "test: building th failed"
  failed=$((failed + 1))
  status=1
fi
rm -f "$log"
gpu=$(bazel query 'attr(tags, gpu, tests(//...))' 2>/dev/null | wc -l)
[ "$gpu" -gt 0 ] && echo "not run: $gpu GPU suites (built; no GPU here: scripts/device_check.sh runs them on the GPU machine)"
echo "tests: $passed passed, $failed failed"
exit "$status"
