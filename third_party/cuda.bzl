"""cuda_library: a cc_library whose .cu sources are compiled by nvcc.

Each .cu file becomes one position-independent object through a genrule (Bazel 4.2.3's
C++ rules know no CUDA); the objects, the .cpp sources and cudart go into one cc_library,
so C++ code depends on it as on any other. Device code is built for the GPUs named in
CUDA_GENCODE: machine code for sm_80 (A100) and sm_90 (H100, H200), and sm_90's PTX so
that later GPUs can JIT it."""

load("@local_cuda//:defs.bzl", "CUDA_AVAILABLE", "CUDA_ROOT")

CUDA_GENCODE = [
    "arch=compute_80,code=sm_80",
    "arch=compute_90,code=[sm_90,compute_90]",
]

NVCC_FLAGS = [
    "-std=c++17",
    # nvcc's -O is the host compiler's alone (cicc and ptxas optimise device code fully
    # whatever it says). The host side of a .cu file is argument checks and kernel launches,
    # a few per op, plus a stub per kernel; g++ -O3 on thousands of them was a third of
    # THC's compile time, -O1 halves that.
    "-O1",
    "-ccbin=/usr/bin/g++",
    "-Xcompiler=-fPIC,-fvisibility=hidden,-Wall,-Wno-unknown-pragmas",
    "--expt-relaxed-constexpr",
    "-Werror=all-warnings",
    # "pointless comparison of unsigned integer with zero": the scalar math shared with TH
    # (TH/THScalarMath.hpp) is written once for signed and unsigned types, as g++ accepts
    "-diag-suppress=186",
    "-I.",
]

def _nvcc(gencode, defines, src):
    return "%s/bin/nvcc %s %s %s -c $(location %s) -o $@" % (
        CUDA_ROOT,
        " ".join(NVCC_FLAGS),
        " ".join(["-gencode=" + g for g in gencode]),
        defines,
        src,
    )

def cuda_library(name, srcs, hdrs = [], cu_deps = [], deps = [], local_defines = [], copts = [], **kwargs):
    """srcs: .cu and .cpp files; cu_deps: labels of the headers the .cu files include."""
    objects = []
    for src in srcs:
        if not src.endswith(".cu"):
            continue
        # compiled -fPIC, so that static and shared links can both use it
        base = "_objs/%s/%s" % (name, src[:-len(".cu")])
        defines = " ".join(["-D" + d for d in local_defines])
        native.genrule(
            name = "%s_%s_nvcc" % (name, src.replace("/", "_")[:-len(".cu")]),
            srcs = [src] + hdrs + cu_deps,
            outs = [base + ".o"],
            cmd = select({
                "//third_party:cuda_sm90_only": _nvcc(["arch=compute_90,code=sm_90"], defines, src),
                "//conditions:default": _nvcc(CUDA_GENCODE, defines, src),
            }),
            message = "nvcc %s" % src,
        )
        objects.append(base + ".o")
    native.cc_library(
        name = name,
        srcs = objects + [s for s in srcs if not s.endswith(".cu")],
        hdrs = hdrs,
        deps = deps + ["@local_cuda//:cudart"],
        local_defines = local_defines,
        copts = copts,
        **kwargs
    )

def cuda_binary(name, srcs, deps = [], **kwargs):
    """A cc_binary from .cu/.cpp sources; declared only where the CUDA toolkit is installed."""
    if not CUDA_AVAILABLE:
        return
    cuda_library(name = name + "_lib", srcs = srcs, deps = deps, cu_deps = ["//TH:headers", "//THC:headers"])
    native.cc_binary(name = name, deps = [":" + name + "_lib"], **kwargs)
