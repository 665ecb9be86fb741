"""torch.distributed's nccl backend and CUDA tensors through torch.multiprocessing, on a GPU.

    python tests/python/nccl_cases.py     on a machine with a CUDA GPU and libnccl (the GPU check,
                                          scripts/device_check.sh, runs it there)

Each collective runs over NCCL on CUDA tensors and over Gloo on the same values on the CPU (a
Gloo group beside the NCCL world), and the results must agree. NCCL refuses two ranks on one
GPU, and the GPU machine has one: the groups here have one rank per GPU this machine has, in
one process when it has one GPU. DDP with device_ids over NCCL must equal a plain step in one
process; a CUDA tensor sent through a Queue to a spawned child must be the same memory.

Prints one JSON line {case: null | "error text"} and exits 0 when every case passed."""

import contextlib
import os
import sys
import time

import numpy as np

import torch
import torch.distributed as dist
import torch.multiprocessing as mp
import torch.nn as nn

from cuda_cases import raises, run_cases  # packed beside this file (scripts/device_check.sh)

# one machine, which may have no network but loopback: NCCL's bootstrap on lo
os.environ.setdefault("NCCL_SOCKET_IFNAME", "lo")
CASES = {}


def case(fn):
    CASES[fn.__name__] = fn
    return fn


@contextlib.contextmanager
def nccl_world():
    """A world of one rank over NCCL, and a Gloo group of the same ranks for the references."""
    dist.init_process_group("nccl", store=dist.HashStore(), rank=0, world_size=1)
    try:
        yield dist.new_group(backend="gloo")
    finally:
        dist.destroy_process_group()


def agree(gpu, cpu, rtol=1e-6, atol=0):
    assert gpu.is_cuda and not cpu.is_cuda, (gpu.device, cpu.device)
    assert gpu.dtype == cpu.dtype and gpu.shape == cpu.shape, (gpu.dtype, cpu.dtype, gpu.shape, cpu.shape)
    want = cpu.float() if cpu.dtype in (torch.float16, torch.bfloat16) else cpu
    got = gpu.cpu()
    got = got.float() if got.dtype in (torch.float16, torch.bfloat16) else got
    np.testing.assert_allclose(got.numpy(), want.numpy(), rtol=rtol, atol=atol)


def values(dtype, n=12):
    g = torch.Generator().manual_seed(n)
    if dtype == torch.bool:
        return torch.rand(n, generator=g) > 0.5
    if dtype.is_floating_point:
        return (torch.rand(n, generator=g) * 4 - 2).to(dtype)
    return torch.randint(-5, 6, (n,), generator=g).to(dtype)


@case
def nccl_is_available_and_loads():
    assert dist.is_nccl_available()
    version = torch._C._nccl.version()
    assert version >= 20000, version


@case
def all_reduce_every_op_and_type_against_gloo():
    ops = [dist.ReduceOp.SUM, dist.ReduceOp.PRODUCT, dist.ReduceOp.MIN, dist.ReduceOp.MAX, dist.ReduceOp.AVG]
    types = [torch.float32, torch.float64, torch.int32, torch.int64, torch.uint8, torch.int8]
    with nccl_world() as gloo:
        for dtype in types:
            for op in ops:
                cpu = values(dtype)
                gpu = cpu.cuda()
                dist.all_reduce(gpu, op=op)
                dist.all_reduce(cpu, op=op, group=gloo)
                agree(gpu, cpu)
        # Half and BFloat16: NCCL has them; the sum of one rank is the tensor itself
        for dtype in (torch.float16, torch.bfloat16):
            x = values(torch.float32).to(dtype)
            gpu = x.cuda()
            dist.all_reduce(gpu)
            agree(gpu, x)
        # Bool travels as uint8, SUM as logical or and PRODUCT as logical and (PyTorch's)
        for op in (dist.ReduceOp.SUM, dist.ReduceOp.PRODUCT, dist.ReduceOp.MIN, dist.ReduceOp.MAX):
            x = values(torch.bool)
            gpu = x.cuda()
            dist.all_reduce(gpu, op=op)
            agree(gpu, x)


@case
def rooted_and_gathering_collectives_against_gloo():
    with nccl_world() as gloo:
        x = values(torch.float32, 24).reshape(4, 6)
        for fn in (
            lambda t, g: dist.broadcast(t, 0, group=g),
            lambda t, g: dist.reduce(t, 0, group=g),
            lambda t, g: dist.reduce(t, 0, op=dist.ReduceOp.MAX, group=g),
        ):
            gpu, cpu = x.cuda(), x.clone()
            fn(gpu, None)
            fn(cpu, gloo)
            agree(gpu, cpu)
        # all_gather into a list and into one tensor
        gpu_list, cpu_list = [torch.zeros(4, 6, device="cuda")], [torch.zeros(4, 6)]
        dist.all_gather(gpu_list, x.cuda())
        dist.all_gather(cpu_list, x, group=gloo)
        agree(gpu_list[0], cpu_list[0])
        gpu_out = torch.zeros(24, device="cuda")
        cpu_out = torch.zeros(24)
        dist.all_gather_into_tensor(gpu_out, x.cuda())
        dist.all_gather_into_tensor(cpu_out, x, group=gloo)
        agree(gpu_out, cpu_out)
        # reduce_scatter (NCCL's own) against Gloo's
        gpu_out, cpu_out = torch.zeros(4, 6, device="cuda"), torch.zeros(4, 6)
        dist.reduce_scatter(gpu_out, [x.cuda()])
        dist.reduce_scatter(cpu_out, [x], group=gloo)
        agree(gpu_out, cpu_out)
        gpu_out, cpu_out = torch.zeros(24, device="cuda"), torch.zeros(24)
        dist.reduce_scatter_tensor(gpu_out, x.reshape(-1).cuda(), op=dist.ReduceOp.AVG)
        dist.reduce_scatter_tensor(cpu_out, x.reshape(-1), op=dist.ReduceOp.AVG, group=gloo)
        agree(gpu_out, cpu_out)
        # all_to_all, with equal blocks and with split sizes, and of lists
        gpu_out, cpu_out = torch.zeros(4, 6, device="cuda"), torch.zeros(4, 6)
        dist.all_to_all_single(gpu_out, x.cuda())
        dist.all_to_all_single(cpu_out, x, group=gloo)
        agree(gpu_out, cpu_out)
        dist.all_to_all_single(gpu_out, x.cuda(), [4], [4])
        agree(gpu_out, x)
        gpu_outs = [torch.zeros(4, 6, device="cuda")]
        dist.all_to_all(gpu_outs, [x.cuda()])
        agree(gpu_outs[0], x)
        # gather and scatter, made of NCCL's send and recv (a rank sends to itself here)
        gathered = [torch.zeros(4, 6, device="cuda")]
        dist.gather(x.cuda(), gathered, dst=0)
        agree(gathered[0], x)
        scattered = torch.zeros(4, 6, device="cuda")
        dist.scatter(scattered, [x.cuda()], src=0)
        agree(scattered, x)
        # objects travel as CUDA byte tensors over NCCL
        objects = [None]
        dist.all_gather_object(objects, {"rank": dist.get_rank(), "x": [1, 2]})
        assert objects == [{"rank": 0, "x": [1, 2]}], objects
        box = ["hello", 3]
        dist.broadcast_object_list(box, src=0)
        assert box == ["hello", 3], box
        dist.barrier()


@case
def async_work_follows_pytorch_stream_semantics():
    with nccl_world():
        side = torch.cuda.Stream()
        a = torch.randn(1024, 1024, device="cuda")
        want = (a @ a).cpu()
        side.wait_stream(torch.cuda.current_stream())  # `a` is ready for `side`
        with torch.cuda.stream(side):
            # the NCCL stream must wait for this product, queued just before on `side`
            x = a @ a
            work = dist.all_reduce(x, async_op=True)
            work.wait()  # `side` now waits for the all-reduce; the host does not
            y = x * 2
        side.synchronize()
        np.testing.assert_allclose(y.cpu().numpy(), (want * 2).numpy(), rtol=1e-5, atol=1e-3)
        assert work.is_completed() and work.is_success()
        assert work.result()[0] is x
        # many in flight, waited for in any order
        tensors = [torch.full((1000,), float(i), device="cuda") for i in range(8)]
        works = [dist.all_reduce(t, async_op=True) for t in tensors]
        for w in reversed(works):
            w.wait()
        assert [float(t[0]) for t in tensors] == [float(i) for i in range(8)]
        # a wait with a timeout blocks the host until the op ran (and would abort on expiry)
        z = torch.ones(10, device="cuda")
        dist.all_reduce(z, async_op=True).wait(timeout=__import__("datetime").timedelta(seconds=30))
        assert z.sum().item() == 10
        dist.monitored_barrier()


@case
def the_watchdog_aborts_an_op_past_the_groups_timeout():
    """An all-reduce queued behind three seconds of matrix products cannot finish within a
    timeout of 0.2 s: the watchdog aborts the communicator, the device is not left hanging,
    and the group's next op raises, naming why."""
    from datetime import timedelta

    dist.init_process_group("nccl", store=dist.HashStore(), rank=0, world_size=1, timeout=timedelta(seconds=0.2))
    try:
        a = torch.randn(16384, 16384, device="cuda")
        a @ a  # cuBLAS loaded and warm
        torch.cuda.synchronize()
        start = time.monotonic()
        a @ a
        torch.cuda.synchronize()
        repeats = int(3.0 / (time.monotonic() - start)) + 1  # products for three seconds
        start = time.monotonic()
        for _ in range(repeats):
            b = a @ a
        t = torch.ones(10, device="cuda")
        work = dist.all_reduce(t, async_op=True)  # waits for the products on the caller's stream
        queued = time.monotonic() - start
        torch.cuda.synchronize()  # returns: NCCL's op is aborted or ran, never stuck
        busy = time.monotonic() - start
        assert queued < 0.2 < busy, (queued, busy, repeats)  # the op really was in flight past the timeout
        del b
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            try:
                dist.all_reduce(torch.ones(1, device="cuda"))
            except RuntimeError as e:
                assert "watchdog" in str(e) and "timeout" in str(e), str(e)
                break
            time.sleep(0.1)
        else:
            raise AssertionError("the group still works after an op outlived its timeout")
        assert not work.is_success()
    finally:
        dist.destroy_process_group()


@case
def nccl_refuses_what_pytorch_refuses():
    with nccl_world():
        raises(lambda: dist.all_reduce(torch.ones(3)), ["Tensors must be CUDA"])
        raises(lambda: dist.all_reduce(torch.ones(3, device="cuda"), op=dist.ReduceOp.BAND), ["BAND", "NCCL"])
        raises(
            lambda: dist.all_reduce(torch.ones(3, device="cuda", dtype=torch.bool), op=dist.ReduceOp.AVG),
            ["AVG", "boolean"],
        )
        raises(lambda: dist.all_reduce(torch.ones(3, device="cuda", dtype=torch.int16)), ["int16"])
        raises(lambda: dist.all_reduce(torch.ones(4, 4, device="cuda").t()), ["contiguous"])
        raises(
            lambda: dist.all_gather_into_tensor(
                torch.zeros(3, device="cuda"), torch.ones(3, device="cuda", dtype=torch.int64)
            ),
            ["dtype"],
        )
        raises(lambda: dist.irecv(torch.zeros(3, device="cuda")), ["src"])
        t = torch.arange(4.0, device="cuda")
        dist.all_reduce(t)  # the group still works after the refusals
        assert t.tolist() == [0.0, 1.0, 2.0, 3.0]


@case
def new_group_and_destroy_make_and_free_communicators():
    for _ in range(2):  # a second world after the first was destroyed
        dist.init_process_group("nccl", store=dist.HashStore(), rank=0, world_size=1)
        assert dist.get_backend() == "nccl"
        sub = dist.new_group([0])
        assert dist.get_backend(sub) == "nccl"
        t = torch.full((5,), 3.0, device="cuda")
        dist.all_reduce(t, op=dist.ReduceOp.PRODUCT, group=sub)
        assert t.tolist() == [3.0] * 5
        pending = dist.all_reduce(t, op=dist.ReduceOp.MAX, group=sub, async_op=True)
        dist.destroy_process_group(sub)  # ncclCommDestroy: what was queued runs first
        pending.wait()
        assert pending.is_completed() and t.tolist() == [3.0] * 5
        raises(lambda: dist.all_reduce(t, group=sub), ["destroyed"])
        dist.destroy_process_group()
        assert not dist.is_initialized()


@case
def ddp_with_device_ids_over_nccl_equals_one_process():
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(10, 32), nn.ReLU(), nn.Linear(32, 3)).cuda()
    plain = nn.Sequential(nn.Linear(10, 32), nn.ReLU(), nn.Linear(32, 3)).cuda()
    plain.load_state_dict(model.state_dict())
    x = torch.randn(16, 10)
    y = torch.randint(0, 3, (16,))
    with nccl_world():
        ddp = nn.parallel.DistributedDataParallel(model, device_ids=[0])
        assert all(b.flat.is_cuda for b in ddp._buckets)
        for m in (ddp, plain):
            opt = torch.optim.SGD(m.parameters(), lr=0.1)
            for _ in range(3):
                opt.zero_grad()
                nn.functional.cross_entropy(m(x.cuda()), y.cuda()).backward()
                opt.step()
        for p, q in zip(ddp.module.parameters(), plain.parameters()):
            np.testing.assert_allclose(p.detach().cpu().numpy(), q.detach().cpu().numpy(), rtol=0, atol=1e-6)


def _rank_of_a_world(rank, world, path):
    """One rank per GPU, through the file:// rendezvous; each result against numpy."""
    torch.cuda.set_device(rank)
    dist.init_process_group("nccl", init_method="file://" + path, rank=rank, world_size=world)
    base = np.arange(6.0)
    x = torch.from_numpy(base + rank).float().cuda()
    dist.all_reduce(x)
    np.testing.assert_allclose(x.cpu().numpy(), sum(base + r for r in range(world)))
    y = torch.full((3,), float(rank), device="cuda")
    dist.broadcast(y, src=world - 1)
    assert y.tolist() == [float(world - 1)] * 3, y.tolist()
    gathered = [torch.zeros(2, device="cuda", dtype=torch.int64) for _ in range(world)]
    dist.all_gather(gathered, torch.tensor([rank, 10 * rank], device="cuda"))
    assert [g.tolist() for g in gathered] == [[r, 10 * r] for r in range(world)]
    out = torch.zeros(world, device="cuda")
    dist.all_to_all_single(out, torch.tensor([100.0 * rank + j for j in range(world)], device="cuda"))
    assert out.tolist() == [100.0 * r + rank for r in range(world)], out.tolist()
    if world > 1:  # a ring of sends: each rank receives its left neighbour's rank
        left, right = (rank - 1) % world, (rank + 1) % world
        got = torch.zeros(1, device="cuda")
        sending = torch.tensor([float(rank)], device="cuda")
        if rank % 2 == 0:  # each NCCL call waits for its peer's: even ranks send first, odd ones receive
            dist.send(sending, right)
            dist.recv(got, left)
        else:
            dist.recv(got, left)
            dist.send(sending, right)
        assert got.tolist() == [float(left)], got.tolist()
    dist.barrier()
    dist.destroy_process_group()


@case
def a_world_of_one_process_per_gpu_over_file_rendezvous():
    import tempfile

    world = torch.cuda.device_count()
    with tempfile.TemporaryDirectory() as d:
        mp.spawn(_rank_of_a_world, args=(world, os.path.join(d, "rendezvous")), nprocs=world)


def _child_writes(queue, done):
    t = queue.get()
    assert t.is_cuda, t.device
    t.add_(10)  # writes into the parent's memory
    view = queue.get()
    view.fill_(-1)
    torch.cuda.synchronize()
    done.put(float(t.sum()))
    del t, view
    done.put("released")


@case
def cuda_tensor_through_a_queue_is_the_same_memory():
    ctx = mp.get_context("spawn")
    queue, done = ctx.Queue(), ctx.Queue()
    base = torch.arange(12.0, device="cuda")
    other = torch.zeros(20, device="cuda")
    child = ctx.Process(target=_child_writes, args=(queue, done))
    child.start()
    queue.put(base)
    queue.put(other[5:9])  # a view at an offset in its storage
    seen = done.get(timeout=120)
    assert seen == float(sum(range(12)) + 120), seen
    assert done.get(timeout=120) == "released"
    child.join(120)
    assert child.exitcode == 0, child.exitcode
    torch.cuda.synchronize()
    assert base.tolist() == [float(i + 10) for i in range(12)], base.tolist()
    assert other.tolist() == [0.0] * 5 + [-1.0] * 4 + [0.0] * 11, other.tolist()
    from torch.multiprocessing import reductions

    reductions._drop_released_cuda()
    assert not reductions._cuda_sent, reductions._cuda_sent  # the child let both go


@case
def fork_after_cuda_init_raises_pytorch_error():
    torch.zeros(1, device="cuda")  # CUDA is initialised in this process
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(read)
        messages = [str(torch.cuda._is_in_bad_fork())]
        for attempt in (
            lambda: torch.zeros(1, device="cuda"),
            lambda: dist.init_process_group("nccl", store=dist.HashStore(), rank=0, world_size=1),
        ):
            try:
                attempt()
                messages.append("no error")
            except RuntimeError as e:
                messages.append(str(e))
        os.write(write, "|".join(messages).encode())
        os._exit(0)
    os.close(write)
    flag, *messages = os.read(read, 8192).decode().split("|")
    os.close(read)
    os.waitpid(pid, 0)
    assert flag == "True", flag
    for message in messages:
        assert "Cannot re-initialize CUDA in forked subprocess" in message, messages
    assert not torch.cuda._is_in_bad_fork()


def main():
    def leave_the_group():  # a failed case must not leave the next one inside its group
        if dist.is_initialized():
            dist.destroy_process_group()

    return run_cases(CASES, leave_the_group)


if __name__ == "__main__":
    sys.exit(main())
