#!/usr/bin/env bash
# The main job: builds the project (installing what it needs) and runs the demo.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh
bazel build //examples:th_demo
./bazel-bin/examples/th_demo "$@"
