"""Layers that change only gradients or only training: Identity, Dropout,
GradientReversal, L1Penalty; and Maxout."""

import torch
from torch.legacy.nn import utils
from torch.legacy.nn.containers import Sequential
from torch.legacy.nn.layers import Linear
from torch.legacy.nn.mathops import Max
from torch.legacy.nn.module import Module
from torch.legacy.nn.shape import View
from torch.legacy.nn.utils import check

__all__ = ["Identity", "Dropout", "GradientReversal", "L1Penalty", "Maxout"]


class Identity(Module):
    """output is input and gradInput is gradOutput (the same objects, tables too)."""

    def updateOutput(self, input):
        self.output = input
        return input

    def updateGradInput(self, input, gradOutput):
        self.gradInput = gradOutput
        return gradOutput


class Dropout(Module):
    """In training, each element is zeroed with probability p and the others scaled by
    1 / (1 - p) (the mask is kept in `noise`); in evaluation the input passes unchanged.
    v1: no scaling in training, a scaling by 1 - p in evaluation (torch7's first version).
    stochasticInference: dropping in evaluation too."""

    v2 = True
    inplace = False
    stochastic_inference = False

    def __init__(self, p=0.5, v1=False, inplace=False, stochasticInference=False):
        super().__init__()
        self.train = True  # a field, as torch7's constructor sets it: Lua nn reads a missing one as false
        check(0 <= p < 1, ValueError, "nn.Dropout: p must be in [0, 1), got %g", p)
        self.p = p
        self.v2 = not v1
        self.inplace = inplace
        self.stochastic_inference = stochasticInference
        self.noise = torch.empty(0, dtype=torch.get_default_dtype())

    def setp(self, p):
        check(0 <= p < 1, ValueError, "nn.Dropout: p must be in [0, 1), got %g", p)
        self.p = p
        return self

    def updateOutput(self, input):
        utils.check_tensor(input, "nn.Dropout: input")
        out = input if self.inplace else input.clone()
        if self.p > 0 and (self.train or self.stochastic_inference):
            noise = torch.empty_like(input).bernoulli_(1 - self.p)
            if self.v2:
                noise.div_(1 - self.p)
            self.noise = noise
            out.mul_(noise)
        elif not self.train and not self.v2:
            out.mul_(1 - self.p)
        self.output = out
        return out

    def updateGradInput(self, input, gradOutput):
        utils.same_size(input, gradOutput, "nn.Dropout: input", "gradOutput")
        g = gradOutput if self.inplace else gradOutput.clone()
        if self.train or self.stochastic_inference:
            if self.p > 0:
                check(
                    self.noise.shape == input.shape,
                    RuntimeError,
                    "nn.Dropout: backward needs the forward of this input",
                )
                g.mul_(self.noise)
        elif not self.v2:
            g.mul_(1 - self.p)
        self.gradInput = g
        return g

    def clearState(self):
        utils.clear(self, "noise")
        return super().clearState()

    def __repr__(self):
        return "nn.Dropout(%.4f)" % self.p


class GradientReversal(Module):
    """The identity forward; backward multiplies the gradient by -lambda."""

    def __init__(self, lambd=1):
        super().__init__()
        self.__dict__["lambda"] = lambd

    def setLambda(self, lambd):
        self.__dict__["lambda"] = lambd
        return self

    def updateOutput(self, input):
        utils.check_tensor(input, "nn.GradientReversal: input")
        self.output = input.clone()
        return self.output

    def updateGradInput(self, input, gradOutput):
        utils.same_size(input, gradOutput, "nn.GradientReversal: input", "gradOutput")
        self.gradInput = gradOutput * -self.__dict__.get("lambda", 1)
        return self.gradInput


class L1Penalty(Module):
    """The identity forward, with loss = l1weight * sum |input| (divided by the number of
    elements if sizeAverage) kept in `loss`; backward adds that penalty's gradient
    (to gradOutput if provideOutput, else alone)."""

    sizeAverage = False
    provideOutput = True

    def __init__(self, l1weight, sizeAverage=False, provideOutput=True):
        super().__init__()
        self.l1weight = l1weight
        self.sizeAverage = sizeAverage
        self.provideOutput = provideOutput

    def _weight(self, input):
        return self.l1weight / input.numel() if self.sizeAverage and input.numel() else self.l1weight

    def updateOutput(self, input):
        utils.check_tensor(input, "nn.L1Penalty: input")
        self.loss = self._weight(input) * input.abs().sum().item()
        self.output = input
        return input

    def updateGradInput(self, input, gradOutput):
        utils.check_tensor(input, "nn.L1Penalty: input")
        g = torch.sign(input) * self._weight(input)
        if self.provideOutput:
            utils.same_size(input, gradOutput, "nn.L1Penalty: input", "gradOutput")
            g = g + gradOutput
        self.gradInput = g
        return g


class Maxout(Sequential):
    """Linear(inputSize, outputSize * maxoutNumber), then the largest of each group of
    maxoutNumber outputs."""

    def __init__(self, inputSize, outputSize, maxoutNumber):
        super().__init__()
        self.add(Linear(inputSize, outputSize * maxoutNumber))
        self.add(View(maxoutNumber, outputSize).setNumInputDims(1))
        self.add(Max(0, 2))

    def __repr__(self):
        return super().__repr__().replace("nn.Sequential", "nn.Maxout", 1)
