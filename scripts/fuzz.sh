#!/usr/bin/env bash
# The loaders' fuzzers for longer, under AddressSanitizer and UBSan (the asan config of
# .bazelrc, in the output base scripts/sanitize.sh uses, or $ASAN_OUTPUT_BASE):
#   scripts/fuzz.sh [CASES [SEED]]
# runs CASES structure-aware mutants of LuaJIT bytecode dumps through the bytecode check and,
# when it accepts them, through LuaJIT (tests/lua/bytecode_fuzz.cpp), and CASES damaged .t7
# files through the reader (tests/t7/test_fuzz.cpp), from SEED (default: a fresh one, printed);
# then, when the Python extension is built (python/torch/_C.so), CASES/10 damaged .pt files of
# each layout through torch.load (tests/python/test_serialization.py, without sanitizers).
# The normal test run makes 3000 and 4000 cases from fixed seeds. Each fuzzer prints its
# figures ("bytecode fuzz: ... N crashes", "t7 fuzz: ..."); a crash fails its test, and the
# bytecode dump that caused it is kept in bazel-asan-testlogs/tests/lua/bytecode_fuzz/
# test.outputs/ (replay: BYTECODE_FUZZ_REPLAY=that-file bazel-asan-bin/tests/lua/bytecode_fuzz).
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh
cases=${1:-200000}
seed=${2:-$(( (RANDOM << 15) | RANDOM ))}
echo "fuzz: $cases cases each, seed $seed"
set +e
bazel --output_base="${ASAN_OUTPUT_BASE:-$HOME/.cache/bazel/torch-asan}" test --config=asan \
  //tests/lua:bytecode_fuzz //tests/t7:test_fuzz \
  --test_env=BYTECODE_FUZZ_CASES="$cases" --test_env=BYTECODE_FUZZ_SEED="$seed" \
  --test_env=T7_FUZZ_CASES="$cases" --test_env=T7_FUZZ_SEED="$seed" \
  --test_timeout=86400 --nocache_test_results --test_output=all 2>&1 |
  grep -E '^(bytecode fuzz|t7 fuzz|fuzz):|case [0-9]+:|ERROR|FAILED|PASSED|Executed'
status=${PIPESTATUS[0]}
if [ -f python/torch/_C.so ]; then
  PT_FUZZ_CASES=$((cases / 10)) PYTHONPATH="$PWD/python" python3 -m pytest -q -p no:cacheprovider \
    tests/python/test_serialization.py -k corrupt_bytes_never_crash || status=1
fi
exit "$status"
