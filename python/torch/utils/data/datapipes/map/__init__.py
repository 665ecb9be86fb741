"""The map-style DataPipes of PyTorch 1.13's core."""

from torch.utils.data.datapipes.map.callable import MapperMapDataPipe as Mapper
from torch.utils.data.datapipes.map.combinatorics import ShufflerIterDataPipe as Shuffler
from torch.utils.data.datapipes.map.combining import ConcaterMapDataPipe as Concater
from torch.utils.data.datapipes.map.combining import ZipperMapDataPipe as Zipper
from torch.utils.data.datapipes.map.grouping import BatcherMapDataPipe as Batcher
from torch.utils.data.datapipes.map.utils import SequenceWrapperMapDataPipe as SequenceWrapper

__all__ = ["Batcher", "Concater", "Mapper", "SequenceWrapper", "Shuffler", "Zipper"]
