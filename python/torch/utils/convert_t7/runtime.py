"""The modules torch.nn lacks, that converted models are built of (and that source written by
emit_python imports, through the package: `from torch.utils.convert_t7 import View`).

Note [torch7 semantics kept]: what torch7 decides from the input at run time is decided the
same way here, by the small modules below rather than by fixed torch.nn layers:
- batch dimensions: nn.View(128) on a 4-D batch input views to (N, 128); JoinTable, Sum,
  Mean, Padding with nInputDims shift their dimension by one for a batch input;
- SoftMax / LogSoftMax: over dimension 0 of a 1-D or 3-D input, 1 of a 2-D or 4-D one;
- Dropout before nn's v2 (and SpatialDropout) scale by (1 - p) at evaluation, not in training.
Dimensions and indices are stored 0-based in these modules (torch7's are 1-based).
"""

import torch
from torch import nn


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
            raise RuntimeError(
                "Parallel: input has %d slices along dimension %d but there are %d modules"
                % (x.shape[self.in_dim], self.in_dim, len(modules))
            )
        return torch.cat(
            [m(x.select(self.in_dim, i)) for i, m in enumerate(modules[: x.shape[self.in_dim]])], self.out_dim
        )

    def _t7_args(self):
        return [self.in_dim, self.out_dim] + list(self.children()), {}


class TableOp(_T7Module):
    """torch7's CAddTable, CSubTable, CMulTable, CDivTable, CMaxTable, CMinTable on a list."""

    _OPS = {"add": torch.add, "sub": torch.sub, "mul": torch.mul, "div": torch.div, "max": torch.max, "min": torch.min}

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
        return list(xs[self.offset : self.offset + length])

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
        if self.batch_mode is False or (self.batch_mode is None and x.numel() == self.num_elements and x.shape[0] != 1):
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
