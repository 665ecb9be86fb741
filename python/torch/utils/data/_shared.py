"""Tensors and storages through multiprocessing queues as shared-memory handles.

Note [Tensors through queues]
multiprocessing pickles what it sends with multiprocessing.reduction.ForkingPickler; the
reductions registered here make a tensor travel as a handle, not as its elements. The
sender (a DataLoader worker, or a queue's feeder thread) copies the elements the tensor
can reach into a new POSIX shared-memory segment whose name stays in /dev/shm
(Note [Named shared memory] in python/csrc/Storage.cpp) and lets go of its own mapping; the
message is (name, dtype, element count, size, stride). The receiver maps that segment (no
copy: its tensor's storage is the segment, is_shared() is true) and unlinks the name at
once, so the memory goes when the receiver drops the tensor.

A tensor sent this way is a transfer, not a live view of the sender's tensor: each send
makes a new segment, and two tensors on one storage arrive on two segments. The copy uses
plain memcpy (memoryview), never an OpenMP kernel, since it runs in a forked child.

Segments are named "/torch_q_<pid>_<n>_<random>" after the creating process, so that once
a DataLoader worker is gone the loader can unlink whatever it created that never reached
the main process (sweep_segments_of). These reductions only apply to ForkingPickler:
torch.save and ordinary pickles still hold the data.
"""

import itertools
import os
from multiprocessing.reduction import ForkingPickler

import torch
from torch import _C
from torch.storage import _storage_classes, _typed

_PREFIX = "torch_q_"
_SHM_DIR = "/dev/shm"
_counter = itertools.count()


def _new_segment_name():
    return "/%s%d_%d_%s" % (_PREFIX, os.getpid(), next(_counter), os.urandom(4).hex())


def _copy_to_segment(storage, start, count):
    """The name of a new segment holding elements [start, start + count) of storage."""
    name = _new_segment_name()
    segment = _C._StorageBase._shm_cdata(storage.dtype, name, count, True)
    try:
        itemsize = storage.element_size()
        memoryview(segment)[:] = memoryview(storage)[start * itemsize : (start + count) * itemsize]
    except BaseException:
        _C._StorageBase._shm_cdata(storage.dtype, name, count, False)  # maps and unlinks it
        raise
    return name


def _open_segment(name, dtype, count):
    return _typed(_C._StorageBase._shm_cdata(dtype, name, count, False))


def _rebuild_tensor(name, dtype, count, size, stride, requires_grad):
    storage = _open_segment(name, dtype, count)
    t = torch.tensor([], dtype=dtype).set_(storage, 0, size, stride)
    if requires_grad:
        t.requires_grad_(True)
    return t


def _rebuild_empty_tensor(dtype, size, requires_grad):
    return torch.empty(size, dtype=dtype, requires_grad=requires_grad)


def _reduce_tensor(t):
    requires_grad = bool(t.requires_grad)
    if requires_grad and not t.is_leaf:
        raise RuntimeError(
            "Cowardly refusing to serialize non-leaf tensor which requires_grad, since autograd does "
            "not support crossing process boundaries. If you just want to transfer the data, call "
            "detach() on the tensor before serializing (e.g., putting it on the queue)."
        )
    size, stride = tuple(t.size()), tuple(t.stride())
    if t.numel() == 0:
        return (_rebuild_empty_tensor, (t.dtype, size, requires_grad))
    # Strides are never negative: the elements the tensor reaches lie in one span of its
    # storage, which travels with the tensor's own strides (expanded and strided views stay so).
    span = 1 + sum((n - 1) * s for n, s in zip(size, stride))
    name = _copy_to_segment(t._storage(), t.storage_offset(), span)
    return (_rebuild_tensor, (name, t.dtype, span, size, stride, requires_grad))


def _rebuild_empty_storage(dtype):
    return _storage_classes[dtype](0)


def _reduce_storage(storage):
    count = len(storage)
    if count == 0:
        return (_rebuild_empty_storage, (storage.dtype,))
    return (_open_segment, (_copy_to_segment(storage, 0, count), storage.dtype, count))


def init_reductions():
    ForkingPickler.register(torch.Tensor, _reduce_tensor)
    for cls in _storage_classes.values():
        ForkingPickler.register(cls, _reduce_storage)


def sweep_segments_of(pid):
    """Unlinks the segments that process pid (now gone) made for messages nobody received."""
    if not os.path.isdir(_SHM_DIR):
        return
    prefix = "%s%d_" % (_PREFIX, pid)
    for entry in os.listdir(_SHM_DIR):
        if entry.startswith(prefix):
            try:
                os.unlink(os.path.join(_SHM_DIR, entry))
            except FileNotFoundError:  # its receiver got there first
                pass
