"""torch.types: the type aliases PyTorch 1.13's annotations use (Number, Device, _size, ...)."""

import builtins
from typing import Any, List, Sequence, Tuple, Union

import torch

_TensorOrTensors = Union[torch.Tensor, Sequence[torch.Tensor]]
_int = builtins.int
_float = builtins.float
_bool = builtins.bool
_dtype = torch.dtype
_device = torch.device
_size = Union[torch.Size, List[_int], Tuple[_int, ...]]
Number = Union[_int, _float, _bool]
Device = Union[_device, str, _int, None]
Storage = torch.StorageBase

__all__ = ["Any", "Device", "List", "Number", "Sequence", "Storage", "Tuple", "Union"]
