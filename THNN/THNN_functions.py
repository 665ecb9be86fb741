"""Writes the list of THNN's kernels, read off THNN's headers, that both bindings wrap (the
Lua one, lua/csrc/THNN.cpp, and the Python one, python/csrc/THNN.cpp): one line

    THNN_FUNCTION(name, nullable, "param, param, ...")

per kernel, in name order. nullable is the bit mask of the arguments (bit i: argument i,
counted from 0 without the state) that a binding may pass as NULL (nil in Lua, None in
Python), i.e. the tensor parameters THNN's headers document as optional; any other tensor
argument must be a tensor: a kernel handed NULL where it does not expect it would crash.
The parameter names (without the state) serve the bindings' error messages and docstrings.
A binding deduces each argument's C type from the kernel's own declaration, so this list is
the only thing the bindings keep.

usage: THNN_functions.py OUT HEADER...
"""

import fnmatch
import re
import sys

# (kernel pattern, parameter names) that THNN's headers document as "may be NULL" / [OPTIONAL]
NULLABLE = [
    ("Linear_updateOutput", {"bias"}),
    ("Linear_updateGradInput", {"gradInput"}),
    ("Linear_accGradParameters", {"gradInput", "bias", "gradBias"}),
    ("Bilinear_*", {"bias", "gradBias", "gradInput1", "gradInput2"}),
    ("BatchNormalization_*", {"weight", "bias", "running_mean", "running_var", "gradInput", "gradWeight", "gradBias"}),
    ("PReLU_accGradParameters", {"gradInput"}),
    ("*Criterion_updateGradInput", {"gradOutput"}),
    ("L1Cost_updateGradInput", {"gradOutput"}),
    ("*Criterion_*", {"weights"}),
    ("LookupTable_accGradParameters", {"sorted", "indices"}),
    ("SpatialConvolutionMM_*", {"bias", "gradBias"}),
    ("SpatialDilatedConvolution_*", {"bias", "gradBias", "ones"}),
    ("SpatialFullConvolution_*", {"bias", "gradBias", "ones"}),
    ("SpatialFullDilatedConvolution_*", {"bias", "gradBias", "ones"}),
    ("VolumetricConvolutionMM_*", {"bias", "gradBias"}),
    ("VolumetricFullConvolution_*", {"bias", "gradBias"}),
    ("VolumetricDilatedConvolution_*", {"bias", "gradBias"}),
    ("VolumetricFullDilatedConvolution_*", {"bias", "gradBias"}),
]

DECLARATION = re.compile(r"THNN_\((\w+)\)\s*\((.*?)\)\s*;", re.S)


def main():
    out, headers = sys.argv[1], sys.argv[2:]
    kernels = {}
    for path in headers:
        with open(path) as f:
            for name, params in DECLARATION.findall(f.read()):
                names = [p.split()[-1].lstrip("*") for p in params.split(",")][1:]  # without the state
                optional = set()
                for pattern, allowed in NULLABLE:
                    if fnmatch.fnmatchcase(name, pattern):
                        optional |= allowed
                kernels[name] = (sum(1 << i for i, n in enumerate(names) if n in optional), names)
    with open(out, "w") as f:
        for name in sorted(kernels):
            nullable, names = kernels[name]
            f.write('THNN_FUNCTION(%s, %du, "%s")\n' % (name, nullable, ", ".join(names)))


if __name__ == "__main__":
    main()
