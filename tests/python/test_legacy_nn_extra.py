"""torch.legacy.nn's extra torch7 modules (extra.py, extra_conv.py) and the two fixes
(SpatialCrossMapLRN's window for even sizes, SpatialFullConvolution's {input, target}):
outputs against numpy / plain loops / torch.nn.functional, gradients against central
finite differences (double), and each module built and saved by the Lua package, loaded
with load_lua, giving Lua's forward and backward (in-process through torch.lua)."""

import math

import numpy as np
import pytest

import torch
import torch.nn.functional as F
import torch.lua as tl  # scripts/build.sh builds the Lua bridge: where it is missing, the suite fails
from conftest import LAYOUTS, make_tensor
from legacy_helpers import central_differences, double_default, np_log_softmax, tensors, through_file  # noqa: F401
from torch.legacy import nn
from torch.utils.serialization import load_lua, save_lua

pytestmark = pytest.mark.usefixtures("double_default")
D = torch.float64


def rand(*shape):
    return torch.randn(*shape, dtype=D)


def close(a, b, tol=1e-10):
    if isinstance(b, dict) and not b:  # an empty Lua table
        b = []
    if isinstance(b, (list, tuple)):
        assert isinstance(a, (list, tuple)) and len(a) == len(b)
        for x, y in zip(a, b):
            close(x, y, tol)
        return
    if not torch.is_tensor(b):
        assert abs(float(a) - float(b)) <= tol * (1 + abs(float(b)))
        return
    a = torch.as_tensor(a)
    assert tuple(a.shape) == tuple(b.shape), (tuple(a.shape), tuple(b.shape))
    np.testing.assert_allclose(a.double().numpy(), b.double().numpy(), rtol=tol, atol=tol)


def _dot(out, go):
    return sum(float((a * b).sum()) for a, b in zip(tensors(out), tensors(go)))


def _like(x, gen):
    if torch.is_tensor(x):
        return torch.randn(x.shape, dtype=x.dtype, generator=gen) if x.is_floating_point() else x
    return [_like(v, gen) for v in x]


def check_gradients(m, input, params=True, eps=1e-6, tol=1e-6, skip=()):
    """backward against central differences of <forward(input), gradOutput> for every
    floating input element and (params) every parameter element."""
    gen = torch.Generator().manual_seed(0)
    out = m.forward(input)
    go = _like(out, gen)
    m.zeroGradParameters()
    gi = m.backward(input, go)
    analytic = [g.clone() for g in tensors(gi)]
    ps = m.parameters() if params else None
    grads = [g.clone() for g in ps[1]] if ps else []

    def loss():
        return _dot(m.forward(input), go)

    for k, x in enumerate(tensors(input)):
        if k in skip or not x.is_floating_point():
            continue
        num = central_differences(x, loss, eps)
        np.testing.assert_allclose(analytic[k].numpy(), num.numpy(), atol=tol, rtol=tol)
    for p, g in zip(ps[0] if ps else [], grads):
        num = central_differences(p, loss, eps)
        np.testing.assert_allclose(g.numpy(), num.numpy(), atol=tol, rtol=tol)


def check_criterion_gradient(c, x, t, eps=1e-6, tol=1e-6):
    c.forward(x, t)
    gi = c.backward(x, t).clone()
    num = central_differences(x, lambda: c.forward(x, t), eps)
    np.testing.assert_allclose(gi.numpy(), num.numpy(), atol=tol, rtol=tol)


# ================================================================ element-wise and shapes


@pytest.mark.parametrize("cls, fn", [(nn.CMaxTable, np.maximum), (nn.CMinTable, np.minimum)])
def test_cmax_cmin_table(cls, fn):
    a, b, c = rand(3, 4), rand(3, 4), rand(3, 4)
    m = cls()
    close(m.forward([a, b, c]), torch.from_numpy(fn(fn(a.numpy(), b.numpy()), c.numpy())))
    go = rand(3, 4)
    gi = m.backward([a, b, c], go)
    stacked = np.stack([a.numpy(), b.numpy(), c.numpy()])
    which = stacked.argmax(0) if cls is nn.CMaxTable else stacked.argmin(0)
    for i in range(3):
        close(gi[i], go * torch.from_numpy((which == i).astype(np.float64)))
    close(m.maxIdx, torch.from_numpy(which.astype(np.float64)))
    # ties go to the first input holding the extreme
    m.forward([a, a.clone()])
    gi = m.backward([a, a.clone()], go)
    close(gi[0], go)
    close(gi[1], torch.zeros(3, 4, dtype=D))
    check_gradients(cls(), [rand(2, 3), rand(2, 3)])
    with pytest.raises(RuntimeError, match="size"):
        m.forward([a, rand(4, 3)])
    with pytest.raises(TypeError):
        m.forward(a)


@pytest.mark.parametrize("layout", LAYOUTS[:3])
def test_crelu(layout, rng):
    x, xa = make_tensor((2, 3, 4), D, layout, rng, -2, 2)
    m = nn.CReLU(2)
    expected = np.concatenate([np.maximum(xa, 0), np.maximum(-xa, 0)], 1)
    close(m.forward(x), torch.from_numpy(expected))
    close(m.forward(x[0]), torch.from_numpy(np.concatenate([np.maximum(xa[0], 0), np.maximum(-xa[0], 0)], 0)))
    check_gradients(nn.CReLU(2), rand(2, 3, 2))
    with pytest.raises(RuntimeError, match="2-D input"):
        m.forward(rand(2))
    with pytest.raises(TypeError):
        nn.CReLU("2")


@pytest.mark.parametrize("layout", LAYOUTS[:3])
def test_collapse_and_zero_grad(layout, rng):
    x, xa = make_tensor((3, 4, 2), D, layout, rng)
    m = nn.Collapse(2)
    close(m.forward(x), torch.from_numpy(xa.reshape(3, 8)))
    close(nn.Collapse(3).forward(x), torch.from_numpy(xa.reshape(-1)))
    go = rand(3, 8)
    close(m.backward(x, go), go.reshape(3, 4, 2))
    z = nn.ZeroGrad()
    assert z.forward(x) is x
    close(z.backward(x, rand(3, 4, 2)), torch.zeros(3, 4, 2, dtype=D))
    with pytest.raises(RuntimeError):
        m.backward(x, rand(5))


def test_constant():
    v = rand(2, 3)
    m = nn.Constant(v, 2)
    x = rand(4, 5, 6)
    out = m.forward(x)
    close(out, v.unsqueeze(0).expand(4, 2, 3))
    close(m.forward(rand(5, 6)), v)
    close(m.backward(x, rand(4, 2, 3)), torch.zeros(4, 5, 6, dtype=D))
    close(nn.Constant(2.5).forward(rand(3)), torch.tensor([2.5], dtype=D))
    with pytest.raises(TypeError):
        nn.Constant("x")


@pytest.mark.parametrize(
    "shapes, perm", [(("bchw", "bhwc"), (0, 2, 3, 1)), (("bchw", "bf"), None), (("bchw", "hfb"), None)]
)
def test_convert(shapes, perm):
    x = rand(2, 3, 4, 5)
    m = nn.Convert(*shapes)
    out = m.forward(x)
    if shapes[1] == "bhwc":
        close(out, x.permute(perm))
    elif shapes[1] == "bf":
        close(out, x.reshape(2, -1))
    else:  # h, then c and w flattened, then b
        close(out, x.permute(2, 1, 3, 0).reshape(4, 15, 2))
    go = torch.randn(out.shape, dtype=D)
    # the gradient is the adjoint: <out, go> = <x, gi>
    gi = m.backward(x, go)
    assert abs(float((out * go).sum()) - float((x * gi).sum())) < 1e-10
    f = nn.Convert().float()
    assert f.forward(x).dtype == torch.float32 and f.backward(x, f.output).dtype == D
    with pytest.raises(ValueError):
        nn.Convert("bchw")
    with pytest.raises(ValueError, match="drops"):
        nn.Convert("bchw", "bc")
    with pytest.raises(ValueError, match="repeated"):
        nn.Convert("bb", "b")
    with pytest.raises(RuntimeError, match="4-D"):
        m.forward(rand(2, 3))


@pytest.mark.parametrize("layout", LAYOUTS[:3])
def test_glu_pixel_shuffle_logsoftmax_tanhshrink(layout, rng):
    x, xa = make_tensor((2, 8, 3, 3), D, layout, rng, -2, 2)
    close(nn.GatedLinearUnit(1).forward(x), F.glu(x, 1))
    close(nn.GatedLinearUnit().forward(x[:, :, :, :2]), F.glu(x[:, :, :, :2], -1))
    close(nn.PixelShuffle(2).forward(x), F.pixel_shuffle(x, 2))
    close(nn.PixelShuffle(2).forward(x[0]), F.pixel_shuffle(x[:1], 2)[0])
    close(nn.SpatialLogSoftMax().forward(x), torch.from_numpy(np_log_softmax(xa, 1)))
    close(nn.SpatialLogSoftMax().forward(x[0]), torch.from_numpy(np_log_softmax(xa[0], 0)))
    close(nn.TanhShrink().forward(x), torch.from_numpy(xa - np.tanh(xa)))
    for m, inp in [
        (nn.GatedLinearUnit(0), rand(4, 3)),
        (nn.PixelShuffle(2), rand(1, 4, 2, 3)),
        (nn.SpatialLogSoftMax(), rand(2, 3, 2, 2)),
        (nn.TanhShrink(), rand(3, 4)),
    ]:
        check_gradients(m, inp)
    with pytest.raises(RuntimeError, match="even"):
        nn.GatedLinearUnit(0).forward(rand(3, 2))
    with pytest.raises(IndexError):
        nn.GatedLinearUnit(3).forward(rand(3, 2))
    with pytest.raises(RuntimeError, match="multiple"):
        nn.PixelShuffle(2).forward(rand(3, 2, 2))
    with pytest.raises(RuntimeError):
        nn.SpatialLogSoftMax().forward(rand(3, 2))


def test_temporal_dynamic_kmax_pooling():
    x = rand(2, 7, 3)
    m = nn.TemporalDynamicKMaxPooling(2, 0.5)  # k = max(2, ceil(3.5)) = 4
    out = m.forward(x)
    assert out.shape == (2, 4, 3)
    xa = x.numpy()
    for n in range(2):
        for c in range(3):
            chosen = sorted(np.argsort(-xa[n, :, c])[:4])
            np.testing.assert_allclose(out[n, :, c].numpy(), xa[n, chosen, c])
    check_gradients(nn.TemporalDynamicKMaxPooling(2), rand(5, 2))
    with pytest.raises(RuntimeError, match="exceeds"):
        nn.TemporalDynamicKMaxPooling(9).forward(x)


def test_masked_select():
    x = rand(3, 4)
    mask = (rand(3, 4) > 0).to(torch.uint8)
    m = nn.MaskedSelect()
    close(m.forward([x, mask]), torch.from_numpy(x.numpy()[mask.numpy() == 1]))
    go = torch.randn(int(mask.sum()), dtype=D)
    gi = m.backward([x, mask], go)
    expected = np.zeros((3, 4))
    expected[mask.numpy() == 1] = go.numpy()
    close(gi[0], torch.from_numpy(expected))
    close(gi[1], torch.zeros(3, 4, dtype=D))
    with pytest.raises(RuntimeError, match="size"):
        m.forward([x, mask[:2]])
    with pytest.raises(TypeError):
        m.forward(x)


def test_zip_tables():
    a, b, c, d = rand(2), rand(3), rand(2), rand(3)
    z = nn.ZipTable()
    out = z.forward([[a, b], [c, d]])
    assert out[0][0] is a and out[0][1] is c and out[1][0] is b and out[1][1] is d
    gi = z.backward([[a, b], [c, d]], out)
    assert gi[0][1] is b and gi[1][0] is c
    with pytest.raises(ValueError):
        z.forward([[a, b], [c]])
    o = nn.ZipTableOneToMany()
    v = rand(2)
    out = o.forward([v, [a, c]])
    assert out[0][0] is v and out[1][1] is c
    gi = o.backward([v, [a, c]], [[a, b], [c, d]])
    close(gi[0], a + c)
    assert gi[1][0] is b and gi[1][1] is d
    with pytest.raises(TypeError):
        o.forward([v, a])


# ================================================================ decorators


def test_decorator_nan_profile(capsys):
    lin = nn.Linear(4, 3)
    x = rand(2, 4)
    expected = lin.forward(x).clone()
    for dec in [nn.Decorator(lin), nn.NaN(lin, "my id"), nn.Profile(lin, 2, "lin")]:
        close(dec.forward(x), expected)
        check_gradients(dec, rand(2, 4))
        assert len(dec.parameters()[0]) == 2
    nn.Profile(lin, 2, "lin").forward(x)
    p = nn.Profile(lin, 2, "lin")
    p.forward(x)
    p.forward(x)
    assert "lin took" in capsys.readouterr().out and p.forwardCount == 2
    n = nn.NaN(lin, "my id")
    bad = x.clone()
    bad[0, 1] = float("nan")
    with pytest.raises(RuntimeError, match="NaN found in input of module nn.Linear \\(id my id\\)"):
        n.forward(bad)
    n.forward(x)
    with pytest.raises(RuntimeError, match="gradOutput"):
        n.backward(x, torch.full((2, 3), float("nan"), dtype=D))


def test_dont_cast():
    lin = nn.Linear(4, 3).float()
    w = lin.weight.clone()
    d = nn.DontCast(lin, False)
    x = rand(2, 4)
    out = d.forward(x)
    assert out.dtype == D
    close(out, (x.float() @ w.t() + lin.bias).double(), 1e-6)
    gi = d.backward(x, rand(2, 3))
    assert gi.dtype == D and lin.gradWeight.dtype == torch.float32
    d.type("torch.DoubleTensor")
    assert lin.weight.dtype == torch.float32 and d.type() == "torch.DoubleTensor"
    d2 = nn.DontCast(nn.Linear(4, 3).float(), True)
    d2.double()
    assert d2.modules[0].weight.dtype == D


def test_weight_norm():
    conv = nn.SpatialConvolution(2, 3, 2, 2)
    x = rand(2, 2, 3, 3)
    before = conv.forward(x).clone()
    wn = nn.WeightNorm(conv, 0)
    close(wn.forward(x), before)  # v and g start from the weight
    close(wn.g, conv.weight.reshape(3, -1).norm(dim=1))
    wn.g.mul_(2)
    wn.forward(x)
    close(conv.weight, (wn.g / wn.v.norm(dim=1)).reshape(3, 1, 1, 1) * wn.v.reshape(3, 2, 2, 2))
    close(wn.forward(x), 2 * before - 2 * conv.bias.reshape(1, 3, 1, 1) + conv.bias.reshape(1, 3, 1, 1))
    check_gradients(nn.WeightNorm(nn.Linear(3, 2)), rand(2, 3))
    check_gradients(nn.WeightNorm(nn.Linear(3, 2), 1), rand(2, 3))
    with pytest.raises(IndexError):
        nn.WeightNorm(nn.Linear(3, 2), 2)
    with pytest.raises(ValueError):
        nn.WeightNorm(nn.Tanh())


# ================================================================ criterions


def test_criterion_table_l1cost_module_criterion():
    x, t = rand(3, 4), rand(3, 4)
    ct = nn.CriterionTable(nn.MSECriterion())
    close(ct.forward([x, t]), float(((x - t) ** 2).mean()))
    close(ct.backward([x, t], 1)[0], 2 * (x - t) / 12)
    l1 = nn.L1Cost()
    close(l1.forward(x), float(x.abs().sum()))
    close(l1.backward(x), torch.sign(x))
    mc = nn.ModuleCriterion(nn.MSECriterion(), nn.Tanh(), nn.Sigmoid())
    close(mc.forward(x, t), float(((torch.tanh(x) - torch.sigmoid(t)) ** 2).mean()))
    check_criterion_gradient(mc, x, t)
    with pytest.raises(TypeError):
        ct.forward(x)


def test_spatial_autocrop_and_weighted_mse():
    x, t = rand(2, 3, 4, 4), rand(2, 3, 7, 6)
    c = nn.SpatialAutoCropMSECriterion()
    cropped = t[:, :, 1:5, 1:5]
    close(c.forward(x, t), float(((x - cropped) ** 2).mean()))
    check_criterion_gradient(nn.SpatialAutoCropMSECriterion(False), rand(3, 2, 2), rand(3, 5, 3))
    with pytest.raises(RuntimeError, match="at least as large"):
        c.forward(x, rand(2, 3, 3, 4))
    w = rand(3, 4)
    wm = nn.WeightedMSECriterion(w)
    x, t = rand(2, 3, 4), rand(2, 3, 4)
    close(wm.forward(x, t), float(((x - t * w) ** 2).mean()))
    close(wm.forward(x[0], t[0]), float(((x[0] - t[0] * w) ** 2).mean()))
    check_criterion_gradient(wm, x, t)
    with pytest.raises(RuntimeError):
        wm.forward(rand(5), rand(5))


@pytest.mark.parametrize("size_average", [True, False])
def test_spatial_class_nll(size_average):
    x = torch.log_softmax(rand(2, 4, 3, 3), 1)
    t = torch.randint(0, 4, (2, 3, 3))
    t[0, 0, 0] = 2
    weights = torch.rand(4, dtype=D) + 0.5
    c = nn.SpatialClassNLLCriterion(weights, size_average, 2)
    total, wsum = 0.0, 0.0
    for n in range(2):
        for h in range(3):
            for w in range(3):
                k = int(t[n, h, w])
                if k != 2:
                    total -= float(weights[k] * x[n, k, h, w])
                    wsum += float(weights[k])
    close(c.forward(x, t), total / wsum if size_average else total)
    check_criterion_gradient(c, x, t)
    close(nn.SpatialClassNLLCriterion().forward(x[0], t[0]), nn.SpatialClassNLLCriterion().forward(x[:1], t[:1]))
    with pytest.raises(IndexError):
        c.forward(x, torch.full((2, 3, 3), 4, dtype=torch.int64))
    with pytest.raises(RuntimeError):
        c.forward(x, t[0])


def test_stochastic_gradient_matches_hand_written_sgd(capsys):
    torch.manual_seed(3)
    lin = nn.Linear(3, 2)
    ref = lin.clone()
    data = [[rand(3), rand(2)] for _ in range(4)]
    sgd = nn.StochasticGradient(lin, nn.MSECriterion())
    sgd.shuffleIndices, sgd.maxIteration, sgd.learningRate, sgd.learningRateDecay = False, 2, 0.1, 0.5
    seen = []
    sgd.hookIteration = lambda s, it, err: seen.append(it)
    sgd.train(data)
    assert seen == [1, 2] and "current error" in capsys.readouterr().out
    lr = 0.1
    for epoch in range(2):
        for x, t in data:
            w, b = ref.weight, ref.bias
            g = 2 * (w @ x + b - t) / 2
            w -= lr * torch.outer(g, x)
            b -= lr * g
        lr = 0.1 / (1 + (epoch + 2) * 0.5)
    close(lin.weight, ref.weight)
    close(lin.bias, ref.bias)
    with pytest.raises(ValueError):
        sgd.train([])
    with pytest.raises(TypeError):
        nn.StochasticGradient(lin, lin)


# ================================================================ convolutions and sparse


def test_spatial_convolution_map():
    conn = torch.tensor([[0, 0], [2, 0], [1, 1], [2, 1], [0, 2]], dtype=D)
    m = nn.SpatialConvolutionMap(conn, 3, 2, 2, 1)
    assert (m.nInputPlane, m.nOutputPlane) == (3, 3) and m.weight.shape == (5, 2, 3)
    x = rand(2, 3, 5, 7)
    out = m.forward(x)
    assert out.shape == (2, 3, 4, 3)
    expected = m.bias.reshape(1, 3, 1, 1).repeat(2, 1, 4, 3)
    for k, (i, o) in enumerate(conn.long().tolist()):
        expected[:, o] += F.conv2d(x[:, i : i + 1], m.weight[k].reshape(1, 1, 2, 3), None, (1, 2))[:, 0]
    close(out, expected)
    # torch7's files hold no `dense` module (this package's Lua nn computes through one): made on first use
    bare = nn.SpatialConvolutionMap.from_fields(**{k: v for k, v in vars(m).items() if k != "dense"})
    close(bare.forward(x), expected)
    check_gradients(nn.SpatialConvolutionMap(nn.tables.random(3, 2, 2), 2, 2), rand(3, 3, 3))
    full = nn.tables.full(2, 3)
    assert sorted(map(tuple, full.long().tolist())) == [(i, o) for i in range(2) for o in range(3)]
    with pytest.raises(RuntimeError, match="planes"):
        m.forward(rand(2, 2, 5, 7))
    with pytest.raises(ValueError):
        nn.SpatialConvolutionMap(torch.ones(3), 2, 2)


def test_spatial_full_convolution_map():
    conn = nn.tables.oneToOne(2)
    m = nn.SpatialFullConvolutionMap(conn, 2, 3, 2, 1)
    x = rand(2, 2, 3, 4)
    out = m.forward(x)
    assert out.shape == (2, 2, 5, 8)
    expected = torch.stack(
        [F.conv_transpose2d(x[:, i : i + 1], m.weight[i].reshape(1, 1, 3, 2), None, (1, 2))[:, 0] for i in range(2)], 1
    ) + m.bias.reshape(1, 2, 1, 1)
    close(out, expected)
    check_gradients(nn.SpatialFullConvolutionMap(nn.tables.full(2, 2), 2, 2, 2, 2), rand(2, 2, 2))


def test_depthwise_and_row_convolution():
    m = nn.SpatialDepthWiseConvolution(2, 3, 3, 2, 2, 1, 1, 0)
    x = rand(2, 2, 4, 5)
    out = m.forward(x)
    for i in range(2):
        for o in range(3):
            ref = (
                F.conv2d(x[:, i : i + 1], m.weight[o, i].reshape(1, 1, 2, 3), None, (1, 2), (0, 1))[:, 0] + m.bias[o, i]
            )
            close(out[:, i * 3 + o], ref)
    check_gradients(nn.SpatialDepthWiseConvolution(2, 2, 2, 2, 1, 2, 1, 1), rand(2, 3, 3))
    r = nn.TemporalRowConvolution(3, 2, 2)
    x = rand(7, 3)
    out = r.forward(x)
    xa, w, b = x.numpy(), r.weight.numpy(), r.bias.numpy()
    expected = np.array(
        [[b[c] + sum(w[c, 0, k] * xa[t * 2 + k, c] for k in range(2)) for c in range(3)] for t in range(3)]
    )
    close(out, torch.from_numpy(expected))
    ff = nn.TemporalRowConvolution(3, 2, 2, True)
    ff.weight.copy_(r.weight)
    ff.bias.copy_(r.bias)
    close(ff.forward(x.t()), out.t())
    check_gradients(nn.TemporalRowConvolution(2, 3, 2), rand(2, 7, 2))
    check_gradients(nn.TemporalRowConvolution(2, 2, 1, True), rand(2, 4))
    with pytest.raises(RuntimeError):
        r.forward(rand(7, 4))


def test_sparse_linear():
    m = nn.SparseLinear(6, 3)
    samples = [torch.tensor([[0, 1.5], [4, -2.0]], dtype=D), torch.tensor([[5, 0.5]], dtype=D)]
    out = m.forward(samples)
    dense = torch.zeros(2, 6, dtype=D)
    dense[0, 0], dense[0, 4], dense[1, 5] = 1.5, -2.0, 0.5
    close(out, dense @ m.weight.t() + m.bias)
    close(m.forward(samples[0]), out[0])
    close(m.forward(torch.stack([samples[0], samples[0]])), torch.stack([out[0], out[0]]))
    m.zeroGradParameters()
    go = rand(2, 3)
    m.backward(samples, go)
    close(m.gradWeight, go.t() @ dense)
    close(m.gradBias, go.sum(0))
    w = m.weight.clone()
    m.updateParameters(0.1)  # only the columns of features 0, 4 and 5 move
    close(m.weight, w - 0.1 * (go.t() @ dense))
    m.zeroGradParameters()
    assert float(m.gradWeight.abs().sum()) == 0
    g = nn.SparseLinear(6, 3, True)
    gi = g.backward(samples, go)
    close(gi[0][:, 1], go[0] @ g.weight)
    close(gi[0][:, 0], torch.arange(6, dtype=D))
    with pytest.raises(IndexError):
        m.forward(torch.tensor([[6, 1.0]], dtype=D))
    with pytest.raises(TypeError):
        m.forward(rand(3))


# ================================================================ CAddTensorTable, DistanceRatioCriterion


def test_cadd_tensor_table():
    x, ys = rand(3, 4), [rand(3, 4) for _ in range(3)]
    m = nn.CAddTensorTable()
    out = m.forward([x, ys])
    assert len(out) == 3
    for o, y in zip(out, ys):
        close(o, torch.from_numpy(x.numpy() + y.numpy()))
    go = [rand(3, 4) for _ in range(3)]
    gi = m.backward([x, ys], go)
    close(gi[0], torch.from_numpy(sum(g.numpy() for g in go)))
    close(gi[1], go)
    go[0].zero_()  # gradInput holds copies, as torch7's
    assert float(gi[1][0].abs().sum()) > 0
    check_gradients(nn.CAddTensorTable(), [rand(2, 3), [rand(2, 3), rand(2, 3)]])
    out = m.forward([x, []])
    assert out == [] and m.backward([x, []], [])[1] == []
    close(m.gradInput[0], torch.zeros(3, 4, dtype=D))
    with pytest.raises(RuntimeError, match=r"input\[1\]\[1\]"):
        m.forward([x, [rand(3, 4), rand(4, 3)]])
    with pytest.raises(TypeError):
        m.forward([x, rand(3, 4)])


@pytest.mark.parametrize("size_average", [True, False])
def test_distance_ratio_criterion(size_average):
    x, y = rand(6, 1).abs(), rand(6, 1).abs()
    c = nn.DistanceRatioCriterion(size_average)
    # the loss and gradients as torch7 writes them: -log(exp(-X) / (exp(-X) + exp(-Y))),
    # d/dX = 1 - exp(-X) / (exp(-X) + exp(-Y)), d/dY = -exp(-Y) / (exp(-X) + exp(-Y))
    ex, ey = np.exp(-x.numpy()), np.exp(-y.numpy())
    n = 6 if size_average else 1
    close(c.forward([x, y]), -np.log(ex / (ex + ey)).sum() / n)
    gi = [g.clone() for g in c.backward([x, y])]
    close(gi[0], torch.from_numpy((1 - ex / (ex + ey)) / n))
    close(gi[1], torch.from_numpy(-ey / (ex + ey) / n))
    for t, g in zip((x, y), gi):
        close(g, central_differences(t, lambda: c.forward([x, y])), 1e-6)


def test_distance_ratio_criterion_torch7_values_and_shapes():
    c = nn.DistanceRatioCriterion()
    ones = torch.ones(32, 1, dtype=D)
    close(c.forward([ones, ones.clone()]), 1 + math.log(2 * math.exp(-1)))  # torch7's own test
    dx, dy = c.backward([ones, ones.clone()])
    close(float(dx.sum()), 0.5)
    close(float(dy.sum()), -0.5)
    # far distances: exp(-1000) underflows, the loss does not
    big = torch.full((4,), 1000.0, dtype=D)
    close(c.forward([big, big.clone()]), math.log(2))
    close(c.forward([torch.zeros(4, dtype=D), big]), 0)
    close(nn.DistanceRatioCriterion(False).forward([big, torch.zeros(4, dtype=D)]), 4000)
    # Y needs only X's number of elements and rows
    x, y = rand(5, 1), rand(5)
    close(c.forward([x, y]), c.forward([x, y.reshape(5, 1)]))
    assert c.backward([x, y])[1].shape == (5,)
    with pytest.raises(RuntimeError, match="do not match"):
        c.forward([rand(5), rand(4)])
    with pytest.raises(TypeError):
        c.forward(rand(5))


# ================================================================ PartialLinear, Kmeans


def test_partial_linear_is_linear_on_its_columns():
    m = nn.PartialLinear(5, 7).reset()
    w, b = (p.numpy().copy() for p in m.parameters()[0])
    assert w.shape == (7, 5) and b.shape == (1, 7)
    x = rand(4, 5)
    close(m.forward(x), torch.from_numpy(x.numpy() @ w.T + b))
    cols = [6, 1, 3]
    m.setPartition(torch.tensor(cols))
    assert m.partition.dtype == m.allcolumns.dtype
    close(m.forward(x), torch.from_numpy(x.numpy() @ w[cols].T + b[:, cols]))
    go = rand(4, 3)
    m.zeroGradParameters()
    close(m.backward(x, go), torch.from_numpy(go.numpy() @ w[cols]))
    grad_w, grad_b = np.zeros((7, 5)), np.zeros((1, 7))
    grad_w[cols] = go.numpy().T @ x.numpy()
    grad_b[0, cols] = go.numpy().sum(0)
    close(m.parameters()[1], [torch.from_numpy(grad_w), torch.from_numpy(grad_b)])
    check_gradients(m, x)
    # one step moves only the partition's rows and columns, whichever way it is taken
    twin = m.clone()
    m.zeroGradParameters()
    m.backward(x, go)
    m.updateParameters(0.1)
    close(m.parameters()[0], [torch.from_numpy(w - 0.1 * grad_w), torch.from_numpy(b - 0.1 * grad_b)])
    grads_before = [g.clone() for g in twin.parameters()[1]]
    twin.backwardUpdate(x, go, 0.1)
    close(twin.parameters()[0], m.parameters()[0])
    close(twin.parameters()[1], grads_before)
    m.resetPartition()
    assert m.partition is m.allcolumns and m.forward(x).shape == (4, 7)


def test_partial_linear_without_bias_and_errors():
    m = nn.PartialLinear(3, 4, False)
    assert len(m.parameters()[0]) == 1 and repr(m) == "nn.PartialLinear(3 -> 4) without bias"
    m.setPartition(torch.tensor([2, 2]))  # a column twice: its gradients add up
    x, go = rand(2, 3), rand(2, 2)
    m.forward(x)
    m.zeroGradParameters()
    m.backward(x, go)
    close(m.parameters()[1][0][2], go.sum(1) @ x)
    check_gradients(m, x)
    with pytest.raises(IndexError):
        m.setPartition(torch.tensor([4]))
    with pytest.raises(RuntimeError):
        m.setPartition(torch.tensor([[0]]))
    with pytest.raises(RuntimeError):
        m.forward(rand(2, 4))


def np_lloyd_step(x, centres):
    """One step of Lloyd's k-means: (assignment, sum of squared distances, new centres, counts);
    a centre without samples stays."""
    d = ((x[:, None, :] - centres[None, :, :]) ** 2).sum(2)
    a = d.argmin(1)
    new = centres.copy()
    counts = np.bincount(a, minlength=len(centres))
    for j in range(len(centres)):
        if counts[j]:
            new[j] = x[a == j].mean(0)
    return a, d[np.arange(len(x)), a].sum(), new, counts


@pytest.mark.parametrize("scale", [None, 0.5])
def test_kmeans_step_against_numpy(scale):
    torch.manual_seed(3)
    x = rand(20, 3)
    km = nn.Kmeans(4, 3, scale)
    centres = km.weight.numpy().copy()
    a, loss, new, counts = np_lloyd_step(x.numpy(), centres)
    assert km.forward(x).tolist() == a.tolist() and km.output.dtype == D
    close(km.loss, loss)
    km.zeroGradParameters()
    close(km.backward(x, km.output), torch.zeros(20, 3, dtype=D))
    close(km.clusterSampleCount, torch.from_numpy(counts.astype(np.float64)))
    km.updateParameters(1)
    step = 1 if scale is None else scale  # updateParameters(1) moves a centre by scale times the way to its mean
    close(km.weight, torch.from_numpy(centres + step * (new - centres)))
    # without a scale of its own, accGradParameters' argument is the scale
    if scale is None:
        km.forward(x)
        km.zeroGradParameters()
        km.backward(x, km.output, 0.25)
        _, _, new2, _ = np_lloyd_step(x.numpy(), km.weight.numpy())
        close(km.gradWeight, torch.from_numpy(-0.25 * (new2 - km.weight.numpy())))


def test_kmeans_training_converges_like_numpy():
    torch.manual_seed(4)
    means = np.array([[0.0, 0.0], [6.0, 0.0], [0.0, 6.0]])
    x = torch.from_numpy(
        np.concatenate([m + 0.5 * np.random.default_rng(i).standard_normal((30, 2)) for i, m in enumerate(means)])
    )
    km = nn.Kmeans(3, 2).initKmeansPlus(x)
    centres = km.weight.numpy().copy()
    for _ in range(10):
        a, loss, centres, _ = np_lloyd_step(x.numpy(), centres)
        assert km.forward(x).tolist() == a.tolist()
        close(km.loss, loss)
        km.zeroGradParameters()
        km.backward(x, km.output)
        km.updateParameters(1)
        close(km.weight, torch.from_numpy(centres))
    # converged: each blob is one cluster, its centre the blob's mean, and another step stays
    groups = km.forward(x).reshape(3, 30)
    assert all(len(set(g.tolist())) == 1 for g in groups) and len(set(groups[:, 0].tolist())) == 3
    for g, blob in zip(groups[:, 0].long(), x.reshape(3, 30, 2)):
        close(km.weight[g], blob.mean(0))
    before = km.weight.clone()
    km.zeroGradParameters()
    km.backward(x, km.output)
    km.updateParameters(1)
    close(km.weight, before)


def test_kmeans_initialisations():
    torch.manual_seed(5)
    x = rand(15, 3)
    km = nn.Kmeans(4, 3).initRandom(x)
    rows = [int(np.flatnonzero((x.numpy() == c).all(1))[0]) for c in km.weight.numpy()]
    assert len(set(rows)) == 4  # k distinct samples
    # with p = 1 the pool is the one farthest sample: farthest-point traversal from the first
    km.initKmeansPlus(x, 1)
    assert km.p == 1
    chosen = [int(np.flatnonzero((x.numpy() == km.weight[0].numpy()).all(1))[0])]
    for c in range(1, 4):
        d = ((x.numpy()[:, None, :] - x.numpy()[chosen][None, :, :]) ** 2).sum(2).min(1)
        chosen.append(int(d.argmax()))
        close(km.weight[c], x[chosen[-1]])
    km.initKmeansPlus(x)  # p stays the one given before
    assert km.p == 1
    with pytest.raises(ValueError):
        km.initKmeansPlus(x, 1.5)
    with pytest.raises(ValueError):
        km.initRandom(rand(3, 3))
    with pytest.raises(RuntimeError):
        km.forward(rand(5, 2))
    with pytest.raises(RuntimeError):
        nn.Kmeans(2, 3).accGradParameters(x, None)
    with pytest.raises(ValueError):
        nn.Kmeans(0, 3)


# ================================================================ the two fixes


@pytest.mark.parametrize("size", [1, 2, 3, 4, 5, 6])
def test_cross_map_lrn_window(size):
    m = nn.SpatialCrossMapLRN(size, 0.5, 0.75, 2)
    x = rand(2, 5, 2, 3)
    out = m.forward(x)
    half = (size - 1) // 2
    xa = x.numpy()
    expected = np.empty_like(xa)
    for c in range(5):
        s = (xa[:, max(0, c - half) : c + half + 1] ** 2).sum(1)
        expected[:, c] = xa[:, c] * (2 + 0.5 / size * s) ** -0.75
    close(out, torch.from_numpy(expected))
    check_gradients(nn.SpatialCrossMapLRN(size, 0.5, 0.75, 2), rand(4, 2, 2))


def test_full_convolution_target_table():
    m = nn.SpatialFullConvolution(2, 3, 3, 3, 2, 2, 1, 1)
    x = rand(2, 2, 4, 4)
    for th, tw in [(7, 7), (8, 8), (7, 8)]:
        t = rand(2, 5, th, tw)
        out = m.forward([x, t])
        assert out.shape == (2, 3, th, tw)
        close(out, F.conv_transpose2d(x, m.weight, m.bias, 2, 1, (th - 7, tw - 7)))
        gi = m.backward([x, t], rand(2, 3, th, tw))
        assert isinstance(gi, list) and float(gi[1].abs().sum()) == 0 and gi[1].shape == t.shape
    assert m.adjW == 0 and m.adjH == 0  # the table's adjustments last one call
    check_gradients(nn.SpatialFullConvolution(1, 2, 2, 2, 2, 2), [rand(1, 2, 2), rand(1, 5, 5)], skip=(1,))
    with pytest.raises(TypeError):
        m.forward([x])


# ================================================================ saved by the Lua package


LUA_HELPERS = r"""
local function copy(t)
   if torch.isTensor(t) then return t:clone() end
   if type(t) == 'table' then
      local r = {}
      for k, v in pairs(t) do r[k] = copy(v) end
      return r
   end
   return t
end
local function like(t)
   if torch.isTensor(t) then return torch.randn(t:size()):type(t:type()) end
   if type(t) == 'table' then
      local r = {}
      for k, v in pairs(t) do r[k] = like(v) end
      return r
   end
   return 1
end
local M = {}
-- saves the module as built, then runs it: output, gradOutput, gradInput, parameter gradients
function M.module(path, m, x)
   m:zeroGradParameters()
   torch.save(path, m)
   torch.manualSeed(5)
   local y = copy(m:forward(x))
   local go = like(y)
   local gi = copy(m:backward(x, go))
   local _, grads = m:parameters()
   return { y, go, gi, copy(grads or {}) }
end
function M.criterion(path, c, x, t)
   torch.save(path, c)
   local loss = c:forward(x, t)
   return { loss, copy(c:backward(x, t)) }
end
-- a module saved after its forward (its buffers saved too), and its gradInput then
function M.afterForward(path, m, x)
   local y = copy(m:forward(x))
   torch.save(path, m)
   torch.manualSeed(6)
   local go = like(y)
   return { y, go, copy(m:updateGradInput(x, go)) }
end
return M
"""


@pytest.fixture(scope="module")
def lua():
    rt = tl.Runtime()
    rt.require("nn")
    return rt, rt.execute(LUA_HELPERS)


def _py(v):
    return tl.to_python(v) if isinstance(v, tl.LuaObject) else v


def _plus1(t):
    return t + 1


# (Lua constructor, Python input, Lua input or None for the same)
MODULE_CASES = {
    "CAddTensorTable": ("nn.CAddTensorTable()", lambda: [rand(3, 4), [rand(3, 4), rand(3, 4)]], None),
    "CMaxTable": ("nn.CMaxTable()", lambda: [rand(3, 4), rand(3, 4), rand(3, 4)], None),
    "CMinTable": ("nn.CMinTable()", lambda: [rand(3, 4), rand(3, 4)], None),
    "CReLU": ("nn.CReLU(3)", lambda: rand(2, 3, 4, 2), None),
    "Collapse": ("nn.Collapse(2)", lambda: rand(3, 4, 5), None),
    "Constant": ("nn.Constant(torch.randn(2, 3), 2)", lambda: rand(4, 5, 6), None),
    "Convert_perm": ("nn.Convert('bchw', 'bhwc')", lambda: rand(2, 3, 4, 5), None),
    "Convert_flat": ("nn.Convert('bchw', 'hfb')", lambda: rand(2, 3, 4, 5), None),
    "CriterionTable": ("nn.CriterionTable(nn.MSECriterion())", lambda: [rand(3, 4), rand(3, 4)], None),
    "Decorator": ("nn.Decorator(nn.Linear(4, 3))", lambda: rand(2, 4), None),
    "DontCast": ("nn.DontCast(nn.Linear(4, 3):float(), false)", lambda: rand(2, 4), None),
    "GatedLinearUnit": ("nn.GatedLinearUnit(2)", lambda: rand(3, 4, 5), None),
    "MaskedSelect": ("nn.MaskedSelect()", lambda: [rand(3, 4), (rand(3, 4) > 0).to(torch.uint8)], None),
    "NaN": ("nn.NaN(nn.Linear(4, 3), 7)", lambda: rand(2, 4), None),
    "PartialLinear": ("nn.PartialLinear(4, 6):reset():setPartition(torch.Tensor({5, 2, 3}))", lambda: rand(3, 4), None),
    "PixelShuffle": ("nn.PixelShuffle(2)", lambda: rand(2, 8, 3, 3), None),
    "Profile": ("nn.Profile(nn.Linear(4, 3), 1000)", lambda: rand(2, 4), None),
    "SpatialLogSoftMax": ("nn.SpatialLogSoftMax()", lambda: rand(2, 3, 4, 4), None),
    "TanhShrink": ("nn.TanhShrink()", lambda: rand(3, 5), None),
    "TemporalDynamicKMaxPooling": ("nn.TemporalDynamicKMaxPooling(2, 0.5)", lambda: rand(2, 7, 3), None),
    "WeightNorm": ("nn.WeightNorm(nn.Linear(4, 3))", lambda: rand(2, 4), None),
    "WeightNorm_dim2": ("nn.WeightNorm(nn.SpatialConvolution(2, 3, 2, 2), 2)", lambda: rand(2, 2, 4, 4), None),
    "ZeroGrad": ("nn.ZeroGrad()", lambda: rand(3, 4), None),
    "ZipTable": ("nn.ZipTable()", lambda: [[rand(2), rand(3)], [rand(2), rand(3)]], None),
    "ZipTableOneToMany": ("nn.ZipTableOneToMany()", lambda: [rand(2), [rand(3), rand(4)]], None),
    "SpatialConvolutionMap": (
        "nn.SpatialConvolutionMap(nn.tables.random(3, 4, 2), 3, 3, 2, 1)",
        lambda: rand(2, 3, 7, 6),
        None,
    ),
    "SpatialFullConvolutionMap": (
        "nn.SpatialFullConvolutionMap(nn.tables.full(2, 3), 3, 2, 2, 1)",
        lambda: rand(2, 2, 3, 4),
        None,
    ),
    "SpatialDepthWiseConvolution": (
        "nn.SpatialDepthWiseConvolution(3, 2, 3, 2, 2, 1, 1, 0)",
        lambda: rand(2, 3, 5, 6),
        None,
    ),
    "TemporalRowConvolution": ("nn.TemporalRowConvolution(4, 3, 2)", lambda: rand(2, 9, 4), None),
    "TemporalRowConvolution_featFirst": ("nn.TemporalRowConvolution(4, 3, 1, true)", lambda: rand(4, 6), None),
    "SparseLinear": (
        "nn.SparseLinear(6, 3)",
        lambda: [torch.tensor([[0, 1.5], [4, -2.0]], dtype=D), torch.tensor([[5, 0.5]], dtype=D)],
        lambda x: [torch.stack([t[:, 0] + 1, t[:, 1]], 1) for t in x],
    ),
    "SpatialFullConvolution_target": (
        "nn.SpatialFullConvolution(2, 3, 3, 3, 2, 2, 1, 1)",
        lambda: [rand(2, 2, 4, 4), rand(2, 3, 8, 7)],
        None,
    ),
    "SpatialCrossMapLRN_even": ("nn.SpatialCrossMapLRN(4, 0.5, 0.75, 2)", lambda: rand(2, 6, 3, 3), None),
    "SpatialCrossMapLRN_odd": ("nn.SpatialCrossMapLRN(3, 0.5, 0.75, 2)", lambda: rand(6, 3, 3), None),
}


@pytest.mark.parametrize("name", sorted(MODULE_CASES))
def test_lua_saved_module_runs_the_same(lua, name, tmp_path):
    rt, helpers = lua
    ctor, make, to_lua = MODULE_CASES[name]
    torch.manual_seed(11)
    x = make()
    lx = to_lua(x) if to_lua else x
    path = str(tmp_path / "m.t7")
    y, go, gi, grads = _py(helpers.module(path, rt.eval(ctor), lx))
    m = load_lua(path)
    assert m.torch_typename() == "nn." + name.split("_")[0]
    assert type(m).__module__.startswith("torch.legacy.nn.") and type(m).__name__ == name.split("_")[0]
    close(m.forward(x), y)
    close(m.backward(x, go), gi)
    params = m.parameters()
    close(params[1] if params else [], grads or [])
    # saved back by Python, the module runs in Lua again
    save_lua(m, path)
    again = _py(helpers.module(path, rt.eval("torch.load(%r)" % path), lx))
    close(again[0], y)


CRITERION_CASES = {
    "DistanceRatioCriterion": ("nn.DistanceRatioCriterion()", lambda: ([rand(5).abs(), rand(5).abs()], None), None),
    "L1Cost": ("nn.L1Cost()", lambda: (rand(3, 4), None), None),
    "ModuleCriterion": (
        "nn.ModuleCriterion(nn.MSECriterion(), nn.Tanh(), nn.Sigmoid())",
        lambda: (rand(3, 4), rand(3, 4)),
        None,
    ),
    "SpatialAutoCropMSECriterion": (
        "nn.SpatialAutoCropMSECriterion()",
        lambda: (rand(2, 3, 4, 4), rand(2, 3, 7, 6)),
        None,
    ),
    "SpatialClassNLLCriterion": (
        "nn.SpatialClassNLLCriterion(torch.rand(4) + 0.5, true, 3)",
        lambda: (torch.log_softmax(rand(2, 4, 3, 3), 1), torch.randint(0, 4, (2, 3, 3))),
        _plus1,
    ),
    "WeightedMSECriterion": (
        "nn.WeightedMSECriterion(torch.randn(3, 4))",
        lambda: (rand(2, 3, 4), rand(2, 3, 4)),
        None,
    ),
}


@pytest.mark.parametrize("name", sorted(CRITERION_CASES))
def test_lua_saved_criterion_runs_the_same(lua, name, tmp_path):
    rt, helpers = lua
    ctor, make, target_to_lua = CRITERION_CASES[name]
    torch.manual_seed(12)
    x, t = make()
    lt = target_to_lua(t) if target_to_lua else t
    path = str(tmp_path / "c.t7")
    loss, gi = _py(helpers.criterion(path, rt.eval(ctor), x, lt))
    c = load_lua(path)
    assert type(c).__name__ == name
    close(c.forward(x, t), loss)
    close(c.backward(x, t), gi)
    if name == "SpatialClassNLLCriterion":
        assert c.ignoreIndex == 2


@pytest.mark.parametrize("name", ["CMaxTable", "TemporalDynamicKMaxPooling", "SpatialConvolutionMap"])
def test_lua_buffers_load_zero_based(lua, name, tmp_path):
    """A module saved by Lua after its forward holds 1-based index buffers (maxIdx,
    indices) or tables (connTable): loaded, its backward alone gives Lua's; saved back, Lua
    reads them 1-based again."""
    rt, helpers = lua
    ctor, make, _ = MODULE_CASES[name]
    torch.manual_seed(13)
    x = make()
    path = str(tmp_path / "f.t7")
    y, go, gi = _py(helpers.afterForward(path, rt.eval(ctor), x))
    m = load_lua(path)
    if name == "CMaxTable":
        assert int(m.maxIdx.min()) == 0
    elif name == "TemporalDynamicKMaxPooling":
        assert int(m.indices.min()) == 0
    else:
        assert int(m.connTable.min()) == 0
    close(m.updateGradInput(x, go), gi)
    save_lua(m, path)
    back = rt.eval("torch.load(%r)" % path)
    close(_py(back.updateGradInput(x, go)), gi)


@pytest.mark.parametrize("torch7_name", [False, True])
def test_lua_kmeans_saved_after_forward(lua, torch7_name, tmp_path):
    """A Kmeans saved by Lua after its forward holds each sample's centre 1-based (its output,
    and the assignment that accGradParameters reads: `_assignment` here, `_minIndx` in
    torch7's files): loaded, they are 0-based and accGradParameters alone gives Lua's
    gradient; saved back, Lua reads them 1-based again."""
    rt, _ = lua
    path = str(tmp_path / "km.t7")
    torch.manual_seed(16)
    x = rand(12, 3)
    rt["__x"] = x
    out, grad = _py(
        rt.execute(
            r"""
      local path, x = %r, _G.__x
      local m = nn.Kmeans(4, 3):initRandom(x)
      local out = m:forward(x):clone()
      m:zeroGradParameters()
      m:accGradParameters(x)
      if %s then m._minIndx, m._assignment = m._assignment, nil end
      torch.save(path, m)
      return { out, m.gradWeight:clone() }
    """
            % (path, "true" if torch7_name else "false")
        )
    )
    m = load_lua(path)
    close(m.output, out - 1)
    assert m._assignment.tolist() == (out - 1).long().tolist() and "_minIndx" not in vars(m)
    m.zeroGradParameters()
    m.accGradParameters(x, None)
    close(m.gradWeight, grad)
    save_lua(m, path)
    back = _py(
        rt.execute(
            r"""
      local m = torch.load(%r)
      local out = m.output:clone()
      m:zeroGradParameters()
      m:accGradParameters(_G.__x)
      return { out, m.gradWeight:clone() }
    """
            % path
        )
    )
    close(back, [out, grad])


def test_lua_trained_stochastic_gradient_matches(lua, tmp_path):
    rt, _ = lua
    path = str(tmp_path / "mlp.t7")
    torch.manual_seed(14)
    data = [[rand(3), rand(2)] for _ in range(5)]
    rt["__data"] = data
    flat, err = _py(
        rt.execute(
            r"""
      local path, data = %r, _G.__data
      local mlp = nn.Sequential():add(nn.Linear(3, 4)):add(nn.Tanh()):add(nn.Linear(4, 2))
      torch.save(path, mlp)
      local dataset = { size = function() return #data end }
      for i, ex in ipairs(data) do dataset[i] = ex end
      local sgd = nn.StochasticGradient(mlp, nn.MSECriterion())
      sgd.shuffleIndices, sgd.maxIteration, sgd.learningRateDecay, sgd.verbose = false, 3, 0.1, false
      local err = sgd:train(dataset)
      return { mlp:getParameters():clone(), err }
    """
            % path
        )
    )
    mlp = load_lua(path)
    sgd = nn.StochasticGradient(mlp, nn.MSECriterion())
    sgd.shuffleIndices, sgd.maxIteration, sgd.learningRateDecay, sgd.verbose = False, 3, 0.1, False
    close(sgd.train(data), err)
    close(mlp.getParameters()[0], flat)


def test_index_linear():
    m = nn.IndexLinear(6, 3, True, 1)
    keys = [torch.tensor([0, 3]), torch.tensor([4])]
    values = [torch.tensor([1.5, -2.0], dtype=D), torch.tensor([0.5], dtype=D)]
    out = m.forward([keys, values])
    dense = torch.zeros(2, 6, dtype=D)  # weight row = key + keysOffset
    dense[0, 1], dense[0, 4], dense[1, 5] = 1.5, -2.0, 0.5
    close(out, dense @ m.weight + m.bias)
    close(m.forward([keys[0], values[0]]), out[0])
    close(m.forward([torch.cat(keys), torch.cat(values), [2, 1]]), out)
    go = rand(2, 3)
    m.zeroGradParameters()
    gi = m.backward([keys, values], go)
    # torch7's dense gradInput: every feature's d output / d value, weight @ gradOutput
    assert gi[0][0].tolist() == list(range(6))
    close(gi[1][0], m.weight @ go[0])
    close(gi[1][1], m.weight @ go[1])
    assert m.runningKeys.tolist() == [0, 3, 4] and m.gradWeight.shape == (3, 3)
    w = m.weight.clone()
    m.updateParameters(0.1)
    close(m.weight, w - 0.1 * (dense.t() @ go))
    with pytest.raises(IndexError):
        m.forward([torch.tensor([5]), torch.tensor([1.0], dtype=D)])
    with pytest.raises(TypeError):
        m.forward([torch.tensor([1.0]), torch.tensor([1.0], dtype=D)])


@pytest.mark.parametrize("normalize", [False, True])
def test_lua_index_linear_trains_the_same(lua, normalize, tmp_path):
    rt, _ = lua
    path = str(tmp_path / "il.t7")
    torch.manual_seed(15)
    keys = [torch.tensor([0, 3, 3]), torch.tensor([4, 1])]
    values = [rand(3), rand(2)]
    go = rand(2, 3)
    rt["__in"] = [[k + 1 for k in keys], values]
    rt["__go"] = go
    lua_w, lua_b, lua_out = _py(
        rt.execute(
            r"""
      local m = nn.IndexLinear(6, 3, false, 0, nil, nil, %s)
      torch.save(%r, m)
      local out = m:forward(_G.__in):clone()
      m:zeroGradParameters()
      m:backward(_G.__in, _G.__go)
      m:updateParameters(0.1)
      m:accUpdateGradParameters(_G.__in, _G.__go, 0.05)
      return { m.weight:clone(), m.bias:clone(), out }
    """
            % ("true" if normalize else "false", path)
        )
    )
    m = load_lua(path)
    close(m.forward([keys, values]), lua_out)
    m.zeroGradParameters()
    m.backward([keys, values], go)
    m.updateParameters(0.1)
    m.accUpdateGradParameters([keys, values], go, 0.05)
    close(m.weight, lua_w)
    close(m.bias, lua_b)
