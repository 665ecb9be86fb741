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

# pocketfft (BSD-3), the FFT under torch.fft: one header, shipped inside numpy's sdist (it is not
# in Debian 12). Extracted once into TORCH_MONOREPO_POCKETFFT, outside the checkout, where
# @pocketfft (third_party/system_libs.bzl) finds it.
if [ ! -f "$TORCH_MONOREPO_POCKETFFT/pocketfft_hdronly.h" ]; then
  NUMPY_SDIST_URL=https://files.pythonhosted.org/packages/76/21/7d2a95e4bba9dc13d043ee156a356c0a8f0c6309dff6b21b4d71a073b8a8/numpy-2.2.6.tar.gz
  NUMPY_SDIST_SHA256=e29554e2bef54a90aa5cc07da6ce955accb83f21ab5de01a62c8478897b264fd
  tmp=$(mktemp -d)
  trap 'rm -rf "$tmp"' EXIT
  if [ -f /tmp/numpy-2.2.6.tar.gz ]; then
    cp /tmp/numpy-2.2.6.tar.gz "$tmp/numpy.tar.gz"
  else
    echo "setup: downloading pocketfft (inside numpy-2.2.6's sdist)"
    curl -fsSL -o "$tmp/numpy.tar.gz" "$NUMPY_SDIST_URL"
  fi
  echo "$NUMPY_SDIST_SHA256  $tmp/numpy.tar.gz" | sha256sum -c --quiet -
  tar -xzf "$tmp/numpy.tar.gz" -C "$tmp" numpy-2.2.6/numpy/fft/pocketfft/pocketfft_hdronly.h \
    numpy-2.2.6/numpy/fft/pocketfft/LICENSE.md
  mkdir -p "$TORCH_MONOREPO_POCKETFFT"
  cp "$tmp"/numpy-2.2.6/numpy/fft/pocketfft/{pocketfft_hdronly.h,LICENSE.md} "$TORCH_MONOREPO_POCKETFFT/"
fi
