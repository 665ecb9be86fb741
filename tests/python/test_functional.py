"""Differential test of torch/functional.py (dtype rules, tests of values, element-wise maths,
nan-aware reductions, shape helpers): every case of functional_cases.py gives the same
values, gradients, dtypes and exception types here as under real PyTorch 1.13
(Debian's python3-torch, run by /usr/bin/python3)."""

import os

import numpy as np
import pytest

import case_runner
import functional_cases
import torch
from real_pytorch import assert_same_case
from real_pytorch import real_results as run_real

HERE = os.path.dirname(os.path.abspath(__file__))


@pytest.fixture(scope="module")
def real_results(tmp_path_factory):
    return run_real("functional_cases.py", tmp_path_factory.mktemp("functional_cases"))


def _tolerance(a, b):
    # compositions round differently from PyTorch's fused kernels by a few units in the last place
    kinds = {a.dtype, b.dtype}
    if np.dtype(np.float16) in kinds:
        return 2e-3, 1e-3
    if np.dtype(np.float32) in kinds:
        return 2e-5, 1e-6
    return 1e-11, 1e-13


@pytest.mark.parametrize("name", sorted(functional_cases.CASES))
def test_same_as_pytorch_1_13(name, real_results):
    assert_same_case(name, case_runner.run_case(functional_cases.CASES, torch, name), real_results, _tolerance)


def test_every_case_runs_under_real_pytorch(real_results):
    """A case that real PyTorch cannot run compares nothing: each must give results there."""
    failed = {k: str(v) for k, v in real_results.items() if k.endswith("::failed")}
    assert not failed
    assert {k.split("::")[0] for k in real_results} == set(functional_cases.CASES)


def test_names_are_public():
    from torch import functional

    for name in functional.__all__:
        assert getattr(torch, name) is getattr(functional, name), name


def test_aminmax_is_differentiable():
    """PyTorch 1.13 raises for aminmax of a tensor that records gradients; here it has amin's
    and amax's gradients (compared with real PyTorch's in the aminmax_values case)."""
    x = torch.tensor([[1.0, 3.0, 3.0], [2.0, 0.0, 0.0]], requires_grad=True)
    lo, hi = torch.aminmax(x, dim=1)
    (lo.sum() + 2 * hi.sum()).backward()
    np.testing.assert_allclose(x.grad.numpy(), [[1.0, 1.0, 1.0], [2.0, 0.5, 0.5]])


def test_sgn_gradient_is_zero():
    """torch.sgn of real numbers is piecewise constant: PyTorch 1.13's backward for it returns
    uninitialised memory, so the differential cases compare its values only."""
    x = torch.tensor([-2.0, 0.0, 3.0, float("nan")], requires_grad=True)
    torch.sgn(x).sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), [0.0, 0.0, 0.0, 0.0])


def test_vander_gradient():
    """PyTorch 1.13's vander cannot be differentiated (an in-place cumprod in its graph);
    here the gradient is k * x ** (k - 1) per column, checked against finite differences."""
    x = torch.tensor([0.0, 1.5, -2.0, 0.5], dtype=torch.float64, requires_grad=True)
    assert torch.autograd.gradcheck(lambda v: torch.vander(v, 4), (x,))
    assert torch.autograd.gradcheck(lambda v: torch.vander(v, 3, increasing=True), (x,))


def test_failed_in_place_calls_leave_self_alone():
    x = torch.tensor([1, 2, 3])
    for call in [lambda: x.deg2rad_(), lambda: x.xlogy_(torch.ones(2, 3)), lambda: x.clamp_min_(0.5)]:
        with pytest.raises(RuntimeError):
            call()
        np.testing.assert_array_equal(x.numpy(), [1, 2, 3])
