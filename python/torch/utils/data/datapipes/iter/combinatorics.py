import random

import torch
from torch.utils.data.datapipes.utils.common import ShuffleSettings
from torch.utils.data.datapipes._decorator import functional_datapipe
from torch.utils.data.datapipes.datapipe import IterDataPipe
from torch.utils.data.sampler import SequentialSampler

__all__ = ["SamplerIterDataPipe", "ShufflerIterDataPipe"]


class SamplerIterDataPipe(IterDataPipe):
    """The items a Sampler (built over the DataPipe) yields."""

    def __init__(self, datapipe, sampler=SequentialSampler, sampler_args=None, sampler_kwargs=None):
        assert hasattr(datapipe, "__len__"), "Sampler class requires input datapipe implemented `__len__`"
        super().__init__()
        self.datapipe = datapipe
        self.sampler_args = () if sampler_args is None else sampler_args
        self.sampler_kwargs = {} if sampler_kwargs is None else sampler_kwargs
        self.sampler = sampler(*self.sampler_args, data_source=self.datapipe, **self.sampler_kwargs)

    def __iter__(self):
        return iter(self.sampler)

    def __len__(self):
        return len(self.sampler)


@functional_datapipe("shuffle")
class ShufflerIterDataPipe(ShuffleSettings, IterDataPipe):
    """The items in a random order, through a buffer of buffer_size: each item beyond the
    buffer's size swaps with a random one of it, which is yielded. Reseeded from torch's
    generator per iteration, or from set_seed's seed; set_shuffle(False) turns it off."""

    def __init__(self, datapipe, *, buffer_size=10000, unbatch_level=0):
        super().__init__()
        self._buffer = []
        assert buffer_size > 0, "buffer_size should be larger than 0"
        self.datapipe = datapipe if unbatch_level == 0 else datapipe.unbatch(unbatch_level=unbatch_level)
        self.buffer_size = buffer_size
        self._enabled = True
        self._seed = None
        self._rng = random.Random()

    def __iter__(self):
        if not self._enabled:
            yield from self.datapipe
            return
        for x in self.datapipe:
            if len(self._buffer) == self.buffer_size:
                idx = self._rng.randint(0, len(self._buffer) - 1)
                val, self._buffer[idx] = self._buffer[idx], x
                yield val
            else:
                self._buffer.append(x)
        while self._buffer:
            idx = self._rng.randint(0, len(self._buffer) - 1)
            yield self._buffer.pop(idx)

    def __len__(self):
        try:
            return len(self.datapipe)
        except TypeError:
            raise TypeError("{} instance doesn't have valid length".format(type(self).__name__)) from None

    def reset(self):
        self._buffer = []
        if self._enabled:
            if self._seed is None:
                self._seed = int(torch.empty((), dtype=torch.int64).random_().item())
            self._rng.seed(self._seed)
            self._seed = None
