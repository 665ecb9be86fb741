"""One Boost.Test binary per tests/THNN/test_*.cpp, linked with the THNN group it tests."""

# Suites that test more than their group: test_Activation covers the element-wise
# activations too (THNN/ElementWise.cpp, shared with THCUNN).
MORE_GROUPS = {"test_Activation": ["//THNN:ElementWise"]}

# Suites named for a part of a group rather than the group.
GROUP_OF = {"test_SpatialConvolutionDnnl": "SpatialConvolution"}

def thnn_tests():
    for src in native.glob(["test_*.cpp"]):
        name = src[:-len(".cpp")]
        if name.startswith("test_index_"):
            group = name[len("test_index_"):]
            for base in ["0", "1"]:
                native.cc_test(
                    name = name + "_base" + base,
                    srcs = [src, "thnn_test_util.hpp"],
                    deps = ["//THNN:indexed_" + group + "_base" + base, "//THNN:headers", "@boost_test"],
                    local_defines = ["TH_INDEX_BASE=" + base],
                    copts = ["-Wall", "-Wno-unknown-pragmas"],
                    size = "small",
                )
        else:
            group = GROUP_OF.get(name, name[len("test_"):])
            native.cc_test(
                name = name,
                srcs = [src, "thnn_test_util.hpp"],
                deps = ["//THNN:" + group, "//THNN:headers", "@boost_test"] + MORE_GROUPS.get(name, []),
                copts = ["-Wall", "-Wno-unknown-pragmas"],
                size = "small",
            )
