from torch.utils.data.datapipes._decorator import functional_datapipe
from torch.utils.data.datapipes.datapipe import DataChunk, MapDataPipe

__all__ = ["BatcherMapDataPipe"]


@functional_datapipe("batch")
class BatcherMapDataPipe(MapDataPipe):
    """Item i is the i-th batch of batch_size consecutive items (the last shorter unless
    drop_last)."""

    def __init__(self, datapipe, batch_size, drop_last=False, wrapper_class=DataChunk):
        assert batch_size > 0, "Batch size is required to be larger than 0!"
        super().__init__()
        self.datapipe = datapipe
        self.batch_size = batch_size
        self.drop_last = drop_last
        self.wrapper_class = wrapper_class

    def __getitem__(self, index):
        batch = []
        try:
            for i in range(index * self.batch_size, (index + 1) * self.batch_size):
                batch.append(self.datapipe[i])
            return self.wrapper_class(batch)
        except IndexError:
            if not self.drop_last and batch:
                return self.wrapper_class(batch)
            raise IndexError(f"Index {index} is out of bound.") from None

    def __len__(self):
        try:
            n = len(self.datapipe)
        except TypeError:
            raise TypeError("{} instance doesn't have valid length".format(type(self).__name__)) from None
        return n // self.batch_size if self.drop_last else (n + self.batch_size - 1) // self.batch_size
