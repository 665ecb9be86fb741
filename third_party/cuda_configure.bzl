"""The CUDA toolkit as a local repository, @local_cuda.

Where /usr/local/cuda/bin/nvcc exists, @local_cuda//:defs.bzl says CUDA_AVAILABLE = True and
the repository's BUILD gives the toolkit's headers and libraries: cudart, cublas, cusolver, cudnn, all shared
(scripts/device_check.sh carries cudart to a machine that has only the driver and cuBLAS). Elsewhere
CUDA_AVAILABLE is False and the GPU targets are not declared, so a machine without the toolkit
builds and tests the CPU stack."""

_BUILD = """
package(default_visibility = ["//visibility:public"])

cc_library(
    name = "headers",
    hdrs = glob(["include/**/*.h", "include/**/*.hpp", "include/**/*.cuh", "include/**/*.inl"]),
    includes = ["include"],
)

cc_library(
    name = "cudart",
    # shared: every library of the project that launches kernels needs the runtime's launch
    # entry points (__cudaPushCallConfiguration, ...), which a static runtime linked into the
    # binary would not export to them
    srcs = ["lib/libcudart.so.13"],
    deps = [":headers"],
)

# Dynamic, as the GPU machine has its own; the SONAME file so the runpath finds it.
cc_library(
    name = "cublas",
    srcs = ["lib/libcublas.so.13", "lib/libcublasLt.so.13"],
    deps = [":headers"],
)

# cuDNN's loader (it opens its own sub-libraries as they are needed, so linking it is cheap)
cc_library(
    name = "cudnn",
    srcs = ["lib/libcudnn.so.9"],
    deps = [":headers"],
)

cc_library(
    name = "cusolver",
    srcs = ["lib/libcusolver.so.12"],
    deps = [":headers"],
)

filegroup(
    name = "nvcc",
    srcs = ["bin/nvcc"],
)
"""

def _local_cuda_impl(ctx):
    root = ctx.os.environ.get("CUDA_HOME", "/usr/local/cuda")
    nvcc = ctx.path(root + "/bin/nvcc")
    available = nvcc.exists
    if available:
        ctx.symlink(root + "/include", "include")
        ctx.symlink(root + "/bin", "bin")
        ctx.symlink(root + "/lib64", "lib")
        ctx.file("BUILD", _BUILD)
    else:
        ctx.file("BUILD", "")
    ctx.file("defs.bzl", "CUDA_AVAILABLE = %s\nCUDA_ROOT = \"%s\"\n" % (available, root))
    ctx.file("WORKSPACE", "workspace(name = \"local_cuda\")\n")

local_cuda = repository_rule(
    implementation = _local_cuda_impl,
    environ = ["CUDA_HOME"],
    local = True,
)
