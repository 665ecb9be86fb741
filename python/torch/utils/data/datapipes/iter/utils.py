import copy
import warnings

from torch.utils.data.datapipes.datapipe import IterDataPipe

__all__ = ["IterableWrapperIterDataPipe"]


class IterableWrapperIterDataPipe(IterDataPipe):
    """An iterable as an IterDataPipe; each iteration walks a deep copy of it (deepcopy=True),
    so that in-place changes downstream do not reach the source."""

    def __init__(self, iterable, deepcopy=True):
        self.iterable = iterable
        self.deepcopy = deepcopy

    def __iter__(self):
        source = self.iterable
        if self.deepcopy:
            try:
                source = copy.deepcopy(self.iterable)
            except TypeError:
                warnings.warn(
                    "The input iterable can not be deepcopied, please be aware of in-place modification would affect "
                    "source data."
                )
        for data in source:
            yield data

    def __len__(self):
        return len(self.iterable)
