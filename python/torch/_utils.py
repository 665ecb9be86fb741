"""Rebuild functions named in pickles: PyTorch 1.x files refer to them as
torch._utils._rebuild_tensor_v2 and friends, so they must live under these names."""

from collections import OrderedDict

import torch


def _empty_hooks():
    return OrderedDict()


def _rebuild_tensor(storage, storage_offset, size, stride):
    """A tensor viewing `storage` with the given geometry (no copy). A storage[a:b] view is
    replaced by the storage that owns the memory, so that tensors of one file all share it.
    The geometry comes from a file: it is checked here, with Python's unbounded integers, so
    that a damaged file cannot reach memory outside the storage."""
    if not torch.is_storage(storage):
        raise RuntimeError("_rebuild_tensor: expected a storage, got %s" % type(storage).__name__)
    size, stride = tuple(size), tuple(stride)
    if not all(_is_int(v) for v in size + stride + (storage_offset,)) or len(size) != len(stride):
        raise RuntimeError(
            "_rebuild_tensor: invalid geometry: offset %r, size %r, stride %r" % (storage_offset, size, stride)
        )
    if storage_offset < 0 or any(v < 0 for v in size + stride):
        raise RuntimeError(
            "_rebuild_tensor: negative offset, size or stride: offset %d, size %s, stride %s"
            % (storage_offset, size, stride)
        )
    if 0 not in size:
        last = storage_offset + sum((n - 1) * s for n, s in zip(size, stride))
        if last >= len(storage):
            raise RuntimeError(
                "_rebuild_tensor: offset %d, size %s and stride %s reach element %d of a storage of "
                "%d elements" % (storage_offset, size, stride, last, len(storage))
            )
    root, start = storage._root()
    if root._cdata != storage._cdata:
        storage = torch.storage._typed(root)
        storage_offset += start
    return torch.tensor([], dtype=storage.dtype, device=storage.device).set_(storage, storage_offset, size, stride)


def _is_int(value):
    return isinstance(value, int) and not isinstance(value, bool)


def _rebuild_tensor_v2(storage, storage_offset, size, stride, requires_grad, backward_hooks, metadata=None):
    tensor = _rebuild_tensor(storage, storage_offset, size, stride)
    # Without autograd (not wired yet) there is no flag to set: the values still load.
    if requires_grad and hasattr(tensor, "requires_grad_"):
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
