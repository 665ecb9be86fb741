from torch.utils.data.datapipes._decorator import functional_datapipe
from torch.utils.data.datapipes.datapipe import MapDataPipe

__all__ = ["ConcaterMapDataPipe", "ZipperMapDataPipe"]


def _check(datapipes):
    if len(datapipes) == 0:
        raise ValueError("Expected at least one DataPipe, but got nothing")
    if not all(isinstance(dp, MapDataPipe) for dp in datapipes):
        raise TypeError("Expected all inputs to be `MapDataPipe`")
    if not all(hasattr(dp, "__len__") for dp in datapipes):
        raise TypeError("Expected all inputs to be `Sized`")


@functional_datapipe("concat")
class ConcaterMapDataPipe(MapDataPipe):
    """The items of each MapDataPipe after those of the ones before it."""

    def __init__(self, *datapipes):
        _check(datapipes)
        self.datapipes = datapipes

    def __getitem__(self, index):
        offset = 0
        for dp in self.datapipes:
            if index - offset < len(dp):
                return dp[index - offset]
            offset += len(dp)
        raise IndexError("Index {} is out of range.".format(index))

    def __len__(self):
        return sum(len(dp) for dp in self.datapipes)


@functional_datapipe("zip")
class ZipperMapDataPipe(MapDataPipe):
    """Tuples of the MapDataPipes' items at each index, as long as the shortest."""

    def __init__(self, *datapipes):
        _check(datapipes)
        self.datapipes = datapipes

    def __getitem__(self, index):
        res = []
        for dp in self.datapipes:
            try:
                res.append(dp[index])
            except IndexError:
                raise IndexError(f"Index {index} is out of range for one of the input MapDataPipes {dp}.") from None
        return tuple(res)

    def __len__(self):
        return min(len(dp) for dp in self.datapipes)
