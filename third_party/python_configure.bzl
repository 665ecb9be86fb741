"""Finds Python, numpy and pybind11 headers by asking the `python3` on PATH (a venv works)."""

_QUERY = """
import sysconfig, sys
print(sysconfig.get_paths()["include"])
try:
    import numpy
    print(numpy.get_include())
except ImportError:
    print("")
try:
    import pybind11
    print(pybind11.get_include())
except ImportError:
    print("")
print(sysconfig.get_config_var("EXT_SUFFIX") or ".so")
"""

def _python_configure_impl(ctx):
    python = ctx.os.environ.get("PYTHON_BIN_PATH", "") or ctx.which("python3")
    if not python:
        fail("python3 was not found on PATH")
    result = ctx.execute([python, "-c", _QUERY])
    if result.return_code != 0:
        fail("python3 failed: " + result.stderr)
    py_inc, np_inc, pb_inc, ext_suffix = (result.stdout.strip("\n").split("\n") + ["", "", "", ""])[:4]
    ctx.symlink(py_inc, "python_include")
    build = """
cc_library(
    name = "python_headers",
    hdrs = glob(["python_include/**/*.h"]),
    includes = ["python_include"],
    visibility = ["//visibility:public"],
)
"""
    if np_inc:
        ctx.symlink(np_inc, "numpy_include")
        build += """
cc_library(
    name = "numpy_headers",
    hdrs = glob(["numpy_include/**/*.h"]),
    includes = ["numpy_include"],
    visibility = ["//visibility:public"],
)
"""
    if pb_inc:
        ctx.symlink(pb_inc, "pybind11_include")
        build += """
cc_library(
    name = "pybind11",
    hdrs = glob(["pybind11_include/**/*.h"]),
    includes = ["pybind11_include"],
    deps = [":python_headers"],
    visibility = ["//visibility:public"],
)
"""
    ctx.file("BUILD", build)
    ctx.file("defs.bzl", "PYTHON_BIN = %r\nEXT_SUFFIX = %r\n" % (python, ext_suffix))
    ctx.file("WORKSPACE", "workspace(name = \"local_python\")\n")

python_configure = repository_rule(
    implementation = _python_configure_impl,
    environ = ["PYTHON_BIN_PATH", "PATH"],
    local = True,
)
