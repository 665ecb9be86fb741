"""Tensors and storages through multiprocessing as shared-memory descriptors.

Note [Tensors through queues]
multiprocessing pickles what it sends to another process (a Queue's messages; a Process's
target and args under the spawn and forkserver start methods) with
multiprocessing.reduction.ForkingPickler; the reductions registered here make a tensor travel
as a handle on its memory, not as its elements, as PyTorch's do. The sender first moves the
storage to shared memory in place, if it is not there already (PyTorch does the same:
`q.put(t)` leaves t.is_shared() true); shared memory is a memfd with no name anywhere, and the
storage keeps a descriptor of it (Note [Shared memory by descriptor] in TH/THAllocator.cpp).
The message holds a ticket for a duplicate of that descriptor, which the receiver fetches from
the sender over a Unix socket (SCM_RIGHTS; _HandleServer): PyTorch's "file_descriptor"
strategy. The receiver maps it (no copy: its tensor's storage is that very memory, so writes on
either side are seen by the other, as Hogwild training needs) and keeps its own descriptor, so
it can send the tensor on in turn. Nothing is ever named in /dev/shm, so nothing outlives its
users, however they die: a message never received is a descriptor the sender holds until it
exits, even when the sender and the receiver are killed together (SIGKILL, the OOM killer).

The receiver fetches the descriptor from the sender, so the sender must still run when the
message is unpickled. A process that sent handles waits at exit (up to HANDOFF_TIMEOUT
seconds) until its receivers have fetched them, so a child may put a tensor and exit at
once; a DataLoader worker told to stop skips that wait (abandon_unreceived), since the main
process drops what it did not read.

A tensor travels with its whole storage and its offset, size and strides, so views keep their
layout. A storage that cannot move in place (it has storage views, storage[a:b], which would be
left behind, or it is named shared memory with no descriptor) travels as a shared copy of the
elements the tensor reaches instead. The copy uses plain memcpy (memoryview), never an OpenMP
kernel, since it may run in a forked child. These reductions only apply to ForkingPickler:
torch.save and ordinary pickles still hold the data.

Note [CUDA tensors through queues]
A CUDA tensor travels as a CUDA IPC handle on its storage's memory, as PyTorch's do: the
receiver's tensor is a view of the same device memory (python/csrc/CudaIpc.cpp opens the handle,
once per process, and closes it when the last storage made from it dies). The sender waits for
its device before the handle leaves, so the receiver reads what was written before put(). The memory must
outlive the receiver's use, so the sender keeps a reference to every storage it sent until the
receiver says it let go: each message carries a one-int32 flag in shared CPU memory (itself
sent as above) that the receiver's storage sets to 1 when it dies. The sender drops the
storages whose flag is set each time it sends another, and at exit waits up to
HANDOFF_TIMEOUT seconds for the rest, warning about those still held (their receivers'
tensors then view freed memory). PyTorch counts the same thing in a shared file of counters;
a flag per message is enough here because each message has one receiver. A message a process
reads back itself uses its own storage (CUDA cannot open a handle in the process that made
it). Under fork, a child of a process that has initialised CUDA cannot use CUDA at all (Note
[CUDA after fork] in python/csrc/Cuda.cpp): CUDA tensors need spawn or forkserver.
"""

import itertools
import os
import threading
import time
import warnings
from multiprocessing import current_process, reduction, util
from multiprocessing.connection import Client, Listener
from multiprocessing.reduction import ForkingPickler

import torch
from torch import _C
from torch.storage import _storage_classes, _typed

HANDOFF_TIMEOUT = 10.0


class _HandleServer:
    """Hands the descriptors this process sends to the processes that unpickle them: a thread
    serving a Unix socket in the abstract namespace (no file anywhere, so nothing is left
    behind by a killed process either), authenticated with the process's authkey as
    multiprocessing's own connections are. One per process, started on first use."""

    def __init__(self):
        self._reset()
        util.register_after_fork(self, _HandleServer._after_fork)

    def _reset(self):
        self.pid = os.getpid()
        self.lock = threading.Lock()
        self.pending = {}  # key -> descriptor, until its receiver fetches it
        self.sending = 0  # descriptors taken from pending whose send has not finished
        self.keys = itertools.count()
        self.address = None
        self.abandoned = False

    def _forget_parent(self):
        for fd in self.pending.values():  # the parent's: this process sends none of them
            os.close(fd)
        self._reset()

    def _after_fork(self):  # a multiprocessing child, whose finalizers start empty
        self._forget_parent()
        util.Finalize(None, self.wait_for_receivers, exitpriority=-10)

    def register(self, fd):
        """(address, key) by which a receiver fetches a duplicate of fd."""
        if self.pid != os.getpid():  # forked by os.fork, not by multiprocessing
            self._forget_parent()
        with self.lock:
            if self.address is None:
                listener = Listener(
                    "\0torch_fd_%d_%s" % (os.getpid(), os.urandom(6).hex()),
                    "AF_UNIX",
                    authkey=current_process().authkey,
                )
                self.address = listener.address
                threading.Thread(target=self._serve, args=(listener,), daemon=True).start()
            key = next(self.keys)
            self.pending[key] = os.dup(fd)
            return self.address, key

    def _serve(self, listener):
        while True:
            try:
                conn = listener.accept()
            except Exception:  # a client that failed authentication, or out of descriptors
                time.sleep(0.01)
                continue
            with conn:
                try:
                    key, pid = conn.recv()
                    with self.lock:
                        fd = self.pending.pop(key)
                        self.sending += 1
                    try:
                        reduction.send_handle(conn, fd, pid)
                    finally:
                        os.close(fd)
                        with self.lock:
                            self.sending -= 1
                except (EOFError, OSError, KeyError, TypeError, ValueError):
                    pass  # a receiver that went away, or a bad request: it gets nothing

    def wait_for_receivers(self):
        """At exit, after the queues' feeder threads have written their messages out
        (multiprocessing's finalizers at priority -5; this one runs at -10): wait until
        every sent descriptor has been fetched, unless the receivers will not read them. A
        descriptor is fetched once its send has returned (it then lives in the socket's buffer),
        not when its key leaves pending: exiting in between would close the receiver's
        connection with nothing on it."""
        deadline = time.monotonic() + HANDOFF_TIMEOUT
        while (self.pending or self.sending) and not self.abandoned and time.monotonic() < deadline:
            time.sleep(0.005)


def _fetch(address, key):
    with Client(address, "AF_UNIX", authkey=current_process().authkey) as conn:
        conn.send((key, os.getpid()))
        return reduction.recv_handle(conn)


_server = _HandleServer()
util.Finalize(None, _server.wait_for_receivers, exitpriority=-10)


def abandon_unreceived():
    """The receivers will not fetch what this process sent: exit without waiting for them."""
    _server.abandoned = True


def _shared_root(storage, start, count):
    """(root, offset): a shared storage with a descriptor whose elements from offset on are
    elements [start, start + count) of `storage`; its own memory where it can be shared in place
    (Note [Tensors through queues])."""
    root, offset = storage._root()
    if root._shared_fd() < 0:
        try:
            root._share_memory()
        except RuntimeError:  # storage views on it
            pass
    if root._shared_fd() >= 0:
        return root, offset + start
    copy = _C._StorageBase._new_shared_cdata(storage.dtype, count)
    itemsize = storage.element_size()
    memoryview(copy)[:] = memoryview(storage)[start * itemsize : (start + count) * itemsize]
    return copy, 0


def _open_shared(handle, dtype, count):
    fd = _fetch(*handle)
    try:
        return _typed(_C._StorageBase._shm_fd_cdata(dtype, fd, count))
    finally:
        os.close(fd)


def _rebuild_tensor(handle, dtype, count, offset, size, stride, requires_grad):
    storage = _open_shared(handle, dtype, count)
    t = torch.tensor([], dtype=dtype).set_(storage, offset, size, stride)
    if requires_grad:
        t.requires_grad_(True)
    return t


_cuda_sent = {}  # key -> (storage, released flag): CUDA storages sent (Note [CUDA tensors through queues])
_cuda_sent_lock = threading.Lock()  # queues' feeder threads send, the main thread rebuilds
_cuda_keys = itertools.count()


def _drop_released_cuda():
    with _cuda_sent_lock:
        for key in [k for k, (_, released) in _cuda_sent.items() if int(released[0]) == 1]:
            del _cuda_sent[key]


def _wait_for_cuda_receivers():
    deadline = time.monotonic() + HANDOFF_TIMEOUT
    while _cuda_sent and time.monotonic() < deadline:
        _drop_released_cuda()
        time.sleep(0.005)
    if _cuda_sent:
        warnings.warn(
            f"Producer process has been terminated before all shared CUDA tensors released: {len(_cuda_sent)} "
            "storage(s) sent to other processes are still in use there"
        )


util.Finalize(None, _wait_for_cuda_receivers, exitpriority=-10)


def _reduce_cuda_tensor(t, size, stride, requires_grad):
    storage, offset = t._storage()._root()
    handle, byte_offset, device = _C._cuda_ipc_export(storage)
    _drop_released_cuda()
    released = torch.zeros(1, dtype=torch.int32).share_memory_()
    with _cuda_sent_lock:
        key = next(_cuda_keys)
        _cuda_sent[key] = (storage, released)
    args = (os.getpid(), key, handle, byte_offset, device, t.dtype, len(storage), released)
    return (_rebuild_cuda_tensor, (args, offset + t.storage_offset(), size, stride, requires_grad))


def _rebuild_cuda_tensor(sent, offset, size, stride, requires_grad):
    pid, key, handle, byte_offset, device, dtype, count, released = sent
    if pid == os.getpid():
        with _cuda_sent_lock:
            storage = _cuda_sent[key][0]
        released[0] = 1  # this tensor keeps the storage alive itself
    else:
        storage = _C._cuda_ipc_import(dtype, handle, byte_offset, count, device, released._storage())
    t = torch.empty(0, dtype=dtype, device="cuda").set_(storage, offset, size, stride)
    if requires_grad:
        t.requires_grad_(True)
    return t


def _rebuild_empty_tensor(dtype, size, requires_grad, device="cpu"):
    return torch.empty(size, dtype=dtype, device=device, requires_grad=requires_grad)


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
        return (_rebuild_empty_tensor, (t.dtype, size, requires_grad, t.device.type))
    if t.is_cuda:
        return _reduce_cuda_tensor(t, size, stride, requires_grad)
    # Strides are never negative: the elements the tensor reaches lie in one span of its
    # storage, all that a copy needs to hold.
    span = 1 + sum((n - 1) * s for n, s in zip(size, stride))
    root, offset = _shared_root(t._storage(), t.storage_offset(), span)
    handle = _server.register(root._shared_fd())
    return (_rebuild_tensor, (handle, t.dtype, len(root), offset, size, stride, requires_grad))


def _rebuild_empty_storage(dtype):
    return _storage_classes[dtype](0)


def _reduce_storage(storage):
    count = len(storage)
    if count == 0:
        return (_rebuild_empty_storage, (storage.dtype,))
    root, offset = _shared_root(storage, 0, count)
    if offset != 0 or len(root) != count:  # a storage view arrives as a storage of its own
        root = _C._StorageBase._new_shared_cdata(storage.dtype, count)
        memoryview(root)[:] = memoryview(storage)
    return (_open_shared, (_server.register(root._shared_fd()), storage.dtype, count))


def init_reductions():
    ForkingPickler.register(torch.Tensor, _reduce_tensor)
    for cls in _storage_classes.values():
        ForkingPickler.register(cls, _reduce_storage)
