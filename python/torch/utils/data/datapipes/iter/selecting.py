from torch.utils.data.datapipes._decorator import functional_datapipe
from torch.utils.data.datapipes.datapipe import IterDataPipe
from torch.utils.data.datapipes.iter.callable import _check_columns

__all__ = ["FilterIterDataPipe"]


@functional_datapipe("filter")
class FilterIterDataPipe(IterDataPipe):
    """The items for which filter_fn (of the item, or of its input_col columns) is True."""

    def __init__(self, datapipe, filter_fn, input_col=None):
        super().__init__()
        self.datapipe = datapipe
        self.filter_fn = filter_fn
        self.input_col = input_col
        _check_columns(input_col, None)

    def _returnIfTrue(self, data):
        if self.input_col is None:
            condition = self.filter_fn(data)
        elif isinstance(self.input_col, (list, tuple)):
            condition = self.filter_fn(*tuple(data[col] for col in self.input_col))
        else:
            condition = self.filter_fn(data[self.input_col])
        if not isinstance(condition, bool):
            raise ValueError("Boolean output is required for `filter_fn` of FilterIterDataPipe, got", type(condition))
        return condition, data

    def __iter__(self):
        for data in self.datapipe:
            condition, filtered = self._returnIfTrue(data)
            if condition:
                yield filtered
