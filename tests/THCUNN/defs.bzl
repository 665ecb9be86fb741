"""THCUNN's test targets: each compares THCUNN's kernels with THNN's on the CPU. Tagged
"gpu" like THC's (tests/THC/defs.bzl): built by the CPU test run, run by
scripts/device_check.sh on the GPU machine."""

load("@local_cuda//:defs.bzl", "CUDA_AVAILABLE")

def thcunn_tests():
    if not CUDA_AVAILABLE:
        return
    for src in native.glob(["test_*.cpp"]):
        native.cc_test(
            name = src[:-len(".cpp")],
            srcs = [src, "//tests/THC:thc_test_util.hpp"],
            deps = ["//THCUNN", "//THNN:THNN_base1", "//THC:core", "//TH:core", "@boost_test"],
            # as in tests/THC/defs.bzl: a false positive of GCC 12 inside Boost.Test
            copts = ["-Wall", "-Wno-unknown-pragmas", "-Wno-uninitialized", "-Wno-maybe-uninitialized"],
            tags = ["gpu"],
            size = "medium",
        )
