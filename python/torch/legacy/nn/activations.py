"""Activations: elementwise functions and the softmax family."""

import torch
from torch.legacy.nn import utils
from torch.legacy.nn.module import Module

__all__ = ["Tanh", "Threshold", "ReLU", "LogSoftMax"]


def _check_pointwise(name, input, gradOutput=None):
    utils.check_tensor(input, "%s: input" % name)
    if gradOutput is not None:
        utils.same_size(input, gradOutput, "%s: input" % name, "gradOutput")


class Tanh(Module):
    def updateOutput(self, input):
        _check_pointwise("nn.Tanh", input)
        self.output = torch.tanh(input)
        return self.output

    def updateGradInput(self, input, gradOutput):
        _check_pointwise("nn.Tanh", input, gradOutput)
        self.gradInput = gradOutput * (1 - self.output * self.output)
        return self.gradInput


class Threshold(Module):
    """output = input where input > threshold, else val. inplace: computed in input (and
    the gradient in gradOutput)."""

    threshold = 1e-6
    val = 0.0
    inplace = False

    def __init__(self, threshold=1e-6, value=0, inplace=False):
        super().__init__()
        self.threshold = threshold
        self.val = value
        self.inplace = inplace

    def updateOutput(self, input):
        _check_pointwise(self.torch_typename(), input)
        below = input <= self.threshold
        if self.inplace:
            self.output = input.masked_fill_(below, self.val)
        else:
            self.output = input.masked_fill(below, self.val)
        return self.output

    def updateGradInput(self, input, gradOutput):
        _check_pointwise(self.torch_typename(), input, gradOutput)
        below = input <= self.threshold
        if self.inplace:
            self.gradInput = gradOutput.masked_fill_(below, 0)
        else:
            self.gradInput = gradOutput.masked_fill(below, 0)
        return self.gradInput

    def __repr__(self):
        return "%s(%g, %g)" % (self.torch_typename(), self.threshold, self.val)


class ReLU(Threshold):
    threshold = 0.0

    def __init__(self, inplace=False):
        super().__init__(0, 0, inplace)

    def __repr__(self):
        return self.torch_typename()


def _softmax_dim(name, input):
    utils.check_tensor(input, "%s: input" % name, (1, 2, 3, 4))
    # torch7's layouts: features, batch x features, features x h x w, batch x features x h x w
    return 0 if input.dim() in (1, 3) else 1


class LogSoftMax(Module):
    def updateOutput(self, input):
        self.output = torch.log_softmax(input, _softmax_dim("nn.LogSoftMax", input))
        return self.output

    def updateGradInput(self, input, gradOutput):
        dim = _softmax_dim("nn.LogSoftMax", input)
        _check_pointwise("nn.LogSoftMax", input, gradOutput)
        self.gradInput = gradOutput - torch.exp(self.output) * gradOutput.sum(dim, keepdim=True)
        return self.gradInput
