#!/usr/bin/env bash
# The GPU check in one command per machine:
#
#   scripts/device_check.sh pack              here: builds every GPU suite and benchmark, statically
#                                             linked to the project's libraries, and packs them with
#                                             the shared libraries the GPU machine lacks into
#                                             .device/device.tar.xz (git-ignored; ~52 MB of the 64 MiB
#                                             a call may carry: run with carry [".device"])
#   scripts/device_check.sh run [--sanitize | --sanitize-only]
#                                             on the GPU machine, from the checkout root with .device/
#                                             carried: runs every suite (and then each under
#                                             compute-sanitizer's memcheck and racecheck with --sanitize,
#                                             only those with --sanitize-only), the GPU Lua suites
#                                             (tests/lua/gpu, with th and cutorch/cimpl.so) and cutorch's
#                                             own test.lua, the Python package's CUDA cases
#                                             (tests/python/cuda_cases.py), the nccl backend and CUDA
#                                             tensors between processes (tests/python/nccl_cases.py)
#                                             and the benchmarks
#
# The GPU machine has Python 3.12 only: pack builds torch._C for it from pyenv's 3.12 (in its
# own output base, TORCH_PY312_VENV the environment with numpy and pybind11, made here when
# missing) and carries the package with numpy's wheel, used there when its Python lacks numpy.
#
# `run` ends with "device check: N passed, N failed" counting Boost.Test cases (skipped ones are
# reported apart and not counted as passed); a suite that cannot start counts as one failure.
set -uo pipefail
cd "$(dirname "$0")/.."
archive=.device/device.tar.xz

# torch._C for Python 3.12 and the package's Python files into $1/py312, numpy's wheel
# unpacked into $1/py312/site.
pack_python() {
  local py=${TORCH_PY312:-$HOME/.pyenv/versions/3.12.1/bin/python}
  local venv=${TORCH_PY312_VENV:-$HOME/.cache/torch-monorepo-venv312}
  [ -x "$py" ] || return 1
  [ -x "$venv/bin/python" ] || "$py" -m venv "$venv" || return 1
  # the versions requirements.txt pins for the main build
  "$venv/bin/pip" install -q $(grep -E '^(numpy|pybind11)==' requirements.txt) || return 1
  PYTHON_BIN_PATH="$venv/bin/python" bazel --output_base="$HOME/.cache/bazel/torch-py312" \
    build --dynamic_mode=off //python:_C.so || return 1
  local out
  out=$(bazel --output_base="$HOME/.cache/bazel/torch-py312" info bazel-bin 2>/dev/null)
  mkdir -p "$1/py312/site"
  tar -C python --exclude='*.so' --exclude=__pycache__ -cf - torch | tar -C "$1/py312" -xf -
  cp "$out/python/_C.so" "$1/py312/torch/_C.so"
  cp tests/python/cuda_cases.py tests/python/nccl_cases.py "$1/py312/"
  # the main job's data, cut to 10,000 training images to fit what a call carries
  python3 - "$1/py312/data" <<'PY' || return 1
import gzip, os, struct, sys
src, dst = "/usr/share/datasets/fashion-mnist", sys.argv[1]
os.makedirs(dst, exist_ok=True)
for name, keep in (("train-images-idx3-ubyte.gz", 10000), ("train-labels-idx1-ubyte.gz", 10000),
                   ("t10k-images-idx3-ubyte.gz", None), ("t10k-labels-idx1-ubyte.gz", None)):
    data = gzip.open(os.path.join(src, name)).read()
    ndim = data[3]
    sizes = list(struct.unpack(">" + "I" * ndim, data[4:4 + 4 * ndim]))
    item = 1
    for n in sizes[1:]:
        item *= n
    if keep:
        sizes[0] = keep
    body = data[4 + 4 * ndim:4 + 4 * ndim + sizes[0] * item]
    with gzip.open(os.path.join(dst, name), "wb") as f:
        f.write(data[:4] + struct.pack(">" + "I" * ndim, *sizes) + body)
PY
  local version
  version=$("$venv/bin/python" -c 'import numpy; print(numpy.__version__)')
  "$venv/bin/pip" download -q --no-deps --only-binary=:all: --python-version 3.12 \
    --platform manylinux_2_17_x86_64 -d "$1/wheels" "numpy==$version" || return 1
  python3 -m zipfile -e "$1"/wheels/numpy-*.whl "$1/py312/site" && rm -rf "$1/wheels"
}

case "${1:-}" in
pack)
  stage=$(mktemp -d)
  pack=$stage/device
  mkdir -p "$pack/bin" "$pack/lib"
  # --dynamic_mode=off links the project's libraries into each binary, so that one folder is
  # all a machine without Bazel needs; device code for sm_90, the GPU machine's (.bazelrc)
  # and TH's vector kernels: the GPU machine's processor may have AVX-512, this one has not
  # and TH's OpenBLAS core choice (Note [A BLAS core that knows the processor]): 0.3.21 ran
  # its generic kernels on the GPU machine's processor; th_bench shows the mend's figures there
  targets="//tests/THC:all //tests/THCUNN:all //tests/TH:test_vector //tests/TH:test_blas_core //tests/core:test_cuda"
  bazel build --dynamic_mode=off $targets //bench:thc_bench //bench:th_bench || exit 1
  for t in $(bazel query "kind(cc_test, ${targets// / + })" 2>/dev/null); do
    package=${t%%:*}
    cp "bazel-bin/${package#//}/${t##*:}" "$pack/bin/"
  done
  cp bazel-bin/bench/thc_bench bazel-bin/bench/th_bench "$pack/bin/"
  # The Lua package: th, cutorch/cimpl.so beside it (where lua/cutorch/init.lua finds it), the
  # runner and GPU Lua suites, and cutorch's own test.lua, unmodified
  bazel build --dynamic_mode=off //lua:th //lua:cutorch/cimpl.so || exit 1
  mkdir -p "$pack/lua/cutorch" "$pack/lua/tests" "$pack/lua/upstream/cutorch/test"
  cp bazel-bin/lua/th "$pack/lua/"
  cp bazel-bin/lua/cutorch/cimpl.so "$pack/lua/cutorch/"
  cp tests/lua/run.lua tests/lua/t7bytes.lua tests/lua/gpu/test_*.lua "$pack/lua/tests/"
  cp ../shared/upstream/cutorch/test/test.lua ../shared/upstream/cutorch/LICENSE "$pack/lua/upstream/cutorch/test/"
  pack_python "$pack" || echo "  no Python 3.12 here: the Python package's CUDA cases will not run there"
  # Libraries of this machine that the GPU machine may lack (OpenBLAS for TH's BLAS reference,
  # its Fortran runtime, OpenMP, SLEEF, oneDNN and the OpenCL loader it links, the CUDA runtime);
  # cuBLAS and cuDNN are on its library path.
  for b in "$pack"/bin/* "$pack"/py312/torch/_C.so "$pack"/lua/th "$pack"/lua/cutorch/cimpl.so; do
    [ -f "$b" ] && ldd "$b" | awk '/=> \// {print $3}'
  done | sort -u | grep -E 'openblas|gfortran|quadmath|gomp|sleef|cudart|dnnl|OpenCL|gloo|hiredis|ibverbs|libnl' | while read -r lib; do
    cp -L "$lib" "$pack/lib/"
  done
  chmod -R u+w "$pack"
  # symbol tables too (a tenth of the binaries): the archive grew past 64 MiB with debug
  # sections alone stripped (67.7 MB on 2026-11-28; 56.5 MB so). Dynamic symbols stay.
  strip --strip-unneeded "$pack"/bin/* "$pack"/lua/th "$pack"/lua/cutorch/cimpl.so "$pack"/py312/torch/_C.so 2>/dev/null
  mkdir -p .device
  # the archive must stay within the 64 MiB a call carries. The test binaries each link THC
  # statically, the same code many times over 500 MB: a 512 MiB dictionary finds those
  # repeats across files (65.7 MB with -9's 64 MiB, 52.3 MB so; one thread, 5 minutes;
  # unpacking needs 512 MiB of memory)
  tar -C "$stage" -cf - device | xz --lzma2=preset=9,dict=512MiB -T1 >"$archive" || exit 1
  rm -rf "$stage"
  ls -la "$archive"
  size=$(stat -c %s "$archive")
  if [ "$size" -gt $((64 << 20)) ]; then
    echo "device check: $archive is $size bytes, more than the 64 MiB a call carries"
    exit 1
  fi
  ;;
run)
  sanitize=0 suites=1
  [ "${2:-}" = "--sanitize" ] && sanitize=1
  [ "${2:-}" = "--sanitize-only" ] && sanitize=1 suites=0
  [ -f "$archive" ] || { echo "device check: $archive is missing: run '$0 pack' first and carry .device"; exit 1; }
  stage=$(mktemp -d)
  tar -C "$stage" -xJf "$archive" || exit 1
  pack=$stage/device
  export LD_LIBRARY_PATH="$pack/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
  # cuSOLVER (140 MB, too big to carry) and what it needs, and NCCL (220 MB, opened by the
  # nccl backend on first use): from the system, else from the CUDA wheels that the machine's
  # PyTorch brings
  for lib in libcusolver.so.12 libcusparse.so.12 libnvJitLink.so.13 libnccl.so.2; do
    ldconfig -p | grep -q "$lib" && continue
    found=$(find /usr/local /usr/lib /opt $(python3 -c 'import site; print(" ".join(site.getsitepackages()))' 2>/dev/null) \
      -name "$lib" -print -quit 2>/dev/null)
    if [ -n "$found" ]; then
      LD_LIBRARY_PATH="$LD_LIBRARY_PATH:$(dirname "$found")"
      echo "  using $found"
    else
      echo "  $lib not found: the suites that need it (LAPACK; nccl_cases.py) cannot start"
    fi
  done
  out=${OUT:-$(mktemp -d)}
  nvidia-smi -L || echo "  no nvidia-smi: the GPU cases will be skipped"
  ldconfig -p | grep -E 'libcublas\.|libcusolver\.|libcudnn\.|libcurand\.' | awk '{print "  has", $1}'
  passed=0 failed=0 skipped=0
  for b in "$pack"/bin/test_*; do
    [ "$suites" = 1 ] || break
    name=$(basename "$b")
    xml="$out/$name.xml"
    start=$(date +%s%N)
    timeout 300 "$b" --log_level=error --report_format=XML --report_level=detailed --report_sink="$xml" >"$out/$name.log" 2>&1
    rc=$?
    ms=$((($(date +%s%N) - start) / 1000000))
    counts=$(python3 - "$xml" <<'PY'
import sys, xml.etree.ElementTree as ET
try:
    master = ET.parse(sys.argv[1]).getroot().find("TestSuite")
    get = lambda k: int(master.get(k, "0"))
    print(get("test_cases_passed") + get("test_cases_passed_with_warnings"),
          get("test_cases_failed") + get("test_cases_aborted") + get("test_cases_timed_out"),
          get("test_cases_skipped"))
except Exception:
    print("0 0 0")
PY
)
    read -r p f s <<<"$counts"
    if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then f=1; fi  # crashed, timed out or could not start
    printf '%-28s %4d passed %4d failed %4d skipped  (%d.%03d s, exit %d)\n' "$name" "$p" "$f" "$s" $((ms / 1000)) $((ms % 1000)) "$rc"
    [ "$f" -ne 0 ] && grep -E 'error|fatal|terminate|what\(\)|cannot open' "$out/$name.log" | head -20
    passed=$((passed + p)) failed=$((failed + f)) skipped=$((skipped + s))
  done
  unfinished=0
  if [ "$sanitize" = 1 ] && command -v compute-sanitizer >/dev/null; then
    # SANITIZE_BUDGET (seconds, default 3600) bounds the sanitizer runs together; a suite it
    # cuts short is reported as unfinished, neither passed nor failed
    deadline=$(($(date +%s) + ${SANITIZE_BUDGET:-3600}))
    for tool in ${SANITIZE_TOOLS:-memcheck racecheck}; do
      for b in "$pack"/bin/test_*; do
        name=$(basename "$b")
        # SANITIZE_SUITES (an extended regex) picks suites, to finish a run cut short
        [[ "$name" =~ ${SANITIZE_SUITES:-.} ]] || continue
        left=$((deadline - $(date +%s)))
        if [ "$left" -le 0 ]; then
          echo "$tool $name: not run (SANITIZE_BUDGET spent)"
          unfinished=$((unfinished + 1))
          continue
        fi
        # the >2^31-element cases are left out: they take minutes under the sanitizer
        # API errors are left to the suites, which provoke some on purpose (out of memory)
        timeout "$((left < 600 ? left : 600))" compute-sanitizer --tool "$tool" --report-api-errors no \
          --error-exitcode 99 "$b" \
          --log_level=error --run_test='!*/large_tensors:!*/index_math_past_2_31_elements' \
          >"$out/$name.$tool.log" 2>&1
        rc=$?
        if [ "$rc" -eq 0 ]; then
          echo "$tool $name: clean"
          passed=$((passed + 1))
        elif [ "$rc" -eq 124 ]; then
          echo "$tool $name: unfinished (timed out)"
          unfinished=$((unfinished + 1))
        else
          echo "$tool $name: FAILED (exit $rc)"
          grep -E 'ERROR SUMMARY|Invalid|Race|error' "$out/$name.$tool.log" | head -10
          failed=$((failed + 1))
        fi
      done
    done
  fi
  # The Lua package on the GPU: the GPU Lua suites (tests/lua/gpu), then cutorch's test.lua
  # as cutorch ran it (cutorch.test()), each counted by its own summary line
  if [ "$suites" = 1 ] && [ -x "$pack/lua/th" ]; then
    for suite in "$pack"/lua/tests/test_*.lua; do
      name=$(basename "$suite")
      (cd "$pack/lua" && timeout 300 ./th tests/run.lua "tests/$name") >"$out/lua_$name.log" 2>&1
      rc=$?
      read -r p f <<<"$(sed -n 's/^lua: \([0-9]*\) passed, \([0-9]*\) failed.*/\1 \2/p' "$out/lua_$name.log" | tail -1)"
      [ -z "$p" ] && p=0 f=1
      [ "$rc" -ne 0 ] && [ "$f" -eq 0 ] && f=1
      [ "$p" -eq 0 ] && [ "$f" -eq 0 ] && f=1  # a suite that checked nothing (no GPU) does not pass
      printf 'lua %-24s %4d passed %4d failed  (exit %d)\n' "$name" "$p" "$f" "$rc"
      [ "$f" -ne 0 ] && grep -E 'FAILED|skipped|rror' "$out/lua_$name.log" | head -20
      passed=$((passed + p)) failed=$((failed + f))
    done
    (cd "$pack/lua" && timeout 600 ./th -e "require 'cutorch'; dofile('upstream/cutorch/test/test.lua'); cutorch.test(nil, 1234)") \
      >"$out/lua_upstream_cutorch.log" 2>&1
    rc=$?
    line=$(grep -E 'Completed [0-9]+ asserts? in [0-9]+ tests?' "$out/lua_upstream_cutorch.log" | tail -1)
    total=$(sed -n 's/.* in \([0-9]*\) tests\{0,1\} with \([0-9]*\) failures\{0,1\} and \([0-9]*\) errors\{0,1\}.*/\1 \2 \3/p' <<<"$line")
    read -r n fl er <<<"$total"
    if [ -z "$n" ]; then p=0 f=1; else p=$((n - fl - er)) f=$((fl + er)); fi
    printf 'lua upstream cutorch test.lua %4d passed %4d failed  (exit %d)\n' "$p" "$f" "$rc"
    [ "$f" -ne 0 ] && tail -20 "$out/lua_upstream_cutorch.log"
    passed=$((passed + p)) failed=$((failed + f))
  fi
  # The Python package on the GPU: cuda_cases.py's programs on CUDA against the CPU, and
  # nccl_cases.py's collectives over NCCL against Gloo's, DDP over NCCL and CUDA IPC
  for cases in cuda_cases nccl_cases; do
    [ "$suites" = 1 ] && [ -f "$pack/py312/$cases.py" ] || continue
    path="$pack/py312"
    python3 -c 'import numpy' 2>/dev/null || path="$path:$pack/py312/site"
    if python3 -c 'import sys; sys.exit(sys.version_info[:2] != (3, 12))'; then
      PYTHONPATH="$path" timeout 300 python3 "$pack/py312/$cases.py" >"$out/$cases.json" 2>"$out/$cases.log"
      counts=$(python3 - "$out/$cases.json" <<'PY'
import json, sys
try:
    results = json.loads(open(sys.argv[1]).read().strip().splitlines()[-1])
except Exception:
    print("0 1")
    sys.exit()
for name, error in results.items():
    if error:
        print("  %s: %s" % (name, error.strip().splitlines()[-1]), file=sys.stderr)
print(sum(e is None for e in results.values()), sum(e is not None for e in results.values()))
PY
)
      read -r p f <<<"$counts"
      printf 'python %-20s %4d passed %4d failed\n' "$cases" "$p" "$f"
      [ "$f" -ne 0 ] && tail -5 "$out/$cases.log"
      passed=$((passed + p)) failed=$((failed + f))
    else
      echo "python $cases: not run (python3 is $(python3 --version 2>&1), torch._C was built for 3.12)"
      failed=$((failed + 1))
    fi
  done
  # The main job on the GPU, ours and the machine's own PyTorch alternately (same script)
  if [ "$suites" = 1 ] && [ -d "$pack/py312/data" ] && [ -f examples/fashion_mnist.py ]; then
    site="$pack/py312/site"
    for round in 1 2; do
      for impl in ours pytorch; do
        if [ "$impl" = ours ]; then pp="$pack/py312:$site"; else pp="$site"; fi
        python3 -c 'import numpy' 2>/dev/null && [ "$impl" = pytorch ] && pp=""
        PYTHONPATH="$pp" timeout 300 python3 examples/fashion_mnist.py --device cuda --epochs 2 --no-plot \
          --data-dir "$pack/py312/data" --out-dir "$out/fm_$impl" >"$out/fm_$impl.$round.log" 2>&1
        echo "main job on the GPU ($impl, round $round, exit $?):"
        grep -E '^epoch [0-9]+:|reloaded|Error' "$out/fm_$impl.$round.log" | tail -4 | sed 's/^/  /'
      done
    done
  fi
  for b in "$pack"/bin/*bench*; do
    [ "$suites" = 1 ] || break
    timeout 300 "$b" || echo "benchmark $(basename "$b") failed"
  done
  echo "device check: $passed passed, $failed failed ($skipped skipped, $unfinished unfinished)"
  [ "$failed" -eq 0 ]
  ;;
*)
  echo "usage: $0 pack | run [--sanitize]"
  exit 2
  ;;
esac
