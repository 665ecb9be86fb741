#!/usr/bin/env bash
# The GPU check in one command per machine:
#
#   scripts/device_check.sh pack              here: builds every GPU suite and benchmark, statically
#                                             linked to the project's libraries, and packs them with
#                                             the shared libraries the GPU machine lacks into
#                                             .device/device.tar.xz (git-ignored; ~30 MB of the 64 MiB
#                                             a call may carry: run with carry [".device"])
#   scripts/device_check.sh run [--sanitize | --sanitize-only]
#                                             on the GPU machine, from the checkout root with .device/
#                                             carried: runs every suite (and then each under
#                                             compute-sanitizer's memcheck and racecheck with --sanitize,
#                                             only those with --sanitize-only) and the benchmarks
#
# `run` ends with "device check: N passed, N failed" counting Boost.Test cases (skipped ones are
# reported apart and not counted as passed); a suite that cannot start counts as one failure.
set -uo pipefail
cd "$(dirname "$0")/.."
archive=.device/device.tar.xz

case "${1:-}" in
pack)
  stage=$(mktemp -d)
  pack=$stage/device
  mkdir -p "$pack/bin" "$pack/lib"
  # --dynamic_mode=off links the project's libraries into each binary, so that one folder is
  # all a machine without Bazel needs; device code for sm_90, the GPU machine's (.bazelrc)
  # and TH's vector kernels: the GPU machine's processor may have AVX-512, this one has not
  targets="//tests/THC:all //tests/THCUNN:all //tests/TH:test_vector //tests/core:test_cuda"
  bazel build --dynamic_mode=off $targets //bench:thc_bench || exit 1
  for t in $(bazel query "kind(cc_test, ${targets// / + })" 2>/dev/null); do
    package=${t%%:*}
    cp "bazel-bin/${package#//}/${t##*:}" "$pack/bin/"
  done
  cp bazel-bin/bench/thc_bench "$pack/bin/"
  # Libraries of this machine that the GPU machine may lack (OpenBLAS for TH's BLAS reference,
  # its Fortran runtime, OpenMP, SLEEF, oneDNN and the OpenCL loader it links, the CUDA runtime);
  # cuBLAS and cuDNN are on its library path.
  for b in "$pack"/bin/*; do
    ldd "$b" | awk '/=> \// {print $3}'
  done | sort -u | grep -E 'openblas|gfortran|quadmath|gomp|sleef|cudart|dnnl|OpenCL' | while read -r lib; do
    cp -L "$lib" "$pack/lib/"
  done
  chmod -R u+w "$pack"
  strip --strip-debug "$pack"/bin/* 2>/dev/null
  mkdir -p .device
  tar -C "$stage" -cf - device | xz -6 -T2 >"$archive" || exit 1
  rm -rf "$stage"
  ls -la "$archive"
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
  # cuSOLVER (140 MB, too big to carry) and what it needs: from the system, else from the
  # CUDA wheels that the machine's PyTorch brings
  for lib in libcusolver.so.12 libcusparse.so.12 libnvJitLink.so.13; do
    ldconfig -p | grep -q "$lib" && continue
    found=$(find /usr/local /usr/lib /opt $(python3 -c 'import site; print(" ".join(site.getsitepackages()))' 2>/dev/null) \
      -name "$lib" -print -quit 2>/dev/null)
    if [ -n "$found" ]; then
      LD_LIBRARY_PATH="$LD_LIBRARY_PATH:$(dirname "$found")"
      echo "  using $found"
    else
      echo "  $lib not found: the LAPACK suite cannot start"
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
