"""torch.nn.functional's spatial ops (convolutions, pooling, resampling, padding, pixel
shuffles, grid sampling, im2col) against numpy references written here with plain loops,
np.pad and np.einsum; gradients by gradcheck in double precision; argument errors."""

import itertools
import math

import numpy as np
import pytest

import torch
import torch.nn.functional as F
from torch.autograd import gradcheck

from conftest import FLOAT_TYPES, NUMPY_OF, make_tensor

TOL = {torch.float32: dict(rtol=2e-4, atol=2e-4), torch.float64: dict(rtol=1e-10, atol=1e-10)}
NONCONTIGUOUS = ["transposed", "strided", "expanded"]


def close(t, expected, dtype):
    assert isinstance(t, torch.Tensor)
    got = t.detach().numpy()
    assert got.shape == np.shape(expected), (got.shape, np.shape(expected))
    assert got.dtype == NUMPY_OF[dtype]
    np.testing.assert_allclose(got.astype(np.float64), np.asarray(expected, dtype=np.float64), **TOL[dtype])


def leaf(shape, rng, low=-1.0, high=1.0):
    return torch.from_numpy(rng.uniform(low, high, shape)).requires_grad_()


# ============================================================================================
# References
# ============================================================================================


def ref_conv(x, w, b, stride, padding, dilation, groups):
    """x [N, C, *S], w [O, C / groups, *K]: one einsum per kernel offset and group."""
    n = x.ndim - 2
    xp = np.pad(x.astype(np.float64), [(0, 0), (0, 0)] + [(p, p) for p in padding])
    K = w.shape[2:]
    out_sizes = [(xp.shape[2 + i] - dilation[i] * (K[i] - 1) - 1) // stride[i] + 1 for i in range(n)]
    O, Cg = w.shape[0], w.shape[1]
    Og = O // groups
    out = np.zeros((x.shape[0], O, *out_sizes))
    for k in itertools.product(*[range(s) for s in K]):
        window = tuple(
            slice(k[i] * dilation[i], k[i] * dilation[i] + stride[i] * (out_sizes[i] - 1) + 1, stride[i])
            for i in range(n)
        )
        patch = xp[(slice(None), slice(None)) + window]
        for g in range(groups):
            wk = w[(slice(g * Og, (g + 1) * Og), slice(None)) + k]
            out[:, g * Og : (g + 1) * Og] += np.einsum("nc...,oc->no...", patch[:, g * Cg : (g + 1) * Cg], wk)
    if b is not None:
        out += b.reshape((1, -1) + (1,) * n)
    return out


def ref_conv_transpose(x, w, b, stride, padding, output_padding, groups, dilation):
    """x [N, C, *S], w [C, O / groups, *K]: every input position scatters into the output."""
    n = x.ndim - 2
    N, C = x.shape[:2]
    Og, Cg = w.shape[1], C // groups
    K, S = w.shape[2:], x.shape[2:]
    full = [(S[i] - 1) * stride[i] + dilation[i] * (K[i] - 1) + 1 + output_padding[i] for i in range(n)]
    big = np.zeros((N, Og * groups, *full))
    for k in itertools.product(*[range(s) for s in K]):
        window = tuple(
            slice(k[i] * dilation[i], k[i] * dilation[i] + stride[i] * (S[i] - 1) + 1, stride[i]) for i in range(n)
        )
        for g in range(groups):
            wk = w[(slice(g * Cg, (g + 1) * Cg), slice(None)) + k]
            big[(slice(None), slice(g * Og, (g + 1) * Og)) + window] += np.einsum(
                "nc...,co->no...", x[:, g * Cg : (g + 1) * Cg].astype(np.float64), wk
            )
    crop = tuple(slice(padding[i], full[i] - padding[i]) for i in range(n))
    out = big[(slice(None), slice(None)) + crop]
    if b is not None:
        out = out + b.reshape((1, -1) + (1,) * n)
    return out


def pooled_size(size, k, s, p, d, ceil_mode):
    span = size + 2 * p - d * (k - 1) - 1
    out = (-(-span // s) if ceil_mode else span // s) + 1
    if (out - 1) * s >= size + p:
        out -= 1
    return out


def ref_max_pool(x, kernel, stride, padding, dilation, ceil_mode):
    """Values and flat per-plane indices of the maxima (first one on ties)."""
    S = x.shape[2:]
    n = len(S)
    outs = [pooled_size(S[i], kernel[i], stride[i], padding[i], dilation[i], ceil_mode) for i in range(n)]
    values = np.empty(x.shape[:2] + tuple(outs))
    indices = np.empty(x.shape[:2] + tuple(outs), dtype=np.int64)
    for o in itertools.product(*[range(s) for s in outs]):
        axes = [[o[i] * stride[i] - padding[i] + t * dilation[i] for t in range(kernel[i])] for i in range(n)]
        axes = [[q for q in a if 0 <= q < S[i]] for i, a in enumerate(axes)]
        best = np.full(x.shape[:2], -np.inf)
        where = np.full(x.shape[:2], -1)
        for pos in itertools.product(*axes):
            v = x[(slice(None), slice(None)) + pos]
            better = v > best
            best = np.where(better, v, best)
            where = np.where(better, np.ravel_multi_index(pos, S), where)
        values[(slice(None), slice(None)) + o] = best
        indices[(slice(None), slice(None)) + o] = where
    return values, indices


def ref_avg_pool(x, kernel, stride, padding, ceil_mode, count_include_pad, divisor_override=None):
    S = x.shape[2:]
    n = len(S)
    outs = [pooled_size(S[i], kernel[i], stride[i], padding[i], 1, ceil_mode) for i in range(n)]
    out = np.empty(x.shape[:2] + tuple(outs))
    for o in itertools.product(*[range(s) for s in outs]):
        starts = [o[i] * stride[i] - padding[i] for i in range(n)]
        window = tuple(slice(max(starts[i], 0), min(starts[i] + kernel[i], S[i])) for i in range(n))
        total = x[(slice(None), slice(None)) + window].astype(np.float64).sum(axis=tuple(range(2, 2 + n)))
        if divisor_override:
            divisor = divisor_override
        elif count_include_pad:
            divisor = np.prod([min(starts[i] + kernel[i], S[i] + padding[i]) - starts[i] for i in range(n)])
        else:
            divisor = np.prod([w.stop - w.start for w in window])
        out[(slice(None), slice(None)) + o] = total / divisor
    return out


def adaptive_windows(size, out):
    return [(o * size // out, -(-(o + 1) * size // out)) for o in range(out)]


def ref_adaptive_avg(x, out_sizes):
    S = x.shape[2:]
    out = np.empty(x.shape[:2] + tuple(out_sizes))
    wins = [adaptive_windows(S[i], out_sizes[i]) for i in range(len(S))]
    for o in itertools.product(*[range(s) for s in out_sizes]):
        window = tuple(slice(*wins[i][o[i]]) for i in range(len(S)))
        region = x[(slice(None), slice(None)) + window]
        out[(slice(None), slice(None)) + o] = region.mean(axis=tuple(range(2, 2 + len(S))))
    return out


def ref_adaptive_max(x, out_sizes):
    S = x.shape[2:]
    values = np.empty(x.shape[:2] + tuple(out_sizes))
    indices = np.empty(x.shape[:2] + tuple(out_sizes), dtype=np.int64)
    wins = [adaptive_windows(S[i], out_sizes[i]) for i in range(len(S))]
    for o in itertools.product(*[range(s) for s in out_sizes]):
        region = x[(slice(None), slice(None)) + tuple(slice(*wins[i][o[i]]) for i in range(len(S)))]
        flat = region.reshape(x.shape[0], x.shape[1], -1)
        arg = flat.argmax(axis=2)
        local = np.unravel_index(arg, region.shape[2:])
        pos = [local[i] + wins[i][o[i]][0] for i in range(len(S))]
        values[(slice(None), slice(None)) + o] = flat.max(axis=2)
        indices[(slice(None), slice(None)) + o] = np.ravel_multi_index(pos, S)
    return values, indices


def ref_unpool(x, indices, out_sizes):
    N, C = x.shape[:2]
    out = np.zeros((N, C, int(np.prod(out_sizes))))
    flat_x, flat_i = x.reshape(N, C, -1), indices.reshape(N, C, -1)
    for n in range(N):
        for c in range(C):
            out[n, c, flat_i[n, c]] = flat_x[n, c]
    return out.reshape((N, C) + tuple(out_sizes))


# Resampling: one (out x in) matrix per axis, applied with tensordot.


def nearest_matrix(size, out, scale, exact):
    scale = np.float32(1.0 / scale if scale else size / out)
    m = np.zeros((out, size))
    for j in range(out):
        src = np.float32(j + 0.5) * scale if exact else np.float32(j) * scale
        m[j, min(int(math.floor(src)), size - 1)] = 1
    return m


def linear_matrix(size, out, scale, align_corners):
    m = np.zeros((out, size))
    for j in range(out):
        if align_corners:
            src = j * (size - 1) / (out - 1) if out > 1 else 0.0
        else:
            src = max((j + 0.5) * (1.0 / scale if scale else size / out) - 0.5, 0.0)
        i0 = min(int(src), size - 1)
        i1 = min(i0 + 1, size - 1)
        frac = src - i0
        m[j, i0] += 1 - frac
        m[j, i1] += frac
    return m


def cubic_matrix(size, out, scale, align_corners, A=-0.75):
    def weight(t):
        t = abs(t)
        if t <= 1:
            return (A + 2) * t**3 - (A + 3) * t**2 + 1
        if t < 2:
            return A * t**3 - 5 * A * t**2 + 8 * A * t - 4 * A
        return 0.0

    m = np.zeros((out, size))
    for j in range(out):
        if align_corners:
            src = j * (size - 1) / (out - 1) if out > 1 else 0.0
        else:
            src = (j + 0.5) * (1.0 / scale if scale else size / out) - 0.5
        base = math.floor(src)
        for k in range(-1, 3):
            m[j, min(max(base + k, 0), size - 1)] += weight(src - (base + k))
    return m


def apply_axes(x, matrices):
    out = x.astype(np.float64)
    for a, m in enumerate(matrices):
        axis = out.ndim - len(matrices) + a
        out = np.moveaxis(np.tensordot(m, out, axes=([1], [axis])), 0, axis)
    return out


def ref_interpolate(x, size, mode, scales=None, align_corners=False):
    S = x.shape[2:]
    sc = scales or [None] * len(S)
    if mode in ("nearest", "nearest-exact"):
        ms = [nearest_matrix(S[i], size[i], sc[i], mode == "nearest-exact") for i in range(len(S))]
    elif mode == "bicubic":
        ms = [cubic_matrix(S[i], size[i], sc[i], align_corners) for i in range(len(S))]
    else:
        ms = [linear_matrix(S[i], size[i], sc[i], align_corners) for i in range(len(S))]
    return apply_axes(x, ms)


def ref_grid_sample(x, grid, padding_mode, align_corners):
    N, C, H, W = x.shape
    Ho, Wo = grid.shape[1:3]
    out = np.zeros((N, C, Ho, Wo))

    def pixel(g, size):
        p = (g + 1) / 2 * (size - 1) if align_corners else ((g + 1) * size - 1) / 2
        return min(max(p, 0), size - 1) if padding_mode == "border" else p

    for n in range(N):
        for h in range(Ho):
            for w in range(Wo):
                px, py = pixel(grid[n, h, w, 0], W), pixel(grid[n, h, w, 1], H)
                x0, y0 = math.floor(px), math.floor(py)
                for dy in (0, 1):
                    for dx in (0, 1):
                        xi, yi = x0 + dx, y0 + dy
                        weight = (1 - abs(px - xi)) * (1 - abs(py - yi))
                        if 0 <= xi < W and 0 <= yi < H:
                            out[n, :, h, w] += weight * x[n, :, yi, xi]
    return out


def ref_affine_grid(theta, size, align_corners):
    def line(n):
        if n <= 1:
            return np.zeros(max(n, 1))
        v = np.linspace(-1, 1, n)
        return v if align_corners else v * (n - 1) / n

    if len(size) == 4:
        ys, xs = np.meshgrid(line(size[2]), line(size[3]), indexing="ij")
        base = np.stack([xs, ys, np.ones_like(xs)], axis=-1)
    else:
        zs, ys, xs = np.meshgrid(line(size[2]), line(size[3]), line(size[4]), indexing="ij")
        base = np.stack([xs, ys, zs, np.ones_like(xs)], axis=-1)
    return np.einsum("...j,nij->n...i", base, theta)


def ref_unfold(x, kernel, dilation, padding, stride):
    N, C, H, W = x.shape
    xp = np.pad(x.astype(np.float64), [(0, 0), (0, 0), (padding[0],) * 2, (padding[1],) * 2])
    oh = (H + 2 * padding[0] - dilation[0] * (kernel[0] - 1) - 1) // stride[0] + 1
    ow = (W + 2 * padding[1] - dilation[1] * (kernel[1] - 1) - 1) // stride[1] + 1
    out = np.zeros((N, C * kernel[0] * kernel[1], oh * ow))
    for c in range(C):
        for i in range(kernel[0]):
            for j in range(kernel[1]):
                for y in range(oh):
                    for z in range(ow):
                        out[:, (c * kernel[0] + i) * kernel[1] + j, y * ow + z] = xp[
                            :, c, y * stride[0] + i * dilation[0], z * stride[1] + j * dilation[1]
                        ]
    return out


def ref_fold(cols, output_size, kernel, dilation, padding, stride):
    N = cols.shape[0]
    C = cols.shape[1] // (kernel[0] * kernel[1])
    H, W = output_size
    oh = (H + 2 * padding[0] - dilation[0] * (kernel[0] - 1) - 1) // stride[0] + 1
    ow = (W + 2 * padding[1] - dilation[1] * (kernel[1] - 1) - 1) // stride[1] + 1
    big = np.zeros((N, C, H + 2 * padding[0], W + 2 * padding[1]))
    for c in range(C):
        for i in range(kernel[0]):
            for j in range(kernel[1]):
                for y in range(oh):
                    for z in range(ow):
                        big[:, c, y * stride[0] + i * dilation[0], z * stride[1] + j * dilation[1]] += cols[
                            :, (c * kernel[0] + i) * kernel[1] + j, y * ow + z
                        ]
    return big[:, :, padding[0] : padding[0] + H, padding[1] : padding[1] + W]


# ============================================================================================
# Convolutions
# ============================================================================================

CONV_CASES = [  # spatial dims, input spatial size, kernel, stride, padding, dilation, groups
    (1, (9,), (3,), (1,), (0,), (1,), 1),
    (1, (10,), (4,), (2,), (1,), (2,), 2),
    (2, (7, 8), (3, 3), (1, 1), (1, 1), (1, 1), 1),
    (2, (9, 7), (3, 2), (2, 1), (1, 0), (1, 2), 3),
    (2, (6, 6), (3, 3), (1, 1), (0, 0), (1, 1), 6),
    (3, (5, 6, 5), (2, 3, 2), (1, 2, 1), (1, 0, 1), (2, 1, 1), 1),
    (3, (4, 5, 4), (2, 2, 2), (1, 1, 2), (0, 1, 0), (1, 1, 1), 2),
]
CONV = {1: F.conv1d, 2: F.conv2d, 3: F.conv3d}
CONV_T = {1: F.conv_transpose1d, 2: F.conv_transpose2d, 3: F.conv_transpose3d}


@pytest.mark.parametrize("case", CONV_CASES)
@pytest.mark.parametrize("dtype", FLOAT_TYPES)
def test_conv_forward(case, dtype, rng):
    n, size, kernel, stride, padding, dilation, groups = case
    C, O = 6, 3 * groups if groups != 6 else 6
    for layout in ["contiguous", "transposed", "strided"]:
        x, xa = make_tensor((2, C) + size, dtype, layout, rng, -1, 1)
        w, wa = make_tensor((O, C // groups) + kernel, dtype, "contiguous", rng, -1, 1)
        b, ba = make_tensor((O,), dtype, "contiguous", rng, -1, 1)
        out = CONV[n](x, w, b, stride, padding, dilation, groups)
        close(out, ref_conv(xa, wa, ba, stride, padding, dilation, groups), dtype)
        nobias = CONV[n](x, w, None, stride, padding, dilation, groups)
        close(nobias, ref_conv(xa, wa, None, stride, padding, dilation, groups), dtype)
    # unbatched input: the batched result's first sample
    single = CONV[n](x.select(0, 0), w, b, stride, padding, dilation, groups)
    close(single, ref_conv(xa[:1], wa, ba, stride, padding, dilation, groups)[0], dtype)


@pytest.mark.parametrize("case", CONV_CASES)
def test_conv_gradcheck(case, rng):
    n, size, kernel, stride, padding, dilation, groups = case
    size = tuple(min(s, 6) for s in size) if n == 3 else size
    C, O = (groups, groups) if groups > 2 else (2 * groups, 2 * groups)
    x = leaf((2, C) + tuple(s - 1 if n == 3 else s for s in size), rng)
    w = leaf((O, C // groups) + kernel, rng)
    b = leaf((O,), rng)
    assert gradcheck(lambda x, w, b: CONV[n](x, w, b, stride, padding, dilation, groups), (x, w, b))
    # one input at a time needs a gradient; unbatched input
    assert gradcheck(lambda x: CONV[n](x, w.detach(), None, stride, padding, dilation, groups), (x,))
    assert gradcheck(lambda w: CONV[n](x.detach().select(0, 0), w, None, stride, padding, dilation, groups), (w,))


@pytest.mark.parametrize("n", [1, 2, 3])
def test_conv_same_and_valid_padding(n, rng):
    kernel, dilation = [(4,), (3, 4), (2, 3, 2)][n - 1], [(1,), (2, 1), (1, 1, 2)][n - 1]
    size = [(9,), (7, 8), (5, 6, 5)][n - 1]
    x, xa = make_tensor((2, 2) + size, torch.float64, "transposed", rng, -1, 1)
    w, wa = make_tensor((3, 2) + kernel, torch.float64, "contiguous", rng, -1, 1)
    same = CONV[n](x, w, None, 1, "same", dilation)
    assert same.shape == (2, 3) + size
    total = [d * (k - 1) for k, d in zip(kernel, dilation)]
    padded = np.pad(xa, [(0, 0), (0, 0)] + [(t // 2, t - t // 2) for t in total])
    close(same, ref_conv(padded, wa, None, (1,) * n, (0,) * n, dilation, 1), torch.float64)
    close(
        CONV[n](x, w, None, 1, "valid", dilation),
        ref_conv(xa, wa, None, (1,) * n, (0,) * n, dilation, 1),
        torch.float64,
    )
    xs = leaf((1, 2) + tuple(min(s, 5) for s in size), rng)
    assert gradcheck(lambda x, w: CONV[n](x, w, None, 1, "same", dilation), (xs, leaf(w.shape, rng)))


CONV_T_CASES = [  # spatial dims, input size, kernel, stride, padding, output_padding, groups, dilation
    (1, (5,), (3,), (2,), (1,), (1,), 1, (1,)),
    (1, (6,), (2,), (1,), (0,), (1,), 2, (2,)),
    (2, (4, 5), (3, 3), (2, 1), (1, 0), (1, 0), 1, (1, 1)),
    (2, (3, 4), (2, 3), (2, 2), (0, 1), (0, 1), 2, (2, 1)),
    (3, (3, 3, 4), (2, 3, 2), (2, 1, 1), (1, 1, 0), (1, 0, 0), 1, (1, 1, 1)),
    (3, (3, 3, 3), (2, 2, 2), (1, 2, 1), (0, 1, 0), (1, 0, 0), 2, (2, 1, 2)),
]


@pytest.mark.parametrize("case", CONV_T_CASES)
@pytest.mark.parametrize("dtype", FLOAT_TYPES)
def test_conv_transpose_forward(case, dtype, rng):
    n, size, kernel, stride, padding, output_padding, groups, dilation = case
    C, Og = 2 * groups, 3
    for layout in ["contiguous", "strided"]:
        x, xa = make_tensor((2, C) + size, dtype, layout, rng, -1, 1)
        w, wa = make_tensor((C, Og) + kernel, dtype, "contiguous", rng, -1, 1)
        b, ba = make_tensor((Og * groups,), dtype, "contiguous", rng, -1, 1)
        out = CONV_T[n](x, w, b, stride, padding, output_padding, groups, dilation)
        close(out, ref_conv_transpose(xa, wa, ba, stride, padding, output_padding, groups, dilation), dtype)
    single = CONV_T[n](x.select(0, 1), w, None, stride, padding, output_padding, groups, dilation)
    close(single, ref_conv_transpose(xa[1:], wa, None, stride, padding, output_padding, groups, dilation)[0], dtype)


@pytest.mark.parametrize("case", CONV_T_CASES)
def test_conv_transpose_gradcheck(case, rng):
    n, size, kernel, stride, padding, output_padding, groups, dilation = case
    x = leaf((2, groups) + size, rng)
    w = leaf((groups, 2) + kernel, rng)
    b = leaf((2 * groups,), rng)
    f = CONV_T[n]
    assert gradcheck(lambda x, w, b: f(x, w, b, stride, padding, output_padding, groups, dilation), (x, w, b))
    assert gradcheck(lambda b: f(x.detach(), w.detach(), b, stride, padding, output_padding, groups, dilation), (b,))


def test_conv_records_convolution_backward(rng):
    x, w = leaf((1, 2, 5, 5), rng), leaf((3, 2, 3, 3), rng)
    out = F.conv2d(x, w)
    assert out.grad_fn.name() == "ConvolutionBackward0"
    out.sum().backward()
    # d sum / d w[o, c, i, j] is the sum of the input window at offset (i, j)
    xa = x.detach().numpy()
    expected = np.stack(
        [np.stack([[[xa[0, c, i : i + 3, j : j + 3].sum() for j in range(3)] for i in range(3)] for c in range(2)])] * 3
    )
    np.testing.assert_allclose(w.grad.numpy(), expected, rtol=1e-12)
    with torch.no_grad():
        assert F.conv2d(x, w).grad_fn is None
    # PyTorch's node names
    assert F.max_pool2d(x, 2).grad_fn.name() == "MaxPool2DWithIndicesBackward0"
    assert F.interpolate(x, size=3, mode="bilinear").grad_fn.name() == "UpsampleBilinear2DBackward0"
    assert F.pad(x, (1, 1)).grad_fn.name() == "ConstantPadNdBackward0"


def test_conv_errors(rng):
    x = torch.from_numpy(rng.uniform(-1, 1, (1, 3, 8, 8)))
    before = x.clone()
    w = torch.from_numpy(rng.uniform(-1, 1, (4, 3, 3, 3)))
    with pytest.raises(RuntimeError, match=r"conv2d: Expected 3D \(unbatched\) or 4D \(batched\) input.*\[3, 8\]"):
        F.conv2d(x.select(0, 0).select(1, 0), w)
    with pytest.raises(RuntimeError, match=r"expected input\[1, 2, 8, 8\] to have 3 channels, but got 2"):
        F.conv2d(x.narrow(1, 0, 2), w)
    with pytest.raises(RuntimeError, match="Kernel size can't be greater than actual input size"):
        F.conv2d(x.narrow(2, 0, 2).narrow(3, 0, 2), w)
    with pytest.raises(RuntimeError, match="expected weight to be divisible by 2"):
        F.conv2d(x, w.narrow(0, 0, 3), groups=2)
    with pytest.raises(RuntimeError, match="expected bias to be 1-dimensional with 4 elements"):
        F.conv2d(x, w, torch.zeros(3, dtype=torch.float64))
    with pytest.raises(RuntimeError, match="same dtype"):
        F.conv2d(x, w.float())
    with pytest.raises(RuntimeError, match="floating point"):
        F.conv2d(x.long(), w.long())
    with pytest.raises(RuntimeError, match="stride must be greater than zero"):
        F.conv2d(x, w, stride=0)
    with pytest.raises(RuntimeError, match="padding='same' is not supported for strided convolutions"):
        F.conv2d(x, w, stride=2, padding="same")
    with pytest.raises(RuntimeError, match="Invalid padding string"):
        F.conv2d(x, w, padding="full")
    with pytest.raises(RuntimeError, match="output padding must be smaller than either stride or dilation"):
        F.conv_transpose2d(x, w.transpose(0, 1), output_padding=1)
    with pytest.raises(RuntimeError, match="expected input.*to have 4 channels"):
        F.conv_transpose2d(x, w)
    with pytest.raises(RuntimeError, match="expected weight to be 3-dimensional"):
        F.conv1d(x.select(0, 0), w)
    assert torch.equal(x, before)


# ============================================================================================
# Pooling
# ============================================================================================

POOL_CASES = [  # spatial dims, size, kernel, stride, padding, dilation, ceil_mode
    (1, (11,), (3,), (2,), (1,), (1,), False),
    (1, (10,), (2,), (3,), (1,), (2,), True),
    (2, (7, 8), (3, 2), (2, 2), (1, 0), (1, 1), False),
    (2, (9, 7), (3, 3), (2, 1), (1, 1), (2, 1), True),
    (3, (5, 6, 5), (2, 3, 2), (2, 1, 2), (1, 1, 0), (1, 1, 2), False),
    (3, (5, 5, 6), (3, 2, 2), (2, 2, 1), (0, 1, 1), (1, 2, 1), True),
]
MAX_POOL = {1: F.max_pool1d, 2: F.max_pool2d, 3: F.max_pool3d}
AVG_POOL = {1: F.avg_pool1d, 2: F.avg_pool2d, 3: F.avg_pool3d}


@pytest.mark.parametrize("case", POOL_CASES)
@pytest.mark.parametrize("dtype", FLOAT_TYPES)
def test_max_pool_forward(case, dtype, rng):
    n, size, kernel, stride, padding, dilation, ceil = case
    for layout in ["contiguous"] + NONCONTIGUOUS:
        x, xa = make_tensor((2, 3) + size, dtype, layout, rng)
        out, idx = MAX_POOL[n](x, kernel, stride, padding, dilation, ceil, return_indices=True)
        values, indices = ref_max_pool(xa, kernel, stride, padding, dilation, ceil)
        close(out, values, dtype)
        np.testing.assert_array_equal(idx.numpy(), indices)
        assert idx.dtype == torch.int64
        close(MAX_POOL[n](x, kernel, stride, padding, dilation, ceil), values, dtype)
    single, single_idx = MAX_POOL[n](x.select(0, 0), kernel, stride, padding, dilation, ceil, return_indices=True)
    close(single, values[0], dtype)
    np.testing.assert_array_equal(single_idx.numpy(), indices[0])


def test_max_pool_default_stride_is_kernel(rng):
    x, xa = make_tensor((1, 2, 6, 9), torch.float32, "contiguous", rng)
    close(F.max_pool2d(x, (2, 3)), ref_max_pool(xa, (2, 3), (2, 3), (0, 0), (1, 1), False)[0], torch.float32)
    close(F.max_pool2d(x, 2, stride=[]), ref_max_pool(xa, (2, 2), (2, 2), (0, 0), (1, 1), False)[0], torch.float32)


@pytest.mark.parametrize("case", POOL_CASES)
def test_max_pool_gradcheck(case, rng):
    n, size, kernel, stride, padding, dilation, ceil = case
    # distinct values far apart: the maxima do not move under gradcheck's perturbations
    shape = (2, 2) + size
    values = rng.permutation(int(np.prod(shape))).reshape(shape) * 0.01
    x = torch.from_numpy(values).requires_grad_()
    assert gradcheck(lambda x: MAX_POOL[n](x, kernel, stride, padding, dilation, ceil), (x,))
    assert gradcheck(lambda x: MAX_POOL[n](x.select(0, 0), kernel, stride, padding, dilation, ceil, True)[0], (x,))


@pytest.mark.parametrize("case", POOL_CASES)
@pytest.mark.parametrize("count_include_pad", [True, False])
@pytest.mark.parametrize("dtype", FLOAT_TYPES)
def test_avg_pool_forward(case, count_include_pad, dtype, rng):
    n, size, kernel, stride, padding, _, ceil = case
    for layout in ["contiguous", "transposed", "expanded"]:
        x, xa = make_tensor((2, 3) + size, dtype, layout, rng)
        out = AVG_POOL[n](x, kernel, stride, padding, ceil, count_include_pad)
        expected = ref_avg_pool(xa, kernel, stride, padding, ceil, count_include_pad)
        close(out, expected, dtype)
    close(AVG_POOL[n](x.select(0, 1), kernel, stride, padding, ceil, count_include_pad), expected[1], dtype)
    if n > 1:
        out = AVG_POOL[n](x, kernel, stride, padding, ceil, count_include_pad, divisor_override=5)
        close(out, ref_avg_pool(xa, kernel, stride, padding, ceil, count_include_pad, 5), dtype)


@pytest.mark.parametrize("case", POOL_CASES)
def test_avg_pool_gradcheck(case, rng):
    n, size, kernel, stride, padding, _, ceil = case
    x = leaf((2, 2) + size, rng)
    assert gradcheck(lambda x: AVG_POOL[n](x, kernel, stride, padding, ceil, False), (x,))
    assert gradcheck(lambda x: AVG_POOL[n](x.select(0, 0), kernel, stride, padding, ceil, True), (x,))
    if n > 1:
        assert gradcheck(lambda x: AVG_POOL[n](x, kernel, stride, padding, ceil, True, 3), (x,))


@pytest.mark.parametrize("dtype", FLOAT_TYPES)
def test_adaptive_pools(dtype, rng):
    for layout in ["contiguous", "transposed", "strided"]:
        x, xa = make_tensor((2, 3, 7, 10), dtype, layout, rng)
        close(F.adaptive_avg_pool2d(x, (3, 4)), ref_adaptive_avg(xa, (3, 4)), dtype)
        close(F.adaptive_avg_pool2d(x, (None, 4)), ref_adaptive_avg(xa, (7, 4)), dtype)
        out, idx = F.adaptive_max_pool2d(x, 4, return_indices=True)
        values, indices = ref_adaptive_max(xa, (4, 4))
        close(out, values, dtype)
        np.testing.assert_array_equal(idx.numpy(), indices)
        y, ya = make_tensor((2, 3, 9), dtype, layout, rng)
        close(F.adaptive_avg_pool1d(y, 4), ref_adaptive_avg(ya, (4,)), dtype)
        out, idx = F.adaptive_max_pool1d(y, 5, return_indices=True)
        values, indices = ref_adaptive_max(ya, (5,))
        close(out, values, dtype)
        np.testing.assert_array_equal(idx.numpy(), indices)
        z, za = make_tensor((2, 2, 5, 6, 7), dtype, layout, rng)
        close(F.adaptive_avg_pool3d(z, (2, 4, 3)), ref_adaptive_avg(za, (2, 4, 3)), dtype)
    close(F.adaptive_avg_pool2d(x.select(0, 0), (3, 4)), ref_adaptive_avg(xa[:1], (3, 4))[0], dtype)
    close(F.adaptive_max_pool2d(x.select(0, 0), (3, 4)), ref_adaptive_max(xa[:1], (3, 4))[0][0], dtype)
    close(F.adaptive_avg_pool3d(z.select(0, 1), 2), ref_adaptive_avg(za[1:], (2, 2, 2))[0], dtype)


def test_adaptive_pools_gradcheck(rng):
    x = torch.from_numpy(rng.permutation(2 * 2 * 5 * 6).reshape(2, 2, 5, 6) * 0.01).requires_grad_()
    assert gradcheck(lambda x: F.adaptive_avg_pool2d(x, (3, 4)), (x,))
    assert gradcheck(lambda x: F.adaptive_max_pool2d(x, (2, 4)), (x,))
    assert gradcheck(lambda x: F.adaptive_avg_pool1d(x.select(0, 0).select(1, 1), 4), (x,))
    assert gradcheck(lambda x: F.adaptive_max_pool1d(x.select(2, 2), 3), (x,))
    z = leaf((1, 2, 4, 5, 3), rng)
    assert gradcheck(lambda z: F.adaptive_avg_pool3d(z, (3, 2, 2)), (z,))


def test_pool_gradcheck_of_unbatched_inputs(rng):
    """The backward runs the kernels on the batched view of an unbatched input (Note [Spatial ranks])."""
    x = torch.from_numpy(rng.permutation(2 * 5 * 6).reshape(2, 5, 6) * 0.01).requires_grad_()
    assert gradcheck(lambda x: F.adaptive_max_pool2d(x, (2, 4)), (x,))
    assert gradcheck(lambda x: F.adaptive_avg_pool2d(x, (3, 4)), (x,))
    assert gradcheck(lambda x: F.adaptive_max_pool1d(x.select(1, 2), 3), (x,))
    for pool, unpool, value in [(F.max_pool1d, F.max_unpool1d, x.select(1, 0)), (F.max_pool2d, F.max_unpool2d, x)]:
        out, idx = pool(value.detach(), 2, return_indices=True)
        assert gradcheck(lambda o: unpool(o, idx, 2), (out.clone().requires_grad_(),))


@pytest.mark.parametrize("n", [1, 2, 3])
def test_max_unpool_inverts_max_pool(n, rng):
    size = [(8,), (6, 8), (4, 6, 4)][n - 1]
    x, xa = make_tensor((2, 3) + size, torch.float64, "transposed", rng)
    pool = MAX_POOL[n]
    unpool = {1: F.max_unpool1d, 2: F.max_unpool2d, 3: F.max_unpool3d}[n]
    out, idx = pool(x, 2, return_indices=True)
    restored = unpool(out, idx, 2)
    close(restored, ref_unpool(out.numpy(), idx.numpy(), size), torch.float64)
    # every window's maximum is back in place, everything else is zero
    assert np.count_nonzero(restored.numpy()) == out.numel()
    bigger = tuple(s + 1 for s in size)
    close(unpool(out, idx, 2, output_size=bigger), ref_unpool(out.numpy(), idx.numpy(), bigger), torch.float64)
    close(unpool(out.select(0, 0), idx.select(0, 0), 2), ref_unpool(out.numpy(), idx.numpy(), size)[0], torch.float64)
    o = out.detach().clone().requires_grad_()
    assert gradcheck(lambda o: unpool(o, idx, 2), (o,))


def test_lp_pool(rng):
    x, xa = make_tensor((2, 3, 6, 7), torch.float64, "contiguous", rng, 0.1, 2)
    windows = ref_avg_pool(xa**3, (2, 3), (2, 3), (0, 0), False, True) * 6
    close(F.lp_pool2d(x, 3, (2, 3)), windows ** (1 / 3), torch.float64)
    y = x.select(2, 0)
    close(
        F.lp_pool1d(y, 2, 3, stride=2),
        np.sqrt(ref_avg_pool(xa[:, :, 0] ** 2, (3,), (2,), (0,), False, True) * 3),
        torch.float64,
    )
    assert gradcheck(lambda x: F.lp_pool2d(x, 2, 2), (x.detach().clone().requires_grad_(),))


def test_pool_errors(rng):
    x = torch.from_numpy(rng.uniform(-1, 1, (1, 2, 4, 4)))
    before = x.clone()
    with pytest.raises(RuntimeError, match="pad should be at most half of kernel size"):
        F.max_pool2d(x, 2, padding=2)
    with pytest.raises(RuntimeError, match="kernel_size must be greater than zero"):
        F.avg_pool2d(x, 0)
    with pytest.raises(RuntimeError, match="too small"):
        F.max_pool2d(x, 5)
    with pytest.raises(RuntimeError, match=r"max_pool2d: Expected 3D \(unbatched\) or 4D \(batched\) input"):
        F.max_pool2d(x.select(0, 0).select(0, 0), 2)
    with pytest.raises(RuntimeError, match="kernel_size must be an int or a tuple of 2 ints"):
        F.max_pool2d(x, (2, 2, 2))
    with pytest.raises(RuntimeError, match="divisor must be not zero"):
        F.avg_pool2d(x, 2, divisor_override=0)
    with pytest.raises(RuntimeError, match="output_size must be greater than zero"):
        F.adaptive_avg_pool2d(x, (0, 2))
    out, idx = F.max_pool2d(x, 2, return_indices=True)
    with pytest.raises(RuntimeError, match="Found an invalid max index: 16"):
        F.max_unpool2d(out, torch.full_like(idx, 16), 2)
    with pytest.raises(RuntimeError, match="Expected shape of indices to be same"):
        F.max_unpool2d(out, idx.narrow(1, 0, 1), 2)
    with pytest.raises(ValueError, match="invalid output_size"):
        F.max_unpool2d(out, idx, 2, output_size=(9, 9))
    assert torch.equal(x, before)


# ============================================================================================
# Resampling and padding
# ============================================================================================

INTERP_CASES = [  # mode, input spatial size, size or None, scale factor or None, align_corners
    ("nearest", (5,), (9,), None, None),
    ("nearest", (4, 5), None, 2, None),
    ("nearest", (4, 5), (7, 3), None, None),
    ("nearest", (3, 4, 2), None, (2, 2, 2), None),
    ("nearest", (3, 4, 3), (4, 6, 5), None, None),
    ("nearest", (4, 6), None, 1.7, None),
    ("nearest-exact", (5, 4), (8, 3), None, None),
    ("linear", (6,), (11,), None, True),
    ("linear", (6,), None, 1.5, False),
    ("bilinear", (4, 5), (7, 3), None, True),
    ("bilinear", (4, 5), (7, 9), None, False),
    ("bilinear", (5, 6), None, (0.6, 1.5), False),
    ("bicubic", (4, 5), (7, 3), None, False),
    ("bicubic", (4, 5), (6, 8), None, True),
    ("trilinear", (3, 4, 3), (5, 3, 4), None, True),
    ("trilinear", (3, 4, 3), (5, 3, 4), None, False),
    ("area", (6, 7), (4, 3), None, None),
    ("area", (5, 6, 4), (2, 3, 3), None, None),
]


@pytest.mark.parametrize("case", INTERP_CASES)
@pytest.mark.parametrize("dtype", FLOAT_TYPES)
def test_interpolate_forward(case, dtype, rng):
    mode, size, out_size, scale, align = case
    n = len(size)
    for layout in ["contiguous", "transposed", "expanded"]:
        x, xa = make_tensor((2, 3) + size, dtype, layout, rng)
        out = F.interpolate(x, size=out_size, scale_factor=scale, mode=mode, align_corners=align)
        if out_size is None:
            scales = list(scale) if isinstance(scale, tuple) else [scale] * n
            target = [int(math.floor(s * f)) for s, f in zip(size, scales)]
        else:
            scales, target = None, list(out_size)
        if mode == "area":
            expected = ref_adaptive_avg(xa, target)
        else:
            expected = ref_interpolate(xa, target, mode, scales, bool(align))
        close(out, expected, dtype)


@pytest.mark.parametrize("case", INTERP_CASES)
def test_interpolate_gradcheck(case, rng):
    mode, size, out_size, scale, align = case
    x = leaf((1, 2) + size, rng)
    assert gradcheck(lambda x: F.interpolate(x, out_size, scale, mode, align), (x,))


def test_interpolate_recompute_scale_factor(rng):
    x, xa = make_tensor((1, 2, 5, 7), torch.float64, "contiguous", rng)
    out = F.interpolate(x, scale_factor=1.5, mode="bilinear", recompute_scale_factor=True)
    close(out, ref_interpolate(xa, [7, 10], "bilinear"), torch.float64)
    plain = F.interpolate(x, scale_factor=1.5, mode="bilinear")
    close(plain, ref_interpolate(xa, [7, 10], "bilinear", [1.5, 1.5]), torch.float64)
    assert not np.allclose(out.numpy(), plain.numpy())  # 5 -> 7 is not a factor of 1.5
    with pytest.warns(UserWarning):
        close(F.upsample_bilinear(x, (3, 4)), ref_interpolate(xa, [3, 4], "bilinear", None, True), torch.float64)


def test_interpolate_errors(rng):
    x = torch.from_numpy(rng.uniform(-1, 1, (1, 2, 4, 4)))
    with pytest.raises(NotImplementedError, match="Got 4D input, but linear mode needs 3D input"):
        F.interpolate(x, size=3, mode="linear")
    with pytest.raises(NotImplementedError, match="Got 4D input, but trilinear mode needs 5D input"):
        F.interpolate(x, size=3, mode="trilinear")
    with pytest.raises(ValueError, match="align_corners option can only be set"):
        F.interpolate(x, size=3, mode="nearest", align_corners=True)
    with pytest.raises(ValueError, match="only one of size or scale_factor"):
        F.interpolate(x, size=3, scale_factor=2)
    with pytest.raises(ValueError, match="same number of spatial dimensions"):
        F.interpolate(x, size=(3, 3, 3))
    with pytest.raises(RuntimeError, match="output_size must be greater than zero"):
        F.interpolate(x, scale_factor=0.1)
    with pytest.raises(NotImplementedError, match="Only 3D, 4D and 5D"):
        F.interpolate(x, size=3, mode="cubic")


def crop(a, pads):
    """np.pad for negative pads: crops (before, after) pairs from the last dim backwards."""
    index = [slice(None)] * a.ndim
    for i in range(len(pads) // 2):
        d = a.ndim - 1 - i
        index[d] = slice(max(-pads[2 * i], 0), a.shape[d] - max(-pads[2 * i + 1], 0))
    return a[tuple(index)]


def ref_pad(a, pads, mode, value=0.0):
    a = crop(a, pads)
    width = [(0, 0)] * a.ndim
    for i in range(len(pads) // 2):
        width[a.ndim - 1 - i] = (max(pads[2 * i], 0), max(pads[2 * i + 1], 0))
    if mode == "constant":
        return np.pad(a, width, mode="constant", constant_values=value)
    return np.pad(a, width, mode={"reflect": "reflect", "replicate": "edge", "circular": "wrap"}[mode])


PAD_CASES = [  # mode, input shape, pads
    ("constant", (2, 3, 4), (1, 2)),
    ("constant", (2, 3, 4, 5), (0, 1, 2, 3, 1, 0, 1, 1)),
    ("constant", (3, 4, 5), (-1, 2, 1, -2)),
    ("reflect", (2, 3, 6), (2, 3)),
    ("reflect", (3, 6), (1, 4)),
    ("reflect", (2, 2, 4, 5), (3, 1, 2, 3)),
    ("reflect", (2, 4, 5), (1, 1, 0, 2)),
    ("reflect", (1, 2, 3, 4, 5), (1, 2, 2, 1, 1, 2)),
    ("replicate", (2, 3, 5), (3, 1)),
    ("replicate", (2, 2, 4, 5), (2, 0, 1, 3)),
    ("replicate", (2, 3, 3, 4), (1, 2, 0, 2, 2, 1)),
    ("replicate", (3, 4, 5), (1, 0, 2, 1)),
    ("circular", (2, 3, 5), (2, 3)),
    ("circular", (2, 2, 4, 5), (1, 2, 3, 0)),
    ("circular", (1, 2, 3, 4, 4), (1, 1, 2, 0, 3, 1)),
]


@pytest.mark.parametrize("case", PAD_CASES)
@pytest.mark.parametrize("dtype", FLOAT_TYPES)
def test_pad_forward(case, dtype, rng):
    mode, shape, pads = case
    for layout in ["contiguous", "transposed", "strided"]:
        x, xa = make_tensor(shape, dtype, layout, rng)
        close(F.pad(x, pads, mode=mode), ref_pad(xa, pads, mode), dtype)
    if mode == "constant":
        close(F.pad(x, pads, value=2.5), ref_pad(xa, pads, mode, 2.5), dtype)


@pytest.mark.parametrize("case", PAD_CASES)
def test_pad_gradcheck(case, rng):
    mode, shape, pads = case
    assert gradcheck(lambda x: F.pad(x, pads, mode=mode), (leaf(shape, rng),))


def test_constant_pad_keeps_integer_types(rng):
    x = torch.arange(6).reshape(2, 3)
    out = F.pad(x, (1, 1), value=7)
    assert out.dtype == torch.int64
    np.testing.assert_array_equal(out.numpy(), np.pad(x.numpy(), [(0, 0), (1, 1)], constant_values=7))


def test_pad_errors(rng):
    x = torch.from_numpy(rng.uniform(-1, 1, (1, 2, 3, 3)))
    with pytest.raises(RuntimeError, match="Padding length must be divisible by 2"):
        F.pad(x, (1, 2, 3))
    with pytest.raises(RuntimeError, match="Padding length too large"):
        F.pad(x, (1,) * 10)
    with pytest.raises(RuntimeError, match="Padding size should be less than the corresponding input dimension"):
        F.pad(x.select(0, 0), (3, 0), mode="reflect")
    with pytest.raises(RuntimeError, match="wrapping around more than once"):
        F.pad(x.select(0, 0), (4, 0), mode="circular")
    with pytest.raises(RuntimeError, match="negative output size"):
        F.pad(x, (-2, -2))
    with pytest.raises(NotImplementedError, match="Only 2D, 3D, 4D, 5D padding with non-constant padding"):
        F.pad(x.select(0, 0).select(0, 0), (1, 1, 1, 1, 1, 1), mode="replicate")
    with pytest.raises(NotImplementedError, match="Only 2D, 3D, 4D, 5D padding with non-constant padding"):
        F.pad(x, (1, 1), mode="reflect")
    with pytest.raises(RuntimeError, match="Unrecognised padding mode"):
        F.pad(x, (1, 1), mode="mirror")


# ============================================================================================
# Pixel shuffles, grid sampling, unfold / fold
# ============================================================================================


@pytest.mark.parametrize("dtype", FLOAT_TYPES)
def test_pixel_shuffle(dtype, rng):
    r = 2
    for layout in ["contiguous", "transposed", "strided"]:
        x, xa = make_tensor((2, 3 * r * r, 3, 4), dtype, layout, rng)
        expected = np.empty((2, 3, 3 * r, 4 * r))
        for n, c, h, w, i, j in itertools.product(range(2), range(3), range(3), range(4), range(r), range(r)):
            expected[n, c, h * r + i, w * r + j] = xa[n, c * r * r + i * r + j, h, w]
        out = F.pixel_shuffle(x, r)
        close(out, expected, dtype)
        close(F.pixel_unshuffle(out, r), xa, dtype)
    # any leading dims
    close(F.pixel_shuffle(x.select(0, 0), r), expected[0], dtype)
    close(F.pixel_shuffle(x.reshape(1, 2, 12, 3, 4), r), expected.reshape(1, 2, 3, 6, 8), dtype)
    y = leaf((1, 8, 2, 3), rng)
    assert gradcheck(lambda y: F.pixel_shuffle(y, 2), (y,))
    assert gradcheck(lambda y: F.pixel_unshuffle(y, 2), (leaf((2, 2, 4, 6), rng),))
    with pytest.raises(RuntimeError, match="divisible by the square of upscale_factor"):
        F.pixel_shuffle(x, 3)
    with pytest.raises(RuntimeError, match="divisible by downscale_factor"):
        F.pixel_unshuffle(x, 2)


GRID_CASES = [("zeros", True), ("zeros", False), ("border", True), ("border", False)]


@pytest.mark.parametrize("padding_mode,align", GRID_CASES)
@pytest.mark.parametrize("dtype", FLOAT_TYPES)
def test_grid_sample_forward(padding_mode, align, dtype, rng):
    for size in [(4, 5), (1, 3), (4, 1)]:
        x, xa = make_tensor((2, 3) + size, dtype, "transposed", rng)
        grid, ga = make_tensor((2, 3, 4, 2), dtype, "strided", rng, -1.3, 1.3)
        out = F.grid_sample(x, grid, padding_mode=padding_mode, align_corners=align)
        close(out, ref_grid_sample(xa, ga.astype(np.float64), padding_mode, align), dtype)


@pytest.mark.parametrize("padding_mode,align", GRID_CASES)
def test_grid_sample_gradcheck(padding_mode, align, rng):
    for size in [(3, 4), (1, 3)]:
        x = leaf((1, 2) + size, rng)
        # away from pixel boundaries, where the bilinear weights have kinks
        grid = leaf((1, 2, 3, 2), rng, -0.9, 0.9)
        assert gradcheck(lambda x, g: F.grid_sample(x, g, padding_mode=padding_mode, align_corners=align), (x, grid))


def test_affine_grid(rng):
    for align in (True, False):
        theta, ta = make_tensor((2, 2, 3), torch.float64, "transposed", rng)
        grid = F.affine_grid(theta, (2, 3, 4, 5), align_corners=align)
        close(grid, ref_affine_grid(ta, (2, 3, 4, 5), align), torch.float64)
        theta3, t3 = make_tensor((1, 3, 4), torch.float32, "contiguous", rng)
        close(
            F.affine_grid(theta3, (1, 1, 3, 1, 4), align_corners=align),
            ref_affine_grid(t3, (1, 1, 3, 1, 4), align),
            torch.float32,
        )
        assert gradcheck(lambda t: F.affine_grid(t, (2, 1, 3, 4), align_corners=align), (leaf((2, 2, 3), rng),))
        assert gradcheck(lambda t: F.affine_grid(t, (1, 1, 2, 3, 2), align_corners=align), (leaf((1, 3, 4), rng),))
    # the identity transform samples the image itself
    image = leaf((1, 2, 4, 5), rng).detach()
    identity = torch.tensor([[[1.0, 0, 0], [0, 1.0, 0]]], dtype=torch.float64)
    resampled = F.grid_sample(image, F.affine_grid(identity, (1, 2, 4, 5), False), align_corners=False)
    np.testing.assert_allclose(resampled.numpy(), image.numpy(), atol=1e-12)
    with pytest.raises(RuntimeError, match=r"Expected a batch of 2D affine matrices of shape Nx2x3"):
        F.affine_grid(theta, (3, 1, 4, 4))
    with pytest.raises(ValueError, match="floating point"):
        F.affine_grid(theta.long(), (2, 1, 4, 4))


def test_grid_sample_errors(rng):
    x = torch.from_numpy(rng.uniform(-1, 1, (1, 2, 4, 4)))
    grid = torch.zeros(1, 3, 3, 2, dtype=torch.float64)
    with pytest.raises(RuntimeError, match="grid of size"):
        F.grid_sample(x, grid.narrow(3, 0, 1))
    with pytest.raises(RuntimeError, match="mode 'nearest' is not supported"):
        F.grid_sample(x, grid, mode="nearest")
    with pytest.raises(ValueError, match="expected padding_mode"):
        F.grid_sample(x, grid, padding_mode="wrap")
    with pytest.raises(RuntimeError, match="same dtype"):
        F.grid_sample(x, grid.float())


UNFOLD_CASES = [  # kernel, dilation, padding, stride
    ((2, 3), (1, 1), (0, 0), (1, 1)),
    ((3, 2), (2, 1), (1, 2), (2, 1)),
    ((2, 2), (1, 2), (1, 0), (1, 3)),
]


@pytest.mark.parametrize("params", UNFOLD_CASES)
@pytest.mark.parametrize("dtype", FLOAT_TYPES)
def test_unfold_fold(params, dtype, rng):
    kernel, dilation, padding, stride = params
    for layout in ["contiguous", "transposed", "expanded"]:
        x, xa = make_tensor((2, 3, 6, 7), dtype, layout, rng)
        cols = F.unfold(x, kernel, dilation, padding, stride)
        expected = ref_unfold(xa, kernel, dilation, padding, stride)
        close(cols, expected, dtype)
        c, ca = make_tensor(expected.shape, dtype, layout, rng)
        folded = F.fold(c, (6, 7), kernel, dilation, padding, stride)
        close(folded, ref_fold(ca, (6, 7), kernel, dilation, padding, stride), dtype)
    close(F.unfold(x.select(0, 0), kernel, dilation, padding, stride), expected[0], dtype)
    x = leaf((1, 2, 5, 6), rng)
    assert gradcheck(lambda x: F.unfold(x, kernel, dilation, padding, stride), (x,))
    cols = leaf(F.unfold(x, kernel, dilation, padding, stride).shape, rng)
    assert gradcheck(lambda c: F.fold(c, (5, 6), kernel, dilation, padding, stride), (cols,))


def test_unfold_fold_errors(rng):
    x = torch.from_numpy(rng.uniform(-1, 1, (1, 2, 4, 4)))
    with pytest.raises(RuntimeError, match="components must be at least one"):
        F.unfold(x, 5)
    with pytest.raises(RuntimeError, match="3D or 4D input"):
        F.unfold(x.select(0, 0).select(0, 0), 2)
    cols = F.unfold(x, 2)
    with pytest.raises(RuntimeError, match="divisible by the product of kernel_size"):
        F.fold(cols, (4, 4), 3)
    with pytest.raises(RuntimeError, match="match the calculated number of sliding blocks"):
        F.fold(cols, (5, 4), 2)
