"""The nccl backend's groups: torch._C._nccl's communicators (Note [The nccl backend] in
python/csrc/Nccl.cpp) behind the interface the Gloo groups have (python/csrc/Distributed.cpp),
so distributed_c10d drives both alike. The tensors are CUDA tensors on the device that was
current when the group was made; the ops run on the communicator's own stream, and a Work's
wait() makes the caller's current stream wait for them (the host goes on), as in PyTorch.
The host waits instead (aborting the communicator at the timeout) for barrier(), for a
wait() given a timeout (monitored_barrier), and for every op under NCCL_BLOCKING_WAIT=1.

A watchdog thread, as PyTorch's under NCCL_ASYNC_ERROR_HANDLING, looks at every group's ops in
flight twice a second and aborts the communicator (ncclCommAbort) when the oldest has outlived
the group's timeout or NCCL reported an error (a peer's connection lost): a rank that died
or hangs then cannot hold the others' GPUs, and hosts blocked on them, forever; their next
call on the group raises, naming why."""

import collections
import os
import threading
import time
import weakref

import torch
from torch import _C

__all__ = ["NCCLGroup", "available", "require_gpu"]


def available():
    """Whether libnccl loads (what is_nccl_available() says)."""
    try:
        _C._nccl.version()
    except RuntimeError:
        return False
    return True


def require_gpu():
    """Raises, naming why, when this process cannot run NCCL: no NCCL, or no GPU."""
    try:
        _C._nccl.version()
    except RuntimeError as e:
        raise RuntimeError(f"Distributed package doesn't have NCCL built in: {e}") from None
    if torch.cuda._is_in_bad_fork():
        torch.cuda._require()  # raises PyTorch's "Cannot re-initialize CUDA in forked subprocess"
    if _C._cuda_is_stand_in():
        raise RuntimeError("the nccl backend needs a CUDA GPU: the stand-in CUDA device is host memory")
    if not torch.cuda.is_available():
        raise RuntimeError(
            "the nccl backend needs a CUDA GPU, and this machine has none (the CUDA runtime says: "
            f"{_C._cuda_unavailable_reason() or 'no CUDA build'})"
        )


def _blocking_wait():
    return any(os.environ.get(k, "0") == "1" for k in ("NCCL_BLOCKING_WAIT", "TORCH_NCCL_BLOCKING_WAIT"))


class _Work:
    """An NCCL op in flight (see the module's docstring for what wait() waits for)."""

    def __init__(self, work, timeout, host=False):
        self._work, self._timeout, self._host = work, timeout, host

    def wait(self, seconds=-1.0):
        self._work.wait_stream()
        if seconds >= 0:
            self._work.synchronize(seconds)
        elif self._host or _blocking_wait():
            self._work.synchronize(self._timeout)
        return True

    def is_completed(self):
        return self._work.is_completed()

    def is_success(self):
        try:
            self._work.is_completed()
        except RuntimeError:
            return False
        return True


class _Watchdog:
    """One thread for every group of the process, started with the first."""

    INTERVAL = 0.5  # seconds between looks

    def __init__(self):
        self._lock = threading.Lock()
        self._groups = weakref.WeakSet()
        self._thread = None

    def watch(self, group):
        with self._lock:
            self._groups.add(group)
            if self._thread is None or not self._thread.is_alive():
                self._thread = threading.Thread(target=self._run, name="nccl-watchdog", daemon=True)
                self._thread.start()

    def _run(self):
        while True:
            time.sleep(self.INTERVAL)
            with self._lock:
                groups = list(self._groups)
            for group in groups:
                group._check()
            del groups


_watchdog = _Watchdog()


class NCCLGroup:
    """A communicator over `size` ranks on the current device; every rank of the group makes it
    together (rank 0's unique id travels through `store`)."""

    def __init__(self, store, rank, size, timeout):
        require_gpu()
        key = "nccl/unique_id"
        if rank == 0:
            store.set(key, _C._nccl.unique_id())
        unique_id = store.get(key)
        self._comm = _C._nccl.Communicator(unique_id, size, rank)
        self._rank, self._size, self._timeout = rank, size, timeout.total_seconds()
        self._inflight = collections.deque()  # (deadline, work), in the order they were issued
        self._inflight_lock = threading.Lock()
        _watchdog.watch(self)

    def rank(self):
        return self._rank

    def size(self):
        return self._size

    def _work(self, work, host=False):
        with self._inflight_lock:
            self._inflight.append((time.monotonic() + self._timeout, work))
        return _Work(work, self._timeout, host)

    def _check(self):
        """The watchdog's look: drops the ops that ran; aborts the communicator when NCCL
        reported an error or the oldest op outlived its deadline. The ops of one stream finish
        in order, so the oldest unfinished one is all there is to look at."""
        why = None
        with self._inflight_lock:
            while self._inflight:
                deadline, work = self._inflight[0]
                try:
                    if work.is_completed():
                        self._inflight.popleft()
                        continue
                except RuntimeError as e:
                    why = str(e)
                else:
                    if time.monotonic() > deadline:
                        why = (
                            f"watchdog: an operation did not finish within the group's timeout of {self._timeout:g} s "
                            f"(rank {self._rank}; a peer died or hangs?)"
                        )
                break
            if why:
                self._inflight.clear()
        if why:
            self._comm.abort(why)

    def allreduce(self, t, op):
        return self._work(self._comm.all_reduce(t, t, op))

    def broadcast(self, t, root):
        return self._work(self._comm.broadcast(t, root))

    def reduce(self, t, root, op):
        return self._work(self._comm.reduce(t, root, op))

    def allgather(self, flat, input):
        return self._work(self._comm.all_gather(flat, input))

    def reduce_scatter(self, output, flat, op):
        return self._work(self._comm.reduce_scatter(output, flat, op))

    def _blocks(self, flat, counts):
        """flat (viewed as 1-D) cut into consecutive blocks of `counts` elements."""
        flat, blocks, offset = flat.reshape(-1), [], 0
        for n in counts:
            blocks.append(flat[offset : offset + n])
            offset += n
        return blocks

    def gather(self, flat, input, root):
        sends = [(input, root)]
        recvs = []
        if self._rank == root:
            recvs = list(zip(self._blocks(flat, [input.numel()] * self._size), range(self._size)))
        return self._work(self._comm.exchange(sends, recvs, "gather"))

    def scatter(self, output, inputs, root):
        sends = list(zip(inputs, range(self._size))) if self._rank == root else []
        return self._work(self._comm.exchange(sends, [(output, root)], "scatter"))

    def alltoall(self, output, input):
        if input.numel() != output.numel() or input.numel() % self._size:
            raise ValueError(
                f"all_to_all: input and output must have the same size, divisible by the group's size {self._size}"
            )
        counts = [input.numel() // self._size] * self._size
        return self._exchange_blocks(output, input, counts, counts)

    def alltoallv(self, output, input, out_bytes, in_bytes):
        size = input.element_size()
        if (
            sum(out_bytes) != output.numel() * output.element_size()
            or sum(in_bytes) != input.numel() * size
            or any(b % size for b in list(out_bytes) + list(in_bytes))
        ):
            raise ValueError("all_to_all: the split sizes do not add up to the tensors' sizes")
        return self._exchange_blocks(output, input, [b // size for b in out_bytes], [b // size for b in in_bytes])

    def _exchange_blocks(self, output, input, out_counts, in_counts):
        ranks = range(self._size)
        sends = list(zip(self._blocks(input, in_counts), ranks))
        recvs = list(zip(self._blocks(output, out_counts), ranks))
        return self._work(self._comm.exchange(sends, recvs, "all_to_all"))

    def barrier(self):
        """An all-reduce of one element on the device, which the host then waits for (PyTorch's)."""
        one = torch.zeros(1, device="cuda")
        return self._work(self._comm.all_reduce(one, one, 0), host=True)

    def send(self, t, dst, tag):
        return self._work(self._comm.exchange([(t, dst)], [], "send"))

    def recv(self, t, src, tag):
        if src < 0:
            raise RuntimeError("recv: the nccl backend cannot receive from any source: give src")
        return self._work(self._comm.exchange([], [(t, src)], "recv")), lambda: src

    def abort(self, why="aborted by the user"):
        self._comm.abort(why)

    def destroy(self):
        """Frees the communicator once what was queued on it ran (destroy_process_group); an op
        that does not finish within the timeout aborts it instead, so this cannot hang."""
        with self._inflight_lock:
            pending = [work for _, work in self._inflight]
            self._inflight.clear()
        try:
            for work in pending:
                work.synchronize(self._timeout)
        except RuntimeError:
            return  # aborted: nothing is left to free
        self._comm.destroy()
