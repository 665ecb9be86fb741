"""THCUNN's test targets: each compares THCUNN's kernels with THNN's on the CPU. Tagged
"gpu" like THC's (tests/THC/defs.bzl): built by the CPU test run, run by
scripts/device_check.sh on the GPU machine. test_index_*.cpp test the kernels that take
class indices and are built once per TH_INDEX_BASE, against THNN of the same base."""

load("@local_cuda//:defs.bzl", "CUDA_AVAILABLE")

def thcunn_tests():
    if not CUDA_AVAILABLE:
        return
    for src in native.glob(["test_*.cpp"]):
        name = src[:-len(".cpp")]
        bases = ["0", "1"] if name.startswith("test_index_") else [None]
        for base in bases:
            native.cc_test(
                name = name + ("_base" + base if base else ""),
                srcs = [src, "//tests/THC:thc_test_util.hpp"] + native.glob(["*.hpp"]),
                deps = [
                    "//THCUNN:THCUNN_base" + (base or "1"),
                    "//THNN:THNN_base" + (base or "1"),
                    "//THC:core",
                    "//TH:core",
                    "@boost_test",
                ],
                local_defines = ["TH_INDEX_BASE=" + base] if base else [],
                # as in tests/THC/defs.bzl: a false positive of GCC 12 inside Boost.Test
                copts = ["-Wall", "-Wno-unknown-pragmas", "-Wno-uninitialized", "-Wno-maybe-uninitialized"],
                tags = ["gpu"],
                size = "medium",
            )
