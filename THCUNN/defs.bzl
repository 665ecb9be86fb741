"""THCUNN, THNN's kernels on the GPU, declared only where the CUDA toolkit is installed.

Like THNN, the kernels that take or return indices (class targets) live in indexed/<Name>.cu
and are built once per TH_INDEX_BASE as :indexed_<Name>_base0/_base1; :THCUNN holds the
others, and :THCUNN_base0/_base1 are the whole library for one base."""

load("@local_cuda//:defs.bzl", "CUDA_AVAILABLE")
load("//third_party:cuda.bzl", "cuda_library")

COPTS = ["-O3", "-fvisibility=hidden", "-Wall", "-Wno-unknown-pragmas"]

# what the .cu files include besides THCUNN.h: THC's and TH's headers, THNN's declarations
# and formulas (shared_with_thcunn), and THCUNN's own helpers and generic entry points
CU_DEPS = ["//TH:headers", "//THC:headers", "//THNN:shared_with_thcunn", ":internal_headers"]

def thcunn_library():
    if not CUDA_AVAILABLE:
        return
    native.filegroup(
        name = "internal_headers",
        srcs = native.glob(["*.cuh", "generic/*.cu"]),
    )
    cuda_library(
        name = "THCUNN",
        srcs = native.glob(["*.cu"]),
        hdrs = ["THCUNN.h", "Linear.h", "generic/MaxPooling.h", "generic/Linear.h"],
        cu_deps = CU_DEPS,
        copts = COPTS,
        deps = ["//THC:core", "//THC:blas"],  # blas: Linear's products
    )
    indexed = [src[len("indexed/"):-len(".cu")] for src in native.glob(["indexed/*.cu"])]
    for base in ["0", "1"]:
        for name in indexed:
            cuda_library(
                name = "indexed_%s_base%s" % (name, base),
                srcs = ["indexed/%s.cu" % name],
                hdrs = ["THCUNN.h", "Linear.h", "generic/MaxPooling.h", "generic/Linear.h"],
                cu_deps = CU_DEPS,
                copts = COPTS,
                local_defines = ["TH_INDEX_BASE=" + base],
                deps = ["//THC:core"],
            )
        native.cc_library(
            name = "THCUNN_base" + base,
            deps = [":THCUNN"] + [":indexed_%s_base%s" % (name, base) for name in indexed],
        )
