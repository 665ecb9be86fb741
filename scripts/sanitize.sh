#!/usr/bin/env bash
# Runs the C and C++ suites under AddressSanitizer (with LeakSanitizer) and UBSan, every UB
# report fatal (the asan config of .bazelrc). Its own output base keeps the sweep off the
# main build's server and bazel-bin; the results link as bazel-asan-testlogs.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh
source scripts/env.sh  # @local_python's headers come from the project's virtual environment
exec bazel --output_base="$HOME/.cache/bazel/torch-asan" test --config=asan //... "$@"
