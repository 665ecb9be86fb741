"""Containers: modules made of modules (`modules`, a list)."""

import torch
from torch.legacy.nn import utils
from torch.legacy.nn.module import Module

__all__ = ["Container", "Sequential"]


class Container(Module):
    """A module holding other modules in `modules`; parameters, modes, types and state
    go to every one of them."""

    def __init__(self, *args):
        super().__init__()
        self.modules = []

    def add(self, module):
        self.modules.append(module)
        return self

    def get(self, index):
        return self.modules[index]

    def size(self):
        return len(self.modules)

    def applyToModules(self, fn):
        for m in self.modules:
            fn(m)

    def zeroGradParameters(self):
        self.applyToModules(lambda m: m.zeroGradParameters())

    def updateParameters(self, learningRate):
        self.applyToModules(lambda m: m.updateParameters(learningRate))

    def training(self):
        super().training()
        self.applyToModules(lambda m: m.training())
        return self

    def evaluate(self):
        super().evaluate()
        self.applyToModules(lambda m: m.evaluate())
        return self

    def share(self, other, *names):
        for mine, theirs in zip(self.modules, other.modules):
            mine.share(theirs, *names)
        return self

    def reset(self, stdv=None):
        self.applyToModules(lambda m: m.reset(stdv) if hasattr(m, "reset") else None)
        return self

    def clearState(self):
        super().clearState()
        self.applyToModules(lambda m: m.clearState())
        return self

    def parameters(self):
        weights, grads = [], []
        for m in self.modules:
            p = m.parameters()
            if p:
                weights.extend(p[0])
                grads.extend(p[1])
        return weights, grads

    def _child(self, i):
        return "(%d): %s" % (i + 1, repr(self.modules[i]).replace("\n", "\n  "))


class Sequential(Container):
    """modules applied one after the other: each one's output is the next one's input."""

    def insert(self, module, index=None):
        """Inserts module before position index (0-based; at the end by default)."""
        if index is None:
            index = len(self.modules)
        utils.check(-len(self.modules) <= index <= len(self.modules), IndexError,
                    "Sequential.insert: index %d is out of range for %d modules", index, len(self.modules))
        self.modules.insert(index, module)
        return self

    def remove(self, index=None):
        """Removes the module at index (0-based; the last one by default)."""
        if index is None:
            index = len(self.modules) - 1
        utils.check(-len(self.modules) <= index < len(self.modules), IndexError,
                    "Sequential.remove: index %d is out of range for %d modules", index, len(self.modules))
        del self.modules[index]
        return self

    def updateOutput(self, input):
        current = input
        for m in self.modules:
            current = m.updateOutput(current)
        self.output = current
        return current

    def _inputs(self, input):
        return [input] + [m.output for m in self.modules[:-1]]

    def updateGradInput(self, input, gradOutput):
        current = gradOutput
        for m, x in reversed(list(zip(self.modules, self._inputs(input)))):
            current = m.updateGradInput(x, current)
        self.gradInput = current
        return current

    def accGradParameters(self, input, gradOutput, scale=1):
        grads = [m.gradInput for m in self.modules[1:]] + [gradOutput]
        for m, x, g in reversed(list(zip(self.modules, self._inputs(input), grads))):
            m.accGradParameters(x, g, scale)

    def backward(self, input, gradOutput, scale=1):
        current = gradOutput
        for m, x in reversed(list(zip(self.modules, self._inputs(input)))):
            current = m.backward(x, current, scale)
        self.gradInput = current
        return current

    def accUpdateGradParameters(self, input, gradOutput, lr):
        grads = [m.gradInput for m in self.modules[1:]] + [gradOutput]
        for m, x, g in reversed(list(zip(self.modules, self._inputs(input), grads))):
            m.accUpdateGradParameters(x, g, lr)

    def __repr__(self):
        arrows = "".join(" -> (%d)" % (i + 1) for i in range(len(self.modules)))
        lines = ["nn.Sequential {", "  [input%s -> output]" % arrows]
        lines += ["  " + self._child(i) for i in range(len(self.modules))]
        return "\n".join(lines) + "\n}"
