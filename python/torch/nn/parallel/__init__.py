"""torch.nn.parallel: DistributedDataParallel over torch.distributed, and DataParallel, which
on a machine without GPUs runs the module as it is (as PyTorch's does without devices) and
with one GPU runs it there."""

from .data_parallel import DataParallel, data_parallel  # noqa: F401
from .distributed import DistributedDataParallel  # noqa: F401

__all__ = ["DataParallel", "DistributedDataParallel", "data_parallel"]
