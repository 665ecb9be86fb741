"""nn.Criterion: a loss of (input, target); forward gives a number, backward its
gradient with respect to the input."""

import torch
from torch.legacy.nn import utils
from torch.legacy.nn.module import _Common

__all__ = ["Criterion"]


class Criterion(_Common):
    sizeAverage = True

    def __init__(self):
        self.gradInput = torch.empty(0, dtype=torch.get_default_dtype())
        self.output = 0

    def updateOutput(self, input, target):
        return self.output

    def forward(self, input, target):
        return self.updateOutput(input, target)

    def backward(self, input, target):
        return self.updateGradInput(input, target)

    def updateGradInput(self, input, target):
        return self.gradInput

    def clearState(self):
        utils.clear(self, "gradInput")
        return self

    def __call__(self, input, target):
        return self.forward(input, target)


utils.make_grad_free(Criterion)
