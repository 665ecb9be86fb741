"""Simple layers: affine maps, elementwise parameters, shapes, reductions, ..."""

import math

import torch
from torch.legacy.nn import utils
from torch.legacy.nn.module import Module
from torch.legacy.nn.utils import check

__all__ = ["Linear"]


class Linear(Module):
    """output = input weight^T + bias for an input of inputSize (1-D) or batch x inputSize."""

    def __init__(self, inputSize, outputSize, bias=True):
        super().__init__()
        dtype = torch.get_default_dtype()
        self.weight = torch.empty(outputSize, inputSize, dtype=dtype)
        self.gradWeight = torch.zeros(outputSize, inputSize, dtype=dtype)
        if bias:
            self.bias = torch.empty(outputSize, dtype=dtype)
            self.gradBias = torch.zeros(outputSize, dtype=dtype)
        self.reset()

    def _has_bias(self):
        return getattr(self, "bias", None) is not None

    def noBias(self):
        self.__dict__.pop("bias", None)
        self.__dict__.pop("gradBias", None)
        return self

    def reset(self, stdv=None):
        stdv = stdv * math.sqrt(3) if stdv is not None else 1 / math.sqrt(self.weight.size(1))
        self.weight.uniform_(-stdv, stdv)
        if self._has_bias():
            self.bias.uniform_(-stdv, stdv)
        return self

    def _check_input(self, input):
        utils.check_tensor(input, "nn.Linear: input", (1, 2))
        check(input.size(-1) == self.weight.size(1), RuntimeError,
              "nn.Linear(%d -> %d): input of size %s must have %d elements in its last dimension",
              self.weight.size(1), self.weight.size(0), tuple(input.shape), self.weight.size(1))

    def _check_grad(self, input, gradOutput):
        self._check_input(input)
        expected = tuple(input.shape[:-1]) + (self.weight.size(0),)
        utils.check_tensor(gradOutput, "nn.Linear: gradOutput")
        check(tuple(gradOutput.shape) == expected, RuntimeError,
              "nn.Linear(%d -> %d): gradOutput of size %s must have size %s for an input of size %s",
              self.weight.size(1), self.weight.size(0), tuple(gradOutput.shape), expected, tuple(input.shape))

    def updateOutput(self, input):
        self._check_input(input)
        if input.dim() == 1:
            out = torch.mv(self.weight, input)
        else:
            out = torch.mm(input, self.weight.t())
        if self._has_bias():
            out.add_(self.bias)
        self.output = out
        return out

    def updateGradInput(self, input, gradOutput):
        self._check_grad(input, gradOutput)
        if input.dim() == 1:
            self.gradInput = torch.mv(self.weight.t(), gradOutput)
        else:
            self.gradInput = torch.mm(gradOutput, self.weight)
        return self.gradInput

    def accGradParameters(self, input, gradOutput, scale=1):
        self._check_grad(input, gradOutput)
        if input.dim() == 1:
            self.gradWeight.addr_(gradOutput, input, alpha=scale)
            if self._has_bias():
                self.gradBias.add_(gradOutput, alpha=scale)
        else:
            self.gradWeight.addmm_(gradOutput.t(), input, alpha=scale)
            if self._has_bias():
                self.gradBias.add_(gradOutput.sum(0), alpha=scale)

    def __repr__(self):
        return "nn.Linear(%d -> %d)%s" % (self.weight.size(1), self.weight.size(0),
                                          " without bias" if not self._has_bias() else "")
