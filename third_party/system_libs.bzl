"""System libraries from Debian packages, brought in as local repositories."""

_OPENBLAS_BUILD = """
cc_library(
    name = "openblas",
    hdrs = glob(["include/*.h"]),
    includes = ["include"],
    # the SONAME file, so the binaries' runpath finds this build, not the system default
    srcs = ["lib/libopenblas.so.0"],
    visibility = ["//visibility:public"],
)
"""

_SLEEF_BUILD = """
cc_library(
    name = "sleef",
    hdrs = ["include/sleef.h"],
    includes = ["include"],
    srcs = ["lib/libsleef.so.3"],
    visibility = ["//visibility:public"],
)
"""

_DNNL_BUILD = """
cc_library(
    name = "dnnl",
    hdrs = glob(["include/oneapi/dnnl/*.h", "include/oneapi/dnnl/*.hpp"]),
    includes = ["include"],
    srcs = ["lib/libdnnl.so.2"],
    visibility = ["//visibility:public"],
)
"""

_GLOO_BUILD = """
cc_library(
    name = "gloo",
    hdrs = glob(["include/gloo/**/*.h"]),
    includes = ["include"],
    srcs = ["lib/libgloo.so.0"],
    visibility = ["//visibility:public"],
)
"""

_MPI_BUILD = """
cc_library(
    name = "mpi",
    hdrs = glob(["include/*.h"]),
    includes = ["include"],
    srcs = ["lib/libmpi.so.40"],
    visibility = ["//visibility:public"],
)
"""

_BOOST_TEST_BUILD = """
cc_library(
    name = "boost_test",
    srcs = ["lib/libboost_unit_test_framework.a"],
    visibility = ["//visibility:public"],
)
"""

def _symlink_repo_impl(ctx):
    for dest, src in ctx.attr.links.items():
        if not ctx.path(src).exists:
            fail("%s is missing: install the Debian package %s (the README's commands do)" % (src, ctx.attr.package))
        ctx.symlink(src, dest)
    ctx.file("BUILD", ctx.attr.build_file_content)
    ctx.file("WORKSPACE", "workspace(name = \"%s\")\n" % ctx.name)

symlink_repo = repository_rule(
    implementation = _symlink_repo_impl,
    attrs = {
        "links": attr.string_dict(),
        "build_file_content": attr.string(),
        "package": attr.string(),
    },
    local = True,
)

_POCKETFFT_BUILD = """
cc_library(
    name = "pocketfft",
    hdrs = ["include/pocketfft_hdronly.h"],
    includes = ["include"],
    visibility = ["//visibility:public"],
)

exports_files(["LICENSE.md"])
"""

def _pocketfft_repo_impl(ctx):
    # scripts/setup.sh extracts the header from numpy's sdist into this folder (scripts/env.sh)
    folder = ctx.os.environ.get("TORCH_MONOREPO_POCKETFFT") or (ctx.os.environ["HOME"] + "/.cache/torch-monorepo-pocketfft")
    header = ctx.path(folder + "/pocketfft_hdronly.h")
    if not header.exists:
        fail("%s is missing: run scripts/setup.sh" % header)
    ctx.symlink(header, "include/pocketfft_hdronly.h")
    ctx.symlink(folder + "/LICENSE.md", "LICENSE.md")
    ctx.file("BUILD", _POCKETFFT_BUILD)
    ctx.file("WORKSPACE", "workspace(name = \"%s\")\n" % ctx.name)

pocketfft_repo = repository_rule(
    implementation = _pocketfft_repo_impl,
    environ = ["TORCH_MONOREPO_POCKETFFT", "HOME"],
    local = True,
)

def system_libs():
    pocketfft_repo(name = "pocketfft")
    openblas_dir = "/usr/lib/x86_64-linux-gnu/openblas-openmp"
    openblas_inc = "/usr/include/x86_64-linux-gnu/openblas-openmp"
    symlink_repo(
        name = "openblas",
        # the OpenMP build shares TH's OpenMP threads instead of spinning its own
        package = "libopenblas-openmp-dev",
        links = {
            "lib/libopenblas.so.0": openblas_dir + "/libopenblas.so.0",
            "include/cblas.h": openblas_inc + "/cblas.h",
            "include/openblas_config.h": openblas_inc + "/openblas_config.h",
        },
        build_file_content = _OPENBLAS_BUILD,
    )
    symlink_repo(
        name = "sleef",
        # vectorised transcendental functions (Note [Vector kernels] in TH/THVector.h)
        package = "libsleef-dev",
        links = {
            "lib/libsleef.so.3": "/usr/lib/x86_64-linux-gnu/libsleef.so.3",
            "include/sleef.h": "/usr/include/x86_64-linux-gnu/sleef.h",
        },
        build_file_content = _SLEEF_BUILD,
    )
    symlink_repo(
        name = "dnnl",
        # oneDNN, for THNN's float convolutions; Debian builds it on OpenMP (libgomp), the runtime
        # TH's threads and OpenBLAS's use, so one thread count governs all three
        package = "libdnnl-dev",
        links = {
            "lib/libdnnl.so.2": "/usr/lib/x86_64-linux-gnu/libdnnl.so.2",
            "include/oneapi/dnnl": "/usr/include/oneapi/dnnl",
        },
        build_file_content = _DNNL_BUILD,
    )
    symlink_repo(
        name = "gloo",
        # torch.distributed's default engine (CPU collectives over TCP), as in PyTorch
        package = "libgloo-dev",
        links = {
            "lib/libgloo.so.0": "/usr/lib/libgloo.so.0",
            "include/gloo": "/usr/include/gloo",
        },
        build_file_content = _GLOO_BUILD,
    )
    symlink_repo(
        name = "mpi",
        # Open MPI, torch.distributed's backend for jobs that mpirun starts (torch._mpi)
        package = "libopenmpi-dev",
        links = {
            "lib/libmpi.so.40": "/usr/lib/x86_64-linux-gnu/libmpi.so.40",
            "include/mpi.h": "/usr/lib/x86_64-linux-gnu/openmpi/include/mpi.h",
            "include/mpi_portable_platform.h": "/usr/lib/x86_64-linux-gnu/openmpi/include/mpi_portable_platform.h",
            "include/mpi-ext.h": "/usr/lib/x86_64-linux-gnu/openmpi/include/mpi-ext.h",
        },
        build_file_content = _MPI_BUILD,
    )
    symlink_repo(
        name = "boost_test",
        package = "libboost-test-dev",
        links = {
            "lib/libboost_unit_test_framework.a": "/usr/lib/x86_64-linux-gnu/libboost_unit_test_framework.a",
        },
        build_file_content = _BOOST_TEST_BUILD,
    )
