"""More of torch7's parameterized layers: convolutions with connection tables
(SpatialConvolutionMap, SpatialFullConvolutionMap; tables from nn.tables.full/oneToOne/
random), depthwise convolutions (SpatialDepthWiseConvolution, TemporalRowConvolution) and
SparseLinear, IndexLinear. Same names, constructor arguments and fields as torch7; indices 0-based
(connTable rows (input plane, output plane), SparseLinear's feature indices, IndexLinear's keys)."""

import math

import torch
from torch.legacy.nn import tables as _tables
from torch.legacy.nn import utils
from torch.legacy.nn.module import Module
from torch.legacy.nn.spatial import (
    SpatialConvolution,
    SpatialFullConvolution,
    _conv_repr,
)
from torch.legacy.nn.utils import buffer, check, of_type, thnn

__all__ = [
    "SpatialConvolutionMap",
    "SpatialFullConvolutionMap",
    "SpatialDepthWiseConvolution",
    "TemporalRowConvolution",
    "SparseLinear",
    "IndexLinear",
]


# ================================================================ connection tables


def _full(nin, nout):
    """Every input plane to every output plane: rows (i, o), 0-based."""
    i = torch.arange(nin, dtype=torch.get_default_dtype()).repeat(nout)
    o = torch.arange(nout, dtype=torch.get_default_dtype()).repeat_interleave(nin)
    return torch.stack([i, o], 1)


def _one_to_one(nfeat):
    """Plane i to plane i."""
    i = torch.arange(nfeat, dtype=torch.get_default_dtype())
    return torch.stack([i, i], 1)


def _random(nin, nout, nto):
    """Each output plane from nto distinct input planes, the input planes used about
    equally often (drawn from torch's generator)."""
    check(1 <= nto <= nin, ValueError, "nn.tables.random: nto must be in 1..nin (%d), got %d", nin, nto)
    rows = []
    pool, used = torch.randperm(nin), 0
    for o in range(nout):
        chosen = set()
        while len(chosen) < nto:
            if used == nin:
                pool, used = torch.randperm(nin), 0
            i = int(pool[used])
            used += 1
            if i not in chosen:
                chosen.add(i)
                rows.append((i, o))
    return torch.tensor(rows, dtype=torch.get_default_dtype())


# torch7 keeps the table builders in nn.tables; here that name is the tables module
_tables.full, _tables.oneToOne, _tables.random = _full, _one_to_one, _random


class _MapConvolution(Module):
    """A convolution in which output plane o sees input plane i through a kernel of its
    own, one per row (i, o) of connTable (K x 2, 0-based planes): weight K x kH x kW, bias
    one per output plane. As in Lua nn, it computes through `dense`, the convolution module
    of the dense weight (zeros where no connection; kernels of repeated rows add up), made
    on first use for a file torch7 wrote without it."""

    dW = dH = 1
    _dense_cls = None

    def __init__(self, conMatrix, kW, kH, dW=1, dH=1):
        super().__init__()
        name = self.torch_typename()
        check(
            torch.is_tensor(conMatrix) and conMatrix.dim() == 2 and conMatrix.size(1) == 2 and conMatrix.size(0) > 0,
            ValueError,
            "%s(connTable, kW, kH[, dW, dH]): connTable must be a K x 2 tensor",
            name,
        )
        check(
            bool((conMatrix >= 0).all()),
            ValueError,
            "%s: connTable holds 0-based plane numbers, got a negative one",
            name,
        )
        self.kW, self.kH, self.dW, self.dH = kW, kH, dW, dH
        self.connTable = conMatrix
        self.nInputPlane = int(conMatrix[:, 0].max()) + 1
        self.nOutputPlane = int(conMatrix[:, 1].max()) + 1
        dtype = torch.get_default_dtype()
        k = conMatrix.size(0)
        self.weight = torch.empty(k, kH, kW, dtype=dtype)
        self.gradWeight = torch.zeros(k, kH, kW, dtype=dtype)
        self.bias = torch.empty(self.nOutputPlane, dtype=dtype)
        self.gradBias = torch.zeros(self.nOutputPlane, dtype=dtype)
        self.dense = self._dense_cls(self.nInputPlane, self.nOutputPlane, kW, kH, dW, dH)
        self.reset()

    def _pairs(self):
        t = self.connTable.long()
        return t[:, 0], t[:, 1]

    def _fan_in(self):
        """Per output plane: how many connections reach it."""
        _, o = self._pairs()
        return torch.zeros(int(self.nOutputPlane), dtype=torch.float64).index_add_(
            0, o, torch.ones(o.numel(), dtype=torch.float64)
        )

    def reset(self, stdv=None):
        if stdv is not None:
            self.weight.uniform_(-stdv, stdv)
            self.bias.uniform_(-stdv, stdv)
            return self
        fan = self._fan_in() * (int(self.kW) * int(self.kH))
        _, o = self._pairs()
        for k in range(self.weight.size(0)):
            s = 1 / math.sqrt(float(fan[o[k]]))
            self.weight[k].uniform_(-s, s)
        for j in range(int(self.nOutputPlane)):
            s = 1 / math.sqrt(max(float(fan[j]), 1))
            self.bias[j].uniform_(-s, s)
        return self

    def _connections(self):
        """The dense weight's (first, second) indices of every row of connTable."""
        raise NotImplementedError

    def _densified(self):
        """`dense` with the dense weight of this module's kernels and its bias."""
        dense = self.__dict__.get("dense")
        if dense is None:
            dense = self.dense = self._dense_cls(
                int(self.nInputPlane), int(self.nOutputPlane), self.kW, self.kH, self.dW, self.dH
            )
        first, second = self._connections()
        shape = (int(first.max()) + 1, int(second.max()) + 1, int(self.kH), int(self.kW))
        dense.weight = self.weight.new_zeros(shape).index_put_((first, second), self.weight, accumulate=True)
        dense.bias = self.bias
        return dense

    def updateOutput(self, input):
        self.output = self._densified().updateOutput(input)
        return self.output

    def updateGradInput(self, input, gradOutput):
        self.gradInput = self._densified().updateGradInput(input, gradOutput)
        return self.gradInput

    def accGradParameters(self, input, gradOutput, scale=1):
        dense = self._densified()
        dense.gradWeight = torch.zeros_like(dense.weight)
        dense.gradBias = self.gradBias
        dense.accGradParameters(input, gradOutput, scale)
        self.gradWeight.add_(dense.gradWeight[self._connections()])

    def __repr__(self):
        return "%s(%d -> %d, %dx%d, %d,%d)" % (
            self.torch_typename(),
            self.nInputPlane,
            self.nOutputPlane,
            self.kW,
            self.kH,
            self.dW,
            self.dH,
        )


class SpatialConvolutionMap(_MapConvolution):
    """2-D convolution (cross-correlation, as SpatialConvolution) with a connection table:
    output[o] = bias[o] + sum over rows k = (i, o) of input[i] * weight[k]."""

    _dense_cls = SpatialConvolution

    def _connections(self):
        i, o = self._pairs()
        return o, i


class SpatialFullConvolutionMap(_MapConvolution):
    """The transposed (full) convolution with a connection table: output plane o receives
    input plane i through kernel k for each row (i, o); the output is (H - 1) dH + kH high
    and (W - 1) dW + kW wide."""

    _dense_cls = SpatialFullConvolution

    def _connections(self):
        return self._pairs()


# ================================================================ depthwise


class SpatialDepthWiseConvolution(utils.OptionalBias, Module):
    """Each input plane i convolved with its own nOutputPlane filters (the depth
    multiplier): output plane i * nOutputPlane + o uses weight[o][i] (nOutputPlane x
    nInputPlane x kH x kW) and bias[o][i] (nOutputPlane x nInputPlane); THNN's
    SpatialDepthwiseConvolution kernels, with their column buffers finput, fgradInput."""

    dW = dH = 1
    padW = padH = 0

    def __init__(self, nInputPlane, nOutputPlane, kW, kH, dW=1, dH=1, padW=0, padH=0):
        super().__init__()
        self.nInputPlane, self.nOutputPlane = nInputPlane, nOutputPlane
        self.kW, self.kH, self.dW, self.dH, self.padW, self.padH = kW, kH, dW, dH, padW, padH
        dtype = torch.get_default_dtype()
        self.weight = torch.empty(nOutputPlane, nInputPlane, kH, kW, dtype=dtype)
        self.bias = torch.empty(nOutputPlane, nInputPlane, dtype=dtype)
        self.gradWeight = torch.zeros(nOutputPlane, nInputPlane, kH, kW, dtype=dtype)
        self.gradBias = torch.zeros(nOutputPlane, nInputPlane, dtype=dtype)
        self.reset()

    def reset(self, stdv=None):
        utils.reset_uniform(
            stdv, int(self.kW) * int(self.kH) * int(self.nInputPlane), self.weight, getattr(self, "bias", None)
        )
        return self

    def _prepare(self, input):
        """THNN's kernels for input, after torch7's input checks, and the buffers."""
        name = self.torch_typename()
        kernels = thnn(self, input)
        utils.check_tensor(input, "%s: input" % name, (3, 4))
        check(
            input.size(-3) == int(self.nInputPlane),
            RuntimeError,
            "%s: expected %d input planes, got size %s",
            name,
            int(self.nInputPlane),
            tuple(input.shape),
        )
        self.finput = buffer(self.__dict__.get("finput"), input)
        self.fgradInput = buffer(self.__dict__.get("fgradInput"), input)
        return kernels

    def _window(self):
        return self.kW, self.kH, self.dW, self.dH, self.padW, self.padH

    def _zeros(self):
        """The kernels take a bias (and its gradient): a module without one gives zeros."""
        return self.weight.new_zeros(int(self.nOutputPlane), int(self.nInputPlane))

    def updateOutput(self, input):
        kernels = self._prepare(input)
        bias = self.bias if self._has_bias() else self._zeros()
        out = input.new_empty(0)
        kernels.SpatialDepthwiseConvolution_updateOutput(
            input, out, self.weight, bias, self.finput, self.fgradInput, *self._window()
        )
        self.output = out
        return out

    def updateGradInput(self, input, gradOutput):
        kernels = self._prepare(input)
        gi = input.new_empty(0)
        kernels.SpatialDepthwiseConvolution_updateGradInput(
            input, gradOutput, gi, self.weight, self.finput, self.fgradInput, *self._window()
        )
        self.gradInput = gi
        return gi

    def accGradParameters(self, input, gradOutput, scale=1):
        kernels = self._prepare(input)
        grad_bias = self.gradBias if self._has_bias() else self._zeros()
        kernels.SpatialDepthwiseConvolution_accGradParameters(
            input, gradOutput, self.gradWeight, grad_bias, self.finput, self.fgradInput, *self._window(), scale
        )

    def clearState(self):
        utils.clear(self, "finput", "fgradInput")
        return super().clearState()

    def __repr__(self):
        return _conv_repr(self, (self.kW, self.kH), [((self.dW, self.dH), 1), ((self.padW, self.padH), 0)])


class TemporalRowConvolution(Module):
    """A 1-D convolution of each feature row with a kernel of its own: for an input of
    frames x inputFrameSize (inputFrameSize x frames with featFirst; or a batch),
    y[t][c] = bias[c] + sum_k weight[c][0][k] x[t dW + k][c]. weight inputFrameSize x 1 x kW;
    THNN's TemporalRowConvolution kernels, with their buffers finput, fgradInput."""

    dW = 1
    featFirst = False

    def __init__(self, inputFrameSize, kW, dW=1, featFirst=False):
        super().__init__()
        self.inputFrameSize, self.kW, self.dW, self.featFirst = inputFrameSize, kW, dW, featFirst
        dtype = torch.get_default_dtype()
        self.weight = torch.empty(inputFrameSize, 1, kW, dtype=dtype)
        self.bias = torch.empty(inputFrameSize, dtype=dtype)
        self.gradWeight = torch.zeros(inputFrameSize, 1, kW, dtype=dtype)
        self.gradBias = torch.zeros(inputFrameSize, dtype=dtype)
        self.reset()

    def reset(self, stdv=None):
        s = stdv if stdv is not None else 1 / math.sqrt(int(self.kW) * int(self.inputFrameSize))
        self.weight.uniform_(-s, s)
        self.bias.uniform_(-s, s)
        return self

    def _prepare(self, input):
        kernels = thnn(self, input)
        self.finput = buffer(self.__dict__.get("finput"), input)
        self.fgradInput = buffer(self.__dict__.get("fgradInput"), input)
        return kernels

    def _window(self):
        return self.kW, self.dW, 0, bool(self.featFirst)

    def updateOutput(self, input):
        kernels = self._prepare(input)
        out = input.new_empty(0)
        kernels.TemporalRowConvolution_updateOutput(
            input, out, self.weight, self.bias, self.finput, self.fgradInput, *self._window()
        )
        self.output = out
        return out

    def updateGradInput(self, input, gradOutput):
        kernels = self._prepare(input)
        gi = input.new_empty(0)
        kernels.TemporalRowConvolution_updateGradInput(
            input, gradOutput, gi, self.weight, self.finput, self.fgradInput, *self._window()
        )
        self.gradInput = gi
        return gi

    def accGradParameters(self, input, gradOutput, scale=1):
        kernels = self._prepare(input)
        kernels.TemporalRowConvolution_accGradParameters(
            input, gradOutput, self.gradWeight, self.gradBias, self.finput, self.fgradInput, *self._window(), scale
        )

    def clearState(self):
        utils.clear(self, "finput", "fgradInput")
        return super().clearState()

    def __repr__(self):
        s = "%s(%d, %d" % (self.torch_typename(), self.inputFrameSize, self.kW)
        if self.dW != 1:
            s += ", %d" % self.dW
        return s + ")"


# ================================================================ sparse

_NO_LAST_INPUT, _ONE_LAST_INPUT, _ACC_MULTIPLE_TIMES = 0, 1, 2


class SparseLinear(Module):
    """output = weight x + bias for sparse x given as (feature index, value) rows (THNN's
    SparseLinear kernels, over `formatted_input`: (sample, feature, value) rows), indices
    0-based: an nnz x 2 tensor (one sample, output [outputSize]), a list of them (a batch,
    output [len x outputSize]) or torch7's legacy batch tensor nBatch x nnz x 2. weight is
    outputSize x inputSize. After one backward, updateParameters and zeroGradParameters touch
    only the columns of the features that input had (with a non-zero value); after several
    backwards without zeroGradParameters, all of them. With doGradInput, gradInput holds
    (index, gradient) rows over every feature.

    `lastInput` keeps the features of that one backward in torch7's form, 1-based (rows
    (sample, feature, value) counting from 1, or the legacy input with 1-based features), so
    that a module saved between backward and update goes on in either language."""

    weightDecay = 0
    doGradInput = False
    sparseUpdate = _NO_LAST_INPUT
    lastInputLegacy = False

    def __init__(self, inputSize, outputSize, doGradInput=False):
        super().__init__()
        check(isinstance(doGradInput, bool), TypeError, "nn.SparseLinear: doGradInput must be a bool")
        self.weightDecay = 0
        self.doGradInput = doGradInput
        dtype = torch.get_default_dtype()
        self.weight = torch.zeros(outputSize, inputSize, dtype=dtype)
        self.bias = torch.zeros(outputSize, dtype=dtype)
        self.gradWeight = torch.zeros(outputSize, inputSize, dtype=dtype)
        self.gradBias = torch.zeros(outputSize, dtype=dtype)
        self.sparseUpdate = _NO_LAST_INPUT
        self.reset()

    def reset(self, stdv=None):
        s = stdv * math.sqrt(3) if stdv is not None else 1 / math.sqrt(self.weight.size(1))
        self.weight.uniform_(-s, s)
        self.bias.uniform_(-s, s).mul_(1e-6)
        return self

    def _rows(self, input):
        """(the kernels' input, the batch size, whether a batch, whether the legacy tensor):
        (sample, feature, value) rows over every sample, or the legacy tensor itself."""
        name = self.torch_typename()
        if isinstance(input, (list, tuple)):
            for i, t in enumerate(input):
                check(
                    torch.is_tensor(t) and t.dim() == 2 and t.size(1) == 2,
                    TypeError,
                    "%s: sample %d must be an nnz x 2 tensor of (index, value) rows, got %s",
                    name,
                    i,
                    tuple(t.shape) if torch.is_tensor(t) else type(t).__name__,
                )
            parts, batch = list(input), True
        elif torch.is_tensor(input) and input.dim() == 2 and input.size(1) == 2:
            parts, batch = [input], False
        elif torch.is_tensor(input) and input.dim() == 3 and input.size(2) == 2:
            return of_type(input, self.weight), input.size(0), True, True
        else:
            raise TypeError(
                "%s: expected an nnz x 2 tensor of (index, value) rows, a list of them or an nBatch x nnz "
                "x 2 tensor, got %s" % (name, tuple(input.shape) if torch.is_tensor(input) else type(input).__name__)
            )
        dtype = self.weight.dtype
        rows = [torch.cat([torch.full((t.size(0), 1), i, dtype=dtype), t.to(dtype)], 1) for i, t in enumerate(parts)]
        self.formatted_input = torch.cat(rows) if rows else torch.zeros(0, 3, dtype=dtype)
        return self.formatted_input, len(parts), batch, False

    def updateOutput(self, input):
        kernels = thnn(self, self.weight)
        rows, n, batch, legacy = self._rows(input)
        self.legacyMode = legacy
        out = self.weight.new_empty(0)
        if legacy:
            kernels.SparseLinear_legacyUpdateOutput(rows, out, self.weight, self.bias)
        else:
            out.resize_(n, self.weight.size(0))
            if n:
                kernels.SparseLinear_updateOutput(rows, out, self.weight, self.bias)
        self.output = out if batch else out[0]
        return self.output

    def accGradParameters(self, input, gradOutput, scale=1):
        kernels = thnn(self, self.weight)
        rows, n, batch, legacy = self._rows(input)
        self.legacyMode = legacy
        acc = kernels.SparseLinear_legacyAccGradParameters if legacy else kernels.SparseLinear_accGradParameters
        acc(
            rows,
            of_type(gradOutput, self.weight),
            self.gradWeight,
            self.gradBias,
            self.weight,
            self.bias,
            float(self.weightDecay),
            scale,
        )
        if self.sparseUpdate == _NO_LAST_INPUT:
            # torch7's form, 1-based ids: (sample, feature, value) or the legacy (feature, value)
            last = rows.clone()
            last[..., : 1 if legacy else 2] += 1
            self.lastInput = last
            self.lastInputLegacy = legacy
            self.sparseUpdate = _ONE_LAST_INPUT
        elif self.sparseUpdate == _ONE_LAST_INPUT:
            self.sparseUpdate = _ACC_MULTIPLE_TIMES

    def _dense_grad(self, gradOutput, n):
        utils.check_tensor(gradOutput, "%s: gradOutput" % self.torch_typename())
        g = gradOutput.reshape(1, -1) if gradOutput.dim() == 1 else gradOutput
        check(
            tuple(g.shape) == (n, self.weight.size(0)),
            RuntimeError,
            "%s: gradOutput must be [%d, %d], got %s",
            self.torch_typename(),
            n,
            self.weight.size(0),
            tuple(gradOutput.shape),
        )
        return g.to(self.weight.dtype)

    def updateGradInput(self, input, gradOutput):
        # no kernel: the gradient of every feature's value, as torch7's module computes it
        rows, n, batch, legacy = self._rows(input)
        n_in = self.weight.size(1)
        if not self.doGradInput:
            self.gradInput = torch.zeros_like(input) if legacy else []
            return self.gradInput
        grad_values = torch.mm(self._dense_grad(gradOutput, n), self.weight)  # n x inputSize
        indices = torch.arange(n_in, dtype=grad_values.dtype)
        grads = [torch.stack([indices, grad_values[i]], 1) for i in range(n)]
        if legacy:
            self.gradInput = torch.stack(grads) if grads else torch.zeros(0, n_in, 2, dtype=grad_values.dtype)
        else:
            self.gradInput = grads if batch else grads[0]
        return self.gradInput

    def _last_input(self):
        """lastInput with 0-based ids, as the base-0 kernels read them."""
        last = self.lastInput.clone()
        last[..., : 1 if self.lastInputLegacy else 2] -= 1
        return last

    def updateParameters(self, learningRate):
        if self.sparseUpdate != _ONE_LAST_INPUT:
            return super().updateParameters(learningRate)
        kernels = thnn(self, self.weight)
        update = (
            kernels.SparseLinear_legacyUpdateParameters
            if self.lastInputLegacy
            else kernels.SparseLinear_updateParameters
        )
        update(self.weight, self.bias, self.gradWeight, self.gradBias, self._last_input(), learningRate)

    def zeroGradParameters(self):
        if self.sparseUpdate == _ONE_LAST_INPUT:
            kernels = thnn(self, self.weight)
            zero = (
                kernels.SparseLinear_legacyZeroGradParameters
                if self.lastInputLegacy
                else kernels.SparseLinear_zeroGradParameters
            )
            zero(self.gradWeight, self.gradBias, self._last_input())
        else:
            super().zeroGradParameters()
        self.sparseUpdate = _NO_LAST_INPUT

    def clearState(self):
        utils.clear(self, "formatted_input")
        return super().clearState()

    def __repr__(self):
        return "%s(%d -> %d)" % (self.torch_typename(), self.weight.size(1), self.weight.size(0))


class IndexLinear(Module):
    """A linear layer over sparse inputs of (key, value) pairs, THNN's IndexLinear kernels,
    its weight stored transposed (inputSize x outputSize, one row per feature): key k
    (0-based) uses weight row k + keysOffset. Input: [keys (LongTensor), values] for one
    sample (output [outputSize]); [[keys0, ...], [values0, ...]] or [flatKeys, flatValues,
    sizes] for a batch (output [batch x outputSize]). With normalize, weight has 4 leading columns per feature (the
    largest |value| seen, its inverse, a learning-rate scale, a shift) and values enter as
    v / max + shift (sign(v) + shift past the max; a training forward raises the max).
    gradWeight holds one row per entry seen since zeroGradParameters (its keys in
    `runningKeys`), so updateParameters moves only their rows. With doGradInput, gradInput
    is the input's structure with d output / d values for the values and zeros for the keys.
    `keys`, `runningKeys`: 0-based (1-based in torch7 files; t7fields shifts them)."""

    _NORMALIZE = 4
    weightDecay = 0
    doGradInput = False
    keysOffset = 0
    normalize = 0

    def __init__(self, inputSize, outputSize, doGradInput=False, keysOffset=0, weight=None, bias=None, normalize=False):
        super().__init__()
        dtype = torch.get_default_dtype()
        self.normalize = self._NORMALIZE if normalize else 0
        # a given weight (or bias) is used as it is: it may be shared and large
        self.weight = weight if weight is not None else torch.zeros(inputSize, outputSize + self.normalize, dtype=dtype)
        self.bias = bias if bias is not None else torch.zeros(outputSize, dtype=dtype)
        self.inputSize = self.weight.size(0)
        self.outputSize = self.weight.size(1) - self.normalize
        self.gradWeight = torch.empty(0, dtype=dtype)
        self.gradBias = torch.zeros(self.outputSize, dtype=dtype)
        self.weightDecay = 0
        self.doGradInput = doGradInput
        self.keysOffset = keysOffset
        self.normalizedValues = torch.empty(0, dtype=dtype)
        self.valuesBuffer = torch.empty(0, dtype=dtype)
        self.runningKeys = torch.empty(0, dtype=torch.int64)
        self.runningCumSumSizes = torch.empty(0, dtype=torch.int64)
        if weight is None:
            self.reset()

    def reset(self, stdv=None):
        s = stdv * math.sqrt(3) if stdv is not None else 1 / math.sqrt(self.weight.size(1))
        self.weight.uniform_(-s, s)
        self.bias.uniform_(-s, s).mul_(1e-6)
        if int(self.normalize) > 0:
            self.weight[:, : int(self.normalize)] = 0
        return self

    def _error(self, what):
        raise TypeError(
            "%s: %s (expected [keys, values], [[keys...], [values...]] or [keys, values, sizes])"
            % (self.torch_typename(), what)
        )

    def _vectors(self, keys, values, which):
        if not (torch.is_tensor(keys) and keys.dtype == torch.int64 and keys.dim() <= 1):
            self._error(which + "keys must be a LongTensor vector")
        if not (torch.is_tensor(values) and values.dim() <= 1 and values.numel() == keys.numel()):
            self._error(which + "values must be a vector as long as its keys")

    def _flatten(self, input):
        """Sets keys, values, sizes, cumSumSizes, noBatch from the input; returns the weight
        rows of the keys and each entry's sample, checked."""
        if not isinstance(input, (list, tuple)) or len(input) not in (2, 3):
            self._error("bad input")
        dtype = self.weight.dtype
        if len(input) == 3:
            self._vectors(input[0], input[1], "")
            keys, values = input[0].reshape(-1), input[1].reshape(-1).to(dtype)
            sizes = (
                input[2].long().reshape(-1)
                if torch.is_tensor(input[2])
                else torch.tensor(list(input[2]), dtype=torch.int64)
            )
            if int(sizes.sum()) != keys.numel() or bool((sizes < 0).any()):
                self._error("sizes must be a vector adding up to the number of keys")
            self.noBatch = False
        else:
            ks, vs = input
            single = torch.is_tensor(ks)
            if single:
                ks, vs = [ks], [vs]
            if not isinstance(ks, (list, tuple)) or not isinstance(vs, (list, tuple)) or len(ks) != len(vs):
                self._error("keys and values must be as many")
            for i, (k, v) in enumerate(zip(ks, vs)):
                self._vectors(k, v, "" if single else "sample %d: " % i)
            sizes = torch.tensor([k.numel() for k in ks], dtype=torch.int64)
            keys = torch.cat([k.reshape(-1) for k in ks]) if ks else torch.zeros(0, dtype=torch.int64)
            values = torch.cat([v.reshape(-1).to(dtype) for v in vs]) if vs else torch.zeros(0, dtype=dtype)
            self.noBatch = single
        rows = keys + int(self.keysOffset)
        bad = (rows < 0) | (rows >= self.weight.size(0))
        if bool(bad.any()):
            raise IndexError(
                "%s: key %d (+ keysOffset %d) out of range for %d weight rows"
                % (self.torch_typename(), int(keys[bad][0]), int(self.keysOffset), self.weight.size(0))
            )
        self.keys, self.values, self.sizes = keys.clone(), values.clone(), sizes
        self.cumSumSizes = sizes.cumsum(0) if sizes.numel() else torch.zeros(0, dtype=torch.int64)
        sample = torch.repeat_interleave(torch.arange(sizes.numel()), sizes)
        return rows, sample, sizes.numel()

    def _norm(self):
        return int(self.normalize)

    def _batch(self):
        """keys, keysOffset, values, sizes, cumSumSizes of the last _flatten, as the kernels take them."""
        return self.keys, int(self.keysOffset), self.values, self.sizes, self.cumSumSizes

    def _effective_values(self):
        return self.normalizedValues if self._norm() else self.values

    def updateOutput(self, input):
        kernels = thnn(self, self.weight)
        _, _, n = self._flatten(input)
        self.normalizedValues = buffer(self.__dict__.get("normalizedValues"), self.weight)
        out = self.weight.new_empty(0)
        kernels.IndexLinear_updateOutput(
            *self._batch(), out, self.weight, self.bias, self.normalizedValues, 1 if self.train else 0
        )
        self.output = out[0] if self.noBatch else out
        return self.output

    def _dense_grad(self, gradOutput, n):
        utils.check_tensor(gradOutput, "%s: gradOutput" % self.torch_typename())
        g = gradOutput.reshape(1, -1) if gradOutput.dim() == 1 else gradOutput
        check(
            tuple(g.shape) == (n, int(self.outputSize)),
            RuntimeError,
            "%s: gradOutput must be [%d, %d], got %s",
            self.torch_typename(),
            n,
            int(self.outputSize),
            tuple(gradOutput.shape),
        )
        return g.to(self.weight.dtype)

    def updateGradInput(self, input, gradOutput):
        # no kernel: torch7's dense gradient, [features 0..inputSize-1, weight gradOutput] per
        # sample, in the input's form (whatever keysOffset)
        if not self.doGradInput:
            self.gradInput = []
            return self.gradInput
        check(self._norm() == 0, RuntimeError, "%s: doGradInput is not supported with normalize", self.torch_typename())
        _, _, n = self._flatten(input)
        dense = self._dense_grad(gradOutput, n) @ self.weight.t()
        features = torch.arange(self.weight.size(0), dtype=torch.int64)
        if len(input) == 3:
            self.gradInput = [features.repeat(dense.size(0)), dense.reshape(-1)]
        else:
            keys = [features.clone() for _ in range(dense.size(0))]
            values = [dense[i] for i in range(dense.size(0))]
            self.gradInput = [keys[0], values[0]] if self.noBatch else [keys, values]
        return self.gradInput

    def accGradParameters(self, input, gradOutput, scale=1):
        kernels = thnn(self, self.weight)
        _, _, n = self._flatten(input)
        entry = self.weight.new_empty(0)
        self.valuesBuffer = buffer(self.__dict__.get("valuesBuffer"), self.weight)
        keys, offset, _, sizes, cum = self._batch()
        kernels.IndexLinear_accGradParameters(
            keys,
            offset,
            self._effective_values(),
            sizes,
            cum,
            self._dense_grad(gradOutput, n),
            entry,
            self.gradBias,
            self.weight,
            self.bias,
            self.valuesBuffer,
            float(self.weightDecay),
            scale,
        )
        self._entryGrads = entry
        if self.runningKeys.numel() == 0:
            self.gradWeight = entry.clone()
            self.runningKeys = self.keys.clone()
        else:
            self.gradWeight = torch.cat([self.gradWeight, entry])
            self.runningKeys = torch.cat([self.runningKeys, self.keys])
        self.runningCumSumSizes = torch.tensor([self.runningKeys.numel()], dtype=torch.int64)

    def updateParameters(self, learningRate):
        if self.runningKeys.numel() == 0:
            self.bias.add_(self.gradBias, alpha=-learningRate)
            return
        thnn(self, self.weight).IndexLinear_updateParameters(
            self.gradWeight,
            self.gradBias,
            self.weight,
            self.bias,
            self.runningKeys.long(),
            self.runningCumSumSizes.long(),
            int(self.keysOffset),
            float(self.weightDecay),
            learningRate,
        )

    def accUpdateGradParameters(self, input, gradOutput, lr):
        kernels = thnn(self, self.weight)
        rows, _, n = self._flatten(input)
        # normalising, the values of the last forward (as torch7)
        check(
            self._effective_values().numel() == rows.numel(),
            RuntimeError,
            "%s: accUpdateGradParameters needs the forward of this input",
            self.torch_typename(),
        )
        keys, offset, _, sizes, cum = self._batch()
        kernels.IndexLinear_accUpdateGradParameters(
            keys,
            offset,
            self._effective_values(),
            sizes,
            cum,
            self._dense_grad(gradOutput, n),
            self.weight,
            self.bias,
            float(self.weightDecay),
            lr,
        )

    def zeroGradParameters(self):
        self.gradBias.zero_()
        self.gradWeight = self.gradWeight.new_empty(0)
        self.runningKeys = torch.empty(0, dtype=torch.int64)
        self.runningCumSumSizes = torch.empty(0, dtype=torch.int64)

    def clearState(self):
        utils.clear(self, "keys", "values", "sizes", "cumSumSizes", "_entryGrads", "normalizedValues", "valuesBuffer")
        return super().clearState()

    def __repr__(self):
        return "%s(%d -> %d)%s" % (
            self.torch_typename(),
            self.inputSize,
            self.outputSize,
            " normalized" if self._norm() else "",
        )
