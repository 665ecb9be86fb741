"""`require 'cutorch'`'s C side, declared only where the CUDA toolkit is installed (@local_cuda):
a shared object of its own, cutorch/cimpl.so beside `th`, that lua/cutorch/init.lua loads on
first use (../shared/DESIGN.md: THC lands in its own shared object, loaded on first use)."""

load("@local_cuda//:defs.bzl", "CUDA_AVAILABLE")

def cutorch_module(luajit_copts):
    if not CUDA_AVAILABLE:
        return
    # THCUNN's kernels as THNN_functions.py reads them off the headers THCUNN declares them with,
    # as the preprocessor leaves them for the GPU (THNN_ON_GPU drops the CPU-only kernels)
    native.genrule(
        name = "thcunn_functions",
        srcs = [
            "//THNN:generic/ElementWise.h",
            "//THNN:generic/SoftMax.h",
            "//THNN:generic/Criterion.h",
            "//THCUNN:generic/MaxPooling.h",
            "//THCUNN:generic/Linear.h",
        ],
        outs = ["THCUNN_functions.inc"],
        cmd = ("t=$$(mktemp -d) && for h in $(SRCS); do " +
               "cpp -P -undef -DTH_GENERIC_FILE -DTHC_GENERIC_FILE -DTHNN_ON_GPU $$h >$$t/$$(basename $$h) || exit 1; " +
               "done && python3 $(location //THNN:THNN_functions.py) $@ $$t/*.h && rm -rf $$t"),
        tools = ["//THNN:THNN_functions.py"],
    )
    native.cc_library(
        name = "cutorch_cimpl",
        srcs = ["csrc/cuda/Cutorch.cpp", "csrc/cuda/THCUNN.cpp"],
        textual_hdrs = ["csrc/cuda/generic/CudaTensor.cpp", "csrc/cuda/generic/THCUNN.cpp", ":thcunn_functions"],
        copts = luajit_copts + ["-O2", "-Wall", "-Wno-unknown-pragmas"],
        deps = [
            ":common",
            "//THC:core",
            "//THC:math",
            "//THC:blas",
            "//THC:reduce",
            "//THC:random",
            "//THC:indexed_THCTensorIndex_base1",
            "//THC:indexed_THCTensorSort_base1",
            "//THC:indexed_THCTensorRandomIndex_base1",
            "//THCUNN:THCUNN_base1",
            "//THNN:headers",
        ],
        alwayslink = True,
    )

    # LuaJIT's and TH's symbols come from the program that loads it (`th` exports them).
    native.cc_binary(
        name = "cutorch/cimpl.so",
        linkshared = True,
        deps = [":cutorch_cimpl"],
    )
