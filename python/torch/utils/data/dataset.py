"""Datasets: what a DataLoader reads samples from.

A map-style Dataset answers dataset[i] for 0 <= i < len(dataset); an IterableDataset is a
stream (iter(dataset)) for data that cannot be indexed cheaply (files read in order,
generators). The combinators (ConcatDataset, ChainDataset, Subset, random_split) never copy
samples: they translate indices.
"""

import bisect
import itertools
import math
import numbers
import warnings

import torch


class Dataset:
    """A map-style dataset: subclasses define __getitem__ (and usually __len__)."""

    def __getitem__(self, index):
        raise NotImplementedError("Subclasses of Dataset should implement __getitem__.")

    def __add__(self, other):
        return ConcatDataset([self, other])


class IterableDataset(Dataset):
    """A dataset read as a stream: subclasses define __iter__. With DataLoader workers, each
    worker iterates its own copy; use torch.utils.data.get_worker_info() in __iter__ to give
    each worker a distinct part, or every sample comes once per worker."""

    def __iter__(self):
        raise NotImplementedError("Subclasses of IterableDataset should implement __iter__.")

    def __add__(self, other):
        return ChainDataset([self, other])


class TensorDataset(Dataset):
    """Sample i is (t[i] for t in tensors); every tensor must have the same size in dim 0."""

    def __init__(self, *tensors):
        for t in tensors:
            if not torch.is_tensor(t):
                raise TypeError("TensorDataset: expected tensors, got %s" % type(t).__name__)
            if t.dim() == 0:
                raise ValueError("TensorDataset: tensors need a first dimension to index, got a 0-dim tensor")
        sizes = [t.size(0) for t in tensors]
        if len(set(sizes)) > 1:
            # AssertionError as PyTorch raises; sizes make the message useful.
            raise AssertionError("Size mismatch between tensors: sizes in dim 0 are %s" % sizes)
        self.tensors = tensors

    def __getitem__(self, index):
        if isinstance(index, numbers.Integral) and not isinstance(index, bool):
            # What samplers give: t[i] is select(0, i), without parsing an indexing key.
            return tuple(t.select(0, int(index)) for t in self.tensors)
        return tuple(t[index] for t in self.tensors)

    def __len__(self):
        return self.tensors[0].size(0)


class ConcatDataset(Dataset):
    """The map-style datasets one after the other."""

    def __init__(self, datasets):
        self.datasets = list(datasets)
        if len(self.datasets) == 0:
            raise AssertionError("datasets should not be an empty iterable")
        for d in self.datasets:
            if isinstance(d, IterableDataset):
                raise AssertionError("ConcatDataset does not support IterableDataset")
        self.cumulative_sizes = list(itertools.accumulate(len(d) for d in self.datasets))

    def __len__(self):
        return self.cumulative_sizes[-1]

    def __getitem__(self, idx):
        n = len(self)
        if idx < 0:
            if -idx > n:
                raise ValueError("absolute value of index should not exceed dataset length")
            idx += n
        if idx >= n:
            raise IndexError("index %d is out of range for a ConcatDataset of length %d" % (idx, n))
        which = bisect.bisect_right(self.cumulative_sizes, idx)
        start = self.cumulative_sizes[which - 1] if which > 0 else 0
        return self.datasets[which][idx - start]


class ChainDataset(IterableDataset):
    """The iterable datasets one after the other, chained lazily."""

    def __init__(self, datasets):
        self.datasets = datasets

    def __iter__(self):
        for d in self.datasets:
            if not isinstance(d, IterableDataset):
                raise AssertionError("ChainDataset only supports IterableDataset")
            yield from d

    def __len__(self):
        total = 0
        for d in self.datasets:
            if not isinstance(d, IterableDataset):
                raise AssertionError("ChainDataset only supports IterableDataset")
            total += len(d)
        return total


class Subset(Dataset):
    """The samples of dataset at the given indices, in that order."""

    def __init__(self, dataset, indices):
        self.dataset = dataset
        self.indices = indices

    def __getitem__(self, idx):
        if isinstance(idx, list):
            return self.dataset[[self.indices[i] for i in idx]]
        return self.dataset[self.indices[idx]]

    def __len__(self):
        return len(self.indices)


def random_split(dataset, lengths, generator=None):
    """Splits dataset into non-overlapping Subsets of the given lengths, drawn from one random
    permutation. lengths may be fractions summing to 1: each split gets floor(n * fraction)
    samples and the remainder is dealt one by one from the first split on."""
    if generator is None:
        generator = torch.default_generator
    lengths = list(lengths)
    n = len(dataset)
    total = sum(lengths)
    if math.isclose(total, 1) and total <= 1:
        counts = []
        for i, frac in enumerate(lengths):
            if frac < 0 or frac > 1:
                raise ValueError("Fraction at index %d is not between 0 and 1" % i)
            counts.append(int(math.floor(n * frac)))
        for i in range(n - sum(counts)):
            counts[i % len(counts)] += 1
        for i, c in enumerate(counts):
            if c == 0:
                warnings.warn("Length of split at index %d is 0. This might result in an empty dataset." % i)
        lengths = counts
    for i, length in enumerate(lengths):
        if isinstance(length, float) or length < 0:
            raise ValueError(
                "random_split: lengths must be non-negative integers (or fractions summing to 1), "
                "got %r at index %d" % (length, i)
            )
    if sum(lengths) != n:
        raise ValueError("Sum of input lengths does not equal the length of the input dataset!")
    order = torch.randperm(n, generator=generator).tolist()
    bounds = list(itertools.accumulate(lengths))
    return [Subset(dataset, order[end - length : end]) for end, length in zip(bounds, lengths)]
