from torch.utils.data.datapipes._decorator import functional_datapipe
from torch.utils.data.datapipes.datapipe import MapDataPipe

__all__ = ["MapperMapDataPipe"]


def default_fn(data):
    return data


@functional_datapipe("map")
class MapperMapDataPipe(MapDataPipe):
    """fn applied to each item as it is read."""

    def __init__(self, datapipe, fn=default_fn):
        super().__init__()
        self.datapipe = datapipe
        self.fn = fn

    def __len__(self):
        return len(self.datapipe)

    def __getitem__(self, index):
        return self.fn(self.datapipe[index])
