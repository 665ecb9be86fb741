"""Layers that move elements around: views, selections, transpositions, padding, copies.
Dimensions and offsets are 0-based; negative ones count from the end."""

import torch
from torch.legacy.nn import utils
from torch.legacy.nn.module import Module
from torch.legacy.nn.utils import check

__all__ = [
    "View",
    "Reshape",
    "Select",
    "Narrow",
    "Index",
    "Squeeze",
    "Unsqueeze",
    "Transpose",
    "Replicate",
    "Padding",
    "Copy",
    "Contiguous",
]


def _sizes(args):
    """Sizes given as numbers, one sequence, a torch.Size or a LongStorage (as files hold them)."""
    if len(args) == 1 and not isinstance(args[0], (int, float)):
        args = args[0]
        if hasattr(args, "tolist"):
            args = args.tolist()
    return [int(a) for a in args]


def _dim(name, d, ndim):
    check(
        -ndim <= d < ndim, IndexError, "%s: dimension %d is out of range for a tensor of %d dimensions", name, d, ndim
    )
    return d + ndim if d < 0 else d


def _grad_like(input, gradOutput, name):
    utils.check_tensor(gradOutput, "%s: gradOutput" % name)
    return gradOutput


class View(Module):
    """input viewed with the given sizes (one of them may be -1); an input with more
    elements than the sizes hold is a batch: its first dimension is kept. With
    setNumInputDims(n), only the last n dimensions of the input are viewed."""

    numInputDims = None

    def __init__(self, *sizes):
        super().__init__()
        self.resetSize(*sizes)

    def resetSize(self, *sizes):
        size = _sizes(sizes)
        check(sum(1 for s in size if s == -1) <= 1, ValueError, "nn.View: at most one size may be -1, got %s", size)
        check(all(s > 0 or s == -1 for s in size), ValueError, "nn.View: sizes must be positive or -1, got %s", size)
        self.size = torch.Size(size)
        self.numElements = 1
        for s in size:
            if s != -1:
                self.numElements *= s
        return self

    def setNumInputDims(self, numInputDims):
        self.numInputDims = numInputDims
        return self

    def _batch_size(self, input):
        size = _sizes((self.size,))
        n_elements = int(self.numElements)
        ndim = input.dim()
        numInputDims = None if self.numInputDims is None else int(self.numInputDims)
        maxdim = numInputDims if numInputDims is not None else ndim
        ine = 1
        for s in input.shape[max(ndim - maxdim, 0) :]:
            ine *= s
        check(
            n_elements and ine % n_elements == 0,
            RuntimeError,
            "nn.View: input of size %s cannot be viewed as %s",
            tuple(input.shape),
            tuple(size),
        )
        bsz = 1 if -1 in size else ine // n_elements
        for s in input.shape[: max(ndim - maxdim, 0)]:
            bsz *= s
        if bsz == 1 and (numInputDims is None or ndim <= numInputDims):
            return None
        return bsz

    def updateOutput(self, input):
        utils.check_tensor(input, "nn.View: input")
        bsz = self._batch_size(input)
        size = _sizes((self.size,))
        shape = size if bsz is None else [bsz] + size
        if -1 in shape:
            known = 1
            for s in shape:
                if s != -1:
                    known *= s
            check(
                input.numel() % known == 0,
                RuntimeError,
                "nn.View: input of size %s cannot be viewed as %s",
                tuple(input.shape),
                tuple(size),
            )
        else:
            total = 1
            for s in shape:
                total *= s
            check(
                total == input.numel(),
                RuntimeError,
                "nn.View: input of size %s cannot be viewed as %s",
                tuple(input.shape),
                tuple(size),
            )
        self.output = input.reshape(shape)
        return self.output

    def updateGradInput(self, input, gradOutput):
        _grad_like(input, gradOutput, "nn.View")
        check(
            gradOutput.numel() == input.numel(),
            RuntimeError,
            "nn.View: gradOutput of size %s does not fit input %s",
            tuple(gradOutput.shape),
            tuple(input.shape),
        )
        self.gradInput = gradOutput.reshape(input.shape)
        return self.gradInput

    def __repr__(self):
        return "nn.View(%s)" % ", ".join(str(s) for s in _sizes((self.size,)))


class Reshape(Module):
    """input reshaped to the given sizes, or to batch x sizes when input has a batch
    dimension (batchMode True; None: when its elements are more than the sizes hold, or
    its first size is 1)."""

    batchMode = None

    def __init__(self, *args):
        super().__init__()
        if args and isinstance(args[-1], bool):
            self.batchMode = args[-1]
            args = args[:-1]
        self.size = torch.Size(_sizes(args))
        self.nelement = 1
        for s in self.size:
            self.nelement *= s

    def updateOutput(self, input):
        utils.check_tensor(input, "nn.Reshape: input")
        size = _sizes((self.size,))
        batch = self.batchMode is True or (
            self.batchMode is None
            and not (input.numel() == int(self.nelement) and (input.dim() == 0 or input.size(0) != 1))
        )
        shape = [input.size(0)] + size if batch and input.dim() else size
        total = 1
        for s in shape:
            total *= s
        check(
            total == input.numel(),
            RuntimeError,
            "nn.Reshape: input of size %s cannot be reshaped to %s",
            tuple(input.shape),
            tuple(shape),
        )
        self.output = input.reshape(shape)
        return self.output

    def updateGradInput(self, input, gradOutput):
        _grad_like(input, gradOutput, "nn.Reshape")
        check(
            gradOutput.numel() == input.numel(),
            RuntimeError,
            "nn.Reshape: gradOutput of size %s does not fit input %s",
            tuple(gradOutput.shape),
            tuple(input.shape),
        )
        self.gradInput = gradOutput.reshape(input.shape)
        return self.gradInput

    def __repr__(self):
        return "nn.Reshape(%s)" % "x".join(str(s) for s in _sizes((self.size,)))


class Select(Module):
    """input.select(dimension, index)."""

    def __init__(self, dimension, index):
        super().__init__()
        self.dimension = dimension
        self.index = index

    def _where(self, input):
        utils.check_tensor(input, "nn.Select: input")
        dim = _dim("nn.Select", int(self.dimension), input.dim())
        index = int(self.index)
        size = input.size(dim)
        check(
            -size <= index < size,
            IndexError,
            "nn.Select: index %d is out of range for dimension %d of size %d",
            index,
            dim,
            size,
        )
        return dim, index % size

    def updateOutput(self, input):
        dim, index = self._where(input)
        self.output = input.select(dim, index)
        return self.output

    def updateGradInput(self, input, gradOutput):
        dim, index = self._where(input)
        utils.same_size(input.select(dim, index), gradOutput, "nn.Select: output", "gradOutput")
        grad = torch.zeros_like(input)
        grad.select(dim, index).copy_(gradOutput)
        self.gradInput = grad
        return grad


class Narrow(Module):
    """input.narrow(dimension, offset, length); a negative length leaves that many elements
    less than all up to the end (-1: all), and a negative offset takes the first size - length
    elements (torch7's reading)."""

    def __init__(self, dimension, offset, length=1):
        super().__init__()
        self.dimension = dimension
        self.index = offset
        self.length = length

    def _where(self, input):
        utils.check_tensor(input, "nn.Narrow: input")
        dim = _dim("nn.Narrow", int(self.dimension), input.dim())
        size = input.size(dim)
        offset, length = int(self.index), int(self.length)
        if offset < 0:
            # torch7's reading of a negative offset (its own, unshifted): the first
            # size - length elements, the length first counted as below with that offset
            length = size - offset + length + 2 if length < 0 else length
            offset, length = 0, size - length
        else:
            length = size - offset + length + 1 if length < 0 else length
        check(
            0 <= offset and length >= 0 and offset + length <= size,
            IndexError,
            "nn.Narrow: offset %d and length %d are out of range for dimension %d of size %d",
            offset,
            length,
            dim,
            size,
        )
        return dim, offset, length

    def updateOutput(self, input):
        dim, offset, length = self._where(input)
        self.output = input.narrow(dim, offset, length)
        return self.output

    def updateGradInput(self, input, gradOutput):
        dim, offset, length = self._where(input)
        utils.same_size(input.narrow(dim, offset, length), gradOutput, "nn.Narrow: output", "gradOutput")
        grad = torch.zeros_like(input)
        grad.narrow(dim, offset, length).copy_(gradOutput)
        self.gradInput = grad
        return grad


class Index(Module):
    """{tensor, indices} -> tensor.index_select(dimension, indices)."""

    def __init__(self, dimension):
        super().__init__()
        self.dimension = dimension
        self.gradInput = [self.gradInput, torch.empty(0, dtype=torch.int64)]

    def _parts(self, input):
        check(
            isinstance(input, (list, tuple)) and len(input) == 2,
            TypeError,
            "nn.Index: input must be a table {tensor, indices}",
        )
        t, idx = input
        utils.check_tensor(t, "nn.Index: input[0]")
        utils.check_tensor(idx, "nn.Index: input[1]", (1,))
        dim = _dim("nn.Index", int(self.dimension), t.dim())
        idx = idx.long()
        if idx.numel():
            lo, hi = int(idx.min()), int(idx.max())
            check(
                lo >= 0 and hi < t.size(dim),
                IndexError,
                "nn.Index: index %d is out of range for dimension %d of size %d",
                lo if lo < 0 else hi,
                dim,
                t.size(dim),
            )
        return t, idx, dim

    def updateOutput(self, input):
        t, idx, dim = self._parts(input)
        self.output = t.index_select(dim, idx)
        return self.output

    def updateGradInput(self, input, gradOutput):
        t, idx, dim = self._parts(input)
        utils.same_size(t.index_select(dim, idx), gradOutput, "nn.Index: output", "gradOutput")
        self.gradInput = [torch.zeros_like(t).index_add_(dim, idx, gradOutput), torch.zeros_like(input[1])]
        return self.gradInput


class Squeeze(Module):
    """input without its dimensions of size 1 (or only dim, if given); with numInputDims,
    dim counts past a leading batch dimension."""

    dim = None
    numInputDims = None

    def __init__(self, dim=None, numInputDims=None):
        super().__init__()
        self.dim = dim
        self.numInputDims = numInputDims

    def updateOutput(self, input):
        utils.check_tensor(input, "nn.Squeeze: input")
        if self.dim is None:
            self.output = input.squeeze()
        else:
            dim = int(self.dim)
            if self.numInputDims is not None and input.dim() > int(self.numInputDims) and dim >= 0:
                dim += 1
            self.output = input.squeeze(_dim("nn.Squeeze", dim, input.dim()))
        return self.output

    def updateGradInput(self, input, gradOutput):
        _grad_like(input, gradOutput, "nn.Squeeze")
        check(
            gradOutput.numel() == input.numel(),
            RuntimeError,
            "nn.Squeeze: gradOutput of size %s does not fit %s",
            tuple(gradOutput.shape),
            tuple(input.shape),
        )
        self.gradInput = gradOutput.reshape(input.shape)
        return self.gradInput


class Unsqueeze(Module):
    """input with a new dimension of size 1 at position pos (past a leading batch
    dimension when numInputDims is set and the input has more)."""

    numInputDims = None

    def __init__(self, pos, numInputDims=None):
        super().__init__()
        self.pos = pos
        self.numInputDims = numInputDims

    def setNumInputDims(self, numInputDims):
        self.numInputDims = numInputDims
        return self

    def updateOutput(self, input):
        utils.check_tensor(input, "nn.Unsqueeze: input")
        pos = int(self.pos)
        if self.numInputDims is not None and input.dim() > int(self.numInputDims):
            pos += input.dim() - int(self.numInputDims)
        check(
            0 <= pos <= input.dim(),
            IndexError,
            "nn.Unsqueeze: position %d is out of range for a tensor of %d dimensions",
            pos,
            input.dim(),
        )
        self.output = input.unsqueeze(pos)
        return self.output

    def updateGradInput(self, input, gradOutput):
        _grad_like(input, gradOutput, "nn.Unsqueeze")
        check(
            gradOutput.numel() == input.numel(),
            RuntimeError,
            "nn.Unsqueeze: gradOutput of size %s does not fit %s",
            tuple(gradOutput.shape),
            tuple(input.shape),
        )
        self.gradInput = gradOutput.reshape(input.shape)
        return self.gradInput


class Transpose(Module):
    """Transpose((d1, d2), (d3, d4), ...): the pairs of dimensions swapped in turn."""

    def __init__(self, *permutations):
        super().__init__()
        self.permutations = [list(p) for p in permutations]

    def _pairs(self, t):
        pairs = []
        for p in self.permutations:
            a, b = (int(v) for v in (p.tolist() if hasattr(p, "tolist") else p))
            pairs.append((_dim("nn.Transpose", a, t.dim()), _dim("nn.Transpose", b, t.dim())))
        return pairs

    def updateOutput(self, input):
        utils.check_tensor(input, "nn.Transpose: input")
        out = input
        for a, b in self._pairs(input):
            out = out.transpose(a, b)
        self.output = out
        return out

    def updateGradInput(self, input, gradOutput):
        utils.check_tensor(gradOutput, "nn.Transpose: gradOutput")
        check(
            gradOutput.dim() == input.dim(),
            RuntimeError,
            "nn.Transpose: gradOutput of size %s does not fit input %s",
            tuple(gradOutput.shape),
            tuple(input.shape),
        )
        g = gradOutput
        for a, b in reversed(self._pairs(input)):
            g = g.transpose(a, b)
        utils.same_size(input, g, "nn.Transpose: input", "transposed gradOutput")
        self.gradInput = g
        return g


class Replicate(Module):
    """input repeated nfeatures times along a new dimension dim (past a leading batch
    dimension when ndim is set and the input has more dimensions); a view, no copy."""

    dim = 0
    ndim = None

    def __init__(self, nfeatures, dim=0, ndim=None):
        super().__init__()
        self.nfeatures = nfeatures
        self.dim = dim
        self.ndim = ndim

    def _rdim(self, input):
        rdim = int(self.dim)
        if self.ndim is not None and input.dim() > int(self.ndim):
            rdim += 1
        check(
            0 <= rdim <= input.dim(),
            IndexError,
            "nn.Replicate: dimension %d is out of range for an input of %d dimensions",
            rdim,
            input.dim(),
        )
        return rdim

    def updateOutput(self, input):
        utils.check_tensor(input, "nn.Replicate: input")
        rdim = self._rdim(input)
        shape = list(input.shape)
        shape.insert(rdim, int(self.nfeatures))
        self.output = input.unsqueeze(rdim).expand(*shape)
        return self.output

    def updateGradInput(self, input, gradOutput):
        rdim = self._rdim(input)
        utils.check_tensor(gradOutput, "nn.Replicate: gradOutput")
        shape = list(input.shape)
        shape.insert(rdim, int(self.nfeatures))
        check(
            tuple(gradOutput.shape) == tuple(shape),
            RuntimeError,
            "nn.Replicate: gradOutput of size %s must have size %s",
            tuple(gradOutput.shape),
            tuple(shape),
        )
        self.gradInput = gradOutput.sum(rdim)
        return self.gradInput


class Padding(Module):
    """|pad| entries of value added along dim: after the input for pad > 0, before it for
    pad < 0; index moves the padding that many entries inwards. With nInputDim, dim
    counts past a leading batch dimension when the input has more dimensions."""

    nInputDim = None
    value = 0
    index = 0

    def __init__(self, dim, pad, nInputDim=None, value=0, index=0):
        super().__init__()
        self.dim = dim
        self.pad = pad
        self.nInputDim = nInputDim
        self.value = value
        self.index = index

    def _where(self, input):
        utils.check_tensor(input, "nn.Padding: input")
        dim = int(self.dim)
        if self.nInputDim is not None and input.dim() != int(self.nInputDim):
            dim += 1
        dim = _dim("nn.Padding", dim, input.dim())
        size, pad, index = input.size(dim), int(self.pad), int(self.index)
        at = size - index if pad > 0 else index
        check(
            0 <= at <= size,
            IndexError,
            "nn.Padding: index %d is out of range for dimension %d of size %d",
            index,
            dim,
            size,
        )
        return dim, abs(pad), at

    def updateOutput(self, input):
        dim, pad, at = self._where(input)
        shape = list(input.shape)
        shape[dim] = pad
        fill = torch.full(shape, float(self.value), dtype=input.dtype)
        self.output = torch.cat([input.narrow(dim, 0, at), fill, input.narrow(dim, at, input.size(dim) - at)], dim)
        return self.output

    def updateGradInput(self, input, gradOutput):
        dim, pad, at = self._where(input)
        utils.check_tensor(gradOutput, "nn.Padding: gradOutput")
        shape = list(input.shape)
        shape[dim] += pad
        check(
            tuple(gradOutput.shape) == tuple(shape),
            RuntimeError,
            "nn.Padding: gradOutput of size %s must have size %s",
            tuple(gradOutput.shape),
            tuple(shape),
        )
        size = input.size(dim)
        self.gradInput = torch.cat([gradOutput.narrow(dim, 0, at), gradOutput.narrow(dim, at + pad, size - at)], dim)
        return self.gradInput


class Copy(Module):
    """input converted from intype to outtype ('torch.FloatTensor', a dtype, ...), and
    gradOutput back; the input itself when the types agree, unless forceCopy. dontCast:
    type() leaves the two types alone."""

    forceCopy = False
    dontCast = False

    def __init__(self, intype, outtype, forceCopy=False, dontCast=False):
        super().__init__()
        self.intype = utils.typename_of(utils.dtype_of(intype))
        self.outtype = utils.typename_of(utils.dtype_of(outtype))
        self.forceCopy = forceCopy
        self.dontCast = dontCast

    def updateOutput(self, input):
        utils.check_tensor(input, "nn.Copy: input")
        dtype = utils.dtype_of(self.outtype)
        self.output = input.clone() if self.forceCopy and input.dtype == dtype else input.to(dtype)
        return self.output

    def updateGradInput(self, input, gradOutput):
        utils.same_size(input, gradOutput, "nn.Copy: input", "gradOutput")
        dtype = utils.dtype_of(self.intype)
        self.gradInput = gradOutput.clone() if self.forceCopy and gradOutput.dtype == dtype else gradOutput.to(dtype)
        return self.gradInput

    def type(self, type=None, tensorCache=None):
        if type is not None and not self.dontCast:
            self.intype = self.outtype = utils.typename_of(utils.dtype_of(type))
        return super().type(type, tensorCache)


class Contiguous(Module):
    def updateOutput(self, input):
        utils.check_tensor(input, "nn.Contiguous: input")
        self.output = input.contiguous()
        return self.output

    def updateGradInput(self, input, gradOutput):
        utils.same_size(input, gradOutput, "nn.Contiguous: input", "gradOutput")
        self.gradInput = gradOutput.contiguous()
        return self.gradInput
