"""torch.nn.functional's non-spatial layers: values against numpy references written here,
gradients against central differences (gradcheck, float64), reductions, layouts, error cases."""

import itertools
import math

import numpy as np
import pytest

import torch
import torch.nn.functional as F
from conftest import FLOAT_TYPES, LAYOUTS, NUMPY_OF, assert_close, make_tensor
from torch.autograd import gradcheck, gradgradcheck

D = torch.float64
erf = np.vectorize(math.erf)
REDUCTIONS = ["none", "mean", "sum"]


def leaf(shape, rng, low=-2.0, high=2.0):
    return torch.from_numpy(rng.uniform(low, high, shape)).requires_grad_()


def reduce_np(loss, reduction):
    return {"none": loss, "mean": np.mean(loss), "sum": np.sum(loss)}[reduction]


def sigmoid_np(x):
    return 1 / (1 + np.exp(-x))


def log_softmax_np(x, axis):
    m = x.max(axis, keepdims=True)
    return x - m - np.log(np.exp(x - m).sum(axis, keepdims=True))


def away_from(x, kinks, gap=0.05):
    """x with values near a kink of the function moved off it (for central differences)."""
    x = x.copy()
    for k in kinks:
        x = np.where(np.abs(x - k) < gap, x + 2 * gap, x)
    return x


# ---- activations ----

SELU_ALPHA, SELU_SCALE = 1.6732632423543772, 1.0507009873554805

ACTIVATIONS = {  # name: (torch function, numpy reference, kinks)
    "relu": (F.relu, lambda x: np.maximum(x, 0), [0]),
    "relu6": (F.relu6, lambda x: np.clip(x, 0, 6), [0, 6]),
    "hardtanh": (lambda x: F.hardtanh(x, -0.5, 2.0), lambda x: np.clip(x, -0.5, 2.0), [-0.5, 2]),
    "leaky_relu": (lambda x: F.leaky_relu(x, 0.2), lambda x: np.where(x > 0, x, 0.2 * x), [0]),
    "elu": (lambda x: F.elu(x, 0.7), lambda x: np.where(x > 0, x, 0.7 * np.expm1(x)), [0]),
    "selu": (F.selu, lambda x: SELU_SCALE * np.where(x > 0, x, SELU_ALPHA * np.expm1(x)), [0]),
    "celu": (lambda x: F.celu(x, 1.5), lambda x: np.where(x > 0, x, 1.5 * np.expm1(x / 1.5)), [0]),
    "gelu": (F.gelu, lambda x: 0.5 * x * (1 + erf(x / math.sqrt(2))), []),
    "gelu_tanh": (
        lambda x: F.gelu(x, approximate="tanh"),
        lambda x: 0.5 * x * (1 + np.tanh(math.sqrt(2 / math.pi) * (x + 0.044715 * x**3))),
        [],
    ),
    "logsigmoid": (F.logsigmoid, lambda x: -np.logaddexp(0, -x), []),
    "hardshrink": (F.hardshrink, lambda x: np.where(np.abs(x) > 0.5, x, 0), [-0.5, 0.5]),
    "tanhshrink": (F.tanhshrink, lambda x: x - np.tanh(x), []),
    "softsign": (F.softsign, lambda x: x / (1 + np.abs(x)), [0]),
    "softplus": (
        lambda x: F.softplus(x, beta=2, threshold=5),
        lambda x: np.where(2 * x > 5, x, np.log1p(np.exp(2 * x)) / 2),
        [2.5],
    ),
    "softshrink": (
        lambda x: F.softshrink(x, 0.3),
        lambda x: np.where(x > 0.3, x - 0.3, np.where(x < -0.3, x + 0.3, 0)),
        [-0.3, 0.3],
    ),
    "tanh": (F.tanh, np.tanh, []),
    "sigmoid": (F.sigmoid, sigmoid_np, []),
    "hardsigmoid": (F.hardsigmoid, lambda x: np.clip(x / 6 + 0.5, 0, 1), [-3, 3]),
    "silu": (F.silu, lambda x: x * sigmoid_np(x), []),
    "mish": (F.mish, lambda x: x * np.tanh(np.log1p(np.exp(x))), []),
    "hardswish": (F.hardswish, lambda x: x * np.clip(x + 3, 0, 6) / 6, [-3, 3]),
    "threshold": (lambda x: F.threshold(x, 0.3, -2.0), lambda x: np.where(x > 0.3, x, -2.0), [0.3]),
    "rrelu_eval": (lambda x: F.rrelu(x, 0.1, 0.3), lambda x: np.where(x >= 0, x, 0.2 * x), [0]),
}


@pytest.mark.parametrize("name", sorted(ACTIVATIONS))
@pytest.mark.parametrize("dtype", FLOAT_TYPES)
@pytest.mark.parametrize("layout", LAYOUTS)
def test_activation_values(name, dtype, layout, rng):
    op, ref, _ = ACTIVATIONS[name]
    x, nx = make_tensor((4, 6), dtype, layout, rng, -5, 7)
    before = nx.copy()
    expected = ref(nx.astype(np.float64)).astype(NUMPY_OF[dtype])
    assert_close(op(x), expected, rtol=1e-5, atol=1e-6)
    np.testing.assert_array_equal(x.numpy(), before)  # not modified


@pytest.mark.parametrize("name", sorted(ACTIVATIONS))
def test_activation_gradcheck(name, rng):
    op, _, kinks = ACTIVATIONS[name]
    x = torch.from_numpy(away_from(rng.uniform(-4, 7, (3, 5)), kinks)).requires_grad_()
    assert gradcheck(op, (x,))


INPLACE = {  # name: (in-place call, out-of-place twin)
    "relu": (lambda x: F.relu(x, inplace=True), F.relu),
    "relu_": (F.relu_, F.relu),
    "relu6": (lambda x: F.relu6(x, inplace=True), F.relu6),
    "hardtanh": (lambda x: F.hardtanh(x, -0.5, 0.5, inplace=True), lambda x: F.hardtanh(x, -0.5, 0.5)),
    "leaky_relu": (lambda x: F.leaky_relu(x, -0.3, inplace=True), lambda x: F.leaky_relu(x, -0.3)),
    "elu": (lambda x: F.elu(x, -0.5, inplace=True), lambda x: F.elu(x, -0.5)),
    "selu": (lambda x: F.selu(x, inplace=True), F.selu),
    "celu": (lambda x: F.celu(x, 2.0, inplace=True), lambda x: F.celu(x, 2.0)),
    "threshold": (lambda x: F.threshold(x, 0.2, 5.0, inplace=True), lambda x: F.threshold(x, 0.2, 5.0)),
    "rrelu": (lambda x: F.rrelu(x, 0.1, 0.2, inplace=True), lambda x: F.rrelu(x, 0.1, 0.2)),
    "hardsigmoid": (lambda x: F.hardsigmoid(x, inplace=True), F.hardsigmoid),
    "silu": (lambda x: F.silu(x, inplace=True), F.silu),
    "mish": (lambda x: F.mish(x, inplace=True), F.mish),
    "hardswish": (lambda x: F.hardswish(x, inplace=True), F.hardswish),
    "tensor_relu_": (lambda x: x.relu_(), lambda x: x.relu()),
}


@pytest.mark.parametrize("name", sorted(INPLACE))
def test_inplace_activation(name, rng):
    inplace, op = INPLACE[name]
    base, _ = make_tensor((5, 6), torch.float64, "contiguous", rng, -4, 4)
    view = base.t()  # non-contiguous
    expected = op(view).numpy().copy()
    assert inplace(view) is view
    np.testing.assert_allclose(view.numpy(), expected)
    np.testing.assert_allclose(base.t().numpy(), expected)
    # through autograd: the gradient is the out-of-place op's, even though the input was overwritten
    x = torch.from_numpy(away_from(rng.uniform(-4, 4, (3, 4)), [0, 0.2, 0.5, -0.5, -3, 3])).requires_grad_()
    y = x * 1.0
    inplace(y).sum().backward()
    expected_grad = torch.autograd.grad(op(x).sum(), x)[0]
    np.testing.assert_allclose(x.grad.numpy(), expected_grad.numpy())
    with pytest.raises(RuntimeError, match="leaf Variable that requires grad"):
        inplace(leaf((2, 2), rng))


def test_relu_on_integers_and_top_level_names(rng):
    x = torch.tensor([-3, 0, 5], dtype=torch.int64)
    assert_close(F.relu(x), np.array([0, 0, 5]))
    t, nt = make_tensor((3, 4), torch.float32, "transposed", rng)
    assert_close(torch.relu(t), np.maximum(nt, 0))
    assert_close(t.relu(), np.maximum(nt, 0))
    assert_close(torch.softmax(t, 1), np.exp(log_softmax_np(nt, 1)))
    assert_close(t.log_softmax(0), log_softmax_np(nt, 0), rtol=1e-5)
    assert_close(torch.selu(t), SELU_SCALE * np.where(nt > 0, nt, SELU_ALPHA * np.expm1(nt)), rtol=1e-5)
    assert_close(t.hardshrink(1.0), np.where(np.abs(nt) > 1, nt, 0))
    with pytest.raises(TypeError):
        F.elu(torch.tensor([1, 2]))


def test_activation_argument_errors(rng):
    x = leaf((2, 3), rng)
    with pytest.raises(RuntimeError, match="approximate argument must be either none or tanh"):
        F.gelu(x, approximate="fast")
    with pytest.raises(RuntimeError, match="Halving dimension must be even, but dimension 1 is size 3"):
        F.glu(x)
    with pytest.raises(RuntimeError, match="lambda must be greater or equal to 0"):
        F.softshrink(x, -1.0)


@pytest.mark.parametrize("dtype", FLOAT_TYPES)
@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("dim", [0, 1, -1])
def test_softmax_family(dtype, layout, dim, rng):
    x, nx = make_tensor((3, 4, 5), dtype, layout, rng, -20, 20)
    expected = log_softmax_np(nx.astype(np.float64), dim)
    assert_close(F.log_softmax(x, dim), expected.astype(NUMPY_OF[dtype]), rtol=1e-5, atol=1e-5)
    assert_close(F.softmax(x, dim), np.exp(expected).astype(NUMPY_OF[dtype]), rtol=1e-5, atol=1e-6)
    assert_close(
        F.softmin(x, dim),
        np.exp(log_softmax_np(-nx.astype(np.float64), dim)).astype(NUMPY_OF[dtype]),
        rtol=1e-5,
        atol=1e-6,
    )
    assert_close(F.softmax(x, dim, dtype=torch.float64), np.exp(expected), rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("dim", [0, 1, 2])
def test_softmax_gradcheck(dim, rng):
    x = leaf((2, 3, 4), rng)
    assert gradcheck(lambda t: F.softmax(t, dim), (x,))
    assert gradcheck(lambda t: F.log_softmax(t, dim), (x,))
    assert gradcheck(lambda t: F.softmin(t, dim), (x,))


@pytest.mark.parametrize("shape, implicit", [((), 0), ((5,), 0), ((2, 5), 1), ((2, 3, 4), 0), ((2, 3, 4, 5), 1)])
def test_softmax_implicit_dim(shape, implicit, rng):
    x, nx = make_tensor(shape, torch.float64, "contiguous", rng)
    with pytest.warns(UserWarning, match="Implicit dimension choice for softmax has been deprecated"):
        y = F.softmax(x)
    expected = np.exp(log_softmax_np(nx, implicit)) if shape else np.array(1.0)
    assert_close(y, expected)
    with pytest.warns(UserWarning, match="Implicit dimension choice for log_softmax"):
        F.log_softmax(x)


def test_glu_and_prelu(rng):
    x, nx = make_tensor((3, 8, 2), torch.float64, "transposed", rng)
    assert_close(F.glu(x, 1), nx[:, :4] * sigmoid_np(nx[:, 4:]))
    assert gradcheck(lambda t: F.glu(t, -1), (leaf((3, 4), rng),))
    w = torch.from_numpy(rng.uniform(0.1, 0.5, 4))
    for shape in [(3, 4), (2, 4, 3), (2, 4, 3, 2), (2, 4, 1, 2, 2)]:
        x, nx = make_tensor(shape, torch.float64, "strided", rng)
        channel = [1, 4] + [1] * (len(shape) - 2)
        assert_close(F.prelu(x, w), np.where(nx > 0, nx, nx * w.numpy().reshape(channel)))
        assert_close(F.prelu(x, w.narrow(0, 0, 1)), np.where(nx > 0, nx, nx * w.numpy()[0]))
    x, nx = make_tensor((4,), torch.float64, "strided", rng)  # 1-D: no channel dimension, one slope
    assert_close(F.prelu(x, w.narrow(0, 1, 1)), np.where(nx > 0, nx, nx * w.numpy()[1]))
    with pytest.raises(RuntimeError, match="Found parameter numbers = 4 and channel size = 1"):
        F.prelu(x, w)
    x = torch.from_numpy(away_from(rng.uniform(-2, 2, (2, 3, 4)), [0])).requires_grad_()
    assert gradcheck(F.prelu, (x, leaf((3,), rng)))
    assert gradcheck(F.prelu, (x, leaf((1,), rng)))
    with pytest.raises(RuntimeError, match="Mismatch of parameter numbers and input channel size"):
        F.prelu(x, torch.ones(4, dtype=D))


def test_rrelu_training_draws_slopes(rng):
    x = torch.from_numpy(rng.uniform(-3, 3, (40, 50)))
    torch.manual_seed(7)
    y = F.rrelu(x, 0.1, 0.4, training=True)
    torch.manual_seed(7)
    again = F.rrelu(x, 0.1, 0.4, training=True)
    np.testing.assert_array_equal(y.numpy(), again.numpy())  # reproducible under manual_seed
    nx, ny = x.numpy(), y.numpy()
    np.testing.assert_array_equal(ny[nx >= 0], nx[nx >= 0])
    slopes = ny[nx < 0] / nx[nx < 0]
    assert slopes.min() >= 0.1 and slopes.max() < 0.4 and slopes.std() > 0.05
    # the gradient is each element's slope
    t = torch.from_numpy(away_from(rng.uniform(-3, 3, (3, 4)), [0])).requires_grad_()

    def seeded(u):
        torch.manual_seed(3)
        return F.rrelu(u, 0.1, 0.4, training=True)

    assert gradcheck(seeded, (t,))
    with pytest.raises(ValueError, match="Lower bound should be less than or equal to the upper bound"):
        F.rrelu(t, 0.5, 0.1, training=True)


NONCONTIGUOUS_GRADIENT = {  # ops whose backward gets a transposed (strided) output gradient below
    "relu": F.relu,
    "elu": F.elu,
    "softplus": F.softplus,
    "logsigmoid": F.logsigmoid,
    "gelu": F.gelu,
    "softmax": lambda x: F.softmax(x, 1),
    "prelu": lambda x: F.prelu(x, torch.tensor([0.1, 0.2, 0.3], dtype=D)),
    "linear": lambda x: F.linear(x, torch.ones(2, 3, dtype=D)),
    "batch_norm": lambda x: F.batch_norm(x, None, None, training=True),
    "mse_none": lambda x: F.mse_loss(x, torch.ones(4, 3, dtype=D), reduction="none"),
    "soft_margin_none": lambda x: F.soft_margin_loss(x, torch.ones(4, 3, dtype=D), reduction="none"),
    "nll_none": lambda x: F.nll_loss(x, torch.tensor([0, 2, 1, 1]), reduction="none").unsqueeze(1).expand(4, 2),
}


@pytest.mark.parametrize("name", sorted(NONCONTIGUOUS_GRADIENT))
def test_noncontiguous_output_gradient(name, rng):
    op = NONCONTIGUOUS_GRADIENT[name]
    x = torch.from_numpy(away_from(rng.uniform(-2, 2, (4, 3)), [0])).requires_grad_()
    assert gradcheck(lambda u: op(u).t(), (x,))


# ---- linear maps ----


@pytest.mark.parametrize("dtype", FLOAT_TYPES)
@pytest.mark.parametrize("shape", [(5,), (3, 5), (2, 3, 5)])
def test_linear_values(dtype, shape, rng):
    x, nx = make_tensor(shape, dtype, "transposed", rng)
    w, nw = make_tensor((4, 5), dtype, "transposed", rng)
    b, nb = make_tensor((4,), dtype, "contiguous", rng)
    assert_close(F.linear(x, w, b), nx @ nw.T + nb, rtol=1e-4, atol=1e-4)
    assert_close(F.linear(x, w), nx @ nw.T, rtol=1e-4, atol=1e-4)


def test_linear_and_bilinear_gradcheck(rng):
    assert gradcheck(F.linear, (leaf((2, 3, 4), rng), leaf((5, 4), rng), leaf((5,), rng)))
    assert gradcheck(F.linear, (leaf((4,), rng), leaf((2, 4), rng)))
    assert gradcheck(F.bilinear, (leaf((3, 4), rng), leaf((3, 2), rng), leaf((5, 4, 2), rng), leaf((5,), rng)))
    assert gradcheck(F.bilinear, (leaf((2, 2, 3), rng), leaf((2, 2, 2), rng), leaf((1, 3, 2), rng)))


def test_bilinear_values(rng):
    x1, n1 = make_tensor((2, 3, 4), torch.float64, "transposed", rng)
    x2, n2 = make_tensor((2, 3, 2), torch.float64, "strided", rng)
    w, nw = make_tensor((5, 4, 2), torch.float64, "contiguous", rng)
    b, nb = make_tensor((5,), torch.float64, "contiguous", rng)
    assert_close(F.bilinear(x1, x2, w, b), np.einsum("abi,kij,abj->abk", n1, nw, n2) + nb)


def test_linear_errors(rng):
    x, w = torch.ones(6, 4), torch.ones(3, 5)
    with pytest.raises(RuntimeError, match=r"mat1 and mat2 shapes cannot be multiplied \(6x4 and 5x3\)"):
        F.linear(x, w)
    with pytest.raises(RuntimeError, match=r"mat1 and mat2 shapes cannot be multiplied \(6x4 and 5x3\)"):
        F.linear(torch.ones(2, 3, 4), w)
    with pytest.raises(RuntimeError, match="mat1 and mat2 must have the same dtype"):
        F.linear(x, torch.ones(3, 4, dtype=D))
    with pytest.raises(RuntimeError, match="bias"):
        F.linear(x, torch.ones(3, 4), torch.ones(4))
    with pytest.raises(RuntimeError, match="input1 size does not match weight size: got 4 but expected 3"):
        F.bilinear(x, torch.ones(6, 2), torch.ones(5, 3, 2))
    with pytest.raises(RuntimeError, match="input batch dimensions do not match"):
        F.bilinear(x, torch.ones(5, 2), torch.ones(5, 4, 2))


# ---- element-wise losses ----


def smooth_l1_np(x, y, beta):
    d = np.abs(x - y)
    return np.where(d < beta, 0.5 * d * d / beta, d - 0.5 * beta) if beta > 0 else d


def huber_np(x, y, delta):
    d = np.abs(x - y)
    return np.where(d < delta, 0.5 * d * d, delta * (d - 0.5 * delta))


POINTWISE_LOSSES = {  # name: (loss(x, y, reduction), numpy per-element loss, target kind)
    "l1": (F.l1_loss, lambda x, y: np.abs(x - y), "real"),
    "mse": (F.mse_loss, lambda x, y: (x - y) ** 2, "real"),
    "smooth_l1": (F.smooth_l1_loss, lambda x, y: smooth_l1_np(x, y, 1.0), "real"),
    "smooth_l1_beta": (
        lambda x, y, reduction: F.smooth_l1_loss(x, y, reduction=reduction, beta=0.4),
        lambda x, y: smooth_l1_np(x, y, 0.4),
        "real",
    ),
    "smooth_l1_beta0": (
        lambda x, y, reduction: F.smooth_l1_loss(x, y, reduction=reduction, beta=0.0),
        lambda x, y: np.abs(x - y),
        "real",
    ),
    "huber": (F.huber_loss, lambda x, y: huber_np(x, y, 1.0), "real"),
    "huber_delta": (
        lambda x, y, reduction: F.huber_loss(x, y, reduction=reduction, delta=0.3),
        lambda x, y: huber_np(x, y, 0.3),
        "real",
    ),
    "soft_margin": (F.soft_margin_loss, lambda x, y: np.log1p(np.exp(-x * y)), "sign"),
    "kl_div": (F.kl_div, lambda x, y: np.where(y > 0, y * (np.log(np.where(y > 0, y, 1)) - x), 0), "prob"),
    "kl_div_log_target": (
        lambda x, y, reduction: F.kl_div(x, y, reduction=reduction, log_target=True),
        lambda x, y: np.exp(y) * (y - x),
        "real",
    ),
    "bce": (F.binary_cross_entropy, lambda x, y: -(y * np.log(x) + (1 - y) * np.log(1 - x)), "prob_input"),
    "bce_logits": (F.binary_cross_entropy_with_logits, lambda x, y: (1 - y) * x + np.logaddexp(0, -x), "prob"),
    "poisson": (F.poisson_nll_loss, lambda x, y: np.exp(x) - y * x, "count"),
    "poisson_full": (
        lambda x, y, reduction: F.poisson_nll_loss(x, y, log_input=False, full=True, reduction=reduction),
        lambda x, y: (
            x
            - y * np.log(x + 1e-8)
            + np.where(y > 1, y * np.log(np.maximum(y, 1)) - y + 0.5 * np.log(2 * np.pi * np.maximum(y, 1)), 0)
        ),
        "count_positive_input",
    ),
}


def loss_inputs(kind, shape, dtype, layout, rng):
    x, nx = make_tensor(shape, dtype, layout, rng, -2, 2)
    if kind in ("prob_input", "count_positive_input"):
        x, nx = make_tensor(shape, dtype, layout, rng, 0.05, 0.95)
    ny = {
        "real": lambda: rng.uniform(-2, 2, shape),
        "sign": lambda: rng.choice([-1.0, 1.0], shape),
        "prob": lambda: rng.uniform(0, 1, shape) * (rng.random(shape) < 0.8),
        "prob_input": lambda: rng.uniform(0, 1, shape),
        "count": lambda: rng.integers(0, 5, shape) * 1.0,
        "count_positive_input": lambda: rng.integers(0, 5, shape) * 1.0,
    }[kind]().astype(NUMPY_OF[dtype])
    return x, nx, torch.from_numpy(ny.copy()), ny


@pytest.mark.filterwarnings("ignore:reduction. 'mean' divides")
@pytest.mark.parametrize("name", sorted(POINTWISE_LOSSES))
@pytest.mark.parametrize("reduction", REDUCTIONS)
@pytest.mark.parametrize("dtype", FLOAT_TYPES)
@pytest.mark.parametrize("layout", ["contiguous", "transposed", "expanded"])
def test_pointwise_loss_values(name, reduction, dtype, layout, rng):
    op, ref, kind = POINTWISE_LOSSES[name]
    x, nx, y, ny = loss_inputs(kind, (4, 5), dtype, layout, rng)
    expected = reduce_np(ref(nx.astype(np.float64), ny.astype(np.float64)), reduction)
    got = op(x, y, reduction=reduction)
    assert got.dtype == dtype
    assert_close(got, np.asarray(expected).astype(NUMPY_OF[dtype]), rtol=1e-4, atol=1e-5)


@pytest.mark.filterwarnings("ignore:reduction. 'mean' divides")
@pytest.mark.parametrize("name", sorted(POINTWISE_LOSSES))
@pytest.mark.parametrize("reduction", REDUCTIONS)
def test_pointwise_loss_gradcheck(name, reduction, rng):
    op, _, kind = POINTWISE_LOSSES[name]
    x, nx, y, ny = loss_inputs(kind, (3, 4), D, "contiguous", rng)
    if name.startswith(("l1", "smooth_l1", "huber")):
        x = torch.from_numpy(ny + away_from(nx - ny, [0, 0.4, -0.4, 0.3, -0.3, 1, -1]))
    x.requires_grad_()
    assert gradcheck(lambda t: op(t, y, reduction=reduction), (x,))
    if kind == "real":  # the target's gradient too
        y.requires_grad_()
        assert gradcheck(lambda t, u: op(t, u, reduction=reduction), (x, y))


def test_bce_weights_and_kl_div_options(rng):
    x, nx, y, ny = loss_inputs("prob_input", (3, 4), D, "strided", rng)
    w = torch.from_numpy(rng.uniform(0.5, 2, 4))
    bce = -(ny * np.log(nx) + (1 - ny) * np.log(1 - nx)) * w.numpy()
    assert_close(F.binary_cross_entropy(x, y, w), bce.mean())
    assert gradcheck(lambda t: F.binary_cross_entropy(t, y, w, reduction="sum"), (x.detach().requires_grad_(),))
    logits, nl = make_tensor((3, 4), D, "transposed", rng)
    pos = torch.from_numpy(rng.uniform(0.5, 3, 4))
    p = pos.numpy()
    expected = -w.numpy() * (p * ny * np.log(sigmoid_np(nl)) + (1 - ny) * np.log(1 - sigmoid_np(nl)))
    assert_close(F.binary_cross_entropy_with_logits(logits, y, w, pos_weight=pos, reduction="none"), expected)
    assert gradcheck(
        lambda t, u: F.binary_cross_entropy_with_logits(t, u, w, pos_weight=pos),
        (logits.detach().requires_grad_(), y.detach().requires_grad_()),
    )
    # kl_div: batchmean divides the sum by the batch size; log_target reads log-probabilities
    lp, nlp = make_tensor((3, 4), D, "contiguous", rng)
    q = ny / ny.sum(1, keepdims=True)
    assert_close(F.kl_div(lp, torch.from_numpy(q), reduction="batchmean"), (q * (np.log(q) - nlp)).sum() / 3)
    assert_close(
        F.kl_div(lp, torch.from_numpy(np.log(q)), reduction="sum", log_target=True), (q * (np.log(q) - nlp)).sum()
    )
    with pytest.warns(UserWarning, match="'batchmean' divides only by the batch size"):
        F.kl_div(lp, torch.from_numpy(q))


def test_loss_reduction_arguments(rng):
    x, nx = make_tensor((3, 4), D, "contiguous", rng)
    y, ny = make_tensor((3, 4), D, "contiguous", rng)
    with pytest.warns(UserWarning, match="size_average and reduce args will be deprecated"):
        assert_close(F.mse_loss(x, y, size_average=False), ((nx - ny) ** 2).sum())
    with pytest.warns(UserWarning):
        assert_close(F.l1_loss(x, y, reduce=False), np.abs(nx - ny))
    with pytest.warns(UserWarning):
        assert_close(F.l1_loss(x, y, size_average=True, reduce=True), np.abs(nx - ny).mean())
    with pytest.raises(ValueError, match="meanish is not a valid value for reduction"):
        F.mse_loss(x, y, reduction="meanish")
    with pytest.raises(ValueError, match="is not a valid value for reduction"):
        F.hinge_embedding_loss(x, y, reduction="avg")
    # broadcasting a different target size, with PyTorch's warning
    row, nrow = make_tensor((4,), D, "contiguous", rng)
    with pytest.warns(UserWarning, match="Using a target size"):
        assert_close(F.mse_loss(x, row), ((nx - nrow) ** 2).mean())
    with pytest.raises(ValueError, match="Using a target size"):
        F.binary_cross_entropy(x.sigmoid(), row.sigmoid())
    with pytest.raises(ValueError, match=r"Target size \(torch.Size\(\[4\]\)\) must be the same as input size"):
        F.binary_cross_entropy_with_logits(x, row)
    with pytest.raises(RuntimeError, match="all elements of input should be between 0 and 1"):
        F.binary_cross_entropy(x * 3, y.sigmoid())
    # saturated probabilities: each log is clamped at -100, as in PyTorch
    assert_close(
        F.binary_cross_entropy(torch.tensor([0.0, 1.0, 1.0]), torch.tensor([1.0, 0.0, 1.0]), reduction="none"),
        np.array([100.0, 100.0, 0.0], np.float32),
    )
    with pytest.raises(RuntimeError, match="smooth_l1_loss does not support negative values for beta"):
        F.smooth_l1_loss(x, y, beta=-1.0)
    with pytest.raises(RuntimeError, match="huber_loss does not support non-positive values for delta"):
        F.huber_loss(x, y, delta=0.0)


# ---- class losses ----


def nll_np(logp, target, weight, reduction, ignore_index):
    """logp [N, C, *], target [N, *]."""
    c = logp.shape[1]
    w = np.ones(c) if weight is None else weight
    moved = np.moveaxis(logp, 1, -1).reshape(-1, c)
    t = target.reshape(-1)
    losses, weights = np.zeros(t.size), np.zeros(t.size)
    for i, k in enumerate(t):
        if k != ignore_index:
            losses[i], weights[i] = -w[k] * moved[i, k], w[k]
    if reduction == "none":
        return losses.reshape(target.shape)
    return losses.sum() if reduction == "sum" else losses.sum() / weights.sum()


@pytest.mark.parametrize("shape", [(5, 4), (3, 4, 5), (2, 4, 3, 2), (2, 4, 2, 2, 2)])
@pytest.mark.parametrize("reduction", REDUCTIONS)
@pytest.mark.parametrize("weighted", [False, True])
def test_nll_loss(shape, reduction, weighted, rng):
    x, nx = make_tensor(shape, D, "transposed", rng)
    target = rng.integers(0, 4, (shape[0],) + shape[2:])
    target.reshape(-1)[1] = -100
    t = torch.from_numpy(target)
    w = torch.from_numpy(rng.uniform(0.5, 2, 4)) if weighted else None
    expected = nll_np(nx, target, None if w is None else w.numpy(), reduction, -100)
    assert_close(F.nll_loss(x, t, w, reduction=reduction), expected)
    assert gradcheck(
        lambda u: F.nll_loss(u, t, w, reduction=reduction, ignore_index=-100), (x.detach().requires_grad_(),)
    )
    target.reshape(-1)[:2] = 2
    ignored = nll_np(nx, target, None, reduction, 2)
    assert_close(F.nll_loss(x, torch.from_numpy(target), ignore_index=2, reduction=reduction), ignored)


def test_nll_loss_unbatched_and_errors(rng):
    x, nx = make_tensor((5,), D, "contiguous", rng)
    assert_close(F.nll_loss(x, torch.tensor(3)), -nx[3])
    assert gradcheck(lambda u: F.cross_entropy(u, torch.tensor(3), label_smoothing=0.3), (x.detach().requires_grad_(),))
    assert_close(F.cross_entropy(x, torch.tensor(3)), -log_softmax_np(nx, 0)[3])
    assert F.nll_loss(x, torch.tensor(3), reduction="none").shape == ()
    everything_ignored = F.nll_loss(torch.zeros(2, 3), torch.tensor([-100, -100]))
    assert math.isnan(everything_ignored.item())  # 0 / 0, as in PyTorch
    x2 = torch.zeros(3, 5)
    before = x2.numpy().copy()
    with pytest.raises(ValueError, match=r"Expected input batch_size \(3\) to match target batch_size \(4\)"):
        F.nll_loss(x2, torch.zeros(4, dtype=torch.int64))
    with pytest.raises(IndexError, match="Target 7 is out of bounds"):
        F.nll_loss(x2, torch.tensor([0, 7, 1]))
    with pytest.raises(RuntimeError, match=r"Expected target size \[2, 3\], got \[2, 4\]"):
        F.nll_loss(torch.zeros(2, 5, 3), torch.zeros(2, 4, dtype=torch.int64))
    with pytest.raises(RuntimeError, match="weight tensor should be defined either for all 5 classes"):
        F.nll_loss(x2, torch.tensor([0, 1, 1]), weight=torch.ones(3))
    np.testing.assert_array_equal(x2.numpy(), before)


def cross_entropy_np(x, target, weight, reduction, ignore_index, smoothing):
    logp = log_softmax_np(x, 1)
    c = x.shape[1]
    w = np.ones(c) if weight is None else weight
    moved = np.moveaxis(logp, 1, -1).reshape(-1, c)
    t = target.reshape(-1)
    losses, weights = np.zeros(t.size), np.zeros(t.size)
    for i, k in enumerate(t):
        if k == ignore_index:
            continue
        losses[i] = (1 - smoothing) * -w[k] * moved[i, k] + smoothing / c * -(w * moved[i]).sum()
        weights[i] = w[k]
    if reduction == "none":
        return losses.reshape(target.shape)
    return losses.sum() if reduction == "sum" else losses.sum() / weights.sum()


@pytest.mark.parametrize("shape", [(4, 3), (2, 3, 5)])
@pytest.mark.parametrize("reduction", REDUCTIONS)
@pytest.mark.parametrize("smoothing", [0.0, 0.25])
@pytest.mark.parametrize("weighted", [False, True])
def test_cross_entropy_class_targets(shape, reduction, smoothing, weighted, rng):
    x, nx = make_tensor(shape, D, "strided", rng, -3, 3)
    target = rng.integers(0, 3, (shape[0],) + shape[2:])
    target.reshape(-1)[0] = 1
    target.reshape(-1)[1] = 0
    w = torch.from_numpy(rng.uniform(0.5, 2, 3)) if weighted else None
    t = torch.from_numpy(target)
    kwargs = dict(weight=w, reduction=reduction, label_smoothing=smoothing, ignore_index=0)
    expected = cross_entropy_np(nx, target, None if w is None else w.numpy(), reduction, 0, smoothing)
    assert_close(F.cross_entropy(x, t, **kwargs), expected)
    assert gradcheck(lambda u: F.cross_entropy(u, t, **kwargs), (x.detach().requires_grad_(),))


@pytest.mark.parametrize("reduction", REDUCTIONS)
def test_cross_entropy_probability_targets(reduction, rng):
    x, nx = make_tensor((2, 4, 3), D, "transposed", rng)
    q = rng.uniform(0, 1, (2, 4, 3))
    q /= q.sum(1, keepdims=True)
    w = rng.uniform(0.5, 2, 4)
    smoothed = q * 0.9 + 0.1 / 4
    losses = -(log_softmax_np(nx, 1) * smoothed * w.reshape(1, 4, 1)).sum(1)
    expected = {"none": losses, "sum": losses.sum(), "mean": losses.sum() / 6}[reduction]
    target = torch.from_numpy(q)
    weight = torch.from_numpy(w)
    got = F.cross_entropy(x, target, weight=weight, reduction=reduction, label_smoothing=0.1)
    assert_close(got, expected)
    assert gradcheck(
        lambda u, v: F.cross_entropy(u, v, weight=weight, reduction=reduction, label_smoothing=0.1),
        (x.detach().requires_grad_(), target.requires_grad_()),
    )
    unbatched = F.cross_entropy(x.select(0, 0).select(1, 0), target.detach().select(0, 0).select(1, 0))
    assert_close(unbatched, -(log_softmax_np(nx[0, :, 0], 0) * q[0, :, 0]).sum())


def test_cross_entropy_errors():
    with pytest.raises(RuntimeError, match="label_smoothing must be between 0.0 and 1.0"):
        F.cross_entropy(torch.zeros(2, 3), torch.tensor([0, 1]), label_smoothing=1.5)
    with pytest.raises(ValueError, match=r"Expected input batch_size \(2\) to match target batch_size \(3\)"):
        F.cross_entropy(torch.zeros(2, 3), torch.tensor([0, 1, 1]))
    with pytest.raises(RuntimeError, match="same size as input"):
        F.cross_entropy(torch.zeros(2, 3), torch.zeros(2, 4))


def multilabel_margin_np(x, target):
    losses = []
    for row, labels in zip(np.atleast_2d(x), np.atleast_2d(target)):
        listed = []
        for k in labels:
            if k < 0:
                break
            listed.append(k)
        others = [d for d in range(len(row)) if d not in listed]
        losses.append(sum(max(0, 1 - row[j] + row[d]) for j in listed for d in others) / len(row))
    return np.array(losses)


def multi_margin_np(x, target, p, margin, weight):
    losses = []
    for row, k in zip(np.atleast_2d(x), np.atleast_1d(target)):
        w = 1 if weight is None else weight[k]
        losses.append(sum(w * max(0, margin - row[k] + row[d]) ** p for d in range(len(row)) if d != k) / len(row))
    return np.array(losses)


@pytest.mark.parametrize("reduction", REDUCTIONS)
def test_margin_class_losses(reduction, rng):
    x, nx = make_tensor((3, 5), D, "transposed", rng)
    target = np.array([[3, 0, -1, 1, 1], [1, 2, 4, 0, -1], [2, -1, 0, 0, 0]])
    expected = reduce_np(multilabel_margin_np(nx, target), reduction)
    t = torch.from_numpy(target)
    assert_close(F.multilabel_margin_loss(x, t, reduction=reduction), expected)
    assert gradcheck(lambda u: F.multilabel_margin_loss(u, t, reduction=reduction), (x.detach().requires_grad_(),))
    classes = np.array([4, 0, 2])
    w = rng.uniform(0.5, 2, 5)
    for p, margin, weight in [(1, 1.0, None), (2, 0.6, w)]:
        expected = reduce_np(multi_margin_np(nx, classes, p, margin, weight), reduction)
        wt = None if weight is None else torch.from_numpy(weight)
        got = F.multi_margin_loss(x, torch.from_numpy(classes), p=p, margin=margin, weight=wt, reduction=reduction)
        assert_close(got, expected)
        assert gradcheck(
            lambda u: F.multi_margin_loss(
                u, torch.from_numpy(classes), p=p, margin=margin, weight=wt, reduction=reduction
            ),
            (x.detach().requires_grad_(),),
        )
    # unbatched input: one loss
    assert_close(F.multilabel_margin_loss(x.select(0, 0), t.select(0, 0)), multilabel_margin_np(nx[0], target[0])[0])
    assert_close(F.multi_margin_loss(x.select(0, 1), torch.tensor([0])), multi_margin_np(nx[1], [0], 1, 1, None)[0])


def test_margin_class_loss_errors():
    with pytest.raises(RuntimeError, match="inconsistent target size"):
        F.multilabel_margin_loss(torch.zeros(2, 4), torch.zeros(2, 3, dtype=torch.int64))
    with pytest.raises(RuntimeError, match="inconsistent target size, expected 2"):
        F.multi_margin_loss(torch.zeros(2, 4), torch.zeros(3, dtype=torch.int64))
    with pytest.raises(ValueError, match="only p == 1 and p == 2 supported"):
        F.multi_margin_loss(torch.zeros(2, 4), torch.zeros(2, dtype=torch.int64), p=3)
    with pytest.raises(IndexError):
        F.multi_margin_loss(torch.zeros(2, 4), torch.tensor([0, 4]))


@pytest.mark.parametrize("reduction", REDUCTIONS)
def test_embedding_losses(reduction, rng):
    x, nx = make_tensor((4, 3), D, "transposed", rng)
    sign = rng.choice([-1.0, 1.0], (4, 3))
    hinge = np.where(sign == 1, nx, np.maximum(0, 0.5 - nx))
    assert_close(
        F.hinge_embedding_loss(x, torch.from_numpy(sign), margin=0.5, reduction=reduction), reduce_np(hinge, reduction)
    )
    assert gradcheck(
        lambda u: F.hinge_embedding_loss(u, torch.from_numpy(sign), margin=0.5, reduction=reduction),
        (torch.from_numpy(away_from(nx, [0.5])).requires_grad_(),),
    )
    labels = (rng.random((4, 3)) < 0.5) * 1.0
    w = rng.uniform(0.5, 2, 3)
    soft = -(labels * np.log(sigmoid_np(nx)) + (1 - labels) * np.log(sigmoid_np(-nx))) * w
    assert_close(
        F.multilabel_soft_margin_loss(x, torch.from_numpy(labels), torch.from_numpy(w), reduction=reduction),
        reduce_np(soft.mean(1), reduction),
    )
    a, na = make_tensor((4, 3), D, "strided", rng)
    b, nb = make_tensor((4, 3), D, "contiguous", rng)
    y = np.array([1.0, -1, -1, 1])
    cos = (na * nb).sum(1) / np.sqrt(((na * na).sum(1) + 1e-12) * ((nb * nb).sum(1) + 1e-12))
    expected = np.where(y == 1, 1 - cos, np.maximum(0, cos - 0.1))
    assert_close(
        F.cosine_embedding_loss(a, b, torch.from_numpy(y), margin=0.1, reduction=reduction),
        reduce_np(expected, reduction),
    )
    assert gradcheck(
        lambda u, v: F.cosine_embedding_loss(u, v, torch.from_numpy(y), margin=0.1, reduction=reduction),
        (a.detach().requires_grad_(), b.detach().requires_grad_()),
    )
    s1, s2 = a.select(1, 0), b.select(1, 0)
    ranking = np.maximum(0, -y * (na[:, 0] - nb[:, 0]) + 0.2)
    assert_close(
        F.margin_ranking_loss(s1, s2, torch.from_numpy(y), margin=0.2, reduction=reduction),
        reduce_np(ranking, reduction),
    )
    assert gradcheck(
        lambda u, v: F.margin_ranking_loss(u, v, torch.from_numpy(y), margin=0.2, reduction=reduction),
        (s1.detach().requires_grad_(), s2.detach().requires_grad_()),
    )


@pytest.mark.parametrize("swap", [False, True])
@pytest.mark.parametrize("p", [1.0, 2.0, 3.0])
def test_triplet_margin_loss(swap, p, rng):
    a, na = make_tensor((5, 4), D, "transposed", rng)
    pos, npos = make_tensor((5, 4), D, "contiguous", rng)
    neg, nneg = make_tensor((5, 4), D, "strided", rng)

    def dist(u, v):
        return (np.abs(u - v + 1e-6) ** p).sum(1) ** (1 / p)

    dn = dist(na, nneg)
    if swap:
        dn = np.minimum(dn, dist(npos, nneg))
    expected = np.maximum(0, 3.0 + dist(na, npos) - dn)
    assert_close(F.triplet_margin_loss(a, pos, neg, margin=3.0, p=p, swap=swap, reduction="none"), expected)
    assert gradcheck(
        lambda u, v, w: F.triplet_margin_loss(u, v, w, margin=3.0, p=p, swap=swap),
        tuple(t.detach().requires_grad_() for t in (a, pos, neg)),
    )
    with pytest.raises(RuntimeError, match="anchor 2D, positive 1D, and negative 2D"):
        F.triplet_margin_loss(a, pos.select(0, 0), neg)


# ---- CTC ----


def ctc_np(logp, target, length):
    """-log p(target) by summing over every alignment of `length` steps (blank 0)."""
    total = 0.0
    for path in itertools.product(range(logp.shape[1]), repeat=length):
        collapsed = [k for i, k in enumerate(path) if (i == 0 or k != path[i - 1]) and k != 0]
        if collapsed == list(target):
            total += math.exp(sum(logp[t, k] for t, k in enumerate(path)))
    return -math.log(total) if total > 0 else math.inf


@pytest.mark.parametrize("reduction", REDUCTIONS)
@pytest.mark.parametrize("concatenated", [False, True])
def test_ctc_loss_against_alignment_sums(reduction, concatenated, rng):
    logits, nlog = make_tensor((5, 3, 3), D, "transposed", rng)
    logp = F.log_softmax(logits, 2)
    nlp = log_softmax_np(nlog, 2)
    targets = [[1, 2], [2, 2], [1]]
    input_lengths, target_lengths = [5, 4, 3], [2, 2, 1]
    losses = np.array([ctc_np(nlp[:, b], targets[b], input_lengths[b]) for b in range(3)])
    expected = {"none": losses, "sum": losses.sum(), "mean": (losses / np.array(target_lengths)).mean()}[reduction]
    if concatenated:
        t = torch.tensor([1, 2, 2, 2, 1])
    else:
        t = torch.tensor([[1, 2], [2, 2], [1, 0]])
    got = F.ctc_loss(logp, t, input_lengths, target_lengths, reduction=reduction)
    assert_close(got, expected, rtol=1e-10)
    lengths = (torch.tensor(input_lengths), torch.tensor(target_lengths))
    assert gradcheck(
        lambda u: F.ctc_loss(u.log_softmax(2), t, *lengths, reduction=reduction), (logits.detach().requires_grad_(),)
    )
    assert gradcheck(lambda u: F.ctc_loss(u, t, *lengths, reduction=reduction), (logp.detach().requires_grad_(),))


def test_ctc_loss_blank_unbatched_and_infinity(rng):
    logp = F.log_softmax(torch.from_numpy(rng.uniform(-2, 2, (4, 3))), 1)
    nlp = logp.numpy()
    # blank = 2: relabel so that the reference's blank 0 is class 2
    order = [2, 0, 1]
    got = F.ctc_loss(logp, torch.tensor([0, 1]), [4], [2], blank=2, reduction="sum")
    assert_close(got, ctc_np(nlp[:, order], [1, 2], 4))
    assert gradcheck(
        lambda u: F.ctc_loss(u, torch.tensor([0, 1]), [4], [2], blank=2), (logp.detach().requires_grad_(),)
    )
    # a target longer than the input has no alignment: inf, or 0 with zero_infinity
    long_target = torch.tensor([[1, 1, 1]])
    batched = logp.unsqueeze(1)
    assert math.isinf(F.ctc_loss(batched, long_target, [2], [3], reduction="sum").item())
    x = batched.detach().requires_grad_()
    loss = F.ctc_loss(x, long_target, [2], [3], reduction="sum", zero_infinity=True)
    assert loss.item() == 0
    loss.backward()
    assert np.all(x.grad.numpy() == 0)
    with pytest.raises(RuntimeError, match="blank must be in label range"):
        F.ctc_loss(batched, long_target, [4], [3], blank=3)
    with pytest.raises(RuntimeError, match="Expected input_lengths to have value at most 4, but got value 5"):
        F.ctc_loss(batched, long_target, [5], [3])
    with pytest.raises(RuntimeError, match="Expected tensor to have size at least 3 at dimension 1"):
        F.ctc_loss(batched, torch.tensor([[1, 1]]), [4], [3])
    with pytest.raises(RuntimeError, match="target_lengths must be of size batch_size"):
        F.ctc_loss(batched, long_target, [4], [3, 1])


# ---- normalizations ----


@pytest.mark.parametrize("shape", [(6, 3), (4, 3, 5), (2, 3, 2, 3)])
@pytest.mark.parametrize("dtype", FLOAT_TYPES)
def test_batch_norm_training_and_eval(shape, dtype, rng):
    x, nx = make_tensor(shape, dtype, "transposed", rng, -3, 5)
    w, nw = make_tensor((3,), dtype, "contiguous", rng)
    b, nb = make_tensor((3,), dtype, "contiguous", rng)
    axes = tuple(i for i in range(len(shape)) if i != 1)
    view = [1, 3] + [1] * (len(shape) - 2)
    mean, var = nx.mean(axes), nx.var(axes)
    n = nx.size // 3
    rm, rv = torch.from_numpy(np.full(3, 0.5, NUMPY_OF[dtype])), torch.from_numpy(np.full(3, 2.0, NUMPY_OF[dtype]))
    got = F.batch_norm(x, rm, rv, w, b, training=True, momentum=0.3, eps=1e-3)
    expected = (nx - mean.reshape(view)) / np.sqrt(var.reshape(view) + 1e-3) * nw.reshape(view) + nb.reshape(view)
    assert_close(got, expected.astype(NUMPY_OF[dtype]), rtol=1e-4, atol=1e-4)
    assert_close(rm, (0.7 * 0.5 + 0.3 * mean).astype(NUMPY_OF[dtype]), rtol=1e-5)
    assert_close(rv, (0.7 * 2.0 + 0.3 * var * n / (n - 1)).astype(NUMPY_OF[dtype]), rtol=1e-5)
    stats = rm.numpy().copy(), rv.numpy().copy()
    got = F.batch_norm(x, rm, rv, w, b, training=False, eps=1e-3)
    expected = (nx - stats[0].reshape(view)) / np.sqrt(stats[1].reshape(view) + 1e-3) * nw.reshape(view)
    assert_close(got, (expected + nb.reshape(view)).astype(NUMPY_OF[dtype]), rtol=1e-4, atol=1e-4)
    np.testing.assert_array_equal(rm.numpy(), stats[0])  # evaluation leaves the statistics alone


def test_batch_norm_gradcheck_and_errors(rng):
    x = leaf((4, 3, 2), rng)
    w, b = leaf((3,), rng), leaf((3,), rng)
    assert gradcheck(lambda u, v, c: F.batch_norm(u, None, None, v, c, training=True), (x, w, b))
    assert gradcheck(lambda u: F.batch_norm(u, None, None, training=True), (x,))
    rm, rv = torch.zeros(3, dtype=D), torch.from_numpy(rng.uniform(0.5, 2, 3))
    assert gradcheck(lambda u, v, c: F.batch_norm(u, rm, rv, v, c, training=False), (x, w, b))
    with pytest.raises(ValueError, match="Expected more than 1 value per channel when training"):
        F.batch_norm(torch.zeros(1, 3), None, None, training=True)
    with pytest.raises(RuntimeError, match="running_mean and running_var must be defined in evaluation mode"):
        F.batch_norm(torch.zeros(2, 3), None, None, training=False)
    with pytest.raises(RuntimeError, match="running_mean should contain 3 elements not 4"):
        F.batch_norm(torch.zeros(2, 3), torch.zeros(4), torch.ones(4), training=True)


def test_instance_layer_group_norm(rng):
    x, nx = make_tensor((2, 4, 5), D, "transposed", rng, -3, 3)
    w, nw = make_tensor((4,), D, "contiguous", rng)
    b, nb = make_tensor((4,), D, "contiguous", rng)
    inst = (nx - nx.mean(2, keepdims=True)) / np.sqrt(nx.var(2, keepdims=True) + 1e-5)
    rm, rv = torch.zeros(4, dtype=D), torch.ones(4, dtype=D)
    got = F.instance_norm(x, rm, rv, w, b, momentum=0.5)
    assert_close(got, inst * nw.reshape(1, 4, 1) + nb.reshape(1, 4, 1))
    assert_close(rm, 0.5 * nx.mean(2).mean(0))
    assert_close(rv, 0.5 + 0.5 * (nx.var(2) * 5 / 4).mean(0))
    assert_close(
        F.instance_norm(x, rm, rv, use_input_stats=False),
        (nx - rm.numpy().reshape(1, 4, 1)) / np.sqrt(rv.numpy().reshape(1, 4, 1) + 1e-5),
    )
    dims = (1, 2)
    layer = (nx - nx.mean(dims, keepdims=True)) / np.sqrt(nx.var(dims, keepdims=True) + 1e-5)
    lw, nlw = make_tensor((4, 5), D, "strided", rng)
    assert_close(F.layer_norm(x, (4, 5), lw), layer * nlw)
    assert_close(F.layer_norm(x, 5), (nx - nx.mean(2, keepdims=True)) / np.sqrt(nx.var(2, keepdims=True) + 1e-5))
    grouped = nx.reshape(2, 2, 10)
    group = (grouped - grouped.mean(2, keepdims=True)) / np.sqrt(grouped.var(2, keepdims=True) + 1e-5)
    assert_close(F.group_norm(x, 2, w, b), group.reshape(2, 4, 5) * nw.reshape(1, 4, 1) + nb.reshape(1, 4, 1))
    u = x.detach().requires_grad_()
    wl, bl = w.detach().requires_grad_(), b.detach().requires_grad_()
    assert gradcheck(lambda t, v, c: F.instance_norm(t, weight=v, bias=c), (u, wl, bl))
    assert gradcheck(lambda t, v: F.layer_norm(t, (5,), v, eps=1e-3), (u, leaf((5,), rng)))
    lb = leaf((4, 5), rng)
    assert gradcheck(lambda t, v, c: F.layer_norm(t, (4, 5), v, c, eps=1e-3), (u, leaf((4, 5), rng), lb))
    assert gradgradcheck(lambda t, v, c: F.layer_norm(t, (4, 5), v, c, eps=1e-3), (u, leaf((4, 5), rng), lb))
    assert gradcheck(lambda t: F.layer_norm(t.transpose(0, 2), (2,), eps=1e-3), (u,))
    assert gradcheck(lambda t, v, c: F.group_norm(t, 2, v, c), (u, wl, bl))
    with pytest.raises(
        RuntimeError,
        match=r"Given normalized_shape=\[4\], expected input with shape \[\*, 4\], but "
        r"got input of size\[2, 4, 5\]",
    ):
        F.layer_norm(x, [4])
    with pytest.raises(RuntimeError, match="Expected number of channels in input to be divisible by num_groups"):
        F.group_norm(x, 3)
    with pytest.raises(ValueError, match="Expected more than 1 spatial element when training"):
        F.instance_norm(torch.zeros(2, 3, 1))


def test_local_response_norm_and_normalize(rng):
    x, nx = make_tensor((2, 5, 3), D, "transposed", rng)
    padded = np.pad(nx * nx, ((0, 0), (2, 1), (0, 0)))  # size 4: channels c - 2 to c + 1
    window = sum(padded[:, i : i + 5] for i in range(4)) / 4
    assert_close(F.local_response_norm(x, 4, alpha=0.1, beta=0.6, k=2.0), nx / (2 + 0.1 * window) ** 0.6)
    assert gradcheck(lambda u: F.local_response_norm(u, 3, alpha=0.5), (x.detach().requires_grad_(),))
    norms = np.maximum(np.sqrt((nx * nx).sum(1, keepdims=True)), 1e-12)
    assert_close(F.normalize(x), nx / norms)
    assert_close(F.normalize(x, p=1, dim=2), nx / np.abs(nx).sum(2, keepdims=True))
    assert gradcheck(lambda u: F.normalize(u, dim=0), (x.detach().requires_grad_(),))


# ---- dropout ----


def test_dropout_statistics_and_reproducibility(rng):
    x = torch.from_numpy(rng.uniform(1, 2, (200, 100)))
    torch.manual_seed(11)
    y = F.dropout(x, 0.3)
    torch.manual_seed(11)
    np.testing.assert_array_equal(F.dropout(x, 0.3).numpy(), y.numpy())
    ny, nx = y.numpy(), x.numpy()
    dropped = ny == 0
    assert abs(dropped.mean() - 0.3) < 0.02
    np.testing.assert_allclose(ny[~dropped], nx[~dropped] / 0.7)
    assert F.dropout(x, 0.3, training=False) is x
    np.testing.assert_array_equal(F.dropout(x, 1.0).numpy(), 0)
    with pytest.raises(ValueError, match="dropout probability has to be between 0 and 1, but got 1.5"):
        F.dropout(x, 1.5)
    # the gradient is the kept mask over 1 - p; in place works through autograd too
    t = leaf((5, 4), rng, 1, 2)
    out = F.dropout(t * 1.0, 0.5, inplace=True)
    out.sum().backward()
    np.testing.assert_allclose(t.grad.numpy(), np.where(out.detach().numpy() == 0, 0, 2.0))


def test_channel_dropout(rng):
    x = torch.from_numpy(rng.uniform(1, 2, (8, 20, 3, 4)))
    torch.manual_seed(5)
    y = F.dropout2d(x, 0.4).numpy()
    per_channel = y.reshape(8, 20, 12)
    zero = (per_channel == 0).all(2)
    assert 0.15 < zero.mean() < 0.65
    kept = ~zero
    np.testing.assert_allclose(per_channel[kept], x.numpy().reshape(8, 20, 12)[kept] / 0.6)
    unbatched = F.dropout1d(torch.ones(30, 5), 0.5).numpy()
    assert set(np.unique(unbatched)) <= {0.0, 2.0} and all(len(set(row)) == 1 for row in unbatched)
    volumes = F.dropout3d(torch.ones(2, 30, 2, 2, 2), 0.5).numpy().reshape(2, 30, 8)
    assert all(len(set(v)) == 1 for v in volumes.reshape(60, 8))
    t = leaf((3, 4, 2, 2), rng, 1, 2)
    torch.manual_seed(1)
    out = F.dropout2d(t, 0.5)
    out.sum().backward()
    np.testing.assert_allclose(t.grad.numpy(), np.where(out.detach().numpy() == 0, 0, 2.0))
    with pytest.warns(UserWarning, match="assuming that channel-wise 1D dropout behavior is desired"):
        F.dropout2d(torch.ones(2, 3, 4), 0.5)
    with pytest.warns(UserWarning, match="Received a 2-D input to dropout2d"):
        F.dropout2d(torch.ones(2, 3), 0.5)
    with pytest.raises(RuntimeError, match="dropout1d: Expected 2D or 3D input"):
        F.dropout1d(torch.ones(2, 3, 4, 5))


def test_alpha_dropout(rng):
    x = torch.from_numpy(rng.standard_normal((400, 100)))
    torch.manual_seed(2)
    y = F.alpha_dropout(x, 0.2, training=True).numpy()
    alpha = 1.7580993408473766
    a = 1 / math.sqrt((alpha**2 * 0.2 + 1) * 0.8)
    dropped_value = -alpha * a + alpha * a * 0.2
    dropped = np.isclose(y, dropped_value)
    assert abs(dropped.mean() - 0.2) < 0.02
    np.testing.assert_allclose(y[~dropped], a * x.numpy()[~dropped] + alpha * a * 0.2)
    assert abs(y.mean()) < 0.05 and abs(y.std() - 1) < 0.05  # self-normalizing: mean 0, variance 1 kept
    assert F.alpha_dropout(x, 0.2) is x  # training defaults to False
    t = leaf((4, 5), rng)
    torch.manual_seed(4)
    out = F.alpha_dropout(t, 0.2, training=True)
    out.sum().backward()
    kept = ~np.isclose(out.detach().numpy(), dropped_value)
    np.testing.assert_allclose(t.grad.numpy(), np.where(kept, a, 0))
    f = F.feature_alpha_dropout(torch.ones(4, 50, 3), 0.5, training=True).numpy()
    assert all(len(set(v)) == 1 for v in f.reshape(200, 3))


# ---- embeddings ----


def test_embedding(rng):
    w, nw = make_tensor((7, 3), D, "transposed", rng)
    idx = np.array([[0, 2, 6], [2, 2, 1]])
    assert_close(F.embedding(torch.from_numpy(idx), w), nw[idx])
    assert_close(F.embedding(torch.from_numpy(idx).int(), w), nw[idx])
    weight = w.detach().clone().requires_grad_()
    g = rng.uniform(-1, 1, (2, 3, 3))
    F.embedding(torch.from_numpy(idx), weight, padding_idx=-5).backward(torch.from_numpy(g))
    expected = np.zeros((7, 3))
    for pos, k in np.ndenumerate(idx):
        if k != 2:
            expected[k] += g[pos]
    np.testing.assert_allclose(weight.grad.numpy(), expected)
    weight.grad = None
    F.embedding(torch.from_numpy(idx), weight, scale_grad_by_freq=True).backward(torch.from_numpy(g))
    counts = np.bincount(idx.reshape(-1), minlength=7)
    expected = np.zeros((7, 3))
    for pos, k in np.ndenumerate(idx):
        expected[k] += g[pos] / counts[k]
    np.testing.assert_allclose(weight.grad.numpy(), expected)
    assert gradcheck(lambda v: F.embedding(torch.from_numpy(idx), v).transpose(0, 2), (weight,))
    weight.grad = None
    F.embedding(torch.from_numpy(idx), weight, sparse=True).sum().backward()  # accepted; the gradient is dense
    np.testing.assert_allclose(weight.grad.numpy(), np.stack([np.bincount(idx.reshape(-1), minlength=7)] * 3, 1))
    with pytest.raises(IndexError, match="index out of range in self"):
        F.embedding(torch.tensor([7]), w)
    with pytest.raises(RuntimeError, match="'indices' to have one of the following scalar types: Long, Int"):
        F.embedding(torch.tensor([1.0]), w)


def test_embedding_max_norm_renormalizes_rows(rng):
    w = torch.from_numpy(rng.uniform(-3, 3, (6, 4)))
    before = w.numpy().copy()
    out = F.embedding(torch.tensor([1, 3, 3]), w, max_norm=1.5)
    norms = np.linalg.norm(w.numpy(), axis=1)
    assert np.all(norms[[1, 3]] <= 1.5 + 1e-9)
    np.testing.assert_allclose(w.numpy()[[0, 2, 4, 5]], before[[0, 2, 4, 5]])  # unused rows untouched
    np.testing.assert_allclose(w.numpy()[1], before[1] * min(1, 1.5 / np.linalg.norm(before[1])), rtol=1e-6)
    assert_close(out, w.numpy()[[1, 3, 3]])


def embedding_bag_np(w, idx, bags, mode, psw=None, padding=None):
    out = np.zeros((len(bags), w.shape[1]))
    for b, (lo, hi) in enumerate(bags):
        rows = [i for i in range(lo, hi) if idx[i] != padding]
        if not rows:
            continue
        vecs = np.stack([w[idx[i]] * (1 if psw is None else psw[i]) for i in rows])
        out[b] = {"sum": vecs.sum(0), "mean": vecs.mean(0), "max": vecs.max(0)}[mode]
    return out


@pytest.mark.parametrize("mode", ["sum", "mean", "max"])
def test_embedding_bag(mode, rng):
    w, nw = make_tensor((8, 3), D, "transposed", rng)
    idx = np.array([0, 2, 7, 2, 2, 1, 4, 5])
    offsets = np.array([0, 3, 3, 6])
    bags = [(0, 3), (3, 3), (3, 6), (6, 8)]
    i, o = torch.from_numpy(idx), torch.from_numpy(offsets)
    assert_close(F.embedding_bag(i, w, o, mode=mode), embedding_bag_np(nw, idx, bags, mode))
    assert_close(F.embedding_bag(i, w, o, mode=mode, padding_idx=2), embedding_bag_np(nw, idx, bags, mode, padding=2))
    last = torch.from_numpy(np.append(offsets, 7))
    assert_close(
        F.embedding_bag(i, w, last, mode=mode, include_last_offset=True),
        embedding_bag_np(nw, idx, [(0, 3), (3, 3), (3, 6), (6, 7)], mode),
    )
    fixed = idx.reshape(2, 4)
    assert_close(
        F.embedding_bag(torch.from_numpy(fixed), w, mode=mode), embedding_bag_np(nw, idx, [(0, 4), (4, 8)], mode)
    )
    assert gradcheck(lambda v: F.embedding_bag(i, v, o, mode=mode), (w.detach().requires_grad_(),))
    weight = w.detach().clone().requires_grad_()
    F.embedding_bag(i, weight, o, mode=mode, padding_idx=2).sum().backward()
    assert np.all(weight.grad.numpy()[2] == 0)
    # scale_grad_by_freq: each row's gradient divided by how often the row is looked up
    plain = torch.autograd.grad(F.embedding_bag(i, weight, o, mode=mode).sum(), weight)[0].numpy()
    scaled = torch.autograd.grad(F.embedding_bag(i, weight, o, mode=mode, scale_grad_by_freq=True).sum(), weight)[0]
    counts = np.maximum(np.bincount(idx, minlength=8), 1).reshape(8, 1)
    np.testing.assert_allclose(scaled.numpy(), plain / counts)


def test_embedding_bag_per_sample_weights_and_errors(rng):
    w, nw = make_tensor((6, 2), D, "contiguous", rng)
    idx = np.array([1, 5, 5, 0, 3])
    psw = rng.uniform(-1, 1, 5)
    i, o = torch.from_numpy(idx), torch.tensor([0, 2])
    got = F.embedding_bag(i, w, o, mode="sum", per_sample_weights=torch.from_numpy(psw))
    assert_close(got, embedding_bag_np(nw, idx, [(0, 2), (2, 5)], "sum", psw))
    assert gradcheck(
        lambda v, p: F.embedding_bag(i, v, o, mode="sum", per_sample_weights=p),
        (w.detach().requires_grad_(), torch.from_numpy(psw).requires_grad_()),
    )
    with pytest.raises(NotImplementedError, match="per_sample_weights is only supported for mode='sum'"):
        F.embedding_bag(i, w, o, mode="mean", per_sample_weights=torch.from_numpy(psw))
    with pytest.raises(ValueError, match="offsets has to be a 1D Tensor but got None"):
        F.embedding_bag(i, w)
    with pytest.raises(ValueError, match="if input is 2D, then offsets has to be None"):
        F.embedding_bag(i.reshape(1, 5), w, o)
    with pytest.raises(ValueError, match="mode has to be one of sum, mean or max"):
        F.embedding_bag(i, w, o, mode="median")
    with pytest.raises(ValueError, match="offsets\\[0\\] has to be 0"):
        F.embedding_bag(i, w, torch.tensor([1, 2]))
    with pytest.raises(IndexError, match="index out of range in self"):
        F.embedding_bag(torch.tensor([6]), w, torch.tensor([0]))


def test_one_hot_and_distances(rng):
    t = torch.tensor([[0, 3], [1, 1]])
    assert_close(F.one_hot(t), np.eye(4, dtype=np.int64)[t.numpy()])
    assert_close(F.one_hot(t, 6), np.eye(6, dtype=np.int64)[t.numpy()])
    with pytest.raises(RuntimeError, match="Class values must be smaller than num_classes"):
        F.one_hot(t, 3)
    with pytest.raises(RuntimeError, match="Class values must be non-negative"):
        F.one_hot(torch.tensor([-1, 0]))
    with pytest.raises(RuntimeError, match="one_hot is only applicable to index tensor"):
        F.one_hot(torch.tensor([1.0]))
    a, na = make_tensor((4, 5), D, "transposed", rng)
    b, nb = make_tensor((5,), D, "contiguous", rng)
    cos = (na * nb).sum(1) / (np.linalg.norm(na, axis=1) * np.linalg.norm(nb))
    assert_close(F.cosine_similarity(a, b.expand(4, 5)), cos)
    assert_close(F.cosine_similarity(a, b, dim=-1), cos)  # broadcast
    assert_close(F.pairwise_distance(a, b), np.linalg.norm(na - nb + 1e-6, axis=1))
    assert_close(F.pairwise_distance(a, b, p=1, keepdim=True), np.abs(na - nb + 1e-6).sum(1, keepdims=True))
    assert gradcheck(F.cosine_similarity, (a.detach().requires_grad_(), leaf((4, 5), rng)))
    assert gradcheck(lambda u, v: F.pairwise_distance(u, v, p=3), (a.detach().requires_grad_(), leaf((4, 5), rng)))
