"""torch7 models (.t7) to torch.nn modules and back.

    python -m torch.utils.convert_t7 model.t7 out.pt [--emit-python model.py]
        [--reference io.t7] [--input-size 2,3,224,224] [--tolerance T] [--save-module whole.pt]

reads a torch7 model with load_lua, converts it (convert), checks the converted module
against a reference on one input and prints the largest difference, and only when that is
within the tolerance saves the state_dict with torch.save (and, if asked, Python source that
rebuilds the model class: emit_python). The reference is, in this order: a .t7 table with
`input` and `output` recorded by torch7 (--reference), else the loaded model's own `forward`
(torch.legacy.nn) on a random input; a model with neither is converted and saved with a
"no reference" notice. Exit status: 0 saved, 1 refused (difference above the tolerance),
2 cannot convert or read.

From Python:
    model = convert(load_lua("model.t7"))      # a torch.nn.Module with the weights copied
    emit_python(model, "model.py")            # `class Model` that load_state_dict accepts
    to_t7(torch_nn_model, "back.t7")           # the reverse, as torch7 nn objects (save_lua)

Note [torch7 semantics kept]: what torch7 decides from the input at run time is decided the
same way here, by the small modules below rather than by fixed torch.nn layers:
- batch dimensions: nn.View(128) on a 4-D batch input views to (N, 128); JoinTable, Sum,
  Mean, Padding with nInputDims shift their dimension by one for a batch input;
- SoftMax / LogSoftMax: over dimension 0 of a 1-D or 3-D input, 1 of a 2-D or 4-D one;
- Dropout before nn's v2 (and SpatialDropout) scale by (1 - p) at evaluation, not in training.
Dimensions and indices are stored 0-based in these modules (torch7's are 1-based).
"""

import argparse
import copy
import inspect
import math
import sys

import torch
from torch import nn
from torch.utils.serialization import load_lua, save_lua

__all__ = ["convert", "check", "emit_python", "to_t7", "ConversionError", "main",
           "Concat", "DepthConcat", "ConcatTable", "ParallelTable", "Parallel", "TableOp", "JoinTable",
           "SelectTable", "NarrowTable", "FlattenTable", "View", "Reshape", "Padding", "Narrow", "Select",
           "Reduce", "SoftMax", "Dropout", "Affine", "Pointwise", "Transpose", "Replicate", "Unsqueeze",
           "Squeeze", "Graph"]


class ConversionError(ValueError):
    """A module that cannot be converted (unknown class, unsupported setting), with its path."""


# ------------------------------------------------------------ modules torch.nn lacks

class _T7Module(nn.Module):
    """Base of the modules below: `_t7_args()` gives the constructor arguments (emit_python)."""

    def _t7_args(self):
        raise NotImplementedError


class _Container(_T7Module):
    def __init__(self, *modules):
        super().__init__()
        for i, m in enumerate(modules):
            self.add_module(str(i), m)

    def _t7_args(self):
        return list(self.children()), {}


class Concat(_Container):
    """torch7's nn.Concat: every module on the same input, outputs joined along `dim`."""

    def __init__(self, dim, *modules):
        super().__init__(*modules)
        self.dim = dim

    def forward(self, x):
        return torch.cat([m(x) for m in self.children()], self.dim)

    def _t7_args(self):
        return [self.dim] + list(self.children()), {}


class DepthConcat(Concat):
    """torch7's nn.DepthConcat: like Concat, smaller outputs centred in zeros to the largest size."""

    def forward(self, x):
        outs = [m(x) for m in self.children()]
        dims = outs[0].dim()
        target = [max(o.shape[d] for o in outs) for d in range(dims)]
        padded = []
        for o in outs:
            pad = []
            for d in reversed(range(dims)):
                extra = 0 if d == self.dim % dims else target[d] - o.shape[d]
                pad += [extra // 2, extra - extra // 2]
            padded.append(nn.functional.pad(o, pad) if any(pad) else o)
        return torch.cat(padded, self.dim)


class ConcatTable(_Container):
    """torch7's nn.ConcatTable: every module on the same input, a list of the outputs."""

    def forward(self, x):
        return [m(x) for m in self.children()]


class ParallelTable(_Container):
    """torch7's nn.ParallelTable: module i on input i."""

    def forward(self, xs):
        return [m(x) for m, x in zip(self.children(), xs)]


class Parallel(_Container):
    """torch7's nn.Parallel: module i on input.select(in_dim, i), outputs joined along out_dim."""

    def __init__(self, in_dim, out_dim, *modules):
        super().__init__(*modules)
        self.in_dim, self.out_dim = in_dim, out_dim

    def forward(self, x):
        modules = list(self.children())
        if x.shape[self.in_dim] > len(modules):
            raise RuntimeError("Parallel: input has %d slices along dimension %d but there are %d modules"
                               % (x.shape[self.in_dim], self.in_dim, len(modules)))
        return torch.cat([m(x.select(self.in_dim, i)) for i, m in enumerate(modules[:x.shape[self.in_dim]])],
                         self.out_dim)

    def _t7_args(self):
        return [self.in_dim, self.out_dim] + list(self.children()), {}


class TableOp(_T7Module):
    """torch7's CAddTable, CSubTable, CMulTable, CDivTable, CMaxTable, CMinTable on a list."""

    _OPS = {"add": torch.add, "sub": torch.sub, "mul": torch.mul, "div": torch.div, "max": torch.max,
            "min": torch.min}

    def __init__(self, op):
        super().__init__()
        if op not in self._OPS:
            raise ValueError("TableOp: unknown op %r" % (op,))
        self.op = op

    def forward(self, xs):
        out = xs[0]
        for x in xs[1:]:
            out = self._OPS[self.op](out, x)
        return out

    def _t7_args(self):
        return [self.op], {}


def _batch_dim(dim, ndim, n_input_dims):
    """torch7's dimension rule: negative from the end, else shifted by one for a batch input."""
    if dim < 0:
        return ndim + dim
    if n_input_dims is not None and ndim == n_input_dims + 1:
        return dim + 1
    return dim


class JoinTable(_T7Module):
    """torch7's nn.JoinTable(dimension, nInputDims); dim 0-based."""

    def __init__(self, dim, n_input_dims=None):
        super().__init__()
        self.dim, self.n_input_dims = dim, n_input_dims

    def forward(self, xs):
        return torch.cat(list(xs), _batch_dim(self.dim, xs[0].dim(), self.n_input_dims))

    def _t7_args(self):
        return [self.dim, self.n_input_dims], {}


class SelectTable(_T7Module):
    """torch7's nn.SelectTable; index 0-based, negative from the end."""

    def __init__(self, index):
        super().__init__()
        self.index = index

    def forward(self, xs):
        return xs[self.index]

    def _t7_args(self):
        return [self.index], {}


class NarrowTable(_T7Module):
    """torch7's nn.NarrowTable(offset, length); offset 0-based, a negative length counts from the end."""

    def __init__(self, offset, length=1):
        super().__init__()
        self.offset, self.length = offset, length

    def forward(self, xs):
        length = self.length if self.length >= 0 else len(xs) - self.offset + self.length + 1
        return list(xs[self.offset:self.offset + length])

    def _t7_args(self):
        return [self.offset, self.length], {}


class FlattenTable(_T7Module):
    """torch7's nn.FlattenTable: nested lists as one flat list."""

    def forward(self, xs):
        out = []

        def walk(x):
            if isinstance(x, (list, tuple)):
                for y in x:
                    walk(y)
            else:
                out.append(x)
        walk(xs)
        return out

    def _t7_args(self):
        return [], {}


class View(_T7Module):
    """torch7's nn.View(sizes) with setNumInputDims (Note [torch7 semantics kept])."""

    def __init__(self, sizes, num_input_dims=None):
        super().__init__()
        self.sizes = [int(s) for s in sizes]
        self.num_input_dims = num_input_dims
        self.num_elements = 1
        for s in self.sizes:
            if s >= 0:
                self.num_elements *= s

    def forward(self, x):
        ndim = x.dim()
        maxdim = self.num_input_dims if self.num_input_dims is not None else ndim
        inner = 1
        for d in range(ndim - 1, ndim - maxdim - 1, -1):
            inner *= x.shape[d]
        if inner % self.num_elements != 0:
            raise RuntimeError("View: input of size %s does not match the view %s" % (tuple(x.shape), self.sizes))
        batch = 1 if -1 in self.sizes else inner // self.num_elements
        for d in range(ndim - maxdim):
            batch *= x.shape[d]
        if batch == 1 and (self.num_input_dims is None or ndim <= self.num_input_dims):
            return x.reshape(self.sizes)
        return x.reshape([batch] + self.sizes)

    def _t7_args(self):
        return [self.sizes, self.num_input_dims], {}


class Reshape(_T7Module):
    """torch7's nn.Reshape(sizes, batchMode): batch mode unless the input has exactly the
    size's elements (and a first dimension other than 1), or as batch_mode forces."""

    def __init__(self, sizes, batch_mode=None):
        super().__init__()
        self.sizes = [int(s) for s in sizes]
        self.batch_mode = batch_mode
        self.num_elements = 1
        for s in self.sizes:
            self.num_elements *= s

    def forward(self, x):
        if self.batch_mode is False or (self.batch_mode is None and x.numel() == self.num_elements
                                        and x.shape[0] != 1):
            return x.reshape(self.sizes)
        return x.reshape([x.shape[0]] + self.sizes)

    def _t7_args(self):
        return [self.sizes, self.batch_mode], {}


class Padding(_T7Module):
    """torch7's nn.Padding(dim, pad, nInputDim, value, index); dim 0-based, index 1-based as in torch7."""

    def __init__(self, dim, pad, n_input_dim=None, value=0.0, index=1):
        super().__init__()
        self.dim, self.pad, self.n_input_dim, self.value, self.index = dim, pad, n_input_dim, value, index

    def forward(self, x):
        dim = self.dim
        if self.n_input_dim is not None and x.dim() != self.n_input_dim:
            dim += 1
        size = x.shape[dim]
        # index (0-based) counts from the end for a positive pad, from the start otherwise
        index, pad = (size - self.index, self.pad) if self.pad > 0 else (self.index, -self.pad)
        shape = list(x.shape)
        shape[dim] = pad
        fill = torch.full(shape, self.value, dtype=x.dtype)
        before, after = x.narrow(dim, 0, index), x.narrow(dim, index, size - index)
        return torch.cat([before, fill, after], dim)

    def _t7_args(self):
        return [self.dim, self.pad, self.n_input_dim, self.value, self.index], {}


class Narrow(_T7Module):
    """torch7's nn.Narrow(dimension, offset, length); dim and offset 0-based, a negative length
    ends that many elements before the end (-1: up to the last)."""

    def __init__(self, dim, offset, length=1):
        super().__init__()
        self.dim, self.offset, self.length = dim, offset, length

    def forward(self, x):
        dim = self.dim if self.dim >= 0 else x.dim() + self.dim
        length = self.length if self.length >= 0 else x.shape[dim] - self.offset + self.length + 1
        return x.narrow(dim, self.offset, length)

    def _t7_args(self):
        return [self.dim, self.offset, self.length], {}


class Select(_T7Module):
    """torch7's nn.Select(dimension, index); both 0-based, negative from the end."""

    def __init__(self, dim, index):
        super().__init__()
        self.dim, self.index = dim, index

    def forward(self, x):
        return x.select(self.dim, self.index)

    def _t7_args(self):
        return [self.dim, self.index], {}


class Reduce(_T7Module):
    """torch7's nn.Sum / Mean / Max / Min(dimension, nInputDims) (values only)."""

    def __init__(self, op, dim, n_input_dims=None, squeeze=True):
        super().__init__()
        self.op, self.dim, self.n_input_dims, self.squeeze = op, dim, n_input_dims, squeeze

    def forward(self, x):
        dim = _batch_dim(self.dim, x.dim(), self.n_input_dims)
        if self.op == "sum":
            out = x.sum(dim, keepdim=True)
        elif self.op == "mean":
            out = x.mean(dim, keepdim=True)
        elif self.op == "max":
            out = x.max(dim, keepdim=True)[0]
        else:
            out = x.min(dim, keepdim=True)[0]
        return out.squeeze(dim) if self.squeeze and out.dim() > 1 else out

    def _t7_args(self):
        return [self.op, self.dim, self.n_input_dims, self.squeeze], {}


class SoftMax(_T7Module):
    """torch7's nn.SoftMax / LogSoftMax / SoftMin: over dimension 0 of a 1-D or 3-D input, else 1."""

    def __init__(self, log=False, negate=False):
        super().__init__()
        self.log, self.negate = log, negate

    def forward(self, x):
        dim = 0 if x.dim() in (1, 3) else 1
        if self.negate:
            x = -x
        return torch.log_softmax(x, dim) if self.log else torch.softmax(x, dim)

    def _t7_args(self):
        return [], {"log": self.log, "negate": self.negate}


class Dropout(_T7Module):
    """torch7's dropouts: nn.Dropout (v2 scales by 1/(1-p) in training; v1 by (1-p) at
    evaluation) and nn.SpatialDropout (whole feature maps, dimension 1 of a batch; v1-style)."""

    def __init__(self, p=0.5, v1=False, spatial=False):
        super().__init__()
        self.p, self.v1, self.spatial = p, v1, spatial

    def forward(self, x):
        if not self.training:
            return x * (1 - self.p) if self.v1 else x
        shape = list(x.shape)
        if self.spatial:
            keep = 2 if x.dim() in (4, 5) else 1  # a batch of maps, or one sample's maps
            shape = shape[:keep] + [1] * (len(shape) - keep)
        mask = torch.empty(shape, dtype=x.dtype).bernoulli_(1 - self.p)
        if not self.v1:
            mask = mask / (1 - self.p)
        return x * mask

    def _t7_args(self):
        return [self.p], {"v1": self.v1, "spatial": self.spatial}


class Affine(_T7Module):
    """torch7's MulConstant and AddConstant: x * scale + shift."""

    def __init__(self, scale=1.0, shift=0.0):
        super().__init__()
        self.scale, self.shift = scale, shift

    def forward(self, x):
        return x * self.scale + self.shift

    def _t7_args(self):
        return [], {"scale": self.scale, "shift": self.shift}


class Pointwise(_T7Module):
    """torch7's Abs, Exp, Log, Sqrt, Square, Power(p)."""

    def __init__(self, fn, arg=None):
        super().__init__()
        if fn not in ("abs", "exp", "log", "sqrt", "square", "pow"):
            raise ValueError("Pointwise: unknown function %r" % (fn,))
        self.fn, self.arg = fn, arg

    def forward(self, x):
        if self.fn == "square":
            return x * x
        if self.fn == "pow":
            return x.pow(self.arg)
        return getattr(torch, self.fn)(x)

    def _t7_args(self):
        return [self.fn, self.arg], {}


class Transpose(_T7Module):
    """torch7's nn.Transpose({a, b}, ...): the swaps in order (0-based)."""

    def __init__(self, *pairs):
        super().__init__()
        self.pairs = [tuple(p) for p in pairs]

    def forward(self, x):
        for a, b in self.pairs:
            x = x.transpose(a, b)
        return x

    def _t7_args(self):
        return [list(p) for p in self.pairs], {}


class Replicate(_T7Module):
    """torch7's nn.Replicate(n, dim, ndim): n copies along a new dimension dim (0-based)."""

    def __init__(self, n, dim=0, n_dim=None):
        super().__init__()
        self.n, self.dim, self.n_dim = n, dim, n_dim

    def forward(self, x):
        dim = self.dim + 1 if self.n_dim is not None and x.dim() == self.n_dim + 1 else self.dim
        shape = list(x.shape)
        return x.unsqueeze(dim).expand(shape[:dim] + [self.n] + shape[dim:])

    def _t7_args(self):
        return [self.n, self.dim, self.n_dim], {}


class Unsqueeze(_T7Module):
    """torch7's nn.Unsqueeze(pos, numInputDims); pos 0-based."""

    def __init__(self, dim, num_input_dims=None):
        super().__init__()
        self.dim, self.num_input_dims = dim, num_input_dims

    def forward(self, x):
        return x.unsqueeze(_batch_dim(self.dim, x.dim(), self.num_input_dims))

    def _t7_args(self):
        return [self.dim, self.num_input_dims], {}


class Squeeze(_T7Module):
    """torch7's nn.Squeeze(dim, numInputDims); dim 0-based, None squeezes every size-1 dimension."""

    def __init__(self, dim=None, num_input_dims=None):
        super().__init__()
        self.dim, self.num_input_dims = dim, num_input_dims

    def forward(self, x):
        if self.dim is None:
            return x.squeeze()
        return x.squeeze(_batch_dim(self.dim, x.dim(), self.num_input_dims))

    def _t7_args(self):
        return [self.dim, self.num_input_dims], {}


class Graph(_T7Module):
    """nngraph's gModule. `nodes` in evaluation order: (module index or None, select index or
    None, indices of the nodes whose outputs are this node's inputs, in order); node
    `input_node` receives the graph's input(s), node `output_node` gives its output."""

    def __init__(self, modules, nodes, input_node, output_node, n_inputs=1):
        super().__init__()
        self.layers = nn.ModuleList(modules)
        self.nodes = [(m, s, list(i)) for m, s, i in nodes]
        self.input_node, self.output_node, self.n_inputs = input_node, output_node, n_inputs

    def forward(self, *inputs):
        if len(inputs) == 1 and self.n_inputs > 1:
            inputs = tuple(inputs[0])
        if len(inputs) != max(self.n_inputs, 1):
            raise RuntimeError("Graph: expected %d inputs, got %d" % (self.n_inputs, len(inputs)))
        values = {}
        for k, (module, select, sources) in enumerate(self.nodes):
            args = list(inputs) if k == self.input_node else [values[j] for j in sources]
            x = args[0] if len(args) == 1 else args
            if select is not None:
                out = x[select]
            elif module is not None:
                out = self.layers[module](x)
            else:
                out = x
            values[k] = out
        return values[self.output_node]

    def _t7_args(self):
        return [list(self.layers), self.nodes, self.input_node, self.output_node, self.n_inputs], {}


# ------------------------------------------------------------ torch7 -> torch.nn

def _typename(m):
    name = getattr(type(m), "torch_typename", None)
    if callable(name) and name() is not None:
        return name()
    return type(m).__name__


def _field(m, name, default=None):
    if isinstance(m, dict):
        return m.get(name, default)
    return getattr(m, name, default)


def _int(m, name, default=None):
    v = _field(m, name, default)
    if v is None:
        raise ConversionError("%s has no field %r" % (_typename(m), name))
    return int(v)


def _opt_int(m, name):
    v = _field(m, name)
    return None if v is None else int(v)


def _tensor(m, name):
    v = _field(m, name)
    return v if torch.is_tensor(v) and v.numel() > 0 else None


def _param(t, shape=None):
    t = t.detach().clone()
    return nn.Parameter(t.reshape(shape) if shape is not None else t)


def _modules_of(m):
    modules = _field(m, "modules") or []
    if isinstance(modules, dict):  # a table with holes: keys 1..n, some missing
        modules = [modules[k] for k in sorted(modules)]
    return list(modules)


def _conv(m, dims, path):
    """SpatialConvolution(MM), SpatialDilatedConvolution, VolumetricConvolution (and cudnn's groups)."""
    n_in, n_out = _int(m, "nInputPlane"), _int(m, "nOutputPlane")
    groups = _int(m, "groups", 1)
    names = "TWH" if dims == 3 else "WH"
    k = [_int(m, "k" + a) for a in names]
    d = [_int(m, "d" + a, 1) for a in names]
    legacy_pad = _field(m, "padding")  # nn before padW/padH: one padding for both
    p = [_int(m, "pad" + a, legacy_pad if legacy_pad is not None else 0) for a in names]
    dil = [_int(m, "dilation" + a, 1) for a in names]
    # torch7 lists W before H; torch.nn wants (H, W) / (T, H, W)
    rev = (lambda v: (v[0], v[2], v[1])) if dims == 3 else (lambda v: (v[1], v[0]))
    weight, bias = _tensor(m, "weight"), _tensor(m, "bias")
    if weight is None:
        raise ConversionError("%s: %s has no weight" % (path, _typename(m)))
    cls = nn.Conv3d if dims == 3 else nn.Conv2d
    out = cls(n_in, n_out, rev(k), stride=rev(d), padding=rev(p), dilation=rev(dil), groups=groups,
              bias=bias is not None)
    shape = (n_out, n_in // groups) + rev(k)
    if weight.numel() != math.prod(shape):
        raise ConversionError("%s: weight of %d elements for a %s of %s" % (path, weight.numel(), _typename(m),
                                                                           shape))
    out.weight = _param(weight, shape)  # SpatialConvolutionMM keeps it as (out, in*kH*kW)
    if bias is not None:
        out.bias = _param(bias)
    return out


def _full_conv(m, dims, path):
    n_in, n_out = _int(m, "nInputPlane"), _int(m, "nOutputPlane")
    names = "TWH" if dims == 3 else "WH"
    k = [_int(m, "k" + a) for a in names]
    d = [_int(m, "d" + a, 1) for a in names]
    p = [_int(m, "pad" + a, 0) for a in names]
    adj = [_int(m, "adj" + a, 0) for a in names]
    rev = (lambda v: (v[0], v[2], v[1])) if dims == 3 else (lambda v: (v[1], v[0]))
    weight, bias = _tensor(m, "weight"), _tensor(m, "bias")
    cls = nn.ConvTranspose3d if dims == 3 else nn.ConvTranspose2d
    out = cls(n_in, n_out, rev(k), stride=rev(d), padding=rev(p), output_padding=rev(adj), bias=bias is not None)
    out.weight = _param(weight, (n_in, n_out) + rev(k))
    if bias is not None:
        out.bias = _param(bias)
    return out


def _linear(m, path):
    weight, bias = _tensor(m, "weight"), _tensor(m, "bias")
    if weight is None or weight.dim() != 2:
        raise ConversionError("%s: nn.Linear needs a 2-D weight" % path)
    out = nn.Linear(weight.shape[1], weight.shape[0], bias=bias is not None)
    out.weight = _param(weight)
    if bias is not None:
        out.bias = _param(bias)
    return out


def _batch_norm(m, dims, path):
    mean, var = _tensor(m, "running_mean"), _tensor(m, "running_var")
    if mean is None or var is None:
        raise ConversionError("%s: %s without running statistics" % (path, _typename(m)))
    weight, bias = _tensor(m, "weight"), _tensor(m, "bias")
    affine = weight is not None
    cls = {1: nn.BatchNorm1d, 2: nn.BatchNorm2d, 3: nn.BatchNorm3d}[dims]
    out = cls(mean.numel(), eps=float(_field(m, "eps", 1e-5)), momentum=float(_field(m, "momentum", 0.1)),
              affine=affine)
    if affine:
        out.weight = _param(weight)
        out.bias = _param(bias) if bias is not None else _param(torch.zeros_like(weight))
    out.running_mean = mean.detach().clone().to(var.dtype)
    out.running_var = var.detach().clone()
    return out


def _pool(m, path, kind):
    k = (_int(m, "kH"), _int(m, "kW"))
    d = (_int(m, "dH", k[0]), _int(m, "dW", k[1]))
    p = (_int(m, "padH", 0), _int(m, "padW", 0))
    ceil = bool(_field(m, "ceil_mode", False))
    if kind == "max":
        return nn.MaxPool2d(k, d, p, ceil_mode=ceil)
    pool = nn.AvgPool2d(k, d, p, ceil_mode=ceil, count_include_pad=bool(_field(m, "count_include_pad", True)))
    if _field(m, "divide", True):
        return pool
    if not pool.count_include_pad:
        raise ConversionError("%s: SpatialAveragePooling with divide=false and count_include_pad=false" % path)
    return nn.Sequential(pool, Affine(scale=float(k[0] * k[1])))


def _pool3d(m, path, kind):
    k = (_int(m, "kT"), _int(m, "kH"), _int(m, "kW"))
    d = (_int(m, "dT", k[0]), _int(m, "dH", k[1]), _int(m, "dW", k[2]))
    p = (_int(m, "padT", 0), _int(m, "padH", 0), _int(m, "padW", 0))
    ceil = bool(_field(m, "ceil_mode", False))
    if kind == "max":
        return nn.MaxPool3d(k, d, p, ceil_mode=ceil)
    return nn.AvgPool3d(k, d, p, ceil_mode=ceil)


def _dim0(m, name, default=0):
    """A dimension or position field: 0-based (load_lua shifted torch7's 1-based ones, Note
    [1-based fields] in torch/legacy/nn/t7fields.py), or negative from the end."""
    return _int(m, name, default)


def _n_input_dims(m, name="nInputDims"):
    return _opt_int(m, name)


def _adaptive_size(m):
    # nn names them W and H; PyTorch 0.4's reader renamed them w and h
    return (_int(m, "H") if _field(m, "H") is not None else _int(m, "h"),
            _int(m, "W") if _field(m, "W") is not None else _int(m, "w"))


def _prelu(m, path):
    weight = _tensor(m, "weight")
    out = nn.PReLU(weight.numel())
    out.weight = _param(weight.reshape(-1))
    return out


def _container(cls):
    def build(m, path, conv):
        return cls(*[conv(c, "%s.%d" % (path, i + 1)) for i, c in enumerate(_modules_of(m))])
    return build


def _graph(m, path, conv):
    """nngraph's gModule: its forward nodes in order, inputs found through each node's mapindex."""
    fnodes = list(_field(m, "forwardnodes") or [])
    if not fnodes:
        raise ConversionError("%s: nn.gModule without forwardnodes" % path)
    index = {id(_field(n, "data")): k for k, n in enumerate(fnodes)}
    modules, nodes = [], []
    innode, outnode = _field(m, "innode"), _field(m, "outnode")
    for k, node in enumerate(fnodes):
        data = _field(node, "data")
        mapindex = data.get("mapindex") or {}
        positions = sorted(key for key in mapindex if isinstance(key, float))
        sources = []
        for pos in positions:
            source = index.get(id(mapindex[pos]))
            if source is None:
                raise ConversionError("%s: node %d takes an input from outside the graph" % (path, k))
            sources.append(source)
        module = data.get("module")
        select = data.get("selectindex")
        mod_index = None
        if module is not None:
            modules.append(conv(module, "%s.node%d" % (path, k)))
            mod_index = len(modules) - 1
        nodes.append((mod_index, None if select is None else int(select) - 1, sources))
    try:
        input_node = index[id(_field(innode, "data"))]
        output_node = index[id(_field(outnode, "data"))]
    except (KeyError, TypeError):
        raise ConversionError("%s: gModule's innode or outnode is not among its forwardnodes" % path) from None
    n_inputs = _opt_int(m, "nInputs") or 1
    return Graph(modules, nodes, input_node, output_node, n_inputs)


def _wrapped(m, path, conv):
    """cunn's DataParallelTable and nn.GPU hold the model as their first module."""
    modules = _modules_of(m)
    if not modules:
        raise ConversionError("%s: %s holds no module" % (path, _typename(m)))
    return conv(modules[0], path + ".1")


# class name (without the package) -> builder(m, path) or builder(m, path, conv) for containers
_SIMPLE = {
    "Linear": _linear,
    "SpatialConvolution": lambda m, p: _conv(m, 2, p),
    "SpatialConvolutionMM": lambda m, p: _conv(m, 2, p),
    "SpatialDilatedConvolution": lambda m, p: _conv(m, 2, p),
    "VolumetricConvolution": lambda m, p: _conv(m, 3, p),
    "VolumetricDilatedConvolution": lambda m, p: _conv(m, 3, p),
    "SpatialFullConvolution": lambda m, p: _full_conv(m, 2, p),
    "VolumetricFullConvolution": lambda m, p: _full_conv(m, 3, p),
    "BatchNormalization": lambda m, p: _batch_norm(m, 1, p),
    "SpatialBatchNormalization": lambda m, p: _batch_norm(m, 2, p),
    "VolumetricBatchNormalization": lambda m, p: _batch_norm(m, 3, p),
    "SpatialMaxPooling": lambda m, p: _pool(m, p, "max"),
    "SpatialAveragePooling": lambda m, p: _pool(m, p, "avg"),
    "VolumetricMaxPooling": lambda m, p: _pool3d(m, p, "max"),
    "VolumetricAveragePooling": lambda m, p: _pool3d(m, p, "avg"),
    "SpatialAdaptiveMaxPooling": lambda m, p: nn.AdaptiveMaxPool2d(_adaptive_size(m)),
    "SpatialAdaptiveAveragePooling": lambda m, p: nn.AdaptiveAvgPool2d(_adaptive_size(m)),
    "SpatialCrossMapLRN": lambda m, p: nn.LocalResponseNorm(_int(m, "size", 5), float(_field(m, "alpha", 1e-4)),
                                                            float(_field(m, "beta", 0.75)),
                                                            float(_field(m, "k", 1.0))),
    "SpatialUpSamplingNearest": lambda m, p: nn.Upsample(scale_factor=float(_field(m, "scale_factor")),
                                                         mode="nearest"),
    "SpatialZeroPadding": lambda m, p: nn.ZeroPad2d((_int(m, "pad_l"), _int(m, "pad_r"), _int(m, "pad_t"),
                                                     _int(m, "pad_b"))),
    "SpatialReflectionPadding": lambda m, p: nn.ReflectionPad2d((_int(m, "pad_l"), _int(m, "pad_r"),
                                                                 _int(m, "pad_t"), _int(m, "pad_b"))),
    "SpatialReplicationPadding": lambda m, p: nn.ReplicationPad2d((_int(m, "pad_l"), _int(m, "pad_r"),
                                                                   _int(m, "pad_t"), _int(m, "pad_b"))),
    # activations
    "ReLU": lambda m, p: (nn.ReLU() if float(_field(m, "threshold", 0)) == 0 and float(_field(m, "val", 0)) == 0
                          else nn.Threshold(float(_field(m, "threshold")), float(_field(m, "val")))),
    "Threshold": lambda m, p: nn.Threshold(float(_field(m, "threshold", 1e-6)), float(_field(m, "val", 0))),
    "ReLU6": lambda m, p: nn.ReLU6(),
    "Tanh": lambda m, p: nn.Tanh(),
    "Sigmoid": lambda m, p: nn.Sigmoid(),
    "HardTanh": lambda m, p: nn.Hardtanh(float(_field(m, "min_val", -1)), float(_field(m, "max_val", 1))),
    "Clamp": lambda m, p: nn.Hardtanh(float(_field(m, "min_val")), float(_field(m, "max_val"))),
    "LeakyReLU": lambda m, p: nn.LeakyReLU(float(_field(m, "negval", 0.01))),
    "ELU": lambda m, p: nn.ELU(float(_field(m, "alpha", 1.0))),
    "PReLU": _prelu,
    "SoftPlus": lambda m, p: nn.Softplus(float(_field(m, "beta", 1)), float(_field(m, "threshold", 20))),
    "SoftSign": lambda m, p: nn.Softsign(),
    "LogSigmoid": lambda m, p: nn.LogSigmoid(),
    "SoftShrink": lambda m, p: nn.Softshrink(float(_field(m, "lambda", 0.5))),
    "HardShrink": lambda m, p: nn.Hardshrink(float(_field(m, "lambda", 0.5))),
    "TanhShrink": lambda m, p: nn.Tanhshrink(),
    "SoftMax": lambda m, p: SoftMax(),
    "LogSoftMax": lambda m, p: SoftMax(log=True),
    "SoftMin": lambda m, p: SoftMax(negate=True),
    "SpatialSoftMax": lambda m, p: SoftMax(),
    "SpatialLogSoftMax": lambda m, p: SoftMax(log=True),
    "Abs": lambda m, p: Pointwise("abs"),
    "Exp": lambda m, p: Pointwise("exp"),
    "Log": lambda m, p: Pointwise("log"),
    "Sqrt": lambda m, p: Pointwise("sqrt"),
    "Square": lambda m, p: Pointwise("square"),
    "Power": lambda m, p: Pointwise("pow", float(_field(m, "pow"))),
    "MulConstant": lambda m, p: Affine(scale=float(_field(m, "constant_scalar"))),
    "AddConstant": lambda m, p: Affine(shift=float(_field(m, "constant_scalar"))),
    # regularisation and shapes
    "Dropout": lambda m, p: (nn.Dropout(float(_field(m, "p", 0.5))) if _field(m, "v2", True)
                             else Dropout(float(_field(m, "p", 0.5)), v1=True)),
    "SpatialDropout": lambda m, p: Dropout(float(_field(m, "p", 0.5)), v1=True, spatial=True),
    "VolumetricDropout": lambda m, p: Dropout(float(_field(m, "p", 0.5)), v1=True, spatial=True),
    "Identity": lambda m, p: nn.Identity(),
    "Copy": lambda m, p: nn.Identity(),
    "Contiguous": lambda m, p: nn.Identity(),
    "GradientReversal": lambda m, p: nn.Identity(),
    "View": lambda m, p: View(_sizes(m, "size"), _opt_int(m, "numInputDims")),
    "Reshape": lambda m, p: Reshape(_sizes(m, "size"), _field(m, "batchMode")),
    "Padding": lambda m, p: Padding(_dim0(m, "dim"), _int(m, "pad"), _opt_int(m, "nInputDim"),
                                    float(_field(m, "value", 0)), _int(m, "index", 0)),
    "Narrow": lambda m, p: Narrow(_dim0(m, "dimension"), _int(m, "index"), _int(m, "length", 1)),
    "Select": lambda m, p: Select(_dim0(m, "dimension"), _dim0(m, "index")),
    "Sum": lambda m, p: Reduce("mean" if _field(m, "sizeAverage") else "sum", _dim0(m, "dimension"),
                               _n_input_dims(m), _field(m, "squeeze", True) is not False),
    "Mean": lambda m, p: Reduce("mean", _dim0(m, "dimension"), _n_input_dims(m),
                                _field(m, "squeeze", True) is not False),
    "Max": lambda m, p: Reduce("max", _dim0(m, "dimension"), _n_input_dims(m)),
    "Min": lambda m, p: Reduce("min", _dim0(m, "dimension"), _n_input_dims(m)),
    "Transpose": lambda m, p: Transpose(*[(int(a), int(b)) for a, b in _field(m, "permutations")]),
    "Replicate": lambda m, p: Replicate(_int(m, "nfeatures"), _dim0(m, "dim"), _opt_int(m, "ndim")),
    "Unsqueeze": lambda m, p: Unsqueeze(_dim0(m, "pos"), _opt_int(m, "numInputDims")),
    "Squeeze": lambda m, p: Squeeze(None if _field(m, "dim") is None else _dim0(m, "dim"),
                                    _opt_int(m, "numInputDims")),
    # tables
    "CAddTable": lambda m, p: TableOp("add"),
    "CSubTable": lambda m, p: TableOp("sub"),
    "CMulTable": lambda m, p: TableOp("mul"),
    "CDivTable": lambda m, p: TableOp("div"),
    "CMaxTable": lambda m, p: TableOp("max"),
    "CMinTable": lambda m, p: TableOp("min"),
    "JoinTable": lambda m, p: JoinTable(_dim0(m, "dimension"), _n_input_dims(m)),
    "SelectTable": lambda m, p: SelectTable(_dim0(m, "index")),
    "NarrowTable": lambda m, p: NarrowTable(_int(m, "offset"), _int(m, "length", 1)),
    "FlattenTable": lambda m, p: FlattenTable(),
}

_CONTAINERS = {
    "Sequential": _container(nn.Sequential),
    "ConcatTable": _container(ConcatTable),
    "ParallelTable": _container(ParallelTable),
    "Concat": lambda m, p, conv: Concat(_dim0(m, "dimension"),
                                        *[conv(c, "%s.%d" % (p, i + 1)) for i, c in enumerate(_modules_of(m))]),
    "DepthConcat": lambda m, p, conv: DepthConcat(_dim0(m, "dimension"),
                                                  *[conv(c, "%s.%d" % (p, i + 1)) for i, c in enumerate(_modules_of(m))]),
    "Parallel": lambda m, p, conv: Parallel(_dim0(m, "inputDimension"), _dim0(m, "outputDimension"),
                                            *[conv(c, "%s.%d" % (p, i + 1)) for i, c in enumerate(_modules_of(m))]),
    "gModule": _graph,
    "DataParallelTable": _wrapped,
    "GPU": _wrapped,
}


def _sizes(m, name):
    v = _field(m, name)
    if v is None:
        raise ConversionError("%s has no %r" % (_typename(m), name))
    if torch.is_tensor(v):
        return [int(s) for s in v.tolist()]
    if hasattr(v, "tolist"):  # a LongStorage
        return [int(s) for s in v.tolist()]
    if isinstance(v, (int, float)):
        return [int(v)]
    return [int(s) for s in v]


def convert(legacy_module):
    """The torch.nn.Module computing what the torch7 module (as load_lua returns it) computes,
    with its weights and statistics copied; in evaluation mode when the torch7 module was
    (train = false), else in training mode. Raises ConversionError naming the first module
    (by its path in the model, 1-based as torch7 counts) that cannot be converted."""
    def conv(m, path):
        full = _typename(m)
        package, _, name = full.rpartition(".")
        if package not in ("nn", ""):
            raise ConversionError("%s: cannot convert a %s (no torch.nn equivalent known)" % (path, full))
        if name in _CONTAINERS:
            out = _CONTAINERS[name](m, path, conv)
        elif name in _SIMPLE:
            out = _SIMPLE[name](m, path)
        else:
            raise ConversionError("%s: cannot convert a %s (no torch.nn equivalent known)" % (path, full))
        # this module's own mode only: its children keep theirs, as torch7 modules each have one
        out.training = _field(m, "train", True) is not False
        return out

    return conv(legacy_module, "model")


# ------------------------------------------------------------ checking against a reference

_SPATIAL_CANDIDATES = (224, 32, 28, 64, 8, 16, 227, 96, 128, 299, 256, 48, 12, 4)


def _first_leaf(m):
    modules = _modules_of(m)
    if _typename(m).endswith("gModule"):
        for node in _field(m, "forwardnodes") or []:
            data = _field(node, "data")
            if data.get("module") is not None:
                return _first_leaf(data["module"])
        return m
    if modules and _typename(m).rpartition(".")[2] in _CONTAINERS:
        return _first_leaf(modules[0])
    return m


def _candidate_inputs(legacy, dtype):
    """Random inputs the model may take, judged from its first layer."""
    first = _first_leaf(legacy)
    name = _typename(first).rpartition(".")[2]
    gen = torch.Generator().manual_seed(0)
    if name == "Linear" and _tensor(first, "weight") is not None:
        yield torch.randn(2, _tensor(first, "weight").shape[1], generator=gen, dtype=dtype)
        return
    planes = _field(first, "nInputPlane")
    if planes is None and _tensor(first, "running_mean") is not None:
        planes = _tensor(first, "running_mean").numel()
    if planes is not None:
        volumetric = name.startswith("Volumetric")
        for side in _SPATIAL_CANDIDATES:
            shape = (2, int(planes)) + ((side,) * (3 if volumetric else 2))
            yield torch.randn(*shape, generator=gen, dtype=dtype)


def _model_dtype(model):
    for p in list(model.parameters()) + list(model.buffers()):
        if p.is_floating_point():
            return p.dtype
    return torch.float32


def _flatten_output(out):
    if torch.is_tensor(out):
        return [out]
    if isinstance(out, (list, tuple)):
        return [t for o in out for t in _flatten_output(o)]
    raise TypeError("output of type %s" % type(out).__name__)


def _max_difference(a, b):
    fa, fb = _flatten_output(a), _flatten_output(b)
    if len(fa) != len(fb) or any(x.shape != y.shape for x, y in zip(fa, fb)):
        return math.inf
    diff = 0.0
    for x, y in zip(fa, fb):
        if x.numel():
            diff = max(diff, (x.double() - y.double()).abs().max().item())
    return diff


def _default_tolerance(output):
    outs = _flatten_output(output)
    scale = max([1.0] + [t.double().abs().max().item() for t in outs if t.numel()])
    double = all(t.dtype == torch.float64 for t in outs)
    return (1e-8 if double else 1e-4) * scale


def _legacy_forward(legacy, x):
    """The legacy module's own output in evaluation mode, or None when it cannot run."""
    forward = getattr(legacy, "forward", None)
    if not callable(forward):
        return None
    model = copy.deepcopy(legacy)
    evaluate = getattr(model, "evaluate", None)
    if callable(evaluate):
        evaluate()
    try:
        return model.forward(x.clone())
    except Exception:  # a placeholder class or a layer the legacy port lacks: no reference
        return None


def check(legacy, converted, input=None, output=None, tolerance=None):
    """Compares converted (in evaluation mode, on a copy) with a reference: output recorded for
    input when given, else the legacy module's forward on input or on a random input.
    Returns (max difference, tolerance, how the reference was obtained); the difference is
    None when there is no reference."""
    model = copy.deepcopy(converted).eval()
    with torch.no_grad():
        if output is not None:
            got = model(input)
            how = "recorded output"
        else:
            inputs = [input] if input is not None else list(_candidate_inputs(legacy, _model_dtype(converted)))
            got = output = None
            for x in inputs:
                try:
                    got = model(x)
                except Exception:
                    continue
                output = _legacy_forward(legacy, x)
                break
            if output is None:
                return None, tolerance, "no reference"
            how = "legacy forward"
    if tolerance is None:
        tolerance = _default_tolerance(output)
    return _max_difference(got, output), tolerance, how


# ------------------------------------------------------------ Python source

def _nn_ctor(m):
    """(class expression, args, kwargs) rebuilding the torch.nn module m."""
    t = type(m)
    name = "nn." + t.__name__

    def pair(v):
        return tuple(v) if isinstance(v, (tuple, list)) else v
    if t is nn.Sequential:
        return name, list(m.children()), {}
    if t is nn.Linear:
        return name, [m.in_features, m.out_features], {"bias": m.bias is not None}
    if t in (nn.Conv1d, nn.Conv2d, nn.Conv3d):
        return name, [m.in_channels, m.out_channels, pair(m.kernel_size)], {
            "stride": pair(m.stride), "padding": pair(m.padding), "dilation": pair(m.dilation), "groups": m.groups,
            "bias": m.bias is not None}
    if t in (nn.ConvTranspose2d, nn.ConvTranspose3d):
        return name, [m.in_channels, m.out_channels, pair(m.kernel_size)], {
            "stride": pair(m.stride), "padding": pair(m.padding), "output_padding": pair(m.output_padding),
            "bias": m.bias is not None}
    if t in (nn.BatchNorm1d, nn.BatchNorm2d, nn.BatchNorm3d):
        return name, [m.num_features], {"eps": m.eps, "momentum": m.momentum, "affine": m.affine}
    if t in (nn.MaxPool2d, nn.MaxPool3d):
        return name, [pair(m.kernel_size)], {"stride": pair(m.stride), "padding": pair(m.padding),
                                             "ceil_mode": m.ceil_mode}
    if t is nn.AvgPool2d:
        return name, [pair(m.kernel_size)], {"stride": pair(m.stride), "padding": pair(m.padding),
                                             "ceil_mode": m.ceil_mode, "count_include_pad": m.count_include_pad}
    if t is nn.AvgPool3d:
        return name, [pair(m.kernel_size)], {"stride": pair(m.stride), "padding": pair(m.padding),
                                             "ceil_mode": m.ceil_mode}
    if t in (nn.AdaptiveMaxPool2d, nn.AdaptiveAvgPool2d):
        return name, [pair(m.output_size)], {}
    if t is nn.LocalResponseNorm:
        return name, [m.size], {"alpha": m.alpha, "beta": m.beta, "k": m.k}
    if t is nn.Threshold:
        return name, [m.threshold, m.value], {}
    if t is nn.Hardtanh:
        return name, [m.min_val, m.max_val], {}
    if t is nn.LeakyReLU:
        return name, [m.negative_slope], {}
    if t is nn.ELU:
        return name, [m.alpha], {}
    if t is nn.PReLU:
        return name, [m.num_parameters], {}
    if t is nn.Softplus:
        return name, [], {"beta": m.beta, "threshold": m.threshold}
    if t in (nn.Softshrink, nn.Hardshrink):
        return name, [m.lambd], {}
    if t in (nn.Dropout, nn.Dropout2d):
        return name, [m.p], {}
    if t in (nn.Softmax, nn.LogSoftmax):
        return name, [], {"dim": m.dim}
    if t is nn.Flatten:
        return name, [], {"start_dim": m.start_dim, "end_dim": m.end_dim}
    if t is nn.Upsample:
        return name, [], {"scale_factor": m.scale_factor, "mode": m.mode}
    if t in (nn.ZeroPad2d, nn.ReflectionPad2d, nn.ReplicationPad2d):
        return name, [pair(m.padding)], {}
    if t in (nn.ReLU, nn.ReLU6, nn.Tanh, nn.Sigmoid, nn.Softsign, nn.LogSigmoid, nn.Tanhshrink, nn.Identity):
        return name, [], {}
    raise ConversionError("emit_python: no constructor known for %s" % t.__name__)


def _without_defaults(cls, kwargs):
    """kwargs less those equal to cls's defaults (an int default matches a tuple of it)."""
    try:
        params = inspect.signature(cls.__init__).parameters
    except (TypeError, ValueError):
        return kwargs
    out = {}
    for k, v in kwargs.items():
        default = params[k].default if k in params else inspect.Parameter.empty
        same = v == default or (isinstance(v, tuple) and not isinstance(default, tuple) and
                                all(x == default for x in v))
        if not same or isinstance(v, bool) != isinstance(default, bool):
            out[k] = v
    return out


def _ctor(m):
    if isinstance(m, _T7Module):
        args, kwargs = m._t7_args()
        return type(m).__name__, args, _without_defaults(type(m), kwargs)
    cls, args, kwargs = _nn_ctor(m)
    return cls, args, _without_defaults(type(m), kwargs)


def _render(value, indent, helpers):
    if isinstance(value, nn.Module):
        cls, args, kwargs = _ctor(value)
        if not cls.startswith("nn."):
            helpers.add(cls)
        parts = [_render(a, indent + 4, helpers) for a in args]
        parts += ["%s=%s" % (k, _render(v, indent + 4, helpers)) for k, v in kwargs.items()]
        inline = "%s(%s)" % (cls, ", ".join(parts))
        if len(inline) + indent <= 100 and "\n" not in inline:
            return inline
        pad = " " * (indent + 4)
        return "%s(\n%s%s,\n%s)" % (cls, pad, (",\n" + pad).join(parts), " " * indent)
    if isinstance(value, list) and any(isinstance(v, nn.Module) for v in value):
        pad = " " * (indent + 4)
        return "[\n%s%s,\n%s]" % (pad, (",\n" + pad).join(_render(v, indent + 4, helpers) for v in value),
                                  " " * indent)
    if isinstance(value, float) and (math.isinf(value) or math.isnan(value)):
        return "float('%s')" % value
    return repr(value)


def emit_python(module, path=None, class_name="Model"):
    """Python source defining `class <class_name>` whose instances have module's structure, so
    that Model().load_state_dict(module.state_dict()) gives module again. Written to path
    when given; the source is returned."""
    helpers = set()
    cls, args, kwargs = _ctor(module)
    if not cls.startswith("nn."):
        helpers.add(cls)
    parts = [_render(a, 12, helpers) for a in args] + ["%s=%s" % (k, _render(v, 12, helpers))
                                                       for k, v in kwargs.items()]
    body = ",\n            ".join(parts)
    lines = ['"""%s: converted from a torch7 model by torch.utils.convert_t7."""' % class_name, "",
             "import torch", "from torch import nn"]
    if helpers:
        lines.append("from torch.utils.convert_t7 import %s" % ", ".join(sorted(helpers)))
    lines += ["", "", "class %s(%s):" % (class_name, cls), "    def __init__(self):",
              "        super().__init__(" + ("\n            " + body + ",\n        " if parts else "") + ")"]
    dtype = _model_dtype(module)
    if dtype != torch.float32:  # load_state_dict keeps the module's own element type
        lines.append("        self.to(%s)" % dtype)
    lines += ["",
              "", "def load(state_dict_path):",
              '    """A %s with the weights saved at state_dict_path (torch.save of its state_dict)."""'
              % class_name,
              "    model = %s()" % class_name,
              "    model.load_state_dict(torch.load(state_dict_path))",
              "    return model", ""]
    source = "\n".join(lines)
    if path is not None:
        with open(path, "w") as f:
            f.write(source)
    return source


# ------------------------------------------------------------ torch.nn -> torch7

def _empty(dtype):
    return torch.empty(0, dtype=dtype)


def _t7_module(name, dtype, training, **fields):
    from torch.legacy import nn as legacy_nn
    base = {"output": _empty(dtype), "gradInput": _empty(dtype), "_type": _TYPE_NAMES[dtype], "train": training}
    base.update(fields)
    return legacy_nn.class_for("nn." + name)(**base)


_TYPE_NAMES = {torch.float32: "torch.FloatTensor", torch.float64: "torch.DoubleTensor"}


def _weights(m, dtype, **names):
    """Copies of m's parameters under their torch7 names, with zero gradients."""
    out = {}
    for t7_name, attr in names.items():
        p = getattr(m, attr)
        if p is None:
            continue
        out[t7_name] = p.detach().clone().to(dtype)
        out["grad" + t7_name[0].upper() + t7_name[1:]] = torch.zeros_like(out[t7_name])
    return out


def _to_legacy(m, dtype, path):
    t = type(m)
    tr = m.training
    if t is nn.Sequential:
        return _t7_module("Sequential", dtype, tr,
                          modules=[_to_legacy(c, dtype, "%s.%d" % (path, i + 1)) for i, c in enumerate(m.children())])
    if t is nn.Linear:
        return _t7_module("Linear", dtype, tr, **_weights(m, dtype, weight="weight", bias="bias"))
    if t is nn.Conv2d:
        if m.groups != 1 or m.padding_mode != "zeros" or isinstance(m.padding, str):
            raise ConversionError("%s: torch7 has no convolution with groups, string padding or padding_mode" % path)
        kh, kw = m.kernel_size
        fields = dict(nInputPlane=m.in_channels, nOutputPlane=m.out_channels, kW=kw, kH=kh, dW=m.stride[1],
                      dH=m.stride[0], padW=m.padding[1], padH=m.padding[0],
                      **_weights(m, dtype, weight="weight", bias="bias"))
        if m.dilation != (1, 1):
            return _t7_module("SpatialDilatedConvolution", dtype, tr, dilationW=m.dilation[1],
                              dilationH=m.dilation[0], **fields)
        return _t7_module("SpatialConvolution", dtype, tr, finput=_empty(dtype), fgradInput=_empty(dtype), **fields)
    if t is nn.ConvTranspose2d:
        if m.groups != 1 or m.dilation != (1, 1):
            raise ConversionError("%s: torch7 has no full convolution with groups or dilation" % path)
        kh, kw = m.kernel_size
        return _t7_module("SpatialFullConvolution", dtype, tr, nInputPlane=m.in_channels,
                          nOutputPlane=m.out_channels, kW=kw, kH=kh, dW=m.stride[1], dH=m.stride[0],
                          padW=m.padding[1], padH=m.padding[0], adjW=m.output_padding[1], adjH=m.output_padding[0],
                          finput=_empty(dtype), fgradInput=_empty(dtype),
                          **_weights(m, dtype, weight="weight", bias="bias"))
    if t in (nn.BatchNorm1d, nn.BatchNorm2d, nn.BatchNorm3d):
        if not m.track_running_stats or m.momentum is None:
            raise ConversionError("%s: torch7's batch normalization keeps running statistics with a momentum" % path)
        name = {nn.BatchNorm1d: "BatchNormalization", nn.BatchNorm2d: "SpatialBatchNormalization",
                nn.BatchNorm3d: "VolumetricBatchNormalization"}[t]
        return _t7_module(name, dtype, tr, eps=m.eps, momentum=m.momentum, affine=m.affine,
                          running_mean=m.running_mean.detach().clone().to(dtype),
                          running_var=m.running_var.detach().clone().to(dtype),
                          save_mean=_empty(dtype), save_std=_empty(dtype),
                          **_weights(m, dtype, weight="weight", bias="bias"))
    if t in (nn.MaxPool2d, nn.AvgPool2d):
        k, s, p = (_two(v) for v in (m.kernel_size, m.stride or m.kernel_size, m.padding))
        fields = dict(kW=k[1], kH=k[0], dW=s[1], dH=s[0], padW=p[1], padH=p[0], ceil_mode=bool(m.ceil_mode))
        if t is nn.MaxPool2d:
            if _two(m.dilation) != (1, 1) or m.return_indices:
                raise ConversionError("%s: torch7's SpatialMaxPooling has no dilation nor returned indices" % path)
            return _t7_module("SpatialMaxPooling", dtype, tr, indices=_empty(torch.int64), **fields)
        if m.divisor_override is not None:
            raise ConversionError("%s: torch7's SpatialAveragePooling has no divisor_override" % path)
        return _t7_module("SpatialAveragePooling", dtype, tr, count_include_pad=bool(m.count_include_pad),
                          divide=True, **fields)
    if t is nn.ReLU:
        return _t7_module("ReLU", dtype, tr, threshold=0.0, val=0.0, inplace=False)
    if t is nn.Threshold:
        return _t7_module("Threshold", dtype, tr, threshold=float(m.threshold), val=float(m.value), inplace=False)
    if t is nn.ReLU6:
        return _t7_module("ReLU6", dtype, tr, inplace=False)
    if t in (nn.Tanh, nn.Sigmoid, nn.Softsign, nn.LogSigmoid, nn.Tanhshrink, nn.Identity):
        name = {nn.Tanh: "Tanh", nn.Sigmoid: "Sigmoid", nn.Softsign: "SoftSign", nn.LogSigmoid: "LogSigmoid",
                nn.Tanhshrink: "TanhShrink", nn.Identity: "Identity"}[t]
        return _t7_module(name, dtype, tr)
    if t is nn.LeakyReLU:
        return _t7_module("LeakyReLU", dtype, tr, negval=float(m.negative_slope), inplace=False)
    if t is nn.ELU:
        return _t7_module("ELU", dtype, tr, alpha=float(m.alpha), inplace=False)
    if t is nn.Hardtanh:
        return _t7_module("HardTanh", dtype, tr, min_val=float(m.min_val), max_val=float(m.max_val), inplace=False)
    if t is nn.Softplus:
        return _t7_module("SoftPlus", dtype, tr, beta=float(m.beta), threshold=float(m.threshold))
    if t in (nn.Softmax, nn.LogSoftmax):
        if m.dim not in (1, -1):
            raise ConversionError("%s: torch7's SoftMax works over dimension 1 of a batch; dim=%r cannot be kept"
                                  % (path, m.dim))
        return _t7_module("SoftMax" if t is nn.Softmax else "LogSoftMax", dtype, tr)
    if t is nn.Dropout:
        return _t7_module("Dropout", dtype, tr, p=float(m.p), v2=True, inplace=False, noise=_empty(dtype))
    if t is nn.Flatten:
        if m.start_dim != 1 or m.end_dim != -1:
            raise ConversionError("%s: only Flatten(1, -1) has a torch7 equivalent (nn.Reshape(-1, true))" % path)
        return _t7_module("Reshape", dtype, tr, size=torch.tensor([-1]).storage(), batchMode=True, nelement=-1.0,
                          batchsize=torch.tensor([1, -1]).storage(), _input=_empty(dtype), _gradOutput=_empty(dtype))
    if t is nn.LocalResponseNorm:
        return _t7_module("SpatialCrossMapLRN", dtype, tr, size=m.size, alpha=float(m.alpha), beta=float(m.beta),
                          k=float(m.k), scale=_empty(dtype))
    raise ConversionError("%s: no torch7 equivalent for %s" % (path, t.__name__))


def _two(v):
    return tuple(v) if isinstance(v, (tuple, list)) else (v, v)


def to_t7(module, path=None, format="binary"):
    """module (Sequential of Linear, Conv2d, ConvTranspose2d, BatchNorm, MaxPool2d, AvgPool2d,
    activations, Softmax/LogSoftmax over dimension 1, Dropout, Flatten, LocalResponseNorm,
    Identity) as torch7 nn objects, with torch7's field names, 1-based where torch7 counts
    and its default buffers; written with save_lua when path is given. Returns the objects."""
    dtype = _model_dtype(module)
    if dtype not in _TYPE_NAMES:
        raise ConversionError("to_t7: parameters of type %s; torch7 models are float or double" % dtype)
    legacy = _to_legacy(module, dtype, "model")
    if path is not None:
        save_lua(legacy, path, format=format)
    return legacy


# ------------------------------------------------------------ command line

def _parse_size(text):
    try:
        return tuple(int(s) for s in text.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError("expected sizes like 2,3,224,224, got %r" % text) from None


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m torch.utils.convert_t7",
                                     description="Convert a torch7 .t7 model to a torch.nn state_dict (.pt).")
    parser.add_argument("model", help="the torch7 model (.t7)")
    parser.add_argument("out", help="where to save the converted model's state_dict (torch.save)")
    parser.add_argument("--emit-python", metavar="FILE", help="also write Python source defining the model class")
    parser.add_argument("--save-module", metavar="FILE", help="also torch.save the whole converted module")
    parser.add_argument("--reference", metavar="IO_T7",
                        help="a .t7 table with `input` and `output` recorded by torch7, to check against")
    parser.add_argument("--input-size", type=_parse_size, help="shape of the random check input, e.g. 2,3,224,224")
    parser.add_argument("--tolerance", type=float,
                        help="largest difference accepted (default 1e-4 for float, 1e-8 for double, times the "
                             "largest output magnitude when above 1)")
    args = parser.parse_args(argv)

    try:
        legacy = load_lua(args.model)
        model = convert(legacy)
        inp = out = None
        if args.reference:
            ref = load_lua(args.reference)
            if not isinstance(ref, dict) or not torch.is_tensor(ref.get("input")) or "output" not in ref:
                raise ConversionError("%s: expected a table with `input` and `output`" % args.reference)
            inp, out = ref["input"], ref["output"]
        elif args.input_size:
            inp = torch.randn(*args.input_size, dtype=_model_dtype(model))
        diff, tol, how = check(legacy, model, inp, out, args.tolerance)
    except (ConversionError, RuntimeError, OSError, ValueError, TypeError, IndexError) as e:
        print("convert_t7: cannot convert %s: %s" % (args.model, e), file=sys.stderr)
        return 2

    if diff is None:
        print("convert_t7: no reference: %s has no runnable forward and no --reference was given; the "
              "converted model is saved unchecked" % args.model)
    else:
        print("convert_t7: max difference %.3g against the %s (tolerance %.3g)" % (diff, how, tol))
        if not diff <= tol:
            print("convert_t7: refusing to save: the converted model's output differs from the %s by %.3g, above "
                  "the tolerance %.3g" % (how, diff, tol), file=sys.stderr)
            return 1
    torch.save(model.state_dict(), args.out)
    if args.save_module:
        torch.save(model, args.save_module)
    if args.emit_python:
        emit_python(model, args.emit_python)
    print("convert_t7: saved %s" % args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
