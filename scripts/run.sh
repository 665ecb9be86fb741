#!/usr/bin/env bash
# The main job: installs what it needs, builds and installs the Python package and trains a
# CNN on Fashion-MNIST (examples/fashion_mnist.py; options such as --epochs, --batch-size and
# --threads pass through).
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh
source scripts/env.sh
# The example plots its curves with matplotlib (only the main job needs it).
"$PY" -c 'import matplotlib' 2>/dev/null || "$PY" -m pip install -q --disable-pip-version-check matplotlib
./scripts/build.sh
"$PY" examples/fashion_mnist.py "$@"
