"""DLPack exchange (Note [DLPack capsules] in python/csrc/DLPack.cpp): to_dlpack(tensor) gives a
capsule over the tensor's memory, from_dlpack(obj) a tensor over the memory of a capsule or of
any object with __dlpack__ (numpy arrays, real PyTorch tensors), without copies both ways."""

import enum

import torch
from torch._C import Tensor, _from_dlpack, _to_dlpack

__all__ = ["DLDeviceType", "from_dlpack", "to_dlpack"]


class DLDeviceType(enum.IntEnum):
    kDLCPU = 1
    kDLGPU = 2
    kDLCPUPinned = 3
    kDLOpenCL = 4
    kDLVulkan = 7
    kDLMetal = 8
    kDLVPI = 9
    kDLROCM = 10
    kDLExtDev = 12
    kDLOneAPI = 14


def to_dlpack(tensor):
    """A DLPack capsule over tensor's memory (CPU tensors; bool has no DLPack type in 1.13)."""
    if not isinstance(tensor, Tensor):
        raise TypeError("to_dlpack(): argument 'data' (position 1) must be Tensor, not %s" % type(tensor).__name__)
    return _to_dlpack(tensor.detach())


def from_dlpack(ext_tensor):
    """A tensor over the memory of ext_tensor: an object with __dlpack__ or a DLPack capsule
    (consumed: a capsule gives one tensor only)."""
    if hasattr(ext_tensor, "__dlpack__"):
        device = ext_tensor.__dlpack_device__()
        if device[0] != DLDeviceType.kDLCPU:
            raise RuntimeError("from_dlpack: only CPU memory can be imported here, got DLPack device %s" % (device,))
        return _from_dlpack(ext_tensor.__dlpack__())
    if type(ext_tensor).__name__ != "PyCapsule":
        raise TypeError(
            "from_dlpack(): expected a DLPack capsule or an object with __dlpack__, got %s" % type(ext_tensor).__name__
        )
    return _from_dlpack(ext_tensor)


def _dlpack(self, stream=None):
    """A DLPack capsule over this tensor's memory (stream is for device tensors; None here)."""
    if self.requires_grad:
        raise RuntimeError("Can't export tensors that require gradient, use tensor.detach()")
    return to_dlpack(self)


def _dlpack_device(self):
    if self.device.type != "cpu":
        raise RuntimeError("__dlpack_device__: only CPU tensors are exported here")
    return (DLDeviceType.kDLCPU, 0)


Tensor.__dlpack__ = _dlpack
Tensor.__dlpack_device__ = _dlpack_device
torch.from_dlpack = from_dlpack
torch.to_dlpack = to_dlpack
