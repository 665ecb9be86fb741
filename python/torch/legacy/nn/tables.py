"""Modules over tables (Python lists) of tensors. Indices and dimensions are 0-based;
negative ones count from the end."""

import torch
from torch.legacy.nn import utils
from torch.legacy.nn.module import Module
from torch.legacy.nn.utils import check

__all__ = [
    "CAddTable",
    "CSubTable",
    "CMulTable",
    "CDivTable",
    "JoinTable",
    "SplitTable",
    "SelectTable",
    "NarrowTable",
    "FlattenTable",
    "MixtureTable",
    "CosineDistance",
    "DotProduct",
    "PairwiseDistance",
]


def _table(name, input, n=None):
    check(
        isinstance(input, (list, tuple)),
        TypeError,
        "%s: input must be a table (list) of tensors, got %s",
        name,
        type(input).__name__,
    )
    if n is not None:
        check(len(input) == n, ValueError, "%s: input must hold %d tensors, got %d", name, n, len(input))
    return input


def _same_sizes(name, tensors):
    for i, t in enumerate(tensors):
        utils.check_tensor(t, "%s: input[%d]" % (name, i))
        check(
            t.shape == tensors[0].shape,
            RuntimeError,
            "%s: input[%d] of size %s and input[0] of size %s must have the same size",
            name,
            i,
            tuple(t.shape),
            tuple(tensors[0].shape),
        )


def zero_like(x):
    """A table (or tensor) of zeros shaped like x."""
    if torch.is_tensor(x):
        return torch.zeros_like(x)
    return [zero_like(v) for v in x]


class CAddTable(Module):
    """The sum of the input tensors (in the first one if inplace)."""

    inplace = False

    def __init__(self, ip=False):
        super().__init__()
        self.inplace = ip
        self.gradInput = []

    def updateOutput(self, input):
        _same_sizes("nn.CAddTable", _table("nn.CAddTable", input))
        check(len(input) > 0, ValueError, "nn.CAddTable: input must hold at least one tensor")
        out = input[0] if self.inplace else input[0].clone()
        for t in input[1:]:
            out.add_(t)
        self.output = out
        return out

    def updateGradInput(self, input, gradOutput):
        _same_sizes("nn.CAddTable", list(input) + [gradOutput])
        self.gradInput = [gradOutput if self.inplace else gradOutput.clone() for _ in input]
        return self.gradInput


class CSubTable(Module):
    """input[0] - input[1]."""

    def __init__(self):
        super().__init__()
        self.gradInput = []

    def updateOutput(self, input):
        _same_sizes("nn.CSubTable", _table("nn.CSubTable", input, 2))
        self.output = input[0] - input[1]
        return self.output

    def updateGradInput(self, input, gradOutput):
        _same_sizes("nn.CSubTable", list(_table("nn.CSubTable", input, 2)) + [gradOutput])
        self.gradInput = [gradOutput.clone(), -gradOutput]
        return self.gradInput


class CMulTable(Module):
    """The elementwise product of the input tensors."""

    def __init__(self):
        super().__init__()
        self.gradInput = []

    def updateOutput(self, input):
        _same_sizes("nn.CMulTable", _table("nn.CMulTable", input))
        check(len(input) > 0, ValueError, "nn.CMulTable: input must hold at least one tensor")
        out = input[0].clone()
        for t in input[1:]:
            out.mul_(t)
        self.output = out
        return out

    def updateGradInput(self, input, gradOutput):
        _same_sizes("nn.CMulTable", list(input) + [gradOutput])
        grads = []
        for i in range(len(input)):
            g = gradOutput.clone()
            for j, t in enumerate(input):
                if j != i:
                    g.mul_(t)
            grads.append(g)
        self.gradInput = grads
        return grads


class CDivTable(Module):
    """input[0] / input[1]."""

    def __init__(self):
        super().__init__()
        self.gradInput = []

    def updateOutput(self, input):
        _same_sizes("nn.CDivTable", _table("nn.CDivTable", input, 2))
        self.output = input[0] / input[1]
        return self.output

    def updateGradInput(self, input, gradOutput):
        _same_sizes("nn.CDivTable", list(_table("nn.CDivTable", input, 2)) + [gradOutput])
        a, b = input
        self.gradInput = [gradOutput / b, -gradOutput * a / (b * b)]
        return self.gradInput


def _batched_dim(dimension, nInputDims, t):
    """torch7's rule for tables of possibly batched tensors: with nInputDims set, an input
    of nInputDims + 1 dimensions has a batch dimension first and dimension counts past it."""
    dim = int(dimension)
    if dim < 0:
        return dim + t.dim()
    if nInputDims is not None and t.dim() == int(nInputDims) + 1:
        return dim + 1
    return dim


class JoinTable(Module):
    """The input tensors concatenated along dimension."""

    nInputDims = None

    def __init__(self, dimension, nInputDims=None):
        super().__init__()
        self.dimension = dimension
        self.nInputDims = nInputDims
        self.gradInput = []

    def _dim(self, input):
        _table("nn.JoinTable", input)
        check(len(input) > 0, ValueError, "nn.JoinTable: input must hold at least one tensor")
        for i, t in enumerate(input):
            utils.check_tensor(t, "nn.JoinTable: input[%d]" % i)
        dim = _batched_dim(self.dimension, self.nInputDims, input[0])
        check(
            0 <= dim < input[0].dim(),
            IndexError,
            "nn.JoinTable: dimension %d is out of range for an input of size %s",
            int(self.dimension),
            tuple(input[0].shape),
        )
        for i, t in enumerate(input):
            same = t.dim() == input[0].dim() and all(
                a == b for d, (a, b) in enumerate(zip(t.shape, input[0].shape)) if d != dim
            )
            check(
                same,
                RuntimeError,
                "nn.JoinTable: input[%d] of size %s does not fit input[0] of size %s outside dimension %d",
                i,
                tuple(t.shape),
                tuple(input[0].shape),
                dim,
            )
        return dim

    def updateOutput(self, input):
        self.output = torch.cat(list(input), self._dim(input))
        return self.output

    def updateGradInput(self, input, gradOutput):
        dim = self._dim(input)
        utils.check_tensor(gradOutput, "nn.JoinTable: gradOutput")
        total = sum(t.size(dim) for t in input)
        check(
            gradOutput.dim() == input[0].dim() and gradOutput.size(dim) == total,
            RuntimeError,
            "nn.JoinTable: gradOutput of size %s does not fit the output",
            tuple(gradOutput.shape),
        )
        grads, offset = [], 0
        for t in input:
            grads.append(gradOutput.narrow(dim, offset, t.size(dim)).clone())
            offset += t.size(dim)
        self.gradInput = grads
        return grads


class SplitTable(Module):
    """The slices of input along dimension, as a table."""

    nInputDims = None

    def __init__(self, dimension, nInputDims=None):
        super().__init__()
        self.dimension = dimension
        self.nInputDims = nInputDims
        self.output = []

    def _dim(self, input):
        utils.check_tensor(input, "nn.SplitTable: input")
        dim = _batched_dim(self.dimension, self.nInputDims, input)
        check(
            0 <= dim < input.dim(),
            IndexError,
            "nn.SplitTable: dimension %d is out of range for an input of size %s",
            int(self.dimension),
            tuple(input.shape),
        )
        return dim

    def updateOutput(self, input):
        dim = self._dim(input)
        self.output = [input.select(dim, i) for i in range(input.size(dim))]
        return self.output

    def updateGradInput(self, input, gradOutput):
        dim = self._dim(input)
        _table("nn.SplitTable", gradOutput, input.size(dim))
        _same_sizes("nn.SplitTable", [input.select(dim, 0)] + list(gradOutput) if input.size(dim) else [])
        self.gradInput = torch.stack(list(gradOutput), dim) if len(gradOutput) else torch.zeros_like(input)
        return self.gradInput


class SelectTable(Module):
    """input[index] (a tensor or a table); gradInput is zeros but there."""

    def __init__(self, index):
        super().__init__()
        self.index = index
        self.gradInput = []

    def _index(self, input):
        _table("nn.SelectTable", input)
        i = int(self.index)
        check(
            -len(input) <= i < len(input),
            IndexError,
            "nn.SelectTable: index %d is out of range for a table of %d",
            i,
            len(input),
        )
        return i % len(input)

    def updateOutput(self, input):
        self.output = input[self._index(input)]
        return self.output

    def updateGradInput(self, input, gradOutput):
        i = self._index(input)
        grads = [zero_like(x) for x in input]
        grads[i] = gradOutput
        self.gradInput = grads
        return grads

    def __repr__(self):
        return "nn.SelectTable(%d)" % int(self.index)


class NarrowTable(Module):
    """input[offset:offset + length] (a negative length counts as in Narrow)."""

    def __init__(self, offset, length=1):
        super().__init__()
        self.offset = offset
        self.length = length
        self.output = []
        self.gradInput = []

    def _range(self, input):
        _table("nn.NarrowTable", input)
        n = len(input)
        offset, length = int(self.offset), int(self.length)
        offset = offset + n if offset < 0 else offset
        length = n - offset + length + 1 if length < 0 else length
        check(
            0 <= offset and length >= 0 and offset + length <= n,
            IndexError,
            "nn.NarrowTable: offset %d and length %d are out of range for a table of %d",
            offset,
            length,
            n,
        )
        return offset, length

    def updateOutput(self, input):
        offset, length = self._range(input)
        self.output = list(input[offset : offset + length])
        return self.output

    def updateGradInput(self, input, gradOutput):
        offset, length = self._range(input)
        _table("nn.NarrowTable", gradOutput, length)
        grads = [zero_like(x) for x in input]
        grads[offset : offset + length] = list(gradOutput)
        self.gradInput = grads
        return grads


def _flatten(x, out):
    if isinstance(x, (list, tuple)):
        for v in x:
            _flatten(v, out)
    else:
        out.append(x)
    return out


def _unflatten(like, flat, pos):
    if isinstance(like, (list, tuple)):
        result = []
        for v in like:
            r, pos = _unflatten(v, flat, pos)
            result.append(r)
        return result, pos
    return flat[pos], pos + 1


class FlattenTable(Module):
    """A nested table made flat (its tensors in depth-first order)."""

    def __init__(self):
        super().__init__()
        self.output = []
        self.gradInput = []

    def updateOutput(self, input):
        _table("nn.FlattenTable", input)
        self.output = _flatten(input, [])
        return self.output

    def updateGradInput(self, input, gradOutput):
        n = len(_flatten(input, []))
        _table("nn.FlattenTable", gradOutput, n)
        self.gradInput = _unflatten(input, list(gradOutput), 0)[0]
        return self.gradInput


class MixtureTable(Module):
    """{gater, experts} -> sum_i gater[:, i] * expert_i: experts a table of tensors, or
    one tensor holding them along dim (default 1, past the batch)."""

    dim = None

    def __init__(self, dim=None):
        super().__init__()
        self.dim = dim
        self.gradInput = []

    def _parts(self, input):
        gater, experts = _table("nn.MixtureTable", input, 2)
        utils.check_tensor(gater, "nn.MixtureTable: gater", (1, 2))
        batched = gater.dim() == 2
        g = gater if batched else gater.unsqueeze(0)
        n = g.size(1)
        if isinstance(experts, (list, tuple)):
            check(
                len(experts) == n,
                ValueError,
                "nn.MixtureTable: %d experts for a gater of size %s",
                len(experts),
                tuple(gater.shape),
            )
            _same_sizes("nn.MixtureTable", list(experts))
            e = torch.stack([x if batched else x.unsqueeze(0) for x in experts], 1)
            dim = 1
        else:
            utils.check_tensor(experts, "nn.MixtureTable: experts")
            e = experts if batched else experts.unsqueeze(0)
            dim = (1 if batched else 0) if self.dim is None else int(self.dim)
            dim = dim + 1 if not batched else dim
            check(
                0 < dim < e.dim() and e.size(dim) == n,
                RuntimeError,
                "nn.MixtureTable: experts of size %s do not hold %d experts along dimension %d",
                tuple(experts.shape),
                n,
                dim - (0 if batched else 1),
            )
            e = e.movedim(dim, 1)
        check(
            e.size(0) == g.size(0),
            RuntimeError,
            "nn.MixtureTable: gater of size %s and experts of batch size %d",
            tuple(gater.shape),
            e.size(0),
        )
        return g, e, batched, dim

    def updateOutput(self, input):
        g, e, batched, _ = self._parts(input)
        gw = g.reshape(tuple(g.shape) + (1,) * (e.dim() - 2))
        out = (gw * e).sum(1)
        self.output = out if batched else out[0]
        return self.output

    def updateGradInput(self, input, gradOutput):
        g, e, batched, dim = self._parts(input)
        go = gradOutput if batched else gradOutput.unsqueeze(0)
        check(
            tuple(go.shape) == (e.size(0),) + tuple(e.shape[2:]),
            RuntimeError,
            "nn.MixtureTable: gradOutput of size %s does not fit the output",
            tuple(gradOutput.shape),
        )
        go1 = go.unsqueeze(1)
        g_gater = (go1 * e).reshape(e.size(0), e.size(1), -1).sum(2)
        gw = g.reshape(tuple(g.shape) + (1,) * (e.dim() - 2))
        g_experts = gw * go1  # batch x n x ...
        experts = input[1]
        if isinstance(experts, (list, tuple)):
            ge = [g_experts[:, i] if batched else g_experts[0, i] for i in range(len(experts))]
        else:
            ge = g_experts.movedim(1, dim)
            ge = ge if batched else ge[0]
        self.gradInput = [g_gater if batched else g_gater[0], ge]
        return self.gradInput


def _pair_rows(name, input):
    a, b = _table(name, input, 2)
    _same_sizes(name, [a, b])
    check(
        a.dim() in (1, 2),
        RuntimeError,
        "%s: inputs must be vectors or batches of them, got size %s",
        name,
        tuple(a.shape),
    )
    return (a.unsqueeze(0), b.unsqueeze(0), True) if a.dim() == 1 else (a, b, False)


def _row_grad(name, gradOutput, rows, single):
    utils.check_tensor(gradOutput, "%s: gradOutput" % name)
    check(
        gradOutput.numel() == rows,
        RuntimeError,
        "%s: gradOutput of size %s for %d rows",
        name,
        tuple(gradOutput.shape),
        rows,
    )
    return gradOutput.reshape(rows, 1)


class CosineDistance(Module):
    """{a, b} -> cos(a, b) per row (squared norms with 1e-12 added)."""

    def __init__(self):
        super().__init__()
        self.gradInput = []

    def _parts(self, input):
        a, b, single = _pair_rows("nn.CosineDistance", input)
        na = (a * a).sum(1, keepdim=True) + 1e-12
        nb = (b * b).sum(1, keepdim=True) + 1e-12
        dot = (a * b).sum(1, keepdim=True)
        return a, b, na, nb, dot / torch.sqrt(na * nb), single

    def updateOutput(self, input):
        *_, cos, single = self._parts(input)
        self.output = cos.reshape(-1)
        return self.output

    def updateGradInput(self, input, gradOutput):
        a, b, na, nb, cos, single = self._parts(input)
        go = _row_grad("nn.CosineDistance", gradOutput, a.size(0), single)
        ga = go * (b / torch.sqrt(na * nb) - cos * a / na)
        gb = go * (a / torch.sqrt(na * nb) - cos * b / nb)
        self.gradInput = [ga[0], gb[0]] if single else [ga, gb]
        return self.gradInput


class DotProduct(Module):
    """{a, b} -> a . b per row."""

    def __init__(self):
        super().__init__()
        self.gradInput = []

    def updateOutput(self, input):
        a, b, single = _pair_rows("nn.DotProduct", input)
        self.output = (a * b).sum(1)
        return self.output

    def updateGradInput(self, input, gradOutput):
        a, b, single = _pair_rows("nn.DotProduct", input)
        go = _row_grad("nn.DotProduct", gradOutput, a.size(0), single)
        ga, gb = go * b, go * a
        self.gradInput = [ga[0], gb[0]] if single else [ga, gb]
        return self.gradInput


class PairwiseDistance(Module):
    """{a, b} -> ||a - b||_p per row."""

    def __init__(self, p):
        super().__init__()
        check(p > 0, ValueError, "nn.PairwiseDistance: p must be positive, got %g", p)
        self.norm = p
        self.gradInput = []

    def _dist(self, a, b):
        return (a - b).norm(self.norm, 1, keepdim=True)

    def updateOutput(self, input):
        a, b, single = _pair_rows("nn.PairwiseDistance", input)
        self.output = self._dist(a, b).reshape(-1)
        return self.output

    def updateGradInput(self, input, gradOutput):
        a, b, single = _pair_rows("nn.PairwiseDistance", input)
        go = _row_grad("nn.PairwiseDistance", gradOutput, a.size(0), single)
        d = a - b
        dist = self._dist(a, b)
        p = self.norm
        # d ||d||_p / d d_j = sign(d_j) |d_j|^(p-1) / ||d||_p^(p-1), with torch7's 1e-6 added
        # to the distance (which also keeps a zero distance finite: its gradient is zero)
        g = torch.sign(d) * d.abs().pow(p - 1) / (dist + 1e-6).pow(p - 1) * go
        self.gradInput = [g[0], -g[0]] if single else [g, -g]
        return self.gradInput
