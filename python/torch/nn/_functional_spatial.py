"""Spatial operations of torch.nn.functional (see functional.py): convolutions, pooling,
resampling, padding, pixel shuffles, grid sampling and im2col, over torch._C._nn
(core/ops/NNSpatial.h). This file turns PyTorch's arguments (an int or a tuple, None
defaults, scale factors) into the lists the core ops take; shapes are checked there."""

import math
import numbers
import warnings

import torch
from torch._C import _nn
from torch.amp.autocast_mode import float32_under_autocast

__all__ = [
    "conv1d",
    "conv2d",
    "conv3d",
    "conv_transpose1d",
    "conv_transpose2d",
    "conv_transpose3d",
    "max_pool1d",
    "max_pool2d",
    "max_pool3d",
    "max_pool1d_with_indices",
    "max_pool2d_with_indices",
    "max_pool3d_with_indices",
    "avg_pool1d",
    "avg_pool2d",
    "avg_pool3d",
    "adaptive_max_pool1d",
    "adaptive_max_pool2d",
    "adaptive_max_pool1d_with_indices",
    "adaptive_max_pool2d_with_indices",
    "adaptive_max_pool3d",
    "adaptive_max_pool3d_with_indices",
    "fractional_max_pool2d",
    "fractional_max_pool2d_with_indices",
    "fractional_max_pool3d",
    "fractional_max_pool3d_with_indices",
    "adaptive_avg_pool1d",
    "adaptive_avg_pool2d",
    "adaptive_avg_pool3d",
    "max_unpool1d",
    "max_unpool2d",
    "max_unpool3d",
    "lp_pool1d",
    "lp_pool2d",
    "interpolate",
    "upsample",
    "upsample_nearest",
    "upsample_bilinear",
    "pad",
    "pixel_shuffle",
    "pixel_unshuffle",
    "channel_shuffle",
    "native_channel_shuffle",
    "grid_sample",
    "affine_grid",
    "unfold",
    "fold",
]


def _ntuple(value, n, name, op):
    """value (an int or a sequence of n ints, or of one int) as a list of n ints."""
    if isinstance(value, numbers.Integral) and not isinstance(value, bool):
        return [int(value)] * n
    try:
        items = [int(v) for v in value]
    except TypeError:
        raise TypeError(f"{op}: {name} must be an int or a tuple of {n} ints, but got {value!r}") from None
    if len(items) == 1:
        return items * n
    if len(items) != n:
        raise RuntimeError(f"{op}: {name} must be an int or a tuple of {n} ints, but got {tuple(items)}")
    return items


def _stride(stride, kernel, n, op):
    """Pooling's stride: the kernel size when None or empty."""
    if stride is None or (not isinstance(stride, numbers.Integral) and len(stride) == 0):
        return list(kernel)
    return _ntuple(stride, n, "stride", op)


# ---- convolutions ----


def _conv(n, input, weight, bias, stride, padding, dilation, groups):
    op = f"conv{n}d"
    if not isinstance(padding, str):
        padding = _ntuple(padding, n, "padding", op)
    return _nn.convolution(
        input, weight, bias, _ntuple(stride, n, "stride", op), padding, _ntuple(dilation, n, "dilation", op), groups
    )


def conv1d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
    """1-D convolution: input (N, C, L) or (C, L), weight (O, C / groups, k). padding may be
    'valid' or 'same'."""
    return _conv(1, input, weight, bias, stride, padding, dilation, groups)


def conv2d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
    """2-D convolution: input (N, C, H, W) or (C, H, W), weight (O, C / groups, kH, kW)."""
    return _conv(2, input, weight, bias, stride, padding, dilation, groups)


def conv3d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
    """3-D convolution: input (N, C, D, H, W) or (C, D, H, W), weight (O, C / groups, kD, kH, kW)."""
    return _conv(3, input, weight, bias, stride, padding, dilation, groups)


def _conv_transpose(n, input, weight, bias, stride, padding, output_padding, groups, dilation):
    op = f"conv_transpose{n}d"
    return _nn.conv_transpose(
        input,
        weight,
        bias,
        _ntuple(stride, n, "stride", op),
        _ntuple(padding, n, "padding", op),
        _ntuple(output_padding, n, "output_padding", op),
        groups,
        _ntuple(dilation, n, "dilation", op),
    )


def conv_transpose1d(input, weight, bias=None, stride=1, padding=0, output_padding=0, groups=1, dilation=1):
    """Transposed 1-D convolution: weight (C, O / groups, k)."""
    return _conv_transpose(1, input, weight, bias, stride, padding, output_padding, groups, dilation)


def conv_transpose2d(input, weight, bias=None, stride=1, padding=0, output_padding=0, groups=1, dilation=1):
    """Transposed 2-D convolution: weight (C, O / groups, kH, kW)."""
    return _conv_transpose(2, input, weight, bias, stride, padding, output_padding, groups, dilation)


def conv_transpose3d(input, weight, bias=None, stride=1, padding=0, output_padding=0, groups=1, dilation=1):
    """Transposed 3-D convolution: weight (C, O / groups, kD, kH, kW)."""
    return _conv_transpose(3, input, weight, bias, stride, padding, output_padding, groups, dilation)


# ---- pooling ----


def _max_pool(n, input, kernel_size, stride, padding, dilation, ceil_mode):
    op = f"max_pool{n}d"
    kernel = _ntuple(kernel_size, n, "kernel_size", op)
    return _nn.max_pool(
        input,
        kernel,
        _stride(stride, kernel, n, op),
        _ntuple(padding, n, "padding", op),
        _ntuple(dilation, n, "dilation", op),
        ceil_mode,
    )


def max_pool1d_with_indices(
    input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False, return_indices=False
):
    return _max_pool(1, input, kernel_size, stride, padding, dilation, ceil_mode)


def max_pool2d_with_indices(
    input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False, return_indices=False
):
    return _max_pool(2, input, kernel_size, stride, padding, dilation, ceil_mode)


def max_pool3d_with_indices(
    input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False, return_indices=False
):
    return _max_pool(3, input, kernel_size, stride, padding, dilation, ceil_mode)


def max_pool1d(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False, return_indices=False):
    """Max over windows; with return_indices also the flat index of each maximum in its plane."""
    out, indices = _max_pool(1, input, kernel_size, stride, padding, dilation, ceil_mode)
    return (out, indices) if return_indices else out


def max_pool2d(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False, return_indices=False):
    out, indices = _max_pool(2, input, kernel_size, stride, padding, dilation, ceil_mode)
    return (out, indices) if return_indices else out


@float32_under_autocast
def max_pool3d(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False, return_indices=False):
    out, indices = _max_pool(3, input, kernel_size, stride, padding, dilation, ceil_mode)
    return (out, indices) if return_indices else out


def _avg_pool(n, input, kernel_size, stride, padding, ceil_mode, count_include_pad, divisor_override):
    op = f"avg_pool{n}d"
    kernel = _ntuple(kernel_size, n, "kernel_size", op)
    return _nn.avg_pool(
        input,
        kernel,
        _stride(stride, kernel, n, op),
        _ntuple(padding, n, "padding", op),
        ceil_mode,
        count_include_pad,
        divisor_override,
    )


def avg_pool1d(input, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True):
    return _avg_pool(1, input, kernel_size, stride, padding, ceil_mode, count_include_pad, None)


def avg_pool2d(
    input, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True, divisor_override=None
):
    return _avg_pool(2, input, kernel_size, stride, padding, ceil_mode, count_include_pad, divisor_override)


@float32_under_autocast
def avg_pool3d(
    input, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True, divisor_override=None
):
    return _avg_pool(3, input, kernel_size, stride, padding, ceil_mode, count_include_pad, divisor_override)


def _adaptive_size(n, input, output_size, op):
    """output_size as n ints; None keeps the input's size along that axis."""
    if output_size is None or isinstance(output_size, numbers.Integral):
        sizes = [output_size] * n
    else:
        sizes = list(output_size)
        if len(sizes) != n:
            raise RuntimeError(f"{op}: output_size must be an int or a tuple of {n} ints, but got {output_size}")
    return [input.size(input.dim() - n + i) if s is None else int(s) for i, s in enumerate(sizes)]


def adaptive_max_pool1d_with_indices(input, output_size, return_indices=False):
    return _nn.adaptive_max_pool(input, _adaptive_size(1, input, output_size, "adaptive_max_pool1d"))


def adaptive_max_pool2d_with_indices(input, output_size, return_indices=False):
    return _nn.adaptive_max_pool(input, _adaptive_size(2, input, output_size, "adaptive_max_pool2d"))


def adaptive_max_pool1d(input, output_size, return_indices=False):
    out, indices = adaptive_max_pool1d_with_indices(input, output_size)
    return (out, indices) if return_indices else out


def adaptive_max_pool2d(input, output_size, return_indices=False):
    out, indices = adaptive_max_pool2d_with_indices(input, output_size)
    return (out, indices) if return_indices else out


def _window_max(input, starts, lengths, window, op):
    """The maximum of each window of input's last D dims, and its flat index there.

    starts[d]: the windows' first positions along spatial dim d, shape (N, C, O_d) or (O_d,);
    lengths[d]: their lengths, (O_d,) or an int; window[d]: the longest. Written with the
    tensor ops (a gather of every window, a masked max), so autograd differentiates it; it
    serves the poolings whose windows THNN has no kernel for (adaptive 3-D, fractional)."""
    d = len(window)
    batched = input.dim() == d + 2
    if not batched and input.dim() != d + 1:
        raise RuntimeError(f"{op}: expected a {d + 1}-D or {d + 2}-D input, got {input.dim()}-D")
    x = input if batched else input.unsqueeze(0)
    n, c = x.shape[0], x.shape[1]
    spatial = list(x.shape[2:])
    outs = [s.shape[-1] for s in starts]
    rank = 2 + 2 * d  # (N, C, O_0 .. O_d-1, K_0 .. K_d-1)

    def place(t, axes):
        shape = [1] * rank
        for axis, size in zip(axes, t.shape):
            shape[axis] = size
        return t.reshape(shape)

    index, flat, valid = [], None, None
    for k in range(d):
        offsets = torch.arange(window[k], device=input.device)
        start = starts[k] if starts[k].dim() == 3 else starts[k].view(1, 1, -1)
        positions = start.unsqueeze(-1) + offsets  # (N or 1, C or 1, O_k, K_k)
        length = lengths[k]
        inside = offsets < (length.view(-1, 1) if isinstance(length, torch.Tensor) else length)
        positions = positions.clamp(max=spatial[k] - 1)
        pos = (
            place(positions, [0, 1, 2 + k, 2 + d + k])
            if positions.shape[0] > 1 or positions.shape[1] > 1
            else place(positions[0, 0], [2 + k, 2 + d + k])
        )
        index.append(pos)
        flat = pos if flat is None else flat * spatial[k] + pos
        mask = place(inside if inside.dim() == 2 else inside.expand(outs[k], window[k]), [2 + k, 2 + d + k])
        valid = mask if valid is None else valid & mask
    rows = place(torch.arange(n, device=input.device), [0])
    planes = place(torch.arange(c, device=input.device), [1])
    windows = x[(rows, planes, *index)]
    windows = windows.masked_fill(~valid, float("-inf"))
    shape = [n, c, *outs]
    values, which = windows.reshape(*shape, -1).max(-1)
    flat = flat.expand(*shape, *window).reshape(*shape, -1)
    indices = flat.gather(-1, which.unsqueeze(-1)).squeeze(-1)
    if not batched:
        values, indices = values.squeeze(0), indices.squeeze(0)
    return values, indices


def adaptive_max_pool3d_with_indices(input, output_size, return_indices=False):
    outs = _adaptive_size(3, input, output_size, "adaptive_max_pool3d")
    spatial = input.shape[-3:]
    starts, lengths = [], []
    for size, out in zip(spatial, outs):
        if out <= 0:
            raise RuntimeError(f"adaptive_max_pool3d: output sizes must be positive, got {outs}")
        i = torch.arange(out, device=input.device)
        start = torch.div(i * size, out, rounding_mode="floor")
        end = torch.div((i + 1) * size + out - 1, out, rounding_mode="floor")
        starts.append(start)
        lengths.append(end - start)
    window = [int(l.max()) for l in lengths]
    return _window_max(input, starts, lengths, window, "adaptive_max_pool3d")


@float32_under_autocast
def adaptive_max_pool3d(input, output_size, return_indices=False):
    out, indices = adaptive_max_pool3d_with_indices(input, output_size)
    return (out, indices) if return_indices else out


def _fractional_starts(samples, size, out, kernel, dtype):
    """PyTorch's interval sequence: window i starts at int((i + u) * alpha) - int(u * alpha),
    alpha = (size - kernel) / (out - 1), computed in the input's type; the last at size - kernel."""
    if out > 1:
        alpha = torch.tensor(float(size - kernel), dtype=dtype) / torch.tensor(float(out - 1), dtype=dtype)
        i = torch.arange(out, dtype=dtype, device=samples.device)
        u = samples.unsqueeze(-1)
        starts = ((i + u) * alpha).trunc().long() - (u * alpha).trunc().long()
    else:
        starts = torch.zeros(*samples.shape, 1, dtype=torch.long, device=samples.device)
    starts[..., -1] = size - kernel
    return starts


def _fractional_max_pool(input, d, kernel_size, output_size, output_ratio, _random_samples, op):
    kernel = _ntuple(kernel_size, d, "kernel_size", op)
    spatial = list(input.shape[-d:])
    if output_size is None:
        if output_ratio is None:
            raise ValueError(f"{op} requires specifying either an output_size or an output_ratio")
        ratio = [float(r) for r in _ntuple_float(output_ratio, d)]
        output_size = [int(s * r) for s, r in zip(spatial, ratio)]
    outs = _ntuple(output_size, d, "output_size", op)
    for size, out, k in zip(spatial, outs, kernel):
        # PyTorch 1.13 lets a 2-D window end at the border, not a 3-D one
        if out + k - 1 > size or (d == 3 and out + k - 1 == size):
            raise RuntimeError(f"{op}: kernel {kernel} too large for output size {outs} on an input of {spatial}")
    n = input.shape[0] if input.dim() == d + 2 else 1
    c = input.shape[-d - 1]
    if _random_samples is None:
        _random_samples = torch.rand(n, c, d, dtype=input.dtype, device=input.device)
    if tuple(_random_samples.shape) != (n, c, d):
        raise RuntimeError(f"{op}: _random_samples must have shape ({n}, {c}, {d}), got {tuple(_random_samples.shape)}")
    # PyTorch reads a 2-D plane's samples as (W, H) and a 3-D one's as (T, H, W)
    order = [1, 0] if d == 2 else [0, 1, 2]
    starts = [
        _fractional_starts(_random_samples[:, :, order[k]], spatial[k], outs[k], kernel[k], input.dtype)
        for k in range(d)
    ]
    return _window_max(input, starts, kernel, kernel, op)


def _ntuple_float(value, n):
    return [value] * n if isinstance(value, numbers.Real) else list(value)


def fractional_max_pool2d_with_indices(
    input, kernel_size, output_size=None, output_ratio=None, return_indices=False, _random_samples=None
):
    return _fractional_max_pool(
        input, 2, kernel_size, output_size, output_ratio, _random_samples, "fractional_max_pool2d"
    )


def fractional_max_pool2d(
    input, kernel_size, output_size=None, output_ratio=None, return_indices=False, _random_samples=None
):
    out, indices = fractional_max_pool2d_with_indices(
        input, kernel_size, output_size, output_ratio, True, _random_samples
    )
    return (out, indices) if return_indices else out


def fractional_max_pool3d_with_indices(
    input, kernel_size, output_size=None, output_ratio=None, return_indices=False, _random_samples=None
):
    return _fractional_max_pool(
        input, 3, kernel_size, output_size, output_ratio, _random_samples, "fractional_max_pool3d"
    )


def fractional_max_pool3d(
    input, kernel_size, output_size=None, output_ratio=None, return_indices=False, _random_samples=None
):
    out, indices = fractional_max_pool3d_with_indices(
        input, kernel_size, output_size, output_ratio, True, _random_samples
    )
    return (out, indices) if return_indices else out


def adaptive_avg_pool1d(input, output_size):
    return _nn.adaptive_avg_pool(input, _adaptive_size(1, input, output_size, "adaptive_avg_pool1d"))


def adaptive_avg_pool2d(input, output_size):
    return _nn.adaptive_avg_pool(input, _adaptive_size(2, input, output_size, "adaptive_avg_pool2d"))


@float32_under_autocast
def adaptive_avg_pool3d(input, output_size):
    return _nn.adaptive_avg_pool(input, _adaptive_size(3, input, output_size, "adaptive_avg_pool3d"))


def _unpool_output_size(input, kernel, stride, padding, output_size):
    n = len(kernel)
    default = [(input.size(input.dim() - n + d) - 1) * stride[d] + kernel[d] - 2 * padding[d] for d in range(n)]
    if output_size is None:
        return default
    sizes = list(output_size)
    if len(sizes) == n + 2:
        sizes = sizes[2:]
    elif len(sizes) == n + 1 and input.dim() == n + 1:
        sizes = sizes[1:]
    if len(sizes) != n:
        raise ValueError(
            f"output_size should be a sequence containing {n} or {n + 2} elements, but it has a length "
            f"of '{len(sizes)}'"
        )
    for d in range(n):
        low, high = default[d] - stride[d], default[d] + stride[d]
        if not low < sizes[d] < high:
            raise ValueError(f'invalid output_size "{sizes}" (dim {d} must be between {low} and {high})')
    return [int(s) for s in sizes]


def _max_unpool(n, input, indices, kernel_size, stride, padding, output_size):
    op = f"max_unpool{n}d"
    kernel = _ntuple(kernel_size, n, "kernel_size", op)
    st = _stride(stride, kernel, n, op)
    pad = _ntuple(padding, n, "padding", op)
    return _nn.max_unpool(input, indices, _unpool_output_size(input, kernel, st, pad, output_size))


def max_unpool1d(input, indices, kernel_size, stride=None, padding=0, output_size=None):
    """The inverse of max_pool1d: input's values where indices say, zeros elsewhere."""
    return _max_unpool(1, input, indices, kernel_size, stride, padding, output_size)


def max_unpool2d(input, indices, kernel_size, stride=None, padding=0, output_size=None):
    return _max_unpool(2, input, indices, kernel_size, stride, padding, output_size)


def max_unpool3d(input, indices, kernel_size, stride=None, padding=0, output_size=None):
    return _max_unpool(3, input, indices, kernel_size, stride, padding, output_size)


def _lp_pool(n, input, norm_type, kernel_size, stride, ceil_mode):
    kernel = _ntuple(kernel_size, n, "kernel_size", f"lp_pool{n}d")
    pooled = _avg_pool(n, input.pow(norm_type), kernel, stride, 0, ceil_mode, True, None)
    return pooled.mul(math.prod(kernel)).pow(1.0 / norm_type)


def lp_pool1d(input, norm_type, kernel_size, stride=None, ceil_mode=False):
    """The norm_type-norm over each window: (sum of x ** p) ** (1 / p)."""
    return _lp_pool(1, input, float(norm_type), kernel_size, stride, ceil_mode)


def lp_pool2d(input, norm_type, kernel_size, stride=None, ceil_mode=False):
    return _lp_pool(2, input, float(norm_type), kernel_size, stride, ceil_mode)


# ---- resampling ----

_INTERPOLATING = ("linear", "bilinear", "bicubic", "trilinear")
_MODE_DIMS = {"linear": 3, "bilinear": 4, "bicubic": 4, "trilinear": 5}


def interpolate(
    input,
    size=None,
    scale_factor=None,
    mode="nearest",
    align_corners=None,
    recompute_scale_factor=None,
    antialias=False,
):
    """Resizes the spatial dimensions of input (N, C, *spatial) to size, or by scale_factor."""
    if mode in ("nearest", "area", "nearest-exact"):
        if align_corners is not None:
            raise ValueError(
                "align_corners option can only be set with the interpolating modes: "
                "linear | bilinear | bicubic | trilinear"
            )
    elif align_corners is None:
        align_corners = False
    dim = input.dim() - 2
    if size is not None and scale_factor is not None:
        raise ValueError("only one of size or scale_factor should be defined")
    if size is not None:
        sizes = list(size) if isinstance(size, (list, tuple, torch.Size)) else [size] * dim
        if len(sizes) != dim:
            raise ValueError(
                "Input and output must have the same number of spatial dimensions, but got input with "
                f"spatial dimensions of {list(input.shape[2:])} and output size of {size}. Please "
                "provide input tensor in (N, C, d1, d2, ...,dK) format and output size in "
                "(o1, o2, ...,oK) format."
            )
        output_size, scales = [int(s) for s in sizes], None
    elif scale_factor is not None:
        scales = list(scale_factor) if isinstance(scale_factor, (list, tuple)) else [scale_factor] * dim
        if len(scales) != dim:
            raise ValueError(
                "Input and scale_factor must have the same number of spatial dimensions, but got input "
                f"with spatial dimensions of {list(input.shape[2:])} and scale_factor of shape "
                f"{scale_factor}. Please provide input tensor in (N, C, d1, d2, ...,dK) format and "
                "scale_factor in (s1, s2, ...,sK) format."
            )
        scales = [float(s) for s in scales]
        output_size = [int(math.floor(float(input.size(i + 2)) * scales[i])) for i in range(dim)]
    else:
        raise ValueError("either size or scale_factor should be defined")
    if recompute_scale_factor and size is not None:
        raise ValueError("recompute_scale_factor is not meaningful with an explicit size.")
    if recompute_scale_factor or mode == "area":
        scales = None
    if antialias:
        raise NotImplementedError("interpolate: antialias=True is not supported")
    if mode in _MODE_DIMS and input.dim() != _MODE_DIMS[mode]:
        raise NotImplementedError(f"Got {input.dim()}D input, but {mode} mode needs {_MODE_DIMS[mode]}D input")
    if dim < 1 or dim > 3 or mode not in ("nearest", "nearest-exact", "area") + _INTERPOLATING:
        raise NotImplementedError(
            f"Input Error: Only 3D, 4D and 5D input Tensors supported (got {input.dim()}D) for "
            "the modes: nearest | linear | bilinear | bicubic | trilinear | area | "
            f"nearest-exact (got {mode})"
        )
    return _nn.interpolate(input, mode, output_size, scales or [], bool(align_corners))


def upsample(input, size=None, scale_factor=None, mode="nearest", align_corners=None):
    warnings.warn("nn.functional.upsample is deprecated. Use nn.functional.interpolate instead.")
    return interpolate(input, size, scale_factor, mode, align_corners)


def upsample_nearest(input, size=None, scale_factor=None):
    warnings.warn("nn.functional.upsample_nearest is deprecated. Use nn.functional.interpolate instead.")
    return interpolate(input, size, scale_factor, mode="nearest")


def upsample_bilinear(input, size=None, scale_factor=None):
    warnings.warn("nn.functional.upsample_bilinear is deprecated. Use nn.functional.interpolate instead.")
    return interpolate(input, size, scale_factor, mode="bilinear", align_corners=True)


def pad(input, pad, mode="constant", value=None):
    """Pads (or, with negative values, crops) the last len(pad) // 2 dimensions; pad lists
    (before, after) pairs from the last dimension backwards."""
    pad = [int(p) for p in pad]
    if (
        mode in ("reflect", "replicate", "circular")
        and len(pad) // 2 + 2 != input.dim()
        and len(pad) // 2 + 1 != input.dim()
    ):
        raise NotImplementedError("Only 2D, 3D, 4D, 5D padding with non-constant padding are supported for now")
    if mode in ("reflect", "replicate"):  # of PyTorch 1.13's float32 list under autocast
        return _float32_pad(input, pad, mode)
    return _nn.pad(input, pad, mode, 0.0 if value is None else float(value))


@float32_under_autocast
def _float32_pad(input, pad, mode):
    return _nn.pad(input, pad, mode, 0.0)


def pixel_shuffle(input, upscale_factor):
    """(*, C r^2, H, W) -> (*, C, H r, W r)."""
    return _nn.pixel_shuffle(input, int(upscale_factor))


def pixel_unshuffle(input, downscale_factor):
    """(*, C, H r, W r) -> (*, C r^2, H, W)."""
    return _nn.pixel_unshuffle(input, int(downscale_factor))


def channel_shuffle(input, groups):
    """(N, g k, *) -> (N, k g, *): the channels of each of the g groups interleaved."""
    if input.dim() < 3:
        raise RuntimeError(
            "channel_shuffle expects input to have at least 3 dimensions, but got input with sizes %s"
            % list(input.shape)
        )
    if groups <= 0:
        raise RuntimeError("Number of groups to divide channels in must be positive. Value of groups:%d" % groups)
    n, c = input.shape[0], input.shape[1]
    if c % groups:
        raise RuntimeError(
            "Number of channels must be divisible by groups. Got %d channels and %d groups." % (c, groups)
        )
    rest = list(input.shape[2:])
    return input.reshape([n, groups, c // groups] + rest).transpose(1, 2).reshape([n, c] + rest)


native_channel_shuffle = channel_shuffle


@float32_under_autocast
def grid_sample(input, grid, mode="bilinear", padding_mode="zeros", align_corners=None):
    """Samples input (N, C, H, W) bilinearly at grid (N, Ho, Wo, 2) of (x, y) in [-1, 1]."""
    if mode not in ("bilinear", "nearest", "bicubic"):
        raise ValueError(
            f"nn.functional.grid_sample(): expected mode to be 'bilinear', 'nearest' or 'bicubic', but got: '{mode}'"
        )
    if padding_mode not in ("zeros", "border", "reflection"):
        raise ValueError(
            "nn.functional.grid_sample(): expected padding_mode to be 'zeros', 'border', or "
            f"'reflection', but got: '{padding_mode}'"
        )
    return _nn.grid_sample(input, grid, mode, padding_mode, bool(align_corners))


def affine_grid(theta, size, align_corners=None):
    """The sampling grid of the affine maps theta (N, 2, 3) for size (N, C, H, W), or theta
    (N, 3, 4) for size (N, C, D, H, W)."""
    if not theta.is_floating_point():
        raise ValueError(f"Expected theta to have floating point type, but got {theta.dtype}")
    size = [int(s) for s in size]
    if len(size) in (4, 5) and min(size) <= 0:
        raise ValueError(f"Expected non-zero, positive output size. Got {size}")
    return _nn.affine_grid(theta, size, bool(align_corners))


def unfold(input, kernel_size, dilation=1, padding=0, stride=1):
    """im2col: (N, C, H, W) -> (N, C kH kW, L), one column per kernel position."""
    return _nn.im2col(
        input,
        _ntuple(kernel_size, 2, "kernel_size", "unfold"),
        _ntuple(dilation, 2, "dilation", "unfold"),
        _ntuple(padding, 2, "padding", "unfold"),
        _ntuple(stride, 2, "stride", "unfold"),
    )


def fold(input, output_size, kernel_size, dilation=1, padding=0, stride=1):
    """col2im: (N, C kH kW, L) -> (N, C, *output_size), overlapping entries summed."""
    return _nn.col2im(
        input,
        _ntuple(output_size, 2, "output_size", "fold"),
        _ntuple(kernel_size, 2, "kernel_size", "fold"),
        _ntuple(dilation, 2, "dilation", "fold"),
        _ntuple(padding, 2, "padding", "fold"),
        _ntuple(stride, 2, "stride", "fold"),
    )
