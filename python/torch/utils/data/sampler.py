"""Samplers: the order in which a DataLoader visits a map-style dataset's indices, and
BatchSampler, which groups them into the index lists of batches."""

import torch


class Sampler:
    """An iterable over dataset indices (or over lists of them, for a batch sampler)."""

    def __init__(self, data_source=None):
        pass

    def __iter__(self):
        raise NotImplementedError


class SequentialSampler(Sampler):
    """0, 1, ..., len(data_source) - 1."""

    def __init__(self, data_source):
        self.data_source = data_source

    def __iter__(self):
        return iter(range(len(self.data_source)))

    def __len__(self):
        return len(self.data_source)


def _fresh_generator():
    # Seeded from the global generator, so torch.manual_seed makes shuffling reproducible.
    seed = int(torch.empty((), dtype=torch.int64).random_().item())
    generator = torch.Generator()
    generator.manual_seed(seed)
    return generator


def _check_positive_int(name, value, error=ValueError):
    if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
        raise error("%s should be a positive integer value, but got %s=%r" % (name, name, value))


class RandomSampler(Sampler):
    """Indices in random order: a permutation (num_samples > len repeats whole permutations),
    or, with replacement=True, num_samples independent uniform draws."""

    def __init__(self, data_source, replacement=False, num_samples=None, generator=None):
        self.data_source = data_source
        self.replacement = replacement
        self._num_samples = num_samples
        self.generator = generator
        if not isinstance(self.replacement, bool):
            raise TypeError("replacement should be a boolean value, but got replacement=%r" % (self.replacement,))
        _check_positive_int("num_samples", self.num_samples)

    @property
    def num_samples(self):
        # The dataset may change size after construction: read it each time.
        if self._num_samples is None:
            return len(self.data_source)
        return self._num_samples

    def __iter__(self):
        n = len(self.data_source)
        generator = self.generator if self.generator is not None else _fresh_generator()
        count = self.num_samples
        if self.replacement:
            # Drawn in chunks so that a huge num_samples does not allocate all draws at once.
            chunk = 32
            for _ in range(count // chunk):
                yield from torch.randint(0, n, (chunk,), dtype=torch.int64, generator=generator).tolist()
            yield from torch.randint(0, n, (count % chunk,), dtype=torch.int64, generator=generator).tolist()
        else:
            for _ in range(count // n):
                yield from torch.randperm(n, generator=generator).tolist()
            yield from torch.randperm(n, generator=generator).tolist()[: count % n]

    def __len__(self):
        return self.num_samples


class SubsetRandomSampler(Sampler):
    """The given indices in random order, without replacement."""

    def __init__(self, indices, generator=None):
        self.indices = indices
        self.generator = generator

    def __iter__(self):
        for i in torch.randperm(len(self.indices), generator=self.generator).tolist():
            yield self.indices[i]

    def __len__(self):
        return len(self.indices)


class WeightedRandomSampler(Sampler):
    """num_samples indices in [0, len(weights)), index i drawn with probability proportional
    to weights[i]; without replacement an index comes at most once."""

    def __init__(self, weights, num_samples, replacement=True, generator=None):
        _check_positive_int("num_samples", num_samples)
        if not isinstance(replacement, bool):
            raise ValueError("replacement should be a boolean value, but got replacement=%r" % (replacement,))
        weights = torch.as_tensor(weights, dtype=torch.float64)
        if weights.dim() != 1:
            raise ValueError(
                "weights should be a 1d sequence but given weights have shape %s" % (tuple(weights.shape),)
            )
        self.weights = weights
        self.num_samples = num_samples
        self.replacement = replacement
        self.generator = generator

    def __iter__(self):
        draws = torch.multinomial(self.weights, self.num_samples, self.replacement, generator=self.generator)
        return iter(draws.tolist())

    def __len__(self):
        return self.num_samples


class BatchSampler(Sampler):
    """Groups the indices of sampler into lists of batch_size; the last, shorter list is kept
    unless drop_last."""

    def __init__(self, sampler, batch_size, drop_last):
        _check_positive_int("batch_size", batch_size)
        if not isinstance(drop_last, bool):
            raise ValueError("drop_last should be a boolean value, but got drop_last=%r" % (drop_last,))
        self.sampler = sampler
        self.batch_size = batch_size
        self.drop_last = drop_last

    def __iter__(self):
        batch = []
        for idx in self.sampler:
            batch.append(idx)
            if len(batch) == self.batch_size:
                yield batch
                batch = []
        if batch and not self.drop_last:
            yield batch

    def __len__(self):
        if self.drop_last:
            return len(self.sampler) // self.batch_size
        return (len(self.sampler) + self.batch_size - 1) // self.batch_size
