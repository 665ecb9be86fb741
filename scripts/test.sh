#!/usr/bin/env bash
# Runs every test suite (installing what they need first) and counts test cases: Boost.Test
# cases, pytest items, Lua tests. Skipped tests are listed with their reasons; a suite whose
# tests all skipped counts as failed (scripts/test_counts.py). Ends with one line
# "tests: N passed, N failed", after "skipped: N tests".
set -uo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh || exit 1
source scripts/env.sh

fixtures="$(cd .. && pwd)/shared/fixtures"
[ -d "$fixtures" ] || { echo "test: $fixtures is missing (shared/ must sit beside the checkout)"; exit 1; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
counts="$work/counts"
: >"$counts"
# C/C++ suites (Bazel). Boost.Test prints its case counts (report level short) and why a case
# was skipped (log level test_suite) into each test.log. THC's suites (tagged gpu) are built and
# not run: there is no GPU here; scripts/device_check.sh runs them on one.
bazel test //... --nocache_test_results --test_tag_filters=-gpu \
  --test_env=BOOST_TEST_REPORT_LEVEL=short --test_env=BOOST_TEST_LOG_LEVEL=test_suite \
  --test_env=BOOST_TEST_COLOR_OUTPUT=no "$@" 2>&1 | tee "$work/bazel"
status=${PIPESTATUS[0]}
"$PY" scripts/test_counts.py boost "$counts" "$work/bazel" "$(bazel info bazel-testlogs 2>/dev/null)"

# Python suites (pytest), on this checkout's package whatever the environment's copy is.
if ./scripts/build.sh --no-install >"$work/build" 2>&1; then
  PYTHONPATH="$PWD/python" "$PY" -m pytest -q -p no:cacheprovider tests/python -rfEs --junitxml="$work/pytest.xml"
  [ $? -eq 0 ] || status=1
  "$PY" scripts/test_counts.py pytest "$counts" "$work/pytest.xml"
else
  cat "$work/build"
  echo "test: building the Python extension failed"
  printf 'build (python extension, th)\t0\t1\t0\n' >>"$counts"
  status=1
fi
# Lua suites (th): one run per file, so that a crash loses only that file's count.
if [ -x bazel-bin/lua/th ]; then
  for f in tests/lua/test_*.lua; do
    bazel-bin/lua/th tests/lua/run.lua "$f" 2>&1 | tee "$work/lua"
    rc=${PIPESTATUS[0]}
    [ "$rc" -eq 0 ] || status=1
    "$PY" scripts/test_counts.py lua "$counts" "$f" "$work/lua" "$rc"
  done
else
  printf 'lua suites (th is not built)\t0\t1\t0\n' >>"$counts"
  status=1
fi
# Upstream test files, unmodified, from ../shared/upstream (the specification): torch7's
# test.lua as torch7 runs it (torch.test()) and its other test files as scripts, nn's test.lua
# (nn.test()) and nngraph's test files, counted by their Testers' summary lines (a script
# without one counts as one test).
upstream="$(cd .. && pwd)/shared/upstream"
root="$PWD"
if [ -x bazel-bin/lua/th ] && [ -d "$upstream/torch7/test" ]; then
  th="$PWD/bazel-bin/lua/th"
  for f in test.lua test_half.lua test_aliasMultinomial.lua test_timer.lua test_qr.lua test_Tester.lua \
           test_writeObject.lua test_sharedmem.lua; do
    if [ "$f" = test.lua ]; then
      (cd "$work" && timeout 900 "$th" -e "dofile('$upstream/torch7/test/test.lua'); torch.test()") >"$work/upstream" 2>&1
    else
      (cd "$work" && timeout 900 "$th" "$upstream/torch7/test/$f") >"$work/upstream" 2>&1
    fi
    rc=$?
    tail -n 30 "$work/upstream"
    [ "$rc" -eq 0 ] || status=1
    "$PY" scripts/test_counts.py tester "$counts" "upstream torch7/test/$f" "$work/upstream" "$rc"
  done
  (cd "$work" && timeout 1500 "$th" "$root/scripts/upstream_nn_test.lua" "$upstream") 2>&1 | tee "$work/upstream"
  rc=${PIPESTATUS[0]}
  [ "$rc" -eq 0 ] || status=1
  "$PY" scripts/test_counts.py tester "$counts" "upstream nn/test.lua" "$work/upstream" "$rc"
  # nngraph's test files, each a script (run in a scratch folder: some write .dot files)
  mkdir -p "$work/nngraph"
  for f in "$upstream"/nngraph/test/test_*.lua; do
    (cd "$work/nngraph" && "$th" "$f") 2>&1 | tee "$work/upstream"
    rc=${PIPESTATUS[0]}
    [ "$rc" -eq 0 ] || status=1
    if grep -q "^Completed .* tests\? with" "$work/upstream"; then
      "$PY" scripts/test_counts.py tester "$counts" "upstream nngraph/$(basename "$f")" "$work/upstream" "$rc"
    else
      "$PY" scripts/test_counts.py script "$counts" "upstream nngraph/$(basename "$f")" "$rc"
    fi
  done
else
  printf 'upstream test files (th is not built or ../shared/upstream is missing)\t0\t1\t0\n' >>"$counts"
  status=1
fi
gpu=$(bazel query 'attr(tags, gpu, tests(//...))' 2>/dev/null | wc -l)
[ "$gpu" -gt 0 ] && echo "not run: $gpu GPU suites (built; no GPU here: scripts/device_check.sh runs them on the GPU machine)"
gpulua=$(ls tests/lua/gpu/test_*.lua 2>/dev/null | wc -l)
[ "$gpulua" -gt 0 ] && echo "not run: $gpulua GPU Lua suites and cutorch's test.lua (tests/lua/gpu: scripts/device_check.sh runs them on the GPU machine)"
"$PY" scripts/test_counts.py summary "$counts" || status=1
exit "$status"
