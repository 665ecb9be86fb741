"""Runtime modules for torch7 criterions that torch.nn has no loss for, or whose input is a
torch7 table: forward(input, target) gives the loss, as torch7's criterion:forward(input,
target) does. Class targets are 0-based (Note [Indices shifted once] in layers.py)."""

import torch
import torch.nn.functional as F
from torch import nn
from torch.utils.convert_t7.runtime import _T7Module


def _reduce(loss, size_average, count=None):
    total = loss.sum()
    if not size_average:
        return total
    return total / (loss.numel() if count is None else count)


class TableLoss(_T7Module):
    """A torch.nn loss taking two inputs (MarginRankingLoss, CosineEmbeddingLoss) fed with
    torch7's input table {x1, x2}."""

    def __init__(self, loss):
        super().__init__()
        self.loss = loss

    def forward(self, xs, target):
        if target.dim() == 0 or (target.dim() == 1 and xs[0].dim() == 1 and target.numel() == 1 and xs[0].numel() > 1):
            target = target.reshape(1)
            return self.loss(xs[0].reshape(1, -1), xs[1].reshape(1, -1), target)
        return self.loss(xs[0], xs[1], target)

    def _t7_args(self):
        return [self.loss], {}


class MarginLoss(_T7Module):
    """torch7's nn.MarginCriterion(margin): sum of max(0, margin - x y), averaged with sizeAverage."""

    def __init__(self, margin=1.0, size_average=True):
        super().__init__()
        self.margin, self.size_average = float(margin), bool(size_average)

    def forward(self, x, y):
        return _reduce(F.relu(self.margin - x * y), self.size_average)

    def _t7_args(self):
        return [self.margin], {"size_average": self.size_average}


class L1HingeEmbeddingLoss(_T7Module):
    """torch7's nn.L1HingeEmbeddingCriterion(margin): input {x1, x2}, y = 1: |x1 - x2|_1, y = -1:
    max(0, margin - |x1 - x2|_1)."""

    def __init__(self, margin=1.0):
        super().__init__()
        self.margin = float(margin)

    def forward(self, xs, y):
        d = (xs[0] - xs[1]).abs().sum()
        y = float(y.reshape(-1)[0]) if torch.is_tensor(y) else float(y)
        return d if y == 1 else F.relu(self.margin - d)

    def _t7_args(self):
        return [self.margin], {}


class WeightedMSELoss(_T7Module):
    """torch7's nn.WeightedMSECriterion(weight, sizeAverage), weight of the given shape: MSE between x and target * weight
    (weight of one sample's size, repeated over a batch)."""

    def __init__(self, shape, size_average=True):
        super().__init__()
        self.register_buffer("weight", torch.zeros([int(s) for s in shape]))
        self.size_average = bool(size_average)

    def forward(self, x, target):
        w = self.weight.to(x.dtype)
        w = w.reshape(target.shape) if w.numel() == target.numel() else w.reshape((1,) + tuple(target.shape[1:]))
        return _reduce((x - target * w).pow(2), self.size_average)

    def _t7_args(self):
        return [list(self.weight.shape)], {"size_average": self.size_average}


class AutoCropMSELoss(_T7Module):
    """torch7's nn.SpatialAutoCropMSECriterion: MSE between x and the centre of a target that may
    be larger in height and width (offset floor((larger - smaller) / 2))."""

    def __init__(self, size_average=True):
        super().__init__()
        self.size_average = bool(size_average)

    def forward(self, x, target):
        h, w = x.shape[-2], x.shape[-1]
        top, left = (target.shape[-2] - h) // 2, (target.shape[-1] - w) // 2
        crop = target.narrow(-2, top, h).narrow(-1, left, w)
        return _reduce((x - crop).pow(2), self.size_average)

    def _t7_args(self):
        return [], {"size_average": self.size_average}


class L1Cost(_T7Module):
    """torch7's nn.L1Cost: sum |x| (the target is not used)."""

    def forward(self, x, target=None):
        return x.abs().sum()

    def _t7_args(self):
        return [], {}


class DistanceRatioLoss(_T7Module):
    """torch7's nn.DistanceRatioCriterion(sizeAverage): input {X, Y}, distances of similar and
    dissimilar pairs; sum -log(exp(-X) / (exp(-X) + exp(-Y))), divided by N with sizeAverage."""

    def __init__(self, size_average=True):
        super().__init__()
        self.size_average = bool(size_average)

    def forward(self, xs, target=None):
        x, y = xs
        loss = (x + torch.logsumexp(torch.stack([-x, -y]), 0)).sum()
        return loss / x.shape[0] if self.size_average else loss

    def _t7_args(self):
        return [], {"size_average": self.size_average}


class ClassSimplexLoss(_T7Module):
    """torch7's nn.ClassSimplexCriterion(nClasses): MSE between x and the simplex vertex of the
    target class (0-based); the vertices are the buffer `simplex` [nClasses, nClasses]."""

    def __init__(self, n_classes):
        super().__init__()
        self.n_classes = n_classes
        self.register_buffer("simplex", torch.zeros(n_classes, n_classes))

    def forward(self, x, target):
        t = target.long().reshape(-1)
        vertices = self.simplex.to(x.dtype).index_select(0, t).reshape(x.shape)
        return (x - vertices).pow(2).sum() / x.numel()

    def _t7_args(self):
        return [self.n_classes], {}


class _Criterions(_T7Module):
    def __init__(self, criterions, weights):
        super().__init__()
        self.criterions = nn.ModuleList(criterions)
        self.weights = [float(w) for w in weights]
        if len(self.weights) != len(self.criterions):
            raise ValueError(
                "%s: %d criterions and %d weights" % (type(self).__name__, len(self.criterions), len(self.weights))
            )


class ParallelLoss(_Criterions):
    """torch7's nn.ParallelCriterion(repeatTarget): sum of weight_i criterion_i(input[i],
    target[i]), or of criterion_i(input[i], target) with repeatTarget."""

    def __init__(self, criterions, weights, repeat_target=False):
        super().__init__(criterions, weights)
        self.repeat_target = bool(repeat_target)

    def forward(self, xs, target):
        total = 0
        for i, (c, w) in enumerate(zip(self.criterions, self.weights)):
            total = total + w * c(xs[i], target if self.repeat_target else target[i])
        return total

    def _t7_args(self):
        return [list(self.criterions), self.weights], {"repeat_target": self.repeat_target}


class MultiLoss(_Criterions):
    """torch7's nn.MultiCriterion: sum of weight_i criterion_i(input, target)."""

    def forward(self, x, target):
        total = 0
        for c, w in zip(self.criterions, self.weights):
            total = total + w * c(x, target)
        return total

    def _t7_args(self):
        return [list(self.criterions), self.weights], {}


class CriterionTable(_T7Module):
    """torch7's nn.CriterionTable(criterion): a module whose input is the table {input, target};
    no gradient reaches the target."""

    def __init__(self, criterion):
        super().__init__()
        self.criterion = criterion

    def forward(self, xs):
        return self.criterion(xs[0], xs[1].detach())

    def _t7_args(self):
        return [self.criterion], {}


class ModuleLoss(_T7Module):
    """torch7's nn.ModuleCriterion(criterion, inputModule, targetModule): the criterion on the
    modules' outputs; no gradient flows through the target's module."""

    def __init__(self, criterion, input_module=None, target_module=None):
        super().__init__()
        self.criterion, self.input_module, self.target_module = criterion, input_module, target_module

    def forward(self, x, target):
        if self.input_module is not None:
            x = self.input_module(x)
        if self.target_module is not None:
            with torch.no_grad():
                target = self.target_module(target)
        return self.criterion(x, target)

    def _t7_args(self):
        return [self.criterion, self.input_module, self.target_module], {}
