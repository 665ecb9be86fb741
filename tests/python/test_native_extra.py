"""segment_reduce, batch_norm_update_stats and the other functions of native_extra_cases.py:
the same values, gradients and exceptions as real PyTorch 1.13."""

import os

import numpy as np

import native_extra_cases
from real_pytorch import same_as_pytorch_1_13

HERE = os.path.dirname(os.path.abspath(__file__))
TOLERANCES = {np.float32: (1e-5, 1e-6), np.float64: (1e-12, 1e-12)}


real_results, test_same_as_pytorch_1_13 = same_as_pytorch_1_13(
    "native_extra_cases.py", native_extra_cases.CASES, lambda name, got, want: TOLERANCES[want.dtype.type]
)
