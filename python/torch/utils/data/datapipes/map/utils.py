import copy
import warnings

from torch.utils.data.datapipes.datapipe import MapDataPipe

__all__ = ["SequenceWrapperMapDataPipe"]


class SequenceWrapperMapDataPipe(MapDataPipe):
    """A sequence (or mapping) as a MapDataPipe, deep-copied unless deepcopy=False."""

    def __init__(self, sequence, deepcopy=True):
        self.sequence = sequence
        if deepcopy:
            try:
                self.sequence = copy.deepcopy(sequence)
            except TypeError:
                warnings.warn(
                    "The input sequence can not be deepcopied, please be aware of in-place modification would affect "
                    "source data"
                )

    def __getitem__(self, index):
        return self.sequence[index]

    def __len__(self):
        return len(self.sequence)
