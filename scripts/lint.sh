#!/usr/bin/env bash
# Checks the style the code follows: clang-format (.clang-format) on the C and C++ sources,
# ruff's formatter and linter (ruff.toml) on the Python. Exits non-zero on any difference;
# `scripts/lint.sh --fix` rewrites the files instead.
set -uo pipefail
cd "$(dirname "$0")/.."
source scripts/env.sh
[ -x "$PY" ] || ./scripts/setup.sh
"$PY" -m ruff --version 2>/dev/null | grep -q "^ruff 0.17.6$" || "$PY" -m pip install -q --disable-pip-version-check ruff==0.17.6
command -v clang-format >/dev/null || { echo "lint: clang-format is missing (apt-get install clang-format)"; exit 1; }
mapfile -t cxx < <(git ls-files '*.c' '*.cpp' '*.h' '*.hpp' '*.cu' '*.cuh' | grep -v '^third_party/')
status=0
if [ "${1:-}" = "--fix" ]; then
  clang-format -i "${cxx[@]}"
  "$PY" -m ruff format .
  "$PY" -m ruff check --fix .
  exit $?
fi
clang-format --dry-run --Werror "${cxx[@]}" || status=1
"$PY" -m ruff format --check . || status=1
"$PY" -m ruff check . || status=1
[ $status -eq 0 ] && echo "lint: clean"
exit $status
