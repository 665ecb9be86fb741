"""torch.autograd.forward_ad (forward_ad_cases.py): the tangents of pointwise, product,
reduction, view and nn.functional results equal real PyTorch 1.13's forward-mode ones, and the
levels and misuse behave as 1.13's; tangents also equal a central finite difference."""

import os

import numpy as np
import pytest

import forward_ad_cases
import torch
from real_pytorch import same_as_pytorch_1_13
import torch.autograd.forward_ad as fwAD

HERE = os.path.dirname(os.path.abspath(__file__))
# the tangents are sums of products in another order than PyTorch's
TOLERANCES = {np.float32: (1e-4, 1e-5), np.float64: (1e-10, 1e-12)}


real_results, test_same_as_pytorch_1_13 = same_as_pytorch_1_13(
    "forward_ad_cases.py", forward_ad_cases.CASES, lambda name, got, want: TOLERANCES[want.dtype.type]
)


@pytest.mark.parametrize(
    "name", ["sin_exp", "matmul", "linear", "conv2d", "activations", "cross_entropy", "layer_norm"]
)
def test_tangent_is_a_directional_derivative(name):
    """J t against (f(x + h t) - f(x - h t)) / 2h in double."""
    fn, shapes = forward_ad_cases.FUNCTIONS[name]
    rng = np.random.default_rng(7)
    xs = [torch.from_numpy(rng.standard_normal(forward_ad_cases._shape(s))) for s in shapes]
    ts = [torch.from_numpy(rng.standard_normal(forward_ad_cases._shape(s))) for s in shapes]
    with fwAD.dual_level():
        _, tangent = fwAD.unpack_dual(fn(torch, *[fwAD.make_dual(x, t) for x, t in zip(xs, ts)]))
    h = 1e-6
    with torch.no_grad():
        plus = fn(torch, *[x + h * t for x, t in zip(xs, ts)])
        minus = fn(torch, *[x - h * t for x, t in zip(xs, ts)])
    np.testing.assert_allclose(tangent.numpy(), ((plus - minus) / (2 * h)).numpy(), rtol=1e-5, atol=1e-6)


def test_dual_of_a_tensor_that_requires_grad_keeps_its_reverse_graph():
    """Reverse mode still reaches the primal through a dual made of it."""
    p = torch.randn(4, dtype=torch.float64, requires_grad=True)
    with fwAD.dual_level():
        d = fwAD.make_dual(p, torch.ones(4, dtype=torch.float64))
        y = (d * d).sum()
        _, tangent = fwAD.unpack_dual(y)
        y.backward()
    np.testing.assert_allclose(tangent.item(), (2 * p.detach()).sum().item())
    np.testing.assert_allclose(p.grad.numpy(), (2 * p.detach()).numpy())


def test_dual_level_as_decorator():
    @fwAD.dual_level()
    def f(x, t):
        return fwAD.unpack_dual(fwAD.make_dual(x, t).exp()).tangent

    x, t = torch.randn(3, dtype=torch.float64), torch.randn(3, dtype=torch.float64)
    np.testing.assert_allclose(f(x, t).numpy(), (x.exp() * t).numpy())
    assert fwAD._current_level == -1


@pytest.mark.parametrize("name", ["activations", "linear", "conv2d", "cross_entropy", "views"])
def test_functional_jvp_equals_forward_ad(name):
    """torch.autograd.functional.jvp gives the tangents forward_ad gives (the NN ops' parts
    included: their backwards record no graph for the double-backward trick)."""
    fn, shapes = forward_ad_cases.FUNCTIONS[name]
    rng = np.random.default_rng(3)
    xs = tuple(torch.from_numpy(rng.standard_normal(forward_ad_cases._shape(s))) for s in shapes)
    ts = tuple(torch.from_numpy(rng.standard_normal(forward_ad_cases._shape(s))) for s in shapes)
    _, jvp = torch.autograd.functional.jvp(lambda *a: fn(torch, *a), xs, ts)
    with fwAD.dual_level():
        _, tangent = fwAD.unpack_dual(fn(torch, *[fwAD.make_dual(x, t) for x, t in zip(xs, ts)]))
    np.testing.assert_allclose(jvp.numpy(), tangent.numpy(), rtol=1e-12, atol=1e-12)
