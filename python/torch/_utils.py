"""Rebuild functions named in pickles: PyTorch 1.x files refer to them as
torch._utils._rebuild_tensor_v2 and friends, so they must live under these names."""

from collections import OrderedDict

import torch


def _empty_hooks():
    return OrderedDict()


def _rebuild_tensor(storage, storage_offset, size, stride):
    """A tensor viewing `storage` with the given geometry (no copy)."""
    return torch.tensor([], dtype=storage.dtype).set_(storage, storage_offset, tuple(size), tuple(stride))


def _rebuild_tensor_v2(storage, storage_offset, size, stride, requires_grad, backward_hooks, metadata=None):
    tensor = _rebuild_tensor(storage, storage_offset, size, stride)
    if requires_grad:
        tensor.requires_grad_(True)
    # Backward hooks are not kept (PyTorch drops them on save as well).
    return tensor


def _rebuild_parameter(data, requires_grad, backward_hooks):
    nn = getattr(torch, "nn", None)
    parameter_class = getattr(nn, "Parameter", None) if nn is not None else None
    if parameter_class is not None:
        return parameter_class(data, requires_grad)
    if requires_grad:
        data.requires_grad_(True)
    return data


def _element_size(dtype):
    return dtype.itemsize


def _rebuild_from_type(func, new_type, args, state):
    # Tensor subclasses are not kept: the plain tensor comes back.
    return func(*args)


def _rebuild_from_type_v2(func, new_type, args, state):
    return func(*args)
