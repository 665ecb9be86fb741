"""THCUNN, THNN's kernels on the GPU, declared only where the CUDA toolkit is installed."""

load("@local_cuda//:defs.bzl", "CUDA_AVAILABLE")
load("//third_party:cuda.bzl", "cuda_library")

def thcunn_library():
    if not CUDA_AVAILABLE:
        return
    cuda_library(
        name = "THCUNN",
        srcs = native.glob(["*.cu"]),
        hdrs = ["THCUNN.h"],
        cu_deps = ["//TH:headers", "//THC:headers", "//THNN:shared_with_thcunn"],
        copts = ["-O3", "-fvisibility=hidden", "-Wall", "-Wno-unknown-pragmas"],
        deps = ["//THC:core"],
    )
