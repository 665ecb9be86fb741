"""Test targets for TH: one Boost.Test binary per test_*.cpp.

A test links only the parts of TH it exercises (DEPS below), so a suite builds while
other parts are being changed. test_index_*.cpp files exercise functions that take or
return indices and are built twice, as <name>_base0 and <name>_base1, with
TH_INDEX_BASE defined to match the library they link."""

# test name -> TH libraries; "{base}" is replaced by 0 or 1 for index tests.
DEPS = {
    "test_tensor": ["//TH:core"],
    "test_threads": ["//TH:reduce"],
    "test_alloc": ["//TH:core"],
    "test_math": ["//TH:math"],
    "test_reduce": ["//TH:reduce"],
    "test_vector": ["//TH:math", "//TH:reduce"],
    "test_blas": ["//TH:blas"],
    "test_blas_core": ["//TH:blas"],
    "test_lapack": ["//TH:blas"],
    "test_random": ["//TH:random"],
    "test_index_select": ["//TH:indexed_THTensorIndex_base{base}"],
    "test_index_sort": ["//TH:indexed_THTensorSort_base{base}"],
    "test_index_random": ["//TH:indexed_THTensorRandomIndex_base{base}", "//TH:random"],
}

COPTS = ["-Wall", "-Wno-unknown-pragmas"]

def th_tests():
    for src in native.glob(["test_*.cpp"]):
        name = src[:-len(".cpp")]
        deps = DEPS.get(name, ["//TH:TH_base{base}"])
        if "//TH:core" not in deps:
            deps = deps + ["//TH:core"]
        bases = ["0", "1"] if name.startswith("test_index_") else ["0"]
        for base in bases:
            native.cc_test(
                name = name + ("_base" + base if len(bases) > 1 else ""),
                srcs = [src] + native.glob(["*.hpp"]),
                deps = [d.replace("{base}", base) for d in deps] + ["//tests/common:fixtures", "@boost_test"],
                local_defines = ["TH_INDEX_BASE=" + base],
                copts = COPTS,
                size = "small",
            )
