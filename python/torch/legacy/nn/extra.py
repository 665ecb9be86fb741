"""More of torch7's nn: element-wise and shape modules, table modules, decorators, extra
criterions and the StochasticGradient trainer, with torch7's names, constructor arguments
and fields (a module saved by the Lua package loads here and computes the same).

Indices and dimensions are 0-based as everywhere in torch.legacy.nn: GatedLinearUnit's
`dim`, WeightNorm's `outputDim`, Convert's `perm`/`flatAt`, CMaxTable's `maxIdx` and
TemporalDynamicKMaxPooling's `indices` (t7fields shifts them on load and save).
"""

import math
import sys
import time

import torch
from torch.legacy.nn import utils
from torch.legacy.nn._object import TorchObject
from torch.legacy.nn.activations import Tanh
from torch.legacy.nn.containers import Container
from torch.legacy.nn.criterion import Criterion
from torch.legacy.nn.criterions import ClassNLLCriterion, MSECriterion, _loss
from torch.legacy.nn.module import Module
from torch.legacy.nn.tables import _same_sizes, _table
from torch.legacy.nn.utils import check, check_grad_output, of_type, thnn

__all__ = [
    "CAddTensorTable",
    "CMaxTable",
    "CMinTable",
    "CReLU",
    "Collapse",
    "Constant",
    "Convert",
    "CriterionTable",
    "Decorator",
    "DistanceRatioCriterion",
    "DontCast",
    "GatedLinearUnit",
    "L1Cost",
    "MaskedSelect",
    "ModuleCriterion",
    "NaN",
    "PixelShuffle",
    "Profile",
    "SpatialAutoCropMSECriterion",
    "SpatialClassNLLCriterion",
    "SpatialLogSoftMax",
    "StochasticGradient",
    "TanhShrink",
    "TemporalDynamicKMaxPooling",
    "WeightNorm",
    "WeightedMSECriterion",
    "ZeroGrad",
    "ZipTable",
    "ZipTableOneToMany",
]


def _dim(name, d, n):
    """A 0-based dimension (negative: from the end) of an n-dimensional tensor, checked."""
    d = int(d)
    check(-n <= d < n, IndexError, "%s: dimension %d out of range for a %d-D tensor", name, d, n)
    return d % n


# ================================================================ element-wise and shapes


class CMaxTable(Module):
    """The element-wise maximum of a table of tensors of one size; the gradient goes to the
    first input holding the maximum. `maxIdx` (of the input's type) holds, per element, the
    0-based position in the table of the input chosen."""

    sign = 1

    def __init__(self):
        super().__init__()
        self.gradInput = []
        self.sign = type(self).sign

    def updateOutput(self, input):
        name = self.torch_typename()
        _table(name, input)
        check(len(input) > 0, ValueError, "%s: input must hold at least one tensor", name)
        _same_sizes(name, input)
        out = input[0].clone()
        idx = torch.zeros(out.shape, dtype=out.dtype)
        sign = float(self.sign)
        for i, t in enumerate(input[1:], 1):
            better = (t - out) * sign > 0
            out = torch.where(better, t, out)
            idx.masked_fill_(better, i)
        self.maxIdx = idx
        self.output = out
        return out

    def updateGradInput(self, input, gradOutput):
        name = self.torch_typename()
        _same_sizes(name, list(_table(name, input)) + [gradOutput])
        idx = self.__dict__.get("maxIdx")
        check(
            torch.is_tensor(idx) and idx.shape == gradOutput.shape,
            RuntimeError,
            "%s: backward needs the forward of an input of gradOutput's size %s",
            name,
            tuple(gradOutput.shape),
        )
        self.gradInput = [gradOutput * (idx == i).to(gradOutput.dtype) for i in range(len(input))]
        return self.gradInput

    def clearState(self):
        utils.clear(self, "maxIdx", "mask", "diff")
        return super().clearState()


class CMinTable(CMaxTable):
    """The element-wise minimum (CMaxTable with sign -1)."""

    sign = -1


class CReLU(Module):
    """ReLU(x) and ReLU(-x) concatenated along the feature dimension (the first of an
    nInputDims-dimensional sample, the second of a batch): twice the features."""

    inplace = False

    def __init__(self, nInputDims, inplace=False):
        super().__init__()
        check(
            isinstance(nInputDims, int) and nInputDims >= 1,
            TypeError,
            "nn.CReLU(nInputDims[, inplace]): nInputDims must be a positive int, got %r",
            nInputDims,
        )
        self.nInputDims = nInputDims
        self.inplace = inplace

    def _feature_dim(self, input):
        utils.check_tensor(input, "nn.CReLU: input")
        n = int(self.nInputDims)
        check(
            input.dim() in (n, n + 1),
            RuntimeError,
            "nn.CReLU: %d-D input (or %d-D batch) expected, got size %s",
            n,
            n + 1,
            tuple(input.shape),
        )
        return 0 if input.dim() == n else 1

    def updateOutput(self, input):
        d = self._feature_dim(input)
        self.output = torch.cat([input.clamp(min=0), (-input).clamp(min=0)], d)
        return self.output

    def updateGradInput(self, input, gradOutput):
        d = self._feature_dim(input)
        n = input.size(d)
        expected = list(input.shape)
        expected[d] = 2 * n
        check(
            list(gradOutput.shape) == expected,
            RuntimeError,
            "nn.CReLU: gradOutput of size %s, expected %s",
            tuple(gradOutput.shape),
            tuple(expected),
        )
        pos, neg = (input > 0).to(input.dtype), (input < 0).to(input.dtype)
        self.gradInput = gradOutput.narrow(d, 0, n) * pos - gradOutput.narrow(d, n, n) * neg
        return self.gradInput

    def __repr__(self):
        return "%s(%d)" % (self.torch_typename(), self.nInputDims)


class Collapse(Module):
    """Flattens a sample of nInputDim dimensions into a vector, each sample of a batch (an
    input with more dimensions) into a row."""

    def __init__(self, nInputDim):
        super().__init__()
        self.nInputDim = nInputDim

    def updateOutput(self, input):
        utils.check_tensor(input, "nn.Collapse: input")
        x = input.contiguous()
        if x.dim() > int(self.nInputDim):
            self.output = x.view(x.size(0), -1) if x.numel() else x.reshape(x.size(0), 0)
        else:
            self.output = x.view(-1)
        return self.output

    def updateGradInput(self, input, gradOutput):
        check(
            gradOutput.numel() == input.numel(),
            RuntimeError,
            "nn.Collapse: gradOutput of size %s for an input of size %s",
            tuple(gradOutput.shape),
            tuple(input.shape),
        )
        self.gradInput = gradOutput.contiguous().view(input.shape)
        return self.gradInput

    def __repr__(self):
        return "%s(%d)" % (self.torch_typename(), self.nInputDim)


class Constant(Module):
    """Outputs `value` (a number or a tensor) whatever the input, once per sample when the
    input has more than nInputDim dimensions; the input's gradient is zero."""

    nInputDim = None

    def __init__(self, value, nInputDim=None):
        super().__init__()
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            value = torch.tensor([float(value)], dtype=torch.get_default_dtype())
        check(
            torch.is_tensor(value),
            TypeError,
            "nn.Constant(value[, nInputDim]): value must be a number or a tensor, got %s",
            type(value).__name__,
        )
        self.value = value
        self.nInputDim = nInputDim

    def updateOutput(self, input):
        utils.check_tensor(input, "nn.Constant: input")
        value = self.value
        if self.nInputDim is not None and input.dim() > int(self.nInputDim):
            self.output = value.unsqueeze(0).expand((input.size(0),) + tuple(value.shape)).clone()
        else:
            self.output = value.clone()
        return self.output

    def updateGradInput(self, input, gradOutput):
        self.gradInput = torch.zeros_like(input)
        return self.gradInput


class Convert(Module):
    """Converts the input to the module's type and, given shapes (one letter per
    dimension, 'bchw'), reorders its dimensions to outputShape; 'f' in outputShape (when
    inputShape has none) stands for the input dimensions outputShape leaves out, flattened
    in order: Convert('bchw', 'bf') flattens each sample. `perm`: the input dimensions in
    output order (0-based); `flatAt`, `nFlat`: where the flattened ones start and how many."""

    inputShape = outputShape = perm = flatAt = None
    nFlat = 0

    def __init__(self, inputShape=None, outputShape=None):
        super().__init__()
        check(
            (inputShape is None) == (outputShape is None),
            ValueError,
            "nn.Convert([inputShape, outputShape]): give both shapes or neither",
        )
        self.inputShape, self.outputShape = inputShape, outputShape
        if inputShape is not None:
            self._plan()

    def _plan(self):
        ins, outs = self.inputShape, self.outputShape
        position = {}
        for i, c in enumerate(ins):
            check(c not in position, ValueError, "nn.Convert: letter %s repeated in %s", c, ins)
            position[c] = i
        perm, flat_at = [], None
        for c in outs:
            if c in position:
                perm.append(position[c])
            elif c == "f" and flat_at is None:
                flat_at = len(perm)
            else:
                raise ValueError("nn.Convert: output dimension %s is not in the input shape %s" % (c, ins))
        rest = [i for i in range(len(ins)) if i not in perm]
        check(
            not rest or flat_at is not None,
            ValueError,
            "nn.Convert: output shape %s drops input dimensions of %s (use f to flatten them)",
            outs,
            ins,
        )
        if flat_at is not None:
            perm[flat_at:flat_at] = rest
        self.perm, self.flatAt, self.nFlat = perm, flat_at, len(rest)

    def _module_dtype(self):
        t = self.__dict__.get("_type")
        if isinstance(t, str):
            try:
                return utils.dtype_of(t)
            except TypeError:
                pass
        return self._dtype()

    def _perm(self):
        return [int(p) for p in self.perm]

    def _output_size(self, p):
        size = list(p.shape)
        if self.flatAt is not None:
            a, n = int(self.flatAt), int(self.nFlat)
            size[a : a + n] = [math.prod(size[a : a + n])]
        return size

    def updateOutput(self, input):
        utils.check_tensor(input, "nn.Convert: input")
        dtype = self._module_dtype()
        typed = input if input.dtype == dtype else input.to(dtype)
        if self.perm is None:
            self.output = typed
            return typed
        check(
            input.dim() == len(self.inputShape),
            RuntimeError,
            "nn.Convert: a %d-D input (%s) expected, got size %s",
            len(self.inputShape),
            self.inputShape,
            tuple(input.shape),
        )
        p = typed.permute(self._perm())
        self.output = p.contiguous().view(self._output_size(p))
        return self.output

    def updateGradInput(self, input, gradOutput):
        check(
            gradOutput.numel() == input.numel(),
            RuntimeError,
            "nn.Convert: gradOutput of size %s for an input of size %s",
            tuple(gradOutput.shape),
            tuple(input.shape),
        )
        gi = torch.empty(input.shape, dtype=input.dtype)
        if self.perm is None:
            gi.copy_(gradOutput.reshape(input.shape))
        else:
            p = gi.permute(self._perm())
            p.copy_(gradOutput.contiguous().view(p.shape))
        self.gradInput = gi
        return gi

    def __repr__(self):
        if self.inputShape is not None:
            return "%s(%s -> %s)" % (self.torch_typename(), self.inputShape, self.outputShape)
        return self.torch_typename()


class GatedLinearUnit(Module):
    """Splits the input in halves a, b along dim (0-based; default the last) and returns
    a * sigmoid(b). `gate` keeps sigmoid(b)."""

    dim = None

    def __init__(self, dim=None):
        super().__init__()
        self.dim = dim

    def _halves(self, input):
        name = "nn.GatedLinearUnit"
        utils.check_tensor(input, "%s: input" % name)
        check(input.dim() >= 1, RuntimeError, "%s: input must have a dimension", name)
        d = input.dim() - 1 if self.dim is None else _dim(name, self.dim, input.dim())
        n = input.size(d)
        check(n % 2 == 0, RuntimeError, "%s: dimension %d must have an even size, got %d", name, d, n)
        return d, n // 2

    def updateOutput(self, input):
        d, h = self._halves(input)
        self.gate = torch.sigmoid(input.narrow(d, h, h))
        self.output = input.narrow(d, 0, h) * self.gate
        return self.output

    def updateGradInput(self, input, gradOutput):
        d, h = self._halves(input)
        a = input.narrow(d, 0, h)
        utils.same_size(a, gradOutput, "nn.GatedLinearUnit: half of the input", "gradOutput")
        gate = torch.sigmoid(input.narrow(d, h, h))
        self.gate = gate
        self.gradInput = torch.cat([gradOutput * gate, gradOutput * a * gate * (1 - gate)], d)
        return self.gradInput

    def clearState(self):
        utils.clear(self, "gate")
        return super().clearState()


class MaskedSelect(Module):
    """Input {tensor, mask} (mask of the tensor's element count, read in order): the vector
    of the elements where the mask is non-zero. The mask's gradient is zeros."""

    def __init__(self):
        super().__init__()
        dtype = torch.get_default_dtype()
        self.gradInput = [torch.empty(0, dtype=dtype), torch.empty(0, dtype=dtype)]

    @staticmethod
    def _check(input):
        check(
            isinstance(input, (list, tuple))
            and len(input) == 2
            and torch.is_tensor(input[0])
            and torch.is_tensor(input[1]),
            TypeError,
            "nn.MaskedSelect: a table {input, mask} of two tensors expected",
        )
        check(
            input[0].numel() == input[1].numel(),
            RuntimeError,
            "nn.MaskedSelect: the mask (%s) must have the input's size (%s)",
            tuple(input[1].shape),
            tuple(input[0].shape),
        )
        return input[0], input[1].reshape(-1) != 0

    def updateOutput(self, input):
        x, mask = self._check(input)
        self.output = x.reshape(-1)[mask]
        return self.output

    def updateGradInput(self, input, gradOutput):
        x, mask = self._check(input)
        n = int(mask.sum())
        check(
            torch.is_tensor(gradOutput) and gradOutput.numel() == n,
            RuntimeError,
            "nn.MaskedSelect: gradOutput must hold %d elements, got %s",
            n,
            tuple(gradOutput.shape) if torch.is_tensor(gradOutput) else type(gradOutput).__name__,
        )
        gi = torch.zeros(x.numel(), dtype=x.dtype)
        gi[mask] = gradOutput.reshape(-1).to(x.dtype)
        self.gradInput = [gi.view(x.shape), torch.zeros(input[1].shape, dtype=x.dtype)]
        return self.gradInput


class PixelShuffle(Module):
    """C r^2 x H x W (or a batch) -> C x H r x W r:
    output[c][h r + i][w r + j] = input[c r^2 + i r + j][h][w]."""

    def __init__(self, upscaleFactor):
        super().__init__()
        check(
            isinstance(upscaleFactor, int) and upscaleFactor >= 1,
            ValueError,
            "nn.PixelShuffle(upscaleFactor): upscaleFactor must be a positive int, got %r",
            upscaleFactor,
        )
        self.upscaleFactor = upscaleFactor
        self.upscaleFactorSquared = upscaleFactor * upscaleFactor

    def _sizes(self, input):
        name = "nn.PixelShuffle"
        utils.check_tensor(input, "%s: input" % name, (3, 4))
        x = input if input.dim() == 4 else input.unsqueeze(0)
        r2 = int(self.upscaleFactorSquared)
        check(
            x.size(1) % r2 == 0,
            RuntimeError,
            "%s: the channel count %d is not a multiple of upscaleFactor^2 = %d",
            name,
            x.size(1),
            r2,
        )
        return x, x.size(0), x.size(1) // r2, x.size(2), x.size(3)

    def updateOutput(self, input):
        x, b, c, h, w = self._sizes(input)
        r = int(self.upscaleFactor)
        out = x.reshape(b, c, r, r, h, w).permute(0, 1, 4, 2, 5, 3).reshape(b, c, h * r, w * r)
        self.output = out if input.dim() == 4 else out[0]
        return self.output

    def updateGradInput(self, input, gradOutput):
        x, b, c, h, w = self._sizes(input)
        r = int(self.upscaleFactor)
        check(
            gradOutput.numel() == x.numel(),
            RuntimeError,
            "nn.PixelShuffle: gradOutput of size %s for an input of size %s",
            tuple(gradOutput.shape),
            tuple(input.shape),
        )
        g = gradOutput.reshape(b, c, h, r, w, r).permute(0, 1, 3, 5, 2, 4)
        self.gradInput = g.reshape(input.shape)
        return self.gradInput

    def __repr__(self):
        return "%s(%d)" % (self.torch_typename(), self.upscaleFactor)


class SpatialLogSoftMax(Module):
    """LogSoftMax across the planes at each position of C x H x W images or batches (THNN's
    LogSoftMax works across dimension 0 of 3-D and 1 of 4-D input)."""

    def updateOutput(self, input):
        utils.check_tensor(input, "nn.SpatialLogSoftMax: input", (3, 4))
        kernels = thnn(self, input)
        out = input.new_empty(0)
        kernels.LogSoftMax_updateOutput(input, out)
        self.output = out
        return out

    def updateGradInput(self, input, gradOutput):
        utils.check_tensor(input, "nn.SpatialLogSoftMax: input", (3, 4))
        check_grad_output(self, input, gradOutput)
        kernels = thnn(self, input)
        gi = input.new_empty(0)
        kernels.LogSoftMax_updateGradInput(input, gradOutput, gi, self.output)
        self.gradInput = gi
        return gi


class TanhShrink(Module):
    """y = x - tanh(x); `tanh` is the nn.Tanh it goes through."""

    def __init__(self):
        super().__init__()
        self.tanh = Tanh()

    def updateOutput(self, input):
        self.output = input - self.tanh.updateOutput(input)
        return self.output

    def updateGradInput(self, input, gradOutput):
        self.tanh.updateOutput(input)
        self.gradInput = gradOutput - self.tanh.updateGradInput(input, gradOutput)
        return self.gradInput


class TemporalDynamicKMaxPooling(Module):
    """For each feature of a frames x features input (or a batch), the k largest values
    over time in their time order, k = max(minK, ceil(factor * frames)). `indices`: the
    0-based frames chosen."""

    factor = 0

    def __init__(self, minK, factor=0):
        super().__init__()
        check(
            isinstance(minK, int) and minK >= 1,
            ValueError,
            "nn.TemporalDynamicKMaxPooling(minK[, factor]): minK must be an int >= 1, got %r",
            minK,
        )
        self.minK, self.factor = minK, factor

    def _k(self, input):
        name = "nn.TemporalDynamicKMaxPooling"
        utils.check_tensor(input, "%s: input" % name, (2, 3))
        d = input.dim() - 2
        n = input.size(d)
        k = max(int(self.minK), math.ceil(float(self.factor) * n))
        check(k <= n, RuntimeError, "%s: k = %d exceeds the sequence length %d", name, k, n)
        return d, k

    def updateOutput(self, input):
        d, k = self._k(input)
        top = input.topk(k, d, True)[1]
        self.indices = top.sort(d)[0]
        self.output = input.gather(d, self.indices)
        return self.output

    def updateGradInput(self, input, gradOutput):
        d, k = self._k(input)
        idx = self.__dict__.get("indices")
        check(
            torch.is_tensor(idx) and idx.shape == gradOutput.shape,
            RuntimeError,
            "nn.TemporalDynamicKMaxPooling: gradOutput of size %s does not match the last forward's output",
            tuple(gradOutput.shape),
        )
        self.gradInput = torch.zeros_like(input).scatter_(d, idx.long(), gradOutput.to(input.dtype))
        return self.gradInput

    def clearState(self):
        utils.clear(self, "indices")
        return super().clearState()


class ZeroGrad(Module):
    """The identity forward (the output is the input), a zero gradient backward."""

    def updateOutput(self, input):
        self.output = input
        return input

    def updateGradInput(self, input, gradOutput):
        self.gradInput = torch.zeros_like(input)
        return self.gradInput


# ================================================================ tables


def _zip(t, what):
    check(isinstance(t, (list, tuple)), TypeError, "%s: a table of tables expected, got %s", what, type(t).__name__)
    out = []
    for i, inner in enumerate(t):
        check(isinstance(inner, (list, tuple)), TypeError, "%s: element %d is not a table", what, i)
        check(
            len(inner) == len(t[0]),
            ValueError,
            "%s: table %d has %d elements, table 0 has %d",
            what,
            i,
            len(inner),
            len(t[0]),
        )
        for j, v in enumerate(inner):
            if j == len(out):
                out.append([])
            out[j].append(v)
    return out


class ZipTable(Module):
    """{{a1, a2, ...}, {b1, b2, ...}} -> {{a1, b1}, {a2, b2}, ...}; the gradient is zipped
    back the same way."""

    def __init__(self):
        super().__init__()
        self.output = []
        self.gradInput = []

    def updateOutput(self, input):
        self.output = _zip(input, "nn.ZipTable")
        return self.output

    def updateGradInput(self, input, gradOutput):
        self.gradInput = _zip(gradOutput, "nn.ZipTable (gradOutput)")
        return self.gradInput


class ZipTableOneToMany(Module):
    """{v, {a, b, c}} -> {{v, a}, {v, b}, {v, c}}; v's gradient (`gradInputEl`) is the sum
    of its copies' gradients."""

    def __init__(self):
        super().__init__()
        self.output = []
        self.gradInput = []
        self.gradInputEl = torch.empty(0, dtype=torch.get_default_dtype())

    @staticmethod
    def _check(input):
        check(
            isinstance(input, (list, tuple)) and len(input) == 2 and isinstance(input[1], (list, tuple)),
            TypeError,
            "nn.ZipTableOneToMany: a table {element, {elements...}} expected",
        )

    def updateOutput(self, input):
        self._check(input)
        self.output = [[input[0], v] for v in input[1]]
        return self.output

    def updateGradInput(self, input, gradOutput):
        self._check(input)
        check(
            isinstance(gradOutput, (list, tuple)) and len(gradOutput) == len(input[1]),
            ValueError,
            "nn.ZipTableOneToMany: gradOutput must be a table of %d pairs",
            len(input[1]),
        )
        el = torch.zeros_like(input[0])
        for g in gradOutput:
            utils.same_size(el, g[0], "nn.ZipTableOneToMany: element", "its gradient")
            el.add_(g[0])
        self.gradInputEl = el
        self.gradInput = [el, [g[1] for g in gradOutput]]
        return self.gradInput


class CAddTensorTable(Module):
    """{x, {y1, ..., yn}} -> {x + y1, ..., x + yn}, every yi of x's size; the gradient is
    {the sum of the gradOutputs, {gradOutput1, ..., gradOutputn}}."""

    def __init__(self):
        super().__init__()
        self.output = []
        self.gradInput = []

    @staticmethod
    def _check(input):
        name = "nn.CAddTensorTable"
        check(
            isinstance(input, (list, tuple))
            and len(input) == 2
            and torch.is_tensor(input[0])
            and isinstance(input[1], (list, tuple)),
            TypeError,
            "%s: input {tensor, {tensors...}} expected",
            name,
        )
        for i, y in enumerate(input[1]):
            utils.same_size(input[0], y, "%s: input[0]" % name, "input[1][%d]" % i)
        return input

    def updateOutput(self, input):
        x, ys = self._check(input)
        self.output = [y + x for y in ys]
        return self.output

    def updateGradInput(self, input, gradOutput):
        x, ys = self._check(input)
        check(
            isinstance(gradOutput, (list, tuple)) and len(gradOutput) == len(ys),
            TypeError,
            "nn.CAddTensorTable: gradOutput must be a table of %d tensors",
            len(ys),
        )
        grad_x = torch.zeros_like(x)
        for i, g in enumerate(gradOutput):
            utils.same_size(x, g, "nn.CAddTensorTable: input[0]", "gradOutput[%d]" % i)
            grad_x.add_(g)
        self.gradInput = [grad_x, [g.clone() for g in gradOutput]]
        return self.gradInput


# ================================================================ decorators


class Decorator(Container):
    """A container of one module that passes every call on to it; subclasses change one
    aspect (casting, checks, timing, reparameterization)."""

    def __init__(self, module):
        super().__init__()
        check(
            isinstance(module, Module),
            TypeError,
            "%s(module): a module is required, got %s",
            self.torch_typename(),
            type(module).__name__,
        )
        self.modules = [module]

    def updateOutput(self, input):
        self.output = self.modules[0].updateOutput(input)
        return self.output

    def updateGradInput(self, input, gradOutput):
        self.gradInput = self.modules[0].updateGradInput(input, gradOutput)
        return self.gradInput

    def accGradParameters(self, input, gradOutput, scale=1):
        self.modules[0].accGradParameters(input, gradOutput, scale)

    def accUpdateGradParameters(self, input, gradOutput, lr):
        self.modules[0].accUpdateGradParameters(input, gradOutput, lr)

    def sharedAccUpdateGradParameters(self, input, gradOutput, lr):
        self.modules[0].sharedAccUpdateGradParameters(input, gradOutput, lr)

    def __repr__(self):
        return "%s @ %s" % (self.torch_typename(), repr(self.modules[0]).replace("\n", "\n "))


def _tensor_type(t):
    """The torch7 type name of the first tensor in t (a tensor or nested tables), or None."""
    if torch.is_tensor(t):
        return t.type()
    if isinstance(t, (list, tuple)):
        for v in t:
            name = _tensor_type(v)
            if name is not None:
                return name
    elif isinstance(t, dict):
        for v in t.values():
            name = _tensor_type(v)
            if name is not None:
                return name
    return None


def _type_copy(t, typename):
    """t with every tensor converted to typename (new tensors; tables rebuilt)."""
    if torch.is_tensor(t):
        return t.type(typename).clone() if t.type() == typename else t.type(typename)
    if isinstance(t, (list, tuple)):
        return [_type_copy(v, typename) for v in t]
    if isinstance(t, dict):
        return {k: _type_copy(v, typename) for k, v in t.items()}
    return t


class DontCast(Decorator):
    """A decorator whose type() leaves the module's type alone (unless castLayer). Inputs
    are converted to the module's type (inputType, else the module's own) and outputs to
    outputType (the type given to type(), else the input's); gradients make the same trip
    back. Types are torch7 names ('torch.FloatTensor')."""

    castLayer = False
    outputType = inputType = None

    def __init__(self, module, castLayer=False, outputType=None, inputType=None):
        super().__init__(module)
        self.castLayer = castLayer
        self.outputType = outputType
        self.inputType = inputType

    def _module_type(self):
        m = self.modules[0]
        t = m.__dict__.get("_type")
        return t if isinstance(t, str) else None

    def updateOutput(self, input):
        self._outputType = self.outputType or _tensor_type(input)
        module_type = self.inputType or self._module_type()
        if module_type and _tensor_type(input) != module_type:
            self._input = _type_copy(input, module_type)
        else:
            self._input = input
        out = self.modules[0].updateOutput(self._input)
        if self._outputType and _tensor_type(out) != self._outputType:
            self.output = _type_copy(out, self._outputType)
            self._output = self.output
        else:
            self.output = out
        return self.output

    def updateGradInput(self, input, gradOutput):
        module_type = _tensor_type(self.modules[0].output)
        if module_type and _tensor_type(gradOutput) != module_type:
            self._gradOutput = _type_copy(gradOutput, module_type)
            g = self._gradOutput
        else:
            g = gradOutput
        gi = self.modules[0].updateGradInput(self.__dict__.get("_input", input), g)
        input_type = _tensor_type(input)
        if input_type and _tensor_type(gi) != input_type:
            self.gradInput = _type_copy(gi, input_type)
            self._gradInput = self.gradInput
        else:
            self.gradInput = gi
        return self.gradInput

    def accGradParameters(self, input, gradOutput, scale=1):
        module_type = _tensor_type(self.modules[0].output)
        g = gradOutput
        if module_type and _tensor_type(gradOutput) != module_type:
            g = _type_copy(gradOutput, module_type)
        self.modules[0].accGradParameters(self.__dict__.get("_input", input), g, scale)

    def type(self, type=None, tensorCache=None):
        if type is None:
            return self.__dict__.get("_type")
        name = utils.typename_of(utils.dtype_of(type))
        if self.castLayer:
            self.modules[0].type(name, tensorCache)
        self.outputType = name
        self._type = name
        return self


class NaN(Decorator):
    """A decorator that raises RuntimeError naming the module (and `id`) as soon as its
    input, output, gradOutput, gradInput or a parameter gradient holds a NaN."""

    _count = 0

    def __init__(self, module, id=None):
        super().__init__(module)
        if id is None:
            NaN._count += 1
            id = NaN._count
        self.id = id

    @staticmethod
    def recursiveIsNaN(t):
        if torch.is_tensor(t):
            return t.is_floating_point() and bool((t != t).any())
        if isinstance(t, (list, tuple)):
            return any(NaN.recursiveIsNaN(v) for v in t)
        if isinstance(t, dict):
            return any(NaN.recursiveIsNaN(v) for v in t.values())
        return False

    def _check(self, what, t):
        if self.recursiveIsNaN(t):
            raise RuntimeError(
                "NaN found in %s of module %s (id %s):\n%s"
                % (what, self.modules[0].torch_typename(), self.id, repr(self.modules[0]))
            )

    def updateOutput(self, input):
        self._check("input", input)
        self.output = self.modules[0].updateOutput(input)
        self._check("output", self.output)
        return self.output

    def updateGradInput(self, input, gradOutput):
        self._check("gradOutput", gradOutput)
        self.gradInput = self.modules[0].updateGradInput(input, gradOutput)
        self._check("gradInput", self.gradInput)
        return self.gradInput

    def accGradParameters(self, input, gradOutput, scale=1):
        self.modules[0].accGradParameters(input, gradOutput, scale)
        params = self.modules[0].parameters()
        if params:
            self._check("gradParameters", params[1])

    def __repr__(self):
        return "%s(%s) @ %s" % (self.torch_typename(), self.id, repr(self.modules[0]))


class Profile(Decorator):
    """A decorator that times the module's forward and backward and prints their mean time
    every print_interval calls (the Lua module's `timer` object, if loaded, is not used)."""

    print_interval = 100

    def __init__(self, module, print_interval=100, name=None):
        super().__init__(module)
        self.print_interval = print_interval
        self.name = name if name is not None else module.torch_typename()
        self.resetTimes()

    def resetTimes(self):
        self.forwardTime = self.backwardTime = 0
        self.forwardCount = self.backwardCount = 0
        self.summedForwardTime = self.summedBackwardTime = 0

    def _timed(self, kind, fn):
        start = time.perf_counter()
        result = fn()
        spent = time.perf_counter() - start
        count = getattr(self, kind + "Count", 0) + 1
        summed = getattr(self, "summed%sTime" % kind.capitalize(), 0) + spent
        interval = int(self.print_interval)
        if count % interval == 0:
            print("%s took %.4f seconds per %s (mean of %d)" % (self.name, summed / interval, kind, interval))
            summed = 0
        setattr(self, kind + "Time", spent)
        setattr(self, kind + "Count", count)
        setattr(self, "summed%sTime" % kind.capitalize(), summed)
        return result

    def updateOutput(self, input):
        self.output = self._timed("forward", lambda: self.modules[0].forward(input))
        return self.output

    def backward(self, input, gradOutput, scale=1):
        self.gradInput = self._timed("backward", lambda: self.modules[0].backward(input, gradOutput, scale))
        return self.gradInput


class WeightNorm(Decorator):
    """Reparameterizes module.weight as w = g v / |v| (Salimans & Kingma), one norm per
    slice along outputDim (0-based): the parameters become v (nOutput x the rest), g
    (nOutput) and the module's bias. v and g start from the module's weight, so the
    decorated module computes what it did."""

    outputDim = 0

    def __init__(self, module, outputDim=0):
        super().__init__(module)
        check(
            torch.is_tensor(getattr(module, "weight", None)),
            ValueError,
            "nn.WeightNorm(module[, outputDim]): the module must have a weight",
        )
        self.weight, self.gradWeight = module.weight, module.gradWeight
        if getattr(module, "bias", None) is not None:
            self.bias, self.gradBias = module.bias, module.gradBias
        self.outputDim = _dim("nn.WeightNorm", outputDim, self.weight.dim())
        n_out = self.weight.size(self.outputDim)
        self.otherDims = self.weight.numel() // n_out
        self.viewIn = torch.LongStorage([n_out, self.otherDims])
        view_out = list(self.weight.shape)
        view_out.insert(0, view_out.pop(self.outputDim))
        self.viewOut = torch.LongStorage(view_out)
        dtype = self.weight.dtype
        self.v = torch.empty(n_out, self.otherDims, dtype=dtype)
        self.g = torch.empty(n_out, dtype=dtype)
        self.gradV = torch.zeros(n_out, self.otherDims, dtype=dtype)
        self.gradG = torch.zeros(n_out, dtype=dtype)
        self._norm = torch.empty(n_out, dtype=dtype)
        self.resetInit()

    def _od(self):
        return int(self.outputDim)

    def _weight_matrix(self, w):
        return w.movedim(self._od(), 0).reshape(w.size(self._od()), -1)

    def resetInit(self):
        self.v.copy_(self._weight_matrix(self.weight))
        self.g.copy_(self.v.norm(2, 1))

    def updateWeight(self):
        self._norm = self.v.norm(2, 1)
        w = self.v * (self.g / self._norm).unsqueeze(1)
        target = self.weight.movedim(self._od(), 0)
        target.copy_(w.reshape(target.shape))

    def updateOutput(self, input):
        self.updateWeight()
        self.output = self.modules[0].updateOutput(input)
        return self.output

    def accGradParameters(self, input, gradOutput, scale=1):
        self.gradWeight.zero_()
        self.modules[0].accGradParameters(input, gradOutput, scale)
        gw = self._weight_matrix(self.gradWeight)
        norm = self.v.norm(2, 1)
        self._norm = norm
        unit = self.v / norm.unsqueeze(1)
        # dL/dg = <dL/dw, v/|v|>; dL/dv = g/|v| (dL/dw - dL/dg v/|v|)
        dg = (gw * unit).sum(1)
        self.gradG.add_(dg)
        self.gradV.add_((gw - unit * dg.unsqueeze(1)) * (self.g / norm).unsqueeze(1))

    def parameters(self):
        if getattr(self, "bias", None) is not None:
            return [self.v, self.g, self.bias], [self.gradV, self.gradG, self.gradBias]
        return [self.v, self.g], [self.gradV, self.gradG]

    def zeroGradParameters(self):
        for g in self.parameters()[1]:
            g.zero_()

    def updateParameters(self, learningRate):
        for p, g in zip(*self.parameters()):
            p.add_(g, alpha=-learningRate)

    def accUpdateGradParameters(self, input, gradOutput, lr):
        saved = [g.clone() for g in self.parameters()[1]]
        self.zeroGradParameters()
        self.accGradParameters(input, gradOutput, 1)
        self.updateParameters(lr)
        for g, s in zip(self.parameters()[1], saved):
            g.copy_(s)

    def __repr__(self):
        return "%s(outputDim %d) @ %s" % (self.torch_typename(), self._od(), repr(self.modules[0]))


# ================================================================ criterions


class CriterionTable(Module):
    """A module running a criterion on a table {input, target}: its output is the loss,
    its gradInput the table {dloss/dinput}."""

    def __init__(self, criterion):
        super().__init__()
        check(isinstance(criterion, Criterion), TypeError, "nn.CriterionTable(criterion): a criterion is required")
        self.criterion = criterion
        self.gradInput = [criterion.gradInput]

    @staticmethod
    def _check(input):
        check(
            isinstance(input, (list, tuple)) and len(input) >= 2,
            TypeError,
            "nn.CriterionTable: a table {input, target} expected",
        )

    def updateOutput(self, input):
        self._check(input)
        self.output = self.criterion.updateOutput(input[0], input[1])
        return self.output

    def updateGradInput(self, input, gradOutput=None):
        self._check(input)
        self.gradInput = [self.criterion.updateGradInput(input[0], input[1])]
        return self.gradInput


class _InputOnlyCriterion(Criterion):
    """A criterion of the input alone: forward(input) and backward(input) (a target given
    anyway is not used)."""

    def forward(self, input, target=None):
        return self.updateOutput(input, target)

    def backward(self, input, target=None):
        return self.updateGradInput(input, target)


class L1Cost(_InputOnlyCriterion):
    """The sum of |x| over the input's elements (no target); the gradient is sign(x)."""

    def updateOutput(self, input, target=None):
        kernels = thnn(self, input)
        out = _loss(self, input)
        kernels.L1Cost_updateOutput(input, out)
        self.output = out.item()
        return self.output

    def updateGradInput(self, input, target=None):
        kernels = thnn(self, input)
        gi = input.new_empty(0)
        kernels.L1Cost_updateGradInput(input, None, gi)
        self.gradInput = gi
        return gi

    def clearState(self):
        utils.clear(self, "output_tensor")
        return super().clearState()


class DistanceRatioCriterion(_InputOnlyCriterion):
    """The loss of Hoffer & Ailon's triplet network for an input {X, Y} of the distances of N
    similar and N dissimilar pairs (no target): sum_i -log(exp(-X_i) / (exp(-X_i) +
    exp(-Y_i))), divided by N if sizeAverage. Each term is computed as X_i - min(X_i, Y_i)
    + log(1 + exp(-|X_i - Y_i|)), which does not overflow. The gradient is sigmoid(X - Y)
    for X and its negative for Y."""

    def __init__(self, sizeAverage=True):
        super().__init__()
        self.sizeAverage = sizeAverage
        self.gradInput = []

    @staticmethod
    def _distances(input):
        """X and Y, Y in X's shape (torch7 asks only for as many elements and rows)."""
        name = "nn.DistanceRatioCriterion"
        check(
            isinstance(input, (list, tuple))
            and len(input) == 2
            and torch.is_tensor(input[0])
            and torch.is_tensor(input[1]),
            TypeError,
            "%s: input {X, Y} of two tensors of distances expected",
            name,
        )
        x, y = input
        check(
            x.dim() > 0 and y.dim() > 0 and x.numel() > 0 and x.numel() == y.numel() and x.size(0) == y.size(0),
            RuntimeError,
            "%s: the distances' sizes %s and %s do not match",
            name,
            tuple(x.shape),
            tuple(y.shape),
        )
        return x, y.reshape(x.shape)

    def updateOutput(self, input, target=None):
        x, y = self._distances(input)
        terms = torch.log1p(torch.exp(-(x - y).abs())) + x - torch.minimum(x, y)
        loss = terms.sum().item()
        self.output = loss / x.size(0) if self.sizeAverage else loss
        return self.output

    def updateGradInput(self, input, target=None):
        x, y = self._distances(input)
        grad_x = torch.sigmoid(x - y)  # 1 - exp(-X) / (exp(-X) + exp(-Y))
        if self.sizeAverage:
            grad_x = grad_x / x.size(0)
        self.gradInput = [grad_x, (-grad_x).reshape(input[1].shape)]
        return self.gradInput


class ModuleCriterion(Criterion):
    """The criterion applied to inputModule(input) and targetModule(target); the gradient
    flows back through inputModule only. castTarget converts the target to the input's type."""

    inputModule = targetModule = None
    castTarget = True

    def __init__(self, criterion, inputModule=None, targetModule=None, castTarget=True):
        super().__init__()
        check(
            isinstance(criterion, Criterion),
            TypeError,
            "nn.ModuleCriterion(criterion[, inputModule[, targetModule[, castTarget]]]): a criterion is required",
        )
        self.criterion = criterion
        self.inputModule, self.targetModule = inputModule, targetModule
        self.castTarget = castTarget

    def updateOutput(self, input, target):
        self.input = self.inputModule.forward(input) if self.inputModule is not None else input
        self.target = self.targetModule.forward(target) if self.targetModule is not None else target
        if self.castTarget and torch.is_tensor(self.target) and torch.is_tensor(self.input):
            self.target = self.target.to(self.input.dtype)
        self.output = self.criterion.forward(self.input, self.target)
        return self.output

    def updateGradInput(self, input, target):
        self.gradInput = self.criterion.backward(self.input, self.target)
        if self.inputModule is not None:
            self.gradInput = self.inputModule.backward(input, self.gradInput)
        return self.gradInput

    def type(self, type=None, tensorCache=None):
        if type is None:
            return super().type()
        for m in (self.inputModule, self.targetModule, self.criterion):
            if m is not None:
                m.type(type, tensorCache)
        self._type = utils.typename_of(utils.dtype_of(type))
        return self


class SpatialAutoCropMSECriterion(MSECriterion):
    """MSECriterion between a C x H x W (or batched) input and the centre of a target that
    may be larger in height and width (cropped at floor((larger - smaller) / 2))."""

    def _crop(self, input, target):
        name = "nn.SpatialAutoCropMSECriterion"
        utils.check_tensor(input, "%s: input" % name)
        utils.check_tensor(target, "%s: target" % name)
        check(
            input.dim() == target.dim() and input.dim() in (3, 4),
            RuntimeError,
            "%s: input and target must both be 3D or 4D (batch mode), got %s and %s",
            name,
            tuple(input.shape),
            tuple(target.shape),
        )
        d = input.dim()
        check(
            input.shape[: d - 2] == target.shape[: d - 2],
            RuntimeError,
            "%s: input %s and target %s differ before the last two dimensions",
            name,
            tuple(input.shape),
            tuple(target.shape),
        )
        cropped = target
        for i in (d - 2, d - 1):
            diff = target.size(i) - input.size(i)
            check(
                diff >= 0,
                RuntimeError,
                "%s: the target (%s) must be at least as large as the input (%s) in height and width",
                name,
                tuple(target.shape),
                tuple(input.shape),
            )
            cropped = cropped.narrow(i, diff // 2, input.size(i))
        return cropped.contiguous()

    def updateOutput(self, input, target):
        return super().updateOutput(input, self._crop(input, target))

    def updateGradInput(self, input, target):
        return super().updateGradInput(input, self._crop(input, target))


class SpatialClassNLLCriterion(ClassNLLCriterion):
    """ClassNLLCriterion at each pixel: input N x C x H x W log-probabilities (or C x H x W),
    target N x H x W (or H x W) of 0-based classes; ignoreIndex adds nothing. Averaged over
    the total weight of the pixels counted (total_weight_tensor) if sizeAverage."""

    def _batched(self, input, target):
        name = "nn.SpatialClassNLLCriterion"
        utils.check_tensor(input, "%s: input" % name)
        utils.check_tensor(target, "%s: target" % name)
        ok = (input.dim() == 4 and target.dim() == 3) or (input.dim() == 3 and target.dim() == 2)
        check(
            ok,
            RuntimeError,
            "%s: input N x C x H x W with target N x H x W (or without N) expected, got input %s and target %s",
            name,
            tuple(input.shape),
            tuple(target.shape),
        )
        if input.dim() == 3:
            return input.unsqueeze(0), target.unsqueeze(0).long()
        return input, target.long()

    def updateOutput(self, input, target):
        kernels = thnn(self, input)
        x, t = self._batched(input, target)
        out = _loss(self, input)
        kernels.SpatialClassNLLCriterion_updateOutput(
            x,
            t,
            out,
            self.sizeAverage,
            of_type(self.weights, input),
            self._total_weight(input),
            int(self.ignoreIndex),
            True,
        )
        self.output = out.item()
        return self.output

    def updateGradInput(self, input, target):
        kernels = thnn(self, input)
        x, t = self._batched(input, target)
        gi = input.new_empty(0)
        kernels.SpatialClassNLLCriterion_updateGradInput(
            x,
            t,
            None,
            gi,
            self.sizeAverage,
            of_type(self.weights, input),
            self._total_weight(input),
            int(self.ignoreIndex),
            True,
        )
        self.gradInput = gi.view(input.shape)
        return self.gradInput


class WeightedMSECriterion(MSECriterion):
    """MSECriterion between the input and the target times `weight` (elementwise; weight has
    the size of one sample, or of the whole input)."""

    def __init__(self, weight, sizeAverage=True):
        super().__init__(sizeAverage)
        check(torch.is_tensor(weight), TypeError, "nn.WeightedMSECriterion(weight): weight must be a tensor")
        self.weight = weight.clone()
        self.buffer = torch.empty(0, dtype=weight.dtype)

    def _weighted_target(self, input, target):
        name = "nn.WeightedMSECriterion"
        utils.check_tensor(input, "%s: input" % name)
        utils.check_tensor(target, "%s: target" % name)
        check(
            target.numel() == input.numel(),
            RuntimeError,
            "%s: the target (%s) must have the input's size (%s)",
            name,
            tuple(target.shape),
            tuple(input.shape),
        )
        w = self.weight.to(input.dtype)
        t = target.reshape(input.shape).to(input.dtype)
        if input.dim() - 1 == w.dim() and input.dim() >= 1 and input[0].numel() == w.numel():
            buf = t * w.reshape(input.shape[1:]).unsqueeze(0)
        elif input.numel() == w.numel():
            buf = t * w.reshape(input.shape)
        else:
            raise RuntimeError(
                "%s: weight (%s) fits neither the input (%s) nor one sample of it"
                % (name, tuple(w.shape), tuple(input.shape))
            )
        self.buffer = buf
        return buf

    def updateOutput(self, input, target):
        return super().updateOutput(input, self._weighted_target(input, target))

    def updateGradInput(self, input, target):
        return super().updateGradInput(input, self._weighted_target(input, target))


# ================================================================ trainer


class StochasticGradient(TorchObject):
    """torch7's plain SGD trainer. train(dataset) runs maxIteration epochs (0: forever) over
    a dataset with size() (or len()) and dataset[i] = [input, target] for i = 0 .. n - 1,
    one example at a time (in a random order drawn once when shuffleIndices), updating the
    parameters with accUpdateGradParameters at learningRate / (1 + epoch * learningRateDecay).
    hookExample(self, example) runs after each example, hookIteration(self, iteration,
    meanError) after each epoch. Returns the last epoch's mean error."""

    hookExample = hookIteration = None
    verbose = True

    def __init__(self, module, criterion):
        check(
            isinstance(module, Module) and isinstance(criterion, Criterion),
            TypeError,
            "nn.StochasticGradient(module, criterion): a module and a criterion are required",
        )
        self.learningRate = 0.01
        self.learningRateDecay = 0
        self.maxIteration = 25
        self.shuffleIndices = True
        self.module = module
        self.criterion = criterion
        self.verbose = True

    def _say(self, msg):
        if self.verbose:
            print(msg)
            sys.stdout.flush()

    def train(self, dataset):
        size = getattr(dataset, "size", None)
        if callable(size):
            n = int(size())
        else:
            check(
                hasattr(dataset, "__len__") and hasattr(dataset, "__getitem__"),
                TypeError,
                "nn.StochasticGradient.train: the dataset needs size() (or len()) and dataset[i] = [input, target]",
            )
            n = len(dataset)
        check(n >= 1, ValueError, "nn.StochasticGradient.train: the dataset is empty")
        module, criterion = self.module, self.criterion
        order = torch.randperm(n) if self.shuffleIndices else torch.arange(n)
        iteration = 1
        lr = self.learningRate
        self._say("# StochasticGradient: training")
        while True:
            sum_error = 0
            for t in range(n):
                i = int(order[t])
                example = dataset[i]
                check(
                    isinstance(example, (list, tuple)) and len(example) >= 2,
                    TypeError,
                    "nn.StochasticGradient.train: dataset[%d] must be a pair [input, target]",
                    i,
                )
                input, target = example[0], example[1]
                sum_error += criterion.forward(module.forward(input), target)
                grad_output = criterion.updateGradInput(module.output, target)
                module.updateGradInput(input, grad_output)
                module.accUpdateGradParameters(input, grad_output, lr)
                if self.hookExample is not None:
                    self.hookExample(self, example)
            mean_error = sum_error / n
            if self.hookIteration is not None:
                self.hookIteration(self, iteration, mean_error)
            self._say("# current error = %s" % mean_error)
            iteration += 1
            lr = self.learningRate / (1 + iteration * self.learningRateDecay)
            if self.maxIteration > 0 and iteration > self.maxIteration:
                self._say("# StochasticGradient: you have reached the maximum number of iterations")
                self._say("# training error = %s" % mean_error)
                return mean_error
