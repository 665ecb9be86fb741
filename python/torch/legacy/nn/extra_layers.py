"""More of torch7's layers with parameters, each trained in a way of its own: PartialLinear
(a Linear layer that computes, and trains, only some of its output columns) and Kmeans (online
k-means, its own criterion). Same names, constructor arguments and fields as torch7; indices
0-based (PartialLinear's `partition` and `allcolumns`, Kmeans's output and `_assignment`:
t7fields shifts them on load and save)."""

import math

import torch
from torch.legacy.nn import utils
from torch.legacy.nn.containers import ParallelTable, Sequential
from torch.legacy.nn.layers import LookupTable
from torch.legacy.nn.mathops import MM
from torch.legacy.nn.misc import Identity
from torch.legacy.nn.module import Module
from torch.legacy.nn.utils import check

__all__ = ["PartialLinear", "Kmeans"]


def _batch_of(name, input, size, what):
    """input checked to be a batch nBatch x size."""
    utils.check_tensor(input, "%s: input" % name, (2,))
    check(
        input.size(1) == size,
        RuntimeError,
        "%s: a batch nBatch x %d (%s) expected, got size %s",
        name,
        size,
        what,
        tuple(input.shape),
    )


class PartialLinear(Module):
    """A Linear layer (weight outputsize x inputsize, bias 1 x outputsize) that computes only
    the output columns of its `partition`, a 1-D tensor of 0-based column indices
    (setPartition; every column after resetPartition), so that training can run on a part of
    a large output layer: a batch nBatch x inputsize gives nBatch x len(partition), and
    backward touches only the partition's rows of the weight and columns of the bias.

    As torch7's, the weight lives in a small network, {input, partition} ->
    ParallelTable(Identity, LookupTable) -> MM(false, true), so that the files of either
    language load in the other; accGradParameters and accUpdateGradParameters read the
    gradient that the network's last updateGradInput left (backward and backwardUpdate run
    it first)."""

    def __init__(self, inputsize, outputsize, bias=True):
        super().__init__()
        dtype = torch.get_default_dtype()
        branches = ParallelTable().add(Identity()).add(LookupTable(outputsize, inputsize))
        self.network = Sequential().add(branches).add(MM(False, True))
        if bias:
            self.bias = torch.zeros(1, outputsize, dtype=dtype)
            self.gradBias = torch.zeros(1, outputsize, dtype=dtype)
        self.inputsize, self.outputsize = inputsize, outputsize
        self.allcolumns = torch.arange(outputsize, dtype=dtype)
        self.resetPartition()

    def _lookup(self):
        """The LookupTable holding the weight (row j: output column j)."""
        return self.network.get(0).get(1)

    def _has_bias(self):
        return getattr(self, "bias", None) is not None

    def setPartition(self, indices):
        utils.check_tensor(indices, "nn.PartialLinear.setPartition: indices", (1,))
        n = int(self.outputsize)
        check(
            indices.numel() == 0 or (int(indices.min()) >= 0 and int(indices.max()) < n),
            IndexError,
            "nn.PartialLinear.setPartition: column indices must lie in [0, %d), got %s",
            n,
            indices.tolist(),
        )
        self.partition = indices.to(self.allcolumns.dtype)
        return self

    def resetPartition(self):
        self.partition = self.allcolumns
        return self

    def reset(self, stdv=None):
        utils.reset_uniform(stdv, int(self.inputsize), self._lookup().weight, getattr(self, "bias", None))
        return self

    def parameters(self):
        lookup = self._lookup()
        if self._has_bias():
            return [lookup.weight, self.bias], [lookup.gradWeight, self.gradBias]
        return [lookup.weight], [lookup.gradWeight]

    def _columns(self):
        return self.partition.long()

    def updateOutput(self, input):
        _batch_of("nn.PartialLinear", input, int(self.inputsize), "inputsize")
        out = self.network.forward([input, self.partition])
        if self._has_bias():
            out = out + self.bias.index_select(1, self._columns())
        self.output = out
        return out

    def updateGradInput(self, input, gradOutput):
        if self.gradInput is not None:  # torch7's way of saying "no gradInput needed"
            self.network.updateGradInput([input, self.partition], gradOutput)
            self.gradInput = self.network.gradInput[0]
        return self.gradInput

    def accGradParameters(self, input, gradOutput, scale=1):
        self.network.accGradParameters([input, self.partition], gradOutput, scale)
        if self._has_bias():
            self.gradBias.index_add_(1, self._columns(), gradOutput.sum(0, keepdim=True) * scale)

    def accUpdateGradParameters(self, input, gradOutput, lr):
        """One step with the parameters standing in for their gradients: they move by -lr
        times their gradient for this input and gradOutput."""
        lookup = self._lookup()
        grad_weight, grad_bias = lookup.gradWeight, self.__dict__.get("gradBias")
        lookup.gradWeight = lookup.weight
        if self._has_bias():
            self.gradBias = self.bias
        try:
            self.accGradParameters(input, gradOutput, -lr)
        finally:
            lookup.gradWeight = grad_weight
            self._restore("gradBias", grad_bias)

    sharedAccUpdateGradParameters = accUpdateGradParameters

    def __repr__(self):
        return "nn.PartialLinear(%d -> %d)%s" % (
            self.inputsize,
            self.outputsize,
            "" if self._has_bias() else " without bias",
        )


class Kmeans(Module):
    """Online k-means over samples of `dim` features; weight holds the k centres (k x dim).
    forward of a batch (nBatch x dim) gives each sample's nearest centre (0-based index, by
    squared Euclidean distance) and sets `loss` to the sum of those squared distances.

    The module is its own criterion: gradInput is zero, and accGradParameters adds to
    gradWeight, for each centre c with n_c samples x of the batch, -scale / n_c * sum (x - c),
    so that updateParameters(lr) moves c towards its samples' mean (with lr = 1 and scale 1,
    onto it: one step of Lloyd's algorithm); a centre without samples stays. scale: the
    constructor's, else accGradParameters' argument. As in this project's Lua nn, n_c is
    divided by exactly (torch7 divided by n_c + 1e-7, which stops short of the mean) and
    initRandom draws distinct samples (torch7 drew with replacement)."""

    scale = None
    p = None  # set by initKmeansPlus

    def __init__(self, k, dim, scale=None):
        super().__init__()
        check(k > 0, ValueError, "nn.Kmeans: the number of clusters must be positive, got %s", k)
        check(dim > 0, ValueError, "nn.Kmeans: the dimension must be positive, got %s", dim)
        dtype = torch.get_default_dtype()
        self.k, self.dim = k, dim
        if scale is not None:
            self.scale = scale
        self.weight = torch.empty(k, dim, dtype=dtype)
        self.gradWeight = torch.zeros(k, dim, dtype=dtype)
        self.loss = 0
        self.clusterSampleCount = torch.zeros(k, dtype=dtype)
        self.reset()

    def reset(self, stdev=1):
        self.weight.uniform_(-stdev, stdev)
        return self

    def _check(self, input, need=0):
        _batch_of("nn.Kmeans", input, int(self.dim), "dim")
        check(
            input.size(0) >= need, ValueError, "nn.Kmeans: at least %d samples are needed, got %d", need, input.size(0)
        )

    def _distances(self, input):
        """Squared distances from every sample to every centre: nBatch x k."""
        return (input.unsqueeze(1) - self.weight.unsqueeze(0)).pow(2).sum(2)

    def initRandom(self, input):
        """The centres become k distinct samples drawn at random."""
        k = int(self.k)
        self._check(input, k)
        self.weight.copy_(input.index_select(0, torch.randperm(input.size(0))[:k]))
        return self

    def initKmeansPlus(self, input, p=None):
        """k-means++ seeding: the first centre is a random sample; each next one is drawn among
        the ceil((1 - p) * nBatch) samples farthest from the centres chosen so far (p = 0.95
        unless given now or before), which spreads the centres over the data."""
        k = int(self.k)
        self._check(input, k)
        p = p if p is not None else self.p if self.p is not None else 0.95
        check(0 <= p <= 1, ValueError, "nn.Kmeans: p must lie in [0, 1], got %s", p)
        self.p = p
        n = input.size(0)
        pool = max(1, math.ceil((1 - p) * n))
        self.weight[0].copy_(input[int(torch.randint(n, ()))])
        nearest = torch.full((n,), math.inf, dtype=self.weight.dtype)
        for c in range(1, k):
            nearest = torch.minimum(nearest, (input - self.weight[c - 1]).pow(2).sum(1))
            farthest = nearest.argsort(descending=True)
            self.weight[c].copy_(input[int(farthest[int(torch.randint(pool, ()))])])
        return self

    def updateOutput(self, input):
        self._check(input)
        distance, index = self._distances(input).min(1)
        self._assignment = index
        self.output = index.to(self.weight.dtype)
        self.loss = distance.sum().item()
        return self.output

    def updateGradInput(self, input, gradOutput):
        self.gradInput = torch.zeros_like(input)
        return self.gradInput

    def accGradParameters(self, input, gradOutput, scale=1):
        if self.scale is not None:
            scale = self.scale
        check(scale > 0, ValueError, "nn.Kmeans: the scale must be positive, got %s", scale)
        self._check(input)
        assignment = self.__dict__.get("_assignment")
        check(
            torch.is_tensor(assignment) and assignment.numel() == input.size(0),
            RuntimeError,
            "nn.Kmeans: accGradParameters needs the forward of this batch of %d samples",
            input.size(0),
        )
        assignment = assignment.long()
        dtype = self.weight.dtype
        self.clusterSampleCount.zero_().index_add_(0, assignment, torch.ones(input.size(0), dtype=dtype))
        # c - x for each sample and its centre, summed per centre, divided by the count
        step = self.weight.index_select(0, assignment) - input
        sums = torch.zeros_like(self.gradWeight).index_add_(0, assignment, step)
        sums.div_(self.clusterSampleCount.clamp(min=1).unsqueeze(1)).mul_(scale)
        self.gradWeight.add_(sums)

    def clearState(self):
        self.__dict__.pop("_assignment", None)
        return super().clearState()
