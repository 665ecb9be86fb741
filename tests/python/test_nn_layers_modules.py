"""torch.nn layers run through torch.nn.functional: forward against numpy references and
gradients against finite differences. A test fails, naming what is missing, while
torch.nn.functional does not have the functions its layer calls."""

import math

import numpy as np
import pytest

import torch
import torch.nn as nn
from torch.autograd import gradcheck
from torch.nn import functional as F


def needs(*names):
    missing = [n for n in names if not hasattr(F, n)]
    if missing:
        pytest.fail("torch.nn.functional lacks " + ", ".join(missing))


@pytest.fixture(autouse=True)
def seeded():
    torch.manual_seed(4321)


def t64(a):
    return torch.from_numpy(np.ascontiguousarray(a, dtype=np.float64))


def check_parameter_grads(module, inputs, rng, eps=1e-6, rtol=1e-4, atol=1e-6):
    """The parameters' .grad after backward of sum(output * R) against central differences."""
    out = module(*inputs)
    out = out[0] if isinstance(out, tuple) else out
    weights = t64(rng.standard_normal(tuple(out.shape)))
    module.zero_grad()
    (out * weights).sum().backward()

    def loss():
        with torch.no_grad():
            o = module(*inputs)
            o = o[0] if isinstance(o, tuple) else o
            return float((o * weights).sum().item())

    for name, p in module.named_parameters():
        values = p.detach().numpy()  # shares p's memory
        numeric = np.zeros(values.shape)
        for i in range(values.size):
            index = np.unravel_index(i, values.shape)
            saved = values[index]
            values[index] = saved + eps
            plus = loss()
            values[index] = saved - eps
            minus = loss()
            values[index] = saved
            numeric[index] = (plus - minus) / (2 * eps)
        np.testing.assert_allclose(p.grad.numpy(), numeric, rtol=rtol, atol=atol, err_msg=name)


# ---------------------------------------------------------------- linear maps
@pytest.mark.parametrize("dtype", [torch.float32, torch.float64])
def test_linear_forward(rng, dtype):
    needs("linear")
    lin = nn.Linear(4, 3).to(dtype)
    x = torch.from_numpy(rng.standard_normal((5, 2, 4))).to(dtype)
    w, b = lin.weight.detach().numpy(), lin.bias.detach().numpy()
    tol = 1e-5 if dtype == torch.float32 else 1e-12
    np.testing.assert_allclose(lin(x).detach().numpy(), x.numpy() @ w.T + b, rtol=tol, atol=tol)
    xt = torch.from_numpy(rng.standard_normal((4, 6))).to(dtype).t()
    np.testing.assert_allclose(lin(xt).detach().numpy(), xt.numpy() @ w.T + b, rtol=tol, atol=tol)
    no_bias = nn.Linear(4, 3, bias=False).to(dtype)
    np.testing.assert_allclose(
        no_bias(x).detach().numpy(), x.numpy() @ no_bias.weight.detach().numpy().T, rtol=tol, atol=tol
    )


def test_linear_and_bilinear_gradients(rng):
    needs("linear", "bilinear")
    lin = nn.Linear(3, 2).double()
    x = t64(rng.standard_normal((4, 3))).requires_grad_()
    assert gradcheck(lambda v: lin(v), (x,))
    check_parameter_grads(lin, (x.detach(),), rng)
    bil = nn.Bilinear(2, 3, 2).double()
    x1, x2 = t64(rng.standard_normal((4, 2))), t64(rng.standard_normal((4, 3)))
    expected = (
        np.einsum("ni,oij,nj->no", x1.numpy(), bil.weight.detach().numpy(), x2.numpy()) + bil.bias.detach().numpy()
    )
    np.testing.assert_allclose(bil(x1, x2).detach().numpy(), expected, rtol=1e-12)
    check_parameter_grads(bil, (x1, x2), rng)


# ---------------------------------------------------------------- convolutions
def numpy_conv(x, w, b, stride, padding, dilation, groups):
    """Direct N-d cross-correlation: x (N, C, *S), w (O, C/groups, *K)."""
    n_spatial = x.ndim - 2
    x = np.pad(x, [(0, 0), (0, 0)] + [(p, p) for p in padding])
    out_sizes = [(x.shape[2 + d] - dilation[d] * (w.shape[2 + d] - 1) - 1) // stride[d] + 1 for d in range(n_spatial)]
    out = np.zeros((x.shape[0], w.shape[0]) + tuple(out_sizes))
    cin, cout = w.shape[1], w.shape[0] // groups
    for o in range(w.shape[0]):
        g = o // cout
        for pos in np.ndindex(*out_sizes):
            window = tuple(
                slice(pos[d] * stride[d], pos[d] * stride[d] + dilation[d] * (w.shape[2 + d] - 1) + 1, dilation[d])
                for d in range(n_spatial)
            )
            patch = x[(slice(None), slice(g * cin, (g + 1) * cin)) + window]
            out[(slice(None), o) + pos] = (patch * w[o]).reshape(x.shape[0], -1).sum(1)
    if b is not None:
        out += b.reshape((1, -1) + (1,) * n_spatial)
    return out


@pytest.mark.parametrize(
    "cls,kwargs,shape",
    [
        (nn.Conv1d, {"kernel_size": 3, "stride": 2, "padding": 1}, (2, 4, 9)),
        (nn.Conv2d, {"kernel_size": (2, 3), "padding": (1, 0), "dilation": (1, 2), "groups": 2}, (2, 4, 5, 7)),
        (nn.Conv2d, {"kernel_size": 3, "bias": False, "stride": (2, 1)}, (1, 4, 6, 5)),
        (nn.Conv3d, {"kernel_size": 2}, (1, 4, 3, 4, 3)),
    ],
)
def test_conv_forward(rng, cls, kwargs, shape):
    needs(cls.__name__.lower())
    conv = cls(4, 6, **kwargs).double()
    x = t64(rng.standard_normal(shape))
    bias = None if conv.bias is None else conv.bias.detach().numpy()
    expected = numpy_conv(
        x.numpy(), conv.weight.detach().numpy(), bias, conv.stride, conv.padding, conv.dilation, conv.groups
    )
    np.testing.assert_allclose(conv(x).detach().numpy(), expected, rtol=1e-10, atol=1e-12)


def test_conv_padding_modes_and_same(rng):
    needs("conv2d", "pad")
    x = t64(rng.standard_normal((1, 2, 5, 6)))
    for mode, np_mode in [("reflect", "reflect"), ("replicate", "edge"), ("circular", "wrap")]:
        conv = nn.Conv2d(2, 3, 3, padding=(1, 2), padding_mode=mode).double()
        padded = np.pad(x.numpy(), [(0, 0), (0, 0), (1, 1), (2, 2)], mode=np_mode)
        expected = numpy_conv(
            padded, conv.weight.detach().numpy(), conv.bias.detach().numpy(), (1, 1), (0, 0), (1, 1), 1
        )
        np.testing.assert_allclose(conv(x).detach().numpy(), expected, rtol=1e-10, atol=1e-12, err_msg=mode)
    same = nn.Conv2d(2, 3, (3, 4), padding="same").double()
    assert same(x).shape == (1, 3, 5, 6)


def test_conv_gradients(rng):
    needs("conv2d")
    conv = nn.Conv2d(2, 2, 2, stride=2, padding=1).double()
    x = t64(rng.standard_normal((1, 2, 3, 3)))
    check_parameter_grads(conv, (x,), rng)
    assert gradcheck(lambda v: conv(v), (x.clone().requires_grad_(),))


def test_conv_transpose_is_the_adjoint_of_conv(rng):
    needs("conv2d", "conv_transpose2d")
    conv = nn.Conv2d(3, 2, 3, stride=2, padding=1, bias=False).double()
    deconv = nn.ConvTranspose2d(2, 3, 3, stride=2, padding=1, bias=False).double()
    with torch.no_grad():
        deconv.weight.copy_(conv.weight)
    x = t64(rng.standard_normal((2, 3, 7, 7)))
    y = t64(rng.standard_normal((2, 2, 4, 4)))
    cx, dy = conv(x), deconv(y, output_size=x.shape)
    assert dy.shape == x.shape
    assert (cx * y).sum().item() == pytest.approx((x * dy).sum().item(), rel=1e-10)


# ---------------------------------------------------------------- pooling
def numpy_pool(x, k, s, reduce):
    n, c, h, w = x.shape
    oh, ow = (h - k) // s + 1, (w - k) // s + 1
    out = np.zeros((n, c, oh, ow))
    for i in range(oh):
        for j in range(ow):
            out[:, :, i, j] = reduce(x[:, :, i * s : i * s + k, j * s : j * s + k], axis=(2, 3))
    return out


def test_max_and_avg_pool(rng):
    needs("max_pool2d", "avg_pool2d")
    x = t64(rng.standard_normal((2, 3, 7, 6)))
    np.testing.assert_allclose(nn.MaxPool2d(2)(x).numpy(), numpy_pool(x.numpy(), 2, 2, np.max))
    np.testing.assert_allclose(nn.AvgPool2d(3, stride=2)(x).numpy(), numpy_pool(x.numpy(), 3, 2, np.mean), rtol=1e-12)
    xt = x.transpose(2, 3)
    np.testing.assert_allclose(nn.MaxPool2d(3, stride=1)(xt).numpy(), numpy_pool(xt.numpy(), 3, 1, np.max))


def test_max_unpool_puts_maxima_back(rng):
    needs("max_pool2d", "max_unpool2d")
    x = t64(rng.standard_normal((1, 2, 4, 6)))
    pooled, indices = nn.MaxPool2d(2, return_indices=True)(x)
    restored = nn.MaxUnpool2d(2)(pooled, indices)
    a = x.numpy()
    expected = np.zeros_like(a)
    for i in range(2):
        for j in range(3):
            block = a[:, :, 2 * i : 2 * i + 2, 2 * j : 2 * j + 2]
            mask = block == block.max(axis=(2, 3), keepdims=True)
            expected[:, :, 2 * i : 2 * i + 2, 2 * j : 2 * j + 2] = np.where(mask, block, 0)
    np.testing.assert_array_equal(restored.numpy(), expected)


def test_adaptive_pools(rng):
    needs("adaptive_avg_pool2d", "adaptive_max_pool2d", "adaptive_avg_pool1d")
    x = t64(rng.standard_normal((2, 3, 5, 4)))
    np.testing.assert_allclose(
        nn.AdaptiveAvgPool2d((1, 1))(x).numpy(), x.numpy().mean(axis=(2, 3), keepdims=True), rtol=1e-12
    )
    np.testing.assert_allclose(nn.AdaptiveMaxPool2d(1)(x).numpy(), x.numpy().max(axis=(2, 3), keepdims=True))
    np.testing.assert_allclose(
        nn.AdaptiveAvgPool2d((5, 2))(x).numpy(), x.numpy().reshape(2, 3, 5, 2, 2).mean(axis=4), rtol=1e-12
    )
    y = t64(rng.standard_normal((2, 3, 6)))
    np.testing.assert_allclose(
        nn.AdaptiveAvgPool1d(3)(y).numpy(), y.numpy().reshape(2, 3, 3, 2).mean(axis=3), rtol=1e-12
    )


# ---------------------------------------------------------------- normalization
def test_batchnorm_training_and_running_stats(rng):
    needs("batch_norm")
    bn = nn.BatchNorm2d(3, momentum=0.2).double()
    with torch.no_grad():
        bn.weight.copy_(t64([1.0, 2.0, 0.5]))
        bn.bias.copy_(t64([0.0, -1.0, 3.0]))
    x = t64(rng.standard_normal((4, 3, 2, 5)) * 3 + 1)
    a = x.numpy()
    mean, var = a.mean(axis=(0, 2, 3)), a.var(axis=(0, 2, 3))
    expected = (a - mean[:, None, None]) / np.sqrt(var[:, None, None] + 1e-5) * np.array([1.0, 2.0, 0.5])[:, None, None]
    expected += np.array([0.0, -1.0, 3.0])[:, None, None]
    np.testing.assert_allclose(bn(x).detach().numpy(), expected, rtol=1e-10, atol=1e-10)
    n = a.size / 3
    np.testing.assert_allclose(bn.running_mean.numpy(), 0.2 * mean, rtol=1e-10)
    np.testing.assert_allclose(bn.running_var.numpy(), 0.8 + 0.2 * var * n / (n - 1), rtol=1e-10)
    assert bn.num_batches_tracked.item() == 1
    bn.eval()
    rm, rv = bn.running_mean.numpy().copy(), bn.running_var.numpy().copy()
    expected = (a - rm[:, None, None]) / np.sqrt(rv[:, None, None] + 1e-5) * np.array([1.0, 2.0, 0.5])[:, None, None]
    expected += np.array([0.0, -1.0, 3.0])[:, None, None]
    np.testing.assert_allclose(bn(x).detach().numpy(), expected, rtol=1e-10, atol=1e-10)
    np.testing.assert_array_equal(bn.running_mean.numpy(), rm)


def test_batchnorm_cumulative_average_and_1d(rng):
    needs("batch_norm")
    bn = nn.BatchNorm1d(2, momentum=None).double()
    batches = [t64(rng.standard_normal((5, 2, 3)) + i) for i in range(3)]
    for b in batches:
        bn(b)
    means = [b.numpy().mean(axis=(0, 2)) for b in batches]
    np.testing.assert_allclose(bn.running_mean.numpy(), np.mean(means, axis=0), rtol=1e-10)
    flat = nn.BatchNorm1d(2, affine=False).double()
    y = flat(t64(rng.standard_normal((6, 2))))
    np.testing.assert_allclose(y.detach().numpy().mean(axis=0), 0, atol=1e-12)


def test_batchnorm_gradients(rng):
    needs("batch_norm")
    bn = nn.BatchNorm1d(3).double()
    x = t64(rng.standard_normal((4, 3)))
    check_parameter_grads(bn, (x,), rng)
    bn.eval()
    assert gradcheck(lambda v: bn(v), (x.clone().requires_grad_(),))


def test_instance_layer_group_norm(rng):
    needs("instance_norm", "layer_norm", "group_norm")
    x = t64(rng.standard_normal((2, 4, 3, 5)) * 2 + 1)
    a = x.numpy()

    def normalize(v, axes):
        return (v - v.mean(axis=axes, keepdims=True)) / np.sqrt(v.var(axis=axes, keepdims=True) + 1e-5)

    np.testing.assert_allclose(nn.InstanceNorm2d(4)(x).numpy(), normalize(a, (2, 3)), rtol=1e-9, atol=1e-10)
    ln = nn.LayerNorm([3, 5]).double()
    np.testing.assert_allclose(ln(x).detach().numpy(), normalize(a, (2, 3)), rtol=1e-9, atol=1e-10)
    gn = nn.GroupNorm(2, 4).double()
    grouped = normalize(a.reshape(2, 2, 2, 3, 5), (2, 3, 4)).reshape(a.shape)
    np.testing.assert_allclose(gn(x).detach().numpy(), grouped, rtol=1e-9, atol=1e-10)
    check_parameter_grads(nn.LayerNorm(5).double(), (x,), rng)


# ---------------------------------------------------------------- dropout
def test_dropout_modes(rng):
    needs("dropout", "dropout2d")
    x = torch.ones(200, 100)
    drop = nn.Dropout(0.3)
    y = drop(x).numpy()
    assert set(np.unique(y)).issubset({0.0, np.float32(1 / 0.7)})
    assert abs((y == 0).mean() - 0.3) < 0.02
    assert torch.equal(drop.eval()(x), x)
    channels = nn.Dropout2d(0.5)(torch.ones(8, 50, 3, 3)).numpy()
    per_channel = channels.reshape(8, 50, 9)
    assert ((per_channel == 0).all(axis=2) | (per_channel == 2).all(axis=2)).all()


# ---------------------------------------------------------------- embeddings
def test_embedding_lookup_and_padding_gradient(rng):
    needs("embedding")
    emb = nn.Embedding(6, 3, padding_idx=2).double()
    idx = torch.tensor([[0, 2, 5], [2, 2, 1]])
    out = emb(idx)
    np.testing.assert_array_equal(out.detach().numpy(), emb.weight.detach().numpy()[idx.numpy()])
    out.sum().backward()
    grad = emb.weight.grad.numpy()
    assert (grad[2] == 0).all() and (grad[0] == 1).all() and (grad[3] == 0).all()


def test_embedding_bag_modes(rng):
    needs("embedding_bag")
    bag = nn.EmbeddingBag(5, 2, mode="sum").double()
    idx, offsets = torch.tensor([0, 1, 4, 3, 3]), torch.tensor([0, 2])
    w = bag.weight.detach().numpy()
    np.testing.assert_allclose(bag(idx, offsets).detach().numpy(), [w[0] + w[1], w[4] + 2 * w[3]], rtol=1e-12)
    mean = nn.EmbeddingBag.from_pretrained(bag.weight.detach(), mode="mean")
    np.testing.assert_allclose(
        mean(idx.reshape(1, 5)).numpy(), w[[0, 1, 4, 3, 3]].mean(axis=0, keepdims=True), rtol=1e-12
    )


# ---------------------------------------------------------------- activations
def _gelu(x):
    return np.array([v * (1 + math.erf(v / math.sqrt(2))) / 2 for v in x.ravel()]).reshape(x.shape)


def _softplus(x, beta=1.0, threshold=20.0):
    return np.where(beta * x > threshold, x, np.log1p(np.exp(beta * x)) / beta)


SELU_ALPHA, SELU_SCALE = 1.6732632423543772848170429916717, 1.0507009873554804934193349852946

ACTIVATIONS = [
    (nn.ReLU(), "relu", lambda x: np.maximum(x, 0)),
    (nn.ReLU6(), "hardtanh", lambda x: np.clip(x, 0, 6)),
    (nn.LeakyReLU(0.2), "leaky_relu", lambda x: np.where(x >= 0, x, 0.2 * x)),
    (nn.ELU(0.5), "elu", lambda x: np.where(x > 0, x, 0.5 * (np.exp(x) - 1))),
    (nn.SELU(), "selu", lambda x: SELU_SCALE * np.where(x > 0, x, SELU_ALPHA * (np.exp(x) - 1))),
    (nn.CELU(2.0), "celu", lambda x: np.maximum(x, 0) + np.minimum(0, 2.0 * (np.exp(x / 2.0) - 1))),
    (nn.GELU(), "gelu", _gelu),
    (
        nn.GELU(approximate="tanh"),
        "gelu",
        lambda x: 0.5 * x * (1 + np.tanh(math.sqrt(2 / math.pi) * (x + 0.044715 * x**3))),
    ),
    (nn.Sigmoid(), None, lambda x: 1 / (1 + np.exp(-x))),
    (nn.Tanh(), None, np.tanh),
    (nn.Softplus(beta=2, threshold=5), "softplus", lambda x: _softplus(x, 2.0, 5.0)),
    (nn.Softshrink(0.5), "softshrink", lambda x: np.where(x > 0.5, x - 0.5, np.where(x < -0.5, x + 0.5, 0))),
    (nn.Hardshrink(0.5), "hardshrink", lambda x: np.where(np.abs(x) > 0.5, x, 0)),
    (nn.Hardtanh(-0.5, 1.5), "hardtanh", lambda x: np.clip(x, -0.5, 1.5)),
    (nn.Tanhshrink(), "tanhshrink", lambda x: x - np.tanh(x)),
    (nn.Threshold(0.3, -2.0), "threshold", lambda x: np.where(x > 0.3, x, -2.0)),
    (nn.LogSigmoid(), "logsigmoid", lambda x: -np.log1p(np.exp(-x))),
    (nn.Softsign(), "softsign", lambda x: x / (1 + np.abs(x))),
    (nn.SiLU(), "silu", lambda x: x / (1 + np.exp(-x))),
    (nn.Mish(), "mish", lambda x: x * np.tanh(_softplus(x))),
    (nn.Hardsigmoid(), "hardsigmoid", lambda x: np.clip(x / 6 + 0.5, 0, 1)),
    (nn.Hardswish(), "hardswish", lambda x: x * np.clip(x / 6 + 0.5, 0, 1)),
    (nn.GLU(dim=1), "glu", lambda x: x[:, :2] / (1 + np.exp(-x[:, 2:]))),
    (nn.Softmax(dim=1), "softmax", lambda x: np.exp(x) / np.exp(x).sum(axis=1, keepdims=True)),
    (nn.Softmin(dim=0), "softmin", lambda x: np.exp(-x) / np.exp(-x).sum(axis=0, keepdims=True)),
    (nn.LogSoftmax(dim=-1), "log_softmax", lambda x: x - np.log(np.exp(x).sum(axis=-1, keepdims=True))),
    (nn.RReLU(0.1, 0.3).eval(), "rrelu", lambda x: np.where(x >= 0, x, 0.2 * x)),
]


@pytest.mark.parametrize("module,fn,reference", ACTIVATIONS, ids=[repr(a[0]) for a in ACTIVATIONS])
def test_activations(rng, module, fn, reference):
    if fn is not None:
        needs(fn)
    x = t64(rng.uniform(-4, 4, (3, 4)))
    np.testing.assert_allclose(module(x).detach().numpy(), reference(x.numpy()), rtol=1e-7, atol=1e-9)
    xt = t64(rng.uniform(-4, 4, (4, 3))).t()
    np.testing.assert_allclose(module(xt).detach().numpy(), reference(xt.numpy()), rtol=1e-7, atol=1e-9)


def test_prelu_learns_its_slope(rng):
    needs("prelu")
    prelu = nn.PReLU(3, init=0.1).double()
    x = t64(rng.uniform(-2, 2, (4, 3, 2)))
    slopes = np.array([0.1, 0.1, 0.1])[:, None]
    np.testing.assert_allclose(prelu(x).detach().numpy(), np.where(x.numpy() >= 0, x.numpy(), slopes * x.numpy()))
    check_parameter_grads(prelu, (x,), rng)


# ---------------------------------------------------------------- losses
def _reduce(values, reduction):
    return {"none": values, "sum": values.sum(), "mean": values.mean()}[reduction]


def _log_softmax(x, axis=1):
    return x - np.log(np.exp(x).sum(axis=axis, keepdims=True))


@pytest.mark.parametrize("reduction", ["none", "sum", "mean"])
def test_pointwise_losses(rng, reduction):
    needs(
        "l1_loss",
        "mse_loss",
        "smooth_l1_loss",
        "huber_loss",
        "soft_margin_loss",
        "binary_cross_entropy",
        "binary_cross_entropy_with_logits",
        "kl_div",
        "poisson_nll_loss",
    )
    x, y = rng.standard_normal((3, 4)), rng.standard_normal((3, 4))
    d = x - y
    p, t = 1 / (1 + np.exp(-x)), rng.uniform(0, 1, (3, 4))
    cases = [
        (nn.L1Loss(reduction=reduction), (x, y), np.abs(d)),
        (nn.MSELoss(reduction=reduction), (x, y), d**2),
        (
            nn.SmoothL1Loss(reduction=reduction, beta=0.5),
            (x, y),
            np.where(np.abs(d) < 0.5, 0.5 * d**2 / 0.5, np.abs(d) - 0.25),
        ),
        (
            nn.HuberLoss(reduction=reduction, delta=0.7),
            (x, y),
            np.where(np.abs(d) < 0.7, 0.5 * d**2, 0.7 * (np.abs(d) - 0.35)),
        ),
        (nn.SoftMarginLoss(reduction=reduction), (x, np.sign(y)), np.log1p(np.exp(-np.sign(y) * x))),
        (nn.BCELoss(reduction=reduction), (p, t), -(t * np.log(p) + (1 - t) * np.log(1 - p))),
        (
            nn.BCEWithLogitsLoss(reduction=reduction, pos_weight=t64([1.0, 2.0, 0.5, 3.0])),
            (x, t),
            -(np.array([1.0, 2.0, 0.5, 3.0]) * t * np.log(p) + (1 - t) * np.log(1 - p)),
        ),
        (
            nn.KLDivLoss(reduction=reduction if reduction != "mean" else "batchmean"),
            (np.log(p), t),
            t * (np.log(t) - np.log(p)),
        ),
        (nn.PoissonNLLLoss(reduction=reduction), (x, np.abs(y)), np.exp(x) - np.abs(y) * x),
    ]
    for module, (a, b), expected in cases:
        if isinstance(module, nn.KLDivLoss) and reduction == "mean":
            expected = expected.sum() / 3
        else:
            expected = _reduce(expected, reduction)
        np.testing.assert_allclose(module(t64(a), t64(b)).numpy(), expected, rtol=1e-9, err_msg=repr(module))


def test_classification_losses(rng):
    needs("cross_entropy", "nll_loss", "multi_margin_loss", "multilabel_soft_margin_loss", "multilabel_margin_loss")
    x = rng.standard_normal((5, 4))
    target = np.array([0, 3, 1, 1, 2])
    weight = np.array([1.0, 2.0, 0.5, 1.5])
    logp = _log_softmax(x)
    picked = -logp[np.arange(5), target]
    ce = nn.CrossEntropyLoss(weight=t64(weight))
    np.testing.assert_allclose(
        ce(t64(x), torch.tensor(target)).item(), (weight[target] * picked).sum() / weight[target].sum(), rtol=1e-10
    )
    ignore = nn.NLLLoss(ignore_index=1, reduction="sum")
    np.testing.assert_allclose(ignore(t64(logp), torch.tensor(target)).item(), picked[target != 1].sum(), rtol=1e-10)
    smooth = nn.CrossEntropyLoss(label_smoothing=0.2)
    expected = (0.8 * picked + 0.2 * (-logp).mean(axis=1)).mean()
    np.testing.assert_allclose(smooth(t64(x), torch.tensor(target)).item(), expected, rtol=1e-10)
    margins = np.maximum(0, 1 - x[np.arange(5), target][:, None] + x)
    margins[np.arange(5), target] = 0
    np.testing.assert_allclose(
        nn.MultiMarginLoss()(t64(x), torch.tensor(target)).item(), (margins.sum(axis=1) / 4).mean(), rtol=1e-10
    )
    labels = rng.integers(0, 2, (5, 4)).astype(np.float64)
    sig = 1 / (1 + np.exp(-x))
    expected = (-(labels * np.log(sig) + (1 - labels) * np.log(1 - sig))).mean(axis=1).mean()
    np.testing.assert_allclose(nn.MultiLabelSoftMarginLoss()(t64(x), t64(labels)).item(), expected, rtol=1e-10)
    ml_target = torch.tensor([[3, 0, -1, 1]] * 5)
    expected = 0.0
    for n in range(5):
        for j in (3, 0):
            for i in (1, 2):
                expected += max(0, 1 - (x[n, j] - x[n, i]))
    np.testing.assert_allclose(nn.MultiLabelMarginLoss()(t64(x), ml_target).item(), expected / 4 / 5, rtol=1e-10)


def test_pair_and_triplet_losses(rng):
    needs(
        "hinge_embedding_loss",
        "cosine_embedding_loss",
        "margin_ranking_loss",
        "triplet_margin_loss",
        "cosine_similarity",
        "pairwise_distance",
    )
    a, b, c = (rng.standard_normal((4, 3)) for _ in range(3))
    y = np.array([1.0, -1.0, -1.0, 1.0])
    cos = (a * b).sum(1) / np.linalg.norm(a, axis=1) / np.linalg.norm(b, axis=1)
    np.testing.assert_allclose(nn.CosineSimilarity()(t64(a), t64(b)).numpy(), cos, rtol=1e-10)
    np.testing.assert_allclose(
        nn.PairwiseDistance()(t64(a), t64(b)).numpy(), np.linalg.norm(a - b + 1e-6, axis=1), rtol=1e-10
    )
    expected = np.where(y > 0, 1 - cos, np.maximum(0, cos - 0.1)).mean()
    np.testing.assert_allclose(nn.CosineEmbeddingLoss(margin=0.1)(t64(a), t64(b), t64(y)).item(), expected, rtol=1e-10)
    x1, x2 = a[:, 0], b[:, 0]
    np.testing.assert_allclose(
        nn.MarginRankingLoss(0.5)(t64(x1), t64(x2), t64(y)).item(),
        np.maximum(0, -y * (x1 - x2) + 0.5).mean(),
        rtol=1e-10,
    )
    np.testing.assert_allclose(
        nn.HingeEmbeddingLoss(margin=2.0)(t64(x1), t64(y)).item(),
        np.where(y > 0, x1, np.maximum(0, 2.0 - x1)).mean(),
        rtol=1e-10,
    )
    d_ap = np.linalg.norm(a - b + 1e-6, axis=1)
    d_an = np.linalg.norm(a - c + 1e-6, axis=1)
    np.testing.assert_allclose(
        nn.TripletMarginLoss(margin=0.5)(t64(a), t64(b), t64(c)).item(),
        np.maximum(d_ap - d_an + 0.5, 0).mean(),
        rtol=1e-10,
    )


def test_ctc_loss_against_path_enumeration(rng):
    needs("ctc_loss")
    import itertools

    T, C = 4, 3
    logits = rng.standard_normal((T, 1, C))
    log_probs = _log_softmax(logits, axis=2)
    target = [1, 2]
    total = 0.0
    for path in itertools.product(range(C), repeat=T):
        collapsed = [k for i, k in enumerate(path) if (i == 0 or k != path[i - 1])]
        if [k for k in collapsed if k != 0] == target:
            total += math.exp(sum(log_probs[t, 0, k] for t, k in enumerate(path)))
    loss = nn.CTCLoss(reduction="sum")(t64(log_probs), torch.tensor([target]), torch.tensor([T]), torch.tensor([2]))
    assert loss.item() == pytest.approx(-math.log(total), rel=1e-9)


# ---------------------------------------------------------------- shape layers
def test_padding_layers(rng):
    needs("pad")
    x = t64(rng.standard_normal((1, 2, 3, 4)))
    a = x.numpy()
    np.testing.assert_array_equal(
        nn.ReflectionPad2d((1, 2, 2, 0))(x).numpy(), np.pad(a, [(0, 0), (0, 0), (2, 0), (1, 2)], mode="reflect")
    )
    np.testing.assert_array_equal(
        nn.ReplicationPad2d(1)(x).numpy(), np.pad(a, [(0, 0), (0, 0), (1, 1), (1, 1)], mode="edge")
    )
    np.testing.assert_array_equal(nn.ZeroPad2d((0, 1, 1, 0))(x).numpy(), np.pad(a, [(0, 0), (0, 0), (1, 0), (0, 1)]))
    np.testing.assert_array_equal(
        nn.ConstantPad1d((2, 1), 3.5)(x).numpy(), np.pad(a, [(0, 0), (0, 0), (0, 0), (2, 1)], constant_values=3.5)
    )
    np.testing.assert_array_equal(
        nn.ReflectionPad1d(2)(x.select(0, 0)).numpy(), np.pad(a[0], [(0, 0), (0, 0), (2, 2)], mode="reflect")
    )
    np.testing.assert_array_equal(
        nn.ReplicationPad3d(1)(x).numpy(), np.pad(a, [(0, 0), (1, 1), (1, 1), (1, 1)], mode="edge")
    )


def test_pixel_shuffle_round_trip(rng):
    needs("pixel_shuffle", "pixel_unshuffle")
    x = t64(rng.standard_normal((2, 8, 3, 5)))
    y = nn.PixelShuffle(2)(x)
    expected = x.numpy().reshape(2, 2, 2, 2, 3, 5).transpose(0, 1, 4, 2, 5, 3).reshape(2, 2, 6, 10)
    np.testing.assert_array_equal(y.numpy(), expected)
    np.testing.assert_array_equal(nn.PixelUnshuffle(2)(y).numpy(), x.numpy())


def test_fold_unfold(rng):
    needs("fold", "unfold")
    x = t64(rng.standard_normal((2, 3, 4, 6)))
    cols = nn.Unfold(kernel_size=2, stride=2)(x)
    assert cols.shape == (2, 12, 6)
    expected = x.numpy().reshape(2, 3, 2, 2, 3, 2).transpose(0, 1, 3, 5, 2, 4).reshape(2, 12, 6)
    np.testing.assert_array_equal(cols.numpy(), expected)
    np.testing.assert_array_equal(nn.Fold((4, 6), 2, stride=2)(cols).numpy(), x.numpy())


def test_upsample(rng):
    needs("interpolate")
    x = t64(rng.standard_normal((1, 2, 3, 4)))
    np.testing.assert_array_equal(nn.Upsample(scale_factor=2)(x).numpy(), x.numpy().repeat(2, 2).repeat(2, 3))
    np.testing.assert_array_equal(nn.UpsamplingNearest2d(size=(6, 8))(x).numpy(), x.numpy().repeat(2, 2).repeat(2, 3))
    line = t64(np.array([[[[0.0, 3.0]]]]))
    np.testing.assert_allclose(
        nn.UpsamplingBilinear2d(size=(1, 4))(line).numpy(), [[[[0.0, 1.0, 2.0, 3.0]]]], atol=1e-12
    )


# ---------------------------------------------------------------- recurrent layers and training
def test_lstm_gradients(rng):
    needs("linear")
    lstm = nn.LSTM(2, 3, bidirectional=True).double()
    x = t64(rng.standard_normal((3, 2, 2)))
    check_parameter_grads(lstm, (x,), rng)
    assert gradcheck(lambda v: lstm(v)[0], (x.clone().requires_grad_(),))
    gru = nn.GRU(2, 2, num_layers=2).double()
    check_parameter_grads(gru, (x,), rng)


def test_full_backward_hook_on_linear(rng):
    needs("linear")
    lin = nn.Linear(3, 2).double()
    seen = {}

    def hook(module, grad_input, grad_output):
        seen["in"], seen["out"] = grad_input[0].numpy().copy(), grad_output[0].numpy().copy()

    lin.register_full_backward_hook(hook)
    x = t64(rng.standard_normal((4, 3))).requires_grad_()
    g = rng.standard_normal((4, 2))
    lin(x).backward(t64(g))
    np.testing.assert_allclose(seen["out"], g)
    np.testing.assert_allclose(seen["in"], g @ lin.weight.detach().numpy(), rtol=1e-12)
    np.testing.assert_allclose(x.grad.numpy(), seen["in"])


def test_small_network_trains(rng):
    needs("linear", "relu", "mse_loss")
    model = nn.Sequential(nn.Linear(2, 16), nn.ReLU(), nn.Linear(16, 1)).double()
    x = t64(rng.uniform(-1, 1, (64, 2)))
    y = (x.select(1, 0) * x.select(1, 1)).unsqueeze(1)
    loss_fn = nn.MSELoss()
    first = loss_fn(model(x), y).item()
    for _ in range(200):
        model.zero_grad()
        loss = loss_fn(model(x), y)
        loss.backward()
        nn.utils.clip_grad_norm_(model.parameters(), 5.0)
        with torch.no_grad():
            for p in model.parameters():
                p.add_(p.grad, alpha=-0.1)
    assert loss_fn(model(x), y).item() < 0.5 * first
