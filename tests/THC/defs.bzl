"""THC's test targets: one Boost.Test binary per test_*.cpp.

The suites of CPU_TESTS check THC's plain C++ and run everywhere. The others are declared
where the CUDA toolkit is installed and tagged "gpu": the CPU test run (scripts/test.sh)
builds them and leaves them out of its count, scripts/device_check.sh runs them on the GPU
machine. A suite links only the THC groups it exercises (DEPS); test_index_*.cpp are built
per TH_INDEX_BASE."""

load("@local_cuda//:defs.bzl", "CUDA_AVAILABLE")

DEPS = {
    "test_allocator": ["//THC:core"],
    "test_tensor": ["//THC:core"],
    "test_math": ["//THC:math", "//TH:math"],
    "test_blas": ["//THC:blas", "//TH:blas"],
    "test_reduce": ["//THC:reduce", "//TH:reduce"],
    "test_lapack": ["//THC:lapack", "//TH:blas"],
    "test_random": ["//THC:random", "//TH:random"],
    "test_index_random": ["//THC:indexed_THCTensorRandomIndex_base{base}", "//THC:random", "//TH:indexed_THTensorRandomIndex_base{base}", "//TH:random"],
    "test_index_select": ["//THC:indexed_THCTensorIndex_base{base}", "//TH:indexed_THTensorIndex_base{base}"],
    "test_index_sort": ["//THC:indexed_THCTensorSort_base{base}", "//TH:indexed_THTensorSort_base{base}"],
}

# Suites that need no GPU (nor the CUDA toolkit): plain C++ of THC, run by the CPU test run.
CPU_TESTS = {
    "test_pieces": ["//THC:pieces"],
}

def thc_tests():
    for name, deps in CPU_TESTS.items():
        native.cc_test(
            name = name,
            srcs = [name + ".cpp"],
            deps = deps + ["@boost_test"],
            copts = ["-Wall", "-Wno-unknown-pragmas"],
            size = "small",
        )
    if not CUDA_AVAILABLE:
        return
    for src in native.glob(["test_*.cpp"], exclude = [name + ".cpp" for name in CPU_TESTS]):
        name = src[:-len(".cpp")]
        deps = DEPS.get(name, ["//THC:core"])
        bases = ["0", "1"] if name.startswith("test_index_") else ["0"]
        for base in bases:
            native.cc_test(
                name = name + ("_base" + base if len(bases) > 1 else ""),
                srcs = [src] + native.glob(["*.hpp"]),
                deps = depset([d.replace("{base}", base) for d in deps] + ["//THC:core", "//TH:core"]).to_list() + ["@boost_test"],
                local_defines = ["TH_INDEX_BASE=" + base],
                # GCC 12 sees Boost.Test's precondition decorator (thct::needsGPU) copy an
                # uninitialised buffer inside boost::function: a false positive
                copts = ["-Wall", "-Wno-unknown-pragmas", "-Wno-uninitialized", "-Wno-maybe-uninitialized"],
                tags = ["gpu"],
                size = "medium",
            )
