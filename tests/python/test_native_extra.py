"""segment_reduce, batch_norm_update_stats and the other functions of native_extra_cases.py:
the same values, gradients and exceptions as real PyTorch 1.13."""

import os

import numpy as np
import pytest

import case_runner
import native_extra_cases
import torch
from real_pytorch import assert_same_case
from real_pytorch import real_results as run_real

HERE = os.path.dirname(os.path.abspath(__file__))
TOLERANCES = {np.float32: (1e-5, 1e-6), np.float64: (1e-12, 1e-12)}


@pytest.fixture(scope="module")
def real_results(tmp_path_factory):
    return run_real("native_extra_cases.py", tmp_path_factory.mktemp("native_extra_cases"))


@pytest.mark.parametrize("name", sorted(native_extra_cases.CASES))
def test_same_as_pytorch_1_13(name, real_results):
    assert_same_case(
        name,
        case_runner.run_case(native_extra_cases.CASES, torch, name),
        real_results,
        lambda got, want: TOLERANCES[want.dtype.type],
    )
