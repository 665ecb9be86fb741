# Sourced by the scripts: where the project's Python environment and the installed copies live.
#   TORCH_MONOREPO_VENV    the virtual environment (default ~/.cache/torch-monorepo-venv, outside
#                          the checkout and shared by its clones); made from TORCH_MONOREPO_PYTHON
#                          (default: the python3 on PATH, Debian's own one included)
#   TORCH_MONOREPO_POCKETFFT  where setup.sh puts pocketfft's header, the FFT of torch.fft (default
#                          ~/.cache/torch-monorepo-pocketfft)
#   TORCH_MONOREPO_BINDIR  where `th` is installed (default /usr/local/bin, or ~/.local/bin when
#                          that is not writable)
TORCH_MONOREPO_VENV=${TORCH_MONOREPO_VENV:-$HOME/.cache/torch-monorepo-venv}
PY="$TORCH_MONOREPO_VENV/bin/python"
export TORCH_MONOREPO_POCKETFFT=${TORCH_MONOREPO_POCKETFFT:-$HOME/.cache/torch-monorepo-pocketfft}
if [ -z "${TORCH_MONOREPO_BINDIR:-}" ]; then
  TORCH_MONOREPO_BINDIR=/usr/local/bin
  [ -w "$TORCH_MONOREPO_BINDIR" ] || TORCH_MONOREPO_BINDIR="$HOME/.local/bin"
fi
# Bazel's @local_python asks this interpreter for the Python, numpy and pybind11 headers.
export PYTHON_BIN_PATH="$PY"
