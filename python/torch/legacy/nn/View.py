"""nn.View: the input seen with other sizes (a view of the same memory when contiguous)."""

import math

import torch
from torch.legacy.nn import utils
from torch.legacy.nn.module import Module
from torch.legacy.nn.utils import check

__all__ = ["View"]


class View(Module):
    """View(s1, s2, ...) or View(torch.Size / list): output of those sizes, one of them -1
    to infer it. Any leading dimensions beyond the sizes' element count form a batch
    dimension (torch7's rule); setNumInputDims(n) says how many trailing input dimensions
    make up one sample. torch7 files keep `size` as a LongStorage."""

    numInputDims = None

    def __init__(self, *sizes):
        super().__init__()
        self.resetSize(*sizes)

    def resetSize(self, *sizes):
        if len(sizes) == 1 and not isinstance(sizes[0], (int, float)):
            sizes = tuple(sizes[0])
        sizes = [int(s) for s in sizes]
        check(all(s >= 0 or s == -1 for s in sizes) and sizes.count(-1) <= 1, ValueError,
              "nn.View: sizes must be positive, with at most one -1, got %s", sizes)
        self.size = torch.LongStorage(sizes) if hasattr(torch, "LongStorage") else sizes
        self.numElements = math.prod(s for s in sizes if s >= 0)
        return self

    def setNumInputDims(self, numInputDims):
        self.numInputDims = numInputDims
        return self

    def _sizes(self):
        return [int(s) for s in self.size]

    def _output_shape(self, input):
        name = self.torch_typename()
        utils.check_tensor(input, "%s: input" % name)
        sizes = self._sizes()
        n_el = max(int(self.numElements), 1)
        ndim = input.dim() if self.numInputDims is None else int(self.numInputDims)
        sample = math.prod(input.shape[input.dim() - ndim:]) if ndim <= input.dim() else input.numel()
        check(sample % n_el == 0, RuntimeError, "%s: input of size %s cannot be viewed as %s", name,
              tuple(input.shape), tuple(sizes))
        batch = sample // n_el
        if -1 in sizes:
            batch = 1
        lead = math.prod(input.shape[:input.dim() - ndim]) if ndim < input.dim() else 1
        if ndim >= input.dim() and batch == 1:
            return sizes
        return [batch * lead] + sizes

    def updateOutput(self, input):
        self.output = input.contiguous().view(self._output_shape(input))
        return self.output

    def updateGradInput(self, input, gradOutput):
        utils.check_tensor(gradOutput, "%s: gradOutput" % self.torch_typename())
        check(gradOutput.numel() == input.numel(), RuntimeError, "%s: gradOutput of size %s for an input of size %s",
              self.torch_typename(), tuple(gradOutput.shape), tuple(input.shape))
        self.gradInput = gradOutput.contiguous().view(input.shape)
        return self.gradInput

    def __repr__(self):
        return "%s(%s)" % (self.torch_typename(), ", ".join(map(str, self._sizes())))
