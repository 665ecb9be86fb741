#!/usr/bin/env bash
# Installs what the build and the tests need. Idempotent: a machine that has everything
# returns at once without touching the package lists.
set -euo pipefail

APT_PACKAGES=(
  g++
  bazel-bootstrap bazel-platforms bazel-rules-java
  libopenblas-openmp-dev libboost-test-dev
  luajit libluajit-5.1-dev
  dataset-fashion-mnist
  python3-torch  # real PyTorch 1.13 for /usr/bin/python3: the differential tests compare with it
)

missing=()
for p in "${APT_PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing ${missing[*]}"
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}" >/dev/null
fi

# Python packages (numpy, pybind11, pytest, hypothesis) for the `python3` on PATH.
if ! python3 -c 'import numpy, pybind11, pytest, hypothesis' 2>/dev/null; then
  echo "setup: installing Python packages from requirements.txt"
  python3 -m pip install -q --disable-pip-version-check -r "$(dirname "$0")/../requirements.txt"
fi
