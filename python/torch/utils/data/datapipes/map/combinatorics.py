import random

import torch
from torch.utils.data.datapipes.utils.common import ShuffleSettings
from torch.utils.data.datapipes.datapipe import IterDataPipe, MapDataPipe

__all__ = ["ShufflerIterDataPipe"]


class ShufflerIterDataPipe(ShuffleSettings, IterDataPipe):
    """A MapDataPipe's items in a random order of its indices (an IterDataPipe: the order is
    the point), reseeded per iteration from torch's generator or set_seed's seed."""

    def __init__(self, datapipe, *, indices=None):
        super().__init__()
        self.datapipe = datapipe
        self.indices = list(range(len(datapipe))) if indices is None else indices
        self._enabled = True
        self._seed = None
        self._rng = random.Random()
        self._shuffled_indices = self.indices

    def __iter__(self):
        if not self._enabled:
            for idx in self.indices:
                yield self.datapipe[idx]
        else:
            while self._shuffled_indices:
                idx = self._shuffled_indices.pop()
                yield self.datapipe[idx]

    def reset(self):
        if self._enabled and self._seed is None:
            self._seed = int(torch.empty((), dtype=torch.int64).random_().item())
        self._rng.seed(self._seed)
        self._seed = None
        self._shuffled_indices = self._rng.sample(self.indices, len(self.indices))

    def __len__(self):
        return len(self.datapipe)


MapDataPipe.register_datapipe_as_function("shuffle", ShufflerIterDataPipe)
