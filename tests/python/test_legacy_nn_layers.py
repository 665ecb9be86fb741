"""torch.legacy.nn activations and simple layers: outputs against numpy formulas and
torch.nn.functional (its autograd as a second reference for gradients), gradients against
numerical Jacobians (double), in-place variants, parameters and error cases."""

import math

import numpy as np
import pytest

import torch
import torch.nn.functional as F
from conftest import LAYOUTS, make_tensor
from legacy_helpers import dbl, double_default  # noqa: F401 (double_default: the fixture pytestmark names)
from torch.legacy import nn

PREC = 1e-6
J = nn.Jacobian


pytestmark = pytest.mark.usefixtures("double_default")


def sigmoid(x):
    return 1 / (1 + np.exp(-x))


def softmax(x, axis):
    e = np.exp(x - x.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)


# (module factory, numpy forward, torch.nn.functional forward or None)
POINTWISE = {
    "Tanh": (nn.Tanh, np.tanh, torch.tanh),
    "Sigmoid": (nn.Sigmoid, sigmoid, torch.sigmoid),
    "ReLU": (nn.ReLU, lambda x: np.maximum(x, 0), F.relu),
    "ReLU6": (nn.ReLU6, lambda x: np.clip(x, 0, 6), F.relu6),
    "LeakyReLU": (lambda: nn.LeakyReLU(0.1), lambda x: np.where(x > 0, x, 0.1 * x), lambda x: F.leaky_relu(x, 0.1)),
    "ELU": (lambda: nn.ELU(0.7), lambda x: np.where(x > 0, x, 0.7 * (np.exp(x) - 1)), lambda x: F.elu(x, 0.7)),
    "HardTanh": (lambda: nn.HardTanh(-0.5, 1.5), lambda x: np.clip(x, -0.5, 1.5), lambda x: F.hardtanh(x, -0.5, 1.5)),
    "Clamp": (lambda: nn.Clamp(-1, 0.5), lambda x: np.clip(x, -1, 0.5), None),
    "HardShrink": (
        lambda: nn.HardShrink(0.6),
        lambda x: np.where(np.abs(x) > 0.6, x, 0),
        lambda x: F.hardshrink(x, 0.6),
    ),
    "SoftShrink": (
        lambda: nn.SoftShrink(0.6),
        lambda x: np.sign(x) * np.maximum(np.abs(x) - 0.6, 0),
        lambda x: F.softshrink(x, 0.6),
    ),
    "SoftPlus": (lambda: nn.SoftPlus(2), lambda x: np.log1p(np.exp(2 * x)) / 2, lambda x: F.softplus(x, 2)),
    "SoftSign": (nn.SoftSign, lambda x: x / (1 + np.abs(x)), F.softsign),
    "LogSigmoid": (nn.LogSigmoid, lambda x: np.log(sigmoid(x)), F.logsigmoid),
    "Threshold": (lambda: nn.Threshold(0.3, -2), lambda x: np.where(x > 0.3, x, -2), lambda x: F.threshold(x, 0.3, -2)),
    "Exp": (nn.Exp, np.exp, torch.exp),
    "Square": (nn.Square, np.square, None),
    "Abs": (nn.Abs, np.abs, torch.abs),
    "Power": (lambda: nn.Power(3), lambda x: x**3, None),
    "MulConstant": (lambda: nn.MulConstant(-1.5), lambda x: -1.5 * x, None),
    "AddConstant": (lambda: nn.AddConstant(2.5), lambda x: x + 2.5, None),
    "GradientReversal": (nn.GradientReversal, lambda x: x, None),
    "Identity": (nn.Identity, lambda x: x, None),
    "Contiguous": (nn.Contiguous, lambda x: x, None),
}
POSITIVE = {
    "Log": (nn.Log, np.log, torch.log),
    "Sqrt": (lambda: nn.Sqrt(0.1), lambda x: np.sqrt(x + 0.1), None),
    "Power_half": (lambda: nn.Power(0.5), np.sqrt, None),
}


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("name", sorted(POINTWISE) + sorted(POSITIVE))
def test_pointwise_forward_and_gradient(name, layout, rng):
    make, ref, functional = POINTWISE.get(name) or POSITIVE[name]
    low = -3 if name in POINTWISE else 0.2
    x, xa = make_tensor((3, 5), torch.float64, layout, rng, low, 3)
    go, goa = make_tensor((3, 5), torch.float64, "contiguous", rng, -1, 1)
    m = make()
    out = m.forward(x)
    np.testing.assert_allclose(out.numpy(), ref(xa), rtol=1e-12, atol=1e-14)
    gi = m.backward(x, go)
    np.testing.assert_array_equal(x.numpy(), xa)  # not in place
    if functional is not None:
        xr = x.detach().clone().requires_grad_(True)
        functional(xr).backward(go)
        np.testing.assert_allclose(gi.numpy(), xr.grad.numpy(), rtol=1e-10, atol=1e-12)
    assert gi.shape == x.shape


@pytest.mark.parametrize("name", sorted(POINTWISE) + sorted(POSITIVE))
def test_pointwise_jacobian_and_errors(name):
    make, *_ = POINTWISE.get(name) or POSITIVE[name]
    m = make()
    low, high = (-3, 3) if name in POINTWISE else (0.2, 3)
    if name == "GradientReversal":  # its backward is minus the derivative, on purpose
        x = torch.randn(2, 3)
        assert (J.backward(m, x) + J.forward(m, x)).abs().max() < PREC
    else:
        assert J.testJacobian(m, torch.empty(2, 3, 2), low, high) < PREC
    x = torch.empty(2, 3).uniform_(low, high)
    m.forward(x)
    before = x.clone()
    if name != "Identity":  # which passes anything through
        with pytest.raises(RuntimeError, match="size"):
            m.backward(x, torch.ones(3, 2))
        with pytest.raises(TypeError):
            m.forward([1.0, 2.0])
    np.testing.assert_array_equal(x.numpy(), before.numpy())


def test_gradient_reversal_and_identity():
    x, go = torch.randn(4), torch.randn(4)
    g = nn.GradientReversal(0.5)
    np.testing.assert_array_equal(g.backward(x, go).numpy(), -0.5 * go.numpy())
    g.setLambda(2)
    np.testing.assert_array_equal(g.backward(x, go).numpy(), -2 * go.numpy())
    i = nn.Identity()
    table = [x, [go]]
    assert i.forward(table) is table and i.backward(table, table) is table


@pytest.mark.parametrize(
    "cls, args",
    [
        (nn.ReLU, (True,)),
        (nn.ReLU6, (True,)),
        (nn.HardTanh, (-1, 1, True)),
        (nn.LeakyReLU, (0.2, True)),
        (nn.ELU, (1.0, True)),
        (nn.Threshold, (0.1, 0, True)),
    ],
)
def test_in_place_activations(cls, args, rng):
    xa = rng.uniform(-3, 3, (3, 4))
    ref = cls(*args[:-1]) if cls not in (nn.ReLU, nn.ReLU6) else cls()
    expected = ref.forward(dbl(xa)).numpy().copy()
    goa = rng.uniform(-1, 1, (3, 4))
    expected_grad = ref.backward(dbl(xa), dbl(goa)).numpy().copy()
    m = cls(*args)
    x, go = dbl(xa), dbl(goa)
    out = m.forward(x)
    assert out is x
    np.testing.assert_allclose(x.numpy(), expected, rtol=1e-14)
    gi = m.backward(x, go)
    assert gi is go
    np.testing.assert_allclose(gi.numpy(), expected_grad, rtol=1e-14)


@pytest.mark.parametrize("cls, c", [(nn.MulConstant, 3.0), (nn.AddConstant, -1.25)])
def test_constant_in_place_restores_input(cls, c, rng):
    xa = rng.normal(size=(2, 3))
    x, go = dbl(xa.copy()), torch.ones(2, 3)
    m = cls(c, True)
    out = m.forward(x)
    assert out is x
    np.testing.assert_allclose(out.numpy(), xa * c if cls is nn.MulConstant else xa + c)
    m.backward(x, go)
    np.testing.assert_allclose(x.numpy(), xa, rtol=1e-14)  # the input is restored by backward
    np.testing.assert_allclose(go.numpy(), np.full((2, 3), c if cls is nn.MulConstant else 1.0))


@pytest.mark.parametrize("shape", [(5,), (3, 5), (2, 3, 2), (2, 3, 2, 2)])
@pytest.mark.parametrize("cls", [nn.SoftMax, nn.SoftMin, nn.LogSoftMax])
def test_softmax_family(cls, shape, rng):
    x = dbl(rng.normal(size=shape))
    dim = 0 if len(shape) in (1, 3) else 1
    ref = {
        nn.SoftMax: lambda a: softmax(a, dim),
        nn.SoftMin: lambda a: softmax(-a, dim),
        nn.LogSoftMax: lambda a: np.log(softmax(a, dim)),
    }[cls]
    m = cls()
    np.testing.assert_allclose(m.forward(x).numpy(), ref(x.numpy()), rtol=1e-10, atol=1e-14)
    assert J.testJacobian(m, x.clone()) < PREC
    with pytest.raises(RuntimeError, match="dimensions"):
        m.forward(torch.zeros(1, 1, 1, 1, 1))


# ---------------------------------------------------------------- PReLU and RReLU


@pytest.mark.parametrize("planes, shape", [(0, (3, 4)), (4, (3, 4)), (3, (3, 2, 2)), (3, (2, 3, 2, 2)), (5, (5,))])
def test_prelu(planes, shape, rng):
    m = nn.PReLU(planes)
    m.weight.copy_(dbl(rng.uniform(0, 0.5, m.weight.shape)))
    x = dbl(rng.normal(size=shape))
    w = m.weight.numpy()
    dim = 0 if len(shape) in (1, 3) else 1
    wb = w.reshape([-1 if d == dim else 1 for d in range(len(shape))]) if planes else w[0]
    np.testing.assert_allclose(m.forward(x).numpy(), np.where(x.numpy() > 0, x.numpy(), wb * x.numpy()))
    xr, wr = x.clone().requires_grad_(True), m.weight.clone().requires_grad_(True)
    go = dbl(rng.normal(size=shape))
    m.zeroGradParameters()
    gi = m.backward(x, go)
    if len(shape) in (2, 4):  # torch.nn's channel dimension is torch7's there
        F.prelu(xr, wr).backward(go)
        np.testing.assert_allclose(gi.numpy(), xr.grad.numpy(), rtol=1e-12)
        np.testing.assert_allclose(m.gradWeight.numpy(), wr.grad.numpy(), rtol=1e-10)
    assert J.testJacobian(m, x.clone()) < PREC
    assert J.testJacobianParameters(m, x.clone(), m.weight, m.gradWeight, 0, 1) < PREC
    if planes:
        bad = list(shape)
        bad[dim] += 1
        with pytest.raises(RuntimeError, match="channels"):
            m.forward(torch.zeros(bad))


def test_rrelu_training_and_evaluation():
    torch.manual_seed(3)
    m = nn.RReLU(0.1, 0.3)
    x = torch.randn(50, 20)
    out = m.forward(x)
    neg = x < 0
    slopes = out[neg] / x[neg]
    assert slopes.min() >= 0.1 and slopes.max() <= 0.3 and slopes.std() > 0.02
    np.testing.assert_array_equal(out[~neg].numpy(), x[~neg].numpy())
    go = torch.randn(50, 20)
    np.testing.assert_allclose(m.backward(x, go).numpy(), (go * m.noise).numpy())
    m.evaluate()
    np.testing.assert_allclose(m.forward(x).numpy(), torch.where(neg, x * 0.2, x).numpy(), rtol=1e-14)
    assert J.testJacobian(m, torch.empty(3, 4)) < PREC
    with pytest.raises(ValueError):
        nn.RReLU(0.5, 0.1)


# ---------------------------------------------------------------- parametrized layers


def param_cases():
    return {
        "Linear": (lambda: nn.Linear(4, 3), (2, 4)),
        "LinearWeightNorm": (lambda: nn.LinearWeightNorm(4, 3), (2, 4)),
        "LinearWeightNorm_1d": (lambda: nn.LinearWeightNorm(4, 3), (4,)),
        "Add": (lambda: nn.Add(4), (3, 4)),
        "Add_single": (lambda: nn.Add(4), (4,)),
        "Add_scalar": (lambda: nn.Add(4, True), (3, 4)),
        "CAdd": (lambda: nn.CAdd(3, 1), (3, 4)),
        "CAdd_batch": (lambda: nn.CAdd(2, 2), (3, 2, 2)),
        "CMul": (lambda: nn.CMul(4), (3, 4)),
        "CMul_broadcast": (lambda: nn.CMul(1, 4), (3, 4)),
        "CMul_same": (lambda: nn.CMul(3, 4), (3, 4)),
        "Mul": (nn.Mul, (3, 4)),
        "Euclidean": (lambda: nn.Euclidean(4, 3), (2, 4)),
        "Euclidean_1d": (lambda: nn.Euclidean(4, 3), (4,)),
        "WeightedEuclidean": (lambda: nn.WeightedEuclidean(4, 3), (2, 4)),
        "Cosine": (lambda: nn.Cosine(4, 3), (2, 4)),
        "Cosine_1d": (lambda: nn.Cosine(4, 3), (4,)),
        "PReLU": (lambda: nn.PReLU(4), (3, 4)),
    }


@pytest.mark.parametrize("name", sorted(param_cases()))
def test_parameter_jacobians(name):
    make, shape = param_cases()[name]
    m = make()
    x = torch.empty(shape)
    assert J.testJacobian(m, x) < PREC
    params, grads = m.parameters()
    for p, g in zip(params, grads):
        assert J.testJacobianParameters(m, x, p, g) < PREC
        assert J.testJacobianUpdateParameters(m, x, p) < PREC


def test_cmul_cadd_add_mul_against_numpy(rng):
    x = dbl(rng.normal(size=(3, 4)))
    m = nn.CMul(1, 4)
    np.testing.assert_allclose(m.forward(x).numpy(), x.numpy() * m.weight.numpy())
    m = nn.CMul(4)
    np.testing.assert_allclose(m.forward(x).numpy(), x.numpy() * m.weight.numpy())
    a = nn.CAdd(3, 1)
    np.testing.assert_allclose(a.forward(x).numpy(), x.numpy() + a.bias.numpy())
    add = nn.Add(4)
    np.testing.assert_allclose(add.forward(x).numpy(), x.numpy() + add.bias.numpy())
    s = nn.Add(4, True)
    assert s.bias.shape == (1,)
    np.testing.assert_allclose(s.forward(x).numpy(), x.numpy() + s.bias.item())
    mul = nn.Mul()
    np.testing.assert_allclose(mul.forward(x).numpy(), x.numpy() * mul.weight.item())
    with pytest.raises(RuntimeError, match="broadcast"):
        nn.CMul(2, 4).forward(x)
    with pytest.raises(RuntimeError, match="batch"):
        nn.CMul(5).forward(x)


def test_distance_layers_against_numpy(rng):
    x = dbl(rng.normal(size=(3, 4)))
    e = nn.Euclidean(4, 2)
    w = e.weight.numpy()
    expected = np.linalg.norm(x.numpy()[:, :, None] - w[None], axis=1)
    np.testing.assert_allclose(e.forward(x).numpy(), expected, rtol=1e-12)
    we = nn.WeightedEuclidean(4, 2)
    we.diagCov.uniform_(0.5, 2)
    expected = np.linalg.norm((x.numpy()[:, :, None] - we.weight.numpy()[None]) * we.diagCov.numpy()[None], axis=1)
    np.testing.assert_allclose(we.forward(x).numpy(), expected, rtol=1e-12)
    c = nn.Cosine(4, 2)
    cw = c.weight.numpy()
    expected = (x.numpy() @ cw.T) / np.linalg.norm(x.numpy(), axis=1)[:, None] / np.linalg.norm(cw, axis=1)[None]
    np.testing.assert_allclose(c.forward(x).numpy(), expected, rtol=1e-10)
    with pytest.raises(RuntimeError, match="4 elements"):
        e.forward(torch.zeros(3, 5))


def test_linear_weight_norm_matches_definition(rng):
    m = nn.LinearWeightNorm(4, 3)
    m.g.copy_(dbl(rng.uniform(0.5, 2, (3, 1))))
    x = dbl(rng.normal(size=(2, 4)))
    v = m.v.numpy()
    w = m.g.numpy() * v / np.linalg.norm(v, axis=1, keepdims=True)
    np.testing.assert_allclose(m.forward(x).numpy(), x.numpy() @ w.T + m.bias.numpy(), rtol=1e-12)
    assert [p.shape for p in m.parameters()[0]] == [(3, 4), (3, 1), (3,)]
    assert str(m) == "nn.LinearWeightNorm(4 -> 3)"


def test_bilinear(rng):
    m = nn.Bilinear(3, 2, 4)
    a, b = dbl(rng.normal(size=(5, 3))), dbl(rng.normal(size=(5, 2)))
    expected = np.einsum("bi,kij,bj->bk", a.numpy(), m.weight.numpy(), b.numpy()) + m.bias.numpy()
    np.testing.assert_allclose(m.forward([a, b]).numpy(), expected, rtol=1e-12)
    ar, br = a.clone().requires_grad_(True), b.clone().requires_grad_(True)
    wr, bias = m.weight.clone().requires_grad_(True), m.bias.clone().requires_grad_(True)
    go = dbl(rng.normal(size=(5, 4)))
    F.bilinear(ar, br, wr, bias).backward(go)
    m.zeroGradParameters()
    ga, gb = m.backward([a, b], go)
    np.testing.assert_allclose(ga.numpy(), ar.grad.numpy(), rtol=1e-10)
    np.testing.assert_allclose(gb.numpy(), br.grad.numpy(), rtol=1e-10)
    np.testing.assert_allclose(m.gradWeight.numpy(), wr.grad.numpy(), rtol=1e-10)
    inputs = [torch.empty(2, 3), torch.empty(2, 2)]
    assert J.testJacobian(m, inputs) < PREC
    assert J.testJacobianParameters(m, inputs, m.weight, m.gradWeight) < PREC
    with pytest.raises(RuntimeError, match="do not fit"):
        m.forward([a, dbl(rng.normal(size=(5, 3)))])
    assert str(m) == "nn.Bilinear(3 x 2 -> 4)"


def test_lookup_table(rng):
    m = nn.LookupTable(6, 3)
    idx = torch.tensor([[0, 5, 2], [2, 2, 1]])
    out = m.forward(idx)
    np.testing.assert_array_equal(out.numpy(), m.weight.numpy()[idx.numpy()])
    go = dbl(rng.normal(size=(2, 3, 3)))
    m.zeroGradParameters()
    m.backward(idx, go, 0.5)
    expected = np.zeros((6, 3))
    np.add.at(expected, idx.numpy().ravel(), 0.5 * go.numpy().reshape(-1, 3))
    np.testing.assert_allclose(m.gradWeight.numpy(), expected, rtol=1e-12)
    # the same weights in F.embedding and its autograd
    wr = m.weight.clone().requires_grad_(True)
    F.embedding(idx, wr).backward(go)
    np.testing.assert_allclose(2 * m.gradWeight.numpy(), wr.grad.numpy(), rtol=1e-12)
    num = J.forward(m, idx, m.weight)
    ana = J.backward(m, idx, m.weight, m.gradWeight)
    assert (num - ana).abs().max() < PREC
    # padding rows get no gradient; scaling by frequency
    p = nn.LookupTable(6, 3, 2)
    p.zeroGradParameters()
    p.forward(idx)
    p.backward(idx, go)
    assert p.gradWeight[2].abs().sum() == 0 and p.gradWeight[5].abs().sum() > 0
    f = nn.LookupTable(6, 3).scaleGradByFreq()
    f.forward(idx)
    f.backward(idx, torch.ones(2, 3, 3))
    np.testing.assert_allclose(f.gradWeight[:, 0].numpy(), [1, 1, 1, 0, 0, 1])
    with pytest.raises(IndexError, match="6"):
        m.forward(torch.tensor([0, 6]))
    with pytest.raises(IndexError):
        m.forward(torch.tensor([-1]))


def test_lookup_table_max_norm():
    m = nn.LookupTable(4, 3, -1, 1.0)
    m.weight.copy_(dbl([[3, 4, 0], [0.1, 0, 0], [0, 0, 2], [5, 0, 0]]))
    m.forward(torch.tensor([0, 1, 2]))
    norms = np.linalg.norm(m.weight.numpy(), axis=1)
    np.testing.assert_allclose(norms[:3], [1, 0.1, 1], rtol=1e-6)
    assert norms[3] == 5  # not looked up: unchanged


# ---------------------------------------------------------------- Dropout, L1Penalty, Maxout


@pytest.mark.parametrize("v1", [False, True])
def test_dropout(v1):
    torch.manual_seed(0)
    m = nn.Dropout(0.25, v1)
    x = torch.ones(200, 50)
    out = m.forward(x)
    kept = out != 0
    assert abs(kept.double().mean().item() - 0.75) < 0.02
    np.testing.assert_allclose(out[kept].numpy(), 1 if v1 else 1 / 0.75)
    go = torch.randn(200, 50)
    np.testing.assert_allclose(m.backward(x, go).numpy(), (go * m.noise).numpy())
    m.evaluate()
    np.testing.assert_allclose(m.forward(x).numpy(), np.full((200, 50), 0.75 if v1 else 1.0))
    assert str(m) == "nn.Dropout(0.2500)"
    inplace = nn.Dropout(0.5, False, True)
    y = torch.ones(10)
    assert inplace.forward(y) is y
    with pytest.raises(ValueError):
        nn.Dropout(1.0)


def test_l1_penalty(rng):
    x = dbl(rng.normal(size=(3, 4)))
    go = dbl(rng.normal(size=(3, 4)))
    m = nn.L1Penalty(0.5)
    assert m.forward(x) is x and m.loss == pytest.approx(0.5 * np.abs(x.numpy()).sum())
    np.testing.assert_allclose(m.backward(x, go).numpy(), 0.5 * np.sign(x.numpy()) + go.numpy())
    m = nn.L1Penalty(0.5, True, False)
    m.forward(x)
    assert m.loss == pytest.approx(0.5 * np.abs(x.numpy()).sum() / 12)
    np.testing.assert_allclose(m.backward(x, go).numpy(), 0.5 / 12 * np.sign(x.numpy()))


def test_maxout(rng):
    m = nn.Maxout(4, 3, 2)
    x = dbl(rng.normal(size=(5, 4)))
    lin = m.get(0)
    z = x.numpy() @ lin.weight.numpy().T + lin.bias.numpy()
    np.testing.assert_allclose(m.forward(x).numpy(), z.reshape(5, 2, 3).max(1), rtol=1e-12)
    assert m.forward(x[0]).shape == (3,)
    assert J.testJacobian(m, torch.empty(2, 4)) < PREC
    assert J.testJacobianParameters(m, torch.empty(2, 4), lin.weight, lin.gradWeight) < PREC
    assert str(m).startswith("nn.Maxout {")


# ---------------------------------------------------------------- shapes

SHAPE_CASES = {
    "View": (lambda: nn.View(6), (2, 3), lambda a: a.reshape(6)),
    "View_batch": (lambda: nn.View(6), (4, 2, 3), lambda a: a.reshape(4, 6)),
    "View_minus_one": (lambda: nn.View(-1, 2), (2, 3, 2), lambda a: a.reshape(-1, 2)),
    "View_numInputDims": (lambda: nn.View(6).setNumInputDims(2), (1, 2, 3), lambda a: a.reshape(1, 6)),
    "Reshape": (lambda: nn.Reshape(3, 2), (2, 3), lambda a: a.reshape(3, 2)),
    "Reshape_batch": (lambda: nn.Reshape(3, 2), (4, 2, 3), lambda a: a.reshape(4, 3, 2)),
    "Select": (lambda: nn.Select(1, 2), (2, 4, 3), lambda a: a[:, 2]),
    "Select_negative": (lambda: nn.Select(-1, -1), (2, 4, 3), lambda a: a[..., -1]),
    "Narrow": (lambda: nn.Narrow(1, 1, 2), (2, 4, 3), lambda a: a[:, 1:3]),
    # torch7's negative offset: the first size - length elements
    "Narrow_negative": (lambda: nn.Narrow(0, -2, 3), (5, 2), lambda a: a[:2]),
    "Narrow_negative_length": (lambda: nn.Narrow(0, 1, -2), (5, 2), lambda a: a[1:4]),
    "Squeeze": (nn.Squeeze, (2, 1, 3, 1), lambda a: a.reshape(2, 3)),
    "Squeeze_dim": (lambda: nn.Squeeze(1), (2, 1, 3, 1), lambda a: a.reshape(2, 3, 1)),
    "Squeeze_batch": (lambda: nn.Squeeze(0, 2), (4, 1, 3), lambda a: a.reshape(4, 3)),
    "Unsqueeze": (lambda: nn.Unsqueeze(1), (2, 3), lambda a: a[:, None]),
    "Unsqueeze_batch": (lambda: nn.Unsqueeze(0, 2), (4, 2, 3), lambda a: a[:, None]),
    "Transpose": (lambda: nn.Transpose((0, 1), (1, 2)), (2, 3, 4), lambda a: a.swapaxes(0, 1).swapaxes(1, 2)),
    "Replicate": (lambda: nn.Replicate(3), (2, 4), lambda a: np.broadcast_to(a, (3, 2, 4))),
    "Replicate_batch": (lambda: nn.Replicate(3, 0, 1), (2, 4), lambda a: np.broadcast_to(a[:, None], (2, 3, 4))),
    "Replicate_last": (lambda: nn.Replicate(3, 1, 1), (2, 4), lambda a: np.broadcast_to(a[:, :, None], (2, 4, 3))),
    "Padding_after": (lambda: nn.Padding(0, 2, None, -1), (3, 2), lambda a: np.concatenate([a, np.full((2, 2), -1.0)])),
    "Padding_before": (lambda: nn.Padding(1, -1), (3, 2), lambda a: np.concatenate([np.zeros((3, 1)), a], 1)),
    "Padding_batch_index": (
        lambda: nn.Padding(0, -2, 1, 7, 1),
        (2, 4),
        lambda a: np.concatenate([a[:, :1], np.full((2, 2), 7.0), a[:, 1:]], 1),
    ),
    "Sum": (lambda: nn.Sum(1), (2, 3, 4), lambda a: a.sum(1)),
    "Sum_batch": (lambda: nn.Sum(0, 1), (3, 4), lambda a: a.sum(1)),
    "Sum_keep": (lambda: nn.Sum(0, None, True, False), (3, 4), lambda a: a.mean(0, keepdims=True)),
    "Sum_1d": (lambda: nn.Sum(0), (4,), lambda a: a.sum(0, keepdims=True)),
    "Mean": (lambda: nn.Mean(-1), (2, 3, 4), lambda a: a.mean(-1)),
    "Max": (lambda: nn.Max(1), (2, 5, 3), lambda a: a.max(1)),
    "Max_batch": (lambda: nn.Max(0, 1), (3, 4), lambda a: a.max(1)),
    "Min": (lambda: nn.Min(0), (4, 3), lambda a: a.min(0)),
    "Normalize_2": (lambda: nn.Normalize(2), (3, 4), lambda a: a / np.sqrt((a**2).sum(1, keepdims=True) + 1e-10)),
    "Normalize_1_1d": (lambda: nn.Normalize(1), (4,), lambda a: a / (np.abs(a).sum() + 1e-10)),
    "Normalize_3": (
        lambda: nn.Normalize(3),
        (3, 4),
        lambda a: a / ((np.abs(a) ** 3).sum(1, keepdims=True) + 1e-10) ** (1 / 3),
    ),
    "Normalize_inf": (lambda: nn.Normalize(math.inf), (3, 4), lambda a: a / (np.abs(a).max(1, keepdims=True) + 1e-10)),
    "Copy": (lambda: nn.Copy(torch.float64, "torch.FloatTensor"), (2, 3), lambda a: a.astype(np.float32)),
}


@pytest.mark.parametrize("layout", ["contiguous", "transposed"])
@pytest.mark.parametrize("name", sorted(SHAPE_CASES))
def test_shape_modules(name, layout, rng):
    make, shape, ref = SHAPE_CASES[name]
    m = make()
    x, xa = make_tensor(shape, torch.float64, layout, rng, -3, 3)
    out = m.forward(x)
    expected = ref(xa)
    assert out.shape == expected.shape
    np.testing.assert_allclose(out.numpy(), expected, rtol=1e-6 if name == "Copy" else 1e-12)
    if name != "Copy":  # (float output: no double Jacobian)
        assert J.testJacobian(m, torch.empty(shape)) < PREC
    go = torch.ones(out.shape, dtype=out.dtype)
    assert m.backward(x, go).shape == x.shape


def test_max_min_indices_are_zero_based():
    x = dbl([[1, 5, 2], [7, 0, 3]])
    m = nn.Max(1)
    np.testing.assert_array_equal(m.forward(x).numpy(), [5, 7])
    assert m.indices.reshape(-1).tolist() == [1, 0]
    np.testing.assert_array_equal(m.backward(x, dbl([10, 20])).numpy(), [[0, 10, 0], [20, 0, 0]])
    m = nn.Min(0)
    np.testing.assert_array_equal(m.forward(x).numpy(), [1, 0, 2])
    assert m.indices.reshape(-1).tolist() == [0, 1, 0]


def test_view_reshape_and_selection_errors():
    x = torch.zeros(2, 3)
    with pytest.raises(RuntimeError, match="cannot be viewed"):
        nn.View(4).forward(x)
    with pytest.raises(ValueError):
        nn.View(-1, -1)
    with pytest.raises(RuntimeError, match="cannot be reshaped"):
        nn.Reshape(4).forward(x)
    with pytest.raises(IndexError, match="out of range"):
        nn.Select(1, 3).forward(x)
    with pytest.raises(IndexError, match="out of range"):
        nn.Select(2, 0).forward(x)
    with pytest.raises(IndexError):
        nn.Narrow(1, 2, 2).forward(x)
    with pytest.raises(IndexError):
        nn.Sum(2).forward(x)
    with pytest.raises(RuntimeError, match="gradOutput"):
        nn.Padding(0, 1).backward(x, torch.zeros(2, 3))
    assert str(nn.View(2, -1)) == "nn.View(2, -1)" and str(nn.Reshape(3, 2)) == "nn.Reshape(3x2)"


def test_index_module(rng):
    t = dbl(rng.normal(size=(4, 3)))
    idx = torch.tensor([3, 0, 3])
    m = nn.Index(0)
    np.testing.assert_array_equal(m.forward([t, idx]).numpy(), t.numpy()[[3, 0, 3]])
    go = dbl(rng.normal(size=(3, 3)))
    g, gi = m.backward([t, idx], go)
    expected = np.zeros((4, 3))
    np.add.at(expected, [3, 0, 3], go.numpy())
    np.testing.assert_allclose(g.numpy(), expected)
    assert gi.tolist() == [0, 0, 0]
    with pytest.raises(IndexError):
        m.forward([t, torch.tensor([4])])


def test_copy_types():
    m = nn.Copy("torch.DoubleTensor", "torch.FloatTensor")
    x = torch.randn(3)
    out = m.forward(x)
    assert out.dtype == torch.float32
    assert m.backward(x, torch.ones(3, dtype=torch.float32)).dtype == torch.float64
    same = nn.Copy(torch.float64, torch.float64)
    assert same.forward(x) is not None and same.forward(x).data_ptr() == x.data_ptr()
    forced = nn.Copy(torch.float64, torch.float64, True)
    assert forced.forward(x).data_ptr() != x.data_ptr()
    m.float()
    assert m.forward(x).dtype == torch.float32 and m.intype == "torch.FloatTensor"
    kept = nn.Copy(torch.float64, torch.float32, False, True).float()
    assert kept.intype == "torch.DoubleTensor"


@pytest.mark.parametrize("trans", [(False, False), (True, False), (False, True), (True, True)])
@pytest.mark.parametrize("batch", [False, True])
def test_mm(trans, batch, rng):
    ta, tb = trans
    lead = (2,) if batch else ()
    a = dbl(rng.normal(size=lead + ((4, 3) if ta else (3, 4))))
    b = dbl(rng.normal(size=lead + ((5, 4) if tb else (4, 5))))
    m = nn.MM(ta, tb)
    an = np.swapaxes(a.numpy(), -1, -2) if ta else a.numpy()
    bn = np.swapaxes(b.numpy(), -1, -2) if tb else b.numpy()
    np.testing.assert_allclose(m.forward([a, b]).numpy(), an @ bn, rtol=1e-12)
    assert J.testJacobian(m, [a.clone(), b.clone()]) < PREC
    with pytest.raises(RuntimeError, match="multiply"):
        m.forward([a, dbl(rng.normal(size=lead + (7, 7)))])


@pytest.mark.parametrize("trans", [False, True])
@pytest.mark.parametrize("batch", [False, True])
def test_mv(trans, batch, rng):
    lead = (2,) if batch else ()
    mat = dbl(rng.normal(size=lead + (3, 4)))
    v = dbl(rng.normal(size=lead + ((3,) if trans else (4,))))
    m = nn.MV(trans)
    mn = np.swapaxes(mat.numpy(), -1, -2) if trans else mat.numpy()
    np.testing.assert_allclose(m.forward([mat, v]).numpy(), np.einsum("...ij,...j->...i", mn, v.numpy()), rtol=1e-12)
    assert J.testJacobian(m, [mat.clone(), v.clone()]) < PREC


def test_float_modules_compute_in_float(rng):
    torch.set_default_dtype(torch.float32)
    for m in (nn.Linear(3, 2), nn.CMul(3), nn.Cosine(3, 2), nn.Euclidean(3, 2), nn.PReLU(), nn.Add(3)):
        x = torch.randn(4, 3)
        out = m.forward(x)
        assert out.dtype == torch.float32 and m.backward(x, torch.ones_like(out)).dtype == torch.float32
        d = m.clone().double()
        np.testing.assert_allclose(d.forward(x.double()).numpy(), out.numpy(), rtol=1e-5, atol=1e-6)
