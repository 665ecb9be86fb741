from torch.utils.data.collate import default_collate
from torch.utils.data.datapipes._decorator import functional_datapipe
from torch.utils.data.datapipes.datapipe import IterDataPipe

__all__ = ["CollatorIterDataPipe", "MapperIterDataPipe"]


def _check_columns(input_col, output_col):
    if input_col is None and output_col is not None:
        raise ValueError("`output_col` must be None when `input_col` is None.")
    if isinstance(output_col, (list, tuple)):
        if len(output_col) > 1:
            raise ValueError("`output_col` must be a single-element list or tuple")
        return output_col[0]
    return output_col


def _apply_to_columns(fn, data, input_col, output_col):
    """fn of data's input_col (several columns: as separate arguments), written back over the
    first input column (the others removed) or into output_col (-1: appended)."""
    if input_col is None and output_col is None:
        return fn(data)
    if input_col is None:
        res = fn(data)
    elif isinstance(input_col, (list, tuple)):
        res = fn(*tuple(data[col] for col in input_col))
    else:
        res = fn(data[input_col])
    was_tuple = isinstance(data, tuple)
    if was_tuple:
        data = list(data)
    if output_col is None:
        if isinstance(input_col, (list, tuple)):
            data[input_col[0]] = res
            for idx in sorted(input_col[1:], reverse=True):
                del data[idx]
        else:
            data[input_col] = res
    elif output_col == -1:
        data.append(res)
    else:
        data[output_col] = res
    return tuple(data) if was_tuple else data


def _length(dp, of):
    try:
        return len(of)
    except TypeError:
        raise TypeError("{} instance doesn't have valid length".format(type(dp).__name__)) from None


@functional_datapipe("map")
class MapperIterDataPipe(IterDataPipe):
    """fn applied to each item (or to its input_col columns, the result written to output_col)."""

    def __init__(self, datapipe, fn, input_col=None, output_col=None):
        super().__init__()
        self.datapipe = datapipe
        self.fn = fn
        self.input_col = input_col
        self.output_col = _check_columns(input_col, output_col)

    def _apply_fn(self, data):
        return _apply_to_columns(self.fn, data, self.input_col, self.output_col)

    def __iter__(self):
        for data in self.datapipe:
            yield self._apply_fn(data)

    def __len__(self):
        return _length(self, self.datapipe)


@functional_datapipe("collate")
class CollatorIterDataPipe(MapperIterDataPipe):
    """collate_fn (default: default_collate) applied to each item: batches into tensors."""

    def __init__(self, datapipe, conversion=default_collate, collate_fn=None):
        super().__init__(datapipe, fn=collate_fn if collate_fn is not None else conversion)
