"""Criterions (losses)."""

import torch
from torch.legacy.nn import utils
from torch.legacy.nn.criterion import Criterion
from torch.legacy.nn.utils import buffer, check, of_type, thnn

__all__ = [
    "MSECriterion",
    "ClassNLLCriterion",
    "AbsCriterion",
    "SmoothL1Criterion",
    "DistKLDivCriterion",
    "SoftMarginCriterion",
    "MarginCriterion",
    "HingeEmbeddingCriterion",
    "BCECriterion",
    "MultiLabelSoftMarginCriterion",
    "CrossEntropyCriterion",
    "MultiMarginCriterion",
    "MultiLabelMarginCriterion",
    "CosineEmbeddingCriterion",
    "MarginRankingCriterion",
    "L1HingeEmbeddingCriterion",
    "MultiCriterion",
    "ParallelCriterion",
    "ClassSimplexCriterion",
]


def _check_same_numel(name, input, target):
    utils.check_tensor(input, "%s: input" % name)
    utils.check_tensor(target, "%s: target" % name)
    check(
        input.numel() == target.numel(),
        RuntimeError,
        "%s: input of size %s and target of size %s must have the same number of elements",
        name,
        tuple(input.shape),
        tuple(target.shape),
    )


def _loss(criterion, input):
    """The one-element tensor a reduced kernel writes its loss into (output_tensor, torch7's
    field), reused from call to call."""
    out = buffer(criterion.__dict__.get("output_tensor"), input)
    criterion.output_tensor = out
    return out


class _Elementwise(Criterion):
    """A loss summed over the elements (divided by their number if sizeAverage) that THNN's
    <_kernel>Criterion computes; target has as many elements as input, in any shape."""

    _kernel = None

    def __init__(self, sizeAverage=True):
        super().__init__()
        self.sizeAverage = sizeAverage

    def updateOutput(self, input, target):
        _check_same_numel(self.torch_typename(), input, target)
        kernels = thnn(self, input)
        out = _loss(self, input)
        getattr(kernels, self._kernel + "_updateOutput")(input, of_type(target, input), out, self.sizeAverage, True)
        self.output = out.item()
        return self.output

    def updateGradInput(self, input, target):
        _check_same_numel(self.torch_typename(), input, target)
        kernels = thnn(self, input)
        gi = input.new_empty(0)
        getattr(kernels, self._kernel + "_updateGradInput")(
            input, of_type(target, input), None, gi, self.sizeAverage, True
        )
        self.gradInput = gi
        return gi


class MSECriterion(_Elementwise):
    """sum((input - target)^2), divided by the number of elements if sizeAverage."""

    _kernel = "MSECriterion"


def _class_targets(name, input, target):
    """target as a 1-D LongTensor of one class per row of input (0-based), checked."""
    utils.check_tensor(input, "%s: input" % name, (1, 2))
    if not torch.is_tensor(target):
        check(
            isinstance(target, (int, float)) and float(target) == int(target),
            TypeError,
            "%s: target must be a class index or a tensor of them, got %r",
            name,
            target,
        )
        target = torch.tensor([int(target)])
    rows = 1 if input.dim() == 1 else input.size(0)
    check(
        target.numel() == rows,
        RuntimeError,
        "%s: %d targets for an input of size %s (%d rows)",
        name,
        target.numel(),
        tuple(input.shape),
        rows,
    )
    return (target if target.dim() == 1 else target.reshape(-1)).long()


class ClassNLLCriterion(Criterion):
    """-input[i, target[i]] weighted by weights[target[i]] and summed over the batch
    (divided by the total weight if sizeAverage). input: log-probabilities, nClasses or
    batch x nClasses; target: 0-based class indices, one per row. A target equal to
    ignoreIndex adds nothing. total_weight_tensor keeps the total weight."""

    weights = None
    ignoreIndex = -100

    def __init__(self, weights=None, sizeAverage=True, ignoreIndex=-100):
        super().__init__()
        self.sizeAverage = sizeAverage
        self.ignoreIndex = ignoreIndex
        if weights is not None:
            utils.check_tensor(weights, "nn.ClassNLLCriterion: weights", (1,))
            self.weights = weights

    def _total_weight(self, input):
        self.total_weight_tensor = buffer(self.__dict__.get("total_weight_tensor"), input)
        return self.total_weight_tensor

    def updateOutput(self, input, target):
        kernels = thnn(self, input)
        target = _class_targets(self.torch_typename(), input, target)
        out = _loss(self, input)
        kernels.ClassNLLCriterion_updateOutput(
            input,
            target,
            out,
            self.sizeAverage,
            of_type(self.weights, input),
            self._total_weight(input),
            int(self.ignoreIndex),
            True,
        )
        self.output = out.item()
        return self.output

    def updateGradInput(self, input, target):
        kernels = thnn(self, input)
        target = _class_targets(self.torch_typename(), input, target)
        gi = input.new_empty(0)
        kernels.ClassNLLCriterion_updateGradInput(
            input,
            target,
            None,
            gi,
            self.sizeAverage,
            of_type(self.weights, input),
            self._total_weight(input),
            int(self.ignoreIndex),
            True,
        )
        self.gradInput = gi
        return gi


class AbsCriterion(_Elementwise):
    """|input - target|."""

    _kernel = "AbsCriterion"


class SmoothL1Criterion(_Elementwise):
    """0.5 (input - target)^2 where |input - target| < 1, else |input - target| - 0.5."""

    _kernel = "SmoothL1Criterion"


class DistKLDivCriterion(_Elementwise):
    """target * (log(target) - input) where target > 0 (input: log-probabilities)."""

    _kernel = "DistKLDivCriterion"


class SoftMarginCriterion(_Elementwise):
    """log(1 + exp(-target * input)), target in {1, -1}."""

    _kernel = "SoftMarginCriterion"


class MarginCriterion(Criterion):
    """max(0, margin - target * input), target in {1, -1}; summed, divided by the number of
    elements if sizeAverage."""

    margin = 1.0

    def __init__(self, margin=1, sizeAverage=True):
        super().__init__()
        self.margin = margin
        self.sizeAverage = sizeAverage

    def updateOutput(self, input, target):
        _check_same_numel("nn.MarginCriterion", input, target)
        kernels = thnn(self, input)
        out = _loss(self, input)
        kernels.MarginCriterion_updateOutput(input, of_type(target, input), out, self.sizeAverage, self.margin)
        self.output = out.item()
        return self.output

    def updateGradInput(self, input, target):
        _check_same_numel("nn.MarginCriterion", input, target)
        kernels = thnn(self, input)
        gi = input.new_empty(0)
        kernels.MarginCriterion_updateGradInput(input, of_type(target, input), gi, self.sizeAverage, self.margin)
        self.gradInput = gi
        return gi


class HingeEmbeddingCriterion(Criterion):
    """input where target is 1, max(0, margin - input) where it is -1; summed, divided by
    the number of elements if sizeAverage."""

    margin = 1.0

    def __init__(self, margin=1, sizeAverage=True):
        super().__init__()
        self.margin = margin
        self.sizeAverage = sizeAverage

    def _n(self, input):
        return max(input.numel(), 1) if self.sizeAverage else 1

    def updateOutput(self, input, target):
        _check_same_numel("nn.HingeEmbeddingCriterion", input, target)
        target = target.reshape(input.shape).to(input.dtype)
        loss = torch.where(target > 0, input, (self.margin - input).clamp(min=0))
        self.output = loss.sum().item() / self._n(input)
        return self.output

    def updateGradInput(self, input, target):
        _check_same_numel("nn.HingeEmbeddingCriterion", input, target)
        target = target.reshape(input.shape).to(input.dtype)
        ones = torch.ones_like(input)
        neg = torch.where(self.margin - input > 0, -ones, torch.zeros_like(input))
        self.gradInput = torch.where(target > 0, ones, neg) / self._n(input)
        return self.gradInput


def _expand_weights(weights, input):
    """Per-element weights (of input's last size, repeated over the batch) or None."""
    if weights is None:
        return None
    check(
        weights.numel() == input.size(-1) if input.dim() else False,
        RuntimeError,
        "%d weights for an input of size %s",
        weights.numel(),
        tuple(input.shape),
    )
    return of_type(weights, input).reshape((1,) * (input.dim() - 1) + (-1,)).expand_as(input)


class BCECriterion(Criterion):
    """-weights * (target log(input) + (1 - target) log(1 - input)), input probabilities in
    [0, 1]; summed (divided by the number of elements if sizeAverage). 1e-12 keeps the logs
    finite. weights: one per class (input's last dimension), repeated over the batch."""

    weights = None

    def __init__(self, weights=None, sizeAverage=True):
        super().__init__()
        self.sizeAverage = sizeAverage
        if weights is not None:
            utils.check_tensor(weights, "nn.BCECriterion: weights", (1,))
            self.weights = weights

    def updateOutput(self, input, target):
        _check_same_numel("nn.BCECriterion", input, target)
        kernels = thnn(self, input)
        weights = _expand_weights(self.weights, input)
        out = _loss(self, input)
        kernels.BCECriterion_updateOutput(input, of_type(target, input), out, self.sizeAverage, weights, True)
        self.output = out.item()
        return self.output

    def updateGradInput(self, input, target):
        _check_same_numel("nn.BCECriterion", input, target)
        kernels = thnn(self, input)
        weights = _expand_weights(self.weights, input)
        gi = input.new_empty(0)
        kernels.BCECriterion_updateGradInput(input, of_type(target, input), None, gi, self.sizeAverage, weights, True)
        self.gradInput = gi
        return gi


class MultiLabelSoftMarginCriterion(Criterion):
    """BCE of sigmoid(input) against target in {0, 1} (weighted per class), through THNN's
    Sigmoid and BCECriterion kernels as torch7's composite of nn.Sigmoid and nn.BCECriterion;
    summed, divided by the number of elements if sizeAverage. `_sigmoid` keeps the
    sigmoid of the last input."""

    weights = None

    def __init__(self, weights=None, sizeAverage=True):
        super().__init__()
        self.sizeAverage = sizeAverage
        if weights is not None:
            utils.check_tensor(weights, "nn.MultiLabelSoftMarginCriterion: weights", (1,))
            self.weights = weights

    def _sigmoid(self, kernels, input):
        s = buffer(self.__dict__.get("_sig"), input)
        kernels.Sigmoid_updateOutput(input, s)
        self._sig = s
        return s

    def updateOutput(self, input, target):
        _check_same_numel("nn.MultiLabelSoftMarginCriterion", input, target)
        kernels = thnn(self, input)
        weights = _expand_weights(self.weights, input)
        s = self._sigmoid(kernels, input)
        out = _loss(self, input)
        kernels.BCECriterion_updateOutput(s, of_type(target, input), out, self.sizeAverage, weights, True)
        self.output = out.item()
        return self.output

    def updateGradInput(self, input, target):
        _check_same_numel("nn.MultiLabelSoftMarginCriterion", input, target)
        kernels = thnn(self, input)
        weights = _expand_weights(self.weights, input)
        s = self._sigmoid(kernels, input)
        g = input.new_empty(0)
        kernels.BCECriterion_updateGradInput(s, of_type(target, input), None, g, self.sizeAverage, weights, True)
        gi = input.new_empty(0)
        kernels.Sigmoid_updateGradInput(g, gi, s)
        self.gradInput = gi.view(input.shape)
        return self.gradInput

    def clearState(self):
        utils.clear(self, "_sig")
        return super().clearState()


class CrossEntropyCriterion(Criterion):
    """ClassNLLCriterion of LogSoftMax(input)."""

    def __init__(self, weights=None, sizeAverage=True):
        super().__init__()
        from torch.legacy.nn.activations import LogSoftMax

        self.lsm = LogSoftMax()
        self.nll = ClassNLLCriterion(weights, sizeAverage)
        self.sizeAverage = sizeAverage

    def _sync(self):
        self.nll.sizeAverage = self.sizeAverage

    def updateOutput(self, input, target):
        utils.check_tensor(input, "nn.CrossEntropyCriterion: input", (1, 2))
        self._sync()
        self.lsm.updateOutput(input)
        self.output = self.nll.updateOutput(self.lsm.output, target)
        return self.output

    def updateGradInput(self, input, target):
        utils.check_tensor(input, "nn.CrossEntropyCriterion: input", (1, 2))
        self._sync()
        self.lsm.updateOutput(input)
        g = self.nll.updateGradInput(self.lsm.output, target)
        self.gradInput = self.lsm.updateGradInput(input, g)
        return self.gradInput


class MultiMarginCriterion(Criterion):
    """sum over classes i != y of weights[y] * max(0, margin - x[y] + x[i])^p / nClasses
    per row (p 1 or 2), summed over rows (divided by their number if sizeAverage)."""

    p = 1
    margin = 1.0
    weights = None

    def __init__(self, p=1, weights=None, margin=1, sizeAverage=True):
        super().__init__()
        check(p in (1, 2), ValueError, "nn.MultiMarginCriterion: p must be 1 or 2, got %r", p)
        self.p = p
        self.margin = margin
        self.sizeAverage = sizeAverage
        if weights is not None:
            utils.check_tensor(weights, "nn.MultiMarginCriterion: weights", (1,))
            self.weights = weights

    def updateOutput(self, input, target):
        kernels = thnn(self, input)
        target = _class_targets(self.torch_typename(), input, target)
        out = _loss(self, input)
        kernels.MultiMarginCriterion_updateOutput(
            input, target, out, self.sizeAverage, self.p, of_type(self.weights, input), self.margin, True
        )
        self.output = out.item()
        return self.output

    def updateGradInput(self, input, target):
        kernels = thnn(self, input)
        target = _class_targets(self.torch_typename(), input, target)
        gi = input.new_empty(0)
        kernels.MultiMarginCriterion_updateGradInput(
            input, target, None, gi, self.sizeAverage, self.p, of_type(self.weights, input), self.margin, True
        )
        self.gradInput = gi
        return gi


class MultiLabelMarginCriterion(Criterion):
    """For each row, target (input's size) lists 0-based classes up to the first -1; the
    loss sums max(0, 1 - (x[j] - x[i])) over target classes j and other classes i, divided
    by the number of classes; summed over rows (divided by their number if sizeAverage).
    isTarget marks the listed classes."""

    def __init__(self, sizeAverage=True):
        super().__init__()
        self.sizeAverage = sizeAverage

    def _is_target(self, input):
        self.isTarget = buffer(self.__dict__.get("isTarget"), input)
        return self.isTarget

    def updateOutput(self, input, target):
        kernels = thnn(self, input)
        utils.check_tensor(target, "nn.MultiLabelMarginCriterion: target")
        out = _loss(self, input)
        kernels.MultiLabelMarginCriterion_updateOutput(
            input, target.long(), out, self._is_target(input), self.sizeAverage, True
        )
        self.output = out.item()
        return self.output

    def updateGradInput(self, input, target):
        kernels = thnn(self, input)
        utils.check_tensor(target, "nn.MultiLabelMarginCriterion: target")
        gi = input.new_empty(0)
        kernels.MultiLabelMarginCriterion_updateGradInput(
            input, target.long(), None, gi, self._is_target(input), self.sizeAverage, True
        )
        self.gradInput = gi
        return gi


def _tensor_pair(name, input, dims=None):
    check(
        isinstance(input, (list, tuple)) and len(input) == 2,
        TypeError,
        "%s: input must be a table of two tensors",
        name,
    )
    a, b = input
    utils.check_tensor(a, "%s: input[0]" % name, dims)
    utils.same_size(a, b, "%s: input[0]" % name, "input[1]")
    return a, b


def _signs(target, dtype):
    """target (a number or a tensor of them) as a 1-D tensor of dtype."""
    if torch.is_tensor(target):
        return target.reshape(-1).to(dtype)
    return torch.tensor([float(target)], dtype=dtype)


class _PairMarginCriterion(Criterion):
    """Criterions of a pair {x1, x2} with a margin: gradInput is a pair too."""

    margin = 0.0

    def __init__(self, margin=0, sizeAverage=True):
        super().__init__()
        self.margin = margin
        self.sizeAverage = sizeAverage
        self.gradInput = [torch.empty(0), torch.empty(0)]


class CosineEmbeddingCriterion(_PairMarginCriterion):
    """{x1, x2} and target y (1 or -1 per row): 1 - cos(x1, x2) where y is 1,
    max(0, cos(x1, x2) - margin) where it is -1; summed over rows (averaged if sizeAverage)."""

    def _parts(self, input, target):
        a, b = _tensor_pair("nn.CosineEmbeddingCriterion", input, (1, 2))
        x1, x2 = (a.unsqueeze(0), b.unsqueeze(0)) if a.dim() == 1 else (a, b)
        y = _signs(target, x1.dtype)
        check(
            y.numel() == x1.size(0),
            RuntimeError,
            "nn.CosineEmbeddingCriterion: %d targets for %d rows",
            y.numel(),
            x1.size(0),
        )
        n1 = (x1 * x1).sum(1) + 1e-12
        n2 = (x2 * x2).sum(1) + 1e-12
        cos = (x1 * x2).sum(1) / torch.sqrt(n1 * n2)
        return a, x1, x2, y, n1, n2, cos

    def updateOutput(self, input, target):
        a, x1, x2, y, n1, n2, cos = self._parts(input, target)
        loss = torch.where(y > 0, 1 - cos, (cos - self.margin).clamp(min=0))
        self.output = loss.sum().item() / (x1.size(0) if self.sizeAverage else 1)
        return self.output

    def updateGradInput(self, input, target):
        a, x1, x2, y, n1, n2, cos = self._parts(input, target)
        # d loss / d cos: -1 (y = 1), 1 where cos > margin (y = -1), else 0
        d = torch.where(y > 0, -torch.ones_like(cos), (cos > self.margin).to(cos.dtype))
        if self.sizeAverage:
            d = d / x1.size(0)
        d = d.unsqueeze(1)
        root = torch.sqrt(n1 * n2).unsqueeze(1)
        g1 = d * (x2 / root - cos.unsqueeze(1) * x1 / n1.unsqueeze(1))
        g2 = d * (x1 / root - cos.unsqueeze(1) * x2 / n2.unsqueeze(1))
        self.gradInput = [g1.reshape(a.shape), g2.reshape(a.shape)]
        return self.gradInput


class MarginRankingCriterion(_PairMarginCriterion):
    """{x1, x2} (numbers, or vectors of a batch) and y (1: x1 should rank higher, -1:
    lower): max(0, -y (x1 - x2) + margin), summed (averaged over a batch if sizeAverage)."""

    def _parts(self, input, target):
        a, b = _tensor_pair("nn.MarginRankingCriterion", input)
        y = _signs(target, a.dtype)
        check(
            y.numel() in (1, a.numel()),
            RuntimeError,
            "nn.MarginRankingCriterion: %d targets for %d pairs",
            y.numel(),
            a.numel(),
        )
        z = -y * (a.reshape(-1) - b.reshape(-1)) + self.margin
        div = a.numel() if self.sizeAverage and a.numel() > 1 else 1
        return a, y, z, div

    def updateOutput(self, input, target):
        a, y, z, div = self._parts(input, target)
        self.output = z.clamp(min=0).sum().item() / div
        return self.output

    def updateGradInput(self, input, target):
        a, y, z, div = self._parts(input, target)
        g = torch.where(z > 0, -y * torch.ones_like(z), torch.zeros_like(z)) / div
        self.gradInput = [g.reshape(a.shape), (-g).reshape(a.shape)]
        return self.gradInput


class L1HingeEmbeddingCriterion(Criterion):
    """{x1, x2} and y (1 or -1): d = ||x1 - x2||_1; d where y is 1, max(0, margin - d)
    where it is -1."""

    margin = 1.0

    def __init__(self, margin=1):
        super().__init__()
        self.margin = margin
        self.gradInput = [torch.empty(0), torch.empty(0)]

    def _parts(self, input, target):
        a, b = _tensor_pair("nn.L1HingeEmbeddingCriterion", input, (1, 2))
        y = float(target.reshape(-1)[0]) if torch.is_tensor(target) else float(target)
        return a, b, y, (a - b).abs().sum().item()

    def updateOutput(self, input, target):
        a, b, y, d = self._parts(input, target)
        self.output = d if y > 0 else max(0.0, self.margin - d)
        return self.output

    def updateGradInput(self, input, target):
        a, b, y, d = self._parts(input, target)
        g = torch.sign(a - b)
        if y <= 0:
            g = -g if self.margin - d > 0 else torch.zeros_like(g)
        self.gradInput = [g, -g]
        return self.gradInput


def _floats(weights):
    return [float(w) for w in (weights.tolist() if hasattr(weights, "tolist") else weights)]


class MultiCriterion(Criterion):
    """The weighted sum of criterions, all on the same input and target."""

    def __init__(self):
        super().__init__()
        self.criterions = []
        self.weights = []

    def add(self, criterion, weight=1):
        self.criterions.append(criterion)
        self.weights = _floats(self.weights) + [float(weight)]
        return self

    def updateOutput(self, input, target):
        self.output = sum(w * c.updateOutput(input, target) for c, w in zip(self.criterions, _floats(self.weights)))
        return self.output

    def updateGradInput(self, input, target):
        total = None
        for c, w in zip(self.criterions, _floats(self.weights)):
            g = c.updateGradInput(input, target) * w
            total = g if total is None else total + g
        self.gradInput = total if total is not None else torch.zeros_like(input)
        return self.gradInput

    def __repr__(self):
        return "nn.MultiCriterion {\n%s\n}" % "\n".join(
            "  [%d]: %s (weight %g)" % (i + 1, c, w)
            for i, (c, w) in enumerate(zip(self.criterions, _floats(self.weights)))
        )


class ParallelCriterion(Criterion):
    """The weighted sum of criterions, criterion i on input[i] and target[i] (the same
    target for all if repeatTarget)."""

    repeatTarget = False

    def __init__(self, repeatTarget=False):
        super().__init__()
        self.criterions = []
        self.weights = []
        self.repeatTarget = repeatTarget
        self.gradInput = []

    def add(self, criterion, weight=1):
        self.criterions.append(criterion)
        self.weights = _floats(self.weights) + [float(weight)]
        return self

    def _pairs(self, input, target):
        n = len(self.criterions)
        check(
            isinstance(input, (list, tuple)) and len(input) >= n,
            TypeError,
            "nn.ParallelCriterion: input must be a table of at least %d entries",
            n,
        )
        if not self.repeatTarget:
            check(
                isinstance(target, (list, tuple)) and len(target) >= n,
                TypeError,
                "nn.ParallelCriterion: target must be a table of at least %d entries",
                n,
            )
        return [
            (c, w, input[i], target if self.repeatTarget else target[i])
            for i, (c, w) in enumerate(zip(self.criterions, _floats(self.weights)))
        ]

    def updateOutput(self, input, target):
        self.output = sum(w * c.updateOutput(x, t) for c, w, x, t in self._pairs(input, target))
        return self.output

    def updateGradInput(self, input, target):
        grads = [_scaled(c.updateGradInput(x, t), w) for c, w, x, t in self._pairs(input, target)]
        self.gradInput = grads
        return grads


def _scaled(g, w):
    if torch.is_tensor(g):
        return g * w
    return [_scaled(v, w) for v in g]


class ClassSimplexCriterion(MSECriterion):
    """MSE between input and the vertex of a regular simplex standing for the target
    class (0-based): targets embedded as nClasses equidistant unit vectors."""

    def __init__(self, nClasses):
        super().__init__()
        check(
            isinstance(nClasses, int) and nClasses > 1,
            ValueError,
            "nn.ClassSimplexCriterion: nClasses must be an integer > 1, got %r",
            nClasses,
        )
        self.nClasses = nClasses
        simplex = self._regsplex(nClasses - 1)
        self.simplex = torch.cat([simplex, torch.zeros(nClasses, nClasses - simplex.size(1), dtype=torch.float64)], 1)
        self.simplex = self.simplex.to(torch.get_default_dtype())

    @staticmethod
    def _regsplex(n):
        """n + 1 unit vectors in n dimensions with equal pairwise distances (torch7's construction)."""
        a = torch.zeros(n + 1, n, dtype=torch.float64)
        for k in range(n):
            a[k, k] = 1 if k == 0 else (1 - a[k, :k].norm().item() ** 2) ** 0.5
            c = (a[k, k].item() ** 2 - 1 - 1 / n) / a[k, k].item()
            a[k + 1 :, k] = c
        return a

    def _embed(self, input, target):
        n = int(self.nClasses)
        if not torch.is_tensor(target):
            t = torch.tensor([int(target)])
        else:
            utils.check_tensor(target, "nn.ClassSimplexCriterion: target", (0, 1))
            t = target.reshape(-1).long()
        if t.numel() and (int(t.min()) < 0 or int(t.max()) >= n):
            raise IndexError(
                "nn.ClassSimplexCriterion: target %d is out of range for %d classes"
                % (int(t.min()) if int(t.min()) < 0 else int(t.max()), n)
            )
        emb = self.simplex.to(input.dtype)[t]
        return emb[0] if not torch.is_tensor(target) or target.dim() == 0 else emb

    def updateOutput(self, input, target):
        return super().updateOutput(input, self._embed(input, target))

    def updateGradInput(self, input, target):
        return super().updateGradInput(input, self._embed(input, target))

    def getPredictions(self, input):
        """input projected on every class's vertex."""
        x = input if input.dim() == 2 else input.unsqueeze(0)
        p = torch.mm(x, self.simplex.to(x.dtype).t())
        return p if input.dim() == 2 else p[0]

    def getTopPrediction(self, input):
        """The 0-based class whose vertex is nearest in direction."""
        return self.getPredictions(input).max(-1)[1]
