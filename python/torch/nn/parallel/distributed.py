"""DistributedDataParallel: one model replica per process, gradients averaged over the group.

Note [Buckets while backward runs]: the parameters are grouped, in the reverse of their
registration order (roughly the order backward produces their gradients), into buckets of
about bucket_cap_mb. A hook after each parameter's gradient accumulation (on its
AccumulateGrad node) copies the gradient into its bucket; a full bucket starts an
asynchronous all-reduce at once, so communication overlaps the rest of backward. Buckets
start strictly in index order, so every rank issues the same collectives in the same order
whatever order its hooks fire in. The hook of the last gradient waits for all of them and
writes the averages back into `.grad`. The buckets live where the group's backend works: on
the parameters' GPU for nccl (its all-reduces run on the GPU, ordered with backward's kernels
by the streams, Note [The nccl backend] in python/csrc/Nccl.cpp), on the host for gloo and mpi.
"""

import contextlib

import torch
import torch.distributed as dist
from torch.nn.modules.module import Module

from ._functions import _device_index, to_device

__all__ = ["DistributedDataParallel"]


class _Bucket:
    def __init__(self, params, dtype, device):
        self.params = params
        self.offsets = []
        n = 0
        for p in params:
            self.offsets.append(n)
            n += p.numel()
        self.flat = torch.zeros(n, dtype=dtype, device=device)
        self.pending = 0
        self.work = None


class DistributedDataParallel(Module):
    def __init__(
        self,
        module,
        device_ids=None,
        output_device=None,
        dim=0,
        broadcast_buffers=True,
        process_group=None,
        bucket_cap_mb=25,
        find_unused_parameters=False,
        check_reduction=False,
        gradient_as_bucket_view=False,
        static_graph=False,
    ):
        super().__init__()
        if device_ids is not None and len(device_ids) > 1:
            raise ValueError("device_ids can only be None or contain a single element.")
        device_types = {p.device.type for p in module.parameters()}
        if len(device_types) > 1:
            raise ValueError(
                "DistributedDataParallel's input module must be on the same type of devices, but input module "
                "parameters locate in {}.".format(device_types)
            )
        multi_device = len({p.device for p in module.parameters()}) > 1
        if not device_ids or device_types != {"cuda"} or multi_device:
            if device_ids or output_device is not None:
                raise ValueError(
                    "DistributedDataParallel device_ids and output_device arguments only work with "
                    "single-device/multiple-device GPU modules or CPU modules, but got device_ids {}, output_device "
                    "{}, and module parameters {}.".format(
                        device_ids, output_device, {p.device for p in module.parameters()}
                    )
                )
            device_ids = output_device = None
        else:
            device_ids = [_device_index(d) for d in device_ids]
            output_device = _device_index(output_device if output_device is not None else device_ids[0])
        if not dist.is_initialized():
            raise RuntimeError(
                "Default process group has not been initialized, please make sure to call init_process_group."
            )
        self.module = module
        self.process_group = process_group if process_group is not None else dist.group.WORLD
        self.broadcast_buffers = broadcast_buffers
        self.find_unused_parameters = find_unused_parameters
        self.dim = dim
        self.device_ids = device_ids
        self.output_device = output_device
        self.require_backward_grad_sync = True

        seen = set()
        self._params = []
        for p in module.parameters():
            if p.requires_grad and id(p) not in seen:
                seen.add(id(p))
                self._params.append(p)
        if not self._params:
            raise RuntimeError(
                "DistributedDataParallel is not needed when a module doesn't have any parameter "
                "that requires a gradient."
            )
        self._world = dist.get_world_size(self.process_group)
        self._rank0 = dist.get_process_group_ranks(self.process_group)[0]
        # where the backend takes tensors: NCCL the GPU's, Gloo and MPI the host's
        nccl = dist.get_backend(self.process_group) == dist.Backend.NCCL
        self._comm_device = self._params[0].device if nccl else torch.device("cpu")
        self._sync_module_states([p.data for p in self._params] + list(self._buffers_to_sync()))
        self._buckets = self._make_buckets(int(bucket_cap_mb * 1024 * 1024))
        self._where = {}  # parameter index -> (bucket, position)
        for b, bucket in enumerate(self._buckets):
            for j, p in enumerate(bucket.params):
                self._where[self._index_of(p)] = (b, j)
        # Strong references: the AccumulateGrad nodes must outlive every backward.
        self._grad_accs = []
        for i, p in enumerate(self._params):
            acc = p.expand_as(p).grad_fn.next_functions[0][0]
            acc.register_hook(self._make_hook(i))
            self._grad_accs.append(acc)
        self._active = False

    def _index_of(self, p):
        for i, q in enumerate(self._params):
            if q is p:
                return i
        raise KeyError("parameter not managed by DistributedDataParallel")

    def _buffers_to_sync(self):
        return [b for b in self.module.buffers() if b is not None] if self.broadcast_buffers else []

    def _sync_module_states(self, tensors):
        """Rank 0's parameters and buffers to every rank: one broadcast per dtype."""
        if self._world == 1 or not tensors:
            return
        by_dtype = {}
        for t in tensors:
            by_dtype.setdefault(t.dtype, []).append(t)
        with torch.no_grad():
            for group in by_dtype.values():
                flat = torch.cat([t.reshape(-1).to(self._comm_device) for t in group])
                dist.broadcast(flat, self._rank0, group=self.process_group)
                offset = 0
                for t in group:
                    t.copy_(flat[offset : offset + t.numel()].view(t.shape))
                    offset += t.numel()

    def _make_buckets(self, cap_bytes):
        buckets, current, size, dtype = [], [], 0, None
        for p in reversed(self._params):
            nbytes = p.numel() * p.element_size()
            if current and (p.dtype != dtype or size + nbytes > cap_bytes):
                buckets.append(_Bucket(current, dtype, self._comm_device))
                current, size = [], 0
            current.append(p)
            dtype = p.dtype
            size += nbytes
        if current:
            buckets.append(_Bucket(current, dtype, self._comm_device))
        return buckets

    # -- forward: arm the reduction ------------------------------------------------------

    def forward(self, *inputs, **kwargs):
        if self.broadcast_buffers and self._world > 1:
            self._sync_module_states(list(self._buffers_to_sync()))
        if self.device_ids:  # as PyTorch: the inputs go to the module's device
            device = torch.device("cuda", self.device_ids[0])
            inputs, kwargs = to_device(inputs, device), to_device(kwargs, device)
        output = self.module(*inputs, **kwargs)
        if torch.is_grad_enabled() and self.require_backward_grad_sync:
            self._prepare_for_backward(output)
        else:
            self._active = False
        return output

    def _prepare_for_backward(self, output):
        for bucket in self._buckets:
            bucket.pending = len(bucket.params)
            bucket.work = None
            bucket.flat.zero_()
        self._next_bucket = 0
        self._ready = [False] * len(self._params)
        self._remaining = len(self._params)
        self._active = True
        if self.find_unused_parameters:
            reached = self._reachable_accumulators(output)
            for i, acc in enumerate(self._grad_accs):
                if id(acc) not in reached:  # no gradient will come: contribute zeros now
                    self._mark_ready(i, None)

    @staticmethod
    def _tensors_in(obj):
        if isinstance(obj, torch.Tensor):
            yield obj
        elif isinstance(obj, (list, tuple)):
            for o in obj:
                yield from DistributedDataParallel._tensors_in(o)
        elif isinstance(obj, dict):
            for o in obj.values():
                yield from DistributedDataParallel._tensors_in(o)

    def _reachable_accumulators(self, output):
        # Python sees each node as one object while it lives (the accumulators stay alive in
        # _grad_accs); `visited` keeps the others alive so that their ids stay unique.
        reached, stack, visited = set(), [], {}
        for t in self._tensors_in(output):
            if t.grad_fn is not None:
                stack.append(t.grad_fn)
        while stack:
            node = stack.pop()
            if id(node) in visited:
                continue
            visited[id(node)] = node
            if node.name() == "AccumulateGrad":
                reached.add(id(node))
            for nxt, _ in node.next_functions:
                if nxt is not None:
                    stack.append(nxt)
        return reached

    # -- backward: Note [Buckets while backward runs] --------------------------------------

    def _make_hook(self, index):
        def hook(grad_inputs, grad_outputs):
            if self._active and not self._ready[index]:
                self._mark_ready(index, self._params[index].grad)

        return hook

    def _mark_ready(self, index, grad):
        self._ready[index] = True
        b, j = self._where[index]
        bucket = self._buckets[b]
        if grad is not None:
            offset = bucket.offsets[j]
            with torch.no_grad():
                bucket.flat[offset : offset + grad.numel()].copy_(grad.reshape(-1))
        bucket.pending -= 1
        while self._next_bucket < len(self._buckets) and self._buckets[self._next_bucket].pending == 0:
            ready = self._buckets[self._next_bucket]
            ready.work = dist.all_reduce(ready.flat, group=self.process_group, async_op=True)
            self._next_bucket += 1
        self._remaining -= 1
        if self._remaining == 0:
            self._finish()

    def _finish(self):
        self._active = False
        with torch.no_grad():
            for bucket in self._buckets:
                bucket.work.wait()
                bucket.flat.div_(self._world)
                for p, offset in zip(bucket.params, bucket.offsets):
                    average = bucket.flat[offset : offset + p.numel()].view(p.shape)
                    if p.grad is not None:
                        p.grad.copy_(average)
                    elif bool(average.ne(0).any()):  # unused here, used elsewhere
                        p.grad = average.to(p.device, copy=True)

    @contextlib.contextmanager
    def no_sync(self):
        """Gradients accumulate locally inside; the first backward after it averages them all."""
        previous = self.require_backward_grad_sync
        self.require_backward_grad_sync = False
        try:
            yield
        finally:
            self.require_backward_grad_sync = previous

    def extra_repr(self):
        return f"world_size={self._world}, buckets={len(self._buckets)}"
