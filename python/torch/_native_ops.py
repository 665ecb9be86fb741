"""Functions of PyTorch 1.13's torch namespace that its modules call underneath (nn.LSTMCell's
torch.lstm_cell, weight_norm's torch.norm_except_dim, fairseq's torch.conv_tbc, the native_*
normalisations that return their statistics too) and that programs written against them call
directly, each written over the functional ops here; and a few process-level switches and
readers (set_anomaly_enabled, from_file)."""

import math

import torch
import torch.nn.functional as F

__all__ = [
    "rnn_tanh_cell",
    "rnn_relu_cell",
    "lstm_cell",
    "gru_cell",
    "norm_except_dim",
    "constant_pad_nd",
    "convolution",
    "conv_tbc",
    "embedding_renorm_",
    "addmv_",
    "binomial",
    "cudnn_is_acceptable",
    "native_layer_norm",
    "native_group_norm",
    "native_batch_norm",
    "native_dropout",
    "grid_sampler",
    "grid_sampler_2d",
    "grid_sampler_3d",
    "affine_grid_generator",
    "set_anomaly_enabled",
    "is_distributed",
    "init_num_threads",
    "matrix_rank",
    "from_file",
    "lstm",
    "gru",
    "rnn_tanh",
    "rnn_relu",
    "get_device",
    "align_tensors",
    "native_norm",
    "as_strided_",
    "feature_dropout_",
    "feature_alpha_dropout_",
    "batch_norm_update_stats",
    "batch_norm_stats",
    "batch_norm_elemt",
    "batch_norm_gather_stats",
    "batch_norm_gather_stats_with_counts",
    "batch_norm_backward_reduce",
    "batch_norm_backward_elemt",
]


def _gates(input, hx, w_ih, w_hh, b_ih, b_hh):
    return F.linear(input, w_ih, b_ih), F.linear(hx, w_hh, b_hh)


def rnn_tanh_cell(input, hx, w_ih, w_hh, b_ih=None, b_hh=None):
    i, h = _gates(input, hx, w_ih, w_hh, b_ih, b_hh)
    return torch.tanh(i + h)


def rnn_relu_cell(input, hx, w_ih, w_hh, b_ih=None, b_hh=None):
    i, h = _gates(input, hx, w_ih, w_hh, b_ih, b_hh)
    return torch.relu(i + h)


def lstm_cell(input, hx, w_ih, w_hh, b_ih=None, b_hh=None):
    """(h', c') from hx = (h, c); the gates stacked as input, forget, cell, output."""
    h, c = hx
    i, g = _gates(input, h, w_ih, w_hh, b_ih, b_hh)
    ingate, forgetgate, cellgate, outgate = (i + g).chunk(4, -1)
    cy = torch.sigmoid(forgetgate) * c + torch.sigmoid(ingate) * torch.tanh(cellgate)
    hy = torch.sigmoid(outgate) * torch.tanh(cy)
    return hy, cy


def gru_cell(input, hx, w_ih, w_hh, b_ih=None, b_hh=None):
    """The gates stacked as reset, update, new; the reset gate scales the hidden part of the
    new gate only."""
    i, h = _gates(input, hx, w_ih, w_hh, b_ih, b_hh)
    i_r, i_z, i_n = i.chunk(3, -1)
    h_r, h_z, h_n = h.chunk(3, -1)
    r = torch.sigmoid(i_r + h_r)
    z = torch.sigmoid(i_z + h_z)
    n = torch.tanh(i_n + r * h_n)
    return n + z * (hx - n)


def norm_except_dim(v, pow=2, dim=0):
    """The pow-norm over every dimension but dim, kept as size-1 dimensions (weight_norm's
    g); dim=-1 is the norm of the whole tensor."""
    if dim == -1:
        return v.norm(pow)
    dim = dim % v.dim()
    others = [d for d in range(v.dim()) if d != dim]
    return v.norm(pow, dim=others, keepdim=True) if others else v.abs()


def constant_pad_nd(input, pad, value=0):
    return F.pad(input, list(pad), mode="constant", value=value)


def convolution(input, weight, bias, stride, padding, dilation, transposed, output_padding, groups):
    """conv{1,2,3}d or conv_transpose{1,2,3}d by the input's dimensions."""
    n = input.dim() - 2
    if n not in (1, 2, 3):
        raise RuntimeError(
            "Expected 3D, 4D or 5D input to convolution, but got input of size: " + str(list(input.shape))
        )
    if transposed:
        fn = (F.conv_transpose1d, F.conv_transpose2d, F.conv_transpose3d)[n - 1]
        return fn(input, weight, bias, stride, padding, output_padding, groups, dilation)
    fn = (F.conv1d, F.conv2d, F.conv3d)[n - 1]
    return fn(input, weight, bias, stride, padding, dilation, groups)


def conv_tbc(input, weight, bias, pad=0):
    """A 1-d convolution over time-major input (time, batch, channels) with weight (kernel,
    in channels, out channels): fairseq's layout."""
    if input.dim() != 3:
        raise RuntimeError("Input must have 3 dims: time, batch, in_channel")
    if weight.dim() != 3:
        raise RuntimeError("Weight tensor must have 3 dims: kernel_width, in_channels, out_channels.")
    if bias.dim() != 1:
        raise RuntimeError("Bias must be 1-D")
    if input.shape[2] != weight.shape[1]:
        raise RuntimeError("Input dim 2 (input channels) is not == dim 1 in the weight tensor")
    if weight.shape[2] != bias.shape[0]:
        raise RuntimeError("Bias size must equal dim 2 in the weight tensor (output channels).")
    out = F.conv1d(input.permute(1, 2, 0), weight.permute(2, 1, 0), bias, padding=pad)
    return out.permute(2, 0, 1)


def embedding_renorm_(weight, indices, max_norm, norm_type):
    """Rows of weight that indices names, scaled in place to a norm of at most max_norm."""
    with torch.no_grad():
        rows = torch.unique(indices.reshape(-1))
        norms = weight[rows].norm(norm_type, dim=-1)
        scale = torch.where(norms > max_norm, max_norm / (norms + 1e-7), torch.ones_like(norms))
        weight[rows] = weight[rows] * scale.unsqueeze(-1)
    return weight


def addmv_(input, mat, vec, *, beta=1, alpha=1):
    return input.addmv_(mat, vec, beta=beta, alpha=alpha)


def binomial(count, prob, generator=None):
    """Binomial(count, prob) draws, elementwise."""
    from torch.distributions._sampling import binomial as _draw

    with torch.no_grad():
        count, prob = torch.broadcast_tensors(count, prob)
        return _draw(count, prob)


def cudnn_is_acceptable(tensor):
    """Whether cuDNN could take this tensor: never, here."""
    return False


def native_layer_norm(input, normalized_shape, weight, bias, eps):
    """(layer_norm, mean, 1 / std), the statistics with size-1 normalised dimensions."""
    # the statistics carry no gradient, as PyTorch's
    dims = list(range(input.dim() - len(normalized_shape), input.dim()))
    input_ = input.detach()
    mean = input_.mean(dims, keepdim=True)
    rstd = torch.rsqrt(input_.var(dims, unbiased=False, keepdim=True) + eps)
    return F.layer_norm(input, normalized_shape, weight, bias, eps), mean, rstd


def native_group_norm(input, weight, bias, N, C, HxW, group, eps):
    """(group_norm, mean, 1 / std), the statistics of shape (N, group), differentiable (unlike
    native_layer_norm's and native_batch_norm's, as in PyTorch)."""
    grouped = input.reshape(N, group, -1)
    mean = grouped.mean(-1)
    rstd = torch.rsqrt(grouped.var(-1, unbiased=False) + eps)
    return F.group_norm(input, group, weight, bias, eps), mean, rstd


def native_batch_norm(input, weight, bias, running_mean, running_var, training, momentum, eps):
    """(batch_norm, the batch's mean, its 1 / std) in training (the statistics without
    gradient); in evaluation they are empty, as PyTorch's CPU kernel returns them."""
    out = F.batch_norm(input, running_mean, running_var, weight, bias, training, momentum, eps)
    if not training:
        empty = input.new_empty((0,))
        return out, empty, empty
    dims = [0] + list(range(2, input.dim()))
    input_ = input.detach()
    mean = input_.mean(dims)
    invstd = torch.rsqrt(input_.var(dims, unbiased=False) + eps)
    return out, mean, invstd


def native_dropout(input, p, train):
    """(dropout, the mask of the kept elements, boolean)."""
    if not train:
        return input.clone(), torch.ones(input.shape, dtype=torch.bool)
    if p >= 1:
        mask = torch.zeros(input.shape, dtype=torch.bool)
        return input * mask, mask
    mask = torch.rand(input.shape, dtype=input.dtype if input.dtype.is_floating_point else None) >= p
    return input * mask / (1 - p), mask


_INTERPOLATION = ("bilinear", "nearest", "bicubic")
_PADDING = ("zeros", "border", "reflection")


def grid_sampler(input, grid, interpolation_mode, padding_mode, align_corners):
    """grid_sample with its modes given as PyTorch's enum numbers (bilinear 0, nearest 1,
    bicubic 2; zeros 0, border 1, reflection 2)."""
    return F.grid_sample(
        input, grid, _INTERPOLATION[interpolation_mode], _PADDING[padding_mode], align_corners=align_corners
    )


grid_sampler_2d = grid_sampler
grid_sampler_3d = grid_sampler


def affine_grid_generator(theta, size, align_corners):
    return F.affine_grid(theta, list(size), align_corners=align_corners)


def set_anomaly_enabled(enabled, check_nan=True):
    """Anomaly detection on or off for good (torch.autograd.set_detect_anomaly's switch)."""
    from torch.autograd.anomaly_mode import _set

    _set(enabled, check_nan)


def is_distributed(input):
    """Whether input is spread over processes: never, here."""
    return False


def init_num_threads():
    """Initialises the intra-op thread pool: nothing to do here."""


def matrix_rank(input, tol=None, symmetric=False, *, out=None):
    raise RuntimeError(
        "This function was deprecated since version 1.9 and is now removed.",
        "Please use the `torch.linalg.matrix_rank` function instead.",
    )


def from_file(filename, shared=None, size=0, *, dtype=None, layout=None, device=None, pin_memory=False):
    """The first size elements of dtype stored in filename, as a 1-d tensor: shared=True maps
    the file (writes to the tensor go to it), else the data are copied."""
    import os

    import numpy as np

    dtype = torch.get_default_dtype() if dtype is None else dtype
    np_dtype = torch.empty(0, dtype=dtype).numpy().dtype
    nbytes = size * np_dtype.itemsize
    if os.path.getsize(filename) < nbytes:
        raise RuntimeError("file <%s> size is smaller than the required mapping size <%d>" % (filename, nbytes))
    if size == 0:
        return torch.empty(0, dtype=dtype)
    if shared:
        return torch.from_numpy(np.memmap(filename, dtype=np_dtype, mode="r+", shape=(size,)))
    return torch.from_numpy(np.fromfile(filename, dtype=np_dtype, count=size).copy())


def _rnn(mode, input, second, rest):
    """The multi-layer recurrences behind nn.RNN/LSTM/GRU, over flat weight lists: padded
    (input, hx, params, has_biases, num_layers, dropout, train, bidirectional, batch_first) or
    packed (data, batch_sizes, hx, params, has_biases, num_layers, dropout, train,
    bidirectional). Returns (output, h_n) or, for LSTM, (output, h_n, c_n)."""
    from torch.nn.modules import rnn as _rnn_module

    if isinstance(second, torch.Tensor) and second.dtype == torch.int64 and second.dim() == 1 and len(rest) == 7:
        packed, batch_sizes = True, second.tolist()
        hx, params, has_biases, num_layers, dropout, train, bidirectional = rest
        batch_first = False
        data = input
    else:
        packed = False
        hx = second
        params, has_biases, num_layers, dropout, train, bidirectional, batch_first = rest
        data = input.transpose(0, 1) if batch_first else input
        batch_sizes = [data.size(1)] * data.size(0)
    initial = tuple(hx) if mode == "LSTM" else (hx,)
    directions = 2 if bidirectional else 1
    params = list(params)
    per = (4 if has_biases else 2) if mode != "LSTM" else None
    if mode == "LSTM":
        base = 4 if has_biases else 2
        per = base + 1 if len(params) == num_layers * directions * (base + 1) else base

    def weights(index):
        group = params[index * per : (index + 1) * per]
        w_ih, w_hh = group[0], group[1]
        b_ih, b_hh = (group[2], group[3]) if has_biases else (None, None)
        w_hr = group[-1] if mode == "LSTM" and per in (3, 5) else None
        return w_ih, w_hh, b_ih, b_hh, w_hr

    def step_function(w_hh, b_hh, w_hr):
        if mode == "LSTM":
            return lambda gi, state: _rnn_module._lstm_step(gi, state, w_hh, b_hh, w_hr)
        single = {"GRU": _rnn_module._gru_step, "RNN_TANH": _rnn_module._tanh_step, "RNN_RELU": _rnn_module._relu_step}[
            mode
        ]
        return lambda gi, state: (single(gi, state[0], w_hh, b_hh),)

    finals = [[] for _ in initial]
    for layer in range(num_layers):
        if layer > 0 and dropout > 0 and train:
            data = F.dropout(data, dropout, True)
        outputs = []
        for direction in range(directions):
            index = layer * directions + direction
            w_ih, w_hh, b_ih, b_hh, w_hr = weights(index)
            gates = F.linear(data, w_ih, b_ih)
            gates = gates.split(batch_sizes, 0) if packed else gates.unbind(0)
            start = tuple(s.select(0, index) for s in initial)
            out, final = _rnn_module._run_direction(
                step_function(w_hh, b_hh, w_hr), gates, batch_sizes, start, direction == 1
            )
            outputs.append(torch.cat(out, 0) if packed else torch.stack(out, 0))
            for i, f in enumerate(final):
                finals[i].append(f)
        data = outputs[0] if directions == 1 else torch.cat(outputs, data.dim() - 1)
    if not packed and batch_first:
        data = data.transpose(0, 1)
    return (data,) + tuple(torch.stack(f, 0) for f in finals)


def lstm(input, second, *rest):
    return _rnn("LSTM", input, second, rest)


def gru(input, second, *rest):
    return _rnn("GRU", input, second, rest)


def rnn_tanh(input, second, *rest):
    return _rnn("RNN_TANH", input, second, rest)


def rnn_relu(input, second, *rest):
    return _rnn("RNN_RELU", input, second, rest)


def get_device(input):
    """The index of input's device: -1 on the CPU."""
    return input.get_device()


def align_tensors(*tensors):
    # a named-tensor function, which 1.13 itself has not implemented
    raise RuntimeError("`align_tensors` not yet implemented.")


def _cuda_only(name, backends):
    def fn(*args, **kwargs):
        # as 1.13: a kernel registered for other backends than the CPU's
        raise NotImplementedError(
            "Could not run 'aten::%s' with arguments from the 'CPU' backend. This could be because the operator "
            "doesn't exist for this backend. 'aten::%s' is only available for these backends: [%s]."
            % (name, name, backends)
        )

    fn.__name__ = name
    fn.__doc__ = "torch.%s: PyTorch 1.13 has it for %s tensors only." % (name, backends)
    return fn


native_norm = _cuda_only("native_norm", "SparseCPU, SparseCUDA")
batch_norm_stats = _cuda_only("batch_norm_stats", "CUDA")
batch_norm_elemt = _cuda_only("batch_norm_elemt", "CUDA")
batch_norm_gather_stats = _cuda_only("batch_norm_gather_stats", "CUDA")
batch_norm_gather_stats_with_counts = _cuda_only("batch_norm_gather_stats_with_counts", "CUDA")
batch_norm_backward_reduce = _cuda_only("batch_norm_backward_reduce", "CUDA")
batch_norm_backward_elemt = _cuda_only("batch_norm_backward_elemt", "CUDA")


def batch_norm_update_stats(input, running_mean, running_var, momentum):
    """(mean, biased variance) of input over every dimension but 1, and the running statistics
    (where given) moved towards them by momentum, the variance unbiased, as batch norm does."""
    dims = [d for d in range(input.dim()) if d != 1]
    with torch.no_grad():
        mean = input.mean(dims)
        var = input.var(dims, unbiased=False)
        count = input.numel() // input.shape[1]
        if running_mean is not None:
            running_mean.mul_(1 - momentum).add_(mean, alpha=momentum)
        if running_var is not None:
            unbiased = var * count / max(count - 1, 1)
            running_var.mul_(1 - momentum).add_(unbiased, alpha=momentum)
    return mean, var


def as_strided_(input, size, stride, storage_offset=None):
    """input itself, re-viewed in place with size, stride and storage_offset."""
    return input.as_strided_(size, stride, storage_offset)


def _feature_noise(input, p, alpha):
    """The in-place (alpha-)dropout of whole features: one draw per (sample, channel)."""
    if p < 0 or p > 1:
        raise ValueError("dropout probability has to be between 0 and 1, but got %s" % p)
    with torch.no_grad():
        if p == 1:
            return input.mul_(0)
        shape = tuple(input.shape[:2]) + (1,) * (input.dim() - 2)
        keep = torch.empty(shape, dtype=input.dtype).bernoulli_(1 - p)
        if not alpha:
            return input.mul_(keep / (1 - p))
        # SELU's saturation value; a and b keep the mean and the variance (1.13's alpha dropout)
        saturation = 1.7580993408473766
        a = 1 / math.sqrt((saturation * saturation * p + 1) * (1 - p))
        b = (keep - 1) * (saturation * a) + saturation * a * p
        return input.mul_(keep * a).add_(b)


def feature_dropout_(input, p, train):
    """In-place feature_dropout: whole channels zeroed with probability p, the rest scaled by
    1 / (1 - p), when train."""
    return _feature_noise(input, p, False) if train else input


def feature_alpha_dropout_(input, p, train):
    """In-place feature_alpha_dropout: whole channels set to SELU's saturation, the result
    rescaled to keep its mean and variance, when train."""
    return _feature_noise(input, p, True) if train else input
