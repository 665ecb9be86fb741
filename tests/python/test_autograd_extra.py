"""torch.autograd.functional, anomaly detection, inference_mode, torch.utils.checkpoint,
torch.testing.assert_close, weight_norm, spectral_norm and parametrize: the cases of
autograd_extra_cases.py give the same values, gradients and messages here as under real
PyTorch 1.13; the rest are behaviours that random streams or tracebacks keep out of the
comparison."""

import warnings

import numpy as np
import pytest

import autograd_extra_cases
import torch
import torch.nn as nn
import torch.nn.functional as F
from real_pytorch import assert_case_matches, real_results


@pytest.fixture(scope="module")
def theirs(tmp_path_factory):
    return real_results("autograd_extra_cases.py", tmp_path_factory.mktemp("autograd_extra"))


@pytest.mark.filterwarnings("ignore::UserWarning")
@pytest.mark.parametrize("case", autograd_extra_cases.CASES, ids=lambda c: c.__name__)
def test_same_as_pytorch_1_13(case, theirs):
    assert_case_matches(case, case(torch, nn, F), theirs, rtol=1e-9, atol=1e-12)


def test_jacobian_matches_finite_differences():
    x = torch.tensor([0.3, -1.2, 0.7], dtype=torch.float64)

    def f(a):
        return torch.stack([a.prod(), (a.sin() * a.exp()).sum()])

    jac = torch.autograd.functional.jacobian(f, x)
    eps = 1e-6
    numeric = torch.stack([(f(x + eps * e) - f(x - eps * e)) / (2 * eps) for e in torch.eye(3, dtype=torch.float64)], 1)
    np.testing.assert_allclose(jac.numpy(), numeric.numpy(), rtol=1e-6, atol=1e-8)


class _Reciprocal(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return 1 / x

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return -grad / (x * x) * 0 * float("inf")


def _make_reciprocal(x):
    return _Reciprocal.apply(x)  # the forward line the anomaly warning must show


def test_anomaly_names_the_forward_call_of_a_custom_function():
    x = torch.tensor([2.0], requires_grad=True)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        with torch.autograd.detect_anomaly():
            y = _make_reciprocal(x)
            with pytest.raises(
                RuntimeError, match="Function '_ReciprocalBackward' returned nan values in its 0th output."
            ):
                y.sum().backward()
    messages = [str(w.message) for w in caught if "Error detected in" in str(w.message)]
    assert len(messages) == 1
    assert messages[0].startswith(
        "Error detected in _ReciprocalBackward. Traceback of forward call that caused the error:"
    )
    assert "_make_reciprocal" in messages[0] and "the forward line the anomaly warning must show" in messages[0]


def test_anomaly_off_by_default_and_restored():
    assert not torch.is_anomaly_enabled()
    torch.autograd.set_detect_anomaly(True)
    try:
        assert torch.is_anomaly_enabled() and torch.is_anomaly_check_nan_enabled()
    finally:
        torch.autograd.set_detect_anomaly(False)
    assert not torch.is_anomaly_enabled()


def test_checkpoint_recomputes_with_the_same_random_numbers():
    lin = nn.Linear(6, 6).double()
    x = torch.randn(4, 6, dtype=torch.float64, requires_grad=True)

    def block(a):
        return F.dropout(torch.tanh(lin(a)), 0.5, training=True)

    torch.manual_seed(3)
    plain = block(x)
    plain.sum().backward()
    expected = x.grad.clone()
    x.grad = None
    torch.manual_seed(3)
    out = torch.utils.checkpoint.checkpoint(block, x)
    np.testing.assert_array_equal(out.detach().numpy(), plain.detach().numpy())
    out.sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), expected.numpy())
    # Without preserve_rng_state the recomputation draws a new mask: other gradients.
    x.grad = None
    torch.manual_seed(3)
    torch.utils.checkpoint.checkpoint(block, x, preserve_rng_state=False).sum().backward()
    assert not np.array_equal(x.grad.numpy(), expected.numpy())


def test_checkpoint_keeps_no_graph_of_the_block():
    x = torch.randn(3, requires_grad=True)
    out = torch.utils.checkpoint.checkpoint(lambda a: a.exp().sin(), x)
    assert out.grad_fn.name() != "SinBackward0"
    assert [fn.name() for fn, _ in out.grad_fn.next_functions if fn is not None] == ["AccumulateGrad"]
    with pytest.raises(ValueError, match="Unexpected keyword arguments: scale"):
        torch.utils.checkpoint.checkpoint(lambda a, scale: a * scale, x, scale=2.0)
    out = torch.utils.checkpoint.checkpoint(lambda a, scale: a * scale, x, scale=2.0, use_reentrant=False)
    out.sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), [2.0, 2.0, 2.0])


def test_inference_mode_records_nothing():
    x = torch.ones(2, requires_grad=True)
    with torch.inference_mode():
        assert (x * 2).grad_fn is None
    assert torch.is_grad_enabled() and not torch.is_inference_mode_enabled()


def test_spectral_norm_bounds_the_largest_singular_value():
    layer = nn.utils.spectral_norm(nn.Linear(8, 5).double(), n_power_iterations=1)
    x = torch.randn(3, 8, dtype=torch.float64)
    # Power iteration converges as (sigma2/sigma1)^(2k); 300 steps leave no draw short of 1e-6.
    for _ in range(300):
        layer(x)
    sigma = np.linalg.svd(layer.weight.detach().numpy(), compute_uv=False)[0]
    assert abs(sigma - 1.0) < 1e-6
