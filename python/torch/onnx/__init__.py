"""torch.onnx: export a model to ONNX, written with the onnx library (PyPI, requirements.txt).

    torch.onnx.export(model, args, "model.onnx", opset_version=13,
                      input_names=["input"], output_names=["output"],
                      dynamic_axes={"input": {0: "batch"}, "output": {0: "batch"}})

Note [Export by module, not by trace]: PyTorch 1.13 traces the forward through its JIT; this
package has no tracer, so export walks the module tree instead: nn.Sequential (and the
converter's Sequential-like containers) run their children in order, and every leaf module
has a translation to ONNX nodes below (_LEAVES). The model runs forward once on args (with
hooks on the leaves) so that each leaf knows its input's shape: what depends on the rank
(torch7's SoftMax dimension, a View's batch) is decided from it, as the forward decided it.
A module with neither a translation nor a Sequential structure (a custom forward) raises
ValueError naming it. The graph is checked with onnx.checker before it is written.

Covered: Linear, Bilinear, Conv1d/2d/3d, ConvTranspose1d/2d/3d, BatchNorm1d/2d/3d (evaluation),
Max/AvgPool1d/2d/3d, AdaptiveAvg/MaxPool to size 1 (global) or to a divisor of the input,
LocalResponseNorm, the activations (ReLU, ReLU6, LeakyReLU, ELU, SELU, CELU, GELU, SiLU, Mish,
PReLU, Sigmoid, Tanh, Hardtanh, Hardsigmoid, Hardswish, Softplus, Softsign, Softshrink,
Hardshrink, Tanhshrink, LogSigmoid, Threshold), Softmax/LogSoftmax/Softmin, Dropout (identity
at evaluation), Identity, Flatten, Embedding, the paddings, Upsample (nearest), PixelShuffle,
LSTM and GRU (any layers, bidirectional, batch_first; outputs output, h_n[, c_n]), and the
converter's View, Reshape, SoftMax, Affine, Pointwise, Dropout, Transpose.
"""

import io

import numpy as np

import torch
from torch import nn

__all__ = ["export"]

_NP_TYPES = {torch.float32: np.float32, torch.float64: np.float64}


def _onnx():
    try:
        import onnx
        from onnx import helper, numpy_helper
    except ImportError as e:  # pragma: no cover - the project's setup installs it
        raise ImportError(
            "torch.onnx.export needs the onnx package (pip install onnx; scripts/setup.sh installs it)"
        ) from e
    return onnx, helper, numpy_helper


class _Graph:
    def __init__(self, dtype, opset):
        self.onnx, self.helper, self.numpy_helper = _onnx()
        self.dtype, self.np_dtype, self.opset = dtype, _NP_TYPES[dtype], opset
        self.nodes, self.initializers, self.count = [], [], 0

    def name(self, hint):
        self.count += 1
        return "%s_%d" % (hint, self.count)

    def const(self, value, hint="const", dtype=None):
        array = np.asarray(value.detach().cpu().numpy() if torch.is_tensor(value) else value)
        array = array.astype(dtype if dtype is not None else self.np_dtype)
        name = self.name(hint)
        self.initializers.append(self.numpy_helper.from_array(np.ascontiguousarray(array), name))
        return name

    def ints(self, values, hint="shape"):
        return self.const(np.asarray(values, dtype=np.int64), hint, np.int64)

    def node(self, op, inputs, n_out=1, **attrs):
        outs = [self.name(op.lower()) for _ in range(n_out)]
        self.nodes.append(self.helper.make_node(op, list(inputs), outs, name=self.name(op), **attrs))
        return outs[0] if n_out == 1 else outs


def _tuple(v, n):
    return tuple(v) if isinstance(v, (tuple, list)) else (v,) * n


def _spatial(m, x_shape):
    return len(x_shape) - 2


def _conv(g, m, x, shape):
    n = _spatial(m, shape)
    if isinstance(m.padding, str) or m.padding_mode != "zeros":
        raise ValueError(
            "torch.onnx.export: %s with padding=%r padding_mode=%r" % (type(m).__name__, m.padding, m.padding_mode)
        )
    pads = list(_tuple(m.padding, n)) * 2
    inputs = [x, g.const(m.weight, "weight")] + ([g.const(m.bias, "bias")] if m.bias is not None else [])
    attrs = dict(
        kernel_shape=list(_tuple(m.kernel_size, n)),
        strides=list(_tuple(m.stride, n)),
        dilations=list(_tuple(m.dilation, n)),
        pads=pads,
        group=m.groups,
    )
    if isinstance(m, (nn.ConvTranspose1d, nn.ConvTranspose2d, nn.ConvTranspose3d)):
        return g.node("ConvTranspose", inputs, output_padding=list(_tuple(m.output_padding, n)), **attrs)
    return g.node("Conv", inputs, **attrs)


def _linear(g, m, x, shape):
    if len(shape) == 2:
        inputs = [x, g.const(m.weight, "weight")] + ([g.const(m.bias, "bias")] if m.bias is not None else [])
        return g.node("Gemm", inputs, transB=1)
    y = g.node("MatMul", [x, g.const(m.weight.t(), "weight_t")])
    return g.node("Add", [y, g.const(m.bias, "bias")]) if m.bias is not None else y


def _batch_norm(g, m, x, shape):
    if m.training or not m.track_running_stats:
        raise ValueError("torch.onnx.export: %s must be in evaluation mode with running statistics" % type(m).__name__)
    c = m.num_features
    scale = m.weight if m.affine else torch.ones(c)
    bias = m.bias if m.affine else torch.zeros(c)
    inputs = [
        x,
        g.const(scale, "scale"),
        g.const(bias, "bias"),
        g.const(m.running_mean, "mean"),
        g.const(m.running_var, "var"),
    ]
    return g.node("BatchNormalization", inputs, epsilon=float(m.eps))


def _pool(g, m, x, shape):
    n = _spatial(m, shape)
    k = list(_tuple(m.kernel_size, n))
    s = list(_tuple(m.stride or m.kernel_size, n))
    p = list(_tuple(m.padding, n)) * 2
    attrs = dict(kernel_shape=k, strides=s, pads=p, ceil_mode=int(bool(m.ceil_mode)))
    if isinstance(m, (nn.MaxPool1d, nn.MaxPool2d, nn.MaxPool3d)):
        if m.return_indices:
            raise ValueError("torch.onnx.export: %s with return_indices" % type(m).__name__)
        return g.node("MaxPool", [x], dilations=list(_tuple(m.dilation, n)), **attrs)
    if getattr(m, "divisor_override", None) is not None:
        raise ValueError("torch.onnx.export: %s with divisor_override" % type(m).__name__)
    return g.node("AveragePool", [x], count_include_pad=int(bool(m.count_include_pad)), **attrs)


def _adaptive(g, m, x, shape):
    n = _spatial(m, shape)
    out = [o if o is not None else i for o, i in zip(_tuple(m.output_size, n), shape[2:])]
    is_max = "Max" in type(m).__name__
    if all(o == 1 for o in out):
        return g.node("GlobalMaxPool" if is_max else "GlobalAveragePool", [x])
    if any(i % o for i, o in zip(shape[2:], out)):
        raise ValueError("torch.onnx.export: %s to %s from %s (sizes must divide)" % (type(m).__name__, out, shape[2:]))
    k = [i // o for i, o in zip(shape[2:], out)]
    return g.node("MaxPool" if is_max else "AveragePool", [x], kernel_shape=k, strides=k)


def _clip(g, x, lo, hi):
    return g.node("Clip", [x, g.const(np.asarray(lo), "min"), g.const(np.asarray(hi), "max")])


def _softplus(g, x, beta=1.0, threshold=20.0):
    """log(1 + exp(beta x)) / beta, and x itself where beta x > threshold (as PyTorch)."""
    bx = g.node("Mul", [x, g.const(np.asarray(beta), "beta")])
    y = g.node("Div", [g.node("Softplus", [bx]), g.const(np.asarray(beta), "beta")])
    keep = g.node("Greater", [bx, g.const(np.asarray(threshold), "threshold")])
    return g.node("Where", [keep, x, y])


def _shrink(g, x, lambd, soft):
    return g.node("Shrink", [x], lambd=float(lambd), bias=float(lambd) if soft else 0.0)


def _prelu(g, m, x, shape):
    slope = m.weight.detach().reshape([-1] + [1] * max(len(shape) - 2, 0))
    return g.node("PRelu", [x, g.const(slope, "slope")])


def _threshold(g, m, x, shape):
    keep = g.node("Greater", [x, g.const(np.asarray(m.threshold), "threshold")])
    value = g.node("Expand", [g.const(np.asarray(m.value), "value"), g.node("Shape", [x])])
    return g.node("Where", [keep, x, value])


def _softmax(op, dim, negate=False):
    def emit(g, m, x, shape):
        if negate:
            x = g.node("Neg", [x])
        d = m.dim if dim == "attr" else dim
        if d is None:
            d = 0 if len(shape) in (0, 1, 3) else 1  # PyTorch's implicit dimension
        return g.node(op, [x], axis=int(d))

    return emit


def _t7_softmax(g, m, x, shape):
    if m.negate:
        x = g.node("Neg", [x])
    axis = 0 if len(shape) in (1, 3) else 1  # Note [torch7 semantics kept] in convert_t7/runtime.py
    return g.node("LogSoftmax" if m.log else "Softmax", [x], axis=axis)


def _gelu(g, m, x, shape):
    if m.approximate != "none":
        raise ValueError("torch.onnx.export: GELU(approximate=%r)" % m.approximate)
    erf = g.node("Erf", [g.node("Div", [x, g.const(np.asarray(np.sqrt(2.0)), "sqrt2")])])
    half = g.node("Mul", [x, g.const(np.asarray(0.5), "half")])
    return g.node("Mul", [half, g.node("Add", [erf, g.const(np.asarray(1.0), "one")])])


def _flatten(g, m, x, shape):
    start = m.start_dim % len(shape)
    end = m.end_dim % len(shape)
    if end == len(shape) - 1:
        if start == 0:
            return g.node("Reshape", [x, g.ints([1, -1])])
        if start == 1:
            return g.node("Flatten", [x], axis=1)
    raise ValueError("torch.onnx.export: Flatten(%d, %d) of a %d-D input" % (m.start_dim, m.end_dim, len(shape)))


def _reshape_to_output(g, m, x, shape, out_shape, dynamic_batch):
    target = list(out_shape)
    if dynamic_batch and target and shape and target[0] == shape[0]:
        target[0] = 0  # copies the input's batch size (Reshape's 0)
    return g.node("Reshape", [x, g.ints(target)])


def _pad(mode):
    def emit(g, m, x, shape):
        pad = list(m.padding)
        n = len(pad) // 2
        begins = [0] * (len(shape) - n) + [pad[2 * (n - 1 - i)] for i in range(n)]
        ends = [0] * (len(shape) - n) + [pad[2 * (n - 1 - i) + 1] for i in range(n)]
        inputs = [x, g.ints(begins + ends, "pads")]
        if mode == "constant":
            inputs.append(g.const(np.asarray(getattr(m, "value", 0.0)), "value"))
        return g.node("Pad", inputs, mode=mode)

    return emit


def _upsample(g, m, x, shape, out_shape):
    if m.mode != "nearest":
        raise ValueError("torch.onnx.export: Upsample(mode=%r); nearest is covered" % m.mode)
    scales = [float(o) / float(i) for o, i in zip(out_shape, shape)]
    return g.node(
        "Resize",
        [x, "", g.const(np.asarray(scales), "scales", np.float32)],
        mode="nearest",
        coordinate_transformation_mode="asymmetric",
        nearest_mode="floor",
    )


def _pixel_shuffle(g, m, x, shape):
    r = m.upscale_factor
    n, c, h, w = shape
    y = g.node("Reshape", [x, g.ints([-1, c // (r * r), r, r, h, w])])
    y = g.node("Transpose", [y], perm=[0, 1, 4, 2, 5, 3])
    return g.node("Reshape", [y, g.ints([-1, c // (r * r), h * r, w * r])])


def _embedding(g, m, x, shape):
    if m.max_norm is not None:
        raise ValueError("torch.onnx.export: Embedding with max_norm renormalises its weight in the forward")
    return g.node("Gather", [g.const(m.weight, "weight"), x])


def _bilinear(g, m, xs, shapes):
    # y_k = x1 W_k x2 + b_k: (x1 W) as [N, out, in2] then times x2
    a = g.node("Einsum", [xs[0], g.const(m.weight, "weight"), xs[1]], equation="ni,kij,nj->nk")
    return g.node("Add", [a, g.const(m.bias, "bias")]) if m.bias is not None else a


def _rnn(g, m, x, shape):
    """nn.LSTM / nn.GRU as ONNX LSTM / GRU nodes, one per layer; gates reordered (PyTorch: LSTM
    i f g o, GRU r z n; ONNX: LSTM i o f c, GRU z r h)."""
    lstm = isinstance(m, nn.LSTM)
    if not isinstance(m, (nn.LSTM, nn.GRU)) or getattr(m, "proj_size", 0):
        raise ValueError("torch.onnx.export: %s" % type(m).__name__)
    if m.dropout and m.training:
        raise ValueError("torch.onnx.export: %s with dropout in training mode" % type(m).__name__)
    hidden, dirs = m.hidden_size, 2 if m.bidirectional else 1
    order = [0, 3, 1, 2] if lstm else [1, 0, 2]
    n_gates = 4 if lstm else 3

    def reorder(t):
        chunks = t.detach().reshape(n_gates, hidden, *t.shape[1:])
        return chunks[order].reshape(t.shape)

    if m.batch_first:
        x = g.node("Transpose", [x], perm=[1, 0, 2])
    h_outs, c_outs = [], []
    for layer in range(m.num_layers):
        ws, rs, bs = [], [], []
        for d in range(dirs):
            sfx = "_l%d%s" % (layer, "_reverse" if d else "")
            ws.append(reorder(getattr(m, "weight_ih" + sfx)))
            rs.append(reorder(getattr(m, "weight_hh" + sfx)))
            if m.bias:
                bs.append(torch.cat([reorder(getattr(m, "bias_ih" + sfx)), reorder(getattr(m, "bias_hh" + sfx))]))
            else:
                bs.append(torch.zeros(2 * n_gates * hidden))
        inputs = [x, g.const(torch.stack(ws), "W"), g.const(torch.stack(rs), "R"), g.const(torch.stack(bs), "B")]
        attrs = dict(hidden_size=hidden, direction="bidirectional" if dirs == 2 else "forward")
        if lstm:
            y, h, c = g.node("LSTM", inputs, n_out=3, **attrs)
            c_outs.append(c)
        else:
            y, h = g.node("GRU", inputs, n_out=2, linear_before_reset=1, **attrs)
        h_outs.append(h)
        # Y [T, dirs, N, hidden] -> [T, N, dirs * hidden]
        y = g.node("Transpose", [y], perm=[0, 2, 1, 3])
        x = g.node("Reshape", [y, g.ints([0, 0, -1])])
    if m.batch_first:
        x = g.node("Transpose", [x], perm=[1, 0, 2])
    outs = [x, h_outs[0] if len(h_outs) == 1 else g.node("Concat", h_outs, axis=0)]
    if lstm:
        outs.append(c_outs[0] if len(c_outs) == 1 else g.node("Concat", c_outs, axis=0))
    return outs


def _simple(op, **attrs):
    return lambda g, m, x, shape: g.node(op, [x], **attrs)


_LEAVES = {
    nn.Linear: _linear,
    nn.Conv1d: _conv,
    nn.Conv2d: _conv,
    nn.Conv3d: _conv,
    nn.ConvTranspose1d: _conv,
    nn.ConvTranspose2d: _conv,
    nn.ConvTranspose3d: _conv,
    nn.BatchNorm1d: _batch_norm,
    nn.BatchNorm2d: _batch_norm,
    nn.BatchNorm3d: _batch_norm,
    nn.MaxPool1d: _pool,
    nn.MaxPool2d: _pool,
    nn.MaxPool3d: _pool,
    nn.AvgPool1d: _pool,
    nn.AvgPool2d: _pool,
    nn.AvgPool3d: _pool,
    nn.AdaptiveAvgPool1d: _adaptive,
    nn.AdaptiveAvgPool2d: _adaptive,
    nn.AdaptiveAvgPool3d: _adaptive,
    nn.AdaptiveMaxPool1d: _adaptive,
    nn.AdaptiveMaxPool2d: _adaptive,
    nn.AdaptiveMaxPool3d: _adaptive,
    nn.LocalResponseNorm: lambda g, m, x, s: g.node(
        "LRN", [x], size=m.size, alpha=float(m.alpha), beta=float(m.beta), bias=float(m.k)
    ),
    nn.ReLU: _simple("Relu"),
    nn.ReLU6: lambda g, m, x, s: _clip(g, x, 0.0, 6.0),
    nn.Hardtanh: lambda g, m, x, s: _clip(g, x, m.min_val, m.max_val),
    nn.LeakyReLU: lambda g, m, x, s: g.node("LeakyRelu", [x], alpha=float(m.negative_slope)),
    nn.ELU: lambda g, m, x, s: g.node("Elu", [x], alpha=float(m.alpha)),
    nn.CELU: lambda g, m, x, s: g.node("Celu", [x], alpha=float(m.alpha)),
    nn.SELU: _simple("Selu"),
    nn.GELU: _gelu,
    nn.SiLU: lambda g, m, x, s: g.node("Mul", [x, g.node("Sigmoid", [x])]),
    nn.Mish: lambda g, m, x, s: g.node("Mul", [x, g.node("Tanh", [g.node("Softplus", [x])])]),
    nn.PReLU: _prelu,
    nn.Sigmoid: _simple("Sigmoid"),
    nn.Tanh: _simple("Tanh"),
    nn.Hardsigmoid: lambda g, m, x, s: g.node("HardSigmoid", [x], alpha=1 / 6, beta=0.5),
    nn.Hardswish: lambda g, m, x, s: g.node("Mul", [x, g.node("HardSigmoid", [x], alpha=1 / 6, beta=0.5)]),
    nn.Softplus: lambda g, m, x, s: _softplus(g, x, float(m.beta), float(m.threshold)),
    nn.Softsign: _simple("Softsign"),
    nn.Softshrink: lambda g, m, x, s: _shrink(g, x, m.lambd, True),
    nn.Hardshrink: lambda g, m, x, s: _shrink(g, x, m.lambd, False),
    nn.Tanhshrink: lambda g, m, x, s: g.node("Sub", [x, g.node("Tanh", [x])]),
    nn.LogSigmoid: lambda g, m, x, s: g.node("Neg", [g.node("Softplus", [g.node("Neg", [x])])]),
    nn.Threshold: _threshold,
    nn.Softmax: _softmax("Softmax", "attr"),
    nn.LogSoftmax: _softmax("LogSoftmax", "attr"),
    nn.Softmin: _softmax("Softmax", "attr", negate=True),
    nn.Dropout: lambda g, m, x, s: g.node("Identity", [x]),
    nn.Identity: lambda g, m, x, s: g.node("Identity", [x]),
    nn.Flatten: _flatten,
    nn.Embedding: _embedding,
    nn.ZeroPad2d: _pad("constant"),
    nn.ConstantPad1d: _pad("constant"),
    nn.ConstantPad2d: _pad("constant"),
    nn.ConstantPad3d: _pad("constant"),
    nn.ReflectionPad1d: _pad("reflect"),
    nn.ReflectionPad2d: _pad("reflect"),
    nn.ReplicationPad1d: _pad("edge"),
    nn.ReplicationPad2d: _pad("edge"),
    nn.ReplicationPad3d: _pad("edge"),
    nn.PixelShuffle: _pixel_shuffle,
}


def _t7_leaves():
    """The converter's runtime modules that a converted torch7 model is made of."""
    from torch.utils.convert_t7 import runtime

    def affine(g, m, x, s):
        if m.scale != 1.0:
            x = g.node("Mul", [x, g.const(np.asarray(m.scale), "scale")])
        return g.node("Add", [x, g.const(np.asarray(m.shift), "shift")]) if m.shift != 0.0 else x

    def pointwise(g, m, x, s):
        if m.fn == "square":
            return g.node("Mul", [x, x])
        if m.fn == "pow":
            return g.node("Pow", [x, g.const(np.asarray(m.arg), "exponent")])
        return g.node({"abs": "Abs", "exp": "Exp", "log": "Log", "sqrt": "Sqrt"}[m.fn], [x])

    def dropout(g, m, x, s):
        if m.v1:  # torch7's first dropout scales at evaluation
            return g.node("Mul", [x, g.const(np.asarray(1 - m.p), "keep")])
        return g.node("Identity", [x])

    def transpose(g, m, x, s):
        perm = list(range(len(s)))
        for a, b in m.pairs:
            perm[a], perm[b] = perm[b], perm[a]
        return g.node("Transpose", [x], perm=perm)

    return {
        runtime.SoftMax: _t7_softmax,
        runtime.Affine: affine,
        runtime.Pointwise: pointwise,
        runtime.Dropout: dropout,
        runtime.Transpose: transpose,
    }


def _shape_modules():
    """Modules whose output is the input reshaped, to the shape the forward gave."""
    from torch.utils.convert_t7 import runtime

    return (runtime.View, runtime.Reshape, nn.Unflatten)


def _emit_table(g, mod, xs, path, emit, shapes):
    """The converter's torch7 containers and table modules (a value that is a torch7 table is a
    list of graph names here), or None for another module."""
    from torch.utils.convert_t7 import runtime

    children = list(mod.children())
    if isinstance(mod, runtime.ConcatTable):
        return [name for i, c in enumerate(children) for name in emit(c, xs, "%s.%d" % (path, i))]
    if isinstance(mod, runtime.ParallelTable):
        if len(xs) < len(children):
            raise ValueError("torch.onnx.export: %s: %d inputs for %d modules" % (path, len(xs), len(children)))
        outs = []
        for i, c in enumerate(children):
            outs += emit(c, [xs[i]], "%s.%d" % (path, i))
        return outs
    if type(mod) is runtime.Concat:
        outs = [name for i, c in enumerate(children) for name in emit(c, xs, "%s.%d" % (path, i))]
        return [g.node("Concat", outs, axis=mod.dim)]
    if isinstance(mod, runtime.TableOp):
        op = {"add": "Sum", "max": "Max", "min": "Min"}.get(mod.op)
        if op is not None:
            return [g.node(op, list(xs))]
        out = xs[0]
        for x in xs[1:]:
            out = g.node({"sub": "Sub", "mul": "Mul", "div": "Div"}[mod.op], [out, x])
        return [out]
    if isinstance(mod, runtime.JoinTable):
        in_shapes = shapes[id(mod)][0]
        rank = len(in_shapes[0]) if in_shapes and in_shapes[0] is not None else None  # the first element's
        if rank is None:
            raise ValueError("torch.onnx.export: %s: JoinTable's input ranks unknown" % path)
        return [g.node("Concat", list(xs), axis=runtime._batch_dim(mod.dim, rank, mod.n_input_dims))]
    if isinstance(mod, runtime.SelectTable):
        return [xs[mod.index]]
    return None


def export(
    model,
    args,
    f,
    export_params=True,
    verbose=False,
    training=None,
    input_names=None,
    output_names=None,
    opset_version=13,
    do_constant_folding=True,
    dynamic_axes=None,
    keep_initializers_as_inputs=None,
):
    """Writes model (run on args) to f (a path or a binary file) as an ONNX model checked by
    onnx.checker; Note [Export by module, not by trace] says which models. Returns None."""
    onnx, helper, _ = _onnx()
    if not export_params:
        raise ValueError("torch.onnx.export: export_params=False is not supported; the weights are written")
    if opset_version < 11:
        raise ValueError("torch.onnx.export: opset_version %d; 11 or later is supported" % opset_version)
    if training not in (None, False) and str(training) not in ("TrainingMode.EVAL",):
        raise ValueError("torch.onnx.export: only evaluation mode is exported")
    args = args if isinstance(args, tuple) else (args,)
    if not args or not all(torch.is_tensor(a) for a in args):
        raise ValueError("torch.onnx.export: args must be a tensor or a tuple of tensors")
    dynamic_axes = dynamic_axes or {}

    was_training = model.training
    model.eval()
    try:
        shapes = {}
        hooks = []
        leaves = dict(_LEAVES)
        leaves.update(_t7_leaves())
        shape_mods = _shape_modules()

        def shape_of(v):  # a table's: its first element's
            if torch.is_tensor(v):
                return tuple(v.shape)
            return shape_of(v[0]) if isinstance(v, (list, tuple)) and v else None

        def record(mod, inputs, output):
            shapes[id(mod)] = ([shape_of(i) for i in inputs], output)

        for mod in model.modules():
            hooks.append(mod.register_forward_hook(record))
        with torch.no_grad():
            outputs = model(*args)
        for h in hooks:
            h.remove()
        outputs = outputs if isinstance(outputs, (tuple, list)) else (outputs,)
        flat_outputs = []
        for o in outputs:
            if isinstance(o, (tuple, list)):
                flat_outputs += list(o)
            else:
                flat_outputs.append(o)

        params = [p for p in list(model.parameters()) + list(model.buffers()) if p.is_floating_point()]
        dtype = params[0].dtype if params else args[0].dtype
        if dtype not in _NP_TYPES:
            raise ValueError("torch.onnx.export: a model of %s; float32 or float64 is supported" % dtype)
        g = _Graph(dtype, opset_version)
        in_names = list(input_names or []) + ["input_%d" % i for i in range(len(input_names or []), len(args))]
        batch_dynamic = any(0 in _axes(dynamic_axes.get(n)) for n in in_names)

        def emit(mod, xs, path):
            t = type(mod)
            if t is nn.Sequential:
                x = xs
                for i, child in enumerate(mod.children()):
                    x = emit(child, x, "%s.%d" % (path, i))
                return x
            table = _emit_table(g, mod, xs, path, emit, shapes)
            if table is not None:
                return table
            if id(mod) not in shapes:
                raise ValueError("torch.onnx.export: %s (%s) did not run in the forward" % (path, t.__name__))
            in_shapes, out = shapes[id(mod)]
            if isinstance(mod, (nn.LSTM, nn.GRU)):
                if len(xs) != 1:
                    raise ValueError("torch.onnx.export: %s with an initial state is not supported" % path)
                return _rnn(g, mod, xs[0], in_shapes[0])
            if t is nn.Bilinear:
                return [_bilinear(g, mod, xs, in_shapes)]
            if isinstance(mod, shape_mods):
                return [_reshape_to_output(g, mod, xs[0], in_shapes[0], tuple(out.shape), batch_dynamic)]
            if t is nn.Upsample:
                return [_upsample(g, mod, xs[0], in_shapes[0], tuple(out.shape))]
            translate = leaves.get(t)
            if translate is None:
                raise ValueError(
                    "torch.onnx.export: %s (%s) has no ONNX translation; covered: nn.Sequential of the modules "
                    "listed in torch.onnx's documentation" % (path, t.__name__)
                )
            if len(xs) != 1:
                raise ValueError("torch.onnx.export: %s (%s) takes one input, got %d" % (path, t.__name__, len(xs)))
            return [translate(g, mod, xs[0], in_shapes[0])]

        result = emit(model, list(in_names), "model")
        if isinstance(result, str):
            result = [result]
        out_names = list(output_names or []) + ["output_%d" % i for i in range(len(output_names or []), len(result))]
        if len(result) != len(flat_outputs) or len(out_names) != len(result):
            raise ValueError(
                "torch.onnx.export: the model gives %d outputs, the graph %d, %d names"
                % (len(flat_outputs), len(result), len(out_names))
            )
        for got, name in zip(result, out_names):
            g.nodes.append(helper.make_node("Identity", [got], [name], name=g.name("output")))

        def value_info(name, t):
            elem = onnx.helper.np_dtype_to_tensor_dtype(np.dtype(_NP_TYPES.get(t.dtype, np.int64)))
            axes = _axes(dynamic_axes.get(name))
            dims = [axes[d] if d in axes else int(s) for d, s in enumerate(t.shape)]
            return helper.make_tensor_value_info(name, elem, dims)

        graph = helper.make_graph(
            g.nodes,
            type(model).__name__,
            [value_info(n, a) for n, a in zip(in_names, args)],
            [value_info(n, o) for n, o in zip(out_names, flat_outputs)],
            initializer=g.initializers,
        )
        proto = helper.make_model(
            graph,
            producer_name="torch-monorepo",
            opset_imports=[helper.make_opsetid("", opset_version)],
        )
        proto.ir_version = min(proto.ir_version, 8)
        onnx.checker.check_model(proto)
        data = proto.SerializeToString()
        if verbose:
            print(helper.printable_graph(graph))
        if isinstance(f, (str, bytes)) or hasattr(f, "__fspath__"):
            with open(f, "wb") as out:
                out.write(data)
        elif isinstance(f, io.IOBase) or hasattr(f, "write"):
            f.write(data)
        else:
            raise TypeError("torch.onnx.export: f must be a path or a binary file, got %s" % type(f).__name__)
    finally:
        model.train(was_training)


def _axes(spec):
    """dynamic_axes' value for one name ({axis: name} or [axes]) as {axis: name}."""
    if spec is None:
        return {}
    if isinstance(spec, dict):
        return {int(k): str(v) for k, v in spec.items()}
    return {int(a): "dim_%d" % int(a) for a in spec}
