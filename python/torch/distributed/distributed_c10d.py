"""torch.distributed's process groups and collectives, as in PyTorch 1.13, on Gloo, MPI or NCCL.

A group's collectives run on Gloo (torch._C._distributed.GlooGroup, python/csrc/Distributed.cpp)
or on Open MPI (torch._mpi through _mpi_backend.py, for jobs mpirun starts), in the order they
are issued, on one worker thread per group: `async_op=True` returns a Work
at once and its `wait()` blocks until the op ran. On NCCL (CUDA tensors, _nccl_backend.py) they
run on the GPU, on the group's own stream, and wait() makes the caller's current stream wait for
them, as in PyTorch (Note [The nccl backend] in python/csrc/Nccl.cpp). Ranks given to the functions are global
ranks, as in PyTorch; a group maps them to its own.
"""

import io
import os
import pickle
import socket
import warnings
from datetime import timedelta

import numpy
import torch
from torch._C import _distributed as _gloo

from . import _mpi_backend, _nccl_backend
from ._store import FileStore, HashStore, PrefixStore, Store, TCPStore
from .rendezvous import rendezvous

__all__ = [
    "Backend",
    "ReduceOp",
    "reduce_op",
    "group",
    "GroupMember",
    "ProcessGroup",
    "Work",
    "is_available",
    "is_gloo_available",
    "is_mpi_available",
    "is_nccl_available",
    "is_torchelastic_launched",
    "init_process_group",
    "destroy_process_group",
    "is_initialized",
    "new_group",
    "get_rank",
    "get_world_size",
    "get_backend",
    "get_process_group_ranks",
    "all_reduce",
    "broadcast",
    "reduce",
    "all_gather",
    "all_gather_into_tensor",
    "gather",
    "scatter",
    "reduce_scatter",
    "reduce_scatter_tensor",
    "all_to_all",
    "all_to_all_single",
    "barrier",
    "monitored_barrier",
    "send",
    "recv",
    "isend",
    "irecv",
    "all_gather_object",
    "broadcast_object_list",
    "gather_object",
    "scatter_object_list",
    "Store",
    "TCPStore",
    "FileStore",
    "HashStore",
    "PrefixStore",
    "default_pg_timeout",
]

default_pg_timeout = timedelta(minutes=30)


class Backend(str):
    """A backend's name: Backend("GLOO") == Backend.GLOO == "gloo"."""

    UNDEFINED = "undefined"
    GLOO = "gloo"
    NCCL = "nccl"
    MPI = "mpi"

    def __new__(cls, name):
        if not isinstance(name, str):
            raise ValueError(f"Backend name must be a string, but got: {name}")
        value = getattr(Backend, name.upper(), Backend.UNDEFINED)
        if value == Backend.UNDEFINED:
            raise ValueError(f"Invalid backend: '{name}'")
        return str.__new__(cls, value)


class ReduceOp:
    """The reductions; the values are the ones the Gloo binding takes."""

    __slots__ = ("name", "value")

    def __init__(self, name, value):
        self.name, self.value = name, value

    def __repr__(self):
        return f"<ReduceOp.{self.name}: {self.value}>"

    def __eq__(self, other):
        return isinstance(other, ReduceOp) and other.value == self.value

    def __hash__(self):
        return hash(self.value)


for _value, _name in enumerate(["SUM", "AVG", "PRODUCT", "MIN", "MAX", "BAND", "BOR", "BXOR"]):
    setattr(ReduceOp, _name, ReduceOp(_name, _value))
reduce_op = ReduceOp  # the deprecated name


def is_available():
    return True


def is_gloo_available():
    return True


def is_mpi_available():
    try:
        from torch import _mpi  # noqa: F401
    except ImportError:
        return False
    return True


def is_nccl_available():
    return _nccl_backend.available()


def is_torchelastic_launched():
    return os.getenv("TORCHELASTIC_RUN_ID") is not None


class Work:
    """An operation in flight. wait() blocks until it completed (and raises its error);
    `finish` runs once after it, on the caller's thread (copies out of a gather buffer)."""

    def __init__(self, work, finish=None, result=None):
        self._work, self._finish, self._result, self._exception = work, finish, result, None

    def wait(self, timeout=None):
        if self._work is not None:
            seconds = (
                -1.0
                if timeout is None
                else (timeout.total_seconds() if isinstance(timeout, timedelta) else float(timeout))
            )
            try:
                self._work.wait(seconds)
            except Exception as e:
                self._exception = e
                raise
            self._work = None
            if self._finish is not None:
                self._finish()
                self._finish = None
        return True

    def is_completed(self):
        return self._work is None or self._work.is_completed()

    def is_success(self):
        return self._exception is None and (self._work is None or self._work.is_success())

    def exception(self):
        return self._exception

    def result(self):
        return list(self._result or [])


class ProcessGroup:
    """A set of ranks with its own backend group (ranks: the group's global ranks in order)."""

    def __init__(self, backend, ranks, rank, impl):
        self._backend = backend
        self._ranks = list(ranks)
        self._rank = rank
        self._impl = impl  # the backend's group: torch._C._distributed.GlooGroup, an MPIGroup or an NCCLGroup

    def rank(self):
        return self._rank

    def size(self):
        return len(self._ranks)

    def name(self):
        return self._backend.upper()

    def __repr__(self):
        return f"<ProcessGroup {self._backend} rank {self._rank} of {self.size()}>"


class GroupMember:
    WORLD = None  # the default group once initialised
    NON_GROUP_MEMBER = object()


class group:
    WORLD = None


class _State:
    default_pg = None
    store = None
    group_count = 0
    timeout = default_pg_timeout
    host = "127.0.0.1"  # where this process's Gloo listens


def is_initialized():
    return _State.default_pg is not None


def _default_group():
    if _State.default_pg is None:
        raise RuntimeError(
            "Default process group has not been initialized, please make sure to call init_process_group."
        )
    return _State.default_pg


def _group_of(g):
    return _default_group() if g is None or g is GroupMember.WORLD else g


def _host_for(init_method):
    """The address Gloo listens on: loopback when the rendezvous is on this machine's
    loopback, else this host's name; GLOO_SOCKET_IFNAME, when set, names the interface instead."""
    host = os.environ.get("MASTER_ADDR", "")
    if init_method and init_method.startswith("tcp://"):
        host = init_method[len("tcp://") :].rsplit(":", 1)[0].strip("[]")
    if init_method and init_method.startswith("file://") or host in ("", "localhost") or host.startswith("127."):
        return "127.0.0.1"
    return socket.gethostname()


def init_process_group(
    backend=None,
    init_method=None,
    timeout=default_pg_timeout,
    world_size=-1,
    rank=-1,
    store=None,
    group_name="",
    pg_options=None,
):
    """Joins this process to the default group (of world_size ranks, as rank `rank`), meeting
    the others through `store` or the rendezvous of `init_method` (env://, tcp://, file://)."""
    if _State.default_pg is not None:
        raise RuntimeError("trying to initialize the default process group twice!")
    if not isinstance(timeout, timedelta):
        raise RuntimeError("Expected timeout argument to be of type datetime.timedelta")
    backend = Backend(backend or Backend.GLOO)
    if backend == Backend.NCCL:  # before the rendezvous, which would wait for the others
        _nccl_backend.require_gpu()
    if backend == Backend.MPI:  # mpirun started the processes: MPI knows the ranks
        impl = _mpi_backend.world()
        if world_size not in (-1, impl.size()) or rank not in (-1, impl.rank()):
            raise RuntimeError(
                f"init_process_group: MPI started {impl.size()} processes and this is rank "
                f"{impl.rank()}, but world_size={world_size} and rank={rank} were given"
            )
        _State.timeout = timeout
        pg = ProcessGroup(backend, range(impl.size()), impl.rank(), impl)
        _State.default_pg = pg
        GroupMember.WORLD = group.WORLD = pg
        return
    if store is None:
        store, rank, world_size = rendezvous(init_method or "env://", rank, world_size, timeout)
    elif world_size <= 0 or rank < 0:
        raise ValueError("world_size and rank must be given with a store")
    store.set_timeout(timeout)
    _State.store = store
    _State.timeout = timeout
    _State.host = _host_for(init_method)
    pg = ProcessGroup(
        backend,
        range(world_size),
        rank,
        _backend_group(backend, PrefixStore("default_pg", store), rank, world_size, timeout),
    )
    _store_barrier(store, "default_pg", world_size, timeout)
    _State.default_pg = pg
    GroupMember.WORLD = group.WORLD = pg


def _backend_group(backend, store, rank, size, timeout):
    if backend == Backend.NCCL:
        # ncclCommInitRank waits for every rank with no timeout of its own: the ranks meet
        # at the store first, so a rank that never comes makes the others time out, not hang
        _store_barrier(store, "nccl_init", size, timeout)
        return _nccl_backend.NCCLGroup(store, rank, size, timeout)
    return _gloo.GlooGroup(store, rank, size, timeout.total_seconds(), _State.host)


def _store_barrier(store, key, world_size, timeout):
    """Returns once world_size processes arrived. Gloo finishes connecting a pair on one side
    before the other: a rank that went on and exited at once would break its peers' setup.
    The last to arrive writes the done key that the others wait for (one blocking request
    each, answered by the store, no polling)."""
    key = f"barrier/{key}"
    if store.add(key, 1) == world_size:
        store.set(key + "/done", b"1")
    try:
        store.wait([key + "/done"], timeout)
    except RuntimeError as e:
        raise RuntimeError(f"Timed out initializing process group in store based barrier: {e}") from None


def _release(pg):
    """Frees the backend's resources now where it holds some beyond memory (NCCL's
    communicators); the others go with their last reference."""
    if pg is not None and isinstance(pg._impl, _nccl_backend.NCCLGroup):
        pg._impl.destroy()


def destroy_process_group(group=None):
    """Ends a group; without an argument, every group and the default one."""
    if group is None or group is GroupMember.WORLD:
        _release(_State.default_pg)
        _State.default_pg = None
        _State.store = None
        GroupMember.WORLD = None
        globals()["group"].WORLD = None
    elif isinstance(group, ProcessGroup):
        _release(group)
        group._impl = None


def new_group(ranks=None, timeout=None, backend=None, pg_options=None):
    """A group of the given global ranks (all of them by default). Every process of the
    default group must call it, in the same order, as in PyTorch."""
    world = _default_group()
    _State.group_count += 1
    ranks = sorted(set(range(world.size()) if ranks is None else ranks))
    for r in ranks:
        if not 0 <= r < world.size():
            raise RuntimeError(f"new_group: rank {r} is not in the default group of size {world.size()}")
    timeout = timeout or _State.timeout
    me = world.rank()
    if world._backend == Backend.MPI:  # every process takes part in splitting the communicator
        impl = world._impl.subgroup(ranks)
        if impl is None:
            return GroupMember.NON_GROUP_MEMBER
        return ProcessGroup(world._backend, ranks, ranks.index(me), impl)
    if me not in ranks:
        return GroupMember.NON_GROUP_MEMBER
    backend = Backend(backend or world._backend)
    if backend == Backend.MPI:
        raise RuntimeError("new_group: an MPI group can only be made in a world that mpirun started (backend 'mpi')")
    store = PrefixStore(f"group{_State.group_count}", _State.store)
    impl = _backend_group(backend, store, ranks.index(me), len(ranks), timeout)
    _store_barrier(store, "init", len(ranks), timeout)
    return ProcessGroup(backend, ranks, ranks.index(me), impl)


def get_rank(group=None):
    if group is GroupMember.NON_GROUP_MEMBER:
        return -1
    return _group_of(group).rank() if group is not None else _default_group().rank()


def get_world_size(group=None):
    if group is GroupMember.NON_GROUP_MEMBER:
        return -1
    return _group_of(group).size()


def get_backend(group=None):
    if group is GroupMember.NON_GROUP_MEMBER:
        raise RuntimeError("Invalid process group specified")
    return _group_of(group)._backend


def get_process_group_ranks(group):
    return list(_group_of(group)._ranks)


def _not_member(group, op):
    if group is GroupMember.NON_GROUP_MEMBER:
        warnings.warn(f"Running {op} on global rank {get_rank()} which does not belong to the given group.")
        return True
    return False


def _pg(group):
    pg = _group_of(group)
    if pg._impl is None:
        raise RuntimeError("the process group has been destroyed")
    return pg


def _group_rank(pg, global_rank, what):
    try:
        return pg._ranks.index(global_rank)
    except ValueError:
        raise RuntimeError(f"{what}: the global rank {global_rank} is not part of the group") from None


def _check_tensor(t, name):
    if not isinstance(t, torch.Tensor):
        raise RuntimeError(f"Invalid function argument. Expected parameter `{name}` to be of type torch.Tensor.")


def _check_tensor_list(ts, name):
    if not isinstance(ts, (list, tuple)) or not all(isinstance(t, torch.Tensor) for t in ts):
        raise RuntimeError(f"Invalid function argument. Expected parameter `{name}` to be of type List[torch.Tensor].")


def _run(work, async_op, finish=None, result=None):
    w = Work(work, finish, result)
    if async_op:
        return w
    w.wait()
    return None


def _reduce_value(op):
    if not isinstance(op, ReduceOp):
        raise ValueError(f"op must be a torch.distributed.ReduceOp, got {op!r}")
    return op.value


def all_reduce(tensor, op=ReduceOp.SUM, group=None, async_op=False):
    _check_tensor(tensor, "tensor")
    if _not_member(group, "all_reduce"):
        return None
    return _run(_pg(group)._impl.allreduce(tensor, _reduce_value(op)), async_op, result=[tensor])


def broadcast(tensor, src, group=None, async_op=False):
    _check_tensor(tensor, "tensor")
    if _not_member(group, "broadcast"):
        return None
    pg = _pg(group)
    return _run(pg._impl.broadcast(tensor, _group_rank(pg, src, "broadcast")), async_op, result=[tensor])


def reduce(tensor, dst, op=ReduceOp.SUM, group=None, async_op=False):
    _check_tensor(tensor, "tensor")
    if _not_member(group, "reduce"):
        return None
    pg = _pg(group)
    return _run(pg._impl.reduce(tensor, _group_rank(pg, dst, "reduce"), _reduce_value(op)), async_op, result=[tensor])


def _same_shape(tensors, like, op):
    for t in tensors:
        if t.dtype != like.dtype or t.numel() != like.numel():
            raise RuntimeError(
                f"{op}: every tensor must have the input's dtype ({like.dtype}) and number of elements ({like.numel()})"
            )


def _copy_blocks(flat, outputs):
    n = outputs[0].numel() if outputs else 0
    with torch.no_grad():
        for i, out in enumerate(outputs):
            out.copy_(flat[i * n : (i + 1) * n].view(out.shape))


def all_gather(tensor_list, tensor, group=None, async_op=False):
    _check_tensor_list(tensor_list, "tensor_list")
    _check_tensor(tensor, "tensor")
    if _not_member(group, "all_gather"):
        return None
    pg = _pg(group)
    if len(tensor_list) != pg.size():
        raise RuntimeError(f"all_gather: tensor_list must hold {pg.size()} tensors, got {len(tensor_list)}")
    _same_shape(tensor_list, tensor, "all_gather")
    src = tensor.detach().contiguous()
    flat = torch.empty(pg.size() * src.numel(), dtype=src.dtype, device=src.device)
    return _run(pg._impl.allgather(flat, src), async_op, lambda: _copy_blocks(flat, tensor_list), result=tensor_list)


def all_gather_into_tensor(output_tensor, input_tensor, group=None, async_op=False):
    _check_tensor(output_tensor, "output_tensor")
    _check_tensor(input_tensor, "input_tensor")
    if _not_member(group, "all_gather_into_tensor"):
        return None
    pg = _pg(group)
    if output_tensor.numel() != pg.size() * input_tensor.numel() or output_tensor.dtype != input_tensor.dtype:
        raise RuntimeError(
            "all_gather_into_tensor: the output must hold world_size times the input's elements, of its dtype"
        )
    return _run(pg._impl.allgather(output_tensor, input_tensor.detach().contiguous()), async_op, result=[output_tensor])


def gather(tensor, gather_list=None, dst=0, group=None, async_op=False):
    _check_tensor(tensor, "tensor")
    if _not_member(group, "gather"):
        return None
    pg = _pg(group)
    root = _group_rank(pg, dst, "gather")
    src = tensor.detach().contiguous()
    if pg.rank() == root:
        if gather_list is None or len(gather_list) != pg.size():
            raise ValueError(f"gather: the destination rank needs a gather_list of {pg.size()} tensors")
        _check_tensor_list(gather_list, "gather_list")
        _same_shape(gather_list, tensor, "gather")
        flat = torch.empty(pg.size() * src.numel(), dtype=src.dtype, device=src.device)
        return _run(
            pg._impl.gather(flat, src, root), async_op, lambda: _copy_blocks(flat, gather_list), result=gather_list
        )
    if gather_list:
        raise ValueError("gather: gather_list must be given only on the destination rank")
    return _run(pg._impl.gather(src, src, root), async_op)


def scatter(tensor, scatter_list=None, src=0, group=None, async_op=False):
    _check_tensor(tensor, "tensor")
    if _not_member(group, "scatter"):
        return None
    pg = _pg(group)
    root = _group_rank(pg, src, "scatter")
    if pg.rank() == root:
        if scatter_list is None or len(scatter_list) != pg.size():
            raise ValueError(f"scatter: the source rank needs a scatter_list of {pg.size()} tensors")
        _check_tensor_list(scatter_list, "scatter_list")
        _same_shape(scatter_list, tensor, "scatter")
        inputs = [t.detach().contiguous() for t in scatter_list]
    else:
        if scatter_list:
            raise ValueError("scatter: scatter_list must be given only on the source rank")
        inputs = []
    if tensor.is_contiguous():
        return _run(pg._impl.scatter(tensor, inputs, root), async_op, result=[tensor])
    out = torch.empty_like(tensor).contiguous()
    return _run(pg._impl.scatter(out, inputs, root), async_op, lambda: tensor.copy_(out), result=[tensor])


def reduce_scatter(output, input_list, op=ReduceOp.SUM, group=None, async_op=False):
    """Reduces input_list[i] over the ranks into rank i's output: NCCL's reduce-scatter; Gloo has
    none of its own here: an all-reduce of the concatenated inputs, each rank keeping its block
    (PyTorch 1.13's Gloo backend refuses it)."""
    _check_tensor(output, "output")
    _check_tensor_list(input_list, "input_list")
    if _not_member(group, "reduce_scatter"):
        return None
    pg = _pg(group)
    if len(input_list) != pg.size():
        raise RuntimeError(f"reduce_scatter: input_list must hold {pg.size()} tensors")
    _same_shape(input_list, output, "reduce_scatter")
    flat = torch.cat([t.detach().reshape(-1) for t in input_list])
    if pg._backend == Backend.NCCL:
        out = output if output.is_contiguous() else torch.empty_like(output).contiguous()
        finish = None if out is output else (lambda: output.copy_(out))
        return _run(pg._impl.reduce_scatter(out, flat, _reduce_value(op)), async_op, finish, result=[output])
    n = output.numel()
    me = pg.rank()

    def keep_mine():
        with torch.no_grad():
            output.copy_(flat[me * n : (me + 1) * n].view(output.shape))

    return _run(pg._impl.allreduce(flat, _reduce_value(op)), async_op, keep_mine, result=[output])


def reduce_scatter_tensor(output, input, op=ReduceOp.SUM, group=None, async_op=False):
    pg = _pg(group)
    return (
        reduce_scatter(output, list(input.reshape(pg.size(), -1).unbind(0)), op, group, async_op)
        if output.numel() * pg.size() == input.numel()
        else _size_error("reduce_scatter_tensor")
    )


def _size_error(op):
    raise RuntimeError(f"{op}: the input must hold world_size times the output's elements")


def all_to_all_single(output, input, output_split_sizes=None, input_split_sizes=None, group=None, async_op=False):
    """Block i of input (along dim 0; input_split_sizes rows, or equal blocks) goes to rank i;
    rank j's block lands in output's block j (output_split_sizes rows)."""
    _check_tensor(output, "output")
    _check_tensor(input, "input")
    if _not_member(group, "all_to_all_single"):
        return None
    pg = _pg(group)
    src = input.detach().contiguous()
    out = output if output.is_contiguous() else torch.empty_like(output).contiguous()
    finish = None if out is output else (lambda: output.copy_(out))
    if not output_split_sizes and not input_split_sizes:
        return _run(pg._impl.alltoall(out, src), async_op, finish, result=[output])
    n = pg.size()

    def byte_counts(t, splits, name):
        rows = t.shape[0] if t.dim() else 1
        row_bytes = (t.numel() // rows if rows else 0) * t.element_size()
        if not splits:
            if rows % n:
                raise RuntimeError(f"all_to_all_single: {name} has {rows} rows, not divisible by {n} ranks")
            splits = [rows // n] * n
        if len(splits) != n or sum(splits) != rows or min(splits) < 0:
            raise RuntimeError(f"all_to_all_single: {name}_split_sizes must be {n} sizes adding up to {rows}")
        return [s * row_bytes for s in splits]

    out_bytes = byte_counts(out, output_split_sizes, "output")
    in_bytes = byte_counts(src, input_split_sizes, "input")
    return _run(pg._impl.alltoallv(out, src, out_bytes, in_bytes), async_op, finish, result=[output])


def all_to_all(output_tensor_list, input_tensor_list, group=None, async_op=False):
    _check_tensor_list(output_tensor_list, "output_tensor_list")
    _check_tensor_list(input_tensor_list, "input_tensor_list")
    if _not_member(group, "all_to_all"):
        return None
    pg = _pg(group)
    if len(output_tensor_list) != pg.size() or len(input_tensor_list) != pg.size():
        raise RuntimeError(f"all_to_all: both lists must hold {pg.size()} tensors")
    dtype = input_tensor_list[0].dtype
    if any(t.dtype != dtype for t in input_tensor_list + output_tensor_list):
        raise RuntimeError(f"all_to_all: every tensor must have the dtype {dtype}")
    flat_in = torch.cat([t.detach().reshape(-1) for t in input_tensor_list])
    flat_out = torch.empty(sum(t.numel() for t in output_tensor_list), dtype=dtype, device=flat_in.device)
    size = flat_in.element_size()

    def copy_out():
        offset = 0
        with torch.no_grad():
            for t in output_tensor_list:
                t.copy_(flat_out[offset : offset + t.numel()].view(t.shape))
                offset += t.numel()

    # tensors of any sizes: Gloo's alltoallv with each block's bytes
    return _run(
        pg._impl.alltoallv(
            flat_out,
            flat_in,
            [t.numel() * size for t in output_tensor_list],
            [t.numel() * size for t in input_tensor_list],
        ),
        async_op,
        copy_out,
        result=output_tensor_list,
    )


def barrier(group=None, async_op=False, device_ids=None):
    if _not_member(group, "barrier"):
        return None
    return _run(_pg(group)._impl.barrier(), async_op)


def monitored_barrier(group=None, timeout=None, wait_all_ranks=False):
    """A barrier that raises if the others do not arrive within timeout."""
    if _not_member(group, "monitored_barrier"):
        return None
    work = Work(_pg(group)._impl.barrier())
    work.wait(timeout or _State.timeout)


def isend(tensor, dst, group=None, tag=0):
    _check_tensor(tensor, "tensor")
    if _not_member(group, "isend"):
        return None
    pg = _pg(group)
    return Work(pg._impl.send(tensor.contiguous(), _group_rank(pg, dst, "isend"), tag))


def send(tensor, dst, group=None, tag=0):
    if get_rank() == dst and group is None:
        raise RuntimeError("Invalid destination rank: should not be the same as the rank of the current process.")
    work = isend(tensor, dst, group, tag)
    if work is not None:
        work.wait()


class _RecvWork(Work):
    def __init__(self, work, source, pg):
        super().__init__(work)
        self._source, self._pg = source, pg

    def _source_rank(self):
        return self._pg._ranks[self._source()]


def irecv(tensor, src=None, group=None, tag=0):
    _check_tensor(tensor, "tensor")
    if _not_member(group, "irecv"):
        return None
    if not tensor.is_contiguous():
        raise ValueError("recv: Tensors must be contiguous")
    pg = _pg(group)
    work, source = pg._impl.recv(tensor, -1 if src is None else _group_rank(pg, src, "irecv"), tag)
    return _RecvWork(work, source, pg)


def recv(tensor, src=None, group=None, tag=0):
    """Receives into tensor; returns the sender's global rank (or -1 when not a member)."""
    work = irecv(tensor, src, group, tag)
    if work is None:
        return -1
    work.wait()
    return work._source_rank()


# Objects travel pickled in byte tensors, their lengths exchanged first; on the current GPU
# when the group's backend is nccl (which takes CUDA tensors only), as PyTorch's do.


def _object_device(group):
    return torch.device("cuda") if get_backend(group) == Backend.NCCL else torch.device("cpu")


def _to_bytes_tensor(obj, device):
    buf = io.BytesIO()
    pickle.Pickler(buf).dump(obj)
    return torch.from_numpy(numpy.frombuffer(buf.getvalue(), dtype=numpy.uint8).copy()).to(device)


def _from_bytes_tensor(t, n):
    return pickle.loads(bytes(t[:n].cpu().numpy().tobytes()))


def _padded(t, size):
    out = torch.zeros(size, dtype=torch.uint8, device=t.device)
    out[: t.numel()] = t
    return out


def all_gather_object(object_list, obj, group=None):
    if _not_member(group, "all_gather_object"):
        return
    size = get_world_size(group)
    device = _object_device(group)
    data = _to_bytes_tensor(obj, device)
    lengths = [torch.zeros(1, dtype=torch.int64, device=device) for _ in range(size)]
    all_gather(lengths, torch.tensor([data.numel()]).to(device), group)
    longest = max(int(n) for n in lengths)
    chunks = [torch.empty(longest, dtype=torch.uint8, device=device) for _ in range(size)]
    all_gather(chunks, _padded(data, longest), group)
    for i in range(size):
        object_list[i] = _from_bytes_tensor(chunks[i], int(lengths[i]))


def gather_object(obj, object_gather_list=None, dst=0, group=None):
    if _not_member(group, "gather_object"):
        return
    size = get_world_size(group)
    device = _object_device(group)
    data = _to_bytes_tensor(obj, device)
    lengths = [torch.zeros(1, dtype=torch.int64, device=device) for _ in range(size)]
    all_gather(lengths, torch.tensor([data.numel()]).to(device), group)
    longest = max(int(n) for n in lengths)
    mine = get_rank() == dst
    chunks = [torch.empty(longest, dtype=torch.uint8, device=device) for _ in range(size)] if mine else None
    gather(_padded(data, longest), chunks, dst, group)
    if mine:
        for i in range(size):
            object_gather_list[i] = _from_bytes_tensor(chunks[i], int(lengths[i]))


def broadcast_object_list(object_list, src=0, group=None, device=None):
    if _not_member(group, "broadcast_object_list"):
        return
    device = torch.device(device) if device is not None else _object_device(group)
    mine = get_rank() == src
    datas = [_to_bytes_tensor(o, device) for o in object_list] if mine else None
    lengths = (
        torch.tensor([d.numel() for d in datas]) if mine else torch.zeros(len(object_list), dtype=torch.int64)
    ).to(device)
    broadcast(lengths, src, group)
    lengths = lengths.tolist()
    flat = torch.cat(datas) if mine and datas else torch.empty(sum(lengths), dtype=torch.uint8, device=device)
    broadcast(flat, src, group)
    if not mine:
        offset = 0
        for i, n in enumerate(lengths):
            object_list[i] = _from_bytes_tensor(flat[offset : offset + n], n)
            offset += n


def scatter_object_list(scatter_object_output_list, scatter_object_input_list, src=0, group=None):
    if _not_member(group, "scatter_object_list"):
        return
    objects = [None] * get_world_size(group)
    if get_rank() == src:
        objects = list(scatter_object_input_list)
    broadcast_object_list(objects, src, group)
    me = _group_of(group).rank()
    scatter_object_output_list[0] = objects[me]
