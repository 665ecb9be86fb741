"""Elementwise math (Square, Sqrt and Abs over THNN's kernels), reductions over one dimension,
normalization and matrix products."""

import math

import torch
from torch.legacy.nn import utils
from torch.legacy.nn.module import Module
from torch.legacy.nn.utils import check, check_grad_output, thnn

__all__ = ["Exp", "Log", "Power", "Square", "Sqrt", "Abs", "Sum", "Mean", "Max", "Min", "Normalize", "MM", "MV"]


class _Pointwise(Module):
    """An elementwise function written with tensor ops, as torch7 writes it: _forward(input)
    -> output and _grad(input, gradOutput) -> gradInput, with the size checks done here."""

    def updateOutput(self, input):
        utils.check_tensor(input, "%s: input" % self.torch_typename())
        self.output = self._forward(input)
        return self.output

    def updateGradInput(self, input, gradOutput):
        check_grad_output(self, input, gradOutput)
        self.gradInput = self._grad(input, gradOutput)
        return self.gradInput


class Exp(_Pointwise):
    def _forward(self, input):
        return torch.exp(input)

    def _grad(self, input, gradOutput):
        return gradOutput * self.output


class Log(_Pointwise):
    def _forward(self, input):
        return torch.log(input)

    def _grad(self, input, gradOutput):
        return gradOutput / input


class Power(_Pointwise):
    def __init__(self, p):
        super().__init__()
        self.pow = p

    def _forward(self, input):
        return input.pow(self.pow)

    def _grad(self, input, gradOutput):
        return gradOutput * self.pow * input.pow(self.pow - 1)


class Square(Module):
    def updateOutput(self, input):
        kernels = thnn(self, input)
        out = input.new_empty(0)
        kernels.Square_updateOutput(input, out)
        self.output = out
        return out

    def updateGradInput(self, input, gradOutput):
        check_grad_output(self, input, gradOutput)
        kernels = thnn(self, input)
        gi = input.new_empty(0)
        kernels.Square_updateGradInput(input, gradOutput, gi)
        self.gradInput = gi
        return gi


class Sqrt(Module):
    """sqrt(input + eps); the gradient is read off the output (0 where it is 0)."""

    eps = 0

    def __init__(self, b=0):
        super().__init__()
        self.eps = b

    def updateOutput(self, input):
        kernels = thnn(self, input)
        out = input.new_empty(0)
        kernels.Sqrt_updateOutput(input, out, self.eps)
        self.output = out
        return out

    def updateGradInput(self, input, gradOutput):
        check_grad_output(self, input, gradOutput)
        kernels = thnn(self, input)
        gi = input.new_empty(0)
        kernels.Sqrt_updateGradInput(input, gradOutput, gi, self.output)
        self.gradInput = gi
        return gi


class Abs(Module):
    def updateOutput(self, input):
        kernels = thnn(self, input)
        out = input.new_empty(0)
        kernels.Abs_updateOutput(input, out)
        self.output = out
        return out

    def updateGradInput(self, input, gradOutput):
        check_grad_output(self, input, gradOutput)
        kernels = thnn(self, input)
        gi = input.new_empty(0)
        kernels.Abs_updateGradInput(input, gradOutput, gi)
        self.gradInput = gi
        return gi


class _Reduction(Module):
    """A reduction over `dimension` (0-based; past a leading batch dimension when
    nInputDims is set and the input has more dimensions). As in torch7 the reduced
    dimension goes away unless the input is 1-D (the output keeps one element then)."""

    dimension = 0
    nInputDims = None

    def _dim(self, input):
        utils.check_tensor(input, "%s: input" % self.torch_typename())
        check(input.dim() >= 1, RuntimeError, "%s: input must have at least one dimension", self.torch_typename())
        dim = int(self.dimension)
        if dim < 0:
            dim += input.dim()
        elif self.nInputDims is not None and input.dim() == int(self.nInputDims) + 1:
            dim += 1
        check(
            0 <= dim < input.dim(),
            IndexError,
            "%s: dimension %d is out of range for an input of size %s",
            self.torch_typename(),
            int(self.dimension),
            tuple(input.shape),
        )
        return dim

    def _squeeze(self, t, dim):
        return t.squeeze(dim) if t.dim() > 1 and getattr(self, "squeeze", True) else t

    def _check_grad(self, input, gradOutput, dim):
        utils.check_tensor(gradOutput, "%s: gradOutput" % self.torch_typename())
        shape = list(input.shape)
        shape[dim] = 1
        check(
            gradOutput.numel() == math.prod(shape),
            RuntimeError,
            "%s: gradOutput of size %s does not fit an input of size %s",
            self.torch_typename(),
            tuple(gradOutput.shape),
            tuple(input.shape),
        )
        return gradOutput.reshape(shape)


class Sum(_Reduction):
    """input summed over dimension (divided by its size if sizeAverage); squeeze=False
    keeps the reduced dimension."""

    sizeAverage = False
    squeeze = True

    def __init__(self, dimension=0, nInputDims=None, sizeAverage=False, squeeze=True):
        super().__init__()
        self.dimension = dimension
        self.nInputDims = nInputDims
        self.sizeAverage = sizeAverage
        self.squeeze = squeeze

    def updateOutput(self, input):
        dim = self._dim(input)
        out = input.sum(dim, keepdim=True)
        if self.sizeAverage:
            out = out / input.size(dim)
        self.output = self._squeeze(out, dim)
        return self.output

    def updateGradInput(self, input, gradOutput):
        dim = self._dim(input)
        g = self._check_grad(input, gradOutput, dim)
        if self.sizeAverage:
            g = g / input.size(dim)
        self.gradInput = g.expand_as(input).clone()
        return self.gradInput


class Mean(Sum):
    def __init__(self, dimension=0, nInputDims=None):
        super().__init__(dimension, nInputDims, True)


class Max(_Reduction):
    """The largest element over dimension; `indices` holds where it was (0-based)."""

    def __init__(self, dimension=0, nInputDims=None):
        super().__init__()
        self.dimension = dimension
        self.nInputDims = nInputDims

    def _reduce(self, input, dim):
        return input.max(dim, keepdim=True)

    def updateOutput(self, input):
        dim = self._dim(input)
        check(input.size(dim) > 0, RuntimeError, "%s: cannot reduce an empty dimension", self.torch_typename())
        values, self.indices = self._reduce(input, dim)
        self.output = self._squeeze(values, dim)
        return self.output

    def updateGradInput(self, input, gradOutput):
        dim = self._dim(input)
        g = self._check_grad(input, gradOutput, dim)
        idx = getattr(self, "indices", None)
        check(
            torch.is_tensor(idx) and tuple(idx.shape) == tuple(g.shape),
            RuntimeError,
            "%s: backward needs the forward of this input",
            self.torch_typename(),
        )
        self.gradInput = torch.zeros_like(input).scatter_(dim, idx, g)
        return self.gradInput

    def clearState(self):
        utils.clear(self, "indices")
        return super().clearState()


class Min(Max):
    """The smallest element over dimension; `indices` holds where it was (0-based)."""

    def _reduce(self, input, dim):
        return input.min(dim, keepdim=True)


class Normalize(Module):
    """input divided by its p-norm (each row of a batch): (sum |x|^p + eps)^(1/p), or
    max |x| for p = inf."""

    eps = 1e-10

    def __init__(self, p, eps=1e-10):
        super().__init__()
        check(p > 0, ValueError, "nn.Normalize: p must be positive, got %g", p)
        self.p = p
        self.eps = eps

    def _rows(self, input):
        utils.check_tensor(input, "nn.Normalize: input", (1, 2))
        return input.unsqueeze(0) if input.dim() == 1 else input

    def _norm(self, x):
        if math.isinf(self.p):
            return x.abs().max(1, keepdim=True)[0] + self.eps
        return (x.abs().pow(self.p).sum(1, keepdim=True) + self.eps).pow(1 / self.p)

    def updateOutput(self, input):
        x = self._rows(input)
        self.output = (x / self._norm(x)).reshape(input.shape)
        return self.output

    def updateGradInput(self, input, gradOutput):
        x = self._rows(input)
        utils.same_size(input, gradOutput, "nn.Normalize: input", "gradOutput")
        go = gradOutput.reshape(x.shape)
        n = self._norm(x)
        # d n / d x_j: sign(x_j) |x_j|^(p-1) / n^(p-1), or sign(x_j) at the largest |x_j| for p = inf
        if math.isinf(self.p):
            dn = torch.zeros_like(x).scatter_(1, x.abs().max(1, keepdim=True)[1], 1) * torch.sign(x)
        else:
            dn = torch.sign(x) * x.abs().pow(self.p - 1) / n.pow(self.p - 1)
        self.gradInput = (go / n - (go * x).sum(1, keepdim=True) * dn / (n * n)).reshape(input.shape)
        return self.gradInput

    def __repr__(self):
        return "nn.Normalize(%g)" % self.p


def _pair(name, input):
    check(
        isinstance(input, (list, tuple)) and len(input) == 2,
        TypeError,
        "%s: input must be a table of two tensors",
        name,
    )
    utils.check_tensor(input[0], "%s: input[0]" % name)
    utils.check_tensor(input[1], "%s: input[1]" % name)
    return input


class MM(Module):
    """{A, B} -> A B (matrices, or batches of them in 3-D), A and B transposed first if
    transA / transB."""

    transA = False
    transB = False

    def __init__(self, transA=False, transB=False):
        super().__init__()
        self.transA = transA
        self.transB = transB
        self.gradInput = [torch.empty(0), torch.empty(0)]

    def _operands(self, input):
        a, b = _pair("nn.MM", input)
        check(
            a.dim() == b.dim() and a.dim() in (2, 3),
            RuntimeError,
            "nn.MM: inputs must be two matrices or two batches of matrices, got sizes %s and %s",
            tuple(a.shape),
            tuple(b.shape),
        )
        if self.transA:
            a = a.transpose(-1, -2)
        if self.transB:
            b = b.transpose(-1, -2)
        check(
            a.size(-1) == b.size(-2) and (a.dim() == 2 or a.size(0) == b.size(0)),
            RuntimeError,
            "nn.MM: sizes %s and %s (after transposition) do not multiply",
            tuple(a.shape),
            tuple(b.shape),
        )
        return a, b

    def updateOutput(self, input):
        a, b = self._operands(input)
        self.output = torch.matmul(a, b)
        return self.output

    def updateGradInput(self, input, gradOutput):
        a, b = self._operands(input)
        utils.same_size(torch.empty(tuple(a.shape[:-1]) + (b.size(-1),)), gradOutput, "nn.MM: output", "gradOutput")
        ga = torch.matmul(gradOutput, b.transpose(-1, -2))
        gb = torch.matmul(a.transpose(-1, -2), gradOutput)
        if self.transA:
            ga = ga.transpose(-1, -2)
        if self.transB:
            gb = gb.transpose(-1, -2)
        self.gradInput = [ga, gb]
        return self.gradInput


class MV(Module):
    """{M, v} -> M v (a matrix and a vector, or batches of them), M transposed if trans."""

    trans = False

    def __init__(self, trans=False):
        super().__init__()
        self.trans = trans
        self.gradInput = [torch.empty(0), torch.empty(0)]

    def _operands(self, input):
        m, v = _pair("nn.MV", input)
        check(
            (m.dim(), v.dim()) in ((2, 1), (3, 2)),
            RuntimeError,
            "nn.MV: inputs must be a matrix and a vector or batches of them, got sizes %s and %s",
            tuple(m.shape),
            tuple(v.shape),
        )
        if self.trans:
            m = m.transpose(-1, -2)
        check(
            m.size(-1) == v.size(-1) and (m.dim() == 2 or m.size(0) == v.size(0)),
            RuntimeError,
            "nn.MV: sizes %s and %s do not multiply",
            tuple(m.shape),
            tuple(v.shape),
        )
        return m, v

    def updateOutput(self, input):
        m, v = self._operands(input)
        self.output = torch.matmul(m, v.unsqueeze(-1)).squeeze(-1)
        return self.output

    def updateGradInput(self, input, gradOutput):
        m, v = self._operands(input)
        utils.check_tensor(gradOutput, "nn.MV: gradOutput")
        check(
            tuple(gradOutput.shape) == tuple(m.shape[:-1]),
            RuntimeError,
            "nn.MV: gradOutput of size %s must have size %s",
            tuple(gradOutput.shape),
            tuple(m.shape[:-1]),
        )
        gm = gradOutput.unsqueeze(-1) * v.unsqueeze(-2)
        gv = torch.matmul(m.transpose(-1, -2), gradOutput.unsqueeze(-1)).squeeze(-1)
        if self.trans:
            gm = gm.transpose(-1, -2)
        self.gradInput = [gm, gv]
        return self.gradInput
