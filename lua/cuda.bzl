"""`require 'cutorch'`'s C side, declared only where the CUDA toolkit is installed (@local_cuda):
a shared object of its own, cutorch/cimpl.so beside `th`, that lua/cutorch/init.lua loads on
first use (../shared/DESIGN.md: THC lands in its own shared object, loaded on first use)."""

load("@local_cuda//:defs.bzl", "CUDA_AVAILABLE")

def cutorch_module(luajit_copts):
    if not CUDA_AVAILABLE:
        return
    native.cc_library(
        name = "cutorch_cimpl",
        srcs = ["csrc/cuda/Cutorch.cpp"],
        textual_hdrs = ["csrc/cuda/generic/CudaTensor.cpp"],
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
        ],
        alwayslink = True,
    )

    # LuaJIT's and TH's symbols come from the program that loads it (`th` exports them).
    native.cc_binary(
        name = "cutorch/cimpl.so",
        linkshared = True,
        deps = [":cutorch_cimpl"],
    )
