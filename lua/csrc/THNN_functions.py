"""Writes the list of THNN kernels the Lua binding wraps (csrc/THNN.cpp), read off THNN's
headers: one line LT_THNN_FN(name, nullable) per kernel, nullable being the bit mask of the
Lua arguments (bit i: argument i + 1, the state not counted) that may be nil, i.e. the tensor
parameters THNN's headers document as optional. Any other tensor argument must be a tensor:
a kernel handed NULL where it does not expect it would crash.

usage: THNN_functions.py OUT HEADER...
"""

import fnmatch
import re
import sys

# (kernel pattern, parameter names) that THNN/THNN.h documents as "may be NULL" / [OPTIONAL]
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
                kernels[name] = sum(1 << i for i, n in enumerate(names) if n in optional)
    with open(out, "w") as f:
        for name in sorted(kernels):
            f.write("LT_THNN_FN(%s, %du)\n" % (name, kernels[name]))


if __name__ == "__main__":
    main()
