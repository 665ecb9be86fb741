#!/usr/bin/env bash
# Builds the Python extensions and `th`, copies the extensions into python/torch/ (what the
# tests import, with PYTHONPATH=python), then installs stable copies of what users run:
# the torch package into the project's virtual environment and `th` into TORCH_MONOREPO_BINDIR
# (scripts/env.sh). Copies, not links into bazel-bin: a later Bazel command with other options
# re-points bazel-bin. `build.sh --no-install` stops before installing (scripts/test.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/env.sh
bazel build //python:_C.so //python:_lua.so //python:_mpi.so //lua:th
install -m 755 bazel-bin/python/_C.so python/torch/_C.so
install -m 755 bazel-bin/python/_lua.so python/torch/_lua.so  # torch.lua, the in-process Lua bridge
install -m 755 bazel-bin/python/_mpi.so python/torch/_mpi.so  # torch.distributed's MPI backend
[ "${1:-}" = "--no-install" ] && exit 0

# The package, copied whole then swapped in, so that a running import never sees half of it.
site=$("$PY" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')
staging=$(mktemp -d "$site/.torch-install.XXXXXX")
cp -r python/torch "$staging/torch"
find "$staging/torch" -name __pycache__ -prune -exec rm -rf {} +
rm -rf "$site/.torch-old"
[ ! -e "$site/torch" ] || mv "$site/torch" "$site/.torch-old"
mv "$staging/torch" "$site/torch"
rm -rf "$site/.torch-old" "$staging"

# th has its Lua sources compiled in and needs only system libraries (OpenBLAS, libgomp).
mkdir -p "$TORCH_MONOREPO_BINDIR"
install -m 755 bazel-bin/lua/th "$TORCH_MONOREPO_BINDIR/.th.new.$$"
mv -f "$TORCH_MONOREPO_BINDIR/.th.new.$$" "$TORCH_MONOREPO_BINDIR/th"
echo "build: installed torch into $site and th into $TORCH_MONOREPO_BINDIR"
