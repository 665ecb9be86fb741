"""torch.legacy.nn's spatial, temporal and volumetric layers and normalizations against
torch.nn.functional with the same parameters: forward, and autograd's gradients as the
reference for updateGradInput / accGradParameters (which compute them by hand); numerical
Jacobians on a few; batch and non-batch inputs, non-contiguous ones, error cases."""

import numpy as np
import pytest

import torch
import torch.nn.functional as F
from conftest import make_tensor
from torch.legacy import nn

D = torch.float64


def close(got, want, tol=1e-9):
    assert tuple(got.shape) == tuple(want.shape), (tuple(got.shape), tuple(want.shape))
    np.testing.assert_allclose(got.detach().double().numpy(), want.detach().double().numpy(), rtol=tol, atol=tol)


def rand(*shape, low=-2, high=2, layout="contiguous", seed=0):
    t, _ = make_tensor(shape, D, layout, np.random.default_rng(seed + sum(shape)), low, high)
    return t


def check_layer(module, x, ref, params=("weight", "bias"), scale=0.5, tol=1e-9):
    """module's forward / backward against ref(x, params) and autograd, batch as given and
    without the batch dimension (first sample)."""
    for inp in (x, x[0]) if getattr(module, "_test_single", True) else (x,):
        before = inp.clone()
        out = module.forward(inp)
        xr = inp.detach().clone().requires_grad_(True)
        ps = {
            n: getattr(module, n).detach().clone().requires_grad_(True)
            for n in params
            if getattr(module, n, None) is not None
        }
        want = ref(xr, ps)
        close(out, want, tol)
        g = torch.from_numpy(np.random.default_rng(inp.dim()).standard_normal(tuple(out.shape)))
        module.zeroGradParameters()
        gi = module.backward(inp, g.clone(), scale)
        want.backward(g)
        close(gi, xr.grad, tol)
        for n, p in ps.items():
            close(getattr(module, "grad" + n[0].upper() + n[1:]), p.grad * scale, tol)
        np.testing.assert_array_equal(inp.numpy(), before.numpy())  # the input is left alone


# ---------------------------------------------------------------- convolutions


@pytest.mark.parametrize("layout", ["contiguous", "transposed", "strided"])
def test_spatial_convolution(layout):
    m = nn.SpatialConvolution(3, 4, 3, 2, 2, 1, 1, 0).double()  # kW=3 kH=2 dW=2 dH=1 padW=1 padH=0
    assert m.weight.shape == (4, 3, 2, 3) and m.bias.shape == (4,)
    x = rand(2, 3, 7, 6, layout=layout)
    check_layer(m, x, lambda x, p: F.conv2d(x, p["weight"], p["bias"], (1, 2), (0, 1)))
    m.forward(x)
    assert m.finput.shape == (2, 3 * 2 * 3, m.output.size(2) * m.output.size(3))  # torch7's im2col buffer


def test_spatial_convolution_mm_weight_layouts():
    m = nn.SpatialConvolutionMM(3, 4, 3, 3, 1, 1, 1, 1).double()
    assert m.weight.shape == (4, 27)  # torch7's MM layout
    x = rand(2, 3, 5, 6)
    check_layer(m, x, lambda x, p: F.conv2d(x, p["weight"].view(4, 3, 3, 3), p["bias"], 1, 1))
    # a SpatialConvolution saved with a 2-D weight (older files) computes the same
    c = nn.SpatialConvolution(3, 4, 3, 3, 1, 1, 1, 1).double()
    c.weight = m.weight.clone()
    c.gradWeight = torch.zeros_like(c.weight)
    c.bias.copy_(m.bias)
    close(c.forward(x), m.forward(x))


def test_spatial_dilated_convolution_and_no_bias():
    m = nn.SpatialDilatedConvolution(2, 3, 3, 2, 1, 2, 1, 0, 2, 1).double()
    check_layer(m, rand(2, 2, 7, 8), lambda x, p: F.conv2d(x, p["weight"], p["bias"], (2, 1), (0, 1), (1, 2)))
    m.noBias()
    assert "bias" not in vars(m) and m.parameters()[0] == [m.weight]
    check_layer(m, rand(2, 2, 7, 8), lambda x, p: F.conv2d(x, p["weight"], None, (2, 1), (0, 1), (1, 2)))
    assert str(m).endswith("without bias")


def local_reference(x, w, b, k, s, p):
    """Locally connected layer by slicing: out[n, o, i, j] = sum w[i, j, o] * patch(i, j) + b[o, i, j]."""
    xp = F.pad(x, [p[1], p[1], p[0], p[0]])
    oh, ow = w.shape[0], w.shape[1]
    rows = []
    for i in range(oh):
        cols = []
        for j in range(ow):
            patch = xp[:, :, i * s[0] : i * s[0] + k[0], j * s[1] : j * s[1] + k[1]]
            cols.append((patch.unsqueeze(1) * w[i, j].unsqueeze(0)).sum((2, 3, 4)))
        rows.append(torch.stack(cols, -1))
    return torch.stack(rows, -2) + b


def test_spatial_convolution_local():
    m = nn.SpatialConvolutionLocal(2, 3, 6, 5, 3, 2, 1, 2, 1, 0).double()  # iW=6 iH=5 kW=3 kH=2 dW=1 dH=2 padW=1
    assert m.weight.shape == (m.oH, m.oW, 3, 2, 2, 3) and m.bias.shape == (3, m.oH, m.oW)
    x = rand(2, 2, 5, 6)
    check_layer(
        m,
        x,
        lambda x, p: (
            local_reference(
                x if x.dim() == 4 else x.unsqueeze(0), p["weight"], p["bias"], (2, 3), (2, 1), (0, 1)
            ).squeeze(0)
            if x.dim() == 3
            else local_reference(x, p["weight"], p["bias"], (2, 3), (2, 1), (0, 1))
        ),
    )
    with pytest.raises(RuntimeError):
        m.forward(rand(2, 2, 6, 6))  # not the declared input size


def test_spatial_full_convolution():
    m = nn.SpatialFullConvolution(3, 2, 3, 4, 2, 2, 1, 1, 1, 0).double()  # adjW=1
    assert m.weight.shape == (3, 2, 4, 3)
    check_layer(m, rand(2, 3, 4, 5), lambda x, p: F.conv_transpose2d(x, p["weight"], p["bias"], 2, 1, (0, 1)))
    with pytest.raises(RuntimeError):
        nn.SpatialFullConvolution(3, 2, 3, 3, 2, 2, 0, 0, 2, 0).forward(torch.randn(3, 4, 4))  # adj >= stride


def test_spatial_subsampling():
    m = nn.SpatialSubSampling(3, 2, 3, 2, 1).double()
    check_layer(
        m,
        rand(2, 3, 7, 6),
        lambda x, p: F.avg_pool2d(x, (3, 2), (1, 2)) * 6 * p["weight"].view(-1, 1, 1) + p["bias"].view(-1, 1, 1),
    )


def test_temporal_convolution():
    m = nn.TemporalConvolution(4, 3, 3, 2).double()
    assert m.weight.shape == (3, 12)

    def ref(x, p):
        w = p["weight"].view(3, 3, 4).permute(0, 2, 1)  # frame-major columns
        xs = x if x.dim() == 3 else x.unsqueeze(0)
        y = F.conv1d(xs.transpose(1, 2), w, p["bias"], 2).transpose(1, 2)
        return y if x.dim() == 3 else y[0]

    check_layer(m, rand(2, 9, 4), ref)
    with pytest.raises(RuntimeError):
        m.forward(rand(9, 5))  # wrong frame size


def test_temporal_subsampling_and_max_pooling():
    m = nn.TemporalSubSampling(4, 3, 2).double()

    def ref(x, p):
        xs = x if x.dim() == 3 else x.unsqueeze(0)
        y = F.avg_pool1d(xs.transpose(1, 2), 3, 2).transpose(1, 2) * 3 * p["weight"] + p["bias"]
        return y if x.dim() == 3 else y[0]

    check_layer(m, rand(2, 8, 4), ref)

    pool = nn.TemporalMaxPooling(3, 2)

    def ref_pool(x, p):
        xs = x if x.dim() == 3 else x.unsqueeze(0)
        y = F.max_pool1d(xs.transpose(1, 2), 3, 2).transpose(1, 2)
        return y if x.dim() == 3 else y[0]

    x = rand(2, 9, 4)
    check_layer(pool, x, ref_pool, ())
    # torch7's indices: the max's 0-based offset inside its window
    pool.forward(x)
    frames = pool.indices + torch.arange(4).view(1, -1, 1) * 2
    close(x.gather(1, frames), pool.output)


@pytest.mark.parametrize("cls", ["VolumetricConvolution", "VolumetricDilatedConvolution"])
def test_volumetric_convolution(cls):
    if cls == "VolumetricConvolution":
        m = nn.VolumetricConvolution(2, 3, 2, 3, 2, 1, 2, 1, 1, 0, 1).double()
        dil = 1
    else:
        m = nn.VolumetricDilatedConvolution(2, 3, 2, 3, 2, 1, 2, 1, 1, 0, 1, 2, 1, 1).double()
        dil = (2, 1, 1)
    assert m.weight.shape == (3, 2, 2, 2, 3)  # out x in x kT x kH x kW
    check_layer(
        m,
        rand(2, 2, 6, 5, 7, layout="transposed"),
        lambda x, p: F.conv3d(x, p["weight"], p["bias"], (1, 1, 2), (1, 1, 0), dil),
    )


def test_volumetric_full_convolution():
    m = nn.VolumetricFullConvolution(2, 3, 2, 2, 3, 2, 1, 2, 0, 1, 1, 1, 0, 1).double()
    assert m.weight.shape == (2, 3, 2, 3, 2)
    check_layer(
        m,
        rand(2, 2, 3, 4, 3),
        lambda x, p: F.conv_transpose3d(x, p["weight"], p["bias"], (2, 2, 1), (0, 1, 1), (1, 1, 0)),
    )


@pytest.mark.parametrize(
    "make",
    [
        lambda: nn.SpatialConvolution(2, 2, 3, 2, 2, 1, 1, 1),
        lambda: nn.SpatialFullConvolution(2, 2, 3, 2, 2, 1, 1, 0, 1, 0),
        lambda: nn.SpatialConvolutionLocal(2, 2, 4, 4, 3, 3),
        lambda: nn.TemporalConvolution(2, 3, 2, 1),
        lambda: nn.VolumetricConvolution(1, 2, 2, 2, 2),
    ],
)
def test_convolution_jacobians(make):
    m = make().double()
    shapes = {
        nn.TemporalConvolution: (5, 2),
        nn.VolumetricConvolution: (1, 3, 3, 3),
        nn.SpatialConvolutionLocal: (2, 4, 4),
    }
    x = torch.zeros(shapes.get(type(m), (2, 4, 5)), dtype=D)
    assert nn.Jacobian.testJacobian(m, x) < 1e-6
    assert nn.Jacobian.testJacobianParameters(m, x, m.weight, m.gradWeight) < 1e-6
    assert nn.Jacobian.testJacobianParameters(m, x, m.bias, m.gradBias) < 1e-6
    assert nn.Jacobian.testJacobianUpdateParameters(m, x, m.weight) < 1e-6


def test_convolution_errors_leave_state():
    m = nn.SpatialConvolution(3, 4, 3, 3).double()
    w = m.weight.clone()
    with pytest.raises(RuntimeError, match="planes"):
        m.forward(rand(2, 2, 5, 5))
    with pytest.raises(RuntimeError, match="too small"):
        m.forward(rand(3, 2, 2))
    with pytest.raises(RuntimeError):
        m.forward(rand(5, 5))
    with pytest.raises(TypeError):
        m.forward([1, 2])
    x = rand(3, 5, 5)
    m.forward(x)
    with pytest.raises(RuntimeError, match="gradOutput"):
        m.backward(x, torch.zeros(4, 2, 2, dtype=D))
    np.testing.assert_array_equal(m.weight.numpy(), w.numpy())
    assert not m.gradWeight.numpy().any()


# ---------------------------------------------------------------- pooling


@pytest.mark.parametrize("ceil", [False, True])
@pytest.mark.parametrize("layout", ["contiguous", "strided"])
def test_spatial_max_pooling(ceil, layout):
    m = nn.SpatialMaxPooling(3, 2, 2, 1, 1, 1)
    if ceil:
        m.ceil()
    x = rand(2, 3, 6, 7, layout=layout)
    check_layer(m, x, lambda x, p: F.max_pool2d(x, (2, 3), (1, 2), (1, 1), ceil_mode=ceil), ())
    _, idx = F.max_pool2d(x, (2, 3), (1, 2), (1, 1), ceil_mode=ceil, return_indices=True)
    m.forward(x)
    np.testing.assert_array_equal(m.indices.numpy(), idx.numpy())  # 0-based flat positions
    assert (m.iheight, m.iwidth) == (6, 7)


def test_spatial_dilated_max_pooling():
    m = nn.SpatialDilatedMaxPooling(2, 2, 1, 2, 0, 1, 2, 1)
    check_layer(m, rand(2, 2, 7, 6), lambda x, p: F.max_pool2d(x, 2, (2, 1), (1, 0), (1, 2)), ())


@pytest.mark.parametrize("ceil", [False, True])
@pytest.mark.parametrize("include_pad", [True, False])
def test_spatial_average_pooling(ceil, include_pad):
    m = nn.SpatialAveragePooling(3, 3, 2, 2, 1, 1)
    if ceil:
        m.ceil()
    if not include_pad:
        m.setCountExcludePad()
    check_layer(
        m, rand(2, 3, 6, 7), lambda x, p: F.avg_pool2d(x, 3, 2, 1, ceil_mode=ceil, count_include_pad=include_pad), ()
    )
    assert nn.SpatialAveragePooling(2, 2).dW == 1  # torch7's default stride


def test_old_average_pooling_without_divide():
    m = nn.class_for("nn.SpatialAveragePooling")(kW=2.0, kH=2.0, dW=2.0, dH=2.0, divide=False, train=True)
    x = rand(2, 4, 4)
    close(m.forward(x), F.avg_pool2d(x, 2) * 4)


def test_volumetric_pooling():
    m = nn.VolumetricMaxPooling(2, 3, 2, 2, 2, 1, 1, 1, 0)
    x = rand(2, 2, 5, 4, 6)
    check_layer(m, x, lambda x, p: F.max_pool3d(x, (2, 2, 3), (2, 1, 2), (1, 0, 1)), ())
    _, flat = F.max_pool3d(x, (2, 2, 3), (2, 1, 2), (1, 0, 1), return_indices=True)
    m.forward(x)
    # this project's THNN convention: 0-based flat positions in each volume
    np.testing.assert_array_equal(m.indices.numpy(), flat.numpy())
    avg = nn.VolumetricAveragePooling(2, 2, 3, 1, 2, 2)
    check_layer(avg, rand(2, 2, 5, 6, 4), lambda x, p: F.avg_pool3d(x, (2, 3, 2), (1, 2, 2)), ())


def test_adaptive_pooling():
    check_layer(nn.SpatialAdaptiveMaxPooling(3, 2), rand(2, 3, 7, 5), lambda x, p: F.adaptive_max_pool2d(x, (2, 3)), ())
    check_layer(
        nn.SpatialAdaptiveAveragePooling(3, 4), rand(2, 3, 7, 5), lambda x, p: F.adaptive_avg_pool2d(x, (4, 3)), ()
    )


@pytest.mark.parametrize("pnorm", [2, 3])
def test_lp_pooling(pnorm):
    m = nn.SpatialLPPooling(3, pnorm, 2, 3, 2, 1)
    check_layer(m, rand(2, 3, 6, 6, low=0.5, high=2), lambda x, p: F.lp_pool2d(x, pnorm, (3, 2), (1, 2)), ())


def fractional_reference(x, samples, pool, out):
    """torch7's interval sequence and a plain loop over the windows."""
    n, c, h, w = x.shape
    ph, pw = pool
    oh, ow = out

    def seq(u, size, o, k):
        alpha = (size - k) / (o - 1)
        return [int((i + u) * alpha) - int(u * alpha) for i in range(o - 1)] + [size - k]

    y = np.zeros((n, c, oh, ow))
    idx = np.zeros((n, c, oh, ow), dtype=np.int64)
    for b in range(n):
        for p in range(c):
            sw = seq(float(samples[b, p, 0]), w, ow, pw)
            sh = seq(float(samples[b, p, 1]), h, oh, ph)
            for i in range(oh):
                for j in range(ow):
                    win = x[b, p, sh[i] : sh[i] + ph, sw[j] : sw[j] + pw].numpy()
                    r, q = np.unravel_index(np.argmax(win), win.shape)
                    y[b, p, i, j] = win[r, q]
                    idx[b, p, i, j] = (sh[i] + r) * w + sw[j] + q
    return y, idx


def test_fractional_max_pooling():
    m = nn.SpatialFractionalMaxPooling(2, 3, 4, 3)  # poolW=2 poolH=3, outW=4 outH=3
    x = rand(2, 2, 8, 9)
    out = m.forward(x)
    y, idx = fractional_reference(x, m.randomSamples, (3, 2), (3, 4))
    np.testing.assert_array_equal(out.numpy(), y)
    np.testing.assert_array_equal(m.indices.numpy(), idx)
    g = torch.randn(out.shape, dtype=D)
    gi = m.backward(x, g)
    want = np.zeros((2, 2, 72))
    np.add.at(
        want,
        (np.arange(2)[:, None, None], np.arange(2)[None, :, None], idx.reshape(2, 2, -1)),
        g.numpy().reshape(2, 2, -1),
    )
    np.testing.assert_allclose(gi.numpy().reshape(2, 2, -1), want)
    # torch7 draws new samples at every forward unless fixPoolingRegions() (which sets
    # newRandomPool, torch7's name for "keep them"); the same samples give the same windows
    samples = m.randomSamples.clone()
    m.forward(x)
    assert not torch.equal(m.randomSamples, samples)
    m.fixPoolingRegions()
    assert m.newRandomPool is True
    samples = m.randomSamples.clone()
    y, idx = fractional_reference(x, samples, (3, 2), (3, 4))
    np.testing.assert_array_equal(m.forward(x).numpy(), y)
    assert torch.equal(m.randomSamples, samples)
    r = nn.SpatialFractionalMaxPooling(2, 2, 0.5, 0.7)
    assert r.forward(rand(3, 10, 10)).shape == (3, 7, 5)


def test_max_unpooling():
    pool = nn.SpatialMaxPooling(2, 2)
    unpool = nn.SpatialMaxUnpooling(pool)
    x = rand(2, 3, 6, 4)
    unpool._test_single = False  # the pooling's indices are for the batch
    y = pool.forward(x)
    check_layer(unpool, y, lambda v, p: F.max_unpool2d(v, pool.indices, 2, output_size=(6, 4)), ())
    y1 = pool.forward(x[0])  # a sample without the batch dimension
    close(unpool.forward(y1), F.max_unpool2d(y1, pool.indices, 2, output_size=(6, 4)))
    close(unpool.backward(y1, x[0]), x[0].reshape(3, -1).gather(1, pool.indices.reshape(3, -1)).reshape(y1.shape))
    pool3 = nn.VolumetricMaxPooling(2, 2, 2)
    unpool3 = nn.VolumetricMaxUnpooling(pool3)
    x3 = rand(2, 2, 4, 6, 4)
    y3 = pool3.forward(x3)
    _, flat = F.max_pool3d(x3, 2, return_indices=True)
    unpool3._test_single = False  # the pooling's indices are for the batch
    check_layer(unpool3, y3, lambda v, p: F.max_unpool3d(v, flat, 2, output_size=(4, 6, 4)), ())
    with pytest.raises(TypeError):
        nn.SpatialMaxUnpooling(nn.SpatialAveragePooling(2, 2))
    with pytest.raises(ValueError):
        nn.SpatialMaxUnpooling(nn.SpatialMaxPooling(3, 3, 2, 2))


def test_pooling_errors():
    with pytest.raises(RuntimeError, match="too small"):
        nn.SpatialMaxPooling(5, 5).forward(rand(2, 3, 3))
    with pytest.raises(RuntimeError, match="half"):
        nn.SpatialMaxPooling(2, 2, 1, 1, 2, 2).forward(rand(2, 6, 6))
    with pytest.raises(RuntimeError):
        nn.SpatialAveragePooling(2, 2).forward(rand(6, 6))
    m = nn.SpatialMaxPooling(2, 2)
    x = rand(2, 4, 4)
    m.forward(x)
    with pytest.raises(RuntimeError, match="gradOutput"):
        m.backward(x, torch.zeros(2, 3, 3, dtype=D))


# ---------------------------------------------------------------- resampling and padding


def test_upsampling():
    check_layer(
        nn.SpatialUpSamplingNearest(3),
        rand(2, 2, 3, 4),
        lambda x, p: F.interpolate(x if x.dim() == 4 else x.unsqueeze(0), scale_factor=3, mode="nearest").reshape(
            x.shape[:-2] + (9, 12)
        ),
        (),
    )

    def bilinear(size):
        return lambda x, p: F.interpolate(
            x if x.dim() == 4 else x.unsqueeze(0), size=size, mode="bilinear", align_corners=True
        ).reshape(x.shape[:-2] + size)

    check_layer(nn.SpatialUpSamplingBilinear(2), rand(2, 2, 3, 4), bilinear((6, 8)), (), tol=1e-7)
    check_layer(
        nn.SpatialUpSamplingBilinear({"oheight": 7, "owidth": 5}), rand(2, 2, 3, 4), bilinear((7, 5)), (), tol=1e-7
    )
    with pytest.raises(ValueError):
        nn.SpatialUpSamplingNearest(1.5)


@pytest.mark.parametrize(
    "cls,mode,pads",
    [
        ("SpatialZeroPadding", "constant", (1, 2, -1, 0)),
        ("SpatialReflectionPadding", "reflect", (2, 1, 1, 2)),
        ("SpatialReplicationPadding", "replicate", (2, 0, 3, 1)),
    ],
)
def test_spatial_padding(cls, mode, pads):
    m = getattr(nn, cls)(*pads)
    assert (m.pad_l, m.pad_r, m.pad_t, m.pad_b) == pads
    check_layer(m, rand(2, 3, 4, 5, layout="transposed"), lambda x, p: F.pad(x, list(pads), mode), ())
    if mode == "reflect":
        with pytest.raises(RuntimeError):
            m.forward(rand(3, 2, 2))


def test_volumetric_replication_padding():
    m = nn.VolumetricReplicationPadding(1, 2, 0, 1, 2, 1)
    check_layer(m, rand(2, 2, 3, 4, 3), lambda x, p: F.pad(x, [1, 2, 0, 1, 2, 1], "replicate"), ())


# ---------------------------------------------------------------- normalizations


@pytest.mark.parametrize("size", [3, 5])
def test_cross_map_lrn(size):
    m = nn.SpatialCrossMapLRN(size, 0.05, 0.75, 2)
    check_layer(
        m,
        rand(2, 6, 3, 4),
        lambda x, p: F.local_response_norm(x if x.dim() == 4 else x.unsqueeze(0), size, 0.05, 0.75, 2).reshape(x.shape),
        (),
    )


def test_spatial_softmax():
    check_layer(nn.SpatialSoftMax(), rand(2, 4, 3, 3), lambda x, p: torch.softmax(x, 1 if x.dim() == 4 else 0), ())


@pytest.mark.parametrize(
    "cls,shape",
    [
        ("BatchNormalization", (6, 3)),
        ("SpatialBatchNormalization", (4, 3, 2, 5)),
        ("VolumetricBatchNormalization", (3, 3, 2, 2, 3)),
    ],
)
@pytest.mark.parametrize("affine", [True, False])
def test_batch_normalization_training(cls, shape, affine):
    m = getattr(nn, cls)(3, 1e-3, 0.2, affine).double()
    assert m.running_mean.tolist() == [0, 0, 0] and m.running_var.tolist() == [1, 1, 1]
    x = rand(*shape)
    rm, rv = torch.zeros(3, dtype=D), torch.ones(3, dtype=D)
    m._test_single = False  # training needs the batch
    check_layer(m, x, lambda x, p: F.batch_norm(x, rm, rv, p.get("weight"), p.get("bias"), True, 0.2, 1e-3))
    # two forwards (check_layer's, then F's own running update above): compare one step
    m2 = getattr(nn, cls)(3, 1e-3, 0.2, affine).double()
    m2.forward(x)
    rm2, rv2 = torch.zeros(3, dtype=D), torch.ones(3, dtype=D)
    F.batch_norm(x, rm2, rv2, None, None, True, 0.2, 1e-3)
    close(m2.running_mean, rm2)
    close(m2.running_var, rv2)
    dims = tuple(d for d in range(x.dim()) if d != 1)
    close(m2.save_mean, x.mean(dims))
    close(m2.save_std, 1 / torch.sqrt(x.var(dims, unbiased=False) + 1e-3))


def test_batch_normalization_evaluate():
    m = nn.SpatialBatchNormalization(3).double()
    m.running_mean.copy_(torch.tensor([0.5, -1.0, 2.0]))
    m.running_var.copy_(torch.tensor([2.0, 0.5, 1.5]))
    m.evaluate()
    check_layer(
        m,
        rand(2, 3, 4, 2),
        lambda x, p: F.batch_norm(
            x if x.dim() == 4 else x.unsqueeze(0),
            m.running_mean,
            m.running_var,
            p["weight"],
            p["bias"],
            False,
            0.1,
            1e-5,
        ).reshape(x.shape),
    )
    m.training()
    with pytest.raises(RuntimeError):
        m.forward(rand(3, 4, 2))  # a sample without batch only in evaluation
    with pytest.raises(RuntimeError):
        m.forward(rand(2, 4, 4, 2))  # 4 planes


def plane_conv(x, k2):
    """sum over planes of each plane zero-padded and correlated with the 2-D kernel k2."""
    c = x.size(1)
    w = k2.view(1, 1, *k2.shape)
    pad = (k2.size(0) // 2, k2.size(1) // 2)
    return sum(F.conv2d(x[:, i : i + 1], w, None, 1, pad) for i in range(c))


def subtractive_ref(x, k2):
    xs = x if x.dim() == 4 else x.unsqueeze(0)
    mean = plane_conv(xs, k2) / plane_conv(torch.ones_like(xs), k2)
    y = xs - mean
    return y if x.dim() == 4 else y[0]


def divisive_ref(x, k2, threshold, thresval):
    xs = x if x.dim() == 4 else x.unsqueeze(0)
    c = xs.size(1)
    kn = k2 / (k2.sum() * c)
    std = plane_conv(xs * xs, kn).sqrt() / plane_conv(torch.ones_like(xs), kn)
    t = torch.where(std > threshold, std, torch.full_like(std, thresval))
    y = xs / t
    return y if x.dim() == 4 else y[0]


@pytest.mark.parametrize("one_d", [False, True])
def test_local_contrast_normalizations(one_d):
    kernel = (
        torch.tensor([1.0, 2.0, 1.0], dtype=D)
        if one_d
        else torch.tensor([[1.0, 2.0, 1.0, 0.5, 0.2], [0.5, 1.0, 3.0, 1.0, 0.5], [0.2, 0.5, 1.0, 2.0, 1.0]], dtype=D)
    )
    k2 = torch.outer(kernel, kernel) if one_d else kernel.clone()
    x = rand(2, 3, 6, 7)
    sub = nn.SpatialSubtractiveNormalization(3, kernel.clone())
    check_layer(sub, x, lambda x, p: subtractive_ref(x, k2), ())
    div = nn.SpatialDivisiveNormalization(3, kernel.clone(), 0.5, 0.7)
    check_layer(div, x, lambda x, p: divisive_ref(x, k2, 0.5, 0.7), ())
    con = nn.SpatialContrastiveNormalization(3, kernel.clone(), 0.5, 0.7)
    check_layer(con, x, lambda x, p: divisive_ref(subtractive_ref(x, k2), k2, 0.5, 0.7), (), tol=1e-8)
    assert nn.Jacobian.testJacobian(div, torch.zeros(3, 5, 5, dtype=D)) < 1e-5
    with pytest.raises(ValueError):
        nn.SpatialSubtractiveNormalization(1, torch.ones(4, 4))
    with pytest.raises(RuntimeError):
        sub.forward(rand(2, 5, 5))  # 2 planes, not 3


@pytest.mark.parametrize("cls,shape", [("SpatialDropout", (4, 5, 3, 3)), ("VolumetricDropout", (3, 4, 2, 3, 2))])
def test_plane_dropout(cls, shape):
    m = getattr(nn, cls)(0.4)
    x = rand(*shape, low=1, high=2)
    torch.manual_seed(3)
    y = m.forward(x)
    planes = y.reshape(shape[0], shape[1], -1)
    xp = x.reshape(shape[0], shape[1], -1)
    kept = (planes == xp).all(2)
    dropped = (planes == 0).all(2)
    assert bool((kept | dropped).all()) and bool(kept.any()) and bool(dropped.any())  # whole planes
    g = rand(*shape)
    gi = m.backward(x, g)
    close(gi, g * kept.to(D).reshape(shape[:2] + (1,) * (len(shape) - 2)))
    m.evaluate()
    close(m.forward(x), x * 0.6)  # torch7 scales at evaluation
    close(m.backward(x, g), g * 0.6)
    with pytest.raises(RuntimeError):
        m.forward(rand(3, 3))
