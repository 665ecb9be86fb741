"""One rank of test_distributed.py's scenarios, started by the launcher:

    python -m torch.distributed.run --standalone --nproc_per_node N distributed_worker.py SCENARIO OUT

Each rank writes what it computed to OUT/rank<R>.pt; the test computes what it must be from
the same per-rank inputs with numpy (or a single-process run) and compares.
"""

import os
import sys
import time
from datetime import timedelta

import torch
import torch.distributed as dist
import torch.nn as nn


def rank_input(rank, n=6, dtype=torch.float64):
    """Rank r's input: a different, exactly representable vector per rank."""
    return (torch.arange(n, dtype=torch.float64) * (rank + 1) + rank - 2).to(dtype)


def collectives(rank, world):
    out = {}
    for dtype in (torch.float32, torch.float64, torch.int64, torch.int32):
        for op in ("SUM", "PRODUCT", "MIN", "MAX"):
            t = rank_input(rank, dtype=dtype)
            dist.all_reduce(t, op=getattr(dist.ReduceOp, op))
            out[f"all_reduce {op} {dtype}"] = t
    t = rank_input(rank)
    dist.all_reduce(t, op=dist.ReduceOp.AVG)
    out["all_reduce AVG"] = t
    for op in ("BAND", "BOR", "BXOR"):
        t = torch.tensor([12 + rank, 5 * rank, 255 - rank], dtype=torch.int64)
        dist.all_reduce(t, op=getattr(dist.ReduceOp, op))
        out[f"all_reduce {op}"] = t
    t = rank_input(rank).reshape(2, 3).t().contiguous()  # a 2-D tensor, reduced in place
    dist.all_reduce(t)
    out["all_reduce 2d"] = t
    for root in range(world):
        t = rank_input(rank)
        dist.broadcast(t, src=root)
        out[f"broadcast {root}"] = t
        t = rank_input(rank)
        dist.reduce(t, dst=root, op=dist.ReduceOp.MAX)
        out[f"reduce {root}"] = t
    gathered = [torch.zeros(6, dtype=torch.float64) for _ in range(world)]
    dist.all_gather(gathered, rank_input(rank))
    out["all_gather"] = torch.stack(gathered)
    into = torch.zeros(world * 6, dtype=torch.float64)
    dist.all_gather_into_tensor(into, rank_input(rank))
    out["all_gather_into_tensor"] = into
    gathered = [torch.zeros(6, dtype=torch.float64) for _ in range(world)] if rank == 1 else None
    dist.gather(rank_input(rank), gathered, dst=1)
    out["gather"] = torch.stack(gathered) if rank == 1 else torch.zeros(0)
    received = torch.zeros(6, dtype=torch.float64)
    dist.scatter(received, [rank_input(10 + i) for i in range(world)] if rank == 0 else None, src=0)
    out["scatter"] = received
    mine = torch.zeros(6, dtype=torch.float64)
    dist.reduce_scatter(mine, [rank_input(rank) * (i + 1) for i in range(world)])
    out["reduce_scatter"] = mine
    outputs = [torch.zeros(6, dtype=torch.float64) for _ in range(world)]
    dist.all_to_all(outputs, [rank_input(rank) + 100 * i for i in range(world)])
    out["all_to_all"] = torch.stack(outputs)
    single = torch.zeros(2 * world, dtype=torch.float64)
    dist.all_to_all_single(single, torch.arange(2 * world, dtype=torch.float64) + 10 * rank)
    out["all_to_all_single"] = single
    # uneven blocks: rank r sends q + 1 rows to rank q, and so receives r + 1 rows from each
    rows_out = [q + 1 for q in range(world)]
    uneven_in = torch.cat([torch.full((q + 1, 2), float(100 * rank + q)) for q in range(world)])
    uneven_out = torch.zeros(world * (rank + 1), 2)
    dist.all_to_all_single(uneven_out, uneven_in, [rank + 1] * world, rows_out)
    out["all_to_all_single uneven"] = uneven_out
    listed = [torch.zeros(rank + 1, 2) for _ in range(world)]
    dist.all_to_all(listed, [torch.full((q + 1, 2), float(100 * rank + q)) for q in range(world)])
    out["all_to_all uneven"] = torch.cat(listed)
    # async: two all-reduces in flight at once, waited in reverse order
    a, b = rank_input(rank), rank_input(rank) * 2
    wa = dist.all_reduce(a, async_op=True)
    wb = dist.all_reduce(b, async_op=True)
    wb.wait()
    wa.wait()
    out["async"] = torch.stack([a, b])
    out["async completed"] = torch.tensor([wa.is_completed(), wb.is_completed(), wa.is_success()])
    # point to point: a ring, then everyone to rank 0 from any source
    nxt, prv = (rank + 1) % world, (rank - 1) % world
    got = torch.zeros(6, dtype=torch.float64)
    send_work = dist.isend(rank_input(rank), nxt, tag=7)
    recv_work = dist.irecv(got, prv, tag=7)
    send_work.wait()
    recv_work.wait()
    out["ring"] = got
    if rank == 0:
        senders = []
        for _ in range(world - 1):
            t = torch.zeros(1, dtype=torch.float64)
            src = dist.recv(t, tag=3)
            senders.append([src, float(t)])
        out["any source"] = torch.tensor(sorted(senders))
    else:
        dist.send(torch.tensor([float(rank * 11)], dtype=torch.float64), 0, tag=3)
    objects = [None] * world
    dist.all_gather_object(objects, {"rank": rank, "word": "x" * (rank + 1)})
    out["objects"] = objects
    shared = [{"from": "rank0", "n": 42}, [1, 2, 3]] if rank == 0 else [None, None]
    dist.broadcast_object_list(shared, src=0)
    out["broadcast objects"] = shared
    # a sub-group of the even ranks
    evens = dist.new_group([r for r in range(world) if r % 2 == 0])
    t = rank_input(rank)
    dist.all_reduce(t, group=evens)
    out["even group"] = t
    out["even group size"] = dist.get_world_size(evens)
    dist.barrier()
    return out


def _model():
    return nn.Sequential(nn.Linear(5, 16), nn.Tanh(), nn.Linear(16, 8), nn.ReLU(), nn.Linear(8, 3))


def ddp_data(world, per_rank=8):
    g = torch.Generator()
    g.manual_seed(1234)
    return torch.randn(world * per_rank, 5, generator=g), torch.randn(world * per_rank, 3, generator=g)


def ddp(rank, world):
    torch.manual_seed(100 + rank)  # different on purpose: DDP starts every rank from rank 0's
    model = _model()
    replica = nn.parallel.DistributedDataParallel(model, bucket_cap_mb=0.0005)  # several buckets
    opt = torch.optim.SGD(replica.parameters(), lr=0.05, momentum=0.9)
    x, y = ddp_data(world)
    mine = slice(rank * 8, (rank + 1) * 8)
    out = {"initial": [p.detach().clone() for p in model.parameters()], "buckets": len(replica._buckets)}
    for _ in range(4):
        opt.zero_grad()
        loss = ((replica(x[mine]) - y[mine]) ** 2).mean()
        loss.backward()
        opt.step()
    out["trained"] = [p.detach().clone() for p in model.parameters()]
    # no_sync: two micro-batches accumulate locally, the third backward averages the sum
    opt.zero_grad()
    half = slice(rank * 8, rank * 8 + 4), slice(rank * 8 + 4, (rank + 1) * 8)
    with replica.no_sync():
        ((replica(x[half[0]]) - y[half[0]]) ** 2).mean().backward()
    out["local grad"] = [p.grad.clone() for p in model.parameters()]
    ((replica(x[half[1]]) - y[half[1]]) ** 2).mean().backward()
    out["accumulated grad"] = [p.grad.clone() for p in model.parameters()]
    if rank == 0:
        torch.save(replica.module.state_dict(), os.environ["DDP_CHECKPOINT"])
    return out


class _TwoHeads(nn.Module):
    def __init__(self):
        super().__init__()
        self.trunk = nn.Linear(4, 4)
        self.a = nn.Linear(4, 2)
        self.b = nn.Linear(4, 2)
        self.norm = nn.BatchNorm1d(4)

    def forward(self, x, head):
        h = self.norm(self.trunk(x))
        return self.a(h) if head == "a" else self.b(h)


def ddp_unused(rank, world):
    torch.manual_seed(7)
    model = _TwoHeads()
    replica = nn.parallel.DistributedDataParallel(model, find_unused_parameters=True)
    x = rank_input(rank, 12, torch.float32).reshape(3, 4)
    # rank 0 uses head a, the others head b: each head's gradient is another rank's alone
    (replica(x, "a" if rank == 0 else "b") ** 2).sum().backward()
    return {
        "grads": {name: (p.grad.clone() if p.grad is not None else None) for name, p in model.named_parameters()},
        "running_mean": model.norm.running_mean.clone(),
        "x": x,
    }


def _bn_net(norm):
    return nn.Sequential(nn.Conv2d(2, 4, 3), norm(4), nn.ReLU(), nn.Flatten(), nn.Linear(4 * 4 * 4, 3))


def sync_batchnorm_data(world, per_rank=4):
    g = torch.Generator()
    g.manual_seed(77)
    return torch.randn(world * per_rank, 2, 6, 6, generator=g) * 3 + 1, torch.randn(world * per_rank, 3, generator=g)


def sync_batchnorm(rank, world):
    torch.manual_seed(5)
    model = nn.SyncBatchNorm.convert_sync_batchnorm(_bn_net(nn.BatchNorm2d))
    replica = nn.parallel.DistributedDataParallel(model)
    opt = torch.optim.SGD(replica.parameters(), lr=0.1)
    x, y = sync_batchnorm_data(world)
    mine = slice(rank * 4, (rank + 1) * 4)
    for _ in range(3):
        opt.zero_grad()
        ((replica(x[mine]) - y[mine]) ** 2).mean().backward()
        opt.step()
    return {"state": {k: v.clone() for k, v in model.state_dict().items()}, "kind": type(model[1]).__name__}


def sampler(rank, world):
    from torch.utils.data import DistributedSampler

    data = list(range(23))
    out = {}
    for shuffle, drop_last in ((True, False), (False, False), (True, True)):
        s = DistributedSampler(data, shuffle=shuffle, drop_last=drop_last, seed=5)
        for epoch in (0, 1):
            s.set_epoch(epoch)
            out[f"{shuffle} {drop_last} {epoch}"] = list(s)
    return out


def dies(rank, world):
    if rank == 1:
        os._exit(9)  # dies without a word, in the middle of the job
    t = torch.ones(4)
    start = time.monotonic()
    try:
        dist.all_reduce(t)
        dist.all_reduce(t)
        return {"error": None}
    except RuntimeError as e:
        return {"error": str(e), "seconds": time.monotonic() - start}


def hangs(rank, world):
    if rank == 1:  # alive but never joins the collective, for longer than the timeout
        time.sleep(2 * float(os.environ["DIST_TEST_TIMEOUT"]) + 2)
        return {}
    t = torch.ones(4)
    start = time.monotonic()
    try:
        dist.all_reduce(t)
        return {"error": None}
    except RuntimeError as e:
        return {"error": str(e), "seconds": time.monotonic() - start}


def main():
    scenario, out_dir = sys.argv[1], sys.argv[2]
    timeout = timedelta(seconds=float(os.environ.get("DIST_TEST_TIMEOUT", "60")))
    init_method = os.environ.get("DIST_TEST_INIT", "env://")
    if init_method == "mpi":  # started by mpirun
        dist.init_process_group("mpi", timeout=timeout)
    elif init_method == "env://":
        dist.init_process_group("gloo", timeout=timeout)
    else:
        dist.init_process_group(
            "gloo",
            init_method=init_method,
            timeout=timeout,
            rank=int(os.environ["RANK"]),
            world_size=int(os.environ["WORLD_SIZE"]),
        )
    rank, world = dist.get_rank(), dist.get_world_size()
    result = globals()[scenario](rank, world)
    result["rank"], result["world"] = rank, world
    torch.save(result, os.path.join(out_dir, f"rank{rank}.pt"))
    if scenario == "hangs" and rank != 1:
        os._exit(0)  # rank 1 is asleep; do not wait for it at exit
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
