"""THC's libraries, declared only where the CUDA toolkit is installed (@local_cuda).

Like TH, THC is built in groups so that a suite builds while another part changes:
core (state, allocators, storages, tensors, copies, fill), math (element-wise ops),
blas (cuBLAS), lapack (cuSOLVER), reduce, random, and the index-taking groups, built once per TH_INDEX_BASE."""

load("@local_cuda//:defs.bzl", "CUDA_AVAILABLE")
load("//third_party:cuda.bzl", "cuda_library")

COPTS = ["-O3", "-fvisibility=hidden", "-Wall", "-Wno-unknown-pragmas"]

# group -> sources; every group but core depends on core.
GROUPS = {
    "math": ["THCTensorMath*.cu"],
    "blas": ["THCBlas*.cpp", "THCTensorMathBlas*.cpp", "THCTensorMathBlas*.cu"],
    # cuSOLVER apart: a 140 MB library that a machine may lack while it has cuBLAS
    "lapack": ["THCTensorLapack*.cpp"],
    "reduce": ["THCTensorReduce*.cu"],
    "random": ["THCTensorRandom*.cu"],
}

# indexed/<Name>.cu: built as :indexed_<Name>_base0 and _base1.
def thc_libraries():
    # plain C++ that THC's kernels launch through, tested without a GPU (tests/THC/test_pieces.cpp)
    native.cc_library(
        name = "pieces",
        hdrs = ["THCPieces.hpp"],
    )
    if not CUDA_AVAILABLE:
        return
    # what nvcc compiles against; THCLazyLibrary.h, THCIpc.h and THCDeviceGuard.h are for host code only (and
    # left out, so that changing them recompiles no kernel)
    native.filegroup(
        name = "headers",
        srcs = native.glob(["*.h", "*.hpp", "*.cuh", "generic/*"], exclude = ["THCLazyLibrary.h", "THCIpc.h", "THCDeviceGuard.h"]),
    )
    hdrs = native.glob(["*.h", "*.hpp", "*.cuh"])
    cuda_library(
        name = "core",
        srcs = [
            "THCGeneral.cpp",
            "THCLazyLibrary.cpp",
            "THCCachingAllocator.cpp",
            "THCCachingHostAllocator.cpp",
            "THCStorage.cpp",
            "THCTensor.cpp",
            "THCTensorCopy.cu",
        ],
        hdrs = hdrs,
        textual_hdrs = native.glob(["generic/*"]),
        cu_deps = [":headers", "//TH:headers"],
        copts = COPTS,
        # cuBLAS and cuSOLVER are opened on first use, not linked (THCLazyLibrary.h)
        linkopts = ["-ldl"],
        deps = ["//TH:core", "@local_cuda//:headers"],
    )
    for group, patterns in GROUPS.items():
        srcs = native.glob(patterns)
        if not srcs:
            continue
        cuda_library(
            name = group,
            srcs = srcs,
            cu_deps = [":headers", "//TH:headers"],
            copts = COPTS,
            deps = [":core"] + {
                "lapack": [":blas"],
            }.get(group, []),
        )
    for src in native.glob(["indexed/*.cu"]):
        name = src[len("indexed/"):-len(".cu")]
        for base in ["0", "1"]:
            cuda_library(
                name = "indexed_%s_base%s" % (name, base),
                srcs = [src],
                cu_deps = [":headers", "//TH:headers"],
                copts = COPTS,
                local_defines = ["TH_INDEX_BASE=" + base],
                deps = [":core"],
            )
