#!/usr/bin/env bash
# Builds the Python extension torch._C and makes `import torch` work from any directory:
# the module is copied into python/torch/ and python/ is put on sys.path through a .pth
# file in the site-packages of the `python3` on PATH.
set -euo pipefail
cd "$(dirname "$0")/.."
bazel build //python:_C.so //python:_lua.so
install -m 755 bazel-bin/python/_C.so python/torch/_C.so
install -m 755 bazel-bin/python/_lua.so python/torch/_lua.so  # torch.lua, the in-process Lua bridge
site=$(python3 -c 'import site, sys; print(site.getsitepackages()[0] if hasattr(site, "getsitepackages") else sys.prefix)')
echo "$(pwd)/python" > "$site/torch-monorepo.pth"

# `th` (the Lua launcher) on PATH: a link to the Bazel-built binary, so that its runpath
# still finds the libraries next to it.
bazel build //lua:th
bindir=/usr/local/bin
[ -w "$bindir" ] || { bindir="$HOME/.local/bin"; mkdir -p "$bindir"; }
ln -sf "$(pwd)/bazel-bin/lua/th" "$bindir/th"
