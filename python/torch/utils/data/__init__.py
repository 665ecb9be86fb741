"""torch.utils.data: datasets, samplers and the DataLoader (PyTorch 1.13's API)."""

from torch.utils.data._fetch import DatasetKind as _DatasetKind
from torch.utils.data._worker import WorkerInfo, get_worker_info
from torch.utils.data.collate import default_collate, default_convert
from torch.utils.data.dataloader import DataLoader
from torch.utils.data.dataset import (
    ChainDataset,
    ConcatDataset,
    Dataset,
    IterableDataset,
    Subset,
    TensorDataset,
    random_split,
)
from torch.utils.data.distributed import DistributedSampler
from torch.utils.data.datapipes.datapipe import DataChunk, IterDataPipe, MapDataPipe
from torch.utils.data.datapipes._decorator import (
    functional_datapipe,
    guaranteed_datapipes_determinism,
    non_deterministic,
)
from torch.utils.data import datapipes  # noqa: F401
from torch.utils.data import graph, graph_settings  # noqa: F401
from torch.utils.data.sampler import (
    BatchSampler,
    RandomSampler,
    Sampler,
    SequentialSampler,
    SubsetRandomSampler,
    WeightedRandomSampler,
)

__all__ = [
    "BatchSampler",
    "ChainDataset",
    "ConcatDataset",
    "DataChunk",
    "DataLoader",
    "Dataset",
    "DistributedSampler",
    "IterDataPipe",
    "IterableDataset",
    "MapDataPipe",
    "RandomSampler",
    "Sampler",
    "SequentialSampler",
    "Subset",
    "SubsetRandomSampler",
    "TensorDataset",
    "WeightedRandomSampler",
    "WorkerInfo",
    "default_collate",
    "default_convert",
    "functional_datapipe",
    "guaranteed_datapipes_determinism",
    "non_deterministic",
    "get_worker_info",
    "random_split",
]
