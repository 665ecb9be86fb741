"""The MPI backend's groups: torch._mpi (Open MPI) behind the interface the Gloo groups have
(python/csrc/Distributed.cpp), so distributed_c10d drives both alike. torch._mpi sees
memory, not tensors: each op's Work keeps its tensors alive until it completed."""

import torch

__all__ = ["MPIGroup", "world"]


def _mpi():
    try:
        from torch import _mpi
    except ImportError as e:
        raise RuntimeError(
            f"Distributed package doesn't have MPI built in: torch._mpi does not load ({e}); "
            "the README's setup installs Open MPI"
        ) from None
    return _mpi


def _dtype_name(t):
    return str(t.dtype).replace("torch.", "")


def _check(t, op):
    if t.device.type != "cpu":
        raise RuntimeError(f"{op}: the MPI backend takes CPU tensors")
    if not t.is_contiguous():
        raise ValueError(f"{op}: Tensors must be contiguous")
    return t


class _Work:
    """An MPI op in flight, with the tensors it reads and writes and what to do after it."""

    def __init__(self, work, keep, after=None):
        self._work, self._keep, self._after = work, keep, after

    def wait(self, seconds=-1.0):
        self._work.wait(seconds)
        if self._after is not None:
            after, self._after = self._after, None
            after()
        self._keep = None
        return True

    def is_completed(self):
        return self._work.is_completed()

    def is_success(self):
        return self._work.is_success()


class MPIGroup:
    def __init__(self, group):
        self._group = group

    def rank(self):
        return self._group.rank()

    def size(self):
        return self._group.size()

    def subgroup(self, ranks):
        group = self._group.subgroup(list(ranks))
        return None if group is None else MPIGroup(group)

    def _average(self, t):
        """ReduceOp.AVG after MPI's SUM: integers round toward zero, as the Gloo backend's do."""
        return lambda: t.div_(self.size(), rounding_mode=None if t.is_floating_point() else "trunc")

    def allreduce(self, t, op):
        _check(t, "all_reduce")
        after = self._average(t) if op == 1 else None
        return _Work(self._group.allreduce(t.data_ptr(), t.numel(), _dtype_name(t), op), [t], after)

    def reduce(self, t, root, op):
        _check(t, "reduce")
        after = self._average(t) if op == 1 and self.rank() == root else None
        return _Work(self._group.reduce(t.data_ptr(), t.numel(), _dtype_name(t), op, root), [t], after)

    def broadcast(self, t, root):
        _check(t, "broadcast")
        return _Work(self._group.broadcast(t.data_ptr(), t.numel() * t.element_size(), root), [t])

    def allgather(self, flat, input):
        _check(flat, "all_gather")
        _check(input, "all_gather")
        return _Work(
            self._group.allgather(flat.data_ptr(), input.data_ptr(), input.numel() * input.element_size()),
            [flat, input],
        )

    def gather(self, flat, input, root):
        _check(input, "gather")
        return _Work(
            self._group.gather(flat.data_ptr(), input.data_ptr(), input.numel() * input.element_size(), root),
            [flat, input],
        )

    def scatter(self, output, inputs, root):
        _check(output, "scatter")
        flat = torch.cat([t.reshape(-1) for t in inputs]) if inputs else output
        return _Work(
            self._group.scatter(output.data_ptr(), flat.data_ptr(), output.numel() * output.element_size(), root),
            [output, flat],
        )

    def alltoall(self, output, input):
        _check(output, "all_to_all")
        _check(input, "all_to_all")
        nbytes = input.numel() * input.element_size()
        if nbytes != output.numel() * output.element_size() or nbytes % self.size():
            raise ValueError(
                f"all_to_all: input and output must have the same size, divisible by the group's size {self.size()}"
            )
        return _Work(self._group.alltoall(output.data_ptr(), input.data_ptr(), nbytes // self.size()), [output, input])

    def alltoallv(self, output, input, out_bytes, in_bytes):
        _check(output, "all_to_all")
        _check(input, "all_to_all")
        if (
            sum(out_bytes) != output.numel() * output.element_size()
            or sum(in_bytes) != input.numel() * input.element_size()
        ):
            raise ValueError("all_to_all: the split sizes do not add up to the tensors' sizes")
        return _Work(
            self._group.alltoallv(output.data_ptr(), input.data_ptr(), list(out_bytes), list(in_bytes)), [output, input]
        )

    def barrier(self):
        return _Work(self._group.barrier(), [])

    def send(self, t, dst, tag):
        _check(t, "send")
        return _Work(self._group.send(t.data_ptr(), t.numel() * t.element_size(), dst, tag), [t])

    def recv(self, t, src, tag):
        _check(t, "recv")
        work = self._group.recv(t.data_ptr(), t.numel() * t.element_size(), src, tag)
        return _Work(work, [t]), work.source


def world():
    """The group of every process mpirun started (MPI is initialised here)."""
    return MPIGroup(_mpi().world())
