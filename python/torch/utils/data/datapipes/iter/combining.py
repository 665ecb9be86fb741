from torch.utils.data.datapipes._decorator import functional_datapipe
from torch.utils.data.datapipes.datapipe import IterDataPipe

__all__ = ["ConcaterIterDataPipe", "MultiplexerIterDataPipe", "ZipperIterDataPipe"]


def _lengths(dp, datapipes):
    try:
        return [len(d) for d in datapipes]
    except TypeError:
        raise TypeError("{} instance doesn't have valid length".format(type(dp).__name__)) from None


@functional_datapipe("concat")
class ConcaterIterDataPipe(IterDataPipe):
    """The items of each DataPipe in turn."""

    def __init__(self, *datapipes):
        if len(datapipes) == 0:
            raise ValueError("Expected at least one DataPipe, but got nothing")
        if not all(isinstance(dp, IterDataPipe) for dp in datapipes):
            raise TypeError("Expected all inputs to be `IterDataPipe`")
        self.datapipes = datapipes

    def __iter__(self):
        for dp in self.datapipes:
            for data in dp:
                yield data

    def __len__(self):
        return sum(_lengths(self, self.datapipes))


@functional_datapipe("zip")
class ZipperIterDataPipe(IterDataPipe):
    """Tuples of the DataPipes' items, until the shortest ends."""

    def __init__(self, *datapipes):
        if not all(isinstance(dp, IterDataPipe) for dp in datapipes):
            raise TypeError("All inputs are required to be `IterDataPipe` for `ZipIterDataPipe`.")
        super().__init__()
        self.datapipes = datapipes

    def __iter__(self):
        iterators = [iter(datapipe) for datapipe in self.datapipes]
        for data in zip(*iterators):
            yield data

    def __len__(self):
        return min(_lengths(self, self.datapipes))


@functional_datapipe("mux")
class MultiplexerIterDataPipe(IterDataPipe):
    """One item of each DataPipe in turn, until the shortest ends (its round unfinished)."""

    def __init__(self, *datapipes):
        self.datapipes = datapipes

    def __iter__(self):
        iterators = [iter(x) for x in self.datapipes]
        while iterators:
            round_ = []
            for it in iterators:
                try:
                    round_.append(next(it))
                except StopIteration:
                    return
            yield from round_

    def __len__(self):
        return min(_lengths(self, self.datapipes)) * len(self.datapipes)
