"""Criterions (losses)."""

import torch
from torch.legacy.nn import utils
from torch.legacy.nn.criterion import Criterion
from torch.legacy.nn.utils import check

__all__ = ["MSECriterion", "ClassNLLCriterion"]


def _check_same_numel(name, input, target):
    utils.check_tensor(input, "%s: input" % name)
    utils.check_tensor(target, "%s: target" % name)
    check(input.numel() == target.numel(), RuntimeError,
          "%s: input of size %s and target of size %s must have the same number of elements", name,
          tuple(input.shape), tuple(target.shape))


class MSECriterion(Criterion):
    """sum((input - target)^2), divided by the number of elements if sizeAverage."""

    def __init__(self, sizeAverage=True):
        super().__init__()
        self.sizeAverage = sizeAverage

    def _n(self, input):
        return max(input.numel(), 1) if self.sizeAverage else 1

    def updateOutput(self, input, target):
        _check_same_numel("nn.MSECriterion", input, target)
        diff = input - target.reshape(input.shape)
        self.output = (diff * diff).sum().item() / self._n(input)
        return self.output

    def updateGradInput(self, input, target):
        _check_same_numel("nn.MSECriterion", input, target)
        self.gradInput = (input - target.reshape(input.shape)).mul_(2 / self._n(input))
        return self.gradInput


def _class_targets(name, input, target, n_classes):
    """target as a 1-D LongTensor of one class per row of input (0-based), checked."""
    if not torch.is_tensor(target):
        check(isinstance(target, (int, float)) and float(target) == int(target), TypeError,
              "%s: target must be a class index or a tensor of them, got %r", name, target)
        target = torch.tensor([int(target)])
    target = target.reshape(-1).long()
    rows = 1 if input.dim() == 1 else input.size(0)
    check(target.numel() == rows, RuntimeError, "%s: %d targets for an input of size %s (%d rows)", name,
          target.numel(), tuple(input.shape), rows)
    return target


class ClassNLLCriterion(Criterion):
    """-input[i, target[i]] weighted by weights[target[i]] and summed over the batch
    (divided by the total weight if sizeAverage). input: log-probabilities, nClasses or
    batch x nClasses; target: 0-based class indices, one per row. A target equal to
    ignoreIndex adds nothing."""

    weights = None
    ignoreIndex = -100

    def __init__(self, weights=None, sizeAverage=True, ignoreIndex=-100):
        super().__init__()
        self.sizeAverage = sizeAverage
        self.ignoreIndex = ignoreIndex
        if weights is not None:
            utils.check_tensor(weights, "nn.ClassNLLCriterion: weights", (1,))
            self.weights = weights

    def _prepare(self, input, target):
        name = "nn.ClassNLLCriterion"
        utils.check_tensor(input, "%s: input" % name, (1, 2))
        n_classes = input.size(-1)
        target = _class_targets(name, input, target, n_classes)
        keep = target != int(self.ignoreIndex)
        bad = keep & ((target < 0) | (target >= n_classes))
        if bool(bad.any()):
            raise IndexError("%s: target %d is out of range for %d classes" % (name, int(target[bad][0]), n_classes))
        if self.weights is not None:
            check(self.weights.numel() == n_classes, RuntimeError, "%s: %d weights for %d classes", name,
                  self.weights.numel(), n_classes)
        safe = target.masked_fill(~keep, 0)
        w = self.weights.to(input.dtype)[safe] if self.weights is not None else torch.ones(target.numel(),
                                                                                          dtype=input.dtype)
        w = w.masked_fill(~keep, 0)
        return input.reshape(-1, n_classes), safe, w

    def updateOutput(self, input, target):
        x, t, w = self._prepare(input, target)
        picked = x.gather(1, t.unsqueeze(1)).squeeze(1)
        total = -(picked * w).sum().item()
        if self.sizeAverage:
            wsum = w.sum().item()
            total = total / wsum if wsum != 0 else float("nan")
        self.output = total
        return self.output

    def updateGradInput(self, input, target):
        x, t, w = self._prepare(input, target)
        grad = torch.zeros_like(x)
        if self.sizeAverage:
            wsum = w.sum().item()
            w = w / wsum if wsum != 0 else w.fill_(float("nan"))
        grad.scatter_(1, t.unsqueeze(1), (-w).unsqueeze(1))
        self.gradInput = grad.reshape(input.shape)
        return self.gradInput
