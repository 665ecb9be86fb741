#!/usr/bin/env bash
# Installs what the build and the tests need: Debian packages, and the Python packages of
# requirements.txt in the project's virtual environment (scripts/env.sh says where), so it works
# with any python3, Debian's externally managed one included. Idempotent: a machine that has
# everything returns at once without touching the package lists or the network.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/env.sh

APT_PACKAGES=(
  g++
  bazel-bootstrap bazel-platforms bazel-rules-java
  libopenblas-openmp-dev libboost-test-dev
  libsleef-dev  # vectorised exp, tanh, ... (TH/THVector.h)
  libdnnl-dev  # oneDNN: THNN's float convolutions
  libgloo-dev  # torch.distributed's default engine
  libopenmpi-dev openmpi-bin  # torch.distributed's MPI backend, and mpirun
  luajit libluajit-5.1-dev
  lua-moses  # functional helpers that nn's own test file requires (nntest.NaN, nntest.DontCast)
  dataset-fashion-mnist
  python3-venv python3-dev  # the virtual environment below, and Python.h for Debian's python3
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

# The virtual environment, filled from requirements.txt; its copy of requirements.txt says
# what it holds. A lock keeps clones that set up at the same time from racing.
mkdir -p "$(dirname "$TORCH_MONOREPO_VENV")"
exec 9>"$TORCH_MONOREPO_VENV.lock"
flock 9
if [ ! -x "$PY" ]; then
  echo "setup: creating the virtual environment $TORCH_MONOREPO_VENV"
  "${TORCH_MONOREPO_PYTHON:-python3}" -m venv "$TORCH_MONOREPO_VENV"
fi
if ! cmp -s requirements.txt "$TORCH_MONOREPO_VENV/requirements.txt"; then
  echo "setup: installing Python packages from requirements.txt into $TORCH_MONOREPO_VENV"
  "$PY" -m pip install -q --disable-pip-version-check -r requirements.txt
  cp requirements.txt "$TORCH_MONOREPO_VENV/requirements.txt"
fi
exec 9>&-
